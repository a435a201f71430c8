#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/bench_live_sweep on the machine the suite runs on: the table, the
# refusals, and that a governor it changes is written back at exit and on
# SIGTERM. Skips (exit 77) without cpuidle or with fewer than 2 CPUs.
# Suite 'live' (make test-live), not in make check: the table's counters
# depend on how this machine idles (a busy machine gives usage_diff 0), and
# the restore checks change the machine's governor while they run.
. "$SRCDIR/tests/cli/lib.sh"
: "${BENCH_LIVE_SWEEP:?set BENCH_LIVE_SWEEP to the bench_live_sweep binary}"
B=$BENCH_LIVE_SWEEP
SYS=/sys/devices/system/cpu
if [ ! -d "$SYS/cpuidle" ] || [ ! -d "$SYS/cpu1/cpuidle" ]; then
	echo "SKIP: no cpuidle on CPUs 0 and 1"
	exit 77
fi

# the table: a header and one row per interval, about one entry per wake-up
# (the test runs alone: other tests would keep CPU 1 busy)
expect_exit 0 "$B" --loops 40 --intervals 50,200 --csv
[ "$(wc -l <"$TMP/out")" -eq 3 ] && ok || bad "want 3 lines"; cat "$TMP/out"
expect_out "interval_us,wakee_cpu,waker_cpu,sleep_us,usage_diff"
awk -F, 'NR > 1 && ($5 < 10 || $4 < $1) { exit 1 }' "$TMP/out" && ok ||
	bad "usage_diff below 10 or a sleep shorter than its interval"
grep -q "changed" "$TMP/err" && bad "changed something unasked" || ok

# refusals: clear message, nothing changed (the ones that need no sysfs are
# in test_live_sweep_args.sh, which runs in the default suite)
expect_exit 2 "$B" --param guest_halt_poll_ns=5
expect_err "want MODULE.PARAM=VALUE"
if [ -w "$SYS/cpuidle/current_governor" ]; then
	expect_exit 1 "$B" --governor nosuchgovernor --loops 5 --intervals 10
	expect_err "current_governor: cannot write 'nosuchgovernor'"
fi
expect_exit 1 "$B" --param nosuchmodule.p=1 --loops 5 --intervals 10
expect_err "/sys/module/nosuchmodule/parameters/p"
grep -q "changed" "$TMP/err" && bad "changed after a refusal" || ok

# a changed governor is restored at exit and on SIGTERM (root, writable sysfs)
G=$SYS/cpuidle/current_governor
orig=$(cat "$G")
other=$(tr ' ' '\n' <"$SYS/cpuidle/available_governors" | grep -v "^$orig\$" | grep . | head -1)
if [ -w "$G" ] && [ -n "$other" ] && (echo "$orig" >"$G") 2>/dev/null; then
	expect_exit 0 "$B" --governor "$other" --loops 10 --intervals 20
	expect_err "from '$orig' to '$other'"
	expect_err "restored $G to '$orig'"
	[ "$(cat "$G")" = "$orig" ] && ok || bad "governor not restored at exit"
	"$B" --governor "$other" --loops 1000000 --intervals 1000 >/dev/null 2>"$TMP/sig" &
	pid=$!
	for _ in $(seq 50); do [ "$(cat "$G")" = "$other" ] && break; sleep 0.05; done
	[ "$(cat "$G")" = "$other" ] && ok || bad "governor never changed"
	kill -TERM $pid
	wait $pid
	[ "$(cat "$G")" = "$orig" ] && ok || { bad "governor not restored on SIGTERM"; echo "$orig" >"$G"; }
	grep -qF "restored $G to '$orig'" "$TMP/sig" && ok || bad "no restore message on SIGTERM"
else
	echo "note: $G not writable here: restore checks skipped"
fi
finish
