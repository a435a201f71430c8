#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab scenario: list, show, run of a tiny test scenario (outputs, determinism,
# compare on its results), and refusals that leave nothing behind.
. "$SRCDIR/tests/cli/lib.sh"

tiny=$SRCDIR/tests/fixtures/scenario/tiny.ini
valid_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"; }
widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"; }

# list: the five built-in scenarios with their sources and estimates
expect_exit 0 "$IDLELAB" scenario list
for n in zen3-dummy-wait amd-default-idle intel-cst-claim power10-poll-escape freq-invariance; do
	expect_out "$n"
done
expect_out "K Prateek Nayak"
expect_out "runs: "
# freq-invariance's 16 configurations folded under "configurations: ", within 100 columns
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || bad "scenario list is $w columns wide"
grep -q '^                  clx-tb-inv ' "$TMP/out" && ok || bad "configurations not folded under their key"
expect_exit 0 "$IDLELAB" scenario list --format json
cp "$TMP/out" "$TMP/list.json"
valid_json "$TMP/list.json" && ok || bad "list json"
python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); assert len(l)==5 and all(type(x["runs"]) is int and x["estimated_s"]>0 for x in l)' \
	"$TMP/list.json" && ok || bad "list json contents"
expect_exit 2 "$IDLELAB" scenario list --format csv

# show: the file as it is built in
expect_exit 0 "$IDLELAB" scenario show intel-cst-claim
expect_out "row = send-16384 | 28539.71 | 30084.45 | 5.41%"
expect_exit 0 "$IDLELAB" scenario show "$tiny"
expect_same "$tiny"
expect_exit 1 "$IDLELAB" scenario show no-such-scenario
expect_err "no scenario 'no-such-scenario'"

# run: report on stdout, and the directory with every file
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --jobs 2 --output "$TMP/r1"
expect_out "Table 1 (sweep): usage and above % by interval"
expect_out "PASS  every menu run entered idle"
expect_out "FAIL  an impossible figure"
expect_out "n/a   a metric that does not exist"
for f in report.txt report.md report.json report.html sim-menu.json sim-teo.json \
	'sim-menu@wakee-work-x0.5.json' sim-menu@wakee-work-x2.json; do
	[ -s "$TMP/r1/$f" ] && ok || bad "no $f"
done
[ "$(ls "$TMP/r1" | wc -l)" -eq 8 ] && ok || bad "r1 holds: $(ls "$TMP/r1")"
ls -a "$TMP" | grep -q '\.tmp\.' && bad "a temporary is left" || ok
cmp -s "$TMP/out" "$TMP/r1/report.txt" && ok || bad "stdout and report.txt differ"
[ "$(widest "$TMP/r1/report.txt")" -le 100 ] && ok || bad "report.txt wider than 100 columns"
grep -q ' $' "$TMP/r1/report.txt" && bad "trailing blanks in report.txt" || ok
for f in report.json sim-menu.json; do valid_json "$TMP/r1/$f" && ok || bad "$f is not JSON"; done
python3 - "$TMP/r1/report.json" <<'EOF' && ok || bad "report.json contents"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["scenario"] == "tiny" and r["quick"] is True and r["runs"] == 8
t = r["tables"][0]
cell = t["rows"][0]["cells"][1]
assert cell["published_text"] == "1.50" and cell["published"] == 1.5
assert isinstance(cell["simulated"], (int, float))
assert abs(cell["diff"] - (cell["simulated"] - 1.5)) < 1e-9          # points
assert t["rows"][1]["cells"][2]["published"] is None                 # '-' in the file
assert [c["result"] for c in r["checks"]] == ["fail", "pass", "fail", "n/a"]  # 2 quick runs
s = r["sensitivity"][0]
assert s["values"] == ["2000", "1000", "4000"] and s["factors"] == [1, 0.5, 2]
assert r["summary"] == {"pass": 1, "fail": 2, "n/a": 1}
# the quick run's loops=20 replaces the full run's loops=40 in what is printed
assert r["configurations"][0]["workload_options"].split().count("loops=20") == 1
assert "loops=40" not in r["configurations"][0]["workload_options"]
EOF
grep -qF '| interval (µs) | menu usage published | simulated | diff |' "$TMP/r1/report.md" && ok || bad "report.md table"
# compare reads the results of each configuration
expect_exit 0 "$IDLELAB" compare "$TMP/r1/sim-menu.json" "$TMP/r1/sim-teo.json"
expect_out "menu@6.18"
expect_out "teo@6.18"

