// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlelab built without MPI: under mpirun or srun, rank 0 runs everything
 * (on --jobs threads) and the other ranks leave at once, so that the output
 * is written once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dist.h"
#include "launch.h"

void il_dist_init(int *argc, char ***argv)
{
	int rank, size;

	(void)argc;
	(void)argv;
	if (!il_launch_env(&rank, &size) || size < 2)
		return;
	if (rank > 0) {
		fprintf(stderr, "idlelab: built without MPI: rank %d of %d leaves the runs to rank 0\n",
			rank, size);
		exit(0);
	}
	fprintf(stderr, "idlelab: built without MPI: rank 0 runs everything on its own (--jobs)\n");
}

int il_dist_rank(void)
{
	return 0;
}

int il_dist_size(void)
{
	return 1;
}
