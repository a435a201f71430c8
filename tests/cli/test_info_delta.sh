#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab info --diff A B and --interval D --count N on saved trees: the
# differences and rates from two snapshots with metadata (exact numbers),
# the refusals (other boot, counters going down, swapped order, other
# state tables, bad metadata), the shape of --interval's tables, CSV and
# JSON and the power field (the live machine's --save metadata is in
# test_live_host.sh, suite 'live').
# Env: IDLELAB = the binary, SRCDIR = the source root.
. "$SRCDIR/tests/cli/lib.sh"
FX="$SRCDIR/tests/fixtures/sysfs"

# two snapshots one second apart: A as the fixture, B with counters moved
mk() { # mk DIR BOOTTIME_NS BOOT_ID
	cp -r "$FX/kvm-haltpoll" "$1"
	rm "$1/README.md"
	printf 'format: idlelab-meta 1\ntimestamp: T%s\nboottime_ns: %s\nboot_id: %s\nkernel_release: 6.18.44\nparam.haltpoll.guest_halt_poll_ns: 0\n' \
		"$2" "$2" "$3" >"$1/idlelab-meta.txt"
}
add() { # add FILE N: the counter in FILE grows by N
	echo $(($(cat "$1") + $2)) >"$1"
}
mk "$TMP/a" 1000000000 boot-1
mk "$TMP/b" 3000000000 boot-1
add "$TMP/b/cpu0/cpuidle/state1/usage" 1000
add "$TMP/b/cpu0/cpuidle/state1/time" 500000
add "$TMP/b/cpu0/cpuidle/state1/above" 250
add "$TMP/b/cpu0/cpuidle/state1/below" 10
add "$TMP/b/cpu1/cpuidle/state0/usage" 40
add "$TMP/b/cpu1/cpuidle/state0/time" 200
sed -i 's/guest_halt_poll_ns: 0/guest_halt_poll_ns: 200000/' "$TMP/b/idlelab-meta.txt"

expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b"
expect_out "interval: 2.000 s"
expect_out "  param.haltpoll.guest_halt_poll_ns: 0 -> 200000"
# 500000 us of 2 s = 25 %, 1000 entries / 2 s, 250 of 1000 above, 10 below
# (the table is wider than 100 columns: two slices, cpu, state and name in both)
grep -Eq '^ +0 +1 +haltpoll idle +1000 +500000 +250 +10 +25\.00$' "$TMP/out" &&
	grep -Eq '^ +0 +1 +haltpoll idle +500\.00 +25\.00 +1\.00$' "$TMP/out" &&
	ok || bad "cpu0 state1 row: $(cat "$TMP/out")"
grep -Eq '^ +1 +0 +POLL +40 +200 +0 +0 +0\.01$' "$TMP/out" &&
	grep -Eq '^ +1 +0 +POLL +20\.00 +0\.00 +0\.00$' "$TMP/out" &&
	ok || bad "cpu1 state0 row: $(cat "$TMP/out")"
# no usage: the ratios are n/a, not 0
grep -Eq '^ +1 +1 +haltpoll idle +0 +0 +0 +0 +0\.00$' "$TMP/out" &&
	grep -Eq '^ +1 +1 +haltpoll idle +0\.00 +n/a +n/a$' "$TMP/out" &&
	ok || bad "cpu1 state1 row: $(cat "$TMP/out")"

# the kernel adds an idle period's time when it ends: one that began before A
# counts whole between A and B, beyond 100 % of the interval. The text says
# so (it printed 250 % and nothing else); CSV and JSON keep the number
mk "$TMP/c" 3000000000 boot-1
add "$TMP/c/cpu1/cpuidle/state1/usage" 1
add "$TMP/c/cpu1/cpuidle/state1/time" 5000000
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/c"
grep -Eq '^ +1 +1 +haltpoll idle +1 +5000000 +0 +0 +250\.00$' "$TMP/out" && ok ||
	bad "residency over 100 %: $(cat "$TMP/out")"
expect_out "note: cpu1: idle time over 100 % of the interval (250.00 %): the kernel counts an idle period"
if grep -q "note: cpu0" "$TMP/out"; then bad "a note for cpu0"; else ok; fi
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b"
if grep -q "^note:" "$TMP/out"; then bad "a note without residency over 100 %"; else ok; fi
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/c" --csv
if grep -q "note" "$TMP/out"; then bad "a note in CSV"; else ok; fi

