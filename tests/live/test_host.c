// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests for src/live/meta.c, host.c, delta.c and restore.c: the metadata,
 * cpuinfo and kernel-configuration parsers, the command-line lookup, the
 * release tag, counter differences, and changes to a machine written back
 * at exit, on SIGTERM and on a refused write, in a temporary tree.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "idlelab/doctor.h"
#include "idlelab/host.h"
#include "idlelab/outfile.h"
#include "idlelab/restore.h"
#include "idlelab/sysfs.h"

#define FIXTURES SRCDIR "/tests/fixtures"

static char tmpdir[256];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_host.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static const char *tpath(const char *rel)
{
	static char buf[8][1024];
	static int k;
	char *p = buf[k++ % 8];
	snprintf(p, 1024, "%.255s/%.700s", tmpdir, rel);
	return p;
}

static void put(const char *rel, const char *content)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s", tpath(rel));
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static char *get(const char *rel)
{
	static char buf[256];
	FILE *f = fopen(tpath(rel), "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Metadata */

static void test_meta_roundtrip(void **state)
{
	struct il_meta m = { 0 }, back;
	struct il_err err;
	char *text;

	(void)state;
	il_meta_add(&m, "kernel_release", "6.18.44");
	il_meta_add(&m, "cmdline", "ro quiet\n");       /* the newline goes */
	il_meta_add(&m, "x", "a\033[2Jb");               /* control bytes become blanks */
	il_meta_addf(&m, "pm_qos.holder", "%d %s", 12, "tuned");
	il_meta_addf(&m, "pm_qos.holder", "%d %s", 13, "cyclictest");
	text = il_meta_text(&m);
	assert_string_equal(text, "format: idlelab-meta 1\nkernel_release: 6.18.44\n"
				  "cmdline: ro quiet\nx: a [2Jb\npm_qos.holder: 12 tuned\n"
				  "pm_qos.holder: 13 cyclictest\n");
	assert_int_equal(il_meta_parse(text, strlen(text), "m", &back, &err), 0);
	assert_int_equal(back.n, 6);
	assert_string_equal(il_meta_get(&back, "cmdline"), "ro quiet");
	assert_string_equal(il_meta_get(&back, "pm_qos.holder"), "12 tuned");
	assert_int_equal(back.items[5].line, 6);
	assert_null(il_meta_get(&back, "nosuch"));
	free(text);
	il_meta_free(&m);
	il_meta_free(&back);
}

static void test_meta_refusals(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{ "", 0, "empty: not idlelab metadata" },
		{ "# only a comment\n", 0, "empty" },
		{ "kernel: 1\n", 1, "not idlelab metadata" },
		{ "format: idlelab-meta 2\n", 1, "not idlelab metadata" },
		{ "format: idlelab-meta 1\nno colon\n", 2, "want 'key: value'" },
		{ "format: idlelab-meta 1\nkey:value\n", 2, "want 'key: value'" },
		{ "format: idlelab-meta 1\nk y: v\n", 2, "want 'key: value'" },
		{ "format: idlelab-meta 1\n: v\n", 2, "want 'key: value'" },
		{ "format: idlelab-meta 1\nk: a\rb\n", 2, "control character 0x0d" },
		{ "format: idlelab-meta 1\nk: a\0b\n", 2, "control character 0x00" },
	};
	struct il_meta m;
	struct il_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text);
		if (i == 9)
			len = 28;   /* the NUL inside */
		assert_int_equal(il_meta_parse(bad[i].text, len, "m", &m, &err), -EINVAL);
		assert_int_equal(err.line, bad[i].line);
		assert_non_null(strstr(err.msg, bad[i].msg));
		assert_int_equal(m.n, 0);
	}
	/* an empty value, blank lines, comments and a last line without newline are fine */
	assert_int_equal(il_meta_parse("format: idlelab-meta 1\n\n# c\nk:\nz: 1", 35, "m", &m, &err),
			 0);
	assert_string_equal(il_meta_get(&m, "k"), "");
	assert_string_equal(il_meta_get(&m, "z"), "1");
	il_meta_free(&m);
}

