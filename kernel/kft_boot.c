// SPDX-License-Identifier: GPL-2.0
/*
 * KFT boot runs: a run primed before start_kernel(), so that boot can be
 * traced from its first function to the first user program.  The run
 * comes from the kft= kernel parameter or, without one, from kftstatic.conf
 * compiled in by scripts/mkkftrun (CONFIG_KFT_STATIC_RUN); "kft=off" turns
 * the static run off for one boot.
 *
 * The architecture calls kft_boot_prime() right before start_kernel(),
 * when little of the kernel is set up:
 *  - no allocator: the run, its log and its parsed config are static;
 *  - per-CPU data is about to be copied: kft_early makes the full hooks
 *    use shared variables until early_initcall time, before other CPUs
 *    start; the fast paths wait for it too (KFT_SLOW_EARLY), but where
 *    the boot CPU's per-CPU base is valid from the start, or made so
 *    (KFT_ARCH_PERCPU_AT_START, kft_arch_boot_percpu()) they run from
 *    the first call, and the copies setup_per_cpu_areas() made of their
 *    data are cleared then;
 *  - no calibrated clock: the hooks read raw cycles and kft_run_finish()
 *    converts the log to ns once the rate is known (kft_limits_set()).
 * Function names are resolved with kallsyms, so static functions work.
 *
 * Dependencies: kft_config.c, kft_clock.c, kft.c, kft_sites.c, kft_run.c,
 * kft_syms.c.
 *
 * This file is not instrumented.
 */
#define pr_fmt(fmt) "kft: " fmt

#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/kft_boot.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/setup.h>

#include "kft_internal.h"

#ifdef kft_arch_boot_fdt	/* the arch reads kft= from its early device tree */
#include <linux/libfdt.h>
#endif

static struct kft_entry kft_boot_log[CONFIG_KFT_BOOT_LOG_ENTRIES];
static unsigned long kft_boot_funcs[KFT_BOOT_MAX_FUNCS];
static char kft_boot_mem[KFT_BOOT_ARENA] __aligned(sizeof(long));
static struct kft_arena kft_boot_arena = {
	.base = kft_boot_mem, .size = sizeof(kft_boot_mem),
};

static struct kft_run kft_boot_run;
static char kft_boot_cmdline[COMMAND_LINE_SIZE] __initdata;

/* What to say about the boot run: printk waits until it is safe to call. */
static char kft_boot_msg[192] __initdata;
static bool kft_boot_failed __initdata;

static __printf(2, 3) void __init kft_boot_say(bool failed,
						const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kft_boot_msg, sizeof(kft_boot_msg), fmt, ap);
	va_end(ap);
	kft_boot_failed = failed;
}

#ifdef kft_arch_boot_fdt
/* Property name of node path in the arch's early device tree, or NULL. */
static const void * __init kft_boot_fdt_prop(const char *path,
					     const char *name, int *len)
{
	const void *fdt = kft_arch_boot_fdt();
	int node;

	*len = 0;
	if (!fdt || fdt_check_header(fdt))
		return NULL;
	node = fdt_path_offset(fdt, path);
	return node < 0 ? NULL : fdt_getprop(fdt, node, name, len);
}
#endif

/*
 * The command line as setup_arch() will find it.  An arch that fills
 * boot_command_line only there says where its early device tree is
 * (kft_arch_boot_fdt()): its /chosen bootargs, else the built-in one.
 */
static const char * __init kft_boot_cmdline_src(void)
{
#ifdef kft_arch_boot_fdt
	const char *args = NULL;
	int len;

	if (!IS_ENABLED(CONFIG_CMDLINE_FORCE))
		args = kft_boot_fdt_prop("/chosen", "bootargs", &len);
	if (args && (len <= 0 || args[len - 1] || !args[0]))
		args = NULL;
	return args ? args : CONFIG_CMDLINE;
#else
	return boot_command_line;
#endif
}

#ifdef KFT_ARCH_BOOT_FDT_RATE
unsigned long kft_boot_fdt_khz __ro_after_init;

/*
 * The counter's rate from /cpus in the early device tree, in kHz, or 0.
 * The kernel reads it only in time_init() (riscv's timebase-frequency);
 * until then a boot run's limits would be provisional, and every call
 * would take the full hooks (KFT_SLOW_LIMITS).
 */
