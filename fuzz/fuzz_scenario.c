// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: scenario files (src/scenario/). Parses the input as a
 * scenario and, when it parses, builds its report on results with no runs
 * (every simulated value missing) and writes it in every format; a first
 * line "!SECTION.KEY=VALUE" is applied to a platform text as a scenario's
 * override would be, and its value read and scaled.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char plat[] = "[platform]\nname = f\n[firmware]\npm_timer_read = lognormal:1500:0.35\n"
			   "[cst.2]\nlatency = 350 ; comment\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_scn s;
	struct il_err err;
	const char *text = (const char *)data;

	if (size && text[0] == '!') {
		const char *nl = memchr(text, '\n', size);
		size_t n = nl ? (size_t)(nl - text) : size;
		char *ov = calloc(1, n);
		memcpy(ov, text + 1, n - 1);
		char *t = il_scn_platform_override(plat, ov, &err);
		char *eq = strchr(ov, '=');
		if (eq) {
			char buf[96], scaled[96];
			*eq = '\0';
			if (t && !il_scn_platform_value(t, ov, buf, sizeof(buf), &err))
				(void)il_scn_scale_value(buf, 0.5, scaled, sizeof(scaled), &err);
		}
		free(t);
		free(ov);
		return 0;
	}
	if (il_scn_parse(&s, text, size, "fuzz.ini", &err))
		return 0;
	struct il_scn_cfg_runs cfg[IL_SCN_CONFIGS_MAX];
	struct il_scn_data d = { s.nconfigs, cfg };
	struct il_scn_report r;
	memset(cfg, 0, sizeof(cfg));
	if (il_scn_report_build(&r, &s, &d, NULL, &err) == 0) {
		FILE *out = fopen("/dev/null", "w");
		if (out) {
			for (int f = IL_SCN_TEXT; f <= IL_SCN_HTML; f++)
				(void)il_scn_report_write(&r, (enum il_scn_format)f, out, &err);
			fclose(out);
		}
		il_scn_report_free(&r);
	}
	il_scn_free(&s);
	return 0;
}
