/* SPDX-License-Identifier: GPL-2.0 */
/* kd's outputs for other tools and for eyes: folded stacks, Chrome JSON, SVG. */
#ifndef _KFT_EXPORT_H
#define _KFT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "calltree.h"

/* A call's track: kft_track_key() (calltree.h). */

/* A JSON string: escaped, and valid UTF-8 whatever the bytes. */
void kft_json_string(FILE *out, const char *s);

/*
 * What an output says of KFT's hooks, for logs that give their cost (kd's
 * kd_export_note()): nothing when times is NULL.
 */
struct kft_export_note {
	const char *times;		/* "compensated", "measured", or NULL */
	const char *text;		/* kd_times_note()'s line */
	bool cost_known;		/* the logs' cost, all the same: */
	struct kft_hook_cost cost;	/* in us */
	double share;			/* the hooks' part of the traced time, or NAN */
};

/*
 * The note's JSON members, each followed by a comma: "times", "hook_cost_ns"
 * and "instrumentation" with prefix before each name; nothing without a note.
 */
void kft_json_note(FILE *out, const struct kft_export_note *en,
		   const char *prefix, const char *indent);

void kft_export_folded(FILE *out, const struct kft_tree *t,
		       struct kft_names *names);
void kft_export_chrome(FILE *out, const struct kft_tree *t,
		       const struct kft_names *names,
		       const struct kft_export_note *en);

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title,
			   const struct kft_export_note *en);
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title,
			 const struct kft_export_note *en);

#endif /* _KFT_EXPORT_H */
