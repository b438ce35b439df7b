// SPDX-License-Identifier: GPL-2.0
/*
 * KFT's clock, and a run's limits in its units.
 *
 * The hooks read the architecture's cycle counter raw (kft_clock() in
 * kft_internal.h): scaling it to ns is left to kft_run_finish(), once per
 * logged call rather than twice per call.  A run's filters and time
 * triggers are converted to the counter's units instead.  A dynamic run
 * converts with a multiplier, shift and offset fixed the first time a run
 * is armed, which align its times with sched_clock().  A boot run starts
 * before the counter's rate is known: its limits use the architecture's
 * bounds on the rate until the kernel has measured it.
 *
 * Dependencies: kft_config.c (the config).  Used by the hooks (kft.c), the
 * run lifecycle (kft_run.c) and boot runs (kft_boot.c).
 *
 * This file is not instrumented: the hooks call into it.
 */
#include <linux/clocksource.h>

#include "kft_internal.h"

bool kft_clock_counter __read_mostly;
u32 kft_cycles_mult __read_mostly;
u32 kft_cycles_shift __read_mostly;
u64 kft_cycles_offset __read_mostly;
static unsigned long kft_cycles_khz;	/* the rate kft_cycles_mult scales */

static bool kft_clock_is_raw;

/* A boot run is primed before the rate is known: the hooks read raw cycles. */
void __init kft_clock_set_raw(void)
{
	kft_clock_is_raw = true;
	WRITE_ONCE(kft_clock_counter, true);
}

/*
 * Scale the cycle counter the first time a run is armed, and again when
 * its rate has changed since: the kernel refines it, or finds the counter
 * unstable (x86's clocksource watchdog, at any time after boot), and then
 * the hooks read sched_clock().  Every scaling is aligned with
 * sched_clock(), so times stay on one base across runs.  Only called with
 * no run armed.
 */
void kft_clock_setup(void)
{
	unsigned long khz = kft_arch_cycles_khz();
	u32 mult, shift;

	if (kft_clock_is_raw || khz != kft_cycles_khz) {
		kft_cycles_mult = 0;	/* after a boot run, or a new rate */
		kft_clock_is_raw = false;
	}
	kft_cycles_khz = khz;
	if (!kft_cycles_mult && khz) {
		clocks_calc_mult_shift(&mult, &shift, khz * 1000, NSEC_PER_SEC,
				       3600);
		kft_cycles_mult = mult;
		kft_cycles_shift = shift;
		kft_cycles_offset = sched_clock() -
				    mul_u64_u32_shr(kft_arch_cycles(), mult,
						    shift);
	}
	WRITE_ONCE(kft_clock_counter, kft_cycles_mult != 0);
}

/* A dynamic run being armed takes the clock's units as they are now. */
void kft_clock_run(struct kft_run *run)
{
	bool counter = READ_ONCE(kft_clock_counter);

	run->clock_raw = false;
	run->mult = counter ? kft_cycles_mult : 0;
	run->shift = counter ? kft_cycles_shift : 0;
	run->offset = counter ? kft_cycles_offset : 0;
	run->khz = counter ? kft_cycles_khz : 0;	/* the scaling's rate */
	/* The hooks' fast paths read the counter; sched_clock() is slow. */
	if (counter)
		kft_limits_slow(run, 0, KFT_SLOW_SCHED_CLOCK);
	else
		kft_limits_slow(run, KFT_SLOW_SCHED_CLOCK, 0);
	kft_limits_set(run);		/* the limits in these units */
}

#define KFT_MAX_LIMIT_NS	BIT_ULL(52)	/* keeps products in 64 bits */

static notrace u64 kft_ns_to_cycles(u64 ns, u32 khz)
{
	return mul_u64_u32_div(min_t(u64, ns, KFT_MAX_LIMIT_NS), khz,
			       NSEC_PER_MSEC);
}

u64 kft_cycles_to_ns(u64 cycles, u32 khz)
{
	return mul_u64_u32_div(cycles, NSEC_PER_MSEC, khz);
}

/* The clock value at which a run that started at start_ns stops. */
static notrace u64 kft_stop_at(const struct kft_run *run, u64 start_ns)
{
	if (run->cfg.stop.kind != KFT_TRIGGER_TIME)
		return U64_MAX;
	return start_ns + min_t(u64, run->stop_after, U64_MAX - start_ns);
}

/*
 * The stop times the fast paths test, from stop_at and the slow bits:
 * after every change of either.
 */
