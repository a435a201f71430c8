// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run of a batch in a child process (child.h): fork, run, send the
 * result over a pipe, reap. Callers poll ch->fd and call il_child_read.
 * A result crosses the pipe (and the partial results file, src/batch/) as
 * il_sim_result_pack's bytes.
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "util.h"

/* ------------------------------------------------ a result as bytes */

size_t il_sim_result_pack(const struct il_sim_result *r, void **buf)
{
	size_t cpus = (size_t)r->ncpus * sizeof(*r->cpu);
	size_t ms = (size_t)r->metrics.n * sizeof(*r->metrics.m);
	size_t len = sizeof(*r) + cpus + ms;
	char *p = malloc(len);

	*buf = p;
	if (!p)
		return 0;
	/* the struct without its two pointers: the same result packs to the same bytes */
	memcpy(p, r, sizeof(*r));
	memset(p + offsetof(struct il_sim_result, cpu), 0, sizeof(r->cpu));
	memset(p + offsetof(struct il_sim_result, metrics.m), 0, sizeof(r->metrics.m));
	if (cpus)
		memcpy(p + sizeof(*r), r->cpu, cpus);
	if (ms)
		memcpy(p + sizeof(*r) + cpus, r->metrics.m, ms);
	return len;
}

/* A fixed-size text field ends within it. */
static bool text_ends(const char *t, size_t size)
{
	return memchr(t, '\0', size) != NULL;
}

/*
 * What the readers of a result index or print: counts in their arrays'
 * bounds, enumerations in range, text terminated. Bytes from this build's
 * child always pass; a partial results file is checksummed, so only a
 * forged one could fail (docs/batch.md).
 */
static bool result_sane(const struct il_sim_result *r, const struct il_metric *m)
{
	if (r->nfreq < 0 || r->nfreq > (int)(sizeof(r->freq_mhz) / sizeof(r->freq_mhz[0])))
		return false;
	for (int i = 0; i < r->nstates; i++)
		if (!text_ends(r->states[i].name, sizeof(r->states[i].name)) ||
		    !text_ends(r->states[i].desc, sizeof(r->states[i].desc)) ||
		    (unsigned int)r->states[i].entry > IL_ENTRY_TDX_HALT)
			return false;
	for (int i = 0; i < r->metrics.n; i++)
		if (!text_ends(m[i].row, sizeof(m[i].row)) || !text_ends(m[i].col, sizeof(m[i].col)) ||
		    !text_ends(m[i].unit, sizeof(m[i].unit)) ||
		    (unsigned int)m[i].better > IL_BETTER_HIGHER)
			return false;
	return true;
}

int il_sim_result_unpack(const void *buf, size_t len, struct il_sim_result *res)
{
	const char *p = buf;
	struct il_sim_result r;

	if (len < sizeof(r))
		return -1;
	memcpy(&r, p, sizeof(r));
	if (r.ncpus < 0 || r.ncpus > (1 << 20) || r.metrics.n < 0 || r.metrics.n > (1 << 24) ||
	    r.nstates < 0 || r.nstates > IL_STATE_MAX)
		return -1;
	size_t cpus = (size_t)r.ncpus * sizeof(*r.cpu);
	size_t ms = (size_t)r.metrics.n * sizeof(*r.metrics.m);
	if (len != sizeof(r) + cpus + ms)
		return -1;
	r.cpu = malloc(cpus ? cpus : 1);
	r.metrics.m = malloc(ms ? ms : 1);
	if (!r.cpu || !r.metrics.m) {
		free(r.cpu);
		free(r.metrics.m);
		return -1;
	}
	memcpy(r.cpu, p + sizeof(r), cpus);
	memcpy(r.metrics.m, p + sizeof(r) + cpus, ms);
	if (!result_sane(&r, r.metrics.m)) {
		free(r.cpu);
		free(r.metrics.m);
		return -1;
	}
	r.metrics.cap = r.metrics.n;
	*res = r;
	return 0;
}

/* ------------------------------------------------ the child */

