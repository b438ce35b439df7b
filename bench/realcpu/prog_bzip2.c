// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu: bzip2 1.0.8 (Debian's bzip2 source, its library) as the
 * program driver.c runs: a larger working set than Lua's (a 900k block
 * and its sort arrays, several MB), small functions called in hot loops
 * (mainGtU(), the Huffman and bit-writing helpers).  Four phases: text
 * compressed with 900k blocks (mainSort), highly repetitive data
 * (fallbackSort), the text decompressed, the text with 100k blocks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bzlib.h"

#include "realcpu.h"

static char *text, *rep, *packed, *out;
static unsigned int ntext, nrep, npacked, cap;

/* Words of a made-up vocabulary, as prose: compressible, not trivially. */
static void make_text(unsigned int n)
{
	unsigned int seed = 42, i = 0, len, k;

	while (i < n) {
		seed = seed * 1103515245 + 12345;
		len = 2 + (seed >> 16) % 4 + ((seed >> 24) % 8 == 0) * 5;
		for (k = 0; k < len && i < n; k++)
			text[i++] = 'a' + ((seed >> 8) + k * 7 + (seed >> 20) % 13 * k) % 26;
		if (i < n)
			text[i++] = (seed >> 12) % 11 ? ' ' : '\n';
	}
}

static void compress(const char *src, unsigned int n, int block)
{
	unsigned int len = cap;
	int ret = BZ2_bzBuffToBuffCompress(out, &len, (char *)src, n, block, 0, 30);

	if (ret != BZ_OK) {
		fprintf(stderr, "realcpu: bzip2 compress: error %d\n", ret);
		exit(2);
	}
}

__attribute__((noinline)) void phase_compress(void)
{
	compress(text, ntext, 9);
}

__attribute__((noinline)) void phase_repetitive(void)
{
	compress(rep, nrep, 9);
}

__attribute__((noinline)) void phase_decompress(void)
{
	unsigned int len = cap;
	int ret = BZ2_bzBuffToBuffDecompress(out, &len, packed, npacked, 0, 0);

	if (ret != BZ_OK || len != ntext) {
		fprintf(stderr, "realcpu: bzip2 decompress: error %d\n", ret);
		exit(2);
	}
}

__attribute__((noinline)) void phase_small_blocks(void)
{
	compress(text, ntext, 1);
}

const struct realcpu_phase realcpu_phases[] = {
	{ "phase_compress", phase_compress },
	{ "phase_repetitive", phase_repetitive },
	{ "phase_decompress", phase_decompress },
	{ "phase_small_blocks", phase_small_blocks },
	{ NULL, NULL }
};

void realcpu_prog_init(int scale)
{
	unsigned int i;
	int ret;

	ntext = 150000 * scale;
	nrep = 100000 * scale;
	cap = ntext + ntext / 50 + 4096;
	text = malloc(ntext);
	rep = malloc(nrep);
	packed = malloc(cap);
	out = malloc(cap);
	if (!text || !rep || !packed || !out) {
		fprintf(stderr, "realcpu: out of memory\n");
		exit(2);
	}
	make_text(ntext);
	for (i = 0; i < nrep; i++)	/* one byte in 5000 differs */
		rep[i] = i % 5000 ? "abcd"[i % 4] : 'x';
	npacked = cap;
	ret = BZ2_bzBuffToBuffCompress(packed, &npacked, text, ntext, 9, 0, 30);
	if (ret != BZ_OK) {
		fprintf(stderr, "realcpu: bzip2: error %d\n", ret);
		exit(2);
	}
}
