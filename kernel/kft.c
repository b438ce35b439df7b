// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel Function Trace: the compiler's function entry/exit hooks.
 *
 * Built with -finstrument-functions (Clang: -finstrument-functions-after-
 * inlining), every kernel function calls __cyg_profile_func_enter() on entry
 * and __cyg_profile_func_exit() on exit.  With no run armed the calls are
 * NOPs (kft_sites.c), or without NOP sites a hook is one load and one
 * branch.  While a run is armed:
 *
 *  - entry pushes {time, function, call site} on the task's shadow stack
 *    (struct kft_task in task_struct), after testing the start/stop
 *    triggers;
 *  - exit pops it, applies the filters, and only then spends a log slot:
 *    calls the filters drop never occupy the log;
 *  - what only some runs need (start triggers, a boot run's early days and
 *    provisional limits, stack watch, filters other than time, a clock
 *    other than the cycle counter) is off the path of a logging run's
 *    calls, behind one test of kft_run.slow or the state;
 *  - the log is one array that CPUs take in chunks of KFT_CHUNK entries, so
 *    the only shared write is one atomic add per chunk.
 *
 * A hook runs with preemption off but interrupts on: interrupts (and NMIs)
 * nest in it and unwind before it resumes, and each of its steps - claiming
 * a stack slot or a log slot - is a single per-CPU operation or ordered so
 * that a nested hook works above it.  Code that frees or reads a log first
 * waits for every CPU to schedule, which no hook does (kft_sync(), here).
 *
 * The hooks also make the state changes that race (kft_start(),
 * kft_stop(); kft_state.h has the table) and own the global state: the
 * run, its state, kft_mutex.  For the code that changes a run, in process
 * context, this file also has the hooks' side of it: kft_sync(), and the
 * calls a stopped run left open (kft_log_open_frames()).
 *
 * Dependencies: kft_clock.c, and kft_sites.c, told when a hook completes
 * a run.  Used by every file below it in kft_internal.h's map.
 *
 * This file is not instrumented, and calls nothing that is while a run is
 * armed: the build follows the hooks' calls through vmlinux.o and fails if
 * one reaches instrumented code (scripts/kftsites --reach).  The one call
 * out of KFT is at the end of a run: kft_stop() makes the run KFT_COMPLETE
 * before kft_sites_disarmed() queues an irq_work, and the code that raises
 * its interrupt may call the hooks, which then find no run armed and
 * return.  It is built at -O2 even in a kernel built for size
 * (kernel/Makefile): at -Os GCC leaves per-CPU accessors out of line, and
 * the hooks would need a frame.
 */
#include <linux/compiler.h>
#include <linux/cpu.h>
#include <linux/irqflags.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <asm/sections.h>

#include "kft_internal.h"

int kft_state __read_mostly;
struct kft_run *kft_run __read_mostly;
DEFINE_PER_CPU(struct kft_cpu, kft_cpu);

bool kft_early __read_mostly;
atomic_long_t kft_early_cnt[KFT_CNT_NR];

/* Serialises configuration, commands and readers; never taken by hooks. */
DEFINE_MUTEX(kft_mutex);

void kft_state_set(int to)
{
	int from = READ_ONCE(kft_state);

	if (WARN_ONCE(!kft_state_edge(from, to),
		      "kft: no state change from %d to %d\n", from, to))
		return;
	/* Publish the run's fields before hooks see the state using them. */
	smp_store_release(&kft_state, to);
}

/* Count an event on this CPU; interrupts cannot tear it (kft_cpu_inc()). */
static __always_inline void kft_count_cpu(enum kft_counter c)
{
	kft_cpu_inc(kft_cpu.cnt[c]);
}

/* The same, early in a boot run too (kft_boot.c: the per-CPU copies). */
static __always_inline void kft_count(enum kft_counter c)
{
	if (unlikely(READ_ONCE(kft_early)))
		raw_atomic_long_inc(&kft_early_cnt[c]);
	else
		kft_count_cpu(c);
}

/*
 * Where a call goes that finds the log full: counted lost, the run
 * stopped, its entry written, by whichever CPU, to a sink that is never
 * read.  The paths that take log slots then fill one without a test.
 */
static struct kft_entry kft_log_full_sink;

static noinline notrace struct kft_entry *kft_log_full(struct kft_run *run)
{
	kft_count(KFT_CNT_LOST_FULL);
	kft_stop(run, KFT_BY_FULL, 0, kft_clock());
	return &kft_log_full_sink;
}

/*
 * This CPU's chunk of the shared log is used up: take the next chunk, with
 * interrupts off, for the two per-CPU indices must change together.  An
 * interrupt that refills meanwhile may leave part of a chunk unused:
 * finishing the run squeezes such gaps out.
 */
