#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Output of every command that prints data: JSON is valid UTF-8 whatever the
# names hold (D10), text escapes what a terminal acts on (D15), CSV is tidy
# (one header, every row as wide, numeric columns numbers), the JSON of sim is
# what compare reads, progress on stderr only when asked or on a terminal.
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB

# names with ESC sequences, a C1 control and bytes that are not UTF-8
EVIL=$TMP/evil.ini
printf '[platform]\nname = evil\ndescription = d\033]0;t\007 \302\233\377\n[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n[kernel]\nhz = 250\n[driver]\nname = ev\033[2Jil\ngovernor = ladder\n[state.0]\nname = P\376OLL\033[1m\ndesc = poll\nlatency = 0\nresidency = 0\nflags = polling\n[state.1]\nname = C1\342\200\nlatency = 2\nresidency = 2\n' >"$EVIL"
ELOG=$TMP/evil.log
{
	printf '# idlelab-replay v1\n# hz=1000\n# state,0,P\033[1mOLL\377,0,0,polling\n# state,1,C1\342\200,1000,2000,\n'
	sed -n '/^cpu,/,$p' tests/fixtures/replay/haltpoll-small.log
} >"$ELOG"
ESYS=$TMP/evil-sysfs
cp -r tests/fixtures/sysfs/kvm-haltpoll "$ESYS"
printf 'P\033[31mOLL\377\n' >"$ESYS/cpu0/cpuidle/state0/name"
printf 'd\302\233\n' >"$ESYS/cpu0/cpuidle/state0/desc"
printf 'hp\033[2J\n' >"$ESYS/cpuidle/current_driver"

# json_ok FILE WHAT: the file is JSON in valid UTF-8
json_ok() {
	if python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1" 2>"$TMP/py"; then
		ok
	else
		bad "$2: not valid JSON in UTF-8: $(tail -1 "$TMP/py")"
	fi
}
# no_raw_controls FILE WHAT: no byte a terminal acts on but the line feed, all UTF-8
no_raw_controls() {
	if python3 - "$1" <<'EOF'; then ok; else bad "$2: raw control characters or bytes not UTF-8"; fi
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # raises if not UTF-8
bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
EOF
}
# tidy_csv FILE WHAT NUMERIC_COLS...: one header, every row as wide, the columns numbers (or empty)
tidy_csv() {
	f=$1; what=$2; shift 2
	if python3 - "$f" "$@" <<'EOF' 2>"$TMP/py"; then ok; else bad "$what: CSV not tidy: $(tail -1 "$TMP/py")"; fi
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
head = rows[0]
assert len(rows) > 1, "no rows"
assert len(set(head)) == len(head), "repeated column names"
for n, r in enumerate(rows[1:], 2):
    assert len(r) == len(head), "line %d has %d fields, the header %d" % (n, len(r), len(head))
    assert r != head, "a second header at line %d" % n
    for col in sys.argv[2:]:
        v = r[head.index(col)]
        if v != "":
            float(v)
EOF
}

# --- D10: JSON with such names is valid ---------------------------------
expect_exit 0 "$I" sim --platform "$EVIL" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json
json_ok "$TMP/out" "sim --format json"
expect_exit 0 "$I" sim --platform "$EVIL" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json --output "$TMP/evil.json"
expect_exit 0 "$I" compare "$TMP/evil.json" "$TMP/evil.json" --format json
json_ok "$TMP/out" "compare --format json"
expect_exit 0 "$I" platform show "$EVIL" --format json
json_ok "$TMP/out" "platform show --format json"
expect_exit 0 "$I" replay --governor menu --format json "$ELOG"
json_ok "$TMP/out" "replay --format json"
expect_exit 0 "$I" info --sysfs-root "$ESYS" --json
json_ok "$TMP/out" "info --json"
expect_exit 0 "$I" platforms --format json
json_ok "$TMP/out" "platforms --format json"
# the substitute is U+FFFD, the rest as it was
python3 - "$TMP/evil.json" <<'EOF' && ok || bad "sim JSON names"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["configs"][0]["states"] == ["P\ufffdOLL\x1b[1m", "C1\ufffd\ufffd"], d["configs"][0]["states"]
assert d["configs"][0]["driver"] == "ev\x1b[2Jil"
EOF

