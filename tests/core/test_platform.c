// SPDX-License-Identifier: GPL-2.0-only
/* Platform file parser: good files, every refusal with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"
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
	assert_int_equal(p.hz, 250); /* CONFIG_HZ of the CI guest */
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
	/* frequencies: 0 is "not given", else 1..100000 MHz (a burst's ns must fit an s64) */
	refused(HEAD "[turbo]\n1 = 1e-300\n", 4, "1: 1e-300 MHz is out of range [1, 100000]");
	refused(HEAD "[cpu]\nbase_mhz = 1e-300\n", 4, "base_mhz: 1e-300 MHz is out of range");
	refused(HEAD "[cpu]\nbase_mhz = 1e308\n", 4, "base_mhz: 1e308 MHz is out of range");
	refused(HEAD "[cpu]\ntb_mhz = 0.0000001\n", 4, "tb_mhz: 0.0000001 MHz is out of range");
	/* a number's bounds from the key table */
	refused(HEAD "[noise]\nirq_rate = 2000000\n", 4,
		"irq_rate: 2000000 is out of range [0, 1000000]");
	refused(HEAD "[noise]\nhost_stall_rate = 1e308\n", 4,
		"host_stall_rate: 1e308 is out of range [0, 100000]");
	{
		struct il_platform p;
		struct il_err e;
		const char *t = HEAD "[cpu]\nbase_mhz = 0\ntb_mhz = 0\n[turbo]\n1 = 0\n";
		assert_int_equal(load(&p, t, &e), 0);
	}
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

/* D11: a key, a section, a [state.N] or [cst.N] given twice is refused with both lines. */
static void duplicates(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	refused(HEAD "[cpu]\nmwait = yes\nmwait = no\n", 5, "duplicate key 'mwait' (first at line 4)");
	refused("[platform]\nname = t\nname = u\n", 3, "duplicate key 'name' (first at line 2)");
	refused(HEAD "[cpu]\nfamily = 6\n[kernel]\nhz = 250\n[cpu]\nmodel = 1\n", 7,
		"duplicate section [cpu] (first at line 3)");
	refused(HEAD "[cpu]\n[cpu]\n", 4, "duplicate section [cpu] (first at line 3)");
	refused(HEAD STATE0 "[state.0]\ndesc = x\n", 8, "duplicate section [state.0] (first at line 3)");
	refused(HEAD STATE0 "[state.00]\ndesc = x\n", 8, "duplicate section [state.00] (first at line 3)");
	refused(HEAD "[cst.1]\ntype = C1\n[cst.1]\nlatency = 1\n", 5,
		"duplicate section [cst.1] (first at line 3)");
	refused(HEAD "[state.0]\nname = POLL\nlatency = 0\nlatency_ns = 0\n", 6,
		"'latency_ns' and 'latency' (line 5)");
	refused(HEAD "[state.0]\nname = P\nresidency_ns = 1\nresidency = 0\n", 6,
		"'residency' and 'residency_ns' (line 5)");
	refused(HEAD "[turbo]\n4 = 2800\n04 = 2700\n", 5, "duplicate key '04' (first at line 4)");
	refused(HEAD "[firmware]\nexit.C6 = 1\nexit.C6 = 2\n", 5,
		"duplicate key 'exit.C6' (first at line 4)");
	refused(HEAD "[firmware]\npower.C6 = 1\ntransition.C6 = 1\npower.C6 = 2\n", 6,
		"duplicate key 'power.C6' (first at line 4)");
	refused(HEAD "[kernel]\noption = idle=halt\noption = idle = poll\n", 5,
		"option: duplicate option 'idle' (first at line 4)");
	/* the same key in two [state.N] is no duplicate; source and option repeat */
	const char *t = HEAD "source = a\nsource = b\n[kernel]\noption = idle=halt\noption = nohz=off\n"
		STATE0 "[state.1]\nname = C1\nlatency = 1\nresidency = 1\n";
	assert_int_equal(load(&p, t, &e), 0);
	assert_int_equal(p.nsources, 2);
	assert_int_equal(p.noptions, 2);
	assert_int_equal(p.options[1].line, 7);
	assert_int_equal(p.table.state_count, 2);
}

