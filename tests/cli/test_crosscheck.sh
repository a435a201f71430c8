#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Differential check of the menu and teo governors: seeded adversarial replay
# logs (tools/ref/gen_logs.py) plus the reproducers in tests/fixtures/crosscheck
# are decided by the independent Python references (tools/ref/menu_ref.py,
# teo_ref.py, written from the kernel texts) and by `idlelab replay --expect`;
# every row must agree, for every preset and menu patch.
# Knobs: CROSSCHECK_SEED, CROSSCHECK_LOGS, CROSSCHECK_ROWS (defaults keep the
# whole run near 200k rows).
. "$SRCDIR/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed for the reference governors"
	exit 77
fi
REF=$SRCDIR/tools/ref
FX=$SRCDIR/tests/fixtures/crosscheck
SEED=${CROSSCHECK_SEED:-20261201}
NLOGS=${CROSSCHECK_LOGS:-12}
ROWS=${CROSSCHECK_ROWS:-900}

SPECS="menu@6.1 menu@6.12 menu@6.18 menu@6.19 menu@7.1
menu@6.1+no-poll-escape menu@6.12+no-poll-escape menu@6.18+no-poll-escape menu@7.1+no-poll-escape
menu@6.1+poll-escape-15us menu@6.12+poll-escape-15us menu@6.18+poll-escape-15us menu@7.1+poll-escape-15us
menu@6.1+poll-escape=1ms menu@6.12+poll-escape=5us menu@6.18+poll-escape=20us menu@7.1+poll-escape=0
teo@6.1 teo@6.12 teo@6.18 teo@7.1"

python3 "$REF/gen_logs.py" --seed "$SEED" --rows "$ROWS" --count "$NLOGS" "$TMP/gen" ||
	{ bad "gen_logs.py failed"; finish; exit 1; }
logs=$(ls "$TMP"/gen-*.log; ls "$FX"/*.log 2>/dev/null)
nlogs=$(echo "$logs" | wc -l)
if [ "$nlogs" -ge "$NLOGS" ]; then ok; else bad "only $nlogs logs"; fi

# reference decisions, two specs at a time (one python per spec, all logs)
ref_one() {
	local spec=$1 gov=${1%%@*} args=() n=0
	for l in $logs; do args+=("$l" "$TMP/ref.$spec.$n.csv"); n=$((n + 1)); done
	python3 "$REF/${gov}_ref.py" "$spec" "${args[@]}" 2>"$TMP/ref.$spec.err" ||
		echo "$spec" >>"$TMP/ref.failed"
}
running=0
for spec in $SPECS; do
	ref_one "$spec" &
	running=$((running + 1))
	if [ $running -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
if [ -s "$TMP/ref.failed" ]; then
	for spec in $(cat "$TMP/ref.failed"); do bad "reference $spec failed: $(head -3 "$TMP/ref.$spec.err")"; done
fi

# check SPEC LOG DECISIONS ROWS: idlelab agrees on every row
check() {
	local spec=$1 log=$2 dec=$3 rows=$4 out compared equal first
	out=$("$IDLELAB" replay --governor "$spec" "$log" --expect "$dec" --quiet 2>&1)
	compared=$(echo "$out" | sed -n 's/^rows compared: //p')
	equal=$(echo "$out" | sed -n 's/^rows equal: //p')
	first=$(echo "$out" | sed -n 's/^first differing row: //p')
	if [ -n "$compared" ] && [ "$compared" = "$rows" ] && [ "$equal" = "$compared" ] &&
		[ "$first" = "none" ]; then
		ok
	else
		bad "$spec on $(basename "$log"): $compared rows compared, $equal equal (of $rows), first differing row: ${first:-?} ${out:0:200}"
	fi
}
for spec in $SPECS; do
	[ -s "$TMP/ref.failed" ] && grep -qx "$spec" "$TMP/ref.failed" && continue
	n=0
	for l in $logs; do
		rows=$(grep -c '^[0-9]' "$l")
		dec=$TMP/ref.$spec.$n.csv
		if [ "$(($(wc -l <"$dec") - 1))" = "$rows" ]; then ok; else bad "$spec: reference decisions for $l have the wrong length"; fi
		check "$spec" "$l" "$dec" "$rows"
		n=$((n + 1))
	done
done

# the comparison can fail: one flipped stop_tick must be reported as row 3
l=$TMP/gen-0.log
awk -F, 'NR == 5 { $3 = 1 - $3 } { print }' OFS=, "$TMP/ref.menu@7.1.0.csv" >"$TMP/flipped.csv"
out=$("$IDLELAB" replay --governor menu@7.1 "$l" --expect "$TMP/flipped.csv" --quiet 2>&1)
case "$out" in
*"first differing row: 3 "*) ok ;;
*) bad "a flipped decision went unnoticed: $out" ;;
esac
finish
