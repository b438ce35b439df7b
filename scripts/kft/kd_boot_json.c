// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot --json: the boot report as JSON, for CI dashboards and scripts,
 * and read back as a reference for --check and --diff.  The schema
 * (Documentation/trace/kft/boot.rst, "Boot time in CI"), version 1:
 *
 * { "format": "kft-boot-report", "version": 1, "units": "us", "log": PATH,
 *   "boot": { "start_kernel": BOOL, "start": US, "reached_user_space": BOOL,
 *             "end": US, "time": US },
 *   "phases": [ { "name": S, "start": US, "time": US }, ... ],   boot order
 *   "initcalls": [ { "name": S | null, "level": N | null,
 *                    ["level_seen": N,] "level_name": S | null,
 *                    "pid": N, "start": US,
 *                    "time": US, "off_cpu": US, "busy_wait": US,
 *                    "top_calls": [ { "name": S, "time": US }, ... ] },
 *                  ... ],                                    longest first
 *   "initcalls_after_user_space": N }
 *
 * A log that says what KFT's hooks cost adds, after "units":
 *   "times": "compensated" | "measured", ["waits": "taken off" | "left in",]
 *   "hook_cost_ns": { "dropped": NS, "logged": NS, "own": NS } | null,
 *   "instrumentation": FRACTION | null
 * (kd_times_note()); a report without "times" was measured, a compensated
 * one without "waits" left other tasks' hooks in the calls that waited.
 *
 * "start" and "end" of the boot are times of the log (us since the run's
 * time base: for a boot run, the kernel's start); a phase's or an
 * initcall's "start" is since start_kernel.  A time that is not a finite
 * number is null.  "returned": false for an initcall that never did (no
 * exit in the log: the boot hung in it); absent, true.
 *
 * Read back, a report must be a possible boot: times finite, 0 or more
 * and within the 104 days a log's times are; the boot's end not before
 * its start, and its "time" the difference; a phase, an initcall or a
 * call in it no longer than the boot, none ending after it, the phases
 * together no longer than it; an initcall's time off the CPU and
 * busy-waiting no more than its time; levels 0 to 7; booleans true or
 * false.  Else an error names the member and what is wrong.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"
#include "kd_boot.h"
#include "xalloc.h"

static void num(FILE *out, const char *key, double v, const char *after)
{
	if (isfinite(v))
		fprintf(out, "\"%s\": %.3f%s", key, v, after);
	else
		fprintf(out, "\"%s\": null%s", key, after);
}

static void str(FILE *out, const char *key, const char *s, const char *after)
{
	fprintf(out, "\"%s\": ", key);
	if (s)
		kft_json_string(out, s);
	else
		fputs("null", out);
	fputs(after, out);
}

void kd_boot_write_json(FILE *out, const struct boot_report *r,
			const char *source, bool segments)
{
	uint32_t i, k;

	fprintf(out, "{\n  \"format\": \"kft-boot-report\",\n  \"version\": 1,\n  \"units\": \"us\",\n");
	kft_json_note(out, &r->note, "", "  ");
	fprintf(out, "  ");
	str(out, "log", source, ",\n");
	fprintf(out, "  \"boot\": {\"start_kernel\": %s, ", r->has_start ? "true" : "false");
	num(out, "start", r->t0, ", ");
	fprintf(out, "\"reached_user_space\": %s, ", r->reached ? "true" : "false");
	num(out, "end", r->end, ", ");
	num(out, "time", r->end - r->t0, "},\n");
	fprintf(out, "  \"phases\": [");
	for (i = 0; i < r->nphases; i++) {
		fprintf(out, "%s\n    {", i ? "," : "");
		str(out, "name", r->phases[i].name, ", ");
		num(out, "start", r->phases[i].start, ", ");
		num(out, "time", r->phases[i].time, "}");
	}
	fprintf(out, "\n  ],\n");
	if (segments) {
		/* The boot's stretches in order: [phase index, start, time]. */
		fprintf(out, "  \"segments\": [");
		for (i = 0; i < r->nsegs; i++) {
			fprintf(out, "%s[%u, ", i ? (i % 8 ? ", " : ",\n    ") : "\n    ",
				r->segs[i].phase);
			if (isfinite(r->segs[i].start) && isfinite(r->segs[i].time))
				fprintf(out, "%.3f, %.3f]", r->segs[i].start, r->segs[i].time);
			else
				fprintf(out, "null, null]");
		}
		fprintf(out, "\n  ],\n");
	}
	fprintf(out, "  \"initcalls\": [");
	for (i = 0; i < r->ncalls; i++) {
		const struct boot_initcall *ic = &r->calls[i];

		fprintf(out, "%s\n    {", i ? "," : "");
		str(out, "name", ic->name, ", ");
		/* Without all eight levels in the log, only their order is known. */
		if (ic->level >= 0 && r->levels8)
			fprintf(out, "\"level\": %d, ", ic->level);
		else
			fprintf(out, "\"level\": null, ");
		if (ic->level >= 0)
			fprintf(out, "\"level_seen\": %d, ", ic->level);
		str(out, "level_name", ic->level == BOOT_LEVEL_EARLY ? "early" :
		    ic->level >= 0 && ic->level < 8 && r->levels8 ?
		    kd_boot_level_names[ic->level] : NULL, ", ");
		fprintf(out, "\"pid\": %ld, ", ic->pid);
		num(out, "start", ic->start, ", ");
		num(out, "time", ic->time, ", ");
		num(out, "off_cpu", ic->offcpu, ", ");
		num(out, "busy_wait", ic->busy, ", ");
		if (ic->open)
			fprintf(out, "\"returned\": false, ");
		fprintf(out, "\"top_calls\": [");
		for (k = 0; k < ic->ntop; k++) {
			fprintf(out, "%s{", k ? ", " : "");
			str(out, "name", ic->top[k].name, ", ");
			num(out, "time", ic->top[k].time, "}");
		}
		fprintf(out, "]}");
	}
	fprintf(out, "\n  ],\n  \"initcalls_after_user_space\": %u\n}\n", r->nafter);
}

/* Reading one back: what --check and --diff use, and their types. */
struct reader {
	const char *path;
	char *err;
	size_t errlen;
};

static bool bad(struct reader *rd, const char *what)
{
	snprintf(rd->err, rd->errlen, "%s: not a kd --boot --json report: %s",
		 rd->path, what);
	return false;
}

/*
 * Member name of obj, absent or null (*out NULL), or one of two strings,
 * a or b (*out that string, static).
 */
static bool get_either(struct reader *rd, const struct json *obj,
		       const char *name, const char *a, const char *b,
		       const char **out)
{
	const struct json *v = json_get(obj, name);
	char what[96];

	*out = NULL;
	if (v && v->type == JSON_STRING && !strcmp(v->str, a))
		*out = a;
	else if (v && v->type == JSON_STRING && !strcmp(v->str, b))
		*out = b;
	else if (v && v->type != JSON_NULL) {
		snprintf(what, sizeof(what), "\"%s\" is not \"%s\" or \"%s\"",
			 name, a, b);
		return bad(rd, what);
	}
	return true;
}

/* A member that is there, but not a possible boot's. */
static bool impossible(struct reader *rd, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s: not a possible boot: %s", rd->path,
		 what);
	return false;
}

