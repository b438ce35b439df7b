// SPDX-License-Identifier: GPL-2.0
/*
 * What tests/tools/test_kftreach.sh's hooks call in another object, built
 * without instrumentation (as lib/llist.o is for the kernel's).
 */
#define noinline __attribute__((noinline))

int helper_clean(int x);
int helper_tail_clean(int x);
int helper_calls_work(int x);
int helper_tail_work(int x);
int work(int x);

extern volatile int sink;

noinline int helper_clean(int x)
{
	return x + sink;
}

/* Tail calls: a jump, not a call (jmp, b, tail). */
noinline int helper_tail_clean(int x)
{
	return helper_clean(x * 3);
}

noinline int helper_tail_work(int x)
{
	return work(x * 5);
}

noinline int helper_calls_work(int x)
{
	return work(x) + 1;
}
