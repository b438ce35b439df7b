// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the KFT engine: kernel/kft.c (the hooks), kft_run.c (the
 * run's states), kft_finish.c (finishing the log), kft_calibrate.c,
 * kft_syms.c (names), kft_boot.c (boot runs) and kft_config.c, compiled as they are against tests/unit/engine/shim.h.
 * The test is the machine: it calls the hooks as instrumented functions
 * would, and moves the clocks, CPUs, tasks, interrupt context and stack
 * pointer between calls, so every number in the log is known exactly.
 */
#include <linux/kft_boot.h>

#include "kft_internal.h"
#include "tap.h"

extern char shim_log[];
int shim_early_initcall(void);

/* kernel/kftstatic.c, as scripts/mkkftrun would write it; a bad one. */
const char kft_static_run_file[] = "test/kftstatic.conf";
const char kft_static_run[] = "trigger start entry fn_a\nfilter bogus\n";

#define last_error kft_last_error()

/* Fake kernel functions, 4 KiB apart in the text. */
enum { A = 1, B, C, D, IRQ, TO_USER, DEEP = 16 };
static void *fn(int f)
{
	return (void *)(SHIM_TEXT + 0x1000UL * f);
}

static const char *const fn_names[] = {
	[A] = "fn_a", [B] = "fn_b", [C] = "fn_c", [D] = "fn_d",
	[IRQ] = "fn_irq", [TO_USER] = "to_userspace",
};

static void enter(int f)
{
	__cyg_profile_func_enter(fn(f), fn(f) + 0x800);
}

static void leave(int f)
{
	__cyg_profile_func_exit(fn(f), fn(f) + 0x800);
}

/* The TSC runs at 1 GHz for dynamic runs: one cycle, one ns. */
static void tick(u64 ns)
{
	shim_tsc += ns;
	shim_sched_clock += ns;
}

static void call(int f, u64 ns)
{
	enter(f);
	tick(ns);
	leave(f);
}

static char stack1[THREAD_SIZE], stack2[THREAD_SIZE];
static struct task_struct t1 = { .pid = 101, .stack = stack1 };
static struct task_struct t2 = { .pid = 102, .stack = stack2 };

static void run_task(struct task_struct *t, int cpu)
{
	if (shim_cpu != cpu)
		shim_set_cpu(cpu);
	t->cpu = cpu;
	shim_current = t;
	shim_sp = (unsigned long)t->stack + THREAD_SIZE - 256;
}

static struct kft_run *load(const char *text)
{
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;

	if (kft_config_parse(&cfg, text, strlen(text), 0, &err) ||
	    kft_config_resolve(&cfg, kft_resolve_name, NULL, &err)) {
		printf("# config refused: line %u: %s: %s\n", err.line,
		       err.token, err.msg);
		return NULL;
	}
	run = kft_run_create(&cfg);
	mutex_lock(&kft_mutex);
	kft_run_install(run);
	mutex_unlock(&kft_mutex);
	return run;
}

static int cmd(int (*c)(void))
{
	int ret;

	mutex_lock(&kft_mutex);
	ret = c();
	mutex_unlock(&kft_mutex);
	return ret;
}

static void finish(struct kft_run *run)
{
	mutex_lock(&kft_mutex);
	kft_run_finish(run);
	mutex_unlock(&kft_mutex);
}

/* The nth (from 0) logged call of f, or NULL. */
static const struct kft_entry *nth(const struct kft_run *run, int f,
				   unsigned int n)
{
	unsigned long i;

	for (i = 0; i < run->nr_logged; i++)
		if (kft_addr(run->log[i].fn) == (unsigned long)fn(f) && !n--)
			return &run->log[i];
	return NULL;
}

static unsigned int count(const struct kft_run *run, int f)
{
	unsigned int n = 0;

	while (nth(run, f, n))
		n++;
	return n;
}

static u64 at(const struct kft_entry *e)
{
	return e ? e->time_cpu & KFT_TIME_MASK : U64_MAX;
}

static u64 len(const struct kft_entry *e)
{
	return e ? kft_delta_decode(e->delta) : 0;
}

static unsigned int cpu_of(const struct kft_entry *e)
{
	return e->time_cpu >> KFT_TIME_BITS;
}

static unsigned long counter(enum kft_counter c)
{
	return kft_run_counter(c);
}

static void test_no_run(void)
{
	enter(A);
	leave(A);
	tap_ok(!kft_run && kft_state == KFT_NONE,
	       "idle: hooks with no run change nothing");
	tap_ok(cmd(kft_run_prime) == -ENOENT && cmd(kft_run_start) == -ENOENT &&
	       cmd(kft_run_stop) == -ENOENT && cmd(kft_run_clear) == -ENOENT,
	       "commands without a run: -ENOENT");
}

