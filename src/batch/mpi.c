// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs dealt to MPI ranks (Open MPI; mpirun or Slurm's srun).
 *
 * Every rank runs the same command on the same input, so every rank builds
 * the same batches. When the command runs them (il_sim_batches_run), rank
 * 0 deals the tasks, longest first, one at a time to whichever rank asks
 * (dynamic balancing: a rank asks again when it finishes); it also runs
 * tasks itself between messages. Each rank gathers nothing: it sends each
 * result (il_sim_result_pack's bytes) to rank 0, which puts it where a
 * local run would have put it, so the output is the same bytes as with
 * --jobs 1. The other ranks then exit; rank 0 writes the output.
 *
 * Each run is in a child process of its rank, so a run that crashes (or
 * that IDLELAB_TEST_ABORT_SEED aborts, for the tests) fails that run only:
 * rank 0 names it by configuration and seed, the rest are written and the
 * exit status is 1. A rank that dies (killed, out of memory; for the tests
 * IDLELAB_TEST_KILL_RANK_SEED or IDLELAB_TEST_KILL_RANK) ends the job unless
 * the launcher lets the others live (mpirun --enable-recovery): mpirun and
 * srun then stop every rank. When they let rank 0 live, it finds the rank
 * silent: every rank but 0 says it is alive each second while it runs
 * (TAG_ALIVE), and a rank that said nothing for IDLELAB_MPI_RANK_TIMEOUT
 * seconds (default 30) is taken for dead. Its run is reported by
 * configuration and seed as a failed run is, the rest is written, the exit
 * status is 1, and rank 0 leaves with MPI_Abort (a dead rank cannot take part
 * in MPI_Finalize). Open MPI 4.1 tells a process nothing of another's death
 * without the ULFM extensions, hence the silence rule. Rank 0, if SIGTERM
 * reaches it first, says which runs the ranks were running; the partial
 * results file (--resume) keeps every gathered run and which rank each run
 * in flight was dealt to, and the resumed batch names those.
 *
 * Waiting is done by polling with 1 ms sleeps, not in blocking MPI calls,
 * which spin: the ranks share the machine with the runs.
 */
#include <errno.h>
#include <mpi.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "child.h"
#include "dist.h"
#include "launch.h"
#include "idlelab/platform.h"
#include "idlelab/workload.h"
#include "util.h"

enum { TAG_READY = 1, TAG_RESULT, TAG_TASK, TAG_STOP, TAG_ALIVE, TAG_ABANDON };

static int rank, size = 1;
static bool joined;      /* MPI_Init done */
static bool dealt;       /* the workers have left (after the first deal) */
static char *lost;       /* rank 0: the ranks taken for dead (no MPI_Finalize then) */
static double silence_s = 30; /* IDLELAB_MPI_RANK_TIMEOUT, read once at MPI_Init */

int il_dist_rank(void)
{
	return rank;
}

int il_dist_size(void)
{
	return size;
}

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* At exit: wait (sleeping, not spinning) until every rank is at its exit, then leave MPI. */
static void leave(void)
{
	int done = 0, fin = 0;
	MPI_Request rq;

	MPI_Finalized(&fin);
	if (!joined || fin)
		return;
	fflush(NULL);
	/*
	 * The output is written, but the job's ranks cannot all meet again in
	 * MPI_Finalize: the living ones are told to leave without it, and so
	 * does rank 0, with status 1 (a rank was lost).
	 */
	if (rank == 0 && lost) {
		for (int r = 1; r < size; r++)
			if (!lost[r])
				MPI_Send(NULL, 0, MPI_BYTE, r, TAG_ABANDON, MPI_COMM_WORLD);
		_exit(1);
	}
	/*
	 * Rank 0 leaving without having dealt (an error before the runs, or
	 * every run read from the partial file): the others may be waiting
	 * for a task. A stop each; a rank that is not waiting leaves it unread.
	 */
	if (rank == 0 && !dealt)
		for (int r = 1; r < size; r++)
			MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	while (!done) {
		MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		if (rank > 0) {
			int flag = 0;
			MPI_Iprobe(0, TAG_ABANDON, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
			if (flag)
				_exit(0); /* rank 0 lost a rank: no finalize */
		}
		nap();
	}
	MPI_Finalize();
}

/* ------------------------------------------------------------------ one run in a child */

static uint64_t task_seed(const struct il_sim_batch *b, int k)
{
	return b->params.seed + (uint64_t)k;
}

/* A rank's child runs: unwatched (no loaded governor is dealt), test aborts honoured. */
static void child_init(struct il_child *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->run_one = il_sim_batch_run_one;
	ch->test_abort = true;
}

/*
 * The child has ended: 0 with its result's bytes at buf + 1, or -1 with
 * why it failed in msg, naming the run by configuration and seed.
 */
static int child_end(struct il_child *ch, struct il_sim_batch *const *bs, int on_rank, char *msg,
		     size_t msize)
{
	char why[IL_ERR_MSG_MAX + IL_ERR_FILE_MAX + 32], name[256];

	if (il_child_reap(ch) == IL_CHILD_RESULT)
		return 0;
	il_child_why(ch, NULL, why, sizeof(why));
	il_dist_run_name(bs[ch->batch], ch->config, ch->run, name, sizeof(name));
	snprintf(msg, msize, "%s on rank %d: %.200s", name, on_rank, why);
	return -1;
}

/*
 * For the tests only (docs/batch.md): the rank dealt run k with
 * IDLELAB_TEST_KILL_RANK_SEED dies, and so does rank IDLELAB_TEST_KILL_RANK
 * when it is dealt its first run; each once the run's process has started.
 */
static void kill_test(const struct il_sim_batch *b, int k)
{
	const char *seed = getenv("IDLELAB_TEST_KILL_RANK_SEED");
	const char *r = getenv("IDLELAB_TEST_KILL_RANK");

	if (seed && *seed && strtoull(seed, NULL, 10) == task_seed(b, k))
		raise(SIGKILL);
	if (r && *r && rank > 0 && strtol(r, NULL, 10) == rank)
		raise(SIGKILL);
}

/*
 * Seconds of silence after which rank 0 takes a rank for dead:
 * IDLELAB_MPI_RANK_TIMEOUT, default 30; -1 when it is not such a number.
 */
static double rank_timeout(void)
{
	const char *v = getenv("IDLELAB_MPI_RANK_TIMEOUT");
	char *e;

	if (!v || !*v)
		return 30;
	double t = strtod(v, &e);
	return *e || !(t >= 1 && t <= 86400) ? -1 : t;
}

/* A rank other than 0 tells rank 0 it lives, at most once a second. */
static void say_alive(double *last)
{
	double t = now_s();

	if (t - *last < 1)
		return;
	*last = t;
	MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ALIVE, MPI_COMM_WORLD);
}

/* ------------------------------------------------------------------ the ranks other than 0 */

struct ready {
	int32_t nb, runs;
	uint32_t result_size;
};

static int count_runs(struct il_sim_batch *const *bs, int nb)
{
	int n = 0;
	for (int i = 0; i < nb; i++)
		n += bs[i]->nconfigs * bs[i]->runs;
	return n;
}

/* Wait for a message from rank 0, sleeping between looks. */
static void wait_probe(int src, MPI_Status *st)
{
	int flag = 0;
	for (;;) {
		MPI_Iprobe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, st);
		if (flag)
			return;
		nap();
	}
}

