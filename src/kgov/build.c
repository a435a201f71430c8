// SPDX-License-Identifier: GPL-2.0-only
/*
 * `idlelab governor build`: a kernel governor file compiled with the system
 * compiler ($CC, else cc) against the kernel-API layer into a shared object.
 *
 * The layer is found as $IDLELAB_KAPI_DIR (with include/ and runtime.c),
 * else installed beside the binary (PREFIX/share/idlelab/kapi, the public
 * headers in PREFIX/include), else in the source tree the binary was built
 * from. Objects are cached under $XDG_CACHE_HOME/idlelab (~/.cache/idlelab)
 * by a hash of the preprocessed source and runtime and the command line, so
 * that an edit of any header the file includes makes a new object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kgov.h"
#include "idlelab/release.h"

int il_kgov_is_file_spec(const char *spec)
{
	size_t n = strlen(spec);

	return !strncmp(spec, "file:", 5) || strchr(spec, '/') ||
	       (n > 3 && !strcmp(spec + n - 3, ".so"));
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The layer's directory (include/, runtime.c) and idlelab's header directory. */
static int find_layer(char *kapi, char *inc, size_t size, struct il_err *err)
{
	const char *env = getenv("IDLELAB_KAPI_DIR");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && env[0]) {
		snprintf(kapi, size, "%s", env);
		snprintf(inc, size, "%s/../../../include", env); /* PREFIX/share/idlelab/kapi */
		if (!is_dir(inc))
			snprintf(inc, size, "%s/../include", env); /* a source tree's kapi/ */
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			int a = snprintf(kapi, size, "%.*s/../share/idlelab/kapi", PATH_MAX - 64, exe);
			int b = snprintf(inc, size, "%.*s/../include", PATH_MAX - 64, exe);
			if (a > 0 && b > 0 && is_dir(kapi))
				return 0;
		}
	}
	snprintf(kapi, size, "%s", IL_KAPI_SRCDIR);
	snprintf(inc, size, "%s", IL_SRC_INCDIR);
	if (is_dir(kapi))
		return 0;
	return il_err_set(err, ENOENT, "the kernel-API layer was not found (set IDLELAB_KAPI_DIR "
			  "to a directory with include/ and runtime.c)");
}

/*
 * What the compiler may use: a file such as '#include "/dev/zero"' or a
 * macro that expands without end must end in an error, not take the
 * machine's memory or run on. A governor file's build takes a few tens of
 * MB and well under a second.
 */
#define CC_MEM_MAX ((rlim_t)1 << 30)    /* address space, bytes */
#define CC_CPU_MAX 120                  /* CPU time, seconds */
#define CC_FILE_MAX ((rlim_t)256 << 20) /* a file it writes, bytes */
#define CC_OUT_MAX ((size_t)64 << 20)   /* its stdout and stderr kept, bytes */

static void limit(int res, rlim_t v)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > v)) {
		rl.rlim_cur = rl.rlim_max = v;
		setrlimit(res, &rl);
	}
}

/* What a child wrote on one pipe, at most CC_OUT_MAX bytes, NUL-terminated. */
struct sink {
	int fd;
	char *buf;
	size_t len, cap;
};

/* Read what is there into k: 1 more may come, 0 end of file, -E2BIG over CC_OUT_MAX. */
static int drain(struct sink *k)
{
	if (k->len + 1 >= k->cap) {
		char *nb = k->cap < CC_OUT_MAX ? realloc(k->buf, k->cap * 2) : NULL;
		if (!nb)
			return -E2BIG;
		k->buf = nb;
		k->cap *= 2;
	}
	ssize_t r = read(k->fd, k->buf + k->len, k->cap - k->len - 1);
	if (r < 0 && errno == EINTR)
		return 1;
	if (r <= 0)
		return 0;
	k->len += (size_t)r;
	k->buf[k->len] = '\0';
	return 1;
}

/*
 * Run argv under the limits above, its stdout into *out and its stderr
 * into *log (malloc'd, NUL-terminated; log NULL: stderr into *out as
 * well). Returns the exit status, 128 + the signal that ended it, -E2BIG
 * when it wrote more than CC_OUT_MAX on one of them (it is killed, *out
 * is NULL), or -errno (of the exec when argv[0] could not be run: a
 * compiler that is not there is not a file that does not compile).
 */
/*
 * The environment the compiler runs in: this process's, in the C locale. The
 * build's diagnosis (missing fields and names, the era's way out) is read
 * from the compiler's English messages, which a translated gcc would not
 * print; LANGUAGE goes too, and the locale's other variables yield to LC_ALL.
 * Built before the fork: the child only calls execvpe().
 */
