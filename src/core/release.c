// SPDX-License-Identifier: GPL-2.0-only
/* Kernel release strings (include/idlelab/release.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/release.h"

int il_release_cmp(const char *a, const char *b)
{
	for (;;) {
		char *ea, *eb;
		long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' && *eb != '.')
			return 0;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
	}
}

/*
 * The last minor release of each major series in the range: 5.19 before
 * 6.0 (Linus Torvalds, v6.0 announcement, 2022-10-02), 6.19 before 7.0.
 */
static int last_minor(long major)
{
	switch (major) {
	case 5: return 19;
	case 6: return 19;
	case 7: return 1;   /* IL_RELEASE_NEWEST */
	default: return -1;
	}
}

static int parse_part(const char **p, long *v)
{
	const char *s = *p;
	long x = 0;
	int n = 0;

	while (isdigit((unsigned char)*s) && n < 4) {
		x = x * 10 + (*s - '0');
		s++;
		n++;
	}
	if (!n || (n > 1 && **p == '0'))
		return -1;
	*v = x;
	*p = s;
	return 0;
}

int il_release_check(const char *rel, struct il_err *err)
{
	const char *p = rel;
	long major, minor;

	if (!rel || parse_part(&p, &major) || *p++ != '.' || parse_part(&p, &minor) || *p)
		return il_err_set(err, EINVAL,
				  "kernel release '%s' is not MAJOR.MINOR (mainline tags %s to %s)",
				  rel ? rel : "", IL_RELEASE_OLDEST, IL_RELEASE_NEWEST);
	if (il_release_cmp(rel, IL_RELEASE_OLDEST) < 0 || il_release_cmp(rel, IL_RELEASE_NEWEST) > 0 ||
	    minor > last_minor(major))
		return il_err_set(err, EINVAL,
				  "kernel release %s is outside the releases idlelab models (%s to %s)",
				  rel, IL_RELEASE_OLDEST, IL_RELEASE_NEWEST);
	return 0;
}
