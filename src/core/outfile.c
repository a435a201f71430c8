// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files and directories that appear only when complete, and the
 * signal-time clean-up of their temporaries (include/idlelab/outfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/outfile.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* The clean-up table: fixed storage, read by the signal handler */

enum { SLOT_FREE = 0, SLOT_BUSY, SLOT_FILE, SLOT_DIR };

static struct {
	volatile sig_atomic_t state;
	char path[PATH_MAX];
} slots[IL_OUT_SLOTS];

/* SIGPIPE too: a reader of stdout that goes away must not leave a temporary */
static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, IL_END_SIGNALS };
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

/* Remove everything in the directory open as fd (depth-first). */
struct dirent64_raw {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static void rm_contents(int fd, int depth)
{
	/* a saved tree is a few levels deep; the bound keeps the stack small */
	char buf[2048] __attribute__((aligned(8)));

	for (int pass = 0; pass < 8; pass++) {
		int removed = 0;

		if (lseek(fd, 0, SEEK_SET) < 0)
			return;
		for (;;) {
			long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
			if (n <= 0)
				break;
			for (long off = 0; off < n;) {
				struct dirent64_raw *de = (struct dirent64_raw *)(buf + off);
				const char *nm = de->d_name;

				off += de->d_reclen;
				if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2])))
					continue;
				if (unlinkat(fd, nm, 0) == 0) {
					removed = 1;
					continue;
				}
				if ((errno == EISDIR || errno == EPERM) && depth < 16) {
					int sub = openat(fd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
							 O_CLOEXEC);
					if (sub >= 0) {
						rm_contents(sub, depth + 1);
						close(sub);
					}
					if (unlinkat(fd, nm, AT_REMOVEDIR) == 0)
						removed = 1;
				}
			}
		}
		if (!removed)
			return;
	}
}

/* Remove the directory path and all it holds; async-signal-safe. */
static void rm_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		rm_contents(fd, 0);
		close(fd);
	}
	rmdir(path);
}

void il_out_cleanup(void)
{
	for (int i = 0; i < IL_OUT_SLOTS; i++) {
		sig_atomic_t s = slots[i].state;
		if (s == SLOT_FILE)
			unlink(slots[i].path);
		else if (s == SLOT_DIR)
			rm_tree(slots[i].path);
	}
}

static void on_signal(int sig)
{
	struct sigaction dfl;
	sigset_t set;

	il_out_cleanup();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig); /* pending: the signal is blocked while its handler runs */
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	/* not reached: the default action of each of cleanup_signals ends the process */
	_exit(128 + sig);
}

/*
 * Install the clean-up handler for each signal whose action is the
 * default (checked at every open: a program may reset them meanwhile).
 */