/* Boot runs: before start_kernel(), raw cycles, early per-CPU data. */
static void test_boot_run(void)
{
	struct kft_run *run;
	const struct kft_entry *e;
	unsigned long end;
	u64 base;
	int f;

	run_task(&shim_idle[0], 0);	/* boot runs as the idle task, pid 0 */
	strcpy(boot_command_line, "console=ttyS0 kft=off quiet");
	kft_boot_prime();
	tap_ok(!kft_run && kft_state == KFT_NONE, "boot: kft=off primes nothing");

	strcpy(boot_command_line, "ro");
	kft_boot_prime();
	shim_early_initcall();
	tap_ok(!kft_run && strstr(last_error, "boot run (test/kftstatic.conf): line 2: 'bogus'"),
	       "boot: without kft=, the static run; its error names file and line (%s)",
	       last_error);

	strcpy(boot_command_line, "kft=\"trigger start entry fn_nosuch\"");
	kft_boot_prime();
	shim_early_initcall();
	tap_ok(!kft_run && strstr(last_error, "boot run (kft= parameter): line 1: 'fn_nosuch': unknown function"),
	       "boot: an unknown function is refused, naming it (%s)", last_error);
	shim_log[0] = '\0';
	strcpy(boot_command_line, "kft=\"trigger start entry fn\x1b[2J\"");
	kft_boot_prime();
	shim_early_initcall();
	tap_ok(!kft_run && strstr(last_error, "boot run (kft= parameter): line 1: trigger start entry: 'fn\\x1b[2J': bad function name") &&
	       strstr(shim_log, "'fn\\x1b[2J'") && !strchr(shim_log, 0x1b),
	       "boot: the user's ESC is escaped in the error and the kernel log (%s)",
	       last_error);

	/* True rate 2 GHz: 2 cycles a ns.  The kernel does not know it yet. */
	shim_boot_khz = 0;
	shim_tsc = 5000000;
	shim_log[0] = '\0';
	strcpy(boot_command_line, "console=ttyS0 kft=\"trigger start entry fn_a trigger stop entry to_userspace filter mintime 500 logentries 5000\" init=/bin/sh");
	kft_boot_prime();
	run = kft_run;
	base = shim_tsc;
	tap_ok(run && run->id == 0 && kft_state == KFT_PRIMED && kft_early &&
	       run->clock_raw && (run->slow & KFT_SLOW_LIMITS) &&
	       !strcmp(run->origin, "kft= parameter"),
	       "boot: kft= wins over the static run; primed, raw clock, early mode");
	tap_ok(run && run->capacity == CONFIG_KFT_BOOT_LOG_ENTRIES,
	       "boot: logentries cut to CONFIG_KFT_BOOT_LOG_ENTRIES");
	if (!run)
		return;

	shim_tsc += 1000;
	enter(A);				/* start_kernel, never returns */
	tap_ok(kft_state == KFT_TRIGGERED, "boot: start_kernel's entry starts it");
	call(B, 300000);	/* 150 us: over the 400 MHz bound, under 500 us */
	call(C, 1200000);	/* 600 us */
	call(D, 100000);	/* 50 us: dropped at once */
	shim_boot_khz = 2000000;		/* tsc_early_init() */
	call(B, 990000);	/* 495 us: within the 2% margin */
	tap_ok(!(run->slow & KFT_SLOW_LIMITS) && run->min_len == 980000,
	       "boot: limits exact (less 2%%) once the rate is known (%llu cycles)",
	       (unsigned long long)run->min_len);
	call(C, 1100000);	/* 550 us: the fast path, a chunk */
	call(D, 10);		/* the fast path, counted per CPU */
	tap_ok(kft_early_cnt[KFT_CNT_FILTER_TIME].counter == 1 &&
	       kft_cpu.cnt[KFT_CNT_FILTER_TIME].counter == 1 &&
	       atomic_long_read(&run->next) == 3 + KFT_CHUNK &&
	       kft_cpu.end && !(run->slow & KFT_SLOW_EARLY),
	       "boot: early, the full paths count in shared counters and take slots one by one; the fast paths run on the boot CPU's per-CPU data");
	/* setup_per_cpu_areas(): every CPU's copy made from the boot CPU's. */
	for (f = 1; f < SHIM_NR_CPUS; f++)
		per_cpu(kft_cpu, f) = kft_cpu;
	end = kft_cpu.end;
	shim_early_initcall();			/* per-CPU areas ready */
	tap_ok(!per_cpu(kft_cpu, 1).end && !per_cpu(kft_cpu, 3).end &&
	       !per_cpu(kft_cpu, 2).cnt[KFT_CNT_FILTER_TIME].counter &&
	       kft_cpu.end == end &&
	       kft_cpu.cnt[KFT_CNT_FILTER_TIME].counter == 1,
	       "boot: at early_initcall the other CPUs' copies of the boot CPU's are cleared, its own kept");
	tap_ok(!kft_early && !(run->slow & KFT_SLOW_EARLY) &&
	       strstr(shim_log, "boot run primed from kft= parameter; logentries cut to 1024"),
	       "boot: early mode ends at early_initcall; it says so");
	call(D, 10);
	enter(TO_USER);
	tap_ok(kft_state == KFT_COMPLETE && run->stop_reason == KFT_BY_ENTRY,
	       "boot: to_userspace's entry stops it");

	finish(run);
	tap_ok(!run->clock_raw && run->nr_logged == 4 && count(run, C) == 2 &&
	       count(run, B) == 0 && count(run, D) == 0,
	       "boot: calls the bound let through are filtered exactly when read (%lu logged)",
	       run->nr_logged);
	e = nth(run, A, 0);
	tap_ok(e == run->log && at(e) == 500 && e->delta == KFT_DELTA_OPEN &&
	       e->pid == 0,
	       "boot: start_kernel first, at 500 ns after prime (not 0), open (-1)");
	tap_ok(at(nth(run, C, 0)) == (1000 + 300000) / 2 &&
	       len(nth(run, C, 0)) == 600000 && len(nth(run, C, 1)) == 550000,
	       "boot: times and durations converted from cycles to ns");
	e = nth(run, TO_USER, 0);
	tap_ok(e && e->delta == KFT_DELTA_OPEN &&
	       at(e) == (shim_tsc - base) / 2 && run->start_ns == 500 &&
	       run->stop_ns == at(e),
	       "boot: the stop event logged; start and stop times since prime");
	tap_ok(counter(KFT_CNT_FILTER_TIME) == 5,
	       "boot: every filtered call counted once, early and exact (%lu)",
	       counter(KFT_CNT_FILTER_TIME));
	shim_tsc_khz = 1000000;
	shim_tsc = shim_sched_clock;
}

static void test_triggers_and_nesting(void)
{
	struct kft_run *run;
	const struct kft_entry *a, *b, *c, *d;

	run_task(&t1, 0);
	run = load("new\ntrigger start entry fn_a\ntrigger stop exit fn_a\nend\n");
	tap_ok(run && run->id == 1 && kft_state == KFT_CONFIGURED,
	       "new run replaces the boot run: configured, id 1");
	tap_ok(cmd(kft_run_prime) == 0 && kft_state == KFT_PRIMED &&
	       kft_cycles_mult && kft_clock() == shim_sched_clock,
	       "prime: primed; the TSC scaled to sched_clock() again");
	tap_ok(cmd(kft_run_prime) == -EBUSY && cmd(kft_run_clear) == -EBUSY,
	       "prime twice, clear while primed: -EBUSY");
	call(B, 100);				/* before the start */
	enter(A);
	tick(10);
	call(B, 20);
	tick(5);
	enter(C);
	call(D, 7);
	tick(3);
	leave(C);
	tick(1);
	leave(A);
	call(B, 5);				/* after the stop */
	tap_ok(kft_state == KFT_COMPLETE && run->start_reason == KFT_BY_ENTRY &&
	       run->stop_reason == KFT_BY_EXIT &&
	       run->start_fn == (unsigned long)fn(A),
	       "entry trigger starts, exit trigger stops");
	finish(run);
	a = nth(run, A, 0);
	b = nth(run, B, 0);
	c = nth(run, C, 0);
	d = nth(run, D, 0);
	tap_ok(run->nr_logged == 4 && a == &run->log[0] && b == &run->log[1] &&
	       c == &run->log[2] && d == &run->log[3],
	       "only the calls between the triggers, by entry time (caller first on a tie)");
	tap_ok(at(a) == 0 && len(a) == 46 && at(b) == 10 && len(b) == 20 &&
	       at(c) == 35 && len(c) == 10 && at(d) == 35 && len(d) == 7,
	       "entry times and durations exact, in ns");
	tap_ok(a->pid == 101 && cpu_of(a) == 0 &&
	       kft_addr(a->site) == (unsigned long)fn(A) + 0x800,
	       "pid, CPU and call site");
	tap_ok(counter(KFT_CNT_LOGGED) == 4 && counter(KFT_CNT_NOT_FOUND) == 0,
	       "counters: 4 logged");
	tap_ok(cmd(kft_run_stop) == -EINVAL, "stop on a complete run: -EINVAL");
}