/* ------------------------------------------------------------------ */
/* cpuinfo */

/*
 * KVM's signature leaf as kvm_cpuid_base() takes it: EAX, the maximum leaf,
 * is not looked at (old hosts return 0 there, cpuid.rst: read it as
 * 0x40000001); the twelve bytes must be "KVMKVMKVM\0\0\0".
 */
static void test_kvm_signature(void **state)
{
	/* "KVMK" "VMKV" "M\0\0\0" as EBX, ECX, EDX */
	const unsigned int b = 0x4b4d564b, c = 0x564b4d56, d = 0x4d;

	(void)state;
	assert_true(il_host_kvm_signature(0x40000000, 0x40000001, b, c, d));
	assert_true(il_host_kvm_signature(0x40000000, 0, b, c, d));
	assert_true(il_host_kvm_signature(0x40000100, 0x40000000, b, c, d));
	assert_true(il_host_kvm_signature(0x40000100, 0, b, c, d));
	assert_false(il_host_kvm_signature(0x40000000, 0x40000001, b, c, 0x4d4d));
	assert_false(il_host_kvm_signature(0x40000000, 0x40000001, c, b, d));
	assert_false(il_host_kvm_signature(0x40000000, 0x40000001, 0, 0, 0));
}

static void test_cpuinfo_x86(void **state)
{
	static const char text[] =
		"processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
		"model name\t: AMD EPYC 7763 64-Core Processor\nstepping\t: 1\ncpu MHz\t\t: 2450.000\n"
		"physical id\t: 0\nsiblings\t: 128\ncore id\t\t: 0\ncpu cores\t: 64\n"
		"flags\t\t: fpu monitor_x hypervisorx monitor arat constant_tsc\n\n"
		"processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nphysical id\t: 1\n"
		"flags\t\t: hypervisor\n\n";
	struct il_cpuinfo ci;

	(void)state;
	il_cpuinfo_parse(text, sizeof(text) - 1, &ci);
	assert_int_equal(ci.nprocessors, 2);
	assert_int_equal(ci.arch, IL_ARCH_X86);
	/* the first processor's facts */
	assert_int_equal(ci.vendor, IL_VENDOR_AMD);
	assert_string_equal(ci.vendor_id, "AuthenticAMD");
	assert_int_equal(ci.family, 25);
	assert_int_equal(ci.model, 1);
	assert_int_equal(ci.stepping, 1);
	assert_string_equal(ci.model_name, "AMD EPYC 7763 64-Core Processor");
	assert_true(ci.mhz == 2450.0);
	/* flags are words: "monitor_x" and "hypervisorx" are not monitor and hypervisor */
	assert_true(ci.has_flags && ci.monitor && ci.arat && ci.constant_tsc);
	assert_false(ci.hypervisor);
	assert_false(ci.nonstop_tsc);
	assert_int_equal(ci.npackages, 2);
	assert_int_equal(ci.cores_per_package, 64);
	assert_int_equal(ci.siblings, 128);
}

static void test_cpuinfo_power_and_junk(void **state)
{
	static const char text[] =
		"processor\t: 0\ncpu\t\t: POWER10 (architected), altivec supported\n"
		"clock\t\t: 2750.000000MHz\nrevision\t: 2.0 (pvr 0080 0200)\n\n"
		"timebase\t: 512000000\nplatform\t: pSeries\nmodel\t\t: IBM,9080-HEX\n";
	struct il_cpuinfo ci;

	(void)state;
	il_cpuinfo_parse(text, sizeof(text) - 1, &ci);
	assert_int_equal(ci.arch, IL_ARCH_POWERPC);
	assert_int_equal(ci.vendor, IL_VENDOR_IBM);
	assert_string_equal(ci.model_name, "POWER10 (architected), altivec supported");
	assert_int_equal(ci.timebase, 512000000);
	assert_string_equal(ci.platform, "pSeries");
	assert_int_equal(ci.family, -1);
	assert_int_equal(ci.model, -1);   /* "IBM,9080-HEX" is no number */
	assert_true(ci.mhz == 2750.0);
	/* garbage never fails: lines without ':' and huge numbers are skipped */
	il_cpuinfo_parse("no colon\n:\ncpu family: 99999999999\nmodel:-3\n", 45, &ci);
	assert_int_equal(ci.family, -1);
	assert_int_equal(ci.model, -1);
	il_cpuinfo_parse("", 0, &ci);
	assert_int_equal(ci.nprocessors, 0);
}

