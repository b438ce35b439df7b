// SPDX-License-Identifier: GPL-2.0
/*
 * The functions a run names, and the code behind them: a config's names
 * resolved to addresses and addresses printed as names, with kallsyms (so
 * that static functions work); and the modules going away, whose code a
 * run may name (kft_run_forget()).
 *
 * Dependencies: kft_run.c (kft_run_forget(), kft_error()), kft.c (the
 * run, kft_mutex).  Used by kft_boot.c, kft_proc.c and kft_test.c.
 */
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "kft_internal.h"

struct kft_match {
	unsigned long addr;
	unsigned int n;
	bool distinct;
};

static int kft_match_symbol(void *data, unsigned long addr)
{
	struct kft_match *m = data;

	if (m->n++ && addr != m->addr)
		m->distinct = true;
	m->addr = addr;
	return 0;
}

/*
 * A name must name one function: static functions may share a name.
 * Boot runs pass a non-NULL priv: they resolve before modules exist.
 */
int kft_resolve_name(void *priv, const char *name, unsigned long *addr)
{
	struct kft_match m = { };

	kallsyms_on_each_match_symbol(kft_match_symbol, name, &m);
	if (m.distinct)
		return -ENOTUNIQ;
	if (!m.n && !priv)
		m.addr = kallsyms_lookup_name(name);	/* modules */
	if (!m.addr)
		return -ENOENT;
	*addr = m.addr;
	return 0;
}

const char *kft_name_of(void *priv, unsigned long addr, char *buf,
			size_t size)
{
	char name[KSYM_NAME_LEN];
	unsigned long symsize, off;
	char *mod;

	if (!kallsyms_lookup(addr, &symsize, &off, &mod, name) || off)
		return NULL;
	strscpy(buf, name, size);
	return buf;
}

#ifdef CONFIG_MODULES
static bool kft_in_module(unsigned long addr, const void *mod)
{
	return within_module(addr, mod);
}

static int kft_run_module_going(struct notifier_block *nb,
				unsigned long state, void *data)
{
	struct module *mod = data;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&kft_mutex);
	if (kft_run_forget(kft_in_module, mod))
		kft_error("run %u names module %s, unloading: stopped; write a new config",
			  kft_run->id, mod->name);
	mutex_unlock(&kft_mutex);
	return NOTIFY_OK;
}

static struct notifier_block kft_run_module_nb = {
	.notifier_call = kft_run_module_going,
};

static int __init kft_run_watch_modules(void)
{
	return register_module_notifier(&kft_run_module_nb);
}
late_initcall(kft_run_watch_modules);
#endif
