#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab trace record on this machine (suite 'live'): records 2 s, then
# trace report's counts, over the window between the two sysfs reads the
# recording made (their trace_marker lines), must equal its sysfs_* columns
# (the differences of the '# idlelab-sysfs' counters in the file): usage
# exactly, within the window's bracket (inner: from the end of the first read to the start of
# the second; outer: from the start of the first to the end of the
# second); time_us within 1 % plus 1 ms. Then the ways a recording ends:
# COMMAND exiting, SIGINT (output kept), SIGTERM and SIGQUIT (output
# discarded, exit by the signal); the instance is gone every time.
# Skipped (77) without root, tracefs, cpuidle or libtracefs.
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
# IDLELAB_TRACEFS: tracefs mounted elsewhere (trace record reads it too)
T=${IDLELAB_TRACEFS:-/sys/kernel/tracing}
SYS=/sys/devices/system/cpu
[ "$(id -u)" = 0 ] && [ -d "$T/instances" ] && [ -e "$T/events/power/cpu_idle/enable" ] &&
	[ -d "$SYS/cpu0/cpuidle" ] || { echo "no root, tracefs or cpuidle: skipped"; exit 77; }
no_instance() {
	if ls "$T/instances" | grep -q '^idlelab-record-'; then bad "instance left: $(ls "$T/instances")"; else ok; fi
}

expect_exit 0 "$I" trace record --duration 2s -o "$TMP/live.trace"
grep -q "built without libtracefs" "$TMP/err" && { echo "no libtracefs: skipped"; exit 77; }
expect_err "created tracefs instance $T/instances/idlelab-record-"
expect_err "removed tracefs instance $T/instances/idlelab-record-"
no_instance
grep -q 'LOST' "$TMP/live.trace" && { echo "events lost: skipped"; exit 77; }
mark() { grep "tracing_mark_write: idlelab-sysfs-$1\$" "$TMP/live.trace" | sed 's/^.* \([0-9]*\.[0-9]*\): tracing_mark_write.*/\1/'; }
m1=$(mark start-begin) m2=$(mark start-end) m3=$(mark end-begin) m4=$(mark end-end)
[ -n "$m1" ] && [ -n "$m2" ] && [ -n "$m3" ] && [ -n "$m4" ] || { bad "no markers in the trace"; finish; exit 1; }
expect_exit 0 "$I" trace report "$TMP/live.trace" --states "$SYS" --format csv --window "$m2,$m3"
cp "$TMP/out" "$TMP/inner.csv"
expect_exit 0 "$I" trace report "$TMP/live.trace" --states "$SYS" --format csv --window "$m1,$m4"
cp "$TMP/out" "$TMP/outer.csv"
python3 - "$TMP/inner.csv" "$TMP/outer.csv" <<'PY' || bad "trace and its sysfs snapshot disagree"
import csv, sys
inner = {(int(r['cpu']), int(r['state'])): r for r in csv.DictReader(open(sys.argv[1]))}
outer = {(int(r['cpu']), int(r['state'])): r for r in csv.DictReader(open(sys.argv[2]))}
status = 0
if not inner or 'sysfs_usage' not in next(iter(inner.values())):
    print("no sysfs_* columns in the report"); sys.exit(1)
for k in sorted(inner):
    i, o = inner[k], outer[k]
    n = lambda r, f: int(r[f]) if r[f] != '' else 0
    su, st = n(i, 'sysfs_usage'), n(i, 'sysfs_time_us')
    lo, hi = n(i, 'usage'), n(o, 'usage')
    tlo, thi = n(i, 'time_us'), n(o, 'time_us')
    ok = lo <= su <= hi and tlo * 0.99 - 1000 <= st <= thi * 1.01 + 1000
    print(f"cpu{k[0]} state{k[1]}: usage sysfs {su} trace {lo}..{hi}; time_us sysfs {st} "
          f"trace {tlo}..{thi}; above sysfs {i['sysfs_above']} trace {i['above']}; below sysfs "
          f"{i['sysfs_below']} trace {i['below']}" + ("" if ok else "  <- differs"))
    status |= not ok
sys.exit(status)
PY

# a bare --duration is seconds, as info's and doctor's --interval take it
# (it was 1 ns: "--duration 1" recorded a few milliseconds)
expect_exit 0 "$I" trace record --duration 1 -o "$TMP/bare.trace"
python3 - "$TMP/bare.trace" <<'PY' && ok || bad "--duration 1 did not record a second"
import re, sys
ts = [float(m.group(1)) for l in open(sys.argv[1]) if not l.startswith('#')
      for m in [re.search(r' (\d+\.\d+): ', l)] if m]