/* ------------------------------------------------------------------ */
/* Kernel configuration */

static void test_config(void **state)
{
	static const char text[] =
		"#\n# Automatically generated file; DO NOT EDIT.\n"
		"CONFIG_HZ_250=y\nCONFIG_HZ=250\n# CONFIG_HZ_1000 is not set\n"
		"CONFIG_NET=y\nCONFIG_CPU_IDLE_GOV_TEO=y\nCONFIG_LOCALVERSION=\"-fc\"\n"
		"CONFIG_INTEL_IDLE=y\nCONFIG_HZX\nCONFIG_HZ=\x01\n# CONFIG_NO_HZ_FULL is not set\n";
	char *f, *v;

	(void)state;
	f = il_config_filter(text, sizeof(text) - 1);
	assert_string_equal(f, "CONFIG_HZ_250=y\nCONFIG_HZ=250\n# CONFIG_HZ_1000 is not set\n"
			       "CONFIG_CPU_IDLE_GOV_TEO=y\nCONFIG_INTEL_IDLE=y\n"
			       "# CONFIG_NO_HZ_FULL is not set\n");
	v = il_config_get(f, strlen(f), "HZ");
	assert_string_equal(v, "250");
	free(v);
	assert_null(il_config_get(f, strlen(f), "NO_HZ_FULL"));  /* not set is absent */
	assert_null(il_config_get(f, strlen(f), "H"));
	v = il_config_get(text, sizeof(text) - 1, "LOCALVERSION");
	assert_string_equal(v, "-fc");
	free(v);
	free(f);
	/* a last line without its newline gets one (the buffer holds it: ASan checks) */
	f = il_config_filter("CONFIG_HZ=250", 13);
	assert_string_equal(f, "CONFIG_HZ=250\n");
	free(f);
	assert_true(il_host_config_keep("HZ", 2));
	assert_false(il_host_config_keep("NET", 3));
}

/* ------------------------------------------------------------------ */
/* A host tree: cmdline, release, parameters, PM QoS */