# captures of a machine without a cpuidle driver: said, as info says it (it
# printed an empty table)
CAP="$SRCDIR/tests/fixtures/capture/amd-zen3-nocstates"
expect_exit 0 "$IDLELAB" info --diff "$CAP" "$CAP"
expect_out "no CPU has a cpuidle directory: no counters to take differences of"

# a directory that is no snapshot is said to be that (it was "DIR/cpuidle: no
# cpuidle directory: kernel without CONFIG_CPU_IDLE or booted with cpuidle.off=1")
mkdir -p "$TMP/notsnap/etc"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/notsnap"
expect_err "$TMP/notsnap: not a snapshot: no cpuidle/ (as info --save writes it) nor sys/devices/system/cpu/cpuidle/ (as capture writes it)"
if grep -q CONFIG_CPU_IDLE "$TMP/err"; then bad "--diff of no snapshot blamed the kernel"; else ok; fi

expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b" --csv
[ "$(head -1 "$TMP/out")" = "cpu,state,name,usage,time_us,above,below,residency_pct,usage_per_s,above_pct,below_pct" ] &&
	ok || bad "--diff csv header: $(head -1 "$TMP/out")"
grep -qx '0,1,haltpoll idle,1000,500000,250,10,25.00,500.00,25.00,1.00' "$TMP/out" && ok ||
	bad "--diff csv row: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b" --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "--diff json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["elapsed_s"] == 2.0, j["elapsed_s"]
assert j["changes"] == [{"key": "param.haltpoll.guest_halt_poll_ns", "a": "0", "b": "200000"}], j["changes"]
r = [x for x in j["rows"] if x["cpu"] == 0 and x["state"] == 1][0]
assert r["usage"] == 1000 and r["residency_pct"] == 25.0 and r["above_pct"] == 25.0, r
assert len(j["rows"]) == 4
EOF
# --cpu limits the rows
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b" --cpu 1 --csv
[ "$(wc -l <"$TMP/out")" -eq 3 ] && ! grep -q '^0,' "$TMP/out" && ok || bad "--diff --cpu 1: $(cat "$TMP/out")"

# a state disabled in between is a change
echo 1 >"$TMP/b/cpu1/cpuidle/state0/disable"
expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/b"
expect_out "  disable: cpu1 state0 disable 0 -> 1"
echo 0 >"$TMP/b/cpu1/cpuidle/state0/disable"

# swapped: B first
expect_exit 1 "$IDLELAB" info --diff "$TMP/b" "$TMP/a"
expect_err "$TMP/a was saved before $TMP/b: give the earlier snapshot first"
[ -s "$TMP/out" ] && bad "output on a refusal" || ok
# another boot
mk "$TMP/c" 5000000000 boot-2
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/c"
expect_err "snapshots of different boots (boot_id boot-1, boot-2): the counters restarted in between"
# a counter that went down (same boot, later time)
mk "$TMP/d" 4000000000 boot-1
add "$TMP/d/cpu0/cpuidle/state1/usage" -1
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/d"
expect_err "cpu0 state1 usage went down from 51014 to 51013"
# another state table
mk "$TMP/e" 4000000000 boot-1
echo "C1" >"$TMP/e/cpu1/cpuidle/state1/name"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/e"
expect_err "cpu1 state1 is 'haltpoll idle', then state1 'C1': not the same state table"
mk "$TMP/f" 4000000000 boot-1
rm -r "$TMP/f/cpu1"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/f"
expect_err "cpu1 is in the first read only"
# no metadata: differences without rates
expect_exit 0 "$IDLELAB" info --diff "$FX/kvm-haltpoll" "$TMP/b"
expect_out "interval: not known (no boottime_ns in both idlelab-meta.txt): no rates or residency %"
grep -q "changed:" "$TMP/out" && bad "changes listed against a snapshot without metadata" || ok
grep -Eq '^ +0 +1 +haltpoll idle +1000 +500000 +250 +10 +n/a$' "$TMP/out" &&
	grep -Eq '^ +0 +1 +haltpoll idle +n/a +25\.00 +1\.00$' "$TMP/out" &&
	ok || bad "rates without an interval: $(cat "$TMP/out")"
