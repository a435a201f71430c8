// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests for src/live/sysfs.c: value and CPU-list parsers, reading each
 * saved fixture under tests/fixtures/sysfs, n/a for files older kernels
 * lack, garbage and unreadable counters, missing directories, --save.
 * Expected values are the fixture files' contents (see each README).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelab/sysfs.h"

#define FIXTURES SRCDIR "/tests/fixtures/sysfs"

/* ------------------------------------------------------------------ */
/* helpers */

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
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_sysfs.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static char *tpath(const char *rel)
{
	static char buf[8][1024];
	static int k;
	char *p = buf[k++ % 8];
	snprintf(p, 1024, "%.255s/%.700s", tmpdir, rel);
	return p;
}

static void mkdirs(const char *path)
{
	char p[512];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

/* Write rel (under tmpdir) with content, creating directories. */
static void put(const char *rel, const char *content, size_t len)
{
	char dir[512];
	const char *path = tpath(rel);
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
}

static void puts_(const char *rel, const char *content)
{
	put(rel, content, strlen(content));
}

/* A minimal valid tree: one CPU, one state, every file present. */
static void make_tree(const char *root)
{
	static const char *const files[][2] = {
		{ "name", "POLL\n" }, { "desc", "CPUIDLE CORE POLL IDLE\n" },
		{ "latency", "0\n" }, { "residency", "0\n" }, { "power", "4294967295\n" },
		{ "usage", "17\n" }, { "time", "1234\n" }, { "above", "0\n" },
		{ "below", "5\n" }, { "rejected", "0\n" }, { "disable", "0\n" },
		{ "default_status", "enabled\n" },
	};
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/cpuidle/current_driver", root);
	puts_(rel, "haltpoll\n");
	snprintf(rel, sizeof(rel), "%s/cpuidle/current_governor", root);
	puts_(rel, "menu\n");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/cpu0/cpuidle/state0/%s", root, files[i][0]);
		puts_(rel, files[i][1]);
	}
}

static const struct il_sysfs_state *st_of(const struct il_sysfs_info *info, int cpu, int i)
{
	const struct il_sysfs_cpu *c = il_sysfs_find_cpu(info, cpu);
	assert_non_null(c);
	assert_true(i < c->nstates);
	return &c->states[i];
}

static void assert_val(const struct il_sysfs_val *v, unsigned long long want)
{
	assert_int_equal(v->status, IL_SYSFS_OK);
	assert_true(v->v == want);
}

