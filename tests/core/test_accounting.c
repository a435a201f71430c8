// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core's rules, case by case, with hand-computed expectations:
 * driver normalisation, device init, cpuidle_enter_state accounting
 * (above/below scans, rejected), find_deepest_state, cpuidle_poll_time,
 * PM QoS latency request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "idlelab/device.h"
#include "idlelab/duration.h"
#include "idlelab/release.h"
#include "idlelab/state.h"

/* POLL 0/0, C1 2/2, C1E 10/20, C3 33/100, C6 133/400 (µs), as intel_idle hsw */
static void hsw(struct il_driver *drv)
{
	static const struct { const char *n; unsigned lat, res, flags; } t[] = {
		{ "C1", 2, 2, 0 }, { "C1E", 10, 20, 0 },
		{ "C3", 33, 100, IL_FLAG_TLB_FLUSHED | IL_FLAG_TIMER_STOP },
		{ "C6", 133, 400, IL_FLAG_TLB_FLUSHED | IL_FLAG_TIMER_STOP },
	};
	memset(drv, 0, sizeof(*drv));
	il_poll_state_init(&drv->states[0]);
	for (int i = 0; i < 4; i++) {
		struct il_state *s = &drv->states[i + 1];
		strcpy(s->name, t[i].n);
		s->exit_latency = t[i].lat;
		s->target_residency = t[i].res;
		s->flags = t[i].flags;
	}
	drv->state_count = 5;
	il_driver_init(drv);
}

static void normalisation(void **unused)
{
	(void)unused;
	struct il_driver drv;
	hsw(&drv);
	assert_int_equal(drv.states[0].exit_latency_ns, 0);
	assert_int_equal(drv.states[1].exit_latency_ns, 2000);
	assert_int_equal(drv.states[4].target_residency_ns, 400000);
	assert_true(drv.bctimer);
	assert_string_equal(drv.states[0].name, "POLL");
	assert_string_equal(drv.states[0].desc, "CPUIDLE CORE POLL IDLE");
	assert_int_equal(drv.states[0].power_usage, -1);

	/* ns given: µs derived by truncation; negative ns clamped to 0 */
	struct il_driver d2;
	memset(&d2, 0, sizeof(d2));
	d2.state_count = 3;
	d2.states[0].exit_latency_ns = 1999;
	d2.states[0].target_residency_ns = 2500;
	d2.states[1].exit_latency_ns = -5;
	d2.states[1].target_residency_ns = -1;
	d2.states[2].exit_latency = 7;           /* µs wins over ns */
	d2.states[2].exit_latency_ns = 123;
	il_driver_init(&d2);
	assert_int_equal(d2.states[0].exit_latency, 1);
	assert_int_equal(d2.states[0].target_residency, 2);
	assert_int_equal(d2.states[1].exit_latency_ns, 0);
	assert_int_equal(d2.states[1].target_residency_ns, 0);
	assert_int_equal(d2.states[2].exit_latency_ns, 7000);
	assert_false(d2.bctimer);
}

static void device_init_flags(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	drv.states[2].flags |= IL_FLAG_OFF;
	drv.states[3].flags |= IL_FLAG_UNUSABLE;
	il_device_init(&dev, &drv, 3);
	assert_int_equal(dev.cpu, 3);
	assert_int_equal(dev.states_usage[2].disable, IL_DISABLE_BY_USER);
	assert_int_equal(dev.states_usage[3].disable, IL_DISABLE_BY_DRIVER);
	assert_int_equal(dev.states_usage[1].disable, 0);
	assert_int_equal(dev.last_residency_ns, 0);
	/* user re-enabling an OFF state clears the user bit only */
	dev.poll_limit_ns = 12345;
	il_device_set_user_disable(&dev, 2, false);
	il_device_set_user_disable(&dev, 3, false);
	assert_int_equal(dev.states_usage[2].disable, 0);
	assert_int_equal(dev.states_usage[3].disable, IL_DISABLE_BY_DRIVER);
	assert_true(il_state_disabled(&dev, 3));
	assert_int_equal(dev.poll_limit_ns, 0);
}

