// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay: log and decisions-file parsing (every refusal with its line), the
 * engine's order of select / accounting / reflect and its counters on small
 * hand-computed logs, --expect agreement, determinism and reset.
 *
 * The engine is driven by a scripted governor defined here, so the tests do
 * not depend on the real governors; a last test replays a fixture with every
 * real governor that can be instantiated and checks run-to-run identity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idlelab/governor.h"
#include "idlelab/replay.h"

/* ---- a scripted governor that records what it is shown ---- */

#define REC_MAX 64

struct rec_call {
	int cpu;
	struct il_idle_inputs in;
	int64_t last_residency_ns;  /* dev->last_residency_ns when called */
	bool poll_time_limit;       /* dev->poll_time_limit when called */
	uint64_t poll_limit_ns;     /* dev->poll_limit_ns when called */
	int index;                  /* reflect: the index passed */
};

struct recorder {
	const int *choice;          /* select's answer for call n */
	const bool *keep_tick;      /* true: clear *stop_tick at call n */
	int nselect, nreflect, nenable;
	struct rec_call sel[REC_MAX], refl[REC_MAX];
	int knob;                   /* set by the "knob" param */
};

struct tcfg {
	struct recorder *rec;
};

struct tcpu {
	int calls;                  /* per-CPU state, to check resets */
};

static void t_enable(const void *config, void *cpu_data, const struct il_driver *drv,
		     struct il_device *dev)
{
	const struct tcfg *c = config;
	(void)drv;
	(void)dev;
	c->rec->nenable++;
	((struct tcpu *)cpu_data)->calls = 100;
}

static int t_select(const void *config, void *cpu_data, const struct il_driver *drv,
		    struct il_device *dev, const struct il_idle_inputs *in, bool *stop_tick)
{
	const struct tcfg *c = config;
	struct recorder *r = c->rec;
	struct tcpu *d = cpu_data;
	int n = r->nselect;
	(void)drv;

	d->calls++;
	if (n < REC_MAX) {
		r->sel[n] = (struct rec_call){ .cpu = dev->cpu, .in = *in,
					       .last_residency_ns = dev->last_residency_ns,
					       .poll_time_limit = dev->poll_time_limit,
					       .poll_limit_ns = dev->poll_limit_ns, .index = -1 };
	}
	r->nselect++;
	if (r->keep_tick && r->keep_tick[n])
		*stop_tick = false;
	if (r->choice)
		return r->choice[n];
	/* stateful default: alternate by the per-CPU call count */
	return d->calls % drv->state_count;
}

static void t_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
		      struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	const struct tcfg *c = config;
	struct recorder *r = c->rec;
	(void)cpu_data;
	(void)drv;

	if (r->nreflect < REC_MAX)
		r->refl[r->nreflect] = (struct rec_call){
			.cpu = dev->cpu, .in = *in, .last_residency_ns = dev->last_residency_ns,
			.poll_time_limit = dev->poll_time_limit,
			.poll_limit_ns = dev->poll_limit_ns, .index = index };
	r->nreflect++;
}

static int t_param(void *config, const char *name, const char *value, struct il_err *err)
{
	struct tcfg *c = config;

	if (strcmp(name, "knob"))
		return il_err_set(err, ENOENT, "no parameter '%s'", name);
	c->rec->knob = atoi(value);
	return 0;
}

static const struct il_gov_ops test_ops = {
	.name = "scripted", .config_size = sizeof(struct tcfg),
	.cpu_data_size = sizeof(struct tcpu), .set_param = t_param, .enable = t_enable,
	.select = t_select, .reflect = t_reflect,
};

static struct il_gov *test_gov(int ncpus, struct recorder *rec)
{
	struct il_gov *g = calloc(1, sizeof(*g));
	g->ops = &test_ops;
	g->ncpus = ncpus;
	g->config = calloc(1, sizeof(struct tcfg));
	g->cpu_data = calloc((size_t)ncpus, sizeof(struct tcpu));
	((struct tcfg *)g->config)->rec = rec;
	snprintf(g->spec, sizeof(g->spec), "scripted");
	return g;
}

#define HDR "# idlelab-replay v1\n"
#define COLS IL_REPLAY_COLUMNS "\n"
#define TABLE3                                                                     \
	"# state,0,POLL,0,0,polling\n"                                             \
	"# state,1,C1,1000,2000,\n"                                                \
	"# state,2,C2,10000,20000,timer-stop\n"

static int parse(struct il_replay_log *log, const char *text, struct il_err *err)
{
	il_err_clear(err);
	return il_replay_log_parse(log, text, strlen(text), "t.log", err);
}

/* ---- parser: accepted input ---- */

