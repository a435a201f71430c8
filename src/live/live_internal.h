/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of src/live share beyond their public headers. */
#ifndef IDLELAB_LIVE_INTERNAL_H
#define IDLELAB_LIVE_INTERNAL_H

#include "idlelab/sysfs.h"
#include "tree.h"

/*
 * A cpuidle snapshot (every file's bytes, read in one pass) kept to be
 * written into a larger copy: `idlelab capture` writes it under
 * sys/devices/system/cpu. base/rel as for il_sysfs_read_below().
 */
struct il_sysfs_snap;
int il_sysfs_snap_take(const char *base, const char *rel, const struct il_cpulist *only,
		       struct il_sysfs_snap **out, struct il_sysfs_notes *notes, struct il_err *err);
/* Write it below w's directory at prefix, by the rules of il_sysfs_save(). */
int il_sysfs_snap_write(const struct il_sysfs_snap *sn, struct il_tree_writer *w,
			const char *prefix, struct il_sysfs_notes *notes);
void il_sysfs_snap_free(struct il_sysfs_snap *sn);

#endif
