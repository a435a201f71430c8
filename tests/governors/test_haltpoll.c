// SPDX-License-Identifier: GPL-2.0-only
/*
 * haltpoll governor: select paths, poll-window growth and shrink, the u32
 * arithmetic of adjust_poll_limit, and module parameter parsing.
 * Table: 0 POLL (el 0), 1 "haltpoll idle" (el 1 000 ns, residency 1 000 ns).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"

#define BIG_LAT_NS (2000000000LL * 1000)

struct fx {
	struct il_driver drv;
	struct il_device dev;
	struct il_gov *gov;
	struct il_idle_inputs in;
};

static void fx_start(struct fx *f, const char *spec)
{
	struct il_err err;

	memset(f, 0, sizeof(*f));
	il_poll_state_init(&f->drv.states[0]);
	struct il_state *h = &f->drv.states[1];
	snprintf(h->name, sizeof(h->name), "haltpoll idle");
	h->exit_latency_ns = 1000;
	h->target_residency_ns = 1000;
	f->drv.state_count = 2;
	il_device_init(&f->dev, &f->drv, 0);
	f->gov = il_gov_new(spec, 1, &err);
	if (!f->gov)
		fail_msg("il_gov_new(%s): %s", spec, err.msg);
	f->in.latency_req_ns = BIG_LAT_NS;
	f->in.tick_nsec = 4000000;
	f->dev.poll_limit_ns = 12345; /* enable must reset it */
	il_gov_enable(f->gov, 0, &f->drv, &f->dev);
}

static int sel(struct fx *f, bool *stop)
{
	*stop = true;
	return il_gov_select(f->gov, 0, &f->drv, &f->dev, &f->in, stop);
}

/* A halt (index 1) that lasted ns. */
static void halted(struct fx *f, int64_t ns)
{
	f->dev.last_residency_ns = ns;
	il_gov_reflect(f->gov, 0, &f->drv, &f->dev, 1, &f->in);
}

static void param(struct fx *f, const char *name, const char *value)
{
	struct il_err err;

	if (il_gov_set_param(f->gov, name, value, &err))
		fail_msg("set %s=%s: %s", name, value, err.msg);
}

static void ops_table(void **s)
{
	(void)s;
	const struct il_gov_ops *ops = il_gov_find("haltpoll");

	assert_non_null(ops);
	assert_int_equal(ops->rating, 9);
	char list[64];
	il_gov_preset_list(ops, list, sizeof(list));
	assert_string_equal(list, "5.4 5.5 6.1 6.9 6.12 6.18 7.0 7.1");
	assert_non_null(ops->set_param);
}

static void select_paths(void **s)
{
	(void)s;
	struct fx f;
	bool stop;

	fx_start(&f, "haltpoll");
	assert_int_equal(f.dev.poll_limit_ns, 0);
	/* no window yet: halt, tick left to the idle loop (stays true) */
	assert_int_equal(sel(&f, &stop), 1);
	assert_true(stop);
	/* latency limit 0: poll, keep the tick */
	f.in.latency_req_ns = 0;
	assert_int_equal(sel(&f, &stop), 0);
	assert_false(stop);
	f.in.latency_req_ns = BIG_LAT_NS;
	/* with a window, after a halt: poll first, tick kept */
	f.dev.poll_limit_ns = 50000;
	f.dev.last_state_idx = 1;
	assert_int_equal(sel(&f, &stop), 0);
	assert_false(stop);
	/* after a poll that work ended: poll again */
	f.dev.last_state_idx = 0;
	f.dev.poll_time_limit = false;
	assert_int_equal(sel(&f, &stop), 0);
	assert_false(stop);
	/* after a poll whose window expired: halt, tick may stop */
	f.dev.poll_time_limit = true;
	assert_int_equal(sel(&f, &stop), 1);
	assert_true(stop);
	/* latency 0 wins over everything */
	f.in.latency_req_ns = 0;
	assert_int_equal(sel(&f, &stop), 0);
	assert_false(stop);
	/* select itself changes neither window nor last state */
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	assert_int_equal(f.dev.last_state_idx, 0);
	il_gov_free(f.gov);
}

/*
 * A zero-state table: v6.1..v6.18 test drv->state_count and poll; v7.1
 * (9b9c0ff095f0) does not and, with no window, answers halt.
 */
