// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel Function Trace: the compiler's function entry/exit hooks.
 *
 * Built with -finstrument-functions (Clang: -finstrument-functions-after-
 * inlining), every kernel function calls __cyg_profile_func_enter() on entry
 * and __cyg_profile_func_exit() on exit.  With no run armed a hook is one
 * load and one branch.  While a run is armed:
 *
 *  - entry pushes {time, function, call site} on the task's shadow stack
 *    (struct kft_task in task_struct), after testing the start/stop
 *    triggers;
 *  - exit pops it, applies the filters, and only then spends a log slot:
 *    calls the filters drop never occupy the log;
 *  - the log is one array that CPUs take in chunks of KFT_CHUNK entries, so
 *    the only shared write is one atomic add per chunk.
 *
 * A hook runs with preemption off but interrupts on: interrupts (and NMIs)
 * nest in it and unwind before it resumes, and each of its steps - claiming
 * a stack slot or a log slot - is a single per-CPU operation or ordered so
 * that a nested hook works above it.  Code that frees or reads a log first
 * waits for every CPU to leave the hooks (kft_run.c: kft_sync()).
 *
 * This file is not instrumented, and calls nothing that is.
 */
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <asm/sections.h>

#include "kft_internal.h"

int kft_state __read_mostly;
struct kft_run *kft_run __read_mostly;
unsigned long kft_text_base __read_mostly = (unsigned long)_text;
DEFINE_PER_CPU(struct kft_cpu, kft_cpu);

bool kft_early __read_mostly;
atomic_long_t kft_early_cnt[KFT_CNT_NR];

u32 kft_cycles_mult __read_mostly;
u32 kft_cycles_shift __read_mostly;
u64 kft_cycles_offset __read_mostly;

/* Count an event on this CPU; one instruction, so interrupts cannot tear it. */
static __always_inline void kft_count(enum kft_counter c)
{
	if (unlikely(READ_ONCE(kft_early)))
		raw_atomic_long_inc(&kft_early_cnt[c]);
	else
		this_cpu_inc(kft_cpu.cnt[c]);
}

/*
 * Take a log slot on this CPU: one per-CPU increment.  When the CPU's chunk
 * is used up, take the next chunk of the shared log with interrupts off,
 * for the two per-CPU indices must change together.  An interrupt that
 * refills meanwhile may leave part of a chunk unused: finishing the run
 * squeezes such gaps out.
 */
static notrace struct kft_entry *kft_reserve(struct kft_run *run)
{
	unsigned long end, idx, flags;

	if (unlikely(READ_ONCE(kft_early))) {	/* one CPU, no per-CPU data */
		idx = raw_atomic_long_fetch_add(1, &run->next);
		return idx < run->capacity ? run->log + idx : NULL;
	}
	end = this_cpu_read(kft_cpu.end);
	idx = this_cpu_inc_return(kft_cpu.pos) - 1;

	/* A chunk taken by an interrupt since is beyond end: refill. */
	if (likely(idx < end))
		return run->log + idx;
	raw_local_irq_save(flags);
	idx = raw_atomic_long_fetch_add(KFT_CHUNK, &run->next);
	if (idx < run->capacity) {
		this_cpu_write(kft_cpu.end, min_t(unsigned long,
						  idx + KFT_CHUNK,
						  run->capacity));
		this_cpu_write(kft_cpu.pos, idx + 1);
	}
	raw_local_irq_restore(flags);
	return idx < run->capacity ? run->log + idx : NULL;
}

/* Log a call that ran on cpu; kft_log(): on this CPU. */
static notrace void kft_log_on(struct kft_run *run, const struct kft_frame *f,
			       int pid, u32 delta, u64 now, unsigned int cpu)
{
	u64 t = f->entry_ns & KFT_FRAME_NS;
	struct kft_entry *e = kft_reserve(run);

	if (unlikely(!e)) {
		kft_count(KFT_CNT_LOST_FULL);
		kft_stop(run, KFT_BY_FULL, 0, now);
		return;
	}
	t = t > run->base_ns ? t - run->base_ns : 0;
	e->time_cpu = (t & KFT_TIME_MASK) | ((u64)cpu << KFT_TIME_BITS);
	e->fn = f->fn;
	e->site = f->site;
	e->delta = delta;
	e->pid = pid;
	kft_count(KFT_CNT_LOGGED);
}

