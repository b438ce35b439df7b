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
 * --shape gives the log a shape real logs have, which a tool must handle
 * in time linear in the log's length:
 *   plain   the above (the default)
 *   open    calls that never exit: half the call trees are cut short, as a
 *           stop cuts them, their open calls logged with duration -1, and
 *           the next tree's calls come from the same tasks (autorepeat, or
 *           a trace repeated end to end)
 *   irq26   thousands of interrupt blocks as 2.6-era KFT logged them: the
 *           interrupt function with the interrupted task's pid, its callees
 *           with pid -1, and no CPU column
 *   tasks   5,000 tasks taking turns instead of 8
 *
 * usage: genlog [--uniform] [--shape NAME] LINES MAP LOG
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
static int uniform, ntasks = 8;
static enum { PLAIN, OPEN, IRQ26 } shape = PLAIN;
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

/*
 * One call of fn and its callees (in the context of child_pid: pid, but -1
 * under a 2.6-era interrupt function), in entry order; its record index.
 */
static int gen(int pid, int child_pid, uint32_t fn, uint32_t caller, int depth)
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

		if (child_pid >= 0 && frand() < 0.01)	/* an interrupt */
			gen(shape == IRQ26 ? pid : -1, -1, pick_fn(), site,
			    MAX_DEPTH - 3);
		gen(child_pid, child_pid, pick_callee(tree[i].fn), site, depth + 1);
		now += 0.02 + frand() * 0.2;
	}
	tree[i].delta = now - tree[i].entry;
	return i;
}

/* A stop in the middle of the tree: what was open then never exits. */
static void cut_tree(void)
{
	int cut = 1 + (int)(frand() * (ntree - 1)), i;
	double at = tree[cut].entry;

	for (i = 0; i < cut; i++)
		if (tree[i].entry + tree[i].delta > at)
			tree[i].delta = -1;
	ntree = cut;
	now = at;
}

static int usage(void)
{
	fprintf(stderr, "usage: genlog [--uniform] [--shape plain|open|irq26|tasks] LINES MAP LOG\n");
	return 2;
}

int main(int argc, char **argv)
{
	long lines, done = 0;
	FILE *map, *log;
	double sum = 0;
	int i, a = 1;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--uniform"))
			uniform = 1;
		else if (!strcmp(argv[a], "--shape") && a + 1 < argc) {
			const char *s = argv[++a];

			if (!strcmp(s, "open"))
				shape = OPEN;
			else if (!strcmp(s, "irq26"))
				shape = IRQ26;
			else if (!strcmp(s, "tasks"))
				ntasks = 5000;
			else if (strcmp(s, "plain"))
				return usage();
		} else {
			return usage();
		}
	}
	if (argc - a != 3)
		return usage();
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
		"       Entry        Delta    PID           Function             Caller%s\n"
		"------------ ------------ ------ ------------------ ------------------%s\n",
		TEXT, shape == IRQ26 ? "" : "  CPU", shape == IRQ26 ? "" : " ----");
	while (done < lines) {
		int pid = 100 + (int)(next_rand() % ntasks);

		ntree = 0;
		gen(pid, pid, pick_fn(), next_rand() % (NSYMS * FN_SIZE), 0);
		if (shape == OPEN && ntree > 1 && frand() < 0.5)
			cut_tree();
		for (i = 0; i < ntree && done < lines; i++, done++) {
			char delta[32] = "          -1";	/* never exited */

			if (tree[i].delta >= 0)
				snprintf(delta, sizeof(delta), "%12.3f", tree[i].delta);
			fprintf(log, "%12.3f %s %6d 0x%016llx 0x%016llx",
				tree[i].entry, delta, tree[i].pid,
				TEXT + (unsigned long long)tree[i].fn * FN_SIZE,
				TEXT + (unsigned long long)tree[i].caller);
			fputs(shape == IRQ26 ? "\n" : "    0\n", log);
		}
		now += 1 + frand() * 5;			/* another task's turn */
	}
	free(cdf);
	return fclose(map) || fclose(log);
}
