// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_idle (src/drivers/intel_idle.c): built-in tables, sub-state
 * filtering, C1E/ALWAYS_ENABLE, states off by default from _CST on server
 * models, both sides of Mel Gorman's 75af76d0a34e (v5.10), the _CST claim,
 * max_cstate / states_off / use_acpi / no_acpi, the SKL-H, SKX and SPR
 * fix-ups, Granite Rapids partial hint matching, unknown models with and
 * without _CST, and refusals. Expected tables are derived by hand from
 * drivers/idle/intel_idle.c at 00433eae1771 and the diffs named there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/drivers.h"
#include "idlelab/platform.h"
#include "ini_join.h"
#include "../../src/drivers/drivers_internal.h"

#define CPU(model, edx) "[platform]\nname = t\n[topology]\npackages = 2\ncores_per_package = 12\n" \
	"threads_per_core = 2\n[cpu]\narch = x86\nvendor = intel\nfamily = 6\nmodel = " model "\n" \
	"mwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = " edx "\n[firmware]\nmwait_exit = 1500\n"
#define HSX CPU("0x3f", "0x2120")
#define SKX CPU("0x55", "0x2020")
#define SKX_PC6 SKX "[cpu]\npkg_cst_config = 7\n"
#define SKL CPU("0x5e", "0x11142120")
#define ICX CPU("0x6a", "0x2020")
#define SPR CPU("0x8f", "0x2020")
#define GNR CPU("0xad", "0x2020")

/* The 2020 report's firmware: C1 MWAIT, C2/C3 as I/O reads: not usable for intel_idle. */
#define CST_UNUSABLE "[firmware]\ncst_claim = no\n" \
	"[cst.1]\ntype = C1\nlatency = 2\nmethod = ffh\naddress = 0x00\n" \
	"[cst.2]\ntype = C2\nlatency = 33\nmethod = systemio\naddress = 0x414\n" \
	"[cst.3]\ntype = C3\nlatency = 133\nmethod = systemio\naddress = 0x415\n"
/* A usable _CST: C1 0x00, C2 0x10, C3 0x20. */
#define CST_FULL "[cst.1]\ntype = C1\nlatency = 2\nmethod = ffh\naddress = 0x00\n" \
	"[cst.2]\ntype = C2\nlatency = 33\nmethod = ffh\naddress = 0x10\n" \
	"[cst.3]\ntype = C3\nlatency = 133\nmethod = ffh\naddress = 0x20\n"
/* A usable _CST without the C6 hint. */
#define CST_NO_C6 "[cst.1]\ntype = C1\nlatency = 2\nmethod = ffh\naddress = 0x00\n" \
	"[cst.2]\ntype = C2\nlatency = 33\nmethod = ffh\naddress = 0x10\n"

static void load(struct il_platform *p, const char *a, const char *b, const char *c)
{
	char cat[4096], buf[4096];
	struct il_err e;

	snprintf(cat, sizeof(cat), "%s%s%s", a, b ? b : "", c ? c : "");
	ini_join(buf, sizeof(buf), cat);
	if (il_platform_load_string(p, buf, strlen(buf), "t.ini", &e))
		fail_msg("platform: %s", e.msg);
}

static bool has_note(const struct il_machine_idle *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

static int probe(const char *release, struct il_machine_idle *m, const char *a, const char *b,
		 const char *c, const char *key, const char *value)
{
	struct il_platform p;
	struct il_err e;

	load(&p, a, b, c);
	if (key)
		assert_int_equal(il_platform_set_option(&p, key, value, NULL), 0);
	memset(m, 0, sizeof(*m));
	snprintf(m->release, sizeof(m->release), "%s", release);
	return il_intel_idle_probe(&p, m, &e);
}

static void build(const char *release, struct il_machine_idle *m, const char *a, const char *b,
		  const char *c, const char *key, const char *value)
{
	if (probe(release, m, a, b, c, key, value)) {
		for (int i = 0; i < m->nnotes; i++)
			print_message("note: %s\n", m->notes[i]);
		fail_msg("intel_idle did not load");
	}
	assert_true(m->cpuidle);
	assert_string_equal(m->drv.name, "intel_idle");
}

/* names joined by spaces, with '-' after an OFF one */
static const char *names(const struct il_machine_idle *m, char *buf, size_t n)
{
	size_t l = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->drv.state_count; i++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s%s", i ? " " : "", m->drv.states[i].name,
				      (m->drv.states[i].flags & IL_FLAG_OFF) ? "-" : "");
	return buf;
}

static void haswell_x_table(void **state)
{
	struct il_machine_idle m;
	struct il_platform p;
	char b[128];
	static const unsigned int lat[] = { 0, 2, 10, 33, 133 }, res[] = { 0, 2, 20, 100, 400 };
	(void)state;

	load(&p, HSX, NULL, NULL);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "6.18");
	assert_string_equal(il_intel_idle_table_name(&p, &m), "Haswell-X");
	build("6.18", &m, HSX, CST_FULL, NULL, NULL, NULL);
	/* C7s (0x32), C8 .. C10 have no sub-states in EDX 0x2120 */
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_true(has_note(&m, "C7s C8 C9 C10"));
	for (int i = 0; i < 5; i++) {
		assert_int_equal(m.drv.states[i].exit_latency, lat[i]);
		assert_int_equal(m.drv.states[i].target_residency, res[i]);
	}
	assert_string_equal(m.drv.states[3].desc, "MWAIT 0x10");
	assert_int_equal(m.drv.states[3].entry, IL_ENTRY_MWAIT);
	assert_int_equal(m.drv.states[3].mwait_hint, 0x10);
	assert_int_equal(m.drv.states[4].mwait_hint, 0x20);
	assert_int_equal(m.drv.states[2].mwait_hint, 0x01);
	/* TURBO_RELEASE on C3/C6-class hints only; TLB_FLUSHED as the table says */
	assert_int_equal(m.drv.states[1].flags, 0);
	assert_int_equal(m.drv.states[2].flags, 0);
	assert_int_equal(m.drv.states[3].flags, IL_FLAG_TLB_FLUSHED | IL_FLAG_TURBO_RELEASE);
	assert_int_equal(m.drv.states[4].flags, IL_FLAG_TLB_FLUSHED | IL_FLAG_TURBO_RELEASE);
	assert_true(m.drv.states[1].has_s2idle);
	/* exit distributions: mwait_exit for C1-class hints, the latency for deeper ones */
	assert_int_equal((int)m.drv.states[1].exit_dist.a, 1500);
	assert_int_equal((int)m.drv.states[2].exit_dist.a, 1500);
	assert_int_equal((int)m.drv.states[4].exit_dist.a, 133000);
	assert_true(has_note(&m, "C1E promotion disabled"));
	assert_int_equal(m.drv.states[0].entry, IL_ENTRY_POLL);
}