static void zero_states_per_preset(void **s)
{
	(void)s;
	static const char *const old[] = { "haltpoll@6.1", "haltpoll@6.12", "haltpoll@6.18" };
	struct fx f;
	bool stop;

	for (size_t i = 0; i < 3; i++) {
		fx_start(&f, old[i]);
		f.drv.state_count = 0;
		assert_int_equal(sel(&f, &stop), 0);
		assert_false(stop);
		il_gov_free(f.gov);
	}
	fx_start(&f, "haltpoll@7.1");
	f.drv.state_count = 0;
	assert_int_equal(sel(&f, &stop), 1);
	assert_true(stop);
	il_gov_free(f.gov);
	/* everything reachable is the same: two states, every preset */
	for (size_t i = 0; i < 3; i++) {
		fx_start(&f, old[i]);
		assert_int_equal(sel(&f, &stop), 1);
		halted(&f, 10000);
		assert_int_equal(f.dev.poll_limit_ns, 50000);
		assert_int_equal(sel(&f, &stop), 0);
		il_gov_free(f.gov);
	}
}

/* reflect records the index; a poll (index 0) never adjusts the window. */
static void reflect_poll_no_adjust(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "haltpoll");
	f.dev.last_residency_ns = 10000;
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, 0, &f.in);
	assert_int_equal(f.dev.last_state_idx, 0);
	assert_int_equal(f.dev.poll_limit_ns, 0);
	f.dev.last_residency_ns = 10000000;
	il_gov_reflect(f.gov, 0, &f.drv, &f.dev, 0, &f.in);
	assert_int_equal(f.dev.poll_limit_ns, 0);
	halted(&f, 10000);
	assert_int_equal(f.dev.last_state_idx, 1);
	il_gov_free(f.gov);
}

/* 0 -> 50 000 (grow_start) -> 100 000 -> 200 000 (cap) */
static void grow_sequence(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "haltpoll");
	halted(&f, 1);         /* 1 > 0, <= 200 000: 0 * 2 = 0 < 50 000 */
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	halted(&f, 50000);     /* not > 50 000: unchanged */
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	halted(&f, 50001);     /* 100 000 */
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	halted(&f, 30000);     /* below the window: unchanged */
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	halted(&f, 200000);    /* <= max: 200 000, not above max */
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	halted(&f, 200000);    /* not > window, not > max: unchanged */
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	il_gov_free(f.gov);

	/* cap: 150 000 * 2 = 300 000 > 200 000 */
	fx_start(&f, "haltpoll");
	f.dev.poll_limit_ns = 150000;
	halted(&f, 190000);
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	il_gov_free(f.gov);

	/* grow 3 and grow_start 20 000: 0 -> 20 000 -> 60 000 -> 180 000 -> 200 000 */
	fx_start(&f, "haltpoll");
	param(&f, "guest_halt_poll_grow", "3");
	param(&f, "guest_halt_poll_grow_start", "20000");
	halted(&f, 5);
	assert_int_equal(f.dev.poll_limit_ns, 20000);
	halted(&f, 150000);
	assert_int_equal(f.dev.poll_limit_ns, 60000);
	halted(&f, 150000);
	assert_int_equal(f.dev.poll_limit_ns, 180000);
	halted(&f, 190000);
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	il_gov_free(f.gov);

	/* grow_start above the max: clamped to the max */
	fx_start(&f, "haltpoll");
	param(&f, "guest_halt_poll_ns", "30000");
	halted(&f, 100);
	assert_int_equal(f.dev.poll_limit_ns, 30000);
	il_gov_free(f.gov);
}

/*
 * The shrink before 496d0a648509 (v6.9): these expectations held for the
 * newest preset until the history notes showed that the v6.9 text
 * (663b7f164d20) and every later one reset a window shrunk below
 * guest_halt_poll_grow_start to 0; they are the v5.5 .. v6.8 rule.
 */
