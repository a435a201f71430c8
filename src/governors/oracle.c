// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER for the oracle governors: replaced by the real ones. */
#include <errno.h>
#include "idlelab/governor.h"

static int configure(void *config, const char *release, const struct il_gov_patch *patches,
		     int npatches, struct il_err *err)
{
	(void)config; (void)release; (void)patches; (void)npatches;
	return il_err_set(err, ENOSYS, "oracle: not built yet");
}

static int sel(const void *c, void *d, const struct il_driver *drv, struct il_device *dev,
	       const struct il_idle_inputs *in, bool *stop_tick)
{
	(void)c; (void)d; (void)drv; (void)dev; (void)in; (void)stop_tick;
	return 0;
}

const struct il_gov_ops il_gov_oracle = {
	.name = "oracle", .releases = "1", .config_size = 1, .cpu_data_size = 1,
	.configure = configure, .select = sel,
};
const struct il_gov_ops il_gov_oracle_energy = {
	.name = "oracle-energy", .releases = "1", .config_size = 1, .cpu_data_size = 1,
	.configure = configure, .select = sel,
};
