// SPDX-License-Identifier: GPL-2.0-only
/*
 * Platform files (docs/platform-format.md), parsed with inih.
 *
 * inih calls a handler per "key = value"; a line-counting reader around
 * ini_parse_stream() lets every message name the line it is about, and
 * section header lines are remembered for "missing field" messages and
 * for refusing a section given twice.
 *
 * The keys are one table (keys[] below: name, type, bounds, default, help):
 * the handler looks every key up in it and refuses one that is not there
 * or is given twice, and defaults() applies the defaults written there.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "idlelab/platform.h"
#include "idlelab/release.h"
#include "util.h"

#define LINE_MAX_LEN 200 /* inih's INI_MAX_LINE, newline and NUL included */

/* State fields seen, to report missing ones. */
#define SEEN_NAME (1u << 0)
#define SEEN_LATENCY (1u << 1)
#define SEEN_RESIDENCY (1u << 2)
#define SEEN_DESC (1u << 3)
#define CST_SEEN_TYPE (1u << 0)
#define CST_SEEN_LATENCY (1u << 1)
#define CST_SEEN_METHOD (1u << 2)

/* sections: 11 named ones, [state.0..9], [cst.1..8] (see section_id()) */
#define NSECT_ALL (11 + IL_STATE_MAX + IL_PLAT_CST_MAX)
/* keys of one file: at most every key once, each [state.N] and [cst.N], all turbo counts */
#define SEEN_KEYS_MAX 1024

struct parse_ctx {
	struct il_platform *p;
	struct il_err *err;
	const char *fname;
	/* reader */
	const char *text;
	size_t len, pos;
	int line;
	int header_line;  /* line of the last [section] header read */
	bool line_too_long;
	int too_long_at;             /* the first overlong line */
	/* sections */
	int section_line[IL_STATE_MAX];
	unsigned state_seen[IL_STATE_MAX];
	bool state_present[IL_STATE_MAX];
	int cst_line[IL_PLAT_CST_MAX];
	unsigned cst_seen[IL_PLAT_CST_MAX];
	bool cst_present[IL_PLAT_CST_MAX];
	bool turbo_given[IL_PLAT_TURBO_MAX];
	bool seen_name;
	int sect_line[NSECT_ALL];      /* header line of each section given, 0: none */
	int pending_line;              /* an unknown section's header, refused if it stays empty */
	char pending_why[160];
	struct seen_key {
		int sect;              /* section id */
		unsigned fact;         /* the key's seen bit ([state.N]: latency, residency) */
		int line;
		char key[48];
	} *seen;                       /* keys given so far, for the duplicate check */
	int nseen;
	int first_error;
};

static void header_seen(struct parse_ctx *c, const char *line);

/* ini_reader over a memory buffer that counts lines and spots overlong ones. */
static char *reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	size_t i = 0;

	if (c->pos >= c->len)
		return NULL;
	c->line++;
	while (c->pos < c->len && i + 1 < (size_t)num) {
		char ch = c->text[c->pos++];
		if (ch == '\0')
			ch = ' '; /* embedded NULs would cut the line short */
		str[i++] = ch;
		if (ch == '\n')
			break;
	}
	str[i] = '\0';
	/* the characters of the line, its end (LF, CRLF or the end of the text) not counted */
	size_t n = i;
	if (n && str[n - 1] == '\n')
		n--;
	if (n && str[n - 1] == '\r')
		n--;
	if ((i && str[i - 1] != '\n' && c->pos < c->len) || n > LINE_MAX_LEN - 3) {
		/* overlong: drop the rest of the line and say so, at this line */
		if (!c->line_too_long)
			c->too_long_at = c->line;
		c->line_too_long = true;
		while (str[i - 1] != '\n' && c->pos < c->len && c->text[c->pos++] != '\n')
			;
		str[0] = '\0';
	}
	/*
	 * an indented line is a line: inih would take it for a continuation
	 * of the key above (a header or key read as that key's second value)
	 */
	const char *t = str;
	while (*t == ' ' || *t == '\t')
		t++;
	memmove(str, t, strlen(t) + 1);
	t = str;
	if (*t == '[') {
		c->header_line = c->line;
		header_seen(c, t);
	}
	return str;
}

static int fail(struct parse_ctx *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct parse_ctx *c, int line, const char *fmt, ...)
{
	if (!c->first_error) {
		va_list ap;
		char msg[IL_ERR_MSG_MAX];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		il_err_set_at(c->err, EINVAL, c->fname, line, "%s", msg);
		c->first_error = line ? line : 1;
	}
	return 0; /* inih: error on this line */
}

static int get_int(struct parse_ctx *c, const char *key, const char *v, int min, int max,
		   int *out)
{
	int x = 0;
	if (il_parse_int(v, &x))
		return fail(c, c->line, "%s: '%s' is not an integer", key, v);
	if (x < min || x > max)
		return fail(c, c->line, "%s: %d is out of range [%d, %d]", key, x, min, max);
	*out = x;
	return 1;
}

static int get_uint(struct parse_ctx *c, const char *key, const char *v, unsigned *out)
{
	uint64_t x = 0;
	if (v[0] == '-')
		return fail(c, c->line, "%s: negative value '%s'", key, v);
	if (il_parse_u64(v, &x) || x > 0xffffffffu)
		return fail(c, c->line, "%s: '%s' is not a non-negative 32-bit integer", key, v);
	*out = (unsigned)x;
	return 1;
}

static int get_double(struct parse_ctx *c, const char *key, const char *v, double *out,
		      bool allow_negative)
{
	double x = 0;
	if (il_parse_double(v, &x))
		return fail(c, c->line, "%s: '%s' is not a number", key, v);
	if (!allow_negative && x < 0)
		return fail(c, c->line, "%s: negative value '%s'", key, v);
	*out = x;
	return 1;
}

static int get_bool(struct parse_ctx *c, const char *key, const char *v, bool *out)
{
	if (il_parse_bool(v, out))
		return fail(c, c->line, "%s: '%s' is not yes/no", key, v);
	return 1;
}

static int get_dist(struct parse_ctx *c, const char *key, const char *v, struct il_dist *d)
{
	struct il_err e;
	if (il_dist_parse(v, d, &e))
		return fail(c, c->line, "%s: %s", key, e.msg);
	return 1;
}

static int get_str(struct parse_ctx *c, const char *key, const char *v, char *out, size_t size)
{
	if (strlen(v) >= size)
		return fail(c, c->line, "%s: value longer than %zu characters", key, size - 1);
	snprintf(out, size, "%s", v);
	return 1;
}

/*
 * The keys, one table. Each entry is the public il_plat_key (section, name,
 * type, bounds, default, help) plus where the value goes: a field of the
 * section's object (struct il_platform, struct il_state of a [state.N],
 * struct il_cst_entry of a [cst.N], struct il_driver of [driver]) parsed by
 * type, or a setter for keys with rules of their own. defaults() applies
 * every def through the same setter, so a default is written only here.
 */
enum obj { OBJ_PLATFORM, OBJ_STATE, OBJ_CST, OBJ_DRIVER };

struct key;
typedef int (*key_set_fn)(struct parse_ctx *c, const struct key *k, void *field,
			  const char *key, const char *v);
/* A key's setter: parse v (the value of key) into the field f. 1 done, 0 refused (fail()). */
#define SETTER(name) \
	static int name(struct parse_ctx *c, const struct key *k, void *f, const char *key, \
			const char *v)

struct key {
	struct il_plat_key pub;
	enum obj obj;
	size_t off, size;            /* the field in the section's object */
	key_set_fn set;              /* NULL: parse by pub.type */
	unsigned seen;               /* [state.N]/[cst.N]: the fact it gives (missing, twice) */
};

SETTER(set_name); SETTER(set_source); SETTER(set_arch);
SETTER(set_vendor); SETTER(set_hypervisor); SETTER(set_xcede_us);
SETTER(set_xcede_ticks); SETTER(set_hz); SETTER(set_switch_ns); SETTER(set_duration);
SETTER(set_release); SETTER(set_option); SETTER(set_state_exit);
SETTER(set_state_power); SETTER(set_state_name); SETTER(set_latency_us);
SETTER(set_latency_ns); SETTER(set_flags); SETTER(set_entry);
SETTER(set_cst_type); SETTER(set_cst_method); SETTER(set_turbo);
SETTER(set_topology); SETTER(set_mhz); SETTER(set_mhz_or_0); SETTER(set_hwp_mhz); SETTER(set_pstates);
SETTER(set_cpufreq_scope); SETTER(set_cpufreq_driver); SETTER(set_cpufreq_governor);
SETTER(set_pstate_mode); SETTER(set_turbo_on); SETTER(set_cppc_perf); SETTER(set_given_bool);
SETTER(set_amd_core_type);

#define FIELD(type, field) offsetof(struct type, field), sizeof(((struct type *)0)->field)
/* a key of struct il_platform / il_state / il_cst_entry / il_driver */
#define KP(sec, nm, ty, lo, hi, def, fl, help, field, fn) \
	{ { sec, nm, ty, lo, hi, def, fl, help }, OBJ_PLATFORM, FIELD(il_platform, field), fn, 0 }
#define KS(nm, ty, lo, hi, def, fl, help, field, fn, seen) \
	{ { "state.N", nm, ty, lo, hi, def, fl, help }, OBJ_STATE, FIELD(il_state, field), fn, seen }
#define KC(nm, ty, lo, hi, def, fl, help, field, fn, seen) \
	{ { "cst.N", nm, ty, lo, hi, def, fl, help }, OBJ_CST, FIELD(il_cst_entry, field), fn, seen }
#define KD(nm, ty, lo, hi, def, fl, help, field) \
	{ { "driver", nm, ty, lo, hi, def, fl, help }, OBJ_DRIVER, FIELD(il_driver, field), NULL, 0 }
/* text keys: the bound is the field's size, so it is written once */
#define TMAX(type, field) (double)(sizeof(((struct type *)0)->field) - 1)
#define KPT(sec, nm, lo, fl, help, field, fn) \
	KP(sec, nm, IL_PK_TEXT, lo, TMAX(il_platform, field), NULL, fl, help, field, fn)
