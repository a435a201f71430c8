#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab compare: % differences from the first configuration, Welch marks, refusals.
. "$SRCDIR/tests/cli/lib.sh"
SMALL="$SRCDIR/tests/fixtures/sim/small.ini"

"$IDLELAB" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 50ms \
	--runs 4 --format json --output "$TMP/a.json" || bad "sim a"
"$IDLELAB" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 50ms \
	--runs 4 --wl-opt mean=100us --format json --output "$TMP/b.json" || bad "sim b"

expect_exit 0 "$IDLELAB" compare "$TMP/a.json" "$TMP/a.json"
expect_out "+0.00%"
expect_out "Welch"
# four times as many wake-ups: a significant difference in the sample count
expect_exit 0 "$IDLELAB" compare "$TMP/a.json" "$TMP/b.json" --metric wake-latency/samples
if grep -A1 '^wake-latency$' "$TMP/out" | grep '^  samples ' | grep -q '%.*\*'; then ok; else bad "no significance mark"; cat "$TMP/out"; fi
# the same file against itself is never significant
# a --metric that matches nothing is an error, not an empty table
expect_exit 2 "$IDLELAB" compare "$TMP/a.json" "$TMP/b.json" --metric no-such-metric --output "$TMP/nm.txt"
expect_err "--metric: no metric's name contains 'no-such-metric'"
[ ! -e "$TMP/nm.txt" ] && ok || bad "a refused compare left its output"
expect_exit 0 "$IDLELAB" compare "$TMP/a.json" "$TMP/a.json" --metric wake-latency/samples
if grep '^  samples ' "$TMP/out" | grep -q '\*'; then bad "self-comparison marked"; else ok; fi
expect_exit 0 "$IDLELAB" compare --format csv "$TMP/a.json" "$TMP/b.json"
expect_out "metric,unit,"
expect_exit 0 "$IDLELAB" compare --format json --output "$TMP/c.json" "$TMP/a.json" "$TMP/b.json"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/c.json" && ok || bad "compare json"

echo '{"idlelab": "replay"}' >"$TMP/other.json"
echo 'not json' >"$TMP/bad.json"
expect_exit 1 "$IDLELAB" compare "$TMP/other.json"
expect_err "not a result of 'idlelab sim --format json'"
expect_exit 1 "$IDLELAB" compare "$TMP/bad.json"
expect_err "bad.json"
# a truncated result names the line where it stops; a wrong value its own line
n=$(wc -l <"$TMP/a.json")
head -n $((n / 2)) "$TMP/a.json" >"$TMP/trunc.json"
expect_exit 1 "$IDLELAB" compare "$TMP/a.json" "$TMP/trunc.json" --output "$TMP/t.out"
expect_err "trunc.json:$((n / 2 + 1)): cannot read it as JSON (the text ends inside a value"
[ -e "$TMP/t.out" ] && bad "partial output left behind" || ok
line=$(grep -n '"col": "samples"' "$TMP/a.json" | head -1 | cut -d: -f1)
sed "${line}s/\"values\": \[[0-9]*/\"values\": [\"x\"/" "$TMP/a.json" >"$TMP/str.json"
expect_exit 1 "$IDLELAB" compare "$TMP/str.json"
expect_err "str.json:$line: configuration 1, metric wake-latency/samples: value 1 is not a number"
# a number out of range of a double is not a value either (the writer puts null)
sed "${line}s/\"values\": \[[0-9]*/\"values\": [1e999/" "$TMP/a.json" >"$TMP/inf.json"
expect_exit 1 "$IDLELAB" compare "$TMP/inf.json" --output "$TMP/inf.out"
expect_err "inf.json:$line: configuration 1, metric wake-latency/samples: value 1 is not a number"
[ -e "$TMP/inf.out" ] && bad "partial output left behind" || ok
expect_exit 1 "$IDLELAB" compare "$TMP/none.json"
expect_err "none.json"
expect_exit 2 "$IDLELAB" compare
expect_err "at least one"
# the results format is checked, with its line (D13)
for fmt in '2' '"1"' '1.5'; do
	sed "s/\"format\": 1,/\"format\": $fmt,/" "$TMP/a.json" >"$TMP/fmt.json"
	expect_exit 1 "$IDLELAB" compare "$TMP/fmt.json"
	expect_err "fmt.json:3: "
	expect_err "(this idlelab reads format 1)"
