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
if grep 'wake-latency/samples' "$TMP/out" | grep -q '%.*\*'; then ok; else bad "no significance mark"; cat "$TMP/out"; fi
# the same file against itself is never significant
expect_exit 0 "$IDLELAB" compare "$TMP/a.json" "$TMP/a.json" --metric wake-latency/samples
if grep 'wake-latency/samples' "$TMP/out" | grep -q '\*'; then bad "self-comparison marked"; else ok; fi
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
expect_exit 1 "$IDLELAB" compare "$TMP/none.json"
expect_err "none.json"
expect_exit 2 "$IDLELAB" compare
expect_err "at least one"
finish
