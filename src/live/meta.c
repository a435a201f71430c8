// SPDX-License-Identifier: GPL-2.0-only
/*
 * Snapshot metadata ("key: value" lines, idlelab-meta.txt) and the
 * parsers of /proc/cpuinfo and the kernel configuration
 * (include/idlelab/host.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/host.h"
#include "util.h"

#define META_FORMAT "idlelab-meta 1"

/* ------------------------------------------------------------------ */
/* Metadata */

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static void meta_push(struct il_meta *m, const char *key, size_t klen, const char *value,
		      size_t vlen, int line)
{
	struct il_meta_item *it;

	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->items = il_xrealloc(m->items, sizeof(*m->items) * (size_t)m->cap);
	}
	it = &m->items[m->n++];
	it->key = il_xcalloc(1, klen + 1);
	memcpy(it->key, key, klen);
	it->value = il_xcalloc(1, vlen + 1);
	memcpy(it->value, value, vlen);
	it->line = line;
}

int il_meta_parse(const char *text, size_t len, const char *name, struct il_meta *m,
		  struct il_err *err)
{
	size_t pos = 0;
	int line = 0;
	bool seen_format = false;

	memset(m, 0, sizeof(*m));
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos;
		size_t k = 0, v;

		pos += ll + (nl ? 1 : 0);
		line++;
		for (size_t i = 0; i < ll; i++) {
			unsigned char c = (unsigned char)l[i];
			if ((c < 0x20 && c != '\t') || c == 0x7f) {
				il_meta_free(m);
				return il_err_set_at(err, EINVAL, name, line,
						     "control character 0x%02x: not metadata text", c);
			}
		}
		if (!ll || l[0] == '#')
			continue;
		while (k < ll && key_char(l[k]))
			k++;
		if (!k || k + 1 > ll || l[k] != ':' || (k + 1 < ll && l[k + 1] != ' ')) {
			il_meta_free(m);
			return il_err_set_at(err, EINVAL, name, line,
					     "want 'key: value' (key of letters, digits, '.', '_', '-')");
		}
		v = k + 1 < ll ? k + 2 : ll;
		if (!seen_format) {
			if (k != 6 || memcmp(l, "format", 6) || ll - v != strlen(META_FORMAT) ||
			    memcmp(l + v, META_FORMAT, ll - v)) {
				il_meta_free(m);
				return il_err_set_at(err, EINVAL, name, line,
						     "not idlelab metadata (the first line must be "
						     "'format: " META_FORMAT "')");
			}
			seen_format = true;
		}
		meta_push(m, l, k, l + v, ll - v, line);
	}
	if (!seen_format) {
		il_meta_free(m);
		return il_err_set_at(err, EINVAL, name, 0, "empty: not idlelab metadata");
	}
	return 0;
}

void il_meta_add(struct il_meta *m, const char *key, const char *value)
{
	size_t vl = strlen(value);
	char *v = il_xstrdup(value);

	if (!m->n && strcmp(key, "format"))
		meta_push(m, "format", 6, META_FORMAT, strlen(META_FORMAT), 0);
	/* one line each: a newline (a cmdline's last byte) or control byte becomes a blank */
	while (vl && (v[vl - 1] == '\n' || v[vl - 1] == ' '))
		v[--vl] = '\0';
	for (size_t i = 0; i < vl; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			v[i] = ' ';
	meta_push(m, key, strlen(key), v, vl, 0);
	free(v);
}

void il_meta_addf(struct il_meta *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	il_meta_add(m, key, s ? s : "");
	free(s);
}

const char *il_meta_get(const struct il_meta *m, const char *key)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->items[i].key, key))
			return m->items[i].value;
	return NULL;
}

char *il_meta_text(const struct il_meta *m)
{
	size_t n = 1;
	char *s, *p;

	for (int i = 0; i < m->n; i++)
		n += strlen(m->items[i].key) + strlen(m->items[i].value) + 3;
	s = p = il_xcalloc(1, n);
	for (int i = 0; i < m->n; i++)
		p += sprintf(p, "%s: %s\n", m->items[i].key, m->items[i].value);
	return s;
}

void il_meta_free(struct il_meta *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->items[i].key);
		free(m->items[i].value);
	}
	free(m->items);
	memset(m, 0, sizeof(*m));
}

/* ------------------------------------------------------------------ */
/* /proc/cpuinfo */

