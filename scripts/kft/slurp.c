// SPDX-License-Identifier: GPL-2.0
/*
 * Whole files into memory: the one reader of the host tools and the
 * target's kft (libc alone).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurp.h"

char *kft_slurp_fd(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1), *grown;
	ssize_t r;

	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	for (;;) {
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
		if (n == cap) {
			if (cap > ((size_t)-1 - 1) / 2)
				grown = NULL;
			else
				grown = realloc(buf, 2 * cap + 1);
			if (!grown) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (r < 0) {
		int e = errno;

		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *kft_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	char *text;

	if (fd < 0)
		return NULL;
	text = kft_slurp_fd(fd, len);
	e = errno;
	close(fd);
	errno = e;
	return text;
}

char *kft_slurp_input(const char *path, size_t *len)
{
	return strcmp(path, "-") ? kft_slurp(path, len) : kft_slurp_fd(0, len);
}
