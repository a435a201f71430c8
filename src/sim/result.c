// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a run reports: the sysfs-equivalent counters per CPU and state, the
 * wake-latency distribution, core/package depth, time per turbo frequency,
 * energy, and the metrics (engine's, then the workload's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "power.h"
#include "sim_internal.h"

void sim_flush_accounting(struct il_sim *s, int64_t end)
{
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		if (c->in_idle)
			c->idle_ns += end - c->idle_since;
		else
			c->busy_ns += end - c->busy_since;
		c->idle_since = c->busy_since = end;
	}
	sim_power_finish(s, end);
}

static double pct(double a, double b)
{
	return b > 0 ? 100 * a / b : 0;
}

/* Share of time at each depth (active, then each non-polling state) of cores or packages. */
static void depth_metrics(struct il_metrics *ms, const char *row, const int64_t *depth_ns,
			  const struct il_sim_result *r)
{
	int64_t total = 0;

	for (int l = 0; l <= IL_STATE_MAX; l++)
		total += depth_ns[l];
	for (int l = 0; l <= r->nstates; l++) {
		char col[40];
		if (l == 0)
			snprintf(col, sizeof(col), "active_pct");
		else
			snprintf(col, sizeof(col), "%s_pct", r->states[l - 1].name);
		if (l > 0 && il_state_spins(&r->states[l - 1]))
			continue;
		il_metric_add(ms, row, col, "%", IL_BETTER_NONE, false,
			      pct((double)depth_ns[l], (double)total));
	}
}

