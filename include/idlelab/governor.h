/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuidle governors.
 *
 * A governor is an ops table (struct il_gov_ops) as in the kernel's
 * drivers/cpuidle/governors/: name, rating, enable, select, reflect. It is
 * instantiated from a spec string "NAME[@RELEASE][+PATCH[=VALUE]]...", which
 * picks one of its presets (the text of its kernel file as a mainline
 * release ships it) and any named patches.
 *
 * select and reflect are pure functions of the configuration, the per-CPU
 * governor data, the driver's state table, the device and an explicit
 * struct il_idle_inputs: they read no clock and no global.
 */
#ifndef IDLELAB_GOVERNOR_H
#define IDLELAB_GOVERNOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/device.h"
#include "idlelab/err.h"
#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_KTIME_MAX INT64_MAX
#define IL_RESIDENCY_THRESHOLD_NS 15000 /* gov.h RESIDENCY_THRESHOLD_NS */

/*
 * Everything a governor may read besides the device and the state table.
 * The caller fills the fields the kernel would provide at that moment.
 */
struct il_idle_inputs {
	/* at select */
	int64_t sleep_length_ns;  /* return of tick_nohz_get_sleep_length() */
	int64_t delta_tick_ns;    /* its out-parameter: next timer or tick */
	bool tick_stopped;        /* tick_nohz_tick_stopped() */
	int64_t latency_req_ns;   /* cpuidle_governor_latency_req() */
	unsigned int nr_iowait;   /* nr_iowait_cpu() (menu of 6.1/6.12) */
	bool cpu_utilized;        /* teo_cpu_is_utilized() (teo of 6.3..6.10) */
	/* at reflect */
	bool got_tick;            /* tick_nohz_idle_got_tick() */
	/* both */
	uint64_t clock_ns;        /* local_clock() at the call (teo of 6.1/6.12) */
	int64_t tick_nsec;        /* TICK_NSEC of the kernel's HZ */
	/* model only */
	int64_t true_idle_ns;     /* the real idle duration (oracles), -1 unknown */
};

/* cpuidle_governor_latency_req() of v5.4: the QoS limit as an int in µs. */
static inline int32_t il_latency_req_us(int64_t ns)
{
	int64_t us = ns < 0 ? 0 : ns / 1000;

	return us > INT32_MAX ? INT32_MAX : (int32_t)us;
}

/* Named patches and numeric tunables given after '+' in a spec. */
#define IL_GOV_PATCH_MAX 8
struct il_gov_patch {
	char name[32];
	char value[32];   /* "" if no '=VALUE' */
};

/*
 * A preset: the text of the governor's kernel file as one mainline release
 * tag ships it. Each governor has one table of presets, oldest release
 * first; the registry looks them up, lists and describes them, and hands
 * the chosen one to ->configure. Adding a preset is adding a row (and, if
 * its text has a change no feature bit covers yet, that bit and its code).
 */
struct il_gov_preset {
	const char *release;      /* mainline tag "6.12"; a model governor's own "1" */
	unsigned int features;    /* the governor's bits, one per change-history entry */
	const char *text;         /* which kernel text: blob, commits (for describe) */
};

/* Capabilities in il_gov_ops.flags, for the callers that must know them. */
#define IL_GOV_NEEDS_TRUE_IDLE (1u << 0) /* reads il_idle_inputs.true_idle_ns (model only) */

