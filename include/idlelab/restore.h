/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Changes a live tool makes to the machine, written back whatever happens.
 *
 * `idlelab sweep` and `idlelab latency` (and bench/bench_live_sweep) may
 * switch the cpuidle governor, disable idle states or set module
 * parameters for their run. Each change is made through il_change_*():
 * the file's old value is read first and recorded, then the new one
 * written; il_change_restore() writes the old values back, last change
 * first. The first change installs the restore at exit (atexit) and on
 * SIGHUP/SIGINT/SIGQUIT/SIGTERM, and on SIGPIPE (a reader of the messages below
 * that has gone), where the action is the default: the handler writes
 * every old value back with async-signal-safe calls only (the file's
 * directory is kept open, so no path is walked again), removes
 * output temporaries (il_out_cleanup), restores the default action and
 * re-raises the signal, so the exit status is the signal's. One restore
 * runs at a time: a signal that comes to another thread meanwhile (a
 * second ^C during the sweep) waits for it, then takes its course.
 *
 * The changes in force are recorded, each before it is made, in
 * ROOT/run/idlelab/changes ("/run" on the machine: it lasts until a
 * reboot, as the changes do), which the process holds locked (flock) until
 * they are written back. A process killed with SIGKILL leaves it behind,
 * unlocked: the next one to change or recover that root writes it back
 * first (a value someone changed again meanwhile is left as it is). While
 * one process holds it, another one's first change is refused (EBUSY):
 * two at once would each write back the other's values.
 *
 * Every change and every restore is said on stderr:
 *   changed PATH from 'OLD' to 'NEW' (restored at exit)
 *   restored PATH to 'OLD'
 *   idlelab: could not restore PATH to 'OLD': ERROR
 *
 * Files are reached as the live readers reach them: the root taken as
 * named, every directory below it opened without following links, the
 * file itself opened O_NOFOLLOW and never created.
 */
#ifndef IDLELAB_RESTORE_H
#define IDLELAB_RESTORE_H

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_CHANGES_MAX 64
#define IL_CHANGE_VALUE_MAX 128

/*
 * Write value to rel (e.g. "sys/devices/system/cpu/cpuidle/current_governor")
 * below root ("/" for the machine), recording the old value first. A
 * value the kernel refuses (the write or the close fails) is an error
 * naming the file, and nothing is recorded. Writing the value a file
 * already holds is no change. 0 or a negative errno with err.
 */
int il_change_write(const char *root, const char *rel, const char *value, struct il_err *err);

/* The cpuidle governor: cpuidle/current_governor. */
int il_change_governor(const char *root, const char *governor, struct il_err *err);
/* A module parameter "MODULE.PARAM=VALUE": sys/module/MODULE/parameters/PARAM. */
int il_change_param(const char *root, const char *assignment, struct il_err *err);
/* Disable (1) or enable (0) state index of cpu: cpu<N>/cpuidle/state<I>/disable. */
int il_change_state_disable(const char *root, int cpu, int state, int disable,
			    struct il_err *err);

/*
 * Write back what a process that is gone (killed with SIGKILL, crashed)
 * left changed below root, from the record it kept (ROOT/run/idlelab/
 * changes), saying each; the first change of a process does it too. A
 * record a living process holds is left to it. 0, or a negative errno.
 */
int il_change_recover(const char *root, struct il_err *err);

/* Write every old value back, last change first; returns how many failed. */
int il_change_restore(void);
/* Changes in force. */
int il_change_count(void);

#ifdef __cplusplus
}
#endif

#endif
