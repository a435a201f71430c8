// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab doctor: the checks (include/idlelab/doctor.h, docs/doctor.md).
 *
 * Each check reads facts of struct il_host (the cpuidle tree, cpuinfo,
 * the kernel release, the command line, module parameters, PM QoS) and
 * the kernel changes the drivers of src/drivers/ follow:
 *   e400ad8b7e6a (v6.0)  acpi_idle's PM-timer dummy wait only on Intel
 *   aebef63cf7ff (v6.0)  the x86 default idle prefers MWAIT on any vendor
 *   75af76d0a34e (v5.10) intel_idle ignores a _CST it cannot take control of
 *   07d815701274 (v6.19) menu's residency threshold on the polling override
 * Mainline releases are compared; a distribution or stable kernel may
 * carry a backport, which every action says.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/doctor.h"
#include "idlelab/drivers.h"
#include "idlelab/governor.h"
#include "idlelab/release.h"
#include "util.h"

const struct il_doctor_check il_doctor_checks[] = {
	{ "acpi-dummy-wait", IL_SEV_WARNING,
	  "acpi_idle enters a state through an I/O port (SYSTEMIO) on an AMD Zen CPU on a kernel "
	  "before e400ad8b7e6a (6.0): every exit waits for a PM-timer read" },
	{ "amd-hlt-default-idle", IL_SEV_WARNING,
	  "an AMD CPU with MONITOR/MWAIT idles in HLT: no cpuidle driver and a kernel before "
	  "aebef63cf7ff (6.0), whose default idle is HLT on every vendor but Intel" },
	{ "intel-cst-states-off", IL_SEV_WARNING,
	  "intel_idle marks states disabled by default from a _CST it could not take control of, "
	  "on a kernel before 75af76d0a34e (5.10)" },
	{ "intel-idle-cst-table", IL_SEV_INFO,
	  "intel_idle builds its states from _CST for a CPU model whose built-in table a later "
	  "kernel has" },
	{ "intel-idle-table-values", IL_SEV_INFO,
	  "intel_idle's states have latencies or residencies other than its table for the CPU "
	  "model: a fix-up for a firmware setting (package C6 not allowed), intel_idle.table, or "
	  "a kernel that differs from mainline" },
	{ "poll-escape", IL_SEV_WARNING,
	  "menu on pseries without the residency gate of its polling-state override "
	  "(07d815701274, 6.19): short idle periods leave snooze for CEDE" },
	{ "haltpoll-no-poll", IL_SEV_WARNING,
	  "the haltpoll governor with guest_halt_poll_ns = 0: it never polls, every idle period "
	  "halts (a VM exit) and every wake-up needs an IPI" },
	{ "haltpoll-not-registered", IL_SEV_INFO,
	  "a KVM guest without a cpuidle driver: cpuidle-haltpoll did not register, every idle "
	  "period halts (a VM exit) and the haltpoll parameters do nothing" },
	{ "states-disabled", IL_SEV_INFO,
	  "idle states off: by the user (disable), by default (the driver or firmware), by "
	  "max_cstate, states_off, idle= or cpuidle.off" },
	{ "high-miss-rate", IL_SEV_WARNING,
	  "a state whose entries were too deep (above) or too shallow (below) more often than "
	  "the threshold over the window" },
	{ "pm-qos-limit", IL_SEV_WARNING,
	  "a PM QoS CPU latency limit (a /dev/cpu_dma_latency holder, or a CPU's resume "
	  "latency) keeps states out of use" },
	{ "unexpected-driver", IL_SEV_INFO,
	  "a cpuidle driver other than the one the kernel would register for this CPU, or none" },
	{ "unexpected-governor", IL_SEV_INFO,
	  "a cpuidle governor other than the one the kernel chooses at boot" },
};
const int il_doctor_check_count = sizeof(il_doctor_checks) / sizeof(il_doctor_checks[0]);

const char *il_severity_name(enum il_severity s)
{
	return s == IL_SEV_WARNING ? "warning" : "info";
}

void il_doctor_opts_default(struct il_doctor_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->miss_pct = 20;
	o->miss_min_usage = 100;
}

/* ------------------------------------------------------------------ */
/* Building findings */

struct ctx {
	const struct il_host *h;
	const struct il_doctor_opts *o;
	struct il_doctor *d;
	char rel[16];                /* mainline release, "" if unknown */
	const char *driver;          /* "none" without a driver or a cpuidle directory */
	const char *governor;        /* "" if not known */
	bool x86, amd, intel, guest, zen;
};

