// SPDX-License-Identifier: GPL-2.0-only
/* Progress of long commands on stderr (progress.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "idlelab/batch.h"
#include "progress.h"

#define DELAY_NS 2000000000ll   /* auto mode: silent for the first 2 s (see delay_ns()) */
#define PERIOD_NS 250000000ll   /* at most four updates a second */
#define TICK_NS 50000000ll      /* how often the thread looks */

struct cli_progress {
	const char *what, *unit;
	int total;
	double total_cost;
	double done_cost;         /* under lock */
	bool tty;                 /* auto mode: redraw one line in place */
	atomic_int done;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stopping;
	bool shown;               /* something is on the terminal line */
	int last_done;            /* the count last printed (-1: none) */
	long long start, last;    /* monotonic ns */
	long long delay;          /* auto mode: nothing before this much has passed */
	pthread_t thread;
};

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* DELAY_NS, or IDLELAB_PROGRESS_DELAY_MS from the environment (for tests). */
static long long delay_ns(void)
{
	const char *e = getenv("IDLELAB_PROGRESS_DELAY_MS");
	char *end;
	long ms = e ? strtol(e, &end, 10) : -1;

	return e && *e && !*end && ms >= 0 && ms <= 3600000 ? ms * 1000000ll : DELAY_NS;
}

static void print(struct cli_progress *p, int done, long long t, bool final)
{
	double el = (double)(t - p->start) / 1e9;

	if (p->tty)
		fputc('\r', stderr);
	if (final) {
		fprintf(stderr, "%s: %d/%d %s in %.1f s", p->what, done, p->total, p->unit, el);
	} else {
		fprintf(stderr, "%s: %d/%d %s, %.1f s", p->what, done, p->total, p->unit, el);
		/* the runs are dealt longest first: reckon by their cost, not their count */
		double dc = p->done_cost;
		if (done > 0 && done < p->total && p->total_cost > 0 && dc > 0 && dc < p->total_cost)
			fprintf(stderr, ", ETA %.1f s", el * (p->total_cost - dc) / dc);
		else if (done > 0 && done < p->total)
			fprintf(stderr, ", ETA %.1f s", el * (p->total - done) / done);
	}
	fputs(p->tty ? "\033[K" : "\n", stderr);
	fflush(stderr);
	p->shown = true;
	p->last_done = done;
	p->last = t;
}

static void *run(void *arg)
{
	struct cli_progress *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		long long t = now_ns(), next = t + TICK_NS;
		struct timespec ts = { (time_t)(next / 1000000000ll), (long)(next % 1000000000ll) };
		int done = atomic_load(&p->done);

		/* auto: redraw every period once the delay is over; forced: when the count changes */
		if (p->tty ? t - p->start >= p->delay && t - p->last >= PERIOD_NS
			   : done != p->last_done && t - p->last >= PERIOD_NS)
			print(p, done, t, false);
		pthread_cond_timedwait(&p->wake, &p->lock, &ts);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct cli_progress *cli_progress_start(const char *what, const char *unit, int total,
					double total_cost, enum cli_progress_mode mode)
{
	struct cli_progress *p;
	pthread_condattr_t ca;

	if (mode == CLI_PROGRESS_OFF || (mode == CLI_PROGRESS_AUTO && !isatty(STDERR_FILENO)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->what = what;
	p->unit = unit;
	p->total = total;
	p->total_cost = total_cost;
	p->tty = mode == CLI_PROGRESS_AUTO;
	p->last_done = -1;
	atomic_init(&p->done, 0);
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	p->delay = delay_ns();
	p->start = now_ns();
	p->last = p->start - PERIOD_NS;
	if (!p->tty || p->delay == 0)
		print(p, 0, p->start, false); /* the delay is over already */
	if (pthread_create(&p->thread, NULL, run, p) != 0) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

void cli_progress_step(void *arg, double cost)
{
	struct cli_progress *p = arg;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done_cost += cost;
	pthread_mutex_unlock(&p->lock);
	atomic_fetch_add(&p->done, 1);
}

double cli_progress_cost(struct il_sim_batch *const *bs, int nb)
{
	int n;
	struct il_sim_task *t = il_sim_tasks(bs, nb, &n);
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += t[i].cost;
	free(t);
	return sum;
}

void cli_progress_stop(struct cli_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->tty && p->shown) {
		fputs("\r\033[K", stderr); /* the terminal line as it was */
		fflush(stderr);
	} else if (!p->tty) {
		print(p, atomic_load(&p->done), now_ns(), true);
	}
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