/* kft_entry.inner of the nth logged call of f: calls inside it, logged. */
static bool inner_is(const struct kft_run *run, int f, unsigned int n,
		     u32 calls, u32 logged)
{
	const struct kft_entry *e = nth(run, f, n);

	return e && kft_inner_calls(e->inner) == calls &&
	       kft_inner_logged(e->inner) == logged;
}

/* A run from fn_a's entry to its exit, calls of 10 us or more, primed, in A. */
static struct kft_run *run_in_fn_a(void)
{
	struct kft_run *run;

	run_task(&t1, 0);
	run = load("new\ntrigger start entry fn_a\ntrigger stop exit fn_a\n"
		   "filter mintime 10us\nend\n");
	cmd(kft_run_prime);
	enter(A);
	return run;
}

/*
 * Each logged call counts the calls inside it, interrupts' too, and those
 * of them logged; a finished run knows what its hooks cost.
 */
static void test_inner_and_cost(void)
{
	struct kft_run *run;
	unsigned long dropped;
	int state;
	u64 tsc, sc;

	run = run_in_fn_a();
	call(B, 5000);			/* dropped */
	enter(C);
	call(D, 20000);
	shim_in_irq = true;
	call(IRQ, 30000);
	shim_in_irq = false;
	tick(1);
	leave(C);
	leave(A);
	dropped = counter(KFT_CNT_FILTER_TIME);
	tap_ok(run->calibrated == false && kft_state == KFT_COMPLETE,
	       "inner: not calibrated before the log is finished");
	/* Timing the hooks: every clock read takes 5 cycles (5 ns). */
	tsc = shim_tsc;
	shim_tsc_step = 5;
	sc = shim_sched_clock;
	shim_sched_clock += 7000000;	/* finished 7 ms after the stop */
	shim_tsc += 7000000;
	finish(run);
	shim_sched_clock = sc;
	shim_tsc_step = 0;
	shim_tsc = tsc;			/* in step with sched_clock() again */
	state = kft_state;
	tap_ok(inner_is(run, A, 0, 4, 3) && inner_is(run, C, 0, 2, 2) &&
	       inner_is(run, D, 0, 0, 0) && inner_is(run, IRQ, 0, 0, 0) &&
	       count(run, B) == 0,
	       "inner: A made 4 calls (C's and its interrupt's too), 3 logged; C 2 of 2");
	tap_ok(run->calibrated && state == KFT_COMPLETE && kft_run == run &&
	       counter(KFT_CNT_FILTER_TIME) == dropped && run->nr_logged == 4,
	       "calibrated at finish: the run back, complete, its counters and log as they were");
	/* Two clock reads a hook pair, one inside a logged call's time. */
	tap_ok(run->cost_ps[KFT_COST_DROPPED] == 10000 &&
	       run->cost_ps[KFT_COST_LOGGED] == 10000 &&
	       run->cost_ps[KFT_COST_OWN] == 5000,
	       "calibrated: %u ps dropped, %u logged, %u own (10000, 10000, 5000)",
	       run->cost_ps[KFT_COST_DROPPED], run->cost_ps[KFT_COST_LOGGED],
	       run->cost_ps[KFT_COST_OWN]);
	tap_ok(run->cal_cpu == shim_cpu &&
	       run->cal_khz == (kft_clock_counter ? shim_tsc_khz : 0) &&
	       run->cal_after_ns >= 7000000 && run->cal_after_ns < 7001000,
	       "calibrated: where, with which clock and when recorded (CPU %d, %u kHz, %llu ns after the stop)",
	       run->cal_cpu, run->cal_khz,
	       (unsigned long long)run->cal_after_ns);
	finish(run);
	tap_ok(run->calibrated && run->cost_ps[KFT_COST_OWN] == 5000,
	       "finished twice: calibrated once");
}

/* Calibration noises: each clock read's extra cycles. */
static unsigned long noise_reads;
/* Each repeat's reads (about 400) twice as slow as the last's. */
static u64 noise_growing(void)
{
	unsigned long n = noise_reads++ / 400;

	return (u64)1 << (n < 40 ? n : 40);
}
/* Growing for the first round of repeats (about 2,000 reads), then none. */
static u64 noise_first_round(void)
{
	return noise_reads < 2100 ? noise_growing() : (noise_reads++, 0);
}

/* The run of test_inner_and_cost(), stopped, finished with the noise. */
static struct kft_run *calibrated_with(u64 step, u64 (*noise)(void))
{
	struct kft_run *run;
	u64 tsc;

	run = run_in_fn_a();
	call(B, 5000);
	call(D, 20000);
	leave(A);
	tsc = shim_tsc;
	shim_tsc_step = step;
	noise_reads = 0;
	shim_tsc_noise = noise;
	finish(run);
	shim_tsc_noise = NULL;
	shim_tsc_step = 0;
	shim_tsc = tsc;
	return run;
}

/*
 * A calibration is trusted only when its best repeat is not 0 and its
 * median agrees: repeats that disagree are tried again, then refused
 * (the header says "not calibrated (untrusted repeats: ...)").
 */
static void test_calibration_trusted(void)
{
	struct kft_run *run;

	run = calibrated_with(5, noise_growing);
	tap_ok(!run->calibrated && run->cal_refused &&
	       run->cal_range_ps[KFT_COST_DROPPED][0] <
	       run->cal_range_ps[KFT_COST_DROPPED][1] * 3 / 4,
	       "calibration: repeats that never agree refused (dropped %u to %u ps)",
	       run->cal_range_ps[KFT_COST_DROPPED][0],
	       run->cal_range_ps[KFT_COST_DROPPED][1]);
	run = calibrated_with(5, noise_first_round);
	tap_ok(run->calibrated && !run->cal_refused &&
	       run->cost_ps[KFT_COST_DROPPED] == 10000 &&
	       run->cost_ps[KFT_COST_LOGGED] == 10000,
	       "calibration: a first round that disagrees is tried again (%u, %u ps)",
	       run->cost_ps[KFT_COST_DROPPED], run->cost_ps[KFT_COST_LOGGED]);
	run = calibrated_with(0, NULL);
	tap_ok(!run->calibrated && run->cal_refused &&
	       run->cal_range_ps[KFT_COST_DROPPED][0] == 0,
	       "calibration: hooks that measure 0 (a clock that did not move) refused");
	run = calibrated_with(5, NULL);
	tap_ok(run->calibrated && !run->cal_refused &&
	       run->cal_range_ps[KFT_COST_DROPPED][0] ==
	       run->cal_range_ps[KFT_COST_DROPPED][1],
	       "calibration: repeats that agree trusted");
}

/*
 * A run of cfg where A's exit reads the clock 3 cycles before its entry
 * did (a CPU behind the one that entered), then B lasts len: finished.
 */
