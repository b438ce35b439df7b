// SPDX-License-Identifier: GPL-2.0
/* A small, strict JSON reader: see json.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utf8.h"
#include "xalloc.h"

struct parser {
	const char *s, *end, *start;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct parser *p, const char *fmt, ...)
{
	const char *c;
	unsigned long line = 1, col = 1;
	size_t n;
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	for (c = p->start; c < p->s && c < p->end; c++) {
		if (*c == '\n')
			line++, col = 1;
		else
			col++;
	}
	n = snprintf(p->err, p->errlen, "line %lu, column %lu: ", line, col);
	if (n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n)) {
		fail(p, "not a JSON value");
		return false;
	}
	p->s += n;
	return true;
}

static int hex4(const char *s)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = 0xc0 | cp >> 6;
		o[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = 0xe0 | cp >> 12;
		o[1] = 0x80 | (cp >> 6 & 0x3f);
		o[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	o[0] = 0xf0 | cp >> 18;
	o[1] = 0x80 | (cp >> 12 & 0x3f);
	o[2] = 0x80 | (cp >> 6 & 0x3f);
	o[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* A string at p->s (its opening quote); the decoded bytes on the heap. */
static char *string(struct parser *p)
{
	const char *s = ++p->s;
	char *out, *o;

	/* Decoded, a string is never longer than its text. */
	while (s < p->end && *s != '"')
		s += *s == '\\' && s + 1 < p->end ? 2 : 1;
	out = o = xmalloc(s - p->s + 1);
	while (p->s < p->end && *p->s != '"') {
		unsigned char c = *p->s;

		if (c < 0x20) {
			fail(p, "a raw control character in a string");
			break;
		}
		if (c != '\\') {
			size_t n = kft_utf8_seq(p->s);

			/* The text is NUL-terminated: a sequence cannot overrun. */
			if (!n || p->s + n > p->end) {
				fail(p, "invalid UTF-8 in a string");
				break;
			}
			memcpy(o, p->s, n);
			o += n;
			p->s += n;
			continue;
		}
		if (p->s + 1 >= p->end) {
			fail(p, "a string without its closing quote");
			break;
		}
		switch (p->s[1]) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			long cp = p->end - p->s >= 6 ? hex4(p->s + 2) : -1, lo;

			if (cp >= 0xd800 && cp <= 0xdbff) {
				lo = p->end - p->s >= 12 && p->s[6] == '\\' &&
				     p->s[7] == 'u' ? hex4(p->s + 8) : -1;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(p, "a \\u escape with half a surrogate pair");
					goto out;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p->s += 6;
			} else if (cp < 0 || (cp >= 0xdc00 && cp <= 0xdfff)) {
				fail(p, "a bad \\u escape");
				goto out;
			} else if (cp == 0) {
				fail(p, "\\u0000 in a string");
				goto out;
			}
			o += put_utf8(o, cp);
			p->s += 4;
			break;
		}
		default:
			fail(p, "a bad escape '\\%c'", p->s[1]);
			goto out;
		}
		p->s += 2;
	}
	if (!p->failed && p->s >= p->end)
		fail(p, "a string without its closing quote");
out:
	*o = '\0';
	if (p->failed) {
		free(out);
		return NULL;
	}
	p->s++;
	return out;
}

static bool number(struct parser *p, double *v)
{
	const char *s = p->s;
	char buf[64];

	if (s < p->end && *s == '-')
		s++;
	if (s < p->end && *s == '0')
		s++;
	else if (s < p->end && *s >= '1' && *s <= '9')
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	else
		goto bad;
	if (s < p->end && *s == '.') {
		if (++s >= p->end || *s < '0' || *s > '9')
			goto bad;
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || *s < '0' || *s > '9')
			goto bad;
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if ((size_t)(s - p->s) >= sizeof(buf)) {
		fail(p, "a number of more than %zu characters", sizeof(buf) - 1);
		return false;
	}
	memcpy(buf, p->s, s - p->s);
	buf[s - p->s] = '\0';
	*v = strtod(buf, NULL);
	p->s = s;
	return true;
bad:
	fail(p, "not a JSON value");
	return false;
}

static void push(struct json *v, uint32_t *cap, bool keys)
{
	if (v->n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 4;
	v->items = xrealloc(v->items, *cap * sizeof(*v->items));
	if (keys)
		v->keys = xrealloc(v->keys, *cap * sizeof(*v->keys));
}

static bool value(struct parser *p, struct json *v, int depth);

/* An array or an object at p->s, its opening bracket. */
static bool container(struct parser *p, struct json *v, int depth)
{
	bool obj = *p->s == '{';
	char close = obj ? '}' : ']';
	uint32_t cap = 0;

	v->type = obj ? JSON_OBJECT : JSON_ARRAY;
	if (depth >= JSON_MAX_DEPTH) {
		fail(p, "nested deeper than %d", JSON_MAX_DEPTH);
		return false;
	}
	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return true;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"') {
				fail(p, "an object's member must start with a string");
				return false;
			}
			key = string(p);
			if (!key)
				return false;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				fail(p, "':' expected after an object's key");
				return false;
			}
			p->s++;
		}
		push(v, &cap, obj);
		memset(&v->items[v->n], 0, sizeof(*v->items));
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (!value(p, &v->items[v->n - 1], depth + 1))
			return false;
		skip_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return true;
		}
		fail(p, "',' or '%c' expected", close);
		return false;
	}
}

static bool value(struct parser *p, struct json *v, int depth)
{
	skip_ws(p);
	if (p->s >= p->end) {
		fail(p, "a value expected, the text ended");
		return false;
	}
	switch (*p->s) {
	case '{':
	case '[':
		return container(p, v, depth);
	case '"':
		v->type = JSON_STRING;
		v->str = string(p);
		return v->str != NULL;
	case 't':
		v->type = JSON_BOOL;
		v->b = true;
		return literal(p, "true");
	case 'f':
		v->type = JSON_BOOL;
		return literal(p, "false");
	case 'n':
		v->type = JSON_NULL;
		return literal(p, "null");
	default:
		v->type = JSON_NUMBER;
		return number(p, &v->num);
	}
}

int json_parse(const char *text, size_t len, struct json *v, char *err,
	       size_t errlen)
{
	struct parser p = { text, text + len, text, err, errlen, false };

	memset(v, 0, sizeof(*v));
	if (value(&p, v, 0)) {
		skip_ws(&p);
		if (p.s < p.end)
			fail(&p, "more after the JSON value");
	}
	if (p.failed) {
		json_free(v);
		return -1;
	}
	return 0;
}

void json_free(struct json *v)
{
	uint32_t i;

	for (i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct json *json_get(const struct json *obj, const char *key)
{
	uint32_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}
