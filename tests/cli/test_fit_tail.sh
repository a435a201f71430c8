#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/fit_tail.py on bench_hostlat --tail output, good and bad.
. "$SRCDIR/tests/cli/lib.sh"
FIT=$SRCDIR/tools/fit_tail.py

# bench_hostlat --tail prints a tail line under every row with samples
cat >"$TMP/tail.txt" <<'E'
timer         100 us  n 10000 (dropped 0)  load 0.01  ns: p0 1 p50 20000  mean 21000  states: POLL=1
  tail 100us: n 10000, past p50 (20000 ns) by 10us 900 (9.000%) 20us 500 (5.000%) 30us 248 (2.480%) 50us 120 (1.200%) 100us 29 (0.290%) 200us 5 (0.050%) 500us 1 (0.010%)
E
# (--min-median 90: a small grid, a quick fit)
expect_exit 0 python3 "$FIT" --min-median 90 "$TMP/tail.txt"
expect_out "10000 samples; past the median by:"
expect_out "tail: +"

# a row whose samples were all dropped has no tail line: nothing to pool
cp "$TMP/tail.txt" "$TMP/dropped.txt"
echo "ipi           100 us  n 0 (dropped 12)  load 0.01  ns: no samples" >>"$TMP/dropped.txt"
expect_exit 0 python3 "$FIT" --min-median 90 "$TMP/dropped.txt"
expect_out "10000 samples; past the median by:"
# a tail line cut short (a run stopped while it printed): its row counts
# for the steps it has, not as no sample past the others
cp "$TMP/tail.txt" "$TMP/short.txt"
head -1 "$TMP/tail.txt" >>"$TMP/short.txt"
printf '  tail 100us: n 10000, past p50 (20000 ns) by 10us 900 (9.000%%) 20us 500 (5.000%%) 30us 248 (2.4' \
	>>"$TMP/short.txt"
expect_exit 0 python3 "$FIT" --min-median 90 "$TMP/short.txt"
expect_out "20000 samples; past the median by:"
expect_out "  30         2.480"
expect_out "  100        0.290"
expect_out "  500        0.010"
# a row cut off before its tail line is still refused, with the line
head -1 "$TMP/tail.txt" >"$TMP/cut.txt"
expect_exit 1 python3 "$FIT" "$TMP/cut.txt"
expect_err "fit_tail: $TMP/cut.txt:2: no tail line"
# foreign input and bad options: a message and a non-zero exit, no traceback
printf 'timer \xff\xfe\n' >"$TMP/binary.txt"
expect_exit 1 python3 "$FIT" "$TMP/binary.txt"
expect_err "fit_tail: $TMP/binary.txt: not UTF-8 text"
for opt in "--at abc" "--at 30,,50" "--at -30" "--min-median 0" "--min-median 101"; do
	expect_exit 2 python3 "$FIT" $opt "$TMP/tail.txt"
	grep -q Traceback "$TMP/err" && bad "fit_tail $opt: a traceback" || ok
done
expect_err "--min-median: 101 is not in 1..100"
# the stalls' share is a per cent: not a NaN, which would leave it out unsaid
for v in nan inf -3 101; do
	expect_exit 2 python3 "$FIT" --at 30,500 --stall-share $v "$TMP/tail.txt"
	expect_err "--stall-share: "
done
# more samples past a step than the row has: no bench_hostlat output, refused at its line
head -1 "$TMP/tail.txt" >"$TMP/over.txt"
echo '  tail 100us: n 10000, past p50 (20000 ns) by 30us 20000 (200.000%) 50us 120 (1.200%)' \
	>>"$TMP/over.txt"
expect_exit 1 python3 "$FIT" --min-median 90 "$TMP/over.txt"
expect_err "over.txt:2: 20000 samples past the median by 30 us of 10000"
finish
