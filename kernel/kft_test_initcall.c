// SPDX-License-Identifier: GPL-2.0
/*
 * An initcall as long as the kernel command line says, for KFT's boot-time
 * regression tests: booted with kft_test_initcall.sleep_ms=N, the boot is
 * slower by a known amount in one named initcall, which kd --boot --check
 * must name (tests/e2e/test_boot_run.sh).  With kft_test_initcall.calls=N
 * it makes N calls of an empty function, on the CPU: what each of them
 * costs a boot run is known (tests/e2e/test_accuracy.sh).
 */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>

static unsigned int sleep_ms;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "Milliseconds the initcall sleeps (at most 10000)");

static unsigned int calls;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "Calls of an empty function the initcall makes");

static noinline void kft_test_call(unsigned int i)
{
	barrier_data(&i);
}

static int __init kft_test_initcall(void)
{
	unsigned int i;

	for (i = 0; i < calls; i++)
		kft_test_call(i);
	msleep(min(sleep_ms, 10000U));
	return 0;
}
device_initcall(kft_test_initcall);
