// SPDX-License-Identifier: GPL-2.0
/*
 * kft: Kernel Function Trace on the target, in one command.
 *
 *   kft record [-c CONFIG | -e 'CONFIG TEXT'] [-o FILE] -- CMD [ARGS...]
 *   kft status
 *   kft stop
 *
 * record writes the config to /proc/kft, primes the run, runs CMD, waits
 * for the run to complete or CMD to end (then stops the run; it looks at
 * /proc/kft every 100 ms meanwhile, with pread() only), and saves
 * /proc/kft_data to FILE (default kft.log) with the kernel symbols the
 * log names, from /proc/kallsyms, in FILE.syms: on the host,
 * "addr2sym -m FILE.syms FILE" resolves it whatever kernel, KASLR offset
 * or modules the target had.
 *
 * Built static for the board (make kft-target, or by the tests for the
 * guest), with nothing but libc.  Every refusal of /proc/kft is said with
 * the kernel's own reason (its "last error" line).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kft/optonce.h"
#include "kft/output.h"
#include "kft/slurp.h"
#include "kft_config.h"	/* the config language, as the kernel parses it */

#define KFT_VERSION	"1.0"

/* The /proc files; KFT_PROC moves them, for the tool's own tests. */
static char proc_kft[256] = "/proc/kft";
static char proc_data[256] = "/proc/kft_data";
static char proc_syms[256] = "/proc/kallsyms";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kft record [-c CONFIG | -e 'CONFIG TEXT'] [-o FILE] -- CMD [ARGS...]\n"
		"       kft status\n"
		"       kft stop\n"
		"record: write the run's config to /proc/kft (a file, or text: new and\n"
		"end are added if missing; without either, every call), prime it, run\n"
		"CMD, wait until the run completes or CMD ends (then stop the run), and\n"
		"save the log to FILE (default kft.log) and the kernel symbols it names\n"
		"to FILE.syms.  On the host: addr2sym -m FILE.syms FILE > FILE.sym\n"
		"Exit status: CMD's once its log is saved (128 + N if signal N killed\n"
		"it; 0 if it still runs); 127 if CMD could not be run; 1 if nothing was\n"
		"saved (a refused config, another config replaced the run, a write\n"
		"failed); 2 for a bad command line.  A signal that would end kft\n"
		"(SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, ...): passed on\n"
		"to CMD, the run stopped, its log saved, kft ends by the signal\n"
		"(128 + N).\n"
		"status: /proc/kft.  stop: stop the run now.\n"
		"  -h, --help  this help;  -V, --version  version\n");
}

/* The kernel's reason for the last refusal, from /proc/kft. */
static void say_last_error(void)
{
	char *text = kft_slurp(proc_kft, NULL), *p;

	p = text ? strstr(text, "\nlast error: ") : NULL;
	if (p) {
		p += strlen("\nlast error: ");
		p[strcspn(p, "\n")] = '\0';
		fprintf(stderr, "kft: the kernel says: %s\n", p);
	}
	free(text);
}

/* One write to /proc/kft: a config or a command.  0, or -1 said. */
static int kft_write(const char *what, const char *text, size_t len)
{
	int fd = open(proc_kft, O_WRONLY);
	ssize_t w;

	if (fd < 0) {
		if (errno == ENOENT)
			fprintf(stderr, "kft: %s: no such file: this kernel has no KFT (CONFIG_KFT)\n",
				proc_kft);
		else
			fprintf(stderr, "kft: %s: %s%s\n", proc_kft, strerror(errno),
				errno == EACCES ? " (KFT needs root)" : "");
		return -1;
	}
	w = write(fd, text, len);
	if (w != (ssize_t)len) {
		int e = w < 0 ? errno : EIO;

		close(fd);
		fprintf(stderr, "kft: %s refused: %s\n", what, strerror(e));
		say_last_error();
		return -1;
	}
	if (close(fd)) {
		fprintf(stderr, "kft: %s refused: %s\n", what, strerror(errno));
		say_last_error();
		return -1;
	}
	return 0;
}

/*
 * The run's id ("status: run id 3, ...") and state ("state: primed") from
 * /proc/kft; 0 and "" if it has none.  Read through fd, opened before the
 * run was primed, so that waiting for the run makes no open() a run could
 * be triggered by.
 */