static bool has_note(const struct il_sysfs_info *info, const char *file, const char *msg)
{
	for (int i = 0; i < info->notes.n; i++)
		if (!strcmp(info->notes.items[i].file, file) && !strcmp(info->notes.items[i].msg, msg))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* parsers */

static void test_parse_u64_ok(void **state)
{
	uint64_t v = 99;
	(void)state;
	assert_int_equal(il_sysfs_parse_u64("0\n", 2, &v), 0);
	assert_true(v == 0);
	assert_int_equal(il_sysfs_parse_u64("123", 3, &v), 0);
	assert_true(v == 123);
	assert_int_equal(il_sysfs_parse_u64("007\n", 4, &v), 0);
	assert_true(v == 7);
	assert_int_equal(il_sysfs_parse_u64("18446744073709551615\n", 21, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(il_sysfs_parse_u64("4294967295\n", 11, &v), 0);
	assert_true(v == 4294967295ULL);
	/* only len bytes count */
	assert_int_equal(il_sysfs_parse_u64("12345", 2, &v), 0);
	assert_true(v == 12);
}

static void test_parse_u64_bad(void **state)
{
	static const char *const bad[] = {
		"", "\n", "xyz\n", "12a", "a12", "-1", "+1", " 1", "1 ", "1\n\n", "0x10",
		"1.5", "\n1",
	};
	uint64_t v = 42;
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(il_sysfs_parse_u64(bad[i], strlen(bad[i]), &v), -EINVAL);
		assert_true(v == 42); /* untouched on error */
	}
	assert_int_equal(il_sysfs_parse_u64("1\0", 2, &v), -EINVAL);
	assert_int_equal(il_sysfs_parse_u64("18446744073709551616", 20, &v), -ERANGE);
	assert_int_equal(il_sysfs_parse_u64("99999999999999999999\n", 21, &v), -ERANGE);
	assert_true(v == 42);
}

static void test_parse_str(void **state)
{
	char *s;
	(void)state;
	s = il_sysfs_parse_str("POLL\n", 5);
	assert_string_equal(s, "POLL");
	free(s);
	s = il_sysfs_parse_str("haltpoll idle", 13);
	assert_string_equal(s, "haltpoll idle");
	free(s);
	s = il_sysfs_parse_str("", 0);
	assert_string_equal(s, "");
	free(s);
	s = il_sysfs_parse_str("x\n\n", 3); /* only one newline is the kernel's */
	assert_string_equal(s, "x\n");
	free(s);
	assert_null(il_sysfs_parse_str("a\0b", 3));
}

static void check_list(const char *text, const int *want, int n)
{
	struct il_cpulist l;
	struct il_err err;
	assert_int_equal(il_cpulist_parse(text, &l, &err), 0);
	assert_int_equal(l.n, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(l.cpus[i], want[i]);
	il_cpulist_free(&l);
}

static void test_cpulist_ok(void **state)
{
	(void)state;
	check_list("0-3,7", (const int[]){ 0, 1, 2, 3, 7 }, 5);
	check_list("7,0-1,1", (const int[]){ 0, 1, 7 }, 3);
	check_list("5", (const int[]){ 5 }, 1);
	check_list("4-4", (const int[]){ 4 }, 1);
	check_list("007", (const int[]){ 7 }, 1);
	check_list("65535", (const int[]){ 65535 }, 1);
	check_list("2,0", (const int[]){ 0, 2 }, 2);

	struct il_cpulist l;
	struct il_err err;
	assert_int_equal(il_cpulist_parse("28,31,40-41", &l, &err), 0);
	assert_true(il_cpulist_has(&l, 28));
	assert_true(il_cpulist_has(&l, 31));
	assert_true(il_cpulist_has(&l, 41));
	assert_false(il_cpulist_has(&l, 0));
	assert_false(il_cpulist_has(&l, 29));
	assert_false(il_cpulist_has(&l, 42));
	il_cpulist_free(&l);
}

static void test_cpulist_bad(void **state)
{
	static const struct { const char *text; int code; const char *msg; } bad[] = {
		{ "", -EINVAL, "bad CPU list '': empty" },
		{ ",", -EINVAL, "bad CPU list ',': empty item" },
		{ "1,", -EINVAL, "bad CPU list '1,': empty item" },
		{ ",1", -EINVAL, "bad CPU list ',1': empty item" },
		{ "1,,2", -EINVAL, "bad CPU list '1,,2': empty item" },
		{ "3-1", -EINVAL, "bad CPU list '3-1': range '3-1' runs backwards" },
		{ "0,a", -EINVAL, "bad CPU list '0,a': 'a' is not N or N-M" },
		{ "1-", -EINVAL, "bad CPU list '1-': '1-' is not N or N-M" },
		{ "-1", -EINVAL, "bad CPU list '-1': '-1' is not N or N-M" },
		{ "1-2-3", -EINVAL, "bad CPU list '1-2-3': '1-2-3' is not N or N-M" },
		{ " 1", -EINVAL, "bad CPU list ' 1': ' 1' is not N or N-M" },
		{ "+1", -EINVAL, "bad CPU list '+1': '+1' is not N or N-M" },
		{ "65536", -ERANGE, "bad CPU list '65536': '65536': CPU number too large (max 65535)" },
		{ "1-99999999999", -ERANGE,
		  "bad CPU list '1-99999999999': '1-99999999999': CPU number too large (max 65535)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct il_cpulist l = { 3, NULL };
		struct il_err err;
		il_err_clear(&err);
		assert_int_equal(il_cpulist_parse(bad[i].text, &l, &err), bad[i].code);
		assert_string_equal(err.msg, bad[i].msg);
		assert_int_equal(l.n, 0);
		assert_null(l.cpus);
	}
}

static void test_fields(void **state)
{
	(void)state;
	assert_string_equal(il_sysfs_field_file(IL_SF_LATENCY), "latency");
	assert_string_equal(il_sysfs_field_file(IL_SF_S2IDLE_TIME), "s2idle/time");
	assert_string_equal(il_sysfs_field_file(IL_SF_COUNT), "?");
	assert_true(il_sysfs_field_optional(IL_SF_ABOVE));
	assert_true(il_sysfs_field_optional(IL_SF_BELOW));
	assert_true(il_sysfs_field_optional(IL_SF_REJECTED));
	assert_true(il_sysfs_field_optional(IL_SF_S2IDLE_USAGE));
	assert_false(il_sysfs_field_optional(IL_SF_USAGE));
	assert_false(il_sysfs_field_optional(IL_SF_DISABLE));
	assert_false(il_sysfs_field_optional(IL_SF_COUNT));
}

/* ------------------------------------------------------------------ */
/* fixtures */

static void test_fixture_kvm(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	assert_int_equal(il_sysfs_read(FIXTURES "/kvm-haltpoll", NULL, &info, &err), 0);
	assert_int_equal(info.notes.n, 0);
	assert_string_equal(info.driver.s, "haltpoll");
	assert_string_equal(info.governor.s, "haltpoll");
	assert_false(info.governor_ro);
	assert_string_equal(info.governors.s, "ladder menu haltpoll ");
	assert_int_equal(info.ngovernors, 3);
	assert_string_equal(info.governor_list[0], "ladder");
	assert_string_equal(info.governor_list[2], "haltpoll");
	assert_int_equal(info.ncpus, 2);
	assert_int_equal(info.cpus[0].cpu, 0);
	assert_int_equal(info.cpus[1].cpu, 1);
	for (int c = 0; c < 2; c++) {
		assert_int_equal(info.cpus[c].nstates, 2);
		const struct il_sysfs_state *p = st_of(&info, c, 0), *h = st_of(&info, c, 1);
		assert_string_equal(p->name.s, "POLL");
		assert_string_equal(p->desc.s, "CPUIDLE CORE POLL IDLE");
		assert_val(&p->val[IL_SF_LATENCY], 0);
		assert_val(&p->val[IL_SF_RESIDENCY], 0);
		assert_val(&p->val[IL_SF_POWER], 4294967295ULL);
		assert_val(&p->val[IL_SF_USAGE], 0);
		assert_string_equal(h->name.s, "haltpoll idle");
		assert_string_equal(h->desc.s, "default architecture idle");
		assert_string_equal(h->default_status.s, "enabled");
		assert_val(&h->val[IL_SF_LATENCY], 1);
		assert_val(&h->val[IL_SF_RESIDENCY], 1);
		assert_val(&h->val[IL_SF_ABOVE], 0);
		assert_val(&h->val[IL_SF_REJECTED], 0);
		assert_val(&h->val[IL_SF_DISABLE], 0);
		/* haltpoll has no enter_s2idle */
		assert_int_equal(h->val[IL_SF_S2IDLE_USAGE].status, IL_SYSFS_MISSING);
		assert_int_equal(h->val[IL_SF_S2IDLE_TIME].status, IL_SYSFS_MISSING);
	}
	assert_val(&st_of(&info, 0, 1)->val[IL_SF_USAGE], 51014);
	assert_val(&st_of(&info, 0, 1)->val[IL_SF_TIME], 946371061);
	assert_val(&st_of(&info, 1, 1)->val[IL_SF_USAGE], 86015);
	assert_val(&st_of(&info, 1, 1)->val[IL_SF_TIME], 920573283);
	il_sysfs_info_free(&info);
}

static void test_fixture_amd(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	assert_int_equal(il_sysfs_read(FIXTURES "/amd-zen3-acpi_idle", NULL, &info, &err), 0);
	assert_int_equal(info.notes.n, 0);
	assert_string_equal(info.driver.s, "acpi_idle");
	assert_string_equal(info.governor.s, "menu");
	assert_int_equal(info.ngovernors, 1);
	assert_int_equal(info.ncpus, 2);
	assert_int_equal(info.cpus[0].cpu, 28);
	assert_int_equal(info.cpus[1].cpu, 31);
	assert_null(il_sysfs_find_cpu(&info, 0));
	const struct il_sysfs_state *c1 = st_of(&info, 31, 1), *c2 = st_of(&info, 31, 2);
	assert_string_equal(c1->desc.s, "ACPI FFH MWAIT 0x0");
	assert_val(&c1->val[IL_SF_RESIDENCY], 2);
	assert_int_equal(c1->val[IL_SF_S2IDLE_USAGE].status, IL_SYSFS_MISSING);
	assert_string_equal(c2->name.s, "C2");
	assert_string_equal(c2->desc.s, "ACPI IOPORT 0x814");
	assert_val(&c2->val[IL_SF_LATENCY], 400);
	assert_val(&c2->val[IL_SF_RESIDENCY], 800);
	assert_val(&c2->val[IL_SF_USAGE], 4954);
	assert_val(&c2->val[IL_SF_TIME], 264964543);
	assert_val(&c2->val[IL_SF_ABOVE], 3870);
	assert_val(&c2->val[IL_SF_S2IDLE_USAGE], 0);
	assert_val(&c2->val[IL_SF_S2IDLE_TIME], 0);
	assert_val(&st_of(&info, 28, 0)->val[IL_SF_USAGE], 997960);
	assert_val(&st_of(&info, 28, 0)->val[IL_SF_BELOW], 3120);
	assert_val(&st_of(&info, 28, 2)->val[IL_SF_TIME], 3411);
	il_sysfs_info_free(&info);
}

static void test_fixture_intel(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	assert_int_equal(il_sysfs_read(FIXTURES "/intel-icx-intel_idle", NULL, &info, &err), 0);
	assert_int_equal(info.notes.n, 0);
	assert_string_equal(info.driver.s, "intel_idle");
	assert_int_equal(info.ncpus, 4);
	for (int c = 0; c < 4; c++) {
		assert_int_equal(info.cpus[c].cpu, c);
		assert_int_equal(info.cpus[c].nstates, 4);
		const struct il_sysfs_state *c6 = st_of(&info, c, 3);
		assert_string_equal(c6->name.s, "C6");
		assert_string_equal(c6->desc.s, "MWAIT 0x20");
		assert_val(&c6->val[IL_SF_LATENCY], 170);
		assert_val(&c6->val[IL_SF_RESIDENCY], 600);
		assert_val(&c6->val[IL_SF_DISABLE], 1);
		assert_val(&c6->val[IL_SF_USAGE], 0);
		assert_int_equal(st_of(&info, c, 0)->val[IL_SF_S2IDLE_USAGE].status,
				 IL_SYSFS_MISSING);
		assert_val(&st_of(&info, c, 1)->val[IL_SF_S2IDLE_USAGE], 0);
	}
	assert_val(&st_of(&info, 0, 0)->val[IL_SF_USAGE], 1346781);
	assert_val(&st_of(&info, 0, 0)->val[IL_SF_TIME], 167816872);
	assert_val(&st_of(&info, 0, 1)->val[IL_SF_USAGE], 87830807);
	assert_val(&st_of(&info, 0, 1)->val[IL_SF_TIME], 15985573864ULL);
	assert_string_equal(st_of(&info, 2, 2)->name.s, "C1E");
	assert_val(&st_of(&info, 2, 2)->val[IL_SF_LATENCY], 4);
	il_sysfs_info_free(&info);
}

static void test_fixture_pseries_old_kernel(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	assert_int_equal(il_sysfs_read(FIXTURES "/power-pseries", NULL, &info, &err), 0);
	/* files older kernels lack are n/a, not problems */
	assert_int_equal(info.notes.n, 0);
	assert_string_equal(info.driver.s, "pseries_idle");
	assert_string_equal(info.governor.s, "menu");
	assert_true(info.governor_ro);
	assert_int_equal(info.governors.status, IL_SYSFS_MISSING);
	assert_string_equal(info.governors.s, "");
	assert_int_equal(info.ngovernors, 0);
	assert_int_equal(info.ncpus, 2);
	const struct il_sysfs_state *cede = st_of(&info, 50, 1);
	assert_string_equal(cede->name.s, "CEDE");
	assert_val(&cede->val[IL_SF_LATENCY], 12);
	assert_val(&cede->val[IL_SF_RESIDENCY], 120);
	assert_val(&cede->val[IL_SF_USAGE], 270004);
	assert_val(&cede->val[IL_SF_TIME], 283019526849ULL);
	assert_int_equal(cede->val[IL_SF_ABOVE].status, IL_SYSFS_MISSING);
	assert_int_equal(cede->val[IL_SF_BELOW].status, IL_SYSFS_MISSING);
	assert_int_equal(cede->val[IL_SF_REJECTED].status, IL_SYSFS_MISSING);
	assert_int_equal(cede->val[IL_SF_S2IDLE_TIME].status, IL_SYSFS_MISSING);
	assert_int_equal(cede->default_status.status, IL_SYSFS_MISSING);
	assert_val(&st_of(&info, 50, 0)->val[IL_SF_USAGE], 101748);
	assert_val(&st_of(&info, 51, 0)->val[IL_SF_USAGE], 98312);
	il_sysfs_info_free(&info);
}

static void test_cpu_selection(void **state)
{
	struct il_sysfs_info info;
	struct il_cpulist l;
	struct il_err err;
	(void)state;

	assert_int_equal(il_cpulist_parse("31", &l, &err), 0);
	assert_int_equal(il_sysfs_read(FIXTURES "/amd-zen3-acpi_idle", &l, &info, &err), 0);
	assert_int_equal(info.ncpus, 1);
	assert_int_equal(info.cpus[0].cpu, 31);
	il_sysfs_info_free(&info);
	il_cpulist_free(&l);

	assert_int_equal(il_cpulist_parse("1-2", &l, &err), 0);
	assert_int_equal(il_sysfs_read(FIXTURES "/intel-icx-intel_idle", &l, &info, &err), 0);
	assert_int_equal(info.ncpus, 2);
	assert_int_equal(info.cpus[0].cpu, 1);
	assert_int_equal(info.cpus[1].cpu, 2);
	il_sysfs_info_free(&info);
	il_cpulist_free(&l);

	/* a CPU the tree does not have is an error naming the directory */
	assert_int_equal(il_cpulist_parse("28-29", &l, &err), 0);
	assert_int_equal(il_sysfs_read(FIXTURES "/amd-zen3-acpi_idle", &l, &info, &err), -ENOENT);
	assert_string_equal(err.file, FIXTURES "/amd-zen3-acpi_idle/cpu29/cpuidle");
	assert_string_equal(err.msg, "no such directory: CPU 29 absent, offline or without cpuidle");
	il_cpulist_free(&l);
}

/* ------------------------------------------------------------------ */
/* bad trees */

static void test_missing_dirs(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	assert_int_equal(il_sysfs_read(tpath("nonexistent"), NULL, &info, &err), -ENOENT);
	assert_string_equal(err.file, tpath("nonexistent"));
	assert_string_equal(err.msg, "cannot open: No such file or directory");

	puts_("afile", "x\n");
	assert_int_equal(il_sysfs_read(tpath("afile"), NULL, &info, &err), -ENOTDIR);
	assert_string_equal(err.msg, "not a directory (want /sys/devices/system/cpu or a saved copy)");

	/* a cpu directory without cpuidle/: the kernel has no cpuidle */
	puts_("nocpuidle/cpu0/online", "1\n");
	assert_int_equal(il_sysfs_read(tpath("nocpuidle"), NULL, &info, &err), -ENOENT);
	assert_string_equal(err.file, tpath("nocpuidle/cpuidle"));
	assert_string_equal(err.msg, "no cpuidle directory: kernel without CONFIG_CPU_IDLE or "
				     "booted with cpuidle.off=1");
}

static void test_offline_and_odd_names(void **state)
{
	struct il_sysfs_info info;
	struct il_cpulist l;
	struct il_err err;
	(void)state;

	make_tree("t");
	/* cpu10 sorts after cpu2; cpu3 is offline (no cpuidle/); odd names ignored */
	puts_("t/cpu2/cpuidle/state0/name", "POLL\n");
	puts_("t/cpu10/cpuidle/state0/name", "POLL\n");
	puts_("t/cpu10/cpuidle/state1/name", "C1\n");
	puts_("t/cpu10/cpuidle/state10/name", "C10\n");
	puts_("t/cpu10/cpuidle/state01/name", "bogus\n");
	puts_("t/cpu3/online", "0\n");
	puts_("t/cpu01/cpuidle/state0/name", "bogus\n");
	puts_("t/cpufreq/policy0/x", "1\n");
	puts_("t/cpu-1/cpuidle/state0/name", "bogus\n");
	assert_int_equal(il_sysfs_read(tpath("t"), NULL, &info, &err), 0);
	assert_int_equal(info.ncpus, 3);
	assert_int_equal(info.cpus[0].cpu, 0);
	assert_int_equal(info.cpus[1].cpu, 2);
	assert_int_equal(info.cpus[2].cpu, 10);
	assert_int_equal(info.cpus[2].nstates, 3);
	assert_int_equal(info.cpus[2].states[1].index, 1);
	assert_int_equal(info.cpus[2].states[2].index, 10);
	assert_string_equal(info.cpus[2].states[2].name.s, "C10");
	/* cpu2 and cpu10 lack the required files: each is noted as missing */
	assert_true(has_note(&info, tpath("t/cpu2/cpuidle/state0/latency"), "missing"));
	assert_true(has_note(&info, tpath("t/cpu10/cpuidle/state10/usage"), "missing"));
	assert_false(has_note(&info, tpath("t/cpu10/cpuidle/state10/above"), "missing"));
	assert_int_equal(info.cpus[1].states[0].val[IL_SF_USAGE].status, IL_SYSFS_MISSING);
	/* current_governor_ro and available_governors absent: n/a, no note */
	assert_false(info.governor_ro);
	assert_string_equal(info.governor.s, "menu");
	assert_int_equal(info.governors.status, IL_SYSFS_MISSING);
	il_sysfs_info_free(&info);

	assert_int_equal(il_cpulist_parse("3", &l, &err), 0);
	assert_int_equal(il_sysfs_read(tpath("t"), &l, &info, &err), -ENOENT);
	assert_string_equal(err.file, tpath("t/cpu3/cpuidle"));
	il_cpulist_free(&l);
}

static void test_garbage_counters(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	make_tree("g");
	puts_("g/cpu0/cpuidle/state0/usage", "xyz\n");
	puts_("g/cpu0/cpuidle/state0/time", "99999999999999999999\n");
	puts_("g/cpu0/cpuidle/state0/above", "");
	puts_("g/cpu0/cpuidle/state0/below", "-3\n");
	put("g/cpu0/cpuidle/state0/name", "PO\0LL\n", 6);
	puts_("g/cpu0/cpuidle/state0/rejected", "12 34 it's\x01\n");
	remove(tpath("g/cpu0/cpuidle/state0/latency"));
	remove(tpath("g/cpu0/cpuidle/state0/disable"));
	mkdirs(tpath("g/cpu0/cpuidle/state0/disable")); /* read() fails: EISDIR */
	remove(tpath("g/cpuidle/current_driver"));

	assert_int_equal(il_sysfs_read(tpath("g"), NULL, &info, &err), 0);
	const struct il_sysfs_state *s = st_of(&info, 0, 0);
	assert_int_equal(s->val[IL_SF_USAGE].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_TIME].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_ABOVE].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_BELOW].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_REJECTED].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_DISABLE].status, IL_SYSFS_BAD);
	assert_int_equal(s->val[IL_SF_LATENCY].status, IL_SYSFS_MISSING);
	assert_int_equal(s->name.status, IL_SYSFS_BAD);
	assert_string_equal(s->name.s, "");
	/* the good ones are untouched */
	assert_val(&s->val[IL_SF_RESIDENCY], 0);
	assert_val(&s->val[IL_SF_POWER], 4294967295ULL);
	assert_string_equal(s->desc.s, "CPUIDLE CORE POLL IDLE");
	assert_int_equal(info.driver.status, IL_SYSFS_MISSING);

	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/usage"), "not a number: 'xyz'"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/time"),
			     "out of range: '99999999999999999999'"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/above"), "not a number: ''"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/below"), "not a number: '-3'"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/rejected"),
			     "not a number: '12 34 it\\x27s\\x01'"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/name"),
			     "not text: 'PO\\x00LL'"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/latency"), "missing"));
	assert_true(has_note(&info, tpath("g/cpu0/cpuidle/state0/disable"),
			     "cannot read: Is a directory"));
	assert_true(has_note(&info, tpath("g/cpuidle/current_driver"), "missing"));
	assert_int_equal(info.notes.n, 9);
	il_sysfs_info_free(&info);
}

