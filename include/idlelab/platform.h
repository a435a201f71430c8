/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Platforms: a machine described in a text file (docs/platform-format.md).
 *
 * A platform gives topology, CPUID facts, the kernel configuration it boots
 * (HZ, idle=, module options), the firmware tables the idle drivers read
 * (ACPI _CST entries) or an explicit state table, turbo bins and a power
 * model. src/drivers/ turns it into the state table the kernel would build.
 */
#ifndef IDLELAB_PLATFORM_H
#define IDLELAB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/state.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_PLAT_SOURCES_MAX 16
#define IL_PLAT_CST_MAX 8          /* ACPI_PROCESSOR_MAX_POWER */
#define IL_PLAT_TURBO_MAX 256
#define IL_PLAT_OPTIONS_MAX 32
#define IL_PLAT_PSTATES_MAX 32     /* acpi-cpufreq P-state table entries ([cpufreq] pstates) */
/*
 * The most CPUs a platform may have (packages x cores x threads): the
 * kernel's largest NR_CPUS, x86_64 with CONFIG_MAXSMP (arch/x86/Kconfig,
 * NR_CPUS_RANGE_END); powerpc allows as many, arm64 fewer. The platform
 * loader refuses more, and the simulator and its workloads size per-CPU
 * arrays by it.
 */
#define IL_CPUS_MAX 8192

enum il_vendor { IL_VENDOR_UNKNOWN = 0, IL_VENDOR_INTEL, IL_VENDOR_AMD, IL_VENDOR_HYGON,
		 IL_VENDOR_IBM, IL_VENDOR_OTHER };
enum il_arch { IL_ARCH_X86 = 0, IL_ARCH_POWERPC, IL_ARCH_ARM64 };

/* ACPI _CST entry as firmware hands it to the OS. */
enum il_cst_method { IL_CST_FFH = 0, IL_CST_HALT, IL_CST_SYSTEMIO };
struct il_cst_entry {
	int type;                      /* ACPI C-state type 1..3 */
	unsigned int latency_us;       /* _CST latency */
	unsigned int power_mw;         /* _CST power */
	enum il_cst_method method;
	unsigned int address;          /* MWAIT hint (FFH) or I/O port (SYSTEMIO) */
	int line;                      /* line in the platform file */
};

/* [cpufreq]: the cpufreq driver the kernel loads, and the scope of a policy. */
enum il_cpufreq_driver { IL_CPUFREQ_NONE = 0, IL_CPUFREQ_ACPI, IL_CPUFREQ_INTEL_PSTATE };
enum il_cpufreq_scope { IL_CPUFREQ_SCOPE_CPU = 0, IL_CPUFREQ_SCOPE_CORE,
			IL_CPUFREQ_SCOPE_PACKAGE };
/*
 * intel_pstate's operation mode: AUTO is the release's default (passive
 * without HWP from 5.8, 33aa46f252c7).
 */
enum il_pstate_mode { IL_PSTATE_MODE_AUTO = 0, IL_PSTATE_MODE_ACTIVE, IL_PSTATE_MODE_PASSIVE };

/* One "key = value" option such as "idle=halt" or "intel_idle.max_cstate=1". */
struct il_plat_option {
	char key[48];
	char value[256];               /* intel_idle.table takes up to 255 characters */
	int line;                      /* platform file line; 0: set by a caller (--option) */
};

struct il_platform {
	char name[64];
	char description[160];
	char file[256];                /* where it was read from ("builtin:NAME") */
	int nsources;
	char sources[IL_PLAT_SOURCES_MAX][200];

	/* [topology] */
	int packages;
	int cores_per_package;
	int threads_per_core;
	int llc_cores;                 /* cores sharing a last-level cache (0: all of a package's) */

