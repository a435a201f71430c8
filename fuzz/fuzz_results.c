// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the reader of 'idlelab sim --format json' results that
 * 'idlelab compare' and 'idlelab plot' use, and the summaries they print.
 */
#include <stddef.h>
#include <stdint.h>

#include "idlelab/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct il_result_config cfg[16];
	struct il_err err;
	int n = il_results_parse((const char *)data, size, "fuzz.json", cfg, 16, &err);

	for (int i = 0; i < n; i++)
		for (int k = 0; k < cfg[i].nmetrics; k++) {
			struct il_stats st;
			(void)il_result_mean(&cfg[i].m[k]);
			(void)il_result_find(&cfg[i], cfg[i].m[k].row, cfg[i].m[k].col);
			il_stats_compute(cfg[i].m[k].values, cfg[i].m[k].n, &st);
		}
	if (n > 0)
		il_results_free(cfg, n);
	return 0;
}
