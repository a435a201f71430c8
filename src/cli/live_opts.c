// SPDX-License-Identifier: GPL-2.0-only
/* The options idlelab sweep and idlelab latency share (live_opts.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "idlelab/restore.h"
#include "idlelab/sysfs.h"
#include "idlelab/wakebench.h"
#include "live_opts.h"

volatile int live_stop;

static void on_sigint(int sig)
{
	(void)sig;
	live_stop = 1;
}

void live_catch_sigint(void)
{
	struct sigaction old, sa;

	/* installed before any change, so the restore handler runs first, then this */
	if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

static int parse_cpu(const char *s, const char *end, int *cpu)
{
	long v = 0;

	if (s == end)
		return -1;
	for (const char *p = s; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v >= 1024)
			return -1;
	}
	*cpu = (int)v;
	return 0;
}

int live_opt(struct live_opts *lo, int c, const char *arg, const char *cmd)
{
	switch (c) {
	case 'P': {
		const char *colon = strchr(arg, ':');
		struct live_pair p;
		if (!colon || parse_cpu(arg, colon, &p.waker) ||
		    parse_cpu(colon + 1, colon + strlen(colon), &p.wakee))
			return cli_usage_error(cmd, "--pair: '%s' is not WAKER:WAKEE (two CPU numbers)",
					       arg);
		if (p.waker == p.wakee)
			return cli_usage_error(cmd, "--pair %s: the waker and the wakee must be two "
					       "CPUs", arg);
		if (lo->npairs == LIVE_PAIRS_MAX)
			return cli_usage_error(cmd, "more than %d --pair", LIVE_PAIRS_MAX);
		lo->pairs[lo->npairs++] = p;
		return 0;
	}
	case 'G':
		if (!*arg || strchr(arg, '/') || strchr(arg, '\n') || strlen(arg) > 15)
			return cli_usage_error(cmd, "--governor: '%s' is not a governor name", arg);
		lo->governor = arg;
		return 0;
	case 'M': {
		const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
		if (!dot || !eq || dot > eq || dot == arg || eq == dot + 1 || strchr(arg, '/'))
			return cli_usage_error(cmd, "--param %s: want MODULE.PARAM=VALUE", arg);
		if (lo->nparams == LIVE_CHANGES_MAX)
			return cli_usage_error(cmd, "more than %d --param", LIVE_CHANGES_MAX);
		lo->params[lo->nparams++] = arg;
		return 0;
	}
	case 'D':
		if (!*arg || strchr(arg, '/') || strlen(arg) > 15)
			return cli_usage_error(cmd, "--disable: '%s' is not a state index or name", arg);
		if (lo->ndisable == LIVE_CHANGES_MAX)
			return cli_usage_error(cmd, "more than %d --disable", LIVE_CHANGES_MAX);
		lo->disable[lo->ndisable++] = arg;
		return 0;
	case 'R':
		/* "" would be the machine's own / (and lo->root[-1] read) */
		if (!*arg)
			return cli_usage_error(cmd, "--root: an empty directory name");
		lo->root = arg;
		return 0;
	}
	return cli_usage_error(cmd, "internal: option %c", c);
}

int live_finish(struct live_opts *lo, const char *cmd)
{
	if (!lo->root)
		lo->root = "/";
	if (!lo->npairs) {
		lo->pairs[0] = (struct live_pair){ 0, 1 };
		lo->npairs = 1;
	}
	for (int i = 0; i < lo->npairs; i++)
		for (int k = 0; k < 2; k++) {
			int cpu = k ? lo->pairs[i].wakee : lo->pairs[i].waker;
			if (il_wake_cpu_ok(cpu))
				return cli_usage_error(cmd, "CPU %d: not one this process may run on "
						       "(offline, or outside its affinity)", cpu);
		}
	return 0;
}

char *live_sysfs_root(const struct live_opts *lo)
{
	char *p = NULL;

	if (asprintf(&p, "%s%ssys/devices/system/cpu", lo->root,
		     lo->root[strlen(lo->root) - 1] == '/' ? "" : "/") < 0)
		abort();
	return p;
}

/* The index of state s ("2" or "C6") on cpu; -1 with err if it has none such. */
static int state_index(const struct live_opts *lo, int cpu, const char *s, struct il_err *err)
{
	char *root = live_sysfs_root(lo);
	struct il_cpulist only = { 1, &cpu };
	struct il_sysfs_info info;
	int idx = -1;
	char *end;
	long v = strtol(s, &end, 10);

	if (il_sysfs_read(root, &only, &info, err)) {
		free(root);
		return -1;
	}
	for (int i = 0; info.ncpus && i < info.cpus[0].nstates; i++) {
		const struct il_sysfs_state *st = &info.cpus[0].states[i];
		if ((*end == '\0' && end != s && st->index == v) ||
		    (st->name.status == IL_SYSFS_OK && !strcmp(st->name.s, s)))
			idx = st->index;
	}
	if (idx < 0)
		il_err_set_at(err, ENOENT, root, 0, "cpu%d has no idle state '%s'", cpu, s);
	il_sysfs_info_free(&info);
	free(root);
	return idx;
}

/*
 * No cpuidle driver: the CPUs idle in the default routine, which no
 * governor decides and no state table has. A state to disable is refused;
 * a governor, or a parameter of the haltpoll governor or driver, is set
 * as asked, with a warning that it changes nothing the CPUs do.
 */
static int no_driver_check(const struct live_opts *lo, const char *sysroot)
{
	if (lo->ndisable)
		return cli_error("--disable %s: %s/cpuidle: no cpuidle driver: the CPUs idle in the "
				 "default routine and have no idle states to disable", lo->disable[0],
				 sysroot);
	if (lo->governor)
		cli_error("warning: --governor %s: %s/cpuidle: no cpuidle driver: no governor "
			  "decides here, the CPUs idle in the default routine", lo->governor, sysroot);
	for (int i = 0; i < lo->nparams; i++)
		if (!strncmp(lo->params[i], "haltpoll.", 9) ||
		    !strncmp(lo->params[i], "cpuidle_haltpoll.", 17))
			cli_error("warning: --param %s: %s/cpuidle: no cpuidle driver: the haltpoll "
				  "governor and driver act on nothing here", lo->params[i], sysroot);
	return 0;
}

int live_apply(const struct live_opts *lo)
{
	struct il_err err;
	char *sysroot;
	int nd;

	/* what a killed run left changed goes back first, asked for changes or not */
	if (il_change_recover(lo->root, &err))
		goto fail;
	sysroot = live_sysfs_root(lo);
	nd = il_sweep_no_cpuidle(sysroot) ? no_driver_check(lo, sysroot) : 0;
	free(sysroot);
	if (nd)
		return nd;
	if (lo->governor && il_change_governor(lo->root, lo->governor, &err))
		goto fail;
	for (int i = 0; i < lo->nparams; i++)
		if (il_change_param(lo->root, lo->params[i], &err))
			goto fail;
	for (int d = 0; d < lo->ndisable; d++)
		for (int i = 0; i < lo->npairs; i++)
			for (int k = 0; k < 2; k++) {
				int cpu = k ? lo->pairs[i].wakee : lo->pairs[i].waker;
				int idx = state_index(lo, cpu, lo->disable[d], &err);
				if (idx < 0 || il_change_state_disable(lo->root, cpu, idx, 1, &err))
					goto fail;
			}
	return 0;
fail:
	cli_report(&err);
	il_change_restore();
	return 1;
}
