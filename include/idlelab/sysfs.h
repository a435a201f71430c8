/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Live sysfs: reading (and saving) the cpuidle tree under
 * /sys/devices/system/cpu.
 *
 * The attribute set follows drivers/cpuidle/sysfs.c at torvalds commit
 * 063565aca3734de4e73639a0e460a58d9418b3cd: the global cpuidle/ directory
 * (current_driver, current_governor, current_governor_ro,
 * available_governors) and per CPU cpu<N>/cpuidle/state<i>/ with name, desc,
 * latency, residency, power, usage, time, above, below, rejected, disable,
 * default_status and s2idle/{usage,time}. Older kernels lack some of them
 * (above/below, default_status and rejected were added during the v5.x
 * series; s2idle exists only for states with an enter_s2idle callback);
 * those read as "missing", which is not an error.
 *
 * Reading happens in two steps: a snapshot of every relevant file's bytes,
 * taken in one pass, then parsing. --save writes the same snapshot back out,
 * so a saved copy reads back exactly as the original did at that moment.
 * Per-file problems (garbage, unreadable) never stop a read: they become
 * notes ("PATH: not a number: 'xyz'") and the value reads as missing.
 *
 * Below the root nothing is reached through a symbolic link (sysfs has
 * none on the paths read), and only regular files with a single link of
 * at most a page are read: a tree whose state0/desc points at /etc/shadow
 * shows and saves none of it, the link is a note.
 */
#ifndef IDLELAB_SYSFS_H
#define IDLELAB_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IL_SYSFS_DEFAULT_ROOT "/sys/devices/system/cpu"
#define IL_SYSFS_CPU_MAX 65536   /* highest CPU number accepted + 1 */
#define IL_SYSFS_STATE_MAX 64    /* highest state index accepted + 1 */
#define IL_SYSFS_FILE_MAX 4096   /* a sysfs attribute is at most a page */

/* How a value came out of its file. */
enum il_sysfs_status {
	IL_SYSFS_MISSING = 0, /* no such file (older kernel, or no s2idle) */
	IL_SYSFS_OK,          /* read and parsed */
	IL_SYSFS_BAD,         /* present but unreadable or not a number */
};

/* The numeric attributes of one state, in the order info prints them. */
enum il_sysfs_field {
	IL_SF_LATENCY = 0,   /* exit latency, us */
	IL_SF_RESIDENCY,     /* target residency, us */
	IL_SF_USAGE,         /* successful entries */
	IL_SF_TIME,          /* total residency, us */
	IL_SF_ABOVE,         /* entries shorter than the target residency */
	IL_SF_BELOW,         /* entries a deeper state would have fitted */
	IL_SF_REJECTED,      /* entries the driver refused */
	IL_SF_DISABLE,       /* user disable bit, 0/1 */
	IL_SF_POWER,         /* power_usage, mW (unsigned print of an int) */
	IL_SF_S2IDLE_USAGE,  /* suspend-to-idle entries */
	IL_SF_S2IDLE_TIME,   /* suspend-to-idle residency, us */
	IL_SF_COUNT
};

/* One numeric attribute. */
struct il_sysfs_val {
	enum il_sysfs_status status;
	uint64_t v;                  /* valid when status == IL_SYSFS_OK */
};

/* One text attribute; s is "" unless status == IL_SYSFS_OK. */
struct il_sysfs_str {
	enum il_sysfs_status status;
	char *s;                     /* trailing newline removed */
};

/* cpu<N>/cpuidle/state<i>/ */
struct il_sysfs_state {
	int index;                   /* i of state<i> */
	struct il_sysfs_str name;
	struct il_sysfs_str desc;
	struct il_sysfs_str default_status; /* "enabled" / "disabled" */
	struct il_sysfs_val val[IL_SF_COUNT];
};

/* cpu<N>/cpuidle/ */
struct il_sysfs_cpu {
	int cpu;                     /* N of cpu<N> */
	struct il_sysfs_str driver;  /* driver/name: only with CPUIDLE_MULTIPLE_DRIVERS */
	int nstates;
	struct il_sysfs_state *states; /* sorted by index */
};

/* Per-file problems found while reading or saving. */
struct il_sysfs_notes {
	int n, cap;
	struct il_err *items;        /* file = full path, msg = what is wrong */
};

/* Everything info shows. */
struct il_sysfs_info {
	struct il_sysfs_str driver;       /* cpuidle/current_driver */
	struct il_sysfs_str governor;     /* current_governor, else current_governor_ro */
	bool governor_ro;                 /* governor came from current_governor_ro */
	struct il_sysfs_str governors;    /* available_governors, as written */
	int ngovernors;
	char **governor_list;             /* available_governors split on blanks */
	int ncpus;
	struct il_sysfs_cpu *cpus;        /* sorted by cpu number */
	struct il_sysfs_notes notes;
};

/* A set of CPU numbers as written on a command line ("0-3,7"). */
struct il_cpulist {
	int n;
	int *cpus;                        /* sorted, no duplicates */
};

