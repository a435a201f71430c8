// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpuidle sysfs tree: snapshot, parse, save (include/idlelab/sysfs.h).
 *
 * Attribute names and formats follow drivers/cpuidle/sysfs.c at torvalds
 * commit 063565aca3734de4e73639a0e460a58d9418b3cd: counters print as
 * "%llu\n", latency/residency/time in microseconds, power as an unsigned
 * int, default_status as "enabled"/"disabled", s2idle/ only for states
 * with an enter_s2idle callback.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelab/sysfs.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Files */

/* The global files, in the order they are read. */
enum { G_DRIVER, G_GOVERNOR, G_GOVERNOR_RO, G_GOVERNORS, G_COUNT };
static const char *const global_files[G_COUNT] = {
	"current_driver", "current_governor", "current_governor_ro", "available_governors",
};

/* The files of one state directory; numeric ones map to a field. */
enum {
	F_NAME, F_DESC, F_LATENCY, F_RESIDENCY, F_POWER, F_USAGE, F_TIME, F_ABOVE,
	F_BELOW, F_REJECTED, F_DISABLE, F_DEFAULT_STATUS, F_S2IDLE_USAGE, F_S2IDLE_TIME,
	F_COUNT
};
static const char *const state_files[F_COUNT] = {
	"name", "desc", "latency", "residency", "power", "usage", "time", "above",
	"below", "rejected", "disable", "default_status", "s2idle/usage", "s2idle/time",
};
/* Files every kernel with cpuidle sysfs has: a missing one is noted. */
static const bool state_file_required[F_COUNT] = {
	[F_NAME] = true, [F_DESC] = true, [F_LATENCY] = true, [F_RESIDENCY] = true,
	[F_POWER] = true, [F_USAGE] = true, [F_TIME] = true, [F_DISABLE] = true,
};
static const int field_file[IL_SF_COUNT] = {
	[IL_SF_LATENCY] = F_LATENCY,   [IL_SF_RESIDENCY] = F_RESIDENCY,
	[IL_SF_USAGE] = F_USAGE,       [IL_SF_TIME] = F_TIME,
	[IL_SF_ABOVE] = F_ABOVE,       [IL_SF_BELOW] = F_BELOW,
	[IL_SF_REJECTED] = F_REJECTED, [IL_SF_DISABLE] = F_DISABLE,
	[IL_SF_POWER] = F_POWER,       [IL_SF_S2IDLE_USAGE] = F_S2IDLE_USAGE,
	[IL_SF_S2IDLE_TIME] = F_S2IDLE_TIME,
};

const char *il_sysfs_field_file(enum il_sysfs_field f)
{
	return (unsigned)f < IL_SF_COUNT ? state_files[field_file[f]] : "?";
}

bool il_sysfs_field_optional(enum il_sysfs_field f)
{
	return (unsigned)f < IL_SF_COUNT && !state_file_required[field_file[f]];
}

/* ------------------------------------------------------------------ */
/* Small helpers */

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = il_xcalloc(1, la + lb + 2);
	memcpy(p, a, la);
	if (la && a[la - 1] != '/')
		p[la++] = '/';
	memcpy(p + la, b, lb + 1);
	return p;
}

