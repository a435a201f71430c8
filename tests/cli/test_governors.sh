#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab governors: every governor with its presets, in the three formats;
# every NAME@RELEASE it lists is a spec replay accepts, and no other release.
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB
LOG=examples/menu-demo.log

expect_exit 0 "$I" governors
expect_out "menu "
expect_out "haltpoll "
# the model governors' one preset is no kernel release: the help and the docs say what it is
grep -q '^oracle  *0  *1$' "$TMP/out" && ok || bad "oracle's preset: $(cat "$TMP/out")"
expect_exit 0 "$I" help governors
expect_out "(oracle, oracle-energy) have one preset, 1"
grep -q '^| `oracle@1`, `oracle-energy@1` | ' docs/governors.md && ok || bad "docs/governors.md: oracle@1"
# CSV and JSON are tidy: one preset per row (the presets were one field, "5.4 5.5 ...")
expect_exit 0 "$I" governors --format csv
head -1 "$TMP/out" >"$TMP/head"
echo "name,rating,preset" | diff - "$TMP/head" >/dev/null && ok || bad "csv header: $(cat "$TMP/head")"
grep -qx 'menu,20,6\.12' "$TMP/out" && ok || bad "menu@6.12 not listed"
grep -q '^teo,19,' "$TMP/out" && ok || bad "teo's rating is not 19"
grep -q ' ' "$TMP/out" && bad "a list in a CSV field: $(grep ' ' "$TMP/out" | head -1)" || ok
cp "$TMP/out" "$TMP/govs.csv"
expect_exit 0 "$I" governors --format json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert {"name": "menu", "rating": 20, "preset": "6.12"} in d, d[:3]
assert len({g["name"] for g in d}) >= 6' "$TMP/out" &&
	ok || bad "governors --format json is not one object per preset"
expect_exit 2 "$I" governors --format xml
expect_exit 2 "$I" governors menu
expect_err "unexpected argument 'menu'"

# each listed spec works; a release between two presets is not a preset
n=0
while IFS=, read -r name _ rel; do
	[ "$name" = name ] && continue
	"$I" replay --governor "$name@$rel" --quiet "$LOG" >/dev/null 2>"$TMP/err" && ok ||
		bad "$name@$rel listed but refused: $(cat "$TMP/err")"
	n=$((n + 1))
done <"$TMP/govs.csv"
[ "$n" -ge 40 ] && ok || bad "only $n presets listed"
expect_exit 2 "$I" replay --governor menu@6.7 --quiet "$LOG"
finish