static struct il_finding *finding(struct ctx *c, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct il_finding *finding(struct ctx *c, const char *id, const char *fmt, ...)
{
	struct il_finding *f;
	va_list ap;

	c->d->findings = il_xrealloc(c->d->findings, sizeof(*f) * (size_t)(c->d->n + 1));
	f = &c->d->findings[c->d->n++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	for (int i = 0; i < il_doctor_check_count; i++)
		if (!strcmp(il_doctor_checks[i].id, id))
			f->severity = il_doctor_checks[i].severity;
	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
	return f;
}

static void ev(struct il_finding *f, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ev(struct il_finding *f, const char *file, const char *fmt, ...)
{
	struct il_evidence *e;
	va_list ap;

	if (f->nevidence == IL_DOCTOR_EVIDENCE_MAX)
		return;
	e = &f->evidence[f->nevidence++];
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	va_start(ap, fmt);
	vsnprintf(e->value, sizeof(e->value), fmt, ap);
	va_end(ap);
}

static void action(struct il_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void action(struct il_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->action, sizeof(f->action), fmt, ap);
	va_end(ap);
}

static void refs(struct il_finding *f, const char *s)
{
	snprintf(f->refs, sizeof(f->refs), "%s", s);
}

#define CPU_DIR "/sys/devices/system/cpu"

static void ev_release(struct ctx *c, struct il_finding *f)
{
	ev(f, "/proc/sys/kernel/osrelease", "%s", c->h->release ? c->h->release : "n/a");
}

static void ev_driver(struct ctx *c, struct il_finding *f)
{
	if (c->h->sysfs_rc)
		ev(f, CPU_DIR "/cpuidle", "absent (no cpuidle: CONFIG_CPU_IDLE off or cpuidle.off=1)");
	else
		ev(f, CPU_DIR "/cpuidle/current_driver", "%s", c->driver);
}

/* A line of the kernel configuration: config_file is relative ("boot/config-R") */
static void ev_config(struct ctx *c, struct il_finding *f, const char *what)
{
	char path[256];

	snprintf(path, sizeof(path), "/%s", c->h->config_file ? c->h->config_file : "");
	ev(f, c->h->config_file ? path : "", "%s", what);
}

static void ev_governor(struct ctx *c, struct il_finding *f)
{
	ev(f, c->h->sysfs.governor_ro ? CPU_DIR "/cpuidle/current_governor_ro"
				       : CPU_DIR "/cpuidle/current_governor", "%s", c->governor);
}

static void ev_cpu(struct ctx *c, struct il_finding *f)
{
	const struct il_cpuinfo *ci = &c->h->cpuinfo;

	if (!c->h->has_cpuinfo)
		return;
	if (ci->vendor_id[0])
		ev(f, "/proc/cpuinfo", "vendor_id %s, cpu family %d (0x%x), model %d, model name %s",
		   ci->vendor_id, ci->family, ci->family, ci->model, ci->model_name);
	else
		ev(f, "/proc/cpuinfo", "cpu %s, platform %s", ci->model_name,
		   ci->platform[0] ? ci->platform : "n/a");
}

/* The release compares below r (and is known). */
static bool before(const struct ctx *c, const char *r)
{
	return c->rel[0] && il_release_cmp(c->rel, r) < 0;
}

/* The first CPU's states (all CPUs of a driver have the same table, as a rule). */
static const struct il_sysfs_cpu *first_cpu(const struct ctx *c)
{
	return !c->h->sysfs_rc && c->h->sysfs.ncpus ? &c->h->sysfs.cpus[0] : NULL;
}

static const char *sname(const struct il_sysfs_state *s)
{
	return s->name.status == IL_SYSFS_OK ? s->name.s : "?";
}

/* "0-3,7" of a set of CPU numbers (sorted). */
static void cpus_text(const int *cpus, int n, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && o + 24 < size; i++) {
		int lo = cpus[i], hi = lo;
		while (i + 1 < n && cpus[i + 1] == hi + 1)
			hi = cpus[++i];
		o += (size_t)snprintf(buf + o, size - o, "%s%d", o ? "," : "", lo);
		if (hi > lo)
			o += (size_t)snprintf(buf + o, size - o, "-%d", hi);
	}
	if (o + 24 >= size)
		snprintf(buf + o, size - o, ",...");
}

/* ------------------------------------------------------------------ */
/* The checks */

/* acpi_idle SYSTEMIO on AMD Zen before e400ad8b7e6a */
static void check_dummy_wait(struct ctx *c)
{
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	const struct il_sysfs_state *io = NULL;
	struct il_finding *f;
	char p[128];

	if (!cpu || strcmp(c->driver, "acpi_idle") || !c->zen || c->guest || !before(c, "6.0"))
		return;
	for (int i = 0; i < cpu->nstates && !io; i++)
		if (cpu->states[i].desc.status == IL_SYSFS_OK &&
		    !strncmp(cpu->states[i].desc.s, "ACPI IOPORT", 11))
			io = &cpu->states[i];
	if (!io)
		return;
	f = finding(c, "acpi-dummy-wait", "acpi_idle enters %s through an I/O port on an AMD "
		    "family 0x%x CPU, and kernel %s does the PM-timer dummy wait after it",
		    sname(io), c->h->cpuinfo.family, c->rel);
	ev_driver(c, f);
	snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/desc", cpu->cpu, io->index);
	ev(f, p, "%s", io->desc.s);
	if (io->val[IL_SF_LATENCY].status == IL_SYSFS_OK) {
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/latency", cpu->cpu, io->index);
		ev(f, p, "%llu", (unsigned long long)io->val[IL_SF_LATENCY].v);
	}
	if (io->val[IL_SF_USAGE].status == IL_SYSFS_OK) {
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/usage", cpu->cpu, io->index);
		ev(f, p, "%llu", (unsigned long long)io->val[IL_SF_USAGE].v);
	}
	ev_cpu(c, f);
	ev_release(c, f);
	action(f, "Kernels before 6.0 follow every I/O-port C-state entry with a read of the "
	       "ACPI PM timer, a workaround for old Intel chipsets: on AMD it costs about 0.5-1 "
	       "us, the reads of all CPUs queue on one register, and the wait is counted as %s "
	       "residency. e400ad8b7e6a (6.0) does it only on Intel. Upgrade to 6.0 or later, or "
	       "to a stable or distribution kernel that carries e400ad8b7e6a. Until then, "
	       "disabling %s (echo 1 > %s/cpu*/cpuidle/state%d/disable, or processor.max_cstate=1 "
	       "at boot) avoids the wait at the cost of the deeper state.",
	       sname(io), sname(io), CPU_DIR, io->index);
	refs(f, "e400ad8b7e6a \"ACPI: processor idle: Practically limit \"Dummy wait\" workaround "
	     "to old Intel systems\" (v6.0); drivers/acpi/processor_idle.c; K Prateek Nayak, "
	     "linux-pm 2022-09-21");
}

/* The default idle routine of an AMD CPU without a cpuidle driver before aebef63cf7ff */
static void check_amd_hlt(struct ctx *c)
{
	const struct il_cpuinfo *ci = &c->h->cpuinfo;
	char idle[32];
	bool no_driver = c->h->sysfs_rc || !strcmp(c->driver, "none") || !c->h->sysfs.ncpus;
	struct il_finding *f;

	if (!c->amd || c->guest || !no_driver || !ci->has_flags || !ci->monitor ||
	    !before(c, "6.0") || il_host_cmdline_opt(c->h, "idle", idle, sizeof(idle)))
		return;
	f = finding(c, "amd-hlt-default-idle", "no cpuidle driver on an AMD CPU with MONITOR/MWAIT: "
		    "kernel %s idles it in HLT", c->rel);
	ev_driver(c, f);
	ev_cpu(c, f);
	ev(f, "/proc/cpuinfo", "flags include monitor");
	ev_release(c, f);
	action(f, "Without a cpuidle driver (C-states off in the firmware, no _CST, or the "
	       "driver not built) the CPU idles in the default routine. Before 6.0 that is HLT "
	       "on every vendor but Intel; aebef63cf7ff (6.0) uses MWAIT where CPUID leaf 5 "
	       "allows it, which wakes without an IPI and exits faster (Zen 3: p50 1.5 us "
	       "instead of 2.0 us). Upgrade to 6.0 or later (or a kernel carrying aebef63cf7ff), "
	       "or enable C-states in the firmware so that acpi_idle registers (its C1 is an "
	       "MWAIT state).");
	refs(f, "aebef63cf7ff \"x86: Remove vendor checks from prefer_mwait_c1_over_halt\" (v6.0); "
	     "arch/x86/kernel/process.c; Wyes Karny, \"x86: Prefer MWAIT over HLT on AMD "
	     "processors\" v5, 2022-06-06");
}

/* intel_idle's _CST-disabled states before 75af76d0a34e */
static void check_intel_cst(struct ctx *c)
{
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	struct il_finding *f = NULL;
	bool still_off = false;
	char p[128], names[128] = "";

	if (!cpu || strcmp(c->driver, "intel_idle") || !before(c, "5.10"))
		return;
	for (int i = 0; i < cpu->nstates; i++) {
		const struct il_sysfs_state *s = &cpu->states[i];
		if (s->default_status.status != IL_SYSFS_OK || strcmp(s->default_status.s, "disabled"))
			continue;
		if (!f) {
			f = finding(c, "intel-cst-states-off", "intel_idle on kernel %s has states "
				    "disabled by default", c->rel);
			ev_driver(c, f);
		}
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/default_status", cpu->cpu,
			 s->index);
		ev(f, p, "disabled (%s, latency %llu us)", sname(s),
		   (unsigned long long)s->val[IL_SF_LATENCY].v);
		if (s->val[IL_SF_DISABLE].status == IL_SYSFS_OK && s->val[IL_SF_DISABLE].v)
			still_off = true;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? ", " : "", sname(s));
	}
	if (!f)
		return;
	if (!still_off)
		f->severity = IL_SEV_INFO;
	snprintf(f->title + strlen(f->title), sizeof(f->title) - strlen(f->title),
		 " (%s)%s", names, still_off ? "" : ", enabled again by hand");
	ev_cpu(c, f);
	ev_release(c, f);
	action(f, "From 5.6 intel_idle uses the ACPI _CST table on servers to mark the states the "
	       "firmware leaves out as disabled by default, and before 75af76d0a34e (5.10) it did "
	       "so even when it could not take _CST control from the platform (dmesg: \"ACPI _CST "
	       "not found or not usable\"). Without the deep states the busy cores lose turbo "
	       "headroom. Upgrade to 5.10 or later (or a kernel carrying 75af76d0a34e), boot with "
	       "intel_idle.no_acpi=1, or enable the states: echo 0 > "
	       CPU_DIR "/cpu*/cpuidle/stateN/disable for %s.", names);
	refs(f, "75af76d0a34e \"intel_idle: Ignore _CST if control cannot be taken from the "
	     "platform\" (v5.10); e6d4f08a6776 \"intel_idle: Use ACPI _CST on server systems\" "
	     "(v5.6); Mel Gorman, linux-pm 2020-10-06");
}

