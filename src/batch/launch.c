// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the environment says about a launcher (mpirun, srun): the rank and
 * the number of ranks it started, before any MPI library is asked.
 */
#include <stdlib.h>

#include "launch.h"

static int env_int(const char *name)
{
	const char *v = getenv(name);
	char *end;

	if (!v || !*v)
		return -1;
	long n = strtol(v, &end, 10);
	return *end || n < 0 || n > 1 << 24 ? -1 : (int)n;
}

bool il_launch_env(int *rank, int *size)
{
	static const char *const ranks[][2] = {
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },  /* Open MPI's mpirun */
		{ "PMIX_RANK", "SLURM_NTASKS" },                     /* srun --mpi=pmix */
		{ "PMI_RANK", "PMI_SIZE" },                          /* srun --mpi=pmi2, MPICH */
		{ "SLURM_PROCID", "SLURM_NTASKS" },                  /* srun without PMI */
	};

	for (size_t i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++) {
		int r = env_int(ranks[i][0]), n = env_int(ranks[i][1]);
		if (r >= 0) {
			*rank = r;
			*size = n > 0 ? n : 1;
			return true;
		}
	}
	*rank = 0;
	*size = 1;
	return false;
}