sys.exit(0 if ts and ts[-1] - ts[0] >= 0.9 else 1)
PY

# a ring buffer too small for the events: record says so when it ends (it
# said nothing; the report found the [LOST] lines later)
expect_exit 0 nice "$I" trace record --buffer-kb 4 --duration 1 -o "$TMP/small.trace" -- \
	sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'
if grep -q 'LOST' "$TMP/small.trace"; then
	expect_err "warning: trace record: the ring buffer lost"
	expect_err "give a larger --buffer-kb (4 now)"
else
	echo "note: no events lost with a 4 KiB buffer here: the warning is not checked"
fi

# COMMAND ends the recording; --cpu limits it
expect_exit 0 "$I" trace record --cpu 0 -o "$TMP/cmd.trace" -- sleep 0.5
expect_err "tracing_cpumask 00000001"
if grep -q "cannot write trace_marker" "$TMP/err"; then bad "markers lost with --cpu"; else ok; fi
grep -q '# idlelab-sysfs end' "$TMP/cmd.trace" && ok || bad "COMMAND: no complete output"
no_instance
if grep -v '^#' "$TMP/cmd.trace" | grep -q '\[001\]'; then bad "--cpu 0 traced CPU 1"; else ok; fi
# and the sysfs lines are of the traced CPUs only: an untraced CPU's rows
# showed trace usage 0 beside its sysfs_usage, as if the trace had missed them
if grep -q '^# idlelab-sysfs [a-z]* cpu=1 ' "$TMP/cmd.trace"; then bad "--cpu 0: sysfs lines of CPU 1"; else ok; fi
grep -q '^# idlelab-sysfs start cpu=0 ' "$TMP/cmd.trace" && ok || bad "--cpu 0: no sysfs line of CPU 0"
expect_exit 1 "$I" trace record -o "$TMP/bad.trace" -- /nonexistent/command
expect_err "/nonexistent/command: cannot run"
no_instance
[ ! -e "$TMP/bad.trace" ] && ok || bad "output left after a failed COMMAND"

# SIGINT ends it and keeps the output; SIGTERM removes everything (job
# control on: a background job of a script would start with SIGINT ignored)
set -m
default_signals "$I" trace record -o "$TMP/int.trace" 2>"$TMP/err" &
pid=$!; sleep 1; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] && ok || bad "SIGINT: exit $rc"
grep -q '# idlelab-sysfs end' "$TMP/int.trace" && ok || bad "SIGINT: no complete output"
no_instance
"$I" trace record -o "$TMP/term.trace" 2>"$TMP/err" &
pid=$!; sleep 1; kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 143 ] && ok || bad "SIGTERM: exit $rc"
expect_err "removed tracefs instance"
[ -z "$(ls "$TMP" | grep '^term')" ] && ok || bad "SIGTERM: output left: $(ls "$TMP")"
no_instance
# SIGQUIT (^\) as SIGTERM: everything removed, exit by the signal (no core file)
(ulimit -c 0; default_signals "$I" trace record -o "$TMP/quit.trace" 2>"$TMP/err") &
pid=$!; sleep 1; kill -QUIT $pid; wait $pid; rc=$?
[ $rc -eq 131 ] && ok || bad "SIGQUIT: exit $rc"
expect_err "removed tracefs instance"
[ -z "$(ls "$TMP" | grep '^quit')" ] && ok || bad "SIGQUIT: output left: $(ls "$TMP")"
no_instance
# SIGUSR1 (or SIGALRM, ...: any signal that ends a process) as SIGTERM; it used
# to leave the instance tracing and the output's temporary behind
default_signals "$I" trace record -o "$TMP/usr1.trace" 2>"$TMP/err" &
pid=$!; sleep 1; kill -USR1 $pid; wait $pid; rc=$?
[ $rc -eq 138 ] && ok || bad "SIGUSR1: exit $rc"
expect_err "removed tracefs instance"
[ -z "$(ls "$TMP" | grep '^usr1')" ] && ok || bad "SIGUSR1: output left: $(ls "$TMP")"
no_instance
for d in "$T"/instances/idlelab-record-*; do [ -d "$d" ] && rmdir "$d"; done
set +m
finish
