// SPDX-License-Identifier: GPL-2.0-only
/* idlelab platforms, idlelab platform show NAME|FILE */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "idlelab/device.h"
#include "idlelab/platform.h"
#include "idlelab/report.h"

static int platforms_run(int argc, char **argv)
{
	enum il_format fmt = IL_FMT_TABLE;
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' }, { NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+f:", opts, NULL)) != -1) {
		if (c == 'f') {
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("platforms", "unknown format '%s'", optarg);
		} else {
			return cli_usage_error("platforms", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("platforms", "unexpected argument '%s'", argv[optind]);

	struct il_table *t = il_table_new(NULL);
	il_table_col(t, "name");
	il_table_col(t, "cpus");
	il_table_col(t, "description");
	for (int i = 0; i < il_builtin_platform_count; i++) {
		struct il_platform p;
		struct il_err err;
		if (il_platform_load(&p, il_builtin_platforms[i].name, &err)) {
			il_table_free(t);
			return cli_report(&err);
		}
		il_table_row(t);
		il_table_str(t, p.name);
		il_table_i64(t, il_platform_ncpus(&p));
		il_table_str(t, p.description);
	}
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	return r ? 1 : 0;
}

static int show(const char *what, enum il_format fmt)
{
	struct il_platform p;
	struct il_err err;

	if (il_platform_load(&p, what, &err))
		return cli_report(&err);
	if (!p.has_table)
		return cli_error("%s: platform has no state table", what);

	struct il_driver *drv = &p.table;
	struct il_device dev;
	il_device_init(&dev, drv, 0);

	if (fmt == IL_FMT_TABLE) {
		printf("platform: %s (%s)\n", p.name, p.description);
		printf("cpus: %d (%d package%s x %d cores x %d threads), HZ=%u\n",
		       il_platform_ncpus(&p), p.packages, p.packages > 1 ? "s" : "",
		       p.cores_per_package, p.threads_per_core, p.hz);
		printf("driver: %s", drv->name[0] ? drv->name : "none");
		if (drv->governor[0])
			printf(" (preferred governor %s)", drv->governor);
		printf("\n\n");
	}
	struct il_table *t = il_table_new(NULL);
	static const char *const cols[] = { "state", "name", "desc", "latency", "residency",
					    "disable", "default_status" };
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		il_table_col(t, cols[i]);
	for (int i = 0; i < drv->state_count; i++) {
		const struct il_state *s = &drv->states[i];
		il_table_row(t);
		il_table_i64(t, i);
		il_table_str(t, s->name);
		il_table_str(t, s->desc);
		il_table_i64(t, s->exit_latency_ns / 1000);
		il_table_i64(t, s->target_residency_ns / 1000);
		il_table_i64(t, (dev.states_usage[i].disable & IL_DISABLE_BY_USER) ? 1 : 0);
		il_table_str(t, (s->flags & IL_FLAG_OFF) ? "disabled" : "enabled");
	}
	int r = il_table_print(t, fmt, stdout);
	il_table_free(t);
	return r ? 1 : 0;
}

static int platform_run(int argc, char **argv)
{
	enum il_format fmt = IL_FMT_TABLE;
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' }, { NULL, 0, NULL, 0 },
	};
	int c;

	if (argc < 2)
		return cli_usage_error("platform", "missing subcommand (show)");
	if (strcmp(argv[1], "show"))
		return cli_usage_error("platform", "unknown subcommand '%s' (show)", argv[1]);
	argc--;
	argv++;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:", opts, NULL)) != -1) {
		if (c == 'f') {
			if (il_format_parse(optarg, &fmt))
				return cli_usage_error("platform", "unknown format '%s'", optarg);
		} else {
			return cli_usage_error("platform", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("platform", "show takes one platform name or file");
	return show(argv[optind], fmt);
}

const struct il_command cmd_platforms = {
	.name = "platforms",
	.summary = "list the built-in platforms",
	.usage = "usage: idlelab platforms [--format table|csv|json]\n\n"
		 "Lists the built-in platforms with their CPU count and a description.\n",
	.run = platforms_run,
};

const struct il_command cmd_platform = {
	.name = "platform",
	.summary = "show a platform's idle-state table",
	.usage = "usage: idlelab platform show NAME|FILE [--format table|csv|json]\n\n"
		 "Prints the idle-state table of a built-in platform or a platform file as\n"
		 "sysfs would show it: state, name, desc, latency (us), residency (us),\n"
		 "disable, default_status.\n",
	.run = platform_run,
};
