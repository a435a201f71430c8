// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: platform files and the firmware descriptions in them.
 * Parses the input as a platform file and, when it parses, builds the idle
 * setup the drivers derive from it for an old and a new kernel, and reads
 * the frequency facts the cpufreq layer takes from it (freq_max for a
 * release before frequency invariance, across the AMD CPPC rules' releases
 * and the newest, the P-state table).
 */
#include <stddef.h>
#include <stdint.h>

#include "idlelab/drivers.h"
#include "idlelab/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct il_platform p;
	static struct il_machine_idle m;
	/* before invariance, each side of the AMD CPPC rules' releases, the newest */
	static const char *const rel[] = { "5.4", "5.10", "5.11", "5.12", "5.13", "6.11", "6.12",
					   "6.13", NULL };
	struct il_freq_max fm;
	double pstates[IL_PLAT_PSTATES_MAX];
	struct il_err err;

	if (il_platform_load_string(&p, (const char *)data, size, "fuzz.ini", &err) == 0) {
		(void)il_machine_idle_build(&p, "5.9", &m, &err);
		(void)il_machine_idle_build(&p, NULL, &m, &err);
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
			(void)il_platform_freq_max(&p, rel[i], &fm, &err);
		(void)il_platform_pstates(&p, pstates, IL_PLAT_PSTATES_MAX);
	}
	return 0;
}
