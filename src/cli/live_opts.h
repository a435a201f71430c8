/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What `idlelab sweep` and `idlelab latency` share: CPU pairs, the
 * changes they may make to the machine (--governor, --param, --disable,
 * written and restored through include/idlelab/restore.h), and stopping
 * early on SIGINT with the results so far.
 */
#ifndef IDLELAB_CLI_LIVE_OPTS_H
#define IDLELAB_CLI_LIVE_OPTS_H

#include "idlelab/err.h"

#define LIVE_PAIRS_MAX 64
#define LIVE_CHANGES_MAX 32

struct live_pair {
	int waker, wakee;
};

struct live_opts {
	const char *root;                   /* "/" unless --root */
	const char *governor;
	int nparams, ndisable, npairs;
	const char *params[LIVE_CHANGES_MAX];
	const char *disable[LIVE_CHANGES_MAX];
	struct live_pair pairs[LIVE_PAIRS_MAX];
};

/* The long options live_opt() handles, to append to a command's table. */
#define LIVE_LONG_OPTIONS                                        \
	{ "pair", required_argument, NULL, 'P' },                \
	{ "governor", required_argument, NULL, 'G' },            \
	{ "param", required_argument, NULL, 'M' },               \
	{ "disable", required_argument, NULL, 'D' },             \
	{ "root", required_argument, NULL, 'R' }

/* Handle option c (one of the above): 0, or the exit status of a usage error. */
int live_opt(struct live_opts *lo, int c, const char *arg, const char *cmd);
/* After parsing: default pair 0:1, the CPUs checked; 0 or a usage error's status. */
int live_finish(struct live_opts *lo, const char *cmd);
/*
 * Make the changes: the governor, the parameters, and the states of
 * --disable (an index or a name) on every CPU of the pairs. 0, or 1
 * after the error is reported (changes made so far are restored).
 */
int live_apply(const struct live_opts *lo);
/* The counters' tree below the root: ROOT/sys/devices/system/cpu (malloc'ed). */
char *live_sysfs_root(const struct live_opts *lo);

/* SIGINT stops the measurement early (the results so far are printed). */
extern volatile int live_stop;
void live_catch_sigint(void);

#endif
