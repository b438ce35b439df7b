// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the KFT engine in the kernel: configs resolved by name,
 * the run's states and triggers, filters, a full log, autorepeat, calls
 * still open at the stop, and clearing, each on a real workload of
 * instrumented functions in this file.
 *
 * Unlike the engine, this file is instrumented: its kft_test_*() functions
 * are what the runs trace.  Each test installs its own run.
 */
#include <kunit/test.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "kft_internal.h"

/* The workload: outer -> middle -> leaf, leaf; the slow leaf waits us. */
static noinline __noclone void kft_test_leaf(unsigned int us)
{
	if (us)
		udelay(us);
	barrier();
}

static noinline __noclone void kft_test_middle(unsigned int us)
{
	kft_test_leaf(0);
	kft_test_leaf(us);
}

static noinline __noclone void kft_test_outer(unsigned int us)
{
	kft_test_middle(us);
	kft_test_leaf(0);
}

static noinline __noclone void kft_test_stopper(void)
{
	mutex_lock(&kft_mutex);
	kft_run_stop();
	mutex_unlock(&kft_mutex);
}

/* Parse, resolve and install a config; the run it made. */
static struct kft_run *kft_test_install(struct kunit *test, const char *text)
{
	char what[KFT_ERROR_LEN];
	struct kft_config_error err;
	struct kft_config cfg;
	struct kft_run *run;
	int ret;

	ret = kft_config_parse(&cfg, text, strlen(text), 0, &err);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "line %u: %s", err.line,
			    kft_config_strerror(&err, what, sizeof(what)));
	ret = kft_config_resolve(&cfg, kft_resolve_name, NULL, &err);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "line %u: %s", err.line,
			    kft_config_strerror(&err, what, sizeof(what)));
	run = kft_run_create(&cfg);
	KUNIT_ASSERT_NOT_NULL(test, run);
	mutex_lock(&kft_mutex);
	kft_run_install(run);
	mutex_unlock(&kft_mutex);
	return run;
}

static int kft_test_cmd(int (*cmd)(void))
{
	int ret;

	mutex_lock(&kft_mutex);
	ret = cmd();
	mutex_unlock(&kft_mutex);
	return ret;
}

static void kft_test_finish(struct kft_run *run)
{
	mutex_lock(&kft_mutex);
	kft_run_finish(run);
	mutex_unlock(&kft_mutex);
}

/* Calls of fn this task logged; the first one in *first. */
static unsigned int kft_test_count(struct kft_run *run, void *fn,
				   const struct kft_entry **first)
{
	unsigned int i, n = 0;

	for (i = 0; i < run->nr_logged; i++) {
		const struct kft_entry *e = &run->log[i];

		if (kft_addr(e->fn) != (unsigned long)fn ||
		    e->pid != current->pid)
			continue;
		if (!n++ && first)
			*first = e;
	}
	return n;
}

static u64 kft_test_ns(const struct kft_entry *e)
{
	return kft_delta_decode(e->delta);
}

static void kft_test_names(struct kunit *test)
{
	unsigned long addr = 0;

	KUNIT_EXPECT_EQ(test, kft_resolve_name(NULL, "kft_test_leaf", &addr), 0);
	KUNIT_EXPECT_EQ(test, addr, (unsigned long)kft_test_leaf);
	KUNIT_EXPECT_EQ(test, kft_resolve_name(NULL, "kft_test_no_such_fn",
					       &addr), -ENOENT);
}

static void kft_test_entry_exit(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\nend\n");
	const struct kft_entry *outer = NULL, *middle = NULL, *leaf = NULL;

	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_CONFIGURED);
	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_PRIMED);
	kft_test_leaf(0);		/* before the start: not logged */
	kft_test_outer(0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_COMPLETE);
	kft_test_leaf(0);		/* after the stop: not logged */
	kft_test_finish(run);

	KUNIT_EXPECT_EQ(test, run->start_reason, KFT_BY_ENTRY);
	KUNIT_EXPECT_EQ(test, run->stop_reason, KFT_BY_EXIT);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_outer, &outer), 1);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_middle, &middle), 1);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, &leaf), 3);
	KUNIT_ASSERT_TRUE(test, outer && middle && leaf);
	KUNIT_EXPECT_PTR_EQ(test, outer, (const struct kft_entry *)run->log);
	KUNIT_EXPECT_LT(test, outer - run->log, middle - run->log);
	KUNIT_EXPECT_LT(test, middle - run->log, leaf - run->log);
	KUNIT_EXPECT_GE(test, kft_test_ns(outer), kft_test_ns(middle));
	KUNIT_EXPECT_GE(test, kft_test_ns(middle), kft_test_ns(leaf));
	KUNIT_EXPECT_EQ(test, kft_run_counter(KFT_CNT_LOST_FULL), 0UL);
}

static void kft_test_mintime(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\nfilter mintime 100us\nend\n");
	const struct kft_entry *leaf = NULL;

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	kft_test_outer(300);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, &leaf), 1);
	KUNIT_ASSERT_NOT_NULL(test, leaf);
	KUNIT_EXPECT_GE(test, kft_test_ns(leaf), 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_middle, NULL), 1);
	KUNIT_EXPECT_GE(test, kft_run_counter(KFT_CNT_FILTER_TIME), 2UL);
}

