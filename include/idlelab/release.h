/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel releases.
 *
 * idlelab follows mainline release tags ("6.12" means the text of tag v6.12,
 * not a stable point release). Drivers and governors compare the release a
 * run follows against the release that shipped a change; the CLI refuses a
 * release outside the range idlelab knows.
 */
#ifndef IDLELAB_RELEASE_H
#define IDLELAB_RELEASE_H

#include "idlelab/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The oldest and newest mainline releases idlelab models. */
#define IL_RELEASE_OLDEST "5.4"
#define IL_RELEASE_NEWEST "7.1"

/*
 * Compare release strings numerically, component by component ("6.9" <
 * "6.12" < "7.0"; a missing component counts as 0). Returns <0, 0, >0.
 */
int il_release_cmp(const char *a, const char *b);

/*
 * Is rel a mainline release tag "MAJOR.MINOR" within [IL_RELEASE_OLDEST,
 * IL_RELEASE_NEWEST] (5.4..5.19, 6.0..6.19, 7.0, 7.1)? 0, or -EINVAL with a
 * message that says the known range.
 */
int il_release_check(const char *rel, struct il_err *err);

#ifdef __cplusplus
}
#endif

#endif