static notrace void kft_log(struct kft_run *run, const struct kft_frame *f,
			    int pid, u32 delta, u64 now)
{
	kft_log_on(run, f, pid, delta, now, raw_smp_processor_id());
}

static notrace int kft_pid(void)
{
	return in_task() ? current->pid : -1;
}

void notrace kft_trigger(struct kft_run *run, enum kft_reason why,
			 unsigned long fn, u64 now)
{
	/* Hooks sit out the moment it takes to set the new time base. */
	if (raw_cmpxchg(&kft_state, KFT_PRIMED, KFT_STARTING) != KFT_PRIMED)
		return;
	if (!run->base_ns)
		run->base_ns = now;
	run->start_ns = now;
	run->start_reason = why;
	run->start_fn = fn;
	/* Frames of an earlier repeat must not pair with this one's exits. */
	WRITE_ONCE(run->gen, run->gen + 1);
	/* The time base is set before any hook can see the run logging. */
	smp_store_release(&kft_state, KFT_TRIGGERED);
}

void notrace kft_stop(struct kft_run *run, enum kft_reason why,
		      unsigned long fn, u64 now)
{
	int next = run->cfg.autorepeat && why != KFT_BY_FULL ?
		   KFT_PRIMED : KFT_COMPLETE;

	if (raw_cmpxchg(&kft_state, KFT_TRIGGERED, next) != KFT_TRIGGERED)
		return;
	run->stop_ns = now;
	run->stop_reason = why;
	run->stop_fn = fn;
	if (next == KFT_COMPLETE)
		kft_sites_disarmed();
}

