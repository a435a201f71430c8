// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab capture DIR: a copy of the files doctor and platform capture
 * read, laid out as on the machine (DIR/sys/..., DIR/proc/...), for
 * `idlelab doctor --root DIR` and `idlelab platform capture --root DIR`
 * elsewhere (include/idlelab/host.h has the list of files and the rules).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "idlelab/host.h"

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = IL_HOST_LIVE_ROOT;
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	int c, r, nfiles = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			/* "" would be this machine's / */
			if (!*optarg)
				return cli_usage_error("capture", "--root: an empty directory name");
			root = optarg;
			break;
		case ':':
			return cli_usage_error("capture", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("capture", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return cli_usage_error("capture", "missing the directory to write");
	if (optind + 1 < argc)
		return cli_usage_error("capture", "unexpected argument '%s'", argv[optind + 1]);
	if ((r = cli_name_given("capture", "OUTDIR", "directory", argv[optind])))
		return r;
	r = il_host_capture(root, argv[optind], &notes, &nfiles, &err);
	for (int i = 0; i < notes.n; i++)
		cli_report(&notes.items[i]);
	if (r) {
		il_sysfs_notes_free(&notes);
		return cli_report(&err);
	}
	printf("captured %d files of %s to %s\n", nfiles, root, argv[optind]);
	/* files left out (unreadable, links, not kernel text): written, but said */
	r = notes.n ? 1 : 0;
	il_sysfs_notes_free(&notes);
	if (fflush(stdout) != 0)
		r = 1;
	return r;
}

const struct il_command cmd_capture = {
	.name = "capture",
	.summary = "save the files doctor and platform capture read, for another machine",
	.usage =
	"usage: idlelab capture [--root DIR] OUTDIR\n\n"
	"Copies what `idlelab doctor` and `idlelab platform capture` read from this\n"
	"machine into OUTDIR (which must not exist), laid out as on the machine:\n"
	"OUTDIR/sys/devices/system/cpu (the cpuidle tree, CPU lists, topology, PM QoS\n"
	"resume latencies, cpufreq policies), OUTDIR/sys/module/*/parameters (the\n"
	"cpuidle and cpufreq module parameters), OUTDIR/proc (cpuinfo, cmdline,\n"
	"uptime, version, osrelease, boot_id), OUTDIR/dev/cpu_dma_latency (the PM QoS\n"
	"CPU latency limit), OUTDIR/boot/config-RELEASE (the CONFIG_ lines of HZ, NO_HZ,\n"
	"cpuidle, cpufreq and the idle drivers, from /proc/config.gz or /boot) and\n"
	"OUTDIR/idlelab-meta.txt (time, boot id, the processes holding\n"
	"/dev/cpu_dma_latency open). `idlelab doctor --root OUTDIR` reads it back.\n\n"
	"  --root DIR   copy a tree laid out the same way instead of the machine\n\n"
	"Everything is read before anything is written; OUTDIR appears complete or\n"
	"not at all. No symbolic link below the root is followed and only regular\n"
	"files of text with one link are copied (read-only, mode 0444; the cpuidle\n"
	"files with the kernel's modes). A file that cannot be read or breaks those\n"
	"rules is left out, reported as 'idlelab: PATH: what is wrong', and makes\n"
	"the exit status 1.\n",
	.run = run,
};