static struct kft_run *run_behind(const char *cfg, u64 len)
{
	struct kft_run *run = load(cfg);

	cmd(kft_run_prime);
	enter(A);
	shim_tsc -= 3;
	leave(A);
	call(B, len);
	cmd(kft_run_stop);
	finish(run);
	return run;
}

/* A run with filter noints or onlyints over A: an interrupt, then B. */
static struct kft_run *ints_run(const char *filter)
{
	char text[128];
	struct kft_run *run;

	snprintf(text, sizeof(text),
		 "new\ntrigger start entry fn_a\ntrigger stop exit fn_a\nfilter %s\nend\n",
		 filter);
	run = load(text);
	cmd(kft_run_prime);
	enter(A);
	shim_in_irq = true;
	call(IRQ, 5);
	shim_in_irq = false;
	call(B, 5);
	leave(A);
	finish(run);
	return run;
}

static void test_filters(void)
{
	struct kft_run *run;

	run = load("new\ntrigger start entry fn_a\ntrigger stop exit fn_a\n"
		   "filter mintime 10us\nfilter maxtime 20us\nend\n");
	cmd(kft_run_prime);
	enter(A);
	call(B, 9999);
	call(B, 10000);
	call(B, 20000);
	call(B, 20001);
	leave(A);
	finish(run);
	tap_ok(count(run, B) == 2 && len(nth(run, B, 0)) == 10000 &&
	       len(nth(run, B, 1)) == 20000 && count(run, A) == 1 &&
	       counter(KFT_CNT_FILTER_TIME) == 2,
	       "mintime/maxtime: bounds inclusive; the trigger call stays");

	run = ints_run("noints");
	tap_ok(count(run, IRQ) == 0 && count(run, B) == 1 &&
	       counter(KFT_CNT_FILTER_NOINTS) == 1,
	       "noints: interrupt calls dropped and counted");
	run = ints_run("onlyints");
	tap_ok(count(run, IRQ) == 1 && nth(run, IRQ, 0)->pid == -1 &&
	       count(run, B) == 0 && counter(KFT_CNT_FILTER_ONLYINTS) == 1,
	       "onlyints: only interrupt calls, pid -1");

	run = load("new\ntrigger start entry fn_a\ntrigger stop exit fn_a\n"
		   "filter funclist fn_d fn_b fend\nend\n");
	cmd(kft_run_prime);
	enter(A);
	call(B, 1);
	call(C, 1);
	call(D, 1);
	leave(A);
	finish(run);
	tap_ok(count(run, B) == 1 && count(run, D) == 1 && count(run, C) == 0 &&
	       count(run, A) == 1 && counter(KFT_CNT_FILTER_FUNCLIST) == 1,
	       "funclist: listed functions and the trigger call only");
}

static void test_lost_and_not_found(void)
{
	struct kft_run *run;
	int i;

	run = load("new\nend\n");		/* no start trigger */
	tap_ok(cmd(kft_run_prime) == 0 && kft_state == KFT_TRIGGERED &&
	       run->start_reason == KFT_BY_USER,
	       "no start trigger: prime starts logging at once");
	leave(B);
	for (i = 0; i < 10; i++)
		enter(DEEP + i);
	for (i = 9; i >= 0; i--)
		leave(DEEP + i);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(counter(KFT_CNT_NOT_FOUND) == 1, "an exit without entry: not found");
	tap_ok(counter(KFT_CNT_LOST_DEPTH) == 2 && run->nr_logged == 8 &&
	       count(run, DEEP) == 1 && count(run, DEEP + 8) == 0,
	       "calls deeper than CONFIG_KFT_STACK_DEPTH (8) lost and counted");

	run = load("new\nlogentries 3\nend\n");
	cmd(kft_run_prime);
	for (i = 0; i < 5; i++)
		call(B, 1);
	finish(run);
	tap_ok(kft_state == KFT_COMPLETE && run->stop_reason == KFT_BY_FULL &&
	       run->nr_logged == 3 && counter(KFT_CNT_LOST_FULL) == 1,
	       "a full log stops the run: 3 logged, 1 lost");
}

static void test_time_triggers(void)
{
	struct kft_run *run;

	run = load("new\ntrigger start entry fn_a\ntrigger stop time 100us\nend\n");
	cmd(kft_run_prime);
	enter(A);
	call(B, 50000);
	call(B, 60000);
	finish(run);
	tap_ok(kft_state == KFT_COMPLETE && run->stop_reason == KFT_BY_TIME &&
	       run->stop_ns - run->start_ns == 110000 && count(run, B) == 1,
	       "stop time: checked at the next hook after 100 us");

	run = load("new\ntrigger start time 5s\nend\n");
	cmd(kft_run_prime);
	call(B, 1000);
	tick(5000000000ULL - shim_sched_clock);
	call(C, 1000);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(run->start_reason == KFT_BY_TIME && count(run, B) == 0 &&
	       count(run, C) == 1 && run->start_ns == 5000000000ULL,
	       "start time: since boot, at the first hook after it");
}

static void test_autorepeat(void)
{
	struct kft_run *run;
	int i, ok = 1;

	run = load("new\ntrigger start entry fn_a\ntrigger stop exit fn_a\n"
		   "filter funclist fn_a fend\nautorepeat\nend\n");
	cmd(kft_run_prime);
	for (i = 0; i < 3; i++) {
		call(A, 100);
		ok &= kft_state == KFT_PRIMED;
		call(B, 50);
	}
	cmd(kft_run_stop);
	finish(run);
	tap_ok(ok && count(run, A) == 3, "autorepeat: re-armed after each stop");
	tap_ok(at(nth(run, A, 0)) == 0 && at(nth(run, A, 1)) == 150 &&
	       at(nth(run, A, 2)) == 300,
	       "autorepeat: one time base for all rounds");
}

