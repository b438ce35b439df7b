/* SPDX-License-Identifier: GPL-2.0 */
/* The engine is tested as the newest series has it: kft_compat.h maps nothing. */
#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE	KERNEL_VERSION(255, 0, 0)
