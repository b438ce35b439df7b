/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KFT engine internals.  The files, each using only those above it (the
 * one call upward: a hook that completes a run tells kft_sites.c):
 *
 *   kft_config.c    the config language; also built into the host tools
 *   kft_clock.c     the hooks' clock, and a run's limits in its units
 *   kft.c           the hooks; the state changes they make (kft_state.h);
 *                   the global state: the run, its state, kft_mutex;
 *                   kft_sync(), which waits for the hooks to see a change
 *   kft_sites.c     the hooks' call sites, NOPs while no run is armed
 *   kft_calibrate.c what the hooks cost, measured once a run has stopped
 *   kft_finish.c    a stopped run's log made readable
 *   kft_run.c       a run's lifecycle, under kft_mutex; errors
 *   kft_syms.c      function names (kallsyms), and modules going away
 *   kft_boot.c      boot runs, primed before start_kernel()
 *   kft_log_text.c  a run's log as text
 *   kft_proc.c      /proc/kft and /proc/kft_data
 *   kft_dump.c      the log on the console: kft_dump=panic, kft_dump=TIME
 *   kft_test.c      KUnit tests (tests/unit/ tests the same files on the host)
 */
#ifndef _KERNEL_KFT_INTERNAL_H
#define _KERNEL_KFT_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/kft.h>
#include <linux/kft_compat.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/sched/clock.h>
#include <linux/types.h>
#include <asm/kft.h>
#include <asm/sections.h>

#include "kft_config.h"
#include "kft_state.h"

/* Why logging started or stopped. */
enum kft_reason {
	KFT_BY_NONE,
	KFT_BY_USER,
	KFT_BY_ENTRY,
	KFT_BY_EXIT,
	KFT_BY_TIME,
	KFT_BY_FULL,
	KFT_BY_BOOT,		/* a boot run with no start trigger */
	KFT_BY_UNLOAD,		/* a module it names is unloading */
	KFT_BY_PANIC,		/* kft_dump=panic, the kernel panicking */
	KFT_BY_DUMP,		/* kft_dump=TIME */
};

/*
 * One recorded call: 32 bytes.  Its time: the hooks log the clock's low 48
 * bits, which kft_run_finish() counts from the run's base, in ns.
 */
struct kft_entry {
	u64 time_cpu;		/* entry ns since run base | cpu << 48 */
	union {
		struct {
			s32 fn;		/* function, offset from _text */
			s32 site;	/* call site, offset from _text */
		};
		u64 call;	/* both, one word: as struct kft_frame's */
	};
	union {
		struct {
			u32 delta;	/* duration, see kft_delta_encode() */
			s32 pid;	/* -1 in interrupt context */
		};
		u64 delta_pid;	/* both, one word: kft_word() */
	};
	u64 inner;		/* calls inside it: kft_task.count's difference */
};

static_assert(sizeof(struct kft_entry) == 32);

/*
 * kft_task.count and kft_entry.inner: calls entered in the low 32 bits,
 * calls logged in the high.  A difference of two counts is both, unless
 * the low half wrapped inside the call (2^32 calls of one task in one
 * run), which takes one from the logged calls.
 */
#define KFT_COUNT_LOGGED	BIT_ULL(32)

static inline u32 kft_inner_calls(u64 inner)
{
	return (u32)inner;
}

static inline u32 kft_inner_logged(u64 inner)
{
	return inner >> 32;
}

/*
 * Two 32-bit fields that share a word (struct kft_frame's and struct
 * kft_entry's call, kft_entry.delta_pid), as that word: the hooks move
 * each pair in one store or load.
 */
static __always_inline u64 kft_word(u32 first, u32 second)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (u64)first << 32 | second;
#else
	return (u64)second << 32 | first;
#endif
}

#define KFT_TIME_BITS		48
#define KFT_TIME_MASK		((1ULL << KFT_TIME_BITS) - 1)

/* Durations below 2^31 ns are kept in ns, longer ones in us, flagged. */
#define KFT_DELTA_US		0x80000000U
#define KFT_DELTA_OPEN		0xffffffffU	/* exit not seen: prints -1 */
#define KFT_DELTA_STACK		0xfffffffeU	/* stack watch chain: -2 */
#define KFT_DELTA_MAX_US	0x7ffffffdU