static char **c_locale_env(void)
{
	extern char **environ;
	size_t n = 0, k = 0;

	while (environ && environ[n])
		n++;
	char **env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) && strncmp(environ[i], "LANGUAGE=", 9))
			env[k++] = environ[i];
	env[k++] = (char *)"LC_ALL=C";
	env[k] = NULL;
	return env;
}

static int run(char *const argv[], char **out, size_t *outlen, char **log)
{
	struct sink k[2] = { { -1, NULL, 0, 4096 }, { -1, NULL, 0, 4096 } };
	int fo[2] = { -1, -1 }, fe[2] = { -1, -1 }, fx[2] = { -1, -1 }, n = log ? 2 : 1, e = 0;
	bool big = false;

	*out = NULL;
	*outlen = 0;
	if (log)
		*log = NULL;
	k[0].buf = calloc(1, k[0].cap);
	k[1].buf = calloc(1, k[1].cap);
	if (!k[0].buf || !k[1].buf || pipe2(fo, O_CLOEXEC) < 0 || pipe2(fx, O_CLOEXEC) < 0 ||
	    (log && pipe2(fe, O_CLOEXEC) < 0)) {
		e = errno ? errno : ENOMEM;
		goto fail;
	}
	char **env = c_locale_env();
	if (!env) {
		e = ENOMEM;
		goto fail;
	}
	pid_t pid = fork();
	if (pid < 0) {
		e = errno;
		free(env);
		goto fail;
	}
	if (pid == 0) {
		dup2(fo[1], 1);
		dup2(log ? fe[1] : fo[1], 2);
		limit(RLIMIT_AS, CC_MEM_MAX);
		limit(RLIMIT_CPU, CC_CPU_MAX);
		limit(RLIMIT_FSIZE, CC_FILE_MAX);
		execvpe(argv[0], argv, env);
		/* the exec's errno through fx, closed by a successful exec */
		int xe = errno;
		if (write(fx[1], &xe, sizeof(xe)) < 0)
			dprintf(2, "%s: %s\n", argv[0], strerror(xe));
		_exit(127);
	}
	free(env);
	close(fx[1]);
	fx[1] = -1;
	close(fo[1]);
	k[0].fd = fo[0];
	if (log) {
		close(fe[1]);
		k[1].fd = fe[0];
	}
	for (int open_n = n; open_n > 0 && !big;) {
		struct pollfd pf[2];
		int np = 0;
		for (int i = 0; i < n; i++)
			if (k[i].fd >= 0)
				pf[np++] = (struct pollfd){ .fd = k[i].fd, .events = POLLIN };
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int j = 0; j < np; j++) {
			if (!pf[j].revents)
				continue;
			struct sink *s = k[0].fd == pf[j].fd ? &k[0] : &k[1];
			int r = drain(s);
			if (r == -E2BIG) {
				big = true;
				kill(pid, SIGKILL);
			} else if (r == 0) {
				close(s->fd);
				s->fd = -1;
				open_n--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (k[i].fd >= 0)
			close(k[i].fd);
	int st, xe = 0;
	ssize_t xn;
	while ((xn = read(fx[0], &xe, sizeof(xe))) < 0 && errno == EINTR)
		;
	close(fx[0]);
	fx[0] = -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			e = errno;
			goto freed;
		}
	if (xn == (ssize_t)sizeof(xe) && xe) {
		e = xe;
		goto freed;
	}
	if (big) {
		e = E2BIG;   /* only the start of what it wrote without end: no use */
		goto freed;
	}
	*out = k[0].buf;
	*outlen = k[0].len;
	if (log)
		*log = k[1].buf;
	else
		free(k[1].buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
fail:
	for (int i = 0; i < 2; i++) {
		if (fo[i] >= 0)
			close(fo[i]);
		if (fe[i] >= 0)
			close(fe[i]);
		if (fx[i] >= 0)
			close(fx[i]);
	}
freed:
	free(k[0].buf);
	free(k[1].buf);
	return -e;
}

/* The error of a run that failed (r from run()), with the compiler's log in log. */
static int run_error(const char *cc, const char *kapi, const char *src, int r, const char *log,
		     struct il_err *err)
{
	char list[1024];

	if (r == -E2BIG)
		return il_err_set(err, E2BIG, "%s: %s wrote more than %zu MiB: not a governor "
				  "file", src, cc, CC_OUT_MAX >> 20);
	if (r < 0)
		return il_err_set(err, -r, "cannot run the compiler '%s' ($CC, else cc): %s", cc,
				  strerror(-r));
	if (r == 128 + SIGXCPU || r == 128 + SIGKILL)
		return il_err_set(err, EINVAL, "%s: %s was ended after %d s of CPU time or at "
				  "%llu MiB of memory: not a governor file", src, cc, CC_CPU_MAX,
				  (unsigned long long)(CC_MEM_MAX >> 20));
	il_kgov_missing_symbols(log, kapi, list, sizeof(list));
	/* the fields of the era before c1d51f684c72 (v5.6): a release to build for */
	char hay[sizeof(list) + 4];
	snprintf(hay, sizeof(hay), " %s,", list);
	bool old = strstr(hay, " disabled,") || strstr(hay, " last_residency,");
	/* ... and those from it, a newer text built for a release before it */
	bool ns = strstr(hay, " last_residency_ns,") || strstr(hay, " exit_latency_ns,") ||
		  strstr(hay, " target_residency_ns,");
	return il_err_set(err, EINVAL, "%s: does not compile against idlelab's kernel-API "
			  "layer%s%s%s", src, list[0] ? "; missing: " : "", list,
			  old ? " (fields of the texts before v5.6: build with --kernel 5.5 or older, "
				"or load file:FILE.c@5.4)" :
			  ns ? " (fields of the texts from v5.6: build with --kernel 5.6 or newer, "
			       "or load file:FILE.c@6.12)" : "");
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Names the compiler says it does not know, each once, into list. */
void il_kgov_missing_symbols(const char *log, const char *layer, char *list, size_t size)
{
	static const char *const pat[][2] = {
		{ "implicit declaration of function '", "'" },
		{ "implicit declaration of function \xe2\x80\x98", "\xe2\x80\x99" },
		{ "'", "' undeclared" },
		{ "\xe2\x80\x98", "\xe2\x80\x99 undeclared" },
		{ "unknown type name '", "'" },
		{ "unknown type name \xe2\x80\x98", "\xe2\x80\x99" },
		{ "undefined reference to `", "'" },
		{ "fatal error: ", ": No such file" },
		{ "fatal error: '", "' file not found" },    /* clang */
		/* clang's "use of undeclared identifier 'X'", "call to undeclared function 'X'" */
		{ "undeclared identifier '", "'" },
		{ "undeclared function '", "'" },
		/* gcc's "has no member named 'X'", clang's "no member named 'X' in ..." */
		{ "no member named '", "'" },
		{ "has no member named \xe2\x80\x98", "\xe2\x80\x99" },
	};
	size_t off = 0, nl = layer ? strlen(layer) : 0;

	list[0] = '\0';
	for (const char *line = log; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t ll = eol ? (size_t)(eol - line) : strlen(line);
		/*
		 * "KAPI/include/kapi/kapi.h:90:38: error: '_kb' undeclared": a
		 * macro's own variable, after an unknown name passed to it
		 */
		bool in_layer = nl && ll > nl && !strncmp(line, layer, nl) && line[nl] == '/';
		for (size_t k = 0; !in_layer && k < sizeof(pat) / sizeof(pat[0]); k++) {
			const char *a = memmem(line, ll, pat[k][0], strlen(pat[k][0]));
			if (!a)
				continue;
			a += strlen(pat[k][0]);
			const char *b = memmem(a, ll - (size_t)(a - line), pat[k][1], strlen(pat[k][1]));
			if (!b || b == a || b - a > 64)
				continue;
			/* for "X' undeclared" the name starts after the last quote before it */
			char name[80];
			snprintf(name, sizeof(name), "%.*s", (int)(b - a), a);
			char *q = strrchr(name, '\'');
			const char *nm = q ? q + 1 : name;
			char *q8 = strstr(nm, "\xe2\x80\x98");
			if (q8)
				nm = q8 + 3;
			if (!nm[0] || strchr(nm, ' '))
				continue;
			char key[84];
			snprintf(key, sizeof(key), " %s,", nm);
			char hay[4100];
			snprintf(hay, sizeof(hay), " %s,", list);
			if (strstr(hay, key))
				continue;
			off += (size_t)snprintf(list + off, off < size ? size - off : 0, "%s%s",
						off ? ", " : "", nm);
			if (off >= size)
				return;
			break;
		}
		line = eol ? eol + 1 : NULL;
	}
}

static int cache_dir(char *dir, size_t size, struct il_err *err)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && x[0] == '/')
		snprintf(dir, size, "%s/idlelab", x);
	else if (home && home[0])
		snprintf(dir, size, "%s/.cache/idlelab", home);
	else
		return il_err_set(err, ENOENT, "no cache directory: set XDG_CACHE_HOME or HOME, "
				  "or give -o");
	/* create the parents as well (~/.cache may not exist yet) */
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return il_err_set(err, errno, "%s: cannot create: %s", dir, strerror(errno));
	return 0;
}

int il_kgov_build(const char *src, const char *release, const char *out, char *so_path,
		  size_t size, char **log, struct il_err *err)
{
	char kapi[PATH_MAX], inc[PATH_MAX], kinc[PATH_MAX + 16], iinc[PATH_MAX + 16];
	char runtime[PATH_MAX + 16], relv[64] = "", dir[PATH_MAX], tmp[PATH_MAX + 64];
	const char *cc = getenv("CC");
	char *text = NULL;
	size_t len;
	int r;

	*log = NULL;
	if (access(src, R_OK) < 0)
		return il_err_set(err, errno, "%s: %s", src, strerror(errno));
	if (release) {
		unsigned a = 0, b = 0, c = 0;
		if (il_release_check(release, err))
			return -EINVAL;
		sscanf(release, "%u.%u.%u", &a, &b, &c);
		snprintf(relv, sizeof(relv), "-DLINUX_VERSION_CODE=%u", (a << 16) + (b << 8) +
			 (c > 255 ? 255 : c));
	}
	if ((r = find_layer(kapi, inc, sizeof(kapi), err)))
		return r;
	snprintf(kinc, sizeof(kinc), "-I%s/include", kapi);
	snprintf(iinc, sizeof(iinc), "-I%s", inc);
	/*
	 * The compiler reads an argument that starts with '-' as an option
	 * ("-ofoo.c" would write foo.c): such a name is given as ./NAME.
	 */
	char srcarg[PATH_MAX + 4];
	if ((size_t)snprintf(srcarg, sizeof(srcarg), "%s%s", src[0] == '-' ? "./" : "", src) >=
	    sizeof(srcarg))
		return il_err_set(err, ENAMETOOLONG, "%s: path too long", src);
	snprintf(runtime, sizeof(runtime), "%s%s/runtime.c", kapi[0] == '-' ? "./" : "", kapi);
	if (!cc || !cc[0])
		cc = "cc";

	/* the cache key: every byte the compiler will see, and how it is called */
	char *pp[] = { (char *)cc, "-E", "-P", "-std=gnu11", kinc, iinc, relv[0] ? relv : "-DKAPI",
		       srcarg, runtime, NULL };
	/* its messages apart from the preprocessed text: only they are shown */
	char *pplog = NULL;
	r = run(pp, &text, &len, &pplog);
	if (r != 0) {
		free(text);
		*log = pplog;
		return run_error(cc, kapi, src, r, pplog, err);
	}
	free(pplog);
	uint64_t h = fnv1a(0xcbf29ce484222325ull, text, len);
	h = fnv1a(h, relv, strlen(relv));
	h = fnv1a(h, cc, strlen(cc));
	free(text);
	text = NULL;

	if (!out) {
		if ((r = cache_dir(dir, sizeof(dir), err)))
			return r;
		if ((size_t)snprintf(so_path, size, "%s/kgov-%016llx.so", dir,
				     (unsigned long long)h) >= size)
			return il_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
		if (access(so_path, R_OK) == 0)
			return 0;
	} else if ((size_t)snprintf(so_path, size, "%s", out) >= size) {
		return il_err_set(err, ENAMETOOLONG, "%s: path too long", out);
	}
	/*
	 * The temporary beside the object, created here under an unpredictable
	 * name: a directory that cannot be written to, or an object path that
	 * is a directory, is said as that before anything is compiled (else
	 * the linker's failure read as "does not compile").
	 */
	struct stat st;
	if (stat(so_path, &st) == 0 && S_ISDIR(st.st_mode))
		return il_err_set(err, EISDIR, "%s: is a directory", so_path);
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", so_path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return il_err_set(err, errno, "%s: cannot create: %s", so_path, strerror(errno));
	/* the linker keeps the file's mode: 0666 less the umask, as it would create it */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	close(fd);
	char *argv[] = { (char *)cc, "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
			 "-std=gnu11", "-Werror=implicit-function-declaration",
			 "-Werror=implicit-int", kinc, iinc, relv[0] ? relv : "-DKAPI",
			 "-o", tmp, srcarg, runtime, "-Wl,--no-undefined", NULL };
	r = run(argv, &text, &len, NULL);
	if (r != 0) {
		unlink(tmp);
		*log = text;
		return run_error(cc, kapi, src, r, text, err);
	}
	if (len)
		*log = text; /* warnings */
	else
		free(text);
	if (rename(tmp, so_path) < 0) {
		int e = errno;
		unlink(tmp);
		return il_err_set(err, e, "%s: cannot write: %s", so_path, strerror(e));
	}
	return 0;
}