	/* [cpu] */
	enum il_arch arch;
	enum il_vendor vendor;
	int family;
	int model;
	int stepping;
	char model_name[64];
	bool hypervisor;               /* X86_FEATURE_HYPERVISOR */
	char hypervisor_name[16];      /* "kvm", "powervm", ... */
	bool kvm_hints_realtime;       /* KVM_HINTS_REALTIME */
	bool tdx_guest;
	bool mwait;                    /* X86_FEATURE_MWAIT */
	unsigned int cpuid5_ecx;       /* CPUID.5:ECX (bit0 extensions, bit1 irq break) */
	unsigned int cpuid5_edx;       /* CPUID.5:EDX sub-state counts */
	bool arat;                     /* always-running APIC timer */
	bool nonstop_tsc;
	bool bug_monitor;              /* X86_BUG_MONITOR */
	bool bug_amd_apic_c1e;         /* X86_BUG_AMD_APIC_C1E */
	unsigned int pkg_cst_config;   /* MSR_PKG_CST_CONFIG_CONTROL */
	bool sgx_enabled;              /* SGX present and enabled (intel_idle SKL-H fix-up) */
	unsigned int pkgc_irtl[5];     /* MSR_PKGC6/7/8/9/10_IRTL (intel_idle Goldmont fix-up) */
	bool shared_processor;         /* pseries shared LPAR */
	double base_mhz;
	/*
	 * ACPI CPPC capabilities (/sys/devices/system/cpu/cpuN/acpi_cppc/) that
	 * AMD's frequency invariance reads (src/platform/freqmax.c); -1: not given
	 */
	long cppc_highest_perf;        /* CPU 0's highest_perf */
	long cppc_nominal_perf;        /* CPU 0's nominal_perf */
	int cppc_preferred_cores;      /* 1: highest_perf differs between CPUs, 0: the same on all */
	unsigned int cppc_nominal_freq; /* CPU 0's _CPC NominalFrequency, MHz (0: not given) */
	int acpi_cpc;                  /* the firmware gives _CPC: 1, 0 ([cpu] acpi_cpc; not given:
					  1 where both perf values are, else -1, unknown) */
	int amd_core_type;             /* CPU 0's core type on heterogeneous AMD parts:
					  IL_AMD_CORE_* (NONE: a homogeneous part) */
	double tb_mhz;                 /* POWER timebase frequency */
	unsigned int xcede_latency_us[16]; /* pseries extended CEDE records, µs (0 = skipped) */
	int nxcede;
	uint64_t xcede_latency_ticks[16]; /* the same records in timebase ticks, as RTAS gives them */
	int nxcede_ticks;
	int xcede_record_size;         /* RTAS record size in bytes (0 = not given: 10) */

	/* [kernel] */
	unsigned int hz;
	int64_t switch_ns;             /* wake-up visible to the task running, ns (0 = engine default) */
	struct il_dist switch_cycles;  /* the same path as core cycles, drawn per wake-up and timed
					  at the CPU's package clock (NONE: switch_ns) */
	struct il_dist tick_stop_cost; /* added to the entry window when the tick stops there, ns */
	int watchdog_thresh;           /* kernel.watchdog_thresh, s: each CPU's soft-lockup hrtimer
					  every 2/5 of it (0 = not modelled) */
	struct il_dist watchdog_stopper; /* the stopper thread that timer wakes: its hold of the
					    CPU after the switch into it, ns (NONE: not modelled) */
	char release[16];              /* default kernel release, "" = newest */
	int noptions;
	struct il_plat_option options[IL_PLAT_OPTIONS_MAX]; /* boot/module options */