static void engine_metrics(const struct il_sim_result *r, struct il_metrics *ms)
{
	unsigned long long usage = 0, above = 0, below = 0, rejected = 0, aborted = 0,
			   periods = 0, stops = 0;
	int64_t idle = 0;

	for (int i = 0; i < r->ncpus; i++) {
		const struct il_sim_cpu_result *c = &r->cpu[i];
		for (int k = 0; k < r->nstates; k++) {
			usage += c->usage[k].usage;
			above += c->usage[k].above;
			below += c->usage[k].below;
			rejected += c->usage[k].rejected;
		}
		aborted += c->aborted;
		periods += c->idle_periods;
		stops += c->tick_stops;
		idle += c->idle_ns;
	}
	il_metric_add(ms, "", "usage", "", IL_BETTER_NONE, false, (double)usage);
	il_metric_add(ms, "", "above", "", IL_BETTER_LOWER, false, (double)above);
	il_metric_add(ms, "", "below", "", IL_BETTER_LOWER, false, (double)below);
	il_metric_add(ms, "", "rejected", "", IL_BETTER_LOWER, false, (double)rejected);
	il_metric_add(ms, "", "aborted", "", IL_BETTER_NONE, false, (double)aborted);
	il_metric_add(ms, "", "above_pct", "%", IL_BETTER_LOWER, false, pct((double)above, (double)usage));
	il_metric_add(ms, "", "below_pct", "%", IL_BETTER_LOWER, false, pct((double)below, (double)usage));
	il_metric_add(ms, "", "miss_pct", "%", IL_BETTER_LOWER, false,
		      pct((double)(above + below), (double)usage));
	il_metric_add(ms, "", "tick_stopped_pct", "%", IL_BETTER_NONE, false,
		      pct((double)stops, (double)(periods + aborted)));
	il_metric_add(ms, "", "idle_pct", "%", IL_BETTER_NONE, false,
		      pct((double)idle, (double)r->duration_ns * r->ncpus));
	for (int k = 0; k < r->nstates; k++) {
		char row[40];
		unsigned long long u = 0, a = 0, b = 0, rj = 0;
		uint64_t t = 0;
		snprintf(row, sizeof(row), "state %s", r->states[k].name);
		for (int i = 0; i < r->ncpus; i++) {
			u += r->cpu[i].usage[k].usage;
			a += r->cpu[i].usage[k].above;
			b += r->cpu[i].usage[k].below;
			rj += r->cpu[i].usage[k].rejected;
			t += r->cpu[i].usage[k].time_ns;
		}
		il_metric_add(ms, row, "usage", "", IL_BETTER_NONE, false, (double)u);
		il_metric_add(ms, row, "time_us", "us", IL_BETTER_NONE, false, (double)(t / 1000));
		il_metric_add(ms, row, "above", "", IL_BETTER_LOWER, false, (double)a);
		il_metric_add(ms, row, "below", "", IL_BETTER_LOWER, false, (double)b);
		il_metric_add(ms, row, "rejected", "", IL_BETTER_LOWER, false, (double)rj);
	}
	/* entries per entry method */
	for (int m = IL_ENTRY_NONE; m <= IL_ENTRY_TDX_HALT; m++) {
		unsigned long long n = 0;
		bool any = false;
		for (int k = 0; k < r->nstates; k++) {
			if ((int)r->states[k].entry != m)
				continue;
			any = true;
			for (int i = 0; i < r->ncpus; i++)
				n += r->cpu[i].usage[k].usage;
		}
		if (any) {
			char row[40];
			snprintf(row, sizeof(row), "entry %s", il_entry_method_name((enum il_entry_method)m));
			il_metric_add(ms, row, "entries", "", IL_BETTER_NONE, false, (double)n);
		}
	}
	/*
	 * A shared exit path (acpi_idle's PM-timer read): the reads, their mean
	 * time (waiting and served) and their share of the time the CPUs were
	 * not halted, which is what a profiler that samples cycles (IBS, perf
	 * cycles) attributes to the read's instruction.
	 */
	bool shared = false;
	for (int k = 0; k < r->nstates; k++)
		shared |= r->states[k].exit_path_shared;
	if (shared) {
		double rd = (double)r->shared_read_ns, n = (double)r->shared_reads;
		double awake = (double)r->duration_ns * r->ncpus - (double)r->halted_ns;
		il_metric_add(ms, "shared read", "reads", "", IL_BETTER_NONE, false, n);
		il_metric_add(ms, "shared read", "mean_us", "us", IL_BETTER_LOWER, false,
			      n > 0 ? rd / n / 1000 : 0);
		il_metric_add(ms, "shared read", "awake_pct", "%", IL_BETTER_LOWER, false, pct(rd, awake));
	}
	/* --sim-opt ilb=on: the nohz idle balancer's kicks (docs/nohz-balance.md) */
	if (r->ilb_kicks) {
		double s_ = (double)r->duration_ns * 1e-9;
		il_metric_add(ms, "nohz balancer", "kicks", "", IL_BETTER_NONE, false,
			      (double)r->ilb_kicks);
		il_metric_add(ms, "nohz balancer", "kicks_per_s", "/s", IL_BETTER_NONE, false,
			      s_ > 0 ? (double)r->ilb_kicks / s_ : 0);
		il_metric_add(ms, "nohz balancer", "ipis", "", IL_BETTER_NONE, false,
			      (double)r->ilb_ipis);
	}
	/* [noise] host stalls: how many, and the share of the vCPUs' time they held */
	if (r->host_stalls) {
		double cpu_s = (double)r->duration_ns * r->ncpus * 1e-9;
		il_metric_add(ms, "host stalls", "count", "", IL_BETTER_NONE, false,
			      (double)r->host_stalls);
		il_metric_add(ms, "host stalls", "per_cpu_s", "/s", IL_BETTER_NONE, false,
			      cpu_s > 0 ? (double)r->host_stalls / cpu_s : 0);
		il_metric_add(ms, "host stalls", "held_pct", "%", IL_BETTER_LOWER, false,
			      cpu_s > 0 ? 100 * (double)r->host_stall_ns * 1e-9 / cpu_s : 0);
	}
	/* [kernel] watchdog_stopper: the stopper thread's runs, from idle and on a busy CPU */
	if (r->stopper_idle || r->stopper_busy) {
		il_metric_add(ms, "stopper", "from_idle", "", IL_BETTER_NONE, false,
			      (double)r->stopper_idle);
		il_metric_add(ms, "stopper", "preempting", "", IL_BETTER_NONE, false,
			      (double)r->stopper_busy);
	}
	const struct il_hist *h = &r->wake_lat;
	il_metric_add(ms, "wake latency", "count", "", IL_BETTER_NONE, false, (double)h->count);
	il_metric_add(ms, "wake latency", "mean_us", "us", IL_BETTER_LOWER, false, il_hist_mean(h) / 1000);
	static const double ps[] = { 50, 90, 99, 99.9 };
	static const char *const pn[] = { "p50_us", "p90_us", "p99_us", "p99.9_us" };
	for (int i = 0; i < 4; i++)
		il_metric_add(ms, "wake latency", pn[i], "us", IL_BETTER_LOWER, false,
			      h->count ? (double)il_hist_percentile(h, ps[i]) / 1000 : 0);
	il_metric_add(ms, "wake latency", "max_us", "us", IL_BETTER_LOWER, false,
		      h->count ? (double)h->max / 1000 : 0);
	depth_metrics(ms, "core depth", r->core_depth_ns, r);
	depth_metrics(ms, "package depth", r->pkg_depth_ns, r);
	int64_t total_f = 0;
	for (int i = 0; i < r->nfreq; i++)
		total_f += r->freq_ns[i];
	for (int i = 0; i < r->nfreq; i++) {
		char row[40];
		snprintf(row, sizeof(row), "freq %.0f MHz", r->freq_mhz[i]);
		il_metric_add(ms, row, "time_pct", "%", IL_BETTER_NONE, false,
			      pct((double)r->freq_ns[i], (double)total_f));
	}
	if (r->energy_known) {
		il_metric_add(ms, "energy", "joules", "J", IL_BETTER_LOWER, false, r->energy_j);
		il_metric_add(ms, "energy", "watts", "W", IL_BETTER_LOWER, false,
			      r->duration_ns > 0 ? r->energy_j / ((double)r->duration_ns * 1e-9) : 0);
	}
}

