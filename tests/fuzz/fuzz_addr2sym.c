// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for addr2sym on any log: /proc/kft_data, addr2sym's own
 * output, a console capture with a kft_dump= log in it (scripts/kft/
 * console.c), or garbage; run as the command runs (addr2sym's main, built
 * as addr2sym_main) against a small System.map.  The first byte picks the
 * jobs (1 to 3) and whether an offset is given.  Any log must give output
 * or an error, never a crash, a leak, undefined behaviour or a hang.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <getopt.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_memfile.h"

int addr2sym_main(int argc, char **argv);

static const char map[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000040 T startup_64\n"
	"ffffffff81001000 T start_kernel\n"
	"ffffffff81001200 t rest_init\n"
	"ffffffff81001200 t rest_init_alias\n"
	"ffffffff81002000 T do_one_initcall\n"
	"ffffffff81003000 T _etext\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile log, sysmap;
	char jobs[4], *argv[12];
	int argc = 0;

	if (!size)
		return 0;
	memfile_put(&sysmap, "System.map", map, sizeof(map) - 1);
	memfile_put(&log, "kft.log", data + 1, size - 1);
	snprintf(jobs, sizeof(jobs), "%d", data[0] % 3 + 1);
	argv[argc++] = "addr2sym";
	argv[argc++] = "-m";
	argv[argc++] = sysmap.path;
	argv[argc++] = "-j";
	argv[argc++] = jobs;
	argv[argc++] = "-o";
	argv[argc++] = "/dev/null";
	if (data[0] & 0x80) {
		argv[argc++] = "--offset";
		argv[argc++] = "0x1000";
	}
	argv[argc++] = log.path;
	argv[argc] = NULL;
	optind = 0;		/* getopt starts afresh */
	addr2sym_main(argc, argv);
	return 0;
}