/* A section idlelab does not know is refused even when it holds no key. */
static void unknown_sections(void **unused)
{
	(void)unused;
	refused(HEAD "[nonsense]\n", 3, "unknown section [nonsense]");
	refused(HEAD "[nonsense]\n[cpu]\nmwait = yes\n", 3, "unknown section [nonsense]");
	refused(HEAD "[state.x]\n", 3, "bad state section [state.x]");
	refused(HEAD "[cst.9]\n", 3, "bad _CST section [cst.9]");
	refused(HEAD "[firmware]\ndriver = acpi_idle\n", 4, "unknown key 'driver' in [firmware]");
}

/* Boot/module options: only the ones idlelab models, in a file and from a caller. */
static void boot_options(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	refused(HEAD "[kernel]\noption = intel_idle.max_csate=1\n", 4,
		"option: unknown boot/module option 'intel_idle.max_csate' (did you mean "
		"'intel_idle.max_cstate'? known: intel_idle.max_cstate, intel_idle.states_off");
	refused(HEAD "[kernel]\noption = banana\n", 4, "unknown boot/module option 'banana' (known: "
		"idle, nohz, cpuidle.*");
	assert_int_equal(load(&p, HEAD, &e), 0);
	assert_int_equal(il_platform_set_option(&p, "idel", "halt", &e), -EINVAL);
	assert_non_null(strstr(e.msg, "'idel' (did you mean 'idle'?"));
	assert_int_equal(p.noptions, 0);
	for (int i = 0; i < il_boot_option_count; i++) {
		assert_int_equal(il_platform_set_option(&p, il_boot_options[i].name, "1", &e), 0);
		assert_non_null(il_boot_option_find(il_boot_options[i].name));
	}
	assert_int_equal(p.noptions, il_boot_option_count);
	/* the haltpoll governor's parameters are the ones the table names */
	struct il_gov *g = il_gov_new("haltpoll", 1, &e);
	assert_non_null(g);
	int n = 0;
	for (int i = 0; i < il_boot_option_count; i++)
		if (!strncmp(il_boot_options[i].name, "haltpoll.", 9)) {
			assert_int_equal(il_gov_set_param(g, il_boot_options[i].name + 9, "1", &e), 0);
			n++;
		}
	assert_int_equal(n, 5);
	il_gov_free(g);
}

/* The docs' block of section sec: from its "### " heading to the next heading. */
static const char *doc_block(const char *doc, const char *sec, const char **end)
{
	char tag[32];
	const char *h = doc;

	snprintf(tag, sizeof(tag), "`[%s]`", sec);
	while ((h = strstr(h, "\n### ")) != NULL) {
		const char *eol = strchr(h + 1, '\n');
		const char *t = strstr(h, tag);
		if (t && eol && t < eol) {
			const char *n = strstr(eol, "\n#");
			*end = n ? n : doc + strlen(doc);
			return eol;
		}
		h += 5;
	}
	return NULL;
}

static bool in_block(const char *b, const char *end, const char *needle)
{
	size_t l = strlen(needle);
	for (const char *s = b; s + l <= end; s++)
		if (!memcmp(s, needle, l))
			return true;
	return false;
}

/*
 * The key table and docs/platform-format.md agree: every key is documented
 * in its section, and every key a section's table documents exists.
 */