#define US_MAX	9e12	/* a log's times: 104 days (kftlog.c) */
#define SLACK	0.002	/* two times printed to the ns, and their difference */

/*
 * A time of where (a member's place, for messages): a finite number from
 * 0 to max; NAN if absent or null and not required.
 */
static bool get_time(struct reader *rd, const struct json *obj,
		     const char *where, const char *key, bool required,
		     double max, double *v);

static bool get_num(struct reader *rd, const struct json *obj, const char *key,
		    bool required, double *v)
{
	const struct json *m = json_get(obj, key);

	if (!m || m->type == JSON_NULL) {
		*v = NAN;
		if (required) {
			char what[96];

			snprintf(what, sizeof(what), "no number \"%s\"", key);
			return bad(rd, what);
		}
		return true;
	}
	if (m->type != JSON_NUMBER || !isfinite(m->num)) {
		char what[96];

		snprintf(what, sizeof(what), "\"%s\" is not a finite number", key);
		return bad(rd, what);
	}
	*v = m->num;
	return true;
}

static bool get_time(struct reader *rd, const struct json *obj,
		     const char *where, const char *key, bool required,
		     double max, double *v)
{
	if (!get_num(rd, obj, key, required, v))
		return false;
	if (isnan(*v))
		return true;
	if (*v < 0)
		return impossible(rd, "%s\"%s\" is negative (%g us)", where, key, *v);
	if (*v > max + SLACK)
		return impossible(rd, "%s\"%s\" (%g us) is longer than %s (%g us)",
				  where, key, *v, max == US_MAX ?
				  "a log's times go (104 days)" : "the boot", max);
	return true;
}