static inline u32 kft_delta_encode(u64 ns)
{
	if (likely(ns < KFT_DELTA_US))
		return ns;
	return KFT_DELTA_US | (u32)min_t(u64, div_u64(ns, 1000),
					 KFT_DELTA_MAX_US);
}

/* A logged duration in ns; U64_MAX for -1 and -2. */
static inline u64 kft_delta_decode(u32 delta)
{
	if (delta >= KFT_DELTA_STACK)
		return U64_MAX;
	if (delta & KFT_DELTA_US)
		return (u64)(delta & ~KFT_DELTA_US) * 1000;
	return delta;
}

/* High bits of kft_frame.entry_ns; TRIGGER the sign bit (kft_exit_fast()). */
#define KFT_FRAME_TRIGGER	BIT_ULL(63)	/* log whatever the filters say */
#define KFT_FRAME_IRQ		BIT_ULL(62)	/* entered in interrupt context */
#define KFT_FRAME_HIDE		BIT_ULL(61)	/* under a notunder function */

/*
 * A call's length from its frame's entry_ns to now, in the 48 bits a log
 * keeps (KFT_TIME_MASK): the flags above them fall away with the mask the
 * log's entry time takes anyway.
 */
static __always_inline u64 kft_frame_len(u64 entry, u64 now)
{
	return (now - entry) & KFT_TIME_MASK;
}

/*
 * kft_task.gen: the run generation its shadow stack belongs to, and for
 * filter children whether the task is in the run's scope: the task that
 * started it, and (fork copies task_struct) every task it forked since.
 */
#define KFT_GEN_MEMBER		BIT(31)
#define KFT_GEN_MASK		(KFT_GEN_MEMBER - 1)

/* Counters, kept per CPU. */
enum kft_counter {
	KFT_CNT_LOGGED,		/* read from the log: kft_run_logged() */
	KFT_CNT_FILTER_TIME,
	KFT_CNT_FILTER_NOINTS,
	KFT_CNT_FILTER_ONLYINTS,
	KFT_CNT_FILTER_FUNCLIST,
	KFT_CNT_FILTER_PID,
	KFT_CNT_FILTER_COMM,
	KFT_CNT_FILTER_CHILDREN,
	KFT_CNT_FILTER_DEPTH,
	KFT_CNT_FILTER_NOTUNDER,	/* the last filter: see kft_proc.c */
	KFT_CNT_NOT_FOUND,	/* exit whose entry the run never saw */
	KFT_CNT_LOST_FULL,
	KFT_CNT_LOST_DEPTH,	/* shadow stack overflow */
	KFT_CNT_NR,
};

/* Each CPU fills its own chunk of the shared log: no lock on the hot path. */
#define KFT_CHUNK	64

struct kft_cpu {
	atomic_long_t pos;		/* address of its chunk's next log slot */
	unsigned long end;		/* address past the chunk's end */
	atomic_long_t cnt[KFT_CNT_NR];
};
DECLARE_PER_CPU(struct kft_cpu, kft_cpu);

/*
 * The hooks' per-CPU updates of pos and cnt[], made with preemption off;
 * an interrupt may nest in the middle of one and change them for good.
 * x86 updates per-CPU data in one gs-relative instruction and arm64 with
 * an exclusive pair; the generic this_cpu_*() (riscv, arm) masks
 * interrupts around a plain add, which costs more than the add (CSR or
 * CPSR writes): there, a relaxed atomic on the CPU's copy.
 */
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
#define kft_cpu_inc(v)		this_cpu_inc((v).counter)
#define kft_cpu_add_return(v, n)	this_cpu_add_return((v).counter, n)
#else
#define kft_cpu_inc(v)		atomic_long_inc(raw_cpu_ptr(&(v)))
#define kft_cpu_add_return(v, n)	\
	atomic_long_add_return_relaxed(n, raw_cpu_ptr(&(v)))
#endif

