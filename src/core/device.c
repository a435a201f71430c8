// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpuidle core's per-CPU accounting and helpers.
 *
 * Follows drivers/cpuidle/cpuidle.c (cpuidle_enter_state,
 * cpuidle_find_deepest_state, cpuidle_poll_time), drivers/cpuidle/governor.c
 * (cpuidle_governor_latency_req) and drivers/cpuidle/sysfs.c (state disable
 * writes), mainline v7.1; the commits read are listed in docs/design.md.
 */
#include <string.h>

#include "idlelab/device.h"
#include "idlelab/release.h"

void il_device_init(struct il_device *dev, const struct il_driver *drv, int cpu)
{
	memset(dev, 0, sizeof(*dev));
	dev->cpu = cpu;
	dev->enabled = true;
	/* __cpuidle_device_init / cpuidle_add_device_sysfs: flags become disable bits */
	for (int i = 0; i < drv->state_count; i++) {
		if (drv->states[i].flags & IL_FLAG_UNUSABLE)
			dev->states_usage[i].disable |= IL_DISABLE_BY_DRIVER;
		if (drv->states[i].flags & IL_FLAG_OFF)
			dev->states_usage[i].disable |= IL_DISABLE_BY_USER;
	}
}

void il_device_set_user_disable(struct il_device *dev, int i, bool disable)
{
	if (disable)
		dev->states_usage[i].disable |= IL_DISABLE_BY_USER;
	else
		dev->states_usage[i].disable &= ~(unsigned long long)IL_DISABLE_BY_USER;
	/* any store to a state attribute drops the cached poll limit */
	dev->poll_limit_ns = 0;
}

void il_qos_init(struct il_qos *qos)
{
	qos->resume_latency_us = IL_QOS_DEFAULT_DEV_US;
	qos->cpu_latency_us = IL_QOS_DEFAULT_GLOBAL_US;
}

int64_t il_latency_req_ns(const struct il_qos *qos)
{
	int32_t dev_req = qos->resume_latency_us;
	int32_t global_req = qos->cpu_latency_us;
	int32_t req = dev_req < global_req ? dev_req : global_req;

	return (int64_t)req * 1000;
}

int il_account_enter(const struct il_driver *drv, struct il_device *dev,
		     int index, int entered, int64_t diff_ns)
{
	if (entered < 0) {
		dev->last_residency_ns = 0;
		dev->states_usage[index].rejected++;
		return entered;
	}

	const struct il_state *st = &drv->states[entered];
	struct il_state_usage *u = &dev->states_usage[entered];
	int64_t delay = st->exit_latency_ns;

	dev->last_residency_ns = diff_ns;
	u->time_ns += (uint64_t)diff_ns;
	u->usage++;

	if (diff_ns < st->target_residency_ns) {
		/* too short: counts only if some shallower state was available */
		for (int i = entered - 1; i >= 0; i--) {
			if (il_state_disabled(dev, i))
				continue;
			u->above++;
			break;
		}
	} else if (diff_ns > delay) {
		/* long enough for the nearest enabled deeper state? */
		for (int i = entered + 1; i < drv->state_count; i++) {
			if (il_state_disabled(dev, i))
				continue;
			if (diff_ns - delay >= drv->states[i].target_residency_ns)
				u->below++;
			break;
		}
	}
	return entered;
}

int il_find_deepest_state(const struct il_driver *drv, const struct il_device *dev,
			  uint64_t max_latency_ns, unsigned int forbidden_flags,
			  bool s2idle)
{
	uint64_t latency_req = 0;
	int ret = 0;

	for (int i = 1; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];

		if (il_state_disabled(dev, i) ||
		    (uint64_t)s->exit_latency_ns <= latency_req ||
		    (uint64_t)s->exit_latency_ns > max_latency_ns ||
		    (s->flags & forbidden_flags) || (s2idle && !s->has_s2idle))
			continue;
		latency_req = (uint64_t)s->exit_latency_ns;
		ret = i;
	}
	return ret;
}

uint64_t il_poll_time(const struct il_driver *drv, struct il_device *dev,
		      int64_t tick_nsec)
{
	return il_poll_time_rule(drv, dev, tick_nsec, IL_POLL_RULE_MIN_10US_CAPPED);
}

enum il_poll_rule il_poll_rule_for_release(const char *rel)
{
	if (il_release_cmp(rel, "5.5") < 0)
		return IL_POLL_RULE_LAST_ENABLED;
	if (il_release_cmp(rel, "5.11") < 0)
		return IL_POLL_RULE_FIRST_ENABLED;
	return IL_POLL_RULE_MIN_10US_CAPPED;
}

uint64_t il_poll_time_rule(const struct il_driver *drv, struct il_device *dev,
			   int64_t tick_nsec, enum il_poll_rule rule)
{
	uint64_t limit_ns;

	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;

	if (rule == IL_POLL_RULE_MIN_10US_CAPPED) {
		limit_ns = (uint64_t)(tick_nsec / 16); /* CPUIDLE_POLL_MAX */
		for (int i = 1; i < drv->state_count; i++) {
			uint64_t state_limit;

			if (il_state_disabled(dev, i))
				continue;
			state_limit = (uint64_t)drv->states[i].target_residency_ns;
			if (state_limit < IL_CPUIDLE_POLL_MIN_NS)
				continue;
			if (state_limit < limit_ns)
				limit_ns = state_limit;
			break;
		}
	} else {
		limit_ns = (uint64_t)tick_nsec;
		for (int i = 1; i < drv->state_count; i++) {
			if (il_state_disabled(dev, i))
				continue;
			if (rule == IL_POLL_RULE_FIRST_ENABLED) {
				limit_ns = (uint64_t)drv->states[i].target_residency_ns;
				break;
			}
			/* v5.4: the driver's unsigned int µs residency × NSEC_PER_USEC */
			limit_ns = (uint64_t)(drv->states[i].target_residency ?
					      drv->states[i].target_residency :
					      (unsigned int)((uint64_t)drv->states[i].target_residency_ns /
							     1000)) * 1000;
		}
	}
	dev->poll_limit_ns = limit_ns;
	return limit_ns;
}