static void note_add(struct il_sysfs_notes *notes, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note_add(struct il_sysfs_notes *notes, const char *path, const char *fmt, ...)
{
	va_list ap;
	struct il_err *e;

	if (!notes)
		return;
	if (notes->n == notes->cap) {
		notes->cap = notes->cap ? notes->cap * 2 : 8;
		notes->items = il_xrealloc(notes->items, sizeof(*notes->items) * (size_t)notes->cap);
	}
	e = &notes->items[notes->n++];
	il_err_clear(e);
	snprintf(e->file, sizeof(e->file), "%s", path);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

void il_sysfs_notes_free(struct il_sysfs_notes *notes)
{
	if (!notes)
		return;
	free(notes->items);
	memset(notes, 0, sizeof(*notes));
}

/* Quote file content for a message: at most 40 bytes, newline dropped. */
static void quote(char *out, size_t size, const char *buf, size_t len)
{
	size_t o = 0;

	if (len && buf[len - 1] == '\n')
		len--;
	for (size_t i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (i == 40) {
			o += (size_t)snprintf(out + o, size - o, "...");
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
	}
	out[o < size ? o : size - 1] = '\0';
}

/* ------------------------------------------------------------------ */
/* Value parsers */

int il_sysfs_parse_u64(const char *buf, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned)(buf[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

char *il_sysfs_parse_str(const char *buf, size_t len)
{
	char *s;

	if (memchr(buf, '\0', len)) {
		errno = EINVAL;
		return NULL;
	}
	if (len && buf[len - 1] == '\n')
		len--;
	s = il_xcalloc(1, len + 1);
	memcpy(s, buf, len);
	return s;
}

/* ------------------------------------------------------------------ */
/* CPU lists */

static int parse_cpu_number(const char *s, size_t len, int *cpu)
{
	long v = 0;

	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v >= IL_SYSFS_CPU_MAX)
			return -ERANGE;
	}
	*cpu = (int)v;
	return 0;
}

int il_cpulist_parse(const char *s, struct il_cpulist *list, struct il_err *err)
{
	unsigned char *set = il_xcalloc(IL_SYSFS_CPU_MAX, 1);
	const char *p = s;
	int r = 0, min = IL_SYSFS_CPU_MAX, max = -1;

	memset(list, 0, sizeof(*list));
	if (!*s) {
		r = il_err_set(err, EINVAL, "bad CPU list '': empty");
		goto out;
	}
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *dash = memchr(p, '-', len);
		int lo = 0, hi = 0, e1, e2;

		if (!len) {
			r = il_err_set(err, EINVAL, "bad CPU list '%s': empty item", s);
			goto out;
		}
		if (dash) {
			e1 = parse_cpu_number(p, (size_t)(dash - p), &lo);
			e2 = parse_cpu_number(dash + 1, len - (size_t)(dash - p) - 1, &hi);
		} else {
			e1 = parse_cpu_number(p, len, &lo);
			e2 = 0;
			hi = lo;
		}
		if (e1 == -ERANGE || e2 == -ERANGE) {
			r = il_err_set(err, ERANGE, "bad CPU list '%s': '%.*s': CPU number too large (max %d)",
				       s, (int)len, p, IL_SYSFS_CPU_MAX - 1);
			goto out;
		}
		if (e1 || e2) {
			r = il_err_set(err, EINVAL, "bad CPU list '%s': '%.*s' is not N or N-M",
				       s, (int)len, p);
			goto out;
		}
		if (hi < lo) {
			r = il_err_set(err, EINVAL, "bad CPU list '%s': range '%.*s' runs backwards",
				       s, (int)len, p);
			goto out;
		}
		memset(set + lo, 1, (size_t)(hi - lo + 1));
		min = lo < min ? lo : min;
		max = hi > max ? hi : max;
		if (!end)
			break;
		p = end + 1;
	}
	for (int c = min; c <= max; c++)
		list->n += set[c];
	list->cpus = il_xcalloc((size_t)list->n, sizeof(int));
	list->n = 0;
	for (int c = min; c <= max; c++)
		if (set[c])
			list->cpus[list->n++] = c;
out:
	free(set);
	return r;
}

bool il_cpulist_has(const struct il_cpulist *list, int cpu)
{
	int lo = 0, hi = list->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (list->cpus[mid] == cpu)
			return true;
		if (list->cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

void il_cpulist_free(struct il_cpulist *list)
{
	free(list->cpus);
	memset(list, 0, sizeof(*list));
}

/* ------------------------------------------------------------------ */
/* Snapshot: every relevant file's bytes, read in one pass */

struct raw {
	enum il_sysfs_status status; /* MISSING, OK (data valid) or BAD (noted) */
	char *data;
	size_t len;
};

struct snap_state {
	int index;
	struct raw f[F_COUNT];
};

struct snap_cpu {
	int cpu;
	struct raw driver_name;      /* cpu<N>/cpuidle/driver/name, multi-driver kernels */
	int nstates;
	struct snap_state *st;
};

struct snap {
	char *root;
	struct raw global[G_COUNT];
	int ncpus;
	struct snap_cpu *cpus;
};

static void raw_read(const char *path, struct raw *r, struct il_sysfs_notes *notes)
{
	char buf[IL_SYSFS_FILE_MAX + 1];
	size_t len = 0;
	int fd;

	memset(r, 0, sizeof(*r));
	/* O_NONBLOCK: a FIFO planted in a saved tree must not hang the read */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return;
		r->status = IL_SYSFS_BAD;
		note_add(notes, path, "cannot read: %s", strerror(errno));
		return;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r->status = IL_SYSFS_BAD;
			note_add(notes, path, "cannot read: %s", strerror(errno));
			close(fd);
			return;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf)) {
			r->status = IL_SYSFS_BAD;
			note_add(notes, path, "more than %d bytes: not a sysfs attribute",
				 IL_SYSFS_FILE_MAX);
			close(fd);
			return;
		}
	}
	close(fd);
	r->status = IL_SYSFS_OK;
	r->len = len;
	r->data = il_xcalloc(1, len + 1);
	memcpy(r->data, buf, len);
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "prefix<N>" with N canonical decimal (no sign, no leading zero) below max. */
static int numbered(const char *name, const char *prefix, int max)
{
	size_t pl = strlen(prefix);
	int v;

	if (strncmp(name, prefix, pl))
		return -1;
	name += pl;
	if (!*name || (name[0] == '0' && name[1]))
		return -1;
	if (parse_cpu_number(name, strlen(name), &v) || v >= max)
		return -1;
	return v;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The sorted numbers of dir's entries named prefix<N>; -errno if dir is unreadable. */
static int list_numbered(const char *dir, const char *prefix, int max, int **out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0, cap = 0, *v = NULL;

	*out = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int k = numbered(de->d_name, prefix, max);
		if (k < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = il_xrealloc(v, sizeof(int) * (size_t)cap);
		}
		v[n++] = k;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(int), cmp_int);
	*out = v;
	return n;
}

static void raw_free(struct raw *r)
{
	free(r->data);
	memset(r, 0, sizeof(*r));
}

static void snap_free(struct snap *s)
{
	for (int g = 0; g < G_COUNT; g++)
		raw_free(&s->global[g]);
	for (int c = 0; c < s->ncpus; c++) {
		struct snap_cpu *sc = &s->cpus[c];
		raw_free(&sc->driver_name);
		for (int i = 0; i < sc->nstates; i++)
			for (int f = 0; f < F_COUNT; f++)
				raw_free(&sc->st[i].f[f]);
		free(sc->st);
	}
	free(s->cpus);
	free(s->root);
	memset(s, 0, sizeof(*s));
}

static void snap_cpu_take(struct snap *s, struct snap_cpu *sc, struct il_sysfs_notes *notes)
{
	char rel[64];
	char *dir, *p;
	int *idx, n;

	snprintf(rel, sizeof(rel), "cpu%d/cpuidle", sc->cpu);
	dir = path_join(s->root, rel);
	n = list_numbered(dir, "state", IL_SYSFS_STATE_MAX, &idx);
	if (n < 0) {
		note_add(notes, dir, "cannot list: %s", strerror(-n));
		free(dir);
		return;
	}
	p = path_join(dir, "driver/name");
	raw_read(p, &sc->driver_name, notes);
	free(p);
	sc->nstates = n;
	sc->st = il_xcalloc((size_t)n, sizeof(*sc->st));
	for (int i = 0; i < n; i++) {
		char sd[32];
		char *sdir;

		sc->st[i].index = idx[i];
		snprintf(sd, sizeof(sd), "state%d", idx[i]);
		sdir = path_join(dir, sd);
		for (int f = 0; f < F_COUNT; f++) {
			p = path_join(sdir, state_files[f]);
			raw_read(p, &sc->st[i].f[f], notes);
			free(p);
		}
		free(sdir);
	}
	free(idx);
	free(dir);
}

/* Read everything below root for the selected CPUs. */
static int snap_take(struct snap *s, const char *root, const struct il_cpulist *only,
		     struct il_sysfs_notes *notes, struct il_err *err)
{
	char *idle;
	int *cpus, n, r = 0;

	memset(s, 0, sizeof(*s));
	s->root = il_xstrdup(root ? root : IL_SYSFS_DEFAULT_ROOT);
	{
		struct stat st;
		if (stat(s->root, &st) != 0) {
			r = il_err_set_at(err, errno, s->root, 0, "cannot open: %s", strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			r = il_err_set_at(err, ENOTDIR, s->root, 0,
					  "not a directory (want /sys/devices/system/cpu or a saved copy)");
			goto fail;
		}
	}
	idle = path_join(s->root, "cpuidle");
	if (!is_dir(idle)) {
		r = il_err_set_at(err, ENOENT, idle, 0,
				  "no cpuidle directory: kernel without CONFIG_CPU_IDLE or booted with cpuidle.off=1");
		free(idle);
		goto fail;
	}
	for (int g = 0; g < G_COUNT; g++) {
		char *p = path_join(idle, global_files[g]);
		raw_read(p, &s->global[g], notes);
		free(p);
	}
	free(idle);

	n = list_numbered(s->root, "cpu", IL_SYSFS_CPU_MAX, &cpus);
	if (n < 0) {
		r = il_err_set_at(err, -n, s->root, 0, "cannot list: %s", strerror(-n));
		goto fail;
	}
	s->cpus = il_xcalloc((size_t)(only ? only->n : n), sizeof(*s->cpus));
	if (only) {
		for (int i = 0; i < only->n; i++) {
			char rel[64], *p;
			bool ok;

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle", only->cpus[i]);
			p = path_join(s->root, rel);
			ok = is_dir(p);
			if (!ok) {
				r = il_err_set_at(err, ENOENT, p, 0,
						  "no such directory: CPU %d absent, offline or without cpuidle",
						  only->cpus[i]);
				free(p);
				free(cpus);
				goto fail;
			}
			free(p);
			s->cpus[s->ncpus++].cpu = only->cpus[i];
		}
	} else {
		for (int i = 0; i < n; i++) {
			char rel[64], *p;

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle", cpus[i]);
			p = path_join(s->root, rel);
			/* offline CPUs have no cpuidle directory: skipped, like cpupower */
			if (is_dir(p))
				s->cpus[s->ncpus++].cpu = cpus[i];
			free(p);
		}
	}
	free(cpus);
	for (int c = 0; c < s->ncpus; c++)
		snap_cpu_take(s, &s->cpus[c], notes);
	return 0;
fail:
	snap_free(s);
	return r;
}

/* ------------------------------------------------------------------ */
/* Parse a snapshot */

static void parse_str(const struct raw *r, struct il_sysfs_str *out, const char *path,
		      struct il_sysfs_notes *notes)
{
	out->status = r->status;
	out->s = NULL;
	if (r->status == IL_SYSFS_OK) {
		out->s = il_sysfs_parse_str(r->data, r->len);
		if (!out->s) {
			char q[256];
			quote(q, sizeof(q), r->data, r->len);
			note_add(notes, path, "not text: '%s'", q);
			out->status = IL_SYSFS_BAD;
		}
	}
	if (!out->s)
		out->s = il_xstrdup("");
}

static void parse_val(const struct raw *r, struct il_sysfs_val *out, const char *path,
		      struct il_sysfs_notes *notes)
{
	char q[256];
	int e;

	out->status = r->status;
	out->v = 0;
	if (r->status != IL_SYSFS_OK)
		return;
	e = il_sysfs_parse_u64(r->data, r->len, &out->v);
	if (!e)
		return;
	out->status = IL_SYSFS_BAD;
	out->v = 0;
	quote(q, sizeof(q), r->data, r->len);
	note_add(notes, path, e == -ERANGE ? "out of range: '%s'" : "not a number: '%s'", q);
}

static void split_governors(struct il_sysfs_info *info)
{
	const char *p = info->governors.s;

	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		info->governor_list = il_xrealloc(info->governor_list,
					       sizeof(char *) * (size_t)(info->ngovernors + 1));
		info->governor_list[info->ngovernors] = il_xcalloc(1, len + 1);
		memcpy(info->governor_list[info->ngovernors++], p, len);
		p += len;
	}
}

static void snap_parse(const struct snap *s, struct il_sysfs_info *info)
{
	struct il_sysfs_notes *notes = &info->notes;
	char *idle = path_join(s->root, "cpuidle");
	char *p;

	p = path_join(idle, global_files[G_DRIVER]);
	parse_str(&s->global[G_DRIVER], &info->driver, p, notes);
	if (s->global[G_DRIVER].status == IL_SYSFS_MISSING)
		note_add(notes, p, "missing");
	free(p);
	if (s->global[G_GOVERNOR].status != IL_SYSFS_MISSING) {
		p = path_join(idle, global_files[G_GOVERNOR]);
		parse_str(&s->global[G_GOVERNOR], &info->governor, p, notes);
	} else {
		p = path_join(idle, global_files[G_GOVERNOR_RO]);
		parse_str(&s->global[G_GOVERNOR_RO], &info->governor, p, notes);
		info->governor_ro = s->global[G_GOVERNOR_RO].status != IL_SYSFS_MISSING;
	}
	free(p);
	p = path_join(idle, global_files[G_GOVERNORS]);
	parse_str(&s->global[G_GOVERNORS], &info->governors, p, notes);
	free(p);
	free(idle);
	split_governors(info);

	info->ncpus = s->ncpus;
	info->cpus = il_xcalloc((size_t)s->ncpus, sizeof(*info->cpus));
	for (int c = 0; c < s->ncpus; c++) {
		const struct snap_cpu *sc = &s->cpus[c];
		struct il_sysfs_cpu *ic = &info->cpus[c];
		char rel[64];

		ic->cpu = sc->cpu;
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver/name", sc->cpu);
		p = path_join(s->root, rel);
		parse_str(&sc->driver_name, &ic->driver, p, notes);
		free(p);
		ic->nstates = sc->nstates;
		ic->states = il_xcalloc((size_t)sc->nstates, sizeof(*ic->states));
		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];
			struct il_sysfs_state *st = &ic->states[i];
			char *sdir;

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d", sc->cpu, ss->index);
			sdir = path_join(s->root, rel);
			st->index = ss->index;
			for (int f = 0; f < F_COUNT; f++)
				if (state_file_required[f] && ss->f[f].status == IL_SYSFS_MISSING) {
					p = path_join(sdir, state_files[f]);
					note_add(notes, p, "missing");
					free(p);
				}
			p = path_join(sdir, "name");
			parse_str(&ss->f[F_NAME], &st->name, p, notes);
			free(p);
			p = path_join(sdir, "desc");
			parse_str(&ss->f[F_DESC], &st->desc, p, notes);
			free(p);
			p = path_join(sdir, "default_status");
			parse_str(&ss->f[F_DEFAULT_STATUS], &st->default_status, p, notes);
			free(p);
			for (int f = 0; f < IL_SF_COUNT; f++) {
				int file = field_file[f];
				p = path_join(sdir, state_files[file]);
				parse_val(&ss->f[file], &st->val[f], p, notes);
				free(p);
			}
			free(sdir);
		}
	}
}