static void test_tasks_cpus_irqs(void)
{
	struct kft_run *run;
	const struct kft_entry *e;
	int i, ok = 1;

	t1.next = &t2;
	shim_tasks = &t1;
	run = load("new\ntrigger start entry fn_a\nfilter noints\nend\n");
	cmd(kft_run_prime);
	run_task(&t1, 0);
	enter(A);
	tick(10);
	run_task(&t2, 0);			/* t1 switched out inside A */
	call(B, 30);
	shim_in_irq = true;			/* an interrupt in t2 */
	call(IRQ, 3);
	shim_in_irq = false;
	run_task(&t1, 0);
	tick(5);
	leave(A);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(len(nth(run, A, 0)) == 48 && nth(run, A, 0)->pid == 101 &&
	       nth(run, B, 0)->pid == 102 && count(run, IRQ) == 0,
	       "tasks: each has its own stack; A spans t2's time; noints");

	run = load("new\nend\n");
	cmd(kft_run_prime);
	for (i = 0; i < 100; i++) {
		run_task(&t1, 0);
		call(B, 2);
		run_task(&t2, 1);
		call(C, 2);
	}
	run_task(&t1, 0);
	cmd(kft_run_stop);
	finish(run);
	for (i = 0; i < 100; i++) {
		ok &= cpu_of(nth(run, B, i)) == 0 && nth(run, B, i)->pid == 101;
		ok &= cpu_of(nth(run, C, i)) == 1 && nth(run, C, i)->pid == 102;
		ok &= at(nth(run, C, i)) == at(nth(run, B, i)) + 2;
	}
	tap_ok(ok && run->nr_logged == 200,
	       "two CPUs, 100 calls each: own log chunks (refilled), merged by time");

	/* A CPU whose clock is a hair behind the one that set the time base. */
	run = load("new\nend\n");
	cmd(kft_run_prime);
	run_task(&t2, 1);
	shim_tsc -= 5;
	call(C, 3);
	shim_tsc += 5;
	call(B, 4);
	run_task(&t1, 0);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(run->nr_logged == 2 && at(nth(run, C, 0)) == 0 &&
	       len(nth(run, C, 0)) == 3 && at(nth(run, B, 0)) == 3 &&
	       len(nth(run, B, 0)) == 4,
	       "a call entered before the time base, by another CPU's clock, at 0 (%llu)",
	       (unsigned long long)at(nth(run, C, 0)));

	/*
	 * An exit whose clock read is a hair before its entry's (a CPU
	 * behind the one that entered): a call of length 0, not of 2^48,
	 * and dropped by a time filter.  A call really that long keeps the
	 * longest length the log holds.
	 */
	run = run_behind("new\nend\n", 4);
	tap_ok(run->nr_logged == 2 && len(nth(run, A, 0)) == 0 &&
	       len(nth(run, B, 0)) == 4,
	       "an exit's clock 3 cycles before its entry's: length 0 (%llu)",
	       (unsigned long long)len(nth(run, A, 0)));
	run = run_behind("new\nfilter mintime 1\nend\n", 1500);
	tap_ok(run->nr_logged == 1 && !nth(run, A, 0) && nth(run, B, 0) &&
	       counter(KFT_CNT_FILTER_TIME) == 1,
	       "... and dropped by filter mintime 1 (logged %lu)",
	       run->nr_logged);
	run = load("new\nend\n");
	cmd(kft_run_prime);
	call(A, 3000000000000ULL);	/* 50 minutes */
	cmd(kft_run_stop);
	finish(run);
	tap_ok(run->nr_logged == 1 &&
	       len(nth(run, A, 0)) == 1000ULL * KFT_DELTA_MAX_US,
	       "a call of 50 minutes: the longest length the log holds (%llu)",
	       (unsigned long long)len(nth(run, A, 0)));

	/* A clock that crosses 2^48 in a run: the log keeps its low bits. */
	shim_tsc = (1ULL << 48) * 7 - 10;
	run = load("new\nend\n");
	cmd(kft_run_prime);
	enter(A);
	shim_tsc += 15;
	call(B, 6);
	shim_tsc += 2;
	leave(A);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(run->nr_logged == 2 && at(nth(run, A, 0)) == 0 &&
	       len(nth(run, A, 0)) == 23 && at(nth(run, B, 0)) == 15 &&
	       len(nth(run, B, 0)) == 6,
	       "a clock crossing 2^48 mid-run: times and lengths hold (%llu %llu)",
	       (unsigned long long)at(nth(run, B, 0)),
	       (unsigned long long)len(nth(run, A, 0)));

	/* Calls open at the stop: -1, on the task's CPU, filters applied. */
	run = load("new\nfilter funclist fn_a fn_b fend\nfilter mintime 1s\nend\n");
	cmd(kft_run_prime);
	run_task(&t2, 1);
	enter(A);
	enter(C);
	run_task(&t1, 0);
	enter(B);
	tick(10);
	cmd(kft_run_stop);
	finish(run);
	e = nth(run, A, 0);
	tap_ok(e && e->delta == KFT_DELTA_OPEN && e->pid == 102 &&
	       cpu_of(e) == 1 && nth(run, B, 0) &&
	       nth(run, B, 0)->delta == KFT_DELTA_OPEN && count(run, C) == 0,
	       "open calls logged -1 on their task's CPU; funclist applies, mintime cannot");
	run_task(&t2, 1);
	leave(C);
	leave(A);
	run_task(&t1, 0);
	leave(B);
}

static void test_stack_watch(void)
{
	struct kft_run *run;
	unsigned int chains = 0;
	unsigned long i;

	run = load("new\nwatch worst-stack 2000\nend\n");
	cmd(kft_run_prime);
	shim_sp = (unsigned long)t1.stack + 5000;
	enter(A);
	shim_sp = (unsigned long)t1.stack + 1500;
	enter(B);				/* a chain: A, B */
	shim_sp = (unsigned long)t1.stack + 1400;
	enter(C);				/* deeper: A, B, C */
	shim_sp = (unsigned long)t1.stack + 1450;
	enter(D);				/* not a new low */
	leave(D);
	leave(C);
	leave(B);
	leave(A);
	cmd(kft_run_stop);
	finish(run);
	for (i = 0; i < run->nr_logged; i++)
		chains += run->log[i].delta == KFT_DELTA_STACK;
	tap_ok(chains == 5 && run->lowest_stack == 1400,
	       "worst-stack: a chain (-2) for each new low, lowest stack 1400 (%u marks)",
	       chains);
	run_task(&t1, 0);
}

