// SPDX-License-Identifier: GPL-2.0
/*
 * KFT run lifecycle: create a run from a config, install it in place of the
 * current one, prime/start/stop/clear it, stop it when code it names goes
 * away or the kernel panics, and count what it logged.
 *
 * Everything here runs in process context under kft_mutex, but for the
 * panic's stop.  The hooks (kft.c) take no lock; before this code frees or
 * resets a log it waits, in kft_sync() (kft.c), until no CPU can still be
 * inside a hook that saw the previous state.  Refusals are said here too
 * (kft_error()), for every front end: /proc/kft, boot runs, module
 * unloading.
 *
 * Dependencies: kft_config.c, kft_clock.c, kft.c, kft_sites.c,
 * kft_finish.c.  Used by kft_syms.c, kft_boot.c, kft_log_text.c,
 * kft_proc.c and kft_dump.c.
 */
#define pr_fmt(fmt) "kft: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "kft_internal.h"

static unsigned int kft_next_id;
static char kft_error_msg[192];

/*
 * Say why a config or command was refused: in the kernel log and /proc/kft,
 * one line.  Callers escape the user's bytes (kft_config_escape()); any
 * byte that is not printable ASCII left is shown as \xHH here.
 */
void kft_error(const char *fmt, ...)
{
	static const char hex[] = "0123456789abcdef";
	char raw[sizeof(kft_error_msg)];
	size_t i, n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	for (i = 0; raw[i]; i++) {
		unsigned char c = raw[i];

		if (c >= 0x20 && c < 0x7f) {
			kft_error_msg[n++] = c;
			continue;
		}
		if (n + 5 > sizeof(kft_error_msg))
			break;
		kft_error_msg[n++] = '\\';
		kft_error_msg[n++] = 'x';
		kft_error_msg[n++] = hex[c >> 4];
		kft_error_msg[n++] = hex[c & 15];
	}
	kft_error_msg[n] = '\0';
	pr_warn("%s\n", kft_error_msg);
}

/* The last refusal, until a config or command succeeds. */
const char *kft_last_error(void)
{
	return kft_error_msg;
}

void kft_error_clear(void)
{
	kft_error_msg[0] = '\0';
}

/* A new or cleared run's chunks and counters. */
static void kft_reset_cpus(void)
{
	int cpu, c;

	for_each_possible_cpu(cpu) {
		struct kft_cpu *kc = per_cpu_ptr(&kft_cpu, cpu);

		atomic_long_set(&kc->pos, 0);
		kc->end = 0;
		for (c = 0; c < KFT_CNT_NR; c++)
			atomic_long_set(&kc->cnt[c], 0);
	}
	for (c = 0; c < KFT_CNT_NR; c++)
		atomic_long_set(&kft_early_cnt[c], 0);
}

/*
 * The calls in a run's log: once finished, its length; while it logs, the
 * slots taken less what is left of each CPU's chunk (the hooks count none).
 */
static unsigned long kft_run_logged(const struct kft_run *run)
{
	unsigned long used, unused = 0;
	int cpu;

	if (!run)
		return 0;
	if (run->finished)
		return run->nr_logged;
	used = min_t(unsigned long, atomic_long_read(&run->next),
		     run->capacity);
	for_each_possible_cpu(cpu) {
		const struct kft_cpu *kc = per_cpu_ptr(&kft_cpu, cpu);
		unsigned long pos = atomic_long_read(&kc->pos);
		unsigned long end = READ_ONCE(kc->end);

		if (pos < end)	/* addresses of log slots */
			unused += (end - pos) / sizeof(struct kft_entry);
	}
	return used - min(used, unused);
}

unsigned long kft_run_counter(enum kft_counter c)
{
	unsigned long sum;
	int cpu;

	if (c == KFT_CNT_LOGGED)
		return kft_run_logged(READ_ONCE(kft_run));
	sum = atomic_long_read(&kft_early_cnt[c]);
	for_each_possible_cpu(cpu)
		sum += atomic_long_read(&per_cpu(kft_cpu, cpu).cnt[c]);
	return sum;
}

static int kft_cmp_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static void kft_run_free(struct kft_run *run);

/*
 * What a run needs besides its memory, wherever that comes from (kmalloc()
 * here, static for boot runs): its funclist sorted into funcs (room for
 * cfg.nfuncs), its filters in clock units, its stack watch.
 */