static void shrink_rules(void **s)
{
	(void)s;
	struct fx f;

	fx_start(&f, "haltpoll@6.1");
	f.dev.poll_limit_ns = 200000;
	halted(&f, 200001);    /* > max: 200 000 / 2 */
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	halted(&f, 5000000);
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	param(&f, "guest_halt_poll_shrink", "3");
	halted(&f, 5000000);   /* 50 000 / 3 = 16 666 */
	assert_int_equal(f.dev.poll_limit_ns, 16666);
	param(&f, "guest_halt_poll_shrink", "0");
	halted(&f, 5000000);   /* shrink 0 resets */
	assert_int_equal(f.dev.poll_limit_ns, 0);
	il_gov_free(f.gov);

	fx_start(&f, "haltpoll@6.1");
	f.dev.poll_limit_ns = 100000;
	param(&f, "guest_halt_poll_allow_shrink", "N");
	halted(&f, 5000000);
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	param(&f, "guest_halt_poll_allow_shrink", "Y");
	halted(&f, 5000000);
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	il_gov_free(f.gov);

	/* a negative residency is a huge u64: it shrinks */
	fx_start(&f, "haltpoll@6.1");
	f.dev.poll_limit_ns = 100000;
	halted(&f, -5);
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	il_gov_free(f.gov);
}

/*
 * 496d0a648509 (v6.9): after a shrink, a window below guest_halt_poll_grow_start
 * (50 000) is 0. 200 000 -> 100 000 -> 50 000 (not below: kept) -> /3 = 16 666
 * -> 0; 6.8 and before keep 16 666.
 */
static void shrink_below_grow_start(void **s)
{
	(void)s;
	static const char *const specs[] = { "haltpoll@6.9", "haltpoll@6.12", "haltpoll@6.18",
					     "haltpoll@7.0", "haltpoll" };
	struct fx f;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		fx_start(&f, specs[i]);
		f.dev.poll_limit_ns = 200000;
		halted(&f, 200001);
		assert_int_equal(f.dev.poll_limit_ns, 100000);
		halted(&f, 5000000);
		assert_int_equal(f.dev.poll_limit_ns, 50000);
		param(&f, "guest_halt_poll_shrink", "3");
		halted(&f, 5000000);
		assert_int_equal(f.dev.poll_limit_ns, 0);
		/* from 0 the next short halt grows it back to grow_start */
		halted(&f, 10000);
		assert_int_equal(f.dev.poll_limit_ns, 50000);
		il_gov_free(f.gov);
	}
	/* grow_start lowered to 10 000: 16 666 is kept */
	fx_start(&f, "haltpoll@6.9+guest_halt_poll_grow_start=10000+guest_halt_poll_shrink=3");
	f.dev.poll_limit_ns = 50000;
	halted(&f, 5000000);
	assert_int_equal(f.dev.poll_limit_ns, 16666);
	il_gov_free(f.gov);
	/* the same sequence in 6.1 keeps the small window */
	fx_start(&f, "haltpoll@6.1+guest_halt_poll_shrink=3");
	f.dev.poll_limit_ns = 50000;
	halted(&f, 5000000);
	assert_int_equal(f.dev.poll_limit_ns, 16666);
	il_gov_free(f.gov);
}

/*
 * v5.4 works in µs: a latency limit below 1 µs is an int 0 (poll, keep the
 * tick), and the halt's residency reaches adjust_poll_limit() as int µs
 * times 1000. 5.5 works in ns.
 */
static void usec_era(void **s)
{
	(void)s;
	struct fx f;
	bool stop;

	/* 999 ns: 5.4 polls (0 µs), 5.5 halts (no window yet) */
	fx_start(&f, "haltpoll@5.4");
	f.in.latency_req_ns = 999;
	assert_int_equal(sel(&f, &stop), 0);
	assert_false(stop);
	il_gov_free(f.gov);
	fx_start(&f, "haltpoll@5.5");
	f.in.latency_req_ns = 999;
	assert_int_equal(sel(&f, &stop), 1);
	il_gov_free(f.gov);

	/*
	 * window 100 000 ns, halt of 100 999 ns: 5.4 sees 100 µs = 100 000 ns,
	 * not above the window: no grow; 5.5 grows to 200 000.
	 */
	fx_start(&f, "haltpoll@5.4");
	f.dev.poll_limit_ns = 100000;
	halted(&f, 100999);
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	/* 200 999 ns is 200 µs: not above the 200 000 ns maximum: grows to the max */
	halted(&f, 200999);
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	il_gov_free(f.gov);
	fx_start(&f, "haltpoll@5.5");
	f.dev.poll_limit_ns = 100000;
	halted(&f, 100999);
	assert_int_equal(f.dev.poll_limit_ns, 200000);
	/* 200 999 ns > the maximum: shrinks */
	halted(&f, 200999);
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	il_gov_free(f.gov);
}

