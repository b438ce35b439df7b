/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tools read files by name: each input is put in a memfd and
 * handed over as /proc/self/fd/N, with no disk in the loop.
 */
#ifndef _FUZZ_MEMFILE_H
#define _FUZZ_MEMFILE_H


#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct memfile {
	int fd;
	char path[64];
};

static inline void memfile_put(struct memfile *m, const char *name,
			       const void *data, size_t size)
{
	if (!m->fd) {
		m->fd = memfd_create(name, 0);
		if (m->fd < 0)
			abort();
		snprintf(m->path, sizeof(m->path), "/proc/self/fd/%d", m->fd);
	}
	if (ftruncate(m->fd, 0) || (size && pwrite(m->fd, data, size, 0) != (ssize_t)size))
		abort();
}

#endif /* _FUZZ_MEMFILE_H */
