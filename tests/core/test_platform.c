// SPDX-License-Identifier: GPL-2.0-only
/* Platform file parser: good files, every refusal with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/platform.h"

#define HEAD "[platform]\nname = t\n"
#define STATE0 "[state.0]\nname = POLL\nlatency = 0\nresidency = 0\nflags = polling\n"

static int load(struct il_platform *p, const char *text, struct il_err *e)
{
	return il_platform_load_string(p, text, strlen(text), "t.ini", e);
}

/* Expect a refusal at line, with msg containing what. */
static void refused(const char *text, int line, const char *what)
{
	struct il_platform p;
	struct il_err e;
	int r = load(&p, text, &e);
	if (r == 0 || e.line != line || !strstr(e.msg, what)) {
		print_error("text:\n%s\n-> r=%d line=%d msg='%s' (want line %d, '%s')\n", text, r,
			    e.line, e.msg, line, what);
		fail();
	}
	assert_string_equal(e.file, "t.ini");
}

static void builtin_kvm(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	assert_int_equal(il_platform_load(&p, "kvm-haltpoll", &e), 0);
	assert_string_equal(p.name, "kvm-haltpoll");
	assert_int_equal(il_platform_ncpus(&p), 2);
	assert_int_equal(p.hz, 1000);
	assert_true(p.nsources >= 2);
	assert_true(p.hypervisor);
	assert_string_equal(p.file, "builtin:kvm-haltpoll");
}

static void every_builtin_loads(void **unused)
{
	(void)unused;
	assert_true(il_builtin_platform_count >= 1);
	for (int i = 0; i < il_builtin_platform_count; i++) {
		struct il_platform p;
		struct il_err e;
		int r = il_platform_load(&p, il_builtin_platforms[i].name, &e);
		if (r)
			print_error("%s: %s:%d: %s\n", il_builtin_platforms[i].name, e.file, e.line,
				    e.msg);
		assert_int_equal(r, 0);
		assert_string_equal(p.name, il_builtin_platforms[i].name);
		assert_true(p.nsources >= 1); /* every platform cites its sources */
	}
}

static void explicit_table(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	const char *t = HEAD "[topology]\npackages = 2\ncores_per_package = 4\nthreads_per_core = 2\n"
		"[kernel]\nhz = 250\nswitch_ns = 2.5us\noption = idle=halt\noption = cpuidle.off=1\n" STATE0
		"[state.1]\nname = C1\ndesc = MWAIT 0x00\nlatency = 2\nresidency = 2\nentry = mwait\n"
		"mwait_hint = 0x00\nexit_latency_dist = uniform:1us:3us\npower_w = 1.5\n"
		"[state.2]\nname = C6\nlatency_ns = 133000\nresidency_ns = 400000\n"
		"flags = TIMER_STOP|TLB_FLUSHED|OFF|turbo_release\n"
		"[turbo]\n1 = 3100\n4 = 2800\n8 = 2600\n";
	assert_int_equal(load(&p, t, &e), 0);
	assert_int_equal(il_platform_ncpus(&p), 16);
	assert_int_equal(p.hz, 250);
	assert_int_equal(p.switch_ns, 2500);
	assert_string_equal(il_platform_option(&p, "idle"), "halt");
	assert_string_equal(il_platform_option(&p, "cpuidle.off"), "1");
	assert_null(il_platform_option(&p, "nohz"));
	assert_int_equal(p.table.state_count, 3);
	assert_int_equal(p.table.states[1].exit_latency_ns, 2000);
	assert_int_equal(p.table.states[2].target_residency, 400);
	assert_int_equal(p.table.states[0].entry, IL_ENTRY_POLL);
	assert_int_equal(p.table.states[1].entry, IL_ENTRY_MWAIT);
	assert_int_equal(p.table.states[2].entry, IL_ENTRY_HLT); /* default for non-polling */
	assert_true(p.table.bctimer);
	assert_int_equal(p.table.states[1].exit_dist.kind, IL_DIST_UNIFORM);
	assert_true(p.table.states[1].power_w == 1.5);
	assert_true(p.table.states[2].power_w < 0); /* unknown */
	/* turbo gaps filled from the next listed count above */
	assert_int_equal(p.nturbo, 8);
	assert_true(p.turbo_mhz[0] == 3100);
	assert_true(p.turbo_mhz[1] == 2800);
	assert_true(p.turbo_mhz[3] == 2800);
	assert_true(p.turbo_mhz[4] == 2600);
	assert_true(p.turbo_mhz[7] == 2600);
}

static void cst_entries(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	const char *t = HEAD "[firmware]\npm_timer_read = normal:700:100\n"
		"[cst.1]\ntype = C1\nmethod = ffh\naddress = 0x0\nlatency = 1\n"
		"[cst.2]\ntype = C2\nmethod = systemio\naddress = 0x814\nlatency = 350\npower = 0\n";
	assert_int_equal(load(&p, t, &e), 0);
	assert_true(p.has_cst);
	assert_int_equal(p.ncst, 2);
	assert_int_equal(p.cst[1].type, 2);
	assert_int_equal(p.cst[1].method, IL_CST_SYSTEMIO);
	assert_int_equal(p.cst[1].address, 0x814);
	assert_int_equal(p.cst[1].latency_us, 350);
	assert_int_equal(p.cst[1].line, 10);
	assert_int_equal(p.pm_timer_read.kind, IL_DIST_NORMAL);
	assert_false(p.has_table);
}

