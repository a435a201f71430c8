#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/bench_live_sweep's usage refusals: checked before it reads or
# changes anything, so they hold on any machine (the live part is
# test_live_sweep.sh, suite 'live').
. "$SRCDIR/tests/cli/lib.sh"
: "${BENCH_LIVE_SWEEP:?set BENCH_LIVE_SWEEP to the bench_live_sweep binary}"
B=$BENCH_LIVE_SWEEP

expect_exit 2 "$B" --intervals 5,x
expect_err "--intervals"
expect_exit 2 "$B" --loops 0
expect_err "bad --loops"
expect_exit 2 "$B" --waker 1 --wakee 1
expect_err "bad --loops, --waker or --wakee"
expect_exit 2 "$B" --no-such-option
expect_err "usage: bench_live_sweep"
[ -s "$TMP/out" ] && bad "output on a refusal" || ok
finish