int il_sysfs_read(const char *root, const struct il_cpulist *only,
		  struct il_sysfs_info *info, struct il_err *err)
{
	struct snap s;
	int r;

	memset(info, 0, sizeof(*info));
	r = snap_take(&s, root, only, &info->notes, err);
	if (r) {
		il_sysfs_notes_free(&info->notes);
		return r;
	}
	snap_parse(&s, info);
	snap_free(&s);
	return 0;
}

static void str_free(struct il_sysfs_str *s)
{
	free(s->s);
	s->s = NULL;
}

void il_sysfs_info_free(struct il_sysfs_info *info)
{
	if (!info)
		return;
	str_free(&info->driver);
	str_free(&info->governor);
	str_free(&info->governors);
	for (int i = 0; i < info->ngovernors; i++)
		free(info->governor_list[i]);
	free(info->governor_list);
	for (int c = 0; c < info->ncpus; c++) {
		str_free(&info->cpus[c].driver);
		for (int i = 0; i < info->cpus[c].nstates; i++) {
			str_free(&info->cpus[c].states[i].name);
			str_free(&info->cpus[c].states[i].desc);
			str_free(&info->cpus[c].states[i].default_status);
		}
		free(info->cpus[c].states);
	}
	free(info->cpus);
	il_sysfs_notes_free(&info->notes);
	memset(info, 0, sizeof(*info));
}

