/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole files into memory, for every host tool and the target's kft: libc
 * alone (kft is built static for the board).
 */
#ifndef _KFT_SLURP_H
#define _KFT_SLURP_H

#include <stddef.h>

/*
 * What FD reads from where it is to its end (not by its size: /proc files
 * and pipes have none), NUL-terminated, its length without the NUL in
 * *len (if len is not NULL).  NULL with errno set (a read error, EISDIR,
 * ENOMEM); FD is not closed.
 */
char *kft_slurp_fd(int fd, size_t *len);

/* The file PATH, the same way; NULL with errno set. */
char *kft_slurp(const char *path, size_t *len);

/* The same, and "-" is standard input (read from its descriptor). */
char *kft_slurp_input(const char *path, size_t *len);

#endif /* _KFT_SLURP_H */
