// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the --cpufreq spec ([DRIVER:]GOVERNOR[+KEY=VALUE]...,
 * il_cpufreq_parse() in src/sim/cpufreq.c). An accepted spec must print a
 * name that parses again to the same driver, governor and overrides, and
 * keep its limits ordered; a refused one must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/cpufreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a frequency as the name prints it (%g) */
static int near(double x, double y)
{
	double d = x > y ? x - y : y - x;
	return d <= 1e-5 * (x > y ? x : y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct il_cpufreq_params a, b;
	struct il_err err;
	char name[512];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&err, 0, sizeof(err));
	if (il_cpufreq_parse(text, &a, &err) == 0) {
		if (!a.on || (a.min_mhz > 0 && a.max_mhz > 0 && a.min_mhz > a.max_mhz))
			abort();
		il_cpufreq_name(&a, name, sizeof(name));
		/*
		 * the name carries every key set (%g: 6 digits of a frequency); one
		 * longer than a spec may be (a number spelled longer) is not parsed back
		 */
		if (strlen(name) < 160 &&
		    (il_cpufreq_parse(name, &b, &err) != 0 || b.gov != a.gov ||
		     (a.driver && b.driver != a.driver) || b.invariance != a.invariance ||
		     b.util_est != a.util_est || b.rate_limit_us != a.rate_limit_us ||
		     b.transition_us != a.transition_us || b.epp != a.epp ||
		     b.hwp_window_us != a.hwp_window_us || b.domain != a.domain ||
		     !near(b.min_mhz, a.min_mhz) || !near(b.max_mhz, a.max_mhz) ||
		     !near(b.freq_max_mhz, a.freq_max_mhz)))
			abort();
	} else if (!err.msg[0]) {
		abort(); /* refused without a reason */
	}
	free(text);
	return 0;
}