static void keys_documented(void **unused)
{
	(void)unused;
	static char doc[65536];
	FILE *f = fopen(SRCDIR "/docs/platform-format.md", "r");
	assert_non_null(f);
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
	assert_true(il_platform_key_count() > 50);
	for (int i = 0; i < il_platform_key_count(); i++) {
		const struct il_plat_key *k = il_platform_key(i);
		const char *end = NULL, *b = doc_block(doc, k->section, &end);
		char want[64];
		if (!b)
			fail_msg("docs/platform-format.md has no ### heading for [%s]", k->section);
		snprintf(want, sizeof(want), "`%s`", k->name);
		if (!in_block(b, end, want))
			fail_msg("[%s] %s is not documented in docs/platform-format.md", k->section,
				 k->name);
		assert_non_null(k->help);
		assert_non_null(il_plat_key_type_name(k->type));
	}
	/* the reverse: the first column of each section's key table */
	for (const char *row = strstr(doc, "\n| `"); row; row = strstr(row + 1, "\n| `")) {
		const char *sec_start = NULL, *h = doc, *x;
		char sec[32] = "";
		/* the heading above the row (## or ###) */
		while ((x = strstr(h, "\n#")) && x < row) {
			sec_start = x;
			h = x + 2;
		}
		if (!sec_start || strncmp(sec_start, "\n### `[", 7))
			continue; /* a table outside the section list (distributions) */
		sscanf(sec_start + 7, "%31[^]]", sec);
		if (!strcmp(sec, "driver"))
			snprintf(sec, sizeof(sec), "state.N"); /* "[driver] and [state.N]" */
		const char *cell_end = strstr(row + 3, " |");
		for (const char *c = row + 3; c && c < cell_end; ) {
			const char *q = strchr(c, '`'), *q2 = q ? strchr(q + 1, '`') : NULL;
			char key[48];
			if (!q || !q2 || q2 > cell_end)
				break;
			snprintf(key, sizeof(key), "%.*s", (int)(q2 - q - 1), q + 1);
			bool found = false;
			for (int i = 0; i < il_platform_key_count(); i++)
				found |= !strcmp(il_platform_key(i)->section, sec) &&
					 !strcmp(il_platform_key(i)->name, key);
			if (!found)
				fail_msg("docs/platform-format.md documents [%s] %s, which is no key", sec,
					 key);
			c = q2 + 1;
		}
	}
}

/* A default is what writing it in a file gives: defaults() and the parser agree. */
static void defaults_as_written(void **unused)
{
	(void)unused;
	static struct il_platform a, b;
	struct il_err e;
	int checked = 0;

	for (int i = 0; i < il_platform_key_count(); i++) {
		const struct il_plat_key *k = il_platform_key(i);
		char base[256], with[320];
		if (!k->def)
			continue;
		if (!strcmp(k->section, "state.N"))
			snprintf(base, sizeof(base), "%s", HEAD "[state.0]\nname = S\nlatency = 1\n"
				 "residency = 1\n");
		else if (!strcmp(k->section, "cst.N"))
			snprintf(base, sizeof(base), "%s", HEAD "[cst.1]\ntype = C1\nlatency = 1\n"
				 "method = ffh\n");
		else if (!strcmp(k->section, "cpufreq"))
			snprintf(base, sizeof(base), "%s", HEAD "[cpu]\nbase_mhz = 2000\n"
				 "[cpufreq]\nefficient_mhz = 800\n");
		else
			snprintf(base, sizeof(base), HEAD "[%s]\n", k->section);
		snprintf(with, sizeof(with), "%s%s = %s\n", base, k->name, k->def);
		if (load(&a, base, &e) || load(&b, with, &e))
			fail_msg("[%s] %s = %s: %s", k->section, k->name, k->def, e.msg);
		if (memcmp(&a, &b, sizeof(a)))
			fail_msg("[%s] %s: the default %s is not what the platform gets without it",
				 k->section, k->name, k->def);
		checked++;
	}
	assert_true(checked >= 30);
}

