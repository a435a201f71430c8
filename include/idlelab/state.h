/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Idle states and state tables ("drivers").
 *
 * Mirrors struct cpuidle_state / struct cpuidle_driver of the kernel
 * (include/linux/cpuidle.h), plus what the model needs beyond the kernel's
 * fields: how a state is entered, the distribution of its real exit latency
 * and any exit-path cost spent after the hardware woke (the ACPI dummy wait).
 */
#ifndef IDLELAB_STATE_H
#define IDLELAB_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_STATE_MAX 10          /* CPUIDLE_STATE_MAX */
#define IL_NAME_LEN 16           /* CPUIDLE_NAME_LEN */
#define IL_DESC_LEN 32           /* CPUIDLE_DESC_LEN */

/* Core state flags, same bit numbers as the kernel's CPUIDLE_FLAG_*. */
#define IL_FLAG_POLLING     (1u << 0)
#define IL_FLAG_COUPLED     (1u << 1)
#define IL_FLAG_TIMER_STOP  (1u << 2)
#define IL_FLAG_UNUSABLE    (1u << 3)
#define IL_FLAG_OFF         (1u << 4)
#define IL_FLAG_TLB_FLUSHED (1u << 5)
#define IL_FLAG_RCU_IDLE    (1u << 6)
/* idlelab-only: leaving this state releases turbo headroom (C3/C6-class). */
#define IL_FLAG_TURBO_RELEASE (1u << 16)

/* struct cpuidle_state_usage.disable bits */
#define IL_DISABLE_BY_USER   (1u << 0)
#define IL_DISABLE_BY_DRIVER (1u << 1)

/* How a state is entered (what the driver's ->enter does). */
enum il_entry_method {
	IL_ENTRY_NONE = 0,
	IL_ENTRY_POLL,       /* cpuidle poll_idle / pseries snooze: spin */
	IL_ENTRY_HLT,        /* STI;HLT (default_idle, ACPI HALT, haltpoll idle) */
	IL_ENTRY_MWAIT,      /* MWAIT with a hint (intel_idle, ACPI FFH, mwait_idle) */
	IL_ENTRY_IOPORT,     /* ACPI SYSTEMIO: read of a P_LVLx port */
	IL_ENTRY_CEDE,       /* pseries H_CEDE */
	IL_ENTRY_TDX_HALT,   /* TDX guest HLT via TDCALL */
};

/* A distribution of a duration in ns, sampled by the simulator. */
enum il_dist_kind {
	IL_DIST_NONE = 0,    /* always 0 */
	IL_DIST_CONST,       /* a */
	IL_DIST_UNIFORM,     /* uniform in [a, b] */
	IL_DIST_NORMAL,      /* mean a, stddev b, truncated at 0 */
	IL_DIST_LOGNORMAL,   /* median a, sigma b (of ln) */
	IL_DIST_EXP,         /* a + exponential with mean b */
};

struct il_dist {
	enum il_dist_kind kind;
	double a;            /* ns, see kind */
	double b;            /* ns or unitless sigma, see kind */
	/*
	 * A heavy tail ("BODY+P%:TAIL"): with probability tail_p (0..1] a draw
	 * adds one of tail_kind/tail_a/tail_b (a drawing kind or a constant);
	 * tail_p 0: none. A distribution with a tail always draws.
	 */
	double tail_p;
	enum il_dist_kind tail_kind;
	double tail_a, tail_b;
};

/* Does d take random numbers (a drawing kind, or a tail)? */
static inline bool il_dist_draws(const struct il_dist *d)
{
	return d->tail_p > 0 || (d->kind != IL_DIST_NONE && d->kind != IL_DIST_CONST);
}

struct il_state {
	char name[IL_NAME_LEN];
	char desc[IL_DESC_LEN];
	unsigned int flags;            /* IL_FLAG_* */
	unsigned int exit_latency;     /* µs, as the driver gave it (0 if ns given) */
	unsigned int target_residency; /* µs, as the driver gave it (0 if ns given) */
	int64_t exit_latency_ns;       /* what governors use */
	int64_t target_residency_ns;   /* what governors use */
	int power_usage;               /* mW as sysfs "power" shows it (-1 = unknown) */

	/* Model facts, not in the kernel struct. */
	enum il_entry_method entry;    /* how ->enter gets there */
	unsigned int mwait_hint;       /* EAX hint for IL_ENTRY_MWAIT */
	unsigned int io_port;          /* port for IL_ENTRY_IOPORT */
	bool has_s2idle;               /* driver has ->enter_s2idle */
	struct il_dist exit_dist;      /* real wake-up latency, ns */
	struct il_dist exit_path_cost; /* after-wake cost inside residency (dummy wait), ns */
	bool exit_path_shared;         /* that cost is a read of one device of the whole
					  machine (the ACPI PM timer): served one at a time */
	struct il_dist exit_path_hold; /* of a shared read, the time the device is held
					  (the rest is the CPU's own round trip); none: all */
	double power_w;                /* power of a thread in this state, W (<0: unknown) */
	double transition_j;           /* energy of one entry+exit, J (<0: unknown) */
};