	/* [firmware] */
	bool has_cst;
	bool cst_claim_ok;             /* acpi_processor_claim_cst_control() succeeds */
	bool c_states_disabled;        /* firmware switched C-states off globally */
	int ncst;
	struct il_cst_entry cst[IL_PLAT_CST_MAX];
	struct il_dist pm_timer_read;  /* ACPI PM timer read cost (dummy wait), ns */
	struct il_dist pm_timer_hold;  /* part of that read the register is held (none: all) */
	struct il_dist hlt_exit;       /* wake-up latency of HLT, ns */
	struct il_dist mwait_exit;     /* wake-up latency of MWAIT C1, ns */
	struct il_dist poll_exit;      /* wake-up latency of a polling CPU, ns */
	/* FADT / P_BLK facts acpi_idle reads when there is no _CST (or processor.nocst) */
	unsigned int pblk;             /* processor P_BLK I/O address (0 = none: no FADT C-states) */
	unsigned int fadt_c2_latency;  /* FADT P_LVL2_LAT, µs */
	unsigned int fadt_c3_latency;  /* FADT P_LVL3_LAT, µs */
	bool fadt_c2_mp;               /* FADT flag P_LVL2_UP: C2 usable with several CPUs */
	bool fadt_wbinvd;              /* FADT flag WBINVD (default yes) */
	bool pm2_control;              /* FADT PM2 control block: ARB_DIS usable (bm_control) */
	int nstate_exit;
	struct il_plat_state_exit {
		char name[IL_NAME_LEN];    /* state name as the driver names it ("C6", "C2") */
		struct il_dist dist;       /* its real wake-up latency, ns */
		int line;                  /* platform file line of the key */
	} state_exit[IL_STATE_MAX];    /* "exit.NAME = dist" */
	int nstate_power;
	struct il_plat_state_power {
		char name[IL_NAME_LEN];    /* state name as the driver names it */
		double power_w;            /* "power.NAME = W"; -1 = not given */
		double transition_j;       /* "transition.NAME = J"; -1 = not given */
		int line;                  /* platform file line of the first of its keys */
		bool line_is_power;        /* that key is power.NAME (else transition.NAME) */
	} state_power[IL_STATE_MAX];   /* power data for driver-derived states */

	/* [state.N]: an explicit table (used when driver is not derived) */
	struct il_driver table;
	bool has_table;

	/* [turbo] */
	int nturbo;
	double turbo_mhz[IL_PLAT_TURBO_MAX]; /* turbo_mhz[n-1] = max MHz with n active cores */
	bool turbo_listed[IL_PLAT_TURBO_MAX]; /* n was a key: the bin's group boundary, as
						 MSR_TURBO_RATIO_LIMIT1 lists it on Skylake-X */

	/* [cpufreq] (docs/platform-format.md); base frequency: [cpu] base_mhz */
	bool has_cpufreq;              /* the section is given */
	double efficient_mhz;          /* EFFIC: the most efficient (lowest intel_pstate) frequency */
	bool hwp;                      /* HWP present and enabled */
	double hwp_lowest_mhz;         /* IA32_HWP_CAPABILITIES: lowest performance */
	double hwp_efficient_mhz;      /* most efficient performance */
	double hwp_guaranteed_mhz;     /* guaranteed performance */
	double hwp_highest_mhz;        /* highest performance */
	bool hwp_given[4];             /* which of the four the file gave (else derived) */
	int npstates;                  /* explicit P-state table, MHz, descending (0: from step) */
	double pstate_mhz[IL_PLAT_PSTATES_MAX];
	double pstate_step_mhz;        /* table step from base down to efficient */
	int64_t transition_ns;         /* P-state transition latency, ns (0: not given) */
	enum il_cpufreq_scope cpufreq_scope; /* CPUs sharing a policy */
	enum il_cpufreq_driver cpufreq_driver; /* the driver the kernel loads by default */
	char cpufreq_governor[16];     /* default governor ("": the driver's default) */
	enum il_pstate_mode pstate_mode;
	bool turbo_disabled;           /* MSR_IA32_MISC_ENABLE turbo-disable bit at boot */

	/* [power] */
	double active_w_per_ghz;       /* dynamic power of a busy thread per GHz */
	double active_static_w;        /* static power of a busy thread */
	double package_w;              /* uncore power while any core active */

	/* [ipi] wake-up signalling */
	struct il_dist ipi_send;       /* cost to the sender, ns */
	struct il_dist ipi_delivery;   /* send to arrival at the target, ns */
	struct il_dist monitor_wake;   /* need_resched store to a CPU in MWAIT: the line's
					  transfer until the monitor fires, ns */

