// SPDX-License-Identifier: GPL-2.0
/*
 * The functions of tests/tools/test_kftreach.sh's kftsites --bounded
 * cases, compiled with the kernel's instrumentation (x86_64, arm64): one
 * of each kind the classifier tells apart, by name.
 *
 *   straight     no branch: bounded, by exactly its instructions
 *   branchy      forward branches: bounded
 *   two          calls straight() and branchy(): bounded, by their sum
 *                and its own
 *   looped       a loop
 *   calls_loop   calls looped()
 *   through_ptr  calls through a pointer
 *   outside      calls a function the object does not have
 *   waits        hlt (x86_64) or wfi (arm64)
 *   faults       a load in the exception table (as get_user())
 *   ping, pong   call each other
 *   jump_fwd     a static branch to its own code (as static_branch_*())
 *   jump_out     a static branch to code elsewhere
 *   alt_plain    an alternative patched over its code, straight-line:
 *                bounded
 *   alt_call     an alternative whose replacement calls a function
 *   inl          twice() inlined in it: bounded, but with GCC its sites
 *                are not all its own (--bounded-sites leaves them out)
 *   llsc         arm64: an atomic add as an LL/SC retry loop: bounded
 *   llsc_cas     arm64: a cmpxchg's, leaving early: bounded
 *   retry_count  arm64: a store-exclusive, then a CBNZ on a count
 *   retry_ldr    arm64: a retry on the status, back to a plain load
 *   quiet        not instrumented: not listed
 */
#define noinline __attribute__((noinline))
#define notrace __attribute__((no_instrument_function))

int elsewhere(int a);
volatile int sink;
int arr[64];
int (*volatile ptr)(int) = elsewhere;

noinline int straight(int a)
{
	return a * 7 + arr[a & 63];
}

noinline int branchy(int a)
{
	if (a > 3)
		return arr[a & 63] + 1;
	return sink * 2;
}

noinline int two(int a)
{
	return straight(a) + branchy(a + 1);
}

noinline int looped(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += arr[i & 63] * sink;
	return s;
}

noinline int calls_loop(int a)
{
	return looped(a) + 1;
}

noinline int through_ptr(int a)
{
	return ptr(a) + 1;
}

noinline int outside(int a)
{
	return elsewhere(a) * 3;
}

noinline void waits(void)
{
#if defined(__x86_64__)
	asm volatile("hlt");
#else
	asm volatile("wfi");
#endif
}

/* struct exception_table_entry: the access, its fixup, a type or data. */
noinline int faults(const int *p)
{
	int v = 0;

#if defined(__x86_64__)
	asm volatile("1: movl (%1), %0\n2:\n"
		     ".pushsection __ex_table, \"a\"\n"
		     " .balign 4\n .long 1b - ., 2b - .\n .long 0\n"
		     ".popsection" : "+r" (v) : "r" (p));
#else
	asm volatile("1: ldr %w0, [%1]\n2:\n"
		     ".pushsection __ex_table, \"a\"\n"
		     " .balign 4\n .long 1b - ., 2b - .\n .short 0, 0\n"
		     ".popsection" : "+r" (v) : "r" (p));
#endif
	return v + 1;
}

noinline int ping(int a);

noinline int pong(int a)
{
	return a > 0 ? ping(a - 1) * 3 + sink : 1;
}

noinline int ping(int a)
{
	return a > 0 ? pong(a - 1) + 2 * sink : 0;
}

/* struct jump_entry: the NOP patched, and where its jump goes. */
#if defined(__x86_64__)
#define JUMP_NOP	"1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
#else
#define JUMP_NOP	"1: nop\n"
#endif

noinline int jump_fwd(int a)
{
	asm goto(JUMP_NOP
		 ".pushsection __jump_table, \"aw\"\n"
		 " .balign 8\n .long 1b - ., %l[yes] - .\n .quad 0\n"
		 ".popsection" : : : : yes);
	return a + 1;
yes:
	return a * 3 + sink;
}

noinline int jump_out(int a)
{
	asm volatile(JUMP_NOP
		     ".pushsection __jump_table, \"aw\"\n"
		     " .balign 8\n .long 1b - ., 2f - .\n .quad 0\n"
		     ".popsection\n"
		     ".pushsection .text.unlikely, \"ax\"\n"
		     "2: nop\n"
		     ".popsection" : : : "memory");
	return a + 2;
}

