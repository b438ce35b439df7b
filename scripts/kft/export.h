/* SPDX-License-Identifier: GPL-2.0 */
/* kd's outputs for other tools and for eyes: folded stacks, Chrome JSON, SVG. */
#ifndef _KFT_EXPORT_H
#define _KFT_EXPORT_H

#include <stdio.h>

#include "calltree.h"

void kft_export_folded(FILE *out, const struct kft_tree *t,
		       struct kft_names *names);
void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names);

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title);
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title);

#endif /* _KFT_EXPORT_H */
