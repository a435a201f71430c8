// SPDX-License-Identifier: GPL-2.0-only
/*
 * A platform file (docs/platform-format.md) from a machine or a capture:
 * `idlelab platform capture`. What sysfs and /proc show is written as it
 * is (topology, CPUID facts of /proc/cpuinfo, HZ, the boot options idlelab
 * models, the running driver's state table as an explicit [state.N]
 * table); what they do not show (flags, entry methods) is inferred from
 * the state names and descs the drivers give, and said in comments.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idlelab/drivers.h"
#include "idlelab/host.h"
#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "tree.h"
#include "util.h"

struct out {
	char *s;
	size_t len, cap;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* a first buffer before any offset is taken: NULL + 0 is undefined */
	if (!o->s) {
		o->len = 0;
		o->cap = 256;
		o->s = il_xrealloc(NULL, o->cap);
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		o->cap = o->cap * 2 + (size_t)(n > 0 ? n : 0) + 256;
		o->s = il_xrealloc(o->s, o->cap);
	}
}

/* Text for a value: printable ASCII, ';' and '#' (comments) and '=' replaced, at most max. */
static void clean(char *dst, size_t size, const char *src, size_t max)
{
	size_t o = 0;

	if (max >= size)
		max = size - 1;
	for (; *src && o < max; src++) {
		unsigned char c = (unsigned char)*src;
		dst[o++] = c < 0x20 || c >= 0x7f || c == ';' || c == '#' ? '?' : (char)c;
	}
	while (o && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
	while (dst[0] == ' ')
		memmove(dst, dst + 1, strlen(dst));
}

/* Count the CPUs of a kernel cpulist ("0-3,8"); 0 if malformed. */
static int list_count(const char *s)
{
	struct il_cpulist l;
	struct il_err e;
	int n;

	if (!s || il_cpulist_parse(s, &l, &e))
		return 0;
	n = l.n;
	il_cpulist_free(&l);
	return n;
}

static const char *vendor_word(enum il_vendor v)
{
	switch (v) {
	case IL_VENDOR_INTEL: return "intel";
	case IL_VENDOR_AMD: return "amd";
	case IL_VENDOR_HYGON: return "hygon";
	case IL_VENDOR_IBM: return "ibm";
	default: return "other";
	}
}

/* A hex number after prefix in desc ("MWAIT 0x20" -> 0x20); -1 if none. */
static long hex_after(const char *desc, const char *prefix)
{
	const char *p = strstr(desc, prefix);
	char *end;
	long v;

	if (!p)
		return -1;
	p += strlen(prefix);
	v = strtol(p, &end, 16);
	return end == p ? -1 : v;
}

static void topology(struct out *o, const struct il_host *h)
{
	int n = list_count(h->online), pk[64], npk = 0, threads = 0;
	bool ok = true;

	if (!n)
		n = h->ncpus;
	for (int i = 0; i < h->ncpus; i++) {
		int p = h->cpus[i].package;
		bool seen = false;
		if (p < 0) {
			ok = false;
			break;
		}
		for (int k = 0; k < npk; k++)
			seen |= pk[k] == p;
		if (!seen && npk < 64)
			pk[npk++] = p;
	}
	if (h->ncpus && h->cpus[0].thread_siblings)
		threads = list_count(h->cpus[0].thread_siblings);
	/* a capture keeps all CPUs' topology: the packages are the ids seen */
	if (ok && h->ncpus < n && h->has_cpuinfo && h->cpuinfo.npackages > npk)
		npk = h->cpuinfo.npackages;
	if (!ok || !npk) {
		npk = h->has_cpuinfo && h->cpuinfo.npackages ? h->cpuinfo.npackages : 1;
	}
	if (threads < 1 || threads > 8) {
		threads = h->has_cpuinfo && h->cpuinfo.cores_per_package && h->cpuinfo.siblings ?
			  h->cpuinfo.siblings / h->cpuinfo.cores_per_package : 1;
		if (threads < 1 || threads > 8)
			threads = 1;
	}
	put(o, "\n[topology]\n");
	if (n % (npk * threads) || n / (npk * threads) > 1024 || npk > 64 || n > IL_CPUS_MAX) {
		put(o, "; %d online CPUs do not split into %d package(s) x %d thread(s) per core:\n"
		       "; written as one package of single-thread cores\n", n, npk, threads);
		npk = 1;
		threads = 1;
		if (n > 1024)
			n = 1024;
	}
	put(o, "; from %s/cpu<N>/topology and online (%d CPUs)\n", "sys/devices/system/cpu", n);
	put(o, "packages = %d\ncores_per_package = %d\nthreads_per_core = %d\n", npk,
	    n / (npk * threads), threads);
}

/*
 * CPUID leaf 5 (MONITOR/MWAIT: intel_idle's sub-state check, the x86
 * default idle's choice of MWAIT) is not in /proc/cpuinfo: the live x86
 * machine's by the instruction, a tree's if its capture recorded it.
 */
static void cpuid5(struct out *o, const struct il_host *h)
{
	unsigned int ecx, edx;
	int from = il_host_cpuid5(h, &ecx, &edx);

	if (from) {
		put(o, "; CPUID leaf 5 %s\ncpuid5_ecx = 0x%x\ncpuid5_edx = 0x%x\n",
		    from == 1 ? "of the CPU that ran the capture" :
				"as the tree's idlelab-meta.txt recorded it", ecx, edx);
		return;
	}
	put(o, "; CPUID leaf 5 (cpuid5_ecx, cpuid5_edx) is not in /proc/cpuinfo%s: left at 0\n",
	    h->live ? "" : " and the tree did not record it");
}

/*
 * The ACPI CPPC capabilities AMD's frequency invariance and acpi-cpufreq
 * read: CPU 0's highest_perf and nominal_perf (they imply acpi_cpc = yes),
 * its nominal_freq where the firmware gives one (CPPC v3), and whether
 * highest_perf differs between CPUs (preferred cores, as the kernel detects
 * them from 6.12 on). Without acpi_cppc/ the file says nothing of _CPC.
 */
static void cppc(struct out *o, const struct il_host *h)
{
	const struct il_host_cpu *c0 = NULL;
	bool all = true, differ = false;

	for (int i = 0; i < h->ncpus; i++)
		if (h->cpus[i].cpu == 0)
			c0 = &h->cpus[i];
	if (!c0 || c0->cppc_highest < 0 || c0->cppc_nominal < 0)
		return;
	for (int i = 0; i < h->ncpus; i++) {
		if (h->cpus[i].cppc_highest < 0)
			all = false;
		else if (h->cpus[i].cppc_highest != c0->cppc_highest)
			differ = true;
	}
	put(o, "; cpu0/acpi_cppc\ncppc_highest_perf = %lld\ncppc_nominal_perf = %lld\n",
	    (long long)c0->cppc_highest, (long long)c0->cppc_nominal);
	if (c0->cppc_nominal_freq > 0)
		put(o, "cppc_nominal_freq = %lld\n", (long long)c0->cppc_nominal_freq);
	if (differ || all)
		put(o, "; highest_perf %s on every CPU\ncppc_preferred_cores = %s\n",
		    differ ? "differs" : "is the same", differ ? "yes" : "no");
	else
		put(o, "; cppc_preferred_cores left out: not every CPU gives its highest_perf\n");
}

static void cpu_section(struct out *o, const struct il_host *h)
{
	const struct il_cpuinfo *ci = &h->cpuinfo;
	char name[64];

	put(o, "\n[cpu]\n");
	if (!h->has_cpuinfo) {
		put(o, "; no /proc/cpuinfo: the defaults\n");
		return;
	}
	put(o, "; from /proc/cpuinfo (the first processor)\n");
	put(o, "arch = %s\n", ci->arch == IL_ARCH_POWERPC ? "powerpc" :
			      ci->arch == IL_ARCH_ARM64 ? "arm64" : "x86");
	put(o, "vendor = %s\n", vendor_word(ci->vendor));
	if (ci->family >= 0 && ci->family <= 0xfff)
		put(o, "family = %d\n", ci->family);
	if (ci->model >= 0 && ci->model <= 0xfff && ci->arch == IL_ARCH_X86)
		put(o, "model = %d\n", ci->model);
	if (ci->stepping >= 0 && ci->stepping <= 0xff)
		put(o, "stepping = %d\n", ci->stepping);
	clean(name, sizeof(name), ci->model_name, 63);
	if (name[0])
		put(o, "model_name = %s\n", name);
	if (ci->arch == IL_ARCH_X86 && ci->has_flags) {
		unsigned int hints;
		int kvm = ci->hypervisor ? il_host_kvm(h, NULL, &hints) : 0;

		if (kvm > 0)
			put(o, "; KVM's CPUID leaves (0x40000000 + k * 0x100: \"KVMKVMKVM\")%s\n"
			       "hypervisor = kvm\n"
			       "; KVM_HINTS_REALTIME: bit 0 of the hints (EDX of the leaf after), 0x%x\n"
			       "kvm_hints_realtime = %s\n",
			    kvm == 2 ? ", as the capture recorded them" : "", hints,
			    hints & 1 ? "yes" : "no");
		else if (ci->hypervisor && il_host_hypervisor(h))
			put(o, "; the clocksource (or the haltpoll driver) tells the hypervisor\n"
			       "hypervisor = %s\n", il_host_hypervisor(h));
		else
			put(o, "hypervisor = %s\n", ci->hypervisor ? "yes" : "no");
		put(o, "mwait = %s\n", ci->monitor ? "yes" : "no");
		put(o, "arat = %s\n", ci->arat ? "yes" : "no");
		put(o, "nonstop_tsc = %s\n", ci->nonstop_tsc ? "yes" : "no");
		cpuid5(o, h);
		cppc(o, h);
	}
	if (ci->arch == IL_ARCH_POWERPC) {
		if (ci->timebase)
			put(o, "tb_mhz = %.6g\n", (double)ci->timebase / 1e6);
		if (h->lpar_shared >= 0)
			put(o, "; proc/ppc64/lparcfg shared_processor_mode=%d\nshared_processor = %s\n",
			    h->lpar_shared, h->lpar_shared ? "yes" : "no");
		if (!strcmp(ci->platform, "pSeries"))
			put(o, "hypervisor = powervm\n");
	}
	{
		double mhz = 0;
		for (int i = 0; i < h->npolicies && !mhz; i++)
			if (h->policies[i].base_khz)
				mhz = (double)h->policies[i].base_khz / 1000.0;
		if (mhz)
			put(o, "; cpufreq base_frequency\nbase_mhz = %.0f\n", mhz);
		else if (ci->mhz > 0)
			put(o, "; cpu MHz at the capture (the current frequency, not the nominal one)\n"
			       "base_mhz = %.0f\n", ci->mhz);
	}
}

/* The boot options of the command line idlelab models, and the haltpoll parameters. */
static void options(struct out *o, const struct il_host *h)
{
	const char *p = h->cmdline;
	int n = 0;

	if (p)
		while (*p && n < IL_PLAT_OPTIONS_MAX) {
			char word[200], key[64];
			size_t wl;
			const char *eq;

			while (*p == ' ' || *p == '\t')
				p++;
			wl = strcspn(p, " \t");
			if (!wl || (wl == 2 && p[0] == '-' && p[1] == '-'))
				break;
			if (wl >= sizeof(word)) {
				p += wl;
				continue;
			}
			memcpy(word, p, wl);
			word[wl] = '\0';
			p += wl;
			eq = strchr(word, '=');
			snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - word) : (int)wl, word);
			if (!il_boot_option_find(key) || !strcmp(key, "firmware.cst_claim") ||
			    !strncmp(key, "haltpoll.", 9) || strlen(word) > 95 ||
			    (eq && strlen(eq + 1) >= 48))
				continue;
			if (!n++)
				put(o, "; the boot options of /proc/cmdline idlelab models\n");
			put(o, "option = %s\n", word);
		}
	/* the governor's parameters as they run now (they may differ from the command line) */
	bool said = false;
	for (int i = 0; i < h->nparams && n < IL_PLAT_OPTIONS_MAX; i++) {
		char key[96], val[48];
		if (strcmp(h->params[i].module, "haltpoll"))
			continue;
		snprintf(key, sizeof(key), "haltpoll.%s", h->params[i].name);
		clean(val, sizeof(val), h->params[i].value, 40);
		if (!il_boot_option_find(key) || !val[0] || strchr(val, ' '))
			continue;
		if (!said)
			put(o, "; /sys/module/haltpoll/parameters at the capture\n");
		said = true;
		n++;
		put(o, "option = %s=%s\n", key, val);
	}
}

