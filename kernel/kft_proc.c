// SPDX-License-Identifier: GPL-2.0
/*
 * KFT user interface: /proc/kft (configure, command, status) and
 * /proc/kft_data (the log), in the formats of the original KFT.
 *
 * A config may come in many writes ("new" ... "end") by one process, through
 * one open file or several; it belongs to that process, so other writers'
 * commands and configs neither join it nor get swallowed by it.  It is
 * parsed and resolved as a whole, and only a config that passes replaces
 * the current run.  A refused write returns an error and says why, with
 * the line and the token, in the kernel log and in /proc/kft.
 *
 * Dependencies: kft_config.c, kft_clock.c, kft.c, kft_sites.c,
 * kft_finish.c, kft_run.c, kft_syms.c, kft_log_text.c.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kft_internal.h"

#define KFT_WRITE_MAX	(4U << 20)	/* a whole config, funclist included */
#define KFT_PENDING_MAX	8		/* processes writing configs at once */

/* A config a process is writing in pieces; under kft_mutex. */
struct kft_pending {
	struct list_head node;
	struct pid *owner;		/* the writer's thread group */
	char *text;			/* kvmalloc()ed, NUL-terminated */
	size_t len, room;
	struct kft_config_scan scan;	/* how far "end" was looked for */
	struct file *file;		/* that wrote the last piece, or NULL */
};

static LIST_HEAD(kft_pendings);
static unsigned int kft_nr_pending;

static void kft_config_error(const struct kft_config_error *err)
{
	char what[KFT_ERROR_LEN];

	kft_error("line %u: %s", err->line,
		  kft_config_strerror(err, what, sizeof(what)));
}

/* Resolve a parsed config and make it the run; takes cfg over. */
static int kft_load_config(struct kft_config *cfg)
{
	unsigned long entries = cfg->logentries;
	struct kft_config_error err;
	struct kft_run *run;

	if (kft_config_resolve(cfg, kft_resolve_name, NULL, &err)) {
		kft_config_free(cfg);
		kft_config_error(&err);
		return -EINVAL;
	}
	run = kft_run_create(cfg);
	if (!run) {
		kft_error("no memory for a log of %lu entries (%lu bytes)",
			  entries, entries * sizeof(struct kft_entry));
		return -ENOMEM;
	}
	kft_run_install(run);
	kft_error_clear();
	return 0;
}

static const struct kft_cmd {
	const char *word;
	int (*fn)(void);
	const char *refused;
} kft_cmds[] = {
	{ "prime", kft_run_prime, "run is not in the configured state" },
	{ "start", kft_run_start, "run is not configured or primed" },
	{ "stop", kft_run_stop, "no run is primed or triggered" },
	{ "clear", kft_run_clear, "stop the run before clearing it" },
};

/* The command a write holds whole (blanks around it aside), or NULL. */
static const struct kft_cmd *kft_cmd_of(const char **word, size_t *n,
					const char *buf, size_t len)
{
	const char *end = buf + len;
	unsigned int i;

	while (buf < end && isspace(*buf))
		buf++;
	while (end > buf && isspace(end[-1]))
		end--;
	*word = buf;
	*n = end - buf;
	for (i = 0; i < ARRAY_SIZE(kft_cmds); i++)
		if (*n == strlen(kft_cmds[i].word) &&
		    !memcmp(buf, kft_cmds[i].word, *n))
			return &kft_cmds[i];
	return NULL;
}

static int kft_command(const char *buf, size_t len)
{
	const char *cmd;
	size_t n;
	const struct kft_cmd *c = kft_cmd_of(&cmd, &n, buf, len);
	int ret;
	char what[40];

	if (!c) {
		kft_error("unknown command '%s' (new, prime, start, stop, clear)",
			  kft_config_escape(what, sizeof(what), cmd, n));
		return -EINVAL;
	}
	ret = c->fn();
	if (ret == -ENOENT)
		kft_error("%s: no run registered", c->word);
	else if (ret == -ESTALE)
		kft_error("%s: the run names an unloaded module: write a new config",
			  c->word);
	else if (ret)
		kft_error("%s: %s", c->word, c->refused);
	else
		kft_error_clear();
	return ret;
}