struct il_gov_ops {
	const char *name;
	unsigned int rating;          /* cpuidle_governor.rating at registration */
	unsigned int rating_nohz_off; /* the rating with nohz off, if it differs (else 0) */
	unsigned int flags;           /* IL_GOV_* */
	const struct il_gov_preset *presets; /* oldest first, releases increasing */
	size_t npresets;          /* >= 1 */
	size_t config_size;       /* bytes of configuration (features, patches, params) */
	size_t cpu_data_size;     /* bytes of per-CPU data */
	/*
	 * Set up config for a preset of this governor's table (never NULL: the
	 * registry passes the newest when the spec names no release) and the
	 * spec's patches. Returns 0 or a negative code with err.
	 */
	int (*configure)(void *config, const struct il_gov_preset *preset,
			 const struct il_gov_patch *patches, int npatches,
			 struct il_err *err);
	/* Set a module parameter ("guest_halt_poll_ns", ...). -ENOENT if unknown. */
	int (*set_param)(void *config, const char *name, const char *value,
			 struct il_err *err);
	/* ->enable: reset per-CPU data for this device. */
	void (*enable)(const void *config, void *cpu_data,
		       const struct il_driver *drv, struct il_device *dev);
	/* ->select: return the state index; may clear *stop_tick. */
	int (*select)(const void *config, void *cpu_data,
		      const struct il_driver *drv, struct il_device *dev,
		      const struct il_idle_inputs *in, bool *stop_tick);
	/* ->reflect: index is the entered state (>= 0). */
	void (*reflect)(const void *config, void *cpu_data,
			const struct il_driver *drv, struct il_device *dev,
			int index, const struct il_idle_inputs *in);
	/*
	 * What the configuration adds to its preset (patches, parameters), each
	 * item with a leading space; NULL if nothing. il_gov_describe() puts it
	 * after the preset's release and text.
	 */
	void (*describe_extra)(const void *config, char *buf, size_t size);
	/*
	 * Called by il_gov_free() before the configuration is freed, for a
	 * governor that holds resources (a loaded object); NULL for built-ins.
	 */
	void (*release)(void *config);
};

/* An instantiated governor: configuration plus per-CPU data for ncpus. */
struct il_gov {
	const struct il_gov_ops *ops;
	const struct il_gov_preset *preset; /* an entry of ops->presets */
	void *config;
	unsigned char *cpu_data;  /* ncpus * ops->cpu_data_size */
	int ncpus;
	char spec[96];            /* normalised "menu@7.1+no-poll-escape" */
};

/* All governors known to idlelab, NULL-terminated. */
extern const struct il_gov_ops *const il_governors[];

/* Find a governor's ops by name (exact). */
const struct il_gov_ops *il_gov_find(const char *name);

/* The preset for exactly release rel, or NULL. */
const struct il_gov_preset *il_gov_preset_find(const struct il_gov_ops *ops, const char *rel);

/* Is rel one of the governor's presets? */
bool il_gov_has_release(const struct il_gov_ops *ops, const char *rel);

/*
 * The preset in force at kernel release rel: the newest whose release is
 * not newer than rel (il_release_cmp), or NULL when rel is older than every
 * preset. rel is expected to have passed il_release_check(). A model
 * governor's preset "1" compares older than every kernel release, so it is
 * in force at all of them.
 */
const struct il_gov_preset *il_gov_preset_for_release(const struct il_gov_ops *ops,
							const char *rel);

/* The newest preset: the one a spec without "@RELEASE" gets. */
const struct il_gov_preset *il_gov_preset_newest(const struct il_gov_ops *ops);

/* The preset releases, oldest first, separated by spaces ("6.1 6.12 6.18 7.1"). */
void il_gov_preset_list(const struct il_gov_ops *ops, char *buf, size_t size);

/* Create a governor from "NAME[@REL][+PATCH[=V]]..." for ncpus CPUs. */
struct il_gov *il_gov_new(const char *spec, int ncpus, struct il_err *err);
void il_gov_free(struct il_gov *gov);

/*
 * Governors that are not built in: a loader that il_gov_new() hands every
 * spec for which is_file() is true (a governor built from a kernel source
 * file, docs/own-governor.md). The idlelab command installs one; without
 * it such specs are refused.
 */
typedef struct il_gov *il_gov_loader_fn(const char *spec, int ncpus, struct il_err *err);
typedef int il_gov_is_file_fn(const char *spec);
void il_gov_set_loader(il_gov_loader_fn *load, il_gov_is_file_fn *is_file);
int il_gov_set_param(struct il_gov *gov, const char *name, const char *value,
		     struct il_err *err);

/*
 * Where a governor that is not built in is, for a child process that runs
 * it contained (il_gov_watch_child): the loader writes the call it is in
 * before each call and clears it after; the parent reads it, in memory
 * shared with the child, once the child ended, to say where a crash or a
 * loop happened. NULL (the default) in every other process.
 */