static void install_handlers(void)
{
	for (size_t i = 0; i < NSIGNALS; i++) {
		struct sigaction old, sa;

		if (sigaction(cleanup_signals[i], NULL, &old) != 0)
			continue;
		/* ours already, somebody else's handler, or ignored (nohup): leave it */
		if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigfillset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

/* A file-size limit must make write() fail with EFBIG, not kill us. */
static void ignore_sigxfsz(void)
{
	struct sigaction old, sa;

	if (sigaction(SIGXFSZ, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
	    old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(&set, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static int slot_claim(void)
{
	for (int i = 0; i < IL_OUT_SLOTS; i++) {
		sig_atomic_t want = SLOT_FREE;
		if (__atomic_compare_exchange_n(&slots[i].state, &want, SLOT_BUSY, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return i;
	}
	return -1;
}

static void slot_set(int i, const char *path, int kind)
{
	snprintf(slots[i].path, sizeof(slots[i].path), "%s", path);
	__atomic_store_n(&slots[i].state, kind, __ATOMIC_SEQ_CST);
}

static void slot_release(int i)
{
	if (i >= 0)
		__atomic_store_n(&slots[i].state, SLOT_FREE, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------ */
/* Temporary names */

/* Replace the last 6 characters of name with unpredictable ones. */
static void randomize(char *name)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned counter;
	unsigned char b[6];
	size_t n = strlen(name);

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		struct timespec ts;
		uint64_t v;

		clock_gettime(CLOCK_REALTIME, &ts);
		v = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 42) ^
		    (uint64_t)__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 0x9e3779b97f4a7c15ULL;
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)(v >> (8 * i + 3));
	}
	for (size_t i = 0; i < sizeof(b); i++)
		name[n - 6 + i] = chars[b[i] % (sizeof(chars) - 1)];
}

/*
 * "DIR/BASE.tmp.XXXXXX" beside target, BASE cut short where the whole name
 * would pass NAME_MAX (a name of 250 characters is a valid output); NULL if
 * longer than PATH_MAX.
 */
static char *tmp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	size_t base = strlen(target) - dir;
	size_t room = NAME_MAX - (sizeof(".tmp.XXXXXX") - 1);
	size_t n;
	char *t;

	if (base > room)
		base = room;
	n = dir + base + sizeof(".tmp.XXXXXX");
	if (n > PATH_MAX)
		return NULL;
	t = il_xcalloc(1, n);
	snprintf(t, n, "%.*s.tmp.XXXXXX", (int)(dir + base), target);
	return t;
}

/*
 * Create a temporary file (dir false: returns its fd, opened for writing)
 * or directory (returns 0) for target under a fresh name, recorded in the
 * clean-up table before it exists (signals are held off meanwhile), or
 * -errno.
 */
static int make_temp(const char *target, bool dir, mode_t mode, char **tmp_out, int *slot_out)
{
	char *tmp = tmp_name(target);
	sigset_t old;
	int slot, r = -EEXIST;

	*tmp_out = NULL;
	*slot_out = -1;
	if (!tmp)
		return -ENAMETOOLONG;
	slot = slot_claim();
	if (slot < 0) {
		free(tmp);
		return -EMFILE;
	}
	for (int attempt = 0; attempt < 100 && r == -EEXIST; attempt++) {
		randomize(tmp);
		block_signals(&old);
		slot_set(slot, tmp, dir ? SLOT_DIR : SLOT_FILE);
		if (dir)
			r = mkdir(tmp, mode) == 0 ? 0 : -1;
		else
			r = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
				 mode);
		if (r < 0) {
			r = -errno;
			/* not ours: the handler must not remove it */
			__atomic_store_n(&slots[slot].state, SLOT_BUSY, __ATOMIC_SEQ_CST);
		}
		restore_signals(&old);
	}
	if (r < 0) {
		slot_release(slot);
		free(tmp);
		return r;
	}
	*tmp_out = tmp;
	*slot_out = slot;
	return r;
}

/* ------------------------------------------------------------------ */
/* Files */

enum { OUT_NONE, OUT_STDOUT, OUT_DIRECT, OUT_TEMP };

struct il_out_priv {
	int kind;
	int fd;
	int werr;          /* first write error (errno) */
	char *name;        /* as given, "standard output" for stdout */
	char *target;      /* final path (symlinks resolved) */
	char *tmp;         /* OUT_TEMP: the temporary */
	int slot;
};

static ssize_t ck_write(void *cookie, const char *buf, size_t n)
{
	struct il_out_priv *p = cookie;
	size_t off = 0;

	if (p->werr) {
		errno = p->werr;
		return 0;
	}
	while (off < n) {
		ssize_t w = write(p->fd, buf + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			p->werr = w < 0 ? errno : EIO;
			errno = p->werr;
			return 0;
		}
		off += (size_t)w;
	}
	return (ssize_t)n;
}

static int ck_close(void *cookie)
{
	(void)cookie;
	return 0;
}

static void priv_free(struct il_out_priv *p)
{
	free(p->name);
	free(p->target);
	free(p->tmp);
	free(p);
}

static int attach(struct il_out *o, struct il_out_priv *p, struct il_err *err)
{
	static const cookie_io_functions_t io = { .write = ck_write, .close = ck_close };

	o->f = fopencookie(p, "w", io);
	if (!o->f)
		return il_err_set_at(err, ENOMEM, p->name, 0, "out of memory");
	/* line-buffered on a terminal, as stdout would be */
	setvbuf(o->f, NULL, isatty(p->fd) ? _IOLBF : _IOFBF, 1 << 16);
	o->priv = p;
	return 0;
}

/*
 * Follow symbolic links from path to the name that is not one (which may
 * not exist). Returns a malloc'ed path or NULL with errno.
 */
static char *resolve_links(const char *path)
{
	char *cur = il_xstrdup(path);

	for (int hop = 0; hop <= 40; hop++) {
		char buf[PATH_MAX];
		struct stat st;
		ssize_t n;
		char *next, *slash;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hop == 40)
			break;
		n = readlink(cur, buf, sizeof(buf));
		if (n < 0 || (size_t)n >= sizeof(buf)) {
			int e = n < 0 ? errno : ENAMETOOLONG;
			free(cur);
			errno = e;
			return NULL;
		}
		buf[n] = '\0';
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash) {
			next = il_xstrdup(buf);
		} else {
			size_t dl = (size_t)(slash - cur) + 1;
			next = il_xcalloc(1, dl + (size_t)n + 1);
			memcpy(next, cur, dl);
			memcpy(next + dl, buf, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int il_out_open(struct il_out *o, const char *path, struct il_err *err)
{
	struct il_out_priv *p;
	struct stat st;
	bool replace;
	int r, sr;

	o->f = NULL;
	o->priv = NULL;
	ignore_sigxfsz();
	p = il_xcalloc(1, sizeof(*p));
	p->fd = -1;
	p->slot = -1;
	if (!path || !strcmp(path, "-")) {
		fflush(stdout);
		p->kind = OUT_STDOUT;
		p->fd = STDOUT_FILENO;
		p->name = il_xstrdup("standard output");
		r = attach(o, p, err);
		if (r)
			priv_free(p);
		return r;
	}
	p->name = il_xstrdup(path);
	if (!*path) {
		r = il_err_set(err, EINVAL, "empty output file name");
		goto fail;
	}
	p->target = resolve_links(path);
	if (!p->target) {
		r = il_err_set_at(err, errno, path, 0, "cannot follow the symbolic link: %s",
				  strerror(errno));
		goto fail;
	}
	sr = stat(p->target, &st);
	if (sr == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			r = il_err_set_at(err, EISDIR, path, 0, "is a directory");
			goto fail;
		}
		/* a device or FIFO: nothing to replace, write to it */
		p->fd = open(p->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (p->fd < 0) {
			r = il_err_set_at(err, errno, path, 0, "cannot open: %s", strerror(errno));
			goto fail;
		}
		if (fstat(p->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
			p->kind = OUT_DIRECT;
			r = attach(o, p, err);
			if (r)
				goto fail;
			return 0;
		}
		/* it became a regular file meanwhile: replace it like one */
		close(p->fd);
		p->fd = -1;
	} else if (sr != 0 && errno == ENOENT) {
		st.st_mode = 0;
	} else if (sr != 0) {
		r = il_err_set_at(err, errno, path, 0, "cannot create: %s", strerror(errno));
		goto fail;
	}

	install_handlers();
	replace = S_ISREG(st.st_mode);
	p->fd = make_temp(p->target, false, replace ? 0600 : 0666, &p->tmp, &p->slot);
	if (p->fd < 0) {
		r = il_err_set_at(err, -p->fd, path, 0, "cannot create: %s", strerror(-p->fd));
		p->fd = -1;
		goto fail;
	}
	if (replace) {
		/* the owner where permitted (root; else one's own group), then the mode */
		if (fchown(p->fd, st.st_uid, st.st_gid) != 0) {
			if (fchown(p->fd, (uid_t)-1, st.st_gid) != 0) {
				/* keep ours */
			}
		}
		if (fchmod(p->fd, st.st_mode & 0777) != 0) {
			/* keep 0600 */
		}
	}
	p->kind = OUT_TEMP;
	r = attach(o, p, err);
	if (r) {
		unlink(p->tmp);
		slot_release(p->slot);
		p->kind = OUT_NONE;
		goto fail;
	}
	return 0;
fail:
	if (p->fd >= 0 && p->kind != OUT_STDOUT)
		close(p->fd);
	priv_free(p);
	return r;
}

const char *il_out_name(const struct il_out *o)
{
	return o->priv ? o->priv->name : "";
}

int il_out_close(struct il_out *o, bool keep, struct il_err *err)
{
	struct il_out_priv *p = o->priv;
	int r = 0;

	if (!p)
		return 0;
	if (o->f) {
		if (fclose(o->f) != 0 && !p->werr)
			p->werr = errno ? errno : EIO;
		o->f = NULL;
	}
	if (!p->werr && keep && p->kind == OUT_TEMP && fsync(p->fd) != 0 && errno != EINVAL)
		p->werr = errno;
	if (p->kind != OUT_STDOUT && close(p->fd) != 0 && !p->werr && errno != EINTR)
		p->werr = errno;
	if (p->werr) {
		if (p->kind == OUT_STDOUT)
			r = il_err_set(err, p->werr, "standard output: cannot write: %s",
				       strerror(p->werr));
		else
			r = il_err_set_at(err, p->werr, p->name, 0, "cannot write: %s",
					  strerror(p->werr));
	}
	if (p->kind == OUT_TEMP) {
		if (keep && !r && rename(p->tmp, p->target) != 0) {
			int e = errno;
			r = il_err_set_at(err, e, p->name, 0, "cannot rename %s into place: %s", p->tmp,
					  strerror(e));
		}
		if (!keep || r)
			unlink(p->tmp);
		slot_release(p->slot);
	}
	priv_free(p);
	o->priv = NULL;
	return r;
}

/* ------------------------------------------------------------------ */
/* Directories */

/* path without its trailing slashes ("out/" names the directory out), allocated */
static char *dir_target(const char *path)
{
	char *t = il_xstrdup(path);

	for (size_t n = strlen(t); n > 1 && t[n - 1] == '/'; n--)
		t[n - 1] = '\0';
	return t;
}

/* Free what d holds and leave it closed (fd and slot -1). */
static void outdir_reset(struct il_outdir *d)
{
	free(d->name);
	free(d->target);
	free(d->tmp);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->slot = -1;
}

int il_outdir_check_new(const char *path, struct il_err *err)
{
	struct stat st;
	char *t;
	int r = 0, e;

	if (!path || !*path)
		return il_err_set(err, EINVAL, "empty directory name");
	t = dir_target(path);
	if (lstat(t, &st) == 0)
		r = il_err_set_at(err, EEXIST, path, 0, "already exists (will not overwrite)");
	else if ((e = errno) != ENOENT)
		r = il_err_set_at(err, e, path, 0, "cannot create: %s", strerror(e));
	free(t);
	return r;
}

int il_outdir_open(struct il_outdir *d, const char *path, struct il_err *err)
{
	int r;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->slot = -1;
	r = il_outdir_check_new(path, err);
	if (r)
		return r;
	ignore_sigxfsz();
	d->name = il_xstrdup(path);
	/* the temporary must be a sibling of the target */
	d->target = dir_target(path);
	install_handlers();
	r = make_temp(d->target, true, 0755, &d->tmp, &d->slot);
	if (r < 0) {
		r = il_err_set_at(err, -r, path, 0, "cannot create: %s", strerror(-r));
		goto fail;
	}
	d->fd = open(d->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		r = il_err_set_at(err, errno, path, 0, "cannot open %s: %s", d->tmp, strerror(errno));
		rm_tree(d->tmp);
		slot_release(d->slot);
		goto fail;
	}
	return 0;
fail:
	outdir_reset(d);
	return r;
}

int il_outdir_close(struct il_outdir *d, bool keep, struct il_err *err)
{
	int r = 0;

	if (!d->tmp)
		return 0;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (keep) {
		int e = 0;
		if (renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_NOREPLACE) != 0) {
			e = errno;
			/* a file system without RENAME_NOREPLACE */
			if (e == EINVAL || e == ENOSYS) {
				struct stat st;
				if (lstat(d->target, &st) == 0)
					e = EEXIST;
				else
					e = rename(d->tmp, d->target) == 0 ? 0 : errno;
			}
		}
		if (e == EEXIST || e == ENOTEMPTY)
			r = il_err_set_at(err, EEXIST, d->name, 0, "already exists (will not overwrite)");
		else if (e)
			r = il_err_set_at(err, e, d->name, 0, "cannot rename %s into place: %s", d->tmp,
					  strerror(e));
	}
	if (!keep || r)
		rm_tree(d->tmp);
	slot_release(d->slot);
	outdir_reset(d);
	return r;
}

FILE *il_unnamed_file(const char *dir, const char *prefix)
{
	char path[PATH_MAX];
	int fd = -1;
	FILE *f;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s.XXXXXX", dir, prefix) >= sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		if ((fd = mkstemp(path)) < 0)
			return NULL;
		unlink(path);
	}
	if (!(f = fdopen(fd, "w+b")))
		close(fd);
	return f;
}

const char *il_tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}
