/* SPDX-License-Identifier: GPL-2.0-only */
/* idlelab kernel-API layer: everything is in kapi/kapi.h */
#include <kapi/kapi.h>
