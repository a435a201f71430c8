// SPDX-License-Identifier: GPL-2.0-only
/*
 * The haltpoll governor (KVM guests): poll first after a halt, halt after a
 * poll window that expired, and size the per-CPU poll window
 * (dev->poll_limit_ns, which the core's poll state uses as its time limit)
 * from how long the halts lasted.
 *
 * Follows drivers/cpuidle/governors/haltpoll.c of mainline (every release
 * text hash-checked by the history notes, docs/gov-ladder-haltpoll-oracle.md):
 *   v5.4   blob 7a703d2e0064: the latency limit is an int in µs, and the
 *          halt's residency reaches adjust_poll_limit() as the core's int µs
 *          (truncated), times 1000;
 *   v5.5   blob cb2a96eafc02: c1d51f684c72, ns (also v6.1: 1dff3a52917d
 *          only adds grow/shrink tracepoints);
 *   v6.9   blob 663b7f164d20: 496d0a648509 "do not shrink guest
 *          poll_limit_ns below grow_start": a shrink that lands below
 *          guest_halt_poll_grow_start sets the window to 0 (also v6.12,
 *          v6.18);
 *   v7.0   blob ed3952df8526: 9b9c0ff095f0 "Remove single state handling"
 *          drops the "no states" test from select, because e5c9ffc6ae1b makes
 *          the core skip the governor for drivers with fewer than two
 *          states; only a zero-state table, which the kernel never passes
 *          to a governor, tells 7.0 from 6.9 (also v7.1).
 *
 * Module parameters (0644, writable at run time) are set with set_param or
 * as spec patches "haltpoll+guest_halt_poll_ns=100000"; values are parsed
 * as the kernel's param_set_uint (kstrtouint, base 0) and a strict bool.
 * Not modelled: registration only under KVM (kvm_para_available()).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "idlelab/governor.h"

#define GUEST_HALT_POLL_NS_DEFAULT 200000         /* max poll window, ns */
#define GUEST_HALT_POLL_SHRINK_DEFAULT 2          /* divisor; 0 resets to 0 */
#define GUEST_HALT_POLL_GROW_DEFAULT 2            /* multiplier */
#define GUEST_HALT_POLL_GROW_START_NS_DEFAULT 50000 /* first window, ns ("us" in the source comment) */

struct haltpoll_config {
	bool check_state_count;      /* v5.4..v6.19: "!drv->state_count" in select */
	bool usec;                   /* v5.4: µs latency limit and residency */
	bool shrink_to_zero;         /* 496d0a648509 (v6.9) */
	uint32_t guest_halt_poll_ns;
	uint32_t guest_halt_poll_shrink;
	uint32_t guest_halt_poll_grow;
	uint32_t guest_halt_poll_grow_start;
	bool guest_halt_poll_allow_shrink;
};

/* Feature bits, one per change-history entry that changes a decision. */
enum {
	HF_NO_SINGLE_STATE = 1u << 0,  /* 9b9c0ff095f0 (v7.0): no "!drv->state_count" test */
	HF_NS = 1u << 1,               /* c1d51f684c72 (v5.5): ns instead of µs */
	HF_SHRINK_TO_ZERO = 1u << 2,   /* 496d0a648509 (v6.9): below grow_start -> 0 */
};

#define HF_V6_9 (HF_NS | HF_SHRINK_TO_ZERO)
#define HF_V7_0 (HF_V6_9 | HF_NO_SINGLE_STATE)

static const struct il_gov_preset haltpoll_presets[] = {
	{ "5.4", 0, "release blob 7a703d2e0064 (µs latency limit and residency)" },
	{ "5.5", HF_NS, "c1d51f684c72 (nanoseconds); release blob cb2a96eafc02" },
	{ "6.1", HF_NS, "release blob 1dff3a52917d (5.5 + grow/shrink tracepoints)" },
	{ "6.9", HF_V6_9, "496d0a648509 (shrink below grow_start to 0); release blob 663b7f164d20" },
	{ "6.12", HF_V6_9, "release blob 663b7f164d20" },
	{ "6.18", HF_V6_9, "release blob 663b7f164d20" },
	{ "7.0", HF_V7_0, "6.9 + 9b9c0ff095f0 (Remove single state handling); "
			  "release blob ed3952df8526" },
	{ "7.1", HF_V7_0, "release blob ed3952df8526" },
};

