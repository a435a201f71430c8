// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading and writing /sys- and /proc-shaped trees without following
 * links below the root (src/live/tree.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"
#include "util.h"

const struct il_tree_kind il_tree_sysfs = { "a sysfs attribute", "sysfs has none here" };
const struct il_tree_kind il_tree_proc = { "a kernel file", "the kernel has none here" };

void il_raw_free(struct il_raw *r)
{
	free(r->data);
	memset(r, 0, sizeof(*r));
}

char *il_tree_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = il_xcalloc(1, la + lb + 2);

	memcpy(p, a, la);
	if (la && a[la - 1] != '/')
		p[la++] = '/';
	memcpy(p + la, b, lb + 1);
	return p;
}

void il_tree_note(struct il_sysfs_notes *notes, const char *path, const char *fmt, ...)
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

const char *il_tree_link_msg(const struct il_tree_kind *k, char *buf, size_t size)
{
	snprintf(buf, size, "symbolic link: not followed (%s)", k->links);
	return buf;
}

int il_tree_opendir(int dirfd, const char *name)
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

/* Is c one path component we may open: not empty, ".", ".." and without '/'? */
static bool good_component(const char *c, size_t len)
{
	return len && len < 256 && !(len == 1 && c[0] == '.') &&
	       !(len == 2 && c[0] == '.' && c[1] == '.') && !memchr(c, '/', len);
}

int il_tree_opendir_path(int dirfd, const char *rel)
{
	char comp[256];
	const char *p = rel;
	int fd = dup(dirfd);

	if (fd < 0)
		return -errno;
	while (*p) {
		size_t len = strcspn(p, "/");
		int nfd;

		if (!good_component(p, len)) {
			close(fd);
			return -EINVAL;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		nfd = il_tree_opendir(fd, comp);
		close(fd);
		if (nfd < 0)
			return nfd;
		fd = nfd;
		p += len;
		if (*p == '/')
			p++;
	}
	return fd;
}

void il_tree_read(int dirfd, const char *name, const char *path, size_t max,
		  const struct il_tree_kind *k, bool allow_chr, struct il_raw *r,
		  struct il_sysfs_notes *notes)
{
	char lm[128];
	struct stat st, fst;
	size_t len = 0, cap;
	char *buf;
	bool chr;
	int fd;

	memset(r, 0, sizeof(*r));
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return;
		r->status = IL_SYSFS_BAD;
		il_tree_note(notes, path, "cannot read: %s", strerror(errno));
		return;
	}
	r->status = IL_SYSFS_BAD;
	if (S_ISLNK(st.st_mode)) {
		il_tree_note(notes, path, "%s", il_tree_link_msg(k, lm, sizeof(lm)));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		il_tree_note(notes, path, "cannot read: %s", strerror(EISDIR));
		return;
	}
	chr = allow_chr && S_ISCHR(st.st_mode);
	if (!S_ISREG(st.st_mode) && !chr) {
		il_tree_note(notes, path, "not a regular file: not %s", k->what);
		return;
	}
	if (st.st_nlink > 1) {
		il_tree_note(notes, path, "has %ju hard links: not %s", (uintmax_t)st.st_nlink,
			     k->what);
		return;
	}
	/* O_NONBLOCK, O_NOCTTY: whatever is swapped in meanwhile must not hang or stick */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			il_tree_note(notes, path, "%s", il_tree_link_msg(k, lm, sizeof(lm)));
		else
			il_tree_note(notes, path, "cannot read: %s", strerror(errno));
		return;
	}
	if (fstat(fd, &fst) != 0 || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino ||
	    (fst.st_mode & S_IFMT) != (st.st_mode & S_IFMT)) {
		il_tree_note(notes, path, "changed while being read");
		close(fd);
		return;
	}
	cap = max < 4096 ? max + 1 : 4097;
	buf = il_xcalloc(1, cap);
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			il_tree_note(notes, path, "cannot read: %s", strerror(errno));
			close(fd);
			free(buf);
			return;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			if (max == IL_SYSFS_FILE_MAX)
				il_tree_note(notes, path, "more than %zu bytes: not %s", max, k->what);
			else
				il_tree_note(notes, path, "more than %zu bytes: larger than idlelab "
					     "reads", max);
			close(fd);
			free(buf);
			return;
		}
		/* a device gives one record per read (cpu_dma_latency: an s32) */
		if (chr)
			break;
		if (len == cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = il_xrealloc(buf, cap);
		}
	}
	close(fd);
	r->status = IL_SYSFS_OK;
	r->len = len;
	r->data = il_xrealloc(buf, len + 1);
	r->data[len] = '\0';
}