static void parse_good(void **state)
{
	(void)state;
	struct il_replay_log log;
	struct il_err err;
	const char *text = HDR "# governor=menu kernel=6.18 note=x\n"
			   "# hz=250\n" TABLE3 "# disable,1\r\n"
			   "# param,guest_halt_poll_ns,200000\n"
			   "#\n# recorded on a test box: cmdline idle=halt\n\n" COLS
			   "3,500000,400000,0,2000000000000,2,1,-1,0,0\n"
			   "\n"
			   "0,-5,-7,1,0,0,0,1500,1,1\r\n";

	assert_int_equal(parse(&log, text, &err), 0);
	assert_string_equal(log.governor, "menu");
	assert_string_equal(log.kernel, "6.18");
	assert_int_equal(log.hz, 250);
	assert_int_equal(log.drv.state_count, 3);
	assert_string_equal(log.drv.states[2].name, "C2");
	assert_int_equal(log.drv.states[0].flags, IL_FLAG_POLLING);
	assert_int_equal(log.drv.states[2].flags, IL_FLAG_TIMER_STOP);
	assert_true(log.drv.bctimer);
	/* ns given: µs derived as __cpuidle_driver_init does */
	assert_int_equal(log.drv.states[2].exit_latency_ns, 10000);
	assert_int_equal(log.drv.states[2].exit_latency, 10);
	assert_int_equal(log.drv.states[1].target_residency, 2);
	assert_int_equal(log.user_disabled, 1u << 1);
	assert_int_equal(log.nparams, 1);
	assert_string_equal(log.params[0].name, "guest_halt_poll_ns");
	assert_string_equal(log.params[0].value, "200000");
	assert_int_equal(log.params[0].line, 8);
	assert_int_equal(log.nrows, 2);
	assert_int_equal(log.ncpus, 4);
	assert_int_equal(log.rows[0].cpu, 3);
	assert_int_equal(log.rows[0].sleep_length_ns, 500000);
	assert_int_equal(log.rows[0].delta_tick_ns, 400000);
	assert_false(log.rows[0].tick_stopped);
	assert_int_equal(log.rows[0].latency_req_ns, 2000000000000LL);
	assert_int_equal(log.rows[0].nr_iowait, 2);
	assert_true(log.rows[0].cpu_utilized);
	assert_int_equal(log.rows[0].residency_ns, -1);
	assert_int_equal(log.row_line[0], 13);
	assert_int_equal(log.rows[1].sleep_length_ns, -5);
	assert_int_equal(log.rows[1].delta_tick_ns, -7);
	assert_true(log.rows[1].tick_stopped);
	assert_true(log.rows[1].got_tick);
	assert_true(log.rows[1].poll_time_limit);
	assert_int_equal(log.rows[1].residency_ns, 1500);
	assert_int_equal(log.row_line[1], 15);
	il_replay_log_free(&log);

	/* no rows is a valid (empty) log; max values of each column */
	assert_int_equal(parse(&log, HDR "# hz=1000\n# state,0,POLL,0,0,polling\n" COLS, &err), 0);
	assert_int_equal(log.nrows, 0);
	assert_int_equal(log.ncpus, 0);
	il_replay_log_free(&log);
	assert_int_equal(parse(&log, HDR "# hz=100000\n# state,0,S,0,0,polling|timer-stop\n" COLS
				     "8191,9223372036854775807,0,1,9223372036854775807,"
				     "4294967295,1,9223372036854775807,1,1\n", &err), 0);
	assert_int_equal(log.ncpus, 8192);
	assert_int_equal(log.drv.states[0].flags, IL_FLAG_POLLING | IL_FLAG_TIMER_STOP);
	assert_int_equal(log.rows[0].nr_iowait, 4294967295u);
	il_replay_log_free(&log);

	/* ten states is the maximum */
	char buf[2048];
	int off = snprintf(buf, sizeof(buf), HDR "# hz=1000\n");
	for (int i = 0; i < 10; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, "# state,%d,S%d,%d,%d,\n", i,
				i, i * 10, i * 20);
	snprintf(buf + off, sizeof(buf) - (size_t)off, COLS);
	assert_int_equal(parse(&log, buf, &err), 0);
	assert_int_equal(log.drv.state_count, 10);
	il_replay_log_free(&log);
}

/* ---- parser: every refusal names its line ---- */

struct bad_case {
	const char *text;
	int line;
	const char *msg;  /* substring of the message */
};

static void parse_bad(void **state)
{
	(void)state;
	static const struct bad_case cases[] = {
		{ "", 1, "empty log" },
		{ "# idlelab-replay v2\n", 1, "bad header" },
		{ "idlelab-replay v1\n", 1, "bad header" },
		{ "cpu,sleep_length_ns\n", 1, "bad header" },
		/* wrong column count */
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0\n0,1,2,0,0,0,0,5,0\n", 8,
		  "wrong column count: 9, expected 10" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0,0\n", 7,
		  "wrong column count: more than 10" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0\n", 7, "wrong column count: 1" },
		/* non-numeric fields, each column */
		{ HDR "# hz=1000\n" TABLE3 COLS "x,1,2,0,0,0,0,5,0,0\n", 7, "non-numeric cpu 'x'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,12a,2,0,0,0,0,5,0,0\n", 7,
		  "non-numeric sleep_length_ns '12a'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,0x10,0,0,0,0,5,0,0\n", 7,
		  "non-numeric delta_tick_ns '0x10'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,,0,0,0,5,0,0\n", 7,
		  "non-numeric tick_stopped ''" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0, 5,0,0,5,0,0\n", 7,
		  "non-numeric latency_req_ns ' 5'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,+1,0,5,0,0\n", 7,
		  "non-numeric nr_iowait '+1'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,yes,5,0,0\n", 7,
		  "non-numeric cpu_utilized 'yes'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,1.5,0,0\n", 7,
		  "non-numeric residency_ns '1.5'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,-,0\n", 7,
		  "non-numeric got_tick '-'" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0 \n", 7,
		  "non-numeric poll_time_limit '0 '" },
		/* out of range */
		{ HDR "# hz=1000\n" TABLE3 COLS "8192,1,2,0,0,0,0,5,0,0\n", 7,
		  "cpu 8192 out of range (0..8191)" },
		{ HDR "# hz=1000\n" TABLE3 COLS "-1,1,2,0,0,0,0,5,0,0\n", 7, "cpu -1 out of range" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,99999999999999999999,2,0,0,0,0,5,0,0\n", 7,
		  "sleep_length_ns 99999999999999999999 out of range" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,2,0,0,0,5,0,0\n", 7,
		  "tick_stopped 2 out of range (0..1)" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,-1,0,0,5,0,0\n", 7,
		  "latency_req_ns -1 out of range" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,4294967296,0,5,0,0\n", 7,
		  "nr_iowait 4294967296 out of range" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,-2,0,0\n", 7,
		  "residency_ns -2 out of range (-1..9223372036854775807)" },
		{ HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,3\n", 7,
		  "poll_time_limit 3 out of range" },
		/* unknown flag */
		{ HDR "# hz=1000\n# state,0,POLL,0,0,spinning\n", 3, "unknown state flag 'SPINNING'" },
		{ HDR "# hz=1000\n# state,0,POLL,0,0,polling|bogus\n", 3, "unknown state flag 'BOGUS'" },
		/* state lines */
		{ HDR "# hz=1000\n# state,0,POLL,0,0,polling\n# state,2,C2,1,1,\n", 4,
		  "state index 2 out of order (expected 1)" },
		{ HDR "# hz=1000\n# state,1,C1,1,1,\n", 3, "state index 1 out of order (expected 0)" },
		{ HDR "# hz=1000\n# state,0,POLL,0,0,polling\n# state,0,C1,1,1,\n", 4,
		  "out of order" },
		{ HDR "# state,0,POLL,0,0\n", 2, "state line needs 6 fields" },
		{ HDR "# state,0,POLL,0,0,polling,x\n", 2, "got more than 6" },
		{ HDR "# state,x,POLL,0,0,\n", 2, "non-numeric state index 'x'" },
		{ HDR "# state,0,,0,0,\n", 2, "state name must have" },
		{ HDR "# state,0,ABCDEFGHIJKLMNOPQ,0,0,\n", 2, "state name must have" },
		{ HDR "# state,0,POLL,-1,0,\n", 2, "exit latency -1 out of range" },
		{ HDR "# state,0,POLL,0,2us,\n", 2, "non-numeric target residency '2us'" },
		/* other header lines */
		{ HDR "# hz=0\n", 2, "hz 0 out of range" },
		{ HDR "# hz=fast\n", 2, "non-numeric hz 'fast'" },
		{ HDR "# hz=1000\n# hz=250\n", 3, "hz given twice" },
		{ HDR "# governor=menu kernel\n", 2, "bad header item 'kernel'" },
		{ HDR "# sate,0,POLL,0,0,\n", 2, "unknown header line" },
		{ HDR "# disable,x\n", 2, "non-numeric disabled state 'x'" },
		{ HDR "# disable,10\n", 2, "disabled state 10 out of range (0..9)" },
		{ HDR "# disable,1,2\n", 2, "disable line needs 2 fields" },
		{ HDR "# hz=1000\n# disable,3\n" TABLE3 COLS, 3, "disabled state 3 does not exist" },
		{ HDR "# param,novalue\n", 2, "param line needs 3 fields" },
		{ HDR "# param,,5\n", 2, "param line needs 3 fields" },
		{ HDR "# param,x,\n", 2, "param name or value empty" },
		/* order of the sections */
		{ HDR "# hz=1000\n" TABLE3 "0,1,2,0,0,0,0,5,0,0\n", 6, "row before the column line" },
		{ HDR "0,1,2,0,0,0,0,5,0,0\n", 2, "row before the column line" },
		{ HDR "# hz=1000\n" TABLE3 "cpu,sleep_length_ns,delta_tick_ns\n", 6, "bad column line" },
		{ HDR "# hz=1000\n" TABLE3, 5, "missing column line" },
		{ HDR TABLE3 COLS, 5, "no '# hz=' line" },
		{ HDR "# hz=1000\n" COLS, 3, "no '# state,...' line" },
		{ HDR "# hz=1000\n" TABLE3 COLS "# state,3,C3,1,1,\n", 7, "header line after the column line" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_replay_log log;
		struct il_err err;
		int r = parse(&log, cases[i].text, &err);

		if (r >= 0 || err.line != cases[i].line || !strstr(err.msg, cases[i].msg) ||
		    strcmp(err.file, "t.log") || log.rows || log.nrows)
			fail_msg("case %zu: r=%d line %d (want %d) msg '%s' (want '%s')", i, r,
				 err.line, cases[i].line, err.msg, cases[i].msg);
		il_replay_log_free(&log);
	}
}

static void parse_too_many_states_and_params(void **state)
{
	(void)state;
	char buf[4096];
	struct il_replay_log log;
	struct il_err err;
	int off = snprintf(buf, sizeof(buf), HDR "# hz=1000\n");

	for (int i = 0; i < 11; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, "# state,%d,S%d,1,1,\n", i, i);
	assert_true(parse(&log, buf, &err) < 0);
	assert_int_equal(err.line, 13);
	assert_string_equal(err.msg, "more than 10 states");
	il_replay_log_free(&log);

	off = snprintf(buf, sizeof(buf), HDR);
	for (int i = 0; i < 17; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, "# param,p%d,%d\n", i, i);
	assert_true(parse(&log, buf, &err) < 0);
	assert_int_equal(err.line, 18);
	assert_string_equal(err.msg, "more than 16 params");
	il_replay_log_free(&log);

	/* a NUL byte inside a line */
	static const char nul[] = HDR "# hz=1000\0\n";
	assert_true(il_replay_log_parse(&log, nul, sizeof(nul) - 1, "t.log", &err) < 0);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "NUL byte in line");
	il_replay_log_free(&log);
}

