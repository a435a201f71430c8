// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "idlelab/platform.h"
static void builtin(void **s) { (void)s; struct il_platform p; struct il_err e;
 assert_int_equal(il_platform_load(&p, "kvm-haltpoll", &e), 0); }
int main(void) { const struct CMUnitTest t[] = { cmocka_unit_test(builtin) };
 return cmocka_run_group_tests(t, NULL, NULL); }
