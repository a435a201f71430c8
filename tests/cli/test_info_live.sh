#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab info against the live /sys of the machine the suite runs on.
# Counters are monotone, so every usage/time that `idlelab info --csv`
# prints must lie between a read of the sysfs file just before and one
# just after; the state table (name, desc, latency, residency) must match
# the files exactly, and every CPU with a cpuidle directory must be listed.
# Skips (exit 77) when the kernel has no /sys/devices/system/cpu/cpuidle.
# Env: IDLELAB = the binary; IDLELAB_LIVE_SYSFS = another tree to treat as
# live (default /sys/devices/system/cpu, read without --sysfs-root).
set -u
: "${IDLELAB:?set IDLELAB to the idlelab binary}"
SYS=${IDLELAB_LIVE_SYSFS:-/sys/devices/system/cpu}
ROOT=()
[ "$SYS" != /sys/devices/system/cpu ] && ROOT=(--sysfs-root "$SYS")
if [ ! -d "$SYS/cpuidle" ]; then
	echo "SKIP: $SYS/cpuidle does not exist (no cpuidle on this kernel)"
	exit 77
fi
T=$(mktemp -d /tmp/test_info_live.XXXXXX)
trap 'rm -rf "$T"' EXIT

# usage and time of every state, in "cpu state usage time" lines
snapshot() {
	local d cpu st
	for d in "$SYS"/cpu[0-9]*/cpuidle/state[0-9]*; do
		[ -d "$d" ] || continue
		cpu=${d#"$SYS"/cpu}; cpu=${cpu%%/*}
		st=${d##*/state}
		echo "$cpu $st $(<"$d/usage") $(<"$d/time")"
	done
}

snapshot >"$T/before"
"$IDLELAB" info "${ROOT[@]}" --csv >"$T/csv" 2>"$T/err"
rc=$?
snapshot >"$T/after"
if [ $rc -ne 0 ] || [ -s "$T/err" ]; then
	echo "FAIL: idlelab info --csv exited $rc"; cat "$T/err"; exit 1
fi
"$IDLELAB" info "${ROOT[@]}" >"$T/text" 2>"$T/err" || { echo "FAIL: idlelab info"; cat "$T/err"; exit 1; }
"$IDLELAB" info "${ROOT[@]}" --json >"$T/json" 2>"$T/err" || { echo "FAIL: idlelab info --json"; exit 1; }
python3 -m json.tool "$T/json" >/dev/null || { echo "FAIL: live --json is not valid JSON"; exit 1; }

python3 - "$T" "$SYS" <<'EOF'
import csv, json, os, sys
T, SYS = sys.argv[1], sys.argv[2]
def snap(name):
    d = {}
    for line in open(os.path.join(T, name)):
        cpu, st, usage, time = line.split()
        d[(int(cpu), int(st))] = (int(usage), int(time))
    return d
before, after = snap("before"), snap("after")
rows = list(csv.DictReader(open(os.path.join(T, "csv"))))
got = {(int(r["cpu"]), int(r["state"])): r for r in rows}
fails = 0
def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)
if set(got) != set(before):
    fail("idlelab lists %s, sysfs has %s" % (sorted(got), sorted(before)))
for key in sorted(before):
    if key not in got:
        continue
    r = got[key]
    for i, col in enumerate(["usage", "time_us"]):
        v = int(r[col])
        if not before[key][i] <= v <= after[key][i]:
            fail("cpu%d state%d %s = %d, not within [%d, %d]" %
                 (key[0], key[1], col, v, before[key][i], after[key][i]))
    d = os.path.join(SYS, "cpu%d/cpuidle/state%d" % key)
    for col, f in [("name", "name"), ("desc", "desc"), ("latency_us", "latency"),
                   ("residency_us", "residency"), ("disable", "disable")]:
        want = open(os.path.join(d, f)).read().rstrip("\n")
        if r[col] != want:
            fail("cpu%d state%d %s = %r, sysfs has %r" % (key[0], key[1], col, r[col], want))
text = open(os.path.join(T, "text")).read().splitlines()
for cpu in sorted({k[0] for k in before}):
    if "cpu%d:" % cpu not in text:
        fail("text output has no table for cpu%d" % cpu)
j = json.load(open(os.path.join(T, "json")))
drv = open(os.path.join(SYS, "cpuidle/current_driver")).read().strip()
if j["driver"] != drv:
    fail("json driver %r, sysfs %r" % (j["driver"], drv))
if sum(len(c["states"]) for c in j["cpus"]) != len(before):
    fail("json lists a different number of states")
print("test_info_live: %d states on %d CPUs checked, %d failures" %
      (len(before), len({k[0] for k in before}), fails))
sys.exit(1 if fails else 0)
EOF
[ $? -eq 0 ] || exit 1

# --save of the live tree reads back as the snapshot it took
"$IDLELAB" info "${ROOT[@]}" --save "$T/saved" >/dev/null 2>"$T/err" || { echo "FAIL: --save"; cat "$T/err"; exit 1; }
for d in "$SYS"/cpu[0-9]*/cpuidle/state[0-9]*; do
	[ -d "$d" ] || continue
	rel=${d#"$SYS"/}
	for f in name desc latency residency; do
		# through a pipe: sysfs files claim a size of 4096, which cmp trusts
		cat "$d/$f" | cmp -s - "$T/saved/$rel/$f" ||
			{ echo "FAIL: saved $rel/$f differs"; exit 1; }
	done
done
"$IDLELAB" info --sysfs-root "$T/saved" >"$T/a" 2>&1 || { echo "FAIL: reading the saved tree"; exit 1; }
"$IDLELAB" info --sysfs-root "$T/saved" >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" || { echo "FAIL: saved tree reads differently twice"; exit 1; }
echo "test_info_live: ok"
