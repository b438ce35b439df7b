/* SPDX-License-Identifier: GPL-2.0 */
/* kd's outputs for other tools and for eyes: folded stacks, Chrome JSON, SVG. */
#ifndef _KFT_EXPORT_H
#define _KFT_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "calltree.h"

/*
 * A call's track in the timeline and the Chrome trace: its task's, but
 * pid 0 is each CPU's own idle task (swapper/N), and interrupt context a
 * track per CPU.  Keys: the pid (> 0); KFT_TRACK_IRQ - cpu; and
 * KFT_TRACK_IDLE - cpu, ranges that a CPU number (< 2^31) keeps apart.
 */
#define KFT_TRACK_IRQ	(-1LL)
#define KFT_TRACK_IDLE	(-(1LL << 32))

static inline int64_t kft_track_key(const struct kft_call *c)
{
	int64_t cpu = c->cpu > 0 ? c->cpu : 0;

	return c->irq ? KFT_TRACK_IRQ - cpu : c->pid ? c->pid : KFT_TRACK_IDLE - cpu;
}

/* A JSON string: escaped, and valid UTF-8 whatever the bytes. */
void kft_json_string(FILE *out, const char *s);

void kft_export_folded(FILE *out, const struct kft_tree *t,
		       struct kft_names *names);
void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names);

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title);
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title);

#endif /* _KFT_EXPORT_H */
