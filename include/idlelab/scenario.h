/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenarios (src/scenario/, docs/scenarios.md): a published finding as data.
 *
 * A scenario file names the machine (a platform), the configurations the
 * source ran (kernel, governor, workload and its options, platform
 * overrides, runs, run length, a shorter "quick" variant), the published
 * figures with their source (tables in the source's own layout), the
 * simulated metric each published cell is compared with (an expression over
 * the runs' metrics), the checks a reproduction must pass, the estimated
 * platform or workload values whose influence is shown at half and double,
 * and plots. The built-in scenarios (the .ini files under scenarios/) are compiled in, as
 * the platforms are.
 *
 *   parse:  il_scn_load() / il_scn_parse()       (errors name FILE:LINE)
 *   run:    il_scn_run()      each configuration as one batch (batch.h)
 *   report: il_scn_report_build() then il_scn_report_write() in a format
 *
 * Simulated values come from the runs alone; published values are the
 * source's text, kept as written (and as a number for the differences).
 */
#ifndef IDLELAB_SCENARIO_H
#define IDLELAB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlelab/batch.h"
#include "idlelab/err.h"
#include "idlelab/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_SCN_ID_MAX 32          /* ids of configurations, tables, ...: 31 characters */
#define IL_SCN_LINE_MAX 4096      /* longest line of a scenario file, newline included */
#define IL_SCN_CONFIGS_MAX 16
#define IL_BATCH_CONFIGS_MAX 1024 /* [config.ID] sections of a batch file */
#define IL_SCN_FACTORS_MAX 4

/* One "text" value of a key that may repeat (wl, pset, set, sim), with its line. */
struct il_scn_kv {
	char *text;
	int line;
};

/* [source.ID]: where published figures come from. */
struct il_scn_source {
	char id[IL_SCN_ID_MAX];
	char *author, *list, *date, *subject, *message_id, *commit, *url, *note;
	int line;
};

/* [config.ID]: one configuration the source ran. */
struct il_scn_config {
	char id[IL_SCN_ID_MAX];
	char *label;
	char *platform;               /* NULL: the scenario's */
	int platform_line;            /* of its platform key (0: none) */
	char kernel[16];              /* "" = the platform's */
	char *governor;               /* "" = the kernel's choice */
	char *cpufreq;                /* --cpufreq SPEC, "" = no cpufreq layer */
	char *workload;
	int nwl, npset, nset, nsim, nquick_wl;
	struct il_scn_kv *wl;         /* workload options KEY=VALUE */
	struct il_scn_kv *pset;       /* platform file overrides SECTION.KEY=VALUE */
	struct il_scn_kv *set;        /* boot/module options KEY=VALUE (sim --set) */
	struct il_scn_kv *sim;        /* engine options KEY=VALUE (sim --sim-opt) */
	struct il_scn_kv *quick_wl;   /* workload options added in quick mode */
	int runs, quick_runs;
	int64_t duration_ns, quick_duration_ns;
	int64_t warmup_ns, quick_warmup_ns; /* -1: none given */
	int line;
	bool has_seed;                /* a batch file's "seed": run k uses seed + k */
	uint64_t seed;
};

struct il_scn_expr;

/* A table cell: the published value (text as cited, its number) and the simulated expression. */
struct il_scn_cell {
	char *pub_text;               /* NULL: not published */
	double pub;
	struct il_scn_expr *sim;      /* NULL: not simulated */
	int line;                     /* of the expression (or the row) */
};

enum il_scn_diff { IL_SCN_DIFF_RELATIVE = 0, IL_SCN_DIFF_POINTS };

/* [table.ID]: published figures in the source's layout, and the simulated ones beside them. */
struct il_scn_table {
	char id[IL_SCN_ID_MAX];
	char *title;
	char *source;                 /* a [source.ID] */
	char *where;                  /* which table or passage of the source */
	char *unit;
	char *note;
	int decimals;
	enum il_scn_diff diff;        /* relative: (sim/pub - 1) %; points: sim - pub */
	enum il_scn_diff col_diff[16];/* per column: diff, or points for the columns "points" names */
	bool *row_points;             /* nrows: the rows "points" names (gains, shares): in points */
	char *row_header;             /* heading of the label column */
	int nrows, ncols;
	char **rows;                  /* labels as the source prints them */
	char **keys;                  /* {row} substitutes (default: the label) */
	char **cols;
	struct il_scn_cell *cells;    /* nrows x ncols, row-major */
	int line;
};

/* check = LABEL | EXPRESSION: pass when the expression is true (non-zero). */
struct il_scn_check {
	char *label;
	char *text;
	struct il_scn_expr *e;
	int line;
};

/* A figure a sensitivity section reports at each factor. */
struct il_scn_figure {
	char *label;
	char *text;
	struct il_scn_expr *e;
	int line;
};

/* [sensitivity.ID]: an estimated value at half and double (factors), rerunning some configurations. */
struct il_scn_sens {
	char id[IL_SCN_ID_MAX];
	char *estimate;               /* "SECTION.KEY" of the platform, or "wl.KEY" (a workload option) */
	char *basis;                  /* why it is an estimate, what the sources allow */
	bool workload;                /* estimate names a workload option */
	int nconfigs;
	int configs[IL_SCN_CONFIGS_MAX];
	int nfactors;
	double factors[IL_SCN_FACTORS_MAX];
	int runs, quick_runs;         /* runs of each rerun; 0: the configuration's own */
	int nfigures;
	struct il_scn_figure *figures;
	int line;
};

enum il_scn_plot_kind { IL_SCN_PLOT_TABLE = 0, IL_SCN_PLOT_RUNS };

/*
 * [plot.ID]: table: x = the table's row keys read as numbers, one published
 * and one simulated series per column named; runs: x = the run number, one
 * series of points per configuration, y = a metric.
 */
struct il_scn_plot {
	char id[IL_SCN_ID_MAX];
	char *title, *xlabel, *ylabel;
	enum il_scn_plot_kind kind;
	bool log_x;
	int table;                    /* table plots */
	int ncols;
	int cols[16];
	char *metric;                 /* runs plots: "ROW/COL" */
	int nconfigs;
	int configs[IL_SCN_CONFIGS_MAX];
	int line;
};

/* [define]: NAME = text, a metric or an expression used by name. */
struct il_scn_define {
	char name[IL_SCN_ID_MAX];
	char *text;
	int line;
};

struct il_scn {
	char name[64];
	char file[256];               /* where it was read from ("builtin:NAME") */
	char *title;
	char *finding;
	char *platform;
	int platform_line;             /* of its platform key (0: none, the default) */
	char *mechanisms;             /* the mechanisms that must produce the effect */
	char *status;                 /* optional: what is still missing */
	int nsources, nconfigs, ntables, nchecks, nsens, nplots, ndefines;
	struct il_scn_source *sources;
	struct il_scn_config *configs;
	struct il_scn_table *tables;
	struct il_scn_check *checks;
	struct il_scn_sens *sens;
	struct il_scn_plot *plots;
	struct il_scn_define *defines;
};

/* Built-in scenarios (compiled in from the .ini files under scenarios/). */
struct il_builtin_scenario {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct il_builtin_scenario il_builtin_scenarios[];
extern const int il_builtin_scenario_count;

/* Parse a scenario from memory; name is used in messages. 0 or -EINVAL with err (FILE:LINE). */
int il_scn_parse(struct il_scn *s, const char *text, size_t len, const char *name,
		 struct il_err *err);
/*
 * A batch file (idlelab batch, docs/batch.md): [batch] (platform, seed) and
 * [config.ID] sections with the keys of a scenario's configurations and a
 * "seed"; the other sections of a scenario are not allowed. 0 or -EINVAL
 * with err (FILE:LINE). The result is a scenario with configurations only.
 */
int il_scn_parse_batch(struct il_scn *s, const char *text, size_t len, const char *name,
		       struct il_err *err);
/* A built-in scenario by name, or a file path (it has a '/' or a '.'). */
int il_scn_load(struct il_scn *s, const char *name_or_path, struct il_err *err);
void il_scn_free(struct il_scn *s);

int il_scn_config_find(const struct il_scn *s, const char *id);
int il_scn_table_find(const struct il_scn *s, const char *id);
const struct il_scn_source *il_scn_source_find(const struct il_scn *s, const char *id);

/*
 * Runs, simulated seconds and a rough wall-time estimate (seconds on one
 * core: il_sim_task_cost() of each run, from the workload's options before
 * anything runs) of every configuration and sensitivity rerun.
 */
struct il_scn_cost {
	int runs;
	double sim_s;
	double cpu_sim_s;             /* simulated seconds x CPUs */
	double est_wall_s;
};
int il_scn_cost(const struct il_scn *s, bool quick, struct il_scn_cost *c, struct il_err *err);

/* ------------------------------------------------------------------ expressions */

/* The runs of one configuration: each run's metrics. */
struct il_scn_cfg_runs {
	int nruns;
	const struct il_metrics *runs;
};
/* What expressions read: cfg[i] for the scenario's configuration i. */
struct il_scn_data {
	int nconfigs;
	const struct il_scn_cfg_runs *cfg;
};

/*
 * Parse an expression (docs/scenarios.md, Expressions) of scenario s (its
 * configurations, tables and defines); line and file are for messages.
 * flags: IL_SCN_EXPR_CHECK allows maxdiff() (checks and sensitivity figures).
 */
#define IL_SCN_EXPR_CHECK 0x1u
#define IL_SCN_EXPR_RUN 0x2u   /* v() allowed everywhere (a [define] checked on its own) */
struct il_scn_expr *il_scn_expr_parse(const struct il_scn *s, const char *text, unsigned flags,
				      int line, struct il_err *err);
void il_scn_expr_free(struct il_scn_expr *e);
/* Its value on data d; NAN when a metric or run it needs is missing. Comparisons give 1 or 0. */
double il_scn_expr_eval(const struct il_scn_expr *e, const struct il_scn *s,
			const struct il_scn_data *d);
/*
 * The comparisons an expression makes, with the values on each side
 * ("78.07 > 20 and 1 >= 1"), into buf; a plain value is printed as such.
 */
void il_scn_expr_explain(const struct il_scn_expr *e, const struct il_scn *s,
			 const struct il_scn_data *d, char *buf, size_t size);
/* A cell's difference of sim from pub in its column's mode (NAN if either is NAN). */
double il_scn_diff(const struct il_scn_table *t, int col, double pub, double sim);
/* Whether a cell's difference is in points: its column's or its row's "points" says so. */
bool il_scn_cell_in_points(const struct il_scn_table *t, int row, int col);
/* The difference of one cell, in points or relative as il_scn_cell_in_points() says (NAN: none). */
double il_scn_cell_diff(const struct il_scn_table *t, int row, int col, double pub, double sim);
/* The largest |difference| over the cells of table t (column col, or all if col < 0). */
double il_scn_table_maxdiff(const struct il_scn *s, const struct il_scn_table *t, int col,
			    const struct il_scn_data *d);

/*
 * A platform file's text with "SECTION.KEY=VALUE" applied: the key's line in
 * that section replaced, or added at the section's end, or the section
 * added. The section is the longest prefix before a '.' that the text has as
 * a section, else the part before the first '.'. Returns a new string
 * (caller frees) or NULL with err.
 */
char *il_scn_platform_override(const char *text, const char *assignment, struct il_err *err);
/* The value "SECTION.KEY" has in a platform text (after the key table's default), into buf. */
int il_scn_platform_value(const char *text, const char *key, char *buf, size_t size,
			  struct il_err *err);
/*
 * A value scaled by factor: a number with an optional unit ("3000",
 * "1.5us"), or a distribution whose time parameters scale ("lognormal:1500:0.35"
 * -> median x factor, sigma kept; uniform/normal/exp: both; const: the value).
 */
int il_scn_scale_value(const char *value, double factor, char *buf, size_t size,
		       struct il_err *err);

/* ------------------------------------------------------------------ running */

struct il_scn_run_opts {
	bool quick;
	int jobs;
	uint64_t seed;
};

/*
 * Room for an estimate's value, scaled or not: any distribution
 * il_dist_parse() takes (shorter than 128 characters, a tail's too).
 */
#define IL_SCN_VALUE_LEN 128

/* One batch: a configuration, or a configuration with a sensitivity factor. */
struct il_scn_batch {
	char id[80];                  /* "baseline", "baseline@pm_timer*0.5" */
	int config;                   /* the scenario configuration */
	int sens, factor;             /* -1, -1 for the configuration itself */
	char value[IL_SCN_VALUE_LEN]; /* sensitivity: the estimate's scaled value */
	char base_value[IL_SCN_VALUE_LEN]; /* sensitivity: its value before scaling */
	struct il_platform *platform;
	void *wl_cfg;
	char *wl_text;                /* the workload options as given, for the results file */
	struct il_sim_batch b;
	struct il_metrics *runs;      /* each run's metrics, with the cpu0 rows added */
	struct il_scn_cfg_runs data;
};

struct il_scn_outcome {
	const struct il_scn *scn;
	bool quick;
	uint64_t seed;
	int nbatches;
	struct il_scn_batch *batches; /* the configurations first, in order, then the reruns */
	int runs;                     /* all runs */
	double sim_s;                 /* simulated seconds, all runs */
	double wall_s, cpu_s;         /* measured by il_scn_run() */
	int resumed;                  /* runs read from a partial results file: not in the times */
};

/*
 * Prepare every batch (platforms, workloads, governors, memory) and then
 * run them, one after the other, each on o->jobs threads. Nothing runs when
 * a configuration is wrong: the error names the scenario file and line.
 */
int il_scn_prepare(const struct il_scn *s, const struct il_scn_run_opts *o,
		   struct il_scn_outcome *out, struct il_err *err);
int il_scn_execute(struct il_scn_outcome *out, const struct il_scn_run_opts *o,
		   struct il_err *err);
void il_scn_outcome_free(struct il_scn_outcome *out);
/*
 * Call run_done(arg, cost) once per finished run, from any thread (a
 * progress counter; cost: the run's il_sim_task_cost()).
 */
void il_scn_outcome_hook(struct il_scn_outcome *out, void (*run_done)(void *arg, double cost),
			 void *arg);
/* The data of the configurations (without the sensitivity reruns). */
void il_scn_outcome_data(const struct il_scn_outcome *out, struct il_scn_data *d,
			 struct il_scn_cfg_runs *cfg /* scn->nconfigs */);
/* The batch of configuration c at sensitivity sens, factor f (-1, -1: itself), or NULL. */
const struct il_scn_batch *il_scn_outcome_batch(const struct il_scn_outcome *out, int c, int sens,
						int f);
/*
 * The metrics derived for scenarios from a run's counters, added to ms:
 * "cpu0 state NAME" usage/time_us/above/below, "cpu0 entry METHOD" entries
 * (every entry method, 0 where no state uses it).
 */
void il_scn_add_run_metrics(const struct il_sim_result *r, struct il_metrics *ms);

/* ------------------------------------------------------------------ reports */

enum il_scn_status { IL_SCN_PASS = 0, IL_SCN_FAIL, IL_SCN_NA };

struct il_scn_rcell {
	double pub, sim, diff;        /* NAN where there is none */
};
struct il_scn_rcheck {
	enum il_scn_status status;
	char explain[512];
};
struct il_scn_rsens {
	double *fig;                  /* nfigures x (nfactors + 1): the value at x1 first */
	char (*values)[IL_SCN_VALUE_LEN]; /* nfactors + 1: the estimate's value at x1 first */
};

/*
 * The runs of each rerun of sensitivity v in this mode: its own count
 * (runs / quick.runs), else 0 (each configuration's own).
 */
static inline int il_scn_sens_runs(const struct il_scn *s, int v, bool quick)
{
	return quick ? s->sens[v].quick_runs : s->sens[v].runs;
}

struct il_scn_report {
	const struct il_scn *scn;
	const struct il_scn_data *data;     /* the configurations' runs */
	const struct il_scn_outcome *out;   /* NULL for a report of hand-made data */
	bool quick;
	uint64_t seed;
	struct il_scn_rcell **cells;        /* per table: nrows x ncols */
	struct il_scn_rcheck *checks;
	struct il_scn_rsens *sens;
	int npass, nfail, nna;
};

/*
 * Evaluate tables, checks and sensitivity figures. out (may be NULL) gives
 * the sensitivity reruns and run facts; data the configurations' runs.
 */
int il_scn_report_build(struct il_scn_report *r, const struct il_scn *s,
			const struct il_scn_data *data, const struct il_scn_outcome *out,
			struct il_err *err);
void il_scn_report_free(struct il_scn_report *r);

enum il_scn_format { IL_SCN_TEXT = 0, IL_SCN_MARKDOWN, IL_SCN_JSON, IL_SCN_HTML };
int il_scn_format_parse(const char *text, enum il_scn_format *f);
/* Write the report; 0 or a negative code with err (a plot that cannot be drawn). */
int il_scn_report_write(const struct il_scn_report *r, enum il_scn_format f, FILE *out,
			struct il_err *err);
/* The SVG of plot i (no XML prolog: for embedding). */
int il_scn_plot_svg(const struct il_scn_report *r, int i, FILE *out, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