static void test_long_and_huge_files(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	char big[IL_SYSFS_FILE_MAX + 10];
	(void)state;

	make_tree("h");
	memset(big, '7', sizeof(big));
	put("h/cpu0/cpuidle/state0/usage", big, sizeof(big));
	puts_("h/cpu0/cpuidle/state0/time",
	      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");
	assert_int_equal(il_sysfs_read(tpath("h"), NULL, &info, &err), 0);
	assert_true(has_note(&info, tpath("h/cpu0/cpuidle/state0/usage"),
			     "more than 4096 bytes: not a sysfs attribute"));
	/* quotes are cut at 40 bytes */
	assert_true(has_note(&info, tpath("h/cpu0/cpuidle/state0/time"),
			     "not a number: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'"));
	assert_int_equal(info.notes.n, 2);
	il_sysfs_info_free(&info);
}

/*
 * A FIFO in a (hand-made or hostile) saved tree must not hang the reader:
 * it is not a regular file, so not a sysfs attribute, and is not opened.
 */
static void test_fifo_does_not_block(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	make_tree("f");
	remove(tpath("f/cpu0/cpuidle/state0/usage"));
	assert_int_equal(mkfifo(tpath("f/cpu0/cpuidle/state0/usage"), 0644), 0);
	assert_int_equal(il_sysfs_read(tpath("f"), NULL, &info, &err), 0);
	assert_int_equal(info.cpus[0].states[0].val[IL_SF_USAGE].status, IL_SYSFS_BAD);
	assert_true(has_note(&info, tpath("f/cpu0/cpuidle/state0/usage"),
			     "not a regular file: not a sysfs attribute"));
	assert_int_equal(info.notes.n, 1);
	assert_val(&info.cpus[0].states[0].val[IL_SF_TIME], 1234);
	assert_val(&info.cpus[0].states[0].val[IL_SF_BELOW], 5);
	il_sysfs_info_free(&info);
}

/* cpu<N>/cpuidle/driver/name (multiple-drivers kernels) is read and saved. */
static void test_per_cpu_driver(void **state)
{
	struct il_sysfs_info a, b;
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	(void)state;

	make_tree("md");
	puts_("md/cpu0/cpuidle/driver/name", "psci_idle\n");
	assert_int_equal(il_sysfs_read(tpath("md"), NULL, &a, &err), 0);
	assert_int_equal(a.cpus[0].driver.status, IL_SYSFS_OK);
	assert_string_equal(a.cpus[0].driver.s, "psci_idle");
	assert_int_equal(il_sysfs_save(tpath("md"), NULL, tpath("md2"), NULL, &notes, NULL, &err), 0);
	assert_int_equal(il_sysfs_read(tpath("md2"), NULL, &b, &err), 0);
	assert_string_equal(b.cpus[0].driver.s, "psci_idle");
	il_sysfs_info_free(&a);
	il_sysfs_info_free(&b);

	/* without it (the usual single-driver kernel): missing, not noted */
	assert_int_equal(il_sysfs_read(FIXTURES "/kvm-haltpoll", NULL, &a, &err), 0);
	assert_int_equal(a.cpus[0].driver.status, IL_SYSFS_MISSING);
	assert_int_equal(a.notes.n, 0);
	il_sysfs_info_free(&a);
}

/* ------------------------------------------------------------------ */
/* save */

static void assert_same_str(const struct il_sysfs_str *a, const struct il_sysfs_str *b)
{
	assert_int_equal(a->status, b->status);
	assert_string_equal(a->s, b->s);
}

static void assert_same_info(const struct il_sysfs_info *a, const struct il_sysfs_info *b)
{
	assert_same_str(&a->driver, &b->driver);
	assert_same_str(&a->governor, &b->governor);
	assert_same_str(&a->governors, &b->governors);
	assert_int_equal(a->governor_ro, b->governor_ro);
	assert_int_equal(a->ncpus, b->ncpus);
	assert_int_equal(a->notes.n, b->notes.n);
	for (int c = 0; c < a->ncpus; c++) {
		assert_int_equal(a->cpus[c].cpu, b->cpus[c].cpu);
		assert_same_str(&a->cpus[c].driver, &b->cpus[c].driver);
		assert_int_equal(a->cpus[c].nstates, b->cpus[c].nstates);
		for (int i = 0; i < a->cpus[c].nstates; i++) {
			const struct il_sysfs_state *x = &a->cpus[c].states[i];
			const struct il_sysfs_state *y = &b->cpus[c].states[i];
			assert_int_equal(x->index, y->index);
			assert_same_str(&x->name, &y->name);
			assert_same_str(&x->desc, &y->desc);
			assert_same_str(&x->default_status, &y->default_status);
			for (int f = 0; f < IL_SF_COUNT; f++) {
				assert_int_equal(x->val[f].status, y->val[f].status);
				assert_true(x->val[f].v == y->val[f].v);
			}
		}
	}
}

static bool no_tmp_left(const char *dir, const char *base)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool ok = true;
	size_t bl = strlen(base);

	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, base, bl) && strstr(de->d_name + bl, ".tmp."))
			ok = false;
	closedir(d);
	return ok;
}

