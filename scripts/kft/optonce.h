/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An option that takes a value, given twice with two values ("-m a.map
 * -m b.map", "-o x -o y", "--pid 5 --pid 7"): which one was meant?  getopt
 * keeps the last without a word; the host tools refuse it instead, naming
 * both values (exit 2).  The same value twice is taken.
 */
#ifndef KFT_OPTONCE_H
#define KFT_OPTONCE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define KFT_OPTONCE_MAX 32

struct kft_optonce {
	int n;
	struct {
		int opt;
		const char *val;
	} v[KFT_OPTONCE_MAX];
};

/*
 * After getopt_long() returned OPT: false, said under TOOL's name, if OPT
 * takes a value (SHORTOPTS, LONGOPTS, which may be NULL) and was given
 * before with another one.
 */
static inline bool kft_opt_once(struct kft_optonce *s, const char *tool, int opt,
				const char *shortopts, const struct option *longopts)
{
	const char *sp = opt > 0 && opt < 256 && opt != ':' ? strchr(shortopts, opt) : NULL;
	const struct option *lo = NULL;
	char name[64];
	int i;

	if (sp) {
		if (sp[1] != ':')
			return true;
		snprintf(name, sizeof(name), "-%c", opt);
	} else {
		for (i = 0; longopts && longopts[i].name; i++)
			if (longopts[i].val == opt && !longopts[i].flag)
				lo = &longopts[i];
		if (!lo || lo->has_arg != required_argument)
			return true;
		snprintf(name, sizeof(name), "--%s", lo->name);
	}
	if (!optarg)
		return true;
	for (i = 0; i < s->n; i++) {
		if (s->v[i].opt != opt)
			continue;
		if (!strcmp(s->v[i].val, optarg))
			return true;
		fprintf(stderr, "%s: %s given twice ('%s', then '%s'): give one\n",
			tool, name, s->v[i].val, optarg);
		return false;
	}
	if (s->n < KFT_OPTONCE_MAX) {
		s->v[s->n].opt = opt;
		s->v[s->n].val = optarg;
		s->n++;
	}
	return true;
}

#endif
