#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab replay: usage errors, refusals of malformed logs (FILE:LINE), a
# hand-derived haltpoll replay, --expect, --output, formats and determinism.
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
FX=tests/fixtures/replay
LOG=$FX/haltpoll-small.log

# usage errors: exit 2
expect_exit 2 "$IDLELAB" replay "$LOG"
expect_err "idlelab: replay: --governor SPEC is required"
expect_exit 2 "$IDLELAB" replay --governor haltpoll
expect_err "missing replay log"
expect_exit 2 "$IDLELAB" replay --governor haltpoll "$LOG" extra
expect_err "unexpected argument 'extra'"
expect_exit 2 "$IDLELAB" replay --governor haltpoll --format xml "$LOG"
expect_err "unknown format 'xml'"
expect_exit 2 "$IDLELAB" replay --governor haltpoll --bogus "$LOG"
expect_err "unknown option '--bogus'"
expect_exit 2 "$IDLELAB" replay "$LOG" --governor
expect_err "needs a value"
expect_exit 2 "$IDLELAB" replay --governor nosuch "$LOG"
expect_err "unknown governor 'nosuch'"
expect_exit 2 "$IDLELAB" replay --governor haltpoll@2.6 "$LOG"
expect_err "no preset for kernel 2.6"
expect_exit 0 "$IDLELAB" help replay
expect_out "usage: idlelab replay --governor SPEC"

# bad inputs: exit 1, "idlelab: FILE:LINE: what is wrong"
expect_exit 1 "$IDLELAB" replay --governor haltpoll /nonexistent/x.log
expect_err "idlelab: /nonexistent/x.log: cannot open: No such file or directory"

f=$TMP/bad.log
H='# idlelab-replay v1\n# hz=1000\n# state,0,POLL,0,0,polling\n# state,1,C1,1000,2000,\n'
C='cpu,sleep_length_ns,delta_tick_ns,tick_stopped,latency_req_ns,nr_iowait,cpu_utilized,residency_ns,got_tick,poll_time_limit\n'
R='0,100000,50000,0,2000000000000,0,0,1500,0,0\n'
# bad_log LINE MESSAGE PRINTF-TEXT: the log is refused at LINE with MESSAGE
bad_log() {
	printf "$3" >"$f"
	expect_exit 1 "$IDLELAB" replay --governor haltpoll "$f"
	expect_err "idlelab: $f:$1: $2"
	if [ -s "$TMP/out" ]; then bad "output on a refused log ($2)"; else ok; fi
}
bad_log 1 "bad header: expected '# idlelab-replay v1'" '# idlelab-replay v0\n'
bad_log 7 "wrong column count: 9, expected 10" "$H$C${R}0,1,2,0,0,0,0,5,0\n"
bad_log 6 "non-numeric sleep_length_ns '1e5'" "$H${C}0,1e5,2,0,0,0,0,5,0,0\n"
bad_log 6 "non-numeric residency_ns ''" "$H${C}0,1,2,0,0,0,0,,0,0\n"
bad_log 3 "unknown state flag 'SPIN'" '# idlelab-replay v1\n# hz=1000\n# state,0,POLL,0,0,spin\n'
bad_log 4 "state index 2 out of order (expected 1)" '# idlelab-replay v1\n# hz=1000\n# state,0,POLL,0,0,polling\n# state,2,C2,1,1,\n'
more=$(for i in 0 1 2 3 4 5 6 7 8 9 10; do printf '# state,%d,S%d,%d,%d,\\n' $i $i $i $i; done)
bad_log 13 "more than 10 states" "# idlelab-replay v1\n# hz=1000\n$more"
bad_log 5 "row before the column line" "$H$R"
bad_log 6 "cpu 9000 out of range (0..8191)" "$H${C}9000,1,2,0,0,0,0,5,0,0\n"
bad_log 6 "tick_stopped 2 out of range (0..1)" "$H${C}0,1,2,2,0,0,0,5,0,0\n"
bad_log 5 "bad column line" "${H}cpu,sleep_length_ns\n"
bad_log 4 "missing column line" "$H"
bad_log 2 "unknown header line" '# idlelab-replay v1\n# stat,0,POLL,0,0,\n'
bad_log 6 "header line after the column line" "$H$C# hz=250\n"
# a parameter the governor refuses is named with its line
printf "${H}# param,guest_halt_poll_grow_start,soon\n$C$R" >"$f"
expect_exit 1 "$IDLELAB" replay --governor haltpoll "$f"
expect_err "idlelab: $f:5: param guest_halt_poll_grow_start:"
printf "${H}# param,no_such_knob,1\n$C$R" >"$f"
expect_exit 1 "$IDLELAB" replay --governor haltpoll "$f"
expect_err "idlelab: $f:5: param no_such_knob:"