done
grep -v '"format": 1,' "$TMP/a.json" >"$TMP/fmt.json"
expect_exit 1 "$IDLELAB" compare "$TMP/fmt.json"
expect_err "fmt.json:1: no results format (this idlelab reads format 1)"
# at most 16 configurations in all: the 17th file's first one is refused with the right count
cline=$(($(grep -n '"governor"' "$TMP/a.json" | head -1 | cut -d: -f1) - 1))
set -- ; for i in $(seq 17); do set -- "$@" "$TMP/a.json"; done
expect_exit 1 "$IDLELAB" compare "$@"
expect_err "a.json:$cline: too many configurations in all (at most 16)"
# ... and a file of 2000 is refused at its 17th, in less memory than twice the file (D8)
python3 - "$TMP/a.json" "$TMP/big.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
s = t.index('"configs": [') + len('"configs": [')
e = t.rindex(']')
body = t[s:e].rstrip()
open(sys.argv[2], 'w').write(t[:s] + ",".join([body] * 2000) + "\n  ]\n}\n")
PY
size=$(($(wc -c <"$TMP/big.json") / 1024))
rss=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as e:
    subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=e)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$TMP/err" "$IDLELAB" compare "$TMP/big.json")
line17=$(grep -n '"governor"' "$TMP/big.json" | sed -n 17p | cut -d: -f1)
expect_err "big.json:$((line17 - 1)): too many configurations in all (at most 16)"
[ "$rss" -lt $((2 * size)) ] && ok || bad "2000 configurations ($size KiB): $rss KiB to refuse the 17th"
# compare fits a terminal: platform, kernel, governor, workload once in a legend, columns
# keyed by number; the demo's four configurations in 100 columns (227 before)
"$IDLELAB" sim --platform kvm-haltpoll --workload pingpong --duration 200ms --runs 3 \
	--governor haltpoll --governor haltpoll+guest_halt_poll_ns=200000 \
	--governor menu --governor teo --format json --output "$TMP/demo.json" || bad "sim demo"
expect_exit 0 "$IDLELAB" compare "$TMP/demo.json"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || { bad "compare is $w columns wide"; cat "$TMP/out"; }
expect_out "platform kvm-haltpoll, kernel 6.18, workload pingpong, 3 runs each"
expect_out "  2  haltpoll@6.18+guest_halt_poll_ns=200000"
[ "$(grep -c 'kvm-haltpoll' "$TMP/out")" -eq 1 ] && ok || bad "the platform is not named once"
grep -q '^metric  *1  *2  *diff  *3  *diff  *4  *diff$' "$TMP/out" && ok || bad "column keys"
[ -s "$TMP/err" ] && bad "warnings for one workload: $(cat "$TMP/err")" || ok
# a legend line that names what differs (platform, kernel, workload with its options, runs,
# the file) fits too: folded under its text, not past column 100 (it was 130 wide here)
"$IDLELAB" sim --platform intel-skylake-client --kernel 6.12 --workload wake-latency --duration 20ms \
	--wl-opt mean=300us --wl-opt min=30us --format json --output "$TMP/a-long-file-name-for-the-legend.json" ||
	bad "sim long"
expect_exit 0 "$IDLELAB" compare "$TMP/demo.json" "$TMP/a-long-file-name-for-the-legend.json"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || { bad "compare's legend is $w columns wide"; cat "$TMP/out"; }
grep -q '^     [^ ]' "$TMP/out" && ok || bad "the long legend line is not folded under its text"
expect_out "  5  menu@6.12, platform intel-skylake-client, kernel 6.12, workload wake-latency"
# seven configurations are wider than 100 columns: slices of configurations, each with the
# metric and the first's column, made even (three configurations and three)
"$IDLELAB" sim --platform kvm-haltpoll --workload pingpong --duration 50ms --runs 2 \
	--governor menu --governor teo --governor haltpoll --governor ladder --governor menu@6.1 \
	--governor teo@6.1 --governor menu@5.4 --format json --output "$TMP/seven.json" || bad "sim seven"