# --- D15: text escapes ESC, C1 and bytes that are not UTF-8 -------------
expect_exit 0 "$I" platform show "$EVIL"
no_raw_controls "$TMP/out" "platform show"
expect_out 'P\xfeOLL\e[1m'
expect_out 'driver: ev\e[2Jil (preferred governor ladder)'
expect_out 'platform: evil (d\e]0;t\x07 \u009b\xff)'
expect_exit 0 "$I" platform show "$EVIL" --lines
no_raw_controls "$TMP/out" "platform show --lines"
expect_exit 0 "$I" sim --platform "$EVIL" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms
no_raw_controls "$TMP/out" "sim"
expect_out 'kernel 7.1: cpuidle driver ev\e[2Jil'
expect_out '  0  P\xfeOLL\e[1m  '
expect_exit 0 "$I" replay --governor menu "$ELOG"
no_raw_controls "$TMP/out" "replay"
expect_out 'P\e[1mOLL\xff'
expect_exit 0 "$I" info --sysfs-root "$ESYS"
no_raw_controls "$TMP/out" "info"
expect_out 'driver: hp\e[2J'
expect_out 'P\e[31mOLL\xff'
expect_exit 0 "$I" compare "$TMP/evil.json"
no_raw_controls "$TMP/out" "compare"
# messages quoting a file's bytes are escaped too
printf '[platform]\nname = bad\033[31m\n' >"$TMP/badname.ini"
expect_exit 1 "$I" platform show "$TMP/badname.ini"
no_raw_controls "$TMP/err" "error message"
expect_err "name: 'bad\\e[31m'"

# --- tidy CSV -------------------------------------------------------------
SMALL=tests/fixtures/sim/small.ini
SIMNUM="config run interval_us cpu value"
# the sweep's loops and stream's phases fit in the run
for w in "sleep-sweep --wl-opt loops=2 --wl-opt intervals=5,50" pingpong "stream --wl-opt phase=5ms --wl-opt sizes=64,4096" idle; do
	# shellcheck disable=SC2086
	expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --governor menu --workload $w \
		--duration 20ms --runs 2 --format csv
	w=${w%% *}
	tidy_csv "$TMP/out" "sim $w" $SIMNUM
done
expect_exit 0 "$I" sim --platform "$EVIL" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format csv
tidy_csv "$TMP/out" "sim, odd names" $SIMNUM
[ "$(head -1 "$TMP/out")" = "config,platform,kernel,governor,workload,run,group,interval_us,state,cpu,metric,unit,value" ] &&
	ok || bad "sim CSV header: $(head -1 "$TMP/out")"
# names are dimensions, not packed into the metric
expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --workload sleep-sweep \
	--wl-opt loops=5 --wl-opt intervals=5,50 --duration 20ms --format csv
expect_out "1,sim-small,6.18,ladder@6.18,sleep-sweep,1,interval,50,,,lat_p99_us,us,"
expect_out "1,sim-small,6.18,ladder@6.18,sleep-sweep,1,state,,C6,,time_us,us,"
expect_out "1,sim-small,6.18,ladder@6.18,sleep-sweep,1,cpu,,C1,3,usage,,"
if grep -q '/' "$TMP/out"; then bad "a packed ROW/COL name in the sim CSV"; else ok; fi
# a sweep interval's entries per state: the state in its column, not the metric's
expect_out "1,sim-small,6.18,ladder@6.18,sleep-sweep,1,interval,50,C1,,usage_diff,,"
awk -F, '$7 == "state" { st[$9] = 1 } $7 == "interval" && ($11 in st) { print; exit }' \
	"$TMP/out" >"$TMP/stmetric"
[ -s "$TMP/stmetric" ] && bad "a state's name as a metric: $(cat "$TMP/stmetric")" || ok
# the per-run values are the JSON's: their mean is its amean
"$I" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 20ms --runs 3 \
	--format csv >"$TMP/w.csv"
"$I" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 20ms --runs 3 \
	--format json >"$TMP/w.json"
python3 - "$TMP/w.csv" "$TMP/w.json" <<'EOF' && ok || bad "sim CSV and JSON disagree"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
n = 0
for m in d["configs"][0]["metrics"]:
    row = m["row"]
    if row == "":
        key = ("total", "", m["col"])
    elif row.startswith("state "):
        key = ("state", row[6:], m["col"])
    else:
        key = (row, "", m["col"])
    v = [float(r["value"]) for r in rows if (r["group"], r["state"], r["metric"]) == key]
    assert len(v) == 3, (key, v)
    assert abs(sum(v) / 3 - m["amean"]) <= 1e-9 * max(1, abs(m["amean"])), (key, v, m["amean"])
    n += 1
assert n > 20
EOF
expect_exit 0 "$I" replay --governor haltpoll --format csv --expect tests/fixtures/replay/haltpoll-small.expect \
	tests/fixtures/replay/haltpoll-small.log
tidy_csv "$TMP/out" "replay" row cpu state value
expect_exit 0 "$I" replay --governor menu --format csv "$ELOG"
tidy_csv "$TMP/out" "replay, odd names" row cpu state value
expect_exit 0 "$I" replay --governor menu --format csv --quiet "$ELOG"
tidy_csv "$TMP/out" "replay --quiet" row cpu state value
for m in kvm-haltpoll power-pseries amd-zen3-acpi_idle; do
	expect_exit 0 "$I" info --sysfs-root tests/fixtures/sysfs/$m --csv
	tidy_csv "$TMP/out" "info $m" cpu state latency_us residency_us usage time_us above below \
		rejected disable power_mW s2idle_usage s2idle_time_us
