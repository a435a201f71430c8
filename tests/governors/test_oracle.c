// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle and oracle-energy on small tables, expectations derived by hand.
 *
 * Table E:  idx  el (ns)   residency (ns)  power_w  transition_j
 *            0       0           0          5.0       0
 *            1    1000        2000          3.0       1e-6
 *            2   50000      200000          0.5      50e-6
 *            3  200000     1000000          0.1     200e-6
 * Energy over T seconds: E_i = P_i * T + J_i.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

#define BIG_LAT_NS (2000000000LL * 1000)
#define TICK_NS 1000000 /* HZ=1000 */

struct fx {
	struct il_driver drv;
	struct il_device dev;
	struct il_gov *gov;
	struct il_idle_inputs in;
};

static void set_state(struct il_driver *drv, int i, int64_t el, int64_t tr, double w,
		      double j)
{
	struct il_state *s = &drv->states[i];

	snprintf(s->name, sizeof(s->name), "S%d", i);
	s->flags = i == 0 ? IL_FLAG_POLLING : 0;
	s->exit_latency_ns = el;
	s->target_residency_ns = tr;
	s->power_usage = -1;
	s->power_w = w;
	s->transition_j = j;
	if (drv->state_count <= i)
		drv->state_count = i + 1;
}

static void fx_start(struct fx *f, const char *spec)
{
	struct il_err err;

	memset(f, 0, sizeof(*f));
	set_state(&f->drv, 0, 0, 0, 5.0, 0);
	set_state(&f->drv, 1, 1000, 2000, 3.0, 1e-6);
	set_state(&f->drv, 2, 50000, 200000, 0.5, 50e-6);
	set_state(&f->drv, 3, 200000, 1000000, 0.1, 200e-6);
	il_device_init(&f->dev, &f->drv, 0);
	f->gov = il_gov_new(spec, 1, &err);
	if (!f->gov)
		fail_msg("il_gov_new(%s): %s", spec, err.msg);
	f->in.latency_req_ns = BIG_LAT_NS;
	f->in.tick_nsec = TICK_NS;
	f->in.true_idle_ns = -1;
	il_gov_enable(f->gov, 0, &f->drv, &f->dev);
}

static int pick(struct fx *f, int64_t true_idle_ns, bool *stop)
{
	bool dummy;

	if (!stop)
		stop = &dummy;
	*stop = true;
	f->in.true_idle_ns = true_idle_ns;
	return il_gov_select(f->gov, 0, &f->drv, &f->dev, &f->in, stop);
}

static void ops_tables(void **s)
{
	(void)s;
	const struct il_gov_ops *o = il_gov_find("oracle"), *e = il_gov_find("oracle-energy");

	assert_non_null(o);
	assert_non_null(e);
	assert_int_equal(o->rating, 0);
	assert_int_equal(e->rating, 0);
	assert_int_equal(o->npresets, 1);
	assert_int_equal(e->npresets, 1);
	assert_string_equal(o->presets[0].release, "1");
	assert_string_equal(e->presets[0].release, "1");
}

/* The deepest usable state whose residency fits; equal fits. */
static void oracle_fit(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle");
	assert_int_equal(pick(&f, 0, NULL), 0);
	assert_int_equal(pick(&f, 1999, NULL), 0);
	assert_int_equal(pick(&f, 2000, NULL), 1);
	assert_int_equal(pick(&f, 199999, NULL), 1);
	assert_int_equal(pick(&f, 200000, NULL), 2);
	assert_int_equal(pick(&f, 999999, NULL), 2);
	assert_int_equal(pick(&f, 1000000, NULL), 3);
	assert_int_equal(pick(&f, INT64_MAX, NULL), 3);
	il_gov_free(f.gov);
}

static void oracle_limits(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle");
	/* latency: el(3) = 200 000 > 199 999 */
	f.in.latency_req_ns = 199999;
	assert_int_equal(pick(&f, 5000000, NULL), 2);
	f.in.latency_req_ns = 200000;
	assert_int_equal(pick(&f, 5000000, NULL), 3);
	/* latency 0: only the poll state */
	f.in.latency_req_ns = 0;
	assert_int_equal(pick(&f, 5000000, NULL), 0);
	f.in.latency_req_ns = BIG_LAT_NS;
	/* disabled states are skipped, shallower ones chosen */
	il_device_set_user_disable(&f.dev, 3, true);
	assert_int_equal(pick(&f, 5000000, NULL), 2);
	il_device_set_user_disable(&f.dev, 2, true);
	assert_int_equal(pick(&f, 5000000, NULL), 1);
	/* nothing fits 1 000 ns but state 0, which is disabled: shallowest usable = 1 */
	il_device_set_user_disable(&f.dev, 0, true);
	assert_int_equal(pick(&f, 1000, NULL), 1);
	/* latency 0 with the poll state disabled: none usable, shallowest enabled */
	f.in.latency_req_ns = 0;
	assert_int_equal(pick(&f, 5000000, NULL), 1);
	/* all disabled: 0 */
	il_device_set_user_disable(&f.dev, 1, true);
	assert_int_equal(pick(&f, 5000000, NULL), 0);
	il_gov_free(f.gov);
}

