// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_idle (drivers/idle/intel_idle.c): the native MWAIT driver for
 * Intel CPUs, with its built-in per-model tables, the _CST cross-check on
 * server models and the _CST-built table for models it does not know.
 *
 * Follows torvalds/linux drivers/idle/intel_idle.c at 00433eae1771 (2023,
 * "0.5.1"), read in full, with the history of every table and model entry
 * from v5.4 to v7.1: a v5.5-era text and a v6.17-rc3 text
 * (Kingxukai/linux@9b44fff655e2) read in full, the release of each change
 * from the PM pull requests that name it (pm-X.Y-rc1 tags) or the patch
 * mails: Ice Lake-X 5.9 (C6 170/600 from 5.13), Snow Ridge 5.11, the SKX
 * fix-up 5.14, Sapphire Rapids 5.18 (9edf3c0ffef0; C1E independent from
 * 6.0, 1548fac47a11), Alder Lake 5.19 (d1cf8bbfed1e), Alder Lake-N 6.1,
 * Emerald Rapids 6.3, Meteor Lake-L, Grand Ridge and Sierra Forest 6.8,
 * Granite Rapids 370406bf5738 and partial hint matching 4c411cca33cf 6.12,
 * Tremont without a table 6.12, Granite Rapids-D 6.13, Clearwater Forest
 * 6.14, no_native 6.15, table= and the end of preferred_cstates 7.0,
 * Panther Lake-L d51de21b4c3a 7.1 (the patch mail of 2026-03-09; merged
 * with a longer changelog only, backported as "from v7.1").
 * docs/drivers-b.md has the table of models and releases.
 *
 * Release-dependent behaviour (mainline tags, m->release):
 *  - before v5.6 intel_idle knows nothing of _CST: no use_acpi, no OFF
 *    states, unknown models do not load. e6d4f08a6776 ("intel_idle: Use
 *    ACPI _CST on server systems") and 18734958e9bf ("intel_idle: Use ACPI
 *    _CST for processor models without C-state tables") landed in v5.6,
 *    with the no_acpi, use_acpi and states_off parameters (pm-5.6-rc1-3).
 *  - Mel Gorman's 75af76d0a34e ("intel_idle: Ignore _CST if control cannot
 *    be taken from the platform", Oct 2020, v5.10). Its diff is what the
 *    model follows: before it a failed acpi_processor_claim_cst_control()
 *    already reset the _CST table, but a _CST that is not usable (some state
 *    in range not FFH/MWAIT) left its table in place, so built-in states
 *    whose hint it does not list came up OFF (the Haswell servers of the
 *    report: C3 and C6 disabled by default); from v5.10 every failure path
 *    (not usable, claim refused) resets it and all built-in states are on.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "acpi_cst.h"
#include "drivers_internal.h"
#include "idlelab/release.h"

#define MAX_CSTATE_DEFAULT (IL_STATE_MAX - 1)  /* CPUIDLE_STATE_MAX - 1 */

/* driver-private table flags (kernel bit numbers) */
#define F_IRQ_ENABLE (1u << 14)
#define F_ALWAYS_ENABLE (1u << 15)         /* on even if _CST does not list it */
#define F_IBRS (1u << 16)
#define F_INIT_XSTATE (1u << 17)
#define F_PARTIAL_HINT_MATCH (1u << 18)    /* match _CST on the C-state nibble only */

#define TLB IL_FLAG_TLB_FLUSHED

#define REL_CST "5.6"
#define REL_STATES_OFF "5.6"
#define REL_IGNORE_UNUSABLE_CST "5.10"
#define REL_GNR "6.12"
#define REL_PARTIAL_HINT "6.12"
#define REL_ICX "5.9"                /* Chen Yu, pm-5.9-rc1 */
#define REL_SNR "5.11"               /* 9cf93f056f78, v5.11-rc2 fixes */
#define REL_ICX_C6 "5.13"            /* ICX C6 128/384 -> 170/600, ICELAKE_D added */
#define REL_SKX_FIXUP "5.14"         /* skx_idle_state_table_update(), Chen Yu */
#define REL_SPR "5.18"               /* 9edf3c0ffef0, with preferred_cstates da0e58c038e6 */
#define REL_PREFERRED "5.18"
#define REL_PREFERRED_GONE "7.0"     /* a36dc37b5672 removes preferred_cstates */
#define REL_ADL "5.19"               /* d1cf8bbfed1e, pm-5.19-rc1 */
#define REL_SPR_C1E "6.0"            /* 1548fac47a11: SPR C1 and C1E independent */
#define REL_ADL_N "6.1"              /* pm-6.1-rc1 */
#define REL_EMR "6.3"                /* pm-6.3-rc1 */
#define REL_MTL_GRR_SRF "6.8"        /* eeae55ed9c0a, ac89d11b93cc, 92813fd5b156 */
#define REL_TMT "6.12"               /* Jasper/Elkhart Lake: C1E promotion off, _CST states */
#define REL_GNRD "6.13"              /* f557e0d1c2e6, pm-6.13-rc1 */
#define REL_CWF "6.14"               /* eeed4bfbe9b9: Clearwater Forest takes the SRF table */
#define REL_NO_NATIVE "6.15"         /* intel_idle.no_native, pm-6.15-rc1 */
#define REL_ANY_FAMILY "6.17"        /* Len Brown: _CST tables for any Intel family with MWAIT */
#define REL_ADL_FIXUP_GONE "7.0"     /* a36dc37b5672 drops adl_idle_state_table_update() */
#define REL_TABLE "7.0"              /* 111f77a23348: intel_idle.table= */
#define REL_PTL "7.1"                /* d51de21b4c3a: Panther Lake table */
#define TABLE_MAX_LATENCY_US 5000u   /* MAX_CMDLINE_LATENCY_US */
#define TABLE_MAX_RESIDENCY_US 100000u /* MAX_CMDLINE_RESIDENCY_US */

/* One entry of a built-in table (struct cpuidle_state as the tables give it). */
struct icstate {
	const char *name;
	unsigned int hint;       /* MWAIT EAX */
	unsigned int flags;      /* IL_FLAG_* */
	unsigned int priv;       /* F_* */
	unsigned int exit_latency;     /* µs */
	unsigned int target_residency; /* µs */
};

/*
 * The built-in tables of the 0.5.1 text, in its order. AE = ALWAYS_ENABLE.
 */
#define AE F_ALWAYS_ENABLE
#define UNUSABLE IL_FLAG_UNUSABLE
#define END { NULL, 0, 0, 0, 0, 0 }

static const struct icstate nehalem_cstates[] = {
	{ "C1", 0x00, 0, 0, 3, 6 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 20, 80 },
	{ "C6", 0x20, TLB, 0, 200, 800 },
	END,
};

static const struct icstate snb_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 80, 211 },
	{ "C6", 0x20, TLB, 0, 104, 345 },
	{ "C7", 0x30, TLB, 0, 109, 345 },
	END,
};

static const struct icstate byt_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C6N", 0x58, TLB, 0, 300, 275 },
	{ "C6S", 0x52, TLB, 0, 500, 560 },
	{ "C7", 0x60, TLB, 0, 1200, 4000 },
	{ "C7S", 0x64, TLB, 0, 10000, 20000 },
	END,
};

static const struct icstate cht_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C6N", 0x58, TLB, 0, 80, 275 },
	{ "C6S", 0x52, TLB, 0, 200, 560 },
	{ "C7", 0x60, TLB, 0, 1200, 4000 },
	{ "C7S", 0x64, TLB, 0, 10000, 20000 },
	END,
};

static const struct icstate ivb_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 59, 156 },
	{ "C6", 0x20, TLB, 0, 80, 300 },
	{ "C7", 0x30, TLB, 0, 87, 300 },
	END,
};

/* Ivy Town: one table for 1-2 sockets, one for 3-4, one for more */
static const struct icstate ivt_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 10, 80 },
	{ "C3", 0x10, TLB, 0, 59, 156 },
	{ "C6", 0x20, TLB, 0, 82, 300 },
	END,
};

static const struct icstate ivt_cstates_4s[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 10, 250 },
	{ "C3", 0x10, TLB, 0, 59, 300 },
	{ "C6", 0x20, TLB, 0, 84, 400 },
	END,
};