static void kft_pending_drop(struct kft_pending *p)
{
	list_del(&p->node);
	kft_nr_pending--;
	put_pid(p->owner);
	kvfree(p->text);
	kfree(p);
}

/* This process's config in pieces, if any; drops those of exited ones. */
static struct kft_pending *kft_pending_find(struct pid *owner)
{
	struct kft_pending *p, *next, *mine = NULL;

	list_for_each_entry_safe(p, next, &kft_pendings, node) {
		if (p->owner == owner)
			mine = p;
		else if (!pid_has_task(p->owner, PIDTYPE_TGID))
			kft_pending_drop(p);
	}
	return mine;
}

static struct kft_pending *kft_pending_new(struct pid *owner)
{
	struct kft_pending *p;

	if (kft_nr_pending >= KFT_PENDING_MAX) {
		kft_error("%u processes are writing configs already",
			  KFT_PENDING_MAX);
		return ERR_PTR(-EBUSY);
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	p->owner = get_pid(owner);
	list_add(&p->node, &kft_pendings);
	kft_nr_pending++;
	return p;
}

/* Room doubles, so a config in many small writes is copied O(1) times. */
static int kft_pending_add(struct kft_pending *p, const char *buf,
			   size_t len)
{
	size_t room;
	char *text;

	if (p->len + len > KFT_WRITE_MAX) {
		kft_error("config of more than %u bytes (the limit): %zu",
			  KFT_WRITE_MAX, p->len + len);
		return -EFBIG;
	}
	if (p->len + len + 1 > p->room) {
		room = clamp_t(size_t, 2 * p->room, p->len + len + 1,
			       KFT_WRITE_MAX + 1);
		text = kvmalloc(room, GFP_KERNEL | __GFP_NOWARN);
		if (!text) {
			kft_error("no memory for a config of %zu bytes",
				  p->len + len);
			return -ENOMEM;
		}
		if (p->len)
			memcpy(text, p->text, p->len);
		kvfree(p->text);
		p->text = text;
		p->room = room;
	}
	memcpy(p->text + p->len, buf, len);
	p->len += len;
	p->text[p->len] = '\0';
	return 0;
}

/*
 * Has the pending config reached its end?  Then load it, whatever comes
 * of that, and forget it: 0 or the refusal.  -EAGAIN: not yet.
 */
static int kft_pending_try(struct kft_pending *p)
{
	struct kft_config_error err;
	struct kft_config cfg;
	int ret;

	ret = kft_config_piece(p->text, p->len, &p->scan, &cfg, &err);
	if (p->scan.first < 0) {
		if (!ret)
			kft_config_free(&cfg);
		kft_error("a config begins with new");
		kft_pending_drop(p);
		return -EINVAL;
	}
	if (ret == -EAGAIN)
		return ret;
	if (ret) {
		kft_config_error(&err);
		ret = -EINVAL;
	}
	kft_pending_drop(p);
	return ret ? ret : kft_load_config(&cfg);
}

/* Has the pending text a word yet, whole or cut at its end? */
static bool kft_pending_has_word(const struct kft_pending *p)
{
	return p->scan.first || (p->scan.pos < p->len && !p->scan.in_comment);
}

/*
 * A write is one command, or a config or a piece of one: a first piece
 * may be comments alone, or end inside "new".  buf holds len bytes and a
 * NUL after them.
 */
static int kft_write_locked(struct file *file, const char *buf, size_t len)
{
	struct pid *owner = task_tgid(current);
	struct kft_pending *p = kft_pending_find(owner);
	const struct kft_cmd *c;
	const char *cmd;
	size_t n;
	int ret;

	c = kft_cmd_of(&cmd, &n, buf, len);
	if (p && (c || kft_config_begins(buf, len)) && !kft_pending_has_word(p)) {
		kft_pending_drop(p);	/* comments alone: nothing lost */
		p = NULL;
	}
	/* A command amid one's own config: not taken for a piece of it. */
	if (p && c) {
		kft_error("%.*s: this process's config has no end yet (end it, or write new)",
			  (int)n, cmd);
		return -EBUSY;
	}
	if (p && kft_config_begins(buf, len)) {
		kft_error("a config begun without end is dropped for a new one");
		kft_pending_drop(p);
		p = NULL;
	}
	if (!p && !kft_config_may_begin(buf, len)) {
		if (memchr(buf, '\0', len)) {
			kft_error("a command with a NUL byte in it");
			return -EINVAL;
		}
		return kft_command(buf, len);
	}
	if (!p) {
		p = kft_pending_new(owner);
		if (IS_ERR(p))
			return PTR_ERR(p);
	}
	ret = kft_pending_add(p, buf, len);
	if (ret) {
		kft_pending_drop(p);
	} else {
		p->file = file;
		ret = kft_pending_try(p);
	}
	return ret == -EAGAIN ? 0 : ret;
}

static ssize_t kft_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (len > KFT_WRITE_MAX) {
		mutex_lock(&kft_mutex);
		kft_error("a write of %zu bytes: a config is %u bytes at most",
			  len, KFT_WRITE_MAX);
		mutex_unlock(&kft_mutex);
		return -EFBIG;
	}
	buf = kvmalloc(len + 1, GFP_KERNEL | __GFP_NOWARN);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, len)) {
		kvfree(buf);
		return -EFAULT;
	}
	buf[len] = '\0';
	mutex_lock(&kft_mutex);
	ret = kft_write_locked(file, buf, len);
	mutex_unlock(&kft_mutex);
	kvfree(buf);
	return ret ? ret : len;
}