static void account_plain(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);

	/* C1E (10/20 µs) for 50 µs: not above; 50-10=40 < C3's 100 → no below */
	assert_int_equal(il_account_enter(&drv, &dev, 2, 2, 50000), 2);
	assert_int_equal(dev.last_residency_ns, 50000);
	assert_int_equal(dev.states_usage[2].usage, 1);
	assert_int_equal(dev.states_usage[2].time_ns, 50000);
	assert_int_equal(dev.states_usage[2].above, 0);
	assert_int_equal(dev.states_usage[2].below, 0);

	/* C1E for 110 µs: 110-10 = 100 >= 100 → below */
	il_account_enter(&drv, &dev, 2, 2, 110000);
	assert_int_equal(dev.states_usage[2].below, 1);
	/* exactly one below it: 109999-10000 = 99999 < 100000 */
	il_account_enter(&drv, &dev, 2, 2, 109999);
	assert_int_equal(dev.states_usage[2].below, 1);

	/* C3 (33/100) for 99.999 µs: above (C1E enabled) */
	il_account_enter(&drv, &dev, 3, 3, 99999);
	assert_int_equal(dev.states_usage[3].above, 1);
	/* exactly the target residency: not above; 100-33 < 400: not below */
	il_account_enter(&drv, &dev, 3, 3, 100000);
	assert_int_equal(dev.states_usage[3].above, 1);
	assert_int_equal(dev.states_usage[3].below, 0);
	assert_int_equal(dev.states_usage[3].usage, 2);
	assert_int_equal(dev.states_usage[3].time_ns, 199999);
}

static void account_above_scan(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);

	/* state 0 can never be above */
	drv.states[0].target_residency_ns = 1000; /* artificial */
	il_account_enter(&drv, &dev, 0, 0, 10);
	assert_int_equal(dev.states_usage[0].above, 0);
	drv.states[0].target_residency_ns = 0;

	/* C6 short, C3 disabled, C1E enabled → above (scan skips C3) */
	dev.states_usage[3].disable = IL_DISABLE_BY_USER;
	il_account_enter(&drv, &dev, 4, 4, 1000);
	assert_int_equal(dev.states_usage[4].above, 1);

	/* all shallower disabled → no above */
	for (int i = 0; i < 4; i++)
		dev.states_usage[i].disable = IL_DISABLE_BY_USER;
	il_account_enter(&drv, &dev, 4, 4, 1000);
	assert_int_equal(dev.states_usage[4].above, 1);
	assert_int_equal(dev.states_usage[4].usage, 2);

	/* only POLL enabled below: still above */
	dev.states_usage[0].disable = 0;
	il_account_enter(&drv, &dev, 4, 4, 1000);
	assert_int_equal(dev.states_usage[4].above, 2);
}

static void account_below_scan(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);

	/* C1 (2/2) for 150 µs, C1E disabled: nearest enabled deeper is C3 (100):
	 * 150-2 = 148 >= 100 → below */
	dev.states_usage[2].disable = IL_DISABLE_BY_DRIVER;
	il_account_enter(&drv, &dev, 1, 1, 150000);
	assert_int_equal(dev.states_usage[1].below, 1);
	/* 101 µs: 99 < 100 → not below even though C1E (20) would fit: C1E disabled */
	il_account_enter(&drv, &dev, 1, 1, 101000);
	assert_int_equal(dev.states_usage[1].below, 1);

	/* only the nearest enabled deeper state is tested: C1E enabled (20),
	 * 15 µs: 13 < 20 → no below even if ... (nothing deeper fits anyway) */
	dev.states_usage[2].disable = 0;
	il_account_enter(&drv, &dev, 1, 1, 15000);
	assert_int_equal(dev.states_usage[1].below, 1);
	il_account_enter(&drv, &dev, 1, 1, 22000); /* 20 >= 20 */
	assert_int_equal(dev.states_usage[1].below, 2);

	/* deepest state: no deeper → never below */
	il_account_enter(&drv, &dev, 4, 4, 100000000);
	assert_int_equal(dev.states_usage[4].below, 0);

	/* all deeper disabled → no below */
	dev.states_usage[2].disable = dev.states_usage[3].disable =
		dev.states_usage[4].disable = IL_DISABLE_BY_USER;
	il_account_enter(&drv, &dev, 1, 1, 100000000);
	assert_int_equal(dev.states_usage[1].below, 2);

	/* diff <= delay: neither (C3 33 µs latency, residency 100 > 33: use a
	 * state whose residency is below its latency) */
	struct il_driver d;
	memset(&d, 0, sizeof(d));
	d.state_count = 3;
	il_poll_state_init(&d.states[0]);
	d.states[1].exit_latency = 50;
	d.states[1].target_residency = 10;
	d.states[2].exit_latency = 60;
	d.states[2].target_residency = 1;
	il_driver_init(&d);
	struct il_device dv;
	il_device_init(&dv, &d, 0);
	il_account_enter(&d, &dv, 1, 1, 50000); /* 10 <= 50 <= 50 */
	assert_int_equal(dv.states_usage[1].above, 0);
	assert_int_equal(dv.states_usage[1].below, 0);
	il_account_enter(&d, &dv, 1, 1, 50001); /* 1 ns over: 1 >= 1000? no */
	assert_int_equal(dv.states_usage[1].below, 0);
	il_account_enter(&d, &dv, 1, 1, 51000); /* 1000 >= 1000 */
	assert_int_equal(dv.states_usage[1].below, 1);
}

