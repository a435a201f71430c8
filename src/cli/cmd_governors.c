// SPDX-License-Identifier: GPL-2.0-only
/* idlelab governors: the governors and their kernel-release presets. */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "idlelab/governor.h"
#include "idlelab/report.h"

static int governors_run(int argc, char **argv)
{
	enum il_format fmt;
	int u = cli_format_only("governors", argc, argv, &fmt);
	if (u)
		return u;

	/* the table lists a governor's presets on its line; CSV and JSON one preset a row */
	bool tidy = fmt != IL_FORMAT_TABLE;
	struct il_table *t = il_table_new(NULL);
	il_table_col(t, "name");
	il_table_col(t, "rating");
	il_table_col(t, tidy ? "preset" : "presets");
	for (int i = 0; il_governors[i]; i++) {
		const struct il_gov_ops *ops = il_governors[i];
		char presets[512];

		il_gov_preset_list(ops, presets, sizeof(presets));
		for (size_t k = 0; k < (tidy ? ops->npresets : 1); k++) {
			il_table_row(t);
			il_table_str(t, ops->name);
			il_table_u64(t, ops->rating);
			il_table_str(t, tidy ? ops->presets[k].release : presets);
		}
	}
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	return r ? 1 : 0;
}

const struct il_command cmd_governors = {
	.name = "governors",
	.summary = "list the governors and the kernel releases of their presets",
	.usage = "usage: idlelab governors [--format table|csv|json]\n\n"
		 "Lists the governors a spec NAME[@RELEASE][+PATCH[=VALUE]]... can name\n"
		 "(--governor of replay and sim), each with its rating as the kernel registers\n"
		 "it and the releases of its presets, oldest first: NAME@RELEASE picks the\n"
		 "governor's text as that mainline release ships it, NAME alone the newest.\n"
		 "The model governors (oracle, oracle-energy) have one preset, 1, not a\n"
		 "kernel release (oracle@1). The kernel commits each preset follows:\n"
		 "docs/governors.md. CSV and JSON give one row per preset (name, rating,\n"
		 "preset).\n",
	.run = governors_run,
};
