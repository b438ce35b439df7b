// SPDX-License-Identifier: GPL-2.0
/*
 * A run's log as text, in the original KFT's format: a header (the run,
 * why it started and stopped, its filters' counters), then one line per
 * logged call.  /proc/kft_data reads it through a seq_file, and so does
 * kft_dump= on the console (kft_dump.c).
 *
 * Dependencies: kft_clock.c, kft_run.c.  Used by kft_proc.c, kft_dump.c.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "kft_internal.h"

static void kft_show_reason(struct seq_file *m, enum kft_reason why,
			    unsigned long fn, u64 time_ns)
{
	switch (why) {
	case KFT_BY_USER:
		seq_puts(m, "user action");
		break;
	case KFT_BY_ENTRY:
		seq_printf(m, "entry to function %ps", (void *)fn);
		break;
	case KFT_BY_EXIT:
		seq_printf(m, "exit from function %ps", (void *)fn);
		break;
	case KFT_BY_TIME:
		seq_printf(m, "time at %llu usec", div_u64(time_ns, 1000));
		break;
	case KFT_BY_FULL:
		seq_puts(m, "log full");
		break;
	case KFT_BY_BOOT:
		seq_puts(m, "kernel start");
		break;
	case KFT_BY_UNLOAD:
		seq_puts(m, "unloading a module it names");
		break;
	case KFT_BY_PANIC:
		seq_puts(m, "kernel panic");
		break;
	case KFT_BY_DUMP:
		seq_puts(m, "kft_dump= time");
		break;
	default:
		seq_puts(m, "nothing");
		break;
	}
}

void kft_log_text_times(struct seq_file *m, const struct kft_run *run)
{
	u64 start = kft_time_ns(run, run->start_ns);
	u64 stop = kft_time_ns(run, run->stop_ns);

	if (run->start_reason) {
		seq_printf(m, "Logging started at %llu usec by ",
			   div_u64(start, 1000));
		kft_show_reason(m, run->start_reason, run->start_fn, start);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not started\n");
	}
	if (run->stop_reason) {
		seq_printf(m, "Logging stopped at %llu usec by ",
			   div_u64(stop, 1000));
		kft_show_reason(m, run->stop_reason, run->stop_fn, stop);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not stopped\n");
	}
}

/* The header's name of each filter's counter, in the original's words. */
static const char *const kft_filter_names[] = {
	[KFT_CNT_FILTER_TIME] = "Execution time",
	[KFT_CNT_FILTER_NOINTS] = "No Interrupt functions",
	[KFT_CNT_FILTER_ONLYINTS] = "Only Interrupt functions",
	[KFT_CNT_FILTER_FUNCLIST] = "Function List",
	[KFT_CNT_FILTER_PID] = "Pid",
	[KFT_CNT_FILTER_COMM] = "Comm",
	[KFT_CNT_FILTER_CHILDREN] = "Children",
	[KFT_CNT_FILTER_DEPTH] = "Depth",
	[KFT_CNT_FILTER_NOTUNDER] = "Notunder",
};

/* Does the config use the filter counted by c? */
static bool kft_filter_given(const struct kft_config *cfg, int c)
{
	switch (c) {
	case KFT_CNT_FILTER_TIME:	return cfg->mintime_ns || cfg->maxtime_ns;
	case KFT_CNT_FILTER_NOINTS:	return cfg->noints;
	case KFT_CNT_FILTER_ONLYINTS:	return cfg->onlyints;
	case KFT_CNT_FILTER_FUNCLIST:	return cfg->nfuncs;
	case KFT_CNT_FILTER_PID:	return cfg->pid_set;
	case KFT_CNT_FILTER_COMM:	return cfg->comm[0];
	case KFT_CNT_FILTER_CHILDREN:	return cfg->children;
	case KFT_CNT_FILTER_DEPTH:	return cfg->depth_set;
	case KFT_CNT_FILTER_NOTUNDER:	return cfg->nnotunder;
	}
	return false;
}

/* ps as ns with a decimal. */
static void kft_show_ps(struct seq_file *m, u32 ps, const char *what)
{
	seq_printf(m, "%u.%u ns %s", ps / 1000, ps % 1000 / 100, what);
}

/*
 * What one call's hooks cost (kft_calibrate.c), for kd to take off the
 * logged times with each call's Calls and Logged columns.
 */
static void kft_show_cost(struct seq_file *m, const struct kft_run *run)
{
	seq_puts(m, "Hook cost = ");
	if (run->cal_refused) {
		/* Best to median: what the refused repeats measured. */
		seq_puts(m, "not calibrated (untrusted repeats: ");
		kft_show_ps(m, run->cal_range_ps[KFT_COST_DROPPED][0], "to ");
		kft_show_ps(m, run->cal_range_ps[KFT_COST_DROPPED][1], "dropped, ");
		kft_show_ps(m, run->cal_range_ps[KFT_COST_LOGGED][0], "to ");
		kft_show_ps(m, run->cal_range_ps[KFT_COST_LOGGED][1], "logged)\n");
		return;
	}
	if (!run->calibrated) {
		seq_puts(m, "not calibrated\n");
		return;
	}
	kft_show_ps(m, run->cost_ps[KFT_COST_DROPPED], "dropped, ");
	kft_show_ps(m, run->cost_ps[KFT_COST_LOGGED], "logged, ");
	kft_show_ps(m, run->cost_ps[KFT_COST_OWN], "own\n");
}

