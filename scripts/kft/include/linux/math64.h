/* SPDX-License-Identifier: GPL-2.0 */
#include "../kft_host.h"

#ifndef _KFT_HOST_MATH64_H
#define _KFT_HOST_MATH64_H
/* The kernel's: 32-bit kernels have no 64-bit division operator. */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
#endif
