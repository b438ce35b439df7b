/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names in a log are bytes: a symbol map may hold anything, and a name may
 * be cut mid-character.  JSON and XML must be valid UTF-8, so the writers
 * copy a name's valid sequences and replace every other byte with U+FFFD.
 */
#ifndef _KFT_UTF8_H
#define _KFT_UTF8_H

#include <stddef.h>

#define KFT_UTF8_REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if there is none. */
static inline size_t kft_utf8_seq(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

#endif /* _KFT_UTF8_H */