static notrace void kft_limits_fast(struct kft_run *run)
{
	u8 slow = READ_ONCE(run->slow);
	u64 stop_at = READ_ONCE(run->stop_at);

	WRITE_ONCE(run->enter_until, slow & KFT_SLOW_ENTER ? 0 : stop_at);
	WRITE_ONCE(run->exit_until, slow & KFT_SLOW_EXIT ? 0 : stop_at);
}

/* A trigger started the run at now: when its time trigger stops it. */
void notrace kft_limits_started(struct kft_run *run, u64 now)
{
	WRITE_ONCE(run->stop_at, kft_stop_at(run, now));
	kft_limits_fast(run);
}

/* Slow bits that come and go with a run's phase (boot run, early days). */
void notrace kft_limits_slow(struct kft_run *run, u8 set, u8 clear)
{
	WRITE_ONCE(run->slow, (run->slow | set) & ~clear);
	kft_limits_fast(run);
}

/* Has the start time come?  A dynamic run's is in ns since boot. */
bool notrace kft_start_due(const struct kft_run *run, u64 now)
{
	if (run->mult)
		now = kft_time_ns(run, now);
	return now >= run->start_at;
}

/*
 * The filters and time triggers in the hooks' clock units, with a margin
 * that keeps more calls rather than fewer: kft_run_finish() applies the
 * exact limits to the log in ns.  A dynamic run's counter: its rate, with
 * the scaling's rounding for margin.  A boot run's raw cycles: with a 2%
 * margin either way once the rate is known (the kernel refines it later),
 * or with the architecture's bounds on it (KFT_ARCH_BOOT_KHZ_LO/HI in
 * asm/kft.h) until then, which make the hooks call this again on every
 * exit (KFT_SLOW_LIMITS).
 */
void notrace kft_limits_set(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	u32 khz, lo = KFT_ARCH_BOOT_KHZ_LO, hi = KFT_ARCH_BOOT_KHZ_HI;
	u8 slow = READ_ONCE(run->slow) & ~KFT_SLOW_LIMITS;
	u64 max_len;

	if (!run->clock_raw && !run->mult) {		/* ns */
		run->min_len = cfg->mintime_ns;
		max_len = cfg->maxtime_ns ?: U64_MAX;
		run->start_at = cfg->start.time_ns;
		run->stop_after = cfg->stop.time_ns;
	} else {
		if (run->mult) {	/* rounding: a cycle, a few ppm */
			khz = run->khz;
			lo = khz - khz / 65536 - 2;
			hi = khz + khz / 65536 + 2;
		} else {
			khz = kft_arch_boot_cycles_khz();
			if (khz) {
				lo = khz - khz / 50;
				hi = khz + khz / 50;
			} else {
				slow |= KFT_SLOW_LIMITS;
			}
		}
		run->min_len = kft_ns_to_cycles(cfg->mintime_ns, lo);
		max_len = cfg->maxtime_ns ?
			  kft_ns_to_cycles(cfg->maxtime_ns, hi) : U64_MAX;
		run->stop_after = kft_ns_to_cycles(cfg->stop.time_ns, hi);
		/* A dynamic run's start time stays in ns: kft_start_due(). */
		run->start_at = run->mult ? cfg->start.time_ns :
			run->base_ns + kft_ns_to_cycles(cfg->start.time_ns, lo);
	}
	/* The parser keeps maxtime >= mintime, and lo <= hi. */
	run->len_span = max_len - min(run->min_len, max_len);
	if (cfg->start.kind != KFT_TRIGGER_TIME)
		run->start_at = U64_MAX;	/* the hooks' test: never */
	WRITE_ONCE(run->slow, slow);
	if (run->start_reason)
		kft_limits_started(run, run->start_ns);
	else
		kft_limits_fast(run);
}

/*
 * The time from base to u (clock units) in ns: for a dynamic run, as the
 * difference of the two scaled, which is what scaling each time a hook
 * read the clock gave.
 */
u64 kft_units_to_ns(const struct kft_run *run, u64 base, u64 u)
{
	u32 khz;

	if (run->mult)
		return mul_u64_u32_shr(u, run->mult, run->shift) -
		       mul_u64_u32_shr(base, run->mult, run->shift);
	if (!run->clock_raw)
		return u - base;
	khz = kft_arch_boot_cycles_khz();
	return khz ? kft_cycles_to_ns(u - base, khz) : u - base;
}

/*
 * A run time for display: ns, also before the log is converted.  A
 * dynamic run's since boot, a boot run's since it was primed.
 */
u64 notrace kft_time_ns(const struct kft_run *run, u64 t)
{
	if (run->mult)
		return mul_u64_u32_shr(t, run->mult, run->shift) + run->offset;
	if (!run->clock_raw)
		return t;
	return kft_units_to_ns(run, run->base_ns,
			       t > run->base_ns ? t : run->base_ns);
}
