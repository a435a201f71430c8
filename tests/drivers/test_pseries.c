// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pseries cpuidle driver (src/drivers/pseries.c): dedicated and shared
 * tables, the CEDE(0) fix-up from extended CEDE records on POWER10
 * (50741b70b0cb, 71737a6c2a8f, v5.15), record-size and zero-latency edge cases,
 * tick rounding, the snooze timeout, and the conditions that stop it.
 * Ticks are of a 512 MHz timebase: 512 ticks = 1000 ns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/drivers.h"
#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "ini_join.h"

#define LPAR "[platform]\nname = t\n[cpu]\narch = powerpc\nvendor = ibm\nhypervisor = powervm\n" \
	"tb_mhz = 512\n"

static void build_rel(const char *text, const char *option, const char *release,
		      struct il_machine_idle *m);

static void build(const char *text, const char *option, struct il_machine_idle *m)
{
	build_rel(text, option, "6.18", m);
}

static void build_rel(const char *text, const char *option, const char *release,
		      struct il_machine_idle *m)
{
	struct il_platform p;
	struct il_err e;
	char buf[4096];
	ini_join(buf, sizeof(buf), text);
	if (il_platform_load_string(&p, buf, strlen(buf), "test", &e))
		fail_msg("platform: %s", e.msg);
	if (option) {
		char k[64];
		snprintf(k, sizeof(k), "%s", option);
		char *eq = strchr(k, '=');
		*eq = '\0';
		assert_int_equal(il_platform_set_option(&p, k, eq + 1, NULL), 0);
	}
	assert_int_equal(il_machine_idle_build(&p, release, m, &e), 0);
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

/* CEDE's exit latency and target residency (µs), checking the ns forms agree. */
static void assert_cede(const struct il_machine_idle *m, const char *name, unsigned lat,
			unsigned res)
{
	const struct il_state *s = &m->drv.states[1];
	assert_true(m->cpuidle);
	assert_string_equal(m->drv.name, "pseries_idle");
	assert_int_equal(m->drv.state_count, 2);
	assert_string_equal(s->name, name);
	assert_string_equal(s->desc, name);
	assert_int_equal(s->exit_latency, lat);
	assert_int_equal(s->target_residency, res);
	assert_int_equal(s->exit_latency_ns, (int64_t)lat * 1000);
	assert_int_equal(s->target_residency_ns, (int64_t)res * 1000);
	assert_int_equal(s->entry, IL_ENTRY_CEDE);
	assert_int_equal(s->flags, 0);
	/*
	 * snooze: a spin loop, 0/0, that polls for at most CEDE's target
	 * residency; the governors see it as a polling state from 6.2
	 * (5ddcc03a07ae), before that it carries no flag
	 */
	assert_string_equal(m->drv.states[0].name, "snooze");
	assert_int_equal(m->drv.states[0].flags,
			 il_release_cmp(m->release, "6.2") >= 0 ? IL_FLAG_POLLING : 0);
	assert_int_equal(m->drv.states[0].exit_latency_ns, 0);
	assert_int_equal(m->drv.states[0].entry, IL_ENTRY_POLL);
	assert_int_equal(m->snooze_timeout_ns, (uint64_t)res * 1000);
}

static void dedicated_power10_fixup(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* 6144 ticks = 12000 ns -> 12 us, residency 120 us */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
	assert_true(has_note(&m, "fixed up CEDE exit latency to 12 us"));
	assert_string_equal(m.governor, "menu"); /* no preferred governor */
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_CEDE);
}

static void dedicated_minimum_over_records(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* 20 us, 12 us, 16 us: the minimum wins */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 10240 6144 8192\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
	/* above the 10 us default: no cap in the current rule (71737a6c2a8f) */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 10240\n", NULL, &m);
	assert_cede(&m, "CEDE", 20, 200);
}

