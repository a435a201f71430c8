/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Progress of long commands on stderr: "sim: 3/10 runs, 4.2 s, ETA 9.8 s".
 *
 * auto: only when stderr is a terminal and the work has taken 2 s
 * (IDLELAB_PROGRESS_DELAY_MS in the environment sets another delay, for
 * tests), redrawn in place (at most four times a second) and erased at the
 * end. forced
 * (--progress): at once and whatever stderr is, one line per change (at
 * most four a second), the first and the last always. off (--quiet): never.
 */
#ifndef IDLELAB_CLI_PROGRESS_H
#define IDLELAB_CLI_PROGRESS_H

enum cli_progress_mode { CLI_PROGRESS_AUTO = 0, CLI_PROGRESS_FORCE, CLI_PROGRESS_OFF };

struct cli_progress;

/*
 * Start showing progress of total steps of 'what' (NULL if nothing will be
 * shown). total_cost: what the steps cost in all (their il_sim_task_cost()),
 * which the ETA is reckoned by (0: by the count of steps).
 */
struct cli_progress *cli_progress_start(const char *what, const char *unit, int total,
					double total_cost, enum cli_progress_mode mode);
/* One step of that cost done; any thread may call it (p may be NULL). */
void cli_progress_step(void *p, double cost);
/* The cost of the runs of the batches left to run (not resumed), for total_cost. */
struct il_sim_batch;
double cli_progress_cost(struct il_sim_batch *const *bs, int nb);
/* Stop, erase the line of the auto mode, free. */
void cli_progress_stop(struct cli_progress *p);

#endif
