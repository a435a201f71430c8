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
#include "live_internal.h"
#include "tree.h"
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
struct snap_state {
	int index;
	struct il_raw f[F_COUNT];
};

struct snap_cpu {
	int cpu;
	int fd;                      /* cpu<N>/cpuidle while the snapshot is taken */
	struct il_raw driver_name;      /* cpu<N>/cpuidle/driver/name, multi-driver kernels */
	int nstates;
	struct snap_state *st;
};

struct snap {
	char *root;
	struct il_raw global[G_COUNT];
	int ncpus;
	struct snap_cpu *cpus;
};

static const char link_msg[] = "symbolic link: not followed (sysfs has none here)";

/* Read the attribute name (one component) of the directory dirfd; path is for notes. */
static void raw_read(int dirfd, const char *name, const char *path, struct il_raw *r,
		     struct il_sysfs_notes *notes)
{
	il_tree_read(dirfd, name, path, IL_SYSFS_FILE_MAX, &il_tree_sysfs, false, r, notes);
}

/*
 * Read the files names[0..n) of subdirectory sub of dirfd (s2idle/,
 * driver/): missing if sub is, one note if it cannot be opened.
 */
static void raw_read_sub(int dirfd, const char *sub, const char *subpath,
			 const char *const *names, struct il_raw *const *out, int n,
			 struct il_sysfs_notes *notes)
{
	int fd = il_tree_opendir(dirfd, sub);

	for (int i = 0; i < n; i++)
		memset(out[i], 0, sizeof(*out[i]));
	if (fd == -ENOENT || fd == -ENOTDIR)
		return;
	if (fd < 0) {
		if (fd == -ELOOP)
			il_tree_note(notes, subpath, "%s", link_msg);
		else
			il_tree_note(notes, subpath, "cannot open: %s", strerror(-fd));
		for (int i = 0; i < n; i++)
			out[i]->status = IL_SYSFS_BAD;
		return;
	}
	for (int i = 0; i < n; i++) {
		char *p = il_tree_join(subpath, names[i]);
		raw_read(fd, names[i], p, out[i], notes);
		free(p);
	}
	close(fd);
}

static void snap_free(struct snap *s)
{
	for (int g = 0; g < G_COUNT; g++)
		il_raw_free(&s->global[g]);
	for (int c = 0; c < s->ncpus; c++) {
		struct snap_cpu *sc = &s->cpus[c];
		il_raw_free(&sc->driver_name);
		for (int i = 0; i < sc->nstates; i++)
			for (int f = 0; f < F_COUNT; f++)
				il_raw_free(&sc->st[i].f[f]);
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
	dir = il_tree_join(s->root, rel);
	n = il_tree_list_numbered(sc->fd, "state", IL_SYSFS_STATE_MAX, &idx);
	if (n < 0) {
		il_tree_note(notes, dir, "cannot list: %s", strerror(-n));
		free(dir);
		return;
	}
	p = il_tree_join(dir, "driver");
	raw_read_sub(sc->fd, "driver", p, driver_files, (struct il_raw *const[]){ &sc->driver_name },
		     1, notes);
	free(p);
	sc->st = il_xcalloc((size_t)n, sizeof(*sc->st));
	for (int i = 0; i < n; i++) {
		struct snap_state *ss = &sc->st[sc->nstates];
		char sd[32];
		char *sdir;
		int fd;

		snprintf(sd, sizeof(sd), "state%d", idx[i]);
		sdir = il_tree_join(dir, sd);
		fd = il_tree_opendir(sc->fd, sd);
		if (fd < 0) {
			/* a link (or a file) where a state directory should be: left out */
			if (fd == -ELOOP)
				il_tree_note(notes, sdir, "%s", link_msg);
			else if (fd != -ENOENT)
				il_tree_note(notes, sdir, "cannot open: %s", strerror(-fd));
			free(sdir);
			continue;
		}
		ss->index = idx[i];
		for (int f = 0; f < F_S2IDLE_USAGE; f++) {
			p = il_tree_join(sdir, state_files[f]);
			raw_read(fd, state_files[f], p, &ss->f[f], notes);
			free(p);
		}
		p = il_tree_join(sdir, "s2idle");
		raw_read_sub(fd, "s2idle", p, s2idle_files,
			     (struct il_raw *const[]){ &ss->f[F_S2IDLE_USAGE], &ss->f[F_S2IDLE_TIME] }, 2,
			     notes);
		free(p);
		close(fd);
		free(sdir);
		sc->nstates++;
	}
	free(idx);
	free(dir);
}

/*
 * Open the root: base as named (it may be a link), then rel below it
 * (NULL: none) without following links. The name for messages is base/rel.
 */
static int root_open(const char *base, const char *rel, char **name, struct il_err *err)
{
	int fd, bfd;

	*name = rel ? il_tree_join(base, rel) : il_xstrdup(base);
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0) {
		if (errno == ENOTDIR)
			return il_err_set_at(err, ENOTDIR, base, 0,
					     rel ? "not a directory" :
					     "not a directory (want /sys/devices/system/cpu or a saved copy)");
		return il_err_set_at(err, errno, base, 0, "cannot open: %s", strerror(errno));
	}
	if (!rel)
		return bfd;
	fd = il_tree_opendir_path(bfd, rel);
	close(bfd);
	if (fd == -ELOOP)
		return il_err_set_at(err, ELOOP, *name, 0, "%s (on its way)", link_msg);
	if (fd == -ENOENT || fd == -ENOTDIR)
		return il_err_set_at(err, ENOENT, *name, 0, "no such directory");
	if (fd < 0)
		return il_err_set_at(err, -fd, *name, 0, "cannot open: %s", strerror(-fd));
	return fd;
}