	/* [noise] what makes runs with different seeds differ */
	double irq_rate;               /* device interrupts per second on each CPU (Poisson) */
	struct il_dist irq_cost;       /* their handler time, ns */
	struct il_dist timer_jitter;   /* hrtimer expiry to its interrupt, ns */
	struct il_dist timer_jitter_halted; /* the same when the expiry finds the CPU in HLT
					       (NONE: timer_jitter), drawn at the expiry */
	bool timer_delivery_stops;     /* the delivery holds the CPU: no poll limit during it */
	int64_t timer_slack_ns;        /* slack of the workloads' sleeps (hard expiry = + slack) */
	double host_stall_rate;        /* host stalls of each vCPU per second (Poisson), 0: none */
	struct il_dist host_stall;     /* how long the host holds the vCPU in one, ns */
};

static inline int il_platform_ncpus(const struct il_platform *p)
{
	return p->packages * p->cores_per_package * p->threads_per_core;
}

/* Cores sharing one last-level cache: llc_cores, or the whole package when 0 or larger. */
static inline int il_platform_llc_cores(const struct il_platform *p)
{
	int cpp = p->cores_per_package;
	return p->llc_cores > 0 && p->llc_cores < cpp ? p->llc_cores : cpp;
}

/* The soft-lockup hrtimer's period (watchdog_timer_fn(): watchdog_thresh x 2 / 5 s), 0: none. */
static inline int64_t il_platform_watchdog_period_ns(const struct il_platform *p)
{
	return p->watchdog_thresh > 0 ? (int64_t)p->watchdog_thresh * 2 * 1000000000 / 5 : 0;
}

/* That timer wakes a modelled stopper thread ([kernel] watchdog_stopper). */
static inline bool il_platform_watchdog_stopper(const struct il_platform *p)
{
	return p->watchdog_thresh > 0 && p->watchdog_stopper.kind != IL_DIST_NONE;
}

/*
 * The turbo limit with n active cores of a package (n >= 1): the [turbo]
 * bin, the top bin for n beyond the table, 0 when there is none.
 */
double il_platform_turbo_mhz(const struct il_platform *p, int n);

/*
 * The P-state table acpi-cpufreq would build ([cpufreq] pstates, or from
 * base_mhz down to efficient_mhz by pstate_step_mhz, headed by the
 * base + 1 MHz turbo entry when the part has turbo bins), descending.
 * Returns the entry count (at most max), 0 without [cpufreq].
 */
int il_platform_pstates(const struct il_platform *p, double *mhz, int max);

/*
 * The frequency x86 frequency invariance treats as the maximum (freq_max,
 * arch_max_freq_ratio = freq_max / freq_base x 1024), by the per-model
 * rule of the kernel release (src/platform/freqmax.c cites the code).
 */