/* Unknown true idle (-1): the shallowest usable state. */
static void oracle_unknown(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle");
	assert_int_equal(pick(&f, -1, NULL), 0);
	assert_int_equal(pick(&f, -12345, NULL), 0);
	il_device_set_user_disable(&f.dev, 0, true);
	assert_int_equal(pick(&f, -1, NULL), 1);
	il_gov_free(f.gov);
}

/* stop_tick: true idle >= a tick; unknown: chosen residency >= a tick. */
static void oracle_tick(void **s)
{
	(void)s;
	struct fx f;
	bool stop;

	fx_start(&f, "oracle");
	pick(&f, 999999, &stop);
	assert_false(stop);
	pick(&f, 1000000, &stop);
	assert_true(stop);
	pick(&f, 500000, &stop);   /* state 2 chosen, period shorter than a tick */
	assert_false(stop);
	f.in.latency_req_ns = 0;   /* poll for 5 ms: still a long period, stop it */
	assert_int_equal(pick(&f, 5000000, &stop), 0);
	assert_true(stop);
	f.in.latency_req_ns = BIG_LAT_NS;
	pick(&f, -1, &stop);       /* unknown, state 0 residency 0 < tick */
	assert_false(stop);
	for (int i = 0; i < 3; i++)
		il_device_set_user_disable(&f.dev, i, true);
	assert_int_equal(pick(&f, -1, &stop), 3); /* residency 1 000 000 >= tick */
	assert_true(stop);
	/* HZ unknown: untouched either way */
	f.in.tick_nsec = 0;
	stop = false;
	f.in.true_idle_ns = 5000000;
	il_gov_select(f.gov, 0, &f.drv, &f.dev, &f.in, &stop);
	assert_false(stop);
	il_gov_free(f.gov);
}

/*
 * T = 10 us: E0 5e-5, E1 3.1e-5, E2 5.5e-5, E3 2.01e-4 -> 1
 * T = 150 us: E0 7.5e-4, E1 4.51e-4, E2 1.25e-4, E3 2.15e-4 -> 2 (oracle: 1)
 * T = 300 us: E2 2.0e-4, E3 2.3e-4 -> 2
 * T = 500 us: E2 3.0e-4, E3 2.5e-4 -> 3 (oracle: 2; break-even 375 us)
 * T = 0: E0 0, E1 1e-6 -> 0
 */
static void energy_choices(void **s)
{
	(void)s;
	struct fx f, o;

	fx_start(&f, "oracle-energy");
	fx_start(&o, "oracle");
	assert_int_equal(pick(&f, 10000, NULL), 1);
	assert_int_equal(pick(&f, 150000, NULL), 2);
	assert_int_equal(pick(&o, 150000, NULL), 1);
	assert_int_equal(pick(&f, 300000, NULL), 2);
	assert_int_equal(pick(&f, 500000, NULL), 3);
	assert_int_equal(pick(&o, 500000, NULL), 2);
	assert_int_equal(pick(&f, 0, NULL), 0);
	il_gov_free(o.gov);

	/* shallower than oracle: residency of 3 cut to 300 us, T = 350 us:
	 * E2 = 1.75e-4 + 5e-5 = 2.25e-4 < E3 = 3.5e-5 + 2e-4 = 2.35e-4 */
	f.drv.states[3].target_residency_ns = 300000;
	assert_int_equal(pick(&f, 350000, NULL), 2);
	fx_start(&o, "oracle");
	o.drv.states[3].target_residency_ns = 300000;
	assert_int_equal(pick(&o, 350000, NULL), 3);
	il_gov_free(o.gov);
	il_gov_free(f.gov);
}