# the same seed gives the same numbers, another seed other ones
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --jobs 1 --format json --quiet
cp "$TMP/out" "$TMP/j1"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --jobs 2 --format json
cp "$TMP/out" "$TMP/j2"
python3 - "$TMP/j1" "$TMP/j2" <<'EOF' && ok || bad "not deterministic across --jobs"
import json, sys
def load(p):
    r = json.load(open(p))
    for k in ("wall_s", "cpu_s"):
        r.pop(k)
    return r
assert load(sys.argv[1]) == load(sys.argv[2])
EOF
# another seed: other random streams (the wake-up latencies of the results files differ)
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --seed 2 --quiet --output "$TMP/r4"
python3 - "$TMP/r1/sim-menu.json" "$TMP/r4/sim-menu.json" <<'EOF' && ok || bad "the seed changes nothing"
import json, sys
def lat(p):
    r = json.load(open(p))
    assert r["seed"] in (1, 2)
    return [m["values"] for m in r["configs"][0]["metrics"] if m["row"] == "wake latency"]
assert lat(sys.argv[1]) != lat(sys.argv[2])
EOF
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --seed 99 --format json
grep -q '"seed": 99' "$TMP/out" && ok || bad "seed not in the report"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --format markdown
expect_out "## Checks"
# markdown: text that would be an entity or a link is escaped
sed '6s/.*/title = R\&amp;D [see](x)/' "$tiny" >"$TMP/amp.ini"
expect_exit 0 "$IDLELAB" scenario run "$TMP/amp.ini" --quick --format markdown
expect_out 'R\&amp;D \[see\](x)'
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --format html
expect_out "<!DOCTYPE html>"
# a simulated value of 300 digits: shown as a number in a cell, not cut to its first 63 digits
sed 's|^sim = menu usage [|] mean(menu, {row}us/usage_diff)$|& * 1e300|' "$tiny" >"$TMP/huge.ini"
expect_exit 0 "$IDLELAB" scenario run "$TMP/huge.ini" --quick
grep -Eq '^  52 +40 +[0-9.]+e\+301 +\+[0-9.]+e\+301% ' "$TMP/out" && ok ||
	bad "the 300-digit figure is not shown as a number"
expect_exit 0 "$IDLELAB" scenario run "$TMP/huge.ini" --quick --format markdown
grep -q '[0-9]\{20\}' "$TMP/out" && bad "a number of 20 digits in the markdown" || ok
# a source's url is a link only to the web: a javascript: one is text
sed 's|^url = .*|url = javascript:alert(1)|' "$tiny" >"$TMP/js.ini"
expect_exit 0 "$IDLELAB" scenario run "$TMP/js.ini" --quick --format html
expect_out "; javascript:alert(1)</li>"
grep -q 'href="javascript' "$TMP/out" && bad "a javascript: link in the page" || ok
# --progress: on stderr, whatever stderr is
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --progress
expect_err "scenario tiny: 8/8 runs"