static void kernel_section(struct out *o, const struct il_host *h)
{
	char rel[16];
	struct il_err e;

	put(o, "\n[kernel]\n");
	if (h->hz == 100 || h->hz == 250 || h->hz == 300 || h->hz == 1000)
		put(o, "; CONFIG_HZ from %s\nhz = %u\n", h->config_file, h->hz);
	else if (h->hz)
		put(o, "; CONFIG_HZ=%u from %s is not one idlelab models: 1000\n", h->hz,
		    h->config_file);
	else
		put(o, "; no readable kernel configuration (/proc/config.gz, /boot/config-*): "
		       "HZ left at 1000\n");
	if (il_host_release_tag(h, rel, sizeof(rel)) && !il_release_check(rel, &e))
		put(o, "; %s\nrelease = %s\n", h->release, rel);
	else if (h->release)
		put(o, "; kernel %.60s is not a release idlelab models (%s..%s): the newest is used\n",
		    h->release, IL_RELEASE_OLDEST, IL_RELEASE_NEWEST);
	options(o, h);
}

/*
 * A state's latency and residency are the table: one not read (missing,
 * unreadable, out of range) would be written as 0, a table of another
 * machine, so the capture is refused naming the file.
 */
static int state_values_read(const struct il_host *h, const struct il_sysfs_cpu *cpu,
			     struct il_err *err)
{
	static const struct { int f; const char *name; } need[] = {
		{ IL_SF_LATENCY, "latency" }, { IL_SF_RESIDENCY, "residency" },
	};

