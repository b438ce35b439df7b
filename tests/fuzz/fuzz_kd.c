// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kd: the log reader, the tree builder and every
 * output mode, run as the command runs (kd's main, built as kd_main).  The
 * first byte picks the mode; the rest is the log.  Any log must give
 * output or an error, never a crash, a leak, undefined behaviour or a hang.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <getopt.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_memfile.h"

int kd_main(int argc, char **argv);

static const char *const modes[][6] = {
	{ NULL },
	{ "-l", NULL },
	{ "-c", NULL },
	{ "-c", "-i", NULL },
	{ "-c", "-r", NULL },
	{ "-c", "-i", "-r", NULL },
	{ "--folded", NULL },
	{ "--chrome", NULL },
	{ "--svg", NULL },
	{ "--timeline", NULL },
	{ "--diff", NULL },		/* the log against itself */
	{ "-c", "--subtree", "f", NULL },
	{ "-c", "-i", "--pid", "-1", NULL },
	{ "-f", "Fctarslwmnu", "-s", "l", NULL },
	{ "--svg", "--cpu", "1", NULL },
	{ "-c", "-f", "eeettlllpp", NULL },
	{ "--boot", NULL },
	{ "--boot", "--svg", NULL },
	{ "--diff", "--boot", "-n", "3", NULL },	/* the log against itself */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile log;
	const char *const *mode;
	char *argv[16];
	int argc = 0;

	if (!size)
		return 0;
	mode = modes[data[0] % (sizeof(modes) / sizeof(modes[0]))];
	memfile_put(&log, "kd.log", data + 1, size - 1);
	argv[argc++] = "kd";
	for (; *mode; mode++)
		argv[argc++] = (char *)*mode;
	argv[argc++] = log.path;
	if (!strcmp(argv[1] ? argv[1] : "", "--diff"))
		argv[argc++] = log.path;
	argv[argc] = NULL;
	optind = 0;		/* getopt starts afresh */
	kd_main(argc, argv);
	return 0;
}
