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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelab/outfile.h"
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

/*
 * Nothing below the root is reached through a symbolic link: every name
 * is one component from the fixed sets above (never "." or ".."), opened
 * relative to an already open directory with O_NOFOLLOW, so no lookup can
 * leave the root whatever the tree holds (a saved copy, a fixture, or a
 * hostile tree whose state0/desc points at /etc/shadow). The kernel's own
 * tree has no links on these paths: cpu<N>, cpuidle, state<i>, s2idle and
 * driver are kobject directories (drivers/cpuidle/sysfs.c), the links of
 * /sys/devices/system/cpu (cpu<N>/subsystem, cpu<N>/cpufreq, ...) are not
 * read. One code path on every kernel; openat2(RESOLVE_BENEATH) would add
 * nothing for single components. Only the root itself may be a link.
 *
 * Files must be what sysfs attributes are: regular files with one link
 * (a hard link could make a file from outside the tree appear inside),
 * at most a page. Anything else is noted and reads as bad.
 */
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
	int fd;                      /* cpu<N>/cpuidle while the snapshot is taken */
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

static const char link_msg[] = "symbolic link: not followed (sysfs has none here)";

/* Open directory name (one component) below dirfd: fd, or -errno (-ELOOP: a link). */
static int dir_open_at(int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int e = errno;

	if (fd >= 0)
		return fd;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -e;
}

/* Read file name (one component) of the directory dirfd; path is for notes. */
static void raw_read(int dirfd, const char *name, const char *path, struct raw *r,
		     struct il_sysfs_notes *notes)
{
	char buf[IL_SYSFS_FILE_MAX + 1];
	struct stat st, fst;
	size_t len = 0;
	int fd;

	memset(r, 0, sizeof(*r));
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return;
		r->status = IL_SYSFS_BAD;
		note_add(notes, path, "cannot read: %s", strerror(errno));
		return;
	}
	r->status = IL_SYSFS_BAD;
	if (S_ISLNK(st.st_mode)) {
		note_add(notes, path, "%s", link_msg);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		note_add(notes, path, "cannot read: %s", strerror(EISDIR));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		note_add(notes, path, "not a regular file: not a sysfs attribute");
		return;
	}
	if (st.st_nlink > 1) {
		note_add(notes, path, "has %ju hard links: not a sysfs attribute",
			 (uintmax_t)st.st_nlink);
		return;
	}
	/* O_NONBLOCK, O_NOCTTY: whatever is swapped in meanwhile must not hang or stick */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			note_add(notes, path, "%s", link_msg);
		else
			note_add(notes, path, "cannot read: %s", strerror(errno));
		return;
	}
	if (fstat(fd, &fst) != 0 || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino ||
	    !S_ISREG(fst.st_mode)) {
		note_add(notes, path, "changed while being read");
		close(fd);
		return;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			note_add(notes, path, "cannot read: %s", strerror(errno));
			close(fd);
			return;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf)) {
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

/*
 * Read the files names[0..n) of subdirectory sub of dirfd (s2idle/,
 * driver/): missing if sub is, one note if it cannot be opened.
 */
static void raw_read_sub(int dirfd, const char *sub, const char *subpath,
			 const char *const *names, struct raw *const *out, int n,
			 struct il_sysfs_notes *notes)
{
	int fd = dir_open_at(dirfd, sub);

	for (int i = 0; i < n; i++)
		memset(out[i], 0, sizeof(*out[i]));
	if (fd == -ENOENT || fd == -ENOTDIR)
		return;
	if (fd < 0) {
		if (fd == -ELOOP)
			note_add(notes, subpath, "%s", link_msg);
		else
			note_add(notes, subpath, "cannot open: %s", strerror(-fd));
		for (int i = 0; i < n; i++)
			out[i]->status = IL_SYSFS_BAD;
		return;
	}
	for (int i = 0; i < n; i++) {
		char *p = path_join(subpath, names[i]);
		raw_read(fd, names[i], p, out[i], notes);
		free(p);
	}
	close(fd);
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

/* The sorted numbers of the entries prefix<N> of the directory dirfd; -errno if unreadable. */
static int list_numbered(int dirfd, const char *prefix, int max, int **out)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int n = 0, cap = 0, *v = NULL;

	*out = NULL;
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
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
		if (sc->fd >= 0)
			close(sc->fd);
	}
	free(s->cpus);
	free(s->root);
	memset(s, 0, sizeof(*s));
}