static const struct icstate ivt_cstates_8s[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 10, 500 },
	{ "C3", 0x10, TLB, 0, 59, 600 },
	{ "C6", 0x20, TLB, 0, 88, 700 },
	END,
};

static const struct icstate hsw_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 33, 100 },
	{ "C6", 0x20, TLB, 0, 133, 400 },
	{ "C7s", 0x32, TLB, 0, 166, 500 },
	{ "C8", 0x40, TLB, 0, 300, 900 },
	{ "C9", 0x50, TLB, 0, 600, 1800 },
	{ "C10", 0x60, TLB, 0, 2600, 7700 },
	END,
};

static const struct icstate bdw_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 40, 100 },
	{ "C6", 0x20, TLB, 0, 133, 400 },
	{ "C7s", 0x32, TLB, 0, 166, 500 },
	{ "C8", 0x40, TLB, 0, 300, 900 },
	{ "C9", 0x50, TLB, 0, 600, 1800 },
	{ "C10", 0x60, TLB, 0, 2600, 7700 },
	END,
};

static const struct icstate skl_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C3", 0x10, TLB, 0, 70, 100 },
	{ "C6", 0x20, TLB, F_IBRS, 85, 200 },
	{ "C7s", 0x33, TLB, F_IBRS, 124, 800 },
	{ "C8", 0x40, TLB, F_IBRS, 200, 800 },
	{ "C9", 0x50, TLB, F_IBRS, 480, 5000 },
	{ "C10", 0x60, TLB, F_IBRS, 890, 5000 },
	END,
};

static const struct icstate skx_cstates[] = {
	{ "C1", 0x00, 0, F_IRQ_ENABLE, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C6", 0x20, TLB, F_IBRS, 133, 600 },
	END,
};

static const struct icstate icx_cstates[] = {
	{ "C1", 0x00, 0, F_IRQ_ENABLE, 1, 1 },
	{ "C1E", 0x01, 0, AE, 4, 4 },
	{ "C6", 0x20, TLB, 0, 170, 600 },
	END,
};

/*
 * Alder Lake: C1 and C1E exclude each other (C1E exists only through the
 * C1E promotion bit), so C1 is unusable by default and C1E is on; the
 * ADL fix-up swaps them when preferred_cstates asks for C1.
 */
static const struct icstate adl_cstates[] = {
	{ "C1", 0x00, UNUSABLE, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 4 },
	{ "C6", 0x20, TLB, 0, 220, 600 },
	{ "C8", 0x40, TLB, 0, 280, 800 },
	{ "C10", 0x60, TLB, 0, 680, 2000 },
	END,
};

static const struct icstate adl_l_cstates[] = {
	{ "C1", 0x00, UNUSABLE, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 4 },
	{ "C6", 0x20, TLB, 0, 170, 500 },
	{ "C8", 0x40, TLB, 0, 200, 600 },
	{ "C10", 0x60, TLB, 0, 230, 700 },
	END,
};

static const struct icstate adl_n_cstates[] = {
	{ "C1", 0x00, UNUSABLE, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 4 },
	{ "C6", 0x20, TLB, 0, 195, 585 },
	{ "C8", 0x40, TLB, 0, 260, 1040 },
	{ "C10", 0x60, TLB, 0, 660, 1980 },
	END,
};

static const struct icstate spr_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 4 },
	{ "C6", 0x20, TLB, F_INIT_XSTATE, 290, 800 },
	END,
};

static const struct icstate gnr_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 4, 4 },
	{ "C6", 0x20, TLB, F_INIT_XSTATE | F_PARTIAL_HINT_MATCH, 170, 650 },
	{ "C6P", 0x21, TLB, F_INIT_XSTATE | F_PARTIAL_HINT_MATCH, 210, 1000 },
	END,
};

/* Ice Lake-X before 5.13: C6 128/384 */
static const struct icstate icx_cstates_5_9[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 4, 4 },
	{ "C6", 0x20, TLB, 0, 128, 384 },
	END,
};

/*
 * Sapphire Rapids in 5.18 and 5.19: C1 and C1E exclude each other there,
 * C1E is unusable by default (preferred_cstates can swap them, see the
 * SPR fix-up); 1548fac47a11 (v6.0) made them independent.
 */
static const struct icstate spr_cstates_5_18[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, UNUSABLE, AE, 2, 4 },
	{ "C6", 0x20, TLB, 0, 290, 800 },
	END,
};

static const struct icstate gnrd_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 4, 4 },
	{ "C6", 0x20, TLB, F_INIT_XSTATE | F_PARTIAL_HINT_MATCH, 220, 650 },
	{ "C6P", 0x21, TLB, F_INIT_XSTATE | F_PARTIAL_HINT_MATCH, 240, 750 },
	END,
};

/* Meteor Lake-L: no C1 row */
static const struct icstate mtl_l_cstates[] = {
	{ "C1E", 0x01, 0, AE, 1, 1 },
	{ "C6", 0x20, TLB, 0, 140, 420 },
	{ "C10", 0x60, TLB, 0, 310, 930 },
	END,
};

/* Panther Lake-L (d51de21b4c3a, v7.1) */
static const struct icstate ptl_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 1 },
	{ "C1E", 0x01, 0, AE, 10, 10 },
	{ "C6S", 0x21, TLB, 0, 300, 300 },
	{ "C10", 0x60, TLB, 0, 370, 2500 },
	END,
};

/* Grand Ridge */
static const struct icstate grr_cstates[] = {
	{ "C1", 0x00, 0, AE, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 10 },
	{ "C6S", 0x22, TLB, 0, 140, 500 },
	END,
};

/* Sierra Forest (and Clearwater Forest from 6.14); C6S/C6SP match _CST on the nibble from 6.12 */
static const struct icstate srf_cstates[] = {
	{ "C1", 0x00, 0, AE, 1, 1 },
	{ "C1E", 0x01, 0, AE, 2, 10 },
	{ "C6S", 0x22, TLB, F_PARTIAL_HINT_MATCH, 270, 700 },
	{ "C6SP", 0x23, TLB, F_PARTIAL_HINT_MATCH, 310, 900 },
	END,
};

/* Bonnell and Saltwell Atoms: the first state is named C1E, with hint 0x00 */
static const struct icstate atom_cstates[] = {
	{ "C1E", 0x00, 0, 0, 10, 20 },
	{ "C2", 0x10, 0, 0, 20, 80 },
	{ "C4", 0x30, TLB, 0, 100, 400 },
	{ "C6", 0x52, TLB, 0, 140, 560 },
	END,
};

static const struct icstate tangier_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 4 },
	{ "C4", 0x30, TLB, 0, 100, 400 },
	{ "C6", 0x52, TLB, 0, 140, 560 },
	{ "C7", 0x60, TLB, 0, 1200, 4000 },
	{ "C9", 0x64, TLB, 0, 10000, 20000 },
	END,
};

static const struct icstate avn_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C6", 0x51, TLB, 0, 15, 45 },
	END,
};

static const struct icstate knl_cstates[] = {
	{ "C1", 0x00, 0, 0, 1, 2 },
	{ "C6", 0x10, TLB, 0, 120, 500 },
	END,
};

/* Goldmont (Broxton/Apollo Lake, Gemini Lake): the IRTL MSRs may replace C6..C10 */
static const struct icstate bxt_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C6", 0x20, TLB, 0, 133, 133 },
	{ "C7s", 0x31, TLB, 0, 155, 155 },
	{ "C8", 0x40, TLB, 0, 1000, 1000 },
	{ "C9", 0x50, TLB, 0, 2000, 2000 },
	{ "C10", 0x60, TLB, 0, 10000, 10000 },
	END,
};

static const struct icstate dnv_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 10, 20 },
	{ "C6", 0x20, TLB, 0, 50, 500 },
	END,
};

static const struct icstate snr_cstates[] = {
	{ "C1", 0x00, 0, 0, 2, 2 },
	{ "C1E", 0x01, 0, AE, 15, 25 },
	{ "C6", 0x20, TLB, 0, 130, 500 },
	END,
};

/*
 * struct idle_cpu: a model's table and flags. auto_demotion and
 * byt_demotion are MSR writes at registration that the model only notes
 * (the hardware's own demotion of C-states is not modelled).
 */
