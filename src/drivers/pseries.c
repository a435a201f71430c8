// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pseries cpuidle driver (drivers/cpuidle/cpuidle-pseries.c) for
 * PowerVM/KVM logical partitions: snooze + CEDE on a dedicated-processor
 * partition, snooze + "Shared Cede" on a shared one.
 *
 * Follows torvalds 054e44ba99ae ("cpuidle: pseries: Add function to parse
 * extended CEDE records") and d947fb4c965c ("Fixup exit latency for
 * CEDE(0)"), both v5.9, with Gautham R. Shenoy's 2021 follow-ups merged for
 * v5.15: 50741b70b0cb ("Fixup CEDE0 latency only for POWER10 onwards") and
 * 71737a6c2a8f ("Do not cap the CEDE0 latency in fixup_cede0_latency()"),
 * in powerpc/next from 2021-08-03 (first applied as 7cbd631d4dec and
 * 4bceb03859c1, then rebased) and pulled with powerpc-5.15-1.
 * Three forms by release:
 *  - before v5.9: no extended CEDE records are read; CEDE is 10/100 us.
 *  - v5.9 .. v5.14: on every CPU, the lowest record latency (rounded up to
 *    µs, zero records counted) lowers CEDE only when below 10 us, to that
 *    minus 1 (at least 1) and 10x it as residency. This is the text as
 *    amended by the rounding fix ("cpuidle: pseries: Fix CEDE latency
 *    conversion from tb to us": DIV_ROUND_UP, 1 µs floor), which went
 *    into v5.9 itself with the powerpc-5.9-5 fixes pull (2020-09-18); the
 *    rounding-down form existed only in v5.9-rc kernels.
 *  - v5.15 on: only on ISA v3.1 CPUs, the lowest non-zero latency becomes
 *    CEDE's exit latency, uncapped, and ten times it the target residency.
 * The snooze loop gives up after CEDE's target residency (snooze_timeout).
 * The snooze state carries CPUIDLE_FLAG_POLLING, and the loop reports its
 * time limit in dev->poll_time_limit, from v6.2 only: 5ddcc03a07ae
 * ("powerpc/cpuidle: Set CPUIDLE_FLAG_POLLING for snooze state", Aboorva
 * Devarajan, powerpc-6.2-1 pull); before it the governors treat snooze as
 * an ordinary state (it still spins: IL_ENTRY_POLL).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "drivers_internal.h"
#include "idlelab/release.h"

#define CEDE_LATENCY_US 10              /* dedicated_states[1] / shared_states[1] default */
#define CEDE_RESIDENCY_US 100
#define XCEDE_RECORD_SIZE 10            /* sizeof(struct xcede_latency_record) */
#define XCEDE_RESIDENCY_FACTOR 10       /* target_residency = 10 x min xCEDE latency */
#define PVR_POWER10 0x0080              /* first PVR version with CPU_FTR_ARCH_31 */
#define TB_DEFAULT_HZ 512000000ull      /* POWER timebase when the platform omits tb_mhz */
#define NSEC_PER_USEC 1000ull
#define NSEC_PER_SEC 1000000000ull
#define REL_XCEDE "5.9"                 /* 054e44ba99ae, d947fb4c965c */
#define REL_POWER10_ONLY "5.15"         /* 50741b70b0cb, 71737a6c2a8f */
#define REL_SNOOZE_POLLING "6.2"        /* 5ddcc03a07ae: CPUIDLE_FLAG_POLLING on snooze */

static uint64_t tb_hz(const struct il_platform *p)
{
	return p->tb_mhz > 0 ? (uint64_t)(p->tb_mhz * 1e6 + 0.5) : TB_DEFAULT_HZ;
}

/* tb_to_ns(): ticks of the timebase to ns (floor). */
static uint64_t tb_to_ns(const struct il_platform *p, uint64_t ticks)
{
	return (uint64_t)((unsigned __int128)ticks * NSEC_PER_SEC / tb_hz(p));
}

static void set_state(struct il_state *s, const char *name, unsigned lat, unsigned res,
		      unsigned flags, enum il_entry_method entry, struct il_dist exit)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->desc, sizeof(s->desc), "%s", name);
	s->exit_latency = lat;
	s->target_residency = res;
	s->flags = flags;
	s->entry = entry;
	s->exit_dist = exit;
	s->power_usage = -1;
	s->power_w = -1;
	s->transition_j = -1;
}