/* What idlelab's intel_idle model says of this CPU model in this release. */
static void ev_intel_table(struct ctx *c, struct il_finding *f)
{
	const struct il_cpuinfo *ci = &c->h->cpuinfo;
	const char *first, *label;

	if (!c->h->has_cpuinfo || ci->family < 0 || ci->model < 0)
		return;
	label = il_intel_idle_model_table(ci->family, ci->model, c->rel[0] ? c->rel : NULL, &first);
	if (label && c->rel[0])
		ev(f, "", "idlelab's intel_idle model: intel_idle of %s has the %s "
		   "table for family %d model 0x%x", c->rel, label, ci->family, ci->model);
	else if (first && first[0])
		ev(f, "", "idlelab's intel_idle model: intel_idle has a table for "
		   "family %d model 0x%x from %s on%s%s", ci->family, ci->model, first,
		   c->rel[0] ? ", not in " : "", c->rel);
	else if (!first)
		ev(f, "", "idlelab's intel_idle model: no intel_idle release modelled "
		   "has a table for family %d model 0x%x", ci->family, ci->model);
}

/* intel_idle with a _CST-built table where a later release has the model's own */
static void check_intel_cst_table(struct ctx *c)
{
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	const struct il_cpuinfo *ci = &c->h->cpuinfo;
	const char *first, *label;
	struct il_finding *f;
	int acpi = 0;

	if (!cpu || strcmp(c->driver, "intel_idle") || !c->h->has_cpuinfo || !c->rel[0])
		return;
	for (int i = 0; i < cpu->nstates; i++) {
		const char *n = sname(&cpu->states[i]);
		size_t l = strlen(n);

		if (l > 5 && !strcmp(n + l - 5, "_ACPI"))
			acpi++;
	}
	if (!acpi)
		return;
	label = il_intel_idle_model_table(ci->family, ci->model, c->rel, &first);
	if (label || !first || !first[0] || !before(c, first))
		return;
	label = il_intel_idle_model_table(ci->family, ci->model, first, NULL);
	f = finding(c, "intel-idle-cst-table", "intel_idle on kernel %s builds its states from "
		    "_CST: its %s table came in %s", c->rel, label ? label : "model's", first);
	ev_driver(c, f);
	ev_cpu(c, f);
	ev_release(c, f);
	ev_intel_table(c, f);
	ev(f, CPU_DIR "/cpu0/cpuidle", "%d of %d states named C<n>_ACPI", acpi, cpu->nstates);
	action(f, "A kernel whose intel_idle does not know the CPU model builds the states from the "
	       "firmware's _CST: latencies as the firmware reports them, target residencies of "
	       "three times the latency beyond C1, and only the states _CST lists. A kernel "
	       "from %s on uses the model's own table (compare with: idlelab platform show PLATFORM --kernel %s, "
	       "PLATFORM captured by idlelab platform capture).", first, first);
	refs(f, "drivers/idle/intel_idle.c intel_idle_ids[], intel_idle_init_cstates_acpi()");
}

/* intel_idle.table=NAME:LAT:RES,... names the state (the text before an entry's first ':') */
static bool table_names_state(const char *opt, const char *name)
{
	size_t n = strlen(name);

	for (const char *e = opt; e; e = strchr(e, ',') ? strchr(e, ',') + 1 : NULL)
		if (!strncmp(e, name, n) && e[n] == ':')
			return true;
	return false;
}

/* intel_idle's numbers against its table for the model and release */
static void check_intel_table_values(struct ctx *c)
{
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	const struct il_cpuinfo *ci = &c->h->cpuinfo;
	char p[128], buf[260];
	const char *table_opt = NULL;

	if (!cpu || strcmp(c->driver, "intel_idle") || !c->h->has_cpuinfo || !c->rel[0])
		return;
	if (!before(c, "7.0") && il_host_cmdline_opt(c->h, "intel_idle.table", buf, sizeof(buf)))
		table_opt = buf;
	for (int i = 0; i < cpu->nstates; i++) {
		const struct il_sysfs_state *s = &cpu->states[i];
		struct il_intel_idle_expect x;
		const char *cause = NULL;
		unsigned long long lat, res;
		struct il_finding *f;

		if (s->val[IL_SF_LATENCY].status != IL_SYSFS_OK ||
		    s->val[IL_SF_RESIDENCY].status != IL_SYSFS_OK ||
		    !il_intel_idle_expect_state(ci->family, ci->model, c->rel, sname(s), &x))
			continue;
		lat = s->val[IL_SF_LATENCY].v;
		res = s->val[IL_SF_RESIDENCY].v;
		if (lat == x.exit_latency && res == x.target_residency)
			continue;
		if (x.any_value)
			continue;
		for (int a = 0; a < x.nalt; a++)
			if (lat == x.alt[a].exit_latency && res == x.alt[a].target_residency)
				cause = x.alt[a].cause;
		f = finding(c, "intel-idle-table-values", "intel_idle's %s is %llu/%llu us, its table "
			    "for kernel %s says %u/%u", sname(s), lat, res, c->rel, x.exit_latency,
			    x.target_residency);
		ev_driver(c, f);
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/latency", cpu->cpu, s->index);
		ev(f, p, "%llu", lat);
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/residency", cpu->cpu, s->index);
		ev(f, p, "%llu", res);
		ev_cpu(c, f);
		ev_release(c, f);
		if (cause && strstr(cause, "package C6")) {
			action(f, "These are %s: the firmware limits the package to PC2 or shallower, so "
			       "the package never enters PC6 however long the cores idle (more idle power; "
			       "the cores' C6 exit is shorter). Raise the package C-state limit in the "
			       "firmware setup if power matters.", cause);
		} else if (cause) {
			action(f, "These are %s.", cause);
		} else if (table_opt && table_names_state(table_opt, sname(s))) {
			ev(f, "/proc/cmdline", "intel_idle.table=%s", table_opt);
			action(f, "intel_idle.table on the command line set them (7.0+).");
		} else {
			action(f, "Neither a fix-up nor intel_idle.table explains them: a distribution "
			       "kernel carrying other values than mainline %s, or a patched driver. "
			       "idlelab's simulations of this machine use mainline's table unless the "
			       "platform file gives the states (idlelab platform capture does).", c->rel);
		}
		refs(f, "drivers/idle/intel_idle.c: the model's *_cstates[] table and its "
		     "*_idle_state_table_update()");
	}
}

