// SPDX-License-Identifier: GPL-2.0
/*
 * A program instrumented like the kernel, for tests/tools/test_kftsites.sh:
 * its hooks (hooks.c) note the call site of every call they get, and once
 * main() has returned, check() compares them with the sites
 * scripts/kftsites listed: every call made is listed, every listed site
 * made a call (the program runs every one), and a tail call to the exit
 * hook, which is also a return, is listed with the exit's calls (a JMP to
 * the hook, which the hook cannot tell from its return address).
 */
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_SITES 64

extern const uintptr_t __start___kft_enter_loc[], __stop___kft_enter_loc[];
extern const uintptr_t __start___kft_exit_loc[], __stop___kft_exit_loc[];

/* hooks.c: the hooks, which note the call site of each call. */
extern uintptr_t seen[2][MAX_SITES];
extern int nseen[2], tail_calls;
void __cyg_profile_func_exit(void *fn, void *site);
static int tails_listed;

int work(int x);
int leaf(int x);
void nothing(void);

__attribute__((noinline)) int leaf(int x)
{
	return x * 3 + 1;
}

/* Its exit hook call is its last instruction: GCC makes it a tail call. */
__attribute__((noinline)) void nothing(void)
{
}

__attribute__((noinline)) int work(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += leaf(i) + (i & 1 ? work(i / 2) : 0);
	return s;
}

/* Listed sites that never called, and calls from sites not listed. */
static __attribute__((no_instrument_function)) int compare(int h,
		const uintptr_t *start, const uintptr_t *stop, const char *what)
{
	int bad = 0;

	for (const uintptr_t *p = start; p < stop; p++) {
		const unsigned char *at = (const unsigned char *)*p;
		int found = 0;
		int32_t rel;

		/* A JMP rel32 to the exit hook: a tail call's site. */
		__builtin_memcpy(&rel, at + 1, sizeof(rel));
		if (h == 1 && at[0] == 0xe9 &&
		    *p + 5 + rel == (uintptr_t)__cyg_profile_func_exit) {
			tails_listed++;
			continue;
		}

		for (int i = 0; i < nseen[h]; i++)
			found |= seen[h][i] == *p;
		if (!found) {
			printf("%s: listed site %#lx made no call\n", what, (unsigned long)*p);
			bad = 1;
		}
	}
	for (int i = 0; i < nseen[h]; i++) {
		int found = 0;

		for (const uintptr_t *p = start; p < stop; p++)
			found |= seen[h][i] == *p;
		if (!found) {
			printf("%s: call from %#lx not listed\n", what, (unsigned long)seen[h][i]);
			bad = 1;
		}
	}
	printf("%s: %ld listed, %d called\n", what, (long)(stop - start), nseen[h]);
	return bad;
}

/* After main() returned, and called its exit hook. */
__attribute__((no_instrument_function, destructor)) static void check(void)
{
	int bad = compare(0, __start___kft_enter_loc, __stop___kft_enter_loc, "enter");

	bad |= compare(1, __start___kft_exit_loc, __stop___kft_exit_loc, "exit");
	printf("tail calls: %d, tail call sites listed: %d\n", tail_calls, tails_listed);
	fflush(stdout);
	_exit(bad);
}

int main(int argc, char **argv)
{
	(void)argv;
	nothing();
	return work(argc + 5) == 12345678;
}