static void roundtrip(const char *fixture, int want_files)
{
	struct il_sysfs_info a, b;
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	char src[512];
	int nfiles = -1;

	snprintf(src, sizeof(src), FIXTURES "/%s", fixture);
	assert_int_equal(il_sysfs_save(src, NULL, tpath(fixture), NULL, &notes, &nfiles, &err), 0);
	assert_int_equal(notes.n, 0);
	assert_int_equal(nfiles, want_files);
	assert_int_equal(il_sysfs_read(src, NULL, &a, &err), 0);
	assert_int_equal(il_sysfs_read(tpath(fixture), NULL, &b, &err), 0);
	assert_same_info(&a, &b);
	il_sysfs_info_free(&a);
	il_sysfs_info_free(&b);
	assert_true(no_tmp_left(tmpdir, fixture));
	/* the README of the fixture is not a cpuidle file */
	snprintf(src, sizeof(src), "%s/README.md", fixture);
	assert_int_equal(access(tpath(src), F_OK), -1);
}

static void test_save_roundtrip(void **state)
{
	(void)state;
	/* 4 global + 2 CPUs x 2 states x 12 files */
	roundtrip("kvm-haltpoll", 4 + 2 * 2 * 12);
	/* 4 global + 2 CPUs x (3 states x 12 files + 2 s2idle files of C2) */
	roundtrip("amd-zen3-acpi_idle", 4 + 2 * (3 * 12 + 2));
	/* 4 global + 4 CPUs x (4 x 12 + 3 x 2 s2idle) */
	roundtrip("intel-icx-intel_idle", 4 + 4 * (4 * 12 + 3 * 2));
	/* 2 global + 2 CPUs x 2 states x 8 files (pre-v5.0 set) */
	roundtrip("power-pseries", 2 + 2 * 2 * 8);
}

