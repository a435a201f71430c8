#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's own governor files, unmodified, against idlelab's presets:
#   IDLELAB_KERNEL_GOVERNORS=DIR  a copy of drivers/cpuidle/governors/ of one
#                                 release (menu.c, teo.c, ladder.c, haltpoll.c,
#                                 gov.h), kept outside the repository
#   IDLELAB_KERNEL_RELEASE=REL    its release, a preset of every governor (6.12)
# Every file present must build and agree with NAME@REL on every row of the
# replay fixtures and of seeded logs of tools/ref/gen_logs.py. Skipped when
# the variables are not set (suite 'kernel': meson test --suite kernel).
. "$SRCDIR/tests/cli/lib.sh"
DIR=${IDLELAB_KERNEL_GOVERNORS:-}
REL=${IDLELAB_KERNEL_RELEASE:-}
if [ -z "$DIR" ] || [ -z "$REL" ] || [ ! -d "$DIR" ]; then
	echo "SKIP: set IDLELAB_KERNEL_GOVERNORS=DIR and IDLELAB_KERNEL_RELEASE=REL"
	exit 77
fi
export XDG_CACHE_HOME=$TMP/cache
RP=$SRCDIR/tests/fixtures/replay
python3 "$SRCDIR/tools/ref/gen_logs.py" --seed 13 --rows 3000 --cpus 4 --count 8 "$TMP/adv" || exit 1
LOGS="$RP/haswell.log $RP/kvm.log $RP/pseries.log $RP/zen3.log $TMP"/adv-*.log
tried=0
for g in menu teo ladder haltpoll; do
	[ -f "$DIR/$g.c" ] || continue
	tried=$((tried + 1))
	expect_exit 0 "$IDLELAB" governor check "$DIR/$g.c" --kernel "$REL" --against "$g@$REL" $LOGS
	cat "$TMP/out"
done
[ "$tried" -gt 0 ] && ok || bad "no governor file in $DIR"
finish
