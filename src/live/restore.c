// SPDX-License-Identifier: GPL-2.0-only
/*
 * Changes to the machine, written back at exit, on error and on signals
 * (include/idlelab/restore.h). Moved here from bench/bench_live_sweep.c,
 * whose restore used stdio in the signal handler: this one keeps each
 * file's directory open and writes with open/write/close only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/outfile.h"
#include "idlelab/restore.h"
#include "tree.h"
#include "util.h"

struct change {
	int dirfd;                        /* the file's directory, open for the restore */
	char name[64];                    /* the file in it */
	char path[512];                   /* for messages */
	char old[IL_CHANGE_VALUE_MAX];
	size_t oldlen;
};

static struct change changes[IL_CHANGES_MAX];
static volatile sig_atomic_t nchanges;
static bool installed;
/*
 * Held while the changes are written back. A handler's mask blocks a
 * second signal in its own thread only: in a program with threads (the
 * sweep's waker and wakee) a second signal runs the handler in another
 * thread, which must wait for the first restore, not write beside it.
 */
static atomic_flag restoring = ATOMIC_FLAG_INIT;

/*
 * SIGPIPE too: a change is said on stderr right after it is made, and a
 * reader of stderr that has gone (`2>&1 | head -1`) would otherwise kill
 * the process with the change in force. SIGQUIT (^\) too: its default
 * action ends the process as SIGTERM's does, with a core dump besides.
 */
static const int restore_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE };
#define NSIGS (sizeof(restore_signals) / sizeof(restore_signals[0]))
static struct sigaction old_action[NSIGS];

/* Async-signal-safe message: the pieces written one after the other. */
static void say(const char *const *parts, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = parts[i];
		size_t len = strlen(p);
		while (len) {
			ssize_t w = write(STDERR_FILENO, p, len);
			if (w <= 0)
				return;
			p += w;
			len -= (size_t)w;
		}
	}
}

/* Write value (len bytes) to name below dirfd: 0 or -errno. Async-signal-safe. */
static int put_value(int dirfd, const char *name, const char *value, size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	int r = 0;
	ssize_t w;

	if (fd < 0)
		return -errno;
	/* one write: sysfs takes an attribute's value in one store() */
	w = write(fd, value, len);
	if (w < 0)
		r = -errno;
	else if ((size_t)w != len)
		r = -EIO;
	if (close(fd) != 0 && !r && errno != EINTR)
		r = -errno;
	return r;
}