/* A boolean: true or false, nothing else. */
static bool get_bool(struct reader *rd, const struct json *obj,
		     const char *where, const char *key, bool *b)
{
	const struct json *m = json_get(obj, key);

	if (!m || m->type != JSON_BOOL) {
		char what[96];

		snprintf(what, sizeof(what), "%s\"%s\" is not true or false%s",
			 where, key, m && m->type == JSON_STRING ?
			 " (a string, in quotes)" : "");
		return bad(rd, what);
	}
	*b = m->b;
	return true;
}

/* An integer from lo to hi, or NAN if absent or null. */
static bool get_int(struct reader *rd, const struct json *obj,
		    const char *where, const char *key, double lo, double hi,
		    double *v)
{
	if (!get_num(rd, obj, key, false, v))
		return false;
	if (isnan(*v) || (*v == floor(*v) && *v >= lo && *v <= hi))
		return true;
	return impossible(rd, "%s\"%s\" is %g, not a whole number from %g to %g",
			  where, key, *v, lo, hi);
}

/* A name: a string (a copy), or null when allowed. */
static bool get_name(struct reader *rd, const struct json *obj, bool nullable,
		     char **s)
{
	const struct json *m = json_get(obj, "name");

	*s = NULL;
	if (m && m->type == JSON_STRING) {
		*s = xstrdup(m->str);
		return true;
	}
	if (nullable && m && m->type == JSON_NULL)
		return true;
	return bad(rd, "an entry without a \"name\" string");
}

static const struct json *get_array(struct reader *rd, const struct json *obj,
				    const char *key)
{
	const struct json *m = json_get(obj, key);

	if (!m || m->type != JSON_ARRAY) {
		bad(rd, key);
		return NULL;
	}
	return m;
}

static bool read_report(struct reader *rd, const struct json *root,
			struct boot_report *r)
{
	const struct json *f = json_get(root, "format"), *v, *boot, *a;
	double d, total, phases = 0;
	char where[64];
	uint32_t i, k;

