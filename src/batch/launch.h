/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLELAB_LAUNCH_H
#define IDLELAB_LAUNCH_H

#include <stdbool.h>

/* Started by mpirun or srun? The rank and size it says (0 and 1 if not). */
bool il_launch_env(int *rank, int *size);

#endif
