/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lines that end in a lone CR - a console captured by a tool that writes
 * CR alone - read as lines: kd and addr2sym read their input through it.
 */
#ifndef _KFT_CRLINES_H
#define _KFT_CRLINES_H

#include <stdio.h>

/*
 * A stream reading in, with each CR a newline and the LF of a CR LF
 * dropped; NULL if one cannot be made.  Closing it leaves in open.  In
 * must not have been read from: its descriptor is read directly.
 */
FILE *kft_crlines_open(FILE *in);

#endif /* _KFT_CRLINES_H */
