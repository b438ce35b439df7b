/* SPDX-License-Identifier: GPL-2.0 */
/* Empty: make bench-hooks' NOP-sites build; bench/hooks.c has the sites. */
