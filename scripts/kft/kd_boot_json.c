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
 *   "times": "compensated" | "measured", "hook_cost_ns": { "dropped": NS,
 *   "logged": NS, "own": NS } | null, "instrumentation": FRACTION | null
 * (kd_times_note()); a report without "times" was measured.
 *
 * "start" and "end" of the boot are times of the log (us since the run's
 * time base: for a boot run, the kernel's start); a phase's or an
 * initcall's "start" is since start_kernel.  A time that is not a finite
 * number is null.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"
#include "kd_boot.h"
#include "xalloc.h"

static void num(const char *key, double v, const char *after)
{
	if (isfinite(v))
		printf("\"%s\": %.3f%s", key, v, after);
	else
		printf("\"%s\": null%s", key, after);
}

static void str(const char *key, const char *s, const char *after)
{
	printf("\"%s\": ", key);
	if (s)
		kft_json_string(stdout, s);
	else
		fputs("null", stdout);
	fputs(after, stdout);
}

void kd_boot_print_json(const struct kd *kd, const struct boot_report *r,
			const char *source)
{
	uint32_t i, k;

	(void)kd;
	printf("{\n  \"format\": \"kft-boot-report\",\n  \"version\": 1,\n  \"units\": \"us\",\n");
	kft_json_note(stdout, &r->note, "", "  ");
	printf("  ");
	str("log", source, ",\n");
	printf("  \"boot\": {\"start_kernel\": %s, ", r->has_start ? "true" : "false");
	num("start", r->t0, ", ");
	printf("\"reached_user_space\": %s, ", r->reached ? "true" : "false");
	num("end", r->end, ", ");
	num("time", r->end - r->t0, "},\n");
	printf("  \"phases\": [");
	for (i = 0; i < r->nphases; i++) {
		printf("%s\n    {", i ? "," : "");
		str("name", r->phases[i].name, ", ");
		num("start", r->phases[i].start, ", ");
		num("time", r->phases[i].time, "}");
	}
	printf("\n  ],\n  \"initcalls\": [");
	for (i = 0; i < r->ncalls; i++) {
		const struct boot_initcall *ic = &r->calls[i];

		printf("%s\n    {", i ? "," : "");
		str("name", ic->name, ", ");
		/* Without all eight levels in the log, only their order is known. */
		if (ic->level >= 0 && r->levels8)
			printf("\"level\": %d, ", ic->level);
		else
			printf("\"level\": null, ");
		if (ic->level >= 0)
			printf("\"level_seen\": %d, ", ic->level);
		str("level_name", ic->level == BOOT_LEVEL_EARLY ? "early" :
			ic->level >= 0 && ic->level < 8 && r->levels8 ?
			kd_boot_level_names[ic->level] : NULL, ", ");
		printf("\"pid\": %ld, ", ic->pid);
		num("start", ic->start, ", ");
		num("time", ic->time, ", ");
		num("off_cpu", ic->offcpu, ", ");
		num("busy_wait", ic->busy, ", ");
		printf("\"top_calls\": [");
		for (k = 0; k < ic->ntop; k++) {
			printf("%s{", k ? ", " : "");
			str("name", ic->top[k].name, ", ");
			num("time", ic->top[k].time, "}");
		}
		printf("]}");
	}
	printf("\n  ],\n  \"initcalls_after_user_space\": %u\n}\n", r->nafter);
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
	double d;
	uint32_t i, k;

	if (!f || f->type != JSON_STRING || strcmp(f->str, "kft-boot-report"))
		return bad(rd, "no \"format\": \"kft-boot-report\"");
	v = json_get(root, "version");
	if (!v || v->type != JSON_NUMBER || v->num != 1)
		return bad(rd, "its \"version\" is not 1, the one this kd reads");
	boot = json_get(root, "boot");
	if (!boot || boot->type != JSON_OBJECT)
		return bad(rd, "no \"boot\" object");
	v = json_get(root, "times");
	if (v && v->type == JSON_STRING && !strcmp(v->str, "compensated"))
		r->note.times = "compensated";
	else if (v && v->type == JSON_STRING && !strcmp(v->str, "measured"))
		r->note.times = "measured";
	r->note.text = r->note_buf;
	r->note.share = NAN;
	if (!get_num(rd, boot, "start", true, &r->t0) ||
	    !get_num(rd, boot, "end", true, &r->end))
		return false;
	v = json_get(boot, "start_kernel");
	r->has_start = v && v->type == JSON_BOOL && v->b;
	v = json_get(boot, "reached_user_space");
	r->reached = v && v->type == JSON_BOOL && v->b;
	a = get_array(rd, root, "phases");
	if (!a)
		return false;
	r->phases = xcalloc(a->n + 1, sizeof(*r->phases));
	for (i = 0; i < a->n; i++) {
		struct boot_phase *p = &r->phases[r->nphases];

		if (!get_name(rd, &a->items[i], false, &p->name))
			return false;
		r->nphases++;
		if (!get_num(rd, &a->items[i], "start", false, &p->start) ||
		    !get_num(rd, &a->items[i], "time", true, &p->time))
			return false;
	}
	a = get_array(rd, root, "initcalls");
	if (!a)
		return false;
	r->calls = xcalloc(a->n + 1, sizeof(*r->calls));
	for (i = 0; i < a->n; i++) {
		const struct json *e = &a->items[i], *top;
		struct boot_initcall *ic = &r->calls[r->ncalls];

		if (!get_name(rd, e, true, &ic->name))
			return false;
		r->ncalls++;
		if (!get_num(rd, e, "time", true, &ic->time) ||
		    !get_num(rd, e, "start", false, &ic->start) ||
		    !get_num(rd, e, "off_cpu", false, &ic->offcpu) ||
		    !get_num(rd, e, "busy_wait", false, &ic->busy) ||
		    !get_num(rd, e, "level", false, &d))
			return false;
		ic->level = d >= 0 && d < 1000 ? (int)d : BOOT_LEVEL_NONE;
		v = json_get(e, "level_name");
		if (v && v->type == JSON_STRING && !strcmp(v->str, "early"))
			ic->level = BOOT_LEVEL_EARLY;
		if (!get_num(rd, e, "pid", false, &d))
			return false;
		ic->pid = d >= 0 && d <= 1e9 ? (long)d : -1;
		top = json_get(e, "top_calls");
		for (k = 0; top && top->type == JSON_ARRAY && k < top->n &&
			    k < BOOT_TOP; k++) {
			if (!get_name(rd, &top->items[k], false, &ic->top[k].name))
				return false;
			ic->ntop++;
			if (!get_num(rd, &top->items[k], "time", true,
				     &ic->top[k].time))
				return false;
		}
	}
	if (!get_num(rd, root, "initcalls_after_user_space", false, &d))
		return false;
	r->nafter = d >= 0 && d < 4e9 ? (uint32_t)d : 0;
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
