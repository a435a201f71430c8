// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turbo: bins by active cores with SMT (a core counts unless all its threads
 * are in a TURBO_RELEASE state), work in cycles re-timed when the frequency
 * changes while its frequency-independent part (il_sim_task_work's ns) is
 * not, and the bin lookup (gaps take the next listed count above).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"

struct pc_cfg {
	int idx[4];
};

static int pc_select(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
		     const struct il_idle_inputs *in, bool *stop_tick)
{
	(void)d;
	(void)drv;
	(void)in;
	*stop_tick = true;
	return ((const struct pc_cfg *)c)->idx[dev->cpu];
}

static const struct il_gov_ops pc_ops = {
	.name = "per-cpu", .config_size = sizeof(struct pc_cfg), .cpu_data_size = 1,
	.select = pc_select,
};

/* Task 0 on CPU 0 runs `cycles` plus `ns` once; the end time is kept. */
static int64_t a_end;
static uint64_t a_cycles;
static int64_t a_ns;

static int w_setup(const void *cfg, void *st, struct il_sim *s, struct il_err *err)
{
	(void)cfg;
	(void)st;
	(void)err;
	il_sim_task_wake(s, -1, il_sim_task_add(s, 0, NULL));
	return 0;
}

static void w_woke(const void *cfg, void *st, struct il_sim *s, int task, int64_t lat)
{
	(void)cfg;
	(void)st;
	(void)lat;
	if (a_ns)
		il_sim_task_work(s, task, a_cycles, a_ns);
	else
		il_sim_task_run(s, task, a_cycles);
}

static void w_ran(const void *cfg, void *st, struct il_sim *s, int task)
{
	(void)cfg;
	(void)st;
	a_end = il_sim_now(s);
	il_sim_task_block(s, task, -1);
}

static const struct il_workload w = {
	.name = "burst", .summary = "", .config_size = 1, .state_size = 1,
	.setup = w_setup, .task_ran = w_ran, .task_woke = w_woke,
};

#define PLAT "[platform]\nname = smt\n[topology]\ncores_per_package = 2\nthreads_per_core = 2\n" \
	"[cpu]\nbase_mhz = 2000\n[turbo]\n1 = 3600\n2 = 3000\n" \
	"[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\n" \
	"[state.1]\nname = C1\nlatency = 1\nresidency = 2\n" \
	"[state.2]\nname = C6\nlatency = 100\nresidency = 400\nflags = TURBO_RELEASE\n"

static int64_t run_work(int i1, int i2, int i3, uint64_t cycles, int64_t ns, struct il_sim_result *r)
{
	static struct il_platform p;
	static struct il_machine_idle m;
	struct il_err e;
	struct pc_cfg cfg = { { 2, i1, i2, i3 } };
	char data = 0;
	struct il_gov gov = { .ops = &pc_ops, .config = &cfg, .cpu_data = (unsigned char *)&data,
			      .ncpus = 4, .spec = "per-cpu" };
	struct il_sim_params prm;

	assert_int_equal(il_platform_load_string(&p, PLAT, strlen(PLAT), "smt.ini", &e), 0);
	memset(&m, 0, sizeof(m));
	m.cpuidle = true;
	m.drv = p.table;
	il_sim_params_default(&prm);
	prm.duration_ns = 2000000;
	prm.switch_ns = 0;
	a_end = -1;
	a_cycles = cycles;
	a_ns = ns;
	struct il_sim *s = il_sim_new(&p, &m, &gov, &w, NULL, &prm, &e);
	assert_non_null(s);
	assert_int_equal(il_sim_run(s, &e), 0);
	assert_int_equal(il_sim_result(s, r, &e), 0);
	il_sim_free(s);
	return a_end;
}

static int64_t run(int i1, int i2, int i3, struct il_sim_result *r)
{
	return run_work(i1, i2, i3, 3000000, 0, r);
}

static void smt_bins(void **unused)
{
	(void)unused;
	struct il_sim_result r;
	/* starts at the 2-core bin (3000 MHz): 300000 cycles in the first 100 us */
	/* sibling and the other core all in C6: one active core, 3600 MHz after 100 us */
	assert_int_equal(run(2, 2, 2, &r), 100000 + 750000);
	assert_int_equal(r.freq_ns[0], 100000);           /* 3000 MHz */
	assert_int_equal(r.freq_ns[1], 2000000 - 100000); /* 3600 MHz */
	il_sim_result_free(&r);
	/* the sibling in C1 changes nothing: core 0 is active anyway */
	assert_int_equal(run(1, 2, 2, &r), 850000);
	il_sim_result_free(&r);
	/* one thread of core 1 in C1: core 1 counts, 3000 MHz all along */
	assert_int_equal(run(2, 1, 2, &r), 1000000);
	/* until CPU 0 idles too (C6 at 1.0003 ms) and the next re-evaluation at 1.1 ms */
	assert_int_equal(r.freq_ns[0], 1100000);
	il_sim_result_free(&r);
	/* ... and so does a polling thread */
	assert_int_equal(run(2, 2, 0, &r), 1000000);
	/* core depth: core 1 never deeper than its polling thread; core 0 in C6 from 1.0003 ms */
	assert_int_equal(r.core_depth_ns[3], 2000000 - 1000300);
	assert_int_equal(r.core_depth_ns[0], 2000000 + 1000300);
	assert_int_equal(r.pkg_depth_ns[0], 2000000);
	il_sim_result_free(&r);
}

/*
 * A burst of cycles + ns: the ns part runs first and does not scale; only
 * the cycles are re-timed. The other three CPUs are in C6 from 300 ns, so
 * the package goes from 3000 to 3600 MHz at the 100 us re-evaluation.
 */
static void mixed_work(void **unused)
{
	(void)unused;
	struct il_sim_result r;
	/* 50 us of ns, then cycles from 50 us: 150000 at 3000 MHz by 100 us, 2850000 at 3600 */
	assert_int_equal(run_work(2, 2, 2, 3000000, 50000, &r), 100000 + 791667);
	il_sim_result_free(&r);
	/* the ns part outlasts the change: all 3000000 cycles at 3600 MHz from 150 us */
	assert_int_equal(run_work(2, 2, 2, 3000000, 150000, &r), 150000 + 833333);
	il_sim_result_free(&r);
	/* ns alone: the same at any frequency */
	assert_int_equal(run_work(2, 2, 2, 0, 200000, &r), 200000);
	il_sim_result_free(&r);
	assert_int_equal(run_work(1, 1, 1, 0, 200000, &r), 200000);
	assert_int_equal(r.freq_ns[0], 2000000); /* 3000 MHz throughout: all cores active */
	il_sim_result_free(&r);
	/* and cycles alone at 3000 MHz throughout: 1 ms */
	assert_int_equal(run_work(1, 1, 1, 3000000, 0, &r), 1000000);
	il_sim_result_free(&r);
}

static void bin_lookup(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	const char *t = "[platform]\nname = b\n[turbo]\n1 = 3600\n4 = 3000\n6 = 2800\n";
	assert_int_equal(il_platform_load_string(&p, t, strlen(t), "b.ini", &e), 0);
	assert_true(il_turbo_mhz(&p, 1, 1) == 3600);
	assert_true(il_turbo_mhz(&p, 2, 1) == 3000);   /* gap: the next listed count above */
	assert_true(il_turbo_mhz(&p, 4, 1) == 3000);
	assert_true(il_turbo_mhz(&p, 5, 1) == 2800);
	assert_true(il_turbo_mhz(&p, 64, 1) == 2800);  /* beyond the table: its last bin */
	assert_true(il_turbo_mhz(&p, 0, 1) == 3600);
	t = "[platform]\nname = b\n[cpu]\nbase_mhz = 2100\n";
	assert_int_equal(il_platform_load_string(&p, t, strlen(t), "b.ini", &e), 0);
	assert_true(il_turbo_mhz(&p, 3, 1) == 2100);
	t = "[platform]\nname = b\n";
	assert_int_equal(il_platform_load_string(&p, t, strlen(t), "b.ini", &e), 0);
	assert_true(il_turbo_mhz(&p, 3, 1234) == 1234);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smt_bins),
		cmocka_unit_test(mixed_work),
		cmocka_unit_test(bin_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
