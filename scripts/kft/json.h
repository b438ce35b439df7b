/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259), for reading back what kd writes: the
 * whole text, which must have a NUL byte past its length, into a tree of
 * values.  Strict: no trailing commas, comments, NaN, raw control
 * characters or invalid UTF-8; \u0000 is refused (names are C strings);
 * nesting deeper than JSON_MAX_DEPTH is refused rather than recursed into.
 * Linear in the text's length.
 */
#ifndef _KFT_JSON_H
#define _KFT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH	64

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool b;
	double num;
	char *str;		/* JSON_STRING */
	struct json *items;	/* JSON_ARRAY's elements, JSON_OBJECT's values */
	char **keys;		/* JSON_OBJECT's keys */
	uint32_t n;
};

/* Parse text[0..len) into *v; 0, or -1 with "line L, column C: why" in err. */
int json_parse(const char *text, size_t len, struct json *v, char *err,
	       size_t errlen);
void json_free(struct json *v);
/* An object's member (the first of that key), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);

#endif /* _KFT_JSON_H */
