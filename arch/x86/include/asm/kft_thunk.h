/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel Function Trace, x86_64: the after-inlining exit hook's thunk
 * (asm/kft.h says why).  On its own, including nothing, so that the KFT
 * repository's make bench-hooks counts the same instructions on the host;
 * endbr and ret are the kernel's ASM_ENDBR and ASM_RET there.
 */
#ifndef _ASM_X86_KFT_THUNK_H
#define _ASM_X86_KFT_THUNK_H

#define __kft_thunk_str1(x)	#x
#define __kft_thunk_str(x)	__kft_thunk_str1(x)

#define kft_x86_exit_thunk(name, c_hook, endbr, ret)			\
	asm(".pushsection .text, \"ax\"\n"				\
	    ".globl " #name "\n"					\
	    ".type " #name ", @function\n"				\
	    ".balign 16\n"						\
	    #name ":\n\t"						\
	    endbr							\
	    "push	%rax\n\t"					\
	    "push	%rdx\n\t"					\
	    "push	%rsi\n\t"					\
	    "call	" __kft_thunk_str(c_hook) "\n\t"		\
	    "pop	%rsi\n\t"					\
	    "pop	%rdx\n\t"					\
	    "pop	%rax\n\t"					\
	    ret								\
	    ".size " #name ", . - " #name "\n"				\
	    ".popsection")

#endif /* _ASM_X86_KFT_THUNK_H */
