// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the KFT config parser (kernel/kft_config.c, as the
 * kernel builds it): any input must parse or be refused with a line and a
 * message, never crash or leak; what parses must print and parse back to
 * the same text.
 */
#include <linux/kernel.h>
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

static void check(const char *data, size_t size, unsigned int flags)
{
	struct kft_config cfg, again;
	struct kft_config_error err;
	char *out, *out2;
	size_t len;

	if (kft_config_parse(&cfg, data, size, flags, &err)) {
		if (!err.msg || !err.line)
			abort();	/* a refusal must say where and why */
		return;
	}
	if (kft_config_resolve(&cfg, lookup, NULL, &err)) {
		if (!err.msg)
			abort();
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

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	check((const char *)data, size, 0);
	check((const char *)data, size, KFT_PARSE_STATIC);
	return 0;
}
