// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for scripts/kftsites: any file must be refused with a
 * message or listed and rewritten, never crash, hang or leak.  What it
 * rewrites is read again: the second run must find the tables and leave
 * the file alone; so with --bounded-sites.  --reach and --bounded read
 * every input first (they write nothing).
 * Linked with kftsites' files (scripts/kftsites_shared.h), its main() built as
 * kftsites_main; its refusals are muted by tests/fuzz/test_fuzz.sh
 * (-close_fd_mask=3).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kftsites_shared.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	elf_version(EV_CURRENT);
	return 0;
}

/* The file's bytes now. */
static char *contents(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf = malloc(end > 0 ? end : 1);

	if (!buf || end < 0 || pread(fd, buf, end, 0) != end)
		abort();
	*len = end;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("kftsites-fuzz", 0);
	char path[64], *once, *twice;
	size_t n1, n2;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	once = contents(fd, &n1);
	reach(path, NULL);
	bounded_list(path);
	twice = contents(fd, &n2);
	if (n1 != n2 || memcmp(once, twice, n1))
		abort();	/* --reach or --bounded wrote to the file */
	free(once);
	free(twice);
	if (process(path, false, 0) == 0) {
		once = contents(fd, &n1);
		if (process(path, false, 0))
			abort();	/* it wrote what it cannot read */
		twice = contents(fd, &n2);
		if (n1 != n2 || memcmp(once, twice, n1))
			abort();	/* the tables were added twice */
		free(once);
		free(twice);
	}
	if (process(path, false, 256) == 0) {
		once = contents(fd, &n1);
		if (process(path, false, 256))
			abort();	/* --bounded-sites wrote what it cannot read */
		twice = contents(fd, &n2);
		if (n1 != n2 || memcmp(once, twice, n1))
			abort();	/* __kft_bounded_loc was added twice */
		free(once);
		free(twice);
	}
	close(fd);
	return 0;
}
