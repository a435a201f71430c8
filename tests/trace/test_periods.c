// SPDX-License-Identifier: GPL-2.0-only
/*
 * The governor inputs rebuilt from tests/fixtures/trace/hrtimer.trace,
 * worked out by hand: the clock offset is now= - timestamp of the last
 * hrtimer_expire_entry on the CPU (400 s here), the sleep length the
 * earliest non-tick hrtimer (the tick too once it is stopped) minus the
 * entry on CLOCK_MONOTONIC, delta_tick the earliest of all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "idlelab/trace_periods.h"

#define FIX SRCDIR "/tests/fixtures/trace/"

static void test_hrtimer_fixture(void **state)
{
	struct il_trace_periods ps;
	struct il_err err;
	(void)state;

	assert_int_equal(il_trace_periods_read(&ps, FIX "hrtimer.trace", &err), 0);
	assert_int_equal(ps.n, 4);
	assert_int_equal(ps.ncpus, 2);
	/* tick running, tick at +0.9 ms, hrtimer_wakeup at +4.9 ms; the tick woke it */
	assert_int_equal(ps.p[0].cpu, 0);
	assert_int_equal(ps.p[0].state, 2);
	assert_int_equal(ps.p[0].residency_ns, 905000);
	assert_int_equal(ps.p[0].delta_tick_ns, 900000);
	assert_int_equal(ps.p[0].sleep_length_ns, 4900000);
	assert_false(ps.p[0].tick_stopped);
	assert_true(ps.p[0].got_tick);
	assert_true(ps.p[0].timers_known);
	/* tick_stop after the exit: select still saw it running; the tick re-armed at +1.98 ms */
	assert_int_equal(ps.p[1].delta_tick_ns, 1980000);
	assert_int_equal(ps.p[1].sleep_length_ns, 3980000);
	assert_false(ps.p[1].tick_stopped);
	assert_true(ps.p[1].got_tick);
	/* stopped now, the tick timer expired and not re-armed: the wakeup at +1.9895 ms */
	assert_int_equal(ps.p[2].state, 1);
	assert_true(ps.p[2].tick_stopped);
	assert_int_equal(ps.p[2].delta_tick_ns, 1989500);
	assert_int_equal(ps.p[2].sleep_length_ns, 1989500);
	assert_false(ps.p[2].got_tick);
	/* CPU 1 before any hrtimer expiry of its own: nothing known */
	assert_int_equal(ps.p[3].cpu, 1);
	assert_false(ps.p[3].timers_known);
	assert_int_equal(ps.p[3].sleep_length_ns, IL_KTIME_MAX);
	il_trace_periods_free(&ps);
}

static void test_refusals(void **state)
{
	static const struct { const char *text; int line; const char *msg; } bad[] = {
		{ "# x\n <idle>-0 [000] d..1. 1.000000: hrtimer_start: hrtimer=1 function=f\n", 2,
		  "no expires=" },
		{ " <idle>-0 [000] d..1. 1.000000: hrtimer_cancel: hrtimer=zz\n", 1, "no hrtimer=" },
		{ " <idle>-0 [000] 2.0: cpu_idle: state=1 cpu_id=0\n"
		  " <idle>-0 [000] 1.0: cpu_idle: state=4294967295 cpu_id=0\n", 2, "time goes back" },
		{ " <idle>-0 [000] 1.0: cpu_idle: state=12 cpu_id=0\n", 1, "CPUIDLE_STATE_MAX" },
		{ " <idle>-0 [000] 1.0: tick_stop: dependency=NONE\n", 1, "success=" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct il_trace_periods ps;
		struct il_err err;

		assert_int_not_equal(il_trace_periods_parse(&ps, bad[i].text, strlen(bad[i].text),
							    "t", &err), 0);
		assert_int_equal(err.line, bad[i].line);
		assert_non_null(strstr(err.msg, bad[i].msg));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hrtimer_fixture),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