static void test_save_keeps_bytes_and_selection(void **state)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_sysfs_info info;
	struct il_cpulist l;
	struct il_err err;
	char buf[64];
	FILE *f;
	size_t n;
	(void)state;

	make_tree("src");
	puts_("src/cpu0/cpuidle/state0/usage", "xyz\n"); /* garbage is copied as is */
	puts_("src/cpu1/cpuidle/state0/name", "POLL\n");
	mkdirs(tpath("src/cpu0/cpuidle/state0/rejected.d"));
	assert_int_equal(il_cpulist_parse("0", &l, &err), 0);
	assert_int_equal(il_sysfs_save(tpath("src"), &l, tpath("dst"), NULL, &notes, NULL, &err), 0);
	il_cpulist_free(&l);
	assert_int_equal(notes.n, 0);
	f = fopen(tpath("dst/cpu0/cpuidle/state0/usage"), "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(n, 4);
	assert_memory_equal(buf, "xyz\n", 4);
	assert_int_equal(access(tpath("dst/cpu1"), F_OK), -1);
	assert_int_equal(access(tpath("dst/cpu0/cpuidle/state0/rejected.d"), F_OK), -1);
	assert_int_equal(access(tpath("dst/cpu0/cpuidle/state0/s2idle"), F_OK), -1);
	assert_int_equal(il_sysfs_read(tpath("dst"), NULL, &info, &err), 0);
	assert_int_equal(info.ncpus, 1);
	assert_true(has_note(&info, tpath("dst/cpu0/cpuidle/state0/usage"), "not a number: 'xyz'"));
	il_sysfs_info_free(&info);

	/* an unreadable source file is left out of the copy and noted */
	make_tree("src2");
	remove(tpath("src2/cpu0/cpuidle/state0/time"));
	mkdirs(tpath("src2/cpu0/cpuidle/state0/time"));
	assert_int_equal(il_sysfs_save(tpath("src2"), NULL, tpath("dst2"), NULL, &notes, NULL, &err), 0);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.items[0].file, tpath("src2/cpu0/cpuidle/state0/time"));
	assert_string_equal(notes.items[0].msg, "cannot read: Is a directory");
	assert_int_equal(access(tpath("dst2/cpu0/cpuidle/state0/time"), F_OK), -1);
	assert_int_equal(access(tpath("dst2/cpu0/cpuidle/state0/usage"), F_OK), 0);
	il_sysfs_notes_free(&notes);
}

