// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the reader of 'idlelab sim --format json' results that
 * 'idlelab compare' and 'idlelab plot' use, and the summaries and
 * differences they print. The input is read twice, with room for all 16
 * configurations and as if 14 came from earlier files: the second read
 * must give the first two configurations of the first, or the limit.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "idlelab/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct il_result_config cfg[16], late[16];
	struct il_err err;
	int n = il_results_parse((const char *)data, size, "fuzz.json", cfg, 0, 16, &err);

	for (int i = 0; i < n; i++)
		for (int k = 0; k < cfg[i].nmetrics; k++) {
			const struct il_result_metric *m = &cfg[i].m[k];
			struct il_result_diff d;
			struct il_stats st;
			(void)il_result_mean(m);
			(void)il_result_summary(m);
			CHECK(il_result_find(&cfg[i], m->row, m->col) != NULL);
			il_stats_compute(m->values, m->n, &st);
			if (cfg[0].nmetrics) {
				il_result_diff(&cfg[0].m[0], m, &d);
				CHECK(isnan(d.p) || (d.p >= 0 && d.p <= 1));
			}
		}
	int l = il_results_parse((const char *)data, size, "fuzz.json", late, 14, 16, &err);
	if (n >= 0 && n <= 2) {
		CHECK(l == n);
	} else if (n > 2) {
		CHECK(l < 0 && strstr(err.msg, "at most 16"));
	}
	for (int i = 14; i < 14 + (l > 0 ? l : 0); i++)
		CHECK(!strcmp(late[i].governor, cfg[i - 14].governor) &&
		      late[i].nmetrics == cfg[i - 14].nmetrics);
	if (l > 0)
		il_results_free(late + 14, l);
	if (n > 0)
		il_results_free(cfg, n);
	return 0;
}
