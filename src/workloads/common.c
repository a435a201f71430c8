// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers the workloads share. They sit below the workloads; the registry,
 * which lists the workloads, sits above them.
 */
#include <errno.h>

#include "idlelab/platform.h"
#include "idlelab/sim.h"
#include "idlelab/workload.h"
#include "wl_api.h"

int il_wl_check_cpus(const struct il_workload *wl, const struct il_sim *s, int a, int b,
		     struct il_err *err)
{
	int n = il_sim_ncpus(s);

	if (a >= n || b >= n)
		return il_err_set(err, EINVAL, "%s: CPU %d does not exist (platform has %d)",
				  wl->name, a >= n ? a : b, n);
	return 0;
}

int il_wl_other_core(const struct il_sim *s, int cpu)
{
	const struct il_platform *p = il_sim_platform(s);
	int tpc = p->threads_per_core, cpp = p->cores_per_package;
	int core = il_sim_core_of(s, cpu), pkg = il_sim_package_of(s, cpu);

	if (cpp > 1)
		return (pkg * cpp + (core - pkg * cpp + 1) % cpp) * tpc;
	if (p->packages > 1)
		return ((pkg + 1) % p->packages) * cpp * tpc;
	return tpc > 1 ? core * tpc + (cpu - core * tpc + 1) % tpc : cpu;
}

double il_wl_est_hz(const struct il_platform *p)
{
	if (p->base_mhz > 0)
		return p->base_mhz * 1e6;
	if (p->nturbo > 0 && p->turbo_mhz[0] > 0)
		return p->turbo_mhz[0] * 1e6;
	return 2e9;
}