/* menu on pseries before the residency threshold of its polling override */
static void check_poll_escape(struct ctx *c)
{
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	const struct il_sysfs_state *poll = NULL, *cede = NULL;
	struct il_finding *f;
	char p[128];

	if (!cpu || strcmp(c->driver, "pseries_idle") || strcmp(c->governor, "menu") ||
	    !before(c, "6.19"))
		return;
	for (int i = 0; i < cpu->nstates; i++) {
		const char *n = sname(&cpu->states[i]);
		if (!strcmp(n, "snooze"))
			poll = &cpu->states[i];
		else if (!cede)
			cede = &cpu->states[i];
	}
	if (!poll || !cede)
		return;
	f = finding(c, "poll-escape", "menu on pseries, kernel %s: short idle periods leave %s "
		    "for %s", c->rel, sname(poll), sname(cede));
	ev_driver(c, f);
	ev_governor(c, f);
	snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/residency", cpu->cpu, cede->index);
	ev(f, p, "%llu (%s target residency, us)",
	   (unsigned long long)cede->val[IL_SF_RESIDENCY].v, sname(cede));
	if (cede->val[IL_SF_ABOVE].status == IL_SYSFS_OK && cede->val[IL_SF_USAGE].v) {
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/above", cpu->cpu, cede->index);
		ev(f, p, "%llu of %llu entries", (unsigned long long)cede->val[IL_SF_ABOVE].v,
		   (unsigned long long)cede->val[IL_SF_USAGE].v);
	}
	ev_release(c, f);
	action(f, "menu overrides its choice of the polling state whenever the idle period might "
	       "outlast the poll limit, without looking at the target residency of the state it "
	       "takes instead; on POWER that is CEDE, which needs an IPI and a hypervisor call to "
	       "wake (about 2.5 us more than snooze). 07d815701274 (6.19) takes such a state only "
	       "when its target residency is below RESIDENCY_THRESHOLD_NS (15 us). Upgrade to 6.19 "
	       "or a stable kernel that carries it (it was backported to 6.6..6.18), or run teo "
	       "(cpuidle.governor=teo at boot, or echo teo > " CPU_DIR "/cpuidle/current_governor "
	       "where it is available).");
	refs(f, "07d815701274 \"cpuidle: menu: Use residency threshold in polling state override "
	     "decisions\" (Aboorva Devarajan, applied for v6.19, linux-pm 2025-10-21); "
	     "drivers/cpuidle/governors/menu.c");
}

/* haltpoll governor that never polls */
static void check_haltpoll(struct ctx *c)
{
	const char *v = il_host_param(c->h, "haltpoll", "guest_halt_poll_ns");
	char cl[32];
	struct il_finding *f;

	if (strcmp(c->governor, "haltpoll"))
		return;
	if (!v)
		v = il_host_cmdline_opt(c->h, "haltpoll.guest_halt_poll_ns", cl, sizeof(cl));
	if (!v || strcmp(v, "0"))
		return;
	f = finding(c, "haltpoll-no-poll", "the haltpoll governor never polls: "
		    "guest_halt_poll_ns is 0");
	ev(f, "/sys/module/haltpoll/parameters/guest_halt_poll_ns", "%s", v);
	ev_driver(c, f);
	ev_governor(c, f);
	if (il_host_cmdline_opt(c->h, "haltpoll.guest_halt_poll_ns", cl, sizeof(cl)))
		ev(f, "/proc/cmdline", "haltpoll.guest_halt_poll_ns=%s", cl);
	action(f, "With guest_halt_poll_ns = 0 the haltpoll governor's poll limit stays 0: every "
	       "idle period halts the vCPU (a VM exit) and every wake-up of it needs an IPI, "
	       "itself a VM exit without IPI virtualisation (on this project's CI guest a halted "
	       "vCPU wakes in about 12 us plus 5.4 us for the IPI, a polling one in 0.1 us: "
	       "platforms/kvm-haltpoll.ini). If wake-up latency matters more than the host's CPU "
	       "time, set the default back: echo 200000 > "
	       "/sys/module/haltpoll/parameters/guest_halt_poll_ns (or "
	       "haltpoll.guest_halt_poll_ns=200000 at boot). On an overcommitted host 0 is the "
	       "deliberate choice.");
	refs(f, "drivers/cpuidle/governors/haltpoll.c (guest_halt_poll_ns, default 200000); "
	     "Documentation/virt/guest-halt-polling.rst");
}

/*
 * A KVM guest idling in the default routine: cpuidle-haltpoll registers only
 * with KVM_HINTS_REALTIME or (from 5.7) cpuidle_haltpoll.force=1, and no
 * idle= (drivers/cpuidle/cpuidle-haltpoll.c, haltpoll_init()); without it
 * the haltpoll governor's parameters have nothing to act on.
 */
