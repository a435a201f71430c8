#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The engine's fixed outputs: a few short simulations on the built-in
# platforms (2 to 256 CPUs, SMT, turbo bins, the tournament tree of CPUs,
# MWAIT wake-ups, the PM-timer queue) under menu, teo, haltpoll and ladder,
# each JSON result compared by its SHA-256 with tests/sim/golden-hashes.
# A change that only makes the engine faster keeps them; a deliberate model
# change regenerates the list and says so in its commit:
#   IDLELAB=build/src/cli/idlelab SRCDIR=. tests/sim/test_golden_hash.sh --write
. "$SRCDIR/tests/cli/lib.sh"
LIST="$SRCDIR/tests/sim/golden-hashes"

run() {
	name=$1; shift
	"$IDLELAB" sim --jobs 1 --format json --output "$TMP/$name.json" "$@" >/dev/null 2>"$TMP/err" ||
		{ bad "$name: exit $?"; cat "$TMP/err" >&2; }
}
run zen3-rr-menu --platform amd-zen3-epyc --workload request-response --governor menu --duration 3ms
run zen3-tr-teo --platform amd-zen3-epyc --workload transactions --governor teo --duration 2ms
run zen3-rr-over --platform amd-zen3-epyc --workload request-response --wl-opt pairs=200 \
	--governor menu@6.12 --duration 2ms --seed 5
run hsw-rr-ladder --platform intel-haswell-ep --workload request-response --governor ladder \
	--wl-opt mix=tbench --duration 10ms
run csl-wl-teo61 --platform intel-cascadelake-sp --workload wake-latency --governor teo@6.1 \
	--duration 20ms --runs 2
run kvm-ss-menu --platform kvm-haltpoll --workload sleep-sweep --governor menu \
	--wl-opt intervals=2,40,300 --wl-opt loops=20 --wl-opt mode=relative
run kvm-pp-haltpoll --platform kvm-haltpoll --workload pingpong --governor haltpoll --duration 20ms
run skl-st-menu --platform intel-skylake-client --workload stream --governor menu \
	--wl-opt phase=2ms --duration 20ms
run p10-tr-teo --platform ibm-power10-shared --workload transactions --governor teo --duration 10ms
run nocst-idle --platform amd-zen3-nocstates --workload idle --duration 5ms

if [ "${1:-}" = --write ]; then
	[ "$fails" -eq 0 ] || exit 1
	(cd "$TMP" && sha256sum -- *.json) >"$LIST"
	echo "wrote $LIST"
	exit 0
fi
while read -r sum file; do
	if [ ! -f "$TMP/$file" ]; then
		bad "$file: not written"
	elif [ "$(sha256sum <"$TMP/$file" | cut -d' ' -f1)" = "$sum" ]; then
		ok
	else
		bad "$file: output differs from the golden hash (tests/sim/golden-hashes)"
	fi
done <"$LIST"
[ "$(wc -l <"$LIST")" -eq 10 ] && ok || bad "golden-hashes: not 10 entries"
finish
