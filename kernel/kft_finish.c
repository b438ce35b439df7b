// SPDX-License-Identifier: GPL-2.0
/*
 * A stopped run's log made readable, once, before it is first read: the
 * calls still open logged from the tasks' shadow stacks, the slots CPUs
 * reserved but did not fill squeezed out, its times counted from the run's
 * base and converted from the hooks' clock units to ns, the time filters
 * applied exactly, the entries sorted by entry time; then what the hooks
 * cost measured (kft_calibrate.c).
 *
 * Runs under kft_mutex, but for a panicking kernel's (kft_run.c:
 * kft_run_end_at_panic()), with no CPU in a hook that could log.
 *
 * Dependencies: kft_clock.c, kft.c (the open calls, kft_sync()),
 * kft_calibrate.c.  Used by kft_run.c, kft_proc.c and kft_dump.c.
 */
#define pr_fmt(fmt) "kft: " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kft_internal.h"

static u64 kft_entry_time(const struct kft_entry *e)
{
	return e->time_cpu & KFT_TIME_MASK;
}

/* By entry time; a caller entered in the same ns as its callee comes first. */
static int kft_cmp_entry(const void *a, const void *b)
{
	const struct kft_entry *x = a, *y = b;
	u64 tx = kft_entry_time(x), ty = kft_entry_time(y);
	u64 lx = kft_delta_decode(x->delta), ly = kft_delta_decode(y->delta);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return 0;
}

/*
 * Entries come with the clock's low 48 bits (kft_fill()): count them from
 * the run's base, modulo 2^48 (a clock that crossed a multiple of it is
 * no matter), and a time a hair before the base (another CPU's clock,
 * a little behind the one that started the run) as the base itself.
 */
#define KFT_TIME_BEHIND		BIT_ULL(40)

static u64 kft_time_rebase(const struct kft_run *run, u64 time)
{
	u64 t = (time - run->base_ns) & KFT_TIME_MASK;

	return t > KFT_TIME_MASK - KFT_TIME_BEHIND ? 0 : t;
}

static void kft_entry_rebase(const struct kft_run *run, struct kft_entry *e)
{
	e->time_cpu = (e->time_cpu & ~KFT_TIME_MASK) |
		      kft_time_rebase(run, e->time_cpu);
}

/*
 * A call whose exit read the clock a hair before its entry did (on a CPU
 * whose clock is a little behind) measured 2^48 less a little, which the
 * log holds as its longest length: if that would end it after the run
 * stopped (stop, rebased), it lasted 0.  Judged here, not in the hooks,
 * where the test would cost every call (an -O2 hook 2-3 instructions).
 * Exact for runs shorter than the longest length, 2147 s of clock units.
 */
#define KFT_DELTA_LONGEST	(KFT_DELTA_US | KFT_DELTA_MAX_US)

static void kft_entry_behind(struct kft_entry *e, u64 stop)
{
	if (e->delta == KFT_DELTA_LONGEST &&
	    kft_entry_time(e) + kft_delta_decode(KFT_DELTA_LONGEST) > stop)
		e->delta = 0;
}

/*
 * An entry in clock units, to ns (convert).  Then the time filters,
 * exactly: the hooks judged calls with a margin, in units
 * (kft_limits_set()), and a call that ended before it began as passing
 * mintime (kft_entry_behind() made it 0).  The trigger functions'
 * calls stay, whatever their length.
 */
static bool kft_entry_to_ns(const struct kft_run *run, struct kft_entry *e,
			    bool convert)
{
	const struct kft_config *cfg = &run->cfg;
	u64 at = run->base_ns + kft_entry_time(e);
	u64 len = kft_delta_decode(e->delta);
	unsigned long fn = kft_addr(e->fn);

	if (convert) {
		u64 t = kft_units_to_ns(run, run->base_ns, at);

		e->time_cpu = (e->time_cpu & ~KFT_TIME_MASK) |
			      (t & KFT_TIME_MASK);
		if (len != U64_MAX) {
			len = kft_units_to_ns(run, at, at + len);
			e->delta = kft_delta_encode(len);
		}
	}
	if (len == U64_MAX || fn == run->start_fn || fn == run->stop_fn)
		return true;
	return len >= cfg->mintime_ns &&
	       !(cfg->maxtime_ns && len > cfg->maxtime_ns);
}

/*
 * Make a stopped run's log readable, once: log the calls still open, squeeze
 * out the slots CPUs reserved but did not fill, convert its times to ns,
 * and sort by entry time.  No CPU is in a hook that could log.
 */
void kft_run_finish_log(struct kft_run *run)
{
	unsigned long i, n = 0, used;
	bool convert = run->mult || run->clock_raw;
	u64 stop;
	int cpu;

	kft_log_open_frames(run);
	if (run->clock_raw && !kft_arch_boot_cycles_khz()) {
		pr_warn("cycle rate unknown: boot run times are in cycles\n");
		convert = false;
	}
	used = min_t(unsigned long, atomic_long_read(&run->next),
		     run->capacity);
	stop = run->stop_ns ? kft_time_rebase(run, run->stop_ns) : U64_MAX;
	for (i = 0; i < used; i++) {
		if (!run->log[i].fn)
			continue;
		kft_entry_rebase(run, &run->log[i]);
		kft_entry_behind(&run->log[i], stop);
		/* Not a boot run's cycles at an unknown rate: in ns or to ns. */
		if ((convert || !run->clock_raw) &&
		    !kft_entry_to_ns(run, &run->log[i], convert)) {
			kft_cpu_inc(kft_cpu.cnt[KFT_CNT_FILTER_TIME]);
			continue;
		}
		run->log[n++] = run->log[i];
	}
	if (n < used)
		memset(run->log + n, 0, (used - n) * sizeof(*run->log));
	sort(run->log, n, sizeof(*run->log), kft_cmp_entry, NULL);
	if (convert) {
		run->start_ns = kft_time_ns(run, run->start_ns);
		if (run->stop_reason)
			run->stop_ns = kft_time_ns(run, run->stop_ns);
		run->base_ns = run->mult ? kft_time_ns(run, run->base_ns) : 0;
		run->clock_raw = false;
		run->mult = 0;
		kft_limits_set(run);
	}
	/* Nothing more may be logged into the squeezed log. */
	atomic_long_set(&run->next, run->capacity);
	for_each_possible_cpu(cpu) {
		atomic_long_set(&per_cpu(kft_cpu, cpu).pos, 0);
		per_cpu(kft_cpu, cpu).end = 0;
	}
	run->nr_logged = n;
	run->finished = true;
}

/*
 * How long after its stop a run is finished and calibrated, in ns, read
 * on its own clock before its times are converted; U64_MAX if unknown.
 */
static u64 kft_since_stop_ns(const struct kft_run *run)
{
	u64 now = kft_clock();

	if (!run->stop_reason || now < run->stop_ns ||
	    (run->clock_raw && !kft_arch_boot_cycles_khz()))
		return U64_MAX;
	return kft_units_to_ns(run, run->stop_ns, now);
}

void kft_run_finish(struct kft_run *run)
{
	struct kft_run *cal;

	lockdep_assert_held(&kft_mutex);
	if (run->finished || kft_state_armed(READ_ONCE(kft_state)) ||
	    !run->start_reason)
		return;
	kft_sync();
	run->cal_after_ns = kft_since_stop_ns(run);
	/* Made while the run is in its clock's units, which finishing ends. */
	cal = kft_calibration_run(run);
	kft_run_finish_log(run);
	kft_calibrate(run, cal);
}