static unsigned long __init kft_boot_fdt_rate(void)
{
	const fdt32_t *rate;
	int len;

	rate = kft_boot_fdt_prop("/cpus", KFT_ARCH_BOOT_FDT_RATE, &len);
	return rate && len >= (int)sizeof(*rate) ?
	       fdt32_to_cpu(*rate) / 1000 : 0;
}
#endif

/* The value of the last kft= on the command line, or NULL. */
static char * __init kft_boot_param(void)
{
	char *args = kft_boot_cmdline, *param, *val, *found = NULL;

	strscpy(kft_boot_cmdline, kft_boot_cmdline_src(), sizeof(kft_boot_cmdline));
	while (*(args = skip_spaces(args))) {
		args = next_arg(args, &param, &val);
		if (!val && !strcmp(param, "--"))
			break;		/* the rest is for init */
		if (!strcmp(param, "kft"))
			found = val ? val : "";
	}
	return found;
}

static void __init kft_boot_error(const char *origin, int ret,
				  const struct kft_config_error *err)
{
	char what[KFT_ERROR_LEN];

	if (ret == -ENOMEM)
		kft_boot_say(true, "boot run (%s): line %u: config over %u KiB",
			     origin, err->line, KFT_BOOT_ARENA >> 10);
	else
		kft_boot_say(true, "boot run (%s): line %u: %s", origin,
			     err->line, kft_config_strerror(err, what,
							    sizeof(what)));
}

/* Parse, resolve and check the config into the static run. */
static int __init kft_boot_config(struct kft_run *run, const char *text,
				  const char *origin)
{
	struct kft_config *cfg = &run->cfg;
	struct kft_config_error err;
	int ret;

	ret = kft_config_parse_in(cfg, text, strlen(text), KFT_PARSE_STATIC,
				  &kft_boot_arena, &err);
	if (!ret)
		ret = kft_config_resolve(cfg, kft_resolve_name, run, &err);
	if (ret) {
		kft_boot_error(origin, ret, &err);
		return ret;
	}
	if (cfg->nfuncs > KFT_BOOT_MAX_FUNCS) {
		kft_boot_say(true, "boot run (%s): funclist longer than %u functions",
			     origin, KFT_BOOT_MAX_FUNCS);
		return -E2BIG;
	}
	return 0;
}

/* The boot run's text and origin; false if there is none. */
static bool __init kft_boot_source(const char **text, const char **origin)
{
	char *param = kft_boot_param();

	if (param) {
		if (!*param || !strcmp(param, "off"))
			return false;
		*text = param;
		*origin = "kft= parameter";
		return true;
	}
	if (!IS_ENABLED(CONFIG_KFT_STATIC_RUN))
		return false;
	*text = kft_static_run;
	*origin = kft_static_run_file;
	return true;
}

/* A CPU without the counter a boot run reads from the start: false. */
static bool __init kft_boot_clock_usable(void)
{
#ifdef kft_arch_boot_clock_usable
	return kft_arch_boot_clock_usable();
#else
	return true;
#endif
}

/* The counter when start_kernel() began, if usable: kft_boot_say_start(). */
static u64 kft_boot_start_cycles __initdata;
static bool kft_boot_started __initdata;