const struct il_sysfs_cpu *il_sysfs_find_cpu(const struct il_sysfs_info *info, int cpu)
{
	for (int c = 0; c < info->ncpus; c++)
		if (info->cpus[c].cpu == cpu)
			return &info->cpus[c];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Save */

static int mkdir_at(const char *base, const char *rel, struct il_err *err)
{
	char *p = path_join(base, rel);
	int r = 0;

	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		r = il_err_set_at(err, errno, p, 0, "cannot create directory: %s", strerror(errno));
	free(p);
	return r;
}

static int write_at(const char *base, const char *rel, const struct raw *raw, int *nfiles,
		    struct il_err *err)
{
	char *p;
	int fd, r = 0;
	size_t off = 0;

	if (raw->status != IL_SYSFS_OK)
		return 0;
	p = path_join(base, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = il_err_set_at(err, errno, p, 0, "cannot create: %s", strerror(errno));
		free(p);
		return r;
	}
	while (off < raw->len) {
		ssize_t n = write(fd, raw->data + off, raw->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = il_err_set_at(err, n < 0 ? errno : EIO, p, 0, "cannot write: %s",
					  strerror(n < 0 ? errno : EIO));
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) != 0 && !r)
		r = il_err_set_at(err, errno, p, 0, "cannot write: %s", strerror(errno));
	free(p);
	if (!r)
		(*nfiles)++;
	return r;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int snap_write(const struct snap *s, const char *dir, int *nfiles, struct il_err *err)
{
	int r;

	if ((r = mkdir_at(dir, "cpuidle", err)))
		return r;
	for (int g = 0; g < G_COUNT; g++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "cpuidle/%s", global_files[g]);
		if ((r = write_at(dir, rel, &s->global[g], nfiles, err)))
			return r;
	}
	for (int c = 0; c < s->ncpus; c++) {
		const struct snap_cpu *sc = &s->cpus[c];
		char rel[96];

		snprintf(rel, sizeof(rel), "cpu%d", sc->cpu);
		if ((r = mkdir_at(dir, rel, err)))
			return r;
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle", sc->cpu);
		if ((r = mkdir_at(dir, rel, err)))
			return r;
		if (sc->driver_name.status == IL_SYSFS_OK) {
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver", sc->cpu);
			if ((r = mkdir_at(dir, rel, err)))
				return r;
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver/name", sc->cpu);
			if ((r = write_at(dir, rel, &sc->driver_name, nfiles, err)))
				return r;
		}
		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d", sc->cpu, ss->index);
			if ((r = mkdir_at(dir, rel, err)))
				return r;
			if (ss->f[F_S2IDLE_USAGE].status == IL_SYSFS_OK ||
			    ss->f[F_S2IDLE_TIME].status == IL_SYSFS_OK) {
				snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/s2idle", sc->cpu,
					 ss->index);
				if ((r = mkdir_at(dir, rel, err)))
					return r;
			}
			for (int f = 0; f < F_COUNT; f++) {
				snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/%s", sc->cpu,
					 ss->index, state_files[f]);
				if ((r = write_at(dir, rel, &ss->f[f], nfiles, err)))
					return r;
			}
		}
	}
	return 0;
}