/* Read everything below base/rel for the selected CPUs. */
static int snap_take(struct snap *s, const char *base, const char *below,
		     const struct il_cpulist *only, struct il_sysfs_notes *notes,
		     struct il_err *err)
{
	char *idle = NULL;
	int *cpus = NULL, n, r = 0, rootfd, idlefd;

	memset(s, 0, sizeof(*s));
	rootfd = root_open(base ? base : IL_SYSFS_DEFAULT_ROOT, below, &s->root, err);
	if (rootfd < 0) {
		r = rootfd;
		goto fail;
	}
	idle = il_tree_join(s->root, "cpuidle");
	idlefd = il_tree_opendir(rootfd, "cpuidle");
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
		char *p = il_tree_join(idle, global_files[g]);
		raw_read(idlefd, global_files[g], p, &s->global[g], notes);
		free(p);
	}
	close(idlefd);

	n = il_tree_list_numbered(rootfd, "cpu", IL_SYSFS_CPU_MAX, &cpus);
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
		fd = il_tree_opendir(rootfd, rel);
		if (fd >= 0) {
			cfd = il_tree_opendir(fd, "cpuidle");
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
		p = il_tree_join(s->root, rel);
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
			il_tree_note(notes, p, "%s", link_msg);
		else if (cfd != -ENOENT && cfd != -ENOTDIR)
			il_tree_note(notes, p, "cannot open: %s", strerror(-cfd));
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

static void parse_str(const struct il_raw *r, struct il_sysfs_str *out, const char *path,
		      struct il_sysfs_notes *notes)
{
	out->status = r->status;
	out->s = NULL;
	if (r->status == IL_SYSFS_OK) {
		out->s = il_sysfs_parse_str(r->data, r->len);
		if (!out->s) {
			char q[256];
			quote(q, sizeof(q), r->data, r->len);
			il_tree_note(notes, path, "not text: '%s'", q);
			out->status = IL_SYSFS_BAD;
		}
	}
	if (!out->s)
		out->s = il_xstrdup("");
}

static void parse_val(const struct il_raw *r, struct il_sysfs_val *out, const char *path,
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
	il_tree_note(notes, path, e == -ERANGE ? "out of range: '%s'" : "not a number: '%s'", q);
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
	char *idle = il_tree_join(s->root, "cpuidle");
	char *p;

	p = il_tree_join(idle, global_files[G_DRIVER]);
	parse_str(&s->global[G_DRIVER], &info->driver, p, notes);
	if (s->global[G_DRIVER].status == IL_SYSFS_MISSING)
		il_tree_note(notes, p, "missing");
	free(p);
	if (s->global[G_GOVERNOR].status != IL_SYSFS_MISSING) {
		p = il_tree_join(idle, global_files[G_GOVERNOR]);
		parse_str(&s->global[G_GOVERNOR], &info->governor, p, notes);
	} else {
		p = il_tree_join(idle, global_files[G_GOVERNOR_RO]);
		parse_str(&s->global[G_GOVERNOR_RO], &info->governor, p, notes);
		info->governor_ro = s->global[G_GOVERNOR_RO].status != IL_SYSFS_MISSING;
	}
	free(p);
	p = il_tree_join(idle, global_files[G_GOVERNORS]);
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
		p = il_tree_join(s->root, rel);
		parse_str(&sc->driver_name, &ic->driver, p, notes);
		free(p);
		ic->nstates = sc->nstates;
		ic->states = il_xcalloc((size_t)sc->nstates, sizeof(*ic->states));
		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];
			struct il_sysfs_state *st = &ic->states[i];
			char *sdir;

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d", sc->cpu, ss->index);
			sdir = il_tree_join(s->root, rel);
			st->index = ss->index;
			for (int f = 0; f < F_COUNT; f++)
				if (state_file_required[f] && ss->f[f].status == IL_SYSFS_MISSING) {
					p = il_tree_join(sdir, state_files[f]);
					il_tree_note(notes, p, "missing");
					free(p);
				}
			p = il_tree_join(sdir, "name");
			parse_str(&ss->f[F_NAME], &st->name, p, notes);
			free(p);
			p = il_tree_join(sdir, "desc");
			parse_str(&ss->f[F_DESC], &st->desc, p, notes);
			free(p);
			p = il_tree_join(sdir, "default_status");
			parse_str(&ss->f[F_DEFAULT_STATUS], &st->default_status, p, notes);
			free(p);
			for (int f = 0; f < IL_SF_COUNT; f++) {
				int file = field_file[f];
				p = il_tree_join(sdir, state_files[file]);
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
	return il_sysfs_read_below(root, NULL, only, info, err);
}

int il_sysfs_read_below(const char *base, const char *rel, const struct il_cpulist *only,
			struct il_sysfs_info *info, struct il_err *err)
{
	struct snap s;
	int r;

	memset(info, 0, sizeof(*info));
	r = snap_take(&s, base, rel, only, &info->notes, err);
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

struct saver {
	struct il_tree_writer *w;
	const char *prefix;         /* below the writer's directory: "" or "sys/devices/system/cpu" */
	const char *root;           /* for notes: root/rel */
	struct il_sysfs_notes *notes;
};

static int save_mkdir(struct saver *sv, const char *rel)
{
	char *p = il_tree_join(sv->prefix, rel);
	int r = il_tree_mkdirs(sv->w, p);

	free(p);
	return r;
}

static int save_file(struct saver *sv, const char *rel, mode_t mode, const struct il_raw *raw)
{
	char *p;
	int r;

	if (raw->status != IL_SYSFS_OK)
		return 0;
	if (memchr(raw->data, '\0', raw->len)) {
		p = il_tree_join(sv->root, rel);
		il_tree_note(sv->notes, p, "holds a NUL byte: not sysfs text, left out of the copy");
		free(p);
		return 0;
	}
	p = il_tree_join(sv->prefix, rel);
	r = il_tree_write(sv->w, p, mode, raw->data, raw->len);
	free(p);
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

		snprintf(rel, sizeof(rel), "cpu%d/cpuidle", sc->cpu);
		if ((r = save_mkdir(sv, rel)))
			return r;
		if (sc->driver_name.status == IL_SYSFS_OK) {
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/driver/name", sc->cpu);
			if ((r = save_file(sv, rel, DRIVER_NAME_MODE, &sc->driver_name)))
				return r;
		}
		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];

			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d", sc->cpu, ss->index);
			if ((r = save_mkdir(sv, rel)))
				return r;
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

/* The snapshot as an object, for the copies other files of src/live write (capture). */
struct il_sysfs_snap {
	struct snap s;
};

/*
 * For a copy (info --save, capture): the files every cpuidle kernel has
 * that the tree lacks, noted as reading notes them (snap_parse()), since
 * a copy without them is one info and doctor call damaged.
 */
static void note_missing(const struct snap *s, struct il_sysfs_notes *notes)
{
	char *idle = il_tree_join(s->root, "cpuidle");
	char *p;

	if (s->global[G_DRIVER].status == IL_SYSFS_MISSING) {
		p = il_tree_join(idle, global_files[G_DRIVER]);
		il_tree_note(notes, p, "missing");
		free(p);
	}
	free(idle);
	for (int c = 0; c < s->ncpus; c++) {
		const struct snap_cpu *sc = &s->cpus[c];

		for (int i = 0; i < sc->nstates; i++) {
			const struct snap_state *ss = &sc->st[i];
			char rel[96];

			for (int f = 0; f < F_COUNT; f++) {
				if (!state_file_required[f] || ss->f[f].status != IL_SYSFS_MISSING)
					continue;
				snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/%s", sc->cpu, ss->index,
					 state_files[f]);
				p = il_tree_join(s->root, rel);
				il_tree_note(notes, p, "missing");
				free(p);
			}
		}
	}
}

int il_sysfs_snap_take(const char *base, const char *rel, const struct il_cpulist *only,
		       struct il_sysfs_snap **out, struct il_sysfs_notes *notes, struct il_err *err)
{
	struct il_sysfs_snap *sn = il_xcalloc(1, sizeof(*sn));
	int r = snap_take(&sn->s, base, rel, only, notes, err);

	if (r) {
		free(sn);
		*out = NULL;
		return r;
	}
	note_missing(&sn->s, notes);
	*out = sn;
	return 0;
}

int il_sysfs_snap_write(const struct il_sysfs_snap *sn, struct il_tree_writer *w,
			const char *prefix, struct il_sysfs_notes *notes)
{
	struct saver sv = { .w = w, .prefix = prefix, .root = sn->s.root, .notes = notes };

	return snap_write(&sn->s, &sv);
}

void il_sysfs_snap_free(struct il_sysfs_snap *sn)
{
	if (!sn)
		return;
	snap_free(&sn->s);
	free(sn);
}

int il_sysfs_save(const char *root, const struct il_cpulist *only, const char *dest,
		  const char *meta, struct il_sysfs_notes *notes, int *nfiles, struct il_err *err)
{
	struct il_outdir out;
	struct il_tree_writer w;
	struct il_err cerr;
	struct saver sv;
	struct snap s;
	int r, cr;

	if (nfiles)
		*nfiles = 0;
	/* refuse an existing destination before reading anything */
	r = il_outdir_check_new(dest, err);
	if (r)
		return r;
	r = snap_take(&s, root, NULL, only, notes, err);
	if (r)
		return r;
	note_missing(&s, notes);
	r = il_outdir_open(&out, dest, err);
	if (r) {
		snap_free(&s);
		return r;
	}
	w = (struct il_tree_writer){ .dfd = out.fd, .dest = dest, .err = err };
	sv = (struct saver){ .w = &w, .prefix = "", .root = s.root, .notes = notes };
	r = snap_write(&s, &sv);
	if (!r && meta)
		r = il_tree_write(&w, IL_SNAPSHOT_META, 0444, meta, strlen(meta));
	cr = il_outdir_close(&out, r == 0, &cerr);
	if (cr && !r) {
		if (err)
			*err = cerr;
		r = cr;
	}
	if (!r && nfiles)
		*nfiles = w.nfiles;
	snap_free(&s);
	return r;
}