static void test_save_refuses(void **state)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_cpulist l;
	struct il_err err;
	(void)state;

	/* existing destination: refused, untouched, no temporary left */
	mkdirs(tpath("exists"));
	puts_("exists/keep", "1\n");
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("exists"), NULL, &notes,
				       NULL, &err), -EEXIST);
	assert_string_equal(err.file, tpath("exists"));
	assert_string_equal(err.msg, "already exists (will not overwrite)");
	assert_int_equal(access(tpath("exists/keep"), F_OK), 0);
	assert_int_equal(access(tpath("exists/cpuidle"), F_OK), -1);
	assert_true(no_tmp_left(tmpdir, "exists"));

	/* missing source tree: nothing created */
	assert_int_equal(il_sysfs_save(tpath("nosuch"), NULL, tpath("out1"), NULL, &notes, NULL, &err),
			 -ENOENT);
	assert_int_equal(access(tpath("out1"), F_OK), -1);
	assert_true(no_tmp_left(tmpdir, "out1"));

	/* source without cpuidle */
	mkdirs(tpath("bare/cpu0"));
	assert_int_equal(il_sysfs_save(tpath("bare"), NULL, tpath("out2"), NULL, &notes, NULL, &err),
			 -ENOENT);
	assert_int_equal(access(tpath("out2"), F_OK), -1);

	/* a CPU not in the tree */
	assert_int_equal(il_cpulist_parse("5", &l, &err), 0);
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", &l, tpath("out3"), NULL, &notes, NULL,
				       &err), -ENOENT);
	il_cpulist_free(&l);
	assert_int_equal(access(tpath("out3"), F_OK), -1);
	assert_true(no_tmp_left(tmpdir, "out3"));

	/* destination's parent missing: the temporary cannot be made */
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("no/such/out"),
				       NULL, &notes, NULL, &err), -ENOENT);
	assert_int_equal(access(tpath("no"), F_OK), -1);

	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, "", NULL, &notes, NULL, &err),
			 -EINVAL);

	/* a trailing slash names the same directory; the temporary is its sibling */
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("slash//"), NULL, &notes,
				       NULL, &err), 0);
	assert_int_equal(access(tpath("slash/cpuidle/current_driver"), F_OK), 0);
	assert_true(no_tmp_left(tmpdir, "slash"));
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("slash/"), NULL, &notes,
				       NULL, &err), -EEXIST);
	assert_int_equal(notes.n, 0);
}

/*
 * A write that fails half-way (here: the file-size limit, which hits the
 * first file written) leaves neither dest nor the temporary behind, and
 * the error names the file in dest and the reason.
 */