expect_exit 0 "$IDLELAB" compare "$TMP/seven.json"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || { bad "compare of 7 is $w columns wide"; cat "$TMP/out"; }
[ "$(grep -c '^metric ' "$TMP/out")" -eq 2 ] && ok || bad "compare of 7: not two slices"
grep -q '^metric  *1  *2  *diff  *3  *diff  *4  *diff$' "$TMP/out" &&
	grep -q '^metric  *1  *5  *diff  *6  *diff  *7  *diff$' "$TMP/out" && ok ||
	bad "compare of 7: slices $(grep '^metric' "$TMP/out")"
[ "$(grep -c '^usage  ' "$TMP/out")" -eq 2 ] && ok || bad "compare of 7: a row in each slice"
# JSON gives numbers; CSV is tidy (one header, one row per configuration and metric)
expect_exit 0 "$IDLELAB" compare --format json "$TMP/demo.json"
python3 - "$TMP/out" <<'PY' && ok || bad "compare json numbers"
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["governor"] for c in d["configs"]][1] == "haltpoll@6.18+guest_halt_poll_ns=200000"
m = next(m for m in d["metrics"] if m["row"] == "pingpong" and m["metric"] == "round_trips_per_s")
assert m["summary"] == "hmean" and m["unit"] == "1/s"
c1, c2 = m["configs"][0], m["configs"][1]
assert c1["n"] == 3 and isinstance(c1["mean"], float) and isinstance(c1["stddev"], float)
for k in ("mean", "stddev", "diff_pct", "t", "df", "p_value"):
    assert isinstance(c2[k], (int, float)) and not isinstance(c2[k], bool), k
assert 0 <= c2["p_value"] <= 1 and c2["significance"] in ("significant", "not significant")
assert abs(c2["diff_pct"] - 100 * (c2["mean"] - c1["mean"]) / c1["mean"]) < 1e-9
PY
expect_exit 0 "$IDLELAB" compare --format csv "$TMP/demo.json" "$TMP/demo.json"
python3 - "$TMP/out" <<'PY' && ok || bad "compare csv is not tidy"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
assert head[:11] == ["config", "file", "platform", "kernel", "governor", "workload",
                     "workload_options", "runs", "row", "metric", "unit"], head
assert all(len(r) == len(head) for r in rows[1:]) and len(rows) > 100
assert sum(r == head for r in rows) == 1
num = [head.index(k) for k in ("n", "mean", "stddev", "diff_pct", "t", "df", "p_value")]
for r in rows[1:]:
    for i in num:
        if r[i] != "":  # a missing value is an empty field
            float(r[i])
assert {r[0] for r in rows[1:]} == {str(i) for i in range(1, 9)}
PY

# hand-made results: metrics that only some configurations have, identical runs, no values
mk() { # mk FILE WORKLOAD GOVERNOR METRICS...
	f=$1 wl=$2 gov=$3; shift 3
	{ printf '{"idlelab": "sim", "format": 1, "platform": "p", "workload": "%s", "runs": 3,\n' "$wl"
	  printf ' "configs": [{"governor": "%s", "kernel": "5.10", "metrics": [' "$gov"
	  sep=; for m in "$@"; do printf '%s\n  %s' "$sep" "$m"; sep=,; done
	  printf ']}]}\n'; } >"$f"
}
mk "$TMP/h1.json" w g1 \
	'{"row": "", "col": "same", "values": [5, 5, 5]}' \
	'{"row": "", "col": "const", "values": [5, 5, 5]}' \
	'{"row": "", "col": "none", "values": [null, null, null]}' \
	'{"row": "", "col": "nulls", "values": [1, null, 2]}' \
	'{"row": "freq 2600 MHz", "col": "time_pct", "unit": "%", "values": [100, 100, 100]}'
mk "$TMP/h2.json" w g2 \
	'{"row": "", "col": "same", "values": [5, 5, 5]}' \
	'{"row": "", "col": "const", "values": [7, 7, 7]}' \
	'{"row": "", "col": "none", "values": [1, 2, 3]}' \
	'{"row": "", "col": "nulls", "values": [null, null, null]}' \
	'{"row": "freq 2600 MHz", "col": "time_pct", "unit": "%", "values": [60, 61, 59]}' \
	'{"row": "freq 3100 MHz", "col": "time_pct", "unit": "%", "values": [40, 39, 41]}'