static unsigned long run_state(int fd, char *state, size_t size)
{
	static char text[8192];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	unsigned long id = 0;
	char *p;

	state[0] = '\0';
	if (n <= 0)
		return 0;
	text[n] = '\0';
	p = strstr(text, "status: run id ");
	if (p && (p == text || p[-1] == '\n'))
		id = strtoul(p + strlen("status: run id "), NULL, 10);
	p = strstr(text, "\nstate: ");
	if (p) {
		p += strlen("\nstate: ");
		snprintf(state, size, "%.*s", (int)strcspn(p, "\n"), p);
	}
	return id;
}

/* The run id a log's header names ("Kernel Instrumentation Run ID 3"). */
static unsigned long log_run_id(const char *log)
{
	const char *p = strstr(log, "\nKernel Instrumentation Run ID ");

	return p ? strtoul(p + strlen("\nKernel Instrumentation Run ID "), NULL, 10) : 0;
}

/* A state in which the run still logs or waits to (kernel/kft_state.h). */
static bool state_armed(const char *state)
{
	return !strcmp(state, "primed") || !strcmp(state, "starting") ||
	       !strcmp(state, "triggered");
}

/* The config as /proc/kft takes it: "new" ... "end" around the text. */
static char *make_config(const char *text)
{
	size_t n = strlen(text);
	bool has_new = kft_config_begins(text, n);
	bool has_end = kft_config_complete(text, n, KFT_PARSE_STATIC);
	char *cfg = malloc(n + 16);

	if (!cfg)
		return NULL;
	snprintf(cfg, n + 16, "%s%s%s", has_new ? "" : "new\n", text,
		 has_end ? "\n" : "\nend\n");
	return cfg;
}

/*
 * Signals: SIGCHLD only wakes the wait (which polls waitpid() as well, so
 * that nothing depends on it arriving); every signal whose default would
 * end kft without a word (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
 * SIGALRM, a real-time signal...) ends the record, the first of them
 * named here, and whether the kernel sent it (a terminal's ^C, which
 * CMD's process group has had too).  SIGPIPE and SIGXFSZ come of kft's
 * own writes: ignored, a write fails and says so instead (and leaves no
 * temporary file behind).  Faults (SIGSEGV, SIGBUS...) stay as they are.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
static volatile sig_atomic_t got_signal, got_signals, got_from_tty;

static void on_sigchld(int sig)
{
	(void)sig;
}

static void on_stop_signal(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	if (!got_signal) {
		got_signal = sig;
		got_from_tty = info && info->si_code == SI_KERNEL;
	}
	if (got_signals < 1000)
		got_signals++;
}

/*
 * kft's own signal state, whatever it inherited: nothing blocked (a
 * blocked SIGCHLD or SIGTERM would never arrive), SIGCHLD caught (ignored,
 * the kernel would reap CMD before kft saw its status), the stop signals
 * caught unless ignored at start (nohup, a background job: they stay
 * ignored, for CMD too).  All with SA_RESTART: CMD's exit must not
 * interrupt a write to a full console (seen on riscv64's hvc0) nor a
 * signal the saving of the log.  nanosleep() still returns early.
 */
static void catch_unless_ignored(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old) || old.sa_handler != SIG_IGN)
		sigaction(sig, sa, NULL);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_sigchld, .sa_flags = SA_RESTART };
	sigset_t none;
	size_t i;
	int rt;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_stop_signal;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		catch_unless_ignored(stop_signals[i], &sa);
	for (rt = SIGRTMIN; rt <= SIGRTMAX; rt++)
		catch_unless_ignored(rt, &sa);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * In CMD, before exec: a clean signal state, as a shell would give it.
 * exec() sets caught signals back to their default; these, which kft may
 * have inherited ignored, too: an ignored SIGCHLD breaks CMD's own
 * wait()s, an ignored SIGPIPE its end in a closed pipe.
 */