done
expect_exit 0 "$I" info --sysfs-root "$ESYS" --format csv
tidy_csv "$TMP/out" "info, odd names" cpu state usage time_us
for p in kvm-haltpoll intel-skylake-client amd-zen3-nocstates "$EVIL"; do
	expect_exit 0 "$I" platform show "$p" --format csv
	tidy_csv "$TMP/out" "platform show $p" state latency_us residency_us disable
done
expect_exit 0 "$I" platforms --format csv
tidy_csv "$TMP/out" "platforms" cpus

# --- platform show: the JSON has everything the text has ----------------
expect_exit 0 "$I" platform show ibm-power10-dedicated --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "platform show JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["platform"] == "ibm-power10-dedicated" and d["cpus"] == 64 and d["hz"] == 100
assert d["threads_per_core"] == 8 and d["snooze_timeout_ns"] == 120000
assert d["driver"] == "pseries_idle" and d["governor"], d
assert [s["name"] for s in d["states"]] == ["snooze", "CEDE"]
assert d["states"][1]["latency_us"] == 12 and d["states"][1]["residency_us"] == 120
assert any("CEDE exit latency" in n for n in d["notes"]), d["notes"]
EOF
expect_exit 0 "$I" platform show kvm-haltpoll --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "platform show JSON options"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["options"] == {"cpuidle_haltpoll.force": "1", "haltpoll.guest_halt_poll_ns": "0"}, d["options"]
assert d["switch_ns"] == 2215 and d["default_idle"]["routine"].startswith("default_idle")
assert d["preferred_governor"] == "haltpoll"
EOF
# latency in µs, named so, in every output that shows it
for f in table csv json; do
	expect_exit 0 "$I" platform show kvm-haltpoll --format $f
	expect_out "latency_us"
	expect_out "residency_us"
done
# one name for boot options: --set (--option is the deprecated alias)
expect_exit 0 "$I" platform show kvm-haltpoll --set idle=halt --lines
echo "hlt latency:0 disabled:0 default:enabled" >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show kvm-haltpoll --option idle=halt --lines
expect_same "$TMP/want"
expect_exit 0 "$I" help platform
expect_out "--set KEY=VALUE"
expect_out "deprecated"

# --- progress ----------------------------------------------------------------
# not on a file or pipe unless asked
expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --workload idle --duration 20ms --runs 3
[ ! -s "$TMP/err" ] && ok || bad "progress on a non-terminal stderr: $(cat "$TMP/err")"
expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --governor menu --workload idle \
	--duration 20ms --runs 3 --progress
python3 - "$TMP/err" <<'EOF' && ok || bad "progress lines: $(cat "$TMP/err")"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "no final line feed"
lines = lines[:-1]
assert lines[0] == "sim: 0/6 runs, 0.0 s", lines[0]
assert re.fullmatch(r"sim: 6/6 runs in \d+\.\d s", lines[-1]), lines[-1]
for l in lines[1:-1]:
    assert re.fullmatch(r"sim: [1-5]/6 runs, \d+\.\d s, ETA \d+\.\d s", l), l
EOF
expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --workload idle --duration 20ms \
	--progress --quiet
[ ! -s "$TMP/err" ] && ok || bad "--quiet did not silence the progress"
# never into the trace
expect_exit 0 "$I" sim --platform "$SMALL" --governor ladder --workload idle --duration 1ms \
	--jobs 1 --progress --sim-opt trace=stderr
if grep -q '^sim: ' "$TMP/err"; then bad "progress mixed into the trace"; else ok; fi
# on a terminal (script(1) gives one): nothing for a run shorter than 2 s; with the delay
# set to 0 for the test, drawn in place at once and erased at the end
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
	RUN="$I sim --platform $SMALL --governor ladder --workload idle --duration 20ms >/dev/null"
	t0=$(date +%s%N)
	script -qec "$RUN" /dev/null >"$TMP/tty" 2>&1 </dev/null
	ms=$((($(date +%s%N) - t0) / 1000000))
	# judged only when the run took less than 2 s: a busy machine may stretch it past that
	if [ "$ms" -lt 2000 ]; then
		[ ! -s "$TMP/tty" ] && ok || bad "progress on a terminal before 2 s: $(cat -A "$TMP/tty")"
	else
		echo "not judged: the 20 ms run took $ms ms here"
	fi
	IDLELAB_PROGRESS_DELAY_MS=0 script -qec "$RUN" /dev/null >"$TMP/tty" 2>&1 </dev/null
	if grep -q $'^\rsim: [01]/1 runs, [0-9]*\\.[0-9] s\033\\[K' "$TMP/tty" &&
		grep -q $'\r\033\\[K$' "$TMP/tty" && ! grep -q 'runs in' "$TMP/tty"; then
		ok
	else
		bad "progress on a terminal: $(cat -A "$TMP/tty" | head -c 300)"
	fi
fi
finish