# refusals: usage (2), input (1); an existing or a failed output leaves nothing new
expect_exit 2 "$IDLELAB" scenario
expect_exit 2 "$IDLELAB" scenario frobnicate
expect_err "unknown subcommand 'frobnicate'"
expect_exit 2 "$IDLELAB" scenario run
expect_err "run needs a NAME or FILE"
expect_exit 2 "$IDLELAB" scenario run "$tiny" "$tiny"
expect_exit 2 "$IDLELAB" scenario run "$tiny" --jobs 0
expect_err "--jobs: '0'"
expect_exit 2 "$IDLELAB" scenario run "$tiny" --seed -1
expect_exit 2 "$IDLELAB" scenario run "$tiny" --format csv
expect_exit 2 "$IDLELAB" scenario run "$tiny" --bogus
expect_err "unknown option '--bogus'"
expect_exit 2 "$IDLELAB" scenario run "$tiny" --output
expect_exit 2 "$IDLELAB" scenario run "$tiny" --quiet --progress
expect_exit 1 "$IDLELAB" scenario run no-such-scenario
expect_err "no scenario 'no-such-scenario' (built in: "
expect_exit 1 "$IDLELAB" scenario run "$TMP/missing.ini"
expect_err "missing.ini"
expect_exit 1 "$IDLELAB" scenario run "$tiny" --quick --output "$TMP/r1"
expect_err "already exists"
[ "$(ls "$TMP/r1" | wc -l)" -eq 8 ] && ok || bad "r1 changed"
# a bad line names the file and the line
sed 's/^runs = 3$/runs = three/' "$tiny" >"$TMP/bad.ini"
expect_exit 1 "$IDLELAB" scenario run "$TMP/bad.ini" --output "$TMP/r2"
expect_err "bad.ini:24: runs: 'three' is not a number of runs"
[ -e "$TMP/r2" ] && bad "r2 made by a bad scenario" || ok
# a configuration the workload refuses: caught before anything runs, no output
sed 's/^wl = loops=40$/wl = loops=0/' "$tiny" >"$TMP/bad2.ini"
expect_exit 1 "$IDLELAB" scenario run "$TMP/bad2.ini" --output "$TMP/r3" --progress
expect_err "bad2.ini:"
expect_err "loops"
grep -q "runs in" "$TMP/err" && bad "runs started" || ok
[ -e "$TMP/r3" ] && bad "r3 made" || ok
# a misspelt placeholder in a template is refused, not a metric that is always n/a
sed 's/{row}us\/above_pct)$/{rows}us\/above_pct)/' "$tiny" >"$TMP/bad3.ini"
line=$(grep -n '{rows}' "$TMP/bad3.ini" | head -1 | cut -d: -f1)
expect_exit 1 "$IDLELAB" scenario run "$TMP/bad3.ini" --quick
expect_err "bad3.ini:$line: unknown placeholder '{rows}' (a template has only {row})"
# an output that cannot be written: nothing left, exit 1
expect_exit 1 "$IDLELAB" scenario run "$tiny" --quick --output /proc/no/such/dir
ls -a "$TMP" | grep -q '\.tmp\.' && bad "a temporary is left" || ok

# an estimate's value as long as a distribution may be (< 128 characters,
# here a tail's) is scaled whole, not cut where it no longer fits
zeros=0000000000000000000000000000000000000000000000000000000000000000000000000000
long="lognormal:12410:0.33$zeros+6%:exp:1000:123456789"
cat >"$TMP/long.ini" <<EOF
[scenario]
name = long
title = t
finding = f
platform = kvm-haltpoll

[config.a]
label = a
workload = wake-latency
pset = firmware.hlt_exit=$long
runs = 1
duration = 1ms

[checks]
check = c | 1

[sensitivity.hlt]
estimate = firmware.hlt_exit
basis = b
configs = a
factors = 2
figure = f | 1
EOF
expect_exit 0 "$IDLELAB" scenario run "$TMP/long.ini" --quiet --format json
python3 - "$TMP/out" "$long" <<'EOF' && ok || bad "a long estimate's values"
import json, sys
v = json.load(open(sys.argv[1]))["sensitivity"][0]["values"]
long = sys.argv[2]
assert v == [long, long.replace("12410", "24820").replace("1000:123456789", "2000:246913578")], v
EOF

expect_exit 0 "$IDLELAB" help scenario
expect_out "idlelab scenario run NAME|FILE"
finish
