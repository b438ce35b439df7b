/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KFT run states: the one list of what a run can be and how it changes.
 *
 * The enum is in lifecycle order.  Every change goes through
 * kft_state_set() (the control side: kft_run.c under kft_mutex, and
 * kft_boot.c before other CPUs run) or kft_state_move() (a compare-and-
 * exchange, where a hook may race: kft.c, and stopping from kft_run.c),
 * and both refuse a change that is not in this table:
 *
 *   from                  to          when                       by
 *   any                   NONE        a new config replaces it   kft_run_install()
 *   NONE                  CONFIGURED  ... and is installed       kft_run_install()
 *   NONE                  PRIMED      a boot run is set up       kft_boot_prime()
 *   CONFIGURED            PRIMED      "prime", "start"           kft_run_arm()
 *   PRIMED                STARTING    start trigger fires        kft_start()
 *   STARTING              TRIGGERED   ... its time base is set   kft_start()
 *   TRIGGERED             PRIMED      stop trigger, autorepeat   kft_stop()
 *   TRIGGERED             COMPLETE    stop trigger, log full     kft_stop()
 *   PRIMED, TRIGGERED     COMPLETE    "stop", module unloading,  kft_run_end()
 *                                     kft_dump= time
 *   PRIMED, TRIGGERED     COMPLETE    kft_dump=panic             kft_run_end_at_panic()
 *   CONFIGURED, COMPLETE  CONFIGURED  "clear"                    kft_run_clear()
 *   NONE                  COMPLETE    a finished run back after  kft_calibrate()
 *                                     its hooks were timed
 *
 * The hooks work from PRIMED to TRIGGERED, kft_state_armed(): in PRIMED
 * they test the start trigger, in TRIGGERED they log, and in STARTING (the
 * few instructions of kft_start()) they do nothing.
 */
#ifndef _KERNEL_KFT_STATE_H
#define _KERNEL_KFT_STATE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>

enum kft_state {
	KFT_NONE,		/* no run registered */
	KFT_CONFIGURED,		/* config loaded, not primed */
	KFT_PRIMED,		/* waiting for the start trigger */
	KFT_STARTING,		/* a trigger fired; its time base is being set */
	KFT_TRIGGERED,		/* logging */
	KFT_COMPLETE,		/* stopped; the log can be read */
	KFT_NR_STATES,
};

#define KFT_EDGE(from, to)	BIT_ULL((from) * KFT_NR_STATES + (to))
#define KFT_TO_NONE		(KFT_EDGE(KFT_NONE, KFT_NONE) |		\
				 KFT_EDGE(KFT_CONFIGURED, KFT_NONE) |	\
				 KFT_EDGE(KFT_PRIMED, KFT_NONE) |	\
				 KFT_EDGE(KFT_STARTING, KFT_NONE) |	\
				 KFT_EDGE(KFT_TRIGGERED, KFT_NONE) |	\
				 KFT_EDGE(KFT_COMPLETE, KFT_NONE))
/* The table above, one bit per allowed change. */
#define KFT_EDGES		(KFT_TO_NONE |				\
				 KFT_EDGE(KFT_NONE, KFT_CONFIGURED) |	\
				 KFT_EDGE(KFT_NONE, KFT_PRIMED) |	\
				 KFT_EDGE(KFT_NONE, KFT_COMPLETE) |	\
				 KFT_EDGE(KFT_CONFIGURED, KFT_PRIMED) |	\
				 KFT_EDGE(KFT_PRIMED, KFT_STARTING) |	\
				 KFT_EDGE(KFT_STARTING, KFT_TRIGGERED) | \
				 KFT_EDGE(KFT_TRIGGERED, KFT_PRIMED) |	\
				 KFT_EDGE(KFT_TRIGGERED, KFT_COMPLETE) | \
				 KFT_EDGE(KFT_PRIMED, KFT_COMPLETE) |	\
				 KFT_EDGE(KFT_CONFIGURED, KFT_CONFIGURED) | \
				 KFT_EDGE(KFT_COMPLETE, KFT_CONFIGURED))

static_assert(KFT_NR_STATES * KFT_NR_STATES <= 64);

static inline bool kft_state_edge(int from, int to)
{
	return from >= 0 && from < KFT_NR_STATES && to >= 0 &&
	       to < KFT_NR_STATES && (KFT_EDGES & KFT_EDGE(from, to));
}

extern int kft_state;

/*
 * The hooks do work, and the log is not to be touched: PRIMED, STARTING,
 * TRIGGERED.  One compare.
 */
static __always_inline bool kft_state_armed(int state)
{
	return (unsigned int)(state - KFT_PRIMED) <=
	       KFT_TRIGGERED - KFT_PRIMED;
}

/* The same bounds as numbers, for an arch's hook thunks to test in asm. */
#define KFT_ARMED_FIRST		2
#define KFT_ARMED_SPAN		2
static_assert((KFT_PRIMED) == (KFT_ARMED_FIRST) &&
	      (KFT_TRIGGERED - KFT_PRIMED) == (KFT_ARMED_SPAN));

/* Primed at some point: /proc/kft's "primed" of the original KFT. */
static inline bool kft_state_was_primed(int state)
{
	return state >= KFT_PRIMED;
}

/*
 * Control side: a change no hook races with.  The release publishes the
 * run's fields before a hook can see the state that uses them.
 */
void kft_state_set(int to);

/*
 * From one state to another if still in it; false if not.  Only changes
 * in the table build: from and to are constants.
 */
static __always_inline bool kft_state_move(int from, int to)
{
	BUILD_BUG_ON(!(KFT_EDGES & KFT_EDGE(from, to)));
	return raw_cmpxchg(&kft_state, from, to) == from;
}

#endif /* _KERNEL_KFT_STATE_H */