/* "key\t\t: value" -> key and value trimmed; false if the line has no ':'. */
static bool kv(const char *l, size_t ll, char *key, size_t ks, const char **val, size_t *vl)
{
	const char *colon = memchr(l, ':', ll);
	size_t k;

	if (!colon)
		return false;
	k = (size_t)(colon - l);
	while (k && (l[k - 1] == ' ' || l[k - 1] == '\t'))
		k--;
	if (k >= ks)
		k = ks - 1;
	memcpy(key, l, k);
	key[k] = '\0';
	*val = colon + 1;
	*vl = (size_t)(l + ll - *val);
	while (*vl && (**val == ' ' || **val == '\t')) {
		(*val)++;
		(*vl)--;
	}
	while (*vl && ((*val)[*vl - 1] == ' ' || (*val)[*vl - 1] == '\t'))
		(*vl)--;
	return true;
}

static void copy_val(char *dst, size_t size, const char *v, size_t vl)
{
	if (vl >= size)
		vl = size - 1;
	memcpy(dst, v, vl);
	dst[vl] = '\0';
}

static int int_val(const char *v, size_t vl)
{
	char buf[32];
	char *end;
	long x;

	copy_val(buf, sizeof(buf), v, vl);
	errno = 0;
	x = strtol(buf, &end, 0);
	if (errno || end == buf || *end || x < 0 || x > 1000000)
		return -1;
	return (int)x;
}

static bool has_word(const char *v, size_t vl, const char *w)
{
	size_t wl = strlen(w);

	for (size_t i = 0; i + wl <= vl; i++)
		if ((i == 0 || v[i - 1] == ' ') && !memcmp(v + i, w, wl) &&
		    (i + wl == vl || v[i + wl] == ' '))
			return true;
	return false;
}

void il_cpuinfo_parse(const char *text, size_t len, struct il_cpuinfo *ci)
{
	size_t pos = 0;
	int first_proc = 1;  /* still in the first processor's block */
	int packages[256], npk = 0;

	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = -1;
	ci->arch = IL_ARCH_X86;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos, vl;
		const char *v;
		char key[32];

		pos += ll + (nl ? 1 : 0);
		if (!kv(l, ll, key, sizeof(key), &v, &vl))
			continue;
		if (!strcmp(key, "processor")) {
			if (ci->nprocessors++)
				first_proc = 0;
			continue;
		}
		if (!strcmp(key, "physical id")) {
			int p = int_val(v, vl);
			bool seen = false;
			for (int i = 0; i < npk; i++)
				seen |= packages[i] == p;
			if (p >= 0 && !seen && npk < 256)
				packages[npk++] = p;
			continue;
		}
		if (!first_proc)
			continue;
		if (!strcmp(key, "vendor_id")) {
			copy_val(ci->vendor_id, sizeof(ci->vendor_id), v, vl);
			if (!strcmp(ci->vendor_id, "GenuineIntel"))
				ci->vendor = IL_VENDOR_INTEL;
			else if (!strcmp(ci->vendor_id, "AuthenticAMD"))
				ci->vendor = IL_VENDOR_AMD;
			else if (!strcmp(ci->vendor_id, "HygonGenuine"))
				ci->vendor = IL_VENDOR_HYGON;
			else
				ci->vendor = IL_VENDOR_OTHER;
		} else if (!strcmp(key, "cpu family")) {
			ci->family = int_val(v, vl);
		} else if (!strcmp(key, "model")) {
			ci->model = int_val(v, vl);
		} else if (!strcmp(key, "stepping")) {
			ci->stepping = int_val(v, vl);
		} else if (!strcmp(key, "model name")) {
			copy_val(ci->model_name, sizeof(ci->model_name), v, vl);
		} else if (!strcmp(key, "cpu MHz") || !strcmp(key, "clock")) {
			char buf[32];
			copy_val(buf, sizeof(buf), v, vl);
			ci->mhz = strtod(buf, NULL);
			if (!(ci->mhz > 0 && ci->mhz < 1e6))
				ci->mhz = 0;
		} else if (!strcmp(key, "flags")) {
			ci->has_flags = true;
			ci->monitor = has_word(v, vl, "monitor");
			ci->hypervisor = has_word(v, vl, "hypervisor");
			ci->arat = has_word(v, vl, "arat");
			ci->nonstop_tsc = has_word(v, vl, "nonstop_tsc");
			ci->constant_tsc = has_word(v, vl, "constant_tsc");
		} else if (!strcmp(key, "cpu cores")) {
			ci->cores_per_package = int_val(v, vl) > 0 ? int_val(v, vl) : 0;
		} else if (!strcmp(key, "siblings")) {
			ci->siblings = int_val(v, vl) > 0 ? int_val(v, vl) : 0;
		} else if (!strcmp(key, "cpu") && !ci->vendor_id[0]) {
			/* powerpc: "cpu : POWER10 (architected), altivec supported" */
			copy_val(ci->model_name, sizeof(ci->model_name), v, vl);
			if (vl >= 5 && !memcmp(v, "POWER", 5)) {
				ci->arch = IL_ARCH_POWERPC;
				ci->vendor = IL_VENDOR_IBM;
			}
		}
		/* powerpc's global lines come after the last processor */
	}
	/* the global tail of powerpc cpuinfo: timebase, platform */
	pos = 0;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) : len - pos, vl;
		const char *v;
		char key[32];

		pos += ll + (nl ? 1 : 0);
		if (!kv(l, ll, key, sizeof(key), &v, &vl))
			continue;
		if (!strcmp(key, "timebase")) {
			char buf[32];
			copy_val(buf, sizeof(buf), v, vl);
			ci->timebase = strtoull(buf, NULL, 10);
		} else if (!strcmp(key, "platform")) {
			copy_val(ci->platform, sizeof(ci->platform), v, vl);
		}
	}
	if (!ci->vendor_id[0] && ci->arch != IL_ARCH_POWERPC && ci->nprocessors)
		ci->vendor = IL_VENDOR_OTHER;
	ci->npackages = npk;
}

