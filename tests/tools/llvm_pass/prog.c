// SPDX-License-Identifier: GPL-2.0
/*
 * test_llvm_pass.sh's program, built with Clang,
 * -finstrument-functions-after-inlining and scripts/llvm-plugins/
 * kft_pass.so.  x86_64 runs it: main() prints each hook call as "enter FN
 * SITE" or "exit FN SITE", then "result N"; the script checks them against
 * the symbols.  For arm64 it is compiled to assembly and read.
 */
#include <stdio.h>

struct hook_call {
	void *fn, *site;
	int enter;
};

extern struct hook_call hook_calls[64];
extern int hook_ncalls;

/*
 * Each function stores to a volatile, so that the optimizer, which sees
 * none of the hook calls the pass adds after it, keeps every call and its
 * order against main()'s read of the log.
 */
volatile long sink;

/* A leaf with five values live across both hook sites. */
__attribute__((noinline)) long leaf(long a, long b, long c, long d, long e)
{
	sink = a;
	return ((a * 3 + b) ^ (c - d)) * e + a * b;
}

__attribute__((noinline)) long caller(long x)
{
	sink = x;
	return leaf(x, x + 1, x + 2, x + 3, x + 4) + leaf(x, 1, 2, 3, 4) + x;
}

/* A weak function's symbol may be defined far away: arm64 uses ADRP. */
__attribute__((weak, noinline)) long weakfn(long x)
{
	sink = x;
	return x * 7;
}

/* notrace: no hooks at all. */
__attribute__((no_instrument_function, noinline)) long notr(long x)
{
	sink = x;
	return x - 1;
}

__attribute__((noinline)) long helper(long x)
{
	sink = x;
	return x + 100;
}

/* The exit hook comes before a musttail call, which must stay last. */
__attribute__((noinline)) long tailer(long x)
{
	sink = x;
	__attribute__((musttail)) return helper(x);
}

/*
 * Its own return address, the value it passed the hooks in a register
 * they may change (x86_64: %rsi): main() checks that the two agree.
 */
__attribute__((noinline)) void *whereami(void)
{
	sink = 0;
	return __builtin_return_address(0);
}

/* Inputs the compiler cannot see, so that no call is folded away. */
volatile long in[4] = { 5, 2, 10, 1 };

__attribute__((no_instrument_function)) int main(void)
{
	long r = caller(in[0]) + weakfn(in[1]) + notr(in[2]) + tailer(in[3]);
	void *ra = whereami();
	int i, n = hook_ncalls;

	for (i = 0; i < n && i < 64; i++)
		printf("%s %p %p\n", hook_calls[i].enter ? "enter" : "exit",
		       hook_calls[i].fn, hook_calls[i].site);
	for (i = 0; i < n && i < 64; i++)
		if (hook_calls[i].fn == (void *)whereami)
			printf("whereami %s\n",
			       hook_calls[i].site == ra ? "right" : "wrong");
	printf("result %ld\n", r);
	return 0;
}