static void test_save_cleans_up_on_failure(void **state)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	struct rlimit old, lim;
	char want[1200];
	int r;
	(void)state;

	mkdirs(tpath("lim"));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4; /* "haltpoll\n" does not fit */
	/* the library ignores SIGXFSZ itself: the write must fail, not kill */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	r = il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("lim/out"), NULL, &notes, NULL, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(r, -EFBIG);
	snprintf(want, sizeof(want), "%s", tpath("lim/out/cpuidle/current_driver"));
	assert_string_equal(err.file, want);
	assert_string_equal(err.msg, "cannot write: File too large");
	assert_int_equal(access(tpath("lim/out"), F_OK), -1);
	{
		DIR *d = opendir(tpath("lim"));
		struct dirent *de;
		int n = 0;
		assert_non_null(d);
		while ((de = readdir(d)))
			n += de->d_name[0] != '.';
		closedir(d);
		assert_int_equal(n, 0);
	}
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static bool info_has_text(const struct il_sysfs_info *info, const char *text)
{
	if (strstr(info->driver.s, text) || strstr(info->governor.s, text) ||
	    strstr(info->governors.s, text))
		return true;
	for (int c = 0; c < info->ncpus; c++)
		for (int i = 0; i < info->cpus[c].nstates; i++) {
			const struct il_sysfs_state *st = &info->cpus[c].states[i];
			if (strstr(st->name.s, text) || strstr(st->desc.s, text) ||
			    strstr(st->default_status.s, text))
				return true;
		}
	return false;
}

#define LINK_MSG "symbolic link: not followed (sysfs has none here)"

/*
 * D4: a hostile tree whose files and directories are links to the outside
 * (or inside) shows and saves none of it: every link below the root is
 * noted and left out, nothing of the outside is read.
 */
static void test_links_not_followed(void **state)
{
	struct il_sysfs_info info;
	struct il_sysfs_notes notes = { 0 };
	struct il_cpulist l;
	struct il_err err;
	char target[1100];
	(void)state;

	puts_("outside/secret", "s3cret\n");
	chmod(tpath("outside/secret"), 0600);
	make_tree("outside/t");
	puts_("outside/t/cpu0/cpuidle/state0/s2idle/usage", "s3cret\n");
	make_tree("l");
	/* a file linked by absolute path, one by a relative path out of the root */
	remove(tpath("l/cpu0/cpuidle/state0/desc"));
	assert_int_equal(symlink(tpath("outside/secret"), tpath("l/cpu0/cpuidle/state0/desc")), 0);
	remove(tpath("l/cpu0/cpuidle/state0/name"));
	assert_int_equal(symlink("../../../../outside/secret", tpath("l/cpu0/cpuidle/state0/name")),
			 0);
	/* a link that stays inside the root is not followed either */
	remove(tpath("l/cpu0/cpuidle/state0/default_status"));
	assert_int_equal(symlink("usage", tpath("l/cpu0/cpuidle/state0/default_status")), 0);
	/* directories: a state, an s2idle/, a driver/, a whole CPU */
	snprintf(target, sizeof(target), "%s", tpath("outside/t/cpu0/cpuidle/state0"));
	assert_int_equal(symlink(target, tpath("l/cpu0/cpuidle/state1")), 0);
	snprintf(target, sizeof(target), "%s", tpath("outside/t/cpu0/cpuidle/state0/s2idle"));
	assert_int_equal(symlink(target, tpath("l/cpu0/cpuidle/state0/s2idle")), 0);
	assert_int_equal(symlink(tpath("outside"), tpath("l/cpu0/cpuidle/driver")), 0);
	snprintf(target, sizeof(target), "%s", tpath("outside/t/cpu0"));
	assert_int_equal(symlink(target, tpath("l/cpu1")), 0);
	mkdirs(tpath("l/cpu2"));
	snprintf(target, sizeof(target), "%s", tpath("outside/t/cpu0/cpuidle"));
	assert_int_equal(symlink(target, tpath("l/cpu2/cpuidle")), 0);

	assert_int_equal(il_sysfs_read(tpath("l"), NULL, &info, &err), 0);
	assert_false(info_has_text(&info, "s3cret"));
	assert_int_equal(info.ncpus, 1);
	assert_int_equal(info.cpus[0].nstates, 1);
	{
		const struct il_sysfs_state *s = st_of(&info, 0, 0);
		assert_int_equal(s->desc.status, IL_SYSFS_BAD);
		assert_int_equal(s->name.status, IL_SYSFS_BAD);
		assert_int_equal(s->default_status.status, IL_SYSFS_BAD);
		assert_int_equal(s->val[IL_SF_S2IDLE_USAGE].status, IL_SYSFS_BAD);
		assert_val(&s->val[IL_SF_USAGE], 17);
	}
	assert_int_equal(info.cpus[0].driver.status, IL_SYSFS_BAD);
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/state0/desc"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/state0/name"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/state0/default_status"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/state0/s2idle"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/state1"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu0/cpuidle/driver"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu1"), LINK_MSG));
	assert_true(has_note(&info, tpath("l/cpu2/cpuidle"), LINK_MSG));
	assert_int_equal(info.notes.n, 8);
	il_sysfs_info_free(&info);

	/* named in --cpu, a linked CPU is an error */
	assert_int_equal(il_cpulist_parse("1", &l, &err), 0);
	assert_int_equal(il_sysfs_read(tpath("l"), &l, &info, &err), -ELOOP);
	assert_string_equal(err.file, tpath("l/cpu1"));
	assert_string_equal(err.msg, LINK_MSG);
	il_cpulist_free(&l);

	/* --save copies none of it */
	assert_int_equal(il_sysfs_save(tpath("l"), NULL, tpath("lsave"), NULL, &notes, NULL, &err), 0);
	assert_int_equal(notes.n, 8);
	il_sysfs_notes_free(&notes);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/state0/desc"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/state0/name"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/state0/s2idle"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/state1"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/driver"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu1"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu2"), F_OK), -1);
	assert_int_equal(access(tpath("lsave/cpu0/cpuidle/state0/usage"), F_OK), 0);

	/* a linked cpuidle/ directory: no tree at all */
	make_tree("lc");
	assert_int_equal(rename(tpath("lc/cpuidle"), tpath("lc-cpuidle")), 0);
	assert_int_equal(symlink("../lc-cpuidle", tpath("lc/cpuidle")), 0);
	assert_int_equal(il_sysfs_read(tpath("lc"), NULL, &info, &err), -ELOOP);
	assert_string_equal(err.file, tpath("lc/cpuidle"));
	assert_string_equal(err.msg, LINK_MSG);

	/* the root itself may be a link: it is what the user named */
	make_tree("real");
	assert_int_equal(symlink("real", tpath("realroot")), 0);
	assert_int_equal(il_sysfs_read(tpath("realroot"), NULL, &info, &err), 0);
	assert_int_equal(info.notes.n, 0);
	il_sysfs_info_free(&info);
}

