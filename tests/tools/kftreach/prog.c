// SPDX-License-Identifier: GPL-2.0
/* tests/tools/test_kftreach.sh: the instrumented code the hooks must not reach. */
#define noinline __attribute__((noinline))

int work(int x);

noinline int work(int x)
{
	return x * 7 + 1;
}
