// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks of tests/tools/kftsites/prog.c (x86_64), built without
 * instrumentation as kernel/kft.c is: each notes the call site of every
 * call it gets.
 */
#include <stdint.h>

#define MAX_SITES 64

uintptr_t seen[2][MAX_SITES];
int nseen[2], tail_calls;

void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

/*
 * A call's site from its return address: the CALL just before it.  A tail
 * call (JMP) to the exit hook returns to its function's caller instead,
 * after a CALL of that function: counted apart.
 */
static void note(int h, uintptr_t ret, void *hook)
{
	uintptr_t site = ret - 5;
	int32_t rel;

	__builtin_memcpy(&rel, (void *)(site + 1), sizeof(rel));
	if (*(unsigned char *)site != 0xe8 || ret + rel != (uintptr_t)hook) {
		tail_calls++;
		return;
	}
	for (int i = 0; i < nseen[h]; i++)
		if (seen[h][i] == site)
			return;
	if (nseen[h] < MAX_SITES)
		seen[h][nseen[h]++] = site;
}

__attribute__((noinline))
void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
	note(0, (uintptr_t)__builtin_return_address(0), __cyg_profile_func_enter);
}

__attribute__((noinline))
void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	note(1, (uintptr_t)__builtin_return_address(0), __cyg_profile_func_exit);
}