static void snap_cpu_take(struct snap *s, struct snap_cpu *sc, struct il_sysfs_notes *notes)
{
	static const char *const driver_files[] = { "name" };
	static const char *const s2idle_files[] = { "usage", "time" };
	char rel[64];
	char *dir, *p;
	int *idx, n;

	snprintf(rel, sizeof(rel), "cpu%d/cpuidle", sc->cpu);
	dir = path_join(s->root, rel);
	n = list_numbered(sc->fd, "state", IL_SYSFS_STATE_MAX, &idx);
	if (n < 0) {
		note_add(notes, dir, "cannot list: %s", strerror(-n));
		free(dir);
		return;
	}
	p = path_join(dir, "driver");
	raw_read_sub(sc->fd, "driver", p, driver_files, (struct raw *const[]){ &sc->driver_name },
		     1, notes);
	free(p);
	sc->st = il_xcalloc((size_t)n, sizeof(*sc->st));
	for (int i = 0; i < n; i++) {
		struct snap_state *ss = &sc->st[sc->nstates];
		char sd[32];
		char *sdir;
		int fd;

		snprintf(sd, sizeof(sd), "state%d", idx[i]);
		sdir = path_join(dir, sd);
		fd = dir_open_at(sc->fd, sd);
		if (fd < 0) {
			/* a link (or a file) where a state directory should be: left out */
			if (fd == -ELOOP)
				note_add(notes, sdir, "%s", link_msg);
			else if (fd != -ENOENT)
				note_add(notes, sdir, "cannot open: %s", strerror(-fd));
			free(sdir);
			continue;
		}
		ss->index = idx[i];
		for (int f = 0; f < F_S2IDLE_USAGE; f++) {
			p = path_join(sdir, state_files[f]);
			raw_read(fd, state_files[f], p, &ss->f[f], notes);
			free(p);
		}
		p = path_join(sdir, "s2idle");
		raw_read_sub(fd, "s2idle", p, s2idle_files,
			     (struct raw *const[]){ &ss->f[F_S2IDLE_USAGE], &ss->f[F_S2IDLE_TIME] }, 2,
			     notes);
		free(p);
		close(fd);
		free(sdir);
		sc->nstates++;
	}
	free(idx);
	free(dir);
}

/* Read everything below root for the selected CPUs. */
static int snap_take(struct snap *s, const char *root, const struct il_cpulist *only,
		     struct il_sysfs_notes *notes, struct il_err *err)
{
	char *idle = NULL;
	int *cpus = NULL, n, r = 0, rootfd, idlefd;

	memset(s, 0, sizeof(*s));
	s->root = il_xstrdup(root ? root : IL_SYSFS_DEFAULT_ROOT);
	/* the root itself is taken as named (it may be a link) */
	rootfd = open(s->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		if (errno == ENOTDIR)
			r = il_err_set_at(err, ENOTDIR, s->root, 0,
					  "not a directory (want /sys/devices/system/cpu or a saved copy)");
		else
			r = il_err_set_at(err, errno, s->root, 0, "cannot open: %s", strerror(errno));
		goto fail;
	}
	idle = path_join(s->root, "cpuidle");
	idlefd = dir_open_at(rootfd, "cpuidle");
	if (idlefd < 0) {
		if (idlefd == -ENOENT || idlefd == -ENOTDIR)
			r = il_err_set_at(err, ENOENT, idle, 0,
					  "no cpuidle directory: kernel without CONFIG_CPU_IDLE or booted with cpuidle.off=1");
		else if (idlefd == -ELOOP)
			r = il_err_set_at(err, ELOOP, idle, 0, "%s", link_msg);
		else
			r = il_err_set_at(err, -idlefd, idle, 0, "cannot open: %s", strerror(-idlefd));
		goto fail;
	}
	for (int g = 0; g < G_COUNT; g++) {
		char *p = path_join(idle, global_files[g]);
		raw_read(idlefd, global_files[g], p, &s->global[g], notes);
		free(p);
	}
	close(idlefd);

