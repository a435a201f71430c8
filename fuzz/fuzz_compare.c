// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the reader of 'idlelab sim --format json' results that
 * 'idlelab compare' uses. The command's file is compiled in here so its
 * static reader can be driven on a buffer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../src/cli/cmd_compare.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The CLI's helpers, silent here. */
int cli_error(const char *fmt, ...)
{
	(void)fmt;
	return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	(void)cmd;
	(void)fmt;
	return 2;
}

int cli_out_open(struct cli_out *o, const char *path)
{
	(void)path;
	o->f = stdout;
	return 0;
}

int cli_out_close(struct cli_out *o, bool ok)
{
	(void)o;
	(void)ok;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cmp_config cfg[CMP_MAX_CONFIGS];
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	if (!tok)
		return 0;
	root = json_tokener_parse_ex(tok, (const char *)data, (int)(size > 1 << 20 ? 1 << 20 : size));
	json_tokener_free(tok);
	if (!root)
		return 0;
	memset(cfg, 0, sizeof(cfg));
	int n = read_root("fuzz.json", root, cfg, CMP_MAX_CONFIGS);
	/* the per-metric summaries the command prints from what was read */
	for (int i = 0; i < n; i++)
		for (int k = 0; k < cfg[i].nmetrics; k++)
			(void)summary(&cfg[i].m[k]);
	free_configs(cfg, CMP_MAX_CONFIGS);
	return 0;
}
