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
#include <sys/stat.h>

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

/*
 * Whether output names a regular file that input is too (by device and
 * inode: another name, a link): opened for writing, it would be emptied
 * before or after it is read.  "-" is never one.
 */
static inline int kft_same_file(const char *output, const char *input)
{
	struct stat o, i;

	if (!output || !input || !strcmp(output, "-") || !strcmp(input, "-"))
		return 0;
	return !stat(output, &o) && !stat(input, &i) && S_ISREG(o.st_mode) &&
	       o.st_dev == i.st_dev && o.st_ino == i.st_ino;
}

#endif /* _KFT_OUTPUT_H */
