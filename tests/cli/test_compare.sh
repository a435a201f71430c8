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
finish