/* val is an unsigned int in the kernel: the product wraps modulo 2^32. */
static void u32_arithmetic(void **s)
{
	(void)s;
	struct fx f;

	/* 100 000 * 42 950 = 4 295 000 000 = 2^32 + 32 704 -> 32 704 < 50 000 -> 50 000 */
	fx_start(&f, "haltpoll");
	param(&f, "guest_halt_poll_ns", "4294967295");
	param(&f, "guest_halt_poll_grow", "42950");
	f.dev.poll_limit_ns = 100000;
	halted(&f, 200000);
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	il_gov_free(f.gov);

	/* 3e9 * 2 = 6e9 = 2^32 + 1 705 032 704 */
	fx_start(&f, "haltpoll");
	param(&f, "guest_halt_poll_ns", "0xffffffff");
	f.dev.poll_limit_ns = 3000000000u;
	halted(&f, 4000000000LL);
	assert_int_equal(f.dev.poll_limit_ns, 1705032704u);
	il_gov_free(f.gov);

	/* shrink reads the window through a u32 too: (2^32 + 10) -> 10 -> 5 (6.8 and before) */
	fx_start(&f, "haltpoll@6.1");
	f.dev.poll_limit_ns = 4294967306ull;
	halted(&f, 300000);
	assert_int_equal(f.dev.poll_limit_ns, 5);
	il_gov_free(f.gov);
	/* ... and 5 < grow_start -> 0 from 6.9 on */
	fx_start(&f, "haltpoll");
	f.dev.poll_limit_ns = 4294967306ull;
	halted(&f, 300000);
	assert_int_equal(f.dev.poll_limit_ns, 0);
	il_gov_free(f.gov);
}

static void enable_resets_window(void **s)
{
	(void)s;
	struct fx f;
	bool stop;

	fx_start(&f, "haltpoll");
	halted(&f, 10000);
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	il_gov_enable(f.gov, 0, &f.drv, &f.dev);
	assert_int_equal(f.dev.poll_limit_ns, 0);
	assert_int_equal(sel(&f, &stop), 1);
	/* a sysfs write to a state drops the window the same way */
	halted(&f, 10000);
	il_device_set_user_disable(&f.dev, 1, false);
	assert_int_equal(f.dev.poll_limit_ns, 0);
	il_gov_free(f.gov);
}

static int set_rc(struct fx *f, const char *name, const char *value, struct il_err *err)
{
	return il_gov_set_param(f->gov, name, value, err);
}

static void params_uint_parsing(void **s)
{
	(void)s;
	static const struct {
		const char *text;
		int rc;
		unsigned int value;
	} cases[] = {
		{ "100000", 0, 100000 }, { "0", 0, 0 },         { "+5", 0, 5 },
		{ "7\n", 0, 7 },         { "0x10", 0, 16 },     { "0X1f", 0, 31 },
		{ "010", 0, 8 },         { "4294967295", 0, 4294967295u },
		{ "4294967296", -ERANGE, 0 }, { "99999999999999999999999", -ERANGE, 0 },
		{ "-1", -EINVAL, 0 },    { "", -EINVAL, 0 },    { "12abc", -EINVAL, 0 },
		{ " 5", -EINVAL, 0 },    { "5 ", -EINVAL, 0 },  { "0x", -EINVAL, 0 },
		{ "09", -EINVAL, 0 },    { "20us", -EINVAL, 0 }, { "7\n\n", -EINVAL, 0 },
		{ "+", -EINVAL, 0 },     { "1.5", -EINVAL, 0 },
	};
	struct fx f;
	struct il_err err;

	fx_start(&f, "haltpoll");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		param(&f, "guest_halt_poll_grow", "2");
		int rc = set_rc(&f, "guest_halt_poll_grow", cases[i].text, &err);
		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].text, rc, cases[i].rc);
		if (rc)
			assert_non_null(strstr(err.msg, "guest_halt_poll_grow"));
		/* observe grow: a window of 1 grows to grow (max 2^32-1, start 0); a bad value keeps 2 */
		param(&f, "guest_halt_poll_ns", "4294967295");
		param(&f, "guest_halt_poll_grow_start", "0");
		f.dev.poll_limit_ns = 1;
		halted(&f, 2);
		assert_int_equal(f.dev.poll_limit_ns, rc ? 2 : cases[i].value);
	}
	il_gov_free(f.gov);
}