static void load_missing_file(void **state)
{
	(void)state;
	struct il_replay_log log;
	struct il_err err;

	assert_true(il_replay_log_load(&log, "/nonexistent/x.log", &err) < 0);
	assert_string_equal(err.file, "/nonexistent/x.log");
	assert_non_null(strstr(err.msg, "cannot open"));
	il_replay_log_free(&log);
}

/* ---- engine ---- */

/*
 * Table POLL 0/0, C1 1000/2000, C2 10000/20000 ns, HZ=1000 (TICK_NSEC
 * 1000000, CPUIDLE_POLL_MAX 62500: poll limit = C2's 20000, the first state
 * of residency >= 10000).
 *
 * row cpu choice residency  counters (core rules)
 *  0   0    1      1500     C1: 1500 < 2000, POLL enabled -> above
 *  1   0    1     25000     C1: 25000-1000 >= 20000 (C2) -> below
 *  2   0    1     15000     C1: 14000 < 20000 -> nothing
 *  3   0    2        -1     C2 rejected, no reflect
 *  4   0    0      5000     POLL: 5000 >= 2000 (C1) -> below; poll limit cached
 *  5   0    2     30000     C2: deepest, nothing
 *  6   0    2      5000     C2: 5000 < 20000 -> above
 *  7   1    1      1500     cpu 1 C1 above
 *  8   1    1      2000     cpu 1 C1: 2000-1000 < 20000, not < 2000 -> nothing
 */
static const char engine_log[] =
	HDR "# hz=1000\n" TABLE3 "# param,knob,7\n" COLS
	/* cpu,sleep,delta,stopped,lat,iow,util,res,got_tick,ptl */
	"0,100000,50000,0,2000000000000,0,0,1500,0,0\n"
	"0,200000,60000,1,5000,1,1,25000,1,1\n"
	"0,300000,70000,0,0,0,0,15000,0,0\n"
	"0,400000,80000,0,7,0,0,-1,1,1\n"
	"0,500000,90000,0,8,0,0,5000,0,1\n"
	"0,600000,95000,1,9,0,0,30000,1,0\n"
	"0,700000,99000,0,10,3,0,5000,0,0\n"
	"1,800000,1000,0,11,0,1,1500,1,0\n"
	"1,900000,2000,0,12,0,0,2000,0,0\n";