/*
 * How the cost was measured: the hooks in a loop, back to back, on one
 * CPU at one clock rate (kft_calibrate.c); it holds for that CPU.
 */
static void kft_show_calibration(struct seq_file *m,
				 const struct kft_run *run)
{
	if (!run->calibrated && !run->cal_refused)
		return;
	seq_printf(m, "Calibrated on CPU %d, back to back, ", run->cal_cpu);
	if (run->cal_khz)
		seq_printf(m, "cycle counter at %u kHz", run->cal_khz);
	else
		seq_puts(m, "sched_clock()");
	if (run->cal_after_ns != U64_MAX)
		seq_printf(m, ", %llu ms after the stop",
			   div_u64(run->cal_after_ns, NSEC_PER_MSEC));
	seq_putc(m, '\n');
}

void kft_log_text_header(struct seq_file *m, const struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	unsigned long filtered = 0;
	int c;

	seq_printf(m, "\nKernel Instrumentation Run ID %u\n\n", run->id);
	/* Lets addr2sym undo KASLR with an unrandomised System.map. */
	seq_printf(m, "Kernel text base 0x%lx\n", kft_text_base);
	kft_log_text_times(m, run);
	if (cfg->mintime_ns)
		seq_printf(m, "\n%llu usecs minimum execution time\n",
			   div_u64(cfg->mintime_ns, 1000));
	if (cfg->maxtime_ns)
		seq_printf(m, "%llu usecs maximum execution time\n",
			   div_u64(cfg->maxtime_ns, 1000));
	seq_puts(m, "\nFilter Counters:\n\n");
	for (c = KFT_CNT_FILTER_TIME; c <= KFT_CNT_FILTER_NOTUNDER; c++) {
		if (kft_filter_given(cfg, c))
			seq_printf(m, "%s filter count = %lu\n",
				   kft_filter_names[c], kft_run_counter(c));
		filtered += kft_run_counter(c);
	}
	seq_printf(m, "Total entries filtered = %lu\n", filtered);
	seq_printf(m, "Entries not found = %lu\n",
		   kft_run_counter(KFT_CNT_NOT_FOUND));
	seq_printf(m, "Entries lost = %lu\n",
		   kft_run_counter(KFT_CNT_LOST_FULL) +
		   kft_run_counter(KFT_CNT_LOST_DEPTH));
	if (cfg->watch != KFT_WATCH_NONE && run->lowest_stack != ULONG_MAX)
		seq_printf(m, "Lowest stack seen = %lu bytes left\n",
			   run->lowest_stack);
	if (run->finished) {
		kft_show_cost(m, run);
		kft_show_calibration(m, run);
	}
	seq_printf(m, "\nNumber of entries after filters = %lu\n\n\n",
		   run->nr_logged);
	if (kft_state_armed(READ_ONCE(kft_state))) {
		seq_puts(m, "Run still armed: write 'stop' to /proc/kft to read its log\n");
		return;
	}
	seq_printf(m, "%12s %12s %6s %18s %18s %4s %10s %8s\n",
		   "Entry", "Delta", "PID", "Function", "Caller", "CPU",
		   "Calls", "Logged");
	seq_puts(m, "------------ ------------ ------ ------------------ ------------------ ---- ---------- --------\n");
}

void kft_log_text_line(struct seq_file *m, const struct kft_entry *e)
{
	u64 t = e->time_cpu & KFT_TIME_MASK;
	unsigned int cpu = e->time_cpu >> KFT_TIME_BITS;
	char delta[24];
	u32 rem;
	u64 us;

	if (e->delta == KFT_DELTA_OPEN) {
		strscpy(delta, "-1", sizeof(delta));
	} else if (e->delta == KFT_DELTA_STACK) {
		strscpy(delta, "-2", sizeof(delta));
	} else if (e->delta & KFT_DELTA_US) {
		snprintf(delta, sizeof(delta), "%u.000",
			 e->delta & ~KFT_DELTA_US);
	} else {
		us = div_u64_rem(e->delta, 1000, &rem);
		snprintf(delta, sizeof(delta), "%llu.%03u", us, rem);
	}
	us = div_u64_rem(t, 1000, &rem);
	seq_printf(m, "%8llu.%03u %12s %6d 0x%016lx 0x%016lx %4u %10u %8u\n",
		   us, rem, delta, e->pid, kft_addr(e->fn), kft_addr(e->site),
		   cpu, kft_inner_calls(e->inner), kft_inner_logged(e->inner));
}