static void test_host_tree(void **state)
{
	struct il_host h;
	struct il_err err;
	char buf[64];
	int fd;
	int32_t lim = 20;

	(void)state;
	put("m/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro idle=poll quiet foo=\"a b\" idle=halt "
			      "intel_idle.max_cstate=1 -- idle=nomwait\n");
	put("m/proc/sys/kernel/osrelease", "5.15.0-91-generic\n");
	put("m/proc/uptime", "123.45 99.00\n");
	put("m/sys/module/haltpoll/parameters/guest_halt_poll_ns", "0\n");
	put("m/sys/devices/system/cpu/cpu3/power/pm_qos_resume_latency_us", "n/a\n");
	put("m/sys/devices/system/cpu/cpu3/topology/core_id", "7\n");
	put("m/idlelab-meta.txt", "format: idlelab-meta 1\npm_qos.holders: 1\n"
				   "pm_qos.holder: 4321 my app\n");
	mkdir(tpath("m/dev"), 0755);
	fd = open(tpath("m/dev/cpu_dma_latency"), O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, &lim, sizeof(lim)), sizeof(lim));
	close(fd);
	assert_int_equal(il_host_read(tpath("m"), false, &h, &err), 0);
	assert_false(h.live);
	assert_true(h.sysfs_rc < 0);   /* no cpuidle directory */
	/* the last occurrence before "--" wins; a flag is ""; quotes go */
	assert_string_equal(il_host_cmdline_opt(&h, "idle", buf, sizeof(buf)), "halt");
	assert_string_equal(il_host_cmdline_opt(&h, "quiet", buf, sizeof(buf)), "");
	assert_string_equal(il_host_cmdline_opt(&h, "foo", buf, sizeof(buf)), "a b");
	assert_string_equal(il_host_cmdline_opt(&h, "intel_idle.max_cstate", buf, sizeof(buf)), "1");
	assert_null(il_host_cmdline_opt(&h, "idl", buf, sizeof(buf)));
	assert_true(il_host_release_tag(&h, buf, sizeof(buf)));
	assert_string_equal(buf, "5.15");
	assert_true(h.uptime_s == 123.45);
	assert_string_equal(il_host_param(&h, "haltpoll", "guest_halt_poll_ns"), "0");
	assert_null(il_host_param(&h, "intel_idle", "max_cstate"));
	assert_true(h.has_dma_latency);
	assert_int_equal(h.dma_latency_us, 20);
	assert_int_equal(h.nholders, 1);
	assert_int_equal(h.holders[0].pid, 4321);
	assert_string_equal(h.holders[0].comm, "my app");
	assert_int_equal(h.ncpus, 1);
	assert_int_equal(h.cpus[0].cpu, 3);
	assert_int_equal(h.cpus[0].core, 7);
	assert_int_equal(h.cpus[0].package, -1);
	assert_string_equal(h.cpus[0].resume_latency, "n/a");
	il_host_free(&h);
	/* a release that is no MAJOR.MINOR is not a tag */
	put("m/proc/sys/kernel/osrelease", "v6\n");
	assert_int_equal(il_host_read(tpath("m"), false, &h, &err), 0);
	assert_false(il_host_release_tag(&h, buf, sizeof(buf)));
	il_host_free(&h);
	assert_int_equal(il_host_read(tpath("nosuch"), false, &h, &err), -ENOENT);
}

/* ------------------------------------------------------------------ */
/* Counter differences */