/* kft_run.slow: what sends a hook off its fast path. */
#define KFT_SLOW_LIMITS		BIT(0)	/* boot run: limits still provisional */
#define KFT_SLOW_FILTERS	BIT(1)	/* noints, onlyints, funclist, depth, notunder */
#define KFT_SLOW_WATCH		BIT(2)	/* stack watch */
#define KFT_SLOW_SCOPE		BIT(3)	/* pid, comm or children */
#define KFT_SLOW_NOTUNDER	BIT(4)	/* notunder functions */
#define KFT_SLOW_EARLY		BIT(5)	/* boot run, kft_early, no per-CPU yet */
#define KFT_SLOW_SCHED_CLOCK	BIT(6)	/* the clock is sched_clock() */
/* Which of them send entries, and exits, to kft_hook(): see enter_until. */
#define KFT_SLOW_ENTER		(KFT_SLOW_EARLY | KFT_SLOW_SCHED_CLOCK | \
				 KFT_SLOW_SCOPE | KFT_SLOW_WATCH |	\
				 KFT_SLOW_NOTUNDER)
#define KFT_SLOW_EXIT		(KFT_SLOW_EARLY | KFT_SLOW_SCHED_CLOCK | \
				 KFT_SLOW_SCOPE | KFT_SLOW_LIMITS |	\
				 KFT_SLOW_FILTERS)

/* kft_run.cost_ps[]: what the hooks cost (kft_calibrate.c). */
enum kft_cost {
	KFT_COST_DROPPED,	/* both hooks of a call the filters dropped */
	KFT_COST_LOGGED,	/* both hooks of a call logged */
	KFT_COST_OWN,		/* of a logged call's, what its time holds */
	KFT_COST_NR,
};

struct kft_run {
	/*
	 * What the hooks' fast paths read on every call, first.  Times are
	 * in the hooks' clock units (kft_clock()) until kft_run_finish()
	 * converts the log to ns.  The fast paths test no slow bits: a run
	 * with any for entries (KFT_SLOW_ENTER) has an enter_until of 0,
	 * which every clock value reaches, and so for exits; the time
	 * trigger's stop_at otherwise (kft_limits_fast()).
	 */
	u64 enter_until;		/* entries go to kft_hook() from here */
	u64 exit_until;			/* exits go to kft_hook() from here */
	u32 gen;			/* tags stacks, new per start (MASK) */
	u8 slow;			/* KFT_SLOW_* */
	u64 min_len;			/* filter mintime */
	u64 len_span;			/* maxtime - mintime: kft_len_kept() */
	unsigned long stop_entry_fn;	/* trigger stop entry: fn, or 0 */
	unsigned long stop_exit_fn;	/* trigger stop exit: fn, or 0 */

	struct kft_entry *log;
	u64 base_ns;			/* first start; entry times count from it */
	u64 stop_at;			/* trigger stop time: clock value */
	u64 start_at;			/* trigger start time (kft_start_due()) */
	unsigned long start_entry_fn;	/* trigger start entry: fn, or 0 */
	unsigned long start_exit_fn;	/* trigger start exit: fn, or 0 */
	unsigned long *funcs;		/* funclist, sorted */

	refcount_t ref;
	struct kft_config cfg;
	char *cfg_text;			/* cfg as /proc/kft shows it, once read */
	unsigned int id;

	unsigned long capacity;
	atomic_long_t next;		/* first log index no CPU has taken */
	bool is_static;			/* the boot run: nothing to free */
	const char *origin;		/* boot run: where its config came from */

	bool clock_raw;			/* boot run: raw cycles, rate unknown */
	u32 mult, shift;		/* else counter units to ns; 0: ns */
	u64 offset;
	u32 khz;
	u64 stop_after;			/* trigger stop time: since start */

	u64 start_ns;			/* start of the current (repeated) run */
	u64 stop_ns;
	enum kft_reason start_reason;
	enum kft_reason stop_reason;
	unsigned long start_fn;		/* function that fired the trigger */
	unsigned long stop_fn;

	unsigned long watch_threshold;	/* stack watch: bytes left to beat */
	unsigned long lowest_stack;	/* fewest bytes of stack left seen */

	unsigned long nr_logged;	/* valid, sorted entries; set by finish */
	bool calibrated;		/* cost_ps[] measured: kft_calibrate() */
	bool cal_refused;		/* measured, but the repeats disagreed */
	u32 cost_ps[KFT_COST_NR];	/* what a call's hooks cost, in ps */
	u32 cal_range_ps[2][2];		/* dropped, logged: best, median */
	/* Where and when it was measured, and with which clock. */
	int cal_cpu;
	u32 cal_khz;			/* the cycle counter's; 0: sched_clock() */
	u64 cal_after_ns;		/* from its stop (kft_run_finish()); U64_MAX: unknown */
	bool finished;
	bool names_gone;		/* names unloaded code: not to be armed */
};

