// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks' own cost, step by step, on the host: kernel/kft.c and the rest
 * of the engine built as the host harness builds them (tests/unit/engine/),
 * optimised, and driven through one path a call can take.  bench/hooks.sh
 * runs it under callgrind, which counts instructions - the same count on
 * any machine, loaded or not - and reports instructions per call (entry
 * and exit hook together) for each path.
 *
 * usage: hooks PATH CALLS
 *   idle       no run armed (what a kernel without NOP sites pays; with
 *              them, a tail call's exit hook, whose site stays a call)
 *   primed     armed, waiting for a start trigger that never fires
 *   every      logging every call
 *   mintime    a filter mintime run, every call too short: dropped
 *   early      the same in a boot run before early_initcall where the
 *              arch does not define KFT_ARCH_PERCPU_AT_START (ARMv6):
 *              the full paths, shared counters (KFT_SLOW_EARLY)
 *   funclist   a funclist run, every call not in the list: dropped
 *   watch      as every, with a stack watch (off the fast path)
 * Each call is one of three nested calls, as kernel calls nest.
 */
#include <linux/kft_boot.h>

#include "kft_internal.h"

const char kft_static_run_file[] = "bench";
const char kft_static_run[] = "";

#ifdef CONFIG_KFT_NOP_SITES
/*
 * The hooks as a kernel with NOP sites (the default) builds them: only an
 * armed site calls them, so they skip the idle kernel's first state test.
 * Here every call stands for an armed site's.
 */
void kft_sites_boot(const struct kft_run *run) { }
void kft_sites_arm(const struct kft_run *run) { }
void kft_sites_disarmed(void) { }
#endif

static char stack1[THREAD_SIZE];
static struct task_struct t1 = { .pid = 101, .stack = stack1 };

static void *fn(int f)
{
	return (void *)(SHIM_TEXT + 0x1000UL * f);
}

static void load(const char *text)
{
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;

	if (kft_config_parse(&cfg, text, strlen(text), 0, &err) ||
	    kft_config_resolve(&cfg, kft_resolve_name, NULL, &err)) {
		fprintf(stderr, "hooks: config refused: line %u: %s\n",
			err.line, err.msg);
		exit(2);
	}
	run = kft_run_create(&cfg);
	if (!run)
		exit(2);
	mutex_lock(&kft_mutex);
	kft_run_install(run);
	mutex_unlock(&kft_mutex);
}

static void prime(void)
{
	mutex_lock(&kft_mutex);
	kft_run_prime();
	mutex_unlock(&kft_mutex);
}

/* Three nested calls, 100 ns apart. */
static noinline void calls(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		__cyg_profile_func_enter(fn(1), fn(1) + 0x10);
		shim_tsc += 100;
		__cyg_profile_func_enter(fn(2), fn(1) + 0x20);
		shim_tsc += 100;
		__cyg_profile_func_enter(fn(3), fn(2) + 0x20);
		shim_tsc += 100;
		__cyg_profile_func_exit(fn(3), fn(2) + 0x20);
		shim_tsc += 100;
		__cyg_profile_func_exit(fn(2), fn(1) + 0x20);
		shim_tsc += 100;
		__cyg_profile_func_exit(fn(1), fn(1) + 0x10);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *path, *config;
	} paths[] = {
		{ "idle", NULL },
		{ "primed", "new\ntrigger start entry fn_never\nend\n" },
		{ "every", "new\nlogentries 4000000\nend\n" },
		{ "mintime", "new\nfilter mintime 100\nend\n" },
		{ "early", "new\nfilter mintime 100\nend\n" },
		{ "funclist", "new\nfilter funclist fn_never fend\nend\n" },
		{ "watch", "new\nlogentries 4000000\nwatch stack 1\nend\n" },
	};
	unsigned int p;
	long n;

	if (argc != 3) {
		fprintf(stderr, "usage: hooks PATH CALLS\n");
		return 2;
	}
	n = atol(argv[2]) / 3;
	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++)
		if (!strcmp(argv[1], paths[p].path))
			break;
	if (p == sizeof(paths) / sizeof(paths[0]) || n < 0 ||
	    (paths[p].config && 3 * n > 4000000)) {
		fprintf(stderr, "hooks: unknown path '%s' or too many calls\n",
			argv[1]);
		return 2;
	}
	shim_add_symbol("fn_never", (unsigned long)fn(9));
	shim_tsc_khz = 1000000;
	shim_sched_clock = shim_tsc = 1000000000;
	shim_current = &t1;
	shim_sp = (unsigned long)t1.stack + THREAD_SIZE - 256;
	if (paths[p].config) {
		load(paths[p].config);
		prime();
	}
	if (!strcmp(paths[p].path, "early")) {	/* as kft_boot_prime() */
		WRITE_ONCE(kft_early, true);
		kft_limits_slow(kft_run, KFT_SLOW_EARLY, 0);
	}
	calls(n);
	return 0;
}
