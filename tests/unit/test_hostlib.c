// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the host tools' shared pieces: the one file reader
 * (scripts/kft/slurp.c, kft on the target's too) and xalloc.h's message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kft/slurp.h"
#include "kft/xalloc.h"
#include "tap.h"

/* An allocation that fails is what xalloc.h is for: ASan lets it fail. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static char dir[] = "/tmp/kft-hostlib-XXXXXX";

static char *make_file(const char *name, size_t size, char *path, size_t room)
{
	char *data = malloc(size + 1);
	size_t i;
	FILE *f;

	for (i = 0; i < size; i++)
		data[i] = (char)('a' + i % 23 + (i % 4099 == 0 ? '\n' - 'a' : 0));
	snprintf(path, room, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	return data;
}

static int same(const char *text, size_t len, const char *want, size_t size)
{
	return text && len == size && !memcmp(text, want, size) && !text[len];
}

static void test_files(void)
{
	static const size_t sizes[] = { 0, 1, 65535, 65536, 65537, 131072, 300001 };
	char path[256];
	size_t i, len;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *want = make_file("f", sizes[i], path, sizeof(path));
		char *text;

		len = 12345;
		text = kft_slurp(path, &len);
		tap_ok(same(text, len, want, sizes[i]),
		       "slurp: a file of %zu bytes, whole and NUL-terminated", sizes[i]);
		free(text);
		free(want);
	}
	free(make_file("g", 10, path, sizeof(path)));
	{
		char *text = kft_slurp(path, NULL);

		tap_ok(text && strlen(text) == 10, "slurp: the length is optional");
		free(text);
	}
}

static void test_errors(void)
{
	char path[256];
	char *text;

	snprintf(path, sizeof(path), "%s/missing", dir);
	errno = 0;
	text = kft_slurp(path, NULL);
	tap_ok(!text && errno == ENOENT, "slurp: a missing file: NULL, ENOENT");
	errno = 0;
	text = kft_slurp(dir, NULL);
	tap_ok(!text && errno == EISDIR, "slurp: a directory: NULL, EISDIR");
	errno = 0;
	text = kft_slurp_fd(-1, NULL);
	tap_ok(!text && errno == EBADF, "slurp_fd: a bad descriptor: NULL, EBADF");
}

/* A pipe has no size: read to its end, in pieces of any length. */
static void test_pipe_and_stdin(void)
{
	size_t size = 200000, len = 0, i;
	char *want = malloc(size), *text;
	int p[2], saved, status;
	char path[256];
	pid_t pid;

	for (i = 0; i < size; i++)
		want[i] = (char)(i * 7);
	if (pipe(p))
		abort();
	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(p[0]);
		for (i = 0; i < size; i += 1000)
			if (write(p[1], want + i, 1000) != 1000)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	text = kft_slurp_fd(p[0], &len);
	tap_ok(text && len == size && !memcmp(text, want, size),
	       "slurp_fd: a pipe, to its end (its bytes NULs and all)");
	tap_ok(fcntl(p[0], F_GETFD) != -1, "slurp_fd: the descriptor is left open");
	close(p[0]);
	waitpid(pid, &status, 0);
	free(text);
	free(want);

	want = make_file("in", 70000, path, sizeof(path));
	saved = dup(0);
	i = open(path, O_RDONLY);
	dup2((int)i, 0);
	close((int)i);
	text = kft_slurp_input("-", &len);
	dup2(saved, 0);
	close(saved);
	tap_ok(same(text, len, want, 70000), "slurp_input: \"-\" is standard input");
	free(text);
	text = kft_slurp_input(path, &len);
	tap_ok(same(text, len, want, 70000), "slurp_input: any other name is a file");
	free(text);
	free(want);
}

/* xalloc.h's message names the tool that ran out, not always kd. */
static void test_xalloc_name(void)
{
	char buf[512] = "", want[256], *tail;
	int p[2], status = 0;
	size_t len;
	ssize_t n;
	pid_t pid;

	if (pipe(p))
		abort();
	fflush(stdout);
	pid = fork();
	if (!pid) {
		dup2(p[1], 2);
		close(p[0]);
		xmalloc(SIZE_MAX / 2);
		_exit(0);
	}
	close(p[1]);
	for (len = 0; len < sizeof(buf) - 1; len += n) {
		n = read(p[0], buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
	}
	buf[len] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	snprintf(want, sizeof(want), "%s: out of memory\n", program_invocation_short_name);
	/* Its last line: ASan may warn of the failed allocation first. */
	tail = strlen(buf) >= strlen(want) ? buf + strlen(buf) - strlen(want) : buf;
	tap_ok(!strcmp(tail, want) && (tail == buf || tail[-1] == '\n') &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 1,
	       "xalloc: out of memory is said under the tool's name (%s), exit 1",
	       program_invocation_short_name);
	tap_ok(!strstr(buf, "kd:"), "xalloc: a tool other than kd does not say kd");
}

int main(void)
{
	char path[300];

	if (!mkdtemp(dir))
		return 1;
	test_files();
	test_errors();
	test_pipe_and_stdin();
	test_xalloc_name();
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		tap_ok(0, "cleanup");
	return tap_done();
}
