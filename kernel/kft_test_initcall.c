// SPDX-License-Identifier: GPL-2.0
/*
 * An initcall as long as the kernel command line says, for KFT's boot-time
 * regression tests: booted with kft_test_initcall.sleep_ms=N, the boot is
 * slower by a known amount in one named initcall, which kd --boot --check
 * must name (tests/e2e/test_boot_run.sh).
 */
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>

static unsigned int sleep_ms;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "Milliseconds the initcall sleeps (at most 10000)");

static int __init kft_test_initcall(void)
{
	msleep(min(sleep_ms, 10000U));
	return 0;
}
device_initcall(kft_test_initcall);
