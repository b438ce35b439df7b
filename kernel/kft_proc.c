// SPDX-License-Identifier: GPL-2.0
/*
 * KFT user interface: /proc/kft (configure, command, status) and
 * /proc/kft_data (the log), in the formats of the original KFT.
 *
 * A config may come in many writes ("new" ... "end"); it is parsed and
 * resolved as a whole, and only a config that passes replaces the current
 * run.  A refused write returns -EINVAL and says why, with the line and the
 * token, in the kernel log and in /proc/kft.
 *
 * Dependencies: kft_config.c, kft_clock.c, kft_sites.c, kft_run.c,
 * kft_log_text.c.
 */
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kft_internal.h"

#define KFT_WRITE_MAX	(4U << 20)	/* a whole config, funclist included */

static char *kft_pending;		/* a config still waiting for "end" */
static size_t kft_pending_len;
static void kft_config_error(const struct kft_config_error *err)
{
	char what[KFT_ERROR_LEN];

	kft_error("line %u: %s", err->line,
		  kft_config_strerror(err, what, sizeof(what)));
}

static int kft_load_config(const char *text, size_t len)
{
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;
	int ret;

	ret = kft_config_parse(&cfg, text, len, 0, &err);
	if (!ret) {
		ret = kft_config_resolve(&cfg, kft_resolve_name, NULL, &err);
		if (ret)
			kft_config_free(&cfg);
	}
	if (ret) {
		kft_config_error(&err);
		return -EINVAL;
	}
	run = kft_run_create(&cfg);
	if (!run) {
		kft_error("no memory for a log of %lu entries",
			  cfg.logentries);
		return -ENOMEM;
	}
	kft_run_install(run);
	kft_error_clear();
	return 0;
}

static int kft_command(const char *cmd)
{
	static const struct {
		const char *word;
		int (*fn)(void);
		const char *refused;
	} cmds[] = {
		{ "prime", kft_run_prime, "run is not in the configured state" },
		{ "start", kft_run_start, "run is not configured or primed" },
		{ "stop", kft_run_stop, "no run is primed or triggered" },
		{ "clear", kft_run_clear, "stop the run before clearing it" },
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(cmd, cmds[i].word))
			continue;
		ret = cmds[i].fn();
		if (ret == -ENOENT)
			kft_error("%s: no run registered", cmd);
		else if (ret == -ESTALE)
			kft_error("%s: the run names an unloaded module: write a new config",
				  cmd);
		else if (ret)
			kft_error("%s: %s", cmd, cmds[i].refused);
		else
			kft_error_clear();
		return ret;
	}
	kft_error("unknown command '%.32s' (new, prime, start, stop, clear)",
		  cmd);
	return -EINVAL;
}

static int kft_append_pending(const char *buf, size_t len)
{
	char *grown;

	if (kft_pending_len + len > KFT_WRITE_MAX) {
		kft_error("config longer than %u bytes", KFT_WRITE_MAX);
		return -EFBIG;
	}
	grown = krealloc(kft_pending, kft_pending_len + len + 1, GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	memcpy(grown + kft_pending_len, buf, len);
	kft_pending = grown;
	kft_pending_len += len;
	kft_pending[kft_pending_len] = '\0';
	return 0;
}

static void kft_drop_pending(void)
{
	kfree(kft_pending);
	kft_pending = NULL;
	kft_pending_len = 0;
}

static ssize_t kft_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char *buf, *word;
	int ret;

	if (len > KFT_WRITE_MAX)
		return -EFBIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&kft_mutex);
	word = skip_spaces(buf);
	if (kft_pending || !strncmp(word, "new", 3)) {
		ret = kft_append_pending(buf, len);
		if (!ret && kft_config_complete(kft_pending, kft_pending_len))
			ret = kft_load_config(kft_pending, kft_pending_len);
		if (ret || !kft_pending_len ||
		    kft_config_complete(kft_pending, kft_pending_len))
			kft_drop_pending();
	} else {
		ret = kft_command(strim(word));
	}
	mutex_unlock(&kft_mutex);
	kfree(buf);
	return ret ? ret : len;
}

static const char *const kft_state_names[] = {
	[KFT_NONE] = "none",
	[KFT_CONFIGURED] = "configured",
	[KFT_COMPLETE] = "complete",
	[KFT_STARTING] = "starting",
	[KFT_PRIMED] = "primed",
	[KFT_TRIGGERED] = "triggered",
};