static noinline notrace struct kft_entry *kft_refill(struct kft_run *run)
{
	unsigned long idx, flags;

	raw_local_irq_save(flags);
	idx = raw_atomic_long_fetch_add(KFT_CHUNK, &run->next);
	if (idx < run->capacity) {
		this_cpu_write(kft_cpu.end,
			       (unsigned long)(run->log +
					       min_t(unsigned long,
						     idx + KFT_CHUNK,
						     run->capacity)));
		this_cpu_write(kft_cpu.pos.counter,
			       (unsigned long)(run->log + idx + 1));
	}
	raw_local_irq_restore(flags);
	return idx < run->capacity ? run->log + idx : kft_log_full(run);
}

/*
 * Take this CPU's next log slot (*e), one per-CPU add: false when its
 * chunk is used up (or was never taken: pos and end 0).  A chunk an
 * interrupt took meanwhile lies beyond end: false too, and a refill.
 */
static __always_inline bool kft_cpu_slot(struct kft_entry **e)
{
	unsigned long end = this_cpu_read(kft_cpu.end);
	unsigned long slot = kft_cpu_add_return(kft_cpu.pos,
						sizeof(struct kft_entry)) -
			     sizeof(struct kft_entry);

	*e = (struct kft_entry *)slot;
	return likely(slot < end);
}

/* Take a log slot on this CPU: one per-CPU add, mostly. */
static __always_inline struct kft_entry *kft_reserve_cpu(struct kft_run *run)
{
	struct kft_entry *e;

	return kft_cpu_slot(&e) ? e : kft_refill(run);
}

/* The same, early in a boot run too: one CPU, and no per-CPU data yet. */
static __always_inline struct kft_entry *kft_reserve(struct kft_run *run)
{
	unsigned long idx;

	if (unlikely(READ_ONCE(kft_early))) {
		idx = raw_atomic_long_fetch_add(1, &run->next);
		return idx < run->capacity ? run->log + idx : kft_log_full(run);
	}
	return kft_reserve_cpu(run);
}

/*
 * Fill log slot e with a call (a frame's: its function and call site, one
 * word) entered at entry (its entry_ns) that ran on cpu, lasting delta
 * (kft_delta_encode(), or KFT_DELTA_*), with inner calls inside it
 * (kft_entry.inner).  The log's own length counts the calls logged
 * (kft_run_logged()).
 */
static __always_inline void kft_fill(struct kft_entry *e, u64 entry, u64 call,
				     int pid, u32 delta, unsigned int cpu,
				     u64 inner)
{
	/* The clock's low bits: kft_run_finish() counts them from the base. */
	e->time_cpu = (entry & KFT_TIME_MASK) | ((u64)cpu << KFT_TIME_BITS);
	e->call = call;
	e->delta_pid = kft_word(delta, pid);
	e->inner = inner;
}

/* Log a call: inline on the exit path, kft_log_on() elsewhere. */
static __always_inline void kft_log_call(struct kft_run *run, u64 entry,
					 u64 call, int pid, u32 delta,
					 unsigned int cpu, u64 inner)
{
	kft_fill(kft_reserve(run), entry, call, pid, delta, cpu, inner);
}

static noinline notrace void kft_log_on(struct kft_run *run, u64 entry,
					u64 call, int pid, u32 delta,
					unsigned int cpu, u64 inner)
{
	kft_log_call(run, entry, call, pid, delta, cpu, inner);
}

/* The pid a call entered at entry is logged with: -1 in interrupts. */
static __always_inline int kft_frame_pid(u64 entry)
{
	/* Without a branch: the exit hook then needs one register less. */
	return current->pid | -(int)!!(entry & KFT_FRAME_IRQ);
}

static __always_inline s32 kft_off(unsigned long addr)
{
	return addr - kft_text_base;
}

/* A call's function and call site as frames and entries keep them. */
static __always_inline u64 kft_call(unsigned long fn, unsigned long site)
{
	return kft_word(kft_off(fn), kft_off(site));
}

/*
 * A call's entry time as its frame keeps it: now, flagged if entered in
 * interrupt context.  A branch, taken in interrupts only: fewer
 * instructions than setting the flag from a test.
 */
static __always_inline u64 kft_entry_mark(u64 now)
{
	if (unlikely(!in_task()))
		now |= KFT_FRAME_IRQ;
	return now;
}

/* A call logged at the moment it is seen: the start and stop events. */
static notrace void kft_log_event(struct kft_run *run, unsigned long fn,
				  unsigned long site, u32 delta, u64 now)
{
	u64 entry = kft_entry_mark(now);

	kft_log_on(run, entry, kft_call(fn, site), kft_frame_pid(entry), delta,
		   raw_smp_processor_id(), 0);
}

/*
 * The shadow-stack generation the last start handed out (kft_task.gen).
 * One sequence for every run, its repeats and clears, so that a call a
 * task left open in an earlier one never passes for one of a later run's:
 * an idle CPU's task can sit in a call for seconds, across runs.  Starts
 * come one at a time, each holding KFT_STARTING.
 */
static u32 kft_gen_last;