static void __attribute__((noreturn)) work(struct il_sim_batch *const *bs, int nb)
{
	struct ready rd = { nb, count_runs(bs, nb), (uint32_t)sizeof(struct il_sim_result) };
	struct il_child ch;
	struct il_err err;
	double alive = now_s();
	int e;

	child_init(&ch);
	MPI_Send(&rd, sizeof(rd), MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD);
	for (;;) {
		MPI_Status st;
		int32_t t[3];
		wait_probe(0, &st);
		if (st.MPI_TAG == TAG_STOP) {
			MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			break;
		}
		MPI_Recv(t, sizeof(t), MPI_BYTE, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* the header: the task, then 'R' and the result or 'F' and a message */
		char msg[512];
		int ok = t[0] >= 0 && t[0] < nb && t[1] >= 0 && t[1] < bs[t[0]]->nconfigs && t[2] >= 0 &&
			 t[2] < bs[t[0]]->runs;
		if (!ok) {
			snprintf(msg, sizeof(msg), "rank %d: no task %d/%d/%d", rank, t[0], t[1], t[2]);
		} else if ((e = il_child_start(&ch, bs[t[0]], t[0], t[1], t[2], &err)) < 0) {
			snprintf(msg, sizeof(msg), "rank %d: cannot start a run: %s", rank,
				 strerror(-e));
			ok = 0;
		} else {
			/* the tests' dead rank dies with its run started (docs/batch.md) */
			kill_test(bs[t[0]], t[2]);
			/* wait for the run, saying each second that this rank lives */
			for (;;) {
				struct pollfd pf = { .fd = ch.fd, .events = POLLIN };
				if (poll(&pf, 1, 1000) > 0 && il_child_read(&ch))
					break;
				say_alive(&alive);
			}
			ok = child_end(&ch, bs, rank, msg, sizeof(msg)) == 0;
		}
		size_t body = ok ? ch.len : strlen(msg) + 2;
		char *out = malloc(sizeof(t) + body);
		if (!out)
			MPI_Abort(MPI_COMM_WORLD, 1);
		memcpy(out, t, sizeof(t));
		if (ok) {
			memcpy(out + sizeof(t), ch.buf, ch.len);
		} else {
			out[sizeof(t)] = 'F';
			memcpy(out + sizeof(t) + 1, msg, strlen(msg) + 1);
		}
		/* a result is large (sent when rank 0 takes it): wait for that napping, not spinning */
		MPI_Request rq;
		int sent = 0;
		MPI_Isend(out, (int)(sizeof(t) + body), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &rq);
		for (MPI_Test(&rq, &sent, MPI_STATUS_IGNORE); !sent; MPI_Test(&rq, &sent, MPI_STATUS_IGNORE)) {
			nap();
			say_alive(&alive);
		}
		free(out);
	}
	il_child_free(&ch);
	exit(0);
}

/* ------------------------------------------------------------------ rank 0 */

static volatile sig_atomic_t stopped_by;

static void on_term(int sig)
{
	stopped_by = sig;
}

struct deal {
	struct il_sim_batch *const *bs;
	int nb;
	const struct il_sim_task *tasks;
	int n;
	int *slot;                    /* task index by (batch, config, run): off[batch] + c * runs + k */
	int *off;
	char (*fail)[256];
	int done, failed;
};

static void gathered(struct deal *d, int ti, const char *bytes, size_t len, const char *why)
{
	const struct il_sim_task *t = &d->tasks[ti];
	struct il_sim_batch *b = d->bs[t->batch];
	struct il_sim_result *res = &b->results[t->config * b->runs + t->run];

	d->done++;
	if (why) {
		snprintf(d->fail[ti], sizeof(d->fail[0]), "%s", why);
		d->failed++;
		return;
	}
	if (il_sim_result_unpack(bytes, len, res) < 0) {
		snprintf(d->fail[ti], sizeof(d->fail[0]), "governor %.96s: run %d: the result that came "
			 "back is not one", b->gov_names[t->config], t->run + 1);
		d->failed++;
		return;
	}
	if (b->result_done)
		b->result_done(b->result_done_arg, b, t->config, t->run);
	if (b->run_done)
		b->run_done(b->run_done_arg, il_sim_task_cost(b));
}

static void note_dealt(const struct deal *d, int ti, int where)
{
	const struct il_sim_task *t = &d->tasks[ti];
	struct il_sim_batch *b = d->bs[t->batch];

	if (b->run_dealt)
		b->run_dealt(b->result_done_arg, b, t->config, t->run, where);
}

static void send_task(const struct deal *d, int ti, int dest)
{
	const struct il_sim_task *t = &d->tasks[ti];
	int32_t m[3] = { t->batch, t->config, t->run };

	note_dealt(d, ti, dest);
	MPI_Send(m, sizeof(m), MPI_BYTE, dest, TAG_TASK, MPI_COMM_WORLD);
}

static void report_stop(const struct deal *d, const int *holding, const struct il_child *ch)
{
	fprintf(stderr, "idlelab: stopped by signal %d with %d of %d runs gathered\n", (int)stopped_by,
		d->done, d->n);
	for (int r = 0; r < size; r++) {
		int ti = r == 0 ? (ch->pid ? ch->task : -1) : holding[r];
		if (ti < 0)
			continue;
		const struct il_sim_task *t = &d->tasks[ti];
		char name[256];
		fprintf(stderr, "idlelab: rank %d was running %s\n", r,
			il_dist_run_name(d->bs[t->batch], t->config, t->run, name, sizeof(name)));
	}
}

/* Rank w said nothing for a while: its run (if it held one) is lost, named as a failed run is. */
static void lost_rank(struct deal *d, int ti, int w, double quiet)
{
	char msg[256], name[256];

	if (ti < 0) {
		fprintf(stderr, "idlelab: rank %d said nothing for %.0f s (dead or stuck): it holds no run\n",
			w, quiet);
		return;
	}
	const struct il_sim_task *t = &d->tasks[ti];
	il_dist_run_name(d->bs[t->batch], t->config, t->run, name, sizeof(name));
	snprintf(msg, sizeof(msg), "%.180s on rank %d: silent for %.0f s (dead or stuck)", name, w,
		 quiet);
	gathered(d, ti, NULL, 0, msg);
}

static int deal_run(void *ctx, struct il_sim_batch *const *bs, int nb, const struct il_sim_task *tasks,
		    int n, char (*fail)[256], struct il_err *err)
{
	(void)ctx;
	if (rank != 0)
		work(bs, nb);

	struct deal d = { .bs = bs, .nb = nb, .tasks = tasks, .n = n, .fail = fail };
	int workers = dealt ? 0 : size - 1, stopped = 0, next = 0, gone = 0, r = 0;
	int *holding = calloc((size_t)size, sizeof(*holding));
	char *over = calloc((size_t)size, 1);           /* stopped or taken for dead */
	double *heard = calloc((size_t)size, sizeof(*heard));
	double silence = silence_s, looked = now_s();
	d.off = calloc((size_t)nb + 1, sizeof(*d.off));
	for (int i = 0; d.off && i < nb; i++)
		d.off[i + 1] = d.off[i] + bs[i]->nconfigs * bs[i]->runs;
	d.slot = d.off ? malloc((size_t)(d.off[nb] ? d.off[nb] : 1) * sizeof(*d.slot)) : NULL;
	if (!holding || !over || !heard || !d.off || !d.slot) {
		r = il_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < d.off[nb]; i++)
		d.slot[i] = -1;
	for (int i = 0; i < n; i++)
		d.slot[d.off[tasks[i].batch] + tasks[i].config * bs[tasks[i].batch]->runs + tasks[i].run] = i;
	for (int w = 0; w < size; w++) {
		holding[w] = -1;
		heard[w] = looked;
	}
	dealt = true;

	struct sigaction sa, old_term, old_int;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);
	struct il_child ch;
	child_init(&ch);
	while (d.done < n || stopped < workers) {
		if (stopped_by) {
			report_stop(&d, holding, &ch);
			if (ch.pid)
				kill(ch.pid, SIGKILL);
			fflush(NULL);
			_exit(128 + (int)stopped_by);
		}
		/* rank 0's own run: taken when nothing else is waiting for it */
		if (!ch.pid && next < n) {
			const struct il_sim_task *t = &tasks[next];
			struct il_err e;
			if (!il_child_start(&ch, bs[t->batch], t->batch, t->config, t->run, &e)) {
				note_dealt(&d, next, 0);
				ch.task = next++;
				kill_test(bs[t->batch], t->run);
			}
		}
		bool busy = false;
		if (ch.pid) {
			struct pollfd pf = { .fd = ch.fd, .events = POLLIN };
			if (poll(&pf, 1, 1) > 0 && il_child_read(&ch)) {
				char msg[512];
				size_t len;
				int e = child_end(&ch, bs, 0, msg, sizeof(msg));
				const char *bytes = il_child_result(&ch, &len);
				gathered(&d, ch.task, bytes, len, e ? msg : NULL);
			}
			busy = true;
		}
		for (;;) {
			int flag = 0, count = 0;
			MPI_Status st;
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
			if (!flag)
				break;
			busy = true;
			MPI_Get_count(&st, MPI_BYTE, &count);
			char *buf = malloc((size_t)(count > 0 ? count : 1));
			if (!buf)
				MPI_Abort(MPI_COMM_WORLD, 1);
			int src = st.MPI_SOURCE;
			MPI_Recv(buf, count, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			heard[src] = now_s();
			if (st.MPI_TAG == TAG_ALIVE || over[src]) {
				/*
				 * Alive and still running; or a rank taken for dead that was
				 * only stuck: its run was reported lost, so it is stopped.
				 */
				if (over[src] == 2 && st.MPI_TAG != TAG_ALIVE) {
					MPI_Send(NULL, 0, MPI_BYTE, src, TAG_STOP, MPI_COMM_WORLD);
					over[src] = 3;
				}
				free(buf);
				continue;
			}
			if (st.MPI_TAG == TAG_READY) {
				struct ready rd = { -1, -1, 0 };
				if (count == (int)sizeof(rd))
					memcpy(&rd, buf, sizeof(rd));
				if (count != (int)sizeof(rd) || rd.nb != nb || rd.runs != d.off[nb] ||
				    rd.result_size != sizeof(struct il_sim_result)) {
					fprintf(stderr, "idlelab: rank %d has other runs than rank 0 (%d batches, "
						"%d runs against %d, %d): every rank must run the same command "
						"and idlelab\n", src, rd.nb, rd.runs, nb, d.off[nb]);
					MPI_Abort(MPI_COMM_WORLD, 1);
				}
			} else if (st.MPI_TAG == TAG_RESULT && count >= 13) {
				int32_t t[3];
				memcpy(t, buf, sizeof(t));
				int ti = t[0] >= 0 && t[0] < nb && t[1] >= 0 && t[1] < bs[t[0]]->nconfigs &&
					 t[2] >= 0 && t[2] < bs[t[0]]->runs ?
					 d.slot[d.off[t[0]] + t[1] * bs[t[0]]->runs + t[2]] : -1;
				if (ti < 0 || ti != holding[src]) {
					fprintf(stderr, "idlelab: rank %d sent a result rank 0 did not ask for\n", src);
					MPI_Abort(MPI_COMM_WORLD, 1);
				}
				holding[src] = -1;
				if (buf[sizeof(t)] == 'R') {
					gathered(&d, ti, buf + sizeof(t) + 1, (size_t)count - sizeof(t) - 1, NULL);
				} else {
					buf[count - 1] = '\0'; /* the message ends in its NUL */
					gathered(&d, ti, NULL, 0, buf + sizeof(t) + 1);
				}
			}
			free(buf);
			if (next < n) {
				holding[src] = next;
				send_task(&d, next++, src);
			} else {
				MPI_Send(NULL, 0, MPI_BYTE, src, TAG_STOP, MPI_COMM_WORLD);
				over[src] = 1;
				stopped++;
			}
		}
		if (workers && now_s() - looked >= 0.25) {
			looked = now_s();
			for (int w = 1; w < size; w++) {
				if (over[w] || looked - heard[w] < silence)
					continue;
				lost_rank(&d, holding[w], w, looked - heard[w]);
				over[w] = 2;
				holding[w] = -1;
				stopped++;
				gone++;
			}
		}
		if (!busy)
			nap();
	}
	if (gone) {
		lost = over; /* kept for leave(): a stopped rank is alive, a lost one not */
		for (int w = 1; w < size; w++)
			over[w] = over[w] == 2;
		over = NULL;
	}
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	il_child_free(&ch);
	if (d.failed)
		r = il_err_set(err, ECHILD, "%d run%s failed", d.failed, d.failed > 1 ? "s" : "");
	if (gone)
		fprintf(stderr, "idlelab: %d rank%s taken for dead; the other results are written\n", gone,
			gone > 1 ? "s" : "");
out:
	free(holding);
	free(over);
	free(heard);
	free(d.off);
	free(d.slot);
	return r;
}

static const struct il_sim_dealer mpi_dealer = { deal_run, NULL };

void il_dist_init(int *argc, char ***argv)
{
	int lrank, lsize;

	if (!il_launch_env(&lrank, &lsize))
		return;
	if (MPI_Init(argc, argv) != MPI_SUCCESS) {
		fprintf(stderr, "idlelab: MPI_Init failed\n");
		exit(1);
	}
	joined = true;
	atexit(leave);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size == 1 && lsize > 1) {
		/* srun without PMI: every task is a world of its own */
		if (lrank > 0)
			exit(0);
		fprintf(stderr, "idlelab: the launcher started %d tasks but MPI sees only this one "
			"(srun needs --mpi=pmix): rank 0 runs everything\n", lsize);
	}
	if (rank > 0 && !getenv("IDLELAB_MPI_VERBOSE")) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
	}
	/* every rank has the same environment (mpirun -x): each leaves the same way */
	silence_s = rank_timeout();
	if (silence_s < 0) {
		if (rank == 0)
			fprintf(stderr, "idlelab: IDLELAB_MPI_RANK_TIMEOUT: '%s' is not a number of "
				"seconds in 1..86400\n", getenv("IDLELAB_MPI_RANK_TIMEOUT"));
		exit(2);
	}
	if (size > 1)
		il_sim_set_dealer(&mpi_dealer);
}