static void engine_accounting(void **state)
{
	(void)state;
	static const int choice[] = { 1, 1, 1, 2, 0, 2, 2, 1, 1 };
	static const bool keep[] = { 0, 0, 1, 0, 0, 1, 0, 0, 0 };
	struct recorder rec = { .choice = choice, .keep_tick = keep };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_err err;

	assert_int_equal(parse(&log, engine_log, &err), 0);
	assert_int_equal(log.ncpus, 2);
	struct il_gov *gov = test_gov(2, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	assert_int_equal(rec.knob, 7);     /* param applied */
	assert_int_equal(rec.nenable, 2);  /* once per CPU */
	assert_int_equal(eng.tick_nsec, 1000000);

	struct il_replay_decision d[9];
	for (int i = 0; i < 9; i++)
		d[i] = il_replay_step(&eng, &log.rows[i]);
	for (int i = 0; i < 9; i++) {
		assert_int_equal(d[i].selected, choice[i]);
		assert_int_equal(d[i].stop_tick, !keep[i]);
	}

	const struct il_state_usage *u0 = eng.devs[0].states_usage;
	const struct il_state_usage *u1 = eng.devs[1].states_usage;
	/* POLL */
	assert_int_equal(u0[0].usage, 1);
	assert_int_equal(u0[0].time_ns, 5000);
	assert_int_equal(u0[0].above, 0);
	assert_int_equal(u0[0].below, 1);
	assert_int_equal(u0[0].rejected, 0);
	/* C1 */
	assert_int_equal(u0[1].usage, 3);
	assert_int_equal(u0[1].time_ns, 1500 + 25000 + 15000);
	assert_int_equal(u0[1].above, 1);
	assert_int_equal(u0[1].below, 1);
	assert_int_equal(u0[1].rejected, 0);
	/* C2 */
	assert_int_equal(u0[2].usage, 2);
	assert_int_equal(u0[2].time_ns, 35000);
	assert_int_equal(u0[2].above, 1);
	assert_int_equal(u0[2].below, 0);
	assert_int_equal(u0[2].rejected, 1);
	/* cpu 1 has its own device */
	assert_int_equal(u1[0].usage, 0);
	assert_int_equal(u1[1].usage, 2);
	assert_int_equal(u1[1].time_ns, 3500);
	assert_int_equal(u1[1].above, 1);
	assert_int_equal(u1[1].below, 0);
	assert_int_equal(u1[2].usage, 0);
	assert_int_equal(eng.devs[1].poll_limit_ns, 0); /* never polled */

	/* select saw the row's inputs, the replay clock and no tick flag */
	assert_int_equal(rec.nselect, 9);
	static const uint64_t clock_at_select[] = { 0, 1500, 26500, 41500, 41500, 46500,
						    76500, 0, 1500 };
	static const int64_t last_res_at_select[] = { 0, 1500, 25000, 15000, 0, 5000,
						      30000, 0, 1500 };
	for (int i = 0; i < 9; i++) {
		const struct rec_call *s = &rec.sel[i];
		assert_int_equal(s->cpu, log.rows[i].cpu);
		assert_int_equal(s->in.sleep_length_ns, log.rows[i].sleep_length_ns);
		assert_int_equal(s->in.delta_tick_ns, log.rows[i].delta_tick_ns);
		assert_int_equal(s->in.tick_stopped, log.rows[i].tick_stopped);
		assert_int_equal(s->in.latency_req_ns, log.rows[i].latency_req_ns);
		assert_int_equal(s->in.nr_iowait, log.rows[i].nr_iowait);
		assert_int_equal(s->in.cpu_utilized, log.rows[i].cpu_utilized);
		assert_false(s->in.got_tick);
		assert_int_equal(s->in.tick_nsec, 1000000);
		assert_int_equal(s->in.clock_ns, clock_at_select[i]);
		assert_int_equal(s->in.true_idle_ns, log.rows[i].residency_ns);
		assert_int_equal(s->last_residency_ns, last_res_at_select[i]);
	}
	/* the poll-time-limit flag: written only by the polling entry (row 4) */
	assert_false(rec.sel[2].poll_time_limit); /* row 1's 1 ignored: C1 entered */
	assert_false(rec.sel[4].poll_time_limit); /* row 3's 1 ignored: rejected */
	assert_true(rec.sel[5].poll_time_limit);  /* row 4 polled into its limit */
	assert_true(rec.sel[6].poll_time_limit);  /* row 5 (C2) left it alone */
	assert_int_equal(rec.sel[4].poll_limit_ns, 0);
	assert_int_equal(rec.sel[5].poll_limit_ns, 20000);

	/* reflect: not for the rejected row 3; entered index, clock after, got_tick */
	assert_int_equal(rec.nreflect, 8);
	static const int row_of_reflect[] = { 0, 1, 2, 4, 5, 6, 7, 8 };
	static const uint64_t clock_at_reflect[] = { 1500, 26500, 41500, 46500, 76500,
						     81500, 1500, 3500 };
	for (int k = 0; k < 8; k++) {
		const struct rec_call *r = &rec.refl[k];
		int i = row_of_reflect[k];
		assert_int_equal(r->index, choice[i]);
		assert_int_equal(r->cpu, log.rows[i].cpu);
		assert_int_equal(r->in.clock_ns, clock_at_reflect[k]);
		assert_int_equal(r->in.got_tick, log.rows[i].got_tick);
		assert_int_equal(r->last_residency_ns, log.rows[i].residency_ns);
	}
	assert_true(rec.refl[3].poll_time_limit);
	assert_int_equal(rec.refl[3].poll_limit_ns, 20000);

	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

/*
 * Disabled states: POLL 0/0, C1 1000/12000, C2 10000/20000 with C1 disabled.
 * Poll limit skips C1: 20000 (12000 if enabled).
 *  row 0: POLL 5000: next enabled deeper is C2, 5000 < 20000 -> no below
 *         (with C1 enabled 5000 < 12000 too, so row 1 shows the skip)
 *  row 1: POLL 25000: C2: 25000 >= 20000 -> below
 *  row 2: C2 5000: above (POLL enabled, C1 skipped)
 * and with POLL and C1 disabled (second log):
 *  row 0: C2 5000: no shallower enabled state -> no above
 */
static void engine_disabled_states(void **state)
{
	(void)state;
	static const int choice[] = { 0, 0, 2 };
	struct recorder rec = { .choice = choice };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_err err;
	const char *text = HDR "# hz=1000\n# state,0,POLL,0,0,polling\n# state,1,C1,1000,12000,\n"
			   "# state,2,C2,10000,20000,\n# disable,1\n" COLS
			   "0,1,1,0,1,0,0,5000,0,0\n0,1,1,0,1,0,0,25000,0,0\n"
			   "0,1,1,0,1,0,0,5000,0,0\n";

	assert_int_equal(parse(&log, text, &err), 0);
	struct il_gov *gov = test_gov(1, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	assert_int_equal(eng.devs[0].states_usage[1].disable, IL_DISABLE_BY_USER);
	for (int i = 0; i < 3; i++)
		il_replay_step(&eng, &log.rows[i]);
	const struct il_state_usage *u = eng.devs[0].states_usage;
	assert_int_equal(u[0].usage, 2);
	assert_int_equal(u[0].below, 1);
	assert_int_equal(u[2].above, 1);
	assert_int_equal(eng.devs[0].poll_limit_ns, 20000);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);

	static const int choice2[] = { 2 };
	struct recorder rec2 = { .choice = choice2 };
	text = HDR "# hz=1000\n# state,0,POLL,0,0,polling\n# state,1,C1,1000,12000,off\n"
		   "# state,2,C2,10000,20000,\n# disable,0\n" COLS "0,1,1,0,1,0,0,5000,0,0\n";
	assert_int_equal(parse(&log, text, &err), 0);
	gov = test_gov(1, &rec2);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	il_replay_step(&eng, &log.rows[0]);
	assert_int_equal(eng.devs[0].states_usage[2].usage, 1);
	assert_int_equal(eng.devs[0].states_usage[2].above, 0);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

static void engine_errors(void **state)
{
	(void)state;
	struct recorder rec = { 0 };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_err err;
	const char *text = HDR "# hz=1000\n" TABLE3 "# param,knob,1\n# param,nosuch,2\n" COLS
			   "1,1,1,0,1,0,0,5000,0,0\n";

	assert_int_equal(parse(&log, text, &err), 0);
	/* too few CPUs in the governor */
	struct il_gov *gov = test_gov(1, &rec);
	assert_true(il_replay_engine_init(&eng, &log, gov, &err) < 0);
	assert_non_null(strstr(err.msg, "governor set up for 1 CPUs, the log has 2"));
	il_gov_free(gov);
	/* a parameter the governor refuses: named with its line */
	gov = test_gov(2, &rec);
	il_err_clear(&err);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), -ENOENT);
	assert_string_equal(err.file, "t.log");
	assert_int_equal(err.line, 7);
	assert_string_equal(err.msg, "param nosuch: no parameter 'nosuch'");
	il_gov_free(gov);
	il_replay_log_free(&log);

	/* a governor returning an index outside the table */
	static const int choice[] = { 3 };
	struct recorder bad = { .choice = choice };
	assert_int_equal(parse(&log, HDR "# hz=1000\n" TABLE3 COLS "0,1,1,0,1,0,0,5000,0,0\n",
			       &err), 0);
	gov = test_gov(1, &bad);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	struct il_replay_decision d = il_replay_step(&eng, &log.rows[0]);
	assert_int_equal(d.selected, -1);
	assert_int_equal(bad.nreflect, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(eng.devs[0].states_usage[i].usage, 0);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

/*
 * One state: the idle loop enters it without select or reflect; the tick is
 * stopped only after a period that ended with the tick (per CPU).
 */
static void engine_one_state(void **state)
{
	(void)state;
	struct recorder rec = { 0 };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_err err;
	const char *text = HDR "# hz=1000\n# state,0,WFI,1000,1000,\n" COLS
			   "0,1,1,0,1,0,0,500,1,0\n"   /* first: no tick before -> keep */
			   "0,1,1,0,1,0,0,5000,0,0\n"  /* after a tick wake-up -> stop */
			   "1,1,1,0,1,0,0,5000,1,0\n"  /* cpu 1 has its own history */
			   "0,1,1,0,1,0,0,-1,1,0\n"    /* after no tick -> keep; rejected */
			   "0,1,1,0,1,0,0,7000,0,0\n"; /* rejected period: no tick -> keep */

	assert_int_equal(parse(&log, text, &err), 0);
	struct il_gov *gov = test_gov(2, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	static const bool want_stop[] = { false, true, false, false, false };
	for (int i = 0; i < 5; i++) {
		struct il_replay_decision d = il_replay_step(&eng, &log.rows[i]);
		assert_int_equal(d.selected, 0);
		assert_int_equal(d.stop_tick, want_stop[i]);
	}
	assert_int_equal(rec.nselect, 0);
	assert_int_equal(rec.nreflect, 0);
	const struct il_state_usage *u = &eng.devs[0].states_usage[0];
	assert_int_equal(u->usage, 3);
	assert_int_equal(u->time_ns, 12500);
	assert_int_equal(u->rejected, 1);
	assert_int_equal(u->above, 0); /* 500 < 1000 but no shallower state */
	assert_int_equal(eng.devs[1].states_usage[0].usage, 1);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

/* The same log replayed twice, fresh and after reset, decides the same. */
static void engine_deterministic_and_reset(void **state)
{
	(void)state;
	struct recorder rec = { 0 };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_err err;
	char buf[8192];
	int off = snprintf(buf, sizeof(buf), HDR "# hz=1000\n" TABLE3 COLS);

	for (int i = 0; i < 60; i++)
		off += snprintf(buf + off, sizeof(buf) - (size_t)off, "%d,%d,%d,0,1,0,0,%d,%d,%d\n",
				i % 3, 1000 * i, 500 * i, i % 7 ? 700 * i : -1, i & 1, i % 3 == 0);
	assert_int_equal(parse(&log, buf, &err), 0);
	struct il_gov *gov = test_gov(3, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);

	struct il_replay_decision a[60], b[60];
	struct il_device devs_a[3];
	for (int i = 0; i < 60; i++)
		a[i] = il_replay_step(&eng, &log.rows[i]);
	memcpy(devs_a, eng.devs, sizeof(devs_a));
	/* the default script depends on per-CPU governor data: reset must clear it */
	il_replay_engine_reset(&eng);
	for (int cpu = 0; cpu < 3; cpu++)
		assert_int_equal(((struct tcpu *)il_gov_cpu(gov, cpu))->calls, 100);
	for (int i = 0; i < 60; i++)
		b[i] = il_replay_step(&eng, &log.rows[i]);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_equal(devs_a, eng.devs, sizeof(devs_a));
	/* the script: per-CPU calls 101, 102, ... mod 3 */
	assert_int_equal(a[0].selected, 101 % 3);
	assert_int_equal(a[3].selected, 102 % 3);
	assert_int_equal(a[1].selected, 101 % 3);
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

/* ---- decisions files and agreement ---- */

static int parse_ex(struct il_replay_expect *ex, const char *text, struct il_err *err)
{
	il_err_clear(err);
	return il_replay_expect_parse(ex, text, strlen(text), "d.csv", err);
}

static void expect_agreement(void **state)
{
	(void)state;
	static const int choice[] = { 1, 1, 1, 2, 0, 2, 2, 1, 1 };
	static const bool keep[] = { 0, 0, 1, 0, 0, 1, 0, 0, 0 };
	struct recorder rec = { .choice = choice, .keep_tick = keep };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_replay_expect ex;
	struct il_replay_agreement ag;
	struct il_err err;
	struct il_replay_decision d[9];

	assert_int_equal(parse(&log, engine_log, &err), 0);
	struct il_gov *gov = test_gov(2, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	for (int i = 0; i < 9; i++)
		d[i] = il_replay_step(&eng, &log.rows[i]);

	/* all rows, all equal */
	assert_int_equal(parse_ex(&ex, "row,selected,stop_tick\n0,1,1\n1,1,1\n2,1,0\n3,2,1\n"
				       "4,0,1\n5,2,0\n6,2,1\n7,1,1\n8,1,1\n", &err), 0);
	assert_int_equal(il_replay_compare(&log, d, &ex, &ag, &err), 0);
	assert_int_equal(ag.compared, 9);
	assert_int_equal(ag.equal, 9);
	assert_false(ag.differs);
	il_replay_expect_free(&ex);

	/* a subset, no column line: row 2 differs in stop_tick, row 5 in selected */
	assert_int_equal(parse_ex(&ex, "# kernel decisions\n0,1,1\n2,1,1\n5,1,0\n8,1,1\n", &err),
			 0);
	assert_int_equal(il_replay_compare(&log, d, &ex, &ag, &err), 0);
	assert_int_equal(ag.compared, 4);
	assert_int_equal(ag.equal, 2);
	assert_true(ag.differs);
	assert_int_equal(ag.first_row, 2);
	assert_int_equal(ag.first_line, 3);
	assert_int_equal(ag.first_expected.selected, 1);
	assert_true(ag.first_expected.stop_tick);
	assert_int_equal(ag.first_got.selected, 1);
	assert_false(ag.first_got.stop_tick);
	il_replay_expect_free(&ex);

	/* the replay's own CSV (with cpu) is a decisions file too */
	assert_int_equal(parse_ex(&ex, "row,cpu,selected,stop_tick\n6,0,1,1\n7,1,1,1\n", &err), 0);
	assert_int_equal(il_replay_compare(&log, d, &ex, &ag, &err), 0);
	assert_int_equal(ag.compared, 2);
	assert_int_equal(ag.equal, 1);
	assert_int_equal(ag.first_row, 6);
	assert_int_equal(ag.first_got.selected, 2);
	il_replay_expect_free(&ex);

	/* ... whose cpu must match the log */
	assert_int_equal(parse_ex(&ex, "row,cpu,selected,stop_tick\n7,0,1,1\n", &err), 0);
	assert_true(il_replay_compare(&log, d, &ex, &ag, &err) < 0);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "row 7 is cpu 0 here but cpu 1 in the log");
	il_replay_expect_free(&ex);

	/* rows beyond the log */
	assert_int_equal(parse_ex(&ex, "0,1,1\n9,1,1\n", &err), 0);
	assert_true(il_replay_compare(&log, d, &ex, &ag, &err) < 0);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "row 9 beyond the log's 9 rows");
	il_replay_expect_free(&ex);

	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

static void expect_bad(void **state)
{
	(void)state;
	static const struct bad_case cases[] = {
		{ "row,selected\n", 1, "bad column line" },
		{ "0,1\n", 1, "wrong column count: 2, expected 3" },
		{ "0,1,1,1\n", 1, "wrong column count: 4, expected 3" },
		{ "row,cpu,selected,stop_tick\n0,1,1\n", 2, "wrong column count: 3, expected 4" },
		{ "0,1,1\n1,1,1,1,1\n", 2, "wrong column count: more than 4" },
		{ "0,x,1\n", 1, "non-numeric selected 'x'" },
		{ "0,1,2\n", 1, "stop_tick 2 out of range (0..1)" },
		{ "0,10,1\n", 1, "selected 10 out of range (0..9)" },
		{ "-1,1,1\n", 1, "row -1 out of range" },
		{ "0,1,1\n\n0,1,1\n", 3, "row 0 not after row 0" },
		{ "5,1,1\n3,1,1\n", 2, "row 3 not after row 5" },
		{ "0,1,1\nrow,selected,stop_tick\n", 2, "non-numeric row 'row'" },
		{ "row,cpu,selected,stop_tick\n0,8192,1,1\n", 2, "cpu 8192 out of range" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_replay_expect ex;
		struct il_err err;
		int r = parse_ex(&ex, cases[i].text, &err);

		if (r >= 0 || err.line != cases[i].line || !strstr(err.msg, cases[i].msg) ||
		    strcmp(err.file, "d.csv") || ex.n)
			fail_msg("case %zu: r=%d line %d (want %d) msg '%s' (want '%s')", i, r,
				 err.line, cases[i].line, err.msg, cases[i].msg);
		il_replay_expect_free(&ex);
	}
	/* an empty file compares nothing */
	struct il_replay_expect ex;
	struct il_err err;
	assert_int_equal(parse_ex(&ex, "", &err), 0);
	assert_int_equal(ex.n, 0);
	il_replay_expect_free(&ex);
}

/* Every real governor that instantiates decides a fixture identically twice. */
static void real_governors_deterministic(void **state)
{
	(void)state;
	struct il_replay_log log;
	struct il_err err;
	int tried = 0;

	assert_int_equal(il_replay_log_load(&log, SRCDIR "/tests/fixtures/replay/zen3.log", &err),
			 0);
	assert_true(log.nrows > 1000);
	for (int g = 0; il_governors[g]; g++) {
		struct il_gov *gov = il_gov_new(il_governors[g]->name, log.ncpus, &err);
		struct il_replay_engine eng;

		if (!gov)
			continue; /* not built yet */
		tried++;
		assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
		struct il_replay_decision *a = calloc(log.nrows, sizeof(*a));
		struct il_replay_decision *b = calloc(log.nrows, sizeof(*b));
		for (size_t i = 0; i < log.nrows; i++)
			a[i] = il_replay_step(&eng, &log.rows[i]);
		il_replay_engine_reset(&eng);
		for (size_t i = 0; i < log.nrows; i++)
			b[i] = il_replay_step(&eng, &log.rows[i]);
		for (size_t i = 0; i < log.nrows; i++) {
			if (a[i].selected < 0 || a[i].selected >= log.drv.state_count)
				fail_msg("%s: row %zu: index %d", gov->spec, i, a[i].selected);
		}
		assert_memory_equal(a, b, log.nrows * sizeof(*a));
		free(a);
		free(b);
		il_replay_engine_free(&eng);
		il_gov_free(gov);
	}
	print_message("replayed with %d real governors\n", tried);
	il_replay_log_free(&log);
}


/* ---- reading line by line: limits, streaming, passes ---- */

/* Write text to a new temporary file; its path into path. */
static void write_tmp(char *path, size_t size, const char *text, size_t len)
{
	snprintf(path, size, "/tmp/idlelab-test-replay-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A line of exactly IL_REPLAY_LINE_MAX bytes passes; one more is refused at its line. */
static void reader_line_limit(void **state)
{
	(void)state;
	size_t cap = 3 * IL_REPLAY_LINE_MAX;
	char *text = malloc(cap), *p;
	struct il_replay_log log;
	struct il_err err;

	for (int extra = 0; extra <= 1; extra++) {
		for (int crlf = 0; crlf <= 1; crlf++) {
			p = text + sprintf(text, HDR "# hz=1000\n#");
			memset(p, 'x', IL_REPLAY_LINE_MAX - 1 + (size_t)extra);
			p += IL_REPLAY_LINE_MAX - 1 + extra;
			p += sprintf(p, "%s# state,0,POLL,0,0,polling\n" COLS, crlf ? "\r\n" : "\n");
			int r = il_replay_log_parse(&log, text, (size_t)(p - text), "t.log", &err);
			if (extra) {
				assert_true(r < 0);
				assert_int_equal(err.line, 3);
				assert_string_equal(err.msg, "line longer than 4096 bytes");
			} else {
				assert_int_equal(r, 0);
				assert_int_equal(log.drv.state_count, 1);
			}
			il_replay_log_free(&log);
		}
	}
	/* a NUL within the limit is a NUL, one past it an over-long line */
	p = text + sprintf(text, HDR "# hz=1000\n#");
	memset(p, 'x', 2 * IL_REPLAY_LINE_MAX);
	p[10] = '\0';
	assert_true(il_replay_log_parse(&log, text, (size_t)(p - text) + 2 * IL_REPLAY_LINE_MAX,
					"t.log", &err) < 0);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.msg, "NUL byte in line");
	p[10] = 'x';
	p[IL_REPLAY_LINE_MAX + 100] = '\0';
	assert_true(il_replay_log_parse(&log, text, (size_t)(p - text) + 2 * IL_REPLAY_LINE_MAX,
					"t.log", &err) < 0);
	assert_int_equal(err.line, 3);
	assert_string_equal(err.msg, "line longer than 4096 bytes");
	il_replay_log_free(&log);
	free(text);

	/* an endless line is refused after reading one chunk of it */
	struct il_replay_reader rd;
	assert_int_equal(il_replay_reader_open(&rd, "/dev/zero", &err), 0);
	assert_true(il_replay_log_open(&log, &rd, &err) < 0);
	assert_int_equal(err.line, 1);
	assert_string_equal(err.file, "/dev/zero");
	assert_string_equal(err.msg, "NUL byte in line");
	il_replay_reader_close(&rd);
}

static void assert_row_equal(const struct il_replay_row *a, const struct il_replay_row *b)
{
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->sleep_length_ns, b->sleep_length_ns);
	assert_int_equal(a->delta_tick_ns, b->delta_tick_ns);
	assert_int_equal(a->latency_req_ns, b->latency_req_ns);
	assert_int_equal(a->residency_ns, b->residency_ns);
	assert_int_equal(a->nr_iowait, b->nr_iowait);
	assert_int_equal(a->tick_stopped, b->tick_stopped);
	assert_int_equal(a->cpu_utilized, b->cpu_utilized);
	assert_int_equal(a->got_tick, b->got_tick);
	assert_int_equal(a->poll_time_limit, b->poll_time_limit);
}

/* A log of many rows: as many rows and CPUs as the fixture's, with their lines. */
static char *many_rows(size_t *len, int nrows)
{
	size_t cap = 256 + (size_t)nrows * 64;
	char *t = malloc(cap);
	size_t n = (size_t)snprintf(t, cap, HDR "# hz=1000\n" TABLE3 COLS);

	for (int i = 0; i < nrows; i++)
		n += (size_t)snprintf(t + n, cap - n, "%d,%d,%d,%d,2000000000000,0,0,%d,%d,0\n%s",
				      i % 7, 1000 + i, 500 + i, i % 2, i % 3 ? 1500 + i : -1, i % 5 == 0,
				      i % 1000 == 0 ? "\n" : "");
	*len = n;
	return t;
}

/* Streaming gives the rows and lines parsing gives, pass after pass. */
static void stream_matches_parse(void **state)
{
	(void)state;
	size_t len;
	char *text = many_rows(&len, 6000); /* several 64 KiB chunks */
	char path[64];
	struct il_replay_log mem, log;
	struct il_replay_reader rd;
	struct il_replay_row row;
	struct il_err err;
	int line;

	assert_true(len > 3 * 65536);
	write_tmp(path, sizeof(path), text, len);
	assert_int_equal(il_replay_log_parse(&mem, text, len, path, &err), 0);
	assert_int_equal(il_replay_reader_open(&rd, path, &err), 0);
	assert_int_equal(il_replay_log_open(&log, &rd, &err), 0);
	assert_null(log.rows);
	assert_int_equal(log.nrows, 6000);
	assert_int_equal(log.ncpus, mem.ncpus);
	assert_memory_equal(log.cpu_seen, mem.cpu_seen, sizeof(log.cpu_seen));
	assert_int_equal(log.drv.state_count, 3);
	for (int pass = 0; pass < 2; pass++) {
		size_t i = 0;
		int r;
		while ((r = il_replay_log_next(&log, &rd, &row, &line, &err)) > 0) {
			assert_true(i < mem.nrows);
			assert_row_equal(&row, &mem.rows[i]);
			assert_int_equal(line, mem.row_line[i]);
			i++;
		}
		assert_int_equal(r, 0);
		assert_int_equal(i, mem.nrows);
		assert_int_equal(il_replay_log_rewind(&log, &rd, &err), 0);
	}
	il_replay_reader_close(&rd);

	/* a file that grows after the first pass is refused, not overrun */
	assert_int_equal(il_replay_reader_open(&rd, path, &err), 0);
	assert_int_equal(il_replay_log_open(&log, &rd, &err), 0);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs("9,1,1,0,0,0,0,1,0,0\n", f);
	fclose(f);
	int r;
	while ((r = il_replay_log_next(&log, &rd, &row, &line, &err)) > 0)
		;
	assert_true(r < 0);
	assert_int_equal(err.line, mem.row_line[mem.nrows - 1] + 1);
	assert_non_null(strstr(err.msg, "changed while it was read"));
	il_replay_reader_close(&rd);
	unlink(path);
	il_replay_log_free(&mem);
	free(text);
}

/* A pipe is read once, and again from the copy kept while it was read. */
static void stream_from_pipe(void **state)
{
	(void)state;
	size_t len;
	char *text = many_rows(&len, 3000);
	int fds[2];
	char path[32];
	struct il_replay_log log, mem;
	struct il_replay_reader rd;
	struct il_replay_row row;
	struct il_err err;
	int line;

	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		for (size_t off = 0; off < len;) {
			ssize_t w = write(fds[1], text + off, len - off);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_int_equal(il_replay_log_parse(&mem, text, len, path, &err), 0);
	assert_int_equal(il_replay_reader_open(&rd, path, &err), 0);
	assert_int_equal(il_replay_log_open(&log, &rd, &err), 0);
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(log.nrows, 3000);
	for (int pass = 0; pass < 2; pass++) {
		size_t i = 0;
		while (il_replay_log_next(&log, &rd, &row, &line, &err) > 0) {
			assert_row_equal(&row, &mem.rows[i]);
			assert_int_equal(line, mem.row_line[i]);
			i++;
		}
		assert_int_equal(i, 3000);
		assert_int_equal(il_replay_log_rewind(&log, &rd, &err), 0);
	}
	il_replay_reader_close(&rd);
	il_replay_log_free(&mem);
	free(text);
}

/* Every refusal is the same, at the same line, read from a file as from memory. */
static void stream_errors_match_parse(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"",
		"# idlelab-replay v2\n",
		HDR "# hz=1000\n" TABLE3,
		HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0\n0,1,2,0,0,0,0,5,0\n",
		HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0\n\n# hz=250\n",
		HDR "# hz=1000\n" TABLE3 COLS "0,1,2,0,0,0,0,5,0,0\n0,1,2,0,0,0,0,5,0,9",
		HDR TABLE3 COLS,
		HDR "# hz=1000\n# disable,3\n" TABLE3 COLS,
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char path[64];
		struct il_replay_log a, b;
		struct il_replay_reader rd;
		struct il_err ea, eb;

		write_tmp(path, sizeof(path), texts[i], strlen(texts[i]));
		assert_true(il_replay_log_parse(&a, texts[i], strlen(texts[i]), path, &ea) < 0);
		assert_int_equal(il_replay_reader_open(&rd, path, &eb), 0);
		assert_true(il_replay_log_open(&b, &rd, &eb) < 0);
		if (ea.line != eb.line || strcmp(ea.msg, eb.msg) || strcmp(ea.file, eb.file))
			fail_msg("case %zu: %s:%d: %s vs %s:%d: %s", i, ea.file, ea.line, ea.msg,
				 eb.file, eb.line, eb.msg);
		assert_int_equal(b.nrows, 0);
		il_replay_reader_close(&rd);
		unlink(path);
	}
}

/* The streamed comparison agrees with il_replay_compare(), errors included. */
static void check_matches_compare(void **state)
{
	(void)state;
	static const char *const files[] = {
		"row,selected,stop_tick\n0,1,1\n1,1,1\n2,1,0\n3,2,1\n4,0,1\n5,2,0\n6,2,1\n7,1,1\n8,1,1\n",
		"# kernel decisions\n0,1,1\n2,1,1\n5,1,0\n8,1,1\n",
		"row,cpu,selected,stop_tick\n6,0,1,1\n7,1,1,1\n",
		"row,cpu,selected,stop_tick\n7,0,1,1\n",
		"0,1,1\n9,1,1\n",
		"0,2,1\n3,1,1\n10,1,1\n12,1,1\n",
		"",
	};
	static const int choice[] = { 1, 1, 1, 2, 0, 2, 2, 1, 1 };
	static const bool keep[] = { 0, 0, 1, 0, 0, 1, 0, 0, 0 };
	struct recorder rec = { .choice = choice, .keep_tick = keep };
	struct il_replay_log log;
	struct il_replay_engine eng;
	struct il_replay_decision d[9];
	struct il_err err;

	assert_int_equal(parse(&log, engine_log, &err), 0);
	struct il_gov *gov = test_gov(2, &rec);
	assert_int_equal(il_replay_engine_init(&eng, &log, gov, &err), 0);
	for (int i = 0; i < 9; i++)
		d[i] = il_replay_step(&eng, &log.rows[i]);
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		struct il_replay_expect ex;
		struct il_replay_agreement ag;
		struct il_replay_reader rd;
		struct il_replay_expect_stream es;
		struct il_replay_check ck;
		struct il_err e1, e2;
		size_t len = strlen(files[k]);

		il_err_clear(&e1);
		il_err_clear(&e2);
		assert_int_equal(il_replay_expect_parse(&ex, files[k], len, "d.csv", &e1), 0);
		int r1 = il_replay_compare(&log, d, &ex, &ag, &e1);
		il_replay_reader_mem(&rd, files[k], len, "d.csv");
		assert_int_equal(il_replay_expect_open(&es, &rd, &e2), 0);
		assert_int_equal(es.n, ex.n);
		assert_int_equal(il_replay_check_begin(&ck, &es, &e2), 0);
		int r2 = 0;
		for (size_t i = 0; i < log.nrows && !r2; i++)
			r2 = il_replay_check_row(&ck, i, log.rows[i].cpu, d[i], &e2);
		if (!r2)
			r2 = il_replay_check_end(&ck, log.nrows, &e2);
		if ((r1 < 0) != (r2 < 0) || e1.line != e2.line || strcmp(e1.msg, e2.msg))
			fail_msg("file %zu: %d %d: '%s' vs %d %d: '%s'", k, r1, e1.line, e1.msg, r2,
				 e2.line, e2.msg);
		if (!r1)
			assert_memory_equal(&ag, &ck.ag, sizeof(ag));
		il_replay_expect_free(&ex);
	}
	il_replay_engine_free(&eng);
	il_gov_free(gov);
	il_replay_log_free(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_good),
		cmocka_unit_test(parse_bad),
		cmocka_unit_test(parse_too_many_states_and_params),
		cmocka_unit_test(load_missing_file),
		cmocka_unit_test(engine_accounting),
		cmocka_unit_test(engine_disabled_states),
		cmocka_unit_test(engine_errors),
		cmocka_unit_test(engine_one_state),
		cmocka_unit_test(engine_deterministic_and_reset),
		cmocka_unit_test(expect_agreement),
		cmocka_unit_test(expect_bad),
		cmocka_unit_test(real_governors_deterministic),
		cmocka_unit_test(reader_line_limit),
		cmocka_unit_test(stream_matches_parse),
		cmocka_unit_test(stream_from_pipe),
		cmocka_unit_test(stream_errors_match_parse),
		cmocka_unit_test(check_matches_compare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
