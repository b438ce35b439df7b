// SPDX-License-Identifier: GPL-2.0
/*
 * bench/realcpu: the driver.  A real program (prog_lua.c: Lua;
 * prog_bzip2.c: bzip2), built from Debian's source by build.sh, runs a
 * few phases of different character, each a function of the program's
 * part; each phase is timed with the TSC around its call.  Built, with the
 * program, three ways: (a) not instrumented, (b) -finstrument-functions
 * with empty hooks, (c) with KFT's engine as the hooks: then a run of the
 * config given is started before the first phase and stopped after the
 * last, and its log written (the header and the phases' lines), for kd to
 * read back.
 *
 * usage: driver [-s SCALE] [-r REPEATS] [-k CONFIG LOG]
 * Each phase is run REPEATS times (default 5), the phases in turn; prints
 * "tsc_hz HZ" then, per phase, "phase NAME CYCLES CLEAN": the fewest
 * cycles a repeat took of the CLEAN repeats that ran without a context
 * switch (getrusage()), or of all if none did.  The CPU is shared: a
 * repeat another task took the CPU from is not the program's time.  With
 * -k, the log keeps the clean repeats' lines of each phase (all if none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <x86intrin.h>

#include "realcpu.h"

#define MAXPHASES	8

/* Context switches of this process so far. */
static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);	/* one thread */
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

int main(int argc, char **argv)
{
	unsigned long long cycles[MAXPHASES], all[MAXPHASES], clean[MAXPHASES], t0, t;
	int scale = 1, repeats = 5, nphases = 0;
	const char *config = NULL, *log = NULL;
	void *keep[MAXPHASES];
	int i, p, r, nclean;
	long sw;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			scale = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			repeats = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-k") && i + 2 < argc) {
			config = argv[++i];
			log = argv[++i];
		} else {
			fprintf(stderr, "usage: driver [-s SCALE] [-r REPEATS] [-k CONFIG LOG]\n");
			return 2;
		}
	}
	if (scale < 1 || scale > 100 || repeats < 1 || repeats > 64) {
		fprintf(stderr, "realcpu: -s SCALE: 1 to 100, -r REPEATS: 1 to 64\n");
		return 2;
	}
	if (config && !realcpu_kft()) {
		fprintf(stderr, "realcpu: -k: this driver has no KFT\n");
		return 2;
	}
	while (realcpu_phases[nphases].name)
		nphases++;
	if (nphases > MAXPHASES) {
		fprintf(stderr, "realcpu: more than %d phases\n", MAXPHASES);
		return 2;
	}
	printf("tsc_hz %.0f\n", realcpu_tsc_hz());
	realcpu_prog_init(scale);
	if (config)
		realcpu_kft_start(config);
	for (p = 0; p < nphases; p++) {
		cycles[p] = all[p] = ~0ULL;
		clean[p] = 0;
		keep[p] = (void *)realcpu_phases[p].fn;
	}
	for (r = 0; r < repeats; r++) {
		for (p = 0; p < nphases; p++) {
			sw = switches();
			t0 = __rdtsc();
			realcpu_phases[p].fn();
			t = __rdtsc() - t0;
			if (t < all[p])
				all[p] = t;
			if (switches() != sw)
				continue;
			clean[p] |= 1ULL << r;
			if (t < cycles[p])
				cycles[p] = t;
		}
	}
	if (config)
		realcpu_kft_stop(log, keep, clean, nphases);
	for (p = 0; p < nphases; p++) {
		nclean = __builtin_popcountll(clean[p]);
		printf("phase %s %llu %d\n", realcpu_phases[p].name,
		       nclean ? cycles[p] : all[p], nclean);
	}
	return 0;
}