static void test_delta(void **state)
{
	struct il_sysfs_info a, b;
	struct il_sysfs_delta d;
	struct il_err err;
	char cmd[1024];

	(void)state;
	snprintf(cmd, sizeof(cmd), "cp -r %s/sysfs/kvm-haltpoll %s/a && cp -r %s/a %s/b", FIXTURES,
		 tmpdir, tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);
	put("b/cpu1/cpuidle/state1/usage", "86101\n");   /* cpu1's is 86015 in a */
	put("b/cpu1/cpuidle/state1/above", "junk\n");
	assert_int_equal(il_sysfs_read(tpath("a"), NULL, &a, &err), 0);
	assert_int_equal(il_sysfs_read(tpath("b"), NULL, &b, &err), 0);
	assert_int_equal(il_sysfs_delta(&a, &b, 2000000000, &d, &err), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.elapsed_ns, 2000000000);
	assert_int_equal(d.rows[3].cpu, 1);
	assert_int_equal(d.rows[3].state, 1);
	assert_string_equal(d.rows[3].name, "haltpoll idle");
	assert_int_equal(d.rows[3].d[IL_SF_USAGE].status, IL_SYSFS_OK);
	assert_int_equal(d.rows[3].d[IL_SF_USAGE].v, 86);
	assert_int_equal(d.rows[3].d[IL_SF_ABOVE].status, IL_SYSFS_BAD);
	assert_int_equal(d.rows[0].d[IL_SF_S2IDLE_USAGE].status, IL_SYSFS_MISSING);
	il_sysfs_delta_free(&d);
	/* the other way round a counter goes down */
	assert_int_equal(il_sysfs_delta(&b, &a, 0, &d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cpu1 state1 usage went down from 86101 to 86015"));
	il_sysfs_info_free(&a);
	il_sysfs_info_free(&b);
}

/* The ids doctor finds on h over window w (NULL: since boot), and the first title of id. */
static int doctor_ids(const struct il_host *h, const struct il_sysfs_delta *w, const char *id,
		      char *title, size_t size)
{
	struct il_doctor_opts o;
	struct il_doctor d;
	int n = 0;

	il_doctor_opts_default(&o);
	o.window = w;
	il_doctor_run(h, &o, &d);
	if (title)
		title[0] = '\0';
	for (int i = 0; i < d.n; i++)
		if (!strcmp(d.findings[i].id, id)) {
			if (title && !n)
				snprintf(title, size, "%s", d.findings[i].title);
			n++;
		}
	il_doctor_free(&d);
	return n;
}

/*
 * high-miss-rate over a window (doctor --interval on the live machine):
 * judged by the window's differences, not by the counters since boot.
 * amd-zen3-dummy-wait has C2 above on 75 % of its entries since boot.
 */
static void test_doctor_window(void **state)
{
	static const char *cpu = "b/sys/devices/system/cpu/cpu";
	struct il_host h;
	struct il_sysfs_info a, b;
	struct il_sysfs_delta w;
	struct il_err err;
	char cmd[1024], rel[256], title[256], val[32];

	(void)state;
	snprintf(cmd, sizeof(cmd), "cp -r %s/capture/amd-zen3-dummy-wait %s/b", FIXTURES, tmpdir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(il_host_read(tpath("b"), false, &h, &err), 0);
	assert_int_equal(doctor_ids(&h, NULL, "high-miss-rate", title, sizeof(title)), 1);
	assert_non_null(strstr(title, "state2 C2: too deep for the idle period (above) on 7"));
	assert_non_null(strstr(title, "since boot"));
	assert_int_equal(il_sysfs_read_below(tpath("b"), "sys/devices/system/cpu", NULL, &a, &err), 0);

	/* in the window C2 misses 1 % (10 of 1000), C1 is too shallow on 50 % (500 of 1000) */
	for (int c = 0; c < 2; c++) {
		static const struct { int state; const char *file; unsigned long long add; } mv[] = {
			{ 2, "usage", 1000 }, { 2, "above", 10 }, { 1, "usage", 1000 }, { 1, "below", 500 },
		};
		for (size_t k = 0; k < sizeof(mv) / sizeof(mv[0]); k++) {
			const struct il_sysfs_val *v = &a.cpus[c].states[mv[k].state].val[
				!strcmp(mv[k].file, "usage") ? IL_SF_USAGE :
				!strcmp(mv[k].file, "above") ? IL_SF_ABOVE : IL_SF_BELOW];
			snprintf(rel, sizeof(rel), "%s%d/cpuidle/state%d/%s", cpu, c, mv[k].state,
				 mv[k].file);
			snprintf(val, sizeof(val), "%llu\n", (unsigned long long)v->v + mv[k].add);
			chmod(tpath(rel), 0644);
			put(rel, val);
		}
	}
	assert_int_equal(il_sysfs_read_below(tpath("b"), "sys/devices/system/cpu", NULL, &b, &err), 0);
	assert_int_equal(il_sysfs_delta(&a, &b, 1000000000, &w, &err), 0);
	assert_int_equal(doctor_ids(&h, &w, "high-miss-rate", title, sizeof(title)), 1);
	assert_non_null(strstr(title, "state1 C1: a deeper state would have fitted (below) on 50.0%"));
	assert_non_null(strstr(title, "in the window, on 2 of 2 CPUs judged"));
	il_sysfs_delta_free(&w);

	/* fewer than 100 entries in the window: not judged */
	assert_int_equal(il_sysfs_delta(&a, &a, 1000000000, &w, &err), 0);
	assert_int_equal(doctor_ids(&h, &w, "high-miss-rate", NULL, 0), 0);
	il_sysfs_delta_free(&w);
	il_sysfs_info_free(&a);
	il_sysfs_info_free(&b);
	il_host_free(&h);
}

/* ------------------------------------------------------------------ */
/* Changes and their restore */

static void test_change_restore(void **state)
{
	struct il_err err;

	(void)state;
	put("r/sys/devices/system/cpu/cpuidle/current_governor", "menu\n");
	put("r/sys/module/haltpoll/parameters/guest_halt_poll_ns", "0\n");
	put("r/sys/devices/system/cpu/cpu1/cpuidle/state2/disable", "0\n");
	assert_int_equal(il_change_governor(tpath("r"), "teo", &err), 0);
	assert_int_equal(il_change_param(tpath("r"), "haltpoll.guest_halt_poll_ns=200000", &err), 0);
	assert_int_equal(il_change_state_disable(tpath("r"), 1, 2, 1, &err), 0);
	assert_int_equal(il_change_count(), 3);
	assert_string_equal(get("r/sys/devices/system/cpu/cpuidle/current_governor"), "teo");
	assert_string_equal(get("r/sys/module/haltpoll/parameters/guest_halt_poll_ns"), "200000");
	assert_string_equal(get("r/sys/devices/system/cpu/cpu1/cpuidle/state2/disable"), "1");
	/* the same value again is no change */
	assert_int_equal(il_change_governor(tpath("r"), "teo", &err), 0);
	assert_int_equal(il_change_count(), 3);
	assert_int_equal(il_change_restore(), 0);
	assert_int_equal(il_change_count(), 0);
	assert_string_equal(get("r/sys/devices/system/cpu/cpuidle/current_governor"), "menu");
	assert_string_equal(get("r/sys/module/haltpoll/parameters/guest_halt_poll_ns"), "0");
	assert_string_equal(get("r/sys/devices/system/cpu/cpu1/cpuidle/state2/disable"), "0");
}

static void test_change_refusals(void **state)
{
	struct il_err err;

	(void)state;
	put("q/sys/module/m/parameters/p", "1\n");
	put("q/outside", "keep\n");
	/* syntax */
	assert_int_equal(il_change_param(tpath("q"), "p=1", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "want MODULE.PARAM=VALUE"));
	assert_int_equal(il_change_param(tpath("q"), "m/../x.p=1", &err), -EINVAL);
	assert_int_equal(il_change_param(tpath("q"), "m.p=a\nb", &err), -EINVAL);
	/* a file that does not exist is not created */
	assert_int_equal(il_change_param(tpath("q"), "m.nosuch=1", &err), -ENOENT);
	assert_non_null(strstr(err.file, "q/sys/module/m/parameters/nosuch"));
	assert_int_equal(access(tpath("q/sys/module/m/parameters/nosuch"), F_OK), -1);
	/* no link is followed: not the file, not a directory on the way */
	assert_int_equal(symlink(tpath("q/outside"), tpath("q/sys/module/m/parameters/l")), 0);
	assert_true(il_change_param(tpath("q"), "m.l=x", &err) < 0);
	assert_string_equal(get("q/outside"), "keep\n");
	assert_int_equal(symlink(tpath("q/sys/module/m"), tpath("q/sys/module/n")), 0);
	assert_int_equal(il_change_param(tpath("q"), "n.p=x", &err), -ELOOP);
	assert_string_equal(get("q/sys/module/m/parameters/p"), "1\n");
	assert_int_equal(il_change_count(), 0);
}

/* Run fn in a child; return its wait status. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void change_then_exit(void)
{
	struct il_err err;
	if (il_change_governor(tpath("s"), "ladder", &err))
		_exit(3);
	exit(0);    /* atexit restores */
}

static void change_then_sigterm(void)
{
	struct il_err err;
	struct il_out o;
	if (il_change_governor(tpath("s"), "ladder", &err))
		_exit(3);
	/* an output temporary is removed too */
	if (il_out_open(&o, tpath("s/out.txt"), &err))
		_exit(4);
	fputs("partial", o.f);
	fflush(o.f);
	raise(SIGTERM);
	_exit(5);
}

static void change_with_sigint_ignored(void)
{
	struct il_err err;
	signal(SIGINT, SIG_IGN);
	if (il_change_governor(tpath("s"), "ladder", &err))
		_exit(3);
	raise(SIGINT);   /* stays ignored: nothing happens */
	if (strcmp(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "ladder"))
		_exit(6);
	exit(0);
}

static void change_with_stderr_gone(void)
{
	struct il_err err;
	int p[2];

	/* stderr a pipe nobody reads: saying the change raises SIGPIPE */
	if (pipe(p) || dup2(p[1], STDERR_FILENO) < 0)
		_exit(7);
	close(p[0]);
	close(p[1]);
	if (il_change_governor(tpath("s"), "ladder", &err))
		_exit(3);
	_exit(5);
}

static void *wait_for_signals(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

#define PARAM_FILE "s/sys/module/haltpoll/parameters/guest_halt_poll_ns"

/*
 * Two changes, the last one's file then replaced by a FIFO: the restore
 * of the first SIGTERM blocks in its open until the parent reads. Two
 * threads take the signals (the main thread blocks them), so the second
 * SIGTERM runs the handler in the other thread while the first restores.
 */
static void change_then_wait(int ready)
{
	struct il_err err;
	pthread_t th[2];
	sigset_t set;

	if (il_change_governor(tpath("s"), "ladder", &err) ||
	    il_change_param(tpath("s"), "haltpoll.guest_halt_poll_ns=200000", &err))
		_exit(3);
	if (mkfifo(tpath("s/fifo"), 0600) || rename(tpath("s/fifo"), tpath(PARAM_FILE)))
		_exit(4);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, wait_for_signals, NULL))
			_exit(5);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (write(ready, "r", 1) != 1)
		_exit(6);
	for (;;)
		pause();
}

static void test_change_signal_during_restore(void **state)
{
	struct timespec gap = { 0, 200000000 };
	char buf[16] = "", c;
	size_t len = 0;
	ssize_t n;
	int p[2], st, fd;
	pid_t pid;

	(void)state;
	put("s/sys/devices/system/cpu/cpuidle/current_governor", "menu\n");
	put(PARAM_FILE, "0\n");
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		change_then_wait(p[1]);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	assert_int_equal(kill(pid, SIGTERM), 0);
	nanosleep(&gap, NULL);
	/* the first handler waits in the FIFO's open: a second signal */
	assert_int_equal(kill(pid, SIGTERM), 0);
	nanosleep(&gap, NULL);
	fd = open(tpath(PARAM_FILE), O_RDONLY);
	assert_true(fd >= 0);
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	/* the old value written once, and the change before it restored too */
	assert_string_equal(buf, "0");
	assert_string_equal(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "menu");
}

static void test_change_exit_and_signal(void **state)
{
	int st;
	char cmd[1200];

	(void)state;
	put("s/sys/devices/system/cpu/cpuidle/current_governor", "menu\n");
	st = in_child(change_then_exit);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "menu");

	st = in_child(change_then_sigterm);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_string_equal(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "menu");
	/* out.txt and its temporary are gone (run/: the record of the changes, emptied) */
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls %s/s | grep -v -e '^sys$' -e '^run$')\" && "
		 "test ! -s %s/s/run/idlelab/changes", tmpdir, tmpdir);
	assert_int_equal(system(cmd), 0);

	st = in_child(change_with_sigint_ignored);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_string_equal(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "menu");

	/* SIGPIPE from the message that says the change: written back */
	st = in_child(change_with_stderr_gone);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
	assert_string_equal(get("s/sys/devices/system/cpu/cpuidle/current_governor"), "menu");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_roundtrip),
		cmocka_unit_test(test_meta_refusals),
		cmocka_unit_test(test_kvm_signature),
		cmocka_unit_test(test_cpuinfo_x86),
		cmocka_unit_test(test_cpuinfo_power_and_junk),
		cmocka_unit_test(test_config),
		cmocka_unit_test_setup_teardown(test_host_tree, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_delta, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_doctor_window, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_change_restore, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_change_refusals, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_change_exit_and_signal, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_change_signal_during_restore, setup_tmp,
						teardown_tmp),
	};

	/* the first change installs the restore on SIGPIPE only where it is the default */
	signal(SIGPIPE, SIG_DFL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