enum fixup { FIX_NONE, FIX_IVT, FIX_BXT, FIX_SKLH, FIX_SKX, FIX_SPR, FIX_SPR_5_18, FIX_ADL };

struct idle_cpu {
	const char *label;
	const struct icstate *table;  /* NULL: the states come from _CST (Tremont, 6.12) */
	bool disable_promotion_to_c1e;
	bool use_acpi;
	bool auto_demotion;          /* auto_demotion_disable_flags != 0 */
	bool byt_demotion;           /* byt_auto_demotion_disable_flag */
};

static const struct idle_cpu cpu_nehalem = { "Nehalem", nehalem_cstates, true, false, true, false };
static const struct idle_cpu cpu_nhx = { "Nehalem-EP/EX", nehalem_cstates,
	true, true, true, false };
static const struct idle_cpu cpu_atom = { "Atom", atom_cstates, false, false, false, false };
static const struct idle_cpu cpu_tangier = { "Tangier", tangier_cstates,
	false, false, false, false };
static const struct idle_cpu cpu_lincroft = { "Lincroft", atom_cstates, false, false, true, false };
static const struct idle_cpu cpu_snb = { "Sandy Bridge", snb_cstates, true, false, false, false };
static const struct idle_cpu cpu_snx = { "Sandy Bridge-X", snb_cstates, true, true, false, false };
static const struct idle_cpu cpu_byt = { "Bay Trail", byt_cstates, true, false, false, true };
static const struct idle_cpu cpu_cht = { "Cherry Trail", cht_cstates, true, false, false, true };
static const struct idle_cpu cpu_ivb = { "Ivy Bridge", ivb_cstates, true, false, false, false };
static const struct idle_cpu cpu_ivt = { "Ivy Town", ivt_cstates, true, true, false, false };
static const struct idle_cpu cpu_hsw = { "Haswell", hsw_cstates, true, false, false, false };
static const struct idle_cpu cpu_hsx = { "Haswell-X", hsw_cstates, true, true, false, false };
static const struct idle_cpu cpu_bdw = { "Broadwell", bdw_cstates, true, false, false, false };
static const struct idle_cpu cpu_bdx = { "Broadwell-X", bdw_cstates, true, true, false, false };
static const struct idle_cpu cpu_skl = { "Skylake", skl_cstates, true, false, false, false };
static const struct idle_cpu cpu_skx = { "Skylake-X", skx_cstates, true, true, false, false };
static const struct idle_cpu cpu_icx = { "Ice Lake-X", icx_cstates, true, true, false, false };
static const struct idle_cpu cpu_adl = { "Alder Lake", adl_cstates, false, false, false, false };
static const struct idle_cpu cpu_adl_l = { "Alder Lake-L", adl_l_cstates,
	false, false, false, false };
static const struct idle_cpu cpu_adl_n = { "Alder Lake-N", adl_n_cstates,
	false, false, false, false };
static const struct idle_cpu cpu_icx_5_9 = { "Ice Lake-X", icx_cstates_5_9,
	true, true, false, false };
static const struct idle_cpu cpu_spr = { "Sapphire Rapids", spr_cstates, true, true, false, false };
static const struct idle_cpu cpu_spr_5_18 = { "Sapphire Rapids", spr_cstates_5_18,
	true, true, false, false };
static const struct idle_cpu cpu_gnrd = { "Granite Rapids-D", gnrd_cstates,
	true, true, false, false };
static const struct idle_cpu cpu_mtl_l = { "Meteor Lake-L", mtl_l_cstates,
	false, false, false, false };
static const struct idle_cpu cpu_ptl = { "Panther Lake-L", ptl_cstates,
	false, false, false, false };
static const struct idle_cpu cpu_grr = { "Grand Ridge", grr_cstates, true, true, false, false };
static const struct idle_cpu cpu_srf = { "Sierra Forest", srf_cstates, true, true, false, false };
static const struct idle_cpu cpu_tmt = { "Tremont", NULL, true, false, false, false };
static const struct idle_cpu cpu_gnr = { "Granite Rapids", gnr_cstates, true, true, false, false };
static const struct idle_cpu cpu_avn = { "Avoton", avn_cstates, true, true, false, false };
static const struct idle_cpu cpu_knl = { "Xeon Phi", knl_cstates, false, true, false, false };
static const struct idle_cpu cpu_bxt = { "Goldmont", bxt_cstates, true, false, false, false };
static const struct idle_cpu cpu_dnv = { "Denverton", dnv_cstates, true, true, false, false };
static const struct idle_cpu cpu_snr = { "Snow Ridge", snr_cstates, true, true, false, false };

/* family 6 model numbers (asm/intel-family.h) */
#define M_NEHALEM_EP 0x1a
#define M_NEHALEM 0x1e
#define M_NEHALEM_G 0x1f
#define M_NEHALEM_EX 0x2e
#define M_WESTMERE 0x25
#define M_WESTMERE_EP 0x2c
#define M_WESTMERE_EX 0x2f
#define M_SANDYBRIDGE 0x2a
#define M_SANDYBRIDGE_X 0x2d
#define M_IVYBRIDGE 0x3a
#define M_IVYBRIDGE_X 0x3e
#define M_HASWELL 0x3c
#define M_HASWELL_X 0x3f
#define M_HASWELL_L 0x45
#define M_HASWELL_G 0x46
#define M_BROADWELL 0x3d
#define M_BROADWELL_G 0x47
#define M_BROADWELL_X 0x4f
#define M_BROADWELL_D 0x56
#define M_SKYLAKE_L 0x4e
#define M_SKYLAKE 0x5e
#define M_KABYLAKE_L 0x8e
#define M_KABYLAKE 0x9e
#define M_SKYLAKE_X 0x55
#define M_ICELAKE_X 0x6a
#define M_ICELAKE_D 0x6c
#define M_ALDERLAKE 0x97
#define M_ALDERLAKE_L 0x9a
#define M_ATOM_GRACEMONT 0xbe         /* Alder Lake-N */
#define M_SAPPHIRERAPIDS_X 0x8f
#define M_EMERALDRAPIDS_X 0xcf
#define M_GRANITERAPIDS_X 0xad
#define M_GRANITERAPIDS_D 0xae
#define M_METEORLAKE_L 0xaa
#define M_PANTHERLAKE_L 0xcc
#define M_ATOM_TREMONT 0x96
#define M_ATOM_TREMONT_L 0x9c
#define M_ATOM_CRESTMONT 0xb6         /* Grand Ridge */
#define M_ATOM_CRESTMONT_X 0xaf       /* Sierra Forest */
#define M_ATOM_DARKMONT_X 0xdd        /* Clearwater Forest */
#define M_ATOM_BONNELL 0x1c
#define M_ATOM_BONNELL_MID 0x26
#define M_ATOM_SALTWELL 0x36
#define M_ATOM_SILVERMONT 0x37
#define M_ATOM_SILVERMONT_D 0x4d
#define M_ATOM_SILVERMONT_MID 0x4a
#define M_ATOM_AIRMONT 0x4c
#define M_ATOM_GOLDMONT 0x5c
#define M_ATOM_GOLDMONT_D 0x5f
#define M_ATOM_GOLDMONT_PLUS 0x7a
#define M_ATOM_TREMONT_D 0x86
#define M_XEON_PHI_KNL 0x57
#define M_XEON_PHI_KNM 0x85

/*
 * intel_idle_ids[]: which table a model gets in which releases. since is
 * the first release with the entry (NULL: every release modelled), until
 * the first without it (NULL: still there); an entry a later release
 * changed appears once per text. fixup names the model's
 * *_idle_state_table_update().
 */