static void params_bool_and_names(void **s)
{
	(void)s;
	static const struct {
		const char *text;
		int rc;
		bool value;
	} cases[] = {
		{ "Y", 0, true },  { "y", 0, true },   { "1", 0, true },   { "yes", 0, true },
		{ "on", 0, true }, { "ON\n", 0, true }, { "N", 0, false }, { "n", 0, false },
		{ "0", 0, false }, { "no", 0, false },  { "off", 0, false },
		{ "", -EINVAL, false }, { "maybe", -EINVAL, false }, { "2", -EINVAL, false },
		{ "yess", -EINVAL, false }, { "o", -EINVAL, false },
	};
	struct fx f;
	struct il_err err;

	fx_start(&f, "haltpoll");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		param(&f, "guest_halt_poll_allow_shrink", cases[i].value ? "N" : "Y");
		int rc = set_rc(&f, "guest_halt_poll_allow_shrink", cases[i].text, &err);
		if (rc != cases[i].rc)
			fail_msg("'%s': rc %d, want %d", cases[i].text, rc, cases[i].rc);
		if (rc)
			continue;
		f.dev.poll_limit_ns = 100000;
		halted(&f, 10000000);
		assert_int_equal(f.dev.poll_limit_ns, cases[i].value ? 50000 : 100000);
	}
	assert_int_equal(set_rc(&f, "halt_poll_ns", "1", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "halt_poll_ns"));
	assert_int_equal(set_rc(&f, "guest_halt_poll_ns", NULL, &err), -EINVAL);
	il_gov_free(f.gov);
}

/* Parameters as spec patches; each preset keeps its own defaults. */
static void params_in_spec(void **s)
{
	(void)s;
	struct fx f;
	struct il_err err;

	fx_start(&f, "haltpoll@6.1+guest_halt_poll_ns=100000+guest_halt_poll_grow_start=0x2710");
	halted(&f, 5);          /* 0 -> 10 000 */
	assert_int_equal(f.dev.poll_limit_ns, 10000);
	halted(&f, 90000);      /* 20 000 */
	halted(&f, 90000);      /* 40 000 */
	halted(&f, 90000);      /* 80 000 */
	halted(&f, 90000);      /* 160 000 -> cap 100 000 */
	assert_int_equal(f.dev.poll_limit_ns, 100000);
	halted(&f, 150000);     /* > 100 000 max: shrink */
	assert_int_equal(f.dev.poll_limit_ns, 50000);
	assert_string_equal(f.gov->spec,
			    "haltpoll@6.1+guest_halt_poll_ns=100000+guest_halt_poll_grow_start=0x2710");
	char buf[200];
	il_gov_describe(f.gov, buf, sizeof(buf));
	assert_non_null(strstr(buf, "haltpoll@6.1 (release blob 1dff3a52917d"));
	assert_non_null(strstr(buf, "guest_halt_poll_ns=100000"));
	assert_non_null(strstr(buf, "grow_start=10000"));
	il_gov_free(f.gov);

	assert_null(il_gov_new("haltpoll+guest_halt_poll_ns", 1, &err));
	assert_non_null(strstr(err.msg, "needs a value"));
	assert_null(il_gov_new("haltpoll+bogus=1", 1, &err));
	assert_non_null(strstr(err.msg, "bogus"));
	assert_null(il_gov_new("haltpoll+guest_halt_poll_grow_start=20us", 1, &err));
	assert_non_null(strstr(err.msg, "20us"));
	assert_null(il_gov_new("haltpoll+guest_halt_poll_allow_shrink=perhaps", 1, &err));
	assert_non_null(strstr(err.msg, "perhaps"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(ops_table),
		cmocka_unit_test(select_paths),
		cmocka_unit_test(zero_states_per_preset),
		cmocka_unit_test(reflect_poll_no_adjust),
		cmocka_unit_test(grow_sequence),
		cmocka_unit_test(shrink_rules),
		cmocka_unit_test(shrink_below_grow_start),
		cmocka_unit_test(usec_era),
		cmocka_unit_test(u32_arithmetic),
		cmocka_unit_test(enable_resets_window),
		cmocka_unit_test(params_uint_parsing),
		cmocka_unit_test(params_bool_and_names),
		cmocka_unit_test(params_in_spec),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