#define KST(nm, lo, fl, help, field, fn, seen) \
	KS(nm, IL_PK_TEXT, lo, TMAX(il_state, field), NULL, fl, help, field, fn, seen)
#define KDT(nm, help, field) KD(nm, IL_PK_TEXT, 0, TMAX(il_driver, field), NULL, 0, help, field)

static const struct key keys[] = {
	/* [platform] */
	KPT("platform", "name", 1, IL_PK_REQUIRED, "letters, digits, '-', '_', '.'", name, set_name),
	KPT("platform", "description", 0, 0, "one line shown by idlelab platforms", description,
	    NULL),
	KPT("platform", "source", 0, IL_PK_REPEAT,
	    "where the numbers come from, one line per source (at most 16)", sources[0],
	    set_source),
	/* [topology] */
	KP("topology", "packages", IL_PK_INT, 1, 64, "1", 0, "packages (sockets)", packages, set_topology),
	KP("topology", "cores_per_package", IL_PK_INT, 1, 1024, "1", 0, "cores per package",
	   cores_per_package, set_topology),
	KP("topology", "threads_per_core", IL_PK_INT, 1, 8, "1", 0, "SMT threads per core",
	   threads_per_core, set_topology),
	KP("topology", "llc_cores", IL_PK_INT, 0, 1024, "0", 0,
	   "cores per last-level cache, counted from each package's first core (0: the package)",
	   llc_cores, NULL),
	/* [cpu] */
	KP("cpu", "arch", IL_PK_WORD, 0, 0, "x86", 0, "x86 (x86_64), powerpc (ppc64le), arm64 (aarch64)",
	   arch, set_arch),
	KP("cpu", "vendor", IL_PK_WORD, 0, 0, NULL, 0, "intel, amd, hygon, ibm, other", vendor,
	   set_vendor),
	KP("cpu", "family", IL_PK_INT, 0, 0xfff, "0", 0, "CPUID family", family, NULL),
	KP("cpu", "model", IL_PK_INT, 0, 0xfff, "0", 0,
	   "CPUID model (intel_idle matches on it); powerpc: the PVR version", model, NULL),
	KP("cpu", "stepping", IL_PK_INT, 0, 0xff, "0", 0, "CPUID stepping", stepping, NULL),
	KPT("cpu", "model_name", 0, 0, "free text", model_name, NULL),
	KP("cpu", "hypervisor", IL_PK_WORD, 0, 0, "no", 0,
	   "no, yes or the hypervisor's name (kvm, powervm): X86_FEATURE_HYPERVISOR", hypervisor,
	   set_hypervisor),
	KP("cpu", "kvm_hints_realtime", IL_PK_BOOL, 0, 0, "no", 0,
	   "KVM_HINTS_REALTIME (the haltpoll driver loads with it)", kvm_hints_realtime, NULL),
	KP("cpu", "tdx_guest", IL_PK_BOOL, 0, 0, "no", 0, "Intel TDX guest", tdx_guest, NULL),
	KP("cpu", "mwait", IL_PK_BOOL, 0, 0, "no", 0, "X86_FEATURE_MWAIT", mwait, NULL),
	KP("cpu", "cpuid5_ecx", IL_PK_UINT, 0, 0, "0", 0,
	   "CPUID.5:ECX (bit 0 extensions, bit 1 interrupt break)", cpuid5_ecx, NULL),
	KP("cpu", "cpuid5_edx", IL_PK_UINT, 0, 0, "0", 0,
	   "CPUID.5:EDX, MWAIT sub-state counts per C-state nibble", cpuid5_edx, NULL),
	KP("cpu", "arat", IL_PK_BOOL, 0, 0, "yes", 0,
	   "always-running APIC timer (no TIMER_STOP needed)", arat, NULL),
	KP("cpu", "nonstop_tsc", IL_PK_BOOL, 0, 0, "yes", 0, "X86_FEATURE_NONSTOP_TSC", nonstop_tsc,
	   NULL),
	KP("cpu", "bug_monitor", IL_PK_BOOL, 0, 0, "no", 0, "X86_BUG_MONITOR", bug_monitor, NULL),
	KP("cpu", "bug_amd_apic_c1e", IL_PK_BOOL, 0, 0, "no", 0, "X86_BUG_AMD_APIC_C1E",
	   bug_amd_apic_c1e, NULL),
	KP("cpu", "pkg_cst_config", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKG_CST_CONFIG_CONTROL (intel_idle fix-ups)", pkg_cst_config, NULL),
	KP("cpu", "sgx_enabled", IL_PK_BOOL, 0, 0, "no", 0,
	   "SGX present and enabled (intel_idle SKL-H fix-up)", sgx_enabled, NULL),
	KP("cpu", "pkgc6_irtl", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKGC6_IRTL (intel_idle Goldmont fix-up; 0: keep the table's)", pkgc_irtl[0], NULL),
	KP("cpu", "pkgc7_irtl", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKGC7_IRTL (intel_idle Goldmont fix-up; 0: keep the table's)", pkgc_irtl[1], NULL),
	KP("cpu", "pkgc8_irtl", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKGC8_IRTL (intel_idle Goldmont fix-up; 0: keep the table's)", pkgc_irtl[2], NULL),
	KP("cpu", "pkgc9_irtl", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKGC9_IRTL (intel_idle Goldmont fix-up; 0: keep the table's)", pkgc_irtl[3], NULL),
	KP("cpu", "pkgc10_irtl", IL_PK_UINT, 0, 0, "0", 0,
	   "MSR_PKGC10_IRTL (intel_idle Goldmont fix-up; 0: keep the table's)", pkgc_irtl[4], NULL),
	KP("cpu", "shared_processor", IL_PK_BOOL, 0, 0, "no", 0, "pseries: shared-processor LPAR",
	   shared_processor, NULL),
	KP("cpu", "base_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0, "nominal frequency, MHz", base_mhz,
	   set_mhz_or_0),
	KP("cpu", "acpi_cpc", IL_PK_BOOL, 0, 0, NULL, 0,
	   "whether the firmware gives _CPC (cppc_get_perf_caps() succeeds; acpi-cpufreq's boost "
	   "ratio, 5.11 on); not given: yes where the CPPC perf values are given, else unknown",
	   acpi_cpc, set_given_bool),
	KP("cpu", "cppc_highest_perf", IL_PK_UINT, 0, 0, NULL, 0,
	   "CPU 0's ACPI CPPC highest_perf (acpi_cppc/highest_perf; AMD frequency invariance, "
	   "acpi-cpufreq's boost ratio)",
	   cppc_highest_perf, set_cppc_perf),
	KP("cpu", "cppc_nominal_perf", IL_PK_UINT, 0, 0, NULL, 0,
	   "CPU 0's ACPI CPPC nominal_perf (acpi_cppc/nominal_perf; AMD frequency invariance, "
	   "acpi-cpufreq's boost ratio)",
	   cppc_nominal_perf, set_cppc_perf),
	KP("cpu", "cppc_nominal_freq", IL_PK_UINT, 0, 0, NULL, 0,
	   "CPU 0's _CPC NominalFrequency, MHz (acpi_cppc/nominal_freq; CPPC v3; acpi-cpufreq's "
	   "cpuinfo.max_freq, 6.14 on); not given: 0, none", cppc_nominal_freq, NULL),
	KP("cpu", "cppc_preferred_cores", IL_PK_BOOL, 0, 0, NULL, 0,
	   "whether highest_perf differs between CPUs (AMD preferred cores, 6.12 on)",
	   cppc_preferred_cores, set_given_bool),
	KP("cpu", "amd_core_type", IL_PK_WORD, 0, 0, NULL, 0,
	   "performance, efficiency: CPU 0's core type on heterogeneous AMD parts (CPUID "
	   "0x80000026); not given: homogeneous", amd_core_type, set_amd_core_type),
	KP("cpu", "tb_mhz", IL_PK_NUMBER, 0, 100000, "512", 0, "POWER timebase frequency, MHz",
	   tb_mhz, set_mhz_or_0),
	KP("cpu", "xcede_latency_us", IL_PK_LIST, 0, 16, NULL, 0,
	   "pseries extended CEDE records' wake-up latencies, us", xcede_latency_us, set_xcede_us),
	KP("cpu", "xcede_latency_ticks", IL_PK_LIST, 0, 16, NULL, 0,
	   "the same in timebase ticks, as RTAS gives them (preferred)", xcede_latency_ticks,
	   set_xcede_ticks),
	KP("cpu", "xcede_record_size", IL_PK_INT, 1, 256, "10", 0,
	   "bytes per extended CEDE record (anything but 10: the kernel skips the fix-up)",
	   xcede_record_size, NULL),
	/* [kernel] */
	KP("kernel", "hz", IL_PK_WORD, 0, 0, "250", 0, "CONFIG_HZ: 100, 250, 300 or 1000", hz,
	   set_hz),
	KP("kernel", "release", IL_PK_RELEASE, 0, 0, NULL, 0,
	   "the kernel release it boots by default (else the newest)", release, set_release),
	KP("kernel", "switch_ns", IL_PK_DURATION, 0, 1e9, NULL, 0,
	   "wake-up visible to the task running (else the simulator's 700 ns)", switch_ns,
	   set_switch_ns),
	KP("kernel", "switch_cycles", IL_PK_DIST, 0, 0, NULL, 0,
	   "the same path in core cycles (a distribution of cycles), timed at the package's clock "
	   "at each wake-up; replaces switch_ns", switch_cycles, NULL),
	KP("kernel", "tick_stop_cost", IL_PK_DIST, 0, 0, NULL, 0,
	   "what stopping the tick adds to the idle entry (the clock event device reprogrammed)",
	   tick_stop_cost, NULL),
	KP("kernel", "watchdog_thresh", IL_PK_INT, 0, 60, "0", 0,
	   "kernel.watchdog_thresh, s: a soft-lockup hrtimer on every CPU each 2/5 of it (0: none)",
	   watchdog_thresh, NULL),
	KP("kernel", "watchdog_stopper", IL_PK_DIST, 0, 0, NULL, 0,
	   "the CPU stopper thread each watchdog expiry wakes (5.1+): how long it holds the CPU "
	   "after the switch into it (none: not modelled)", watchdog_stopper, NULL),
	KP("kernel", "option", IL_PK_OPTION, 0, 0, NULL, IL_PK_REPEAT,
	   "a boot or module option, one per line (at most 32)", options, set_option),
	/* [firmware] */
	KP("firmware", "cst", IL_PK_BOOL, 0, 0, "no", 0, "the firmware has _CST (implied by [cst.N])",
	   has_cst, NULL),
	KP("firmware", "cst_claim", IL_PK_BOOL, 0, 0, "yes", 0,
	   "acpi_processor_claim_cst_control() succeeds", cst_claim_ok, NULL),
	KP("firmware", "c_states_disabled", IL_PK_BOOL, 0, 0, "no", 0,
	   "C-states switched off globally in firmware", c_states_disabled, NULL),
	KP("firmware", "pm_timer_read", IL_PK_DIST, 0, 0, NULL, 0,
	   "cost of an ACPI PM-timer read (the SYSTEMIO dummy wait)", pm_timer_read, NULL),
	KP("firmware", "pm_timer_hold", IL_PK_DIST, 0, 0, NULL, 0,
	   "part of a PM-timer read the register is held, one read at a time (default: all of it)",
	   pm_timer_hold, NULL),
	KP("firmware", "hlt_exit", IL_PK_DIST, 0, 0, NULL, 0, "wake-up latency of HLT", hlt_exit,
	   NULL),
	KP("firmware", "mwait_exit", IL_PK_DIST, 0, 0, NULL, 0, "wake-up latency of MWAIT C1",
	   mwait_exit, NULL),
	KP("firmware", "poll_exit", IL_PK_DIST, 0, 0, NULL, 0, "wake-up latency of a polling CPU",
	   poll_exit, NULL),
	KP("firmware", "exit.NAME", IL_PK_DIST, 0, 0, NULL, 0,
	   "wake-up latency of the driver's state NAME", state_exit, set_state_exit),
	KP("firmware", "power.NAME", IL_PK_NUMBER, 0, 0, NULL, 0,
	   "power of a thread in the driver's state NAME, W", state_power, set_state_power),
	KP("firmware", "transition.NAME", IL_PK_NUMBER, 0, 0, NULL, 0,
	   "energy of one entry and exit of the driver's state NAME, J", state_power,
	   set_state_power),
	KP("firmware", "pblk", IL_PK_UINT, 0, 0, "0", 0,
	   "processor P_BLK I/O address; 0: no FADT C-states", pblk, NULL),
	KP("firmware", "fadt_c2_latency", IL_PK_UINT, 0, 0, "0", 0, "FADT P_LVL2_LAT, us",
	   fadt_c2_latency, NULL),
	KP("firmware", "fadt_c3_latency", IL_PK_UINT, 0, 0, "0", 0, "FADT P_LVL3_LAT, us",
	   fadt_c3_latency, NULL),
	KP("firmware", "fadt_c2_mp", IL_PK_BOOL, 0, 0, "no", 0,
	   "FADT P_LVL2_UP flag (C2 allowed with several CPUs)", fadt_c2_mp, NULL),
	KP("firmware", "fadt_wbinvd", IL_PK_BOOL, 0, 0, "yes", 0, "FADT WBINVD flag", fadt_wbinvd,
	   NULL),
	KP("firmware", "pm2_control", IL_PK_BOOL, 0, 0, "no", 0,
	   "the FADT PM2 control block (ARB_DIS) exists", pm2_control, NULL),
	/* [cst.N] */
	KC("type", IL_PK_WORD, 0, 0, NULL, IL_PK_REQUIRED, "C1, C2, C3", type, set_cst_type,
	   CST_SEEN_TYPE),
	KC("latency", IL_PK_UINT, 0, 0, NULL, IL_PK_REQUIRED, "us", latency_us, NULL,
	   CST_SEEN_LATENCY),
	KC("power", IL_PK_UINT, 0, 0, "0", 0, "mW", power_mw, NULL, 0),
	KC("method", IL_PK_WORD, 0, 0, NULL, IL_PK_REQUIRED, "ffh (MWAIT), halt, systemio", method,
	   set_cst_method, CST_SEEN_METHOD),
	KC("address", IL_PK_UINT, 0, 0, "0", 0, "MWAIT hint (ffh) or I/O port (systemio)", address,
	   NULL, 0),
	/* [driver] */
	KDT("name", "the driver's name", name),
	KDT("governor", "the driver's preferred governor", governor),
	/* [state.N] */
	KST("name", 1, IL_PK_REQUIRED, "unique", name, set_state_name, SEEN_NAME),
	KST("desc", 0, 0, "description", desc, NULL, SEEN_DESC),
	KS("latency", IL_PK_UINT, 0, 0, NULL, IL_PK_REQUIRED,
	   "exit latency, us (or latency_ns)", exit_latency, set_latency_us, SEEN_LATENCY),
	KS("residency", IL_PK_UINT, 0, 0, NULL, IL_PK_REQUIRED,
	   "target residency, us (or residency_ns)", target_residency, set_latency_us,
	   SEEN_RESIDENCY),
	KS("latency_ns", IL_PK_INT, 0, 9.2233720368547758e18, NULL, 0,
	   "exit latency, ns (the us value is its truncation)", exit_latency_ns, set_latency_ns,
	   SEEN_LATENCY),
	KS("residency_ns", IL_PK_INT, 0, 9.2233720368547758e18, NULL, 0,
	   "target residency, ns (the us value is its truncation)", target_residency_ns,
	   set_latency_ns, SEEN_RESIDENCY),
	KS("power", IL_PK_INT, -1, 1000000, "0", 0, "sysfs power, mW (-1 prints as 4294967295)",
	   power_usage, NULL, 0),
	KS("flags", IL_PK_FLAGS, 0, 0, NULL, 0,
	   "POLLING TIMER_STOP UNUSABLE OFF TLB_FLUSHED RCU_IDLE COUPLED TURBO_RELEASE", flags,
	   set_flags, 0),
	KS("entry", IL_PK_WORD, 0, 0, NULL, 0,
	   "poll, hlt, mwait, ioport, cede, tdx-halt (default: poll if POLLING, else hlt)", entry,
	   set_entry, 0),
	KS("mwait_hint", IL_PK_UINT, 0, 0, "0", 0, "for entry = mwait", mwait_hint, NULL, 0),
	KS("io_port", IL_PK_UINT, 0, 0, "0", 0, "for entry = ioport", io_port, NULL, 0),
	KS("s2idle", IL_PK_BOOL, 0, 0, "no", 0, "the state has ->enter_s2idle", has_s2idle, NULL, 0),
	KS("exit_latency_dist", IL_PK_DIST, 0, 0, NULL, 0, "the real wake-up latency", exit_dist,
	   NULL, 0),
	KS("exit_path_cost", IL_PK_DIST, 0, 0, NULL, 0,
	   "time spent after the hardware woke, inside the measured residency", exit_path_cost,
	   NULL, 0),
	KS("exit_path_shared", IL_PK_BOOL, 0, 0, "no", 0,
	   "exit_path_cost is a read of one device of the machine, served one at a time",
	   exit_path_shared, NULL, 0),
	KS("exit_path_hold", IL_PK_DIST, 0, 0, NULL, 0,
	   "of a shared exit path, the time the device is held (default: all of exit_path_cost)",
	   exit_path_hold, NULL, 0),
	KS("power_w", IL_PK_NUMBER, 0, 0, NULL, 0, "power of a thread in this state, W", power_w,
	   NULL, 0),
	KS("transition_j", IL_PK_NUMBER, 0, 0, NULL, 0, "energy of one entry and exit, J",
	   transition_j, NULL, 0),
	/* [turbo] */
	KP("turbo", "N", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "N = MHz: the highest frequency with N active cores (N = 1..256)", turbo_mhz, set_turbo),
	/* [cpufreq] */
	KP("cpufreq", "efficient_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "EFFIC: the most efficient frequency (MSR_PLATFORM_INFO max efficiency ratio), the "
	   "lowest intel_pstate requests, MHz (required in [cpufreq])", efficient_mhz, set_mhz),
	KP("cpufreq", "hwp", IL_PK_BOOL, 0, 0, "no", 0,
	   "hardware P-states (HWP) present and enabled", hwp, NULL),
	KP("cpufreq", "hwp_lowest_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "HWP lowest performance, MHz (hwp = yes; else efficient_mhz)", hwp_lowest_mhz,
	   set_hwp_mhz),
	KP("cpufreq", "hwp_efficient_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "HWP most efficient performance, MHz (hwp = yes; else efficient_mhz)", hwp_efficient_mhz,
	   set_hwp_mhz),
	KP("cpufreq", "hwp_guaranteed_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "HWP guaranteed performance, MHz (hwp = yes; else [cpu] base_mhz)", hwp_guaranteed_mhz,
	   set_hwp_mhz),
	KP("cpufreq", "hwp_highest_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "HWP highest performance, MHz (hwp = yes; else the 1-core turbo bin, or base_mhz)",
	   hwp_highest_mhz, set_hwp_mhz),
	KP("cpufreq", "pstates", IL_PK_LIST, 0, IL_PLAT_PSTATES_MAX, NULL, 0,
	   "acpi-cpufreq P-state table (_PSS), MHz, strictly descending (or pstate_step_mhz)",
	   pstate_mhz, set_pstates),
	KP("cpufreq", "pstate_step_mhz", IL_PK_NUMBER, 0, 100000, NULL, 0,
	   "P-state table from base_mhz down to efficient_mhz in this step, MHz (else 100)",
	   pstate_step_mhz, set_mhz),
	KP("cpufreq", "transition_latency", IL_PK_DURATION, 1, 1e9, NULL, 0,
	   "time a P-state change takes (the _PSS transition latency)", transition_ns,
	   set_duration),
	KP("cpufreq", "policy", IL_PK_WORD, 0, 0, "cpu", 0,
	   "CPUs sharing one policy: cpu, core (SMT siblings) or package", cpufreq_scope,
	   set_cpufreq_scope),
	KP("cpufreq", "driver", IL_PK_WORD, 0, 0, "none", 0,
	   "the cpufreq driver the kernel loads: intel_pstate, acpi-cpufreq or none", cpufreq_driver,
	   set_cpufreq_driver),
	KP("cpufreq", "governor", IL_PK_WORD, 0, 0, NULL, 0,
	   "default governor: performance, powersave, schedutil, ondemand, conservative, userspace "
	   "(else the driver's default)", cpufreq_governor, set_cpufreq_governor),
	KP("cpufreq", "mode", IL_PK_WORD, 0, 0, "auto", 0,
	   "intel_pstate: active, passive, or auto (the release's default)", pstate_mode,
	   set_pstate_mode),
	KP("cpufreq", "turbo", IL_PK_BOOL, 0, 0, "yes", 0,
	   "turbo enabled at boot (no: MSR_IA32_MISC_ENABLE turbo disable set)", turbo_disabled,
	   set_turbo_on),
	/* [power] */
	KP("power", "active_w_per_ghz", IL_PK_NUMBER, 0, 0, "0", 0,
	   "dynamic power of a busy thread per GHz, W", active_w_per_ghz, NULL),
	KP("power", "active_static_w", IL_PK_NUMBER, 0, 0, "0", 0, "static power of a busy thread, W",
	   active_static_w, NULL),
	KP("power", "package_w", IL_PK_NUMBER, 0, 0, "0", 0, "uncore power while any core is active, W",
	   package_w, NULL),
	/* [ipi] */
	KP("ipi", "send", IL_PK_DIST, 0, 0, NULL, 0, "cost of an IPI to the sender", ipi_send, NULL),
	KP("ipi", "delivery", IL_PK_DIST, 0, 0, NULL, 0, "from send to arrival at the target",
	   ipi_delivery, NULL),
	KP("noise", "irq_rate", IL_PK_NUMBER, 0, 1e6, "0", 0,
	   "device interrupts per second on each CPU, at random times (Poisson)", irq_rate, NULL),
	KP("noise", "irq_cost", IL_PK_DIST, 0, 0, NULL, 0, "handler time of such an interrupt",
	   irq_cost, NULL),
	KP("noise", "timer_jitter", IL_PK_DIST, 0, 0, NULL, 0,
	   "from an hrtimer's expiry to its interrupt running, drawn per expiry", timer_jitter, NULL),
	KP("noise", "timer_jitter_halted", IL_PK_DIST, 0, 0, NULL, 0,
	   "timer_jitter for an expiry that finds its CPU halted (HLT): a guest's host wakes it "
	   "another way; drawn at the expiry", timer_jitter_halted, NULL),
	KP("noise", "timer_delivery_stops", IL_PK_BOOL, 0, 0, "no", 0,
	   "a timer's delivery stops the CPU it interrupts (a vCPU held in its host): a poll "
	   "cannot time out before the interrupt",
	   timer_delivery_stops, NULL),
	KP("noise", "timer_slack", IL_PK_DURATION, 0, 1e9, "0", 0,
	   "timer slack of the workloads' sleeps (the kernel's default for normal tasks: 50us)",
	   timer_slack_ns, set_duration),
	KP("noise", "host_stall_rate", IL_PK_NUMBER, 0, 1e5, "0", 0,
	   "times per second the host holds each vCPU (preempts its thread), at random instants "
	   "(Poisson)", host_stall_rate, NULL),
	KP("noise", "host_stall", IL_PK_DIST, 0, 0, NULL, 0,
	   "how long the host holds the vCPU each time: nothing it does (run, idle entry, poll, "
	   "wake-up from a halt) goes on meanwhile", host_stall, NULL),
	KP("ipi", "monitor_wake", IL_PK_DIST, 0, 0, NULL, 0,
	   "from the need_resched store to the MONITOR of a CPU in MWAIT firing (no IPI)",
	   monitor_wake, NULL),
};
#define NKEYS (int)(sizeof(keys) / sizeof(keys[0]))

int il_platform_key_count(void)
{
	return NKEYS;
}

const struct il_plat_key *il_platform_key(int i)
{
	return i >= 0 && i < NKEYS ? &keys[i].pub : NULL;
}

const char *il_plat_key_type_name(enum il_plat_key_type t)
{
	switch (t) {
	case IL_PK_INT: return "integer";
	case IL_PK_UINT: return "unsigned 32-bit";
	case IL_PK_BOOL: return "boolean";
	case IL_PK_NUMBER: return "number";
	case IL_PK_DURATION: return "duration";
	case IL_PK_DIST: return "distribution";
	case IL_PK_TEXT: return "text";
	case IL_PK_WORD: return "word";
	case IL_PK_LIST: return "list";
	case IL_PK_OPTION: return "option";
	case IL_PK_RELEASE: return "release";
	case IL_PK_FLAGS: return "flags";
	}
	return "?";
}

/* The key of section sec ("cpu", "state.N", ...) that name is, or NULL. */
static const struct key *find_key(const char *sec, const char *name)
{
	for (int i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		const char *kn = k->pub.name;
		size_t l;

		if (strcmp(k->pub.section, sec))
			continue;
		if (!strcmp(kn, name))
			return k;
		/* "exit.NAME": any key with the prefix "exit." */
		l = strlen(kn);
		if (l > 5 && !strcmp(kn + l - 5, ".NAME") && !strncmp(name, kn, l - 4))
			return k;
		if (!strcmp(kn, "N"))
			return k; /* [turbo]: every key is a count */
	}
	return NULL;
}

/* --- typed setters --- */

SETTER(set_typed)
{
	switch (k->pub.type) {
	case IL_PK_INT:
		return get_int(c, key, v, (int)k->pub.min, (int)k->pub.max, f);
	case IL_PK_UINT:
		return get_uint(c, key, v, f);
	case IL_PK_BOOL:
		return get_bool(c, key, v, f);
	case IL_PK_NUMBER:
		if (!get_double(c, key, v, f, false))
			return 0;
		if (k->pub.max > k->pub.min && *(double *)f > k->pub.max)
			return fail(c, c->line, "%s: %s is out of range [%.0f, %.0f]", key, v, k->pub.min,
				    k->pub.max);
		return 1;
	case IL_PK_DIST:
		return get_dist(c, key, v, f);
	case IL_PK_TEXT:
		return get_str(c, key, v, f, k->size);
	default:
		return fail(c, c->line, "%s: internal: no parser for the key", key);
	}
}

SETTER(set_name)
{
	for (const char *s = v; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return fail(c, c->line, "name: '%s' may hold only letters, digits, '-', '_', '.'", v);
	if (!*v)
		return fail(c, c->line, "name: empty");
	c->seen_name = true;
	return get_str(c, key, v, f, k->size);
}

SETTER(set_source)
{
	struct il_platform *p = c->p;

	(void)k;
	(void)f;
	if (p->nsources == IL_PLAT_SOURCES_MAX)
		return fail(c, c->line, "more than %d source lines", IL_PLAT_SOURCES_MAX);
	return get_str(c, key, v, p->sources[p->nsources++], sizeof(p->sources[0]));
}

SETTER(set_arch)
{
	enum il_arch *a = f;

	(void)k;
	(void)key;
	if (!strcasecmp(v, "x86") || !strcasecmp(v, "x86_64"))
		*a = IL_ARCH_X86;
	else if (!strcasecmp(v, "powerpc") || !strcasecmp(v, "ppc64le"))
		*a = IL_ARCH_POWERPC;
	else if (!strcasecmp(v, "arm64") || !strcasecmp(v, "aarch64"))
		*a = IL_ARCH_ARM64;
	else
		return fail(c, c->line, "arch: unknown '%s' (x86, powerpc, arm64)", v);
	return 1;
}

SETTER(set_vendor)
{
	static const struct { const char *n; enum il_vendor v; } vs[] = {
		{ "intel", IL_VENDOR_INTEL }, { "amd", IL_VENDOR_AMD },
		{ "hygon", IL_VENDOR_HYGON }, { "ibm", IL_VENDOR_IBM },
		{ "other", IL_VENDOR_OTHER },
	};

	(void)k;
	(void)key;
	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		if (!strcasecmp(v, vs[i].n)) {
			*(enum il_vendor *)f = vs[i].v;
			return 1;
		}
	return fail(c, c->line, "vendor: unknown '%s' (intel, amd, hygon, ibm, other)", v);
}

SETTER(set_hypervisor)
{
	struct il_platform *p = c->p;
	bool b;

	(void)k;
	(void)f;
	if (!il_parse_bool(v, &b)) {
		p->hypervisor = b;
		return 1;
	}
	p->hypervisor = true;
	return get_str(c, key, v, p->hypervisor_name, sizeof(p->hypervisor_name));
}

SETTER(set_xcede_us)
{
	/* space-separated list of extended CEDE record latencies */
	struct il_platform *p = c->p;
	char buf[LINE_MAX_LEN];

	(void)f;
	snprintf(buf, sizeof(buf), "%s", v);
	p->nxcede = 0;
	for (char *save, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		if (p->nxcede == (int)k->pub.max)
			return fail(c, c->line, "xcede_latency_us: more than %d records",
				    (int)k->pub.max);
		if (!get_uint(c, key, t, &p->xcede_latency_us[p->nxcede]))
			return 0;
		p->nxcede++;
	}
	return 1;
}

SETTER(set_xcede_ticks)
{
	/* extended CEDE record latencies in timebase ticks, as RTAS reports them */
	struct il_platform *p = c->p;
	char buf[LINE_MAX_LEN];

	(void)f;
	(void)key;
	snprintf(buf, sizeof(buf), "%s", v);
	p->nxcede_ticks = 0;
	for (char *save, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		if (p->nxcede_ticks == (int)k->pub.max)
			return fail(c, c->line, "xcede_latency_ticks: more than %d records",
				    (int)k->pub.max);
		if (t[0] == '-' || il_parse_u64(t, &p->xcede_latency_ticks[p->nxcede_ticks]))
			return fail(c, c->line, "xcede_latency_ticks: '%s' is not a tick count", t);
		p->nxcede_ticks++;
	}
	return 1;
}

/*
 * A topology key, then the CPU limit: packages x cores x threads may not
 * exceed IL_CPUS_MAX (the simulator and its workloads size per-CPU arrays
 * by it).
 */
SETTER(set_topology)
{
	struct il_platform *p = c->p;

	if (!set_typed(c, k, f, key, v))
		return 0;
	if (il_platform_ncpus(p) > IL_CPUS_MAX)
		return fail(c, c->line, "%s: %d packages x %d cores x %d threads = %d CPUs, more than "
			    "the limit of %d (IL_CPUS_MAX, the kernel's largest NR_CPUS)", key,
			    p->packages, p->cores_per_package, p->threads_per_core,
			    il_platform_ncpus(p), IL_CPUS_MAX);
	return 1;
}

SETTER(set_hz)
{
	int hz = 0;

	(void)k;
	if (!get_int(c, key, v, 1, 100000, &hz))
		return 0;
	if (hz != 100 && hz != 250 && hz != 300 && hz != 1000)
		return fail(c, c->line, "hz: %d is not a kernel HZ (100, 250, 300, 1000)", hz);
	*(unsigned *)f = (unsigned)hz;
	return 1;
}

SETTER(set_switch_ns)
{
	int64_t ns;

	(void)key;
	if (il_parse_duration_ns(v, &ns) || ns <= (int64_t)k->pub.min || ns > (int64_t)k->pub.max)
		return fail(c, c->line, "switch_ns: '%s' is not a duration in (0, 1s]", v);
	*(int64_t *)f = ns;
	return 1;
}

/* A duration in the key's bounds, both included. */
SETTER(set_duration)
{
	int64_t ns;

	if (il_parse_duration_ns(v, &ns) || ns < (int64_t)k->pub.min || ns > (int64_t)k->pub.max)
		return fail(c, c->line, "%s: '%s' is not a duration in [%.0f, %.0f] ns (with ns/us/ms/s)",
			    key, v, k->pub.min, k->pub.max);
	*(int64_t *)f = ns;
	return 1;
}

SETTER(set_release)
{
	struct il_err e;

	if (il_release_check(v, &e))
		return fail(c, c->line, "release: %s", e.msg);
	return get_str(c, key, v, f, k->size);
}

SETTER(set_option)
{
	struct il_platform *p = c->p;
	char buf[LINE_MAX_LEN];
	struct il_err e;
	char *eq, *name;

	(void)k;
	(void)f;
	(void)key;
	snprintf(buf, sizeof(buf), "%s", v);
	eq = strchr(buf, '=');
	if (eq)
		*eq++ = '\0';
	name = il_strtrim(buf);
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, name))
			return fail(c, c->line, "option: duplicate option '%s' (first at line %d)",
				    name, p->options[i].line);
	if (il_platform_set_option(p, name, eq ? il_strtrim(eq) : "", &e))
		return fail(c, c->line, "option: %s", e.msg);
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, name))
			p->options[i].line = c->line;
	return 1;
}

SETTER(set_state_exit)
{
	/* "exit.NAME = dist": the real wake-up latency of the state the driver names NAME */
	struct il_platform *p = c->p;
	const char *name = key + 5;
	int i;

	(void)k;
	(void)f;
	if (!*name)
		return fail(c, c->line, "exit.: missing state name");
	if (strlen(name) >= IL_NAME_LEN)
		return fail(c, c->line, "%s: state name longer than %d characters", key,
			    IL_NAME_LEN - 1);
	for (i = 0; i < p->nstate_exit; i++)
		if (!strcmp(p->state_exit[i].name, name))
			break;
	if (i == p->nstate_exit) {
		if (p->nstate_exit == IL_STATE_MAX)
			return fail(c, c->line, "more than %d exit.NAME keys", IL_STATE_MAX);
		snprintf(p->state_exit[i].name, sizeof(p->state_exit[i].name), "%s", name);
		p->state_exit[i].line = c->line;
		p->nstate_exit++;
	}
	return get_dist(c, key, v, &p->state_exit[i].dist);
}

SETTER(set_state_power)
{
	/*
	 * "power.NAME = W", "transition.NAME = J": the power model of the
	 * driver-derived state NAME (what power_w / transition_j are for an
	 * explicit [state.N]); machine.c applies them to the built table.
	 */
	struct il_platform *p = c->p;
	bool is_power = key[0] == 'p';
	const char *name = key + (is_power ? 6 : 11);
	int i;

	(void)k;
	(void)f;
	if (!*name)
		return fail(c, c->line, "%s: missing state name", key);
	if (strlen(name) >= IL_NAME_LEN)
		return fail(c, c->line, "%s: state name longer than %d characters", key,
			    IL_NAME_LEN - 1);
	for (i = 0; i < p->nstate_power; i++)
		if (!strcmp(p->state_power[i].name, name))
			break;
	if (i == p->nstate_power) {
		if (p->nstate_power == IL_STATE_MAX)
			return fail(c, c->line, "power/transition keys for more than %d states",
				    IL_STATE_MAX);
		snprintf(p->state_power[i].name, sizeof(p->state_power[i].name), "%s", name);
		p->state_power[i].power_w = -1;
		p->state_power[i].transition_j = -1;
		p->state_power[i].line = c->line;
		p->state_power[i].line_is_power = is_power;
		p->nstate_power++;
	}
	return get_double(c, key, v, is_power ? &p->state_power[i].power_w
					       : &p->state_power[i].transition_j, false);
}

SETTER(set_state_name)
{
	if (!*v)
		return fail(c, c->line, "name: empty");
	return get_str(c, key, v, f, k->size);
}

/* latency / residency in µs: the ns value follows (cpuidle_register_driver()) */
SETTER(set_latency_us)
{
	struct il_state *s = (struct il_state *)((char *)f - k->off);
	bool lat = key[0] == 'l';
	unsigned us = 0;

	if (!get_uint(c, key, v, &us))
		return 0;
	if (lat) {
		s->exit_latency = us;
		s->exit_latency_ns = (int64_t)us * 1000;
	} else {
		s->target_residency = us;
		s->target_residency_ns = (int64_t)us * 1000;
	}
	return 1;
}

/* latency_ns / residency_ns: the µs value is derived at il_driver_init() */
SETTER(set_latency_ns)
{
	struct il_state *s = (struct il_state *)((char *)f - k->off);
	bool lat = key[0] == 'l';
	int64_t ns = 0;

	if (il_parse_i64(v, &ns))
		return fail(c, c->line, "%s: '%s' is not an integer", key, v);
	if (ns < 0)
		return fail(c, c->line, "%s: negative value '%s'", key, v);
	if (lat) {
		s->exit_latency = 0;
		s->exit_latency_ns = ns;
	} else {
		s->target_residency = 0;
		s->target_residency_ns = ns;
	}
	return 1;
}

SETTER(set_flags)
{
	struct il_err e;

	(void)k;
	(void)key;
	if (il_state_flags_parse(v, f, &e))
		return fail(c, c->line, "flags: %s", e.msg);
	return 1;
}

SETTER(set_entry)
{
	(void)k;
	(void)key;
	if (il_entry_method_parse(v, f))
		return fail(c, c->line, "entry: unknown method '%s' (poll, hlt, mwait, ioport, cede, tdx-halt)", v);
	return 1;
}

SETTER(set_cst_type)
{
	int *type = f;

	(void)k;
	(void)key;
	if (!strcasecmp(v, "C1") || !strcmp(v, "1"))
		*type = 1;
	else if (!strcasecmp(v, "C2") || !strcmp(v, "2"))
		*type = 2;
	else if (!strcasecmp(v, "C3") || !strcmp(v, "3"))
		*type = 3;
	else
		return fail(c, c->line, "type: '%s' is not an ACPI C-state type (C1, C2, C3)", v);
	return 1;
}

SETTER(set_cst_method)
{
	enum il_cst_method *m = f;

	(void)k;
	(void)key;
	if (!strcasecmp(v, "ffh"))
		*m = IL_CST_FFH;
	else if (!strcasecmp(v, "halt"))
		*m = IL_CST_HALT;
	else if (!strcasecmp(v, "systemio"))
		*m = IL_CST_SYSTEMIO;
	else
		return fail(c, c->line, "method: '%s' is not ffh, halt or systemio", v);
	return 1;
}

SETTER(set_turbo)
{
	struct il_platform *p = c->p;
	int n = 0;

	(void)f;
	/* "<active cores> = <MHz>" */
	if (il_parse_int(key, &n) || n < 1 || n > IL_PLAT_TURBO_MAX)
		return fail(c, c->line, "[turbo] keys are active-core counts 1..%d, not '%s'",
			    IL_PLAT_TURBO_MAX, key);
	if (!set_mhz_or_0(c, k, &p->turbo_mhz[n - 1], key, v))
		return 0;
	c->turbo_given[n - 1] = true;
	p->turbo_listed[n - 1] = true;
	if (n > p->nturbo)
		p->nturbo = n;
	return 1;
}

/*
 * A frequency in MHz within [1, max]: the cpufreq layer counts kHz in
 * unsigned ints, and a burst's cycles over a frequency near 0 MHz are more
 * ns than an s64 holds.
 */
SETTER(set_mhz)
{
	double *mhz = f;

	if (!get_double(c, key, v, mhz, false))
		return 0;
	if (!(*mhz >= 1) || *mhz > k->pub.max)
		return fail(c, c->line, "%s: %s MHz is out of range [1, %.0f]", key, v, k->pub.max);
	return 1;
}

/* base_mhz, tb_mhz, [turbo] N: 0 (not given: the default) or a frequency as set_mhz. */
SETTER(set_mhz_or_0)
{
	double *mhz = f;

	if (!get_double(c, key, v, mhz, false))
		return 0;
	return *mhz == 0 ? 1 : set_mhz(c, k, f, key, v);
}

/* hwp_*_mhz: a frequency, and which of the four the file gave. */
SETTER(set_hwp_mhz)
{
	static const char *const names[] = { "hwp_lowest_mhz", "hwp_efficient_mhz",
					     "hwp_guaranteed_mhz", "hwp_highest_mhz" };

	if (!set_mhz(c, k, f, key, v))
		return 0;
	for (int i = 0; i < 4; i++)
		if (!strcmp(key, names[i]))
			c->p->hwp_given[i] = true;
	return 1;
}

/* pstates = MHz MHz ...: the _PSS frequencies, strictly descending. */
SETTER(set_pstates)
{
	struct il_platform *p = c->p;
	char buf[LINE_MAX_LEN];

	(void)f;
	/* "2401,,2400" or a leading or trailing comma: an entry left out */
	for (const char *q = v, *field = v;; q++) {
		if (*q == ',' || !*q) {
			bool blank = true;
			for (const char *r = field; r < q; r++)
				blank = blank && isspace((unsigned char)*r);
			if (blank && (*q == ',' || field != v))
				return fail(c, c->line, "%s: an empty entry in '%s'", key, v);
			if (!*q)
				break;
			field = q + 1;
		}
	}
	snprintf(buf, sizeof(buf), "%s", v);
	p->npstates = 0;
	for (char *save, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
		double mhz = 0;

		if (p->npstates == (int)k->pub.max)
			return fail(c, c->line, "%s: more than %d P-states", key, (int)k->pub.max);
		if (!get_double(c, key, t, &mhz, false))
			return 0;
		if (!(mhz >= 1) || mhz > 100000)
			return fail(c, c->line, "%s: %s MHz is out of range [1, 100000]", key, t);
		if (p->npstates && mhz >= p->pstate_mhz[p->npstates - 1])
			return fail(c, c->line, "%s: %s MHz after %g MHz: the table must descend", key,
				    t, p->pstate_mhz[p->npstates - 1]);
		p->pstate_mhz[p->npstates++] = mhz;
	}
	if (!p->npstates)
		return fail(c, c->line, "%s: no frequency given", key);
	return 1;
}

SETTER(set_cpufreq_scope)
{
	(void)k;
	if (!strcmp(v, "cpu"))
		*(enum il_cpufreq_scope *)f = IL_CPUFREQ_SCOPE_CPU;
	else if (!strcmp(v, "core"))
		*(enum il_cpufreq_scope *)f = IL_CPUFREQ_SCOPE_CORE;
	else if (!strcmp(v, "package"))
		*(enum il_cpufreq_scope *)f = IL_CPUFREQ_SCOPE_PACKAGE;
	else
		return fail(c, c->line, "%s: '%s' is not cpu, core or package", key, v);
	return 1;
}

SETTER(set_cpufreq_driver)
{
	(void)k;
	if (!strcmp(v, "intel_pstate"))
		*(enum il_cpufreq_driver *)f = IL_CPUFREQ_INTEL_PSTATE;
	else if (!strcmp(v, "acpi-cpufreq"))
		*(enum il_cpufreq_driver *)f = IL_CPUFREQ_ACPI;
	else if (!strcmp(v, "none"))
		*(enum il_cpufreq_driver *)f = IL_CPUFREQ_NONE;
	else
		return fail(c, c->line, "%s: '%s' is not intel_pstate, acpi-cpufreq or none", key, v);
	return 1;
}

SETTER(set_cpufreq_governor)
{
	static const char *const govs[] = { "performance", "powersave", "schedutil", "ondemand",
					    "conservative", "userspace" };

	for (size_t i = 0; i < sizeof(govs) / sizeof(govs[0]); i++)
		if (!strcmp(v, govs[i]))
			return get_str(c, key, v, f, k->size);
	return fail(c, c->line, "%s: '%s' is not performance, powersave, schedutil, ondemand, "
		    "conservative or userspace", key, v);
}

SETTER(set_pstate_mode)
{
	(void)k;
	if (!strcmp(v, "auto"))
		*(enum il_pstate_mode *)f = IL_PSTATE_MODE_AUTO;
	else if (!strcmp(v, "active"))
		*(enum il_pstate_mode *)f = IL_PSTATE_MODE_ACTIVE;
	else if (!strcmp(v, "passive"))
		*(enum il_pstate_mode *)f = IL_PSTATE_MODE_PASSIVE;
	else
		return fail(c, c->line, "%s: '%s' is not active, passive or auto", key, v);
	return 1;
}

/* turbo = yes|no: stored as the turbo-disable bit. */
SETTER(set_turbo_on)
{
	bool on;

	(void)k;
	if (!get_bool(c, key, v, &on))
		return 0;
	*(bool *)f = !on;
	return 1;
}

/* A CPPC capability: a non-negative 32-bit register value (the field is -1 until given). */
SETTER(set_cppc_perf)
{
	unsigned x = 0;

	(void)k;
	if (!get_uint(c, key, v, &x))
		return 0;
	*(long *)f = (long)x;
	return 1;
}

/* yes/no into an int that stays -1 until given. */
SETTER(set_given_bool)
{
	bool b;

	(void)k;
	if (!get_bool(c, key, v, &b))
		return 0;
	*(int *)f = b;
	return 1;
}

SETTER(set_amd_core_type)
{
	(void)k;
	if (!strcmp(v, "performance"))
		*(int *)f = IL_AMD_CORE_PERFORMANCE;
	else if (!strcmp(v, "efficiency"))
		*(int *)f = IL_AMD_CORE_EFFICIENCY;
	else
		return fail(c, c->line, "%s: '%s' is not performance or efficiency", key, v);
	return 1;
}

/* --- sections --- */

/* The sections, canonical ids for the duplicate checks: [state.N] and [cst.N] by index. */
static const char *const plain_sections[] = {
	"platform", "topology", "cpu", "kernel", "firmware", "turbo", "power", "ipi", "driver",
	"noise", "cpufreq",
};
#define NPLAIN (int)(sizeof(plain_sections) / sizeof(plain_sections[0]))
#define SECT_CPU 2
#define SECT_CPUFREQ 10
#define SECT_STATE(i) (NPLAIN + (i))
#define SECT_CST(i) (NPLAIN + IL_STATE_MAX + (i))      /* i = N - 1 */
_Static_assert(NPLAIN + IL_STATE_MAX + IL_PLAT_CST_MAX == NSECT_ALL, "section ids");

/* Parse "state.N" / "cst.N" section names; -1 if not that prefix. */
static int section_index(const char *section, const char *prefix, int *idx)
{
	size_t l = strlen(prefix);
	if (strncmp(section, prefix, l) || section[l] != '.')
		return -1;
	if (il_parse_int(section + l + 1, idx) || !isdigit((unsigned char)section[l + 1]))
		return -2;
	return 0;
}

/*
 * The section's id (0 .. NSECT-1), or -1 with *why the message that
 * refuses it (an unknown section, a bad or out-of-range index).
 */
static int section_id(const char *section, char *why, size_t n)
{
	int idx = 0, r;

	for (int i = 0; i < NPLAIN; i++)
		if (!strcmp(section, plain_sections[i]))
			return i;
	if ((r = section_index(section, "state", &idx)) != -1) {
		if (r < 0 || idx < 0)
			snprintf(why, n, "bad state section [%s] (want [state.N])", section);
		else if (idx >= IL_STATE_MAX)
			snprintf(why, n, "more than %d states ([%s])", IL_STATE_MAX, section);
		else
			return SECT_STATE(idx);
		return -1;
	}
	if ((r = section_index(section, "cst", &idx)) != -1) {
		if (r < 0 || idx < 1 || idx > IL_PLAT_CST_MAX)
			snprintf(why, n, "bad _CST section [%s] (want [cst.1] .. [cst.%d])", section,
				 IL_PLAT_CST_MAX);
		else
			return SECT_CST(idx - 1);
		return -1;
	}
	snprintf(why, n, "unknown section [%s]", section);
	return -1;
}

/*
 * A [section] header line as inih reads it (after leading blanks, up to
 * the first ']'): a section given twice is refused with both lines, an
 * unknown one that holds no key at the next header or the end of the file.
 */
static void header_seen(struct parse_ctx *c, const char *line)
{
	char name[64], why[160];
	const char *end = strchr(line + 1, ']');
	int id;

	if (c->pending_line && !c->first_error)
		fail(c, c->pending_line, "%s", c->pending_why);
	c->pending_line = 0;
	if (!end || (size_t)(end - line - 1) >= sizeof(name))
		return; /* inih refuses it, or it is no section idlelab knows */
	snprintf(name, sizeof(name), "%.*s", (int)(end - line - 1), line + 1);
	id = section_id(name, why, sizeof(why));
	if (id < 0) {
		c->pending_line = c->line;
		snprintf(c->pending_why, sizeof(c->pending_why), "%s", why);
		return;
	}
	if (c->sect_line[id])
		fail(c, c->line, "duplicate section [%s] (first at line %d)", name, c->sect_line[id]);
	else
		c->sect_line[id] = c->line;
}

/*
 * A key given twice in one section, or two keys giving the same fact of a
 * [state.N] (latency and latency_ns): refused with both lines.
 */
static int check_twice(struct parse_ctx *c, int sect, const struct key *k, const char *key)
{
	char canon[48];
	int n;

	if ((k->pub.flags & IL_PK_REPEAT) || strlen(key) >= sizeof(canon))
		return 1; /* a key that long is no key: its setter refuses it */
	snprintf(canon, sizeof(canon), "%s", key);
	if (!strcmp(k->pub.name, "N") && !il_parse_int(key, &n))
		snprintf(canon, sizeof(canon), "%d", n); /* [turbo] 04 is 4 */
	for (int i = 0; i < c->nseen; i++) {
		const struct seen_key *s = &c->seen[i];
		if (s->sect != sect)
			continue;
		if (!strcmp(s->key, canon))
			return fail(c, c->line, "duplicate key '%s' (first at line %d)", key, s->line);
		if (k->seen && s->fact == k->seen)
			return fail(c, c->line, "'%s' and '%s' (line %d) give the same value; "
				    "give one of them", key, s->key, s->line);
	}
	if (c->nseen == SEEN_KEYS_MAX)
		return fail(c, c->line, "more than %d keys", SEEN_KEYS_MAX);
	c->seen[c->nseen].sect = sect;
	c->seen[c->nseen].fact = k->seen;
	c->seen[c->nseen].line = c->line;
	snprintf(c->seen[c->nseen].key, sizeof(c->seen[0].key), "%s", canon);
	c->nseen++;
	return 1;
}

static void apply_defaults(struct parse_ctx *c, enum obj o, void *obj);

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_ctx *c = user;
	const struct key *k;
	char why[160];
	void *obj;
	int id, idx = 0;

	if (c->first_error)
		return 0; /* only the first error is reported */
	if (c->line_too_long) {
		c->line_too_long = false;
		return fail(c, c->too_long_at, "line longer than %d characters", LINE_MAX_LEN - 3);
	}
	c->pending_line = 0; /* the section holds a key: it is refused below if unknown */
	if (!*section)
		return fail(c, c->line, "key '%s' outside any section", key);
	id = section_id(section, why, sizeof(why));
	if (id < 0)
		return fail(c, c->line, "%s", why);
	if (id >= SECT_CST(0)) {
		idx = id - SECT_CST(0);
		if (!c->cst_present[idx]) {
			c->cst_present[idx] = true;
			c->cst_line[idx] = c->header_line;
			apply_defaults(c, OBJ_CST, &c->p->cst[idx]);
			c->p->cst[idx].line = c->header_line;
		}
		c->p->has_cst = true;
		k = find_key("cst.N", key);
		obj = &c->p->cst[idx];
		if (!k)
			return fail(c, c->line, "unknown key '%s' in [cst.%d]", key, idx + 1);
		if (!check_twice(c, id, k, key))
			return 0;
		c->cst_seen[idx] |= k->seen;
	} else if (id >= SECT_STATE(0)) {
		idx = id - SECT_STATE(0);
		if (!c->state_present[idx]) {
			c->state_present[idx] = true;
			c->section_line[idx] = c->header_line;
			apply_defaults(c, OBJ_STATE, &c->p->table.states[idx]);
			/* power_w and transition_j: -1, not given (the simulator then uses 0) */
			c->p->table.states[idx].power_w = -1;
			c->p->table.states[idx].transition_j = -1;
		}
		c->p->has_table = true;
		k = find_key("state.N", key);
		obj = &c->p->table.states[idx];
		if (!k)
			return fail(c, c->line, "unknown key '%s' in [state.%d]", key, idx);
		if (!check_twice(c, id, k, key))
			return 0;
		c->state_seen[idx] |= k->seen;
	} else {
		k = find_key(section, key);
		/* [driver] names the explicit table */
		obj = !strcmp(section, "driver") ? (void *)&c->p->table : (void *)c->p;
		if (!k)
			return fail(c, c->line, "unknown key '%s' in [%s]", key, section);
		if (!check_twice(c, id, k, key))
			return 0;
	}
	void *field = (char *)obj + k->off;
	return k->set ? k->set(c, k, field, key, value) : set_typed(c, k, field, key, value);
}

/*
 * The defaults of the key table for one object (the platform, a state, a
 * _CST entry), applied through the keys' own parsers.
 */
static void apply_defaults(struct parse_ctx *c, enum obj o, void *obj)
{
	for (int i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		if (!k->pub.def || k->obj != o)
			continue;
		void *field = (char *)obj + k->off;
		if (k->set)
			(void)k->set(c, k, field, k->pub.name, k->pub.def);
		else
			(void)set_typed(c, k, field, k->pub.name, k->pub.def);
	}
}

static void defaults(struct parse_ctx *c, struct il_platform *p)
{
	memset(p, 0, sizeof(*p));
	/* the CPPC capabilities and the preferred-core fact: not given until a key sets them */
	p->cppc_highest_perf = p->cppc_nominal_perf = -1;
	p->cppc_preferred_cores = -1;
	p->acpi_cpc = -1;
	apply_defaults(c, OBJ_PLATFORM, p);
	p->table.safe_state_index = 0;
}

/* The line of key in section sect, or the section's header line if it was not given. */
static int key_line(const struct parse_ctx *c, int sect, const char *key)
{
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].sect == sect && !strcmp(c->seen[i].key, key))
			return c->seen[i].line;
	return c->sect_line[sect];
}

static bool key_given(const struct parse_ctx *c, int sect, const char *key)
{
	for (int i = 0; i < c->nseen; i++)
		if (c->seen[i].sect == sect && !strcmp(c->seen[i].key, key))
			return true;
	return false;
}

/*
 * [cpu] acpi_cpc against the CPPC values: "no" with a perf value given
 * contradicts itself; "yes" on Intel needs both perf values (acpi-cpufreq's
 * boost ratio reads them, get_max_boost_ratio()); AMD's rules say what they
 * miss themselves. Not given: _CPC where both perf values are, else unknown
 * (-1; acpi-cpufreq then takes the kernel's no-_CPC path).
 */
static int finish_cpc(struct parse_ctx *c)
{
	struct il_platform *p = c->p;
	const int s = SECT_CPU;
	bool vals = p->cppc_highest_perf >= 0 && p->cppc_nominal_perf >= 0;

	if (p->acpi_cpc == 0 && (p->cppc_highest_perf >= 0 || p->cppc_nominal_perf >= 0 ||
				 p->cppc_nominal_freq))
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "acpi_cpc"),
				     "[cpu] acpi_cpc = no, but a CPPC value is given");
	if (p->acpi_cpc == 1 && p->vendor == IL_VENDOR_INTEL && !vals)
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "acpi_cpc"),
				     "[cpu] acpi_cpc = yes needs cppc_highest_perf and "
				     "cppc_nominal_perf");
	if (p->acpi_cpc < 0 && vals)
		p->acpi_cpc = 1;
	return 0;
}