struct il_gov_watch {
	volatile int64_t clock_ns;   /* the call's il_idle_inputs.clock_ns (select, reflect) */
	volatile int64_t row;        /* set by replay: the log's line being decided; else 0 */
	volatile uint64_t calls;     /* calls returned */
	volatile int cpu;            /* the call's CPU */
	volatile int in_call;        /* IL_GOV_IN_* while a call runs, else 0 */
	volatile int looped;         /* set when the CPU-time limit ended a call */
};
enum { IL_GOV_IN_SELECT = 1, IL_GOV_IN_REFLECT, IL_GOV_IN_ENABLE, IL_GOV_IN_LOAD };
extern struct il_gov_watch *il_gov_watch;

/* Is gov a governor that is not built in (loaded from an object)? */
static inline bool il_gov_is_loaded(const struct il_gov *gov)
{
	return gov->ops->release != NULL;
}

/* A zeroed watch in memory shared with children forked after it (NULL if mmap fails). */
struct il_gov_watch *il_gov_watch_map(void);
void il_gov_watch_unmap(struct il_gov_watch *w);
/*
 * In a forked child: watch w, let a crash kill the process with its signal
 * (no core file, no sanitizer handler), and end it with SIGKILL (w->looped
 * set) when one governor call runs for limit_ms to 2 x limit_ms of CPU time
 * (limit_ms <= 0: IL_GOV_CALL_LIMIT_MS, or $IDLELAB_GOV_CALL_LIMIT_MS).
 */
#define IL_GOV_CALL_LIMIT_MS 1000
void il_gov_watch_child(struct il_gov_watch *w, long limit_ms);
/*
 * What ended a child that ran governor name, from its waitpid status and
 * its watch: 0 when it exited with status 0; the status (> 0) when it
 * exited with another (the child reported its own error); -1 when a
 * signal ended it, with a sentence in buf: "governor X crashed (SIGSEGV)
 * in select on cpu1 at simulated time 1.234567 ms", "governor X looped: a
 * select call on cpu1 at ... ran past 1 s of CPU time"; IL_GOV_IN_LOAD (the
 * object's constructors, initcalls, exit and destructors): "governor X
 * crashed (SIGSEGV) while loading or unloading", "governor X looped while
 * loading or unloading: ran past 1000 ms of CPU time".
 */
int il_gov_watch_verdict(const struct il_gov_watch *w, int status, const char *name,
			 char *buf, size_t size);

/*
 * One line saying what runs: "NAME@RELEASE (preset text)" and what the
 * governor adds (patches, parameters), e.g. "menu@6.12 (5484e31bbbff ...)
 * +no-poll-escape". Truncated to size.
 */
void il_gov_describe(const struct il_gov *gov, char *buf, size_t size);

static inline void *il_gov_cpu(struct il_gov *gov, int cpu)
{
	return gov->cpu_data + (size_t)cpu * gov->ops->cpu_data_size;
}

static inline void il_gov_enable(struct il_gov *gov, int cpu,
				 const struct il_driver *drv, struct il_device *dev)
{
	if (gov->ops->enable)
		gov->ops->enable(gov->config, il_gov_cpu(gov, cpu), drv, dev);
}

static inline int il_gov_select(struct il_gov *gov, int cpu,
				const struct il_driver *drv, struct il_device *dev,
				const struct il_idle_inputs *in, bool *stop_tick)
{
	return gov->ops->select(gov->config, il_gov_cpu(gov, cpu), drv, dev, in,
				stop_tick);
}

/* cpuidle_reflect(): only for index >= 0 and if the governor has reflect. */
static inline void il_gov_reflect(struct il_gov *gov, int cpu,
				  const struct il_driver *drv, struct il_device *dev,
				  int index, const struct il_idle_inputs *in)
{
	if (gov->ops->reflect && index >= 0)
		gov->ops->reflect(gov->config, il_gov_cpu(gov, cpu), drv, dev,
				  index, in);
}

#ifdef __cplusplus
}
#endif

#endif
