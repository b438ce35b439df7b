/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kd --trace-cmd FILE: the calls as a trace-cmd data file (function_graph
 * entry and exit events) for trace-cmd report and KernelShark.
 */
#ifndef _KFT_TRACECMD_H
#define _KFT_TRACECMD_H

#include <stdbool.h>
#include <stddef.h>

#include "calltree.h"
#include "export.h"

struct kd;

/*
 * Write the placed tree t (kft_tree_place()) to path.  The file is
 * written whole or not at all: through a temporary file in its directory,
 * renamed over path.  false and a message in err if it could not be; the
 * calls and CPUs written in *calls and *cpus.
 */
bool kft_export_tracecmd(const char *path, const struct kft_tree *t,
			 const struct kft_names *names,
			 const struct kft_export_note *en,
			 unsigned long *calls, unsigned long *cpus,
			 char *err, size_t errlen);

/* kd's --trace-cmd: write it and say what was written; kd's exit status. */
int kd_tracecmd(const struct kd *kd, const struct kft_tree *t,
		const char *path, const struct kft_export_note *en);

#endif /* _KFT_TRACECMD_H */