static void account_rejected(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);
	il_account_enter(&drv, &dev, 3, 3, 500000);
	assert_int_equal(dev.last_residency_ns, 500000);
	assert_int_equal(il_account_enter(&drv, &dev, 3, -EBUSY, 999), -EBUSY);
	assert_int_equal(dev.last_residency_ns, 0);
	assert_int_equal(dev.states_usage[3].rejected, 1);
	assert_int_equal(dev.states_usage[3].usage, 1);
	assert_int_equal(dev.states_usage[3].time_ns, 500000);

	/* a driver that demotes: requested 4, entered 2 → counted on 2 */
	il_account_enter(&drv, &dev, 4, 2, 30000);
	assert_int_equal(dev.states_usage[2].usage, 1);
	assert_int_equal(dev.states_usage[4].usage, 0);

	/* aborted entry (need_resched in call_cpuidle): nothing counted */
	il_account_aborted(&dev);
	assert_int_equal(dev.last_residency_ns, 0);
	assert_int_equal(dev.states_usage[3].rejected, 1);
}

/*
 * ->enter returning 0 is an entry of state 0, not an error: only a
 * negative return is rejected (cpuidle_enter_state() tests
 * entered_state >= 0). POLL (0/0) for 5 µs: counted with its time, not
 * above (nothing is shallower), below since 5 - 0 >= C1's 2 µs; the
 * residency is kept for the governor. A state-1 request that the driver
 * demotes to 0 is counted on state 0 the same way.
 */
static void account_state0_entry(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);

	assert_int_equal(il_account_enter(&drv, &dev, 0, 0, 5000), 0);
	assert_int_equal(dev.last_residency_ns, 5000);
	assert_int_equal(dev.states_usage[0].usage, 1);
	assert_int_equal(dev.states_usage[0].time_ns, 5000);
	assert_int_equal(dev.states_usage[0].rejected, 0);
	assert_int_equal(dev.states_usage[0].above, 0);
	assert_int_equal(dev.states_usage[0].below, 1);

	assert_int_equal(il_account_enter(&drv, &dev, 1, 0, 1500), 0);
	assert_int_equal(dev.last_residency_ns, 1500);
	assert_int_equal(dev.states_usage[0].usage, 2);
	assert_int_equal(dev.states_usage[0].time_ns, 6500);
	assert_int_equal(dev.states_usage[0].below, 1);   /* 1.5 µs < C1's 2 µs */
	assert_int_equal(dev.states_usage[0].rejected, 0);
	assert_int_equal(dev.states_usage[1].rejected, 0);
	assert_int_equal(dev.states_usage[1].usage, 0);
}