/*
 * The unsigned int µs fields of struct cpuidle_state as a driver of v5.4
 * sets them (before c1d51f684c72 made the governors use ns): the table's
 * own µs values; derived from ns, truncated, where only ns were given.
 * What the µs texts of the governors (the 5.4 presets) read; el is
 * exit_latency, tr target_residency.
 */
static inline uint32_t il_state_el_us(const struct il_state *s)
{
	return s->exit_latency ? s->exit_latency
			       : (uint32_t)((uint64_t)s->exit_latency_ns / 1000);
}

static inline uint32_t il_state_tr_us(const struct il_state *s)
{
	return s->target_residency ? s->target_residency
				   : (uint32_t)((uint64_t)s->target_residency_ns / 1000);
}

/*
 * Does a CPU in s spin (a polling loop, not a halt)? A CPUIDLE_FLAG_POLLING
 * state does, and so does a spin loop registered without the flag (pseries'
 * snooze before 5ddcc03a07ae, v6.2): the flag is what the governors and the
 * time-limit report (dev->poll_time_limit) see, the entry method what the
 * hardware does.
 */
static inline bool il_state_spins(const struct il_state *s)
{
	return (s->flags & IL_FLAG_POLLING) || s->entry == IL_ENTRY_POLL;
}

/* A state table as a registered cpuidle driver holds it. */
struct il_driver {
	char name[32];                 /* "haltpoll", "acpi_idle", ... */
	char governor[16];             /* preferred governor, "" if none */
	int state_count;
	int safe_state_index;
	bool bctimer;                  /* some state has TIMER_STOP */
	struct il_state states[IL_STATE_MAX];
};

/*
 * Normalise a driver's states as cpuidle_register_driver() does
 * (drivers/cpuidle/driver.c __cpuidle_driver_init): µs given -> ns derived,
 * ns given -> µs derived, negative ns clamped to 0, bctimer from TIMER_STOP.
 */
void il_driver_init(struct il_driver *drv);

/* Fill states[0] as cpuidle_poll_state_init() does. */
void il_poll_state_init(struct il_state *s);

/*
 * Whether a state read from sysfs (which shows no flags) is a polling state:
 * the core's poll state (name "POLL" or desc "CPUIDLE CORE POLL IDLE" at
 * index 0, drivers/cpuidle/poll_state.c) or pseries' "snooze"
 * (drivers/cpuidle/cpuidle-pseries.c), both CPUIDLE_FLAG_POLLING.
 */
bool il_state_sysfs_polling(int index, const char *name, const char *desc);

/* Parse "POLLING|TIMER_STOP|..." or "polling,timer-stop" into flags. */
int il_state_flags_parse(const char *text, unsigned int *flags, struct il_err *err);

/* Write flags as "POLLING|TIMER_STOP" ("" for none) into buf. */
const char *il_state_flags_str(unsigned int flags, char *buf, unsigned size);

const char *il_entry_method_name(enum il_entry_method m);
int il_entry_method_parse(const char *text, enum il_entry_method *m);

/*
 * Parse a distribution: "0", "1200" (const ns), "const:1200",
 * "uniform:800:1200", "normal:MEAN:SD", "lognormal:MEDIAN:SIGMA",
 * "exp:MIN:MEAN". Values are ns; a "us" suffix on a number means µs.
 * Any of them may end in "+P%:DIST", a tail: with probability P per cent a
 * draw adds one from DIST ("lognormal:12us:0.3+2.5%:lognormal:40us:1").
 */
int il_dist_parse(const char *text, struct il_dist *d, struct il_err *err);
/* The same, with bare numbers of durations in µs when bare_us (as --wl-opt reads them). */
int il_dist_parse_bare(const char *text, bool bare_us, struct il_dist *d, struct il_err *err);
/*
 * Where a distribution's tail begins in text: the '+' of "+P%" (blanks
 * allowed around P), else NULL. For those that rewrite a distribution's
 * text (a scenario's estimates), so that they find the tail il_dist_parse()
 * finds.
 */
const char *il_dist_tail_start(const char *text);
/*
 * Room for il_dist_str() of any distribution: two kinds of 19-digit times
 * and a 15-digit share, "uniform:A:B+P%:uniform:C:D", are 117 characters.
 */
#define IL_DIST_STR_LEN 128
const char *il_dist_str(const struct il_dist *d, char *buf, unsigned size);
/* Mean of a distribution in ns. */
double il_dist_mean(const struct il_dist *d);

#ifdef __cplusplus
}
#endif

#endif