void __init kft_boot_prime(void)
{
	struct kft_run *run = &kft_boot_run;
	const char *text, *origin;

#ifdef kft_arch_boot_percpu	/* the boot CPU's per-CPU base, set early */
	kft_arch_boot_percpu();
#endif
#ifdef KFT_ARCH_BOOT_FDT_RATE
	kft_boot_fdt_khz = kft_boot_fdt_rate();
#endif
	kft_boot_started = kft_boot_clock_usable();
	if (kft_boot_started)
		kft_boot_start_cycles = kft_arch_cycles();
	/* No boot run: boot without calling the hooks at all. */
	if (!kft_boot_source(&text, &origin) ||
	    kft_boot_config(run, text, origin)) {
		kft_sites_boot(NULL);
		return;
	}
	if (!kft_boot_started) {
		kft_boot_say(true, "boot run (%s): this CPU has no cycle counter to time it",
			     origin);
		kft_sites_boot(NULL);
		return;
	}

	run->is_static = true;
	run->origin = origin;
	run->log = kft_boot_log;
	/* The static log is there anyway: without logentries, all of it. */
	run->capacity = ARRAY_SIZE(kft_boot_log);
	if (run->cfg.logentries_set && run->cfg.logentries < run->capacity)
		run->capacity = run->cfg.logentries;
	if (run->cfg.logentries_set && run->cfg.logentries > run->capacity)
		kft_boot_say(false, "boot run primed from %s; logentries cut to %lu",
			     origin, run->capacity);
	else
		kft_boot_say(false, "boot run primed from %s", origin);
	run->cfg.logentries = run->capacity;

	kft_clock_set_raw();
	run->clock_raw = true;
	run->base_ns = kft_clock();	/* boot run times count from here */
	kft_run_init(run, kft_boot_funcs);

	WRITE_ONCE(kft_early, true);
#ifndef KFT_ARCH_PERCPU_AT_START
	kft_limits_slow(run, KFT_SLOW_EARLY, 0);	/* off the fast paths */
#endif
	WRITE_ONCE(kft_run, run);
	/* The run is complete before a hook can see it armed. */
	kft_state_set(KFT_PRIMED);
	/* The sites it can do without: NOPs (kft_sites.c). */
	kft_sites_boot(run);
	if (run->cfg.start.kind == KFT_TRIGGER_NONE)
		kft_start(run, KFT_BY_BOOT, 0, run->base_ns);
}

/*
 * When start_kernel() began, on the printk clock (local_clock()), which
 * starts later: on arm64, riscv and arm in time_init(); on x86 it follows
 * the TSC's setup and then, where sched_clock() is not stable, the
 * timekeeping clock.  The time before its zero is in no timestamp of the
 * kernel log (arm64 under QEMU: 38 ms, a fifth of the boot); with this
 * line, the log's later times count from the kernel's start.  Said as
 * late as the initcalls go, for the clock's rate and base settle during
 * boot.  With or without a boot run.
 */
static int __init kft_boot_say_start(void)
{
	unsigned long khz = kft_arch_boot_cycles_khz();
	u64 since, now, at;
	bool before;
	u32 ns;

	if (!kft_boot_started || !khz)
		return 0;
	since = kft_cycles_to_ns(kft_arch_cycles() - kft_boot_start_cycles,
				 khz);
	now = local_clock();
	before = since > now;
	at = div_u64_rem(before ? since - now : now - since, NSEC_PER_SEC, &ns);
	pr_info("start_kernel() at %s%llu.%06u s on the printk clock\n",
		before ? "-" : "", (unsigned long long)at, (u32)(ns / NSEC_PER_USEC));
	return 0;
}
late_initcall_sync(kft_boot_say_start);

/*
 * Per-CPU areas are final and other CPUs not up yet: hooks may use them.
 * Where the fast paths ran from the start (KFT_ARCH_PERCPU_AT_START), the
 * boot CPU's per-CPU data was the template that setup_per_cpu_areas()
 * copied to every CPU: the others' copies of kft_cpu hold its counts and
 * its log chunk, and are cleared.  And printk is safe: say what happened
 * to the boot run.
 */
static int __init kft_boot_percpu_ready(void)
{
	struct kft_run *run = READ_ONCE(kft_run);
	unsigned long flags;
	int cpu;

	/* A hook in an interrupt may change run->slow too (limits). */
	local_irq_save(flags);
	for_each_possible_cpu(cpu)
		if (cpu != raw_smp_processor_id())
			memset(per_cpu_ptr(&kft_cpu, cpu), 0,
			       sizeof(struct kft_cpu));
	WRITE_ONCE(kft_early, false);
	if (run)
		kft_limits_slow(run, 0, KFT_SLOW_EARLY);
	local_irq_restore(flags);
	if (kft_boot_failed)
		kft_error("%s", kft_boot_msg);
	else if (kft_boot_msg[0])
		pr_info("%s\n", kft_boot_msg);
	return 0;
}
early_initcall(kft_boot_percpu_ready);

/* kft= is read before start_kernel(); this keeps it from init's environment. */
static int __init kft_boot_setup(char *str)
{
	return 1;
}
__setup("kft=", kft_boot_setup);