static void test_replace_and_clear(void)
{
	struct kft_run *run;
	unsigned int old_id;

	run = load("new\nend\n");
	old_id = run->id;
	cmd(kft_run_prime);
	enter(A);				/* open in the old run */
	run = load("new\ntrigger start entry fn_b\ntrigger stop exit fn_b\nend\n");
	leave(A);				/* old run freed: ASan would tell */
	tap_ok(kft_state == KFT_CONFIGURED && run->id == old_id + 1,
	       "new replaces a logging run (the old one is freed)");
	tap_ok(cmd(kft_run_stop) == -EINVAL, "stop on a configured run: -EINVAL");
	cmd(kft_run_prime);
	call(B, 7);
	finish(run);
	tap_ok(run->nr_logged == 1 && cmd(kft_run_clear) == 0 &&
	       kft_state == KFT_CONFIGURED && run->nr_logged == 0 &&
	       counter(KFT_CNT_LOGGED) == 0,
	       "clear: log and counters emptied, back to configured");
	tap_ok(cmd(kft_run_prime) == 0 && (call(B, 9), kft_state == KFT_COMPLETE),
	       "a cleared run primes and runs again");
	finish(run);
	tap_ok(run->nr_logged == 1 && len(nth(run, B, 0)) == 9 && at(nth(run, B, 0)) == 0,
	       "its new log has its own time base");

	/*
	 * Before it empties a log, a clear waits for every online CPU to
	 * schedule (kft_sync()); it resets the counters of every CPU, the
	 * offline too.
	 */
	shim_cpus_online = SHIM_NR_CPUS - 1;
	shim_cpus_scheduled = 0;
	atomic_long_set(&per_cpu(kft_cpu, SHIM_NR_CPUS - 1).cnt[KFT_CNT_NOT_FOUND], 5);
	cmd(kft_run_clear);
	tap_ok(shim_cpus_scheduled == (1UL << (SHIM_NR_CPUS - 1)) - 1 &&
	       !atomic_long_read(&per_cpu(kft_cpu, SHIM_NR_CPUS - 1).cnt[KFT_CNT_NOT_FOUND]),
	       "clear: every online CPU scheduled first, every CPU's counters reset");
	shim_cpus_online = SHIM_NR_CPUS;

	/*
	 * A task whose call is still open from a run that was cleared and
	 * run again (an idle CPU's task sits in the idle loop for seconds):
	 * the next run shares no generation with it, so that call is not
	 * taken for one of the new run's (seen on arm64: the idle task's
	 * calls from the control test's runs in an openat() trace, at 0).
	 */
	run = load("new\nend\n");
	cmd(kft_run_prime);
	call(B, 3);
	cmd(kft_run_stop);
	cmd(kft_run_clear);
	cmd(kft_run_prime);
	run_task(&shim_idle[1], 1);
	enter(A);				/* left open, in the old run */
	run_task(&t1, 0);
	cmd(kft_run_stop);
	run = load("new\ntrigger start entry fn_b\ntrigger stop exit fn_b\nend\n");
	cmd(kft_run_prime);
	call(B, 11);
	finish(run);
	tap_ok(run->nr_logged == 1 && count(run, B) == 1 && !count(run, A),
	       "a later run logs no call another task left open in a cleared run (%lu logged)",
	       run->nr_logged);
	run_task(&shim_idle[1], 1);
	leave(A);
	run_task(&t1, 0);

	/*
	 * On the fast paths: t2's stack of the older run holds A when t2's
	 * first call of the next run comes (t1 started it), and A leaves
	 * inside that run.
	 */
	run = load("new\nend\n");
	cmd(kft_run_prime);
	run_task(&t2, 0);
	enter(A);			/* left open, in the old run */
	run_task(&t1, 0);
	cmd(kft_run_stop);
	run = load("new\nend\n");
	cmd(kft_run_prime);
	call(B, 11);
	run_task(&t2, 0);
	call(C, 11);
	leave(A);
	run_task(&t1, 0);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(run->nr_logged == 2 && count(run, B) == 1 &&
	       count(run, C) == 1 && !count(run, A) &&
	       counter(KFT_CNT_NOT_FOUND) == 1,
	       "a call left open in an older run is not the new run's on the fast paths (%lu logged)",
	       run->nr_logged);
}

/* kft_run_forget()'s gone(): the code of one function is going away. */
static bool fn_gone(unsigned long addr, const void *arg)
{
	return addr == (unsigned long)arg;
}

/* A module a run names unloads: the run stops and cannot be armed again. */
static void test_forget_unloaded(void)
{
	struct kft_run *run;
	bool named;

	run = load("new\ntrigger start entry fn_b\nfilter funclist fn_a fn_c\nend\n");
	cmd(kft_run_prime);
	mutex_lock(&kft_mutex);
	named = kft_run_forget(fn_gone, fn(D));
	mutex_unlock(&kft_mutex);
	tap_ok(!named && kft_state == KFT_PRIMED && !run->names_gone,
	       "unloading code the run does not name changes nothing");

	enter(B);				/* triggered */
	mutex_lock(&kft_mutex);
	named = kft_run_forget(fn_gone, fn(C));	/* in the funclist */
	mutex_unlock(&kft_mutex);
	leave(B);
	tap_ok(named && kft_state == KFT_COMPLETE &&
	       run->stop_reason == KFT_BY_UNLOAD && run->names_gone,
	       "unloading a function the funclist names stops the run, saying why");
	tap_ok(cmd(kft_run_clear) == 0 && cmd(kft_run_prime) == -ESTALE &&
	       cmd(kft_run_start) == -ESTALE && kft_state == KFT_CONFIGURED,
	       "that run is refused prime and start, cleared or not: -ESTALE");

	load("new\ntrigger start entry fn_b\nend\n");
	mutex_lock(&kft_mutex);
	named = kft_run_forget(fn_gone, fn(B));	/* its start trigger */
	mutex_unlock(&kft_mutex);
	tap_ok(named && kft_state == KFT_CONFIGURED &&
	       cmd(kft_run_prime) == -ESTALE,
	       "a configured run naming it in a trigger is refused prime");
	run = load("new\ntrigger start entry fn_a\nend\n");
	tap_ok(cmd(kft_run_prime) == 0 && kft_state == KFT_PRIMED,
	       "a new config replaces it and primes");
	cmd(kft_run_stop);
}