# the hand-derived haltpoll replay (guest_halt_poll_ns=100000 from the log):
# decisions, per-state counters, agreement with the hand-written decisions
expect_exit 0 "$IDLELAB" replay --governor haltpoll --format csv --expect $FX/haltpoll-small.expect "$LOG"
expect_same $FX/haltpoll-small.csv
expect_exit 0 "$IDLELAB" replay --governor haltpoll --expect $FX/haltpoll-small.expect "$LOG"
expect_out "governor: haltpoll@7.1"
expect_out "rows compared: 9"
expect_out "rows equal: 9"
expect_out "first differing row: none"
expect_out "  0      0  POLL               4    65500      0      3         1"
# the governor's long description folded at 100 columns, under the value
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || bad "replay is $w columns wide: $(cat "$TMP/out")"
grep -q '^          [^ ]' "$TMP/out" && ok || bad "the governor line is not folded: $(cat "$TMP/out")"

# without the parameter the poll window grows at row 0 and row 1 polls
grep -v '^# param' "$LOG" >"$TMP/noparam.log"
expect_exit 0 "$IDLELAB" replay --governor haltpoll --expect $FX/haltpoll-small.expect "$TMP/noparam.log"
expect_out "first differing row: 1 (expected 1,1, got 0,0)"
# a parameter the spec sets itself wins over the log's "# param" (as over a
# platform's boot option in sim): the run is what its label says, the
# default window here as for the log without the line
expect_exit 0 "$IDLELAB" replay --governor haltpoll --format csv "$TMP/noparam.log"
cp "$TMP/out" "$TMP/noparam.csv"
expect_exit 0 "$IDLELAB" replay --governor haltpoll+guest_halt_poll_ns=200000 --format csv "$LOG"
expect_same "$TMP/noparam.csv"
sed 's/^# param,guest_halt_poll_ns,/# param,haltpoll.guest_halt_poll_ns,/' "$LOG" >"$TMP/modparam.log"
expect_exit 0 "$IDLELAB" replay --governor haltpoll+guest_halt_poll_ns=200000 --format csv \
	"$TMP/modparam.log"
expect_same "$TMP/noparam.csv"
expect_exit 0 "$IDLELAB" replay --governor haltpoll+guest_halt_poll_ns=200000 --format json "$LOG"
expect_out "guest_halt_poll_ns=200000 grow=2"
# --strict turns a disagreement into exit 3 (and an agreement stays 0)
expect_exit 3 "$IDLELAB" replay --governor haltpoll --strict --quiet --expect $FX/haltpoll-small.expect "$TMP/noparam.log"
expect_out "first differing row: 1 (expected 1,1, got 0,0)"
expect_exit 0 "$IDLELAB" replay --governor haltpoll --strict --quiet --expect $FX/haltpoll-small.expect "$LOG"
expect_exit 0 "$IDLELAB" replay --governor haltpoll --format csv --quiet --expect $FX/haltpoll-small.expect "$TMP/noparam.log"
expect_out "agreement,,,,,rows_equal,,8"
expect_out "agreement,,,,,first_differing_row,,1"
if grep -q '^decision,' "$TMP/out"; then bad "--quiet printed decisions"; else ok; fi
# its own CSV decisions, pivoted, are a decisions file (row,cpu,selected,stop_tick)
expect_exit 0 "$IDLELAB" replay --governor haltpoll --format csv "$TMP/noparam.log"
awk -F, 'BEGIN { print "row,cpu,selected,stop_tick" }
	$1 == "decision" && $6 == "selected" { s = $8 }
	$1 == "decision" && $6 == "stop_tick" { print $2 "," $3 "," s "," $8 }' "$TMP/out" >"$TMP/self.csv"
expect_exit 0 "$IDLELAB" replay --governor haltpoll --quiet --expect "$TMP/self.csv" "$TMP/noparam.log"
expect_out "rows equal: 9"
printf 'row,selected,stop_tick\n9,0,0\n' >"$TMP/beyond.csv"
expect_exit 1 "$IDLELAB" replay --governor haltpoll --expect "$TMP/beyond.csv" "$LOG"
expect_err "idlelab: $TMP/beyond.csv:2: row 9 beyond the log's 9 rows"
printf '0,1,x\n' >"$TMP/bad.csv"
expect_exit 1 "$IDLELAB" replay --governor haltpoll --expect "$TMP/bad.csv" "$LOG"
expect_err "idlelab: $TMP/bad.csv:1: non-numeric stop_tick 'x'"

