/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * idlelab doctor: known idle pathologies found in what a machine (or a
 * capture of it, include/idlelab/host.h) shows. Each finding has an id,
 * a severity, the evidence (files and their values), what to do and the
 * kernel changes it rests on (docs/doctor.md lists them all).
 */
#ifndef IDLELAB_DOCTOR_H
#define IDLELAB_DOCTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/host.h"
#include "idlelab/sysfs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum il_severity { IL_SEV_INFO = 0, IL_SEV_WARNING };

#define IL_DOCTOR_EVIDENCE_MAX 16

struct il_evidence {
	char file[160];              /* below the root ("/sys/..."), "" for a derived fact */
	char value[256];
};

struct il_finding {
	const char *id;              /* "acpi-dummy-wait" */
	enum il_severity severity;
	char title[256];             /* one line */
	int nevidence;
	struct il_evidence evidence[IL_DOCTOR_EVIDENCE_MAX];
	char action[1024];           /* what to do */
	char refs[384];              /* kernel commits, releases, sources */
};

/* The checks, for docs and --list: id, severity, one line of what it finds. */
struct il_doctor_check {
	const char *id;
	enum il_severity severity;
	const char *what;
};
extern const struct il_doctor_check il_doctor_checks[];
extern const int il_doctor_check_count;

struct il_doctor_opts {
	double miss_pct;             /* high-miss-rate threshold, % of a state's entries (20) */
	uint64_t miss_min_usage;     /* entries a state needs in the window to be judged (100) */
	/* the counters' window: NULL judges them since boot */
	const struct il_sysfs_delta *window;
};
void il_doctor_opts_default(struct il_doctor_opts *o);

struct il_doctor {
	int n;
	struct il_finding *findings;
	char release[16];            /* the mainline release judged ("5.14"), "" if not known */
};

/* Run every check on h. Never fails: what cannot be read is not judged. */
void il_doctor_run(const struct il_host *h, const struct il_doctor_opts *o, struct il_doctor *d);
void il_doctor_free(struct il_doctor *d);

const char *il_severity_name(enum il_severity s);

#ifdef __cplusplus
}
#endif

#endif
