/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/realcpu: what the driver (driver.c) calls of the program (prog_*.c),
 * of KFT's engine in the variant that has it as its hooks (kftglue.c), and
 * of nothing in the others (nokft.c).
 */
#ifndef _REALCPU_H
#define _REALCPU_H

/* The program's phases (prog_*.c), up to a NULL name; instrumented. */
struct realcpu_phase {
	const char *name;
	void (*fn)(void);
};
extern const struct realcpu_phase realcpu_phases[];
/* Set the program up for the phases: SCALE times the default work. */
void realcpu_prog_init(int scale);

/* 1 when KFT's engine is linked in. */
int realcpu_kft(void);
/* Install and start a run of config (its text); exits on error. */
void realcpu_kft_start(const char *config);
/*
 * Stop the run, finish its log (which calibrates the hooks, as reading
 * /proc/kft_data does) and write it to path as /proc/kft_data has it: the
 * header and, of the data lines, those of the functions in keep[] (n of
 * them; all lines if n is 0): of keep[k]'s calls, the r-th (from 0) if
 * bit r of calls[k] is set, or every one if calls[k] is 0.  Exits on
 * error.
 */
void realcpu_kft_stop(const char *path, void *const *keep,
		      const unsigned long long *calls, int n);
/* TSC ticks a second, measured against CLOCK_MONOTONIC_RAW. */
double realcpu_tsc_hz(void);

#endif
