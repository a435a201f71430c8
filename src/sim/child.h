/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Child runs: one run of a batch in a forked child process, its result sent
 * back over a pipe as il_sim_result_pack's bytes (parent and child are the
 * same program). The parent reads what the child sends, reaps it and says
 * how it ended, so that a run that crashes or is killed fails that run only.
 * The one runner of the contained runs of a loaded governor (src/sim/run.c)
 * and of the runs of an MPI rank (src/batch/mpi.c).
 */
#ifndef IDLELAB_CHILD_H
#define IDLELAB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "idlelab/batch.h"
#include "idlelab/err.h"
#include "idlelab/governor.h"

/* How a reaped child ended (il_child_reap). */
enum il_child_end {
	IL_CHILD_RESULT,              /* exited 0 with its result: il_child_result */
	IL_CHILD_ERROR,               /* the run failed and sent its error */
	IL_CHILD_SIGNAL,              /* a signal ended it (a crash, a kill) */
	IL_CHILD_NO_RESULT,           /* it exited and sent nothing usable */
};

struct il_child {
	pid_t pid;                    /* the child running, 0 when none */
	int fd;                       /* the pipe's read end */
	int batch, config, run;       /* the run: the caller's batch index, configuration, run */
	int task;                     /* the caller's own: which task the child runs */
	char *buf;                    /* what the child sent: 'R' and the result, or 'E' and
					 its struct il_err; kept across runs (il_child_free) */
	size_t len, cap;              /* bytes in buf, bytes allocated */
	/* set by the caller before the first il_child_start: */
	int (*run_one)(struct il_sim_batch *b, int c, int k, struct il_err *err); /* the run */
	struct il_gov_watch *w;       /* the watch of a loaded governor's run, or NULL */
	bool test_abort;              /* the run aborts as a crash would when its seed is
					 $IDLELAB_TEST_ABORT_SEED (the tests of MPI batches,
					 docs/batch.md) */
	int status;                   /* waitpid's status, once reaped */
	enum il_child_end end;        /* how it ended, once reaped */
};

/*
 * Fork a child that runs run k of configuration c of batch b (prepared),
 * named batch bi for the caller, with ch->run_one, and exits: 0 after
 * sending 'R' and its result, 2 after 'E' and the error. With ch->w set,
 * the child is watched (il_gov_watch_child; the watch is zeroed first).
 * 0, or a negative errno with err ("pipe: ...", "fork: ...").
 */
int il_child_start(struct il_child *ch, struct il_sim_batch *b, int bi, int c, int k,
		   struct il_err *err);
/* Read what the child sent so far: 1 at its end, 0 for more, -1 out of memory. */
int il_child_read(struct il_child *ch);
/* Close the pipe and reap the child (ch->pid 0 after): how it ended. */
enum il_child_end il_child_reap(struct il_child *ch);
/* The bytes of the result a child sent (IL_CHILD_RESULT), and their length (NULL, 0: none). */
const char *il_child_result(const struct il_child *ch, size_t *len);
/*
 * Why a reaped child gave no result (or none its parent could use), the
 * words every caller puts after its name for the run: the run's error
 * (FILE:LINE: what is wrong); for a signal, the watch's verdict when the
 * child was watched (name: the governor's spec; "governor X crashed
 * (SIGSEGV) in select on cpu1 at ..."), else "killed by signal 6
 * (Aborted)"; else "ended with status 3 and no result".
 */
void il_child_why(const struct il_child *ch, const char *name, char *buf, size_t size);
void il_child_free(struct il_child *ch);

#endif
