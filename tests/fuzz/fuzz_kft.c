// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for scripts/kft, the target's recorder, on what it
 * reads: the input, up to its first "\n====\n", is a log as
 * /proc/kft_data holds it, and the rest /proc/kallsyms; kft picks the
 * symbols the log names (save_symbols()) and wraps the input as a config
 * (make_config()): no crash, leak or undefined behaviour, a wrapped config
 * ends its last line.  (tests/tools/test_kft.sh checks that the symbols
 * kept resolve a log as all of kallsyms does.)
 */
#define _GNU_SOURCE	/* memfd_create() */
#define main kft_main
#include "../../scripts/kft.c"
#undef main

#include "fuzz_memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile syms;
	const char *split = memmem(data, size, "\n====\n", 6);
	size_t loglen = split ? (size_t)(split - (const char *)data) : size;
	char *log = malloc(loglen + 1), *cfg;

	if (!log)
		abort();
	memcpy(log, data, loglen);
	log[loglen] = '\0';
	if (split)
		memfile_put(&syms, "kallsyms", split + 6, size - loglen - 6);
	else
		memfile_put(&syms, "kallsyms", "", 0);
	snprintf(proc_syms, sizeof(proc_syms), "%s", syms.path);
	if (save_symbols(log, "/dev/null") < 0)
		abort();	/* only memory or /dev/null could fail */
	cfg = make_config(log);
	if (!cfg || strncmp(cfg + strlen(cfg) - 1, "\n", 1))
		abort();
	free(cfg);
	free(log);
	return 0;
}