# a boottime_ns past S64_MAX or empty is no number (not S64_MAX, not 0)
for t in 99999999999999999999 ''; do
	mk "$TMP/k" 4000000000 boot-1
	sed -i "s/^boottime_ns: .*/boottime_ns: $t/" "$TMP/k/idlelab-meta.txt"
	expect_exit 0 "$IDLELAB" info --diff "$TMP/a" "$TMP/k"
	expect_out "interval: not known (boottime_ns is not a number): no rates or residency %"
	rm -r "$TMP/k"
done
# bad metadata: its line
mk "$TMP/g" 4000000000 boot-1
printf 'no colon here\n' >>"$TMP/g/idlelab-meta.txt"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/g"
expect_err "$TMP/g/idlelab-meta.txt:7: want 'key: value'"
printf 'kernel: 6.18\n' >"$TMP/g/idlelab-meta.txt"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/g"
expect_err "$TMP/g/idlelab-meta.txt:1: not idlelab metadata"
printf 'format: idlelab-meta 1\nx: \033[2J\n' >"$TMP/g/idlelab-meta.txt"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/g"
expect_err "$TMP/g/idlelab-meta.txt:2: control character 0x1b"
ln -sf /etc/passwd "$TMP/g/idlelab-meta.txt"
expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/g"
expect_err "idlelab-meta.txt: symbolic link: not followed"

# a bad file in a saved snapshot: an error naming it, no table with holes
for how in garbage twolines missing; do
	mk "$TMP/h" 4000000000 boot-1
	case $how in
	garbage) echo garbage >"$TMP/h/cpu0/cpuidle/state1/usage"; msg="usage: not a number: 'garbage'" ;;
	twolines) printf '12\n34\n' >"$TMP/h/cpu1/cpuidle/state0/time"; msg="cpu1/cpuidle/state0/time: not a number" ;;
	missing) rm "$TMP/h/cpu0/cpuidle/state1/time"; msg="cpu0/cpuidle/state1/time: missing" ;;
	esac
	expect_exit 1 "$IDLELAB" info --diff "$TMP/a" "$TMP/h"
	expect_err "$msg"
	expect_err "$TMP/h: a file of the snapshot is bad (above): no differences printed"
	[ -s "$TMP/out" ] && bad "--diff printed on a bad snapshot ($how): $(cat "$TMP/out")" || ok
	expect_exit 1 "$IDLELAB" info --diff "$TMP/h" "$TMP/b" --format json
	[ -s "$TMP/out" ] && bad "--diff json printed on a bad snapshot ($how)" || ok
	rm -rf "$TMP/h"
done

# --- --interval on a tree that does not move: the shape -------------------
# (not the elapsed time: how long 10 ms take depends on the machine's load)
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/intel-icx-intel_idle" --interval 10ms --count 3
[ "$(grep -c '^interval [123] at ....-..-..T..:..:..\....Z: [0-9]*\.[0-9][0-9][0-9] s$' "$TMP/out")" -eq 3 ] &&
	ok || bad "--interval: three titled tables: $(cat "$TMP/out")"
[ "$(grep -c '^  [0-3]  ' "$TMP/out")" -eq 48 ] && ok || bad "--interval: 16 rows per table"
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/intel-icx-intel_idle" --interval 0.01 --count 2 --csv
[ "$(grep -c '^timestamp,interval,elapsed_s,cpu,state,name,usage,time_us,above,below,residency_pct,usage_per_s,above_pct,below_pct$' "$TMP/out")" -eq 1 ] &&
	ok || bad "--interval csv: one header"
