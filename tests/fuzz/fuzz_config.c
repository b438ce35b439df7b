// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the KFT config parser (kernel/kft_config.c, as the
 * kernel builds it): any input must parse or be refused with a line and a
 * message, never crash or leak; what parses must print and parse back to
 * the same text.  Errors are one printable line.  A config written in
 * pieces (/proc/kft) must end at the same place whatever the pieces' size.
 */
#include <linux/kernel.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kft_config.h"

static int lookup(void *priv, const char *name, unsigned long *addr)
{
	size_t len = strlen(name);

	(void)priv;
	if (len % 5 == 0)
		return -ENOENT;
	*addr = 0xffffffff81000000UL + len * 16;
	return 0;
}

/* An error is one line of printable ASCII, the user's bytes escaped. */
static void check_error(const struct kft_config_error *err)
{
	char buf[KFT_ERROR_LEN];
	size_t i;

	if (!err->msg)
		abort();
	kft_config_strerror(err, buf, sizeof(buf));
	for (i = 0; buf[i]; i++)
		if (buf[i] < 0x20 || buf[i] > 0x7e)
			abort();
	if (i + 1 >= sizeof(buf))
		abort();	/* cut: KFT_ERROR_LEN is too small */
}

static void check(const char *data, size_t size, unsigned int flags)
{
	struct kft_config cfg, again;
	struct kft_config_error err;
	char *out, *out2;
	size_t len;

	if (kft_config_parse(&cfg, data, size, flags, &err)) {
		if (!err.line)
			abort();	/* a refusal must say where and why */
		check_error(&err);
		return;
	}
	if (kft_config_resolve(&cfg, lookup, NULL, &err)) {
		check_error(&err);
		kft_config_free(&cfg);
		return;
	}
	len = kft_config_print(&cfg, NULL, 0, NULL, NULL) + 1;
	out = malloc(len);
	out2 = malloc(len);
	kft_config_print(&cfg, out, len, NULL, NULL);
	if (kft_config_parse(&again, out, strlen(out), 0, &err))
		abort();	/* printed configs parse */
	if (kft_config_print(&again, out2, len, NULL, NULL) != len - 1 ||
	    strcmp(out, out2))
		abort();	/* ... back to the same config */
	kft_config_free(&again);
	kft_config_free(&cfg);
	free(out);
	free(out2);
}

/* Where /proc/kft would take the text as complete, in pieces of n bytes. */
static size_t end_in_pieces(const char *text, size_t size, size_t n)
{
	struct kft_config_scan scan = { 0 };
	size_t len = 0;

	while (len < size) {
		len = len + n < size ? len + n : size;
		if (kft_config_scan_end(text, len, &scan) &&
		    kft_config_complete(text, scan.pos, 0))
			return scan.pos;
	}
	return SIZE_MAX;
}

/*
 * Byte by byte tries every word boundary: p1 is where the config ends.  In
 * pieces of n bytes it must end with the piece that holds p1, at that
 * piece's last word boundary.
 */
static void check_pieces(const char *text, size_t size, size_t n)
{
	size_t p1 = end_in_pieces(text, size, 1), want = SIZE_MAX;

	if (p1 != SIZE_MAX) {
		want = (p1 + n - 1) / n * n;
		if (want > size)
			want = size;
		while (want > p1 && !isspace((unsigned char)text[want - 1]) &&
		       !strchr(",#", text[want - 1]))	/* NUL too */
			want--;
	}
	if (end_in_pieces(text, size, n) != want)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	check((const char *)data, size, 0);
	check((const char *)data, size, KFT_PARSE_STATIC);
	if (size > 1 && size <= 1024)
		check_pieces((const char *)data + 1, size - 1, 1 + data[0] % 64);
	return 0;
}