static notrace struct kft_task *kft_task_stack(struct kft_run *run)
{
	struct kft_task *ks = &current->kft;
	u32 gen = READ_ONCE(run->gen);

	if (unlikely(ks->owner != current || ks->gen != gen)) {
		ks->owner = current;
		ks->gen = gen;
		ks->depth = 0;
	}
	return ks;
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

/* Which filter, if any, drops a finished call of len clock units. */
static notrace int kft_filtered(const struct kft_run *run, unsigned long fn,
				bool irq, u64 len)
{
	const struct kft_config *cfg = &run->cfg;

	if (cfg->noints && irq)
		return KFT_CNT_FILTER_NOINTS;
	if (cfg->onlyints && !irq)
		return KFT_CNT_FILTER_ONLYINTS;
	if (cfg->nfuncs && !kft_funclist_has(run, fn))
		return KFT_CNT_FILTER_FUNCLIST;
	if (len < run->min_len || (run->max_len && len > run->max_len))
		return KFT_CNT_FILTER_TIME;
	return -1;
}

static notrace void kft_frame_init(struct kft_frame *f, unsigned long fn,
				   unsigned long site, u64 now, u64 flags)
{
	f->entry_ns = now | flags | (in_task() ? 0 : KFT_FRAME_IRQ);
	f->fn = fn - kft_text_base;
	f->site = site - kft_text_base;
}

static notrace void kft_log_chain(struct kft_run *run,
				  const struct kft_task *ks,
				  const struct kft_frame *last, u64 now)
{
	u32 d, n = min_t(u32, ks->depth, CONFIG_KFT_STACK_DEPTH);

	for (d = 0; d < n; d++)
		kft_log(run, &ks->frames[d],
			(ks->frames[d].entry_ns & KFT_FRAME_IRQ) ? -1 :
			current->pid, KFT_DELTA_STACK, now);
	kft_log(run, last, kft_pid(), KFT_DELTA_STACK, now);
}

/*
 * watch stack / worst-stack: on entry with less task stack left than the
 * threshold, keep the whole call chain in the log, marked -2.  worst-stack
 * then lowers the threshold, so the last chain logged is the deepest.
 */
static notrace void kft_watch_stack(struct kft_run *run,
				    const struct kft_task *ks,
				    unsigned long fn, unsigned long site,
				    u64 now)
{
	unsigned long left = current_stack_pointer -
			     (unsigned long)task_stack_page(current);
	struct kft_frame f;

	if (left >= THREAD_SIZE)
		return;		/* on an interrupt stack */
	if (left < READ_ONCE(run->lowest_stack))
		WRITE_ONCE(run->lowest_stack, left);
	if (left >= READ_ONCE(run->watch_threshold))
		return;
	if (run->cfg.watch == KFT_WATCH_WORST_STACK)
		WRITE_ONCE(run->watch_threshold, left);
	kft_frame_init(&f, fn, site, now, 0);
	kft_log_chain(run, ks, &f, now);
}

static notrace void kft_enter(struct kft_run *run, unsigned long fn, unsigned long site, u64 now)
{
	const struct kft_config *cfg = &run->cfg;
	u64 flags = 0;
	struct kft_task *ks;
	struct kft_frame f;
	u32 d;

	if (READ_ONCE(kft_state) == KFT_PRIMED) {
		if (cfg->start.kind == KFT_TRIGGER_ENTRY &&
		    fn == cfg->start.fn.addr)
			kft_trigger(run, KFT_BY_ENTRY, fn, now);
		else if (cfg->start.kind == KFT_TRIGGER_TIME &&
			 now >= run->start_at)
			kft_trigger(run, KFT_BY_TIME, 0, now);
		if (READ_ONCE(kft_state) != KFT_TRIGGERED)
			return;
		if (cfg->start.kind == KFT_TRIGGER_ENTRY &&
		    fn == cfg->start.fn.addr)
			flags = KFT_FRAME_TRIGGER;
	}
	if (cfg->stop.kind == KFT_TRIGGER_TIME &&
	    (s64)(now - run->start_ns) >= (s64)run->stop_after) {
		kft_stop(run, KFT_BY_TIME, 0, now);
		return;
	}
	if (cfg->stop.kind == KFT_TRIGGER_ENTRY && fn == cfg->stop.fn.addr) {
		/* The stop event is logged; its exit comes after the run. */
		kft_frame_init(&f, fn, site, now, 0);
		kft_log(run, &f, kft_pid(), KFT_DELTA_OPEN, now);
		kft_stop(run, KFT_BY_ENTRY, fn, now);
		return;
	}

	ks = kft_task_stack(run);
	if (unlikely(cfg->watch != KFT_WATCH_NONE))
		kft_watch_stack(run, ks, fn, site, now);
	/* Claim the slot first: an interrupt here stacks above it. */
	d = ks->depth;
	ks->depth = d + 1;
	barrier();
	if (likely(d < CONFIG_KFT_STACK_DEPTH))
		kft_frame_init(&ks->frames[d], fn, site, now, flags);
	else
		kft_count(KFT_CNT_LOST_DEPTH);
}

/* Pop fn's frame into *f; false if the run never saw fn's entry. */
static notrace bool kft_pop(struct kft_task *ks, unsigned long fn,
			    struct kft_frame *f)
{
	s32 off = fn - kft_text_base;
	u32 d;

	if (!ks->depth) {
		kft_count(KFT_CNT_NOT_FOUND);
		return false;
	}
	if (ks->depth > CONFIG_KFT_STACK_DEPTH) {
		ks->depth--;		/* counted as lost when pushed */
		return false;
	}
	/*
	 * Exits come in LIFO order; if a frame's exit went missing, the
	 * frames above fn's are dropped with it.
	 */
	for (d = ks->depth; d > 0; d--) {
		if (ks->frames[d - 1].fn == off) {
			*f = ks->frames[d - 1];
			barrier();	/* copied before an interrupt may reuse it */
			ks->depth = d - 1;
			return true;
		}
	}
	kft_count(KFT_CNT_NOT_FOUND);
	return false;
}

static notrace void kft_exit(struct kft_run *run, unsigned long fn, unsigned long site, u64 now)
{
	const struct kft_config *cfg = &run->cfg;
	struct kft_frame f;
	bool stop_here;
	int why;

	if (unlikely(run->limits_provisional))	/* boot run, early */
		kft_run_set_limits(run);
	if (READ_ONCE(kft_state) == KFT_PRIMED) {
		if (cfg->start.kind == KFT_TRIGGER_EXIT &&
		    fn == cfg->start.fn.addr) {
			kft_trigger(run, KFT_BY_EXIT, fn, now);
			/* The start event is logged, as a call of no length. */
			kft_frame_init(&f, fn, site, now, 0);
			kft_log(run, &f, kft_pid(), 0, now);
		} else if (cfg->start.kind == KFT_TRIGGER_TIME &&
			   now >= run->start_at) {
			kft_trigger(run, KFT_BY_TIME, 0, now);
		}
		return;
	}
	if (cfg->stop.kind == KFT_TRIGGER_TIME &&
	    (s64)(now - run->start_ns) >= (s64)run->stop_after) {
		kft_stop(run, KFT_BY_TIME, 0, now);
		return;
	}

	stop_here = cfg->stop.kind == KFT_TRIGGER_EXIT &&
		    fn == cfg->stop.fn.addr;
	if (kft_pop(kft_task_stack(run), fn, &f)) {
		u64 len = now - (f.entry_ns & KFT_FRAME_NS);

		why = kft_filtered(run, fn, f.entry_ns & KFT_FRAME_IRQ, len);
		if (why < 0 || stop_here || (f.entry_ns & KFT_FRAME_TRIGGER))
			kft_log(run, &f,
				(f.entry_ns & KFT_FRAME_IRQ) ? -1 :
							       current->pid,
				kft_delta_encode(len), now);
		else
			kft_count(why);
	}
	if (stop_here)
		kft_stop(run, KFT_BY_EXIT, fn, now);
}

static __always_inline void kft_hook(void *fn, void *site, bool entry)
{
	struct kft_run *run;
	u64 now;

	/*
	 * Stay on this CPU; interrupts and NMIs may nest in a hook (they
	 * unwind before it resumes, and every step here is safe against
	 * that).  ->busy tells kft_sync() a CPU may still use the old run.
	 */
	preempt_disable_notrace();
	this_cpu_inc(kft_cpu.busy);
	run = READ_ONCE(kft_run);
	if (run && kft_state_armed(READ_ONCE(kft_state))) {
		now = kft_clock();
		if (entry)
			kft_enter(run, kft_arch_code_addr(fn),
				  kft_arch_code_addr(site), now);
		else
			kft_exit(run, kft_arch_code_addr(fn),
				 kft_arch_code_addr(site), now);
	}
	this_cpu_dec(kft_cpu.busy);
	preempt_enable_notrace();
}

void notrace __cyg_profile_func_enter(void *fn, void *site)
{
	if (likely(!kft_state_armed(READ_ONCE(kft_state))))
		return;
	kft_hook(fn, site, true);
}
EXPORT_SYMBOL(__cyg_profile_func_enter);

void notrace __cyg_profile_func_exit(void *fn, void *site)
{
	if (likely(!kft_state_armed(READ_ONCE(kft_state))))
		return;
	kft_hook(fn, site, false);
}
EXPORT_SYMBOL(__cyg_profile_func_exit);

static void kft_log_task_frames(struct kft_run *run, struct task_struct *t)
{
	struct kft_task *ks;
	u32 d, n;

	if (!t)
		return;
	ks = &t->kft;
	if (ks->owner != t || ks->gen != run->gen)
		return;
	n = min_t(u32, ks->depth, CONFIG_KFT_STACK_DEPTH);
	for (d = 0; d < n; d++) {
		const struct kft_frame *f = &ks->frames[d];
		bool irq = f->entry_ns & KFT_FRAME_IRQ;
		u64 so_far = run->stop_ns - (f->entry_ns & KFT_FRAME_NS);
		int why;

		/* Its length is unknown: mintime cannot judge it, the rest can. */
		why = kft_filtered(run, kft_addr(f->fn), irq, so_far);
		if (why >= 0 && !(why == KFT_CNT_FILTER_TIME &&
				  so_far < run->min_len)) {
			kft_count(why);
			continue;
		}
		/* Where it last ran: the CPU that entered it, unless it moved. */
		kft_log_on(run, f, irq ? -1 : t->pid, KFT_DELTA_OPEN, 0,
			   task_cpu(t));
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
