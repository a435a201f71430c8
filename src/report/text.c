// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text as it leaves idlelab: UTF-8 validation, once, for everything that
 * writes text (it was cmd_info.c's own for its JSON).
 */
#include <stddef.h>

#include "report_internal.h"

size_t il_utf8_len(const unsigned char *p, size_t n)
{
	size_t len;
	unsigned cp;

	if (n == 0 || p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	cp = p[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong 3- and 4-byte forms, beyond U+10FFFF, UTF-16 surrogates */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}