static int kft_status_show(struct seq_file *m, void *v)
{
	static const char *const counter_names[KFT_CNT_NR] = {
		[KFT_CNT_LOGGED] = "calls logged",
		[KFT_CNT_FILTER_TIME] = "filtered by mintime/maxtime",
		[KFT_CNT_FILTER_NOINTS] = "filtered by noints",
		[KFT_CNT_FILTER_ONLYINTS] = "filtered by onlyints",
		[KFT_CNT_FILTER_FUNCLIST] = "filtered by funclist",
		[KFT_CNT_FILTER_PID] = "filtered by pid",
		[KFT_CNT_FILTER_COMM] = "filtered by comm",
		[KFT_CNT_FILTER_CHILDREN] = "filtered by children",
		[KFT_CNT_FILTER_DEPTH] = "filtered by depth",
		[KFT_CNT_FILTER_NOTUNDER] = "filtered by notunder",
		[KFT_CNT_NOT_FOUND] = "exits without entry",
		[KFT_CNT_LOST_FULL] = "lost, log full",
		[KFT_CNT_LOST_DEPTH] = "lost, call depth over stack",
	};
	struct kft_run *run;
	int state, c;
	char *cfg;
	size_t len;

	mutex_lock(&kft_mutex);
	run = kft_run;
	state = READ_ONCE(kft_state);
	if (!run) {
		seq_puts(m, "No logging run registered\n");
		goto out;
	}
	seq_printf(m, "status: run id %u, %sprimed, %striggered, %scomplete\n",
		   run->id,
		   kft_state_was_primed(state) ? "" : "not ",
		   run->start_reason ? "" : "not ",
		   state == KFT_COMPLETE ? "" : "not ");
	seq_printf(m, "state: %s\n", kft_state_names[state]);
	if (run->origin)
		seq_printf(m, "boot run from %s (times from kernel start)\n",
			   run->origin);
	kft_log_text_times(m, run);
	if (run->cfg.watch != KFT_WATCH_NONE && run->lowest_stack != ULONG_MAX)
		seq_printf(m, "lowest stack: %lu bytes left\n", run->lowest_stack);
	if (IS_ENABLED(CONFIG_KFT_NOP_SITES))
		kft_sites_show(m);
	else
		seq_puts(m, "hook sites: always called (no CONFIG_KFT_NOP_SITES)\n");
	seq_printf(m, "log: %lu entries of %zu bytes, %lu taken\n",
		   run->capacity, sizeof(struct kft_entry),
		   min_t(unsigned long, atomic_long_read(&run->next),
			 run->capacity));

	seq_puts(m, "\nconfig:\n");
	len = kft_config_print(&run->cfg, NULL, 0, kft_name_of, NULL) + 1;
	cfg = kvmalloc(len, GFP_KERNEL);
	if (cfg) {
		kft_config_print(&run->cfg, cfg, len, kft_name_of, NULL);
		seq_puts(m, cfg);
		kvfree(cfg);
	}

	seq_puts(m, "\ncounters:\n");
	for (c = 0; c < KFT_CNT_NR; c++)
		seq_printf(m, "  %-32s %lu\n", counter_names[c],
			   kft_run_counter(c));
out:
	if (kft_last_error()[0])
		seq_printf(m, "\nlast error: %s\n", kft_last_error());
	mutex_unlock(&kft_mutex);
	return 0;
}

static int kft_status_open(struct inode *inode, struct file *file)
{
	return single_open(file, kft_status_show, NULL);
}

static const struct proc_ops kft_proc_ops = {
	.proc_open = kft_status_open,
	.proc_read = seq_read,
	.proc_write = kft_write,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

/* /proc/kft_data: a header, then one line per logged call (kft_log_text.c). */

static void *kft_data_start(struct seq_file *m, loff_t *pos)
{
	struct kft_run *run = m->private;

	if (!*pos)
		return SEQ_START_TOKEN;
	if (kft_state_armed(READ_ONCE(kft_state)) ||
	    *pos > run->nr_logged)
		return NULL;
	return &run->log[*pos - 1];
}

static void *kft_data_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return kft_data_start(m, pos);
}

static void kft_data_stop(struct seq_file *m, void *v)
{
}

static int kft_data_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		kft_log_text_header(m, m->private);
	else
		kft_log_text_line(m, v);
	return 0;
}

static const struct seq_operations kft_data_seq_ops = {
	.start = kft_data_start,
	.next = kft_data_next,
	.stop = kft_data_stop,
	.show = kft_data_show,
};

static int kft_data_open(struct inode *inode, struct file *file)
{
	struct kft_run *run;
	int ret;

	mutex_lock(&kft_mutex);
	run = kft_run_get();
	if (run)
		kft_run_finish(run);
	mutex_unlock(&kft_mutex);
	if (!run)
		return -ENOENT;
	ret = seq_open(file, &kft_data_seq_ops);
	if (ret) {
		kft_run_put(run);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = run;
	return 0;
}

static int kft_data_release(struct inode *inode, struct file *file)
{
	kft_run_put(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct proc_ops kft_data_proc_ops = {
	.proc_open = kft_data_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = kft_data_release,
};

static int __init kft_proc_init(void)
{
	/* Kernel addresses defeat KASLR: root only. */
	proc_create("kft", 0600, NULL, &kft_proc_ops);
	proc_create("kft_data", 0400, NULL, &kft_data_proc_ops);
	return 0;
}
fs_initcall(kft_proc_init);