void kft_run_init(struct kft_run *run, unsigned long *funcs)
{
	unsigned int i;

	refcount_set(&run->ref, 1);
	if (run->cfg.nfuncs) {
		for (i = 0; i < run->cfg.nfuncs; i++)
			funcs[i] = run->cfg.funcs[i].addr;
		sort(funcs, run->cfg.nfuncs, sizeof(*funcs), kft_cmp_addr,
		     NULL);
		run->funcs = funcs;
	}
	run->slow = 0;
	if (run->cfg.noints || run->cfg.onlyints || run->cfg.nfuncs ||
	    run->cfg.depth_set || run->cfg.nnotunder)
		run->slow |= KFT_SLOW_FILTERS;
	if (run->cfg.pid_set || run->cfg.comm[0] || run->cfg.children)
		run->slow |= KFT_SLOW_SCOPE;
	if (run->cfg.nnotunder)
		run->slow |= KFT_SLOW_NOTUNDER;
	if (run->cfg.watch != KFT_WATCH_NONE)
		run->slow |= KFT_SLOW_WATCH;
	if (run->cfg.start.kind == KFT_TRIGGER_ENTRY)
		run->start_entry_fn = run->cfg.start.fn.addr;
	if (run->cfg.start.kind == KFT_TRIGGER_EXIT)
		run->start_exit_fn = run->cfg.start.fn.addr;
	if (run->cfg.stop.kind == KFT_TRIGGER_ENTRY)
		run->stop_entry_fn = run->cfg.stop.fn.addr;
	if (run->cfg.stop.kind == KFT_TRIGGER_EXIT)
		run->stop_exit_fn = run->cfg.stop.fn.addr;
	kft_limits_set(run);
	run->watch_threshold = run->cfg.watch_bytes;
	run->lowest_stack = ULONG_MAX;
}

/* Takes over cfg's contents (cfg is left empty), even on failure. */
struct kft_run *kft_run_create(struct kft_config *cfg)
{
	unsigned long *funcs = NULL;
	struct kft_run *run;
	size_t size;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		kft_config_free(cfg);
		return NULL;
	}
	run->cfg = *cfg;
	kft_config_init(cfg);
	/* Big and asked for by a user: fail quietly, never OOM-kill for it. */
	if (run->cfg.nfuncs) {
		funcs = kvmalloc_array(run->cfg.nfuncs, sizeof(*funcs),
				       GFP_KERNEL | __GFP_NOWARN);
		if (!funcs)
			goto fail;
	}
	kft_run_init(run, funcs);
	run->capacity = run->cfg.logentries;
	size = array_size(run->capacity, sizeof(*run->log));
	/*
	 * More than the kernel could free for it: refused at once, not after
	 * reclaiming all it can, which stalls a small board for minutes.
	 */
	if (size >> PAGE_SHIFT > (unsigned long)max_t(long, si_mem_available(), 0))
		goto fail;
	run->log = __vmalloc(size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
			     __GFP_RETRY_MAYFAIL);
	if (!run->log)
		goto fail;
	return run;
fail:
	kft_run_free(run);
	return NULL;
}

/* Readers of /proc/kft_data hold a reference across read() calls. */
struct kft_run *kft_run_get(void)
{
	struct kft_run *run = kft_run;

	lockdep_assert_held(&kft_mutex);
	if (run)
		refcount_inc(&run->ref);
	return run;
}

void kft_run_put(struct kft_run *run)
{
	if (run && refcount_dec_and_test(&run->ref))
		kft_run_free(run);
}

static void kft_run_free(struct kft_run *run)
{
	kvfree(run->cfg_text);
	if (run->is_static)
		return;
	vfree(run->log);
	kvfree(run->funcs);
	kft_config_free(&run->cfg);
	kfree(run);
}

/* Replace the current run, which may be logging on other CPUs right now. */
void kft_run_install(struct kft_run *run)
{
	struct kft_run *old = kft_run;
	bool was_armed;

	lockdep_assert_held(&kft_mutex);
	was_armed = kft_state_armed(kft_state);
	kft_state_set(KFT_NONE);
	kft_sync();
	kft_reset_cpus();
	run->id = ++kft_next_id;
	WRITE_ONCE(kft_run, run);
	/*
	 * The hooks take an armed state to mean a run: one that read no run
	 * yet (the first install) leaves before the state can change.
	 */
	if (!old)
		kft_sync();
	kft_state_set(KFT_CONFIGURED);
	kft_run_put(old);
	if (was_armed)
		kft_sites_disarmed();
}

/* Configured to primed: the hooks are called again, then see the run. */
static void kft_run_arm(struct kft_run *run)
{
	kft_sites_arm(run);
	kft_clock_setup();
	kft_clock_run(run);
	kft_state_set(KFT_PRIMED);
}

/* The installed run (*run), if it may be armed; else why not. */
static int kft_run_armable(struct kft_run **run)
{
	lockdep_assert_held(&kft_mutex);
	*run = kft_run;
	if (!*run)
		return -ENOENT;
	return (*run)->names_gone ? -ESTALE : 0;
}

int kft_run_prime(void)
{
	struct kft_run *run;
	int err = kft_run_armable(&run);

	if (err)
		return err;
	if (kft_state != KFT_CONFIGURED)
		return -EBUSY;
	kft_run_arm(run);
	if (run->cfg.start.kind == KFT_TRIGGER_NONE)
		kft_start(run, KFT_BY_USER, 0, kft_clock());
	return 0;
}