/* ------------------------------------------------------------------ */
/* Kernel configuration */

/* The CONFIG_ names a capture keeps: prefixes of the name after CONFIG_. */
static const char *const config_keep[] = {
	"HZ", "NO_HZ", "TICK_", "HIGH_RES_TIMERS", "CPU_IDLE", "CPU_FREQ", "HALTPOLL_CPUIDLE",
	"INTEL_IDLE", "ACPI_PROCESSOR", "PREEMPT", "NR_CPUS", "X86_INTEL_PSTATE",
	"X86_AMD_PSTATE", "X86_ACPI_CPUFREQ", "PSERIES_CPUIDLE", "POWERNV_CPUIDLE",
	"ARM_PSCI_CPUIDLE", "KVM_GUEST", "PARAVIRT", "PM_QOS", "SCHED_MC", "SCHED_SMT",
};

bool il_host_config_keep(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(config_keep) / sizeof(config_keep[0]); i++) {
		size_t kl = strlen(config_keep[i]);
		if (len >= kl && !memcmp(name, config_keep[i], kl))
			return true;
	}
	return false;
}

/* The CONFIG_ name of a line "CONFIG_X=..." or "# CONFIG_X is not set"; its length or 0. */
static size_t config_name(const char *l, size_t ll, const char **name)
{
	size_t off = 0, n = 0;

	if (ll >= 2 && l[0] == '#' && l[1] == ' ')
		off = 2;
	if (ll < off + 7 || memcmp(l + off, "CONFIG_", 7))
		return 0;
	off += 7;
	while (off + n < ll && (key_char(l[off + n]) && l[off + n] != '.' && l[off + n] != '-'))
		n++;
	if (!n || off + n == ll)
		return 0;
	if (l[0] == '#' ? (ll - off - n != 11 || memcmp(l + off + n, " is not set", 11))
			: l[off + n] != '=')
		return 0;
	*name = l + off;
	return n;
}

char *il_config_filter(const char *text, size_t len)
{
	size_t pos = 0, o = 0;
	char *out = il_xcalloc(1, len + 2);   /* a last line gets its newline */

	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos), *name;
		size_t ll = nl ? (size_t)(nl - l) : len - pos, n;
		bool text_ok = true;

		pos += ll + (nl ? 1 : 0);
		for (size_t i = 0; i < ll; i++)
			if ((unsigned char)l[i] < 0x20 && l[i] != '\t')
				text_ok = false;
		n = config_name(l, ll, &name);
		if (!n || !text_ok || !il_host_config_keep(name, n))
			continue;
		memcpy(out + o, l, ll);
		o += ll;
		out[o++] = '\n';
	}
	out[o] = '\0';
	return out;
}

char *il_config_get(const char *text, size_t len, const char *name)
{
	size_t pos = 0, nl_ = strlen(name);

	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos), *nm;
		size_t ll = nl ? (size_t)(nl - l) : len - pos, n;

		pos += ll + (nl ? 1 : 0);
		n = config_name(l, ll, &nm);
		if (!n || l[0] == '#' || n != nl_ || memcmp(nm, name, n))
			continue;
		{
			const char *v = nm + n + 1;
			size_t vl = (size_t)(l + ll - v);
			char *s;
			if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
				v++;
				vl -= 2;
			}
			s = il_xcalloc(1, vl + 1);
			memcpy(s, v, vl);
			return s;
		}
	}
	return NULL;
}
