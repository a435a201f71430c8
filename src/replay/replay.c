// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay engine: one recorded idle period at a time through the
 * governor and the core, in the order of kernel/sched/idle.c
 * cpuidle_idle_call() (mainline v7.1): select with stop_tick preset to true,
 * cpuidle_enter_state()'s accounting of what ->enter returned, then
 * cpuidle_reflect() for a successful entry only. A polling entry behaves as
 * drivers/cpuidle/poll_state.c poll_idle(): it caches the poll-time limit
 * (cpuidle_poll_time()) and is the only kind of entry that writes
 * dev->poll_time_limit. With a single state the governor is not asked
 * (e5c9ffc6ae1b, d557640e4ce5) and the tick follows the previous period's
 * tick wake-up (f4c31b07b136).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/replay.h"

/* Devices as after cpuidle_register_device() plus the user's sysfs writes. */
static void reset_devices(struct il_replay_engine *eng)
{
	const struct il_replay_log *log = eng->log;
	struct il_gov *gov = eng->gov;

	if (gov->ops->cpu_data_size)
		memset(gov->cpu_data, 0, (size_t)gov->ncpus * gov->ops->cpu_data_size);
	for (int cpu = 0; cpu < log->ncpus; cpu++) {
		struct il_device *dev = &eng->devs[cpu];

		il_device_init(dev, &log->drv, cpu);
		il_gov_enable(gov, cpu, &log->drv, dev);
		/* stateN/disable written after boot, as a user would */
		for (int i = 0; i < log->drv.state_count; i++)
			if (log->user_disabled & (1u << i))
				il_device_set_user_disable(dev, i, true);
		eng->clock_ns[cpu] = 0;
		eng->got_tick[cpu] = false;
	}
}

int il_replay_engine_init(struct il_replay_engine *eng, const struct il_replay_log *log,
			  struct il_gov *gov, struct il_err *err)
{
	size_t n = log->ncpus > 0 ? (size_t)log->ncpus : 1;

