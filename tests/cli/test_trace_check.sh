#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab trace check, whatif and to-replay on tests/fixtures/trace/hrtimer.trace:
# the log to-replay writes, replayed by idlelab replay, makes the decisions
# whatif made; refusals name FILE:LINE and print nothing.
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB
F=tests/fixtures/trace/hrtimer.trace
P=intel-haswell-ep

expect_exit 0 "$I" trace to-replay --states $P "$F" -o "$TMP/log"
if grep -q '^0,4900000,900000,0,2000000000000,0,0,905000,1,0$' "$TMP/log"; then ok; else bad "to-replay row 0"; cat "$TMP/log" >&2; fi
for g in menu teo ladder; do
	expect_exit 0 "$I" trace whatif --governor $g --states $P "$F" --decisions "$TMP/dec.$g"
	expect_exit 0 "$I" replay --governor $g --expect "$TMP/dec.$g" --strict --quiet "$TMP/log"
	expect_out "rows equal: 4"
done
# check: the kernel's own picks compared; the all rows add up to the periods
expect_exit 0 "$I" trace check --governor menu --states $P "$F" --format csv
if awk -F, '$1 == "all" { n += $4 } END { exit n != 4 }' "$TMP/out"; then ok; else bad "check periods"; fi
expect_exit 0 "$I" trace check --governor menu --states $P "$F" --format json
expect_out '"periods": 4'
# whatif CSV starts with trace report's columns
expect_exit 0 "$I" trace whatif --governor teo --states $P "$F" --format csv
if head -1 "$TMP/out" | grep -q '^cpu,state,name,usage,time_us,above,below,'; then ok; else bad "whatif columns"; fi

# haltpoll's poll window: the sysfs table's POLL is the polling state, and
# the exit event's need-resched flag tells a poll that timed out from one
# ended by work (tests/fixtures/trace/README.md works the six periods out)
H=tests/fixtures/trace/haltpoll-window.trace
S=tests/fixtures/sysfs/kvm-haltpoll
expect_exit 0 "$I" trace check --governor haltpoll --states $S "$H"
expect_out "agreement: 6 of 6 periods"
# without the flags column the last poll is judged by its residency (60 us > 50 us)
sed -E 's/\] [dDbX.][NnpBbLl.][.hHsSzZ][0-9a-f.][0-9a-f.]? /] /' "$H" >"$TMP/noflags.trace"
expect_exit 0 "$I" trace check --governor haltpoll --states $S "$TMP/noflags.trace"
expect_out "agreement: 5 of 6 periods"
# 'B' (v6.13 lazy flags) has TIF_NEED_RESCHED; 'p' (PREEMPT_NEED_RESCHED only) does not
sed '$s/dN\.1\./dB.1./' "$H" | sed '25s/dN\.1\./dB.1./' >"$TMP/lazy.trace"
expect_exit 0 "$I" trace check --governor haltpoll --states $S "$TMP/lazy.trace"
expect_out "agreement: 6 of 6 periods"
sed '25s/dN\.1\./dp.1./' "$H" >"$TMP/p.trace"
expect_exit 0 "$I" trace check --governor haltpoll --states $S "$TMP/p.trace"
expect_out "agreement: 5 of 6 periods"

# refusals
printf ' <idle>-0 [000] 1.000000: hrtimer_start: hrtimer=1 function=f\n' >"$TMP/bad.trace"
expect_exit 1 "$I" trace check --governor menu --states $P "$TMP/bad.trace"
expect_err "$TMP/bad.trace:1: hrtimer_start: no expires="
if [ -s "$TMP/out" ]; then bad "output on error"; else ok; fi
expect_exit 2 "$I" trace check "$F" --states $P
expect_exit 2 "$I" trace whatif --governor nosuch --states $P "$F"
expect_exit 2 "$I" trace to-replay --states $P "$F"
finish
