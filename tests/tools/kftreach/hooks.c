// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks of tests/tools/test_kftreach.sh, compiled as the kernel
 * compiles kernel/kft.c (instrumentation on, the hooks notrace), or
 * instrumented themselves (SELF).  What they reach, through note(), is
 * the case under test (CASE):
 *
 *   CLEAN    uninstrumented code alone: a call to helpers.c, which tail-
 *            calls another helper, and a static function of this file
 *   CROSS    helpers.c's helper_calls_work(), which calls prog.c's
 *            instrumented work()
 *   TAIL     helpers.c's helper_tail_work(), which tail-calls work()
 *   STATIC   count(), a static function of this file left instrumented,
 *            called without a relocation (the assembler resolved it)
 *   ALT      an alternative whose replacement calls work() (x86_64,
 *            arm64, riscv64: the kernel's .altinstructions or .alternative)
 *   JUMP     a static branch (a __jump_table entry, as the kernel's) whose
 *            target, in another section, calls work()
 *   POINTER  work() through a function pointer: not followed
 */
#define notrace __attribute__((no_instrument_function))
#define noinline __attribute__((noinline))

int helper_tail_clean(int x);
int helper_calls_work(int x);
int helper_tail_work(int x);
int work(int x);

volatile int sink;
int (*volatile work_ptr)(int) = work;

#if defined(SELF)
#undef notrace
#define notrace
#endif

static notrace noinline int clean(int x)
{
	return x * 5 + sink;
}

#if CASE_STATIC
/* Not notrace: instrumented like any function of an instrumented file. */
static noinline int count(int x)
{
	return x * 3 + sink;
}
#endif

static notrace noinline void note(void *fn)
{
	int x = (int)(long)fn;

#if CASE_CLEAN
	sink = helper_tail_clean(x) + clean(x);
#elif CASE_CROSS
	sink = helper_calls_work(x);
#elif CASE_TAIL
	sink = helper_tail_work(x);
#elif CASE_STATIC
	sink = count(x) + clean(x);
#elif CASE_POINTER
	sink = work_ptr(x);
#elif CASE_ALT && defined(__x86_64__)
	/* struct alt_instr: offsets to the code and its replacement, flags, lengths. */
	asm volatile("661: .skip 5, 0x90\n662:\n"
		     ".pushsection .altinstructions, \"a\"\n"
		     " .long 661b - .\n .long 663f - .\n .4byte 0\n"
		     " .byte 662b - 661b\n .byte 664f - 663f\n"
		     ".popsection\n"
		     ".pushsection .altinstr_replacement, \"ax\"\n"
		     "663: call work\n664:\n"
		     ".popsection" : : : "memory", "rax", "rcx", "rdx", "rsi",
		     "rdi", "r8", "r9", "r10", "r11");
	sink = x;
#elif CASE_ALT && defined(__aarch64__)
	asm volatile("661: nop\n662:\n"
		     ".pushsection .altinstructions, \"a\"\n"
		     " .word 661b - .\n .word 663f - .\n .hword 0\n"
		     " .byte 662b - 661b\n .byte 664f - 663f\n"
		     ".popsection\n"
		     ".pushsection .altinstr_replacement, \"ax\"\n"
		     "663: bl work\n664:\n"
		     ".popsection" : : : "memory", "x0", "x1", "x2", "x3", "x4",
		     "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
		     "x14", "x15", "x16", "x17", "x30");
	sink = x;
#elif CASE_ALT && defined(__riscv)
	/* struct alt_entry; the replacement in the section's subsection 1. */
	asm volatile("886: .option push\n .option norvc\n .option norelax\n"
		     " nop\n nop\n .option pop\n887:\n"
		     ".pushsection .alternative, \"a\"\n"
		     " .4byte 886b - .\n .4byte 888f - .\n .2byte 0\n"
		     " .2byte 889f - 888f\n .4byte 0\n"
		     ".popsection\n"
		     ".subsection 1\n"
		     "888: .option push\n .option norvc\n .option norelax\n"
		     " call work\n .option pop\n889:\n"
		     ".previous" : : : "memory", "ra", "t0", "t1", "t2", "a0",
		     "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t3", "t4",
		     "t5", "t6");
	sink = x;
#elif CASE_JUMP
	/* struct jump_entry: the NOP patched, and where its jump goes. */
#if defined(__x86_64__)
	asm volatile("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
		     ".pushsection __jump_table, \"aw\"\n"
		     " .balign 8\n .long 1b - ., 2f - .\n .quad 0\n"
		     ".popsection\n"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "2: call work\n ud2\n"
		     ".popsection" : : : "memory");
#elif defined(__aarch64__)
	asm volatile("1: nop\n"
		     ".pushsection __jump_table, \"aw\"\n"
		     " .balign 8\n .long 1b - ., 2f - .\n .quad 0\n"
		     ".popsection\n"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "2: bl work\n brk #0\n"
		     ".popsection" : : : "memory");
#elif defined(__riscv)
	asm volatile("1: nop\n"
		     ".pushsection __jump_table, \"aw\"\n"
		     " .balign 8\n .long 1b - ., 2f - .\n .dword 0\n"
		     ".popsection\n"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "2: call work\n ebreak\n"
		     ".popsection" : : : "memory");
#elif defined(__arm__)
	asm volatile("1: nop\n"
		     ".pushsection __jump_table, \"aw\"\n"
		     " .word 1b, 2f, 0\n"
		     ".popsection\n"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "2: bl work\n"
		     ".popsection" : : : "memory");
#endif
	sink = x;
#else
	sink = clean(x);
#endif
}

void notrace __cyg_profile_func_enter(void *fn, void *site);
void notrace __cyg_profile_func_exit(void *fn, void *site);

void notrace noinline __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	note(fn);
}

void notrace noinline __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	note(fn);
}
