/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-CPU cpuidle device and the core's accounting.
 *
 * Follows drivers/cpuidle/cpuidle.c (cpuidle_enter_state,
 * cpuidle_find_deepest_state, cpuidle_poll_time), drivers/cpuidle/governor.c
 * (cpuidle_governor_latency_req) and drivers/cpuidle/sysfs.c, as of
 * mainline v7.1 (see docs/design.md for the commits read).
 */
#ifndef IDLELAB_DEVICE_H
#define IDLELAB_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_CPUIDLE_POLL_MIN_NS 10000  /* CPUIDLE_POLL_MIN */
#define IL_S32_MAX 2147483647
#define IL_QOS_DEFAULT_GLOBAL_US 2000000000 /* PM_QOS_CPU_LATENCY_DEFAULT_VALUE */
#define IL_QOS_DEFAULT_DEV_US IL_S32_MAX    /* PM_QOS_RESUME_LATENCY_NO_CONSTRAINT */

/* struct cpuidle_state_usage */
struct il_state_usage {
	unsigned long long disable;   /* IL_DISABLE_BY_USER | IL_DISABLE_BY_DRIVER */
	unsigned long long usage;     /* successful entries */
	unsigned long long above;     /* entries shorter than target residency */
	unsigned long long below;     /* entries a deeper state would have fitted */
	unsigned long long rejected;  /* entries ->enter refused */
	uint64_t time_ns;             /* total measured residency */
	unsigned long long s2idle_usage;
	unsigned long long s2idle_time; /* µs */
};

/* struct cpuidle_device, the fields the model needs. */
struct il_device {
	int cpu;
	bool enabled;
	int last_state_idx;            /* written by governors */
	int64_t last_residency_ns;     /* written by the core on every exit */
	uint64_t poll_limit_ns;        /* poll-time cache; haltpoll manages it */
	bool poll_time_limit;          /* the last poll ended on its time limit */
	uint64_t forced_idle_latency_limit_ns;
	struct il_state_usage states_usage[IL_STATE_MAX];
};

/* PM QoS requests that make up the governor's latency limit. */
struct il_qos {
	int32_t resume_latency_us;     /* per-CPU resume latency, IL_QOS_DEFAULT_DEV_US = none */
	int32_t cpu_latency_us;        /* global /dev/cpu_dma_latency, IL_QOS_DEFAULT_GLOBAL_US = none */
};

/* Initialise a device for a driver as cpuidle_register_device() does. */
void il_device_init(struct il_device *dev, const struct il_driver *drv, int cpu);

/*
 * The int last_residency (µs) of v5.4's struct cpuidle_device, as the
 * governors' µs texts (the 5.4 presets) read it: last_residency_ns / 1000,
 * at most INT_MAX. An int64_t: each caller converts it as its kernel text
 * does (unsigned int in menu, ladder and haltpoll).
 */
static inline int64_t il_device_last_residency_us(const struct il_device *dev)
{
	int64_t us = dev->last_residency_ns / 1000;

	return us > INT32_MAX ? INT32_MAX : us;
}

/* Non-zero disable word means unusable for governors. */
static inline bool il_state_disabled(const struct il_device *dev, int i)
{
	return dev->states_usage[i].disable != 0;
}

/*
 * Set or clear the user disable bit, as a write to stateN/disable does; any
 * write to a state attribute also drops the poll-time cache.
 */
void il_device_set_user_disable(struct il_device *dev, int i, bool disable);

/* Reset the PM QoS requests to "no constraint". */
void il_qos_init(struct il_qos *qos);

/* cpuidle_governor_latency_req(): min(per-CPU, global) in µs times 1000. */
int64_t il_latency_req_ns(const struct il_qos *qos);

/*
 * Account one idle period as cpuidle_enter_state() does after ->enter
 * returned. index is the requested state, entered what ->enter returned
 * (negative = error: counted as rejected), diff_ns the local_clock span
 * around ->enter. Returns entered.
 */
int il_account_enter(const struct il_driver *drv, struct il_device *dev,
		     int index, int entered, int64_t diff_ns);

/*
 * call_cpuidle() found need_resched before entering: nothing is counted,
 * but the device's last residency reads 0.
 */
static inline void il_account_aborted(struct il_device *dev)
{
	dev->last_residency_ns = 0;
}

/*
 * cpuidle_find_deepest_state(): deepest enabled state with strictly
 * increasing exit latency within max_latency_ns that has none of the
 * forbidden flags (and ->enter_s2idle if s2idle). Returns 0 by default.
 */
int il_find_deepest_state(const struct il_driver *drv, const struct il_device *dev,
			  uint64_t max_latency_ns, unsigned int forbidden_flags,
			  bool s2idle);

/*
 * cpuidle_poll_time(): the poll state's time limit, cached in
 * dev->poll_limit_ns. tick_nsec is the kernel's TICK_NSEC. il_poll_time()
 * follows v5.11 and later; il_poll_time_rule() the rule of a release.
 */
uint64_t il_poll_time(const struct il_driver *drv, struct il_device *dev,
		      int64_t tick_nsec);

/* How cpuidle_poll_time() picks the limit when no cached one is set. */
enum il_poll_rule {
	/* 7a25759eaa04 (v5.11): the first enabled state >= 1 whose target
	 * residency is at least 10 µs, capped at TICK_NSEC / 16 (also the
	 * value when there is none) */
	IL_POLL_RULE_MIN_10US_CAPPED = 0,
	/* 36fcb4292473 (v5.5 .. v5.10): the first enabled state >= 1, else TICK_NSEC */
	IL_POLL_RULE_FIRST_ENABLED,
	/* v5.4: the loop has no break, so the last enabled state >= 1 (its µs
	 * residency × 1000), else TICK_NSEC */
	IL_POLL_RULE_LAST_ENABLED,
};

/* The rule of mainline release rel ("5.4" .. "7.1"). */
enum il_poll_rule il_poll_rule_for_release(const char *rel);

uint64_t il_poll_time_rule(const struct il_driver *drv, struct il_device *dev,
			   int64_t tick_nsec, enum il_poll_rule rule);

/*
 * CONFIG_HZ where nothing says otherwise: the Kconfig default (kernel/Kconfig.hz,
 * "default HZ_250", unchanged from 2.6.13 through 7.1).
 */
#define IL_HZ_DEFAULT 250u

/* TICK_NSEC for a given HZ: (10^9 + HZ/2) / HZ. */
static inline int64_t il_tick_nsec(unsigned int hz)
{
	return (int64_t)((1000000000ull + hz / 2) / hz);
}

#ifdef __cplusplus
}
#endif

#endif