static int haltpoll_select(const void *config, void *cpu_data, const struct il_driver *drv,
			   struct il_device *dev, const struct il_idle_inputs *in,
			   bool *stop_tick)
{
	const struct haltpoll_config *cfg = config;
	(void)cpu_data;

	/* zero latency limit (v5.4: below 1 µs, its int µs is 0): poll, keep the tick */
	if ((cfg->check_state_count && drv->state_count == 0) ||
	    (cfg->usec ? in->latency_req_ns / 1000 == 0 : in->latency_req_ns == 0)) {
		*stop_tick = false;
		return 0;
	}
	/* no poll window yet: halt (and let the idle loop stop the tick) */
	if (dev->poll_limit_ns == 0)
		return 1;
	if (dev->last_state_idx == 0) {
		/* the poll window ran out without work: halt */
		if (dev->poll_time_limit)
			return 1;
		/* the poll was ended by work: poll again */
		*stop_tick = false;
		return 0;
	}
	/* after a halt, poll first */
	*stop_tick = false;
	return 0;
}

/*
 * adjust_poll_limit: grow the window when a halt was shorter than the
 * maximum but longer than the window, shrink it when a halt was longer than
 * the maximum. The result goes through a 32-bit unsigned as in the kernel,
 * so a large window times grow wraps modulo 2^32 before the clamps.
 */
static void haltpoll_adjust_poll_limit(const struct haltpoll_config *cfg,
				       struct il_device *dev, uint64_t block_ns)
{
	uint32_t val;

	if (block_ns > dev->poll_limit_ns && block_ns <= cfg->guest_halt_poll_ns) {
		val = (uint32_t)(dev->poll_limit_ns * cfg->guest_halt_poll_grow);
		if (val < cfg->guest_halt_poll_grow_start)
			val = cfg->guest_halt_poll_grow_start;
		if (val > cfg->guest_halt_poll_ns)
			val = cfg->guest_halt_poll_ns;
		dev->poll_limit_ns = val;
	} else if (block_ns > cfg->guest_halt_poll_ns && cfg->guest_halt_poll_allow_shrink) {
		uint32_t shrink = cfg->guest_halt_poll_shrink;

		val = (uint32_t)dev->poll_limit_ns;
		val = shrink == 0 ? 0 : val / shrink;
		/* 496d0a648509: a window below the first grown one is no window */
		if (cfg->shrink_to_zero && val < cfg->guest_halt_poll_grow_start)
			val = 0;
		dev->poll_limit_ns = val;
	}
}

/* haltpoll_reflect: the residency of a halt (as u64, so negative is huge) sizes the window. */
static void haltpoll_reflect(const void *config, void *cpu_data, const struct il_driver *drv,
			     struct il_device *dev, int index, const struct il_idle_inputs *in)
{
	(void)cpu_data; (void)drv; (void)in;
	const struct haltpoll_config *cfg = config;
	uint64_t block_ns = (uint64_t)dev->last_residency_ns;

	dev->last_state_idx = index;
	if (cfg->usec) {
		/* v5.4: the core's int µs residency, as unsigned int, times 1000 */
		block_ns = (uint64_t)(uint32_t)il_device_last_residency_us(dev) * 1000;
	}
	if (index != 0)
		haltpoll_adjust_poll_limit(cfg, dev, block_ns);
}

/* haltpoll_enable_device: start with no poll window. */
static void haltpoll_enable(const void *config, void *cpu_data, const struct il_driver *drv,
			    struct il_device *dev)
{
	(void)config; (void)cpu_data; (void)drv;
	dev->poll_limit_ns = 0;
}

/*
 * kstrtouint(s, 0, ...) as param_set_uint uses it: optional '+', "0x" hex,
 * leading-0 octal, else decimal, one trailing newline allowed, nothing else.
 */
