/* SPDX-License-Identifier: GPL-2.0 */
/* bench/realcpu: kernel/kft_log_text.c's seq_file, onto a stdio FILE. */
#ifndef _REALCPU_SEQ_FILE_H
#define _REALCPU_SEQ_FILE_H

#include <stdio.h>

struct seq_file {
	FILE *f;
};

#define seq_printf(m, ...)	fprintf((m)->f, __VA_ARGS__)
#define seq_puts(m, s)		fputs(s, (m)->f)
#define seq_putc(m, c)		fputc(c, (m)->f)

#endif
