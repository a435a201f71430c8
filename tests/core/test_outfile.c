// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests for src/core/outfile.c: output files that appear only when
 * complete (modes kept, symbolic links followed to their target, devices
 * and FIFOs written directly, planted links at the old predictable
 * temporary name ignored), write errors named with the file (ENOSPC,
 * EFBIG under a file-size limit), directory outputs, and the removal of
 * temporaries on SIGINT/SIGTERM/SIGHUP with the signal's exit status.
 * Everything runs in a private temporary directory; devices are made
 * there with mknod when allowed (root), never touched in /dev.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idlelab/outfile.h"

static char tmpdir[256];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_outfile.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	umask(022);
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static char *tpath(const char *rel)
{
	static char buf[8][1024];
	static int k;
	char *p = buf[k++ % 8];
	snprintf(p, 1024, "%.255s/%.700s", tmpdir, rel);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's content (at most 255 bytes) as a static string. */
static const char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

/* Number of entries of dir (relative to tmpdir) whose name contains ".tmp.". */
static int temporaries(const char *dir)
{
	DIR *d = opendir(tpath(dir));
	struct dirent *de;
	int n = 0;
	assert_non_null(d);
	while ((de = readdir(d)))
		n += strstr(de->d_name, ".tmp.") != NULL;
	closedir(d);
	return n;
}

static int write_out(const char *path, const char *text, bool keep, struct il_err *err)
{
	struct il_out o;
	int r = il_out_open(&o, path, err);
	if (r)
		return r;
	fputs(text, o.f);
	return il_out_close(&o, keep, err);
}

/* ------------------------------------------------------------------ */

static void test_new_file_and_replace(void **state)
{
	struct il_err err;
	(void)state;

	assert_int_equal(write_out(tpath("a"), "one\n", true, &err), 0);
	assert_string_equal(slurp(tpath("a")), "one\n");
	assert_int_equal(mode_of(tpath("a")) & 07777, 0644); /* 0666 less the umask */
	umask(077);
	assert_int_equal(write_out(tpath("b"), "x", true, &err), 0);
	assert_int_equal(mode_of(tpath("b")) & 07777, 0600);
	umask(022);

	/* a replaced file keeps its mode (less set-id bits), whatever the umask */
	chmod(tpath("a"), 0640);
	assert_int_equal(write_out(tpath("a"), "two\n", true, &err), 0);
	assert_string_equal(slurp(tpath("a")), "two\n");
	assert_int_equal(mode_of(tpath("a")) & 07777, 0640);
	chmod(tpath("a"), 04755);
	assert_int_equal(write_out(tpath("a"), "three\n", true, &err), 0);
	assert_int_equal(mode_of(tpath("a")) & 07777, 0755);

	/* discarded: the old file stays as it was */
	assert_int_equal(write_out(tpath("a"), "never\n", false, &err), 0);
	assert_string_equal(slurp(tpath("a")), "three\n");
	assert_int_equal(write_out(tpath("c"), "never\n", false, &err), 0);
	assert_int_equal(access(tpath("c"), F_OK), -1);
	assert_int_equal(temporaries(""), 0);

	/* refusals name the file */
	assert_int_equal(write_out(tmpdir, "x", true, &err), -EISDIR);
	assert_string_equal(err.file, tmpdir);
	assert_string_equal(err.msg, "is a directory");
	assert_int_equal(write_out(tpath("no/such"), "x", true, &err), -ENOENT);
	assert_string_equal(err.file, tpath("no/such"));
	assert_string_equal(err.msg, "cannot create: No such file or directory");
	assert_int_equal(write_out("", "x", true, &err), -EINVAL);
}

/* D2: a symbolic link is followed; the link stays, its target is replaced. */
static void test_symlinks(void **state)
{
	struct il_err err;
	(void)state;

	assert_int_equal(mkdir(tpath("d"), 0755), 0);
	assert_int_equal(mkdir(tpath("e"), 0755), 0);
	put(tpath("d/real"), "old\n");
	chmod(tpath("d/real"), 0600);
	assert_int_equal(symlink("d/real", tpath("rel")), 0);          /* relative */
	assert_int_equal(symlink(tpath("rel"), tpath("e/chain")), 0);  /* link to a link */
	assert_int_equal(symlink("../d/new", tpath("e/dangling")), 0); /* target missing */

	assert_int_equal(write_out(tpath("rel"), "via rel\n", true, &err), 0);
	assert_true(S_ISLNK(mode_of(tpath("rel"))));
	assert_string_equal(slurp(tpath("d/real")), "via rel\n");
	assert_int_equal(mode_of(tpath("d/real")) & 07777, 0600);

	assert_int_equal(write_out(tpath("e/chain"), "via chain\n", true, &err), 0);
	assert_true(S_ISLNK(mode_of(tpath("e/chain"))));
	assert_true(S_ISLNK(mode_of(tpath("rel"))));
	assert_string_equal(slurp(tpath("d/real")), "via chain\n");

	assert_int_equal(write_out(tpath("e/dangling"), "created\n", true, &err), 0);
	assert_true(S_ISLNK(mode_of(tpath("e/dangling"))));
	assert_string_equal(slurp(tpath("d/new")), "created\n");
	assert_int_equal(temporaries(""), 0);
	assert_int_equal(temporaries("d"), 0);
	assert_int_equal(temporaries("e"), 0);

	/* a discarded write through a link leaves the target alone */
	assert_int_equal(write_out(tpath("rel"), "never\n", false, &err), 0);
	assert_string_equal(slurp(tpath("d/real")), "via chain\n");
	assert_int_equal(temporaries("d"), 0);

	/* a loop */
	assert_int_equal(symlink("loop2", tpath("loop1")), 0);
	assert_int_equal(symlink("loop1", tpath("loop2")), 0);
	assert_int_equal(write_out(tpath("loop1"), "x", true, &err), -ELOOP);
	assert_string_equal(err.msg,
			    "cannot follow the symbolic link: Too many levels of symbolic links");
	assert_true(S_ISLNK(mode_of(tpath("loop1"))));
}

/* D2: a FIFO is written to, not replaced. */
static void test_fifo_written_directly(void **state)
{
	struct il_err err;
	char buf[64] = { 0 };
	int fd, status;
	pid_t pid;
	(void)state;

	assert_int_equal(mkfifo(tpath("fifo"), 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(write_out(tpath("fifo"), "through the fifo\n", true, &err) ? 1 : 0);
	fd = open(tpath("fifo"), O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 17);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(buf, "through the fifo\n");
	assert_true(S_ISFIFO(mode_of(tpath("fifo"))));
	assert_int_equal(temporaries(""), 0);
}

/*
 * D2, D7: devices are written directly; ENOSPC is said with the file's
 * name. Device nodes are made here (root); without the right to, the
 * real /dev/null and /dev/full are used: a regression could then not
 * replace them anyway.
 */
static void test_devices(void **state)
{
	struct il_err err;
	const char *null = tpath("null"), *full = tpath("full");
	(void)state;

	bool made = mknod(null, S_IFCHR | 0666, makedev(1, 3)) == 0 &&
		    mknod(full, S_IFCHR | 0666, makedev(1, 7)) == 0;
	if (made) {
		int fd = open(null, O_WRONLY); /* fails on a nodev mount */
		made = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	if (!made) {
		/* root without usable nodes of its own: nothing safe to write to */
		if (geteuid() == 0)
			skip();
		null = "/dev/null";
		full = "/dev/full";
	}
	assert_int_equal(write_out(null, "gone\n", true, &err), 0);
	assert_true(S_ISCHR(mode_of(null)));
	assert_int_equal(write_out(full, "no room\n", true, &err), -ENOSPC);
	assert_string_equal(err.file, full);
	assert_string_equal(err.msg, "cannot write: No space left on device");
	assert_true(S_ISCHR(mode_of(full)));
	assert_int_equal(temporaries(""), 0);
}

/* D7: standard output's write errors are said too. */
static void test_stdout_errors(void **state)
{
	int status;
	pid_t pid;
	(void)state;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct il_err err;
		int fd = open("/dev/full", O_WRONLY);
		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(3);
		if (write_out("-", "no room\n", true, &err) != -ENOSPC)
			_exit(1);
		_exit(strcmp(err.msg, "standard output: cannot write: No space left on device") ? 2 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * D3: a symbolic link planted where the old code put its temporary
 * (NAME.tmp.PID) is not followed: the victim stays as it was.
 */
static void test_planted_link_ignored(void **state)
{
	struct il_err err;
	char planted[1100];
	(void)state;

	put(tpath("victim"), "precious\n");
	snprintf(planted, sizeof(planted), "%s.tmp.%ld", tpath("out"), (long)getpid());
	assert_int_equal(symlink(tpath("victim"), planted), 0);
	assert_int_equal(write_out(tpath("out"), "output\n", true, &err), 0);
	assert_string_equal(slurp(tpath("victim")), "precious\n");
	assert_string_equal(slurp(tpath("out")), "output\n");
	assert_true(S_ISLNK(mode_of(planted)));
	remove(planted);
	assert_int_equal(temporaries(""), 0);
}

/* D7: a file-size limit is an error naming the file; the old file stays. */
static void test_file_size_limit(void **state)
{
	struct il_err err;
	struct rlimit old, lim;
	struct il_out o;
	int r;
	(void)state;

	put(tpath("big"), "old\n");
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(il_out_open(&o, tpath("big"), &err), 0);
	lim = old;
	lim.rlim_cur = 1000;
	/* the library ignores SIGXFSZ itself: a default action would kill us here */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (int i = 0; i < 1000; i++)
		fputs("0123456789\n", o.f);
	r = il_out_close(&o, true, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(r, -EFBIG);
	assert_string_equal(err.file, tpath("big"));
	assert_string_equal(err.msg, "cannot write: File too large");
	assert_string_equal(slurp(tpath("big")), "old\n");
	assert_int_equal(temporaries(""), 0);
}

static void test_directories(void **state)
{
	struct il_outdir d;
	struct il_err err;
	int fd;
	(void)state;

	assert_int_equal(il_outdir_open(&d, tpath("tree/"), &err), 0);
	assert_int_equal(mkdirat(d.fd, "a", 0755), 0);
	fd = openat(d.fd, "a/f", O_WRONLY | O_CREAT | O_EXCL, 0444);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(il_outdir_close(&d, true, &err), 0);
	assert_int_equal(access(tpath("tree/a/f"), F_OK), 0);
	assert_int_equal(mode_of(tpath("tree")) & 07777, 0755);
	assert_int_equal(temporaries(""), 0);

	/* existing: refused before anything is made */
	assert_int_equal(il_outdir_open(&d, tpath("tree"), &err), -EEXIST);
	assert_string_equal(err.msg, "already exists (will not overwrite)");
	assert_int_equal(symlink("nowhere", tpath("dlink")), 0);
	assert_int_equal(il_outdir_open(&d, tpath("dlink"), &err), -EEXIST);

	/* discarded: the whole temporary goes */
	assert_int_equal(il_outdir_open(&d, tpath("gone"), &err), 0);
	assert_int_equal(mkdirat(d.fd, "x", 0755), 0);
	assert_int_equal(mkdirat(d.fd, "x/y", 0755), 0);
	fd = openat(d.fd, "x/y/z", O_WRONLY | O_CREAT | O_EXCL, 0444);
	close(fd);
	assert_int_equal(il_outdir_close(&d, false, &err), 0);
	assert_int_equal(access(tpath("gone"), F_OK), -1);
	assert_int_equal(temporaries(""), 0);

	/* something appeared at the target meanwhile: not replaced, temporary removed */
	assert_int_equal(il_outdir_open(&d, tpath("race"), &err), 0);
	assert_int_equal(mkdir(tpath("race"), 0755), 0);
	assert_int_equal(il_outdir_close(&d, true, &err), -EEXIST);
	assert_string_equal(err.msg, "already exists (will not overwrite)");
	assert_int_equal(temporaries(""), 0);

	assert_int_equal(il_outdir_open(&d, tpath("no/such"), &err), -ENOENT);
	assert_int_equal(il_outdir_open(&d, "", &err), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* D12: temporaries are removed on a signal, whose exit status we keep */

static void expect_signalled(pid_t pid, int sig)
{
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), sig);
}

static void test_signal_removes_temporary_file(void **state)
{
	/* and the other signals whose default action ends the process */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGVTALRM, SIGXCPU, SIGPIPE, SIGPWR, SIGIO };
	(void)state;

	put(tpath("kept"), "old\n");
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct il_out a, b;
			struct il_err err;
			/*
			 * at its default, as from a terminal: a suite started under
			 * nohup or in the background inherits SIGHUP or SIGINT
			 * ignored, and the library rightly keeps an ignored signal so
			 */
			signal(sigs[i], SIG_DFL);
			/* SIGXCPU's default action dumps core: not here */
			setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
			if (il_out_open(&a, tpath("new"), &err) || il_out_open(&b, tpath("kept"), &err))
				_exit(1);
			fputs("partial\n", a.f);
			fputs("partial\n", b.f);
			fflush(a.f);
			fflush(b.f);
			raise(sigs[i]);
			_exit(2);
		}
		expect_signalled(pid, sigs[i]);
		assert_int_equal(access(tpath("new"), F_OK), -1);
		assert_string_equal(slurp(tpath("kept")), "old\n");
		assert_int_equal(temporaries(""), 0);
	}
}

static void test_signal_removes_temporary_tree(void **state)
{
	pid_t pid;
	(void)state;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct il_outdir d;
		struct il_err err;
		char name[32];
		if (il_outdir_open(&d, tpath("save"), &err))
			_exit(1);
		/* a few levels, many entries, read-only files: as --save makes them */
		if (mkdirat(d.fd, "cpu0", 0755) || mkdirat(d.fd, "cpu0/cpuidle", 0755) ||
		    mkdirat(d.fd, "cpu0/cpuidle/state0", 0755) ||
		    mkdirat(d.fd, "cpu0/cpuidle/state0/s2idle", 0755))
			_exit(1);
		for (int i = 0; i < 300; i++) {
			snprintf(name, sizeof(name), "cpu0/cpuidle/state0/f%d", i);
			close(openat(d.fd, name, O_WRONLY | O_CREAT | O_EXCL, 0444));
		}
		close(openat(d.fd, "cpu0/cpuidle/state0/s2idle/usage", O_WRONLY | O_CREAT, 0444));
		raise(SIGTERM);
		_exit(2);
	}
	expect_signalled(pid, SIGTERM);
	assert_int_equal(access(tpath("save"), F_OK), -1);
	assert_int_equal(temporaries(""), 0);
}

static void own_handler(int sig)
{
	(void)sig;
}

/* A handler the program installed, or an ignored SIGHUP (nohup), is left alone. */
static void test_signal_dispositions_respected(void **state)
{
	int status;
	pid_t pid;
	(void)state;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction sa, got;
		struct il_out o;
		struct il_err err;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = own_handler;
		sigaction(SIGINT, &sa, NULL);
		signal(SIGHUP, SIG_IGN);
		if (il_out_open(&o, tpath("x"), &err))
			_exit(1);
		sigaction(SIGINT, NULL, &got);
		if (got.sa_handler != own_handler)
			_exit(2);
		sigaction(SIGHUP, NULL, &got);
		if (got.sa_handler != SIG_IGN)
			_exit(3);
		raise(SIGHUP); /* ignored */
		/* a program with its own handler cleans up through il_out_cleanup() */
		il_out_cleanup();
		if (il_out_close(&o, true, &err) == 0)
			_exit(4); /* the temporary is gone: nothing to rename */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(access(tpath("x"), F_OK), -1);
	assert_int_equal(temporaries(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_file_and_replace, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_symlinks, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_fifo_written_directly, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_devices, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_stdout_errors, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_planted_link_ignored, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_file_size_limit, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_directories, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_signal_removes_temporary_file, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_signal_removes_temporary_tree, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_signal_dispositions_respected, setup_tmp,
						teardown_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