/*
 * [cpufreq] as a whole: what it needs from [cpu], the HWP range in order,
 * one way to give the P-state table, and the derived values.
 */
static int finish_cpufreq(struct parse_ctx *c)
{
	static const char *const hwp_keys[] = { "hwp_lowest_mhz", "hwp_efficient_mhz",
						"hwp_guaranteed_mhz", "hwp_highest_mhz" };
	struct il_platform *p = c->p;
	const int s = SECT_CPUFREQ;
	double *hwp[4] = { &p->hwp_lowest_mhz, &p->hwp_efficient_mhz, &p->hwp_guaranteed_mhz,
			   &p->hwp_highest_mhz };

	p->has_cpufreq = c->sect_line[s] != 0;
	if (!p->has_cpufreq)
		return 0;
	if (!key_given(c, s, "efficient_mhz"))
		return il_err_set_at(c->err, EINVAL, c->fname, c->sect_line[s],
				     "[cpufreq] has no efficient_mhz");
	if (!(p->base_mhz > 0))
		return il_err_set_at(c->err, EINVAL, c->fname, c->sect_line[s],
				     "[cpufreq] needs [cpu] base_mhz (the base frequency)");
	if (p->efficient_mhz > p->base_mhz)
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "efficient_mhz"),
				     "efficient_mhz: %g MHz is above base_mhz (%g MHz)",
				     p->efficient_mhz, p->base_mhz);
	if (p->nturbo && p->turbo_mhz[0] < p->base_mhz)
		return il_err_set_at(c->err, EINVAL, c->fname, c->sect_line[s],
				     "[cpufreq]: the 1-core turbo bin (%g MHz) is below base_mhz "
				     "(%g MHz)", p->turbo_mhz[0], p->base_mhz);
	for (int i = 0; i < 4; i++)
		if (p->hwp_given[i] && !p->hwp)
			return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, hwp_keys[i]),
					     "%s without hwp = yes", hwp_keys[i]);
	if (p->hwp) {
		/* not given: what the part's other figures say */
		if (!p->hwp_given[0])
			p->hwp_lowest_mhz = p->efficient_mhz;
		if (!p->hwp_given[1])
			p->hwp_efficient_mhz = p->efficient_mhz;
		if (!p->hwp_given[2])
			p->hwp_guaranteed_mhz = p->base_mhz;
		if (!p->hwp_given[3])
			p->hwp_highest_mhz = p->nturbo ? p->turbo_mhz[0] : p->base_mhz;
		for (int i = 1; i < 4; i++) {
			int lo = i == 3 ? 2 : 0; /* efficient and guaranteed: each >= lowest */
			if (*hwp[i] < *hwp[lo])
				return il_err_set_at(c->err, EINVAL, c->fname,
						     key_line(c, s, hwp_keys[p->hwp_given[i] ? i : lo]),
						     "%s (%g MHz) is below %s (%g MHz)", hwp_keys[i],
						     *hwp[i], hwp_keys[lo], *hwp[lo]);
		}
		if (p->hwp_efficient_mhz > p->hwp_highest_mhz)
			return il_err_set_at(c->err, EINVAL, c->fname,
					     key_line(c, s, "hwp_efficient_mhz"),
					     "hwp_efficient_mhz (%g MHz) is above hwp_highest_mhz "
					     "(%g MHz)", p->hwp_efficient_mhz, p->hwp_highest_mhz);
	}
	if (p->npstates) {
		/* _PSS lists the part's frequencies: base + 1 MHz stands for turbo */
		double top = (p->nturbo ? p->turbo_mhz[0] : p->base_mhz) + 1;
		double low = p->pstate_mhz[p->npstates - 1];
		if (p->pstate_mhz[0] > top)
			return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "pstates"),
					     "pstates: %g MHz is above the part's highest frequency "
					     "(%g MHz)", p->pstate_mhz[0], top - 1);
		if (low < p->efficient_mhz)
			return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "pstates"),
					     "pstates: %g MHz is below efficient_mhz (%g MHz)", low,
					     p->efficient_mhz);
	}
	if (p->npstates && key_given(c, s, "pstate_step_mhz"))
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "pstate_step_mhz"),
				     "pstate_step_mhz and pstates (line %d) give the same table; "
				     "give one of them", key_line(c, s, "pstates"));
	if (!p->npstates && !key_given(c, s, "pstate_step_mhz"))
		p->pstate_step_mhz = 100;
	if (p->pstate_mode != IL_PSTATE_MODE_AUTO && p->cpufreq_driver != IL_CPUFREQ_INTEL_PSTATE)
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "mode"),
				     "mode: %s is for driver = intel_pstate",
				     il_pstate_mode_name(p->pstate_mode));
	if (p->cpufreq_driver == IL_CPUFREQ_INTEL_PSTATE &&
	    (p->arch != IL_ARCH_X86 || p->vendor != IL_VENDOR_INTEL))
		return il_err_set_at(c->err, EINVAL, c->fname, key_line(c, s, "driver"),
				     "driver: intel_pstate needs an Intel x86 [cpu]");
	return 0;
}