/*
 * The cpufreq layer's figures: the mean frequency delivered in C0 (as
 * turbostat's Bzy_MHz: base x sum APERF / sum MPERF), the C0 share of CPU
 * time, the frequency changes of cores and the reference of frequency
 * invariance.
 */
static void cpufreq_metrics(const struct il_sim *s, const struct il_sim_result *r,
			    struct il_metrics *ms)
{
	double a = 0, m = 0;
	for (int i = 0; i < r->ncpus; i++) {
		a += r->cpu[i].aperf;
		m += r->cpu[i].mperf;
	}
	double span = (double)r->duration_ns * r->ncpus * s->cf.base_mhz * 1e-3;
	il_metric_add(ms, "cpufreq", "mean_mhz", "MHz", IL_BETTER_NONE, false,
		      m > 0 ? s->cf.base_mhz * a / m : 0);
	il_metric_add(ms, "cpufreq", "c0_pct", "%", IL_BETTER_NONE, false, pct(m, span));
	il_metric_add(ms, "cpufreq", "transitions", "", IL_BETTER_NONE, false,
		      (double)s->cf.transitions);
	il_metric_add(ms, "cpufreq", "freq_max_mhz", "MHz", IL_BETTER_NONE, false, s->cf.freq_max_mhz);
	if (s->cf.prm.gov == IL_CF_GOV_SCHEDUTIL)
		il_metric_add(ms, "cpufreq", "rate_limit_us", "us", IL_BETTER_NONE, false,
			      (double)s->cf.rate_ns / 1000);
	il_metric_add(ms, "cpufreq", "invariant", "", IL_BETTER_NONE, false, s->cf.invariant);
}

