// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel Function Trace: the hooks' call sites, NOPs while no run is armed.
 *
 * Every instrumented function calls both hooks.  With no run armed a hook
 * returns at once, but the two calls alone made an idle KFT kernel's
 * system calls take twice as long.  objtool --kft on x86, scripts/kftsites
 * elsewhere, lists the call sites (__kft_enter_loc, __kft_exit_loc); like
 * ftrace's mcount sites, they are NOPs while no run is armed:
 *
 *  - if no boot run is primed, every site becomes a NOP as soon as the
 *    architecture can write its text with plain stores (one CPU, interrupts
 *    off, then kft_arch_sites_early_done()): before start_kernel() (x86,
 *    riscv), or when its setup_arch() calls kft_boot_text_writable() (arm64,
 *    arm); else at early_initcall;
 *  - before a run is armed, every site becomes its call again, through
 *    the architecture's live patching (asm/kft.h: kft_arch_site_poke());
 *    or, for a run that can log only the functions it names, only their
 *    sites (kft_sites_choose()), and the others NOPs; a run that drops
 *    every short call leaves those of the functions that cannot run that
 *    long NOPs (kft_sites_nop_bounded());
 *  - once no run has been armed for two seconds, they become NOPs again:
 *    a run stopped and armed again at once costs no patching.  The end of
 *    a run starts the 1 s poll that decides this, and arming a run
 *    cancels it, so that KFT's own work is not in its logs.
 *
 * A site is changed only if it holds what it should: the call, or the NOP;
 * for a tail call to the exit hook, the jump, or the return it becomes
 * (kft_site_forms()).  Anything else is left alone and counted.  Sites in
 * init memory are left alone once it is freed.
 *
 * Modules have tables of their own (found by the module loader): a module
 * coming in while the sites are NOPs gets NOPs before it runs, and is
 * patched with the kernel from then on.  Its init code keeps the calls (it
 * runs once, and is freed).
 *
 * Dependencies: kft.c (the run's state, kft_mutex), which also tells this
 * file when a hook completes a run (kft_sites_disarmed()).
 */
#define pr_fmt(fmt) "kft: " fmt

#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kft_boot.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/kft.h>
#include <asm/sections.h>

#include "kft_internal.h"

/* As built, every site calls its hook. */
static bool kft_sites_live = true;
static unsigned int kft_sites_unused;	/* polls without a run armed */
/* Sites found holding neither the call nor the NOP, at the last change. */
static unsigned long kft_sites_skipped;
/* Sites that are calls after the last change. */
static unsigned long kft_sites_calls;

/*
 * The text whose sites the armed run needs, if not every site's: sorted,
 * apart (kft_sites_choose()).
 */
struct kft_text_range {
	unsigned long start, end;
};

static struct kft_text_range *kft_sites_ranges;
static unsigned int kft_sites_nranges;

/* The run the sites are armed for, while they are. */
static const struct kft_run *kft_sites_run;
/* Sites of bounded functions NOPs for it now (kft_sites_nop_bounded()). */
static unsigned long kft_sites_bounded_nops;
/* And for which run, how many: /proc/kft says so after its end too. */
static unsigned int kft_sites_bounded_id;
static unsigned long kft_sites_bounded_left;

static void kft_sites_poll(struct work_struct *work);
static DECLARE_DELAYED_WORK(kft_sites_work, kft_sites_poll);
static void kft_sites_kick(struct irq_work *work);
static DEFINE_IRQ_WORK(kft_sites_kick_work, kft_sites_kick);

struct kft_site_table {
	const unsigned long *start, *stop;
	void *hook;
};

static const struct kft_site_table kft_site_tables[] = {
	{ __start___kft_enter_loc, __stop___kft_enter_loc,
	  __cyg_profile_func_enter },
	{ __start___kft_exit_loc, __stop___kft_exit_loc,
	  __cyg_profile_func_exit },
};

/* Init memory (.init.text, and .exit.text on x86) is freed after boot. */
static bool kft_site_gone(unsigned long site)
{
	return system_state >= SYSTEM_FREEING_INITMEM &&
	       init_section_contains((void *)site, KFT_SITE_SIZE);
}

/* A module's init text keeps its calls: it runs once, then is freed. */
static bool kft_site_in_module_text(unsigned long site, struct module *mod)
{
#ifdef CONFIG_MODULES
	return within_module_mem_type(site, mod, MOD_TEXT);
#else
	return false;
#endif
}

/* A site holding neither the call nor the NOP: counted, the first named. */
static void kft_site_unexpected(unsigned long site, bool early)
{
	static unsigned int said;

	kft_sites_skipped++;
	if (!early && said < 3) {
		said++;
		pr_info("hook site %pS holds %*ph, left alone\n",
			(void *)site, KFT_SITE_SIZE, (void *)site);
	}
}

#ifdef KFT_ARCH_SITES_ALIAS
/*
 * The arch's live patching maps a page, writes one site, unmaps the page
 * and makes the caches coherent, for each of tens of thousands of sites:
 * under -icount, at early_initcall of a kft=off boot, 22 ms of arm64's
 * 197 ms, 12 ms of riscv64's 223 ms.  Instead (KFT_ARCH_SITES_ALIAS),
 * vmlinux's text and init text are mapped writable once, the sites written
 * through that mapping, and the text made fetchable once
 * (kft_arch_sites_alias_sync()).  Where CPUs run on meanwhile, a site is
 * one aligned store.  Modules' sites, and every site if the mapping
 * fails, go through kft_arch_site_poke().
 */
struct kft_text_alias {
	unsigned long start, end;	/* the text's pages */
	u8 *alias;			/* its writable mapping, or NULL */
	bool written;
};

static struct kft_text_alias kft_text_aliases[2];

static void kft_text_alias_map(struct kft_text_alias *a, unsigned long start,
			       unsigned long end)
{
	unsigned int i, n;
	struct page **pages;

	a->start = start & PAGE_MASK;
	a->end = PAGE_ALIGN(end);
	n = (a->end - a->start) >> PAGE_SHIFT;
	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return;
	for (i = 0; i < n; i++)
		pages[i] = pfn_to_page(PHYS_PFN(__pa_symbol(a->start +
							    i * PAGE_SIZE)));
	a->alias = vmap(pages, n, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
}

/* Before the sites change, where it may sleep; init text while it is there. */
static void kft_sites_alias_map(void)
{
	kft_text_alias_map(&kft_text_aliases[0], (unsigned long)_stext,
			   (unsigned long)_etext);
	if (system_state < SYSTEM_FREEING_INITMEM)
		kft_text_alias_map(&kft_text_aliases[1],
				   (unsigned long)_sinittext,
				   (unsigned long)_einittext);
}

static void kft_sites_alias_unmap(void)
{
	struct kft_text_alias *a;

	for (a = kft_text_aliases; a < kft_text_aliases + 2; a++) {
		if (a->alias)
			vunmap(a->alias);
		memset(a, 0, sizeof(*a));
	}
}

/* Write site through its text's alias; false if it has none. */
static bool kft_sites_alias_write(unsigned long site, const u8 *insn)
{
	struct kft_text_alias *a;
	u8 *to;
	u32 v __maybe_unused;

	for (a = kft_text_aliases; a < kft_text_aliases + 2; a++) {
		if (!a->alias || site < a->start ||
		    site + KFT_SITE_SIZE > a->end)
			continue;
		to = a->alias + (site - a->start);
#ifdef KFT_ARCH_SITES_STOP_MACHINE
		memcpy(to, insn, KFT_SITE_SIZE);	/* no CPU runs it */
#else
		BUILD_BUG_ON(sizeof(v) != KFT_SITE_SIZE);
		if (!IS_ALIGNED(site, sizeof(v)))
			return false;
		memcpy(&v, insn, sizeof(v));
		WRITE_ONCE(*(u32 *)to, v);
#endif
		a->written = true;
		return true;
	}
	return false;
}

/* After vmlinux's sites, by the CPU that wrote them. */
static void kft_sites_alias_sync(void)
{
	struct kft_text_alias *a;

	for (a = kft_text_aliases; a < kft_text_aliases + 2; a++) {
		if (a->written)
			kft_arch_sites_alias_sync(a->start, a->end);
		a->written = false;
	}
}
#else
static inline void kft_sites_alias_map(void) { }
static inline void kft_sites_alias_unmap(void) { }
static inline void kft_sites_alias_sync(void) { }
static inline bool kft_sites_alias_write(unsigned long site, const u8 *insn)
{
	return false;
}
#endif

/*
 * Whether site holds insn.  Not memcmp(): lib/string.c's is instrumented
 * (riscv, arm), and its hooks are still called while the sites change.
 */
static inline bool kft_site_holds(unsigned long site, const u8 *insn)
{
	const u8 *at = (const u8 *)site;
	unsigned int i;

	for (i = 0; i < KFT_SITE_SIZE; i++)
		if (at[i] != insn[i])
			return false;
	return true;
}

/*
 * A tail call to the exit hook - a jump, its function's last instruction,
 * which the hook returns from to the function's caller - cannot become a
 * NOP: while no run is armed it returns instead, by a jump here (the
 * return as the compiler makes it: a return thunk, where the kernel uses
 * one) or the architecture's own return.  An idle kernel's calls of a
 * function that ends so then skip the hook: 700,000 of x86_64's 3.2
 * million calls to the first user program.  Architectures whose tables
 * list tail calls say so with KFT_ARCH_SITE_TAILS, and encode them with
 * kft_arch_site_tail().
 */
noinline notrace void kft_site_ret(void)
{
}

#ifndef KFT_ARCH_SITE_TAILS
static inline bool kft_arch_site_tail(u8 *insn, unsigned long site, void *hook)
{
	return false;
}
#endif

/*
 * What to write at a site (want) and what it must hold for that (have):
 * the hook's call and the NOP, or for a tail call (found holding neither),
 * the jump to the hook and the return.
 */
static void kft_site_forms(const struct kft_site_table *t, unsigned long site,
			   bool live, u8 *want, u8 *have)
{
	kft_arch_site_insn(want, site, live ? t->hook : NULL);
	kft_arch_site_insn(have, site, live ? NULL : t->hook);
	if (t->hook != __cyg_profile_func_exit ||
	    kft_site_holds(site, have) || kft_site_holds(site, want))
		return;
	if (kft_arch_site_tail(want, site, live ? t->hook : NULL))
		kft_arch_site_tail(have, site, live ? NULL : t->hook);
}

/* Where an early write goes: the site itself, or a writable alias of it. */
#ifndef kft_arch_site_early_ptr
#define kft_arch_site_early_ptr(site)	((void *)(site))
#endif

/* Is site in the text the armed run needs (all of it: no ranges)? */
static bool kft_site_needed(unsigned long site)
{
	unsigned int lo = 0, hi = kft_sites_nranges;

	if (!kft_sites_ranges)
		return true;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (site < kft_sites_ranges[mid].start)
			hi = mid;
		else if (site >= kft_sites_ranges[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/* How sites are written. */
enum kft_patch {
	KFT_PATCH_EARLY,	/* one CPU, interrupts off, text writable */
	KFT_PATCH_LIVE,		/* the arch's live patching, other CPUs running */
	KFT_PATCH_STOPPED,	/* the same, every other CPU stopped: no sleeping */
};

/* Write insn at site, as how says; *n counts the sites queued. */
static void kft_site_write(unsigned long site, const u8 *insn,
			   enum kft_patch how, unsigned long *n)
{
	if (how == KFT_PATCH_EARLY) {
		memcpy(kft_arch_site_early_ptr(site), insn, KFT_SITE_SIZE);
		return;
	}
	if (!kft_sites_alias_write(site, insn))
		kft_arch_site_poke((void *)site, insn);
	if (!(++*n % 1024) && how == KFT_PATCH_LIVE)
		cond_resched();
}

/*
 * The sites of functions that run at most 256 instructions a call, each
 * function's own (scripts/kftsites --bounded-sites, in vmlinux.o on x86_64
 * and arm64; none elsewhere, nor in modules).  A run that drops every call
 * shorter than KFT_BOUNDED_MINTIME_NS cannot log theirs: 256 instructions
 * take less on any CPU Linux runs on, each a cache miss on a slow in-order
 * core - interrupts and preemption aside, whose time is other code's,
 * traced on its own.  Such a run leaves them NOPs and costs that much
 * less; its Calls count the hook calls that ran.  The functions it names
 * keep theirs (triggers, notunder), and a run that follows every call (a
 * funclist, a depth filter, a scope, a stack watch) keeps them all.
 */
#define KFT_BOUNDED_MINTIME_NS	(100 * NSEC_PER_USEC)

static bool kft_sites_skip_bounded(const struct kft_run *run)
{
	return __stop___kft_bounded_loc - __start___kft_bounded_loc > 0 &&
	       run->cfg.mintime_ns >= KFT_BOUNDED_MINTIME_NS &&
	       !run->cfg.nfuncs && !run->cfg.depth_set &&
	       !(run->slow & (KFT_SLOW_SCOPE | KFT_SLOW_WATCH));
}

/*
 * The functions a run names besides its funclist, whose sites it must
 * see: its triggers' and its notunder filter's, 0 for a trigger it has
 * not.  Into fns; how many.
 */
#define KFT_RUN_NAMED_MAX	(4 + KFT_MAX_NOTUNDER)

static unsigned int kft_run_named(const struct kft_run *run,
				  unsigned long fns[KFT_RUN_NAMED_MAX])
{
	unsigned int i, n = 0;

	fns[n++] = run->start_entry_fn;
	fns[n++] = run->start_exit_fn;
	fns[n++] = run->stop_entry_fn;
	fns[n++] = run->stop_exit_fn;
	for (i = 0; i < run->cfg.nnotunder && i < KFT_MAX_NOTUNDER; i++)
		fns[n++] = run->cfg.notunder[i].addr;
	return n;
}

/* The text of the functions a run names (no allocation: early boot too). */
struct kft_named {
	struct kft_text_range r[KFT_RUN_NAMED_MAX];
	unsigned int n;
};

/* False if a named function's text is not known (no bound then). */
static bool kft_named_collect(const struct kft_run *run, struct kft_named *nm)
{
	unsigned long fns[KFT_RUN_NAMED_MAX];
	unsigned int i, nfns = kft_run_named(run, fns);
	unsigned long size, off;

	nm->n = 0;
	for (i = 0; i < nfns; i++) {
		if (!fns[i])
			continue;
		if (!kallsyms_lookup_size_offset(fns[i], &size, &off) || !size)
			return false;
		nm->r[nm->n].start = fns[i] - off;
		nm->r[nm->n++].end = fns[i] - off + size;
	}
	return true;
}

static bool kft_named_has(const struct kft_named *nm, unsigned long site)
{
	unsigned int i;

	for (i = 0; i < nm->n; i++)
		if (site >= nm->r[i].start && site < nm->r[i].end)
			return true;
	return false;
}

/*
 * Once every site is a call for run: the bounded functions' NOPs again,
 * if the run can do without them, but for the functions it names.  A
 * site holding neither hook's call is left as it is.
 */
static void kft_sites_nop_bounded(const struct kft_run *run,
				  enum kft_patch how, unsigned long *n)
{
	u8 want[KFT_SITE_SIZE], have[KFT_SITE_SIZE];
	struct kft_named nm;
	const unsigned long *p;
	unsigned int i;

	if (!kft_sites_skip_bounded(run) || !kft_named_collect(run, &nm))
		return;
	for (p = __start___kft_bounded_loc; p < __stop___kft_bounded_loc; p++) {
		unsigned long site = *p;

		if (kft_site_gone(site) || kft_named_has(&nm, site))
			continue;
		for (i = 0; i < ARRAY_SIZE(kft_site_tables); i++) {
			kft_site_forms(&kft_site_tables[i], site, false, want,
				       have);
			if (kft_site_holds(site, have))
				break;
		}
		if (i == ARRAY_SIZE(kft_site_tables))
			continue;
		kft_site_write(site, want, how, n);
		kft_sites_bounded_nops++;
	}
	kft_sites_calls -= min(kft_sites_calls, kft_sites_bounded_nops);
	kft_sites_bounded_id = run->id;
	kft_sites_bounded_left = kft_sites_bounded_nops;
}

/*
 * Turn the sites of one table into their calls (live) or NOPs.  mod: the
 * module the table is of, NULL for vmlinux.  *n counts the sites queued.
 */
static void kft_sites_set_table(const struct kft_site_table *t,
				struct module *mod, bool live,
				enum kft_patch how, unsigned long *n)
{
	bool early = how == KFT_PATCH_EARLY, call;
	u8 want[KFT_SITE_SIZE], have[KFT_SITE_SIZE];
	const unsigned long *p;

	for (p = t->start; p < t->stop; p++) {
		unsigned long site = *p;

		if (mod ? !kft_site_in_module_text(site, mod) :
			  kft_site_gone(site))
			continue;
		call = live && kft_site_needed(site);
		kft_site_forms(t, site, call, want, have);
		if (!kft_site_holds(site, have)) {
			if (kft_site_holds(site, want))
				kft_sites_calls += call;
			else
				kft_site_unexpected(site, early);
			continue;
		}
		kft_sites_calls += call;
		kft_site_write(site, want, how, n);
	}
}

#ifdef CONFIG_MODULES
/* Loaded modules with sites; under kft_mutex. */
static LIST_HEAD(kft_sites_mods);

static void kft_sites_set_module(struct module *mod, bool live,
				 enum kft_patch how, unsigned long *n)
{
	const struct kft_site_table t[] = {
		{ mod->kft_enter_loc, mod->kft_enter_loc + mod->num_kft_enter_loc,
		  __cyg_profile_func_enter },
		{ mod->kft_exit_loc, mod->kft_exit_loc + mod->num_kft_exit_loc,
		  __cyg_profile_func_exit },
	};

	kft_sites_set_table(&t[0], mod, live, how, n);
	kft_sites_set_table(&t[1], mod, live, how, n);
}

static void kft_sites_set_modules(bool live, enum kft_patch how,
				  unsigned long *n)
{
	struct module *mod;

	list_for_each_entry(mod, &kft_sites_mods, kft_sites_list)
		kft_sites_set_module(mod, live, how, n);
}

static unsigned long kft_sites_in_modules(unsigned int *nr_mods)
{
	struct module *mod;
	unsigned long n = 0;

	*nr_mods = 0;
	list_for_each_entry(mod, &kft_sites_mods, kft_sites_list) {
		n += mod->num_kft_enter_loc + mod->num_kft_exit_loc;
		++*nr_mods;
	}
	return n;
}

/*
 * A module comes in with its sites calling the hooks, before any of its
 * code runs: NOPs if the kernel's are.  Going, it leaves the list before
 * its memory is freed.
 */
static int kft_sites_module(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct module *mod = data;
	unsigned long n = 0;

	if (!mod->num_kft_enter_loc && !mod->num_kft_exit_loc)
		return NOTIFY_DONE;
	mutex_lock(&kft_mutex);
	if (state == MODULE_STATE_COMING) {
		list_add_tail(&mod->kft_sites_list, &kft_sites_mods);
		/* NOPs, or the armed run's sites only (none of them, as a rule) */
		if (!kft_sites_live || kft_sites_ranges) {
			mutex_lock(&text_mutex);
			/* none of its code has run: no CPU to stop */
			kft_sites_set_module(mod, kft_sites_live, KFT_PATCH_LIVE,
					     &n);
			kft_arch_site_poke_done();
			mutex_unlock(&text_mutex);
		}
	} else if (state == MODULE_STATE_GOING &&
		   mod->kft_sites_list.next) {	/* we saw it coming */
		list_del(&mod->kft_sites_list);
		mod->kft_sites_list.next = NULL;
	}
	mutex_unlock(&kft_mutex);
	return NOTIFY_OK;
}

static struct notifier_block kft_sites_module_nb = {
	.notifier_call = kft_sites_module,
};

static void kft_sites_watch_modules(void)
{
	register_module_notifier(&kft_sites_module_nb);
}
#else
static void kft_sites_set_modules(bool live, enum kft_patch how,
				  unsigned long *n)
{
}

static void kft_sites_watch_modules(void) { }
static unsigned long kft_sites_in_modules(unsigned int *nr_mods)
{
	*nr_mods = 0;
	return 0;
}
#endif

/* Every site of vmlinux and of the modules loaded, as kft_sites_set_table(). */
static void kft_sites_set_all(bool live, enum kft_patch how)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(kft_site_tables); i++)
		kft_sites_set_table(&kft_site_tables[i], NULL, live, how, &n);
	kft_sites_bounded_nops = 0;
	if (live && kft_sites_run)
		kft_sites_nop_bounded(kft_sites_run, how, &n);
	if (how != KFT_PATCH_EARLY) {
		kft_sites_alias_sync();
		kft_sites_set_modules(live, how, &n);
	}
}

#ifdef KFT_ARCH_SITES_STOP_MACHINE
/*
 * An arch whose site instructions may not change under a running CPU
 * (riscv: an instruction may straddle 4 bytes) patches with the others
 * stopped: the last CPU in writes, the others wait for it, then every CPU
 * drops what it fetched (kft_arch_site_sync_local()).
 */
struct kft_sites_stop {
	bool live;
	atomic_t cpus;
};

static int kft_sites_set_stopped(void *data)
{
	struct kft_sites_stop *s = data;

	if (atomic_inc_return(&s->cpus) == num_online_cpus()) {
		kft_sites_set_all(s->live, KFT_PATCH_STOPPED);
		atomic_inc_return_release(&s->cpus);
	} else {
		while (atomic_read(&s->cpus) <= num_online_cpus())
			cpu_relax();
	}
	kft_arch_site_sync_local();
	return 0;
}

static void kft_sites_set_live(bool live)
{
	struct kft_sites_stop s = { .live = live, .cpus = ATOMIC_INIT(0) };

	kft_sites_alias_map();
	kft_arch_sites_stopping(true);
	stop_machine(kft_sites_set_stopped, &s, cpu_online_mask);
	kft_arch_sites_stopping(false);
	kft_sites_alias_unmap();
}
#else
static void kft_sites_set_live(bool live)
{
	kft_sites_alias_map();
	kft_sites_set_all(live, KFT_PATCH_LIVE);
	kft_sites_alias_unmap();
	kft_arch_site_poke_done();
}
#endif

static void kft_sites_set(bool live, bool early)
{
	kft_sites_skipped = 0;
	kft_sites_calls = 0;
	if (early)
		kft_sites_set_all(live, KFT_PATCH_EARLY);
	else
		kft_sites_set_live(live);
	WRITE_ONCE(kft_sites_live, live);
}

/*
 * For a boot run primed (run), every site stays a call, as built, but
 * those the run can do without (kft_sites_nop_bounded(): early, only they
 * are visited); with none, every site becomes a NOP.  As early as the
 * text can be written.
 */
static void __init kft_sites_boot_set(const struct kft_run *run, bool early)
{
	unsigned long n = 0;

	if (run && early) {
		kft_sites_bounded_nops = 0;
		kft_sites_nop_bounded(run, KFT_PATCH_EARLY, &n);
		return;
	}
	kft_sites_run = run;
	kft_sites_set(!!run, early);
	kft_sites_run = NULL;
}

#ifdef KFT_ARCH_SITES_BEFORE_START
void __init kft_sites_boot(const struct kft_run *run)
{
	if (run && !kft_sites_skip_bounded(run))
		return;
	kft_sites_boot_set(run, true);
	kft_arch_sites_early_done();
}
#else
static bool kft_sites_nop_early __initdata;
static bool kft_sites_boot_bounded __initdata;	/* kft_run's, not all */

void __init kft_sites_boot(const struct kft_run *run)
{
	if (run && !kft_sites_skip_bounded(run))
		return;
	kft_sites_nop_early = true;
	kft_sites_boot_bounded = !!run;
}

/* The boot run, if the early change is for it; NULL: every site a NOP. */
static const struct kft_run * __init kft_sites_boot_run(void)
{
	return kft_sites_boot_bounded ? READ_ONCE(kft_run) : NULL;
}

#ifdef KFT_ARCH_SITES_IN_SETUP_ARCH
/*
 * From setup_arch(), one CPU, interrupts off.  Until early_initcall an idle
 * kernel calls the hooks: 344,000 times on arm64 with GCC.
 */
void __init kft_boot_text_writable(void)
{
	if (!kft_sites_nop_early)
		return;
	kft_sites_nop_early = false;
	kft_sites_boot_set(kft_sites_boot_run(), true);
	kft_arch_sites_early_done();
}
#endif

/* Still one CPU, and no run can be armed before kft_proc's initcall. */
static int __init kft_sites_early(void)
{
	if (!kft_sites_nop_early)
		return 0;
	mutex_lock(&kft_mutex);
	mutex_lock(&text_mutex);
	kft_sites_boot_set(kft_sites_boot_run(), false);
	mutex_unlock(&text_mutex);
	mutex_unlock(&kft_mutex);
	return 0;
}
early_initcall(kft_sites_early);
#endif

/*
 * Which sites a run needs.  A run that can log only the functions it names
 * - a funclist, and no depth filter, scope or stack watch, which follow
 * every call - needs only their sites, its trigger functions' and its
 * notunder functions': the text of those functions, and of the parts the
 * compiler moved out of them (foo.cold: the hooks there are told foo), in
 * a kernel instrumented after inlining (KFT's plugin, or Clang), where a
 * function's sites are in its own text.  -finstrument-functions puts an
 * inlined function's in its callers'.  Named functions a module loaded
 * later holds are not in the funclist, whose addresses were resolved
 * before: that module's sites are all NOPs.
 */
#define KFT_SITES_IN_OWN_TEXT	(IS_ENABLED(CONFIG_KFT_AFTER_INLINING) || \
				 IS_ENABLED(CONFIG_CC_IS_CLANG))

static bool kft_sites_named_only(const struct kft_run *run)
{
	return KFT_SITES_IN_OWN_TEXT && run->cfg.nfuncs &&
	       !run->cfg.depth_set &&
	       !(run->slow & (KFT_SLOW_SCOPE | KFT_SLOW_WATCH));
}

/* The named functions and their text, as they are collected. */
struct kft_sites_choice {
	struct kft_text_range *r;
	unsigned int n, room;
	char (*names)[KSYM_NAME_LEN];	/* of r[0 .. nnames - 1] */
	unsigned int nnames;
	char buf[KSYM_NAME_LEN];
};

static bool kft_sites_add(struct kft_sites_choice *c, unsigned long start,
			  unsigned long size)
{
	if (c->n == c->room) {
		unsigned int room = max(2 * c->room, 64U);
		struct kft_text_range *r = kvmalloc_array(room, sizeof(*r),
							  GFP_KERNEL);

		if (!r)
			return false;
		if (c->r)
			memcpy(r, c->r, c->n * sizeof(*r));
		kvfree(c->r);
		c->r = r;
		c->room = room;
	}
	c->r[c->n].start = start;
	c->r[c->n].end = start + size;
	c->n++;
	return true;
}

/* A named function's text, its name kept for its moved-out parts. */
static bool kft_sites_add_fn(struct kft_sites_choice *c, unsigned long fn)
{
	unsigned long size, off;
	char *mod;

	if (!fn)
		return true;
	if (!kallsyms_lookup(fn, &size, &off, &mod, c->buf) || !size)
		return false;
	strscpy(c->names[c->nnames++], c->buf, KSYM_NAME_LEN);
	return kft_sites_add(c, fn - off, size);
}

/*
 * Is name a part moved out of a named function (its name, then .cold), or
 * code outlined from many (arm64's OUTLINED_FUNCTION_N), whose sites any
 * function may run?
 */
static bool kft_sites_moved_out(const struct kft_sites_choice *c,
				const char *name)
{
	const char *cold = strstr(name, ".cold");
	unsigned int i;

	if (str_has_prefix(name, "OUTLINED_FUNCTION_"))
		return true;
	if (!cold || cold == name)
		return false;
	for (i = 0; i < c->nnames; i++)
		if (!strncmp(c->names[i], name, cold - name) &&
		    !c->names[i][cold - name])
			return true;
	return false;
}

/* The moved-out parts of the named functions, by the sites in them. */
static bool kft_sites_add_parts(struct kft_sites_choice *c,
				const unsigned long *p, const unsigned long *end)
{
	unsigned long last_start = 0, last_end = 0, size, off;
	char *mod;

	for (; p < end; p++) {
		if (*p >= last_start && *p < last_end)
			continue;	/* the symbol just looked up */
		if (!kallsyms_lookup(*p, &size, &off, &mod, c->buf))
			continue;
		last_start = *p - off;
		last_end = last_start + size;
		if (kft_sites_moved_out(c, c->buf) &&
		    !kft_sites_add(c, last_start, size))
			return false;
	}
	return true;
}

static int kft_range_cmp(const void *a, const void *b)
{
	const struct kft_text_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static bool kft_sites_collect(struct kft_sites_choice *c,
			      const struct kft_run *run)
{
	unsigned long fns[KFT_RUN_NAMED_MAX];
	unsigned int nfns = kft_run_named(run, fns), i;
	struct module *mod __maybe_unused;

	c->names = kvmalloc_array(run->cfg.nfuncs + nfns, sizeof(*c->names),
				  GFP_KERNEL);
	if (!c->names)
		return false;
	for (i = 0; i < run->cfg.nfuncs; i++)
		if (!kft_sites_add_fn(c, run->funcs[i]))
			return false;
	for (i = 0; i < nfns; i++)
		if (!kft_sites_add_fn(c, fns[i]))
			return false;
	for (i = 0; i < ARRAY_SIZE(kft_site_tables); i++)
		if (!kft_sites_add_parts(c, kft_site_tables[i].start,
					 kft_site_tables[i].stop))
			return false;
#ifdef CONFIG_MODULES
	list_for_each_entry(mod, &kft_sites_mods, kft_sites_list) {
		if (!kft_sites_add_parts(c, mod->kft_enter_loc,
					 mod->kft_enter_loc + mod->num_kft_enter_loc) ||
		    !kft_sites_add_parts(c, mod->kft_exit_loc,
					 mod->kft_exit_loc + mod->num_kft_exit_loc))
			return false;
	}
#endif
	return true;
}

/*
 * The text whose sites run needs into kft_sites_ranges, or none (NULL:
 * every site) if it needs every site, or its functions' text cannot be
 * known (no memory, a function kallsyms does not know).
 */
static void kft_sites_choose(const struct kft_run *run)
{
	struct kft_sites_choice c = { };
	unsigned int i, n = 0;

	kvfree(kft_sites_ranges);
	kft_sites_ranges = NULL;
	kft_sites_nranges = 0;
	if (!kft_sites_named_only(run) || !kft_sites_collect(&c, run) ||
	    !c.n) {
		kvfree(c.r);
		kvfree(c.names);
		return;
	}
	kvfree(c.names);
	sort(c.r, c.n, sizeof(*c.r), kft_range_cmp, NULL);
	/* Apart: overlapping ranges (a function named twice) merged. */
	for (i = 1; i < c.n; i++) {
		if (c.r[i].start < c.r[n].end)
			c.r[n].end = max(c.r[n].end, c.r[i].end);
		else
			c.r[++n] = c.r[i];
	}
	kft_sites_ranges = c.r;
	kft_sites_nranges = n + 1;
}

/*
 * Before run is armed: the hooks are called again, at every site or the
 * sites it needs (kft_sites_choose()), the others NOPs.
 */
void kft_sites_arm(const struct kft_run *run)
{
	bool had_some = kft_sites_ranges || kft_sites_bounded_nops;

	lockdep_assert_held(&kft_mutex);
	cancel_delayed_work(&kft_sites_work);	/* not to run in this run */
	kft_sites_unused = 0;
	kft_sites_choose(run);
	if (kft_sites_live && !had_some && !kft_sites_ranges &&
	    !kft_sites_skip_bounded(run))
		return;
	kft_sites_bounded_left = 0;
	mutex_lock(&text_mutex);
	kft_sites_run = run;
	kft_sites_set(true, false);
	kft_sites_run = NULL;
	mutex_unlock(&text_mutex);
}

/*
 * A run is no longer armed: stopped, replaced, or its stop trigger fired
 * in a hook, in any context (NMI too), hence the irq_work.  Before the
 * scheduler runs, kft_sites_late() starts the poll instead.  From a hook,
 * the run is complete first (kft_stop()): irq_work_queue() is not
 * instrumented, but raising its interrupt runs code that is, whose hooks
 * find no run armed and return.  The build's check of what the hooks
 * reach stops at irq_work_queue() (scripts/Makefile.vmlinux_o).
 */
void notrace kft_sites_disarmed(void)
{
	if (system_state >= SYSTEM_SCHEDULING)
		irq_work_queue(&kft_sites_kick_work);
}

static void kft_sites_kick(struct irq_work *work)
{
	if (!kft_state_armed(READ_ONCE(kft_state)))	/* not armed again */
		schedule_delayed_work(&kft_sites_work, HZ);
}

/*
 * Every second from the end of a run: NOPs after two polls without a run
 * armed (none can be armed while kft_mutex is held).  Arming a run
 * cancels the poll; the end of that run starts it again.
 */
static void kft_sites_poll(struct work_struct *work)
{
	/* A run armed since: return before calling anything it would log. */
	if (kft_state_armed(READ_ONCE(kft_state)))
		return;
	mutex_lock(&kft_mutex);
	if (!kft_sites_live || kft_state_armed(READ_ONCE(kft_state))) {
		mutex_unlock(&kft_mutex);
		return;
	}
	if (++kft_sites_unused < 2) {
		schedule_delayed_work(&kft_sites_work, HZ);
	} else {
		mutex_lock(&text_mutex);
		kft_sites_set(false, false);
		mutex_unlock(&text_mutex);
	}
	mutex_unlock(&kft_mutex);
}

/* A boot run keeps the sites live; one that ended early started no poll. */
static int __init kft_sites_late(void)
{
	kft_sites_watch_modules();
	if (kft_sites_live)
		schedule_delayed_work(&kft_sites_work, HZ);
	return 0;
}
late_initcall(kft_sites_late);

void kft_sites_show(struct seq_file *m)
{
	unsigned long n = (__stop___kft_enter_loc - __start___kft_enter_loc) +
			  (__stop___kft_exit_loc - __start___kft_exit_loc);
	unsigned long in_mods;
	unsigned int nr_mods;

	lockdep_assert_held(&kft_mutex);
	in_mods = kft_sites_in_modules(&nr_mods);
	seq_printf(m, "hook sites: %lu, %s", n + in_mods,
		   kft_sites_live ? "calls" : "NOPs");
	if (kft_sites_live && kft_sites_ranges)
		seq_printf(m, " at %lu, the run's functions', NOPs elsewhere",
			   kft_sites_calls);
	if (kft_sites_live && kft_sites_bounded_nops)
		seq_printf(m, ", but %lu NOPs", kft_sites_bounded_nops);
	if (kft_sites_skipped)
		seq_printf(m, ", %lu left alone (unexpected code)",
			   kft_sites_skipped);
	if (nr_mods)
		seq_printf(m, ", %lu in %u module%s", in_mods, nr_mods,
			   nr_mods == 1 ? "" : "s");
	seq_putc(m, '\n');
	if (kft_sites_bounded_left && kft_run &&
	    kft_run->id == kft_sites_bounded_id)
		seq_printf(m, "hook sites left NOPs: %lu, for run %u, in functions too short for its mintime\n",
			   kft_sites_bounded_left, kft_sites_bounded_id);
}
