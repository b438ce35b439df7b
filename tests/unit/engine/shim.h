/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel, as far as KFT's engine (kernel/kft.c, kft_clock.c,
 * kft_calibrate.c, kft_finish.c, kft_run.c, kft_syms.c, kft_boot.c,
 * kft_config.c) needs it, in userspace - in the manner of the kernel's
 * tools/testing/vma/.  Force-included (-include) into every engine file;
 * the headers under include/ here are empty, so the engine's #includes
 * resolve.  The test (tests/unit/test_engine.c) drives the machine through
 * the shim_*() controls: which CPU and task run, interrupt context, the
 * clocks, the stack pointer, the symbols kallsyms knows.
 */
#ifndef _KFT_ENGINE_SHIM_H
#define _KFT_ENGINE_SHIM_H

#include "kft_host.h"

#include <assert.h>
#include <limits.h>
#include <sys/types.h>

typedef int64_t s64;

/* --- compiler, config ------------------------------------------------ */
#define notrace
#define noinline		__attribute__((noinline))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define __read_mostly
#define __init
#define __initdata
#define __initconst
#define __aligned(x)		__attribute__((aligned(x)))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r" (var) : "0" (var))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define cmpxchg(p, o, n)	__sync_val_compare_and_swap(p, o, n)
#define raw_cmpxchg(p, o, n)	__sync_val_compare_and_swap(p, o, n)
#define cpu_relax()		do { } while (0)
#define EXPORT_SYMBOL(x)
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define ULONG_MAX_		ULONG_MAX
#define NSEC_PER_USEC		1000ULL
#define NSEC_PER_MSEC		1000000UL
#define NSEC_PER_SEC		1000000000UL
#define array_size(a, b)	((size_t)(a) * (size_t)(b))
#define min(a, b)		((a) < (b) ? (a) : (b))

#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option)	___is_defined(option)