static const struct {
	int model;
	const struct idle_cpu *icpu;
	const char *since;
	const char *until;
	enum fixup fixup;
} intel_idle_ids[] = {
	{ M_NEHALEM_EP, &cpu_nhx, NULL, NULL, FIX_NONE },
	{ M_NEHALEM, &cpu_nehalem, NULL, NULL, FIX_NONE },
	{ M_NEHALEM_G, &cpu_nehalem, NULL, NULL, FIX_NONE },
	{ M_WESTMERE, &cpu_nehalem, NULL, NULL, FIX_NONE },
	{ M_WESTMERE_EP, &cpu_nhx, NULL, NULL, FIX_NONE },
	{ M_NEHALEM_EX, &cpu_nhx, NULL, NULL, FIX_NONE },
	{ M_ATOM_BONNELL, &cpu_atom, NULL, NULL, FIX_NONE },
	{ M_ATOM_BONNELL_MID, &cpu_lincroft, NULL, NULL, FIX_NONE },
	{ M_WESTMERE_EX, &cpu_nhx, NULL, NULL, FIX_NONE },
	{ M_SANDYBRIDGE, &cpu_snb, NULL, NULL, FIX_NONE },
	{ M_SANDYBRIDGE_X, &cpu_snx, NULL, NULL, FIX_NONE },
	{ M_ATOM_SALTWELL, &cpu_atom, NULL, NULL, FIX_NONE },
	{ M_ATOM_SILVERMONT, &cpu_byt, NULL, NULL, FIX_NONE },
	{ M_ATOM_SILVERMONT_MID, &cpu_tangier, NULL, NULL, FIX_NONE },
	{ M_ATOM_AIRMONT, &cpu_cht, NULL, NULL, FIX_NONE },
	{ M_IVYBRIDGE, &cpu_ivb, NULL, NULL, FIX_NONE },
	{ M_IVYBRIDGE_X, &cpu_ivt, NULL, NULL, FIX_IVT },
	{ M_HASWELL, &cpu_hsw, NULL, NULL, FIX_NONE },
	{ M_HASWELL_X, &cpu_hsx, NULL, NULL, FIX_NONE },
	{ M_HASWELL_L, &cpu_hsw, NULL, NULL, FIX_NONE },
	{ M_HASWELL_G, &cpu_hsw, NULL, NULL, FIX_NONE },
	{ M_ATOM_SILVERMONT_D, &cpu_avn, NULL, NULL, FIX_NONE },
	{ M_BROADWELL, &cpu_bdw, NULL, NULL, FIX_NONE },
	{ M_BROADWELL_G, &cpu_bdw, NULL, NULL, FIX_NONE },
	{ M_BROADWELL_X, &cpu_bdx, NULL, NULL, FIX_NONE },
	{ M_BROADWELL_D, &cpu_bdx, NULL, NULL, FIX_NONE },
	{ M_SKYLAKE_L, &cpu_skl, NULL, NULL, FIX_NONE },
	{ M_SKYLAKE, &cpu_skl, NULL, NULL, FIX_SKLH },
	{ M_KABYLAKE_L, &cpu_skl, NULL, NULL, FIX_NONE },
	{ M_KABYLAKE, &cpu_skl, NULL, NULL, FIX_NONE },
	{ M_SKYLAKE_X, &cpu_skx, NULL, REL_SKX_FIXUP, FIX_NONE },
	{ M_SKYLAKE_X, &cpu_skx, REL_SKX_FIXUP, NULL, FIX_SKX },
	{ M_ICELAKE_X, &cpu_icx_5_9, REL_ICX, REL_ICX_C6, FIX_NONE },
	{ M_ICELAKE_X, &cpu_icx, REL_ICX_C6, NULL, FIX_NONE },
	{ M_ICELAKE_D, &cpu_icx, REL_ICX_C6, NULL, FIX_NONE },
	{ M_ALDERLAKE, &cpu_adl, REL_ADL, REL_ADL_FIXUP_GONE, FIX_ADL },
	{ M_ALDERLAKE, &cpu_adl, REL_ADL_FIXUP_GONE, NULL, FIX_NONE },
	{ M_ALDERLAKE_L, &cpu_adl_l, REL_ADL, REL_ADL_FIXUP_GONE, FIX_ADL },
	{ M_ALDERLAKE_L, &cpu_adl_l, REL_ADL_FIXUP_GONE, NULL, FIX_NONE },
	{ M_ATOM_GRACEMONT, &cpu_adl_n, REL_ADL_N, REL_ADL_FIXUP_GONE, FIX_ADL },
	{ M_ATOM_GRACEMONT, &cpu_adl_n, REL_ADL_FIXUP_GONE, NULL, FIX_NONE },
	{ M_METEORLAKE_L, &cpu_mtl_l, REL_MTL_GRR_SRF, NULL, FIX_NONE },
	{ M_PANTHERLAKE_L, &cpu_ptl, REL_PTL, NULL, FIX_NONE },
	{ M_SAPPHIRERAPIDS_X, &cpu_spr_5_18, REL_SPR, REL_SPR_C1E, FIX_SPR_5_18 },
	{ M_SAPPHIRERAPIDS_X, &cpu_spr, REL_SPR_C1E, NULL, FIX_SPR },
	{ M_EMERALDRAPIDS_X, &cpu_spr, REL_EMR, NULL, FIX_SPR },
	{ M_GRANITERAPIDS_X, &cpu_gnr, REL_GNR, NULL, FIX_NONE },
	{ M_GRANITERAPIDS_D, &cpu_gnrd, REL_GNRD, NULL, FIX_NONE },
	{ M_XEON_PHI_KNL, &cpu_knl, NULL, NULL, FIX_NONE },
	{ M_XEON_PHI_KNM, &cpu_knl, NULL, NULL, FIX_NONE },
	{ M_ATOM_GOLDMONT, &cpu_bxt, NULL, NULL, FIX_BXT },
	{ M_ATOM_GOLDMONT_PLUS, &cpu_bxt, NULL, NULL, FIX_BXT },
	{ M_ATOM_GOLDMONT_D, &cpu_dnv, NULL, NULL, FIX_NONE },
	{ M_ATOM_TREMONT, &cpu_tmt, REL_TMT, NULL, FIX_NONE },
	{ M_ATOM_TREMONT_L, &cpu_tmt, REL_TMT, NULL, FIX_NONE },
	{ M_ATOM_TREMONT_D, &cpu_dnv, NULL, REL_SNR, FIX_NONE },
	{ M_ATOM_TREMONT_D, &cpu_snr, REL_SNR, NULL, FIX_NONE },
	{ M_ATOM_CRESTMONT, &cpu_grr, REL_MTL_GRR_SRF, NULL, FIX_NONE },
	{ M_ATOM_CRESTMONT_X, &cpu_srf, REL_MTL_GRR_SRF, NULL, FIX_NONE },
	{ M_ATOM_DARKMONT_X, &cpu_srf, REL_CWF, NULL, FIX_NONE },
};

/* Module parameters (intel_idle.*). */
struct intel_idle_params {
	int max_cstate;              /* intel_idle.max_cstate */
	unsigned int states_off;     /* intel_idle.states_off */
	bool no_acpi;                /* intel_idle.no_acpi */
	bool force_use_acpi;         /* intel_idle.use_acpi */
	unsigned int preferred;      /* intel_idle.preferred_cstates */
	bool no_native;              /* intel_idle.no_native */
	const char *table;           /* intel_idle.table */
};

/* The built state of the driver during init. */
struct intel_idle_ctx {
	const struct il_platform *p;
	struct il_machine_idle *m;
	struct intel_idle_params o;
	const struct idle_cpu *icpu;
	enum fixup fixup;
	struct il_acpi_power acpi;   /* acpi_state_table */
	int acpi_count;              /* acpi_state_table.count (0 = _CST not used) */
};

/* Is entry i in release rel (NULL: the newest, the entry no release ended)? */
static bool entry_in(size_t i, const char *rel)
{
	if (!rel)
		return !intel_idle_ids[i].until;
	return (!intel_idle_ids[i].since || il_release_cmp(rel, intel_idle_ids[i].since) >= 0) &&
	       (!intel_idle_ids[i].until || il_release_cmp(rel, intel_idle_ids[i].until) < 0);
}

/* x86_match_cpu(intel_idle_ids): the entry of the family and model in rel, or -1. */
static int find_entry(int family, int model, const char *rel)
{
	if (family != 6)
		return -1;
	for (size_t i = 0; i < sizeof(intel_idle_ids) / sizeof(intel_idle_ids[0]); i++)
		if (intel_idle_ids[i].model == model && entry_in(i, rel))
			return (int)i;
	return -1;
}