expect_exit 0 "$IDLELAB" compare "$TMP/h1.json" "$TMP/h2.json"
# both sides without variance: "nv", not "*", whether the values differ or not
grep -q '^same  .*+0.00% nv$' "$TMP/out" && ok || { bad "identical runs"; cat "$TMP/out"; }
grep -q '^const  .*+40.00% nv$' "$TMP/out" && ok || bad "no variance, different values marked"
expect_out "nv no variance: every run gave the same value on both sides"
# no values is n/a, not 0.000 and -100 %
grep -q '^none  *n/a  *2.000  *n/a$' "$TMP/out" && ok || bad "empty values"
grep -q '^nulls  *1.500  *n/a  *n/a$' "$TMP/out" && ok || bad "only null values"
grep -q -- '-100' "$TMP/out" && bad "-100 % for no values" || ok
# a metric only the second has is shown, after its neighbour, '-' in the first
grep -A3 '^freq 2600 MHz$' "$TMP/out" | grep -q '^freq 3100 MHz$' && ok || bad "freq 3100 MHz order"
grep -A1 '^freq 3100 MHz$' "$TMP/out" | grep -q '^  time_pct  *-  *40.000  *n/a$' && ok || bad "freq 3100 MHz dropped"
expect_exit 0 "$IDLELAB" compare --format json "$TMP/h1.json" "$TMP/h2.json"
python3 - "$TMP/out" <<'PY' && ok || bad "json: no variance, missing metric"
import json, sys
d = json.load(open(sys.argv[1]))
m = {(x["row"], x["metric"]): x for x in d["metrics"]}
assert m[("", "const")]["configs"][1]["significance"] == "no variance"
assert m[("", "const")]["configs"][1]["p_value"] is None
assert m[("", "none")]["configs"][0]["mean"] is None and m[("", "none")]["configs"][0]["n"] == 0
assert [c["config"] for c in m[("freq 3100 MHz", "time_pct")]["configs"]] == [2]
assert d["warnings"] == []
PY
# different workloads are said
mk "$TMP/h3.json" other g3 '{"row": "", "col": "same", "values": [5, 5, 5]}'
expect_exit 0 "$IDLELAB" compare "$TMP/h1.json" "$TMP/h3.json"
expect_err "idlelab: compare: warning: the configurations ran different workloads (1: w, 2: other): their metrics measure different things"
expect_out "  1  g1, workload w ($TMP/h1.json #1)"
expect_exit 0 "$IDLELAB" compare "$TMP/a.json" "$TMP/b.json"
expect_err "warning: the configurations ran wake-latency with different options (1: defaults, 2: mean=100us)"
# one value (or null) per run: more or fewer are refused, naming the metric's line
mk "$TMP/h5.json" w g5 \
	'{"row": "", "col": "same", "values": [5, 5, 5]}' \
	'{"row": "", "col": "const", "values": [5, 5, 5, 5]}'
expect_exit 1 "$IDLELAB" compare "$TMP/h1.json" "$TMP/h5.json" --output "$TMP/h5.out"
expect_err "h5.json:4: configuration 1, metric /const: 4 values for 3 runs"
[ -e "$TMP/h5.out" ] && bad "partial output left behind" || ok
mk "$TMP/h6.json" w g6 '{"row": "", "col": "same", "values": [5, 5, 5]}' \
	'{"row": "wake latency", "col": "p99_us", "values": []}'
expect_exit 1 "$IDLELAB" compare "$TMP/h6.json"
expect_err "h6.json:4: configuration 1, metric wake latency/p99_us: 0 values for 3 runs"
expect_exit 1 "$IDLELAB" plot --metric same --output "$TMP/h6.svg" "$TMP/h6.json"
expect_err "0 values for 3 runs"
# "runs" that is no count of runs is refused at its line, not taken for 0 (the check skipped)
for runs in 1000000000000 -1 0 2.5 '"3"'; do
	sed "1s/\"runs\": 3,/\"runs\": $runs,/" "$TMP/h1.json" >"$TMP/hr.json"
	expect_exit 1 "$IDLELAB" compare "$TMP/hr.json" --output "$TMP/hr.out"
	expect_err "hr.json:1: \"runs\" is not a number of runs (1 to 1000000000)"
	[ -e "$TMP/hr.out" ] && bad "partial output left behind" || ok
