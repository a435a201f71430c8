#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab trace report against this machine's own counters (suite 'live'):
# records power:cpu_idle (and cpu_idle_miss, sched_switch, the wake-up
# events) for a few seconds in a private tracefs instance, reads the
# cpuidle sysfs counters twice while it runs, each read between two
# trace_marker lines, and compares per CPU and state with --window: the sysfs usage delta must lie between the
# periods the trace ends between the two reads (inner window) and those it
# ends from the start of the first read to the end of the second (outer);
# time_us likewise, within 1 % plus 1 ms (tracing's own overhead is inside
# the trace's periods).
# Skipped (77) without root, tracefs or cpuidle. The instance is removed on
# every exit.
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
T=/sys/kernel/tracing
SYS=/sys/devices/system/cpu
[ "$(id -u)" = 0 ] && [ -d "$T/instances" ] && [ -e "$T/events/power/cpu_idle/enable" ] &&
	[ -d "$SYS/cpu0/cpuidle" ] || { echo "no root, tracefs or cpuidle: skipped"; exit 77; }
INST=$T/instances/idlelab-test-$$
mkdir "$INST" || { bad "cannot make $INST"; finish; exit 1; }
trap 'echo 0 > "$INST/tracing_on" 2>/dev/null; rmdir "$INST"; rm -rf "$TMP"' EXIT
echo 4096 >"$INST/buffer_size_kb"
for e in power/cpu_idle power/cpu_idle_miss sched/sched_switch sched/sched_wakeup \
	timer/hrtimer_expire_entry irq/irq_handler_entry ipi/ipi_send_cpu \
	irq_vectors/local_timer_entry irq_vectors/reschedule_entry \
	irq_vectors/call_function_single_entry; do
	[ -e "$INST/events/$e/enable" ] && echo 1 >"$INST/events/$e/enable"
done
# one process reads all counters (grep), between two trace markers
snap() {
	echo "idlelab-snap-$1-begin" >"$INST/trace_marker"
	grep . "$SYS"/cpu[0-9]*/cpuidle/state[0-9]*/usage "$SYS"/cpu[0-9]*/cpuidle/state[0-9]*/time \
		"$SYS"/cpu[0-9]*/cpuidle/state[0-9]*/above "$SYS"/cpu[0-9]*/cpuidle/state[0-9]*/below \
		>"$TMP/snap-$1" 2>/dev/null
	echo "idlelab-snap-$1-end" >"$INST/trace_marker"
}
echo 1 >"$INST/tracing_on"
snap a
sleep "${TRACE_LIVE_SECONDS:-3}"
snap b
echo 0 >"$INST/tracing_on"
cat "$INST/trace" >"$TMP/live.trace"
grep -q 'LOST' "$TMP/live.trace" && { echo "events lost: skipped"; exit 77; }
mark() { grep "idlelab-snap-$1\$" "$TMP/live.trace" | sed 's/^.* \([0-9]*\.[0-9]*\): tracing_mark_write.*/\1/'; }
m1=$(mark a-begin) m2=$(mark a-end) m3=$(mark b-begin) m4=$(mark b-end)
[ -n "$m1" ] && [ -n "$m2" ] && [ -n "$m3" ] && [ -n "$m4" ] || { bad "no markers in the trace"; finish; exit 1; }

# a period the kernel counted between the reads ended between the end of
# the first read and the start of the second at least (inner), and at most
# between the start of the first and the end of the second (outer)
expect_exit 0 "$I" trace report "$TMP/live.trace" --states "$SYS" --format csv --window "$m2,$m3"
cp "$TMP/out" "$TMP/inner.csv"
expect_exit 0 "$I" trace report "$TMP/live.trace" --states "$SYS" --format csv --window "$m1,$m4"
cp "$TMP/out" "$TMP/outer.csv"
python3 - "$TMP/snap-a" "$TMP/snap-b" "$TMP/inner.csv" "$TMP/outer.csv" <<'PY' || bad "trace and sysfs disagree"
import csv, re, sys
def snap(p):
    d = {}
    for l in open(p):
        m = re.search(r'cpu(\d+)/cpuidle/state(\d+)/(\w+):(\d+)', l)
        d.setdefault((int(m[1]), int(m[2])), {})[m[3]] = int(m[4])
    return d
