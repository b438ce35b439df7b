// SPDX-License-Identifier: GPL-2.0
/*
 * What KFT's hooks cost, measured on the running kernel, for kd to take
 * off the times a run logged: calibrated overhead compensation, as TAU's
 * profilers do it (Malony and Shende, Euro-Par 2004).
 *
 * A logged call's time holds, for each call made inside it, the whole of
 * that call's two hooks - a call the filters dropped costs less than one
 * they logged, and kft_entry.inner counts both kinds - and part of its own
 * two hooks: from the clock read on entry to the one on exit.  Once a run
 * has stopped, when its log is first read, this times the real hooks,
 * called as a call site calls them, in a loop against a run of its own
 * made from the stopped one: its filters and slow paths, its time filter
 * set to drop every call and then to log every call.  The best of several
 * repeats, less the same loop calling a function that does nothing, over
 * the calls, is what a dropped and a logged call cost; the shortest call
 * the loop logged is the part of its own hooks a logged call's time
 * holds.  The log's header gives the three (kft_log_text.c).
 *
 * A best repeat is trusted only when it is not 0 and the median repeat is
 * close to it: an interrupt, an SMI or a hypervisor's exit makes a repeat
 * longer, and one that lands in the empty loop can take a best to 0.
 * Repeats that disagree are tried again; a calibration that never agrees
 * is refused, and the header says so with what it saw.
 *
 * The calibration run is installed as any run is.  Other CPUs whose call
 * sites are still live (kft_sites.c makes them NOPs seconds after a run)
 * may log into it meanwhile: their calls go into its own log, which is
 * forgotten, and the counters they moved are put back.
 *
 * Dependencies: kft.c (the hooks, the run and its state, kft_sync()),
 * kft_clock.c, kft_sites.c.  Used by kft_finish.c: kft_run_finish().
 *
 * This file is not instrumented: it calls the hooks itself.
 */
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kft_internal.h"

#define KFT_CAL_CALLS	200	/* hook pairs a repeat */
#define KFT_CAL_REPEATS	5	/* of each kind; the best counts */
#define KFT_CAL_ROUNDS	3	/* of repeats, until they agree */
/* Room for the logged repeats' calls, and other CPUs' chunks. */
#define KFT_CAL_LOG	(KFT_CAL_CALLS * KFT_CAL_REPEATS * KFT_CAL_ROUNDS + \
			 64 * KFT_CHUNK)

/* The hooks, called as a call site calls them: fn entered from site. */
static noinline notrace u64 kft_cal_hooks(void *fn, void *site)
{
	u64 t0 = kft_clock();
	unsigned int i;

	for (i = 0; i < KFT_CAL_CALLS; i++) {
		kft_arch_call_hook(__cyg_profile_func_enter, fn, site);
		kft_arch_call_hook(__cyg_profile_func_exit, fn, site);
	}
	return kft_clock() - t0;
}

/* A hook that does nothing: what a call site pays for its arguments. */
static noinline notrace void kft_cal_nothing(void *fn, void *site)
{
	asm volatile("" : : "r" (fn), "r" (site) : "memory");
}

/*
 * The same loop calling kft_cal_nothing(): its arguments made ready and
 * the calls, which a call site pays too, as its NOPs when no run is
 * armed (a NOP for each call, one instruction less than call and return).
 */
static noinline notrace u64 kft_cal_empty(void *fn, void *site)
{
	u64 t0 = kft_clock();
	unsigned int i;

	for (i = 0; i < KFT_CAL_CALLS; i++) {
		kft_cal_nothing(fn, site);
		kft_cal_nothing(fn, site);
	}
	return kft_clock() - t0;
}

/*
 * Clock units each repeat of KFT_CAL_CALLS hook pairs took, net, in
 * order (insertion: sort() is instrumented, and this run is armed).
 */