int il_sysfs_save(const char *root, const struct il_cpulist *only, const char *dest,
		  struct il_sysfs_notes *notes, int *nfiles, struct il_err *err)
{
	struct snap s;
	struct stat st;
	char *tmp, *d;
	size_t n;
	int r, count = 0;

	if (nfiles)
		*nfiles = 0;
	if (!*dest)
		return il_err_set(err, EINVAL, "empty directory name for --save");
	/* "out/" names the directory out: the temporary must be a sibling */
	d = il_xstrdup(dest);
	for (n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
		d[n - 1] = '\0';
	if (lstat(d, &st) == 0) {
		r = il_err_set_at(err, EEXIST, dest, 0, "already exists (will not overwrite)");
		free(d);
		return r;
	}
	r = snap_take(&s, root, only, notes, err);
	if (r) {
		free(d);
		return r;
	}
	n = strlen(d) + 32;
	tmp = il_xcalloc(1, n);
	snprintf(tmp, n, "%s.tmp.%ld", d, (long)getpid());
	if (mkdir(tmp, 0755) != 0) {
		r = il_err_set_at(err, errno, dest, 0, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		free(d);
		snap_free(&s);
		return r;
	}
	r = snap_write(&s, tmp, &count, err);
	if (!r && rename(tmp, d) != 0)
		r = il_err_set_at(err, errno, dest, 0, "cannot rename %s into place: %s", tmp,
				  strerror(errno));
	if (r)
		nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	else if (nfiles)
		*nfiles = count;
	free(tmp);
	free(d);
	snap_free(&s);
	return r;
}
