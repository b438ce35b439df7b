/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tool's last word on its standard output: what could not be written
 * (a full disk, a closed pipe) is an error, never exit status 0.  Header
 * only: the target's kft and the kernel build's tools include it too.
 */
#ifndef _KFT_OUTPUT_H
#define _KFT_OUTPUT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* RET, or 1 with the reason on stderr if standard output failed. */
static inline int kft_output_done(const char *prog, int ret)
{
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: writing the output: %s\n", prog,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return ret;
}

#endif /* _KFT_OUTPUT_H */
