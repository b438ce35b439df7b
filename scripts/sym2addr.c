// SPDX-License-Identifier: GPL-2.0
/*
 * sym2addr: write the function names of a KFT config as addresses, for
 * kernels whose /proc/kft cannot resolve names (or to pin a config to one
 * build).  The config is checked with the kernel's own parser
 * (kernel/kft_config.c); keywords, numbers and comments are kept as they
 * are.  An unknown or ambiguous name is an error naming its line.  A config
 * without new/end (kftstatic.conf style) gets them, so that the output can
 * be written to /proc/kft as it is.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kft/crlines.h"
#include "kft/optonce.h"
#include "kft/output.h"
#include "kft/slurp.h"
#include "kft/symtab.h"
#include "../kernel/kft_config.h"

#define KFT_VERSION "2.0"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sym2addr [options] CONFIG [MAP]\n"
		"Write the function names in a KFT config as addresses.\n"
		"\n"
		"  CONFIG              the config ('-' for standard input)\n"
		"  MAP                 System.map or a saved /proc/kallsyms\n"
		"  -m, --map FILE      the same as MAP\n"
		"  -e, --elf FILE      vmlinux instead of a map\n"
		"  -o, --output FILE   write here instead of standard output\n"
		"  -h, --help          this help\n"
		"  -V, --version       version\n");
}

static int lookup(void *priv, const char *name, unsigned long *addr)
{
	uint64_t a;
	int ret = kft_symtab_addr(priv, name, &a);

	if (!ret)
		*addr = a;
	return ret;
}

static int by_offset(const void *a, const void *b)
{
	const struct kft_fref *const *x = a, *const *y = b;

	return (*x)->offset < (*y)->offset ? -1 : (*x)->offset > (*y)->offset;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "elf", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	const char *map = NULL, *elf = NULL, *output = NULL, *path;
	struct kft_fref **refs = NULL, *ref;
	struct kft_config_error cerr;
	char what[KFT_ERROR_LEN];
	struct kft_config cfg;
	struct kft_symtab st;
	size_t len, pos = 0;
	unsigned int i, nrefs = 0;
	FILE *out = stdout;
	char err[512], *text;
	int c, ret = 1;
	struct kft_optonce once = { 0 };

	while ((c = getopt_long(argc, argv, "m:e:o:hV", opts, NULL)) != -1) {
		if (!kft_opt_once(&once, "sym2addr", c, "m:e:o:hV", opts))
			return 2;
		switch (c) {
		case 'm': map = optarg; break;
		case 'e': elf = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(stdout); return kft_output_done("sym2addr", 0);
		case 'V': printf("sym2addr (KFT) %s\n", KFT_VERSION); return kft_output_done("sym2addr", 0);
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc - 1 && !map && !elf)
		map = argv[argc - 1], argc--;
	if (optind != argc - 1 || !map == !elf) {
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if (!strcmp(path, "-") && map && !strcmp(map, "-")) {
		fprintf(stderr, "sym2addr: the config and the map cannot both be standard input ('-')\n");
		return 2;
	}
	if (kft_same_file(output, path) || kft_same_file(output, map) ||
	    kft_same_file(output, elf)) {
		fprintf(stderr, "sym2addr: %s: the output would replace an input\n",
			output);
		return 2;
	}
	text = kft_slurp_input(path, &len);
	if (!text) {
		fprintf(stderr, "sym2addr: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!len) {
		fprintf(stderr, "sym2addr: %s: an empty file, no config\n", path);
		free(text);
		return 1;
	}
	/* Lines ended by a lone CR are lines: to the parser and the kernel. */
	kft_crlines_fix(text, len);
	if (kft_config_parse(&cfg, text, len, KFT_PARSE_STATIC, &cerr)) {
		fprintf(stderr, "sym2addr: %s:%u: %s\n", path, cerr.line,
			kft_config_strerror(&cerr, what, sizeof(what)));
		free(text);
		return 1;
	}
	if (kft_symtab_load(&st, map, elf, err, sizeof(err))) {
		fprintf(stderr, "sym2addr: %s\n", err);
		goto out_cfg;
	}
	if (kft_config_resolve(&cfg, lookup, &st, &cerr)) {
		fprintf(stderr, "sym2addr: %s:%u: %s\n", path, cerr.line,
			kft_config_strerror(&cerr, what, sizeof(what)));
		goto out_st;
	}

	/* Rewrite the names where they stand, in text order. */
	for (i = 0; kft_config_fref(&cfg, i); i++)
		;
	refs = calloc(i, sizeof(*refs));
	if (!refs)
		goto out_st;
	for (i = 0; (ref = kft_config_fref(&cfg, i)); i++)
		if (ref->name)
			refs[nrefs++] = ref;
	qsort(refs, nrefs, sizeof(*refs), by_offset);
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "sym2addr: %s: %s\n", output, strerror(errno));
		goto out_st;
	}
	if (!kft_config_begins(text, len))
		fputs("new\n", out);
	for (i = 0; i < nrefs; i++) {
		fwrite(text + pos, 1, refs[i]->offset - pos, out);
		fprintf(out, "0x%lx", refs[i]->addr);
		pos = refs[i]->offset + refs[i]->len;
	}
	fwrite(text + pos, 1, len - pos, out);
	if (!kft_config_complete(text, len, KFT_PARSE_STATIC))
		fputs(len && text[len - 1] != '\n' ? "\nend\n" : "end\n", out);
	ret = 0;
	if (fclose(out)) {
		fprintf(stderr, "sym2addr: write error: %s\n", strerror(errno));
		ret = 1;
	}
out_st:
	kft_symtab_free(&st);
out_cfg:
	free(refs);
	kft_config_free(&cfg);
	free(text);
	return ret;
}