/*
 * fixup_cede0_latency(): the lowest usable extended CEDE wake-up latency
 * in µs, or 0 when the records are unusable or give none.
 */
/* Record i's wake-up latency in µs: DIV_ROUND_UP(tb_to_ns(ticks), 1000). */
static uint64_t xcede_record_us(const struct il_platform *p, int i)
{
	if (p->nxcede_ticks > 0)
		return (tb_to_ns(p, p->xcede_latency_ticks[i]) + NSEC_PER_USEC - 1) / NSEC_PER_USEC;
	return p->xcede_latency_us[i];
}

/* parse_cede_parameters(): false if the records cannot be used at all. */
static bool xcede_parse(const struct il_platform *p, struct il_machine_idle *m, int *n)
{
	int size = p->xcede_record_size ? p->xcede_record_size : XCEDE_RECORD_SIZE;

	if (size != XCEDE_RECORD_SIZE) {
		il_machine_note(m, "pseries: xcede: expected record-size %d, observed %d: "
				"records not parsed, no CEDE fix-up", XCEDE_RECORD_SIZE, size);
		return false;
	}
	if (p->nxcede_ticks > 0 && p->nxcede)
		il_machine_note(m, "pseries: xcede: records given in ticks and in us; "
				"the tick values are used");
	*n = p->nxcede_ticks > 0 ? p->nxcede_ticks : p->nxcede;
	il_machine_note(m, "pseries: skipping the %d extended CEDE idle states", *n);
	return true;
}

/*
 * The v5.9 .. v5.14 fix-up: lower CEDE only below its 10 us default, to the
 * minimum minus one (zero records count, 1 µs floor). Returns true if done.
 */
static bool fixup_cede0_capped(const struct il_platform *p, struct il_machine_idle *m,
			       unsigned *lat, unsigned *res)
{
	uint64_t min = *lat, cede0;
	int n;

	if (!xcede_parse(p, m, &n))
		return false;
	for (int i = 0; i < n; i++) {
		uint64_t us = xcede_record_us(p, i);
		if (us == 0)
			il_machine_note(m, "pseries: xcede record %d has an unrealistic latency "
					"of 0us", i);
		if (us < min)
			min = us;
	}
	if (min >= *lat)
		return false;
	cede0 = min > 1 ? min - 1 : 1;
	*lat = (unsigned)cede0;
	*res = (unsigned)(XCEDE_RESIDENCY_FACTOR * cede0);
	return true;
}

static uint64_t min_xcede_latency_us(const struct il_platform *p, struct il_machine_idle *m)
{
	uint64_t min = 0;
	int n;

	if (!xcede_parse(p, m, &n))
		return 0;
	for (int i = 0; i < n; i++) {
		uint64_t us = xcede_record_us(p, i);
		if (us == 0) {
			il_machine_note(m, "pseries: skipping xcede record %d: exit latency 0us", i);
			continue;
		}
		/* the kernel starts from UINT_MAX: larger values never win */
		if (us < UINT_MAX && (!min || us < min))
			min = us;
	}
	return min;
}

bool il_pseries_snooze_polling(const char *release)
{
	return il_release_cmp(release, REL_SNOOZE_POLLING) >= 0;
}

int il_pseries_idle_probe(const struct il_platform *p, struct il_machine_idle *m,
			  struct il_err *err)
{
	struct il_driver *drv = &m->drv;
	const char *ps = il_platform_option(p, "powersave");