	if (!f || f->type != JSON_STRING || strcmp(f->str, "kft-boot-report"))
		return bad(rd, "no \"format\": \"kft-boot-report\"");
	v = json_get(root, "version");
	if (!v || v->type != JSON_NUMBER || v->num != 1)
		return bad(rd, "its \"version\" is not 1, the one this kd reads");
	boot = json_get(root, "boot");
	if (!boot || boot->type != JSON_OBJECT)
		return bad(rd, "no \"boot\" object");
	if (!get_either(rd, root, "times", "compensated", "measured",
			&r->note.times) ||
	    !get_either(rd, root, "waits", "taken off", "left in",
			&r->note.waits))
		return false;
	r->note.text = r->note_buf;
	r->note.share = NAN;
	if (!get_time(rd, boot, "the boot's ", "start", true, US_MAX, &r->t0) ||
	    !get_time(rd, boot, "the boot's ", "end", true, US_MAX, &r->end))
		return false;
	if (r->end < r->t0)
		return impossible(rd, "the boot's \"end\" (%g us) is before its \"start\" (%g us): the first user program before start_kernel",
				  r->end, r->t0);
	total = r->end - r->t0;
	if (!get_num(rd, boot, "time", false, &d))
		return false;
	if (!isnan(d) && fabs(d - total) > SLACK)
		return impossible(rd, "the boot's \"time\" (%g us) is not its \"end\" less its \"start\" (%g us)",
				  d, total);
	if (!get_bool(rd, boot, "the boot's ", "start_kernel", &r->has_start) ||
	    !get_bool(rd, boot, "the boot's ", "reached_user_space", &r->reached))
		return false;
	a = get_array(rd, root, "phases");
	if (!a)
		return false;
	r->phases = xcalloc(a->n + 1, sizeof(*r->phases));
	for (i = 0; i < a->n; i++) {
		struct boot_phase *p = &r->phases[r->nphases];

		snprintf(where, sizeof(where), "phase %u's ", i + 1);
		if (!get_name(rd, &a->items[i], false, &p->name))
			return false;
		r->nphases++;
		if (!get_time(rd, &a->items[i], where, "start", false, total, &p->start) ||
		    !get_time(rd, &a->items[i], where, "time", true, total, &p->time))
			return false;
		if (!isnan(p->start) && p->start + p->time > total + SLACK)
			return impossible(rd, "%s\"start\" and \"time\" (%g + %g us) end after the boot (%g us)",
					  where, p->start, p->time, total);
		phases += p->time;
	}
	/* Each moment of the boot is in one phase: together, no more than it. */
	if (phases > total + SLACK * (a->n + 1))
		return impossible(rd, "its phases' times add up to %g us, more than the boot (%g us): each moment is in one phase",
				  phases, total);
	a = get_array(rd, root, "initcalls");
	if (!a)
		return false;
	r->calls = xcalloc(a->n + 1, sizeof(*r->calls));
	for (i = 0; i < a->n; i++) {
		const struct json *e = &a->items[i], *top;
		struct boot_initcall *ic = &r->calls[r->ncalls];
		bool returned = true;

		snprintf(where, sizeof(where), "initcall %u's ", i + 1);
		if (!get_name(rd, e, true, &ic->name))
			return false;
		r->ncalls++;
		if (!get_time(rd, e, where, "time", true, total, &ic->time) ||
		    !get_time(rd, e, where, "start", false, total, &ic->start) ||
		    (!isnan(ic->start) && ic->start + ic->time > total + SLACK &&
		     !impossible(rd, "%s\"start\" and \"time\" (%g + %g us) end after the boot (%g us)",
				where, ic->start, ic->time, total)) ||
		    !get_time(rd, e, where, "off_cpu", false, ic->time, &ic->offcpu) ||
		    !get_time(rd, e, where, "busy_wait", false, ic->time, &ic->busy) ||
		    !get_int(rd, e, where, "level", 0, 7, &d))
			return false;
		ic->level = isnan(d) ? BOOT_LEVEL_NONE : (int)d;
		v = json_get(e, "level_name");
		if (v && v->type == JSON_STRING && !strcmp(v->str, "early"))
			ic->level = BOOT_LEVEL_EARLY;
		if (!get_int(rd, e, where, "pid", -1, 2147483647, &d))
			return false;
		ic->pid = isnan(d) ? -1 : (long)d;
		if (json_get(e, "returned") &&
		    !get_bool(rd, e, where, "returned", &returned))
			return false;
		ic->open = !returned;
		top = json_get(e, "top_calls");
		for (k = 0; top && top->type == JSON_ARRAY && k < top->n &&
			    k < BOOT_TOP; k++) {
			if (!get_name(rd, &top->items[k], false, &ic->top[k].name))
				return false;
			ic->ntop++;
			snprintf(where, sizeof(where), "initcall %u's call %u's ",
				 i + 1, k + 1);
			if (!get_time(rd, &top->items[k], where, "time", true,
				      total, &ic->top[k].time))
				return false;
		}
	}
	if (!get_int(rd, root, "", "initcalls_after_user_space", 0, 4e9, &d))
		return false;
	r->nafter = isnan(d) ? 0 : (uint32_t)d;
	r->levels8 = true;
	return true;
}

int kd_boot_read_json(const char *path, const char *text, size_t len,
		      struct boot_report *r, char *err, size_t errlen)
{
	struct reader rd = { path, err, errlen };
	struct json root;
	char why[200];

	memset(r, 0, sizeof(*r));
	if (json_parse(text, len, &root, why, sizeof(why))) {
		snprintf(err, errlen, "%s: not valid JSON: %s", path, why);
		return 1;
	}
	if (root.type != JSON_OBJECT || !read_report(&rd, &root, r)) {
		if (root.type != JSON_OBJECT)
			bad(&rd, "not a JSON object");
		kd_boot_free(r);
		json_free(&root);
		return 1;
	}
	json_free(&root);
	return 0;
}
