// SPDX-License-Identifier: GPL-2.0
/*
 * kft-bench: the guest microbenchmark for `make bench`.  Times system-call
 * heavy loops and prints one line per workload:
 *	bench NAME NS_PER_OP OPS WARMUP_OPS
 *
 * usage: kft-bench [-s SCALE] [WORKLOAD...]
 *   getppid   a getppid() loop
 *   open      open/read/close of a small file
 *   fork      fork, child exits, parent waits
 * SCALE multiplies the default iteration counts (default 1).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void do_getppid(long n)
{
	while (n-- > 0)
		getppid();
}

static void do_open(long n)
{
	char buf[64];

	while (n-- > 0) {
		int fd = open("/etc/hostname", O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
			perror("kft-bench: /etc/hostname");
			exit(1);
		}
		close(fd);
	}
}

static void do_fork(long n)
{
	while (n-- > 0) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("kft-bench: fork");
			exit(1);
		}
		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
}

static const struct {
	const char *name;
	void (*fn)(long n);
	long iters;
} workloads[] = {
	{ "getppid", do_getppid, 20000 },
	{ "open", do_open, 4000 },
	{ "fork", do_fork, 200 },
};

int main(int argc, char **argv)
{
	double scale = 1;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		scale = atof(argv[2]);
		i = 3;
	}
	for (; i < argc; i++) {
		size_t w;

		for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
			long n = workloads[w].iters * scale;
			double t0, t1;

			if (strcmp(argv[i], workloads[w].name))
				continue;
			if (n < 1)
				n = 1;
			workloads[w].fn(n / 10 + 1);	/* warm up */
			t0 = now_ns();
			workloads[w].fn(n);
			t1 = now_ns();
			printf("bench %s %.1f %ld %ld\n", workloads[w].name,
			       (t1 - t0) / n, n, n / 10 + 1);
			break;
		}
		if (w == sizeof(workloads) / sizeof(workloads[0])) {
			fprintf(stderr, "kft-bench: unknown workload %s\n", argv[i]);
			return 2;
		}
	}
	return 0;
}