	n = list_numbered(rootfd, "cpu", IL_SYSFS_CPU_MAX, &cpus);
	if (n < 0) {
		r = il_err_set_at(err, -n, s->root, 0, "cannot list: %s", strerror(-n));
		goto fail;
	}
	s->cpus = il_xcalloc((size_t)(only ? only->n : n), sizeof(*s->cpus));
	for (int i = 0; i < (only ? only->n : n); i++) {
		int cpu = only ? only->cpus[i] : cpus[i];
		char rel[64], *p;
		int cfd = -ENOENT, fd;

		snprintf(rel, sizeof(rel), "cpu%d", cpu);
		fd = dir_open_at(rootfd, rel);
		if (fd >= 0) {
			cfd = dir_open_at(fd, "cpuidle");
			close(fd);
		} else {
			cfd = fd;
		}
		if (cfd >= 0) {
			s->cpus[s->ncpus].cpu = cpu;
			s->cpus[s->ncpus++].fd = cfd;
			continue;
		}
		/* a missing directory is named as cpu<N>/cpuidle, a link as itself */
		if (fd >= 0 || cfd == -ENOENT || cfd == -ENOTDIR)
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle", cpu);
		p = path_join(s->root, rel);
		if (only) {
			if (cfd == -ENOENT || cfd == -ENOTDIR)
				r = il_err_set_at(err, ENOENT, p, 0,
						  "no such directory: CPU %d absent, offline or without cpuidle",
						  cpu);
			else if (cfd == -ELOOP)
				r = il_err_set_at(err, ELOOP, p, 0, "%s", link_msg);
			else
				r = il_err_set_at(err, -cfd, p, 0, "cannot open: %s", strerror(-cfd));
			free(p);
			goto fail;
		}
		/* offline CPUs have no cpuidle directory: skipped, like cpupower */
		if (cfd == -ELOOP)
			note_add(notes, p, "%s", link_msg);
		else if (cfd != -ENOENT && cfd != -ENOTDIR)
			note_add(notes, p, "cannot open: %s", strerror(-cfd));
		free(p);
	}
	for (int c = 0; c < s->ncpus; c++) {
		snap_cpu_take(s, &s->cpus[c], notes);
		close(s->cpus[c].fd);
		s->cpus[c].fd = -1;
	}
	free(cpus);
	free(idle);
	close(rootfd);
	return 0;
fail:
	free(cpus);
	free(idle);
	if (rootfd >= 0)
		close(rootfd);
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

/*
 * What a saved copy holds is what the kernel could have shown: only the
 * names of the fixed sets above, only regular files, each at most a page
 * of text (no NUL byte: sysfs show() prints a C string), with the mode the
 * kernel gives the attribute (drivers/cpuidle/sysfs.c, torvalds commit
 * 063565aca373: DEVICE_ATTR(current_governor, 0644) and
 * define_one_state_rw(disable) are the writable ones, everything else,
 * s2idle/ and driver/name included, is 0444; directories are kobjects,
 * 0755), less the umask. Nothing of the source's own modes or owners is
 * copied. A file that breaks the rules is left out and noted.
 */
static const mode_t global_mode[G_COUNT] = {
	[G_DRIVER] = 0444, [G_GOVERNOR] = 0644, [G_GOVERNOR_RO] = 0444, [G_GOVERNORS] = 0444,
};
static mode_t state_mode(int f)
{
	return f == F_DISABLE ? 0644 : 0444;
}
#define DRIVER_NAME_MODE 0444
#define DIR_MODE 0755

struct saver {
	int dfd;                    /* the temporary directory */
	const char *dest;           /* for messages: dest/rel */
	const char *root;           /* for notes: root/rel */
	int nfiles;
	struct il_sysfs_notes *notes;
	struct il_err *err;
};

static int save_mkdir(struct saver *sv, const char *rel)
{
	if (mkdirat(sv->dfd, rel, DIR_MODE) != 0 && errno != EEXIST) {
		char *p = path_join(sv->dest, rel);
		int r = il_err_set_at(sv->err, errno, p, 0, "cannot create directory: %s",
				      strerror(errno));
		free(p);
		return r;
	}
	return 0;
}

static int save_file(struct saver *sv, const char *rel, mode_t mode, const struct raw *raw)
{
	char *p;
	int fd, r = 0;
	size_t off = 0;

	if (raw->status != IL_SYSFS_OK)
		return 0;
	if (memchr(raw->data, '\0', raw->len)) {
		p = path_join(sv->root, rel);
		note_add(sv->notes, p, "holds a NUL byte: not sysfs text, left out of the copy");
		free(p);
		return 0;
	}
	p = path_join(sv->dest, rel);
	fd = openat(sv->dfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
		    mode);
	if (fd < 0) {
		r = il_err_set_at(sv->err, errno, p, 0, "cannot create: %s", strerror(errno));
		free(p);
		return r;
	}
	while (off < raw->len) {
		ssize_t n = write(fd, raw->data + off, raw->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			r = il_err_set_at(sv->err, e, p, 0, "cannot write: %s", strerror(e));
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) != 0 && !r && errno != EINTR)
		r = il_err_set_at(sv->err, errno, p, 0, "cannot write: %s", strerror(errno));
	free(p);
	if (!r)
		sv->nfiles++;
	return r;
}

static int snap_write(const struct snap *s, struct saver *sv)
{
	int r;

	if ((r = save_mkdir(sv, "cpuidle")))
		return r;
	for (int g = 0; g < G_COUNT; g++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "cpuidle/%s", global_files[g]);
		if ((r = save_file(sv, rel, global_mode[g], &s->global[g])))
			return r;
	}
	for (int c = 0; c < s->ncpus; c++) {
		const struct snap_cpu *sc = &s->cpus[c];
		char rel[96];

		snprintf(rel, sizeof(rel), "cpu%d", sc->cpu);
		if ((r = save_mkdir(sv, rel)))
			return r;
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle", sc->cpu);
		if ((r = save_mkdir(sv, rel)))
			return r;
		if (sc->driver_name.status == IL_SYSFS_OK) {
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver", sc->cpu);
			if ((r = save_mkdir(sv, rel)))
				return r;
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver/name", sc->cpu);
			if ((r = save_file(sv, rel, DRIVER_NAME_MODE, &sc->driver_name)))
				return r;
		}
		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d", sc->cpu, ss->index);
			if ((r = save_mkdir(sv, rel)))
				return r;
			if (ss->f[F_S2IDLE_USAGE].status == IL_SYSFS_OK ||
			    ss->f[F_S2IDLE_TIME].status == IL_SYSFS_OK) {
				snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/s2idle", sc->cpu,
					 ss->index);
				if ((r = save_mkdir(sv, rel)))
					return r;
			}
			for (int f = 0; f < F_COUNT; f++) {
				snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/%s", sc->cpu,
					 ss->index, state_files[f]);
				if ((r = save_file(sv, rel, state_mode(f), &ss->f[f])))
					return r;
			}
		}
	}
	return 0;
}