static void deepest_state(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);

	assert_int_equal(il_find_deepest_state(&drv, &dev, UINT64_MAX, 0, false), 4);
	/* latency limit is inclusive */
	assert_int_equal(il_find_deepest_state(&drv, &dev, 33000, 0, false), 3);
	assert_int_equal(il_find_deepest_state(&drv, &dev, 32999, 0, false), 2);
	assert_int_equal(il_find_deepest_state(&drv, &dev, 0, 0, false), 0);
	/* forbidden flags (broadcast fallback) */
	assert_int_equal(il_find_deepest_state(&drv, &dev, 133000, IL_FLAG_TIMER_STOP, false), 2);
	/* disabled skipped */
	dev.states_usage[4].disable = IL_DISABLE_BY_USER;
	assert_int_equal(il_find_deepest_state(&drv, &dev, UINT64_MAX, 0, false), 3);
	/* s2idle needs enter_s2idle */
	drv.states[2].has_s2idle = true;
	assert_int_equal(il_find_deepest_state(&drv, &dev, UINT64_MAX, 0, true), 2);
	/* strictly increasing latency: a deeper state with equal latency is skipped */
	drv.states[4].exit_latency_ns = 33000;
	dev.states_usage[4].disable = 0;
	assert_int_equal(il_find_deepest_state(&drv, &dev, UINT64_MAX, 0, false), 3);
	/* zero-latency states after state 0 are skipped (lat 0 <= 0) */
	struct il_driver d;
	memset(&d, 0, sizeof(d));
	d.state_count = 2;
	il_poll_state_init(&d.states[0]);
	d.states[1].exit_latency_ns = 0;
	il_device_init(&dev, &d, 0);
	assert_int_equal(il_find_deepest_state(&d, &dev, UINT64_MAX, 0, false), 0);
}

static void poll_time(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	hsw(&drv);
	il_device_init(&dev, &drv, 0);
	int64_t tick1000 = il_tick_nsec(1000), tick250 = il_tick_nsec(250);

	assert_int_equal(tick1000, 1000000);
	assert_int_equal(tick250, 4000000);
	assert_int_equal(il_tick_nsec(300), 3333333);
	assert_int_equal(il_tick_nsec(100), 10000000);

	/* C1 (2 µs) and C1E (20 µs): C1 < 10 µs is skipped, C1E gives 20 µs */
	assert_int_equal(il_poll_time(&drv, &dev, tick1000), 20000);
	/* cached: changing the table does not matter until a sysfs write */
	drv.states[2].target_residency_ns = 5000;
	assert_int_equal(il_poll_time(&drv, &dev, tick1000), 20000);
	il_device_set_user_disable(&dev, 2, false);
	/* now C1E 5 µs skipped too → C3 100 µs, capped at TICK_NSEC/16 = 62500 */
	assert_int_equal(il_poll_time(&drv, &dev, tick1000), 62500);
	dev.poll_limit_ns = 0;
	assert_int_equal(il_poll_time(&drv, &dev, tick250), 100000);
	/* disabled states skipped; none left → TICK_NSEC/16 */
	dev.poll_limit_ns = 0;
	dev.states_usage[3].disable = dev.states_usage[4].disable = IL_DISABLE_BY_USER;
	assert_int_equal(il_poll_time(&drv, &dev, tick250), 250000);
	/* exactly CPUIDLE_POLL_MIN counts */
	dev.poll_limit_ns = 0;
	drv.states[1].target_residency_ns = 10000;
	assert_int_equal(il_poll_time(&drv, &dev, tick1000), 10000);
	/* haltpoll sets the cache itself: returned as is */
	dev.poll_limit_ns = 200000;
	assert_int_equal(il_poll_time(&drv, &dev, tick1000), 200000);
}

/*
 * cpuidle_poll_time() by release: v5.4 takes the last enabled state >= 1
 * (its loop has no break), 36fcb4292473 (v5.5-rc2) the first, and
 * 7a25759eaa04 (v5.11) the first of at least 10 µs capped at TICK_NSEC/16.
 * Before v5.11 the default with no enabled state is TICK_NSEC, uncapped.
 */
