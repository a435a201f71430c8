/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload API's small calls (include/idlelab/sim.h) as static inline
 * functions. engine.c exports them under their public names; the built-in
 * workloads (src/workloads/wl_api.h) call these forms instead. Each is a
 * load or two: as a call from another object of the library (the exported
 * name is not inlined across files) it cost the call, the return and the
 * caller's saved registers, on 256 CPUs several times per wake-up (the
 * placement's idle tests).
 */
#ifndef IDLELAB_SIM_API_H
#define IDLELAB_SIM_API_H

#include "sim_internal.h"

static inline int64_t sim_api_now(const struct il_sim *s)
{
	return s->now;
}

static inline int64_t sim_api_measured_ns(const struct il_sim *s)
{
	return s->now - s->measure_t;
}

static inline int sim_api_ncpus(const struct il_sim *s)
{
	return s->ncpus;
}

static inline struct il_rng *sim_api_rng(struct il_sim *s)
{
	return &s->rng;
}

static inline const struct il_platform *sim_api_platform(const struct il_sim *s)
{
	return s->p;
}

static inline int sim_api_core_of(const struct il_sim *s, int cpu)
{
	return s->cpus[cpu].core;
}

static inline int sim_api_package_of(const struct il_sim *s, int cpu)
{
	return s->cpus[cpu].pkg;
}

static inline void *sim_api_task_data(struct il_sim *s, int task)
{
	return s->tasks[task].data;
}

static inline int sim_api_task_cpu(const struct il_sim *s, int task)
{
	return s->tasks[task].cpu;
}

static inline void sim_api_task_work(struct il_sim *s, int task, uint64_t cycles, int64_t ns)
{
	struct sim_task *t = &s->tasks[task];
	t->next_cycles = cycles;
	t->next_ns = ns > 0 ? ns : 0;
	t->action = A_RUN;
}

static inline void sim_api_task_sleep_until(struct il_sim *s, int task, int64_t abs_ns)
{
	struct sim_task *t = &s->tasks[task];
	/* the hrtimer's hard expiry is the end of the slack window; nothing expires it earlier */
	abs_ns += s->p->timer_slack_ns;
	t->timer_t = abs_ns < s->now ? s->now : abs_ns;
	t->expect_t = t->timer_t;
	t->action = A_SLEEP;
}

static inline void sim_api_task_block(struct il_sim *s, int task, int64_t expect_ns)
{
	s->tasks[task].expect_t = expect_ns;
	s->tasks[task].action = A_BLOCK;
}

static inline bool sim_api_cpu_idle(const struct il_sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	return c->cur < 0 && c->rq_len == 0;
}

static inline int sim_api_cpu_nr_running(const struct il_sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	return c->rq_len + (c->cur >= 0);
}

#endif