/* --- printk, errors ---------------------------------------------------- */
#define ENOTUNIQ		76
void shim_printk(const char *fmt, ...) __printf(1, 2);
/* As the kernel's: through the file's pr_fmt (each that prints has one). */
#define pr_warn(fmt, ...)	shim_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	shim_printk(pr_fmt(fmt), ##__VA_ARGS__)
extern int shim_warnings;		/* WARN()s fired: a test fails on any */
#define WARN_ONCE(cond, fmt, ...)					\
({									\
	bool __c = !!(cond);						\
	if (__c) {							\
		shim_warnings++;					\
		shim_printk(fmt, ##__VA_ARGS__);			\
	}								\
	__c;								\
})
/* The kernel's fails the build once inlining made c a constant. */
#define BUILD_BUG_ON(c)		assert(!(c))

/* --- memory ------------------------------------------------------------ */
#define kzalloc(n, gfp)		calloc(1, n)
#define kmalloc_array(n, s, gfp) calloc(n, s)
#define kvmalloc_array(n, s, gfp) calloc(n, s)
#define kcalloc(n, s, gfp)	calloc(n, s)
#define __GFP_ZERO		0x1	/* the shim's __vmalloc() zeroes always */
#define __GFP_NOWARN		0x2
#define __GFP_RETRY_MAYFAIL	0x4
#ifdef SHIM_REAL_TSC
/*
 * bench/realcpu times the engine: its logs as the kernel's vmalloc() gives
 * them, page-aligned and every page present (zeroed here), not faulted in
 * by the hooks mid-run (and mid-calibration) as calloc()'s fresh pages
 * are, nor at malloc()'s offset into a page.
 */
static inline void *shim_vzalloc(size_t n)
{
	size_t size = (n + 4095) & ~(size_t)4095;
	void *p = aligned_alloc(4096, size ? size : 4096);

	return p ? memset(p, 0, size) : NULL;
}
#define vzalloc(n)		shim_vzalloc(n)
#define __vmalloc(n, gfp)	shim_vzalloc(n)
#else
#define vzalloc(n)		calloc(1, n)
#define __vmalloc(n, gfp)	calloc(1, n)
#endif
#define PAGE_SHIFT		12
extern long shim_mem_available;		/* pages */
#define si_mem_available()	shim_mem_available
#define vfree(p)		free(p)
#define kvmalloc(n, gfp)	malloc(n)
#define kvfree(p)		free(p)

/* --- atomics, refcounts, locks ----------------------------------------- */
typedef struct { long counter; } atomic_long_t;
#define atomic_long_read(v)		READ_ONCE((v)->counter)
#define atomic_long_set(v, i)		WRITE_ONCE((v)->counter, i)
#define raw_atomic_long_inc(v)		__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_long_inc(v)		raw_atomic_long_inc(v)
#define atomic_long_add_return_relaxed(i, v) __atomic_add_fetch(&(v)->counter, i, __ATOMIC_RELAXED)
#define raw_atomic_long_fetch_add(i, v)	__atomic_fetch_add(&(v)->counter, i, __ATOMIC_SEQ_CST)

typedef struct { int refs; } refcount_t;
#define refcount_set(r, n)		((r)->refs = (n))
#define refcount_inc(r)			((r)->refs++)
#define refcount_dec_and_test(r)	(--(r)->refs == 0)

struct mutex { int locked; };
#define DEFINE_MUTEX(m)			struct mutex m
#define mutex_lock(m)			(assert(!(m)->locked), (m)->locked = 1)
#define mutex_unlock(m)			(assert((m)->locked), (m)->locked = 0)
#define mutex_is_locked(m)		((m)->locked)
#define lockdep_assert_held(m)		assert((m)->locked)

#define preempt_disable()		do { } while (0)
#define preempt_enable()		do { } while (0)
#define preempt_disable_notrace()	do { } while (0)
#define preempt_enable_notrace()	do { } while (0)
#define migrate_disable()		do { } while (0)
#define migrate_enable()		do { } while (0)
#define raw_local_irq_save(f)		((f) = 0)
#define raw_local_irq_restore(f)	((void)(f))
#define local_irq_save(f)		((f) = 0)
#define local_irq_restore(f)		((void)(f))
#define rcu_read_lock()			do { } while (0)
#define rcu_read_unlock()		do { } while (0)

/* --- CPUs and per-CPU data ----------------------------------------------
 * A per-CPU variable is one global that holds the running CPU's copy;
 * shim_set_cpu() swaps the copies, per_cpu() of another CPU reads its
 * saved copy.
 */
#define SHIM_NR_CPUS		4
#define nr_cpu_ids		SHIM_NR_CPUS
extern int shim_cpu;
void shim_pcpu_register(void *var, size_t size);
void *shim_pcpu_ptr(void *p, int cpu);
void shim_set_cpu(int cpu);
#define DECLARE_PER_CPU(type, name)	extern type name
#define DEFINE_PER_CPU(type, name)					\
	type name;							\
	static void __attribute__((constructor)) shim_reg_##name(void)	\
	{ shim_pcpu_register(&name, sizeof(name)); }			\
	extern type name
#define this_cpu_read(x)		(x)
#define this_cpu_write(x, v)		((x) = (v))
#define this_cpu_inc(x)			((x)++)
#define this_cpu_dec(x)			((x)--)
#define this_cpu_add_return(x, v)	((x) += (v))
#define raw_cpu_add(x, v)		((x) += (v))
#define raw_cpu_ptr(p)			(p)
#define per_cpu(var, cpu)		(*(__typeof__(var) *)shim_pcpu_ptr(&(var), cpu))
#define per_cpu_ptr(ptr, cpu)		((__typeof__(ptr))shim_pcpu_ptr(ptr, cpu))
#define raw_smp_processor_id()		shim_cpu
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < SHIM_NR_CPUS; (cpu)++)
/* The online CPUs: fewer, to play one that kft_sync() cannot reach. */
extern int shim_cpus_online;
#define for_each_online_cpu(cpu)	for ((cpu) = 0; (cpu) < shim_cpus_online; (cpu)++)
#define cpus_read_lock()		do { } while (0)
#define cpus_read_unlock()		do { } while (0)

/*
 * Work items run when flushed; shim_cpus_scheduled has a bit for each CPU
 * one was queued on, for the tests to see kft_sync() reach every CPU.
 */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	work_func_t func;
	int cpu;
};
extern unsigned long shim_cpus_scheduled;
#define INIT_WORK(w, f)			((w)->func = (f), (w)->cpu = -1)

static inline bool schedule_work_on(int cpu, struct work_struct *work)
{
	work->cpu = cpu;
	shim_cpus_scheduled |= 1UL << cpu;
	return true;
}

static inline bool flush_work(struct work_struct *work)
{
	if (work->cpu < 0)
		return false;
	work->func(work);
	work->cpu = -1;
	return true;
}

/* --- tasks, interrupt context, stacks ------------------------------------ */
#include <linux/kft.h>

