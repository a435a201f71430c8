// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: option tables (src/sim/opts.c). The input's first line
 * names a workload (or "sim" for the engine's --sim-opt keys), every other
 * line is KEY=VALUE. The options are parsed as the command line would; a
 * configuration the parser accepts must pass the tables' bounds check, and
 * the help must fit any buffer size it is given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sim.h"
#include "idlelab/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPTS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct il_wl_opt opts[MAX_OPTS];
	int n = 0;
	struct il_err err;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *line = text, *next = strchr(line, '\n');
	if (next)
		*next++ = '\0';
	const struct il_workload *wl = il_workload_find(line);
	const struct il_opt *tbl = wl ? wl->opts : il_sim_opts;
	for (line = next; line && n < MAX_OPTS; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (il_wl_opt_parse(line, &opts[n], NULL))
			n++;
	}
	if (wl) {
		void *cfg = calloc(1, wl->config_size);
		if (cfg && il_workload_configure(wl, cfg, opts, n, &err) == 0 &&
		    il_opts_check(wl->opts, cfg, &err) != 0)
			abort(); /* the parser took a value its own bounds refuse */
		free(cfg);
	} else {
		struct il_sim_params p;
		il_sim_params_default(&p);
		int r = 0;
		for (int i = 0; r == 0 && i < n; i++) {
			const struct il_opt *o = il_opt_find(tbl, opts[i].key);
			r = o ? il_opt_set(o, &p, opts[i].value, &err) : -1;
		}
		if (r == 0 && il_opts_check(tbl, &p, &err) != 0)
			abort();
	}
	char small[64];
	size_t need = il_opts_help(tbl, "  ", small, size % sizeof(small));
	char *big = malloc(need + 1);
	if (big && il_opts_help(tbl, "  ", big, need + 1) != need)
		abort();
	free(big);
	free(text);
	return 0;
}