static int match_entry(const struct il_platform *p, const struct il_machine_idle *m)
{
	return find_entry(p->family, p->model, m->release);
}

static const struct idle_cpu *match_cpu(const struct il_platform *p,
					const struct il_machine_idle *m)
{
	int i = match_entry(p, m);

	return i < 0 ? NULL : intel_idle_ids[i].icpu;
}

const char *il_intel_idle_model_table(int family, int model, const char *release,
				      const char **first)
{
	int e = find_entry(family, model, release);
	const char *since = NULL;
	bool any = false;

	for (size_t i = 0; family == 6 && i < sizeof(intel_idle_ids) / sizeof(intel_idle_ids[0]); i++) {
		/* Tremont's descriptor has no table: its states are _CST ones */
		if (intel_idle_ids[i].model != model || !intel_idle_ids[i].icpu->table)
			continue;
		/* the earliest since of the model's entries ("" for one in every release) */
		if (!intel_idle_ids[i].since)
			since = "";
		else if (!any || (since && since[0] &&
				  il_release_cmp(intel_idle_ids[i].since, since) < 0))
			since = intel_idle_ids[i].since;
		any = true;
	}
	if (first)
		*first = since;
	return e >= 0 && intel_idle_ids[e].icpu->table ? intel_idle_ids[e].icpu->label : NULL;
}

static void expect_alt(struct il_intel_idle_expect *out, unsigned int lat, unsigned int res,
		       const char *cause)
{
	if (out->nalt < IL_INTEL_IDLE_ALTS &&
	    (lat != out->exit_latency || res != out->target_residency)) {
		out->alt[out->nalt].exit_latency = lat;
		out->alt[out->nalt].target_residency = res;
		out->alt[out->nalt].cause = cause;
		out->nalt++;
	}
}

bool il_intel_idle_expect_state(int family, int model, const char *release, const char *name,
				struct il_intel_idle_expect *out)
{
	const struct icstate *t;
	int e = find_entry(family, model, release), idx = -1;

	memset(out, 0, sizeof(*out));
	if (e < 0 || !(t = intel_idle_ids[e].icpu->table))
		return false;
	for (int j = 0; t[j].name; j++)
		if (!strcmp(t[j].name, name)) {
			idx = j;
			break;
		}
	if (idx < 0)
		return false;
	out->exit_latency = t[idx].exit_latency;
	out->target_residency = t[idx].target_residency;
	switch (intel_idle_ids[e].fixup) {
	case FIX_SKX:
		if (idx == 2)
			expect_alt(out, 92, 276, "the SKX fix-up: package C6 not allowed by "
				   "MSR_PKG_CST_CONFIG_CONTROL (a firmware setting)");
		break;
	case FIX_SPR:
	case FIX_SPR_5_18:
		if (idx == 2)
			expect_alt(out, 190, 600, "the SPR fix-up: package C6 not allowed by "
				   "MSR_PKG_CST_CONFIG_CONTROL (a firmware setting)");
		break;
	case FIX_IVT: {
		static const struct { const struct icstate *t; const char *cause; } ivt[2] = {
			{ ivt_cstates_4s, "the IVT table for 3-4 sockets" },
			{ ivt_cstates_8s, "the IVT table for more than 4 sockets" },
		};

		for (int k = 0; k < 2; k++)
			for (const struct icstate *r = ivt[k].t; r->name; r++)
				if (!strcmp(r->name, name))
					expect_alt(out, r->exit_latency, r->target_residency,
						   ivt[k].cause);
		break;
	}
	case FIX_BXT:
		if (idx >= 2 && idx <= 6)
			out->any_value = "the BXT fix-up: the firmware's IRTL MSRs";
		break;
	default:
		break;
	}
	return true;
}

const char *il_intel_idle_table_name(const struct il_platform *p, const struct il_machine_idle *m)
{
	const struct idle_cpu *icpu;

	if (p->arch != IL_ARCH_X86 || p->vendor != IL_VENDOR_INTEL)
		return NULL;
	icpu = match_cpu(p, m);
	return icpu ? icpu->label : NULL;
}

/*
 * A bool parameter (param_set_bool(): kstrtobool()); a value it refuses
 * leaves the default, which the kernel logs, and so does the note.
 */
static bool bool_param(struct intel_idle_ctx *c, const char *name)
{
	char key[48];
	const char *v;
	bool b;

	snprintf(key, sizeof(key), "intel_idle.%s", name);
	b = il_option_bool(c->p, key, false);
	v = il_platform_option(c->p, key);
	if (v && *v && !b && il_option_bool(c->p, key, true))
		il_machine_note(c->m, "intel_idle: %s=%s refused, keeps N", name, v);
	return b;
}

static void read_params(struct intel_idle_ctx *c)
{
	const struct il_platform *p = c->p;
	const char *v;
	long long x;

	c->o.max_cstate = MAX_CSTATE_DEFAULT;
	v = il_platform_option(p, "intel_idle.max_cstate");
	if (v) {
		if (il_kstrtoll(v, INT_MIN, INT_MAX, &x))
			il_machine_note(c->m, "intel_idle: max_cstate=%s refused, keeps %d", v,
					c->o.max_cstate);
		else
			c->o.max_cstate = (int)x;
	}
	v = il_platform_option(p, "intel_idle.states_off");
	if (v) {
		if (!il_release_at_least(c->m, REL_STATES_OFF))
			il_machine_note(c->m, "intel_idle: states_off does not exist before %s: ignored",
					REL_STATES_OFF);
		else if (il_kstrtoll(v, 0, UINT_MAX, &x))
			il_machine_note(c->m, "intel_idle: states_off=%s refused, keeps 0", v);
		else
			c->o.states_off = (unsigned int)x;
	}
	v = il_platform_option(p, "intel_idle.preferred_cstates");
	if (v) {
		if (!il_release_at_least(c->m, REL_PREFERRED))
			il_machine_note(c->m, "intel_idle: preferred_cstates does not exist before %s: "
					"ignored", REL_PREFERRED);
		else if (il_release_at_least(c->m, REL_PREFERRED_GONE))
			il_machine_note(c->m, "intel_idle: preferred_cstates was removed in %s "
					"(a36dc37b5672): ignored", REL_PREFERRED_GONE);
		else if (il_kstrtoll(v, 0, UINT_MAX, &x))
			il_machine_note(c->m, "intel_idle: preferred_cstates=%s refused, keeps 0", v);
		else
			c->o.preferred = (unsigned int)x;
	}
	if (!il_release_at_least(c->m, REL_NO_NATIVE)) {
		if (il_option_bool(p, "intel_idle.no_native", false))
			il_machine_note(c->m, "intel_idle: no_native does not exist before %s: "
					"ignored", REL_NO_NATIVE);
	} else {
		c->o.no_native = bool_param(c, "no_native");
	}
	c->o.table = il_platform_option(p, "intel_idle.table");
	if (c->o.table && !il_release_at_least(c->m, REL_TABLE)) {
		il_machine_note(c->m, "intel_idle: table does not exist before %s: ignored", REL_TABLE);
		c->o.table = NULL;
	}
	if (!il_release_at_least(c->m, REL_CST)) {
		if (il_option_bool(p, "intel_idle.no_acpi", false) ||
		    il_option_bool(p, "intel_idle.use_acpi", false))
			il_machine_note(c->m, "intel_idle: use_acpi/no_acpi do not exist before %s: "
					"ignored", REL_CST);
	} else {
		c->o.no_acpi = bool_param(c, "no_acpi");
		c->o.force_use_acpi = bool_param(c, "use_acpi");
	}
}

/*
 * intel_idle_cst_usable(): every _CST state within the max_cstate range
 * must be entered with MWAIT (FFH).
 */
static bool cst_usable(const struct intel_idle_ctx *c)
{
	int limit = IL_STATE_MAX;

	if (c->o.max_cstate + 1 < limit)
		limit = c->o.max_cstate + 1;
	if (c->acpi_count < limit)
		limit = c->acpi_count;
	for (int cstate = 1; cstate < limit; cstate++)
		if (c->acpi.states[cstate].method != IL_ACPI_CX_FFH)
			return false;
	return true;
}

