// SPDX-License-Identifier: GPL-2.0
/*
 * KFT's log on the console, for a boot that never reaches a shell to read
 * /proc/kft_data:
 *
 *   kft_dump=panic       when the kernel panics, stop the run and print it
 *   kft_dump=TIME        TIME after the kernel started (30s, 500ms, or
 *                        microseconds), stop the run and print it: for a
 *                        boot that hangs
 *   kft_dump=panic,TIME  both; a run is printed once
 *
 * The log is the text of /proc/kft_data (kft_log_text.c), each line behind
 * "kft_dump: " (several lines to a printk record), framed by
 * "kft_dump begin: run N ..." and "kft_dump end: run N, L lines" so that
 * the host tools can take it back out of a captured console and tell
 * whether lines were lost on the way (scripts/kft/console.c).  Lines are
 * printed at KERN_INFO: a panic makes the console verbose, and a timed
 * dump raises the console's level while it prints, as SysRq does.
 *
 * Dependencies: kft_config.c, kft_clock.c, kft.c, kft_finish.c, kft_run.c,
 * kft_log_text.c.
 *
 * No pr_fmt here, unlike KFT's other files: the dump's records and its
 * begin and end lines go out as they are, for the host tools, so the
 * messages about the dump say "kft: " themselves.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/nmi.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "kft_internal.h"

static bool kft_dump_at_panic;
static u64 kft_dump_at_ns;		/* since kernel start; 0: none */
static int kft_dump_done = -1;		/* id of the run printed last */

/* Static: a panic is no time to allocate.  Holds the header whole. */
static char kft_dump_buf[4096];
static struct seq_file kft_dump_seq = {
	.buf = kft_dump_buf,
	.size = sizeof(kft_dump_buf),
};

/*
 * Lines go out several to a printk record (the console prefixes each line
 * of a record alike): a dump of thousands of calls then takes a few
 * hundred records, not thousands.  On 32-bit arm, printk at panic time
 * was seen to stop for good once the records had gone round the ring.
 */
#define KFT_DUMP_RECORD		900	/* below printk's 1024-byte record */
static char kft_dump_rec[KFT_DUMP_RECORD];
static size_t kft_dump_rec_len;

/*
 * The console writes a record out with the time prefixed to each of its
 * lines, and before 6.7 formatted it into 1024 bytes (CONSOLE_LOG_MAX),
 * cutting what did not fit: a record's lines, prefixes counted, stay
 * within that.
 */
#define KFT_DUMP_CONSOLE	1024
#define KFT_DUMP_PREFIX		32	/* "[ 12345.123456] [T12345] " */
static size_t kft_dump_rec_console;

static void kft_dump_emit(void)
{
	if (!kft_dump_rec_len)
		return;
	pr_info("%.*s", (int)kft_dump_rec_len, kft_dump_rec);
	kft_dump_rec_len = 0;
	kft_dump_rec_console = 0;
	touch_nmi_watchdog();
}

static void kft_dump_line(const char *line, size_t len)
{
	static const char tag[] = "kft_dump: ";
	size_t need;

	len = min_t(size_t, len, KFT_DUMP_RECORD - sizeof(tag));
	need = sizeof(tag) - 1 + len + 1;
	if (kft_dump_rec_len + need > KFT_DUMP_RECORD ||
	    kft_dump_rec_console + need + KFT_DUMP_PREFIX > KFT_DUMP_CONSOLE)
		kft_dump_emit();
	kft_dump_rec_console += need + KFT_DUMP_PREFIX;
	memcpy(kft_dump_rec + kft_dump_rec_len, tag, sizeof(tag) - 1);
	memcpy(kft_dump_rec + kft_dump_rec_len + sizeof(tag) - 1, line, len);
	kft_dump_rec_len += need;
	kft_dump_rec[kft_dump_rec_len - 1] = '\n';
}

/* Queue what the seq_file holds, line by line; returns the lines. */
static unsigned long kft_dump_flush(struct seq_file *m, bool may_sleep)
{
	unsigned long lines = 0;
	char *p = m->buf, *end = m->buf + m->count, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		kft_dump_line(p, nl - p);
		lines++;
		p = nl + 1;
	}
	m->count = 0;
	if (may_sleep)
		cond_resched();
	return lines;
}