static void poll_time_by_release(void **unused)
{
	(void)unused;
	struct il_driver drv;
	struct il_device dev;
	int64_t tick1000 = il_tick_nsec(1000);

	assert_int_equal(il_poll_rule_for_release("5.4"), IL_POLL_RULE_LAST_ENABLED);
	assert_int_equal(il_poll_rule_for_release("5.5"), IL_POLL_RULE_FIRST_ENABLED);
	assert_int_equal(il_poll_rule_for_release("5.10"), IL_POLL_RULE_FIRST_ENABLED);
	assert_int_equal(il_poll_rule_for_release("5.11"), IL_POLL_RULE_MIN_10US_CAPPED);
	assert_int_equal(il_poll_rule_for_release("7.1"), IL_POLL_RULE_MIN_10US_CAPPED);

	hsw(&drv);      /* POLL, C1 2 µs, C1E 20 µs, C3 100 µs, C6 400 µs */
	il_driver_init(&drv);
	il_device_init(&dev, &drv, 0);
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_LAST_ENABLED), 400000);
	dev.poll_limit_ns = 0;
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_FIRST_ENABLED), 2000);
	dev.poll_limit_ns = 0;
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_MIN_10US_CAPPED),
			 20000);
	/* C6 disabled: the last enabled is C3; C1 disabled: the first is C1E */
	il_device_set_user_disable(&dev, 4, true);
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_LAST_ENABLED), 100000);
	il_device_set_user_disable(&dev, 1, true);
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_FIRST_ENABLED), 20000);
	/* nothing enabled: TICK_NSEC before v5.11, TICK_NSEC / 16 after */
	for (int i = 1; i < 5; i++)
		il_device_set_user_disable(&dev, i, true);
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_LAST_ENABLED), 1000000);
	dev.poll_limit_ns = 0;
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_FIRST_ENABLED), 1000000);
	dev.poll_limit_ns = 0;
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_MIN_10US_CAPPED),
			 62500);
	/* v5.4 reads the int µs residency: 2500 ns is 2 µs */
	hsw(&drv);
	drv.states[2].target_residency = 0;
	drv.states[2].target_residency_ns = 2500;
	drv.state_count = 3;
	il_device_init(&dev, &drv, 0);
	assert_int_equal(il_poll_time_rule(&drv, &dev, tick1000, IL_POLL_RULE_LAST_ENABLED), 2000);
}

static void qos(void **unused)
{
	(void)unused;
	struct il_qos q;
	il_qos_init(&q);
	assert_int_equal(il_latency_req_ns(&q), 2000000000ll * 1000);
	q.resume_latency_us = 20;
	assert_int_equal(il_latency_req_ns(&q), 20000);
	q.cpu_latency_us = 0;
	assert_int_equal(il_latency_req_ns(&q), 0);
	q.cpu_latency_us = IL_QOS_DEFAULT_GLOBAL_US;
	q.resume_latency_us = IL_QOS_DEFAULT_DEV_US;
	assert_int_equal(il_latency_req_ns(&q), 2000000000ll * 1000);
}