int kft_run_start(void)
{
	struct kft_run *run;
	int err = kft_run_armable(&run);

	if (err)
		return err;
	if (kft_state == KFT_CONFIGURED)
		kft_run_arm(run);
	if (kft_state != KFT_PRIMED)
		return -EBUSY;
	kft_start(run, KFT_BY_USER, 0, kft_clock());
	return 0;
}

/* Stop an armed run, for why: user action, unloading a module, kft_dump=. */
int kft_run_end(struct kft_run *run, enum kft_reason why)
{
	lockdep_assert_held(&kft_mutex);
	for (;;) {
		if (kft_state_move(KFT_TRIGGERED, KFT_COMPLETE)) {
			run->stop_ns = kft_clock();
			run->stop_reason = why;
			run->stop_fn = 0;
			break;
		}
		if (kft_state_move(KFT_PRIMED, KFT_COMPLETE))
			break;
		/* Starting: a trigger is firing; anything else is not armed. */
		if (READ_ONCE(kft_state) != KFT_STARTING)
			return -EINVAL;
		cpu_relax();
	}
	kft_sync();
	kft_sites_disarmed();
	return 0;
}

int kft_run_stop(void)
{
	lockdep_assert_held(&kft_mutex);
	if (!kft_run)
		return -ENOENT;
	return kft_run_end(kft_run, KFT_BY_USER);
}

/*
 * The kernel is panicking (kft_dump=panic): the other CPUs are stopped,
 * maybe inside a hook or holding kft_mutex.  Stop the run and make its log
 * readable without waiting for either, and leave the call sites as they
 * are: patching code is no job for a dying kernel.  False if the log
 * cannot be read: the run never started, or is mid-change.
 */
bool kft_run_end_at_panic(struct kft_run *run)
{
	if (mutex_is_locked(&kft_mutex) || !run->start_reason)
		return false;
	if (kft_state_move(KFT_TRIGGERED, KFT_COMPLETE)) {
		run->stop_ns = kft_clock();
		run->stop_reason = KFT_BY_PANIC;
		run->stop_fn = 0;
	} else if (!kft_state_move(KFT_PRIMED, KFT_COMPLETE) &&
		   READ_ONCE(kft_state) != KFT_COMPLETE) {
		return false;	/* a CPU was stopped inside kft_start() */
	}
	if (!run->finished)
		kft_run_finish_log(run);
	return true;
}

static bool kft_fref_gone(const struct kft_fref *f, kft_gone_fn gone,
			  const void *arg)
{
	return f->addr && gone(f->addr, arg);
}

static bool kft_trigger_gone(const struct kft_trigger *t, kft_gone_fn gone,
			     const void *arg)
{
	return (t->kind == KFT_TRIGGER_ENTRY || t->kind == KFT_TRIGGER_EXIT) &&
	       kft_fref_gone(&t->fn, gone, arg);
}

/*
 * Code is going away (a module unloading), and other code may later load
 * at its addresses.  If the run names a function there (gone() says which
 * addresses), it is stopped if armed and refused prime and start until a
 * new config replaces it: it could only fire or filter on the wrong
 * function.  Returns whether the run named one.
 */
bool kft_run_forget(kft_gone_fn gone, const void *arg)
{
	struct kft_run *run = kft_run;
	unsigned int i;
	bool named;

	lockdep_assert_held(&kft_mutex);
	if (!run || run->names_gone)
		return false;
	named = kft_trigger_gone(&run->cfg.start, gone, arg) ||
		kft_trigger_gone(&run->cfg.stop, gone, arg);
	for (i = 0; !named && i < run->cfg.nfuncs; i++)
		named = kft_fref_gone(&run->cfg.funcs[i], gone, arg);
	for (i = 0; !named && i < run->cfg.nnotunder; i++)
		named = kft_fref_gone(&run->cfg.notunder[i], gone, arg);
	if (!named)
		return false;
	run->names_gone = true;
	if (kft_state_armed(READ_ONCE(kft_state)))
		kft_run_end(run, KFT_BY_UNLOAD);
	return true;
}

/* Empty the log and go back to configured, keeping the config. */
int kft_run_clear(void)
{
	struct kft_run *run = kft_run;

	lockdep_assert_held(&kft_mutex);
	if (!run)
		return -ENOENT;
	if (kft_state_armed(READ_ONCE(kft_state)))
		return -EBUSY;
	kft_sync();
	kft_reset_cpus();
	memset(run->log, 0, array_size(run->capacity, sizeof(*run->log)));
	atomic_long_set(&run->next, 0);
	run->base_ns = 0;
	run->start_ns = 0;
	run->stop_ns = 0;
	run->start_reason = KFT_BY_NONE;
	run->stop_reason = KFT_BY_NONE;
	run->nr_logged = 0;
	run->finished = false;
	run->clock_raw = false;		/* a cleared boot run: ns from now on */
	kft_limits_set(run);
	run->watch_threshold = run->cfg.watch_bytes;
	run->lowest_stack = ULONG_MAX;
	kft_state_set(KFT_CONFIGURED);
	return 0;
}
