#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab plot: SVG curves of a grid metric, one per configuration; refusals leave no file.
. "$SRCDIR/tests/cli/lib.sh"

valid_xml() { python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1"; }
npoly() { grep -c '<polyline' "$1"; }

"$IDLELAB" sim --workload sleep-sweep --runs 2 --governor menu --governor teo \
	--format json --output "$TMP/two.json" || bad "sim two"
"$IDLELAB" sim --workload sleep-sweep --runs 2 --format json --output "$TMP/one.json" || bad "sim one"
"$IDLELAB" sim --workload wake-latency --runs 1 --duration 50ms --format json \
	--output "$TMP/nogrid.json" || bad "sim nogrid"

expect_exit 0 "$IDLELAB" plot --metric above_pct --output "$TMP/a.svg" "$TMP/two.json" "$TMP/one.json"
valid_xml "$TMP/a.svg" && ok || bad "a.svg is not XML"
[ "$(npoly "$TMP/a.svg")" -eq 3 ] && ok || bad "a.svg: $(npoly "$TMP/a.svg") polylines, want 3"
grep -qF '>1: menu@6.18 (sleep-sweep)</text>' "$TMP/a.svg" && ok || bad "legend lacks menu"
grep -qF '>2: teo@6.18 (sleep-sweep)</text>' "$TMP/a.svg" && ok || bad "legend lacks teo"
grep -qF '>3: haltpoll@6.18 (sleep-sweep)</text>' "$TMP/a.svg" && ok || bad "legend lacks haltpoll"
grep -qF '>above_pct (%)</text>' "$TMP/a.svg" && ok || bad "no y label with unit"
grep -qF '>sleep (us)</text>' "$TMP/a.svg" && ok || bad "no x label"
# one point per grid row: as many marks as sleep-sweep has intervals, per curve
rows=$(python3 -c 'import json,sys; print(len({m["row"] for m in json.load(open(sys.argv[1]))["configs"][0]["metrics"] if m["col"] == "sleep_us"}))' "$TMP/one.json")
[ "$(grep -c '<circle' "$TMP/a.svg")" -eq $((3 * rows)) ] && ok || bad "want $((3 * rows)) points"
# the same input gives the same bytes
expect_exit 0 "$IDLELAB" plot --metric above_pct --output "$TMP/b.svg" "$TMP/two.json" "$TMP/one.json"
cmp -s "$TMP/a.svg" "$TMP/b.svg" && ok || bad "output not deterministic"

expect_exit 0 "$IDLELAB" plot --metric lat_p99_us --log-x --title 'p99 <&> wake' \
	--output "$TMP/c.svg" "$TMP/one.json"
valid_xml "$TMP/c.svg" && ok || bad "c.svg is not XML"
grep -qF '<title>p99 &lt;&amp;&gt; wake</title>' "$TMP/c.svg" && ok || bad "title not escaped"
grep -qF 'log scale' "$TMP/c.svg" && ok || bad "no log-scale label"
grep -qF 'text-anchor="middle">1000</text>' "$TMP/c.svg" && ok || bad "no decade tick 1000"
[ "$(npoly "$TMP/c.svg")" -eq 1 ] && ok || bad "c.svg: want 1 polyline"
# --row-prefix: x read after the prefix ("freq 2000 MHz" -> 2000)
expect_exit 0 "$IDLELAB" plot --metric time_pct --row-prefix 'freq ' --output "$TMP/d.svg" "$TMP/one.json"
valid_xml "$TMP/d.svg" && ok || bad "d.svg is not XML"
grep -qF '>freq (MHz)</text>' "$TMP/d.svg" && ok || bad "no MHz x label"

# refusals: clear message, non-zero exit, no file left behind
echo '{"idlelab": "replay"}' >"$TMP/other.json"
echo 'not json' >"$TMP/bad.json"
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/other.json"
expect_err "not a result of 'idlelab sim --format json'"
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/one.json" "$TMP/bad.json"
expect_err "bad.json:1: cannot read it as JSON"
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/none.json"
expect_err "none.json"
# a results file with no configuration (plot read the first curve of none: SIGSEGV)
echo '{"idlelab": "sim", "format": 1, "configs": []}' >"$TMP/empty.json"
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/empty.json"
expect_err "empty.json:1: no configurations"
expect_exit 1 "$IDLELAB" compare "$TMP/one.json" "$TMP/empty.json"
expect_err "empty.json:1: no configurations"
expect_exit 1 "$IDLELAB" plot --metric no_such_col --output "$TMP/x.svg" "$TMP/one.json"
expect_err "has no grid row with column 'no_such_col'"
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/nogrid.json"
expect_err "has no grid row with column 'above_pct'"
expect_exit 1 "$IDLELAB" plot --metric above_pct --row-prefix zz --output "$TMP/x.svg" "$TMP/one.json"
expect_err "row name starting 'zz'"
# a hand-made result: x from the row names (no sleep_us), y the mean of the runs;
# y axis 0..5 (step 1) over 370 px: y = 1 -> 420 - 74 = 346; x 0..5 -> 90..660 px
cat >"$TMP/zero.json" <<'JSON'
{"idlelab": "sim", "format": 1, "workload": "hand", "configs": [{"governor": "menu", "kernel": "6.18",
 "metrics": [{"row": "0us", "col": "above_pct", "unit": "%", "values": [1]},
             {"row": "5us", "col": "above_pct", "unit": "%", "values": [4, 6]}]}]}
JSON
expect_exit 0 "$IDLELAB" plot --metric above_pct --output "$TMP/z.svg" "$TMP/zero.json"
grep -qF 'points="90.00,346.00 660.00,50.00"' "$TMP/z.svg" && ok || bad "hand-made points"
grep -qF '>row (us)</text>' "$TMP/z.svg" && ok || bad "x label from the row names"
expect_exit 1 "$IDLELAB" plot --metric above_pct --log-x --output "$TMP/x.svg" "$TMP/zero.json"
expect_err "x = 0 cannot be on a log axis"
# values whose mean overflows are not "no values"; an empty list is
cat >"$TMP/huge.json" <<'JSON'
{"idlelab": "sim", "format": 1, "workload": "hand", "configs": [{"governor": "menu", "kernel": "6.18",
 "metrics": [{"row": "5us", "col": "above_pct", "unit": "%", "values": [1e308, 1e308]},
             {"row": "9us", "col": "below_pct", "unit": "%", "values": []}]}]}
JSON
expect_exit 1 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg" "$TMP/huge.json"
expect_err "huge.json: configuration 1, row '5us', column 'above_pct': the mean of its 2 values is not a finite number"
expect_exit 1 "$IDLELAB" plot --metric below_pct --output "$TMP/x.svg" "$TMP/huge.json"
expect_err "huge.json: configuration 1, row '9us', column 'below_pct': no values"
expect_exit 2 "$IDLELAB" plot --output "$TMP/x.svg" "$TMP/one.json"
expect_err "--metric"
expect_exit 2 "$IDLELAB" plot --metric above_pct "$TMP/one.json"
expect_err "--output"
expect_exit 2 "$IDLELAB" plot --metric above_pct --output "$TMP/x.svg"
expect_err "at least one"
expect_exit 2 "$IDLELAB" plot --bogus
expect_err "unknown option"
if ls "$TMP"/x.svg* >/dev/null 2>&1; then bad "a refused plot left a file"; ls "$TMP" >&2; else ok; fi
finish
