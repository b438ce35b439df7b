// SPDX-License-Identifier: GPL-2.0
/*
 * genlog: a synthetic /proc/kft_data log and its System.map, for measuring
 * the host tools on millions of lines (make bench).
 *
 * The log looks like a real one: call trees of tasks taking turns on a
 * CPU, nested to depth 24 at most, with interrupts (pid -1) nesting inside
 * them; durations add up; functions drawn from NSYMS symbols with a Zipf
 * law, as in real traces where a few functions make most calls, and a
 * function calls mostly the same few callees; callers are addresses inside
 * the calling function.  --uniform draws every function and caller
 * uniformly instead: the worst case for symbol lookups.
 *
 * usage: genlog [--uniform] LINES MAP LOG
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSYMS		150000
#define TEXT		0xffffffff81000000ULL
#define FN_SIZE		64
#define MAX_DEPTH	24
#define MAX_TREE	4096

struct rec {
	double entry, delta;
	int pid;
	uint32_t fn, caller;
};

static double *cdf;
static int uniform;
static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double frand(void)
{
	return (next_rand() >> 11) * (1.0 / 9007199254740992.0);
}

static uint32_t pick_fn(void);

/* A callee of parent: one of its own six, or (30%) a popular helper. */
static uint32_t pick_callee(uint32_t parent)
{
	if (uniform || frand() < 0.3)
		return pick_fn();
	return (uint32_t)((parent * 7919ULL + 1 + next_rand() % 6) % NSYMS);
}

static uint32_t pick_fn(void)
{
	double u = frand();
	uint32_t lo = 0, hi = NSYMS - 1;

	if (uniform)
		return next_rand() % NSYMS;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Spread the popular ranks over the text, not at its start. */
	return (uint32_t)((lo * 2654435761ULL) % NSYMS);
}

static struct rec tree[MAX_TREE];
static int ntree;
static double now;

/* One call of fn and its callees, in entry order; its record index. */
static int gen(int pid, uint32_t fn, uint32_t caller, int depth)
{
	int i = ntree++, n, k;

	tree[i].entry = now;
	tree[i].pid = pid;
	tree[i].fn = fn;
	tree[i].caller = caller;
	now += 0.05 + frand() * 0.5;		/* own time before callees */
	n = depth < MAX_DEPTH && ntree < MAX_TREE - MAX_DEPTH * 4 ?
	    (int)(frand() * 2.9) : 0;
	for (k = 0; k < n && ntree < MAX_TREE - MAX_DEPTH * 4; k++) {
		/* A call instruction's return address: fixed per call site. */
		uint32_t site = uniform ? (uint32_t)(next_rand() % (NSYMS * FN_SIZE)) :
			tree[i].fn * FN_SIZE + 8 + (uint32_t)(k * 11 % (FN_SIZE - 8));

		if (pid >= 0 && frand() < 0.01)		/* an interrupt */
			gen(-1, pick_fn(), site, MAX_DEPTH - 3);
		gen(pid, pick_callee(tree[i].fn), site, depth + 1);
		now += 0.02 + frand() * 0.2;
	}
	tree[i].delta = now - tree[i].entry;
	return i;
}

int main(int argc, char **argv)
{
	long lines, done = 0;
	FILE *map, *log;
	double sum = 0;
	int i, a = 1;

	if (argc > 1 && !strcmp(argv[1], "--uniform")) {
		uniform = 1;
		a++;
	}
	if (argc - a != 3) {
		fprintf(stderr, "usage: genlog [--uniform] LINES MAP LOG\n");
		return 2;
	}
	lines = atol(argv[a]);
	map = fopen(argv[a + 1], "w");
	log = fopen(argv[a + 2], "w");
	cdf = malloc(NSYMS * sizeof(*cdf));
	if (!map || !log || !cdf || lines <= 0) {
		fprintf(stderr, "genlog: cannot write %s or %s\n", argv[a + 1], argv[a + 2]);
		return 1;
	}
	for (i = 0; i < NSYMS; i++) {
		fprintf(map, "%llx T fn_%d\n", TEXT + (unsigned long long)i * FN_SIZE, i);
		sum += 1.0 / (i + 1);
		cdf[i] = sum;
	}
	for (i = 0; i < NSYMS; i++)
		cdf[i] /= sum;
	fprintf(log, "\nKernel Instrumentation Run ID 1\n\nKernel text base 0x%llx\n"
		"Logging started at 0 usec by user action\n\n"
		"       Entry        Delta    PID           Function             Caller  CPU\n"
		"------------ ------------ ------ ------------------ ------------------ ----\n",
		TEXT);
	while (done < lines) {
		ntree = 0;
		gen(100 + (int)(next_rand() % 8), pick_fn(),
		    next_rand() % (NSYMS * FN_SIZE), 0);
		for (i = 0; i < ntree && done < lines; i++, done++)
			fprintf(log, "%12.3f %12.3f %6d 0x%016llx 0x%016llx %4d\n",
				tree[i].entry, tree[i].delta, tree[i].pid,
				TEXT + (unsigned long long)tree[i].fn * FN_SIZE,
				TEXT + (unsigned long long)tree[i].caller, 0);
		now += 1 + frand() * 5;			/* another task's turn */
	}
	free(cdf);
	return fclose(map) || fclose(log);
}