extern struct kft_run *kft_run;

/*
 * Does a call of len clock units pass the time filters: mintime <= len <=
 * maxtime, one unsigned compare (a shorter call's len - min_len wraps).
 */
static __always_inline bool kft_len_kept(const struct kft_run *run, u64 len)
{
	return len - run->min_len <= run->len_span;
}

/* Log offsets count from here: an address the code has, not a load. */
#define kft_text_base	((unsigned long)_text)

/*
 * Early boot: per-CPU data of the boot CPU is copied when the per-CPU areas
 * are set up, and updates made meanwhile are lost.  Until then (kft_boot.c
 * ends it at early_initcall, before other CPUs start) the hooks take log
 * slots and count events in plain shared variables instead.
 */
extern bool kft_early;
extern atomic_long_t kft_early_cnt[KFT_CNT_NR];

static inline unsigned long kft_addr(s32 off)
{
	return kft_text_base + (long)off;
}

/*
 * A code address the hooks are given, as kallsyms and the logs have it:
 * an arch may tag code pointers (Thumb-2 sets bit 0 in function pointers
 * and return addresses).
 */
#ifndef kft_arch_code_addr
#define kft_arch_code_addr(p)	((unsigned long)(p))
#endif

/*
 * The hooks -finstrument-functions calls on every function entry and exit,
 * with the calling convention the arch's instrumentation may ask for:
 * kft_arch_hook_abi, the C hooks' and what they call out of line, and
 * kft_arch_exit_abi, where the exit's is another (what only the exit
 * calls has it too).  An arch whose convention C cannot be compiled to
 * has a thunk under the hook's name (kft_arch_enter_thunk(),
 * kft_arch_exit_thunk()) in front of the C hook, kft_c_enter or
 * kft_c_exit: DEFINE_KFT_ENTER and DEFINE_KFT_EXIT put it there.
 */
#ifndef kft_arch_hook_abi
#define kft_arch_hook_abi
#endif
#ifndef kft_arch_exit_abi
#define kft_arch_exit_abi	kft_arch_hook_abi
#endif
#ifdef kft_arch_enter_thunk
#define kft_c_enter		kft_c__cyg_profile_func_enter
#define DEFINE_KFT_ENTER	\
	kft_arch_enter_thunk(__cyg_profile_func_enter, kft_c_enter)
#else
#define kft_c_enter		__cyg_profile_func_enter
#define DEFINE_KFT_ENTER	\
	kft_arch_hook_abi void kft_c_enter(void *fn, void *site)
#endif
#ifdef kft_arch_exit_thunk
#define kft_c_exit		kft_c__cyg_profile_func_exit
#define DEFINE_KFT_EXIT		\
	kft_arch_exit_thunk(__cyg_profile_func_exit, kft_c_exit)
#else
#define kft_c_exit		__cyg_profile_func_exit
#define DEFINE_KFT_EXIT		\
	kft_arch_exit_abi void kft_c_exit(void *fn, void *site)
#endif
kft_arch_hook_abi void __cyg_profile_func_enter(void *fn, void *site);
kft_arch_exit_abi void __cyg_profile_func_exit(void *fn, void *site);
kft_arch_hook_abi void kft_c_enter(void *fn, void *site);
kft_arch_exit_abi void kft_c_exit(void *fn, void *site);

/* A hook called as the instrumentation's call sites call it. */
#ifndef kft_arch_call_hook
#define kft_arch_call_hook(hook, fn, site)	hook(fn, site)
#endif

/*
 * The hooks' clock: the architecture's cycle counter, read raw, where it is
 * a usable clock (kft_clock_counter); sched_clock() itself where it is not.
 * A run's times are in these units, its clock units, until
 * kft_run_finish() converts its log to ns: a dynamic run with the
 * multiplier, shift and offset that kft_clock_setup() fixed, which scale
 * the counter to ns aligned with sched_clock(); a boot run with the
 * counter's rate once the kernel has measured it.  kft_clock.c.
 */
extern bool kft_clock_counter;
extern u32 kft_cycles_mult;
extern u32 kft_cycles_shift;
extern u64 kft_cycles_offset;