/*
 * intel_idle_acpi_cst_extract(): take the _CST if it is usable and control
 * is handed over. Every CPU's _CST is the platform's one, so the per-CPU
 * loop reduces to one evaluation. acpi_count keeps what the kernel leaves
 * in acpi_state_table.count, which decides the OFF states.
 */
static bool cst_extract(struct intel_idle_ctx *c)
{
	memset(&c->acpi, 0, sizeof(c->acpi));
	c->acpi_count = 0;
	if (c->o.no_acpi) {
		il_machine_note(c->m, "intel_idle: no_acpi: not allowed to use ACPI _CST");
		return false;
	}
	if (il_acpi_evaluate_cst(c->p, c->m, &c->acpi, "intel_idle")) {
		il_machine_note(c->m, "intel_idle: ACPI _CST not found or not usable");
		return false;
	}
	c->acpi_count = c->acpi.count + 1;
	if (!cst_usable(c)) {
		if (il_release_at_least(c->m, REL_IGNORE_UNUSABLE_CST)) {
			c->acpi_count = 0;
			il_machine_note(c->m, "intel_idle: ACPI _CST not usable (not all MWAIT): ignored "
					"(75af76d0a34e)");
		} else {
			il_machine_note(c->m, "intel_idle: ACPI _CST not usable (not all MWAIT), but "
					"kernels before 5.10 keep its table: states it does not list "
					"are off by default (fixed by 75af76d0a34e)");
		}
		return false;
	}
	if (!il_acpi_claim_cst_control(c->p)) {
		c->acpi_count = 0;
		il_machine_note(c->m, "intel_idle: Failed to claim processor _CST control: _CST ignored");
		return false;
	}
	return true;
}

/* intel_idle_off_by_default(): the hint is not in the _CST the driver kept. */
static bool off_by_default(const struct intel_idle_ctx *c, unsigned int hint, unsigned int priv)
{
	int limit = c->acpi_count < IL_STATE_MAX ? c->acpi_count : IL_STATE_MAX;

	if (!c->acpi_count)
		return false;
	for (int cstate = 1; cstate < limit; cstate++) {
		unsigned int acpi_hint = c->acpi.states[cstate].address;
		unsigned int table_hint = hint;

		if ((priv & F_PARTIAL_HINT_MATCH) && il_release_at_least(c->m, REL_PARTIAL_HINT)) {
			acpi_hint &= ~IL_MWAIT_SUBSTATE_MASK;
			table_hint &= ~IL_MWAIT_SUBSTATE_MASK;
		}
		if (acpi_hint == table_hint)
			return false;
	}
	return true;
}

static bool needs_timer_stop(const struct il_platform *p, unsigned int hint)
{
	return !p->arat && il_mwait_cstate(hint);
}

/* Fill the model facts of an MWAIT state. */
static void mwait_state(const struct il_platform *p, struct il_state *s, unsigned int hint)
{
	s->entry = IL_ENTRY_MWAIT;
	s->mwait_hint = hint;
	s->has_s2idle = true;
	s->power_usage = 0;
	s->power_w = -1;
	s->transition_j = -1;
	/* idlelab: C3/C6-class hints stop the core and free turbo headroom */
	if (il_mwait_cstate(hint))
		s->flags |= IL_FLAG_TURBO_RELEASE;
	s->exit_dist = il_driver_exit_dist(p, s);
}

/* ivt_idle_state_table_update(): the table by socket count (packages). */
static const struct icstate *ivt_table(struct intel_idle_ctx *c)
{
	int sockets = c->p->packages;

	if (sockets > 4) {
		il_machine_note(c->m, "intel_idle: IVT fix-up: %d sockets: the > 4-socket table", sockets);
		return ivt_cstates_8s;
	}
	if (sockets > 2) {
		il_machine_note(c->m, "intel_idle: IVT fix-up: %d sockets: the 3-4-socket table", sockets);
		return ivt_cstates_4s;
	}
	return ivt_cstates;
}

/* irtl_2_usec(): value (bits 9:0) times the unit (bits 12:10), in whole µs. */
static unsigned int irtl_usec(unsigned int irtl)
{
	static const unsigned int unit_ns[8] = { 1, 32, 1024, 32768, 1048576, 33554432, 0, 0 };

	if (!irtl)
		return 0;
	return (unsigned int)((unsigned long long)(irtl & 0x3ff) * unit_ns[(irtl >> 10) & 7] / 1000);
}

/*
 * Per-model table fix-ups (the *_idle_state_table_update() functions) on
 * a mutable copy of the table. The MSR values come from the platform.
 */
