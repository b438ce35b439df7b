// SPDX-License-Identifier: GPL-2.0
/*
 * Lone CRs as line ends: see crlines.h.  A chunk without a CR (every
 * /proc/kft_data log) passes untouched; the readers strip a CR before a
 * newline anyway, so CR LF becoming LF changes nothing they see.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crlines.h"

struct crlines {
	FILE *in;
	int fd;		/* in's, read directly: fread() would wait for a */
			/* whole buffer, and kd -c -r prints as lines come */
	bool cr;	/* the last byte read was a CR: an LF next is its */
};

/* What is there now, as read(2) gives it; a stream without a descriptor
 * (a memory stream) through fread(). */
static ssize_t raw_read(struct crlines *c, char *buf, size_t size)
{
	ssize_t got;

	if (c->fd < 0) {
		got = fread(buf, 1, size, c->in);
		return got ? got : ferror(c->in) ? -1 : 0;
	}
	do
		got = read(c->fd, buf, size);
	while (got < 0 && errno == EINTR);
	return got;
}

static ssize_t crlines_read(void *cookie, char *buf, size_t size)
{
	struct crlines *c = cookie;
	ssize_t got, i, n;

	do {
		got = raw_read(c, buf, size);
		if (got <= 0)
			return got;
		if (!c->cr && !memchr(buf, '\r', got))
			return got;
		for (i = n = 0; i < got; i++) {
			if (buf[i] == '\n' && c->cr) {
				c->cr = false;
				continue;
			}
			c->cr = buf[i] == '\r';
			buf[n++] = c->cr ? '\n' : buf[i];
		}
	} while (!n);		/* only the LF of a CR LF: read on */
	return n;
}

static int crlines_close(void *cookie)
{
	free(cookie);
	return 0;
}

FILE *kft_crlines_open(FILE *in)
{
	static const cookie_io_functions_t io = {
		.read = crlines_read,
		.close = crlines_close,
	};
	struct crlines *c = calloc(1, sizeof(*c));
	FILE *f;

	if (!c)
		return NULL;
	c->in = in;
	c->fd = fileno(in);
	f = fopencookie(c, "r", io);
	if (!f)
		free(c);
	return f;
}