static void check_haltpoll_registered(struct ctx *c)
{
	const struct il_host *h = c->h;
	const char *hv = il_host_hypervisor(h);
	const char *force = il_host_param(h, "cpuidle_haltpoll", "force");
	const char *ns = il_host_param(h, "haltpoll", "guest_halt_poll_ns");
	unsigned int base = 0, hints = 0;
	int kvm = il_host_kvm(h, &base, &hints);
	bool builtin = h->config && strstr(h->config, "CONFIG_HALTPOLL_CPUIDLE=y");
	char cl[32];
	struct il_finding *f;

	/*
	 * no driver as current_driver says it (not one that could not be read),
	 * and no CPU with a driver's states beside it
	 */
	if (!c->x86 || !c->guest || !hv || strcmp(hv, "kvm") || h->sysfs_rc ||
	    h->sysfs.driver.status != IL_SYSFS_OK || strcmp(h->sysfs.driver.s, "none") ||
	    before(c, "5.4") ||
	    il_host_cmdline_opt(h, "idle", cl, sizeof(cl)) ||
	    il_host_cmdline_opt(h, "cpuidle.off", cl, sizeof(cl)))
		return;
	for (int i = 0; i < h->sysfs.ncpus; i++)
		if (h->sysfs.cpus[i].nstates)
			return;
	f = finding(c, "haltpoll-not-registered", "a KVM guest without a cpuidle driver: "
		    "every idle period halts the vCPU");
	ev_driver(c, f);
	ev_cpu(c, f);
	/* the hints of the leaf after KVM's signature, wherever it was found */
	if (kvm == 1)
		ev(f, "", "CPUID 0x%x EDX (KVM's hints, by the instruction) = 0x%x: "
		   "KVM_HINTS_REALTIME %s", base + 1, hints, hints & 1 ? "set" : "clear");
	else if (kvm == 2)
		ev(f, "/idlelab-meta.txt", "kvm_cpuid: base=0x%x hints=0x%x: KVM_HINTS_REALTIME %s",
		   base, hints, hints & 1 ? "set" : "clear");
	if (force)
		ev(f, "/sys/module/cpuidle_haltpoll/parameters/force", "%s", force);
	if (ns)
		ev(f, "/sys/module/haltpoll/parameters/guest_halt_poll_ns", "%s", ns);
	if (builtin && kvm > 0 && (hints & 1))
		ev_config(c, f, "CONFIG_HALTPOLL_CPUIDLE=y");
	ev_release(c, f);
	if (builtin && kvm > 0 && (hints & 1))
		action(f, "The host sets KVM_HINTS_REALTIME and the kernel has cpuidle-haltpoll built "
		       "in (CONFIG_HALTPOLL_CPUIDLE=y): haltpoll_init() registers it at boot unless "
		       "idle= or cpuidle.off is given, and neither is. That no driver registered is "
		       "not explained by these files%s",
		       kvm == 2 ? ": the hints are those idlelab-meta.txt recorded; if it was "
				  "written on another machine or boot than the tree's files, they are "
				  "not this guest's." : "; the kernel log may say why.");
	else if (kvm > 0 && (hints & 1))
		action(f, "The host sets KVM_HINTS_REALTIME, yet cpuidle-haltpoll did not register: "
		       "the kernel is built without CONFIG_HALTPOLL_CPUIDLE, or the driver is a "
		       "module that was not loaded (modprobe cpuidle-haltpoll). Without it every idle "
		       "period halts the vCPU, a VM exit, and every wake-up of it needs an IPI.");
	else
		action(f, "%s, so cpuidle-haltpoll does not register and the CPUs idle in the "
		       "default routine: every idle period halts the vCPU (a VM exit) and every wake-up "
		       "of it needs an IPI, where a polling vCPU would see the wake-up at once (on "
		       "this project's CI guest a halted vCPU wakes in about 12 us plus 5.4 us for the "
		       "IPI, a polling one in 0.1 us: platforms/kvm-haltpoll.ini). The haltpoll "
		       "governor's parameters (guest_halt_poll_ns%s%s) act only through the driver. "
		       "Where the vCPUs have host CPUs of their own, boot with "
		       "cpuidle_haltpoll.force=1 (from 5.7); on a shared, overcommitted host, halting "
		       "at once is the intended setup.",
		       kvm > 0 ? "The host does not set KVM_HINTS_REALTIME"
			       : "The host's KVM_HINTS_REALTIME is not known (the capture did not "
				 "record KVM's CPUID leaves); without it",
		       ns ? " = " : "", ns ? ns : "");
	refs(f, "drivers/cpuidle/cpuidle-haltpoll.c haltpoll_init() (v5.4; force from v5.7, "
	     "pm-5.7-rc1); Documentation/virt/guest-halt-polling.rst");
}

/* A value of the command line or, where the kernel exposes it, the module parameter. */
static const char *param_or_cmdline(struct ctx *c, const char *module, const char *name,
				    char *buf, size_t size, const char **where)
{
	char key[96];
	const char *v = il_host_param(c->h, module, name);
	static char file[128];

	snprintf(file, sizeof(file), "/sys/module/%s/parameters/%s", module, name);
	*where = file;
	if (v)
		return v;
	snprintf(key, sizeof(key), "%s.%s", module, name);
	*where = "/proc/cmdline";
	return il_host_cmdline_opt(c->h, key, buf, size);
}

