// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER: replaced by the real command. */
#include "cli.h"

static int run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("replay: not built yet");
}

const struct il_command cmd_replay = {
	.name = "replay",
	.summary = "(not built yet)",
	.usage = "usage: idlelab replay\n",
	.run = run,
};
