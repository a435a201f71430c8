// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a machine's tree as `idlelab capture` writes it and as
 * `info --save` writes a snapshot, read the way doctor --root, platform
 * capture --root and info --diff read them.
 *
 * The input is a list of records, each one file of the tree: a byte that
 * picks the file from the names the readers look for (the cpuidle files
 * of two CPUs and three states, the CPU lists and topology, the module
 * parameters, /proc files, dev/cpu_dma_latency, the kernel configuration,
 * idlelab-meta.txt, the ACPI CPPC capabilities), two bytes of length, then
 * that many bytes of content.
 * A pick byte with the top bit set makes the file a directory instead, so
 * that "a directory where a file is wanted" is tried too. The tree is
 * written below a private directory, then:
 *  - il_host_read (the capture reader), il_doctor_run on it with the
 *    counters since boot and over a window (the tree against itself), and
 *    il_host_platform_text; a platform text that loads must load again
 *    the same way;
 *  - il_sysfs_read_below and il_meta_read_dir (the snapshot reader of
 *    info --diff) and il_sysfs_delta of the tree against itself, whose
 *    differences must all be 0.
 * Nothing may crash; the fuzzer traps on a broken property.
 */
#define _GNU_SOURCE
/*
 * The C library's headers before <ftw.h>: it reaches <linux/limits.h>,
 * which the fuzz build's include path (kapi/include) gives as the kernel
 * API shim, whose macros must not rename the library's declarations.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <ftw.h>

#include "idlelab/doctor.h"
#include "idlelab/host.h"
#include "idlelab/platform.h"
#include "idlelab/sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

#define CPU "sys/devices/system/cpu/"
#define STATE(c, s, f) CPU "cpu" #c "/cpuidle/state" #s "/" f
#define STATE_FILES(c, s)                                                                   \
	STATE(c, s, "name"), STATE(c, s, "desc"), STATE(c, s, "latency"),                   \
	STATE(c, s, "residency"), STATE(c, s, "power"), STATE(c, s, "usage"),                \
	STATE(c, s, "time"), STATE(c, s, "above"), STATE(c, s, "below"),                     \
	STATE(c, s, "rejected"), STATE(c, s, "disable"), STATE(c, s, "default_status")

static const char *const files[] = {
	STATE_FILES(0, 0), STATE_FILES(0, 1), STATE_FILES(0, 2),
	STATE_FILES(1, 0), STATE_FILES(1, 1), STATE_FILES(1, 2),
	CPU "cpuidle/current_driver", CPU "cpuidle/current_governor",
	CPU "cpuidle/current_governor_ro", CPU "cpuidle/available_governors",
	CPU "cpu0/cpuidle/driver/name", CPU "online", CPU "possible", CPU "present",
	CPU "cpu0/topology/physical_package_id", CPU "cpu0/topology/core_id",
	CPU "cpu0/topology/die_id", CPU "cpu0/topology/thread_siblings_list",
	CPU "cpu1/topology/physical_package_id", CPU "cpu1/topology/core_id",
	CPU "cpu0/power/pm_qos_resume_latency_us", CPU "cpu1/power/pm_qos_resume_latency_us",
	CPU "cpufreq/policy0/scaling_driver", CPU "cpufreq/policy0/scaling_governor",
	CPU "cpufreq/policy0/cpuinfo_max_freq",
	"sys/devices/system/clocksource/clocksource0/current_clocksource",
	"sys/module/haltpoll/parameters/guest_halt_poll_ns",
	"sys/module/intel_idle/parameters/max_cstate",
	"sys/module/intel_idle/parameters/states_off",
	"sys/module/processor/parameters/max_cstate",
	"sys/module/cpuidle/parameters/off", "sys/module/cpuidle/parameters/governor",
	"proc/cpuinfo", "proc/cmdline", "proc/version", "proc/uptime",
	"proc/sys/kernel/osrelease", "proc/sys/kernel/random/boot_id", "proc/ppc64/lparcfg",
	"dev/cpu_dma_latency", "boot/config-6.18.0", "proc/config.gz", "idlelab-meta.txt",
	CPU "cpu0/acpi_cppc/highest_perf", CPU "cpu0/acpi_cppc/nominal_perf",
	CPU "cpu1/acpi_cppc/highest_perf",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char top[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(p);
	return 0;
}

/* mkdir -p of the directories of rel below dir */
static void mkdirs(const char *dir, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

static void write_tree(const char *dir, const uint8_t *data, size_t size)
{
	char p[512];

	/* the CPU directories of two CPUs are always there: the readers go past them */
	mkdirs(dir, CPU "cpu0/x");
	mkdirs(dir, CPU "cpu1/x");
	while (size >= 3) {
		unsigned pick = data[0];
		size_t len = (size_t)data[1] | (size_t)data[2] << 8;
		const char *rel = files[(pick & 0x7f) % NFILES];

		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		mkdirs(dir, rel);
		snprintf(p, sizeof(p), "%s/%s", dir, rel);
		if (pick & 0x80) {
			mkdir(p, 0755);
		} else {
			int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd >= 0) {
				if (len && write(fd, data, len) < 0) {
					/* a short tree is a tree too */
				}
				close(fd);
			}
		}
		data += len;
		size -= len;
	}
}

