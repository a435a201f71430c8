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
#include <sys/file.h>
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
 * The record of the changes in force, ROOT/run/idlelab/changes (tmpfs
 * /run on the machine: it lasts as long as the changes do, until a
 * reboot). A process holds it locked (flock) from its first change until
 * everything is written back; it holds "idlelab PID" and, written before
 * each change is made, a line "REL<TAB>OLD<TAB>NEW". What a process killed
 * with SIGKILL (or crashing) left changed is in it, unlocked: the next
 * run under the same root writes it back before anything else. A second
 * process that would change the machine while the first holds it is
 * refused: each would write back the other's values.
 */
#define JOURNAL_DIR "run/idlelab"
#define JOURNAL_MAX 65536
static volatile int jfd = -1;
static char jroot[4096];

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
 * And the other signals whose default action ends the process
 * (IL_END_SIGNALS: kill -USR1, a supervisor's SIGALRM, RLIMIT_CPU's
 * SIGXCPU), which used to leave the changes in force.
 */
static const int restore_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, IL_END_SIGNALS };
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
	if (jfd >= 0) {
		/* all written back: nothing for a later run (else it tries again) */
		if (!bad && ftruncate(jfd, 0) != 0)
			bad += 0;
		close(jfd);   /* and the lock goes with it */
		jfd = -1;
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

/*
 * Open rel's directory below root (*dfd) and read rel's value, trailing
 * newlines and spaces cut (raw): 0, or -errno with err (nothing open).
 */
static int read_current(const char *root, const char *rel, const char *path, int *dfd,
			struct il_raw *raw, struct il_err *err)
{
	const char *slash = strrchr(rel, '/');
	struct il_sysfs_notes notes = { 0 };
	int rootfd, r = 0;
	char *dir;

	*dfd = -1;
	memset(raw, 0, sizeof(*raw));
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return il_err_set_at(err, errno, root, 0, "cannot open: %s", strerror(errno));
	dir = il_xcalloc(1, (size_t)(slash - rel) + 1);
	memcpy(dir, rel, (size_t)(slash - rel));
	*dfd = il_tree_opendir_path(rootfd, dir);
	free(dir);
	close(rootfd);
	if (*dfd < 0) {
		int e = -*dfd;
		*dfd = -1;
		return il_err_set_at(err, e, path, 0, e == ELOOP ? "symbolic link on the way: "
				     "not followed" : e == ENOENT ? "no such file" :
				     "cannot open its directory: %s", strerror(e));
	}
	il_tree_read(*dfd, slash + 1, path, IL_SYSFS_FILE_MAX, &il_tree_sysfs, false, raw, &notes);
	if (raw->status != IL_SYSFS_OK) {
		r = il_err_set_at(err, ENOENT, path, 0, "%s", raw->status == IL_SYSFS_MISSING ?
				  "no such file" : notes.items[0].msg);
	} else {
		while (raw->len && (raw->data[raw->len - 1] == '\n' || raw->data[raw->len - 1] == ' '))
			raw->data[--raw->len] = '\0';
		if (raw->len >= IL_CHANGE_VALUE_MAX || memchr(raw->data, '\0', raw->len))
			r = il_err_set_at(err, EINVAL, path, 0, "its value is not one idlelab can "
					  "restore");
	}
	il_sysfs_notes_free(&notes);
	if (r) {
		close(*dfd);
		*dfd = -1;
		il_raw_free(raw);
	}
	return r;
}

/* Write back what a record left by a process that is gone holds; say each. */
static void replay(const char *root, const char *jpath, int fd)
{
	char *buf = il_xcalloc(1, JOURNAL_MAX + 1), *nl, *lines[IL_CHANGES_MAX];
	ssize_t n = pread(fd, buf, JOURNAL_MAX, 0);
	int nlines = 0;
	long pid = 0;

	if (n <= 0 || !(nl = memchr(buf, '\n', (size_t)n))) {
		free(buf);
		return;
	}
	buf[n] = '\0';
	*nl = '\0';
	if (sscanf(buf, "idlelab %ld", &pid) != 1)
		pid = 0;
	/* a last line cut short was never written whole: its change was not made */
	for (char *p = nl + 1, *e; (e = strchr(p, '\n')) && nlines < IL_CHANGES_MAX; p = e + 1) {
		*e = '\0';
		lines[nlines++] = p;
	}
	if (nlines)
		fprintf(stderr, "idlelab: %s: idlelab %ld ended without writing back what it "
			"changed (killed?): writing it back now\n", jpath, pid);
	for (int i = nlines - 1; i >= 0; i--) {
		char *rel = lines[i], *t1 = strchr(rel, '\t'), *t2 = strrchr(rel, '\t'), *path;
		const char *old, *new, *slash;
		struct il_raw raw;
		struct il_err err;
		int dfd, r;

		if (!t1 || t1 == t2 || strncmp(rel, "sys/", 4) || !(slash = strrchr(rel, '/')) ||
		    !slash[1]) {
			fprintf(stderr, "idlelab: %s: a line that is not REL, OLD and NEW: left out\n",
				jpath);
			continue;
		}
		*t1 = *t2 = '\0';
		old = t1 + 1;
		new = t2 + 1;
		path = il_tree_join(root, rel);
		if (read_current(root, rel, path, &dfd, &raw, &err)) {
			char m[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32];
			fprintf(stderr, "idlelab: could not restore %s to '%s': %s\n", path, old,
				il_err_format(&err, m, sizeof(m)));
			free(path);
			continue;
		}
		if (!strcmp(raw.data, new)) {
			r = put_value(dfd, slash + 1, old, strlen(old));
			if (r)
				fprintf(stderr, "idlelab: could not restore %s to '%s': %s\n", path, old,
					strerror(-r));
			else
				fprintf(stderr, "restored %s to '%s'\n", path, old);
		} else if (strcmp(raw.data, old)) {
			fprintf(stderr, "idlelab: %s is '%s', not the '%s' idlelab %ld wrote: left "
				"as it is (it was '%s' before)\n", path, raw.data, new, pid, old);
		}
		close(dfd);
		il_raw_free(&raw);
		free(path);
	}
	free(buf);
}

/*
 * Take the record of root's changes (create: for a change about to be
 * made). What a process that is gone left in it is written back first.
 * 0: taken (create: jfd open and locked; else released again), or no record
 * kept (said when create); -EBUSY with err: another process holds it.
 */
static int journal_take(const char *root, bool create, struct il_err *err)
{
	char *jpath = il_tree_join(root, JOURNAL_DIR "/changes");
	int fd = -1, dfd, e;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (rootfd < 0)
		goto none;
	if (create && mkdirat(rootfd, "run", 0755) != 0 && errno != EEXIST)
		goto none_close;
	dfd = il_tree_opendir(rootfd, "run");
	close(rootfd);
	if (dfd < 0) {
		errno = -dfd;
		goto none;
	}
	rootfd = dfd;
	if (create && mkdirat(rootfd, "idlelab", 0700) != 0 && errno != EEXIST)
		goto none_close;
	dfd = il_tree_opendir(rootfd, "idlelab");
	close(rootfd);
	if (dfd < 0) {
		errno = -dfd;
		goto none;
	}
	fd = openat(dfd, "changes", O_RDWR | O_APPEND | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC |
		    (create ? O_CREAT : 0), 0600);
	e = errno;
	close(dfd);
	errno = e;
	if (fd < 0)
		goto none;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char buf[64];
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		long pid = 0;

		close(fd);
		if (!create) {
			/* a process that lives holds it: its changes are its own to undo */
			free(jpath);
			return 0;
		}
		buf[n > 0 ? n : 0] = '\0';
		if (sscanf(buf, "idlelab %ld", &pid) != 1)
			pid = 0;
		e = il_err_set_at(err, EBUSY, jpath, 0, "another idlelab (pid %ld) has changed "
				  "this machine and not yet written it back: wait for it to end (two "
				  "at once would write back each other's values)", pid);
		free(jpath);
		return e;
	}
	replay(root, jpath, fd);
	if (ftruncate(fd, 0) != 0 || !create) {
		close(fd);
		free(jpath);
		return 0;
	}
	dprintf(fd, "idlelab %ld\n", (long)getpid());
	snprintf(jroot, sizeof(jroot), "%s", root);
	jfd = fd;
	fprintf(stderr, "idlelab: the old values are kept in %s until written back (after a "
		"kill -9, the next sweep or latency writes them back)\n", jpath);
	free(jpath);
	return 0;
none_close:
	e = errno;
	close(rootfd);
	errno = e;
none:
	if (create)
		fprintf(stderr, "idlelab: warning: %s: cannot keep a record of the changes (%s): "
			"if this process is killed with SIGKILL, write them back by hand\n", jpath,
			strerror(errno));
	free(jpath);
	return 0;
}