static void kft_dump_run(struct kft_run *run, const char *why, bool may_sleep)
{
	struct seq_file *m = &kft_dump_seq;
	unsigned long i, lines;

	pr_info("kft_dump begin: run %u, %lu calls, %s\n", run->id,
		run->nr_logged, why);
	m->count = 0;
	kft_log_text_header(m, run);
	if (seq_has_overflowed(m))
		pr_warn("kft: dump: header cut at %zu bytes\n", m->size);
	lines = kft_dump_flush(m, may_sleep);
	for (i = 0; i < run->nr_logged; i++) {
		kft_log_text_line(m, &run->log[i]);
		lines += kft_dump_flush(m, may_sleep);
	}
	kft_dump_emit();
	pr_info("kft_dump end: run %u, %lu lines\n", run->id, lines);
	kft_dump_done = run->id;
	/*
	 * A console with its own printing thread (6.18's PL011) prints after
	 * printk() returns: wait for it, up to a second without progress,
	 * so that a boot that then sleeps for ever still shows the end.
	 */
	if (may_sleep)
		pr_flush(1000, true);
}

static int kft_dump_panic(struct notifier_block *nb, unsigned long event,
			  void *msg)
{
	struct kft_run *run = READ_ONCE(kft_run);

	if (!run || (int)run->id == kft_dump_done)
		return NOTIFY_DONE;
	if (!kft_run_end_at_panic(run)) {
		pr_info("kft: dump: run %u: %s\n", run->id,
			run->start_reason ? "being changed, not printed" :
					    "never started");
		return NOTIFY_DONE;
	}
	kft_dump_run(run, "at panic", false);
	return NOTIFY_DONE;
}

static struct notifier_block kft_dump_panic_nb = {
	.notifier_call = kft_dump_panic,
	.priority = INT_MIN,	/* after those that print why */
};

static void kft_dump_timed(struct work_struct *work);
static DECLARE_DELAYED_WORK(kft_dump_work, kft_dump_timed);

/* Until kft_dump_at_ns, in jiffies; 0 once it has come. */
static unsigned long kft_dump_wait(void)
{
	u64 now = local_clock();

	if (now >= kft_dump_at_ns)
		return 0;
	return max(nsecs_to_jiffies(kft_dump_at_ns - now), 1UL);
}

static void kft_dump_timed(struct work_struct *work)
{
	unsigned long wait = kft_dump_wait();
	int loglevel = console_loglevel;
	struct kft_run *run;

	if (wait) {	/* early: jiffies ran slow while the clock was coarse */
		schedule_delayed_work(&kft_dump_work, wait);
		return;
	}
	mutex_lock(&kft_mutex);
	run = kft_run;
	if (!run || !run->start_reason || (int)run->id == kft_dump_done) {
		pr_info("kft: dump: %s\n", !run ? "no run to print" :
			(int)run->id == kft_dump_done ? "run printed already" :
			"the run never started");
		goto out;
	}
	if (kft_state_armed(READ_ONCE(kft_state)))
		kft_run_end(run, KFT_BY_DUMP);
	kft_run_finish(run);
	if (console_loglevel < CONSOLE_LOGLEVEL_DEFAULT)
		console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
	kft_dump_run(run, "at kft_dump= time", true);
	console_loglevel = loglevel;
out:
	mutex_unlock(&kft_mutex);
}

/* "panic", a time, or both, comma separated; nothing taken from a bad one. */
static int __init kft_dump_setup(char *str)
{
	bool at_panic = false;
	u64 at_ns = 0, ns;
	char *word;

	while (str && (word = strsep(&str, ",")) != NULL) {
		if (!strcmp(word, "panic")) {
			at_panic = true;
		} else if (!kft_parse_time(word, &ns) && ns) {
			at_ns = ns;
		} else {
			pr_warn("kft: kft_dump=: '%s' is not 'panic' or a time (30s, 500ms, usecs)\n",
				word);
			return -EINVAL;
		}
	}
	if (!at_panic && !at_ns) {
		pr_warn("kft: kft_dump= wants 'panic', a time, or both\n");
		return -EINVAL;
	}
	kft_dump_at_ns = at_ns;
	/* Now, not at an initcall: a boot may panic long before those. */
	if (at_panic && !kft_dump_at_panic)
		atomic_notifier_chain_register(&panic_notifier_list,
					       &kft_dump_panic_nb);
	kft_dump_at_panic |= at_panic;
	return 0;
}
early_param("kft_dump", kft_dump_setup);

static int __init kft_dump_start_timer(void)
{
	if (kft_dump_at_ns)
		schedule_delayed_work(&kft_dump_work, kft_dump_wait());
	return 0;
}
early_initcall(kft_dump_start_timer);