/* In the child: the run, its result or its error to fd, and the exit. */
static void __attribute__((noreturn)) child_main(const struct il_child *ch, struct il_sim_batch *b,
						 int c, int k, int fd)
{
	const char *abort_seed = ch->test_abort ? getenv("IDLELAB_TEST_ABORT_SEED") : NULL;
	struct il_err err;
	char tag;

	if (ch->w)
		il_gov_watch_child(ch->w, 0);
	/* for the tests only: this run dies as a crash would (docs/batch.md) */
	if (abort_seed && *abort_seed &&
	    strtoull(abort_seed, NULL, 10) == b->params.seed + (uint64_t)k) {
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	il_err_clear(&err);
	if (ch->run_one(b, c, k, &err) < 0) {
		tag = 'E';
		il_write_all(fd, &tag, 1);
		il_write_all(fd, &err, sizeof(err));
		_exit(2);
	}
	void *buf;
	size_t len = il_sim_result_pack(&b->results[c * b->runs + k], &buf);
	tag = 'R';
	if (!len || il_write_all(fd, &tag, 1) || il_write_all(fd, buf, len))
		_exit(3);
	_exit(0);
}

int il_child_start(struct il_child *ch, struct il_sim_batch *b, int bi, int c, int k,
		   struct il_err *err)
{
	int fds[2];

	if (ch->w)
		memset((void *)ch->w, 0, sizeof(*ch->w));
	if (pipe(fds) < 0)
		return il_err_set(err, errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return il_err_set(err, e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(fds[0]);
		/*
		 * A run outlives no rank: a rank killed with SIGKILL (or lost with
		 * its machine's launcher) would leave it computing for nothing, a
		 * core taken from the batch that resumes, until the run's end.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(4);
		child_main(ch, b, c, k, fds[1]);
	}
	close(fds[1]);
	ch->pid = pid;
	ch->fd = fds[0];
	ch->batch = bi;
	ch->config = c;
	ch->run = k;
	ch->len = 0;
	ch->status = 0;
	return 0;
}

int il_child_read(struct il_child *ch)
{
	if (ch->cap - ch->len < 65536) {
		size_t cap = ch->cap ? ch->cap * 2 : 262144;
		char *n = realloc(ch->buf, cap);
		if (!n)
			return -1;
		ch->buf = n;
		ch->cap = cap;
	}
	ssize_t r = read(ch->fd, ch->buf + ch->len, ch->cap - ch->len);
	if (r < 0)
		return errno == EINTR ? 0 : 1;
	if (r == 0)
		return 1;
	ch->len += (size_t)r;
	return 0;
}

enum il_child_end il_child_reap(struct il_child *ch)
{
	int status = 0;

	close(ch->fd);
	while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR)
		;
	ch->pid = 0;
	ch->status = status;
	if (!WIFEXITED(status))
		ch->end = IL_CHILD_SIGNAL;
	else if (WEXITSTATUS(status) == 0 && ch->len > 1 && ch->buf[0] == 'R')
		ch->end = IL_CHILD_RESULT;
	else if (ch->len == 1 + sizeof(struct il_err) && ch->buf[0] == 'E')
		ch->end = IL_CHILD_ERROR;
	else
		ch->end = IL_CHILD_NO_RESULT;
	return ch->end;
}

const char *il_child_result(const struct il_child *ch, size_t *len)
{
	if (ch->len < 1) {
		*len = 0;
		return NULL;
	}
	*len = ch->len - 1;
	return ch->buf + 1;
}

void il_child_why(const struct il_child *ch, const char *name, char *buf, size_t size)
{
	int sig = WIFSIGNALED(ch->status) ? WTERMSIG(ch->status) : 0;
	struct il_err err;

	switch (ch->end) {
	case IL_CHILD_ERROR:
		memcpy(&err, ch->buf + 1, sizeof(err));
		err.file[sizeof(err.file) - 1] = '\0';
		err.msg[sizeof(err.msg) - 1] = '\0';
		il_err_format(&err, buf, (unsigned)size);
		break;
	case IL_CHILD_SIGNAL:
		if (ch->w)
			il_gov_watch_verdict(ch->w, ch->status, name, buf, size);
		else
			snprintf(buf, size, "killed by signal %d (%s)", sig, strsignal(sig));
		break;
	default:
		snprintf(buf, size, "ended with status %d and no result",
			 WIFEXITED(ch->status) ? WEXITSTATUS(ch->status) : -1);
		break;
	}
}

void il_child_free(struct il_child *ch)
{
	free(ch->buf);
	ch->buf = NULL;
	ch->len = ch->cap = 0;
}