a, b = snap(sys.argv[1]), snap(sys.argv[2])
inner = {(int(r['cpu']), int(r['state'])): r for r in csv.DictReader(open(sys.argv[3]))}
outer = {(int(r['cpu']), int(r['state'])): r for r in csv.DictReader(open(sys.argv[4]))}
status = 0
for k in sorted(b):
    d = {f: b[k][f] - a[k][f] for f in b[k]}
    get = lambda t, f: int(t[k][f]) if k in t and t[k][f] != '' else 0
    lo, hi = get(inner, 'usage'), get(outer, 'usage')
    tlo, thi = get(inner, 'time_us'), get(outer, 'time_us')
    ok = lo <= d['usage'] <= hi and tlo * 0.99 - 1000 <= d['time'] <= thi * 1.01 + 1000
    print(f"cpu{k[0]} state{k[1]}: usage sysfs {d['usage']} trace {lo}..{hi}; "
          f"time_us sysfs {d['time']} trace {tlo}..{thi}; above sysfs {d.get('above')} "
          f"trace {get(inner, 'above')}..{get(outer, 'above')}; below sysfs {d.get('below')} "
          f"trace {get(inner, 'below')}..{get(outer, 'below')}" + ("" if ok else "  <- differs"))
    status |= not ok
sys.exit(status)
PY

# .dat (when this idlelab reads them and trace-cmd is installed): a second
# instance extracted with trace-cmd extract (events only, no function
# tracer) reads as the text trace-cmd report prints for it
if command -v trace-cmd >/dev/null &&
	printf '\027\010Dtracing6' >"$TMP/probe.dat" &&
	! "$I" trace report "$TMP/probe.dat" 2>&1 | grep -q 'without libtracecmd'; then
	D=idlelab-test-dat-$$
	mkdir "$T/instances/$D"
	trap 'echo 0 > "$INST/tracing_on" 2>/dev/null; rmdir "$INST" "$T/instances/$D" 2>/dev/null; rm -rf "$TMP"' EXIT
	for e in power/cpu_idle power/cpu_idle_miss sched/sched_switch sched/sched_wakeup \
		timer/hrtimer_expire_entry irq/irq_handler_entry ipi/ipi_send_cpu; do
		echo 1 >"$T/instances/$D/events/$e/enable"
	done
	echo 1 >"$T/instances/$D/tracing_on"
	sleep 1
	echo 0 >"$T/instances/$D/tracing_on"
	(cd "$TMP" && trace-cmd extract -B "$D" -o "$TMP/live.dat" >/dev/null 2>&1) || bad "trace-cmd extract"
	trace-cmd report -i "$TMP/live.dat" >"$TMP/live-dat.txt" 2>/dev/null || bad "trace-cmd report"
	for t in states wakeups; do
		expect_exit 0 "$I" trace report "$TMP/live.dat" --format csv --table $t
		cut -d, -f1-7 "$TMP/out" >"$TMP/dat.csv"
		expect_exit 0 "$I" trace report "$TMP/live-dat.txt" --format csv --table $t
		cut -d, -f1-7 "$TMP/out" >"$TMP/txt.csv"
		# time_us and the latencies: ns in the .dat, us in the text
		if [ $t = states ]; then cut -d, -f1-4,6-7 "$TMP/dat.csv" >"$TMP/a"; cut -d, -f1-4,6-7 "$TMP/txt.csv" >"$TMP/b"
		else cut -d, -f1-5 "$TMP/dat.csv" >"$TMP/a"; cut -d, -f1-5 "$TMP/txt.csv" >"$TMP/b"; fi
		diff "$TMP/a" "$TMP/b" >/dev/null && ok || bad ".dat and trace-cmd report differ ($t): $(diff "$TMP/a" "$TMP/b" | head -5)"
	done
	echo ".dat: $(grep -c . "$TMP/live-dat.txt") lines of trace-cmd report, the same counts"
fi
finish