	memset(eng, 0, sizeof(*eng));
	if (gov->ncpus < log->ncpus)
		return il_err_set_at(err, EINVAL, log->file, 0,
				     "governor set up for %d CPUs, the log has %d", gov->ncpus,
				     log->ncpus);
	for (int i = 0; i < log->nparams; i++) {
		const struct il_replay_param *p = &log->params[i];
		struct il_err perr;
		int r;

		const char *name = p->name, *dot = strchr(name, '.');

		/* MODULE.NAME: a module parameter, for the governor of that name only */
		if (dot) {
			if (strlen(gov->ops->name) != (size_t)(dot - name) ||
			    strncmp(gov->ops->name, name, (size_t)(dot - name)))
				continue;
			name = dot + 1;
		}
		/* a parameter the spec sets itself ("+guest_halt_poll_ns=V") wins, as in sim */
		char given[sizeof(p->name) + 3];
		snprintf(given, sizeof(given), "+%s=", name);
		if (strstr(gov->spec, given))
			continue;
		il_err_clear(&perr);
		r = il_gov_set_param(gov, name, p->value, &perr);
		if (r < 0)
			return il_err_set_at(err, r, log->file, p->line, "param %s: %s", p->name,
					     perr.msg[0] ? perr.msg : "rejected by the governor");
	}
	eng->log = log;
	eng->gov = gov;
	eng->tick_nsec = il_tick_nsec(log->hz);
	eng->devs = calloc(n, sizeof(*eng->devs));
	eng->clock_ns = calloc(n, sizeof(*eng->clock_ns));
	eng->got_tick = calloc(n, sizeof(*eng->got_tick));
	if (!eng->devs || !eng->clock_ns || !eng->got_tick) {
		il_replay_engine_free(eng);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	reset_devices(eng);
	return 0;
}

void il_replay_engine_reset(struct il_replay_engine *eng)
{
	reset_devices(eng);
}

void il_replay_engine_free(struct il_replay_engine *eng)
{
	free(eng->devs);
	free(eng->clock_ns);
	free(eng->got_tick);
	memset(eng, 0, sizeof(*eng));
}

struct il_replay_decision il_replay_step(struct il_replay_engine *eng,
					 const struct il_replay_row *row)
{
	const struct il_driver *drv = &eng->log->drv;
	int cpu = row->cpu;
	struct il_device *dev = &eng->devs[cpu];
	struct il_idle_inputs in = {
		.sleep_length_ns = row->sleep_length_ns,
		.delta_tick_ns = row->delta_tick_ns,
		.tick_stopped = row->tick_stopped,
		.latency_req_ns = row->latency_req_ns,
		.nr_iowait = row->nr_iowait,
		.cpu_utilized = row->cpu_utilized,
		.got_tick = false,
		.clock_ns = eng->clock_ns[cpu],
		.tick_nsec = eng->tick_nsec,
		.true_idle_ns = row->residency_ns,
	};
	bool one_state = drv->state_count <= 1;
	bool stop_tick = true;
	int idx;

	if (one_state) {
		/* the idle loop enters state 0 without asking the governor */
		idx = 0;
		stop_tick = eng->got_tick[cpu];
	} else {
		idx = il_gov_select(eng->gov, cpu, drv, dev, &in, &stop_tick);
	}
	struct il_replay_decision d = { .selected = (int8_t)idx, .stop_tick = stop_tick };

	if (idx < 0 || idx >= drv->state_count) {
		/* a governor bug: nothing the core could enter; keep the device intact */
		d.selected = -1;
		return d;
	}
	if (row->residency_ns < 0) {
		/* ->enter refused: counted as rejected, reflect not called */
		il_account_enter(drv, dev, idx, -EBUSY, 0);
		eng->got_tick[cpu] = false;
		return d;
	}
	if (drv->states[idx].flags & IL_FLAG_POLLING) {
		il_poll_time(drv, dev, eng->tick_nsec);
		dev->poll_time_limit = row->poll_time_limit;
	}
	il_account_enter(drv, dev, idx, idx, row->residency_ns);
	eng->clock_ns[cpu] += (uint64_t)row->residency_ns;
	in.got_tick = row->got_tick;
	in.clock_ns = eng->clock_ns[cpu];
	eng->got_tick[cpu] = row->got_tick;
	if (!one_state)
		il_gov_reflect(eng->gov, cpu, drv, dev, idx, &in);
	return d;
}

/*
 * One entry of a decisions file against the decision for its row: the
 * row must be in the log and the cpu (when given) match it.
 */
static int agree(struct il_replay_agreement *ag, const char *file,
		 const struct il_replay_expect_entry *e, int log_cpu,
		 struct il_replay_decision got, struct il_err *err)
{
	if (e->cpu >= 0 && e->cpu != log_cpu)
		return il_err_set_at(err, EINVAL, file, e->line,
				     "row %llu is cpu %d here but cpu %d in the log",
				     (unsigned long long)e->row, e->cpu, log_cpu);
	ag->compared++;
	if (got.selected == e->d.selected && got.stop_tick == e->d.stop_tick) {
		ag->equal++;
	} else if (!ag->differs) {
		ag->differs = true;
		ag->first_row = e->row;
		ag->first_line = e->line;
		ag->first_expected = e->d;
		ag->first_got = got;
	}
	return 0;
}

static int beyond(const char *file, const struct il_replay_expect_entry *e, size_t nrows,
		  struct il_err *err)
{
	return il_err_set_at(err, EINVAL, file, e->line, "row %llu beyond the log's %zu rows",
			     (unsigned long long)e->row, nrows);
}

int il_replay_compare(const struct il_replay_log *log,
		      const struct il_replay_decision *got,
		      const struct il_replay_expect *ex, struct il_replay_agreement *ag,
		      struct il_err *err)
{
	memset(ag, 0, sizeof(*ag));
	for (size_t i = 0; i < ex->n; i++) {
		const struct il_replay_expect_entry e = {
			.row = ex->row[i], .cpu = ex->cpu[i], .d = ex->d[i], .line = ex->line[i],
		};
		int r;

		if (e.row >= log->nrows)
			return beyond(ex->file, &e, log->nrows, err);
		r = agree(ag, ex->file, &e, log->rows[e.row].cpu, got[e.row], err);
		if (r)
			return r;
	}
	return 0;
}

/* The next entry into ck->next, or the error to keep. */
static int check_advance(struct il_replay_check *ck, struct il_err *err)
{
	int r = il_replay_expect_next(ck->es, &ck->next, err);

	ck->have_next = r > 0;
	if (r < 0)
		ck->error = r;
	return r < 0 ? r : 0;
}

int il_replay_check_begin(struct il_replay_check *ck, struct il_replay_expect_stream *es,
			  struct il_err *err)
{
	memset(ck, 0, sizeof(*ck));
	ck->es = es;
	return check_advance(ck, err);
}

int il_replay_check_row(struct il_replay_check *ck, uint64_t row, int cpu,
			struct il_replay_decision got, struct il_err *err)
{
	if (ck->error)
		return ck->error;
	if (!ck->have_next || ck->next.row != row)
		return 0; /* entries are strictly increasing: at most one per row */
	int r = agree(&ck->ag, ck->es->rd->file, &ck->next, cpu, got, err);
	if (r) {
		ck->error = r;
		return r;
	}
	return check_advance(ck, err);
}

int il_replay_check_end(struct il_replay_check *ck, size_t nrows, struct il_err *err)
{
	if (ck->error)
		return ck->error;
	if (ck->have_next)
		ck->error = beyond(ck->es->rd->file, &ck->next, nrows, err);
	return ck->error;
}
