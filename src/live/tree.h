/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading and writing trees laid out as /sys and /proc, inside src/live.
 *
 * One set of rules for every file the live tools read (info, doctor,
 * capture, platform capture) and every copy they write (info --save,
 * capture):
 *
 * - Below the root no symbolic link is followed: every name is one
 *   component from a fixed set (never "." or ".."), opened relative to an
 *   already open directory with O_NOFOLLOW. A multi-component path is
 *   walked one component at a time the same way. The root itself is taken
 *   as named (it may be a link).
 * - Only regular files with a single link are read (a hard link could
 *   bring a file from outside into the tree), each at most a given size
 *   (a page for sysfs attributes), opened O_NONBLOCK|O_NOCTTY and checked
 *   to be the file that was examined. A FIFO, device or socket is not
 *   opened. The one exception is a character device the caller names as
 *   allowed (/dev/cpu_dma_latency on the live machine).
 * - A copy holds only regular files written with O_EXCL|O_NOFOLLOW below
 *   a temporary directory (il_outdir), with modes the caller gives.
 *
 * Problems with single files never stop a read: they become notes
 * ("PATH: what is wrong") and the file reads as bad.
 */
#ifndef IDLELAB_LIVE_TREE_H
#define IDLELAB_LIVE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "idlelab/err.h"
#include "idlelab/sysfs.h"

/* What kind of file a tree holds, for messages. */
struct il_tree_kind {
	const char *what;     /* "a sysfs attribute" */
	const char *links;    /* "sysfs has none here" */
};
extern const struct il_tree_kind il_tree_sysfs, il_tree_proc;

/* A file's bytes as read. */
struct il_raw {
	enum il_sysfs_status status; /* MISSING, OK (data valid, NUL-terminated) or BAD (noted) */
	char *data;
	size_t len;
};
void il_raw_free(struct il_raw *r);

/* "a/b" (a trailing slash of a is not doubled); malloc'ed. */
char *il_tree_join(const char *a, const char *b);
void il_tree_note(struct il_sysfs_notes *notes, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "symbolic link: not followed (sysfs has none here)" */
const char *il_tree_link_msg(const struct il_tree_kind *k, char *buf, size_t size);

/* Open directory name (one component) below dirfd: fd, or -errno (-ELOOP: a link). */
int il_tree_opendir(int dirfd, const char *name);
/*
 * Open the directory rel ("sys/devices/system/cpu", components separated
 * by '/', none empty, "." or "..") below dirfd, one component at a time:
 * fd, or -errno (-ELOOP: one component is a link, -EINVAL: a bad rel).
 */
int il_tree_opendir_path(int dirfd, const char *rel);

/*
 * Read file name (one component) of dirfd, at most max bytes; path is
 * what notes name. A missing file is IL_SYSFS_MISSING without a note.
 * allow_chr: a character device is read too (one read() of at most max
 * bytes), for /dev/cpu_dma_latency.
 */
void il_tree_read(int dirfd, const char *name, const char *path, size_t max,
		  const struct il_tree_kind *k, bool allow_chr, struct il_raw *r,
		  struct il_sysfs_notes *notes);
/*
 * Read rel ("proc/sys/kernel/osrelease") below dirfd: the directories are
 * walked as il_tree_opendir_path does; root is the name of dirfd for
 * notes. A missing directory on the way reads as missing.
 */
void il_tree_read_path(int dirfd, const char *root, const char *rel, size_t max,
		       const struct il_tree_kind *k, bool allow_chr, struct il_raw *r,
		       struct il_sysfs_notes *notes);

/* The sorted numbers N of the entries prefix<N> of dirfd (canonical decimal, < max); -errno. */
int il_tree_list_numbered(int dirfd, const char *prefix, int max, int **out);

/* Writing a copy below an open (temporary) directory. */
struct il_tree_writer {
	int dfd;                   /* the temporary directory */
	const char *dest;          /* for messages: dest/rel */
	int nfiles;
	struct il_err *err;
};
/* mkdir -p of rel below the writer's directory, mode 0755 less the umask. */
int il_tree_mkdirs(struct il_tree_writer *w, const char *rel);
/*
 * Create rel (its directories made as needed) with mode and contents
 * data[0..len). The file must not exist. 0 or a negative errno with err
 * naming dest/rel.
 */
int il_tree_write(struct il_tree_writer *w, const char *rel, mode_t mode, const char *data,
		  size_t len);

#endif