/* Scoped runs: pid, comm, children, depth, notunder. */
static void test_scope(void)
{
	static char stack3[THREAD_SIZE], stack4[THREAD_SIZE];
	struct task_struct t3 = { .pid = 103, .stack = stack3 };
	struct task_struct t4 = { .pid = 104, .stack = stack4 };
	struct kft_run *run;

	strcpy(t1.comm, "kft-do");
	strcpy(t2.comm, "sh");
	t1.next = &t2;
	t2.next = NULL;
	shim_tasks = &t1;

	/* pid: the task's calls and the interrupts that hit it. */
	run = load("new\nfilter pid 101\nend\n");
	run_task(&t1, 0);
	cmd(kft_run_prime);
	call(A, 5);
	shim_in_irq = true;
	call(IRQ, 1);
	shim_in_irq = false;
	run_task(&t2, 0);
	call(B, 5);
	shim_in_irq = true;
	call(IRQ, 1);
	shim_in_irq = false;
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && count(run, B) == 0 &&
	       count(run, IRQ) == 1 && nth(run, IRQ, 0)->pid == -1 &&
	       counter(KFT_CNT_FILTER_PID) == 2,
	       "filter pid: its calls and its interrupts; others counted");

	/* comm, as the kernel keeps it. */
	run = load("new\nfilter comm sh\nend\n");
	run_task(&t1, 0);
	cmd(kft_run_prime);
	call(A, 5);
	run_task(&t2, 0);
	call(B, 5);
	strcpy(t2.comm, "shell");	/* exec: a new name */
	call(C, 5);
	strcpy(t2.comm, "sh");
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 0 && count(run, B) == 1 && count(run, C) == 0 &&
	       counter(KFT_CNT_FILTER_COMM) == 2,
	       "filter comm: only the task of that name");

	/*
	 * children: the task that starts the run, and what it forks then.  A
	 * fork's copy of the stack is empty: t3 leaves no open copy of A.
	 */
	t2.next = &t3;
	t3.next = &t4;
	run = load("new\nfilter children\nend\n");
	run_task(&t1, 0);
	call(D, 1);			/* t1 has a stack of an older run */
	t4.kft = t1.kft;		/* forked before the start */
	kft_task_init(&t4);
	cmd(kft_run_prime);		/* no start trigger: t1 starts it */
	enter(A);
	t3.kft = t1.kft;		/* fork: dup_task_struct() copies it */
	kft_task_init(&t3);		/* ... and empties the copy */
	tick(5);
	leave(A);
	run_task(&t3, 0);
	call(B, 5);
	run_task(&t4, 0);
	call(C, 5);
	run_task(&t2, 0);
	call(D, 5);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && count(run, B) == 1 &&
	       nth(run, B, 0)->pid == 103 && count(run, C) == 0 &&
	       count(run, D) == 0 && counter(KFT_CNT_FILTER_CHILDREN) == 2,
	       "filter children: the starter and its fork since; not a fork from before, not others");
	t2.next = NULL;

	/* depth: the trigger's call is level 0. */
	run = load("new\ntrigger start entry fn_a\nfilter depth 1\nend\n");
	run_task(&t1, 0);
	cmd(kft_run_prime);
	enter(A);
	enter(B);
	call(C, 1);
	shim_in_irq = true;
	call(IRQ, 1);			/* level 2: an interrupt in B */
	shim_in_irq = false;
	enter(C);			/* open at the stop, level 2 */
	tick(1);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && count(run, B) == 1 && count(run, C) == 0 &&
	       count(run, IRQ) == 0 && counter(KFT_CNT_FILTER_DEPTH) == 3,
	       "filter depth 1: the trigger and its callees; deeper calls, open ones too, counted");
	leave(C);
	leave(B);
	leave(A);

	/* notunder: a call and everything under it, open or not. */
	run = load("new\nfilter notunder fn_b\nend\n");
	run_task(&t1, 0);
	cmd(kft_run_prime);
	enter(A);
	enter(B);
	call(C, 1);
	shim_in_irq = true;
	call(IRQ, 1);
	shim_in_irq = false;
	leave(B);
	call(D, 1);
	enter(B);
	enter(C);			/* open at the stop */
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && count(run, D) == 1 && count(run, B) == 0 &&
	       count(run, C) == 0 && count(run, IRQ) == 0 &&
	       counter(KFT_CNT_FILTER_NOTUNDER) == 5,
	       "filter notunder: its calls, their callees and interrupts meanwhile left out (%lu)",
	       counter(KFT_CNT_FILTER_NOTUNDER));
	leave(C);
	leave(B);
	leave(A);
	t1.next = NULL;
	shim_tasks = NULL;
}

/* Only the changes kft_state.h lists happen: the others are refused. */
/* kft_dump=panic: the run ends where it stands, without waiting for a lock. */
static void test_end_at_panic(void)
{
	struct kft_run *run;
	const struct kft_entry *e;

	t1.next = NULL;
	shim_tasks = &t1;
	run = load("new\ntrigger start entry fn_a\nend\n");
	tap_ok(!kft_run_end_at_panic(run) && kft_state == KFT_CONFIGURED,
	       "panic: a run never started is left alone");
	cmd(kft_run_prime);
	run_task(&t1, 0);
	enter(A);
	tick(5);
	call(B, 20);
	enter(C);
	tick(7);
	mutex_lock(&kft_mutex);
	tap_ok(!kft_run_end_at_panic(run) && kft_state == KFT_TRIGGERED,
	       "panic: with kft_mutex held (a stopped CPU may be changing the run) nothing is touched");
	mutex_unlock(&kft_mutex);
	tap_ok(kft_run_end_at_panic(run) && kft_state == KFT_COMPLETE &&
	       run->stop_reason == KFT_BY_PANIC && run->finished,
	       "panic: a triggered run ends by panic, its log finished");
	e = nth(run, C, 0);
	tap_ok(run->nr_logged == 3 && len(nth(run, B, 0)) == 20 &&
	       e && e->delta == KFT_DELTA_OPEN &&
	       nth(run, A, 0)->delta == KFT_DELTA_OPEN &&
	       at(nth(run, A, 0)) < at(nth(run, B, 0)),
	       "panic: the calls open at the panic are logged -1, in entry order");
	tap_ok(kft_run_end_at_panic(run) && run->nr_logged == 3,
	       "panic: a second panic end changes nothing");
	leave(C);
	leave(A);
}

/*
 * A 2.5 GHz counter: the hooks keep cycles and judge mintime in cycles,
 * with a margin; the log comes out in ns, judged exactly.
 */
static void test_counter_units(void)
{
	unsigned long khz = shim_tsc_khz;
	struct kft_run *run;

	kft_cycles_mult = 0;		/* scale the counter afresh */
	shim_tsc_khz = 2500000;
	t1.next = NULL;
	shim_tasks = &t1;
	run = load("new\nfilter mintime 10\nend\n");
	cmd(kft_run_prime);
	tap_ok(kft_clock_counter && run->mult && run->min_len < 25000 &&
	       run->min_len > 24990,
	       "counter: the hooks read cycles; mintime 10 us is %llu of them (25000 less a margin)",
	       (unsigned long long)run->min_len);
	run_task(&t1, 0);
	enter(A);
	shim_tsc += 25003;		/* 10.001 us */
	shim_sched_clock += 10001;
	leave(A);
	enter(B);
	shim_tsc += 24990;		/* 9.996 us: dropped by the hooks */
	shim_sched_clock += 9996;
	leave(B);
	enter(C);
	shim_tsc += 24998;		/* 9.9992 us: kept by the hooks' margin */
	shim_sched_clock += 9999;
	leave(C);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && len(nth(run, A, 0)) >= 10000 &&
	       len(nth(run, A, 0)) <= 10002 && count(run, B) == 0 &&
	       count(run, C) == 0 && counter(KFT_CNT_FILTER_TIME) == 2,
	       "counter: the log in ns (%llu), the filter exact: one dropped by the hooks, one when the log is read",
	       (unsigned long long)len(nth(run, A, 0)));
	tap_ok(run->stop_ns > run->start_ns &&
	       run->stop_ns - run->start_ns >= 29995 &&
	       run->stop_ns - run->start_ns <= 29998 && !run->mult,
	       "counter: start and stop in ns once the log is read (%llu apart)",
	       (unsigned long long)(run->stop_ns - run->start_ns));
	kft_cycles_mult = 0;
	shim_tsc_khz = khz;
}

/*
 * No usable cycle counter: the hooks read sched_clock(), off their fast
 * paths (run->slow), and the log is in ns as read.  As when x86's
 * clocksource watchdog finds the TSC unstable after runs that read it.
 */