# JSON is valid, with and without decisions
for q in "" --quiet; do
	expect_exit 0 "$IDLELAB" replay --governor haltpoll --format json $q --expect $FX/haltpoll-small.expect "$LOG"
	if python3 -m json.tool "$TMP/out" >/dev/null; then ok; else bad "json $q invalid"; fi
done
expect_out '"rows_equal": 9'

# --output: the file appears complete, or not at all
expect_exit 0 "$IDLELAB" replay --governor haltpoll --format csv --output "$TMP/o.csv" --expect $FX/haltpoll-small.expect "$LOG"
if cmp -s "$TMP/o.csv" $FX/haltpoll-small.csv && [ ! -s "$TMP/out" ]; then ok; else bad "--output content"; fi
printf '# idlelab-replay v1\n# hz=x\n' >"$f"
expect_exit 1 "$IDLELAB" replay --governor haltpoll --output "$TMP/none.csv" "$f"
if [ -e "$TMP/none.csv" ] || ls "$TMP"/none.csv.tmp* >/dev/null 2>&1; then bad "file left on error"; else ok; fi
expect_exit 1 "$IDLELAB" replay --governor haltpoll --output "$TMP/none.csv" --expect "$TMP/beyond.csv" "$LOG"
if [ -e "$TMP/none.csv" ]; then bad "file left on --expect error"; else ok; fi

# identical output run to run, every governor that is built, every format
for log in $FX/kvm.log $FX/zen3.log $FX/haswell.log $FX/pseries.log; do
	for g in menu teo ladder haltpoll menu@6.1 teo@6.12 oracle; do
		timeout 120 "$IDLELAB" replay --governor $g "$log" >"$TMP/a" 2>"$TMP/e"
		rc=$?
		if [ $rc -ne 0 ] && grep -q "not built yet" "$TMP/e"; then continue; fi
		if [ $rc -eq 124 ]; then bad "$g on $log: no answer in 120 s"; continue; fi
		if [ $rc -ne 0 ]; then bad "$g on $log: exit $rc: $(cat "$TMP/e")"; continue; fi
		timeout 120 "$IDLELAB" replay --governor $g "$log" >"$TMP/b" 2>&1
		if cmp -s "$TMP/a" "$TMP/b"; then ok; else bad "$g on $log differs run to run"; fi
		if [ "$(grep -c '^ *[0-9]* *[0-9] *[0-9] *[01]$' "$TMP/a")" -ge 2000 ]; then ok; else bad "$g on $log: rows missing"; fi
	done
done
for fmt in csv json; do
	"$IDLELAB" replay --governor ladder --format $fmt $FX/haswell.log >"$TMP/a" 2>&1
	"$IDLELAB" replay --governor ladder --format $fmt $FX/haswell.log >"$TMP/b" 2>&1
	if cmp -s "$TMP/a" "$TMP/b"; then ok; else bad "ladder $fmt differs run to run"; fi
done

# Logs and decisions files are read line by line: memory does not grow with
# the file, and a NUL byte or an over-long line is refused at its line at once.
printf "$H$C$R" >"$TMP/sparse.log"
truncate -s 300M "$TMP/sparse.log"   # 300 MB of NUL bytes after line 6, no disk used
run_rss "$IDLELAB" replay --governor menu "$TMP/sparse.log"
[ "$rc" -eq 1 ] && ok || bad "sparse log: exit $rc"
expect_err "idlelab: $TMP/sparse.log:7: NUL byte in line"
[ "$rss" -lt 100000 ] && ok || bad "sparse log: $rss KiB to refuse line 7"
mkfifo "$TMP/zero.fifo"
head -c 200000000 /dev/zero >"$TMP/zero.fifo" 2>/dev/null &
run_rss "$IDLELAB" replay --governor menu /dev/stdin <"$TMP/zero.fifo"
wait
expect_err "idlelab: /dev/stdin:1: NUL byte in line"
[ "$rss" -lt 100000 ] && ok || bad "endless NUL bytes: $rss KiB to refuse line 1"
{ printf "$H"; printf '# %05000d\n' 0; } >"$f"
expect_exit 1 "$IDLELAB" replay --governor menu "$f"
expect_err "idlelab: $f:5: line longer than 4096 bytes"
{ printf '0,1,1\n'; printf '%05000d\n' 0; } >"$TMP/long.csv"
expect_exit 1 "$IDLELAB" replay --governor haltpoll --expect "$TMP/long.csv" "$LOG"
expect_err "idlelab: $TMP/long.csv:2: line longer than 4096 bytes"
# ten times the rows, the same memory (the rows used to be kept: 56 bytes each, and the text)
rows_log() { { printf "$H$C"; awk -v n=$1 'BEGIN { for (i = 0; i < n; i++) printf "%d,%d,50000,0,2000000000000,0,0,%d,0,0\n", i % 4, 100000 + i, 1500 + i % 900 }'; } >"$2"; }
rows_log 40000 "$TMP/r1.log"
rows_log 400000 "$TMP/r10.log"
run_rss "$IDLELAB" replay --governor ladder --quiet "$TMP/r1.log"
rss1=$rss
run_rss "$IDLELAB" replay --governor ladder --quiet "$TMP/r10.log"
[ "$rc" -eq 0 ] && ok || bad "400000 rows: exit $rc"
expect_out "400000 rows, 4 CPUs"
[ "$rss" -lt $((rss1 + 8000)) ] && ok || bad "memory grows with the rows: $rss1 KiB for 40000, $rss KiB for 400000"
# ... and with a decisions file of as many rows (D5: expect files are streamed too; 40 MB
# for 400000 before)
rows_expect() { awk -v n=$1 'BEGIN { print "row,selected,stop_tick"; for (i = 0; i < n; i++) printf "%d,1,1\n", i }' >"$2"; }
rows_expect 40000 "$TMP/r1.csv"
rows_expect 400000 "$TMP/r10.csv"
run_rss "$IDLELAB" replay --governor ladder --quiet --expect "$TMP/r1.csv" "$TMP/r1.log"
rss1=$rss
run_rss "$IDLELAB" replay --governor ladder --quiet --expect "$TMP/r10.csv" "$TMP/r10.log"
[ "$rc" -eq 0 ] && ok || bad "400000 rows and decisions: exit $rc"
expect_out "rows compared: 400000"
[ "$rss" -lt $((rss1 + 8000)) ] && ok ||
	bad "memory grows with the decisions: $rss1 KiB for 40000, $rss KiB for 400000"