[ "$(wc -l <"$TMP/out")" -eq 33 ] && ok || bad "--interval csv: 32 rows"
grep -Eq '^....-..-..T..:..:..\....Z,2,[0-9]+\.[0-9]+,3,3,C6,0,0,0,0,0\.00,0\.00,,$' "$TMP/out" &&
	ok || bad "--interval csv row: $(tail -1 "$TMP/out")"
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/power-pseries" --interval 10ms --count 2 --json
python3 - "$TMP/out" <<'EOF' && ok || bad "--interval json"
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 8, len(rows)
assert [r["interval"] for r in rows] == [1] * 4 + [2] * 4
assert all(r["usage"] == 0 and r["above"] is None for r in rows)
EOF
# SIGTERM (as SIGINT, which a script's background job ignores) ends it with complete output.
# It is sent once idlelab catches it (SigCgt bit 15), not after a fixed sleep: a busy
# machine may not have run it that far, and the default action would kill it.
# The wait for it is bounded by time (50 s), not by a count of polls: under ASan on a loaded
# machine 400 polls of pgrep/readlink/awk took longer than meson's 300 s timeout.
timeout -k 5 60 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --interval 20ms --json >"$TMP/sig" 2>&1 &
pid=$!
catches_term() { # PID: idlelab (exec'ed), its SigCgt mask has SIGTERM (15)
	local m
	[ "$(readlink "/proc/$1/exe")" = "$(readlink -f "$IDLELAB")" ] || return 1
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && [ $(((0x$m >> 14) & 1)) -eq 1 ]
}
give_up=$((SECONDS + 50))
child=
while [ $SECONDS -lt $give_up ] && kill -0 $pid 2>/dev/null; do
	child=$(pgrep -P $pid | head -n 1)
	[ -n "$child" ] && catches_term "$child" && break
	child=
	sleep 0.05
done
# The signal goes to idlelab itself: through timeout(1) it would also get a second SIGTERM and
# two SIGCONTs (timeout signals the child and its whole group), which can reach it while
# LeakSanitizer stops the world at exit under ASan; that once held it past timeout's 5 s -k.
kill -TERM "${child:-$pid}"
wait $pid
rc=$?
[ $rc -eq 0 ] && python3 -m json.tool "$TMP/sig" >/dev/null && ok || bad "--interval after SIGINT: rc $rc, $(cat "$TMP/sig")"

# --- the power field: -1 of the kernel's int is "not given" ---------------
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll"
grep -Eq '^    0  POLL +CPUIDLE CORE POLL IDLE +0 +0  not given  enabled$' "$TMP/out" && ok ||
	bad "power not given: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --csv
grep -q '^0,0,POLL,CPUIDLE CORE POLL IDLE,0,0,0,0,0,0,0,0,enabled,-1,,$' "$TMP/out" && ok ||
	bad "power -1 in CSV: $(cat "$TMP/out")"

# --- usage errors ---------------------------------------------------------
expect_exit 2 "$IDLELAB" info --count 3
expect_err "--count needs --interval"
expect_exit 2 "$IDLELAB" info --interval 0
expect_err "--interval: '0' is outside 1ms..86400s"
expect_exit 2 "$IDLELAB" info --interval soon
expect_err "--interval: 'soon' is not a duration"
expect_exit 2 "$IDLELAB" info --interval 1 --count 0
expect_err "--count: '0' is not a number of intervals"
# one format: a second, other one is refused, the same one again is not
expect_exit 2 "$IDLELAB" info --csv --json
expect_err "info: --json: a second format ('json' after 'csv')"
expect_exit 2 "$IDLELAB" info --json --format csv
expect_err "info: --format: a second format ('csv' after 'json')"
expect_exit 0 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --format csv --csv
# numbers as every other option takes them: no blank before, no suffix after
expect_exit 2 "$IDLELAB" info --interval " 5"
expect_err "--interval: ' 5' is not a duration"
expect_exit 2 "$IDLELAB" info --interval 1 --count " 2"
expect_err "--count: ' 2' is not a number of intervals"
expect_exit 2 "$IDLELAB" doctor --interval " 1"
expect_err "--interval: ' 1' is not a duration"
expect_exit 2 "$IDLELAB" doctor --miss-threshold " 5"
expect_err "--miss-threshold: ' 5' is not a percentage"
expect_exit 2 "$IDLELAB" sweep --loops " 10"
expect_err "--loops: ' 10' is not 1..10000000"
expect_exit 2 "$IDLELAB" latency --samples "+5x"
expect_err "--samples: '+5x' is not 1..10000000"
expect_exit 2 "$IDLELAB" info --diff "$TMP/a"
expect_err "--diff takes two snapshots: --diff A B"
expect_exit 2 "$IDLELAB" info --diff "$TMP/a" "$TMP/b" --save "$TMP/x"
expect_err "--diff reads two snapshots"
expect_exit 2 "$IDLELAB" info --interval 1 --save "$TMP/x"
expect_err "--save writes one snapshot"
[ -e "$TMP/x" ] && bad "--save on a refusal" || ok

finish
