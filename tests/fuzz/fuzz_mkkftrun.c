// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for scripts/mkkftrun, run as the kernel build runs it
 * (its main, built as mkkftrun_main): any kftstatic.conf is written as C
 * or refused; what is written holds the config byte for byte, as the boot
 * will parse it.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <getopt.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_memfile.h"

int mkkftrun_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct memfile conf;
	static char out[64];
	char *argv[] = { "mkkftrun", "-n", "4096", "-N", "fuzz*/\"?", conf.path, out, NULL };

	memfile_put(&conf, "kftstatic.conf", data, size);
	argv[5] = conf.path;
	if (!out[0])
		snprintf(out, sizeof(out), "/tmp/fuzz_mkkftrun.%d.c", (int)getpid());
	optind = 0;
	if (!mkkftrun_main(7, argv)) {
		/* Written: then there was no NUL for the boot to stop at. */
		if (memchr(data, '\0', size))
			abort();
		unlink(out);
	}
	return 0;
}
