// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks of test_llvm_pass.sh's x86_64 program: they note each call and
 * save every register they use but their arguments' %rdi and %rsi, as the
 * kernel's do built by Clang under CONFIG_KFT_AFTER_INLINING
 * (kft_arch_hook_abi); the pass's asm calls clobber only those two.  Here
 * they make sure of it, and change both.  Built without the pass,
 * -mgeneral-regs-only.
 */
#define HOOK __attribute__((no_caller_saved_registers, no_instrument_function))

struct hook_call {
	void *fn, *site;
	int enter;
};

struct hook_call hook_calls[64];
int hook_ncalls;

static HOOK void note(void *fn, void *site, int enter)
{
	if (hook_ncalls < 64)
		hook_calls[hook_ncalls] = (struct hook_call){ fn, site, enter };
	hook_ncalls++;
	asm volatile("movq $-1, %%rdi\n\tmovq $-1, %%rsi" ::: "rdi", "rsi");
}

HOOK void __cyg_profile_func_enter(void *fn, void *site)
{
	note(fn, site, 1);
}

HOOK void __cyg_profile_func_exit(void *fn, void *site)
{
	note(fn, site, 0);
}
