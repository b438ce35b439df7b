// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu, variant (c): KFT's engine - kernel/kft.c and the rest, the
 * sources the kernel builds, on the unit tests' user-space shims
 * (tests/unit/engine/) with the real TSC as its clock (SHIM_REAL_TSC) and
 * the program's text as the kernel's (SHIM_REAL_TEXT) - as the program's
 * -finstrument-functions hooks.  A run is configured from its text as
 * /proc/kft takes it, started by the user, stopped by the user, finished
 * and calibrated as the first read of /proc/kft_data does
 * (kft_run_finish()), and its log written by kernel/kft_log_text.c.
 *
 * Not instrumented: it is the hooks' side.
 */
#include <linux/seq_file.h>

#include "kft_internal.h"
#include "realcpu.h"

const char kft_static_run_file[] = "realcpu";
const char kft_static_run[] = "";

static char stack1[THREAD_SIZE];
static struct task_struct task = { .pid = 1000, .stack = stack1 };

int realcpu_kft(void)
{
	return 1;
}

static void fail(const char *what)
{
	fprintf(stderr, "realcpu: %s: %s\n", what, kft_last_error());
	exit(2);
}

void realcpu_kft_start(const char *config)
{
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;

	shim_tsc_khz = (unsigned long)(realcpu_tsc_hz() / 1000 + 0.5);
	shim_boot_khz = shim_tsc_khz;
	shim_current = &task;
	shim_sp = (unsigned long)task.stack + THREAD_SIZE - 256;
	if (kft_config_parse(&cfg, config, strlen(config), 0, &err) ||
	    kft_config_resolve(&cfg, kft_resolve_name, NULL, &err)) {
		fprintf(stderr, "realcpu: config refused: line %u: %s\n",
			err.line, err.msg);
		exit(2);
	}
	run = kft_run_create(&cfg);
	if (!run)
		fail("no run");
	mutex_lock(&kft_mutex);
	kft_run_install(run);
	if (kft_run_prime())
		fail("cannot start the run");
	mutex_unlock(&kft_mutex);
}

void realcpu_kft_stop(const char *path, void *const *keep,
		      const unsigned long long *calls, int n)
{
	unsigned int nth[64] = { 0 };
	struct kft_run *run;
	struct seq_file m;
	unsigned long i;
	int k;

	mutex_lock(&kft_mutex);
	if (kft_run && kft_run->stop_reason == KFT_BY_FULL) {
		fprintf(stderr, "realcpu: the log filled up (%lu entries): fewer repeats or less work (-r, -s)\n",
			kft_run->capacity);
		exit(2);
	}
	if (kft_run_stop())
		fail("cannot stop the run");
	run = kft_run;
	kft_run_finish(run);
	mutex_unlock(&kft_mutex);
	if (n > 64) {
		fprintf(stderr, "realcpu: more than 64 functions to keep\n");
		exit(2);
	}
	if (!run->finished || !run->calibrated) {
		fprintf(stderr, "realcpu: the run was not finished and calibrated\n");
		exit(2);
	}
	m.f = fopen(path, "w");
	if (!m.f) {
		perror(path);
		exit(2);
	}
	kft_log_text_header(&m, run);
	for (i = 0; i < run->nr_logged; i++) {
		const struct kft_entry *e = &run->log[i];

		for (k = 0; k < n; k++)
			if (kft_addr(e->fn) == (unsigned long)keep[k])
				break;
		if (n && k == n)
			continue;
		/* The log is in entry order: the r-th line is the r-th call. */
		if (n && calls[k] && (nth[k] >= 64 || !(calls[k] >> nth[k] & 1))) {
			nth[k]++;
			continue;
		}
		if (n)
			nth[k]++;
		kft_log_text_line(&m, e);
	}
	if (fclose(m.f)) {
		perror(path);
		exit(2);
	}
}