/* Mel Gorman's 75af76d0a34e, both sides, on the firmware of the report. */
static void cst_fix_both_sides(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("5.9", &m, HSX, CST_UNUSABLE, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3- C6-");
	assert_true(has_note(&m, "kernels before 5.10 keep its table"));
	assert_true(has_note(&m, "off by default: C3 C6"));
	build("5.10", &m, HSX, CST_UNUSABLE, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_true(has_note(&m, "ignored (75af76d0a34e)"));
	build("6.18", &m, HSX, CST_UNUSABLE, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	/* before 5.6 there is no _CST cross-check at all */
	build("5.5", &m, HSX, CST_UNUSABLE, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
}

/* The claim: refused resets the table in both presets; granted keeps it. */
static void cst_claim(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("5.9", &m, HSX, CST_NO_C6, "[firmware]\ncst_claim = no\n", NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_true(has_note(&m, "Failed to claim"));
	build("5.10", &m, HSX, CST_NO_C6, "[firmware]\ncst_claim = no\n", NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	/* a firmware that hands control over: the platform's firmware does, the C6 hint is missing */
	build("5.9", &m, HSX, CST_NO_C6, "[firmware]\ncst_claim = no\n", "firmware.cst_claim", "yes");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6-");
	build("6.18", &m, HSX, CST_NO_C6, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6-");
	/* full _CST: nothing off */
	build("6.18", &m, HSX, CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	/* no _CST at all: nothing off */
	build("6.18", &m, HSX, NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	/* _CST with zero entries: inconsistent, ignored */
	build("6.18", &m, HSX, "[firmware]\ncst = yes\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_true(has_note(&m, "inconsistent _CST"));
}

static void max_cstate_and_states_off(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.18", &m, HSX, CST_FULL, NULL, "intel_idle.max_cstate", "2");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E");
	assert_true(has_note(&m, "max_cstate 2 reached"));
	assert_int_equal(probe("6.18", &m, HSX, NULL, NULL, "intel_idle.max_cstate", "0"), 1);
	assert_true(has_note(&m, "intel_idle.max_cstate=0"));
	/* with max_cstate=1 the unusable _CST is usable (only C1 checked): the claim decides */
	build("5.9", &m, HSX, CST_UNUSABLE, NULL, "intel_idle.max_cstate", "1");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1");
	assert_true(has_note(&m, "Failed to claim"));
	build("6.18", &m, HSX, NULL, NULL, "intel_idle.states_off", "0x9");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL- C1 C1E C3- C6");
	build("5.6", &m, HSX, NULL, NULL, "intel_idle.states_off", "0x9");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL- C1 C1E C3- C6");
	build("5.5", &m, HSX, NULL, NULL, "intel_idle.states_off", "0x9");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_true(has_note(&m, "states_off does not exist"));
	build("6.18", &m, HSX, NULL, NULL, "intel_idle.states_off", "x");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	/* states_off bits count registered states: C1E ALWAYS_ENABLE does not protect it */
	build("6.18", &m, HSX, NULL, NULL, "intel_idle.states_off", "4");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E- C3 C6");
}

static void use_acpi_no_acpi(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	/* client tables are not cross-checked unless use_acpi=1 */
	build("6.18", &m, SKL, CST_NO_C6, "[cpu]\npkg_cst_config = 3\n", NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C8 C9 C10");
	build("6.18", &m, SKL, CST_NO_C6, "[cpu]\npkg_cst_config = 3\n", "intel_idle.use_acpi", "1");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6- C7s- C8- C9- C10-");
	/* no_acpi wins over use_acpi and over the model's use_acpi */
	build("6.18", &m, SKX, CST_NO_C6, NULL, "intel_idle.no_acpi", "Y");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_true(has_note(&m, "no_acpi"));
	build("6.18", &m, SKX, CST_NO_C6, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6-");
}

static void substates(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.18", &m, CPU("0x3f", "0x20"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E");
	assert_int_equal(probe("6.18", &m, CPU("0x3f", "0"), NULL, NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "sub-states"));
	assert_int_equal(probe("6.18", &m, HSX, "[cpu]\ncpuid5_ecx = 1\n", NULL, NULL, NULL), 1);
	/* C6 only (EDX nibble 3), no C1 sub-states: C1 and C1E dropped */
	build("6.18", &m, CPU("0x3f", "0x2000"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C6");
}

static void skx_fixup(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.18", &m, SKX, "[cpu]\npkg_cst_config = 0x2\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_int_equal(m.drv.states[3].target_residency, 600);
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	build("6.18", &m, SKX, "[cpu]\npkg_cst_config = 0x401\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 92);
	assert_int_equal(m.drv.states[3].target_residency, 276);
	assert_true(has_note(&m, "SKX fix-up"));
	/* SPR: no PC6 -> 190/600, else 290/800; C1E 2/4 */
	build("6.18", &m, SPR, "[cpu]\npkg_cst_config = 0\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 190);
	assert_int_equal(m.drv.states[3].target_residency, 600);
	build("6.18", &m, SPR, "[cpu]\npkg_cst_config = 7\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 290);
	assert_int_equal(m.drv.states[3].target_residency, 800);
	assert_int_equal(m.drv.states[2].exit_latency, 2);
	assert_int_equal(m.drv.states[2].target_residency, 4);
	/* Emerald Rapids uses the SPR table and fix-up */
	build("6.18", &m, CPU("0xcf", "0x2020"), "[cpu]\npkg_cst_config = 1\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 190);
	/* ICX */
	build("6.18", &m, ICX, NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_int_equal(m.drv.states[1].exit_latency, 1);
	assert_int_equal(m.drv.states[2].exit_latency, 4);
	assert_int_equal(m.drv.states[3].exit_latency, 170);
	assert_int_equal(m.drv.states[3].target_residency, 600);
}

static void sklh_fixup(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.18", &m, SKL, "[cpu]\npkg_cst_config = 0x8\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C10");
	assert_true(has_note(&m, "SKL-H fix-up"));
	assert_int_equal(m.drv.states[6].exit_latency, 890);
	build("6.18", &m, SKL, "[cpu]\npkg_cst_config = 0x8\nsgx_enabled = yes\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C8 C9 C10");
	/* max_cstate <= 7: no fix-up, and the table stops after 7 states */
	build("6.18", &m, SKL, "[cpu]\npkg_cst_config = 0x8\n", NULL, "intel_idle.max_cstate", "7");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C8 C9");
	/* no C10 sub-states in EDX: no fix-up, C10 skipped by the sub-state check */
	build("6.18", &m, CPU("0x5e", "0x01142120"), "[cpu]\npkg_cst_config = 0x8\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C8 C9");
	/* Kaby Lake shares the table but not the fix-up */
	build("6.18", &m, CPU("0x9e", "0x11142120"), "[cpu]\npkg_cst_config = 0x8\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C8 C9 C10");
}

static void granite_rapids(void **state)
{
	struct il_machine_idle m;
	char b[128];
	/* firmware maps ACPI C2 to C6P (0x21) only */
	const char *cst = "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0\n"
			  "[cst.2]\ntype = C2\nlatency = 210\nmethod = ffh\naddress = 0x21\n";
	(void)state;

	build("6.12", &m, GNR, cst, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6 C6P");
	assert_int_equal(m.drv.states[3].exit_latency, 170);
	assert_int_equal(m.drv.states[3].target_residency, 650);
	assert_int_equal(m.drv.states[4].exit_latency, 210);
	assert_int_equal(m.drv.states[4].target_residency, 1000);
	assert_string_equal(m.drv.states[4].desc, "MWAIT 0x21");
	/* ACPI C2 disabled: both flavours off, C1E still on */
	build("6.18", &m, GNR, "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0\n",
	      NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6- C6P-");
	/* mapped to C6 (0x20): both on */
	build("6.18", &m, GNR, "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0\n"
	      "[cst.2]\ntype = C2\nlatency = 170\nmethod = ffh\naddress = 0x20\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6 C6P");
	/* SPR has no partial matching: a 0x21 _CST hint does not cover C6 (0x20) */
	build("6.18", &m, SPR, cst, "[cpu]\npkg_cst_config = 7\n", NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6-");
	/* before the table: an unknown model, built from _CST */
	build("6.11", &m, GNR, cst, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
}

/* Xeon Phi (KNL/KNM: knl_cstates, use_acpi) and Cherry Trail (cht_cstates), by hand from the tables. */
static void xeon_phi_cherry_trail(void **state)
{
	struct il_machine_idle m;
	char b[128];
	static const unsigned int lat[] = { 0, 1, 80, 200, 1200, 10000 },
				  res[] = { 0, 1, 275, 560, 4000, 20000 };
	(void)state;

	/* KNM (0x85), sub-states for C1 (0x00) and C6 (hint 0x10, the C2 nibble) */
	build("6.18", &m, CPU("0x85", "0x110"), CST_NO_C6, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6");
	assert_int_equal(m.drv.states[1].exit_latency, 1);
	assert_int_equal(m.drv.states[1].target_residency, 2);
	assert_int_equal(m.drv.states[2].exit_latency, 120);
	assert_int_equal(m.drv.states[2].target_residency, 500);
	assert_int_equal(m.drv.states[2].mwait_hint, 0x10);
	assert_int_equal(m.drv.states[2].flags, IL_FLAG_TLB_FLUSHED | IL_FLAG_TURBO_RELEASE);
	assert_false(has_note(&m, "C1E promotion disabled"));
	/* use_acpi: a _CST that lists C1 only turns C6 off by default (from 5.6) */
	build("6.18", &m, CPU("0x57", "0x110"),
	      "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0x00\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6-");
	build("5.4", &m, CPU("0x57", "0x110"),
	      "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0x00\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6");

	/* Cherry Trail (0x4c), CPUID.5:EDX 0x33000020 as its intel_idle logs it; no _CST check */
	build("6.18", &m, CPU("0x4c", "0x33000020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6N C6S C7 C7S");
	for (int i = 0; i < 6; i++) {
		assert_int_equal(m.drv.states[i].exit_latency, lat[i]);
		assert_int_equal(m.drv.states[i].target_residency, res[i]);
	}
	assert_string_equal(m.drv.states[2].desc, "MWAIT 0x58");
	assert_string_equal(m.drv.states[5].desc, "MWAIT 0x64");
	assert_true(has_note(&m, "Cherry Trail: C1E promotion disabled"));
	/* without C7 sub-states (EDX nibble 7 clear) C7 and C7S are skipped */
	build("6.18", &m, CPU("0x4c", "0x03000020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6N C6S");
}

/* exit latency and target residency of every state, against a list */
static void lat_res(const struct il_machine_idle *m, const unsigned int *lat, const unsigned int *res,
		    int n)
{
	assert_int_equal(m->drv.state_count, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(m->drv.states[i].exit_latency, lat[i]);
		assert_int_equal(m->drv.states[i].target_residency, res[i]);
	}
}

/*
 * The 0.5.1 tables of the older and smaller models, by hand from
 * 00433eae1771: Nehalem/Westmere (nhx with use_acpi), Sandy Bridge, Ivy
 * Bridge, Bay Trail, Bonnell/Saltwell Atom (a first state named C1E with
 * hint 0x00, C1E promotion left alone), Tangier, Avoton, Denverton, Snow
 * Ridge. A state is kept when the CPUID.5:EDX nibble of its hint's
 * C-state (hint >> 4, plus one) is not zero: EDX 0x11112222 covers hints
 * 0x00..0x30, 0x03010110 the Atom's 0x00, 0x10, 0x30 and 0x52.
 */
static void older_models(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	/* Nehalem (0x1e) */
	{
		static const unsigned int lat[] = { 0, 3, 10, 20, 200 }, res[] = { 0, 6, 20, 80, 800 };

		build("6.18", &m, CPU("0x1e", "0x11112222"), NULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
		lat_res(&m, lat, res, 5);
		assert_true(has_note(&m, "Nehalem: hardware C-state auto-demotion disabled"));
		assert_true(has_note(&m, "C1E promotion disabled"));
	}
	/* Westmere-EP (0x2c): nhx, use_acpi: a _CST without C3/C6 hints turns them off */
	build("6.18", &m, CPU("0x2c", "0x11112222"),
	      "[cst.1]\ntype = C1\nlatency = 3\nmethod = ffh\naddress = 0x00\n", NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3- C6-");
	/* Sandy Bridge (0x2a) and Sandy Bridge-X (0x2d) */
	{
		static const unsigned int lat[] = { 0, 2, 10, 80, 104, 109 },
					  res[] = { 0, 2, 20, 211, 345, 345 };

		build("6.18", &m, CPU("0x2a", "0x11112222"), NULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7");
		lat_res(&m, lat, res, 6);
		build("6.18", &m, CPU("0x2d", "0x11112222"), CST_NO_C6, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6- C7-");
	}
	/* Ivy Bridge (0x3a) */
	{
		static const unsigned int lat[] = { 0, 1, 10, 59, 80, 87 },
					  res[] = { 0, 1, 20, 156, 300, 300 };

		build("6.18", &m, CPU("0x3a", "0x11112222"), NULL, NULL, NULL, NULL);
		lat_res(&m, lat, res, 6);
	}
	/* Bay Trail (0x37): C6N 0x58 needs 9 sub-states in the C6 nibble */
	{
		static const unsigned int lat[] = { 0, 1, 300, 500, 1200, 10000 },
					  res[] = { 0, 1, 275, 560, 4000, 20000 };

		build("6.18", &m, CPU("0x37", "0x99990022"), NULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6N C6S C7 C7S");
		lat_res(&m, lat, res, 6);
		assert_true(has_note(&m, "Bay Trail: C6 auto-demotion disabled"));
	}
	/* Saltwell Atom (0x36): C1E at hint 0x00, C2 0x10 without TLB_FLUSHED */
	{
		static const unsigned int lat[] = { 0, 10, 20, 100, 140 }, res[] = { 0, 20, 80, 400, 560 };

		build("6.18", &m, CPU("0x36", "0x03010110"), NULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C2 C4 C6");
		lat_res(&m, lat, res, 5);
		assert_int_equal(m.drv.states[1].mwait_hint, 0x00);
		assert_int_equal(m.drv.states[2].flags & IL_FLAG_TLB_FLUSHED, 0);
		assert_true(m.drv.states[3].flags & IL_FLAG_TLB_FLUSHED);
		assert_false(has_note(&m, "C1E promotion"));
	}
	/* Lincroft (0x26): atom's table, with auto-demotion disabled */
	build("6.18", &m, CPU("0x26", "0x03010110"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C2 C4 C6");
	assert_true(has_note(&m, "Lincroft: hardware C-state auto-demotion disabled"));
	/* Tangier (0x4a) */
	{
		static const unsigned int lat[] = { 0, 1, 100, 140, 1200, 10000 },
					  res[] = { 0, 4, 400, 560, 4000, 20000 };

		build("6.18", &m, CPU("0x4a", "0x55330022"), NULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C4 C6 C7 C9");
		lat_res(&m, lat, res, 6);
	}
	/* Avoton (0x4d): C6 at hint 0x51, 15/45, use_acpi */
	build("6.18", &m, CPU("0x4d", "0x02000020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6");
	assert_int_equal(m.drv.states[2].exit_latency, 15);
	assert_int_equal(m.drv.states[2].target_residency, 45);
	assert_int_equal(m.drv.states[2].mwait_hint, 0x51);
	/* Denverton (0x5f) and Snow Ridge (0x86) */
	build("6.18", &m, CPU("0x5f", "0x2020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_int_equal(m.drv.states[3].exit_latency, 50);
	assert_int_equal(m.drv.states[3].target_residency, 500);
	build("6.18", &m, CPU("0x86", "0x2020"), NULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_latency, 15);
	assert_int_equal(m.drv.states[2].target_residency, 25);
	assert_int_equal(m.drv.states[3].exit_latency, 130);
	assert_int_equal(m.drv.states[3].target_residency, 500);
	/* Snow Ridge parts without C6 in CPUID.5 (EDX 0x20) skip it */
	build("6.18", &m, CPU("0x86", "0x20"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E");
}

/* Ivy Town: the table follows the socket count (1-2, 3-4, more). */
static void ivy_town_sockets(void **state)
{
	struct il_machine_idle m;
	static const unsigned int lat2[] = { 0, 1, 10, 59, 82 }, res2[] = { 0, 1, 80, 156, 300 },
				  lat4[] = { 0, 1, 10, 59, 84 }, res4[] = { 0, 1, 250, 300, 400 },
				  lat8[] = { 0, 1, 10, 59, 88 }, res8[] = { 0, 1, 500, 600, 700 };
	(void)state;

	build("6.18", &m, CPU("0x3e", "0x1120"), NULL, NULL, NULL, NULL);
	lat_res(&m, lat2, res2, 5);
	build("6.18", &m, CPU("0x3e", "0x1120"), "[topology]\npackages = 3\n", NULL, NULL, NULL);
	lat_res(&m, lat4, res4, 5);
	assert_true(has_note(&m, "3 sockets"));
	build("6.18", &m, CPU("0x3e", "0x1120"), "[topology]\npackages = 4\n", NULL, NULL, NULL);
	lat_res(&m, lat4, res4, 5);
	build("6.18", &m, CPU("0x3e", "0x1120"), "[topology]\npackages = 5\n", NULL, NULL, NULL);
	lat_res(&m, lat8, res8, 5);
	build("6.18", &m, CPU("0x3e", "0x1120"), "[topology]\npackages = 8\n", NULL, NULL, NULL);
	lat_res(&m, lat8, res8, 5);
}

/*
 * Goldmont: the IRTL MSRs replace C6..C10. 0x8858 = valid bit 15, unit 2
 * (1024 ns), value 0x58 = 88: 88 x 1024 ns = 90112 ns = 90 us (whole µs,
 * truncated). 0x0c05 = unit 3 (32768 ns) x 5 = 163840 ns = 163 us. Units
 * 6 and 7 are 0 ns: the table's value stays.
 */
static void goldmont_irtl(void **state)
{
	struct il_machine_idle m;
	char b[128];
	static const unsigned int lat[] = { 0, 2, 10, 133, 155, 1000, 2000, 10000 },
				  res[] = { 0, 2, 20, 133, 155, 1000, 2000, 10000 };
	(void)state;

	build("6.18", &m, CPU("0x5c", "0x11142120"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6 C7s C8 C9 C10");
	lat_res(&m, lat, res, 8);
	build("6.18", &m, CPU("0x7a", "0x11142120"),
	      "[cpu]\npkgc6_irtl = 0x8858\npkgc8_irtl = 0x0c05\npkgc10_irtl = 0x1801\n", NULL, NULL,
	      NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 90);
	assert_int_equal(m.drv.states[3].target_residency, 90);
	assert_int_equal(m.drv.states[4].exit_latency, 155);
	assert_int_equal(m.drv.states[5].exit_latency, 163);
	assert_int_equal(m.drv.states[5].target_residency, 163);
	assert_int_equal(m.drv.states[7].exit_latency, 10000);
	assert_true(has_note(&m, "MSR_PKGC6_IRTL 0x8858: C6 90/90 us"));
}

/*
 * Alder Lake: C1 unusable and C1E on by default; preferred_cstates bit 1
 * without bit 2 swaps them (v5.18+); before its first release the model
 * has no table: a _CST one.
 */
static void alder_lake(void **state)
{
	struct il_machine_idle m;
	char b[128];
	static const unsigned int lat[] = { 0, 2, 220, 280, 680 }, res[] = { 0, 4, 600, 800, 2000 },
				  lat_l[] = { 0, 2, 170, 200, 230 }, res_l[] = { 0, 4, 500, 600, 700 },
				  lat_n[] = { 0, 2, 195, 260, 660 }, res_n[] = { 0, 4, 585, 1040, 1980 };
	(void)state;

	build("6.18", &m, CPU("0x97", "0x10102020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C8 C10");
	lat_res(&m, lat, res, 5);
	assert_true(has_note(&m, "C1E promotion enabled"));
	build("6.18", &m, CPU("0x97", "0x10102020"), NULL, NULL, "intel_idle.preferred_cstates", "2");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6 C8 C10");
	assert_int_equal(m.drv.states[1].exit_latency, 1);
	assert_int_equal(m.drv.states[1].target_residency, 1);
	/* both C1 and C1E preferred: the default stays */
	build("6.18", &m, CPU("0x97", "0x10102020"), NULL, NULL, "intel_idle.preferred_cstates", "6");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C8 C10");
	build("6.18", &m, CPU("0x9a", "0x10102020"), NULL, NULL, NULL, NULL);
	lat_res(&m, lat_l, res_l, 5);
	build("6.18", &m, CPU("0xbe", "0x10102020"), NULL, NULL, NULL, NULL);
	lat_res(&m, lat_n, res_n, 5);
	/* no C1E promotion disabling on ADL: the descriptor leaves it to the fix-up */
	assert_false(has_note(&m, "C1E promotion disabled"));
	/*
	 * before the table: _CST gives the states; its C2 (hint 0x10) has no
	 * sub-states in EDX 0x10102020, so the FFH probe drops it
	 */
	build("5.15", &m, CPU("0x97", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	assert_int_equal(m.drv.states[2].mwait_hint, 0x20);
}

/*
 * Which table a model gets in which release (intel_idle_ids[] history,
 * from the PM pull requests of each release): Ice Lake-X from 5.9 with C6
 * 128/384, 170/600 from 5.13 (when Ice Lake-D joins); Snow Ridge's own
 * table from 5.11 (Denverton's before); the SKX fix-up from 5.14;
 * Emerald Rapids from 6.3.
 */
static void release_history(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	/*
	 * Ice Lake-X: _CST before 5.9 (its C2, hint 0x10, has no sub-states in
	 * EDX 0x2020 and is dropped), then the two texts
	 */
	build("5.8", &m, ICX, CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("5.9", &m, ICX, CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_int_equal(m.drv.states[3].exit_latency, 128);
	assert_int_equal(m.drv.states[3].target_residency, 384);
	build("5.12", &m, ICX, CST_FULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 128);
	build("5.13", &m, ICX, CST_FULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 170);
	assert_int_equal(m.drv.states[3].target_residency, 600);
	/* Ice Lake-D: only from 5.13 */
	build("5.12", &m, CPU("0x6c", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("5.13", &m, CPU("0x6c", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	/* Snow Ridge: Denverton's table (C1E 10/20, C6 50/500) before 5.11 */
	build("5.10", &m, CPU("0x86", "0x2020"), NULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	assert_int_equal(m.drv.states[3].exit_latency, 50);
	build("5.11", &m, CPU("0x86", "0x2020"), NULL, NULL, NULL, NULL);
	assert_int_equal(m.drv.states[2].exit_latency, 15);
	assert_int_equal(m.drv.states[3].exit_latency, 130);
	/* the SKX package-C6 fix-up: 5.14 on */
	build("5.13", &m, SKX, "[cpu]\npkg_cst_config = 0\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_int_equal(m.drv.states[3].target_residency, 600);
	build("5.14", &m, SKX, "[cpu]\npkg_cst_config = 0\n", NULL, NULL, NULL);
	assert_int_equal(m.drv.states[3].exit_latency, 92);
	assert_int_equal(m.drv.states[3].target_residency, 276);
	/* Emerald Rapids: the SPR table from 6.3 */
	build("6.2", &m, CPU("0xcf", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("6.3", &m, CPU("0xcf", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	/* Alder Lake from 5.19, Alder Lake-N (Gracemont) from 6.1 */
	build("5.18", &m, CPU("0x97", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("5.19", &m, CPU("0x97", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C8 C10");
	build("6.0", &m, CPU("0xbe", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("6.1", &m, CPU("0xbe", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C8 C10");
	/* the public lookup gives the same */
	{
		const char *first;

		assert_null(il_intel_idle_model_table(6, 0x97, "5.18", &first));
		assert_string_equal(first, "5.19");
		assert_string_equal(il_intel_idle_model_table(6, 0x97, "5.19", NULL), "Alder Lake");
		assert_null(il_intel_idle_model_table(6, 0x6a, "5.4", &first));
		assert_string_equal(first, "5.9");
		assert_string_equal(il_intel_idle_model_table(6, 0x3f, "5.4", &first), "Haswell-X");
		assert_string_equal(first, "");
		assert_null(il_intel_idle_model_table(6, 0x99, "6.18", &first));
		assert_null(first);
		assert_null(il_intel_idle_model_table(15, 0x3f, "6.18", &first));
		assert_null(first);
		/* models with several entries; the newest release; Tremont has no table */
		assert_string_equal(il_intel_idle_model_table(6, 0x55, "5.4", &first), "Skylake-X");
		assert_string_equal(first, "");
		assert_string_equal(il_intel_idle_model_table(6, 0x86, "5.10", &first), "Denverton");
		assert_string_equal(first, "");
		assert_null(il_intel_idle_model_table(6, 0x6c, "5.12", &first));
		assert_string_equal(first, "5.13");
		assert_string_equal(il_intel_idle_model_table(6, 0x97, NULL, NULL), "Alder Lake");
		assert_null(il_intel_idle_model_table(6, 0x9c, "6.12", &first));
		assert_null(first);
	}
	/* what a state's numbers may be, and why (doctor's intel-idle-table-values) */
	{
		struct il_intel_idle_expect x;

		assert_true(il_intel_idle_expect_state(6, 0x55, "6.12", "C6", &x));
		assert_int_equal(x.exit_latency, 133);
		assert_int_equal(x.target_residency, 600);
		assert_int_equal(x.nalt, 1);
		assert_int_equal(x.alt[0].exit_latency, 92);
		assert_int_equal(x.alt[0].target_residency, 276);
		assert_non_null(strstr(x.alt[0].cause, "package C6"));
		/* before the SKX fix-up existed, no alternative */
		assert_true(il_intel_idle_expect_state(6, 0x55, "5.13", "C6", &x));
		assert_int_equal(x.nalt, 0);
		assert_true(il_intel_idle_expect_state(6, 0x8f, "5.18", "C6", &x));
		assert_int_equal(x.alt[0].exit_latency, 190);
		assert_true(il_intel_idle_expect_state(6, 0x3e, NULL, "C1E", &x));
		assert_int_equal(x.target_residency, 80);
		assert_int_equal(x.nalt, 2);
		assert_int_equal(x.alt[0].target_residency, 250);
		assert_int_equal(x.alt[1].target_residency, 500);
		assert_true(il_intel_idle_expect_state(6, 0x5c, "6.18", "C8", &x));
		assert_non_null(x.any_value);
		assert_true(il_intel_idle_expect_state(6, 0x5c, "6.18", "C1E", &x));
		assert_null(x.any_value);
		assert_false(il_intel_idle_expect_state(6, 0x55, "6.12", "C7", &x));
		assert_false(il_intel_idle_expect_state(6, 0x8f, "5.17", "C6", &x));
		assert_false(il_intel_idle_expect_state(6, 0x9c, "6.12", "C1", &x));
	}
}

/*
 * Sapphire Rapids: _CST before 5.18; in 5.18 and 5.19 C1E is unusable and
 * preferred_cstates bit 2 without bit 1 swaps C1 for C1E; from 6.0 (1548fac47a11)
 * both are registered and the option no longer touches SPR.
 */
static void sapphire_rapids_releases(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("5.17", &m, SPR, CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("5.18", &m, SPR, CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6");
	build("5.19", &m, SPR, CST_FULL, NULL, "intel_idle.preferred_cstates", "4");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6");
	assert_true(has_note(&m, "C1E promotion enabled"));
	assert_false(has_note(&m, "C1E promotion disabled"));
	assert_int_equal(m.drv.states[1].exit_latency, 2);
	assert_int_equal(m.drv.states[1].target_residency, 4);
	/* both bits: the defaults, and the package-C6 limit still applies */
	build("5.18", &m, SPR, CST_FULL, "[cpu]\npkg_cst_config = 1\n", "intel_idle.preferred_cstates",
	      "6");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6");
	assert_int_equal(m.drv.states[2].exit_latency, 190);
	assert_false(has_note(&m, "SPR fix-up: preferred"));
	assert_true(has_note(&m, "C1E promotion disabled"));
	build("6.0", &m, SPR, CST_FULL, NULL, "intel_idle.preferred_cstates", "4");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	/* preferred_cstates was removed in 7.0: Alder Lake keeps its default */
	build("6.19", &m, CPU("0x97", "0x10102020"), NULL, NULL, "intel_idle.preferred_cstates", "2");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C6 C8 C10");
	build("7.0", &m, CPU("0x97", "0x10102020"), NULL, NULL, "intel_idle.preferred_cstates", "2");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C8 C10");
	assert_true(has_note(&m, "preferred_cstates was removed in 7.0"));
	/* 7.0 drops the ADL fix-up too: C1E promotion is left as the firmware set it */
	assert_false(has_note(&m, "ADL fix-up"));
	build("6.19", &m, CPU("0x97", "0x10102020"), NULL, NULL, NULL, NULL);
	assert_true(has_note(&m, "ADL fix-up: C1E promotion enabled"));
	build("5.17", &m, CPU("0x97", "0x10102020"), CST_FULL, NULL, "intel_idle.preferred_cstates",
	      "2");
	assert_true(has_note(&m, "preferred_cstates does not exist before 5.18"));
}

/*
 * The 2023-2025 tables: Meteor Lake-L (no C1), Grand Ridge, Sierra Forest
 * (C6S 0x22 and C6SP 0x23; they match a _CST C6 hint on the nibble from
 * 6.12), Clearwater Forest on the SRF table from 6.14, Granite Rapids-D
 * from 6.13, and the Tremont parts (6.12) with no table of their own.
 * EDX 0x00002220: sub-states for the C1, C2 and C3 nibbles (hints 0x00..0x23).
 */
static void newer_tables(void **state)
{
	struct il_machine_idle m;
	char b[128];
	static const char *cst_c6_20 = "[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\naddress = 0x00\n"
				       "[cst.2]\ntype = C2\nlatency = 200\nmethod = ffh\naddress = 0x20\n";
	(void)state;

	build("6.8", &m, CPU("0xaa", "0x10102020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1E C6 C10");
	assert_int_equal(m.drv.states[1].exit_latency, 1);
	assert_int_equal(m.drv.states[2].target_residency, 420);
	assert_int_equal(m.drv.states[3].exit_latency, 310);
	assert_int_equal(m.drv.states[3].target_residency, 930);
	build("6.8", &m, CPU("0xb6", "0x00002220"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S");
	assert_int_equal(m.drv.states[2].target_residency, 10);
	assert_int_equal(m.drv.states[3].exit_latency, 140);
	/* Sierra Forest with a _CST that lists C6 as 0x20: exact matching turns both off (6.8) */
	build("6.8", &m, CPU("0xaf", "0x00002220"), cst_c6_20, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S- C6SP-");
	build("6.12", &m, CPU("0xaf", "0x00002220"), cst_c6_20, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S C6SP");
	assert_int_equal(m.drv.states[3].exit_latency, 270);
	assert_int_equal(m.drv.states[4].target_residency, 900);
	/* Clearwater Forest */
	build("6.13", &m, CPU("0xdd", "0x00002220"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI C3_ACPI");
	build("6.14", &m, CPU("0xdd", "0x00002220"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S C6SP");
	/* Granite Rapids-D */
	build("6.13", &m, CPU("0xae", "0x00002220"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6 C6P");
	assert_int_equal(m.drv.states[3].exit_latency, 220);
	assert_int_equal(m.drv.states[4].exit_latency, 240);
	assert_int_equal(m.drv.states[4].target_residency, 750);
	/* Jasper Lake (0x9c): from 6.12 _CST states with C1E promotion disabled; no _CST: no driver */
	build("6.12", &m, CPU("0x9c", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	assert_true(has_note(&m, "Tremont: C1E promotion disabled"));
	build("6.11", &m, CPU("0x9c", "0x2020"), CST_FULL, NULL, NULL, NULL);
	assert_false(has_note(&m, "C1E promotion disabled"));
	assert_int_equal(probe("6.12", &m, CPU("0x96", "0x2020"), NULL, NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "Tremont has no built-in table and no usable _CST"));
	/* a family other than 6 with MWAIT: _CST states from 6.17 (Len Brown, Aug 2025) */
	{
		char fam[1024];
		const char *c6 = CPU("0x01", "0x2020");
		const char *at = strstr(c6, "family = 6");

		snprintf(fam, sizeof(fam), "%.*sfamily = 19%s", (int)(at - c6), c6, at + 10);
		assert_int_equal(probe("6.16", &m, fam, CST_FULL, NULL, NULL, NULL), 1);
		assert_true(has_note(&m, "family 19 model 0x1: not supported"));
		build("6.17", &m, fam, CST_FULL, NULL, NULL, NULL);
		assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
		/* the state names a platform file may use: _CST ones, no family-6 table's */
		{
			struct il_state_names sn;
			struct il_platform p;
			char f55[1024];
			const char *at55 = strstr(fam, "model = 0x01");

			snprintf(f55, sizeof(f55), "%.*smodel = 0x55%s", (int)(at55 - fam), fam,
				 at55 + 12);
			load(&p, f55, CST_FULL, NULL);
			memset(&sn, 0, sizeof(sn));
			il_intel_idle_state_names(&p, &sn);
			for (int i = 0; i < sn.n; i++)
				assert_string_not_equal(sn.v[i].name, "C1E");
			assert_string_equal(sn.v[1].name, "C1_ACPI");
		}
	}
	/*
	 * the whole machine, whose state-key check walks every text of the model
	 * (a descriptor without a table crashed it); _CST names are valid keys
	 */
	{
		struct il_platform p;
		struct il_err e;

		load(&p, CPU("0x96", "0x2020"), CST_FULL, "[firmware]\nexit.C2_ACPI = 40000\n");
		assert_int_equal(il_machine_idle_build(&p, "6.12", &m, &e), 0);
		assert_string_equal(m.drv.name, "intel_idle");
		assert_string_equal(m.drv.states[2].name, "C2_ACPI");
		assert_int_equal((int)m.drv.states[2].exit_dist.a, 40000);
	}
}

/*
 * Panther Lake-L (model 0xcc): d51de21b4c3a ("intel_idle: Add Panther Lake
 * C-states table", Artem Bityutskiy, posted 2026-03-09, merged for v7.1).
 * The table, by hand from the patch: C1 hint 0x00 1/1; C1E 0x01 10/10,
 * ALWAYS_ENABLE; C6S 0x21 300/300 and C10 0x60 370/2500, both
 * TLB_FLUSHED. Its idle_cpu sets only the table: no use_acpi (no _CST
 * cross-check), C1E promotion left alone. In 7.0 the model is unknown:
 * _CST states, or no driver without a _CST.
 */
static void panther_lake(void **state)
{
	struct il_machine_idle m;
	struct il_platform p;
	char b[128];
	static const unsigned int lat[] = { 0, 1, 10, 300, 370 }, res[] = { 0, 1, 10, 300, 2500 };
	(void)state;

	assert_int_equal(probe("7.0", &m, CPU("0xcc", "0x10102020"), NULL, NULL, NULL, NULL), 1);
	/* (EDX lists no C2 sub-states: the _CST's hint 0x10 entry is dropped) */
	build("7.0", &m, CPU("0xcc", "0x10102020"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("7.1", &m, CPU("0xcc", "0x10102020"), NULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S C10");
	for (int i = 1; i < 5; i++) {
		assert_int_equal(m.drv.states[i].exit_latency, lat[i]);
		assert_int_equal(m.drv.states[i].target_residency, res[i]);
	}
	assert_false(m.drv.states[2].flags & IL_FLAG_TLB_FLUSHED);
	assert_true(m.drv.states[3].flags & IL_FLAG_TLB_FLUSHED);
	assert_true(m.drv.states[4].flags & IL_FLAG_TLB_FLUSHED);
	assert_false(has_note(&m, "C1E promotion disabled"));
	/* not a use_acpi model: a _CST without C6S/C10 hints turns nothing off */
	build("7.1", &m, CPU("0xcc", "0x10102020"), CST_NO_C6, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6S C10");
	load(&p, CPU("0xcc", "0x10102020"), NULL, NULL);
	assert_string_equal(il_intel_idle_model_table(6, 0xcc, "7.1", NULL), "Panther Lake-L");
	assert_null(il_intel_idle_model_table(6, 0xcc, "7.0", NULL));
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "7.1");
	assert_string_equal(il_intel_idle_table_name(&p, &m), "Panther Lake-L");
}

/* no_native (6.15) and table= (7.0, with its validation) */
/* More notes than are kept: the last kept one says some were left out. */
static void notes_overflow(void **state)
{
	struct il_machine_idle m;
	char v[256] = "";
	(void)state;

	for (int i = 0; i < 30; i++)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), "Z%d::,", i);
	strcat(v, "C6:200:700");
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", v);
	assert_int_equal(m.drv.states[3].exit_latency, 200);
	assert_int_equal(m.nnotes, IL_NOTES_MAX);
	assert_true(has_note(&m, "C-state 'Z0' was not found"));
	assert_true(strstr(m.notes[IL_NOTES_MAX - 1], "more notes than idlelab keeps") != NULL);
}

static void no_native_and_table(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.15", &m, SKX, CST_FULL, NULL, "intel_idle.no_native", "1");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	build("6.14", &m, SKX, CST_FULL, NULL, "intel_idle.no_native", "1");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_true(has_note(&m, "no_native does not exist before 6.15"));
	/* a value kstrtobool() refuses keeps the default, and says so */
	build("6.15", &m, SKX, CST_FULL, NULL, "intel_idle.no_native", "maybe");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_true(has_note(&m, "no_native=maybe refused, keeps N"));
	build("6.15", &m, SKX, CST_FULL, NULL, "intel_idle.no_acpi", "2");
	assert_true(has_note(&m, "no_acpi=2 refused, keeps N"));
	build("6.15", &m, SKX, CST_FULL, NULL, "intel_idle.use_acpi", "x");
	assert_true(has_note(&m, "use_acpi=x refused, keeps N"));
	/* no_acpi wins over no_native */
	build("6.15", &m, SKX, CST_FULL, "[kernel]\noption = intel_idle.no_acpi=1\n",
	      "intel_idle.no_native", "1");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");

	/* SKX with package C6 allowed (no fix-up): C1 2/2, C1E 10/20, C6 133/600 */
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C1E:5:30,C6::400");
	assert_int_equal(m.drv.states[2].exit_latency, 5);
	assert_int_equal(m.drv.states[2].target_residency, 30);
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_int_equal(m.drv.states[3].target_residency, 400);
	assert_int_equal(m.drv.states[3].target_residency_ns, 400000);
	/* the hardware keeps its wake-up: C6's exit distribution is still 133 us */
	assert_int_equal((int)m.drv.states[3].exit_dist.a, 133000);
	assert_true(has_note(&m, "table: C1E 5/30 us (was 10/20)"));
	/* POLL and unknown names are skipped, the rest applies */
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "POLL:1:1,C7:1:1,C6:200:700");
	assert_int_equal(m.drv.states[3].exit_latency, 200);
	assert_true(has_note(&m, "cannot adjust POLL"));
	assert_true(has_note(&m, "C-state 'C7' was not found"));
	/* four ignored fields are one too many; a missing residency field; not a number */
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:200:700:a:b:c");
	assert_int_equal(m.drv.states[3].exit_latency, 200);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:200:700:a:b:c:d");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_true(has_note(&m, "too many fields; the table is not adjusted"));
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:200");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:x:700");
	assert_int_equal(m.drv.states[3].target_residency, 600);
	/* validation: latency 0, above 5000 us, residency above 100000 us or below the latency, not rising */
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C1:0:2");
	assert_int_equal(m.drv.states[1].target_residency, 2);
	assert_true(has_note(&m, "C-state 'C1' validation failed (0/2 us)"));
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:5001:6000");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:5000:100000");
	assert_int_equal(m.drv.states[3].exit_latency, 5000);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:5000:100001");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:300:200");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C1E:2:20");
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	assert_true(has_note(&m, "C-state 'C1E' validation failed (2/20 us)"));
	/* a table that fails as built (Bay Trail's C6N: 300/275) cannot be adjusted at all */
	build("7.0", &m, CPU("0x37", "0x99990022"), NULL, NULL, "intel_idle.table", "C7:1300:4000");
	assert_int_equal(m.drv.states[4].exit_latency, 1200);
	assert_true(has_note(&m, "C-state 'C6N' validation failed (300/275 us)"));
	/*
	 * up to 255 characters, as the kernel's string parameter; 256 are refused:
	 * "C1::," + 40 x "C1E::," (empty fields keep the values) + "C6:150:650" is 255
	 */
	{
		char v[300] = "C1::,", v256[300] = "C1E::,";
		struct il_platform p;
		struct il_err e;

		for (int i = 0; i < 40; i++) {
			strcat(v, "C1E::,");
			strcat(v256, "C1E::,");
		}
		strcat(v, "C6:150:650");
		strcat(v256, "C6:150:650");
		assert_int_equal(strlen(v), 255);
		assert_int_equal(strlen(v256), 256);
		load(&p, SKX_PC6, NULL, NULL);
		assert_int_equal(il_platform_set_option(&p, "intel_idle.table", v, NULL), 0);
		memset(&m, 0, sizeof(m));
		assert_int_equal(il_machine_idle_build(&p, "7.0", &m, &e), 0);
		assert_int_equal(m.drv.states[3].exit_latency, 150);
		assert_int_equal(m.drv.states[3].target_residency, 650);
		assert_int_not_equal(il_platform_set_option(&p, "intel_idle.table", v256, NULL), 0);
	}
	/* a trailing or doubled comma is an empty entry: nothing is adjusted */
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6:200:700,");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_true(has_note(&m, "an empty entry (a trailing or doubled ',')"));
	build("7.0", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C1E:5:30,,C6:200:700");
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	/* on a _CST table the names are C<n>_ACPI */
	build("7.0", &m, CPU("0x99", "0x2120"), CST_FULL, NULL, "intel_idle.table", "C3_ACPI:150:500");
	assert_int_equal(m.drv.states[3].exit_latency, 150);
	assert_int_equal(m.drv.states[3].target_residency, 500);
	/* Skylake's table repeats residencies (C7s and C8 800, C9 and C10 5000): never adjustable */
	build("7.0", &m, SKL, NULL, NULL, "intel_idle.table", "C1E:5:30");
	assert_int_equal(m.drv.states[2].exit_latency, 10);
	assert_true(has_note(&m, "validation failed"));
	/* not before 7.0 */
	build("6.19", &m, SKX_PC6, NULL, NULL, "intel_idle.table", "C6::400");
	assert_int_equal(m.drv.states[3].target_residency, 600);
	assert_true(has_note(&m, "table does not exist before 7.0"));
}

static void unknown_model(void **state)
{
	struct il_machine_idle m;
	char b[128];
	(void)state;

	build("6.18", &m, CPU("0x99", "0x2120"), CST_FULL, NULL, NULL, NULL);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI C3_ACPI");
	assert_string_equal(m.drv.states[1].desc, "ACPI FFH MWAIT 0x0");
	assert_int_equal(m.drv.states[1].exit_latency, 2);
	assert_int_equal(m.drv.states[1].target_residency, 2);
	assert_int_equal(m.drv.states[2].exit_latency, 33);
	assert_int_equal(m.drv.states[2].target_residency, 99);
	assert_int_equal(m.drv.states[2].flags, IL_FLAG_TURBO_RELEASE);
	assert_int_equal(m.drv.states[3].target_residency, 399);
	assert_int_equal(m.drv.states[3].flags, IL_FLAG_TLB_FLUSHED | IL_FLAG_TURBO_RELEASE);
	assert_int_equal(m.drv.states[3].mwait_hint, 0x20);
	/* states_off bits by _CST index; max_cstate counts them too */
	build("6.18", &m, CPU("0x99", "0x2120"), CST_FULL, NULL, "intel_idle.states_off", "4");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI- C3_ACPI");
	build("6.18", &m, CPU("0x99", "0x2120"), CST_FULL, NULL, "intel_idle.max_cstate", "2");
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1_ACPI C2_ACPI");
	/* without _CST, with an unusable one, with a refused claim, or before 5.6: not loaded */
	assert_int_equal(probe("6.18", &m, CPU("0x99", "0x2120"), NULL, NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "no usable _CST"));
	assert_int_equal(probe("6.18", &m, CPU("0x99", "0x2120"), CST_UNUSABLE, NULL, NULL, NULL), 1);
	assert_int_equal(probe("6.18", &m, CPU("0x99", "0x2120"), CST_FULL,
			       "[firmware]\ncst_claim = no\n", NULL, NULL), 1);
	assert_int_equal(probe("5.5", &m, CPU("0x99", "0x2120"), CST_FULL, NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "do not use _CST"));
	/* not family 6: not before 6.17, _CST states from it */
	assert_int_equal(probe("6.16", &m, CPU("0x99", "0x2120"), CST_FULL, "[cpu]\nfamily = 15\n",
			       NULL, NULL), 1);
	assert_int_equal(probe("6.18", &m, CPU("0x99", "0x2120"), CST_FULL, "[cpu]\nfamily = 15\n",
			       NULL, NULL), 0);
}

static void refusals(void **state)
{
	struct il_machine_idle m;
	(void)state;

	assert_int_equal(probe("6.18", &m, HSX, NULL, NULL, "idle", "nomwait"), 1);
	assert_true(has_note(&m, "idle=nomwait"));
	assert_int_equal(probe("6.18", &m, HSX, NULL, NULL, "idle", "halt"), 1);
	assert_int_equal(probe("6.18", &m, HSX, "[cpu]\nvendor = amd\n", NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "not an Intel CPU"));
	assert_int_equal(probe("6.18", &m, HSX, "[cpu]\nmwait = no\n", NULL, NULL, NULL), 1);
	assert_true(has_note(&m, "without MWAIT"));
}

static void timer_stop(void **state)
{
	struct il_machine_idle m;
	(void)state;

	build("6.18", &m, HSX, "[cpu]\narat = no\n", NULL, NULL, NULL);
	assert_false(m.drv.states[1].flags & IL_FLAG_TIMER_STOP);
	assert_false(m.drv.states[2].flags & IL_FLAG_TIMER_STOP);
	assert_true(m.drv.states[3].flags & IL_FLAG_TIMER_STOP);
	assert_true(m.drv.states[4].flags & IL_FLAG_TIMER_STOP);
	assert_true(m.drv.bctimer);
	build("6.18", &m, HSX, "[cpu]\nnonstop_tsc = no\n[firmware]\nexit.C6 = lognormal:60000:0.2\n",
	      NULL, NULL, NULL);
	assert_true(has_note(&m, "TSC halts"));
	assert_int_equal(m.drv.states[4].exit_dist.kind, IL_DIST_LOGNORMAL);
	assert_int_equal((int)m.drv.states[4].exit_dist.a, 60000);
}

/* The built-in platform files of this area, read from the source tree. */
static void builtin_platforms(void **state)
{
	struct il_platform p;
	struct il_machine_idle m;
	struct il_err e;
	char path[512], b[128];
	(void)state;

	snprintf(path, sizeof(path), "%s/platforms/intel-haswell-ep.ini", SRCDIR);
	if (il_platform_load_file(&p, path, &e))
		fail_msg("%s", e.msg);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "5.9");
	assert_int_equal(il_intel_idle_probe(&p, &m, &e), 0);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3- C6-");
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "5.10");
	assert_int_equal(il_intel_idle_probe(&p, &m, &e), 0);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6");
	assert_int_equal(il_platform_ncpus(&p), 48);
	assert_int_equal((int)p.turbo_mhz[11], 2600);
	assert_int_equal((int)p.turbo_mhz[7], 2600);  /* 8 cores: filled from 12 */
	assert_int_equal((int)p.turbo_mhz[4], 2700);
	assert_int_equal((int)p.turbo_mhz[0], 3100);

	snprintf(path, sizeof(path), "%s/platforms/intel-cascadelake-sp.ini", SRCDIR);
	if (il_platform_load_file(&p, path, &e))
		fail_msg("%s", e.msg);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "6.18");
	assert_int_equal(il_intel_idle_probe(&p, &m, &e), 0);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C6");
	assert_int_equal(m.drv.states[3].exit_latency, 133);
	assert_int_equal((int)p.turbo_mhz[23], 3100);
	assert_int_equal((int)p.turbo_mhz[21], 3100); /* 22 cores: filled from 24 */
	assert_int_equal((int)p.turbo_mhz[15], 3600);

	snprintf(path, sizeof(path), "%s/platforms/intel-skylake-client.ini", SRCDIR);
	if (il_platform_load_file(&p, path, &e))
		fail_msg("%s", e.msg);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "6.18");
	assert_int_equal(il_intel_idle_probe(&p, &m, &e), 0);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C1E C3 C6 C7s C10");

	snprintf(path, sizeof(path), "%s/platforms/amd-zen3-epyc.ini", SRCDIR);
	if (il_platform_load_file(&p, path, &e))
		fail_msg("%s", e.msg);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "5.19");
	assert_int_equal(il_intel_idle_probe(&p, &m, &e), 1);
	assert_int_equal(il_acpi_idle_probe(&p, &m, &e), 0);
	assert_string_equal(names(&m, b, sizeof(b)), "POLL C1 C2");
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_UNIFORM);
	assert_true(m.drv.states[2].exit_path_shared);
	memset(&m, 0, sizeof(m));
	snprintf(m.release, sizeof(m.release), "6.0");
	assert_int_equal(il_acpi_idle_probe(&p, &m, &e), 0);
	assert_int_equal(m.drv.states[2].exit_path_cost.kind, IL_DIST_NONE);
	assert_int_equal(il_platform_ncpus(&p), 256);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(haswell_x_table),
		cmocka_unit_test(cst_fix_both_sides),
		cmocka_unit_test(cst_claim),
		cmocka_unit_test(max_cstate_and_states_off),
		cmocka_unit_test(use_acpi_no_acpi),
		cmocka_unit_test(substates),
		cmocka_unit_test(skx_fixup),
		cmocka_unit_test(sklh_fixup),
		cmocka_unit_test(granite_rapids),
		cmocka_unit_test(xeon_phi_cherry_trail),
		cmocka_unit_test(older_models),
		cmocka_unit_test(ivy_town_sockets),
		cmocka_unit_test(goldmont_irtl),
		cmocka_unit_test(alder_lake),
		cmocka_unit_test(release_history),
		cmocka_unit_test(sapphire_rapids_releases),
		cmocka_unit_test(newer_tables),
		cmocka_unit_test(panther_lake),
		cmocka_unit_test(no_native_and_table),
		cmocka_unit_test(unknown_model),
		cmocka_unit_test(refusals),
		cmocka_unit_test(notes_overflow),
		cmocka_unit_test(timer_stop),
		cmocka_unit_test(builtin_platforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