/* The start trigger fired: from primed to logging, with a new time base. */
void notrace kft_start(struct kft_run *run, enum kft_reason why,
		       unsigned long fn, u64 now)
{
	/* Hooks sit out the moment it takes to set the new time base. */
	if (!kft_state_move(KFT_PRIMED, KFT_STARTING))
		return;
	if (!run->base_ns)
		run->base_ns = now;
	run->start_ns = now;
	run->start_reason = why;
	run->start_fn = fn;
	kft_limits_started(run, now);
	/* Frames of an earlier start must not pair with this one's exits. */
	kft_gen_last = ((kft_gen_last + 1) & KFT_GEN_MASK) ?: 1;
	WRITE_ONCE(run->gen, kft_gen_last);
	/* filter children: the task starting the run is the first in scope. */
	if (run->cfg.children) {
		current->kft.depth = 0;
		WRITE_ONCE(current->kft.gen, run->gen | KFT_GEN_MEMBER);
	}
	/* The time base is set before any hook can see the run logging. */
	kft_state_move(KFT_STARTING, KFT_TRIGGERED);
}

/* A stop trigger fired, or the log is full. */
void notrace kft_stop(struct kft_run *run, enum kft_reason why,
		      unsigned long fn, u64 now)
{
	bool again = run->cfg.autorepeat && why != KFT_BY_FULL;

	if (again ? !kft_state_move(KFT_TRIGGERED, KFT_PRIMED) :
		    !kft_state_move(KFT_TRIGGERED, KFT_COMPLETE))
		return;
	run->stop_ns = now;
	run->stop_reason = why;
	run->stop_fn = fn;
	/* Complete: the hooks that raising the irq_work may call return. */
	if (!again)
		kft_sites_disarmed();
}

/*
 * A new task's copy of its parent's shadow stack starts empty, of the
 * parent's generation: a copy of a parent in the run's scope (filter
 * children) is in it too.  Only a fork empties the child's stack, so the
 * hooks test nothing for forks.
 */
void kft_task_init(struct task_struct *t)
{
	t->kft.depth = 0;
}

/* The task's shadow stack for this run: one of an older run starts empty. */
static __always_inline struct kft_task *kft_task_stack(struct kft_run *run)
{
	struct kft_task *ks = &current->kft;
	u32 gen = READ_ONCE(run->gen);

	if (unlikely((ks->gen & KFT_GEN_MASK) != gen)) {
		ks->gen = gen;
		ks->depth = 0;
		ks->count = 0;
	}
	return ks;
}

/* current->comm is name: compared here, for string.h's is instrumented. */
static __always_inline bool kft_comm_is(const char *comm, const char *name)
{
	unsigned int i;

	for (i = 0; i < KFT_COMM_LEN; i++) {
		if (comm[i] != name[i])
			return false;
		if (!name[i])
			return true;
	}
	return true;
}

/* Is the task out of the run's scope?  The filter that says so, or -1. */
static noinline notrace int kft_out_of_scope(const struct kft_run *run,
					     const struct kft_task *ks)
{
	const struct kft_config *cfg = &run->cfg;

	if (cfg->pid_set && current->pid != (pid_t)cfg->pid)
		return KFT_CNT_FILTER_PID;
	if (cfg->comm[0] && !kft_comm_is(current->comm, cfg->comm))
		return KFT_CNT_FILTER_COMM;
	if (cfg->children && !(ks->gen & KFT_GEN_MEMBER))
		return KFT_CNT_FILTER_CHILDREN;
	return -1;
}

static notrace bool kft_notunder_has(const struct kft_run *run,
				     unsigned long fn)
{
	unsigned int i;

	for (i = 0; i < run->cfg.nnotunder; i++)
		if (run->cfg.notunder[i].addr == fn)
			return true;
	return false;
}