/* Checks that need the whole file. */
static int finish(struct parse_ctx *c)
{
	struct il_platform *p = c->p;

	if (c->pending_line)
		return il_err_set_at(c->err, EINVAL, c->fname, c->pending_line, "%s", c->pending_why);
	if (!c->seen_name)
		return il_err_set_at(c->err, EINVAL, c->fname, 0, "missing [platform] name");
	if (p->has_table) {
		int n = 0;
		while (n < IL_STATE_MAX && c->state_present[n])
			n++;
		for (int i = n; i < IL_STATE_MAX; i++)
			if (c->state_present[i])
				return il_err_set_at(c->err, EINVAL, c->fname, c->section_line[i],
						     "[state.%d] without [state.%d]", i, n);
		for (int i = 0; i < n; i++) {
			static const struct { unsigned bit; const char *what; } need[] = {
				{ SEEN_NAME, "name" }, { SEEN_LATENCY, "latency" },
				{ SEEN_RESIDENCY, "residency" },
			};
			for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
				if (!(c->state_seen[i] & need[k].bit))
					return il_err_set_at(c->err, EINVAL, c->fname,
							     c->section_line[i],
							     "[state.%d] has no %s", i, need[k].what);
			for (int j = 0; j < i; j++)
				if (!strcmp(p->table.states[i].name, p->table.states[j].name))
					return il_err_set_at(c->err, EINVAL, c->fname,
							     c->section_line[i],
							     "duplicate state name '%s' (also [state.%d])",
							     p->table.states[i].name, j);
			if (p->table.states[i].entry == IL_ENTRY_NONE)
				p->table.states[i].entry = (p->table.states[i].flags & IL_FLAG_POLLING)
								   ? IL_ENTRY_POLL : IL_ENTRY_HLT;
		}
		p->table.state_count = n;
		il_driver_init(&p->table);
	}
	if (p->has_cst) {
		int n = 0;
		while (n < IL_PLAT_CST_MAX && c->cst_present[n])
			n++;
		for (int i = n; i < IL_PLAT_CST_MAX; i++)
			if (c->cst_present[i])
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] without [cst.%d]", i + 1, n + 1);
		for (int i = 0; i < n; i++) {
			if (!(c->cst_seen[i] & CST_SEEN_TYPE))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no type", i + 1);
			if (!(c->cst_seen[i] & CST_SEEN_LATENCY))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no latency", i + 1);
			if (!(c->cst_seen[i] & CST_SEEN_METHOD))
				return il_err_set_at(c->err, EINVAL, c->fname, c->cst_line[i],
						     "[cst.%d] has no method", i + 1);
		}
		p->ncst = n;
	}
	/* turbo gaps: with n active cores the limit is that of the nearest listed count above */
	for (int n = p->nturbo - 1; n >= 0; n--)
		if (!c->turbo_given[n])
			p->turbo_mhz[n] = p->turbo_mhz[n + 1];
	if (finish_cpc(c))
		return -EINVAL;
	return finish_cpufreq(c);
}