/* struct alt_instr: the code, its replacement, the CPU feature, lengths. */
#if defined(__x86_64__)
#define ALT(orig, repl)							\
	asm volatile("661: " orig "\n662:\n"				\
		     ".pushsection .altinstructions, \"a\"\n"		\
		     " .long 661b - .\n .long 663f - .\n .4byte 0\n"	\
		     " .byte 662b - 661b\n .byte 664f - 663f\n"		\
		     ".popsection\n"						\
		     ".pushsection .altinstr_replacement, \"ax\"\n"	\
		     "663: " repl "\n664:\n"				\
		     ".popsection" : : : "memory", "rax", "rcx", "rdx",	\
		     "rsi", "rdi", "r8", "r9", "r10", "r11")
#define ALT_PLAIN	ALT(".skip 3, 0x90", "lfence")
#define ALT_CALL	ALT(".skip 5, 0x90", "call elsewhere")
#else
#define ALT(orig, repl)							\
	asm volatile("661: " orig "\n662:\n"				\
		     ".pushsection .altinstructions, \"a\"\n"		\
		     " .word 661b - .\n .word 663f - .\n .hword 0\n"	\
		     " .byte 662b - 661b\n .byte 664f - 663f\n"		\
		     ".popsection\n"						\
		     ".pushsection .altinstr_replacement, \"ax\"\n"	\
		     "663: " repl "\n664:\n"				\
		     ".popsection" : : : "memory", "x0", "x1", "x2", "x3",	\
		     "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",	\
		     "x13", "x14", "x15", "x16", "x17", "x30")
#define ALT_PLAIN	ALT("nop", "dmb ish")
#define ALT_CALL	ALT("nop", "bl elsewhere")
#endif

noinline int alt_plain(int a)
{
	ALT_PLAIN;
	return a + 3;
}

noinline int alt_call(int a)
{
	ALT_CALL;
	return a + 4;
}

/* GCC instruments twice() inlined into inl(): two entry sites there. */
static inline __attribute__((always_inline)) int twice(int a)
{
	return a * 2 + sink;
}

noinline int inl(int a)
{
	return twice(a) + 1;
}

#if defined(__aarch64__)
/* As arch/arm64/include/asm/atomic_ll_sc.h's atomics. */
noinline int llsc(int *v, int i)
{
	unsigned long tmp;
	int result;

	asm volatile("1: ldxr %w0, %2\n"
		     "   add %w0, %w0, %w3\n"
		     "   stxr %w1, %w0, %2\n"
		     "   cbnz %w1, 1b"
		     : "=&r" (result), "=&r" (tmp), "+Q" (*v) : "r" (i));
	return result;
}

noinline int llsc_cas(int *v, int old, int new)
{
	unsigned long tmp;
	int val;

	asm volatile("1: ldaxr %w1, %2\n"
		     "   eor %w0, %w1, %w3\n"
		     "   cbnz %w0, 2f\n"
		     "   stlxr %w0, %w4, %2\n"
		     "   cbnz %w0, 1b\n"
		     "2:"
		     : "=&r" (tmp), "=&r" (val), "+Q" (*v)
		     : "r" (old), "r" (new) : "memory");
	return val;
}

noinline int retry_count(int *v, int n)
{
	unsigned long tmp;
	int val;

	asm volatile("1: ldxr %w0, %2\n"
		     "   sub %w3, %w3, #1\n"
		     "   stxr %w1, %w0, %2\n"
		     "   cbnz %w3, 1b"
		     : "=&r" (val), "=&r" (tmp), "+Q" (*v), "+r" (n));
	return val;
}

noinline int retry_ldr(int *v)
{
	unsigned long tmp;
	int val;

	asm volatile("1: ldr %w0, %2\n"
		     "   stxr %w1, %w0, %2\n"
		     "   cbnz %w1, 1b"
		     : "=&r" (val), "=&r" (tmp), "+Q" (*v));
	return val;
}
#endif

notrace noinline int quiet(int a)
{
	return straight(a) + 1;
}
