// SPDX-License-Identifier: GPL-2.0
/*
 * kft-do: the guest's workload for KFT tests.  It primes the configured
 * run itself, right before the action, so that nothing else runs between
 * prime and the traced system call, and says its pid so the host can check
 * the log.
 *
 * usage: kft-do [--prime] ACTION [ARG]
 *   openat PATH     open and close PATH
 *   getppid N       N getppid() calls
 *   yield N         N sched_yield() calls (no shell makes them)
 *   fork N          N times fork(), child exits, parent waits
 *   exec PROG       fork, exec PROG, wait
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "kft-do: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void kft_command(const char *cmd)
{
	int fd = open("/proc/kft", O_WRONLY);

	if (fd < 0)
		die("/proc/kft");
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		die(cmd);
	close(fd);
}

static long count(const char *arg)
{
	long n = arg ? strtol(arg, NULL, 10) : 1;

	return n > 0 ? n : 1;
}

int main(int argc, char **argv)
{
	const char *action, *arg;
	int i = 1;
	long n;

	if (i < argc && !strcmp(argv[i], "--prime"))
		i++;
	if (i >= argc) {
		fprintf(stderr, "usage: kft-do [--prime] openat PATH | getppid N | yield N | fork N | exec PROG\n");
		return 2;
	}
	action = argv[i];
	arg = i + 1 < argc ? argv[i + 1] : NULL;
	printf("kft-do: pid %d\n", getpid());
	fflush(stdout);
	if (i > 1)
		kft_command("prime\n");

	if (!strcmp(action, "openat")) {
		int fd = openat(AT_FDCWD, arg ? arg : "/", O_RDONLY);

		if (fd < 0)
			die(arg);
		close(fd);
	} else if (!strcmp(action, "getppid")) {
		for (n = count(arg); n > 0; n--)
			getppid();
	} else if (!strcmp(action, "yield")) {
		for (n = count(arg); n > 0; n--)
			sched_yield();
	} else if (!strcmp(action, "fork") || !strcmp(action, "exec")) {
		for (n = !strcmp(action, "fork") ? count(arg) : 1; n > 0; n--) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (!pid) {
				if (!strcmp(action, "exec"))
					execl(arg, arg, (char *)NULL);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
	} else {
		fprintf(stderr, "kft-do: unknown action %s\n", action);
		return 2;
	}
	return 0;
}