/* [cpufreq]: what a file gives, what is derived, and every refusal with its line */
#define CPU2400 "[cpu]\nvendor = intel\nfamily = 6\nmodel = 0x55\nbase_mhz = 2400\n"
static void cpufreq_section(void **unused)
{
	(void)unused;
	struct il_platform p;
	struct il_err e;
	double ps[IL_PLAT_PSTATES_MAX];
	/* lines: 1-2 HEAD, 3-7 [cpu], 8 [turbo], 9-10 bins, 11 [cpufreq], 12.. keys */
	const char *t = HEAD CPU2400 "[turbo]\n1 = 3900\n4 = 3700\n[cpufreq]\n"
		"efficient_mhz = 1000\nhwp = yes\nhwp_lowest_mhz = 800\ntransition_latency = 20us\n"
		"policy = package\ndriver = intel_pstate\ngovernor = schedutil\nmode = passive\n"
		"turbo = no\n";

	assert_int_equal(load(&p, t, &e), 0);
	assert_true(p.has_cpufreq);
	assert_true(p.efficient_mhz == 1000);
	assert_true(p.hwp);
	/* given, then derived: efficient = EFFIC, guaranteed = base, highest = the 1C bin */
	assert_true(p.hwp_lowest_mhz == 800);
	assert_true(p.hwp_efficient_mhz == 1000);
	assert_true(p.hwp_guaranteed_mhz == 2400);
	assert_true(p.hwp_highest_mhz == 3900);
	assert_true(p.hwp_given[0] && !p.hwp_given[3]);
	assert_int_equal(p.transition_ns, 20000);
	assert_int_equal(p.cpufreq_scope, IL_CPUFREQ_SCOPE_PACKAGE);
	assert_int_equal(p.cpufreq_driver, IL_CPUFREQ_INTEL_PSTATE);
	assert_string_equal(p.cpufreq_governor, "schedutil");
	assert_int_equal(p.pstate_mode, IL_PSTATE_MODE_PASSIVE);
	assert_true(p.turbo_disabled);
	assert_true(p.turbo_listed[0] && !p.turbo_listed[1] && p.turbo_listed[3]);
	/* the default step: 2401 (turbo entry), 2400, 2300, ... 1000 */
	assert_int_equal(il_platform_pstates(&p, ps, IL_PLAT_PSTATES_MAX), 16);
	assert_true(ps[0] == 2401 && ps[1] == 2400 && ps[2] == 2300 && ps[15] == 1000);
	assert_int_equal(il_platform_pstates(&p, ps, 3), 3);
	/* a step that misses EFFIC ends the table at it; no turbo bins: no turbo entry */
	assert_int_equal(load(&p, HEAD CPU2400 "[cpufreq]\nefficient_mhz = 1000\n"
			      "pstate_step_mhz = 600\n", &e), 0);
	assert_int_equal(il_platform_pstates(&p, ps, IL_PLAT_PSTATES_MAX), 4);
	assert_true(ps[0] == 2400 && ps[1] == 1800 && ps[2] == 1200 && ps[3] == 1000);
	assert_int_equal(load(&p, HEAD CPU2400 "[cpufreq]\nefficient_mhz = 1000\n"
			      "pstates = 2401 2400, 1600 1000\n", &e), 0);
	assert_int_equal(il_platform_pstates(&p, ps, IL_PLAT_PSTATES_MAX), 4);
	assert_true(ps[1] == 2400 && ps[2] == 1600);
	/* no section: nothing */
	assert_int_equal(load(&p, HEAD CPU2400, &e), 0);
	assert_false(p.has_cpufreq);
	assert_int_equal(il_platform_pstates(&p, ps, IL_PLAT_PSTATES_MAX), 0);
	assert_true(il_platform_turbo_mhz(&p, 1) == 0);

	/* refusals: [cpufreq] at line 8 below, its first key at line 9 */
	refused(HEAD CPU2400 "[cpufreq]\ndriver = intel_pstate\n", 8, "[cpufreq] has no efficient_mhz");
	refused(HEAD "[cpufreq]\nefficient_mhz = 800\n", 3, "needs [cpu] base_mhz");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 2500\n", 9,
		"efficient_mhz: 2500 MHz is above base_mhz (2400 MHz)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 0\n", 9,
		"efficient_mhz: 0 MHz is out of range [1, 100000]");
	/* below 1 MHz the kHz and the ns of a burst overflow */
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 1e-300\n", 9,
		"efficient_mhz: 1e-300 MHz is out of range [1, 100000]");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstate_step_mhz = 0.0001\n", 10,
		"pstate_step_mhz: 0.0001 MHz is out of range [1, 100000]");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2400 0.5\n", 10,
		"pstates: 0.5 MHz is out of range [1, 100000]");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = fast\n", 9,
		"efficient_mhz: 'fast' is not a number");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nhwp_highest_mhz = 3000\n", 10,
		"hwp_highest_mhz without hwp = yes");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nhwp = yes\nhwp_guaranteed_mhz = 700\n",
		11, "hwp_guaranteed_mhz (700 MHz) is below hwp_lowest_mhz (800 MHz)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nhwp = yes\nhwp_highest_mhz = 2000\n",
		11, "hwp_highest_mhz (2000 MHz) is below hwp_guaranteed_mhz (2400 MHz)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2400 2500\n", 10,
		"pstates: 2500 MHz after 2400 MHz: the table must descend");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2400 -5\n", 10,
		"pstates: negative value '-5'");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = ,\n", 10,
		"pstates: an empty entry in ','");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = \n", 10,
		"pstates: no frequency given");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2401,,2400\n", 10,
		"pstates: an empty entry in '2401,,2400'");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2400, 1600,\n", 10,
		"pstates: an empty entry in '2400, 1600,'");
	/* the table within the part: base + 1 MHz (turbo) at the top, efficient_mhz at the bottom */
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 99999 1\n", 10,
		"pstates: 99999 MHz is above the part's highest frequency (2400 MHz)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2401 2400 700\n", 10,
		"pstates: 700 MHz is below efficient_mhz (800 MHz)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npstates = 2400\npstate_step_mhz = 100\n",
		11, "pstate_step_mhz and pstates (line 10) give the same table");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\ntransition_latency = 0\n", 10,
		"transition_latency: '0' is not a duration");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\npolicy = socket\n", 10,
		"policy: 'socket' is not cpu, core or package");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\ndriver = amd-pstate\n", 10,
		"driver: 'amd-pstate' is not intel_pstate, acpi-cpufreq or none");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\ngovernor = turbo\n", 10,
		"governor: 'turbo' is not performance");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nmode = lazy\n", 10,
		"mode: 'lazy' is not active, passive or auto");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\ndriver = acpi-cpufreq\nmode = active\n",
		11, "mode: active is for driver = intel_pstate");
	refused(HEAD "[cpu]\nvendor = amd\nbase_mhz = 2000\n[cpufreq]\nefficient_mhz = 800\n"
		"driver = intel_pstate\n", 8, "driver: intel_pstate needs an Intel x86 [cpu]");
	refused(HEAD CPU2400 "[turbo]\n1 = 2000\n[cpufreq]\nefficient_mhz = 800\n", 10,
		"the 1-core turbo bin (2000 MHz) is below base_mhz");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nefficient_mhz = 900\n", 10,
		"duplicate key 'efficient_mhz' (first at line 9)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\n[cpufreq]\n", 10,
		"duplicate section [cpufreq] (first at line 8)");
	refused(HEAD CPU2400 "[cpufreq]\nefficient_mhz = 800\nmax_mhz = 3000\n", 10,
		"unknown key 'max_mhz' in [cpufreq]");
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
		cmocka_unit_test(duplicates),    cmocka_unit_test(unknown_sections),
		cmocka_unit_test(boot_options),  cmocka_unit_test(keys_documented),
		cmocka_unit_test(defaults_as_written), cmocka_unit_test(cpufreq_section),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
