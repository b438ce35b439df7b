/* SPDX-License-Identifier: GPL-2.0 */
/* kd's outputs for other tools: folded stacks, Chrome Trace Event JSON. */
#ifndef _KFT_EXPORT_H
#define _KFT_EXPORT_H

#include <stdio.h>

#include "calltree.h"

void kft_export_folded(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names);
void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names);

#endif /* _KFT_EXPORT_H */