static notrace bool kft_funclist_has(const struct kft_run *run,
				     unsigned long fn)
{
	unsigned int lo = 0, hi = run->cfg.nfuncs;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (run->funcs[mid] == fn)
			return true;
		if (run->funcs[mid] < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Which filter, if any, drops a finished call of len clock units, entered
 * (entry_ns) at depth at of its task's stack.
 */
static __always_inline int kft_filtered(const struct kft_run *run,
					unsigned long fn, u64 entry, u32 at,
					u64 len)
{
	const struct kft_config *cfg = &run->cfg;
	bool irq = entry & KFT_FRAME_IRQ;

	if (entry & KFT_FRAME_HIDE)
		return KFT_CNT_FILTER_NOTUNDER;
	if (cfg->depth_set && at > cfg->depth)
		return KFT_CNT_FILTER_DEPTH;
	if (cfg->noints && irq)
		return KFT_CNT_FILTER_NOINTS;
	if (cfg->onlyints && !irq)
		return KFT_CNT_FILTER_ONLYINTS;
	if (cfg->nfuncs && !kft_funclist_has(run, fn))
		return KFT_CNT_FILTER_FUNCLIST;
	if (!kft_len_kept(run, len))
		return KFT_CNT_FILTER_TIME;
	return -1;
}

/*
 * watch stack / worst-stack: on entry with less task stack left than the
 * threshold, keep the whole call chain in the log, marked -2.  worst-stack
 * then lowers the threshold, so the last chain logged is the deepest.
 */
static noinline notrace void kft_watch_stack(struct kft_run *run,
					     const struct kft_task *ks,
					     unsigned long fn,
					     unsigned long site, u64 now)
{
	unsigned long left = current_stack_pointer -
			     (unsigned long)task_stack_page(current);
	u32 d, n;

	if (left >= THREAD_SIZE)
		return;		/* on an interrupt stack */
	if (left < READ_ONCE(run->lowest_stack))
		WRITE_ONCE(run->lowest_stack, left);
	if (left >= READ_ONCE(run->watch_threshold))
		return;
	if (run->cfg.watch == KFT_WATCH_WORST_STACK)
		WRITE_ONCE(run->watch_threshold, left);
	n = min_t(u32, ks->depth, CONFIG_KFT_STACK_DEPTH);
	for (d = 0; d < n; d++) {
		const struct kft_frame *f = &ks->frames[d];

		kft_log_on(run, f->entry_ns, f->call,
			   kft_frame_pid(f->entry_ns), KFT_DELTA_STACK,
			   raw_smp_processor_id(), 0);
	}
	kft_log_event(run, fn, site, KFT_DELTA_STACK, now);
}

/*
 * What only some runs do on entry: scope, notunder, stack watch.  The
 * flags for the call's frame, or U64_MAX not to push one.
 */
static noinline notrace u64 kft_push_slow(struct kft_run *run,
					  struct kft_task *ks,
					  unsigned long fn, unsigned long site,
					  u64 now, u64 flags)
{
	u8 slow = READ_ONCE(run->slow);
	u32 d = ks->depth;

	if ((slow & KFT_SLOW_SCOPE) && kft_out_of_scope(run, ks) >= 0)
		return U64_MAX;
	if (slow & KFT_SLOW_WATCH)
		kft_watch_stack(run, ks, fn, site, now);
	/* Under a notunder function: a notunder call, or its caller's is. */
	if ((slow & KFT_SLOW_NOTUNDER) &&
	    (kft_notunder_has(run, fn) ||
	     (d && d <= CONFIG_KFT_STACK_DEPTH &&
	      (ks->frames[d - 1].entry_ns & KFT_FRAME_HIDE))))
		flags |= KFT_FRAME_HIDE;
	return flags;
}

/*
 * The shadow stack's push, for both paths: fn's call from site, entered
 * at now (with KFT_FRAME_* flags), in a frame at depth d, the task's top
 * (ks->depth), counted as a call entered.  The slot is claimed first: an
 * interrupt that nests after it stacks above.  A push beyond the stack's
 * depth is counted lost (its pop drops it), unless the caller has ruled
 * that out (in_range, a constant): the fast path has.
 */
static __always_inline void kft_stack_push(struct kft_task *ks, u32 d,
					   unsigned long fn, unsigned long site,
					   u64 now, bool in_range)
{
	struct kft_frame *f;
	u64 count;

	ks->depth = d + 1;
	count = ks->count + 1;
	ks->count = count;
	barrier();
	if (!in_range && unlikely(d >= CONFIG_KFT_STACK_DEPTH)) {
		kft_count(KFT_CNT_LOST_DEPTH);
		return;
	}
	f = &ks->frames[d];
	f->entry_ns = kft_entry_mark(now);
	/* One store: the exit reads it as one word (no stalled forwarding). */
	f->call = kft_call(fn, site);
	f->count = count;
}

/*
 * The shadow stack's pop, for both paths: frame f, at depth d, its entry
 * and call read already, leaves the stack with the frames above it; the
 * calls made inside it (kft_entry.inner).  The frame is read before the
 * depth drops, after which an interrupt may reuse it.
 */
static __always_inline u64 kft_stack_pop(struct kft_task *ks,
					 const struct kft_frame *f, u32 d)
{
	u64 inner = ks->count - f->count;

	barrier();
	ks->depth = d;
	return inner;
}

/* Push a frame for fn's call on the task's shadow stack. */
static __always_inline void kft_push(struct kft_run *run, unsigned long fn,
				     unsigned long site, u64 now, u64 flags)
{
	struct kft_task *ks = kft_task_stack(run);

	if (unlikely(READ_ONCE(run->slow) &
		     (KFT_SLOW_WATCH | KFT_SLOW_SCOPE | KFT_SLOW_NOTUNDER))) {
		flags = kft_push_slow(run, ks, fn, site, now, flags);
		if (flags == U64_MAX)
			return;
	}
	kft_stack_push(ks, ks->depth, fn, site, now | flags, false);
}

/*
 * kft_pop() when fn's frame is not on top: exits come in LIFO order, so if
 * a frame's exit went missing, the frames above fn's are dropped with it.
 * The index of fn's frame, or -1.
 */
static noinline notrace int kft_pop_deep(struct kft_task *ks, s32 off)
{
	u32 d;

	if (!ks->depth) {
		kft_count(KFT_CNT_NOT_FOUND);
		return -1;
	}
	if (ks->depth > CONFIG_KFT_STACK_DEPTH) {
		ks->depth--;		/* counted as lost when pushed */
		return -1;
	}
	for (d = ks->depth; d > 0; d--)
		if (ks->frames[d - 1].fn == off)
			return d - 1;
	kft_count(KFT_CNT_NOT_FOUND);
	return -1;
}

/*
 * Pop fn's frame: its entry, call site, the calls made inside it and depth
 * in the stack; false if the run never saw it.  Nothing here lives in
 * memory but the stack itself.
 */
static __always_inline bool kft_pop(struct kft_task *ks, s32 off, u64 *entry,
				    u64 *call, u64 *inner, u32 *at)
{
	const struct kft_frame *f;
	u32 top = ks->depth - 1;	/* wraps if the stack is empty */
	int d = top;

	if (unlikely(top >= CONFIG_KFT_STACK_DEPTH ||
		     ks->frames[top].fn != off)) {
		d = kft_pop_deep(ks, off);
		if (d < 0)
			return false;
	}
	f = &ks->frames[d];
	*entry = f->entry_ns;
	*call = f->call;
	*inner = kft_stack_pop(ks, f, d);
	*at = d;
	return true;
}

/*
 * Primed, and this call may fire the start trigger (its function, or a
 * start time).  If it started the run and its call is to be logged from
 * here on, the flags for its frame; else KFT_NOT_STARTED.
 */
#define KFT_NOT_STARTED		U64_MAX

static noinline notrace u64 kft_primed(struct kft_run *run, unsigned long fn,
				       unsigned long site, u64 now, bool entry)
{
	const struct kft_trigger *start = &run->cfg.start;
	u64 flags;

	if (unlikely(READ_ONCE(run->slow) & KFT_SLOW_LIMITS))
		kft_limits_set(run);	/* boot run, early */
	if (start->kind == KFT_TRIGGER_TIME) {
		if (!kft_start_due(run, now))
			return KFT_NOT_STARTED;
		kft_start(run, KFT_BY_TIME, 0, now);
		flags = 0;
	} else if (entry) {
		kft_start(run, KFT_BY_ENTRY, fn, now);
		/* Its call is logged, whatever the filters say of it. */
		flags = KFT_FRAME_TRIGGER;
	} else {
		kft_start(run, KFT_BY_EXIT, fn, now);
		/* The start event is logged, as a call of no length. */
		kft_log_event(run, fn, site, 0, now);
		return KFT_NOT_STARTED;
	}
	if (!entry || READ_ONCE(kft_state) != KFT_TRIGGERED)
		return KFT_NOT_STARTED;
	return flags;
}

static __always_inline void kft_enter(struct kft_run *run, unsigned long fn,
				      unsigned long site, u64 now, u64 flags)
{
	if (unlikely(now >= READ_ONCE(run->stop_at))) {
		kft_stop(run, KFT_BY_TIME, 0, now);
		return;
	}
	if (unlikely(fn == run->stop_entry_fn)) {
		/* The stop event is logged; its exit comes after the run. */
		kft_log_event(run, fn, site, KFT_DELTA_OPEN, now);
		kft_stop(run, KFT_BY_ENTRY, fn, now);
		return;
	}
	kft_push(run, fn, site, now, flags);
}

static __always_inline void kft_exit(struct kft_run *run, unsigned long fn,
				     u64 now)
{
	u8 slow = READ_ONCE(run->slow);
	bool stop_here, keep;
	struct kft_task *ks;
	u64 entry, len, call, inner;
	u32 at;
	int why;

	if (unlikely(slow & KFT_SLOW_LIMITS))
		kft_limits_set(run);	/* boot run, early */
	if (unlikely(now >= READ_ONCE(run->stop_at))) {
		kft_stop(run, KFT_BY_TIME, 0, now);
		return;
	}
	stop_here = fn == run->stop_exit_fn;
	ks = kft_task_stack(run);
	/* Out of scope: its entry pushed nothing. */
	if (unlikely(slow & KFT_SLOW_SCOPE)) {
		why = kft_out_of_scope(run, ks);
		if (why >= 0) {
			kft_count(why);
			goto out;
		}
	}
	if (kft_pop(ks, kft_off(fn), &entry, &call, &inner, &at)) {
		len = kft_frame_len(entry, now);
		if (likely(!(slow & KFT_SLOW_FILTERS))) {
			keep = kft_len_kept(run, len);
			why = KFT_CNT_FILTER_TIME;
		} else {
			why = kft_filtered(run, fn, entry, at, len);
			keep = why < 0;
		}
		if (keep || stop_here || (entry & KFT_FRAME_TRIGGER)) {
			kft_log_call(run, entry, call, kft_frame_pid(entry),
				     kft_delta_encode(len),
				     raw_smp_processor_id(), inner);
			ks->count += KFT_COUNT_LOGGED;
		} else {
			kft_count(why);
		}
	}
out:
	if (unlikely(stop_here))
		kft_stop(run, KFT_BY_EXIT, fn, now);
}

/* A primed run's call that cannot start it: not its function, no start time. */
static __always_inline bool kft_cannot_start(const struct kft_run *run,
					     unsigned long fn, bool entry)
{
	return fn != (entry ? run->start_entry_fn : run->start_exit_fn) &&
	       READ_ONCE(run->start_at) == U64_MAX;
}

/*
 * The bracket every path of a hook runs in: stay on this CPU.  Interrupts
 * and NMIs may nest in a hook (they unwind before it resumes, and every
 * step here is safe against that).  A hook neither sleeps nor is
 * preempted, so a CPU that has scheduled since a state change is in no
 * hook that saw the state before: what kft_sync() waits for.  The run and
 * its state are read, and the run last used, inside the bracket.
 */
static __always_inline void kft_pin(void)
{
	preempt_disable_notrace();
	barrier();
}

static __always_inline void kft_unpin(void)
{
	barrier();
	preempt_enable_notrace();
}

/*
 * Every case of a hook, out of line: the fast paths below hand it a primed
 * run's call that may start the run, and it starts over.  A logging run's
 * calls they do not handle go to kft_enter_full() and kft_exit_full(),
 * under their own bracket.
 *
 * What the hooks call out of line (these, and kft_log_refill()) has the
 * ABI of the hook that calls it: where a hook saves every register it
 * changes (x86's after-inlining entry), these do as well, so the hook
 * saves only what its fast path uses, not every register a call out
 * could change.
 */
static kft_arch_hook_abi noinline notrace void
kft_hook(unsigned long fn, unsigned long site, bool entry)
{
	struct kft_run *run;
	u64 now, flags = 0;
	int state;

	kft_pin();
	run = READ_ONCE(kft_run);
	state = READ_ONCE(kft_state);
	if (unlikely(state != KFT_TRIGGERED)) {
		/* Primed: only a call that may start the run reads the clock. */
		if (state != KFT_PRIMED ||
		    likely(kft_cannot_start(run, fn, entry)))
			goto out;
		now = kft_clock();
		flags = kft_primed(run, fn, site, now, entry);
		if (flags == KFT_NOT_STARTED)
			goto out;
	} else {
		now = kft_clock();
	}
	if (entry)
		kft_enter(run, fn, site, now, flags);
	else
		kft_exit(run, fn, now);
out:
	kft_unpin();
}

/*
 * The fast paths: a logging run's common call, and a primed run's, with no
 * function call on the way, so that the hook saves few registers.  Each
 * hands what it does not handle, before it changes anything, to the full
 * path under its bracket, or to kft_hook() (a primed run's call).
 *
 * Not logging: nothing to do for a call unless a run is primed and the call
 * may start it (kft_hook() then) - the same test as kft_hook()'s.
 */
static __always_inline bool kft_fast_idle(struct kft_run *run, int state,
					  unsigned long fn, bool entry)
{
	return state != KFT_PRIMED || kft_cannot_start(run, fn, entry);
}

/*
 * Does a logging run's call leave the fast path for the full one
 * (kft_enter_full(), kft_exit_full())?  Yes for
 * what only some runs need (run->slow: filters beyond time, start or stop
 * work of a boot run's early days, sched_clock() as the clock, scope,
 * watch, notunder: their until is 0), the stop time reached, the stop
 * function, a shadow stack not yet the run's, and the caller's own
 * reasons (off: its shadow stack's top, full or not fn's).  A compare and
 * a branch per test, none taken on the fast path: fewer instructions than
 * folding the tests into one word (set, widen, or), which is what a call
 * costs under QEMU -icount, and branches a CPU predicts.
 */
static __always_inline bool kft_fast_off(const struct kft_run *run,
					 const struct kft_task *ks,
					 unsigned long fn, bool entry, u64 now)
{
	/*
	 * Its gen, member bit and all (kft_task.gen): a run that sets that
	 * bit (filter children) takes the full hook anyway (KFT_SLOW_SCOPE).
	 */
	return now >= (entry ? run->enter_until : run->exit_until) ||
	       ks->gen != run->gen ||
	       fn == (entry ? run->stop_entry_fn : run->stop_exit_fn);
}

/*
 * Under the bracket: does the run (*run) log?  If not, *done tells whether
 * the call needs kft_hook() (a primed run it may start).  An armed state
 * has a run, never NULL: the first is installed while none is armed, and
 * a hook that read kft_run before that has left before the state changes
 * (kft_run_install()).
 */
static __always_inline bool kft_fast_logs(struct kft_run **run,
					  unsigned long fn, bool entry,
					  bool *done)
{
	int state = READ_ONCE(kft_state);

	/*
	 * The state first, and its test before anything else is read: calls
	 * that reach the hooks of an idle kernel (tail calls to the exit
	 * hook, which stay; with no NOP sites, every call) leave at once.
	 */
	if (unlikely(state != KFT_TRIGGERED)) {
		*run = READ_ONCE(kft_run);
		*done = kft_fast_idle(*run, state, fn, entry);
		return false;
	}
	*run = READ_ONCE(kft_run);
	return true;
}

/*
 * A logging run's entry that kft_enter_fast() does not handle: the full
 * entry path, under the fast path's bracket.  Out of line and last, as
 * kft_exit_full() below.
 */
static kft_arch_hook_abi noinline notrace void
kft_enter_full(struct kft_run *run, unsigned long fn, unsigned long site)
{
	kft_enter(run, fn, site, kft_clock(), 0);
}

static __always_inline bool kft_enter_fast(unsigned long fn,
					   unsigned long site)
{
	struct kft_run *run;
	struct kft_task *ks;
	bool done = false;
	u64 now;
	u32 d;

	kft_pin();
	if (unlikely(!kft_fast_logs(&run, fn, true, &done)))
		goto out;
	ks = &current->kft;
	now = kft_arch_cycles();
	d = ks->depth;
	done = true;
	if (unlikely(kft_fast_off(run, ks, fn, true, now) ||
		     d >= CONFIG_KFT_STACK_DEPTH))
		kft_enter_full(run, fn, site);
	else
		kft_stack_push(ks, d, fn, site, now, true);
out:
	kft_unpin();
	return done;
}

/*
 * kft_exit_fast() keeps a call and its CPU's chunk of the log is used up:
 * take the next and log the call.  Out of line and the fast path's last
 * step before it leaves its bracket, so that nothing the fast path holds
 * lives across a call, which would take registers the hook would have to
 * save.
 */
static kft_arch_exit_abi noinline notrace void
kft_log_refill(struct kft_run *run, u64 entry, u64 call, u64 len, u64 inner)
{
	kft_fill(kft_refill(run), entry, call, kft_frame_pid(entry),
		 kft_delta_encode(len), raw_smp_processor_id(), inner);
	current->kft.count += KFT_COUNT_LOGGED;
}

/*
 * A logging run's exit that kft_exit_fast() does not handle: the full exit
 * path, under the fast path's bracket.  Out of line and last for the same
 * reason, and it takes no call site, which only a primed run's exit needs
 * (kft_hook()): the exit hook would keep it in a register it must save.
 */
static kft_arch_exit_abi noinline notrace void
kft_exit_full(struct kft_run *run, unsigned long fn)
{
	kft_exit(run, fn, kft_clock());	/* the counter, or sched_clock() */
}

static __always_inline bool kft_exit_fast(unsigned long fn)
{
	const struct kft_frame *f;
	struct kft_entry *e;
	struct kft_run *run;
	struct kft_task *ks;
	s32 off = kft_off(fn);	/* before the state test: one instruction less when logging */
	bool done = false;
	u64 now, entry, len, call, inner;
	u32 top;

	kft_pin();
	if (unlikely(!kft_fast_logs(&run, fn, false, &done)))
		goto out;
	ks = &current->kft;
	now = kft_arch_cycles();
	top = ks->depth - 1;		/* wraps if the stack is empty */
	done = true;
	/* The run's tests first: a full-path run reads no frame here. */
	if (unlikely(kft_fast_off(run, ks, fn, false, now) ||
		     top >= CONFIG_KFT_STACK_DEPTH))
		goto full;
	f = &ks->frames[top];
	if (unlikely(f->fn != off))
		goto full;
	entry = f->entry_ns;
	len = kft_frame_len(entry, now);
	/*
	 * Dropped by the time filters (kft_len_kept()), unless the start
	 * trigger's own call.
	 */
	if (!kft_len_kept(run, len) && !(entry & KFT_FRAME_TRIGGER)) {
		kft_stack_pop(ks, f, top);
		kft_count_cpu(KFT_CNT_FILTER_TIME);
		goto out;
	}
	call = f->call;
	inner = kft_stack_pop(ks, f, top);
	/* kft_reserve_cpu(), its refill out of line. */
	if (unlikely(!kft_cpu_slot(&e))) {
		kft_log_refill(run, entry, call, len, inner);
		goto out;
	}
	kft_fill(e, entry, call, kft_frame_pid(entry),
		 kft_delta_encode(len), raw_smp_processor_id(), inner);
	ks->count += KFT_COUNT_LOGGED;
	goto out;
full:
	kft_exit_full(run, fn);
out:
	kft_unpin();
	return done;
}

/*
 * With NOP sites the hooks are called only while a run may be armed, and
 * the paths read the state once, under the bracket; without, an idle
 * kernel's every call is here, and a look at the state saves the bracket.
 */
static __always_inline bool kft_hooks_idle(void)
{
	return !IS_ENABLED(CONFIG_KFT_NOP_SITES) &&
	       likely(!kft_state_armed(READ_ONCE(kft_state)));
}

/* What the hooks do, the paths above in the order they are tried. */
static __always_inline void kft_enter_hook(unsigned long fn,
					   unsigned long site)
{
	if (kft_hooks_idle() || kft_enter_fast(fn, site))
		return;
	kft_hook(fn, site, true);
}

static __always_inline void kft_exit_hook(unsigned long fn, unsigned long site)
{
	if (kft_hooks_idle() || kft_exit_fast(fn))
		return;
	kft_hook(fn, site, false);
}

#ifdef CONFIG_KFT_BENCH_STEPS
/*
 * make bench-steps: kft_bench_step=N makes the hooks, called, do only some
 * of their steps, to tell what each step of a traced call costs - 1:
 * return at once; 2: read the clock; 3: raise and drop the bracket; 4: the
 * bracket, reading the run and its state, and the clock.
 */
static int kft_bench_step __read_mostly;
core_param(kft_bench_step, kft_bench_step, int, 0644);
static DEFINE_PER_CPU(u64, kft_bench_sink);

/* The steps asked for, if any: true if they stand in for the hook. */
static __always_inline bool kft_bench_steps(void)
{
	int step = READ_ONCE(kft_bench_step);

	if (likely(!step))
		return false;
	if (step == 2)
		this_cpu_write(kft_bench_sink, kft_clock());
	if (step >= 3) {
		kft_pin();
		if (step == 4 && READ_ONCE(kft_run) &&
		    READ_ONCE(kft_state) == KFT_TRIGGERED)
			this_cpu_write(kft_bench_sink, kft_clock());
		kft_unpin();
	}
	return true;
}

/* A hook, in front of it the steps an armed run's hooks are to do instead. */
#define kft_bench_or(hook, fn, site)					\
	do {								\
		if (kft_hooks_idle() || !kft_bench_steps())		\
			hook(fn, site);					\
	} while (0)
#else
#define kft_bench_or(hook, fn, site)	hook(fn, site)
#endif

/*
 * The hooks, in C; DEFINE_KFT_ENTER and DEFINE_KFT_EXIT put an arch's
 * thunk in front of each where the instrumentation calls them with a
 * convention of its own.
 */
kft_arch_hook_abi void notrace kft_c_enter(void *fn, void *site)
{
	kft_bench_or(kft_enter_hook, kft_arch_code_addr(fn),
		     kft_arch_code_addr(site));
}
EXPORT_SYMBOL(__cyg_profile_func_enter);

kft_arch_exit_abi void notrace kft_c_exit(void *fn, void *site)
{
	kft_bench_or(kft_exit_hook, kft_arch_code_addr(fn),
		     kft_arch_code_addr(site));
}
EXPORT_SYMBOL(__cyg_profile_func_exit);

DEFINE_KFT_ENTER;
DEFINE_KFT_EXIT;

static void kft_log_task_frames(struct kft_run *run, struct task_struct *t)
{
	struct kft_task *ks;
	u32 d, n;

	if (!t)
		return;
	ks = &t->kft;
	if ((ks->gen & KFT_GEN_MASK) != run->gen)
		return;
	n = min_t(u32, ks->depth, CONFIG_KFT_STACK_DEPTH);
	for (d = 0; d < n; d++) {
		const struct kft_frame *f = &ks->frames[d];
		bool irq = f->entry_ns & KFT_FRAME_IRQ;
		u64 so_far = kft_frame_len(f->entry_ns, run->stop_ns);
		int why;

		/* Its length is unknown: mintime cannot judge it, the rest can. */
		why = kft_filtered(run, kft_addr(f->fn), f->entry_ns, d, so_far);
		if (why >= 0 && !(why == KFT_CNT_FILTER_TIME &&
				  so_far < run->min_len)) {
			kft_count(why);
			continue;
		}
		/* Where it last ran: the CPU that entered it, unless it moved. */
		kft_log_on(run, f->entry_ns, f->call, irq ? -1 : t->pid,
			   KFT_DELTA_OPEN, task_cpu(t), ks->count - f->count);
	}
}

/*
 * Calls still open when the run stopped: log them with duration -1, from the
 * shadow stacks the hooks left behind.  Called with the run stopped and no
 * CPU in the hooks, so the stacks hold still.
 */
void kft_log_open_frames(struct kft_run *run)
{
	struct task_struct *g, *t;
	int cpu;

	preempt_disable();
	rcu_read_lock();
	for_each_possible_cpu(cpu)	/* idle tasks are not on the task list */
		kft_log_task_frames(run, idle_task(cpu));
	for_each_process_thread(g, t)
		kft_log_task_frames(run, t);
	rcu_read_unlock();
	preempt_enable();
}

static DEFINE_PER_CPU(struct work_struct, kft_sync_work);

static void kft_sync_nop(struct work_struct *work)
{
}

/*
 * Wait until no CPU can be in a hook that saw the previous state.  A hook
 * runs with preemption off and never sleeps (kft_pin()), so a CPU
 * that has run a work item since has left every hook it was in, and reads
 * the state anew in its next: schedule_on_each_cpu(), as ftrace's
 * synchronize_rcu_tasks_rude(), with work items that need no allocation.
 * Preemption off in the hooks is all they pay for it.
 */
void kft_sync(void)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct work_struct *work = per_cpu_ptr(&kft_sync_work, cpu);

		INIT_WORK(work, kft_sync_nop);
		schedule_work_on(cpu, work);
	}
	for_each_online_cpu(cpu)
		flush_work(per_cpu_ptr(&kft_sync_work, cpu));
	cpus_read_unlock();
}