static void kft_test_maxtime(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\nfilter maxtime 50us\nend\n");

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	kft_test_outer(300);
	kft_test_finish(run);
	/* The trigger call stays whatever its length; the slow calls go. */
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_outer, NULL), 1);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_middle, NULL), 0);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, NULL), 2);
}

static void kft_test_funclist(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\n"
		"filter funclist kft_test_leaf fend\nend\n");
	unsigned int i;

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	kft_test_outer(0);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, NULL), 3);
	for (i = 0; i < run->nr_logged; i++) {
		unsigned long fn = kft_addr(run->log[i].fn);
		bool listed = fn == (unsigned long)kft_test_leaf ||
			      fn == (unsigned long)kft_test_outer;

		KUNIT_EXPECT_TRUE(test, listed);
	}
	KUNIT_EXPECT_GE(test, kft_run_counter(KFT_CNT_FILTER_FUNCLIST), 1UL);
}

static void kft_test_log_full(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\nlogentries 2\nend\n");

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	kft_test_outer(0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_COMPLETE);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, run->stop_reason, KFT_BY_FULL);
	KUNIT_EXPECT_EQ(test, run->nr_logged, 2UL);
	KUNIT_EXPECT_GE(test, kft_run_counter(KFT_CNT_LOST_FULL), 1UL);
}

static void kft_test_autorepeat(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\n"
		"filter funclist kft_test_outer fend\nautorepeat\nend\n");
	unsigned int i, n = 0;
	u64 last = 0;

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	for (i = 0; i < 3; i++) {
		kft_test_outer(0);
		KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_PRIMED);
	}
	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_stop), 0);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_outer, NULL), 3);
	/* One time base for every round: entry times keep increasing. */
	for (i = 0; i < run->nr_logged; i++) {
		u64 t = run->log[i].time_cpu & KFT_TIME_MASK;

		if (kft_addr(run->log[i].fn) != (unsigned long)kft_test_outer)
			continue;
		KUNIT_EXPECT_TRUE(test, !n++ || t > last);
		last = t;
	}
}

static void kft_test_stop_time(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop time 2ms\nend\n");
	unsigned int i;

	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	for (i = 0; i < 20 && READ_ONCE(kft_state) != KFT_COMPLETE; i++)
		kft_test_outer(500);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_COMPLETE);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, run->stop_reason, KFT_BY_TIME);
	KUNIT_EXPECT_GE(test, run->stop_ns - run->start_ns, 2 * NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, run->stop_ns - run->start_ns, 50 * NSEC_PER_MSEC);
}

static void kft_test_open_calls(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\nfilter funclist kft_test_stopper kft_test_leaf fend\nend\n");
	const struct kft_entry *stopper = NULL;

	/* No start trigger: prime starts logging at once. */
	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_TRIGGERED);
	kft_test_leaf(0);
	kft_test_stopper();		/* stops the run from inside a call */
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, run->stop_reason, KFT_BY_USER);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, NULL), 1);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_stopper, &stopper), 1);
	KUNIT_ASSERT_NOT_NULL(test, stopper);
	KUNIT_EXPECT_EQ(test, stopper->delta, KFT_DELTA_OPEN);
}

static void kft_test_clear(struct kunit *test)
{
	struct kft_run *run = kft_test_install(test,
		"new\ntrigger start entry kft_test_outer\n"
		"trigger stop exit kft_test_outer\nend\n");

	KUNIT_EXPECT_EQ(test, kft_test_cmd(kft_run_clear), 0);
	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	KUNIT_EXPECT_EQ(test, kft_test_cmd(kft_run_clear), -EBUSY);
	KUNIT_EXPECT_EQ(test, kft_test_cmd(kft_run_prime), -EBUSY);
	kft_test_outer(0);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, NULL), 3);

	KUNIT_EXPECT_EQ(test, kft_test_cmd(kft_run_clear), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kft_state), KFT_CONFIGURED);
	KUNIT_EXPECT_EQ(test, run->nr_logged, 0UL);
	KUNIT_ASSERT_EQ(test, kft_test_cmd(kft_run_prime), 0);
	kft_test_outer(0);
	kft_test_finish(run);
	KUNIT_EXPECT_EQ(test, kft_test_count(run, kft_test_leaf, NULL), 3);
	KUNIT_EXPECT_EQ(test, kft_run_counter(KFT_CNT_LOGGED), run->nr_logged);
}

static struct kunit_case kft_test_cases[] = {
	KUNIT_CASE(kft_test_names),
	KUNIT_CASE(kft_test_entry_exit),
	KUNIT_CASE(kft_test_mintime),
	KUNIT_CASE(kft_test_maxtime),
	KUNIT_CASE(kft_test_funclist),
	KUNIT_CASE(kft_test_log_full),
	KUNIT_CASE(kft_test_autorepeat),
	KUNIT_CASE(kft_test_stop_time),
	KUNIT_CASE(kft_test_open_calls),
	KUNIT_CASE(kft_test_clear),
	{}
};

static struct kunit_suite kft_test_suite = {
	.name = "kft",
	.test_cases = kft_test_cases,
};

kunit_test_suite(kft_test_suite);