/* Restore everything; async-signal-safe. Returns how many failed. */
static int restore_all(void)
{
	int bad = 0;

	/* the holder is another thread (its signals are blocked while it holds it) */
	while (atomic_flag_test_and_set(&restoring)) {
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	while (nchanges > 0) {
		struct change *c = &changes[nchanges - 1];
		int r = put_value(c->dirfd, c->name, c->old, c->oldlen);

		if (r) {
			const char *p[] = { "idlelab: could not restore ", c->path, " to '", c->old,
					    "': ", strerror(-r), "\n" };
			say(p, 7);
			bad++;
		} else {
			const char *p[] = { "restored ", c->path, " to '", c->old, "'\n" };
			say(p, 5);
		}
		close(c->dirfd);
		nchanges--;
	}
	atomic_flag_clear(&restoring);
	return bad;
}

static void on_signal(int sig)
{
	restore_all();
	il_out_cleanup();
	for (size_t i = 0; i < NSIGS; i++)
		if (restore_signals[i] == sig) {
			/* a handler that was there first (outfile's) runs next, else the default */
			if (old_action[i].sa_handler != SIG_DFL && old_action[i].sa_handler != SIG_IGN)
				sigaction(sig, &old_action[i], NULL);
			else
				signal(sig, SIG_DFL);
		}
	raise(sig);
}

/* restore_all() outside the handler: with the handler's signals blocked */
static int restore_blocked(void)
{
	sigset_t set, old;
	int bad;

	sigemptyset(&set);
	for (size_t i = 0; i < NSIGS; i++)
		sigaddset(&set, restore_signals[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	bad = restore_all();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return bad;
}

static void at_exit(void)
{
	restore_blocked();
}

static void install(void)
{
	if (installed)
		return;
	installed = true;
	atexit(at_exit);
	for (size_t i = 0; i < NSIGS; i++) {
		struct sigaction sa;

		if (sigaction(restore_signals[i], NULL, &old_action[i]) != 0 ||
		    old_action[i].sa_handler == SIG_IGN)
			continue;   /* an ignored signal stays ignored */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigfillset(&sa.sa_mask);
		sigaction(restore_signals[i], &sa, NULL);
	}
}

int il_change_write(const char *root, const char *rel, const char *value, struct il_err *err)
{
	const char *slash = strrchr(rel, '/');
	char *path = il_tree_join(root, rel), *dir;
	struct il_sysfs_notes notes = { 0 };
	struct change *c;
	struct il_raw raw;
	int rootfd, dfd, r;
	size_t vl = strlen(value);

	if (nchanges == IL_CHANGES_MAX) {
		r = il_err_set(err, ENOSPC, "more than %d changes to the machine", IL_CHANGES_MAX);
		free(path);
		return r;
	}
	if (!slash || strlen(slash + 1) >= sizeof(changes[0].name) || vl >= IL_CHANGE_VALUE_MAX ||
	    strchr(value, '\n')) {
		r = il_err_set_at(err, EINVAL, path, 0, "cannot write '%s': not a value idlelab "
				  "writes", value);
		free(path);
		return r;
	}
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		r = il_err_set_at(err, errno, root, 0, "cannot open: %s", strerror(errno));
		free(path);
		return r;
	}
	dir = il_xcalloc(1, (size_t)(slash - rel) + 1);
	memcpy(dir, rel, (size_t)(slash - rel));
	dfd = il_tree_opendir_path(rootfd, dir);
	free(dir);
	close(rootfd);
	if (dfd < 0) {
		r = il_err_set_at(err, -dfd, path, 0, dfd == -ELOOP ? "symbolic link on the way: "
				  "not followed" : dfd == -ENOENT ? "no such file" :
				  "cannot open its directory: %s", strerror(-dfd));
		free(path);
		return r;
	}
	/* the old value first: what the restore writes back */
	il_tree_read(dfd, slash + 1, path, IL_SYSFS_FILE_MAX, &il_tree_sysfs, false, &raw, &notes);
	if (raw.status != IL_SYSFS_OK) {
		r = il_err_set_at(err, ENOENT, path, 0, "%s", raw.status == IL_SYSFS_MISSING ?
				  "no such file" : notes.items[0].msg);
		goto fail;
	}
	while (raw.len && (raw.data[raw.len - 1] == '\n' || raw.data[raw.len - 1] == ' '))
		raw.data[--raw.len] = '\0';
	if (raw.len >= IL_CHANGE_VALUE_MAX || memchr(raw.data, '\0', raw.len)) {
		r = il_err_set_at(err, EINVAL, path, 0, "its value is not one idlelab can restore");
		goto fail;
	}
	if (!strcmp(raw.data, value)) {
		/* no change: nothing to restore */
		r = 0;
		goto fail;
	}
	install();
	c = &changes[nchanges];
	c->dirfd = dfd;
	snprintf(c->name, sizeof(c->name), "%s", slash + 1);
	snprintf(c->path, sizeof(c->path), "%s", path);
	memcpy(c->old, raw.data, raw.len + 1);
	c->oldlen = raw.len;
	/*
	 * recorded before the write: a signal from now on restores it. The
	 * fence keeps the compiler from moving the record's stores after the
	 * count the handler reads (volatile orders only volatile accesses).
	 */
	atomic_signal_fence(memory_order_release);
	nchanges++;
	r = put_value(dfd, slash + 1, value, vl);
	if (r) {
		r = il_err_set_at(err, -r, path, 0, "cannot write '%s': %s", value, strerror(-r));
		/* a refused write changed nothing, but the old value is put back all the same */
		put_value(dfd, slash + 1, c->old, c->oldlen);
		nchanges--;
		goto fail;
	}
	fprintf(stderr, "changed %s from '%s' to '%s' (restored at exit)\n", path, c->old, value);
	il_raw_free(&raw);
	il_sysfs_notes_free(&notes);
	free(path);
	return 0;
fail:
	close(dfd);
	il_raw_free(&raw);
	il_sysfs_notes_free(&notes);
	free(path);
	return r;
}

int il_change_governor(const char *root, const char *governor, struct il_err *err)
{
	return il_change_write(root, "sys/devices/system/cpu/cpuidle/current_governor", governor,
			       err);
}

static bool ident(const char *s, size_t n)
{
	if (!n || n > 48)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

int il_change_param(const char *root, const char *assignment, struct il_err *err)
{
	const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
	char rel[160];

	if (!dot || !eq || dot > eq || !ident(assignment, (size_t)(dot - assignment)) ||
	    !ident(dot + 1, (size_t)(eq - dot - 1)))
		return il_err_set(err, EINVAL, "'%s': want MODULE.PARAM=VALUE", assignment);
	snprintf(rel, sizeof(rel), "sys/module/%.*s/parameters/%.*s", (int)(dot - assignment),
		 assignment, (int)(eq - dot - 1), dot + 1);
	return il_change_write(root, rel, eq + 1, err);
}

int il_change_state_disable(const char *root, int cpu, int state, int disable,
			    struct il_err *err)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu,
		 state);
	return il_change_write(root, rel, disable ? "1" : "0", err);
}

int il_change_restore(void)
{
	return restore_blocked();
}

int il_change_count(void)
{
	return nchanges;
}
