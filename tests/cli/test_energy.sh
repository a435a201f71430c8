#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Energy report on the built-in platforms that carry power data ([power] and
# [firmware] power.NAME, see docs/power-data.md): positive joules and watts
# in the JSON, an idle workload below a busy one, oracle-energy running on it,
# and no energy rows on a platform without a power model.
. "$SRCDIR/tests/cli/lib.sh"

# metric ROW COL FILE: the first run's value of metric ROW/COL of the first config
metric() {
	python3 -c "import json,sys
d = json.load(open(sys.argv[3]))
for m in d['configs'][0]['metrics']:
    if m['row'] == sys.argv[1] and m['col'] == sys.argv[2]:
        print(m['values'][0]); break
else:
    sys.exit(1)" "$1" "$2" "$3"
}
# positive X: X parses as a number > 0
positive() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$1"; }
# less A B: A < B
less() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2"; }

for plat in intel-cascadelake-sp amd-zen3-epyc; do
	# the platform parses and its derived states got their power figures
	expect_exit 0 "$IDLELAB" platform show "$plat"
	for wl in idle transactions; do
		expect_exit 0 "$IDLELAB" sim --platform "$plat" --workload "$wl" --duration 20ms \
			--format json --output "$TMP/$wl.json"
	done
	for wl in idle transactions; do
		j=$(metric energy joules "$TMP/$wl.json") || { bad "$plat $wl: no energy/joules"; continue; }
		w=$(metric energy watts "$TMP/$wl.json") || { bad "$plat $wl: no energy/watts"; continue; }
		if positive "$j" && positive "$w"; then ok; else bad "$plat $wl: energy $j J, $w W"; fi
		eval "w_$wl=$w"
	done
	# the idle workload (all CPUs idle but for the tick) draws less than transactions
	if less "${w_idle:-0}" "${w_transactions:-0}"; then ok
	else bad "$plat: idle ${w_idle:-?} W not below transactions ${w_transactions:-?} W"; fi
	# watts = joules / duration (20 ms)
	j=$(metric energy joules "$TMP/idle.json")
	if python3 -c "import sys; j, w = map(float, sys.argv[1:]); sys.exit(0 if abs(j / 0.02 - w) <= 1e-6 * w else 1)" \
		"$j" "$w_idle"; then ok; else bad "$plat: $j J over 20 ms is not $w_idle W"; fi
	# the idle floor: every thread in a state with the platform's floor share or
	# polling, never below the floor (threads x floor share) nor above all-busy
	ncpus=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ncpus'])" "$TMP/idle.json")
	case $plat in
	intel-cascadelake-sp) floor=0.5625 ;;
	amd-zen3-epyc) floor=0.781 ;;
	esac
	if python3 -c "import sys; w, n, f = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]); \
sys.exit(0 if n * f * 0.999 <= w < n * 5 else 1)" "$w_idle" "$ncpus" "$floor"; then ok
	else bad "$plat: idle $w_idle W outside [$ncpus x $floor W, $ncpus x 5 W)"; fi
	# oracle-energy ranks the states by energy: every state has a power, so it
	# does not fall back to oracle's rule (deepest state fitting the idle time).
	# C1 and the deepest state draw the same here, and on a tie the shallower
	# wins: oracle-energy never enters the deepest state, oracle does.
	case $plat in
	intel-cascadelake-sp) deep=C6 ;;
	amd-zen3-epyc) deep=C2 ;;
	esac
	expect_exit 0 "$IDLELAB" sim --platform "$plat" --governor oracle-energy --governor oracle \
		--workload idle --duration 20ms --format json --output "$TMP/oe.json"
	if python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
deep = 'state ' + sys.argv[2]
u = {}
for c in d['configs']:
    m = {(x['row'], x['col']): x['values'][0] for x in c['metrics']}
    assert m[('energy', 'joules')] > 0 and m[('energy', 'watts')] > 0, c['governor']
    u[c['governor'].split('@')[0]] = (m[(deep, 'usage')], m[('state C1', 'usage')])
assert u['oracle-energy'][0] == 0 and u['oracle-energy'][1] > 0, u
assert u['oracle'][0] > 0, u" "$TMP/oe.json" "$deep"
	then ok; else bad "$plat: oracle-energy does not rank by energy"; fi
done

# a platform without power data reports no energy
expect_exit 0 "$IDLELAB" sim --platform kvm-haltpoll --workload idle --duration 20ms \
	--format json --output "$TMP/kvm.json"
if metric energy watts "$TMP/kvm.json" >/dev/null; then bad "kvm-haltpoll reports energy"; else ok; fi
# ... not even per CPU: no value there (null), as CSV and the table leave the row out, not 0 J
if python3 - "$TMP/kvm.json" "$TMP/idle.json" <<'PY'
import json, sys
none = json.load(open(sys.argv[1]))['configs'][0]['cpus_run1']
some = json.load(open(sys.argv[2]))['configs'][0]['cpus_run1']
assert all(c['energy_j'] is None for c in none), [c['energy_j'] for c in none]
assert all(isinstance(c['energy_j'], (int, float)) and c['energy_j'] > 0 for c in some)
PY
then ok; else bad "per-CPU energy_j of a platform without power data is not null"; fi

# bad power keys name the file and line
printf '[platform]\nname = t\n[firmware]\npower.C6 = -0.5\n' >"$TMP/bad.ini"
expect_exit 1 "$IDLELAB" platform show "$TMP/bad.ini"
expect_err "bad.ini:4:"
expect_err "negative"

finish