/* A hard link (which could bring a file from outside into the tree) is refused. */
static void test_hard_links_refused(void **state)
{
	struct il_sysfs_info info;
	struct il_err err;
	(void)state;

	puts_("secret", "s3cret\n");
	make_tree("hl");
	remove(tpath("hl/cpu0/cpuidle/state0/desc"));
	assert_int_equal(link(tpath("secret"), tpath("hl/cpu0/cpuidle/state0/desc")), 0);
	assert_int_equal(il_sysfs_read(tpath("hl"), NULL, &info, &err), 0);
	assert_false(info_has_text(&info, "s3cret"));
	assert_true(has_note(&info, tpath("hl/cpu0/cpuidle/state0/desc"),
			     "has 2 hard links: not a sysfs attribute"));
	assert_int_equal(info.notes.n, 1);
	il_sysfs_info_free(&info);
}

/*
 * --save writes what the kernel would show: the kernel's modes (not the
 * source's), no file holding a NUL byte, nothing but the known names.
 */
static void test_save_kernel_rules(void **state)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	mode_t old = umask(022);
	(void)state;

	make_tree("m");
	puts_("m/cpuidle/available_governors", "menu teo\n");
	puts_("m/cpuidle/current_governor_ro", "menu\n");
	puts_("m/cpu0/cpuidle/state0/s2idle/usage", "0\n");
	puts_("m/cpu0/cpuidle/driver/name", "psci_idle\n");
	puts_("m/cpu0/cpuidle/state0/extra", "not a cpuidle file\n");
	chmod(tpath("m/cpu0/cpuidle/state0/usage"), 0600);
	chmod(tpath("m/cpu0/cpuidle/state0/time"), 04777);
	chmod(tpath("m/cpu0/cpuidle/state0/disable"), 0400);
	chmod(tpath("m/cpuidle/current_driver"), 0666);
	chmod(tpath("m/cpu0/cpuidle"), 0700);
	put("m/cpu0/cpuidle/state0/desc", "a\0b\n", 4);

	assert_int_equal(il_sysfs_save(tpath("m"), NULL, tpath("msave"), NULL, &notes, NULL, &err), 0);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.items[0].file, tpath("m/cpu0/cpuidle/state0/desc"));
	assert_string_equal(notes.items[0].msg,
			    "holds a NUL byte: not sysfs text, left out of the copy");
	il_sysfs_notes_free(&notes);
	assert_int_equal(access(tpath("msave/cpu0/cpuidle/state0/desc"), F_OK), -1);
	assert_int_equal(access(tpath("msave/cpu0/cpuidle/state0/extra"), F_OK), -1);

	assert_int_equal(mode_of(tpath("msave")), 0755);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle")), 0755);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/s2idle")), 0755);
	assert_int_equal(mode_of(tpath("msave/cpuidle/current_driver")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpuidle/current_governor")), 0644);
	assert_int_equal(mode_of(tpath("msave/cpuidle/current_governor_ro")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpuidle/available_governors")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/usage")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/time")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/name")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/disable")), 0644);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/state0/s2idle/usage")), 0444);
	assert_int_equal(mode_of(tpath("msave/cpu0/cpuidle/driver/name")), 0444);

	/* the umask still applies */
	umask(077);
	assert_int_equal(il_sysfs_save(tpath("m"), NULL, tpath("msave2"), NULL, &notes, NULL, &err), 0);
	il_sysfs_notes_free(&notes);
	assert_int_equal(mode_of(tpath("msave2")), 0700);
	assert_int_equal(mode_of(tpath("msave2/cpuidle/current_governor")), 0600);
	assert_int_equal(mode_of(tpath("msave2/cpuidle/current_driver")), 0400);
	umask(old);
}

/* A planted DEST.tmp.PID (the old predictable name) neither blocks nor redirects --save. */
static void test_save_ignores_planted_temporary(void **state)
{
	struct il_sysfs_notes notes = { 0 };
	struct il_err err;
	char planted[1100];
	(void)state;

	mkdirs(tpath("victim"));
	snprintf(planted, sizeof(planted), "%s.tmp.%ld", tpath("pl"), (long)getpid());
	assert_int_equal(symlink(tpath("victim"), planted), 0);
	assert_int_equal(il_sysfs_save(FIXTURES "/kvm-haltpoll", NULL, tpath("pl"), NULL, &notes, NULL,
				       &err), 0);
	assert_int_equal(access(tpath("pl/cpuidle/current_driver"), F_OK), 0);
	assert_int_equal(access(tpath("victim/cpuidle"), F_OK), -1);
	remove(planted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64_ok),
		cmocka_unit_test(test_parse_u64_bad),
		cmocka_unit_test(test_parse_str),
		cmocka_unit_test(test_cpulist_ok),
		cmocka_unit_test(test_cpulist_bad),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fixture_kvm),
		cmocka_unit_test(test_fixture_amd),
		cmocka_unit_test(test_fixture_intel),
		cmocka_unit_test(test_fixture_pseries_old_kernel),
		cmocka_unit_test(test_cpu_selection),
		cmocka_unit_test_setup_teardown(test_missing_dirs, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_offline_and_odd_names, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_garbage_counters, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_long_and_huge_files, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_fifo_does_not_block, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_per_cpu_driver, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_roundtrip, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_keeps_bytes_and_selection, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_refuses, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_cleans_up_on_failure, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_links_not_followed, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_hard_links_refused, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_kernel_rules, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_save_ignores_planted_temporary, setup_tmp,
						teardown_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
