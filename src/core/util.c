// SPDX-License-Identifier: GPL-2.0-only
/* Small string and number helpers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util.h"

static void out_of_memory(void)
{
	fputs("idlelab: out of memory\n", stderr);
	abort();
}

void *il_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *il_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory();
	return q;
}

char *il_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(il_xrealloc(NULL, n), s, n);
}

char *il_strtrim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/*
 * Numbers are decimal or 0x hex: a leading zero is not octal ("010" is 10),
 * as people who write 0100 in a file or on a command line mean.
 */
static int number_base(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
}

int il_parse_i64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoll(s, &end, number_base(s));
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

int il_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, number_base(s));
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

int il_parse_int(const char *s, int *v)
{
	int64_t x;
	int r = il_parse_i64(s, &x);

	if (r)
		return r;
	if (x < -2147483647 - 1 || x > 2147483647)
		return -ERANGE;
	*v = (int)x;
	return 0;
}

int il_parse_double(const char *s, double *v)
{
	char *end;
	double x;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (errno == ERANGE || !isfinite(x))
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

int il_parse_bool(const char *s, bool *v)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on", "Y" };
	static const char *const no[] = { "0", "n", "no", "false", "off", "N" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(s, yes[i])) {
			*v = true;
			return 0;
		}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i])) {
			*v = false;
			return 0;
		}
	return -EINVAL;
}

int il_parse_duration(const char *text, bool bare_us, int64_t *ns)
{
	size_t n = strlen(text);
	double us;

	/*
	 * Bare is no unit, whatever the number's form: a sign or an exponent
	 * ("+80", "1e3") must not make it a count of ns. Every unit ends in a
	 * letter; "inf" and "nan" do too, and are no duration either way.
	 */
	if (!bare_us || !n || !(isdigit((unsigned char)text[n - 1]) || text[n - 1] == '.'))
		return il_parse_duration_ns(text, ns);
	if (il_parse_double(text, &us) || !(us >= 0 && us < 1e12))
		return -EINVAL;
	*ns = (int64_t)(us * 1000 + 0.5);
	return 0;
}

int il_parse_duration_ns(const char *text, int64_t *ns)
{
	static const struct {
		const char *suffix;
		int64_t mult;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "µs", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	char buf[64];
	size_t n = strlen(text);

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n + 1);
	int64_t mult = 1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t l = strlen(units[i].suffix);
		if (n > l && !strcmp(buf + n - l, units[i].suffix)) {
			buf[n - l] = '\0';
			mult = units[i].mult;
			break;
		}
	}
	int64_t v;
	if (il_parse_i64(buf, &v) == 0) {
		if (v > INT64_MAX / mult || v < INT64_MIN / mult)
			return -ERANGE;
		*ns = v * mult;
		return 0;
	}
	double d;
	if (il_parse_double(buf, &d))
		return -EINVAL;
	d *= (double)mult;
	if (!(fabs(d) < 9.2e18))
		return -ERANGE;
	*ns = (int64_t)llround(d);
	return 0;
}

int il_read_file(const char *path, size_t max, char **text, size_t *len, struct il_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	*text = NULL;
	*len = 0;
	if (!f)
		return il_err_set_at(err, errno, path, 0, "cannot open: %s", strerror(errno));
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > max) {
				free(buf);
				fclose(f);
				return il_err_set_at(err, EFBIG, path, 0,
						     "file too large (more than %zu bytes)", max);
			}
			cap = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return il_err_set_at(err, ENOMEM, path, 0, "out of memory");
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f), e = errno;
	fclose(f);
	if (bad) {
		free(buf);
		return il_err_set_at(err, e ? e : EIO, path, 0, "read error: %s",
				     strerror(e ? e : EIO));
	}
	if (n > max) {
		free(buf);
		return il_err_set_at(err, EFBIG, path, 0, "file too large (more than %zu bytes)", max);
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int il_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* "6.12": digits, one dot, digits (what may follow ".c@" in a file spec) */
static bool release_like(const char *r)
{
	size_t a = strspn(r, "0123456789");

	return a && r[a] == '.' && r[a + 1] && strspn(r + a + 1, "0123456789") == strlen(r + a + 1);
}

size_t il_spec_file_release(const char *spec, const char **rel)
{
	const char *at = strrchr(spec, '@');
	size_t n = strlen(spec);

	*rel = NULL;
	if (strncmp(spec, "file:", 5))
		return n;
	if (at && at - spec >= 7 && !strncmp(at - 2, ".c", 2) && release_like(at + 1)) {
		*rel = at + 1;
		return (size_t)(at - spec);
	}
	return n;
}

const char *il_spec_file_at(const char *spec, const char *rel, char *buf, size_t size)
{
	const char *own;
	size_t n = il_spec_file_release(spec, &own);

	if (!rel || !rel[0] || own || n < 7 || strcmp(spec + n - 2, ".c"))
		return spec;
	/* not spec itself: that would build it for no release */
	if ((size_t)snprintf(buf, size, "%s@%s", spec, rel) >= size)
		return NULL;
	return buf;
}