/*
 * The run's config as /proc/kft shows it, made once per run: naming a
 * long funclist's functions takes a while, so readers do it outside
 * kft_mutex (the config does not change once installed).
 */
static const char *kft_cfg_text(struct kft_run *run)
{
	/* Pairs with the cmpxchg() that publishes a text made elsewhere. */
	char *text = smp_load_acquire(&run->cfg_text);
	size_t len;

	if (text)
		return text;
	len = kft_config_print(&run->cfg, NULL, 0, kft_name_of, NULL) + 1;
	text = kvmalloc(len, GFP_KERNEL | __GFP_NOWARN);
	if (!text)
		return NULL;
	kft_config_print(&run->cfg, text, len, kft_name_of, NULL);
	if (cmpxchg(&run->cfg_text, NULL, text))
		kvfree(text);
	return READ_ONCE(run->cfg_text);
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
	const char *cfg;

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
	cfg = kft_cfg_text(run);
	if (cfg)
		seq_puts(m, cfg);

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
	struct kft_run *run;
	const char *cfg;
	size_t size = 0;

	if (!(file->f_mode & FMODE_READ))
		return single_open(file, kft_status_show, NULL);
	/* The config's text is made here, without the mutex, and sized for. */
	mutex_lock(&kft_mutex);
	run = kft_run_get();
	mutex_unlock(&kft_mutex);
	if (run) {
		cfg = kft_cfg_text(run);
		size = cfg ? strlen(cfg) : 0;
		kft_run_put(run);
	}
	return single_open_size(file, kft_status_show, NULL, size + 2 * PAGE_SIZE);
}

/*
 * Closing the file that wrote the last piece ends the word it was writing
 * ("... end" with no newline); closing another (a refused command's, a
 * reader's) leaves the word pending: "end" may yet be end_page_writeback.
 */
static int kft_status_release(struct inode *inode, struct file *file)
{
	struct kft_pending *p;

	if (file->f_mode & FMODE_WRITE) {
		mutex_lock(&kft_mutex);
		p = kft_pending_find(task_tgid(current));
		if (p && p->file != file)
			p = NULL;
		if (p)
			p->file = NULL;
		if (p && p->scan.pos < p->len && !kft_pending_add(p, "\n", 1) &&
		    kft_pending_try(p) != -EAGAIN)
			p = NULL;	/* loaded or refused, and dropped */
		if (p && !kft_pending_has_word(p))
			kft_pending_drop(p);	/* comments alone */
		mutex_unlock(&kft_mutex);
	}
	return single_release(inode, file);
}

static const struct proc_ops kft_proc_ops = {
	.proc_open = kft_status_open,
	.proc_read = seq_read,
	.proc_write = kft_write,
	.proc_lseek = seq_lseek,
	.proc_release = kft_status_release,
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
