/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Runs spread over processes started by mpirun or srun (src/batch/mpi.c),
 * and the partial results file an interrupted batch resumes from
 * (src/batch/partial.c). The rest of idlelab deals runs through
 * il_sim_set_dealer() (include/idlelab/batch.h) and never names MPI.
 */
#ifndef IDLELAB_DIST_H
#define IDLELAB_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/batch.h"

/*
 * At the start of main: when the environment says an MPI launcher started
 * this process (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK, SLURM_PROCID
 * with SLURM_NTASKS > 1), join the job and set the dealer. Ranks other
 * than 0 write nothing on stdout or stderr (IDLELAB_MPI_VERBOSE=1: they
 * do); they run the runs rank 0 deals them and exit when it is done.
 * Without MPI built in, rank 0 of such a job runs everything and the
 * others exit at once, saying so on stderr.
 */
void il_dist_init(int *argc, char ***argv);
/* This process's rank (0 when not under MPI) and the number of ranks (1). */
int il_dist_rank(void);
int il_dist_size(void);

/*
 * The partial results file: every run's result as it is gathered, so that
 * an interrupted batch resumes without rerunning finished runs.
 * fingerprint: what the runs depend on (the batch file's text and the
 * options that change results); a file written for other runs is refused.
 * The batches must be prepared. Runs found in the file are marked have[]
 * and their results filled; *loaded says how many. 0, or -1 after an
 * error message (FILE: what is wrong).
 */
struct il_partial;
int il_partial_open(struct il_partial **pp, const char *path, uint64_t fingerprint,
		    struct il_sim_batch *const *bs, int nb, int *loaded);
void il_partial_close(struct il_partial *p);
/*
 * A fingerprint of a command line for il_partial_open: every argument but
 * the options that do not change the runs' results (skip: NULL-terminated
 * long options, "--jobs" taking a value, "--quiet" none: has_value[]).
 */
uint64_t il_partial_args(int argc, char **argv, const char *const *skip, const bool *has_value);
/*
 * Run k of configuration c of batch b as the messages of MPI batches and of
 * the partial results file name it, by configuration and seed: "[LABEL: ]
 * governor G on PLATFORM, WORKLOAD: run K (seed S)". Returns buf.
 */
const char *il_dist_run_name(const struct il_sim_batch *b, int c, int k, char *buf, size_t size);
/* FNV-1a 64 over bytes, chained from h (start with IL_FNV_START). */
#define IL_FNV_START 0xcbf29ce484222325ull
uint64_t il_fnv64(uint64_t h, const void *p, size_t n);

#endif