# a pipe is read like the file (a copy is kept for the passes after the first)
"$IDLELAB" replay --governor haltpoll --format csv --expect $FX/haltpoll-small.expect "$LOG" >"$TMP/file.csv"
cat "$LOG" | "$IDLELAB" replay --governor haltpoll --format csv --expect $FX/haltpoll-small.expect /dev/stdin >"$TMP/pipe.csv"
cmp -s "$TMP/file.csv" "$TMP/pipe.csv" && cmp -s "$TMP/file.csv" $FX/haltpoll-small.csv && ok || bad "log from a pipe"
cat $FX/haltpoll-small.expect | "$IDLELAB" replay --governor haltpoll --format csv --expect /dev/stdin "$LOG" >"$TMP/pipe.csv"
cmp -s "$TMP/file.csv" "$TMP/pipe.csv" && ok || bad "decisions file from a pipe"

# --strict does not pass on a decisions file that compares nothing
for empty in '' 'row,selected,stop_tick\n' '# no rows\n\n'; do
	printf "$empty" >"$TMP/empty.csv"
	expect_exit 1 "$IDLELAB" replay --governor haltpoll --strict --expect "$TMP/empty.csv" "$LOG"
	expect_err "idlelab: $TMP/empty.csv: no decisions to compare (--strict needs at least one row)"
	[ -s "$TMP/out" ] && bad "output with an empty decisions file" || ok
done
expect_exit 0 "$IDLELAB" replay --governor haltpoll --quiet --expect "$TMP/empty.csv" "$LOG"
expect_out "rows compared: 0"
# an expected state the log's table does not have is bad input at its line (it was
# compared, "expected 9,1, got 1,1", with a table of 2 states)
printf 'row,selected,stop_tick\n0,1,1\n1,9,1\n' >"$TMP/nostate.csv"
expect_exit 1 "$IDLELAB" replay --governor haltpoll --quiet --expect "$TMP/nostate.csv" "$LOG"
expect_err "idlelab: $TMP/nostate.csv:3: selected 9: the log's table has 2 states (0..1)"
[ -s "$TMP/out" ] && bad "output with an impossible expected state" || ok
# ... nor without one: it compared nothing and exited 0, as if every decision agreed
expect_exit 2 "$IDLELAB" replay --governor haltpoll --strict "$LOG"
expect_err "idlelab: replay: --strict needs --expect FILE (there is nothing to compare)"
[ -s "$TMP/out" ] && bad "output of --strict without --expect" || ok

# the committed fixtures are what the generator writes (same bytes on every machine)
BENCH=$(dirname "$IDLELAB")/../../bench/bench_governors
if [ -x "$BENCH" ]; then
	mkdir "$TMP/gen"
	if "$BENCH" --write "$TMP/gen" --rows 2000 >/dev/null; then ok; else bad "generator failed"; fi
	for t in kvm zen3 haswell pseries; do
		if cmp -s "$TMP/gen/$t.log" $FX/$t.log; then ok; else bad "generated $t.log differs from $FX/$t.log"; fi
	done
fi
finish