done
# many metrics are matched by name in linear time: 60000 metrics took minutes (quadratic)
python3 - "$TMP/many.json" <<'PY'
import json, sys
m = [{"row": "r%d" % (i // 10), "col": "c%d" % (i % 10), "values": [i, i + 1, i + 2]}
     for i in range(60000)]
json.dump({"idlelab": "sim", "format": 1, "platform": "p", "workload": "w", "runs": 3,
           "configs": [{"governor": "g", "kernel": "5.10", "metrics": m}]}, open(sys.argv[1], "w"))
PY
expect_exit 0 timeout 60 "$IDLELAB" compare "$TMP/many.json" "$TMP/many.json" --format csv
[ "$(grep -c ',r5999,c9,' "$TMP/out")" -eq 2 ] && ok || bad "many metrics: the last one missing"
# values near DBL_MAX: means, deviations and differences that do not overflow, short cells
mk "$TMP/huge.json" w gh '{"row": "", "col": "same", "values": [1e308, 1.5e308, 1.7e308]}'
mk "$TMP/tiny.json" w gt '{"row": "", "col": "same", "values": [1e300, 2e300, 3e300]}'
expect_exit 0 "$IDLELAB" compare "$TMP/huge.json" "$TMP/tiny.json"
grep -q '^same  *1.4e+308  *2e+300  *-100.00% \*$' "$TMP/out" && ok || bad "huge values: $(cat "$TMP/out")"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || bad "huge values: $w columns"
# names from a file are escaped for the terminal as in every text table (D15): a C1 CSI
# (U+009B), ESC, a backslash; nothing a terminal acts on reaches it
mk "$TMP/e1.json" 'w\u009b2J' 'g\u001b[31mred\\x' '{"row": "r\u001b]0;t\u0007", "col": "c", "values": [1, 2, 3]}'
expect_exit 0 "$IDLELAB" compare "$TMP/e1.json" "$TMP/e1.json"
expect_out 'workload w\u009b2J'
expect_out 'g\e[31mred\\x'
expect_out 'r\e]0;t\x07'
LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$TMP/out" && bad "a control character in compare's table" || ok
LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$TMP/out" && bad "a C1 control in compare's table" || ok
# platform names of 63 characters (the longest a file may give) that differ only at the end:
# two platforms, each named whole in the legend, not one cut to the results reader's field
for e in A B; do
	sed -e "s/^name = kvm-haltpoll\$/name = $(printf 'p%.0s' $(seq 62))$e/" \
		"$SRCDIR/platforms/kvm-haltpoll.ini" >"$TMP/long$e.ini"
	"$IDLELAB" sim --platform "$TMP/long$e.ini" --workload idle --duration 20ms --format json \
		--output "$TMP/long$e.json" 2>/dev/null || bad "sim on a 63-character platform name"
done
expect_exit 0 "$IDLELAB" compare "$TMP/longA.json" "$TMP/longB.json"
for e in A B; do
	grep -q "$(printf 'p%.0s' $(seq 62))$e" "$TMP/out" && ok ||
		bad "compare lost the end of platform name ...$e: $(sed -n 2,4p "$TMP/out")"
done
# workload options longer than the reader's field (a 64-value interval list) that differ only
# past it: two configurations with different options, each marked as cut, not one
ivs=$(seq -f '%gns' -s, 10001 10 10631)
for m in busy relative; do
	"$IDLELAB" sim --workload sleep-sweep --wl-opt "intervals=$ivs" --wl-opt loops=2 \
		--wl-opt "mode=$m" --duration 50ms --format json --output "$TMP/opt$m.json" 2>/dev/null ||
		bad "sim with a long interval list"
done
expect_exit 0 "$IDLELAB" compare "$TMP/optbusy.json" "$TMP/optrelative.json"
grep -q 'with different options' "$TMP/err" && ok || bad "no warning of different options"
[ "$(grep -c 'bytes, #[0-9a-f]\{16\})' "$TMP/out")" -ge 2 ] && ok ||
	bad "cut options not marked: $(sed -n 1,8p "$TMP/out")"
expect_exit 0 "$IDLELAB" compare --format json "$TMP/optbusy.json" "$TMP/optrelative.json"
python3 - "$TMP/out" <<'PY' && ok || bad "cut options alike in compare's JSON"
import json, sys
c = json.load(open(sys.argv[1]))["configs"]
assert len(c) == 2 and c[0]["workload_options"] != c[1]["workload_options"], c
PY
finish
