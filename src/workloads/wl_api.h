/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For the built-in workloads: the workload API's small calls as the
 * engine's inline forms (src/sim/sim_api.h), under their public names.
 * Include after idlelab/sim.h. Out-of-tree workloads call the exported
 * functions, which are the same code.
 */
#ifndef IDLELAB_WL_API_H
#define IDLELAB_WL_API_H

#include "idlelab/hist.h"
#include "idlelab/sim.h"
#include "../sim/hist_add.h"
#include "../sim/sim_api.h"

#define il_sim_now(s) sim_api_now(s)
#define il_sim_measured_ns(s) sim_api_measured_ns(s)
#define il_sim_ncpus(s) sim_api_ncpus(s)
#define il_sim_rng(s) sim_api_rng(s)
#define il_sim_platform(s) sim_api_platform(s)
#define il_sim_core_of(s, cpu) sim_api_core_of(s, cpu)
#define il_sim_package_of(s, cpu) sim_api_package_of(s, cpu)
#define il_sim_task_data(s, task) sim_api_task_data(s, task)
#define il_sim_task_cpu(s, task) sim_api_task_cpu(s, task)
#define il_sim_task_work(s, task, cycles, ns) sim_api_task_work(s, task, cycles, ns)
#define il_sim_task_run(s, task, cycles) sim_api_task_work(s, task, cycles, 0)
#define il_sim_task_sleep_until(s, task, abs_ns) sim_api_task_sleep_until(s, task, abs_ns)
#define il_sim_task_block(s, task, expect_ns) sim_api_task_block(s, task, expect_ns)
#define il_sim_cpu_idle(s, cpu) sim_api_cpu_idle(s, cpu)
#define il_sim_cpu_nr_running(s, cpu) sim_api_cpu_nr_running(s, cpu)
#define il_hist_add(h, v) sim_hist_add(h, v)

#endif