	(void)err;
	if (p->arch != IL_ARCH_POWERPC) {
		il_machine_note(m, "pseries_idle: not a powerpc partition");
		return 1;
	}
	if (ps && !strcmp(ps, "off")) {
		il_machine_note(m, "pseries_idle: not loaded: powersave=off (cpuidle_disable)");
		return 1;
	}
	if (!p->hypervisor) {
		il_machine_note(m, "pseries_idle: not loaded: no FW_FEATURE_SPLPAR "
				"(not a logical partition)");
		return 1;
	}

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "pseries_idle");
	if (il_pseries_snooze_polling(m->release)) {
		set_state(&drv->states[0], "snooze", 0, 0, IL_FLAG_POLLING, IL_ENTRY_POLL,
			  p->poll_exit);
	} else {
		/* the same spin loop, which the governors do not see as polling */
		set_state(&drv->states[0], "snooze", 0, 0, 0, IL_ENTRY_POLL, p->poll_exit);
		il_machine_note(m, "pseries: snooze has no CPUIDLE_FLAG_POLLING before 6.2 "
				"(5ddcc03a07ae) and its time limit sets no poll_time_limit");
	}
	if (p->shared_processor) {
		set_state(&drv->states[1], "Shared Cede", CEDE_LATENCY_US, CEDE_RESIDENCY_US, 0,
			  IL_ENTRY_CEDE, p->hlt_exit);
		il_machine_note(m, "pseries: shared-processor partition: shared_states");
	} else {
		unsigned lat = CEDE_LATENCY_US, res = CEDE_RESIDENCY_US;

		il_machine_note(m, "pseries: dedicated-processor partition: dedicated_states");
		if (!il_release_at_least(m, REL_XCEDE)) {
			il_machine_note(m, "pseries: kernels before 5.9 read no extended CEDE "
					"records: CEDE stays %u/%u us", lat, res);
		} else if (!il_release_at_least(m, REL_POWER10_ONLY)) {
			if (fixup_cede0_capped(p, m, &lat, &res))
				il_machine_note(m, "pseries: fixed up CEDE exit latency to %u us "
						"(below the 10 us default, before 71737a6c2a8f)", lat);
			else
				il_machine_note(m, "pseries: no extended CEDE latency below %u us: "
						"CEDE stays %u/%u us", lat, lat, res);
		} else if (p->model >= PVR_POWER10) {
			uint64_t min = min_xcede_latency_us(p, m);
			if (min) {
				lat = (unsigned)min;
				res = (unsigned)(XCEDE_RESIDENCY_FACTOR * min);
				il_machine_note(m, "pseries: fixed up CEDE exit latency to %u us "
						"(target residency %u us)", lat, res);
			} else {
				il_machine_note(m, "pseries: no usable extended CEDE latency: "
						"CEDE stays %u/%u us", lat, res);
			}
		} else {
			il_machine_note(m, "pseries: pre-POWER10 CPU (PVR version 0x%x): firmware "
					"latencies not used, CEDE stays %u/%u us", (unsigned)p->model,
					lat, res);
		}
		set_state(&drv->states[1], "CEDE", lat, res, 0, IL_ENTRY_CEDE, p->hlt_exit);
	}
	drv->state_count = 2;
	drv->safe_state_index = 0;
	il_driver_init(drv);

	/* snooze_timeout = states[1].target_residency * tb_ticks_per_usec, in ticks */
	uint64_t tpu = tb_hz(p) / 1000000ull;
	m->snooze_timeout_ns = tb_to_ns(p, drv->states[1].target_residency * tpu);
	il_machine_note(m, "pseries: snooze polls for at most %llu ns (CEDE target residency)",
			(unsigned long long)m->snooze_timeout_ns);
	m->cpuidle = true;
	return 0;
}

void il_pseries_idle_state_names(const struct il_platform *p, struct il_state_names *s)
{
	if (p->arch != IL_ARCH_POWERPC || !p->hypervisor)
		return;
	il_state_names_add(s, "snooze", "pseries_idle", "poll_exit");
	il_state_names_add(s, p->shared_processor ? "Shared Cede" : "CEDE", "pseries_idle",
			   "hlt_exit");
}