static int parse_kernel_uint(const char *s, uint32_t *v)
{
	unsigned int base = 10;
	uint64_t x = 0;
	int digits = 0;

	if (*s == '+')
		s++;
	if (s[0] == '0' && tolower((unsigned char)s[1]) == 'x' &&
	    isxdigit((unsigned char)s[2])) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (;; s++, digits++) {
		unsigned int d;
		int c = tolower((unsigned char)*s);

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (x > (UINT64_MAX - d) / base)
			return -ERANGE;
		x = x * base + d;
	}
	if (!digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (x > UINT32_MAX)
		return -ERANGE;
	*v = (uint32_t)x;
	return 0;
}

/* A bool module parameter: only words every kernel's kstrtobool reads the same way. */
static int parse_strict_bool(const char *s, bool *v)
{
	static const char *const yes[] = { "y", "yes", "1", "on" };
	static const char *const no[] = { "n", "no", "0", "off" };
	char buf[8];
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(buf, yes[i])) {
			*v = true;
			return 0;
		}
		if (!strcasecmp(buf, no[i])) {
			*v = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int haltpoll_set_param(void *config, const char *name, const char *value,
			      struct il_err *err)
{
	struct haltpoll_config *cfg = config;
	uint32_t *u = NULL;

	if (!strcmp(name, "guest_halt_poll_ns"))
		u = &cfg->guest_halt_poll_ns;
	else if (!strcmp(name, "guest_halt_poll_shrink"))
		u = &cfg->guest_halt_poll_shrink;
	else if (!strcmp(name, "guest_halt_poll_grow"))
		u = &cfg->guest_halt_poll_grow;
	else if (!strcmp(name, "guest_halt_poll_grow_start"))
		u = &cfg->guest_halt_poll_grow_start;
	else if (!strcmp(name, "guest_halt_poll_allow_shrink")) {
		bool b;
		if (!value || parse_strict_bool(value, &b))
			return il_err_set(err, EINVAL,
					  "haltpoll: guest_halt_poll_allow_shrink: '%s' is not "
					  "a bool (Y/N, yes/no, 1/0, on/off)", value ? value : "");
		cfg->guest_halt_poll_allow_shrink = b;
		return 0;
	} else {
		return il_err_set(err, ENOENT,
				  "haltpoll: unknown parameter '%s' (known: guest_halt_poll_ns, "
				  "guest_halt_poll_grow, guest_halt_poll_grow_start, "
				  "guest_halt_poll_shrink, guest_halt_poll_allow_shrink)", name);
	}
	uint32_t v;
	int r = value ? parse_kernel_uint(value, &v) : -EINVAL;
	if (r == -ERANGE)
		return il_err_set(err, ERANGE, "haltpoll: %s: '%s' does not fit in 32 bits",
				  name, value);
	if (r)
		return il_err_set(err, EINVAL,
				  "haltpoll: %s: '%s' is not an unsigned integer", name,
				  value ? value : "");
	*u = v;
	return 0;
}

static int haltpoll_configure(void *config, const struct il_gov_preset *preset,
			      const struct il_gov_patch *patches, int npatches,
			      struct il_err *err)
{
	struct haltpoll_config *cfg = config;

	memset(cfg, 0, sizeof(*cfg));
	cfg->check_state_count = !(preset->features & HF_NO_SINGLE_STATE);
	cfg->usec = !(preset->features & HF_NS);
	cfg->shrink_to_zero = preset->features & HF_SHRINK_TO_ZERO;
	cfg->guest_halt_poll_ns = GUEST_HALT_POLL_NS_DEFAULT;
	cfg->guest_halt_poll_shrink = GUEST_HALT_POLL_SHRINK_DEFAULT;
	cfg->guest_halt_poll_grow = GUEST_HALT_POLL_GROW_DEFAULT;
	cfg->guest_halt_poll_grow_start = GUEST_HALT_POLL_GROW_START_NS_DEFAULT;
	cfg->guest_halt_poll_allow_shrink = true;
	for (int i = 0; i < npatches; i++) {
		if (!patches[i].value[0])
			return il_err_set(err, EINVAL,
					  "haltpoll: '%s' needs a value (haltpoll+%s=VALUE)",
					  patches[i].name, patches[i].name);
		int r = haltpoll_set_param(cfg, patches[i].name, patches[i].value, err);
		if (r < 0)
			return r == -ENOENT ? -EINVAL : r;
	}
	return 0;
}

static void haltpoll_describe_extra(const void *config, char *buf, size_t size)
{
	const struct haltpoll_config *cfg = config;

	snprintf(buf, size, " guest_halt_poll_ns=%u grow=%u grow_start=%u shrink=%u allow_shrink=%c",
		 cfg->guest_halt_poll_ns, cfg->guest_halt_poll_grow, cfg->guest_halt_poll_grow_start,
		 cfg->guest_halt_poll_shrink, cfg->guest_halt_poll_allow_shrink ? 'Y' : 'N');
}

const struct il_gov_ops il_gov_haltpoll = {
	.name = "haltpoll",
	.rating = 9,
	.presets = haltpoll_presets,
	.npresets = sizeof(haltpoll_presets) / sizeof(haltpoll_presets[0]),
	.config_size = sizeof(struct haltpoll_config),
	.cpu_data_size = 0,
	.configure = haltpoll_configure,
	.set_param = haltpoll_set_param,
	.enable = haltpoll_enable,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
	.describe_extra = haltpoll_describe_extra,
};