/* Idle states off, by whom */
static void check_states_disabled(struct ctx *c)
{
	const struct il_host *h = c->h;
	const struct il_sysfs_info *s = &h->sysfs;
	char buf[64], list[128];
	const char *v, *where;
	struct il_finding *f;

	/* idle= and cpuidle.off on the command line */
	if ((v = il_host_cmdline_opt(h, "idle", buf, sizeof(buf)))) {
		f = finding(c, "states-disabled", "idle=%s on the command line", v);
		ev(f, "/proc/cmdline", "idle=%s", v);
		if (!strcmp(v, "poll")) {
			f->severity = IL_SEV_WARNING;
			action(f, "idle=poll makes every idle CPU spin in the idle loop: no idle state "
			       "is entered (no power saving, no turbo headroom for busy cores, host CPU "
			       "burnt in a guest). Remove it unless the lowest wake-up latency is worth "
			       "that.");
		} else if (!strcmp(v, "halt")) {
			action(f, "idle=halt makes x86 use HLT as the idle routine and keeps intel_idle "
			       "and acpi_idle's deeper states out (acpi_idle stops at C1): no deep "
			       "C-states. Remove it unless that is intended.");
		} else {
			action(f, "idle=%s changes the idle routine the kernel picks (nomwait: HLT "
			       "instead of MWAIT). Remove it unless that is intended.", v);
		}
		refs(f, "arch/x86/kernel/process.c idle_setup(); Documentation/admin-guide/"
		     "kernel-parameters.txt");
	}
	v = param_or_cmdline(c, "cpuidle", "off", buf, sizeof(buf), &where);
	if (v && strcmp(v, "0")) {
		f = finding(c, "states-disabled", "cpuidle is switched off (cpuidle.off=%s)", v);
		f->severity = IL_SEV_WARNING;
		ev(f, where, "%s", v);
		ev_driver(c, f);
		action(f, "With cpuidle off no driver registers and the CPUs idle in the default "
		       "routine only (HLT or MWAIT C1 on x86). Remove cpuidle.off from the command "
		       "line to let the idle driver and governor work.");
		refs(f, "drivers/cpuidle/cpuidle.c (cpuidle.off)");
	}
	/* max_cstate and states_off limits of the drivers */
	static const struct {
		const char *module, *name, *def, *what;
	} limits[] = {
		{ "intel_idle", "max_cstate", "9", "intel_idle uses only its states up to C" },
		{ "processor", "max_cstate", "8", "acpi_idle uses only C-states up to C" },
		{ "intel_idle", "states_off", "0", "intel_idle disables by default the states of "
		  "its states_off mask " },
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		v = param_or_cmdline(c, limits[i].module, limits[i].name, buf, sizeof(buf), &where);
		if (!v || !strcmp(v, limits[i].def))
			continue;
		/* processor.max_cstate / intel_idle.* matter only with that driver */
		if (strcmp(c->driver, !strcmp(limits[i].module, "processor") ? "acpi_idle"
									       : "intel_idle") &&
		    strcmp(where, "/proc/cmdline"))
			continue;
		f = finding(c, "states-disabled", "%s%s", limits[i].what, v);
		ev(f, where, "%s", v);
		{
			char key[96];
			snprintf(key, sizeof(key), "%s.%s", limits[i].module, limits[i].name);
			if (strcmp(where, "/proc/cmdline") &&
			    il_host_cmdline_opt(h, key, list, sizeof(list)))
				ev(f, "/proc/cmdline", "%s=%s", key, list);
		}
		ev_driver(c, f);
		action(f, "The deeper states are left out of the table (max_cstate) or start "
		       "disabled (states_off), by a boot option or a DMI quirk of the kernel. If "
		       "it was set to work around a firmware or latency problem, keep it; "
		       "otherwise remove %s.%s from the command line.", limits[i].module,
		       limits[i].name);
		refs(f, "drivers/idle/intel_idle.c, drivers/acpi/processor_idle.c module "
		     "parameters");
	}
	if (h->sysfs_rc)
		return;
	/* per state: disabled by the user (on which CPUs), disabled by default */
	for (int si = 0; s->ncpus && si < s->cpus[0].nstates; si++) {
		const struct il_sysfs_state *st0 = &s->cpus[0].states[si];
		int *on = il_xcalloc((size_t)s->ncpus, sizeof(int)), n = 0;
		bool def_off = st0->default_status.status == IL_SYSFS_OK &&
			       !strcmp(st0->default_status.s, "disabled");

		for (int ci = 0; ci < s->ncpus; ci++)
			for (int k = 0; k < s->cpus[ci].nstates; k++) {
				const struct il_sysfs_state *st = &s->cpus[ci].states[k];
				if (st->index == st0->index && st->val[IL_SF_DISABLE].status == IL_SYSFS_OK &&
				    st->val[IL_SF_DISABLE].v)
					on[n++] = s->cpus[ci].cpu;
			}
		if (n) {
			char p[128];
			cpus_text(on, n, list, sizeof(list));
			f = finding(c, "states-disabled", "state%d %s is disabled%s on %s %s",
				    st0->index, sname(st0), def_off ? " (by default)" : " by the user",
				    n > 1 ? "CPUs" : "CPU", list);
			snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/disable", on[0],
				 st0->index);
			ev(f, p, "1");
			if (def_off) {
				snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/default_status",
					 on[0], st0->index);
				ev(f, p, "disabled");
			}
			if (st0->val[IL_SF_LATENCY].status == IL_SYSFS_OK)
				ev(f, "", "%s: exit latency %llu us, target residency %llu us",
				   sname(st0), (unsigned long long)st0->val[IL_SF_LATENCY].v,
				   (unsigned long long)st0->val[IL_SF_RESIDENCY].v);
			ev_driver(c, f);
			/* the governors then take the nearest enabled state: shallower, but
			 * deeper for the shallowest state (menu's and teo's first pass) */
			action(f, "%s A disabled state is never entered: %s If that is not "
			       "wanted: echo 0 > " CPU_DIR "/cpu*/cpuidle/state%d/disable.",
			       def_off ? "The driver (or the firmware's tables) disables this state "
					 "by default." :
					 "Someone (a tuning tool such as tuned, or a script) wrote 1 to "
					 "the state's disable file.",
			       st0->index == 0 ? "the idle periods it would have taken go to a "
			       "deeper state (a longer exit latency on every wake-up that would "
			       "have found the CPU in it)." : "the idle periods it would have "
			       "taken go to a shallower state (more power, and less turbo "
			       "headroom for the busy cores when it is a deep one).", st0->index);
			refs(f, "drivers/cpuidle/sysfs.c (disable, default_status)");
		}
		free(on);
	}
}

/* above/below over the threshold */
static void check_miss_rate(struct ctx *c)
{
	const struct il_host *h = c->h;
	const struct il_sysfs_info *s = &h->sysfs;
	const struct il_sysfs_delta *w = c->o->window;

	if (h->sysfs_rc || !s->ncpus)
		return;
	for (int kind = 0; kind < 2; kind++) {
		enum il_sysfs_field fld = kind ? IL_SF_BELOW : IL_SF_ABOVE;
		for (int si = 0; si < s->cpus[0].nstates; si++) {
			int idx = s->cpus[0].states[si].index, nbad = 0, njudged = 0;
			int *bad = il_xcalloc((size_t)s->ncpus, sizeof(int));
			double worst = 0;
			int worst_cpu = -1;
			uint64_t wu = 0, wm = 0;
			const char *name = sname(&s->cpus[0].states[si]);

			for (int ci = 0; ci < s->ncpus; ci++) {
				uint64_t u, m;
				bool found = false;

				if (w) {
					for (int r = 0; r < w->n; r++)
						if (w->rows[r].cpu == s->cpus[ci].cpu &&
						    w->rows[r].state == idx &&
						    w->rows[r].d[IL_SF_USAGE].status == IL_SYSFS_OK &&
						    w->rows[r].d[fld].status == IL_SYSFS_OK) {
							u = w->rows[r].d[IL_SF_USAGE].v;
							m = w->rows[r].d[fld].v;
							found = true;
						}
				} else {
					for (int k = 0; k < s->cpus[ci].nstates; k++) {
						const struct il_sysfs_state *st = &s->cpus[ci].states[k];
						if (st->index == idx && st->val[IL_SF_USAGE].status == IL_SYSFS_OK &&
						    st->val[fld].status == IL_SYSFS_OK) {
							u = st->val[IL_SF_USAGE].v;
							m = st->val[fld].v;
							found = true;
						}
					}
				}
				if (!found || u < c->o->miss_min_usage)
					continue;
				njudged++;
				if (100.0 * (double)m / (double)u >= c->o->miss_pct) {
					bad[nbad++] = s->cpus[ci].cpu;
					if (100.0 * (double)m / (double)u > worst) {
						worst = 100.0 * (double)m / (double)u;
						worst_cpu = s->cpus[ci].cpu;
						wu = u;
						wm = m;
					}
				}
			}
			if (nbad) {
				char list[128], p[128];
				struct il_finding *f;

				cpus_text(bad, nbad, list, sizeof(list));
				f = finding(c, "high-miss-rate", "state%d %s: %s on %.1f%% of its entries "
					    "(worst CPU %d) %s, on %d of %d CPUs judged", idx, name,
					    kind ? "a deeper state would have fitted (below)"
						 : "too deep for the idle period (above)",
					    worst, worst_cpu, w ? "in the window" : "since boot", nbad,
					    njudged);
				snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/%s", worst_cpu, idx,
					 kind ? "below" : "above");
				ev(f, p, "%llu%s", (unsigned long long)wm, w ? " (difference)" : "");
				snprintf(p, sizeof(p), CPU_DIR "/cpu%d/cpuidle/state%d/usage", worst_cpu, idx);
				ev(f, p, "%llu%s", (unsigned long long)wu, w ? " (difference)" : "");
				ev(f, "", "CPUs at or over %.0f%%: %s", c->o->miss_pct, list);
				if (w)
					ev(f, "", "window: %.3f s", (double)w->elapsed_ns / 1e9);
				else if (h->uptime_s >= 0)
					ev(f, "/proc/uptime", "%.0f s since boot", h->uptime_s);
				ev_governor(c, f);
				if (!kind)
					action(f, "The governor chose %s for idle periods shorter than its "
					       "target residency: the entry and exit cost more than the state "
					       "saved, and the wake-ups waited for its exit latency. Look at "
					       "what ends the idle periods early (idlelab trace report: "
					       "timers, IPIs, device interrupts), compare governors on a "
					       "trace (idlelab trace whatif --governor teo), or disable %s "
					       "where latency matters.", name, name);
				else
					action(f, "The governor chose %s where a deeper state would have "
					       "fitted the idle period: power lost. Check for a PM QoS limit "
					       "or disabled deeper states (other findings), and compare "
					       "governors on a trace of this machine (idlelab trace whatif).",
					       name);
				refs(f, "drivers/cpuidle/cpuidle.c cpuidle_enter_state() (above, below); "
				     "docs/doctor.md");
			}
			free(bad);
		}
	}
}