int il_platform_load_string(struct il_platform *p, const char *text, size_t len,
			    const char *name, struct il_err *err)
{
	struct parse_ctx c;
	int r;

	memset(&c, 0, sizeof(c));
	c.p = p;
	c.err = err;
	c.fname = name;
	c.text = text;
	c.len = len;
	il_err_clear(err);
	defaults(&c, p);
	snprintf(p->file, sizeof(p->file), "%s", name);
	c.seen = calloc(SEEN_KEYS_MAX, sizeof(*c.seen));
	if (!c.seen)
		return il_err_set_at(err, ENOMEM, name, 0, "cannot parse (out of memory)");

	r = ini_parse_stream(reader, &c, handler, &c);
	if (c.first_error && !(r > 0 && r < c.first_error))
		r = -EINVAL;
	else if (r > 0 && !(c.line_too_long && c.too_long_at <= r))
		/* a syntax error inih found itself (no '=' or unclosed '[') */
		r = il_err_set_at(err, EINVAL, name, r,
				  "syntax error (expected [section] or key = value)");
	else if (r < 0)
		r = il_err_set_at(err, ENOMEM, name, 0, "cannot parse (out of memory)");
	else if (c.line_too_long)
		r = il_err_set_at(err, EINVAL, name, c.too_long_at, "line longer than %d characters",
				  LINE_MAX_LEN - 3);
	else
		r = finish(&c); /* reads the keys seen (their lines) */
	free(c.seen);
	return r;
}

