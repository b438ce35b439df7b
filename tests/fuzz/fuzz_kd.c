// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kd: the log reader, the tree builder and every
 * output mode, run as the command runs (kd's main, built as kd_main).  The
 * first byte picks the mode; the rest is the log (or, for --boot --check
 * and --diff, a kd --boot --json report).  Any log must give
 * output or an error, never a crash, a leak, undefined behaviour or a hang.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <getopt.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_memfile.h"

int kd_main(int argc, char **argv);

static const char *const modes[][8] = {
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
	{ "--boot", "--json", NULL },
	{ "--boot", "--initcall-debug", NULL },
	/* The log (or a JSON report) against itself: the JSON reader too. */
	{ "--boot", "--check", NULL },
	{ "--boot", "--check", "--threshold", "0", "--min", "0", NULL },
	/* Times as measured: the hooks' cost read, not taken off. */
	{ "--raw", NULL },
	{ "-c", "-i", "-r", "--raw", NULL },
	{ "--boot", "--json", "--raw", NULL },
	/* The verdicts as KTAP: any name a test name. */
	{ "--boot", "--check", "--ktap", "--min", "0", NULL },
	/* The report as a page: both reports, any name in its data. */
	{ "--boot", "--html", NULL },
	/* A boot-data file: any name one word of its lines. */
	{ "--boot", "--boot-data", NULL },
	/* Other tasks' hooks left in the calls that waited (waits.c's not). */
	{ "--boot", "--no-waits", NULL },
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
	for (int i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--diff") || !strcmp(argv[i], "--check")) {
			argv[argc++] = log.path;
			break;
		}
	}
	argv[argc] = NULL;
	optind = 0;		/* getopt starts afresh */
	kd_main(argc, argv);
	return 0;
}