/* PM QoS: the CPU latency limit, its holders, per-CPU resume latencies */
static void check_pm_qos(struct ctx *c)
{
	const struct il_host *h = c->h;
	const struct il_sysfs_cpu *cpu = first_cpu(c);
	struct il_finding *f;

	if (h->has_dma_latency && h->dma_latency_us < IL_PM_QOS_DEFAULT_US) {
		int lim = h->dma_latency_us, out = 0;
		f = finding(c, "pm-qos-limit", "a CPU latency limit of %d us is in force "
			    "(/dev/cpu_dma_latency)", lim);
		ev(f, "/dev/cpu_dma_latency", "%d (us; %d means no limit)", lim, IL_PM_QOS_DEFAULT_US);
		if (h->nholders > 0)
			for (int i = 0; i < h->nholders; i++)
				ev(f, "", "held open by pid %d (%s)", h->holders[i].pid,
				   h->holders[i].comm[0] ? h->holders[i].comm : "?");
		else if (h->nholders == 0 && !h->holders_partial)
			ev(f, "", "no process holds /dev/cpu_dma_latency open: a kernel driver's "
			   "request");
		else
			ev(f, "", "the holder is not known (%s)", h->nholders < 0 ?
			   "not recorded" : "some /proc/<pid>/fd unreadable: run as root");
		for (int i = 0; cpu && i < cpu->nstates; i++) {
			const struct il_sysfs_state *s = &cpu->states[i];
			if (s->val[IL_SF_LATENCY].status == IL_SYSFS_OK &&
			    s->val[IL_SF_LATENCY].v > (uint64_t)(lim < 0 ? 0 : lim)) {
				ev(f, "", "state%d %s (exit latency %llu us) is out of use", s->index,
				   sname(s), (unsigned long long)s->val[IL_SF_LATENCY].v);
				out++;
			}
		}
		action(f, "While a process holds /dev/cpu_dma_latency open with a value written to "
		       "it, the governors take no state whose exit latency exceeds the value%s. Tuning "
		       "profiles do this (tuned's latency-performance and network-latency write "
		       "force_latency), as do low-latency runtimes. If the latency is not needed, stop "
		       "the holder; otherwise keep it knowing it costs idle power and turbo headroom.",
		       out ? "" : " (none of this machine's states is affected at this value)");
		refs(f, "kernel/power/qos.c (cpu_latency_qos, PM_QOS_DEFAULT_VALUE 2000000000); "
		     "drivers/cpuidle/governor.c cpuidle_governor_latency_req()");
	}
	for (int i = 0; i < h->ncpus; i++) {
		const char *v = h->cpus[i].resume_latency;
		int *on, n = 0;
		char list[128], p[128];

		if (!v || !strcmp(v, "0"))
			continue;
		/* one finding per value: the CPUs with it */
		bool seen = false;
		for (int k = 0; k < i; k++)
			if (h->cpus[k].resume_latency && !strcmp(h->cpus[k].resume_latency, v))
				seen = true;
		if (seen)
			continue;
		on = il_xcalloc((size_t)h->ncpus, sizeof(int));
		for (int k = i; k < h->ncpus; k++)
			if (h->cpus[k].resume_latency && !strcmp(h->cpus[k].resume_latency, v))
				on[n++] = h->cpus[k].cpu;
		cpus_text(on, n, list, sizeof(list));
		free(on);
		f = finding(c, "pm-qos-limit", "a resume latency limit of %s us on %s %s",
			    !strcmp(v, "n/a") ? "0 (n/a)" : v, n > 1 ? "CPUs" : "CPU", list);
		snprintf(p, sizeof(p), CPU_DIR "/cpu%d/power/pm_qos_resume_latency_us", h->cpus[i].cpu);
		ev(f, p, "%s", v);
		action(f, "A per-CPU PM QoS resume latency limits the states of that CPU as the "
		       "global limit does (\"n/a\" is 0: only polling; \"0\" is no limit). If it "
		       "is not needed: echo 0 > %s.", p);
		refs(f, "drivers/base/power/sysfs.c pm_qos_resume_latency_us; "
		     "drivers/cpuidle/governor.c cpuidle_governor_latency_req()");
	}
}