static void test_no_counter(void)
{
	unsigned long khz = shim_tsc_khz;
	struct kft_run *run;

	run = load("new\nend\n");
	cmd(kft_run_prime);
	tap_ok(kft_clock_counter && run->mult && run->khz == khz,
	       "no counter: a run reads the counter while it is usable");
	cmd(kft_run_stop);
	shim_tsc_khz = 0;		/* found unstable */
	run_task(&t1, 0);
	run = load("new\nfilter mintime 10\ntrigger stop time 30ms\nend\n");
	cmd(kft_run_prime);
	tap_ok(!kft_clock_counter && !run->mult &&
	       (run->slow & KFT_SLOW_SCHED_CLOCK) && run->min_len == 10000 &&
	       run->stop_after == 30000000,
	       "no counter: then sched_clock(), off the fast paths, mintime and stop time in ns (%llu, %llu)",
	       (unsigned long long)run->min_len,
	       (unsigned long long)run->stop_after);
	enter(A);
	shim_sched_clock += 10000;
	shim_tsc += 99999999;		/* not read */
	leave(A);
	enter(B);
	shim_sched_clock += 9999;
	leave(B);
	cmd(kft_run_stop);
	finish(run);
	tap_ok(count(run, A) == 1 && len(nth(run, A, 0)) == 10000 &&
	       count(run, B) == 0 && counter(KFT_CNT_FILTER_TIME) == 1 &&
	       counter(KFT_CNT_LOGGED) == 1,
	       "no counter: A kept (%llu ns), B dropped",
	       (unsigned long long)len(nth(run, A, 0)));
	shim_tsc_khz = khz;
	run = load("new\nend\n");
	cmd(kft_run_prime);
	tap_ok(kft_clock_counter && !(run->slow & KFT_SLOW_SCHED_CLOCK),
	       "counter back: the next run is on the fast paths again");
	cmd(kft_run_stop);
}

/*
 * A log bigger than the memory the kernel could free for it is refused at
 * once, before the allocator reclaims for it; one that fits is made.
 */
static void test_log_too_big(void)
{
	static const char text[] = "new\nlogentries 100000\nend\n";
	long avail = shim_mem_available;
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;
	int ok;

	shim_mem_available = 100000 * sizeof(struct kft_entry) / 4096 - 1;
	ok = !kft_config_parse(&cfg, text, strlen(text), 0, &err);
	run = kft_run_create(&cfg);
	tap_ok(ok && !run, "a log of 100000 entries, 1 page more than available: refused");
	shim_mem_available = 100000 * sizeof(struct kft_entry) / 4096 + 1;
	ok = !kft_config_parse(&cfg, text, strlen(text), 0, &err);
	run = kft_run_create(&cfg);
	tap_ok(ok && run && run->capacity == 100000,
	       "... and with the page: made");
	kft_run_put(run);
	shim_mem_available = avail;
}

/*
 * The kernel refines the counter's rate after a run was armed (x86's
 * tsc_refine_calibration_work()): the next run scales with the new rate,
 * and its limits agree with its scaling.
 */
static void test_counter_rate_refined(void)
{
	unsigned long khz = shim_tsc_khz;
	struct kft_run *run;
	u64 ms, min_ns, now_ns;

	run = load("new\nend\n");
	cmd(kft_run_prime);
	cmd(kft_run_stop);
	shim_tsc_khz = khz + khz / 100;
	run = load("new\nfilter mintime 10\nend\n");
	cmd(kft_run_prime);
	ms = mul_u64_u32_shr(shim_tsc_khz, run->mult, run->shift);
	min_ns = mul_u64_u32_shr(run->min_len, run->mult, run->shift);
	now_ns = kft_time_ns(run, shim_tsc);
	tap_ok(run->khz == shim_tsc_khz && ms >= 999999 && ms <= 1000001 &&
	       min_ns < 10000 && min_ns > 9990 &&
	       now_ns + 2 >= shim_sched_clock && now_ns <= shim_sched_clock + 2,
	       "rate refined: the next run scales with it (a ms of cycles is %llu ns), mintime 10 us is %llu ns of them, aligned with sched_clock() (%lld ns)",
	       (unsigned long long)ms, (unsigned long long)min_ns,
	       (long long)(now_ns - shim_sched_clock));
	cmd(kft_run_stop);
	shim_tsc_khz = khz;
}

static void test_state_table(void)
{
	int from, to, n = 0, refused = 0, warned = shim_warnings;

	for (from = 0; from < KFT_NR_STATES; from++)
		for (to = 0; to < KFT_NR_STATES; to++)
			n += kft_state_edge(from, to);
	tap_ok(n == 17, "state table: 17 changes (%d)", n);
	tap_ok(kft_state_armed(KFT_PRIMED) && kft_state_armed(KFT_STARTING) &&
	       kft_state_armed(KFT_TRIGGERED) && !kft_state_armed(KFT_NONE) &&
	       !kft_state_armed(KFT_CONFIGURED) &&
	       !kft_state_armed(KFT_COMPLETE),
	       "state table: armed from primed to triggered");
	for (from = 0; from < KFT_NR_STATES; from++) {
		for (to = 0; to < KFT_NR_STATES; to++) {
			if (kft_state_edge(from, to))
				continue;
			kft_state = from;
			kft_state_set(to);
			refused += kft_state == from;
		}
	}
	tap_ok(refused == KFT_NR_STATES * KFT_NR_STATES - n &&
	       shim_warnings > warned,
	       "state table: every other change refused, with a warning");
	shim_warnings = warned;
	kft_state = KFT_NONE;
}

/* kft_error(): one printable line in /proc/kft and the log, whatever it is given. */
static void test_error_escaped(void)
{
	shim_log[0] = '\0';
	kft_error("say %s", "a\nb\x1b[31m\\x\xff");
	tap_ok(!strcmp(last_error, "say a\\x0ab\\x1b[31m\\x\\xff") &&
	       !strcmp(shim_log, "kft: say a\\x0ab\\x1b[31m\\x\\xff\n"),
	       "errors: a newline and ESC left in a message are escaped (%s)",
	       last_error);
	kft_error_clear();
}

int main(void)
{
	int f;

	for (f = A; f <= TO_USER; f++)
		shim_add_symbol(fn_names[f], (unsigned long)fn(f));
	shim_tsc_khz = 1000000;
	shim_sched_clock = shim_tsc = 1000000000;	/* 1 s after boot */

	test_no_run();
	test_error_escaped();
	test_boot_run();
	test_triggers_and_nesting();
	test_inner_and_cost();
	test_calibration_trusted();
	test_filters();
	test_lost_and_not_found();
	test_time_triggers();
	test_autorepeat();
	test_tasks_cpus_irqs();
	test_stack_watch();
	test_replace_and_clear();
	test_forget_unloaded();
	test_scope();
	test_end_at_panic();
	test_counter_units();
	test_no_counter();
	test_counter_rate_refined();
	test_log_too_big();
	test_state_table();
	tap_ok(!shim_warnings, "no WARN in any test (%d)", shim_warnings);
	return tap_done();
}