static void read_host(const char *dir)
{
	struct il_host h;
	struct il_err err;
	struct il_doctor d;
	struct il_doctor_opts o;
	struct il_sysfs_info a, b;
	struct il_sysfs_delta w;
	bool have_w = false;
	char *text;

	if (il_host_read(dir, true, &h, &err))
		return;
	il_doctor_opts_default(&o);
	il_doctor_run(&h, &o, &d);
	for (int i = 0; i < d.n; i++)
		CHECK(d.findings[i].id && d.findings[i].id[0]);
	il_doctor_free(&d);
	/* over a window: the tree against itself, every difference 0 */
	if (!il_sysfs_read_below(dir, "sys/devices/system/cpu", NULL, &a, &err)) {
		if (!il_sysfs_read_below(dir, "sys/devices/system/cpu", NULL, &b, &err)) {
			if (!il_sysfs_delta(&a, &b, 1000000000, &w, &err)) {
				have_w = true;
				for (int r = 0; r < w.n; r++)
					for (int f = 0; f < IL_SF_COUNT; f++)
						CHECK(w.rows[r].d[f].status != IL_SYSFS_OK ||
						      w.rows[r].d[f].v == 0);
				o.window = &w;
				o.miss_min_usage = 0;
				il_doctor_run(&h, &o, &d);
				il_doctor_free(&d);
			}
			il_sysfs_info_free(&b);
		}
		il_sysfs_info_free(&a);
	}
	if (have_w)
		il_sysfs_delta_free(&w);
	text = il_host_platform_text(&h, "fuzz", &err);
	if (text) {
		struct il_platform *p1 = calloc(1, sizeof(*p1)), *p2 = calloc(1, sizeof(*p2));
		struct il_err e1, e2;
		int r1, r2;

		CHECK(p1 && p2);
		r1 = il_platform_load_string(p1, text, strlen(text), "fuzz", &e1);
		r2 = il_platform_load_string(p2, text, strlen(text), "fuzz", &e2);
		CHECK(r1 == r2);
		if (!r1)
			CHECK(il_platform_ncpus(p1) >= 1 && il_platform_ncpus(p1) == il_platform_ncpus(p2));
		else
			CHECK(e1.line == e2.line);
		free(p1);
		free(p2);
		free(text);
	}
	il_host_free(&h);
}

static void read_snapshot(const char *dir)
{
	struct il_meta m;
	struct il_err err;
	struct il_sysfs_info a;
	int r = il_meta_read_dir(dir, &m, &err);

	if (!r) {
		char *text = il_meta_text(&m);
		CHECK(text);
		free(text);
		il_meta_free(&m);
	} else {
		CHECK(r < 0);
	}
	/* a snapshot of info --save: the cpuidle tree at its top */
	if (!il_sysfs_read_below(dir, "sys/devices/system/cpu", NULL, &a, &err))
		il_sysfs_info_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[128];

	if (!top[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(top, sizeof(top), "%s/fuzz_tree.XXXXXX", base && strlen(base) < 40 ? base : "/tmp");
		CHECK(mkdtemp(top));
	}
	snprintf(dir, sizeof(dir), "%s/t", top);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	CHECK(mkdir(dir, 0755) == 0);
	write_tree(dir, data, size);
	read_host(dir);
	read_snapshot(dir);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