static notrace void kft_cal_repeats(void *fn, void *site,
				    u64 net[KFT_CAL_REPEATS])
{
	u64 hooks, empty, v;
	unsigned long flags;
	int r, i;

	/* Passed as a call site passes them, not folded into the loops. */
	OPTIMIZER_HIDE_VAR(fn);
	OPTIMIZER_HIDE_VAR(site);

	for (r = 0; r < KFT_CAL_REPEATS; r++) {
		local_irq_save(flags);
		hooks = kft_cal_hooks(fn, site);
		empty = kft_cal_empty(fn, site);
		local_irq_restore(flags);
		v = hooks - min(hooks, empty);
		for (i = r; i > 0 && net[i - 1] > v; i--)
			net[i] = net[i - 1];
		net[i] = v;
	}
}

/*
 * The best repeat, in clock units, if it can be trusted: not 0, and the
 * median within a quarter of it (or two clock units, a coarse counter's
 * steps).  Tried KFT_CAL_ROUNDS times; false if no round agreed.  range[]
 * is the last round's best and median.
 */
static notrace bool kft_cal_measure(void *fn, void *site, u64 range[2])
{
	u64 net[KFT_CAL_REPEATS];
	int round;

	for (round = 0; round < KFT_CAL_ROUNDS; round++) {
		kft_cal_repeats(fn, site, net);
		range[0] = net[0];
		range[1] = net[KFT_CAL_REPEATS / 2];
		if (range[0] && range[1] - range[0] <= max_t(u64, range[0] / 4, 2))
			return true;
	}
	return false;
}

/*
 * The calibration run: the stopped run's filters and slow paths (but for
 * a boot run's early days) and clock units, no triggers, a scope that
 * takes the task calibrating, its own log.  Made before the run's log is
 * finished, which converts the run to ns; NULL without memory.
 */
struct kft_run *kft_calibration_run(const struct kft_run *run)
{
	struct kft_run *cal = kzalloc(sizeof(*cal), GFP_KERNEL);

	if (!cal)
		return NULL;
	cal->log = vzalloc(array_size(KFT_CAL_LOG, sizeof(*cal->log)));
	if (!cal->log) {
		kfree(cal);
		return NULL;
	}
	cal->capacity = KFT_CAL_LOG;
	cal->cfg = run->cfg;	/* shared, read only: freed with run */
	cal->cfg.start.kind = KFT_TRIGGER_NONE;
	cal->cfg.stop.kind = KFT_TRIGGER_NONE;
	cal->cfg.autorepeat = false;
	cal->cfg.pid_set = false;
	cal->cfg.comm[0] = '\0';
	cal->cfg.children = false;
	cal->funcs = run->funcs;
	cal->slow = run->slow & ~(KFT_SLOW_LIMITS | KFT_SLOW_EARLY);
	cal->clock_raw = run->clock_raw;
	cal->mult = run->mult;
	cal->shift = run->shift;
	cal->offset = run->offset;
	cal->khz = run->khz;
	cal->stop_at = U64_MAX;
	cal->start_at = U64_MAX;
	cal->lowest_stack = ULONG_MAX;	/* watch: counted, never a chain */
	refcount_set(&cal->ref, 1);
	return cal;
}

/* A run's time filter, set to drop every call, or to log every one. */
static void kft_cal_filter(struct kft_run *cal, bool drop)
{
	cal->min_len = drop ? U64_MAX >> 1 : 0;
	cal->len_span = drop ? 0 : U64_MAX;
}

/* Clock units taken by n calls, as ps a call, in cal's units. */
static u32 kft_cal_ps(const struct kft_run *cal, u64 units, unsigned int n)
{
	return min_t(u64, div_u64(kft_units_to_ns(cal, 0, units * 1000), n),
		     U32_MAX);
}

/* The shortest call the calibration logged on this CPU: clock units. */
static u64 kft_cal_own(const struct kft_run *cal, unsigned long fn)
{
	unsigned long i, n = min_t(unsigned long, atomic_long_read(&cal->next),
				   cal->capacity);
	unsigned int cpu = raw_smp_processor_id();
	u64 own = U64_MAX;

	for (i = 0; i < n; i++) {
		const struct kft_entry *e = &cal->log[i];

		if (e->fn == (s32)(fn - kft_text_base) &&
		    e->time_cpu >> KFT_TIME_BITS == cpu &&
		    !(e->delta & KFT_DELTA_US))
			own = min_t(u64, own, e->delta);
	}
	return own;
}

/*
 * Where and with which clock the calibration measures, for the header:
 * the cost holds for that CPU at that clock rate (when: kft_run_finish()).
 */