void il_tree_read_path(int dirfd, const char *root, const char *rel, size_t max,
		       const struct il_tree_kind *k, bool allow_chr, struct il_raw *r,
		       struct il_sysfs_notes *notes)
{
	const char *slash = strrchr(rel, '/');
	char *path = il_tree_join(root, rel);
	char lm[128];
	int fd;

	memset(r, 0, sizeof(*r));
	if (slash) {
		char *dir = il_xcalloc(1, (size_t)(slash - rel) + 1);
		memcpy(dir, rel, (size_t)(slash - rel));
		fd = il_tree_opendir_path(dirfd, dir);
		free(dir);
		if (fd < 0) {
			if (fd == -ELOOP) {
				r->status = IL_SYSFS_BAD;
				il_tree_note(notes, path, "%s (on its way)",
					     il_tree_link_msg(k, lm, sizeof(lm)));
			} else if (fd != -ENOENT && fd != -ENOTDIR) {
				r->status = IL_SYSFS_BAD;
				il_tree_note(notes, path, "cannot open: %s", strerror(-fd));
			}
			free(path);
			return;
		}
		il_tree_read(fd, slash + 1, path, max, k, allow_chr, r, notes);
		close(fd);
	} else {
		il_tree_read(dirfd, rel, path, max, k, allow_chr, r, notes);
	}
	free(path);
}

/* "prefix<N>" with N canonical decimal (no sign, no leading zero) below max. */
static int numbered(const char *name, const char *prefix, int max)
{
	size_t pl = strlen(prefix);
	long v = 0;

	if (strncmp(name, prefix, pl))
		return -1;
	name += pl;
	if (!*name || (name[0] == '0' && name[1]))
		return -1;
	for (; *name; name++) {
		if (*name < '0' || *name > '9')
			return -1;
		v = v * 10 + (*name - '0');
		if (v >= max)
			return -1;
	}
	return (int)v;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int il_tree_list_numbered(int dirfd, const char *prefix, int max, int **out)
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

/* ------------------------------------------------------------------ */
/* Writing */

#define DIR_MODE 0755

int il_tree_mkdirs(struct il_tree_writer *w, const char *rel)
{
	char *p = il_xstrdup(rel);
	int r = 0;

	for (char *s = p;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = '\0';
		if (*p && mkdirat(w->dfd, p, DIR_MODE) != 0 && errno != EEXIST) {
			char *full = il_tree_join(w->dest, p);
			r = il_err_set_at(w->err, errno, full, 0, "cannot create directory: %s",
					  strerror(errno));
			free(full);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return r;
}

int il_tree_write(struct il_tree_writer *w, const char *rel, mode_t mode, const char *data,
		  size_t len)
{
	const char *slash = strrchr(rel, '/');
	char *full;
	size_t off = 0;
	int fd, r = 0;

	if (slash) {
		char *dir = il_xcalloc(1, (size_t)(slash - rel) + 1);
		memcpy(dir, rel, (size_t)(slash - rel));
		r = il_tree_mkdirs(w, dir);
		free(dir);
		if (r)
			return r;
	}
	full = il_tree_join(w->dest, rel);
	fd = openat(w->dfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
		    mode);
	if (fd < 0) {
		r = il_err_set_at(w->err, errno, full, 0, "cannot create: %s", strerror(errno));
		free(full);
		return r;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;
			r = il_err_set_at(w->err, e, full, 0, "cannot write: %s", strerror(e));
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) != 0 && !r && errno != EINTR)
		r = il_err_set_at(w->err, errno, full, 0, "cannot write: %s", strerror(errno));
	free(full);
	if (!r)
		w->nfiles++;
	return r;
}