static __always_inline u64 kft_clock(void)
{
	if (likely(READ_ONCE(kft_clock_counter)))
		return kft_arch_cycles();
	return sched_clock();
}

void kft_clock_setup(void);
void kft_clock_set_raw(void);
void kft_clock_run(struct kft_run *run);
u64 kft_cycles_to_ns(u64 cycles, u32 khz);
u64 kft_units_to_ns(const struct kft_run *run, u64 base, u64 u);
bool kft_start_due(const struct kft_run *run, u64 now);
void kft_limits_set(struct kft_run *run);
void kft_limits_started(struct kft_run *run, u64 now);
void kft_limits_slow(struct kft_run *run, u8 set, u8 clear);
u64 kft_time_ns(const struct kft_run *run, u64 t);

/* kft.c: the hooks, and the changes of state they make. */
void kft_start(struct kft_run *run, enum kft_reason why, unsigned long fn,
	       u64 now);
void kft_stop(struct kft_run *run, enum kft_reason why, unsigned long fn,
	      u64 now);
void kft_log_open_frames(struct kft_run *run);
extern struct mutex kft_mutex;
void kft_sync(void);

/* kft_sites.c: the hooks' call sites, NOPs while no run is armed. */
struct seq_file;
#ifdef CONFIG_KFT_NOP_SITES
/* The linker's bounds of the tables objtool --kft makes. */
extern const unsigned long __start___kft_enter_loc[];
extern const unsigned long __stop___kft_enter_loc[];
extern const unsigned long __start___kft_exit_loc[];
extern const unsigned long __stop___kft_exit_loc[];
/* scripts/kftsites --bounded-sites: those of functions with a short run. */
extern const unsigned long __start___kft_bounded_loc[];
extern const unsigned long __stop___kft_bounded_loc[];

void kft_sites_boot(const struct kft_run *run);
void kft_sites_arm(const struct kft_run *run);
void kft_sites_disarmed(void);
void kft_sites_show(struct seq_file *m);
#else
static inline void kft_sites_boot(const struct kft_run *run) { }
static inline void kft_sites_arm(const struct kft_run *run) { }
static inline void kft_sites_disarmed(void) { }
static inline void kft_sites_show(struct seq_file *m) { }
#endif

/* kft_calibrate.c: what the hooks cost, once a run has stopped. */
struct kft_run *kft_calibration_run(const struct kft_run *run);
void kft_calibrate(struct kft_run *run, struct kft_run *cal);

/* kft_finish.c: a stopped run's log made readable. */
void kft_run_finish_log(struct kft_run *run);
void kft_run_finish(struct kft_run *run);

/* kft_run.c: a run's lifecycle. */
void kft_run_init(struct kft_run *run, unsigned long *funcs);
struct kft_run *kft_run_create(struct kft_config *cfg);
struct kft_run *kft_run_get(void);
void kft_run_put(struct kft_run *run);
void kft_run_install(struct kft_run *run);
int kft_run_prime(void);
int kft_run_start(void);
int kft_run_stop(void);
int kft_run_end(struct kft_run *run, enum kft_reason why);
bool kft_run_end_at_panic(struct kft_run *run);
/* Is the code at addr going away?  arg: what is (a module). */
typedef bool (*kft_gone_fn)(unsigned long addr, const void *arg);
bool kft_run_forget(kft_gone_fn gone, const void *arg);
int kft_run_clear(void);
unsigned long kft_run_counter(enum kft_counter c);

/* kft_syms.c: function names, resolved and printed with kallsyms. */
int kft_resolve_name(void *priv, const char *name, unsigned long *addr);
const char *kft_name_of(void *priv, unsigned long addr, char *buf,
			size_t size);

/* kft_log_text.c: a run's log as text, into a seq_file. */
void kft_log_text_times(struct seq_file *m, const struct kft_run *run);
void kft_log_text_header(struct seq_file *m, const struct kft_run *run);
void kft_log_text_line(struct seq_file *m, const struct kft_entry *e);

/* kft_run.c: say why a config or command was refused, also in /proc/kft. */
__printf(1, 2) void kft_error(const char *fmt, ...);
const char *kft_last_error(void);
void kft_error_clear(void);

#endif /* _KERNEL_KFT_INTERNAL_H */