static void energy_limits(void **s)
{
	(void)s;
	struct fx f;
	bool stop;

	fx_start(&f, "oracle-energy");
	/* latency: only 0 and 1 usable at T = 150 us -> 1 */
	f.in.latency_req_ns = 10000;
	assert_int_equal(pick(&f, 150000, NULL), 1);
	f.in.latency_req_ns = 0;
	assert_int_equal(pick(&f, 150000, NULL), 0);
	f.in.latency_req_ns = BIG_LAT_NS;
	/* disabled 2 at T = 150 us: E0 7.5e-4, E1 4.51e-4, E3 2.15e-4 -> 3 */
	il_device_set_user_disable(&f.dev, 2, true);
	assert_int_equal(pick(&f, 150000, &stop), 3);
	assert_false(stop); /* 150 us < tick */
	assert_int_equal(pick(&f, 2000000, &stop), 3);
	assert_true(stop);
	/* unknown true idle: shallowest usable */
	assert_int_equal(pick(&f, -1, NULL), 0);
	il_gov_free(f.gov);
}

/* Unknown power of a usable state: oracle's rule; of an unusable one: ignored. */
static void energy_unknown_power(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle-energy");
	f.drv.states[2].power_w = -1;
	assert_int_equal(pick(&f, 150000, NULL), 1);   /* oracle: residency 200 us > 150 us */
	assert_int_equal(pick(&f, 5000000, NULL), 3);
	il_device_set_user_disable(&f.dev, 2, true);   /* the unknown one is out */
	assert_int_equal(pick(&f, 150000, NULL), 3);   /* energy again, see energy_limits */
	il_gov_free(f.gov);

	fx_start(&f, "oracle-energy");
	f.drv.states[0].power_w = -1;                  /* unknown poll power */
	assert_int_equal(pick(&f, 500000, NULL), 2);   /* oracle's 2, not energy's 3 */
	il_gov_free(f.gov);
}

/*
 * Unknown transition energy counts as 0 J: state 3 at 10 W with J = -1 at
 * T = 10 us costs 1e-4 J, more than E1 = 3.1e-5; as -1 J it would win.
 */
static void energy_unknown_transition(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle-energy");
	f.drv.states[3].power_w = 10.0;
	f.drv.states[3].transition_j = -1;
	assert_int_equal(pick(&f, 10000, NULL), 1);
	/* with 0.01 W and J unknown: E3 = 1e-7 J, the least */
	f.drv.states[3].power_w = 0.01;
	assert_int_equal(pick(&f, 10000, NULL), 3);
	il_gov_free(f.gov);
}

/* Equal energy: the shallower state wins. */
static void energy_tie(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "oracle-energy");
	f.drv.states[0].power_w = 1.0;
	f.drv.states[1].power_w = 1.0;
	f.drv.states[1].transition_j = 0;
	f.drv.states[2].power_w = 1.0;
	f.drv.states[2].transition_j = 0;
	f.drv.states[3].power_w = 1.0;
	f.drv.states[3].transition_j = 0;
	assert_int_equal(pick(&f, 5000000, NULL), 0);
	il_gov_free(f.gov);
}

static void configure_rules(void **s)
{
	(void)s;
	struct il_err err;
	struct il_gov *g;
	char buf[128];

	g = il_gov_new("oracle@1", 1, &err);
	assert_non_null(g);
	assert_string_equal(g->spec, "oracle@1");
	il_gov_describe(g, buf, sizeof(buf));
	assert_string_equal(buf, "oracle@1 (model governor: the deepest usable state fitting "
			    "the true idle time)");
	il_gov_free(g);
	g = il_gov_new("oracle-energy", 1, &err);
	assert_non_null(g);
	assert_string_equal(g->spec, "oracle-energy@1");
	il_gov_free(g);
	assert_null(il_gov_new("oracle@7.1", 1, &err));
	assert_null(il_gov_new("oracle+x", 1, &err));
	assert_non_null(strstr(err.msg, "no patches"));
	assert_null(il_gov_new("oracle-energy+x=1", 1, &err));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(ops_tables),
		cmocka_unit_test(oracle_fit),
		cmocka_unit_test(oracle_limits),
		cmocka_unit_test(oracle_unknown),
		cmocka_unit_test(oracle_tick),
		cmocka_unit_test(energy_choices),
		cmocka_unit_test(energy_limits),
		cmocka_unit_test(energy_unknown_power),
		cmocka_unit_test(energy_unknown_transition),
		cmocka_unit_test(energy_tie),
		cmocka_unit_test(configure_rules),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