static void flags_and_dists(void **unused)
{
	(void)unused;
	unsigned f;
	struct il_err e;
	char buf[128];
	assert_int_equal(il_state_flags_parse("polling", &f, &e), 0);
	assert_int_equal(f, IL_FLAG_POLLING);
	assert_int_equal(il_state_flags_parse("TIMER_STOP|tlb-flushed, off", &f, &e), 0);
	assert_int_equal(f, IL_FLAG_TIMER_STOP | IL_FLAG_TLB_FLUSHED | IL_FLAG_OFF);
	assert_int_equal(il_state_flags_parse("", &f, &e), 0);
	assert_int_equal(f, 0);
	assert_int_equal(il_state_flags_parse("bogus", &f, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "BOGUS"));
	assert_string_equal(il_state_flags_str(IL_FLAG_POLLING | IL_FLAG_OFF, buf, sizeof(buf)),
			    "POLLING|OFF");

	struct il_dist d;
	assert_int_equal(il_dist_parse("1200", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_CONST);
	assert_true(d.a == 1200);
	assert_int_equal(il_dist_parse("2us", &d, &e), 0);
	assert_true(d.a == 2000);
	assert_int_equal(il_dist_parse("0", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_NONE);
	assert_int_equal(il_dist_parse("uniform:800:1.2us", &d, &e), 0);
	assert_int_equal(d.kind, IL_DIST_UNIFORM);
	assert_true(d.b == 1200);
	assert_true(il_dist_mean(&d) == 1000);
	assert_int_equal(il_dist_parse("lognormal:1000:0.5", &d, &e), 0);
	assert_int_equal(il_dist_parse("uniform:9:1", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("gamma:1:2", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("normal:5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("-5", &d, &e), -EINVAL);
	assert_int_equal(il_dist_parse("abc", &d, &e), -EINVAL);
}

static void durations_and_releases(void **unused)
{
	(void)unused;
	int64_t ns;
	assert_int_equal(il_parse_duration_ns("20us", &ns), 0);
	assert_int_equal(ns, 20000);
	assert_int_equal(il_parse_duration_ns("15000", &ns), 0);
	assert_int_equal(ns, 15000);
	assert_int_equal(il_parse_duration_ns("1.5ms", &ns), 0);
	assert_int_equal(ns, 1500000);
	assert_int_equal(il_parse_duration_ns("2s", &ns), 0);
	assert_int_equal(ns, 2000000000);
	assert_int_not_equal(il_parse_duration_ns("us", &ns), 0);
	assert_int_not_equal(il_parse_duration_ns("12parsecs", &ns), 0);
	/*
	 * il_parse_duration's bare numbers are in the caller's unit whatever
	 * their form: latency --gap 1e3 is 1000 us, as --gap 1000 is (a sign
	 * or an exponent made it a count of ns)
	 */
	assert_int_equal(il_parse_duration("1000", true, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(il_parse_duration("1e3", true, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(il_parse_duration("1E3", true, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(il_parse_duration("+1000", true, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(il_parse_duration("2.5e-1", true, &ns), 0);
	assert_int_equal(ns, 250);
	assert_int_equal(il_parse_duration("1e3us", true, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(il_parse_duration("1e3ns", true, &ns), 0);
	assert_int_equal(ns, 1000);
	assert_int_equal(il_parse_duration("1e3", false, &ns), 0);
	assert_int_equal(ns, 1000);
	assert_int_not_equal(il_parse_duration("1e30", true, &ns), 0);
	assert_int_not_equal(il_parse_duration("99999999999999999999", true, &ns), 0);
	assert_int_not_equal(il_parse_duration("-1", true, &ns), 0);
	assert_int_not_equal(il_parse_duration("inf", true, &ns), 0);
	assert_int_not_equal(il_parse_duration("nan", true, &ns), 0);
	assert_int_not_equal(il_parse_duration(" 5", true, &ns), 0);
	assert_true(il_release_cmp("6.12", "6.2") > 0);
	assert_true(il_release_cmp("6.1", "6.12") < 0);
	assert_true(il_release_cmp("7.1", "7.1") == 0);
	assert_true(il_release_cmp("6", "6.1") < 0);
	assert_true(il_release_cmp("6.18", "7.0") < 0);
}

/* Only mainline tags in the modelled range pass il_release_check(). */
static void release_check(void **unused)
{
	(void)unused;
	struct il_err err;
	const char *good[] = { "5.4", "5.19", "6.0", "6.12", "6.19", "7.0", "7.1" };
	const char *bad[] = { "banana", "2.6", "99.0", "5.3", "5.20", "6.20", "7.2", "8.0",
			      "6.1.1", "6.", ".6", "6.01", "06.1", "6.1x", "", "6,1", "+6.1" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(il_release_check(good[i], &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(il_release_check(bad[i], &err), -EINVAL);
		assert_non_null(strstr(err.msg, "5.4"));
	}
	assert_int_equal(il_release_check(NULL, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(normalisation),
		cmocka_unit_test(device_init_flags),
		cmocka_unit_test(account_plain),
		cmocka_unit_test(account_above_scan),
		cmocka_unit_test(account_below_scan),
		cmocka_unit_test(account_rejected),
		cmocka_unit_test(account_state0_entry),
		cmocka_unit_test(deepest_state),
		cmocka_unit_test(poll_time),
		cmocka_unit_test(poll_time_by_release),
		cmocka_unit_test(qos),
		cmocka_unit_test(flags_and_dists),
		cmocka_unit_test(durations_and_releases),
		cmocka_unit_test(release_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
