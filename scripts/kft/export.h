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
	/*
	 * Compensated: other tasks' hooks in waiting calls "taken off" or
	 * "left in" (NULL: left in, a report of a kd before it took them off).
	 */
	const char *waits;
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

/*
 * kd's pictures (svg.c, and kd --boot --svg): SVG in a monospace font whose
 * characters are KFT_SVG_ADVANCE font sizes wide (DejaVu Sans Mono's 0.602,
 * rounded up), so that a label's width is known and kept off other labels,
 * other bars and the edge.  Names are written as XML text: escaped, valid
 * UTF-8, no characters XML 1.0 cannot hold (each U+FFFD instead).
 */
#define KFT_SVG_ADVANCE	0.61
size_t kft_xml_text_n(FILE *out, const char *s, size_t max);
void kft_xml_text(FILE *out, const char *s);
/* Characters in s, as kft_xml_text_n() counts them. */
size_t kft_xml_chars(const char *s);
/* s as XML text in at most max characters: cut with "..", if need be. */
void kft_xml_fit(FILE *out, const char *s, size_t max);
/*
 * s as lines of text of at most max characters, cut at blanks (a word
 * longer than a line is cut), the first at (x, y), each next lh below,
 * with attrs (e.g. "font-size=\"15\"") on each; at most max_lines (0: no
 * limit), the last cut with ".." if s goes on.  out NULL: only counts.
 * Returns the number of lines.
 */
unsigned int kft_svg_lines(FILE *out, const char *attrs, double x, double y,
			   double lh, size_t max, unsigned int max_lines,
			   const char *s);

void kft_export_flamegraph(FILE *out, const struct kft_tree *t,
			   struct kft_names *names, const char *title,
			   const struct kft_export_note *en);
void kft_export_timeline(FILE *out, const struct kft_tree *t,
			 const struct kft_names *names, const char *title,
			 const struct kft_export_note *en);

#endif /* _KFT_EXPORT_H */
