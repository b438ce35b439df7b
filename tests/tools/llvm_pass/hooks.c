// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks of test_llvm_pass.sh's x86_64 program: they note each call as
 * the kernel's do built by Clang under CONFIG_KFT_AFTER_INLINING
 * (arch/x86/include/asm/kft.h), and change every register the pass's asm
 * calls say they may.  The entry saves every register it uses but its
 * arguments' %rdi and %rsi, and sets both; the exit is a thunk that keeps
 * %rax and %rdx, the return value, and sets every other caller-saved
 * register.  Built without the pass, -mgeneral-regs-only.
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

__attribute__((no_instrument_function)) void note_exit(void *fn, void *site)
{
	note(fn, site, 0);
}

asm(".text\n"
    ".globl __cyg_profile_func_exit\n"
    ".type __cyg_profile_func_exit, @function\n"
    "__cyg_profile_func_exit:\n"
    "	push	%rax\n"
    "	push	%rdx\n"
    "	call	note_exit\n"
    "	movq	$-1, %rcx\n"
    "	movq	$-1, %rsi\n"
    "	movq	$-1, %rdi\n"
    "	movq	$-1, %r8\n"
    "	movq	$-1, %r9\n"
    "	movq	$-1, %r10\n"
    "	movq	$-1, %r11\n"
    "	pop	%rdx\n"
    "	pop	%rax\n"
    "	ret\n"
    ".size __cyg_profile_func_exit, . - __cyg_profile_func_exit\n");