int il_sysfs_save(const char *root, const struct il_cpulist *only, const char *dest,
		  struct il_sysfs_notes *notes, int *nfiles, struct il_err *err)
{
	struct il_outdir out;
	struct il_err cerr;
	struct saver sv;
	struct snap s;
	struct stat st;
	char *d;
	size_t n;
	int r, cr;

	if (nfiles)
		*nfiles = 0;
	if (!*dest)
		return il_err_set(err, EINVAL, "empty directory name for --save");
	/* refuse an existing destination before reading anything */
	d = il_xstrdup(dest);
	for (n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
		d[n - 1] = '\0';
	r = lstat(d, &st);
	free(d);
	if (r == 0)
		return il_err_set_at(err, EEXIST, dest, 0, "already exists (will not overwrite)");
	r = snap_take(&s, root, only, notes, err);
	if (r)
		return r;
	r = il_outdir_open(&out, dest, err);
	if (r) {
		snap_free(&s);
		return r;
	}
	sv = (struct saver){ .dfd = out.fd, .dest = dest, .root = s.root, .notes = notes, .err = err };
	r = snap_write(&s, &sv);
	cr = il_outdir_close(&out, r == 0, &cerr);
	if (cr && !r) {
		if (err)
			*err = cerr;
		r = cr;
	}
	if (!r && nfiles)
		*nfiles = sv.nfiles;
	snap_free(&s);
	return r;
}