static notrace void kft_cal_where(struct kft_run *run)
{
	run->cal_cpu = raw_smp_processor_id();
	run->cal_khz = READ_ONCE(kft_clock_counter) ? kft_arch_cycles_khz() : 0;
}

/*
 * Calibrate run, stopped and finished (its open calls logged from the
 * tasks' stacks, which the calibration's calls reuse), with cal, its
 * calibration run (freed here): run->cost_ps[], or run->calibrated false
 * if it could not be done.  Called with kft_mutex held.
 */
void kft_calibrate(struct kft_run *run, struct kft_run *cal)
{
	unsigned long (*saved)[KFT_CNT_NR] = NULL;
	void *fn = (void *)kft_calibrate, *site = (void *)kft_cal_hooks;
	unsigned long fn_addr = kft_arch_code_addr(fn);
	u64 dropped[2], logged[2], own = U64_MAX;
	bool ok = false, agreed;
	int cpu, c;

	lockdep_assert_held(&kft_mutex);
	run->calibrated = false;
	run->cal_refused = false;
	if (!cal || READ_ONCE(kft_state) != KFT_COMPLETE || kft_run != run)
		goto out_free;
	saved = kcalloc(nr_cpu_ids, sizeof(*saved), GFP_KERNEL);
	if (!saved)
		goto out_free;
	/* Every repeat on one CPU, the one the header names. */
	migrate_disable();
	kft_cal_where(run);
	for_each_possible_cpu(cpu)
		for (c = 0; c < KFT_CNT_NR; c++)
			saved[cpu][c] = atomic_long_read(&per_cpu(kft_cpu, cpu).cnt[c]);

	/* The finished run's chunks are gone (kft_run_finish_log()). */
	kft_state_set(KFT_NONE);
	WRITE_ONCE(kft_run, cal);
	kft_state_set(KFT_PRIMED);
	kft_start(cal, KFT_BY_USER, 0, kft_clock());

	kft_cal_filter(cal, true);
	agreed = kft_cal_measure(fn, site, dropped);
	/* A funclist must hold the function for a call to be logged. */
	cal->funcs = &fn_addr;
	cal->cfg.nfuncs = min(cal->cfg.nfuncs, 1U);
	cal->cfg.onlyints = false;
	kft_cal_filter(cal, false);
	agreed &= kft_cal_measure(fn, site, logged);
	/* Not stopped meanwhile (a full log): else it measured nothing. */
	ok = READ_ONCE(kft_state) == KFT_TRIGGERED;

	kft_state_set(KFT_NONE);
	migrate_enable();
	kft_sync();
	if (ok)
		own = kft_cal_own(cal, fn_addr);
	for_each_possible_cpu(cpu) {
		atomic_long_set(&per_cpu(kft_cpu, cpu).pos, 0);
		per_cpu(kft_cpu, cpu).end = 0;
		for (c = 0; c < KFT_CNT_NR; c++)
			atomic_long_set(&per_cpu(kft_cpu, cpu).cnt[c],
					saved[cpu][c]);
	}
	WRITE_ONCE(kft_run, run);
	kft_state_set(KFT_COMPLETE);
	/* Its call sites, live again for a moment, become NOPs again. */
	kft_sites_disarmed();

	if (ok && own != U64_MAX) {
		u32 (*range)[2] = run->cal_range_ps;

		for (c = 0; c < 2; c++) {
			range[KFT_COST_DROPPED][c] =
				kft_cal_ps(cal, dropped[c], KFT_CAL_CALLS);
			range[KFT_COST_LOGGED][c] =
				kft_cal_ps(cal, logged[c], KFT_CAL_CALLS);
		}
		run->cost_ps[KFT_COST_DROPPED] = range[KFT_COST_DROPPED][0];
		run->cost_ps[KFT_COST_LOGGED] = range[KFT_COST_LOGGED][0];
		run->cost_ps[KFT_COST_OWN] = kft_cal_ps(cal, own, 1);
		run->calibrated = agreed;
		run->cal_refused = !agreed;
	}
out_free:
	kfree(saved);
	if (cal)
		vfree(cal->log);
	kfree(cal);
}