/*
 * Parse a counter file's content: decimal digits, optionally followed by
 * one newline (what sysfs' "%llu\n" prints). Returns 0, -EINVAL (empty, a
 * sign, blanks, anything else) or -ERANGE (more than 64 bits).
 */
int il_sysfs_parse_u64(const char *buf, size_t len, uint64_t *v);

/*
 * Parse a text file's content: one trailing newline removed. Returns a
 * malloc'ed string, or NULL (errno EINVAL) if buf holds a NUL byte.
 */
char *il_sysfs_parse_str(const char *buf, size_t len);

/*
 * Parse a CPU list "N", "N-M" joined by commas (the kernel's cpulist
 * format). Refuses empty items, reversed ranges, signs, blanks, numbers
 * >= IL_SYSFS_CPU_MAX. On error fills err (the message names the bad item).
 */
int il_cpulist_parse(const char *s, struct il_cpulist *list, struct il_err *err);
bool il_cpulist_has(const struct il_cpulist *list, int cpu);
void il_cpulist_free(struct il_cpulist *list);

/*
 * Read the cpuidle tree under root (NULL: IL_SYSFS_DEFAULT_ROOT), for the
 * CPUs in only (NULL: every cpu<N> that has a cpuidle directory). Fails
 * only if root or root/cpuidle is missing, or a CPU in only has no cpuidle
 * directory; everything else is a note. Free with il_sysfs_info_free.
 */
int il_sysfs_read(const char *root, const struct il_cpulist *only,
		  struct il_sysfs_info *info, struct il_err *err);
/*
 * The same for the tree rel ("sys/devices/system/cpu") below base: base is
 * taken as named, rel is walked one component at a time without following
 * links (a captured tree's sys/ cannot point elsewhere). rel NULL: base.
 */
int il_sysfs_read_below(const char *base, const char *rel, const struct il_cpulist *only,
			struct il_sysfs_info *info, struct il_err *err);
void il_sysfs_info_free(struct il_sysfs_info *info);

/* Look a state up; NULL if absent. */
const struct il_sysfs_cpu *il_sysfs_find_cpu(const struct il_sysfs_info *info, int cpu);

/*
 * Write a copy of the cpuidle tree under root (same CPU selection as
 * il_sysfs_read) to dest, which must not exist. All files are read first,
 * then written under a temporary directory beside dest (il_outdir_open,
 * include/idlelab/outfile.h) renamed to dest at the end; on failure or a
 * signal nothing is left behind. The copy holds what the kernel could
 * show: the known names only, regular files of text (no NUL byte) of at
 * most a page, with the kernel's modes (0644 for current_governor and
 * disable, 0444 for the rest; directories 0755) less the umask. Files
 * that are unreadable or break those rules are left out and noted.
 * On success *nfiles (may be NULL) is the number of files written.
 */
int il_sysfs_save(const char *root, const struct il_cpulist *only, const char *dest,
		  const char *meta, struct il_sysfs_notes *notes, int *nfiles, struct il_err *err);

/*
 * The file a saved copy (info --save) and a capture keep their metadata
 * in, beside the kernel's files: when and where it was read
 * (include/idlelab/host.h, il_meta_*). il_sysfs_save() writes meta there
 * (mode 0444) unless meta is NULL.
 */
#define IL_SNAPSHOT_META "idlelab-meta.txt"

void il_sysfs_notes_free(struct il_sysfs_notes *notes);

/*
 * Counter differences between two reads of the same CPUs (info
 * --interval, info --diff): per CPU and state, b - a of usage, time,
 * above, below and rejected.
 */
struct il_sysfs_delta_row {
	int cpu, state;
	const char *name;             /* b's state name (valid while b is) */
	struct il_sysfs_val d[IL_SF_COUNT]; /* usage, time, above, below, rejected: the
				       * difference (MISSING/BAD when either side is) */
};
struct il_sysfs_delta {
	int64_t elapsed_ns;           /* between the reads; 0: not known */
	int n;
	struct il_sysfs_delta_row *rows;
};
/*
 * Compute b - a. The CPUs and their states (index and name) must be the
 * same on both sides, and no counter may go down (a reboot, a CPU that
 * went offline and came back, or a and b swapped): otherwise -EINVAL
 * with err naming the CPU, state and file ("cpu0 state1 usage went down
 * from 7 to 5").
 */
int il_sysfs_delta(const struct il_sysfs_info *a, const struct il_sysfs_info *b,
		   int64_t elapsed_ns, struct il_sysfs_delta *d, struct il_err *err);
void il_sysfs_delta_free(struct il_sysfs_delta *d);

/* "latency", "s2idle/usage", ... : the file name of a field. */
const char *il_sysfs_field_file(enum il_sysfs_field f);
/* True for fields older kernels may lack (above, below, rejected, s2idle). */
bool il_sysfs_field_optional(enum il_sysfs_field f);

#ifdef __cplusplus
}
#endif

#endif