/* A table's row by name (the fix-ups' rows; NULL if the table has none such). */
static struct icstate *row(struct icstate *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static void set_flag(struct icstate *t, const char *name, unsigned int flag, bool on)
{
	struct icstate *r = row(t, name);

	if (r && on)
		r->flags |= flag;
	else if (r)
		r->flags &= ~flag;
}

static void set_times(struct icstate *t, const char *name, unsigned int lat, unsigned int res)
{
	struct icstate *r = row(t, name);

	if (r) {
		r->exit_latency = lat;
		r->target_residency = res;
	}
}

static void table_fixups(struct intel_idle_ctx *c, struct icstate *t)
{
	static const char *const bxt_rows[5] = { "C6", "C7s", "C8", "C9", "C10" };
	const struct il_platform *p = c->p;

	switch (c->fixup) {
	case FIX_SKLH:
		/* SKL-H: skip C8 and C9 when PC10 is the package limit and SGX is off */
		if (c->o.max_cstate <= 7 || !(p->cpuid5_edx & (0xfu << 28)) ||
		    (p->pkg_cst_config & 0xf) != 8 || p->sgx_enabled)
			return;
		set_flag(t, "C8", IL_FLAG_UNUSABLE, true);
		set_flag(t, "C9", IL_FLAG_UNUSABLE, true);
		il_machine_note(c->m, "intel_idle: SKL-H fix-up: PC10 limit, SGX off: C8 and C9 "
				"unusable");
		break;
	case FIX_SKX:
		if ((p->pkg_cst_config & 0x7) < 2) {
			set_times(t, "C6", 92, 276);
			il_machine_note(c->m, "intel_idle: SKX fix-up: package C6 not allowed "
					"(PKG_CST_CONFIG limit %u): C6 92/276 us",
					p->pkg_cst_config & 0x7);
		}
		break;
	case FIX_SPR_5_18:
		/* preferred_cstates with C1E (bit 2) but not C1 (bit 1): C1E instead of C1 */
		if ((c->o.preferred & 4u) && !(c->o.preferred & 2u)) {
			set_flag(t, "C1", IL_FLAG_UNUSABLE, true);
			set_flag(t, "C1E", IL_FLAG_UNUSABLE, false);
			il_machine_note(c->m, "intel_idle: SPR fix-up: preferred_cstates=0x%x: C1E "
					"usable, C1 unusable, C1E promotion enabled", c->o.preferred);
		}
		/* fallthrough - the package C6 limit, as from 6.0 */
	case FIX_SPR:
		if ((p->pkg_cst_config & 0x7) < 2) {
			set_times(t, "C6", 190, 600);
			il_machine_note(c->m, "intel_idle: SPR fix-up: package C6 not allowed "
					"(PKG_CST_CONFIG limit %u): C6 190/600 us",
					p->pkg_cst_config & 0x7);
		}
		break;
	case FIX_BXT:
		/* the IRTL MSRs of PC6..PC10 give C6..C10 latency and residency */
		for (int i = 0; i < 5; i++) {
			unsigned int us = irtl_usec(p->pkgc_irtl[i]);

			if (!us)
				continue;
			set_times(t, bxt_rows[i], us, us);
			il_machine_note(c->m, "intel_idle: BXT fix-up: MSR_PKGC%d_IRTL 0x%x: %s %u/%u "
					"us", i + 6, p->pkgc_irtl[i], bxt_rows[i], us, us);
		}
		break;
	case FIX_ADL:
		/* preferred_cstates with C1 (bit 1) but not C1E (bit 2): C1 instead of C1E */
		if ((c->o.preferred & 2u) && !(c->o.preferred & 4u)) {
			set_flag(t, "C1", IL_FLAG_UNUSABLE, false);
			set_flag(t, "C1E", IL_FLAG_UNUSABLE, true);
			il_machine_note(c->m, "intel_idle: ADL fix-up: preferred_cstates=0x%x: C1 "
					"usable, C1E unusable, C1E promotion disabled",
					c->o.preferred);
		} else {
			il_machine_note(c->m, "intel_idle: ADL fix-up: C1E promotion enabled "
					"(MSR_IA32_POWER_CTL bit 1 set), C1 unusable");
		}
		break;
	case FIX_IVT:
	case FIX_NONE:
		break;
	}
}

/* CPUID.5:EDX lists MWAIT sub-states for the hint's C-state. */
static bool hint_has_substates(const struct il_platform *p, unsigned int hint)
{
	unsigned int mwait_cstate = il_mwait_cstate(hint) + 1;

	/* x86 SHR takes the count modulo 32 (a _CST hint nibble can reach 15) */
	return (p->cpuid5_edx >> ((mwait_cstate * IL_MWAIT_SUBSTATE_SIZE) & 31)) &
	       IL_MWAIT_SUBSTATE_MASK;
}

/* intel_idle_init_cstates_icpu(): the built-in table through the filters. */
static void init_cstates_icpu(struct intel_idle_ctx *c)
{
	const struct il_platform *p = c->p;
	struct il_driver *drv = &c->m->drv;
	struct icstate t[IL_STATE_MAX + 1];
	char skipped[IL_NOTE_LEN] = "", off[IL_NOTE_LEN] = "";
	bool use_acpi = il_release_at_least(c->m, REL_CST) && (c->icpu->use_acpi || c->o.force_use_acpi);
	bool tsc_noted = false;
	const struct icstate *src = c->fixup == FIX_IVT ? ivt_table(c) : c->icpu->table;
	int n = 0;

	while (n < IL_STATE_MAX && src[n].name) {
		t[n] = src[n];
		n++;
	}
	t[n].name = NULL;
	table_fixups(c, t);
	for (int cstate = 0; cstate < IL_STATE_MAX; cstate++) {
		struct il_state *s;
		unsigned int hint, mwait_cstate;

		if (cstate + 1 > c->o.max_cstate) {
			il_machine_note(c->m, "intel_idle: max_cstate %d reached", c->o.max_cstate);
			break;
		}
		if (!t[cstate].name || drv->state_count >= IL_STATE_MAX)
			break;
		if (t[cstate].flags & IL_FLAG_UNUSABLE)
			continue;
		hint = t[cstate].hint;
		mwait_cstate = il_mwait_cstate(hint) + 1;
		if (!hint_has_substates(p, hint)) {
			size_t l = strlen(skipped);
			snprintf(skipped + l, sizeof(skipped) - l, " %s", t[cstate].name);
			continue;
		}
		if (mwait_cstate > 2 && !p->nonstop_tsc && !tsc_noted) {
			il_machine_note(c->m, "intel_idle: TSC halts in idle states deeper than C2");
			tsc_noted = true;
		}
		s = &drv->states[drv->state_count];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", t[cstate].name);
		snprintf(s->desc, sizeof(s->desc), "MWAIT 0x%02x", hint);
		s->flags = t[cstate].flags;
		s->exit_latency = t[cstate].exit_latency;
		s->target_residency = t[cstate].target_residency;
		if ((c->o.states_off & (1u << drv->state_count)) ||
		    (use_acpi && off_by_default(c, hint, t[cstate].priv) &&
		     !(t[cstate].priv & F_ALWAYS_ENABLE))) {
			size_t l = strlen(off);
			s->flags |= IL_FLAG_OFF;
			snprintf(off + l, sizeof(off) - l, " %s", s->name);
		}
		if (needs_timer_stop(p, hint))
			s->flags |= IL_FLAG_TIMER_STOP;
		mwait_state(p, s, hint);
		drv->state_count++;
	}
	if (skipped[0])
		il_machine_note(c->m, "intel_idle: no MWAIT sub-states in CPUID.5:EDX 0x%x for:%s "
				"(skipped)", p->cpuid5_edx, skipped);
	if (off[0])
		il_machine_note(c->m, "intel_idle: off by default:%s", off);
}

/* intel_idle_init_cstates_acpi(): a table from _CST for an unknown model. */
static void init_cstates_acpi(struct intel_idle_ctx *c)
{
	const struct il_platform *p = c->p;
	struct il_driver *drv = &c->m->drv;
	int limit = c->acpi_count < IL_STATE_MAX ? c->acpi_count : IL_STATE_MAX;

	for (int cstate = 1; cstate < limit; cstate++) {
		const struct il_acpi_cx *cx = &c->acpi.states[cstate];
		struct il_state *s;

		if (cstate > c->o.max_cstate) {
			il_machine_note(c->m, "intel_idle: max_cstate %d reached", c->o.max_cstate);
			break;
		}
		s = &drv->states[drv->state_count++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "C%d_ACPI", cstate);
		snprintf(s->desc, sizeof(s->desc), "%s", cx->desc);
		s->exit_latency = cx->latency;
		/* C1-type: residency = latency; deeper: three times the latency */
		s->target_residency = cx->latency;
		if (cx->type > IL_ACPI_STATE_C1)
			s->target_residency *= 3;
		if (cx->type > IL_ACPI_STATE_C2)
			s->flags |= IL_FLAG_TLB_FLUSHED;
		if (c->o.states_off & (1u << cstate))
			s->flags |= IL_FLAG_OFF;
		if (needs_timer_stop(p, cx->address))
			s->flags |= IL_FLAG_TIMER_STOP;
		mwait_state(p, s, cx->address);
	}
}

/* get_cmdline_field(): the text up to sep (cut there), or NULL at the end or a space. */
static char *table_field(char *args, char **field, char sep)
{
	size_t i = 0;

	while (args[i] && !isspace((unsigned char)args[i]) && args[i] != sep)
		i++;
	*field = args;
	if (args[i] != sep)
		return NULL;
	args[i] = '\0';
	return args + i + 1;
}

/* validate_cmdline_cstate(): a state of the adjusted table against the one before it. */
static bool table_state_ok(const struct il_state *s, const struct il_state *prev)
{
	return s->exit_latency && s->exit_latency <= TABLE_MAX_LATENCY_US &&
	       s->target_residency <= TABLE_MAX_RESIDENCY_US &&
	       s->target_residency >= s->exit_latency &&
	       s->exit_latency > prev->exit_latency && s->target_residency > prev->target_residency;
}

/*
 * cmdline_table_adjust() (v7.0: 111f77a23348, validation be6a150829b3):
 * intel_idle.table=NAME:LATENCY:RESIDENCY[,...] sets the named states'
 * exit latency and target residency in µs (an empty field keeps the
 * value) on a copy of the built table; the copy replaces the table only
 * if every entry parses and every state from 1 on passes the checks.
 * POLL and unknown names are skipped. The hardware is not changed: each
 * state keeps its wake-up distribution.
 */
static void table_option(struct intel_idle_ctx *c)
{
	struct il_driver *drv = &c->m->drv;
	struct il_state t[IL_STATE_MAX];
	char buf[sizeof(((struct il_plat_option *)0)->value)], *args = buf;
	const char *why = NULL;

	snprintf(buf, sizeof(buf), "%s", c->o.table);
	if (!buf[0])
		return;
	memcpy(t, drv->states, sizeof(t[0]) * (size_t)drv->state_count);
	while (args && !why) {
		char *fields, *name, *val;
		struct il_state *s = NULL;
		unsigned int x;
		int extra;

		args = table_field(args, &fields, ',');
		fields = table_field(fields, &name, ':');
		if (!fields) {
			why = *name ? "an entry without ':'" : "an empty entry (a trailing or doubled ',')";
			break;
		}
		if (!strcmp(name, "POLL")) {
			il_machine_note(c->m, "intel_idle: table: cannot adjust POLL");
			continue;
		}
		for (int i = 0; i < drv->state_count; i++)
			if (!strcmp(name, drv->states[i].name)) {
				s = &t[i];
				break;
			}
		if (!s) {
			il_machine_note(c->m, "intel_idle: table: C-state '%s' was not found", name);
			continue;
		}
		fields = table_field(fields, &val, ':');
		if (!fields || (*val && il_kstrtouint(val, &x))) {
			why = "a latency that is not a number, or no residency field";
			break;
		}
		if (*val)
			s->exit_latency = x;
		fields = table_field(fields, &val, ':');
		if (*val) {
			if (il_kstrtouint(val, &x)) {
				why = "a residency that is not a number";
				break;
			}
			s->target_residency = x;
		}
		/* up to three more fields are allowed and ignored */
		for (extra = 0; fields && extra < 3; extra++)
			fields = table_field(fields, &val, ':');
		if (fields)
			why = "too many fields";
	}
	for (int i = 1; !why && i < drv->state_count; i++)
		if (!table_state_ok(&t[i], &t[i - 1])) {
			il_machine_note(c->m, "intel_idle: table: C-state '%s' validation failed "
					"(%u/%u us)", t[i].name, t[i].exit_latency, t[i].target_residency);
			why = "a state failed validation";
		}
	if (why) {
		il_machine_note(c->m, "intel_idle: table=%s: %s; the table is not adjusted", c->o.table,
				why);
		return;
	}
	for (int i = 1; i < drv->state_count; i++) {
		if (t[i].exit_latency != drv->states[i].exit_latency ||
		    t[i].target_residency != drv->states[i].target_residency)
			il_machine_note(c->m, "intel_idle: table: %s %u/%u us (was %u/%u)", t[i].name,
					t[i].exit_latency, t[i].target_residency,
					drv->states[i].exit_latency, drv->states[i].target_residency);
		drv->states[i].exit_latency = t[i].exit_latency;
		drv->states[i].target_residency = t[i].target_residency;
	}
}

int il_intel_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			struct il_err *err)
{
	struct intel_idle_ctx c;
	enum il_idle_override ov;
	int entry;

	(void)err;
	if (p->arch != IL_ARCH_X86 || p->vendor != IL_VENDOR_INTEL) {
		il_machine_note(m, "intel_idle: not an Intel CPU");
		return 1;
	}
	ov = il_boot_idle_override(p);
	if (ov != IL_IDLE_NO_OVERRIDE) {
		il_machine_note(m, "intel_idle: not loaded with idle=%s",
				ov == IL_IDLE_POLL ? "poll" : ov == IL_IDLE_HALT ? "halt" : "nomwait");
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.m = m;
	read_params(&c);
	if (c.o.max_cstate == 0) {
		il_machine_note(m, "intel_idle: disabled (intel_idle.max_cstate=0)");
		return 1;
	}
	entry = match_entry(p, m);
	c.icpu = entry < 0 ? NULL : intel_idle_ids[entry].icpu;
	c.fixup = entry < 0 ? FIX_NONE : intel_idle_ids[entry].fixup;
	if (c.icpu && !p->mwait) {
		il_machine_note(m, "intel_idle: model 0x%x (%s table) without MWAIT: not loaded (%s)",
				p->model, c.icpu->label,
				p->hypervisor ? "the hypervisor does not offer MWAIT"
					      : "enable MWAIT in BIOS setup");
		return 1;
	}
	if (!c.icpu && ((p->family != 6 && !il_release_at_least(m, REL_ANY_FAMILY)) || !p->mwait)) {
		il_machine_note(m, "intel_idle: family %d model 0x%x%s: not supported", p->family,
				p->model, p->mwait ? "" : " without MWAIT");
		return 1;
	}
	if (!(p->cpuid5_ecx & IL_CPUID5_ECX_EXTENSIONS_SUPPORTED) ||
	    !(p->cpuid5_ecx & IL_CPUID5_ECX_INTERRUPT_BREAK) || !p->cpuid5_edx) {
		il_machine_note(m, "intel_idle: CPUID.5 lacks MWAIT extensions, interrupt break or "
				"sub-states (ECX 0x%x EDX 0x%x): not loaded", p->cpuid5_ecx,
				p->cpuid5_edx);
		return 1;
	}
	if (c.icpu && c.o.no_native && !c.o.no_acpi) {
		il_machine_note(m, "intel_idle: no_native: the %s table is ignored, _CST only",
				c.icpu->label);
		c.icpu = NULL;
		c.fixup = FIX_NONE;
	}
	if (c.icpu && !c.icpu->table && !cst_extract(&c)) {
		il_machine_note(m, "intel_idle: %s has no built-in table and no usable _CST: not "
				"loaded", c.icpu->label);
		return 1;
	}
	if (c.icpu) {
		if (c.icpu->auto_demotion)
			il_machine_note(m, "intel_idle: %s: hardware C-state auto-demotion disabled "
					"(MSR_PKG_CST_CONFIG_CONTROL)", c.icpu->label);
		if (c.icpu->byt_demotion)
			il_machine_note(m, "intel_idle: %s: C6 auto-demotion disabled "
					"(MSR_CC6/MC6_DEMOTION_POLICY_CONFIG cleared)", c.icpu->label);
		/* (the 5.18 SPR fix-up turns it back on when preferred_cstates asks for C1E) */
		if (c.icpu->disable_promotion_to_c1e &&
		    !(c.fixup == FIX_SPR_5_18 && (c.o.preferred & 4u) && !(c.o.preferred & 2u)))
			il_machine_note(m, "intel_idle: %s: C1E promotion disabled (MSR_IA32_POWER_CTL "
					"bit 1 cleared), C1E is a state of its own", c.icpu->label);
		if (c.icpu->table && (c.icpu->use_acpi || c.o.force_use_acpi) &&
		    il_release_at_least(m, REL_CST))
			cst_extract(&c);
	} else if (!il_release_at_least(m, REL_CST)) {
		il_machine_note(m, "intel_idle: model 0x%x has no built-in table and kernels before "
				"%s do not use _CST: not loaded", p->model, REL_CST);
		return 1;
	} else if (!cst_extract(&c)) {
		il_machine_note(m, "intel_idle: model 0x%x has no built-in table and no usable _CST: "
				"not loaded", p->model);
		return 1;
	}

	memset(&m->drv, 0, sizeof(m->drv));
	snprintf(m->drv.name, sizeof(m->drv.name), "intel_idle");
	il_poll_state_init(&m->drv.states[0]);
	m->drv.states[0].exit_dist = p->poll_exit;
	if (c.o.states_off & 1u)
		m->drv.states[0].flags |= IL_FLAG_OFF;
	m->drv.state_count = 1;
	if (c.icpu && c.icpu->table)
		init_cstates_icpu(&c);
	else
		init_cstates_acpi(&c);
	if (c.o.table)
		table_option(&c);
	il_driver_init(&m->drv);
	m->cpuidle = true;
	il_machine_note(m, "intel_idle: %s, %d states",
			c.icpu && c.icpu->table ? c.icpu->label : "_CST table",
			m->drv.state_count);
	return 0;
}

void il_intel_idle_state_names(const struct il_platform *p, struct il_state_names *s)
{
	char name[32];

	/* the probe's conditions that no release or option changes (any family: 6.17+) */
	if (p->arch != IL_ARCH_X86 || p->vendor != IL_VENDOR_INTEL || !p->mwait ||
	    !(p->cpuid5_ecx & IL_CPUID5_ECX_EXTENSIONS_SUPPORTED) ||
	    !(p->cpuid5_ecx & IL_CPUID5_ECX_INTERRUPT_BREAK) || !p->cpuid5_edx)
		return;
	il_state_names_add(s, "POLL", "intel_idle", "poll_exit");
	/* every text the model has in some release (the match list is family 6's) */
	for (size_t i = 0; p->family == 6 && i < sizeof(intel_idle_ids) / sizeof(intel_idle_ids[0]);
	     i++) {
		const struct icstate *t = intel_idle_ids[i].icpu->table;

		if (intel_idle_ids[i].model != p->model)
			continue;
		for (int j = 0; t && t[j].name; j++)
			if (hint_has_substates(p, t[j].hint))
				il_state_names_add(s, t[j].name, "intel_idle", NULL);
	}
	/*
	 * _CST names: a model before its table's release, one without a table
	 * (Tremont), and every model under no_native (6.15+) builds them
	 */
	for (int i = 1; i <= il_acpi_cst_max_slot(p); i++) {
		snprintf(name, sizeof(name), "C%d_ACPI", i);
		il_state_names_add(s, name, "intel_idle", NULL);
	}
}
