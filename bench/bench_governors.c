// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decision cost of the governors: ns per select+reflect.
 *
 * Generates replay logs (docs/replay.md) for four state tables with a fixed
 * seed, parses them with the replay parser, then for every governor and
 * every preset it offers replays the rows through il_replay_step() and
 * times only that loop with CLOCK_MONOTONIC. Each figure is the median of
 * RUNS runs of DEFAULT_PASSES passes over all rows (the engine is reset
 * between runs, untimed). The
 * timed step is what the kernel's cpuidle_idle_call() does around the
 * governor: select, the core's accounting (cpuidle_enter_state's counters,
 * poll-limit caching) and reflect. The governor's own share (governor_ns)
 * subtracts the engine's cost on that governor's own decision stream,
 * replayed by a stand-in that returns the recorded decisions; the
 * "(engine)" rows show the engine under a governor that always returns 0.
 *
 *   bench_governors [--rows N] [--runs N] [--format table|csv|json]
 *   bench_governors --write DIR [--rows N]   write the four logs and exit
 *
 * Tables: KVM guest (cpuidle-haltpoll), AMD Zen 3 host (acpi_idle from _CST
 * latencies 1 and 350 µs, residency = latency x latency_factor 2), Intel
 * Haswell server (intel_idle hsw_cstates up to C6), POWER pseries LPAR
 * (dedicated: snooze, CEDE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelab/governor.h"
#include "idlelab/replay.h"
#include "idlelab/report.h"

#define DEFAULT_ROWS 20000   /* ~1 MB of rows: the inputs stay in cache as in the kernel */
#define DEFAULT_PASSES 1     /* passes over the rows per timed run (short runs dodge preemption) */
#define DEFAULT_RUNS 31
#define RUNS_MAX 101
#define BENCH_CPUS 4
#define BENCH_SEED 0x1d1e1ab5eedull
#define NSEC_PER_USEC 1000ll
#define NSEC_PER_MSEC 1000000ll
#define QOS_NONE_NS 2000000000000ll  /* default cpuidle_governor_latency_req() */

struct bench_table {
	const char *name;
	unsigned int hz;
	const char *states;   /* "# state,..." lines */
	int64_t poll_limit_ns;  /* cpuidle_poll_time() of the table at hz */
};

static const struct bench_table tables[] = {
	{ "kvm", 1000,
	  "# state,0,POLL,0,0,polling\n"
	  "# state,1,haltpoll idle,1000,1000,\n",
	  62500 /* no state >= 10 µs: TICK_NSEC/16 */ },
	{ "zen3", 250,
	  "# state,0,POLL,0,0,polling\n"
	  "# state,1,C1,1000,2000,\n"
	  "# state,2,C2,350000,700000,\n",
	  250000 /* TICK_NSEC/16 at HZ=250 < 700 µs */ },
	{ "haswell", 1000,
	  "# state,0,POLL,0,0,polling\n"
	  "# state,1,C1,2000,2000,\n"
	  "# state,2,C1E,10000,20000,\n"
	  "# state,3,C3,33000,100000,tlb-flushed\n"
	  "# state,4,C6,133000,400000,tlb-flushed\n",
	  20000 /* C1E's residency */ },
	{ "pseries", 100,
	  "# state,0,snooze,0,0,polling\n"
	  "# state,1,CEDE,10000,100000,\n",
	  100000 /* CEDE's residency */ },
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* ---- deterministic workload generator (integer only, same on every machine) ---- */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* Percent chance. */
static bool rng_pct(struct rng *r, unsigned pct)
{
	return rng_next(r) % 100 < pct;
}

/* Log-uniform in [lo, hi): a random octave, then uniform inside it. */
static int64_t rng_log(struct rng *r, int64_t lo, int64_t hi)
{
	int octaves = 0;
	for (int64_t v = lo; v < hi; v *= 2)
		octaves++;
	int64_t base = lo << rng_range(r, 0, octaves - 1);
	int64_t v = rng_range(r, base, 2 * base - 1);
	return v < hi ? v : hi - 1;
}

struct cpu_gen {
	int64_t now_ns;       /* this CPU's time */
	bool tick_stopped;    /* the tick was stopped in the last idle period */
	int64_t period_ns;    /* a periodic timer this CPU runs */
	int64_t next_periodic;
};

/*
 * One idle period of a mixed server workload: wake-ups by device interrupts
 * and IPIs after a few µs to ms (request/response, I/O completions), by the
 * CPU's timers (a periodic one and random one-shot hrtimers), by the tick
 * when it was kept, and long idle stretches with the tick stopped.
 */
static void gen_row(struct rng *r, const struct bench_table *t, int cpu, struct cpu_gen *g,
		    char *line, size_t size)
{
	int64_t tick = il_tick_nsec(t->hz);
	int64_t now = g->now_ns;

	/* the next timer: the periodic one or a one-shot hrtimer */
	while (g->next_periodic <= now)
		g->next_periodic += g->period_ns;
	int64_t timer = g->next_periodic - now;
	if (rng_pct(r, 40)) {
		int64_t oneshot = rng_log(r, 20 * NSEC_PER_USEC, 50 * NSEC_PER_MSEC);
		if (oneshot < timer)
			timer = oneshot;
	}
	if (rng_pct(r, 10)) /* nothing pending for long: deep idle */
		timer = rng_log(r, 50 * NSEC_PER_MSEC, 2000 * NSEC_PER_MSEC);
	int64_t sleep_length = timer;

	/* the tick: stopped now if the last period ran long with the tick stopped */
	bool stopped = g->tick_stopped && rng_pct(r, 70);
	int64_t to_tick = tick - now % tick;
	int64_t delta_tick = stopped || to_tick > sleep_length ? sleep_length : to_tick;

	/* what woke the CPU */
	int64_t wake;
	unsigned kind = (unsigned)(rng_next(r) % 100);
	if (kind < 35)
		wake = rng_log(r, 1 * NSEC_PER_USEC, 100 * NSEC_PER_USEC);    /* IPI, NIC irq */
	else if (kind < 55)
		wake = rng_log(r, 100 * NSEC_PER_USEC, 5 * NSEC_PER_MSEC);    /* I/O, requests */
	else
		wake = sleep_length;                                         /* its timer */
	if (wake > sleep_length)
		wake = sleep_length;
	bool got_tick = false;
	if (!stopped && wake > to_tick && rng_pct(r, 50)) {
		/* the recorded governor kept the tick and it fired first */
		wake = to_tick;
		got_tick = true;
	}
	int64_t residency = wake + rng_range(r, 0, 2 * NSEC_PER_USEC);
	bool ptl = residency >= t->poll_limit_ns;
	if (rng_pct(r, 1) && rng_pct(r, 20))
		residency = IL_REPLAY_REJECTED;

	int64_t lat = QOS_NONE_NS;
	unsigned q = (unsigned)(rng_next(r) % 1000);
	if (q < 20)
		lat = 100 * NSEC_PER_USEC;  /* a cpu_dma_latency user */
	else if (q < 25)
		lat = 0;
	unsigned iow = rng_pct(r, 85) ? 0 : (unsigned)rng_range(r, 1, 3);
	bool util = rng_pct(r, 25);

	snprintf(line, size, "%d,%lld,%lld,%d,%lld,%u,%d,%lld,%d,%d\n", cpu,
		 (long long)sleep_length, (long long)delta_tick, stopped, (long long)lat, iow,
		 util, (long long)residency, got_tick, ptl);

	g->tick_stopped = residency > tick && !got_tick;
	g->now_ns = now + (residency > 0 ? residency : 0) +
		    rng_log(r, 2 * NSEC_PER_USEC, 200 * NSEC_PER_USEC); /* running */
}

/* A whole log as text; caller frees. */
static char *gen_log(const struct bench_table *t, size_t rows, size_t *len)
{
	struct rng r = { BENCH_SEED ^ (uint64_t)t->hz * 0x9e37 ^ (uint64_t)strlen(t->states) };
	struct cpu_gen g[BENCH_CPUS];
	size_t cap = 4096 + rows * 96, off = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	off += (size_t)snprintf(buf + off, cap - off,
				IL_REPLAY_MAGIC "\n# generator=bench_governors table=%s seed=%#llx\n"
				"# hz=%u\n%s" IL_REPLAY_COLUMNS "\n",
				t->name, (unsigned long long)BENCH_SEED, t->hz, t->states);
	for (int c = 0; c < BENCH_CPUS; c++) {
		static const int64_t periods_ms[BENCH_CPUS] = { 4, 10, 16, 100 };
		g[c] = (struct cpu_gen){ .period_ns = periods_ms[c] * NSEC_PER_MSEC };
		g[c].next_periodic = g[c].period_ns;
	}
	for (size_t i = 0; i < rows; i++) {
		int cpu = (int)(rng_next(&r) % BENCH_CPUS);
		gen_row(&r, t, cpu, &g[cpu], buf + off, cap - off);
		off += strlen(buf + off);
	}
	*len = off;
	return buf;
}

static int write_logs(const char *dir, size_t rows)
{
	for (size_t i = 0; i < NTABLES; i++) {
		char path[4096];
		size_t len;
		char *text = gen_log(&tables[i], rows, &len);
		snprintf(path, sizeof(path), "%s/%s.log", dir, tables[i].name);
		FILE *f = fopen(path, "w");
		if (!text || !f || fwrite(text, 1, len, f) != len || fclose(f)) {
			fprintf(stderr, "bench_governors: %s: %s\n", path, strerror(errno));
			free(text);
			return 1;
		}
		free(text);
		printf("%s: %zu rows\n", path, rows);
	}
	return 0;
}

/* ---- the loop overhead: a governor that decides nothing ---- */

static int null_select(const void *c, void *d, const struct il_driver *drv,
		       struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	(void)c; (void)d; (void)drv; (void)dev; (void)in; (void)stop_tick;
	return 0;
}

static void null_reflect(const void *c, void *d, const struct il_driver *drv,
			 struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	(void)c; (void)d; (void)drv; (void)in;
	dev->last_state_idx = index;
}

static const struct il_gov_ops null_ops = {
	.name = "(engine)", .config_size = 1, .cpu_data_size = 1,
	.select = null_select, .reflect = null_reflect,
};

/*
 * The engine's share for one governor: a stand-in that returns, row by row,
 * the decisions that governor made. The core's accounting then sees the same
 * mix of states (and mispredicts the same way) as under the real governor,
 * which a governor that always returns 0 does not show.
 */
struct script {
	struct il_replay_decision *d;
	size_t n, i;
};

static int script_select(const void *c, void *d, const struct il_driver *drv,
			 struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	struct script *s = *(struct script *const *)c;
	const struct il_replay_decision *x = &s->d[s->i];

	(void)d; (void)drv; (void)dev; (void)in;
	if (++s->i == s->n)
		s->i = 0;
	*stop_tick = x->stop_tick;
	return x->selected;
}

static const struct il_gov_ops script_ops = {
	.name = "(script)", .config_size = sizeof(struct script *),
	.cpu_data_size = 1, .select = script_select, .reflect = null_reflect,
};

/* ---- timing ---- */

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static volatile unsigned long long sink;

/* Median and minimum ns per decision over runs. */
static void time_gov(struct il_replay_engine *eng, const struct il_replay_log *log, int runs,
		     double *median, double *min)
{
	double v[RUNS_MAX];
	unsigned long long acc = 0;

	if (runs > RUNS_MAX)
		runs = RUNS_MAX;
	for (int k = 0; k < runs; k++) {
		il_replay_engine_reset(eng);
		int64_t t0 = now_ns();
		for (int pass = 0; pass < DEFAULT_PASSES; pass++)
			for (size_t i = 0; i < log->nrows; i++) {
				struct il_replay_decision d = il_replay_step(eng, &log->rows[i]);
				acc += (unsigned)d.selected + d.stop_tick;
			}
		int64_t t1 = now_ns();
		v[k] = (double)(t1 - t0) / (double)(log->nrows * DEFAULT_PASSES);
	}
	sink += acc;
	qsort(v, (size_t)runs, sizeof(v[0]), cmp_dbl);
	*median = runs % 2 ? v[runs / 2] : (v[runs / 2 - 1] + v[runs / 2]) / 2;
	*min = v[0];
}

/* The decisions of one timed run (after a reset), in step order. */
static struct il_replay_decision *record(struct il_replay_engine *eng,
					 const struct il_replay_log *log, size_t *n)
{
	struct il_replay_decision *d = malloc(sizeof(*d) * log->nrows * DEFAULT_PASSES);
	size_t k = 0;

	if (!d)
		return NULL;
	il_replay_engine_reset(eng);
	for (int pass = 0; pass < DEFAULT_PASSES; pass++)
		for (size_t i = 0; i < log->nrows; i++)
			d[k++] = il_replay_step(eng, &log->rows[i]);
	*n = k;
	return d;
}

/* Median ns per step of the engine driven by the recorded decisions. */
static double time_script(const struct il_replay_log *log, struct il_replay_decision *d, size_t n,
			  int runs)
{
	struct script sc = { .d = d, .n = n, .i = 0 };
	struct script *psc = &sc;
	unsigned char data[BENCH_CPUS];
	struct il_gov g = { .ops = &script_ops, .ncpus = log->ncpus, .config = &psc,
			    .cpu_data = data };
	struct il_replay_engine eng;
	struct il_err err;
	double med, min;

	if (il_replay_engine_init(&eng, log, &g, &err))
		return -1;
	time_gov(&eng, log, runs, &med, &min);
	il_replay_engine_free(&eng);
	return med;
}

/* base: the engine's median on the governor's own decisions, subtracted for the net figure */
static void add_row(struct il_table *t, const char *gov, const char *preset, const char *table,
		    double median, double min, double base, const char *note)
{
	il_table_row(t);
	il_table_str(t, gov);
	il_table_str(t, preset);
	il_table_str(t, table);
	if (median < 0) {
		il_table_na(t);
		il_table_na(t);
		il_table_na(t);
	} else {
		il_table_dbl(t, median, 1);
		il_table_dbl(t, min, 1);
		if (base >= 0)
			il_table_dbl(t, median - base, 1);
		else
			il_table_na(t);
	}
	il_table_str(t, note);
}

static int bench(size_t rows, int runs, enum il_format fmt)
{
	static const char *const govs[] = { "menu", "teo", "ladder", "haltpoll" };
	struct il_replay_log logs[NTABLES];
	struct il_table *t = il_table_new(NULL);
	struct il_err err;

	il_table_col(t, "governor");
	il_table_col(t, "preset");
	il_table_col(t, "table");
	il_table_col(t, "ns_per_decision");
	il_table_col(t, "min_ns");
	il_table_col(t, "governor_ns");
	il_table_col(t, "note");
	for (size_t i = 0; i < NTABLES; i++) {
		size_t len;
		char *text = gen_log(&tables[i], rows, &len);
		if (!text || il_replay_log_parse(&logs[i], text, len, tables[i].name, &err)) {
			char buf[1024];
			fprintf(stderr, "bench_governors: %s\n",
				text ? il_err_format(&err, buf, sizeof(buf)) : "out of memory");
			free(text);
			return 1;
		}
		free(text);
	}

	/* the engine alone */
	for (size_t i = 0; i < NTABLES; i++) {
		struct il_gov g = { .ops = &null_ops, .ncpus = logs[i].ncpus };
		unsigned char cfg[1], data[BENCH_CPUS];
		struct il_replay_engine eng;
		double med, min;
		g.config = cfg;
		g.cpu_data = data;
		if (il_replay_engine_init(&eng, &logs[i], &g, &err))
			return 1;
		time_gov(&eng, &logs[i], runs, &med, &min);
		add_row(t, "(engine)", "-", tables[i].name, med, min, -1, "accounting only");
		il_replay_engine_free(&eng);
	}

	for (size_t gi = 0; gi < sizeof(govs) / sizeof(govs[0]); gi++) {
		const struct il_gov_ops *ops = il_gov_find(govs[gi]);
		int n = ops ? (int)ops->npresets : 0;

		/* presets newest first: the default, then the older ones */
		for (int k = n - 1; k >= 0; k--) {
			const char *rel = ops->presets[k].release;
			for (size_t i = 0; i < NTABLES; i++) {
				char spec[64];
				double med, min;
				struct il_replay_engine eng;
				snprintf(spec, sizeof(spec), "%s@%s", govs[gi], rel);
				struct il_gov *gov = il_gov_new(spec, logs[i].ncpus, &err);
				if (!gov || il_replay_engine_init(&eng, &logs[i], gov, &err)) {
					add_row(t, govs[gi], rel, tables[i].name, -1, -1, -1, err.msg);
					il_gov_free(gov);
					continue;
				}
				time_gov(&eng, &logs[i], runs, &med, &min);
				size_t nd = 0;
				struct il_replay_decision *d = record(&eng, &logs[i], &nd);
				double own = d ? time_script(&logs[i], d, nd, runs) : -1;
				free(d);
				add_row(t, govs[gi], rel, tables[i].name, med, min, own,
					k == n - 1 ? "default" : "");
				il_replay_engine_free(&eng);
				il_gov_free(gov);
			}
		}
	}
	if (fmt == IL_FORMAT_TABLE)
		printf("ns per select+reflect with the core's accounting, median of %d runs of "
		       "%d passes over %zu rows on %d CPUs;\ngovernor_ns subtracts the engine's "
		       "median on the same governor's own decisions (replayed by a stand-in)\n\n",
		       runs, DEFAULT_PASSES, rows,
		       BENCH_CPUS);
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	for (size_t i = 0; i < NTABLES; i++)
		il_replay_log_free(&logs[i]);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	size_t rows = DEFAULT_ROWS;
	int runs = DEFAULT_RUNS;
	const char *dir = NULL;
	enum il_format fmt = IL_FORMAT_TABLE;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--rows") && v) {
			rows = strtoul(v, NULL, 10);
			i++;
		} else if (!strcmp(a, "--runs") && v) {
			runs = atoi(v);
			i++;
		} else if (!strcmp(a, "--write") && v) {
			dir = v;
			i++;
		} else if (!strcmp(a, "--format") && v && !il_format_parse(v, &fmt)) {
			i++;
		} else {
			fprintf(stderr,
				"usage: bench_governors [--rows N] [--runs N] [--format F]\n"
				"       bench_governors --write DIR [--rows N]\n");
			return 2;
		}
	}
	if (rows < 1 || runs < 7 || runs > RUNS_MAX) {
		fprintf(stderr, "bench_governors: rows >= 1 and 7 <= runs <= %d\n", RUNS_MAX);
		return 2;
	}
	if (dir)
		return write_logs(dir, rows);
	return bench(rows, runs, fmt);
}
