/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interface between idlelab and a governor built against the kernel-API
 * layer (docs/own-governor.md). The loaded object exports one symbol,
 * kapi_module (struct kapi_module); idlelab hands it a struct kapi_host
 * with the services the layer forwards (printk, cpuidle_poll_time), sets
 * the CPU and the idle inputs before each call, and calls the registered
 * governor's callbacks through the module's functions.
 *
 * Each loaded instance is its own copy of the object, so its globals
 * (per-CPU areas, module parameters) belong to one governor instance.
 */
#ifndef KAPI_ABI_H
#define KAPI_ABI_H

#include <stdbool.h>
#include <stddef.h>

#include "idlelab/governor.h"

#define KAPI_ABI_VERSION 1

struct kapi_host {
	/* printk: level 0..7 as KERN_EMERG..KERN_DEBUG, the message without its level */
	void (*log)(void *host_data, int level, const char *msg);
	/* cpuidle_poll_time() of the run's release */
	unsigned long long (*poll_time)(void *host_data, const struct il_driver *drv,
					struct il_device *dev, long long tick_nsec);
	void *host_data;
};

struct kapi_module {
	int abi_version;                  /* KAPI_ABI_VERSION */
	/*
	 * Run the initcalls for ncpus CPUs. Returns 0 when exactly one governor
	 * registered; else a negative code and a message in err.
	 */
	int (*init)(const struct kapi_host *host, int ncpus, char *err, size_t errsize);
	const char *(*name)(void);
	unsigned int (*rating)(void);
	/* module parameter NAME set to VALUE (as the kernel parses it); -ENOENT, -EINVAL */
	int (*set_param)(const char *name, const char *value, char *err, size_t errsize);
	/* the parameter names, NULL after the last */
	const char *(*param_name)(int i);
	int (*enable)(const struct il_driver *drv, struct il_device *dev);
	int (*select)(const struct il_driver *drv, struct il_device *dev,
		      const struct il_idle_inputs *in, bool *stop_tick);
	void (*reflect)(struct il_device *dev, int index, const struct il_idle_inputs *in);
	/* give back what init took (the per-CPU areas), before dlclose */
	void (*exit)(void);
};

#endif
