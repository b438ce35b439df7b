// SPDX-License-Identifier: GPL-2.0
/*
 * kd --boot's report as data, the parts its builder (kd_boot.c), its JSON
 * (kd_boot_json.c), its initcall_debug lines (kd_boot_dmesg.c) and --check
 * (kd_boot_check.c) share: the level names, a name made safe for a
 * terminal, a report freed.  Below all of them: it calls none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd_boot.h"
#include "utf8.h"
#include "xalloc.h"

const char *const kd_boot_level_names[8] = {
	"pure", "core", "postcore", "arch", "subsys", "fs", "device", "late",
};

char *kd_boot_esc(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 1), *o = out;

	while (*s) {
		unsigned char c = *s;
		size_t n = kft_utf8_seq(s);

		/* C1 controls (U+0080..U+009F) are controls too. */
		if (c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
			s++;
		} else if (!n || c < 0x20 || c == 0x7f ||
			   (n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
			o += sprintf(o, "\\x%02x", c);
			s++;
		} else {
			memcpy(o, s, n);
			o += n;
			s += n;
		}
	}
	*o = '\0';
	return out;
}

char *kd_boot_esc_word(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= 0x20 || c >= 0x7f || c == '\\' || c == '+' || c == '"')
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = c;
	}
	*o = '\0';
	return out;
}

void kd_boot_free(struct boot_report *r)
{
	uint32_t i, k;

	for (i = 0; i < r->nphases; i++)
		free(r->phases[i].name);
	for (i = 0; i < r->ncalls; i++) {
		free(r->calls[i].name);
		for (k = 0; k < r->calls[i].ntop; k++)
			free(r->calls[i].top[k].name);
	}
	free(r->phases);
	free(r->segs);
	free(r->calls);
	memset(r, 0, sizeof(*r));
}

/*
 * "6 device", "early", "-", or "#N" where the eight levels were not seen
 * (the Nth level in the log, whichever it is).
 */
char *kd_boot_level_text(const struct boot_report *r,
			 const struct boot_initcall *ic, char *buf, size_t n)
{
	if (ic->level == BOOT_LEVEL_EARLY)
		snprintf(buf, n, "early");
	else if (ic->level < 0)
		snprintf(buf, n, "-");
	else if (ic->level < 8 && r->levels8)
		snprintf(buf, n, "%d %s", ic->level, kd_boot_level_names[ic->level]);
	else
		snprintf(buf, n, "#%d", ic->level);
	return buf;
}