int il_platform_load_file(struct il_platform *p, const char *path, struct il_err *err)
{
	char *buf;
	size_t len;
	int r = il_read_file(path, (size_t)64 << 20, &buf, &len, err);

	if (r)
		return r;
	r = il_platform_load_string(p, buf, len, path, err);
	free(buf);
	return r;
}

int il_platform_load(struct il_platform *p, const char *name_or_path, struct il_err *err)
{
	for (int i = 0; i < il_builtin_platform_count; i++) {
		const struct il_builtin_platform *b = &il_builtin_platforms[i];
		if (!strcmp(b->name, name_or_path)) {
			char nm[96];
			snprintf(nm, sizeof(nm), "builtin:%s", b->name);
			return il_platform_load_string(p, b->text, b->len, nm, err);
		}
	}
	if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.')) {
		char list[512] = "";
		for (int i = 0; i < il_builtin_platform_count; i++) {
			strncat(list, il_builtin_platforms[i].name, sizeof(list) - strlen(list) - 3);
			if (i + 1 < il_builtin_platform_count)
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		}
		return il_err_set(err, ENOENT, "unknown platform '%s' (built-in: %s; or give a file path)",
				  name_or_path, list);
	}
	return il_platform_load_file(p, name_or_path, err);
}

const char *il_platform_option(const struct il_platform *p, const char *key)
{
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, key))
			return p->options[i].value;
	return NULL;
}

