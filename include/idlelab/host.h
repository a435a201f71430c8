/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine idlelab runs on, or a captured copy of it: what doctor,
 * capture and platform capture read beyond the cpuidle counters.
 *
 * A root is "/" for the live machine or a directory laid out the same way
 * (DIR/sys/..., DIR/proc/..., written by `idlelab capture DIR`). Every
 * file is read below the root by the rules of src/live/tree.h (no link
 * followed, regular single-link files of bounded size, known names only):
 *
 *   sys/devices/system/cpu/        the cpuidle tree (include/idlelab/sysfs.h),
 *                                  online/possible/present, cpu<N>/topology/
 *                                  {physical_package_id,die_id,core_id,
 *                                  thread_siblings_list}, cpu<N>/power/
 *                                  pm_qos_resume_latency_us, cpufreq/policy<N>/
 *                                  {scaling_driver,scaling_governor,
 *                                  cpuinfo_min_freq,cpuinfo_max_freq,
 *                                  scaling_min_freq,scaling_max_freq,
 *                                  base_frequency,related_cpus}
 *   sys/devices/system/clocksource/clocksource0/current_clocksource
 *                                  (kvm-clock, xen, hyperv_clocksource_tsc_page
 *                                  tell the hypervisor)
 *   sys/module/M/parameters/P      the cpuidle and cpufreq module parameters
 *                                  of il_host_params[] (haltpoll, intel_idle,
 *                                  processor, cpuidle, cpufreq, ...)
 *   proc/cpuinfo, proc/cmdline, proc/uptime, proc/version,
 *   proc/sys/kernel/osrelease, proc/sys/kernel/random/boot_id,
 *   proc/ppc64/lparcfg             (pseries: shared or dedicated LPAR)
 *   proc/config.gz, else boot/config-<release>   the kernel configuration:
 *                                  only the CONFIG_ lines of il_host_config_keep
 *                                  are kept (HZ, NO_HZ, CPU_IDLE, drivers)
 *   dev/cpu_dma_latency            PM QoS: the CPU latency limit (an s32 in
 *                                  µs, as the misc device's read() gives it)
 *   idlelab-meta.txt               a capture's metadata (il_meta below)
 *
 * On the live machine the processes holding /dev/cpu_dma_latency open are
 * found from /proc/<pid>/fd (readlink, nothing followed) and
 * /proc/<pid>/comm; a capture keeps them in its metadata.
 */
#ifndef IDLELAB_HOST_H
#define IDLELAB_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"
#include "idlelab/platform.h"
#include "idlelab/sysfs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_HOST_LIVE_ROOT "/"
/* The CPU latency limit no request lowers (PM_QOS_CPU_LATENCY_DEFAULT_VALUE, µs). */
#define IL_PM_QOS_DEFAULT_US 2000000000
#define IL_HOST_HOLDERS_MAX 32

/* ------------------------------------------------------------------ */
/* Metadata: "key: value" lines (idlelab-meta.txt) */

struct il_meta_item {
	char *key;
	char *value;
	int line;
};
struct il_meta {
	int n, cap;
	struct il_meta_item *items;
};
/*
 * Parse metadata text: lines "key: value" (keys of letters, digits and
 * "._-", values without control characters), "#" comments and blank
 * lines; the first line must be "format: idlelab-meta 1". name is used
 * in errors ("NAME:LINE: ..."). Keys may repeat (pm_qos.holder).
 */
int il_meta_parse(const char *text, size_t len, const char *name, struct il_meta *m,
		  struct il_err *err);
/* Add an item (value: control characters become blanks). */
void il_meta_add(struct il_meta *m, const char *key, const char *value);
void il_meta_addf(struct il_meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The first value of key, or NULL. */
const char *il_meta_get(const struct il_meta *m, const char *key);
/* The text of a metadata file (malloc'ed). */
char *il_meta_text(const struct il_meta *m);
void il_meta_free(struct il_meta *m);
/*
 * Read and parse DIR/idlelab-meta.txt by the tree rules (no link, a
 * regular file of at most 1 MiB): 0, -ENOENT if there is none, or another
 * negative errno with err (a file that breaks the rules, a syntax error
 * with its line).
 */
int il_meta_read_dir(const char *dir, struct il_meta *m, struct il_err *err);

/* ------------------------------------------------------------------ */
/* /proc/cpuinfo */

struct il_cpuinfo {
	int nprocessors;            /* "processor" entries */
	enum il_arch arch;
	enum il_vendor vendor;
	char vendor_id[32];         /* "AuthenticAMD", "GenuineIntel", "HygonGenuine" */
	int family, model, stepping;/* -1 if not given */
	char model_name[128];       /* x86 "model name"; powerpc "cpu" */
	double mhz;                 /* the first "cpu MHz" (0: none) */
	bool has_flags;             /* a "flags" line was seen */
	bool monitor, hypervisor, arat, nonstop_tsc, constant_tsc;
	uint64_t timebase;          /* powerpc "timebase" (Hz; 0: none) */
	char platform[32];          /* powerpc "platform" ("pSeries", "PowerNV") */
	int npackages;              /* distinct "physical id" (0: not given) */
	int cores_per_package;      /* "cpu cores" of the first processor (0: not given) */
	int siblings;               /* "siblings" of the first processor (0: not given) */
};
/* Parse cpuinfo text; never fails (unknown lines are skipped). */
void il_cpuinfo_parse(const char *text, size_t len, struct il_cpuinfo *ci);

/* ------------------------------------------------------------------ */
/* The kernel configuration */

/* Is this CONFIG_ name one a capture keeps? */
bool il_host_config_keep(const char *name, size_t len);
/*
 * The kept lines of a configuration text ("CONFIG_HZ=250\n..."; "# CONFIG_X
 * is not set" lines of kept names too), malloc'ed.
 */
char *il_config_filter(const char *text, size_t len);
/* The value of CONFIG_name in config text ("250", "y"), malloc'ed; NULL if absent. */
char *il_config_get(const char *text, size_t len, const char *name);

/* ------------------------------------------------------------------ */
/* The machine */

/* The module parameters read: module, parameter. */
struct il_host_param_name {
	const char *module;
	const char *name;
};
extern const struct il_host_param_name il_host_params[];
extern const int il_host_param_count;

struct il_host_param {
	const char *module, *name;  /* from il_host_params */
	char *value;                /* trailing newline removed */
};

struct il_host_cpu {
	int cpu;
	int package, die, core;     /* -1: not given */
	char *thread_siblings;      /* thread_siblings_list, NULL: not given */
	char *resume_latency;       /* power/pm_qos_resume_latency_us as written ("0", "n/a", "20") */
	int64_t cppc_highest, cppc_nominal; /* acpi_cppc/highest_perf, nominal_perf; -1: not given */
	int64_t cppc_nominal_freq;      /* acpi_cppc/nominal_freq (MHz); -1: not given */
};

struct il_host_policy {
	int policy;                 /* N of policy<N> */
	char *driver, *governor, *related_cpus;   /* NULL: not given */
	uint64_t cpuinfo_min_khz, cpuinfo_max_khz, scaling_min_khz, scaling_max_khz,
		 base_khz;          /* 0: not given */
};

struct il_host_holder {
	int pid;
	char comm[64];
};

/* One file as read, kept for capture: its path below the root and bytes. */
struct il_host_file {
	char *rel;
	char *data;
	size_t len;
	bool binary;                /* may hold any byte (cpu_dma_latency) */
};

struct il_host {
	char *root;                 /* as given */
	bool live;                  /* root is "/" */

	/* sys/devices/system/cpu: the cpuidle tree; sysfs_rc < 0: not readable (sysfs_err) */
	int sysfs_rc;
	struct il_err sysfs_err;
	struct il_sysfs_info sysfs;
	char *online, *possible, *present;   /* CPU lists as written, NULL: not given */
	int ncpus;
	struct il_host_cpu *cpus;   /* every cpu<N> directory, sorted */
	int npolicies;
	struct il_host_policy *policies;
	char *clocksource;          /* current_clocksource, NULL: not given */

	/* /proc */
	char *release;              /* proc/sys/kernel/osrelease, NULL: not given */
	char *version;              /* proc/version */
	char *cmdline;              /* proc/cmdline */
	char *boot_id;
	double uptime_s;            /* < 0: not given */
	bool has_cpuinfo;
	struct il_cpuinfo cpuinfo;
	int lpar_shared;            /* proc/ppc64/lparcfg shared_processor_mode: 1, 0, -1 unknown */

	/* kernel configuration: the kept lines and where they came from */
	char *config;               /* NULL: none readable */
	char *config_file;          /* "proc/config.gz" or "boot/config-<release>" */
	unsigned int hz;            /* CONFIG_HZ, 0: unknown */

	int nparams;
	struct il_host_param *params;

	/* PM QoS */
	bool has_dma_latency;
	int32_t dma_latency_us;
	int nholders;               /* -1: not known (a capture without them) */
	bool holders_partial;       /* some /proc/<pid>/fd could not be read (not root) */
	struct il_host_holder holders[IL_HOST_HOLDERS_MAX];

	/* a capture's metadata (idlelab-meta.txt); has_meta false on the live machine */
	bool has_meta;
	struct il_meta meta;

	/* the files as read, for capture (with_files) */
	int nfiles;
	struct il_host_file *files;

	struct il_sysfs_notes notes;   /* per-file problems */
};

/*
 * Read the machine (root NULL or "/") or a captured tree. Fails only if
 * root cannot be opened; missing files are missing, bad ones are notes.
 * with_files: also keep every file's bytes (for il_host_capture).
 */
int il_host_read(const char *root, bool with_files, struct il_host *h, struct il_err *err);
void il_host_free(struct il_host *h);

/* The value of module parameter module.name ("haltpoll", "guest_halt_poll_ns"); NULL if absent. */
const char *il_host_param(const struct il_host *h, const char *module, const char *name);
/*
 * The value of a boot option on the command line: "idle" in "idle=halt"
 * gives "halt"; a flag without '=' gives ""; NULL if absent. The last
 * occurrence wins, as for most kernel parameters; nothing after "--" is
 * looked at (init's arguments).
 */
const char *il_host_cmdline_opt(const struct il_host *h, const char *key, char *buf, size_t size);
/*
 * The hypervisor: "kvm" where KVM's CPUID leaves are found (il_host_kvm()),
 * else what the clocksource (or the haltpoll driver) tells: "kvm", "xen",
 * "hyperv"; NULL when nothing tells.
 */
const char *il_host_hypervisor(const struct il_host *h);
/* "6.18" from "6.18.44-fc-v1045" into buf; false if the release is not MAJOR.MINOR... */
bool il_host_release_tag(const struct il_host *h, char *buf, size_t size);

/*
 * The metadata of this moment: timestamp (CLOCK_REALTIME, UTC), boottime_ns
 * (CLOCK_BOOTTIME), and from h: boot_id, uptime, kernel release and
 * version, cmdline, the module parameters, HZ, PM QoS (limit, holders,
 * per-CPU resume latencies that are set). Add to m.
 */
void il_host_meta(const struct il_host *h, struct il_meta *m);
/*
 * CPUID leaf 5 (which /proc/cpuinfo does not show): on the live machine by
 * the instruction, when idlelab runs on x86 (1); from a captured tree's
 * "cpuid5: ecx=0x.. edx=0x.." metadata line (2); else 0.
 */
int il_host_cpuid5(const struct il_host *h, unsigned int *ecx, unsigned int *edx);
/*
 * KVM's CPUID leaves (the "KVMKVMKVM" signature at base 0x40000000 + k *
 * 0x100, into base if not NULL) and their hints (leaf base + 1, EDX; bit 0
 * KVM_HINTS_REALTIME): on the live
 * x86 machine by the instruction (1), from a captured tree's "kvm_cpuid:
 * base=0x.. hints=0x.." metadata line (2); -1 when found absent (a live
 * machine without the leaves, or "kvm_cpuid: none"); 0 when unknown.
 */
int il_host_kvm(const struct il_host *h, unsigned int *base, unsigned int *hints);
/*
 * Whether CPUID leaf (0x40000000 + k * 0x100) returned KVM's signature, as
 * hypervisor_cpuid_base(KVM_SIGNATURE, 0) takes it: "KVMKVMKVM\0\0\0" in
 * EBX, ECX, EDX, whatever EAX (the maximum leaf; 0 on old hosts, which
 * Documentation/virt/kvm/x86/cpuid.rst says to read as base + 1).
 */
bool il_host_kvm_signature(unsigned int leaf, unsigned int eax, unsigned int ebx, unsigned int ecx,
			   unsigned int edx);

/*
 * Write a capture of h (read with with_files) and its cpuidle tree to
 * dest, which must not exist: everything is read first (the cpuidle
 * files in one pass), then written under a temporary directory renamed
 * to dest when complete (il_outdir); on failure or a signal nothing is
 * left. The copy holds only the names above, text files (cpu_dma_latency
 * excepted: its 4 bytes) of their size limits, mode 0444 (the cpuidle
 * tree with the kernel's modes, as info --save), the kernel configuration
 * filtered to the kept lines as boot/config-<release>, and
 * idlelab-meta.txt (il_host_meta, PM QoS holders included). *nfiles: the
 * files written.
 */
/*
 * The text of a platform file (docs/platform-format.md) named name for h:
 * topology, the CPUID facts of /proc/cpuinfo, HZ, release, the boot
 * options idlelab models, and the running driver's states of the first
 * CPU as an explicit [driver]/[state.N] table (flags and entry methods
 * inferred from names and descs). NULL with err for a bad name (err names
 * no file), or for a state of that table whose latency or residency was
 * not read (err names the file).
 */
char *il_host_platform_text(const struct il_host *h, const char *name, struct il_err *err);

int il_host_capture(const char *root, const char *dest, struct il_sysfs_notes *notes,
		    int *nfiles, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
