// SPDX-License-Identifier: GPL-2.0-only
/* Counter differences between two reads of a cpuidle tree (include/idlelab/sysfs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/sysfs.h"
#include "util.h"

/* The counters a difference is taken of; the others are the driver's fixed values. */
static const enum il_sysfs_field counters[] = {
	IL_SF_USAGE, IL_SF_TIME, IL_SF_ABOVE, IL_SF_BELOW, IL_SF_REJECTED,
	IL_SF_S2IDLE_USAGE, IL_SF_S2IDLE_TIME,
};

static const char *str_of(const struct il_sysfs_str *s)
{
	return s->status == IL_SYSFS_OK ? s->s : "";
}

int il_sysfs_delta(const struct il_sysfs_info *a, const struct il_sysfs_info *b,
		   int64_t elapsed_ns, struct il_sysfs_delta *d, struct il_err *err)
{
	int n = 0;

	memset(d, 0, sizeof(*d));
	d->elapsed_ns = elapsed_ns > 0 ? elapsed_ns : 0;
	for (int c = 0; c < b->ncpus; c++)
		n += b->cpus[c].nstates;
	d->rows = il_xcalloc((size_t)n, sizeof(*d->rows));
	for (int c = 0; c < a->ncpus; c++)
		if (!il_sysfs_find_cpu(b, a->cpus[c].cpu)) {
			il_sysfs_delta_free(d);
			return il_err_set(err, EINVAL, "cpu%d is in the first read only (offline "
					  "since?)", a->cpus[c].cpu);
		}
	for (int c = 0; c < b->ncpus; c++) {
		const struct il_sysfs_cpu *cb = &b->cpus[c];
		const struct il_sysfs_cpu *ca = il_sysfs_find_cpu(a, cb->cpu);

		if (!ca) {
			il_sysfs_delta_free(d);
			return il_err_set(err, EINVAL, "cpu%d is in the second read only", cb->cpu);
		}
		if (ca->nstates != cb->nstates) {
			il_sysfs_delta_free(d);
			return il_err_set(err, EINVAL, "cpu%d has %d idle states, then %d: not the "
					  "same state table", cb->cpu, ca->nstates, cb->nstates);
		}
		for (int i = 0; i < cb->nstates; i++) {
			const struct il_sysfs_state *sa = &ca->states[i], *sb = &cb->states[i];
			struct il_sysfs_delta_row *row = &d->rows[d->n++];

			if (sa->index != sb->index || strcmp(str_of(&sa->name), str_of(&sb->name))) {
				il_sysfs_delta_free(d);
				return il_err_set(err, EINVAL, "cpu%d state%d is '%s', then state%d "
						  "'%s': not the same state table", cb->cpu, sa->index,
						  str_of(&sa->name), sb->index, str_of(&sb->name));
			}
			row->cpu = cb->cpu;
			row->state = sb->index;
			row->name = str_of(&sb->name);
			for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++) {
				enum il_sysfs_field f = counters[k];
				const struct il_sysfs_val *va = &sa->val[f], *vb = &sb->val[f];

				if (va->status != IL_SYSFS_OK || vb->status != IL_SYSFS_OK) {
					row->d[f].status = va->status == IL_SYSFS_BAD ||
							   vb->status == IL_SYSFS_BAD ?
							   IL_SYSFS_BAD : IL_SYSFS_MISSING;
					continue;
				}
				if (vb->v < va->v) {
					il_sysfs_delta_free(d);
					return il_err_set(err, EINVAL, "cpu%d state%d %s went down from "
							  "%llu to %llu: not the same boot, or the "
							  "reads in the wrong order", cb->cpu, sb->index,
							  il_sysfs_field_file(f),
							  (unsigned long long)va->v,
							  (unsigned long long)vb->v);
				}
				row->d[f].status = IL_SYSFS_OK;
				row->d[f].v = vb->v - va->v;
			}
		}
	}
	return 0;
}

void il_sysfs_delta_free(struct il_sysfs_delta *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