int il_platform_set_option(struct il_platform *p, const char *key, const char *value,
			   struct il_err *err)
{
	int r;

	if (!*key)
		return il_err_set(err, EINVAL, "empty option name");
	if (strlen(key) >= sizeof(p->options[0].key) || strlen(value) >= sizeof(p->options[0].value))
		return il_err_set(err, EINVAL, "option '%s' too long", key);
	r = il_boot_option_check(key, err);
	if (r)
		return r;
	/*
	 * idlelab's own option: no kernel reads it, so a value that is no
	 * bool is refused as [firmware] cst_claim refuses it, not taken for
	 * the platform's default
	 */
	bool b;
	if (!strcmp(key, "firmware.cst_claim") && *value && il_parse_bool(value, &b))
		return il_err_set(err, EINVAL, "firmware.cst_claim: '%s' is not yes or no", value);
	for (int i = 0; i < p->noptions; i++)
		if (!strcmp(p->options[i].key, key)) {
			snprintf(p->options[i].value, sizeof(p->options[i].value), "%s", value);
			p->options[i].line = 0;
			return 0;
		}
	if (p->noptions == IL_PLAT_OPTIONS_MAX)
		return il_err_set(err, EINVAL, "more than %d options", IL_PLAT_OPTIONS_MAX);
	snprintf(p->options[p->noptions].key, sizeof(p->options[0].key), "%s", key);
	snprintf(p->options[p->noptions].value, sizeof(p->options[0].value), "%s", value);
	p->options[p->noptions].line = 0;
	p->noptions++;
	return 0;
}