int il_sim_result(struct il_sim *s, struct il_sim_result *r, struct il_err *err)
{
	memset(r, 0, sizeof(*r));
	sim_flush_accounting(s, s->end_t);
	r->ncpus = s->ncpus;
	r->nstates = s->drv->state_count;
	r->cpuidle = s->m->cpuidle && !s->force_poll;
	memcpy(r->states, s->drv->states, sizeof(r->states));
	r->cpu = calloc((size_t)s->ncpus, sizeof(*r->cpu));
	if (!r->cpu)
		return il_err_set(err, ENOMEM, "out of memory");
	r->duration_ns = s->end_t - s->measure_t;
	r->ilb_kicks = s->ilb.kicks;
	r->ilb_ipis = s->ilb.ipis;
	r->warmup_ns = s->measure_t;
	r->events = s->events;
	r->wake_lat = s->wake_lat;
	memcpy(r->core_depth_ns, s->core_depth_ns, sizeof(r->core_depth_ns));
	memcpy(r->pkg_depth_ns, s->pkg_depth_ns, sizeof(r->pkg_depth_ns));
	r->nfreq = s->nfreq;
	memcpy(r->freq_mhz, s->freq_mhz, sizeof(r->freq_mhz));
	memcpy(r->freq_ns, s->freq_ns, sizeof(r->freq_ns));
	/* by frequency, so every run lists them in the same order */
	for (int i = 1; i < r->nfreq; i++)
		for (int j = i; j > 0 && r->freq_mhz[j] < r->freq_mhz[j - 1]; j--) {
			double m = r->freq_mhz[j];
			int64_t t = r->freq_ns[j];
			r->freq_mhz[j] = r->freq_mhz[j - 1];
			r->freq_ns[j] = r->freq_ns[j - 1];
			r->freq_mhz[j - 1] = m;
			r->freq_ns[j - 1] = t;
		}
	r->energy_known = sim_power_model_known(s);
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		struct il_sim_cpu_result *o = &r->cpu[i];
		memcpy(o->usage, c->dev.states_usage, sizeof(o->usage));
		o->idle_ns = c->idle_ns;
		o->busy_ns = c->busy_ns;
		o->aborted = c->aborted;
		o->idle_periods = c->periods;
		o->tick_stops = c->tick_stops;
		/* a residency still under way counts up to the end */
		int64_t halted, read;
		sim_halt_span(s, c, s->end_t, &halted, &read);
		r->halted_ns += c->halted_ns + halted;
		r->shared_read_ns += c->shared_read_ns + read;
		r->shared_reads += c->shared_reads;
		r->host_stalls += c->stalls;
		/* held within the measured time: a stall may last past the run's end */
		int64_t held = c->stall_ns - (c->stall_end > s->end_t ? c->stall_end - s->end_t : 0);
		r->host_stall_ns += held < 0 ? 0 : held < r->duration_ns ? held : r->duration_ns;
		r->stopper_idle += c->stopper_idle;
		r->stopper_busy += c->stopper_busy;
		o->energy_j = c->energy_j;
		r->energy_j += c->energy_j;
		if (s->cf.on) {
			sim_c0_flush(s, c, s->end_t);
			o->aperf = s->cf.cpu[i].aperf - s->cf.cpu[i].aperf0;
			o->mperf = s->cf.cpu[i].mperf - s->cf.cpu[i].mperf0;
		}
	}
	for (int k = 0; k < s->npkgs; k++)
		r->energy_j += s->pkgs[k].energy_j;
	il_metrics_init(&r->metrics);
	engine_metrics(r, &r->metrics);
	if (s->cf.on)
		cpufreq_metrics(s, r, &r->metrics);
	if (s->wl->report)
		s->wl->report(s->wl_cfg, s->wl_st, s, &r->metrics);
	return 0;
}

void il_sim_result_free(struct il_sim_result *r)
{
	free(r->cpu);
	il_metrics_free(&r->metrics);
	memset(r, 0, sizeof(*r));
}