	for (int i = 0; cpu && i < cpu->nstates && i < IL_STATE_MAX; i++)
		for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
			char rel[96], *path;

			if (cpu->states[i].val[need[k].f].status == IL_SYSFS_OK)
				continue;
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s",
				 cpu->cpu, cpu->states[i].index, need[k].name);
			path = il_tree_join(h->root ? h->root : "/", rel);
			il_err_set_at(err, EIO, path ? path : rel, 0,
				      "not read: no state table to write");
			free(path);
			return -EIO;
		}
	return 0;
}

/* The running driver's states (of the first CPU) as an explicit table. */
static void states(struct out *o, const struct il_host *h, const char *driver)
{
	const struct il_sysfs_cpu *cpu = h->sysfs.ncpus ? &h->sysfs.cpus[0] : NULL;
	char name[16], desc[32], gov[16], rel[32];
	struct il_err e;
	bool differ = false;
	/*
	 * pseries' snooze is a CPUIDLE_FLAG_POLLING state from v6.2 only
	 * (5ddcc03a07ae); before it the loop spins the same without the flag.
	 * A release idlelab does not model is taken as the newest, as below.
	 */
	bool snooze_flag = !(il_host_release_tag(h, rel, sizeof(rel)) && !il_release_check(rel, &e) &&
			     !il_pseries_snooze_polling(rel));

	for (int c = 1; cpu && c < h->sysfs.ncpus; c++)
		if (h->sysfs.cpus[c].nstates != cpu->nstates)
			differ = true;
	clean(name, sizeof(name), driver, 15);
	clean(gov, sizeof(gov), h->sysfs.governor.status == IL_SYSFS_OK ? h->sysfs.governor.s : "",
	      15);
	put(o, "\n[driver]\n; from sys/devices/system/cpu/cpuidle: current_driver, current_governor\n");
	put(o, "name = %s\n", name);
	if (gov[0])
		put(o, "governor = %s\n", gov);
	if (!cpu)
		return;
	if (differ)
		put(o, "; the CPUs' tables differ (a multi-driver kernel?): cpu%d's is written\n",
		    cpu->cpu);
	for (int i = 0; i < cpu->nstates && i < IL_STATE_MAX; i++) {
		const struct il_sysfs_state *s = &cpu->states[i];
		const char *n = s->name.status == IL_SYSFS_OK ? s->name.s : "";
		const char *d = s->desc.status == IL_SYSFS_OK ? s->desc.s : "";
		bool spins = il_state_sysfs_polling(i, n, d);
		bool polling = spins && (snooze_flag || strcmp(n, "snooze"));
		bool off = (s->default_status.status == IL_SYSFS_OK &&
			    !strcmp(s->default_status.s, "disabled")) ||
			   (s->val[IL_SF_DISABLE].status == IL_SYSFS_OK && s->val[IL_SF_DISABLE].v);
		long hint = hex_after(d, "MWAIT 0x"), port = hex_after(d, "IOPORT 0x");
		long long power = 0;

		clean(name, sizeof(name), n[0] ? n : "state", 15);
		if (!name[0] || strchr(name, '='))
			snprintf(name, sizeof(name), "state%d", s->index);
		clean(desc, sizeof(desc), d, 31);
		if (s->val[IL_SF_POWER].status == IL_SYSFS_OK && s->val[IL_SF_POWER].v <= 0xffffffffull)
			power = s->val[IL_SF_POWER].v > 0x7fffffffull ?
				(long long)s->val[IL_SF_POWER].v - 0x100000000ll :
				(long long)s->val[IL_SF_POWER].v;
		if (power < -1 || power > 1000000)
			power = 0;
		put(o, "\n[state.%d]\n", i);
		put(o, "name = %s\n", name);
		if (desc[0])
			put(o, "desc = %s\n", desc);
		put(o, "latency = %llu\nresidency = %llu\npower = %lld\n",
		    (unsigned long long)(s->val[IL_SF_LATENCY].status == IL_SYSFS_OK ?
					 s->val[IL_SF_LATENCY].v : 0) & 0xffffffffull,
		    (unsigned long long)(s->val[IL_SF_RESIDENCY].status == IL_SYSFS_OK ?
					 s->val[IL_SF_RESIDENCY].v : 0) & 0xffffffffull,
		    power);
		if (polling || off)
			put(o, "; %s\nflags = %s%s%s\n",
			    off ? "disabled at the capture (disable or default_status)" :
				  "the polling state (its name)",
			    polling ? "POLLING" : "", polling && off ? "|" : "", off ? "OFF" : "");
		if (spins && !polling)
			put(o, "; a spin loop without CPUIDLE_FLAG_POLLING before 6.2 (5ddcc03a07ae)\n");
		if (spins)
			put(o, "entry = poll\n");
		else if (port >= 0)
			put(o, "entry = ioport\nio_port = 0x%lx\n", port);
		else if (hint >= 0)
			put(o, "entry = mwait\nmwait_hint = 0x%lx\n", hint);
		else if (strstr(n, "CEDE") || strstr(n, "Cede"))
			put(o, "entry = cede\n");
		else
			put(o, "; entry not told by the desc: HLT\nentry = hlt\n");
		if (s->val[IL_SF_S2IDLE_USAGE].status != IL_SYSFS_MISSING)
			put(o, "s2idle = yes\n");
	}
}