#define THREAD_SIZE		16384UL
struct task_struct {
	int pid;
	int cpu;
	char comm[16];
	char *stack;
	struct kft_task kft;
	struct task_struct *next;	/* all tasks but idle ones */
};
extern struct task_struct *shim_current;
extern struct task_struct shim_idle[SHIM_NR_CPUS];
extern struct task_struct *shim_tasks;
extern bool shim_in_irq;
extern unsigned long shim_sp;
#define current				shim_current
#define in_task()			(!shim_in_irq)
#define idle_task(cpu)			(&shim_idle[cpu])
#define task_cpu(t)			((t)->cpu)
#define task_stack_page(t)		((void *)(t)->stack)
#define current_stack_pointer		shim_sp
#define for_each_process_thread(g, t)	\
	for ((g) = (t) = shim_tasks; (void)(g), (t); (g) = (t) = (t)->next)

/* --- clocks ---------------------------------------------------------- */
extern u64 shim_sched_clock, shim_tsc;
extern unsigned long shim_tsc_khz, shim_boot_khz;
#define sched_clock()			shim_sched_clock
#define local_clock()			shim_sched_clock
/*
 * In the tests, each read moves the TSC on by shim_tsc_step: 0 but to time
 * the hooks.  make bench-hooks counts the hooks' instructions with a plain
 * read, as the kernel's.
 */
extern u64 shim_tsc_step;
/* And, if set, by what it returns: a clock disturbed (calibration). */
extern u64 (*shim_tsc_noise)(void);
#ifdef SHIM_TSC_STEP
#define kft_arch_cycles()		\
	(shim_tsc += shim_tsc_step + (shim_tsc_noise ? shim_tsc_noise() : 0))
#elif defined(SHIM_REAL_TSC)
/* bench/realcpu: x86's kft_arch_cycles(), the real TSC. */
#define kft_arch_cycles()		__builtin_ia32_rdtsc()
#else
#define kft_arch_cycles()		shim_tsc
#endif
#define kft_arch_cycles_khz()		shim_tsc_khz
#define kft_arch_boot_cycles_khz()	shim_boot_khz
/* x86's bounds, which the boot run cases are worked out for. */
#define KFT_ARCH_BOOT_KHZ_LO		400000U
#define KFT_ARCH_BOOT_KHZ_HI		10000000U
#define KFT_ARCH_PERCPU_AT_START	/* x86's and arm64's */
/*
 * make bench-hooks' O2-saveall: x86_64's CONFIG_KFT_AFTER_INLINING hooks
 * (arch/x86/include/asm/kft.h): the entry saves every register it uses,
 * the exit is a thunk that saves %rax, %rdx and %rsi around a C hook of
 * the plain ABI (the kernel's, asm/kft_thunk.h, without its ENDBR and
 * return thunk).
 */
#ifdef SHIM_X86_AFTER_INLINING
#include "../../../arch/x86/include/asm/kft_thunk.h"
#define kft_arch_hook_abi	__attribute__((no_caller_saved_registers))
#define kft_arch_exit_abi
#define kft_arch_exit_thunk(name, c_hook)				\
	kft_x86_exit_thunk(name, c_hook, "", "ret\n")
#endif
void clocks_calc_mult_shift(u32 *mult, u32 *shift, u32 from, u32 to,
			    u32 maxsec);

static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 div)
{
	return (u64)(((unsigned __int128)a * mul) / div);
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline u64 div_u64_rem(u64 a, u32 b, u32 *rem)
{
	*rem = a % b;
	return a / b;
}

/* --- text, symbols ------------------------------------------------------- */
#ifdef SHIM_REAL_TEXT
/* bench/realcpu: the program's own text, where its hooks' fn and site are. */
extern char __executable_start[];
#define _text			__executable_start
#else
#define SHIM_TEXT		0xffffffff81000000UL
#define _text			((char *)SHIM_TEXT)
#endif
#define KSYM_NAME_LEN		512
void shim_add_symbol(const char *name, unsigned long addr);
int kallsyms_on_each_match_symbol(int (*fn)(void *, unsigned long),
				  const char *name, void *data);
unsigned long kallsyms_lookup_name(const char *name);
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *off, char **mod, char *buf);

/* --- lib -------------------------------------------------------------- */
void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *), void *swap);
ssize_t strscpy(char *dst, const char *src, size_t size);
char *skip_spaces(const char *s);
char *next_arg(char *args, char **param, char **val);

/* --- boot ------------------------------------------------------------- */
#define COMMAND_LINE_SIZE	2048
extern char boot_command_line[COMMAND_LINE_SIZE];
#define early_initcall(fn)	int shim_early_initcall(void) { return fn(); }
#define late_initcall_sync(fn)	int shim_late_initcall_sync(void) { return fn(); }
#define __setup(str, fn)	int (*shim_setup_fn)(char *) = fn

#endif /* _KFT_ENGINE_SHIM_H */