static void child_signals(void)
{
	static const int dfl[] = { SIGCHLD, SIGPIPE, SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2 };
	sigset_t none;
	size_t i;

	for (i = 0; i < sizeof(dfl) / sizeof(dfl[0]); i++)
		signal(dfl[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static const char *signame(int sig)
{
	static char rt[32];

	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGALRM: return "SIGALRM";
	case SIGVTALRM: return "SIGVTALRM";
	case SIGPROF: return "SIGPROF";
	case SIGXCPU: return "SIGXCPU";
	case SIGIO: return "SIGIO";
#ifdef SIGPWR
	case SIGPWR: return "SIGPWR";
#endif
#ifdef SIGSTKFLT
	case SIGSTKFLT: return "SIGSTKFLT";
#endif
	}
	if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
		snprintf(rt, sizeof(rt), "SIGRTMIN+%d", sig - SIGRTMIN);
		return rt;
	}
	snprintf(rt, sizeof(rt), "signal %d", sig);
	return rt;
}

/* A signal whose default dumps core: kft ends by exit(128 + N) instead. */
static bool dumps_core(int sig)
{
	return sig == SIGQUIT || sig == SIGXCPU;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * An output file, written whole or not at all: to a temporary file in
 * its directory, renamed over PATH once written and synced, so that a
 * signal, a full disk or a power cut never leaves PATH half written (an
 * older log there stays as it was).  PATH other than a regular file or
 * nothing (a device, a FIFO, a symbolic link) is written in place.
 */
struct outfile {
	FILE *f;
	const char *path;
	char *tmp;	/* NULL: written in place */
};

static int out_open(struct outfile *o, const char *path)
{
	struct stat st;
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
	mode_t mask;
	int fd;

	o->f = NULL;
	o->path = path;
	o->tmp = NULL;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			goto fail;
		st.st_mode = S_IFREG;
	}
	if (S_ISREG(st.st_mode)) {
		o->tmp = malloc(dirlen + sizeof(".kft-XXXXXX"));
		if (!o->tmp) {
			errno = ENOMEM;
			goto fail;
		}
		memcpy(o->tmp, path, dirlen);
		strcpy(o->tmp + dirlen, ".kft-XXXXXX");
		fd = mkstemp(o->tmp);
		if (fd < 0)
			goto fail;
		/* The mode fopen() would have given: 0666 less the umask. */
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
			int e = errno;

			close(fd);
			unlink(o->tmp);
			errno = e;
			goto fail;
		}
		return 0;
	}
	o->f = fopen(path, "w");
	if (o->f)
		return 0;
fail:
	fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

/*
 * Close O: 0 with PATH in place, or -1 said and PATH as it was.  WRITTEN
 * false: a write failed, errno says why (EFBIG past ulimit -f, ENOSPC).
 */
static int out_close(struct outfile *o, bool written)
{
	int e = written ? 0 : errno ? errno : EIO;

	errno = 0;
	if (!e && (fflush(o->f) || ferror(o->f)))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fsync(fileno(o->f)))
		e = errno;
	/* fclose() once, whatever happened: it frees the stream. */
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	if (!e && o->tmp && rename(o->tmp, o->path))
		e = errno;
	if (e && o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	if (e) {
		fprintf(stderr, "kft: %s: %s\n", o->path, strerror(e));
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *text, size_t len)
{
	struct outfile o;

	if (out_open(&o, path))
		return -1;
	return out_close(&o, fwrite(text, 1, len, o.f) == len);
}

struct ksym {
	uint64_t addr;
	const char *line;	/* in the kallsyms text */
	size_t len;
	bool keep;
};

static int cmp_ksym(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * FILE.syms: the kallsyms lines of the functions holding the log's
 * function and caller addresses, of the symbols after them (which end
 * them), and _text.  Returns their count, or -1.
 */
static long save_symbols(const char *log, const char *path)
{
	size_t nsyms = 0, cap = 0, naddr = 0, acap = 0, i, j, len;
	uint64_t *addrs = NULL, *ga;
	struct ksym *syms = NULL, *gs;
	char *text = kft_slurp(proc_syms, &len), *p, *next;
	const char *l, *eol;
	long kept = 0;
	struct outfile out;
	bool data = false;

	if (!text) {
		fprintf(stderr, "kft: %s: %s\n", proc_syms, strerror(errno));
		return -1;
	}
	/*
	 * The addresses the log's data lines name (columns 4 and 5), each
	 * line scanned from a copy: sscanf() on the log itself measures all
	 * that follows, every line (quadratic).
	 */
	for (l = log; *l; l = eol + (*eol == '\n')) {
		unsigned long long f, c;
		char line[256];

		eol = l + strcspn(l, "\n");
		if (!strncmp(l, "--------", 8)) {
			data = true;
			continue;
		}
		if (!data || (size_t)(eol - l) >= sizeof(line))
			continue;
		memcpy(line, l, eol - l);
		line[eol - l] = '\0';
		if (sscanf(line, "%*s %*s %*s %llx %llx", &f, &c) != 2)
			continue;
		if (naddr + 2 > acap) {
			acap = acap ? 2 * acap : 4096;
			ga = realloc(addrs, acap * sizeof(*addrs));
			if (!ga)
				goto nomem;
			addrs = ga;
		}
		addrs[naddr++] = f;
		addrs[naddr++] = c;
	}
	/* kallsyms: "ADDR TYPE NAME [MODULE]"; only code symbols. */
	for (p = text; *p; p = next) {
		char type;
		unsigned long long a;

		next = p + strcspn(p, "\n");
		if (*next)
			*next++ = '\0';
		if (sscanf(p, "%llx %c", &a, &type) != 2 ||
		    !strchr("tTwW", type))
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			gs = realloc(syms, cap * sizeof(*syms));
			if (!gs)
				goto nomem;
			syms = gs;
		}
		syms[nsyms].addr = a;
		syms[nsyms].line = p;
		syms[nsyms].len = strlen(p);
		syms[nsyms].keep = strstr(p, " _text") && !strcmp(strstr(p, " _text"), " _text");
		nsyms++;
	}
	/* An empty log or kallsyms leaves an array NULL: qsort() must not see it. */
	if (nsyms)
		qsort(syms, nsyms, sizeof(*syms), cmp_ksym);
	if (naddr)
		qsort(addrs, naddr, sizeof(*addrs), cmp_u64);
	/* Each address: the last symbol at or below it. */
	for (i = 0; i < naddr; i++) {
		size_t lo = 0, hi = nsyms;

		if (i && addrs[i] == addrs[i - 1])
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (syms[mid].addr <= addrs[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		/*
		 * And the next, which bounds the function as in kallsyms;
		 * with every other name at either address (section markers
		 * share them), so that the host picks as from all of them.
		 */
		for (j = lo; j > 0 && syms[j - 1].addr == syms[lo - 1].addr; j--)
			syms[j - 1].keep = true;
		for (j = lo; j < nsyms && syms[j].addr == syms[lo].addr; j++)
			syms[j].keep = true;
	}
	if (out_open(&out, path)) {
		kept = -1;
		goto out;
	}
	for (i = 0; i < nsyms; i++) {
		if (!syms[i].keep)
			continue;
		fprintf(out.f, "%.*s\n", (int)syms[i].len, syms[i].line);
		kept++;
	}
	if (out_close(&out, true))
		kept = -1;
	goto out;
nomem:
	fprintf(stderr, "kft: out of memory reading %s\n", proc_syms);
	kept = -1;
out:
	free(text);
	free(syms);
	free(addrs);
	return kept;
}

/* The command's end as an exit status: its own, or 128 + its signal. */
static int command_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

static const struct timespec tick = { 0, 100 * 1000 * 1000 };

/* CMD's status if it has ended; polled: SIGCHLD may never come. */
static void reap(pid_t pid, int *status, bool *reaped)
{
	if (!*reaped && waitpid(pid, status, WNOHANG) == pid)
		*reaped = true;
}

/*
 * Wait for CMD up to TICKS tenths of a second (-1: for ever), less if a
 * signal comes meanwhile (a first, or after the first a second).
 */
static void wait_child(pid_t pid, int *status, bool *reaped, int ticks)
{
	int status_ignored, seen = got_signals;

	if (!status)
		status = &status_ignored;
	for (reap(pid, status, reaped); !*reaped && ticks && got_signals == seen;
	     reap(pid, status, reaped)) {
		nanosleep(&tick, NULL);
		if (ticks > 0)
			ticks--;
	}
}

/*
 * The record's end: RET, or after a signal, what happened and kft's end
 * by the same signal (so that a shell sees it, and a loop of records
 * ends at ^C: exit status 128 + N).  SIGQUIT, SIGXCPU: exit status
 * 128 + N, no core.
 */
static int record_end(int ret, const char *cmd, pid_t pid, bool reaped)
{
	int sig = got_signal;
	sigset_t set;

	if (!sig)
		return ret;
	if (cmd && !reaped)
		fprintf(stderr, "kft: %s (pid %d) still runs\n", cmd, (int)pid);
	fprintf(stderr, "kft: ended by %s\n", signame(sig));
	fflush(stdout);
	fflush(stderr);
	if (!dumps_core(sig)) {
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	return 128 + sig;
}

static int record(int argc, char **argv)
{
	const char *config = NULL, *text = NULL, *outpath = "kft.log";
	char state[32], *cfg, *log, *syms;
	int opt, status = 0, fd, execerr = 0, pipefd[2], sig;
	unsigned long id, now;
	size_t loglen, flen;
	ssize_t got;
	bool reaped = false;
	long nsyms;
	pid_t pid;
	struct kft_optonce once = { 0 };

	optind = 1;
	while ((opt = getopt(argc, argv, "+c:e:o:h")) != -1) {
		if (!kft_opt_once(&once, "kft", opt, "+c:e:o:h", NULL))
			return 2;
		switch (opt) {
		case 'c': config = optarg; break;
		case 'e': text = optarg; break;
		case 'o': outpath = optarg; break;
		case 'h': usage(stdout); return kft_output_done("kft", 0);
		default: usage(stderr); return 2;
		}
	}
	if ((config && text) || optind >= argc) {
		fprintf(stderr, "kft: record takes -c or -e (not both) and a command after --\n");
		usage(stderr);
		return 2;
	}
	if (config) {
		char *file = kft_slurp(config, &flen);

		if (!file) {
			fprintf(stderr, "kft: %s: %s\n", config, strerror(errno));
			return 1;
		}
		/* The text is a C string from here on: it would end there. */
		if (memchr(file, '\0', flen)) {
			fprintf(stderr, "kft: %s: a NUL byte in the config\n", config);
			free(file);
			return 1;
		}
		cfg = make_config(file);
		free(file);
	} else {
		cfg = make_config(text ? text : "");
	}
	if (!cfg || kft_write("config", cfg, strlen(cfg))) {
		free(cfg);
		return 1;
	}
	free(cfg);

	/* From here on a signal stops our run and saves what it holds. */
	catch_signals();
	fd = open(proc_kft, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "kft: %s: %s\n", proc_kft, strerror(errno));
		return 1;
	}
	/* The run this config made: only its log is ours to save. */
	id = run_state(fd, state, sizeof(state));
	if (!id) {
		fprintf(stderr, "kft: %s names no run after the config was written\n", proc_kft);
		close(fd);
		return 1;
	}
	/* A pipe closed by a successful exec: what comes through, exec's errno. */
	if (pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "kft: pipe: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	if (kft_write("prime", "prime\n", 6)) {
		close(fd);
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kft: fork: %s\n", strerror(errno));
		close(fd);
		kft_write("stop", "stop\n", 5);
		return 1;
	}
	if (!pid) {
		child_signals();
		close(pipefd[0]);
		execvp(argv[optind], argv + optind);
		execerr = errno;
		/* If this fails too, the parent sees CMD exit 127. */
		(void)!write(pipefd[1], &execerr, sizeof(execerr));
		_exit(127);
	}
	close(pipefd[1]);
	got = read(pipefd[0], &execerr, sizeof(execerr));
	if (got != sizeof(execerr))
		execerr = 0;
	close(pipefd[0]);
	/* Until CMD ends, the run completes or a signal comes, whichever first. */
	for (now = id; !execerr;) {
		reap(pid, &status, &reaped);
		now = run_state(fd, state, sizeof(state));
		if (got_signal || reaped || now != id || !state_armed(state))
			break;
		nanosleep(&tick, NULL);
	}
	sig = execerr ? 0 : got_signal;
	if (sig && !reaped) {
		/*
		 * CMD's end: the signal passed on to it, unless a terminal
		 * sent it to the process group CMD is in (it has it already);
		 * then up to 2 s for it to end, less if a second signal comes.
		 */
		if (!got_from_tty || getpgid(pid) != getpgrp())
			kill(pid, sig);
		wait_child(pid, &status, &reaped, 20);
		now = run_state(fd, state, sizeof(state));
	}
	close(fd);
	/* Stop our run, never another's. */
	if (now == id && (execerr || state_armed(state)))
		kft_write("stop", "stop\n", 5);
	if (sig && now == id)
		fprintf(stderr, "kft: %s: run %lu stopped; saving what it logged\n",
			signame(sig), id);
	if (execerr) {
		fprintf(stderr, "kft: %s: %s: not run, nothing saved\n", argv[optind],
			strerror(execerr));
		wait_child(pid, NULL, &reaped, -1);
		return 127;
	}
	if (now != id) {
		fprintf(stderr, "kft: another config replaced run %lu while %s ran: its log is not this record's, nothing saved\n",
			id, argv[optind]);
		if (!sig)
			wait_child(pid, &status, &reaped, -1);
		return record_end(1, argv[optind], pid, reaped);
	}
	if (!strcmp(state, "primed"))
		fprintf(stderr, "kft: the start trigger never fired while %s ran\n",
			argv[optind]);

	log = kft_slurp(proc_data, &loglen);
	if (!log) {
		fprintf(stderr, "kft: %s: %s\n", proc_data, strerror(errno));
		return record_end(1, argv[optind], pid, reaped);
	}
	if (log_run_id(log) != id) {
		fprintf(stderr, "kft: %s holds run %lu, not this record's run %lu (another config replaced it): nothing saved\n",
			proc_data, log_run_id(log), id);
		free(log);
		return record_end(1, argv[optind], pid, reaped);
	}
	syms = malloc(strlen(outpath) + sizeof(".syms"));
	if (!syms || write_file(outpath, log, loglen)) {
		if (!syms)
			fprintf(stderr, "kft: out of memory\n");
		free(syms);
		free(log);
		return record_end(1, argv[optind], pid, reaped);
	}
	strcpy(syms, outpath);
	strcat(syms, ".syms");
	nsyms = save_symbols(log, syms);
	free(log);
	if (nsyms < 0) {
		free(syms);
		return record_end(1, argv[optind], pid, reaped);
	}
	if (!reaped)
		fprintf(stderr, "kft: %s; %s (pid %d) still runs\n",
			sig ? "the log is saved" : "the run completed",
			argv[optind], (int)pid);
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "kft: %s exited with status %d\n", argv[optind],
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "kft: %s was killed by signal %d\n", argv[optind],
			WTERMSIG(status));
	printf("kft: log in %s, %ld symbols in %s; on the host: addr2sym -m %s %s\n",
	       outpath, nsyms, syms, syms, outpath);
	free(syms);
	/*
	 * Saved: the exit status is the command's, as time(1) and strace's;
	 * after a signal, kft's own end by it.
	 */
	return record_end(kft_output_done("kft", reaped ? command_status(status) : 0),
			  NULL, pid, reaped);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("KFT_PROC");

	if (dir && *dir) {
		snprintf(proc_kft, sizeof(proc_kft), "%s/kft", dir);
		snprintf(proc_data, sizeof(proc_data), "%s/kft_data", dir);
		snprintf(proc_syms, sizeof(proc_syms), "%s/kallsyms", dir);
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return kft_output_done("kft", 0);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("kft (KFT) %s\n", KFT_VERSION);
		return kft_output_done("kft", 0);
	}
	if (!strcmp(argv[1], "record"))
		return record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status") && argc == 2) {
		char *text = kft_slurp(proc_kft, NULL);

		if (!text) {
			fprintf(stderr, "kft: %s: %s\n", proc_kft, strerror(errno));
			return 1;
		}
		fputs(text, stdout);
		free(text);
		return kft_output_done("kft", 0);
	}
	if (!strcmp(argv[1], "stop") && argc == 2)
		return kft_write("stop", "stop\n", 5) ? 1 : 0;
	fprintf(stderr, "kft: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