enum il_freq_max_rule {
	IL_FMAX_NONE = 0,              /* no frequency invariance (why says why) */
	IL_FMAX_UNMODELLED,            /* the kernel has it, idlelab does not model its rule */
	IL_FMAX_CORE_4C,               /* Core/Xeon: the 4-active-core turbo bin */
	IL_FMAX_CORE_1C,               /* Core/Xeon with fewer than 4 bins: the 1-core bin */
	IL_FMAX_SKX_GROUP4,            /* Skylake-X: the first turbo group of >= 4 cores */
	IL_FMAX_GOLDMONT,              /* Goldmont: the first group, the highest */
	IL_FMAX_KNL,                   /* Xeon Phi: the second-highest bin */
	IL_FMAX_ATOM_1C,               /* Atom before Goldmont: the 1-core turbo */
	IL_FMAX_AMD_CPPC,              /* AMD 5.11, 5.12: CPPC highest_perf over nominal_perf */
	IL_FMAX_AMD_MODEL,             /* AMD 5.13 .. 6.11: 166 or 255 by model over nominal_perf */
	IL_FMAX_AMD_NUMERATOR,         /* AMD 6.12 on: the boost numerator over nominal_perf */
};
/* [cpu] amd_core_type: CPU 0's core type (X86_FEATURE_AMD_HETEROGENEOUS_CORES parts) */
enum { IL_AMD_CORE_NONE = 0, IL_AMD_CORE_PERFORMANCE, IL_AMD_CORE_EFFICIENCY };
struct il_freq_max {
	enum il_freq_max_rule rule;
	bool invariant;                /* the scheduler scales utilisation by frequency */
	double base_mhz;               /* freq_base: MPERF's rate, [cpu] base_mhz */
	double turbo_mhz;              /* freq_max with turbo on (arch_turbo_freq_ratio) */
	double mhz;                    /* freq_max at boot: base if turbo is disabled, else turbo_mhz;
					  0 without invariance */
	unsigned long turbo_ratio;     /* turbo_mhz x 1024 / base_mhz, truncated */
	unsigned long ratio;           /* arch_max_freq_ratio at boot (1024 with turbo off) */
	unsigned long numerator;       /* AMD: the perf value over nominal_perf (0 on Intel) */
	const char *since;             /* first release with the rule ("5.7"), NULL for NONE */
	const char *first;             /* first release invariant on this vendor ("5.7", AMD
					  "5.11"); NULL for NONE */
	const char *what;              /* "4C turbo", ...; for NONE/UNMODELLED: "none" */
	char why[200];                 /* the rule or the reason there is none, one line */
};
/*
 * freq_max of platform p under kernel release rel (NULL: the platform's
 * release, else the newest). 0, or -EINVAL for a release outside the
 * known range (err says so). When turbo comes and goes at run time (a
 * _PPC change, intel_pstate no_turbo), the kernel swaps freq_max with
 * freq_base: ratio 1024 while off, turbo_ratio while on.
 */
int il_platform_freq_max(const struct il_platform *p, const char *rel, struct il_freq_max *out,
			 struct il_err *err);
/*
 * o, a rule's result for p at rel (NULL: as il_platform_freq_max()), as
 * acpi-cpufreq leaves it (5.11 on, every vendor): without a boost ratio
 * (no _CPC, or CPPC highest, on AMD the numerator, below nominal_perf) the
 * driver sets ratio 1024, freq_max the base (d11a1d08a082).
 * il_platform_freq_max() applies it when p names acpi-cpufreq; the
 * simulator's cpufreq layer applies it when it runs acpi-cpufreq.
 */
void il_freq_max_acpi_cpufreq(const struct il_platform *p, const char *rel, struct il_freq_max *o);

/* acpi-cpufreq's boost ratio and cpuinfo.max_freq at a release (src/platform/freqmax.c). */
struct il_acpi_cpufreq {
	bool modelled;                 /* false: a CPPC key the release reads is missing (AMD) */
	bool cpc;                      /* the firmware gives _CPC ([cpu] acpi_cpc) */
	unsigned long boost_ratio;     /* get_max_boost_ratio(): highest x 1024 / nominal, 0: none */
	bool ratio_1024;               /* 5.11 on without a boost ratio: arch_set_max_freq_ratio(true) */
	bool boost_entry;              /* 5.11: the table's extra top entry at max_khz (3c55e94c0ade) */
	unsigned int p0_khz;           /* the table's top entry, P0 */
	unsigned int max_khz;          /* cpuinfo.max_freq */
	char why[200];                 /* how max_khz comes about, one line */
};
/*
 * cpuinfo.max_freq of acpi-cpufreq on p under release rel (NULL: as
 * il_platform_freq_max()) with the table's top entry p0_mhz. 0, or -EINVAL
 * for a release outside the known range.
 */
int il_acpi_cpufreq_max(const struct il_platform *p, const char *rel, double p0_mhz,
			struct il_acpi_cpufreq *o);
/* The same as a number: freq_max in MHz at boot, 0 without invariance (or a bad release). */
double il_platform_freq_max_mhz(const struct il_platform *p, const char *rel);

const char *il_cpufreq_driver_name(enum il_cpufreq_driver d);
const char *il_cpufreq_scope_name(enum il_cpufreq_scope s);
const char *il_pstate_mode_name(enum il_pstate_mode m);