const char *il_vendor_name(enum il_vendor v)
{
	switch (v) {
	case IL_VENDOR_INTEL: return "intel";
	case IL_VENDOR_AMD: return "amd";
	case IL_VENDOR_HYGON: return "hygon";
	case IL_VENDOR_IBM: return "ibm";
	case IL_VENDOR_OTHER: return "other";
	default: return "unknown";
	}
}

const char *il_cpufreq_driver_name(enum il_cpufreq_driver d)
{
	switch (d) {
	case IL_CPUFREQ_ACPI: return "acpi-cpufreq";
	case IL_CPUFREQ_INTEL_PSTATE: return "intel_pstate";
	default: return "none";
	}
}

const char *il_cpufreq_scope_name(enum il_cpufreq_scope s)
{
	switch (s) {
	case IL_CPUFREQ_SCOPE_CORE: return "core";
	case IL_CPUFREQ_SCOPE_PACKAGE: return "package";
	default: return "cpu";
	}
}

const char *il_pstate_mode_name(enum il_pstate_mode m)
{
	switch (m) {
	case IL_PSTATE_MODE_ACTIVE: return "active";
	case IL_PSTATE_MODE_PASSIVE: return "passive";
	default: return "auto";
	}
}

double il_platform_turbo_mhz(const struct il_platform *p, int n)
{
	if (!p->nturbo || n < 1)
		return 0;
	return p->turbo_mhz[(n > p->nturbo ? p->nturbo : n) - 1];
}

int il_platform_pstates(const struct il_platform *p, double *mhz, int max)
{
	int n = 0;

	if (!p->has_cpufreq || max <= 0)
		return 0;
	if (p->npstates) {
		for (; n < p->npstates && n < max; n++)
			mhz[n] = p->pstate_mhz[n];
		return n;
	}
	/* acpi-cpufreq's turbo entry: base + 1 MHz, the request that lets the hardware turbo */
	if (p->nturbo && p->turbo_mhz[0] > p->base_mhz)
		mhz[n++] = p->base_mhz + 1;
	for (int i = 0; n < max; i++) {
		double f = p->base_mhz - i * p->pstate_step_mhz; /* no drift from repeated steps */
		if (f < p->efficient_mhz - 1e-9)
			break;
		mhz[n++] = f;
	}
	if (n < max && mhz[n - 1] > p->efficient_mhz + 1e-9)
		mhz[n++] = p->efficient_mhz; /* the step does not land on it: the table ends there */
	return n;
}