int il_change_recover(const char *root, struct il_err *err)
{
	if (jfd >= 0 || nchanges)
		return 0;   /* ours: written back at our end */
	return journal_take(root, false, err);
}

int il_change_write(const char *root, const char *rel, const char *value, struct il_err *err)
{
	const char *slash = strrchr(rel, '/');
	char *path = il_tree_join(root, rel);
	struct change *c;
	struct il_raw raw;
	int dfd, r;
	off_t jlen = -1;
	size_t vl = strlen(value);

	if (nchanges == IL_CHANGES_MAX) {
		r = il_err_set(err, ENOSPC, "more than %d changes to the machine", IL_CHANGES_MAX);
		free(path);
		return r;
	}
	if (!slash || strlen(slash + 1) >= sizeof(changes[0].name) || vl >= IL_CHANGE_VALUE_MAX ||
	    strchr(value, '\n') || strchr(value, '\t') || strchr(rel, '\t')) {
		r = il_err_set_at(err, EINVAL, path, 0, "cannot write '%s': not a value idlelab "
				  "writes", value);
		free(path);
		return r;
	}
	/* the old value first: what the restore writes back */
	if ((r = read_current(root, rel, path, &dfd, &raw, err))) {
		free(path);
		return r;
	}
	if (!strcmp(raw.data, value)) {
		/* no change: nothing to restore */
		r = 0;
		goto fail;
	}
	/* the first change takes the record (and writes back what a killed run left) */
	if (!nchanges && jfd < 0 && (r = journal_take(root, true, err)))
		goto fail;
	if (jfd >= 0 && !strcmp(jroot, root)) {
		/* before the change: a SIGKILL from now on leaves it recorded */
		char *line = NULL;
		int n = asprintf(&line, "%s\t%s\t%s\n", rel, raw.data, value);

		jlen = lseek(jfd, 0, SEEK_END);
		if (n < 0 || write(jfd, line, (size_t)n) != n)
			fprintf(stderr, "idlelab: warning: the record of the changes is incomplete "
				"(%s)\n", strerror(errno ? errno : EIO));
		free(line);
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
		if (jfd >= 0 && jlen >= 0 && ftruncate(jfd, jlen) != 0)
			jlen = -1;
		il_raw_free(&raw);
		free(path);
		return r;
	}
	fprintf(stderr, "changed %s from '%s' to '%s' (restored at exit)\n", path, c->old, value);
	il_raw_free(&raw);
	free(path);
	return 0;
fail:
	close(dfd);
	il_raw_free(&raw);
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
