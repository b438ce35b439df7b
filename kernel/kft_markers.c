// SPDX-License-Identifier: GPL-2.0
/*
 * Functions that exist only to be KFT triggers.  Unlike the rest of KFT this
 * file is instrumented: the point of these functions is their entry hook.
 */
#include <linux/compiler.h>
#include <linux/kft.h>

/* Called right before the kernel executes the first user program. */
noinline void to_userspace(void)
{
	barrier();
}