char *il_host_platform_text(const struct il_host *h, const char *name, struct il_err *err)
{
	struct out o = { 0 };
	const char *driver = !h->sysfs_rc && h->sysfs.driver.status == IL_SYSFS_OK ?
			     h->sysfs.driver.s : "none";
	char ts[64], model[64], rel[72];
	struct timespec now;
	struct tm tm;

	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.", *p)) {
			il_err_set(err, EINVAL, "platform name '%s': letters, digits, '-', '_', '.' only",
				   name);
			return NULL;
		}
	if (!*name || strlen(name) > 63) {
		il_err_set(err, EINVAL, "platform name '%s': 1 to 63 characters", name);
		return NULL;
	}
	if (!h->sysfs_rc && strcmp(driver, "none") &&
	    state_values_read(h, h->sysfs.ncpus ? &h->sysfs.cpus[0] : NULL, err))
		return NULL;
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	clean(model, sizeof(model), h->has_cpuinfo ? h->cpuinfo.model_name : "", 60);
	clean(rel, sizeof(rel), h->release ? h->release : "n/a", 60);

	put(&o, "; %s: written by idlelab platform capture from %s at %s.\n", name,
	    h->live ? "this machine" : "a captured tree", ts);
	put(&o, "; The state table is the running driver's as sysfs shows it; flags and entry\n"
		"; methods are inferred from the names and descs; exit-latency distributions,\n"
		"; power and turbo figures are not in sysfs: the simulator's defaults apply.\n");
	put(&o, "[platform]\nname = %s\n", name);
	put(&o, "description = %.70s, %s, kernel %.40s\n", model[0] ? model : "a machine", driver,
	    rel);
	put(&o, "source = idlelab platform capture of %.100s at %s\n", h->live ? "/" : h->root, ts);
	put(&o, "source = sys/devices/system/cpu/cpuidle: driver %.40s, governor %.40s\n", driver,
	    !h->sysfs_rc && h->sysfs.governor.status == IL_SYSFS_OK ? h->sysfs.governor.s : "n/a");
	if (h->has_cpuinfo)
		put(&o, "source = /proc/cpuinfo: %.60s (%d processors listed)\n",
		    model[0] ? model : "n/a", h->cpuinfo.nprocessors);
	put(&o, "source = /proc/sys/kernel/osrelease: %s\n", rel);
	topology(&o, h);
	cpu_section(&o, h);
	kernel_section(&o, h);
	if (!h->sysfs_rc && strcmp(driver, "none"))
		states(&o, h, driver);
	else
		put(&o, "\n; no cpuidle driver at the capture: the drivers' probes decide (no _CST\n"
			"; given: acpi_idle finds none), else the default idle routine\n[firmware]\n"
			"cst = no\n");
	return o.s;
}
