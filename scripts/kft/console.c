// SPDX-License-Identifier: GPL-2.0
/*
 * A KFT log back out of a captured console: see console.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"

#define SAID_MAX	20	/* problems said, as kd's reader says warnings */

static const char line_tag[] = "kft_dump: ";
static const char begin_tag[] = "kft_dump begin: run ";
static const char end_tag[] = "kft_dump end: run ";

/* A decimal count; false unless digits, within range, end at a non-digit. */
static bool count_at(const char *s, unsigned long *v, const char **end)
{
	char *stop;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoul(s, &stop, 10);
	*end = stop;
	return errno != ERANGE;
}

static void begin(struct kft_console *c, const char *args)
{
	const char *end;
	unsigned long run = 0;

	c->what[0] = '\0';
	if (c->open)
		snprintf(c->what, sizeof(c->what),
			 "run %lu's dump has no end line: lines may be missing",
			 c->run);
	if (!count_at(args, &run, &end) && !c->what[0])
		snprintf(c->what, sizeof(c->what),
			 "a dump's begin line without a run id");
	c->open = true;
	c->run = run;
	c->lines = 0;
}

static void end(struct kft_console *c, const char *args)
{
	unsigned long run, lines;
	const char *p;

	c->what[0] = '\0';
	if (!count_at(args, &run, &p) || strncmp(p, ", ", 2) ||
	    !count_at(p + 2, &lines, &p) || strncmp(p, " lines", 6))
		snprintf(c->what, sizeof(c->what),
			 "a dump's end line without its run id and line count");
	else if (!c->open)
		snprintf(c->what, sizeof(c->what),
			 "run %lu's dump ends, but its begin line is missing: lines may be missing",
			 run);
	else if (run != c->run)
		snprintf(c->what, sizeof(c->what),
			 "run %lu's dump ends with run %lu's end line: lines may be missing",
			 c->run, run);
	else if (lines != c->lines)
		snprintf(c->what, sizeof(c->what),
			 "run %lu's dump: the console lost %lu of its %lu lines",
			 run, lines > c->lines ? lines - c->lines : 0, lines);
	c->open = false;
	c->lines = 0;
}

enum kft_console_kind kft_console_line(struct kft_console *c, char *line,
				       size_t len, char **payload,
				       size_t *payload_len)
{
	char *tag = strstr(line, "kft_dump");

	if (!tag)
		return KFT_CONSOLE_NONE;
	/*
	 * A log line: "kft_dump: TEXT", or for an empty one "kft_dump:" with
	 * its blank stripped (as a capture, an editor, the manual may do).
	 */
	if (!strncmp(tag, line_tag, sizeof(line_tag) - 2) &&
	    strchr(" \r\n", tag[sizeof(line_tag) - 2])) {
		c->seen = true;
		c->lines++;
		*payload = tag + sizeof(line_tag) - 2;
		*payload += **payload == ' ';
		*payload_len = len - (*payload - line);
		return KFT_CONSOLE_LINE;
	}
	if (!strncmp(tag, begin_tag, sizeof(begin_tag) - 1)) {
		c->seen = true;
		begin(c, tag + sizeof(begin_tag) - 1);
		return KFT_CONSOLE_BEGIN;
	}
	if (!strncmp(tag, end_tag, sizeof(end_tag) - 1)) {
		c->seen = true;
		end(c, tag + sizeof(end_tag) - 1);
		return KFT_CONSOLE_END;
	}
	return KFT_CONSOLE_NONE;
}

bool kft_console_eof(struct kft_console *c)
{
	c->what[0] = '\0';
	if (!c->open)
		return true;
	snprintf(c->what, sizeof(c->what),
		 "the capture ends inside run %lu's dump, after %lu lines of it",
		 c->run, c->lines);
	c->open = false;
	return false;
}

FILE *kft_console_extract(FILE *in, const char *path, char *line, size_t len,
			  unsigned long lineno)
{
	struct kft_console c = { 0 };
	unsigned long said = 0;
	char *buf = NULL, *p;
	size_t cap = 0, n;
	ssize_t got;
	FILE *out = tmpfile();

	if (!out) {
		fprintf(stderr, "%s: a file for the log in the capture: %s\n",
			path, strerror(errno));
		return NULL;
	}
	for (;;) {
		switch (kft_console_line(&c, line, len, &p, &n)) {
		case KFT_CONSOLE_LINE:
			/* The console's CR, if any, goes with the newline. */
			while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
				n--;
			fwrite(p, 1, n, out);
			fputc('\n', out);
			break;
		case KFT_CONSOLE_BEGIN:
		case KFT_CONSOLE_END:
			if (c.what[0] && ++said <= SAID_MAX)
				fprintf(stderr, "%s:%lu: %s\n", path, lineno,
					c.what);
			if (said == SAID_MAX + 1)
				fprintf(stderr, "%s: further problems of the capture not shown\n",
					path);
			break;
		case KFT_CONSOLE_NONE:
			break;		/* the kernel's own messages */
		}
		got = getline(&buf, &cap, in);
		if (got <= 0)
			break;
		line = buf;
		len = got;
		lineno++;
	}
	free(buf);
	if (!kft_console_eof(&c))
		fprintf(stderr, "%s: %s\n", path, c.what);
	if (ferror(in) || fflush(out) || ferror(out)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		fclose(out);
		return NULL;
	}
	rewind(out);
	return out;
}