/* Parse a platform from a file. Returns 0 or a negative code with err (file, line). */
int il_platform_load_file(struct il_platform *p, const char *path, struct il_err *err);
/* Parse a platform from memory; name is used in messages. */
int il_platform_load_string(struct il_platform *p, const char *text, size_t len,
			    const char *name, struct il_err *err);
/* Load "NAME" of a built-in platform, or a file path. */
int il_platform_load(struct il_platform *p, const char *name_or_path, struct il_err *err);

/* Built-in platforms (compiled in from the files under platforms/). */
struct il_builtin_platform {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct il_builtin_platform il_builtin_platforms[];
extern const int il_builtin_platform_count;
#define IL_DEFAULT_PLATFORM "kvm-haltpoll"

/* Option lookup: value of "key" among platform options (or NULL). */
const char *il_platform_option(const struct il_platform *p, const char *key);
/*
 * Set or replace an option (command-line overrides). A key that is not one
 * of the boot/module options idlelab models (il_boot_options) is refused
 * with -EINVAL and a message naming it.
 */
int il_platform_set_option(struct il_platform *p, const char *key, const char *value,
			   struct il_err *err);

/*
 * The boot and module parameters idlelab models: every name the drivers
 * (src/drivers/) and the simulator read with il_platform_option(), with
 * the value form and what reads it.
 */
struct il_boot_option {
	const char *name;              /* "intel_idle.max_cstate" */
	const char *value;             /* value form: "N", "poll|halt|nomwait", "bool", ... */
	const char *help;              /* what it does, and which kernel code reads it */
};
extern const struct il_boot_option il_boot_options[];
extern const int il_boot_option_count;
/* The entry for name, or NULL. */
const struct il_boot_option *il_boot_option_find(const char *name);
/* 0 if name is one of them, else -EINVAL and a message with the names it may have meant. */
int il_boot_option_check(const char *name, struct il_err *err);

/*
 * The keys of a platform file, one table (src/platform/platform.c) that
 * the parser works from: type, bounds, default and a line of help each, so
 * that a default is written once and docs/platform-format.md can be
 * checked against it.
 */
enum il_plat_key_type {
	IL_PK_INT,       /* integer (decimal or 0x hex) within [min, max] */
	IL_PK_UINT,      /* non-negative 32-bit integer (decimal or 0x hex) */
	IL_PK_BOOL,      /* yes/no, true/false, 1/0, on/off, y/n */
	IL_PK_NUMBER,    /* a non-negative number */
	IL_PK_DURATION,  /* a duration within (min, max] ns; unit ns (default), us, ms, s */
	IL_PK_DIST,      /* a distribution (docs/platform-format.md, Distributions) */
	IL_PK_TEXT,      /* text of at most max characters */
	IL_PK_WORD,      /* one of the words help lists */
	IL_PK_LIST,      /* up to max numbers separated by spaces or commas */
	IL_PK_OPTION,    /* a boot/module option, KEY=VALUE or KEY (il_boot_options) */
	IL_PK_RELEASE,   /* a kernel release tag within IL_RELEASE_OLDEST..NEWEST */
	IL_PK_FLAGS,     /* state flags joined with '|' or ',' */
};
#define IL_PK_REPEAT 0x1u    /* may be given more than once */
#define IL_PK_REQUIRED 0x2u  /* must be given (in each [state.N] / [cst.N] of a table) */

struct il_plat_key {
	const char *section;           /* "platform", "cpu", ..., "state.N", "cst.N", "turbo" */
	const char *name;              /* "family"; "exit.NAME" stands for exit.<state name> */
	enum il_plat_key_type type;
	double min, max;               /* bounds of INT, DURATION; max length of TEXT, LIST */
	const char *def;               /* the default as a file would write it; NULL: none */
	unsigned flags;                /* IL_PK_REPEAT, IL_PK_REQUIRED */
	const char *help;              /* one line */
};
int il_platform_key_count(void);
const struct il_plat_key *il_platform_key(int i);
const char *il_plat_key_type_name(enum il_plat_key_type t);

const char *il_vendor_name(enum il_vendor v);

#ifdef __cplusplus
}
#endif

#endif
