/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output files and directories that appear only when complete.
 *
 * Every writer of idlelab (replay, sim, compare, plot --output; info --save)
 * goes through here, so one set of rules holds for all of them:
 *
 * - "-" (or NULL) is standard output.
 * - A regular file (or a name that does not exist yet) is written to a
 *   temporary in the same directory, created with O_CREAT|O_EXCL|O_NOFOLLOW
 *   under an unpredictable name ("NAME.tmp.XXXXXX"), and renamed onto NAME
 *   only when everything was written and flushed. A replaced file keeps its
 *   mode (set-id bits dropped) and, where permitted, its owner; a new file
 *   gets 0666 less the umask. On failure the temporary is removed and NAME
 *   is untouched.
 * - A symbolic link is followed to its final target (relative links from
 *   the link's directory, at most 40 hops, dangling links create their
 *   target); the temporary goes beside the target and is renamed onto it,
 *   so the link stays a link.
 * - Anything else (a character device such as /dev/null or /dev/full, a
 *   FIFO) is written directly: there is nothing to replace.
 * - A directory output (il_outdir) must not exist; it is filled under a
 *   temporary directory "NAME.tmp.XXXXXX" beside it (mode 0755 less the
 *   umask) and renamed to NAME without replacing anything.
 *
 * Errors say what failed and where: "NAME: cannot write: No space left on
 * device", "NAME: cannot write: File too large" (SIGXFSZ is ignored once an
 * output is opened, so a file-size limit is an error, not a silent death).
 *
 * Temporaries are recorded in a fixed table (no allocation) that the
 * SIGHUP/SIGINT/SIGQUIT/SIGTERM/SIGPIPE (and IL_END_SIGNALS) handler installed by
 * the first open uses to remove them, with async-signal-safe calls only;
 * it then restores the default action and re-raises the signal, so the
 * exit status is the signal's.
 * Signals that already have a handler (or are ignored) are left alone; a
 * program with its own handler can call il_out_cleanup() from it.
 */
#ifndef IDLELAB_OUTFILE_H
#define IDLELAB_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The signals besides SIGHUP, SIGINT, SIGQUIT, SIGTERM and SIGPIPE whose
 * default action ends the process and that a program here may be sent
 * (kill -USR1, a supervisor's SIGALRM, RLIMIT_CPU's SIGXCPU, a UPS daemon's
 * SIGPWR, a stray SIGIO): a clean-up handler takes them too, else they
 * leave temporaries, changes to the machine or a tracefs instance behind.
 * SIGPROF is a profiler's (ITIMER_PROF), SIGXFSZ is ignored (above). The
 * real-time signals are not taken: nothing here is sent them.
 */
#define IL_END_SIGNALS SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU, SIGPWR, SIGIO

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open outputs with a temporary at a time (files and directories). */
#define IL_OUT_SLOTS 16

struct il_out_priv;

/* An output file. Write to f; do not fclose it (il_out_close does). */
struct il_out {
	FILE *f;
	struct il_out_priv *priv;
};

/*
 * Open path for writing (see the rules above). Returns 0, or a negative
 * errno with err naming path ("cannot create: ...", "is a directory").
 */
int il_out_open(struct il_out *o, const char *path, struct il_err *err);

/*
 * Finish an output. keep: flush and commit (rename the temporary into
 * place); !keep: discard (remove the temporary; a direct output is left as
 * written). Returns 0, or a negative errno with err when a write, flush or
 * rename failed (then nothing was committed); a write error is reported
 * even when !keep, so a caller whose own writer failed can say why.
 * Safe on a zeroed or already closed il_out.
 */
int il_out_close(struct il_out *o, bool keep, struct il_err *err);

/* The name messages use for this output: the path given, or "standard output". */
const char *il_out_name(const struct il_out *o);

/* A directory output. */
struct il_outdir {
	int fd;            /* the temporary directory: create entries with *at() */
	char *name;        /* the path given (for messages) */
	char *target;      /* the path without trailing slashes */
	char *tmp;         /* the temporary directory's path */
	int slot;          /* cleanup table entry, -1 if none */
};

/*
 * Whether directory path may be created: 0 when nothing is there (trailing
 * slashes ignored); -EEXIST "already exists (will not overwrite)" when
 * anything is, a link included; -EINVAL for an empty name; another
 * negative errno when it cannot be looked up. What il_outdir_open()
 * checks first, for the callers that refuse before reading anything.
 */
int il_outdir_check_new(const char *path, struct il_err *err);

/*
 * Create the temporary for directory path, which must not exist
 * (il_outdir_check_new()).
 */
int il_outdir_open(struct il_outdir *d, const char *path, struct il_err *err);

/*
 * keep: rename the temporary to the target (never replacing anything that
 * appeared meanwhile); !keep or a failed rename: remove the temporary and
 * all it holds. Returns 0 or a negative errno with err.
 */
int il_outdir_close(struct il_outdir *d, bool keep, struct il_err *err);

/*
 * A scratch file in dir that never shows up there: O_TMPFILE, else a
 * PREFIX.XXXXXX file unlinked at once; nothing stays behind however the
 * program ends. Opened "w+b"; NULL with errno on failure.
 */
FILE *il_unnamed_file(const char *dir, const char *prefix);
/* $TMPDIR when set and not empty, else /tmp. */
const char *il_tmp_dir(void);

/*
 * Remove every temporary still open. Async-signal-safe; what the signal
 * handler calls. Outputs stay open (their temporaries are gone).
 */
void il_out_cleanup(void);

#ifdef __cplusplus
}
#endif

#endif
