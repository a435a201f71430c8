#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Output of every command that prints data: JSON is valid UTF-8 whatever the
# names hold (D10).
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
# --- D10: JSON with such names is valid ---------------------------------
expect_exit 0 "$I" sim --platform "$EVIL" --duration 5ms --format json
json_ok "$TMP/out" "sim --format json"
expect_exit 0 "$I" sim --platform "$EVIL" --duration 5ms --format json --output "$TMP/evil.json"
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

finish