static void malformed(void **unused)
{
	(void)unused;
	refused("[platform]\nname = t\nbogus = 1\n", 3, "unknown key 'bogus' in [platform]");
	refused(HEAD "[nonsense]\nx = 1\n", 4, "unknown section [nonsense]");
	refused("name = t\n", 1, "outside any section");
	refused(HEAD "[state.0]\nname = POLL\nresidency = 0\n", 3, "[state.0] has no latency");
	refused(HEAD "[state.0]\nname = POLL\nlatency = 0\n", 3, "[state.0] has no residency");
	refused(HEAD "[state.0]\nlatency = 0\nresidency = 0\n", 3, "[state.0] has no name");
	refused(HEAD "[state.0]\nname = POLL\nlatency = fast\nresidency = 0\n", 5,
		"latency: 'fast' is not a non-negative");
	refused(HEAD "[state.0]\nname = POLL\nlatency = -1\nresidency = 0\n", 5, "negative value");
	refused(HEAD "[state.0]\nname = P\nlatency_ns = -7\nresidency = 0\n", 5, "negative value");
	refused(HEAD STATE0 "[state.10]\nname = X\n", 9, "more than 10 states");
	refused(HEAD STATE0 "[state.1]\nname = POLL\nlatency = 1\nresidency = 1\n", 8,
		"duplicate state name 'POLL'");
	refused(HEAD STATE0 "[state.2]\nname = C2\nlatency = 1\nresidency = 1\n", 8,
		"[state.2] without [state.1]");
	refused(HEAD "[state.x]\nname = C2\n", 4, "bad state section");
	refused(HEAD "[state.0]\nname = POLL\nflags = spinny\n", 5, "unknown state flag");
	refused(HEAD "[state.0]\nname = POLL\nentry = teleport\n", 5, "unknown method");
	refused(HEAD "[topology]\npackages = 0\n", 4, "out of range");
	refused(HEAD "[topology]\ncores_per_package = many\n", 4, "not an integer");
	refused(HEAD "[kernel]\nhz = 999\n", 4, "not a kernel HZ");
	refused(HEAD "[kernel]\nrelease = 2.6\n", 4, "release: kernel release 2.6 is outside");
	refused(HEAD "[kernel]\nrelease = 99.0\n", 4, "(5.4 to 7.1)");
	refused(HEAD "[kernel]\nrelease = 6.18.3\n", 4, "is not MAJOR.MINOR");
	refused(HEAD "[kernel]\nswitch_ns = 0\n", 4, "switch_ns: '0' is not a duration");
	refused(HEAD "[kernel]\nswitch_ns = soon\n", 4, "switch_ns: 'soon' is not a duration");
	refused(HEAD "[cpu]\nvendor = cyrix\n", 4, "unknown 'cyrix'");
	refused(HEAD "[cpu]\nmwait = perhaps\n", 4, "not yes/no");
	refused(HEAD "[firmware]\npm_timer_read = gamma:1:2\n", 4, "unknown distribution");
	refused(HEAD "[cst.1]\ntype = C4\n", 4, "not an ACPI C-state type");
	refused(HEAD "[cst.1]\ntype = C1\nmethod = ffh\n", 3, "[cst.1] has no latency");
	refused(HEAD "[cst.0]\ntype = C1\n", 4, "bad _CST section");
	refused(HEAD "[cst.1]\ntype=C1\nmethod=ffh\nlatency=1\n[cst.3]\ntype=C2\nmethod=ffh\nlatency=2\n",
		7, "[cst.3] without [cst.2]");
	refused(HEAD "[turbo]\nzero = 1\n", 4, "active-core counts");
	refused(HEAD "[power]\npackage_w = -3\n", 4, "negative value");
	refused("[platform]\ndescription = no name\n", 0, "missing [platform] name");
	refused("[platform\nname = t\n", 1, "syntax error");
	refused(HEAD "just words\n", 3, "syntax error");
	refused("[platform]\nname = bad name!\n", 2, "may hold only");
	/* an overlong line is refused, not truncated silently */
	char big[600];
	snprintf(big, sizeof(big), HEAD "description = %0400d\n", 7);
	refused(big, 3, "line longer than");
}

static void files(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	assert_int_equal(il_platform_load(&p, "/nonexistent/x.ini", &e), -ENOENT);
	assert_string_equal(e.file, "/nonexistent/x.ini");
	assert_int_equal(il_platform_load(&p, "no-such-platform", &e), -ENOENT);
	assert_non_null(strstr(e.msg, "kvm-haltpoll"));
	/* a truncated file (no newline at the end) still parses */
	const char *t = HEAD "[kernel]\nhz = 250";
	assert_int_equal(load(&p, t, &e), 0);
	assert_int_equal(p.hz, 250);
	/* an empty file has no name */
	assert_int_not_equal(load(&p, "", &e), 0);
	/* embedded NUL bytes do not crash */
	char nul[] = "[platform]\nname = t\0x\n";
	assert_int_not_equal(il_platform_load_string(&p, nul, sizeof(nul) - 1, "t.ini", &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtin_kvm),   cmocka_unit_test(every_builtin_loads),
		cmocka_unit_test(explicit_table), cmocka_unit_test(cst_entries),
		cmocka_unit_test(malformed),     cmocka_unit_test(files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