static void tick_rounding(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* 100 ticks = 195 ns: rounded up to 1 us, not down to 0 */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 100\n", NULL, &m);
	assert_cede(&m, "CEDE", 1, 10);
	/* 512 ticks = exactly 1000 ns -> 1 us; 513 ticks = 1001 ns -> 2 us */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 512\n", NULL, &m);
	assert_cede(&m, "CEDE", 1, 10);
	build(LPAR "model = 0x80\nxcede_latency_ticks = 513\n", NULL, &m);
	assert_cede(&m, "CEDE", 2, 20);
	/* a 256 MHz timebase doubles the time of a tick: 6144 ticks = 24 us */
	build("[platform]\nname = t\n[cpu]\narch = powerpc\nhypervisor = powervm\n"
	      "tb_mhz = 256\nmodel = 0x80\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_int_equal(m.drv.states[1].exit_latency, 24);
	/* no tb_mhz: the 512 MHz POWER timebase */
	build("[platform]\nname = t\n[cpu]\narch = powerpc\nhypervisor = powervm\n"
	      "model = 0x80\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
}

static void zero_latency_records_skipped(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR "model = 0x80\nxcede_latency_ticks = 0 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
	assert_true(has_note(&m, "skipping xcede record 0"));
	/* only zero records: nothing usable, the defaults stay */
	build(LPAR "model = 0x80\nxcede_latency_ticks = 0 0\n", NULL, &m);
	assert_cede(&m, "CEDE", 10, 100);
	assert_true(has_note(&m, "no usable extended CEDE latency"));
	/* no records at all (or the RTAS call failed): defaults */
	build(LPAR "model = 0x80\n", NULL, &m);
	assert_cede(&m, "CEDE", 10, 100);
}

static void record_size_mismatch(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR "model = 0x80\nxcede_record_size = 9\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 10, 100);
	assert_true(has_note(&m, "expected record-size 10, observed 9"));
	build(LPAR "model = 0x80\nxcede_record_size = 10\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
}

static void us_records(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR "model = 0x80\nxcede_latency_us = 7 0 9\n", NULL, &m);
	assert_cede(&m, "CEDE", 7, 70);
	/* ticks take precedence over the us list */
	build(LPAR "model = 0x80\nxcede_latency_us = 7\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "CEDE", 12, 120);
	assert_true(has_note(&m, "tick values are used"));
}

static void pre_power10_no_fixup(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* POWER9 (PVR version 0x4e): firmware values not trusted */
	build(LPAR "model = 0x4e\nxcede_latency_ticks = 2048\n", NULL, &m);
	assert_cede(&m, "CEDE", 10, 100);
	assert_true(has_note(&m, "pre-POWER10"));
	/* POWER11 (0x82) has ISA v3.1 too */
	build(LPAR "model = 0x82\nxcede_latency_ticks = 2048\n", NULL, &m);
	assert_cede(&m, "CEDE", 4, 40);
}

static void shared_table(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* shared partitions never parse the records */
	build(LPAR "model = 0x80\nshared_processor = yes\nxcede_latency_ticks = 6144\n", NULL, &m);
	assert_cede(&m, "Shared Cede", 10, 100);
	assert_false(has_note(&m, "fixed up"));
}

static void not_loaded(void **state)
{
	struct il_machine_idle m;
	(void)state;
	build(LPAR "model = 0x80\n", "powersave=off", &m);
	assert_false(m.cpuidle);
	assert_true(has_note(&m, "powersave=off"));
	assert_int_equal(m.routine, IL_IDLE_ROUTINE_CEDE);
	assert_int_equal(m.default_state.entry, IL_ENTRY_CEDE);
	assert_int_equal(m.snooze_timeout_ns, 0);
	/* bare metal (PowerNV): no SPLPAR */
	build("[platform]\nname = t\n[cpu]\narch = powerpc\nmodel = 0x80\n", NULL, &m);
	assert_false(m.cpuidle);
	assert_true(has_note(&m, "SPLPAR"));
	/* cpuidle.off=1: no driver */
	build(LPAR "model = 0x80\n", "cpuidle.off=1", &m);
	assert_false(m.cpuidle);
}

static void release_forms(void **state)
{
	struct il_machine_idle m;
	(void)state;
	/* before 5.9: no records read at all */
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 2048\n", NULL, "5.8", &m);
	assert_cede(&m, "CEDE", 10, 100);
	assert_true(has_note(&m, "before 5.9"));
	/* 5.9 .. 5.13: any CPU, only below 10 us, minus one: 4 us -> 3/30 */
	build_rel(LPAR "model = 0x4e\nxcede_latency_ticks = 2048\n", NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 3, 30);
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 2048\n", NULL, "5.9", &m);
	assert_cede(&m, "CEDE", 3, 30);
	/* ... capped: 12 us does not raise CEDE */
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 6144\n", NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 10, 100);
	assert_true(has_note(&m, "no extended CEDE latency below 10 us"));
	/* ... a zero record counts: the 1 us floor */
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 0 6144\n", NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 1, 10);
	assert_true(has_note(&m, "unrealistic latency of 0us"));
	/* ... 1 us: min - 1 would be 0, the floor keeps 1 */
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 512\n", NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 1, 10);
	/* ... 2 us -> 1 */
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 1024\n", NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 1, 10);
	/* ... the record size is checked there too */
	build_rel(LPAR "model = 0x80\nxcede_record_size = 11\nxcede_latency_ticks = 2048\n",
		  NULL, "5.13", &m);
	assert_cede(&m, "CEDE", 10, 100);
	/*
	 * 5.14 still has the 5.9 rule: the two follow-ups went to powerpc/next
	 * on 2021-08-03 (rebased there as 50741b70b0cb and 71737a6c2a8f) and
	 * into mainline with the powerpc-5.15-1 pull
	 */
	build_rel(LPAR "model = 0x4e\nxcede_latency_ticks = 2048\n", NULL, "5.14", &m);
	assert_cede(&m, "CEDE", 3, 30);
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 6144\n", NULL, "5.14", &m);
	assert_cede(&m, "CEDE", 10, 100);
	/* 5.15: POWER9 no longer fixed up, POWER10 uncapped */
	build_rel(LPAR "model = 0x4e\nxcede_latency_ticks = 2048\n", NULL, "5.15", &m);
	assert_cede(&m, "CEDE", 10, 100);
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 2048\n", NULL, "5.15", &m);
	assert_cede(&m, "CEDE", 4, 40);
	build_rel(LPAR "model = 0x80\nxcede_latency_ticks = 6144\n", NULL, "5.15", &m);
	assert_cede(&m, "CEDE", 12, 120);
	/* the shared table never changes */
	build_rel(LPAR "model = 0x80\nshared_processor = yes\nxcede_latency_ticks = 2048\n",
		  NULL, "5.13", &m);
	assert_cede(&m, "Shared Cede", 10, 100);
}

/*
 * 5ddcc03a07ae ("powerpc/cpuidle: Set CPUIDLE_FLAG_POLLING for snooze
 * state", Aboorva Devarajan, in the powerpc-6.2-1 pull): from v6.2 both
 * snooze tables carry CPUIDLE_FLAG_POLLING and the loop reports its time
 * limit in dev->poll_time_limit; v6.1 and earlier register snooze with no
 * flags (drivers/cpuidle/cpuidle-pseries.c at 054e44ba99ae, v5.9). The
 * loop and its snooze_timeout are the same in both.
 */
static void snooze_polling_flag(void **state)
{
	static const char *rels[] = { "5.4", "5.14", "6.1" };
	struct il_machine_idle m;
	(void)state;
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		build_rel(LPAR "model = 0x80\n", NULL, rels[i], &m);
		assert_int_equal(m.drv.states[0].flags, 0);
		assert_int_equal(m.drv.states[0].entry, IL_ENTRY_POLL);
		assert_int_equal(m.snooze_timeout_ns, 100000);
		assert_true(has_note(&m, "5ddcc03a07ae"));
		build_rel(LPAR "model = 0x80\nshared_processor = yes\n", NULL, rels[i], &m);
		assert_int_equal(m.drv.states[0].flags, 0);
	}
	build_rel(LPAR "model = 0x80\n", NULL, "6.2", &m);
	assert_int_equal(m.drv.states[0].flags, IL_FLAG_POLLING);
	assert_false(has_note(&m, "5ddcc03a07ae"));
	build_rel(LPAR "model = 0x80\nshared_processor = yes\n", NULL, "6.2", &m);
	assert_int_equal(m.drv.states[0].flags, IL_FLAG_POLLING);
}

static void builtin_platforms(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err e;
	(void)state;
	assert_int_equal(il_platform_load(&p, "ibm-power10-dedicated", &e), 0);
	assert_int_equal(il_machine_idle_build(&p, NULL, &m, &e), 0);
	assert_cede(&m, "CEDE", 12, 120);
	assert_int_equal(p.hz, 100);
	assert_int_equal(il_platform_load(&p, "ibm-power10-shared", &e), 0);
	assert_int_equal(il_machine_idle_build(&p, NULL, &m, &e), 0);
	assert_cede(&m, "Shared Cede", 10, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dedicated_power10_fixup),
		cmocka_unit_test(dedicated_minimum_over_records),
		cmocka_unit_test(tick_rounding),
		cmocka_unit_test(zero_latency_records_skipped),
		cmocka_unit_test(record_size_mismatch),
		cmocka_unit_test(us_records),
		cmocka_unit_test(pre_power10_no_fixup),
		cmocka_unit_test(shared_table),
		cmocka_unit_test(not_loaded),
		cmocka_unit_test(release_forms),
		cmocka_unit_test(snooze_polling_flag),
		cmocka_unit_test(builtin_platforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