/* The governor the kernel picks at boot */
static void check_governor(struct ctx *c)
{
	const struct il_sysfs_info *s = &c->h->sysfs;
	char want[32] = "", buf[32];
	const char *why = "";
	bool nohz_off = false;
	unsigned best = 0;
	struct il_finding *f;

	if (c->h->sysfs_rc || !c->governor[0] || !strcmp(c->driver, "none") ||
	    s->governors.status != IL_SYSFS_OK)
		return;
	if (il_host_cmdline_opt(c->h, "nohz", buf, sizeof(buf)) && !strcmp(buf, "off"))
		nohz_off = true;
	if (c->h->config && !strstr(c->h->config, "CONFIG_NO_HZ_COMMON=y"))
		nohz_off = true;
	if (il_host_cmdline_opt(c->h, "cpuidle.governor", buf, sizeof(buf))) {
		for (int i = 0; i < s->ngovernors; i++)
			if (!strcmp(s->governor_list[i], buf)) {
				snprintf(want, sizeof(want), "%s", buf);
				why = "cpuidle.governor= on the command line";
			}
	}
	if (!want[0] && !strcmp(c->driver, "haltpoll")) {
		snprintf(want, sizeof(want), "haltpoll");
		why = "the haltpoll driver asks for the haltpoll governor";
	}
	if (!want[0]) {
		for (int i = 0; i < s->ngovernors; i++) {
			const struct il_gov_ops *ops = il_gov_find(s->governor_list[i]);
			unsigned r;
			if (!ops)
				return;   /* a governor idlelab does not know: its rating is not known */
			r = nohz_off && ops->rating_nohz_off ? ops->rating_nohz_off : ops->rating;
			if (!strcmp(ops->name, "haltpoll"))
				continue; /* registers, but only the haltpoll driver switches to it */
			if (r > best) {
				best = r;
				snprintf(want, sizeof(want), "%s", ops->name);
			}
		}
		why = "the highest rating among the available governors";
	}
	if (!want[0] || !strcmp(want, c->governor))
		return;
	f = finding(c, "unexpected-governor", "governor %s runs; the kernel chooses %s at boot (%s)",
		    c->governor, want, why);
	ev_governor(c, f);
	ev(f, CPU_DIR "/cpuidle/available_governors", "%s", s->governors.s);
	ev_driver(c, f);
	action(f, "Someone switched the governor after boot (a tuning tool, a script writing "
	       "current_governor). If that was not meant: echo %s > " CPU_DIR
	       "/cpuidle/current_governor. To choose a governor for good use cpuidle.governor= "
	       "on the command line.", want);
	refs(f, "drivers/cpuidle/governor.c cpuidle_register_governor() (rating, "
	     "cpuidle.governor=); drivers/cpuidle/cpuidle-haltpoll.c (driver governor)");
}

/* The driver the kernel would register */
static void check_driver(struct ctx *c)
{
	const struct il_host *h = c->h;
	const struct il_cpuinfo *ci = &h->cpuinfo;
	struct il_finding *f;
	char buf[32];

	if (!h->has_cpuinfo)
		return;
	/* a bare-metal Intel CPU under acpi_idle: intel_idle did not register */
	if (c->intel && !c->guest && !strcmp(c->driver, "acpi_idle")) {
		const char *mc = il_host_param(h, "intel_idle", "max_cstate");
		f = finding(c, "unexpected-driver", "acpi_idle drives an Intel CPU: intel_idle did "
			    "not register");
		ev_driver(c, f);
		ev_cpu(c, f);
		if (mc)
			ev(f, "/sys/module/intel_idle/parameters/max_cstate", "%s", mc);
		else if (il_host_cmdline_opt(h, "intel_idle.max_cstate", buf, sizeof(buf)))
			ev(f, "/proc/cmdline", "intel_idle.max_cstate=%s", buf);
		if (h->config && !strstr(h->config, "CONFIG_INTEL_IDLE=y"))
			ev_config(c, f, "CONFIG_INTEL_IDLE not set");
		ev_release(c, f);
		ev_intel_table(c, f);
		action(f, "intel_idle registers before acpi_idle unless it is not built, "
		       "intel_idle.max_cstate=0 is given, or this kernel knows neither the CPU model "
		       "nor a usable _CST for it (a CPU newer than the kernel). acpi_idle then builds "
		       "the states from _CST alone. Check dmesg for intel_idle's message; a newer "
		       "kernel may know the model.");
		refs(f, "drivers/idle/intel_idle.c intel_idle_init(); drivers/acpi/processor_idle.c");
		return;
	}
	/* pseries without its driver */
	if (ci->arch == IL_ARCH_POWERPC && !strcmp(ci->platform, "pSeries") &&
	    strcmp(c->driver, "pseries_idle")) {
		f = finding(c, "unexpected-driver", "a pseries LPAR without the pseries_idle driver");
		ev_driver(c, f);
		ev_cpu(c, f);
		action(f, "pseries_idle registers on every pseries LPAR unless cpuidle is off or "
		       "CONFIG_PSERIES_CPUIDLE is not set; without it the CPUs only cede to the "
		       "hypervisor from the default idle loop. Check the kernel configuration and "
		       "the command line.");
		refs(f, "drivers/cpuidle/cpuidle-pseries.c pseries_processor_idle_init()");
		return;
	}
	/* bare-metal x86 without any driver (and not explained by amd-hlt-default-idle) */
	if (c->x86 && !c->guest && (h->sysfs_rc || !strcmp(c->driver, "none"))) {
		for (int i = 0; i < c->d->n; i++)
			if (!strcmp(c->d->findings[i].id, "amd-hlt-default-idle") ||
			    !strcmp(c->d->findings[i].id, "states-disabled"))
				return;
		f = finding(c, "unexpected-driver", "no cpuidle driver on a bare-metal x86 CPU");
		ev_driver(c, f);
		ev_cpu(c, f);
		action(f, "Neither intel_idle nor acpi_idle registered: the firmware gives no _CST "
		       "(C-states switched off in the BIOS) or the drivers are not built. The CPUs "
		       "idle in the default routine (HLT or MWAIT C1) and never reach deep states. "
		       "Enable C-states in the firmware if power or turbo matter.");
		refs(f, "drivers/idle/intel_idle.c, drivers/acpi/processor_idle.c, "
		     "arch/x86/kernel/process.c");
	}
}

void il_doctor_run(const struct il_host *h, const struct il_doctor_opts *o, struct il_doctor *d)
{
	struct il_doctor_opts def;
	struct ctx c = { .h = h, .d = d };
	const struct il_cpuinfo *ci = &h->cpuinfo;

	memset(d, 0, sizeof(*d));
	if (!o) {
		il_doctor_opts_default(&def);
		o = &def;
	}
	c.o = o;
	if (!il_host_release_tag(h, c.rel, sizeof(c.rel)))
		c.rel[0] = '\0';
	snprintf(d->release, sizeof(d->release), "%s", c.rel);
	c.driver = !h->sysfs_rc && h->sysfs.driver.status == IL_SYSFS_OK ? h->sysfs.driver.s : "none";
	c.governor = !h->sysfs_rc && h->sysfs.governor.status == IL_SYSFS_OK ? h->sysfs.governor.s : "";
	c.x86 = h->has_cpuinfo && ci->arch == IL_ARCH_X86 && ci->vendor_id[0];
	c.intel = c.x86 && ci->vendor == IL_VENDOR_INTEL;
	c.amd = c.x86 && (ci->vendor == IL_VENDOR_AMD || ci->vendor == IL_VENDOR_HYGON);
	c.zen = c.amd && (ci->vendor == IL_VENDOR_HYGON || ci->family >= 0x17);
	c.guest = ci->has_flags && ci->hypervisor;

	check_dummy_wait(&c);
	check_amd_hlt(&c);
	check_intel_cst(&c);
	check_intel_cst_table(&c);
	check_intel_table_values(&c);
	check_poll_escape(&c);
	check_haltpoll(&c);
	check_haltpoll_registered(&c);
	check_states_disabled(&c);
	check_miss_rate(&c);
	check_pm_qos(&c);
	check_driver(&c);
	check_governor(&c);
}

void il_doctor_free(struct il_doctor *d)
{
	free(d->findings);
	memset(d, 0, sizeof(*d));
}
