#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The simulator's identity matrix: run the same fixed set of simulations with
# two idlelab binaries and compare every output byte for byte. An engine
# change that only makes the simulator faster must leave every decision,
# every random draw and so every result unchanged.
#
#   tests/sim/identity.sh OLD_IDLELAB NEW_IDLELAB [WORKDIR]
#   tests/sim/identity.sh --run IDLELAB OUTDIR     (one binary: files + SHA256SUMS)
#
# The matrix: every built-in platform x workload (options that let each one
# finish in a short run) x governor (the kernel's default, menu, teo, teo@6.1,
# ladder, haltpoll, oracle; where one does not apply, the error text is
# compared), fixed seeds (the default and --seed 3 --runs 2), plus
# step-by-step traces (--sim-opt trace) of three workloads under menu, teo
# and haltpoll, and request-response under three cpufreq layers. JSON
# results, CSV, stderr and traces are all compared.
# Exit 0 when identical, 1 when not, 2 on bad usage.
set -u

run_matrix() {
	local B=$1 O=$2
	mkdir -p "$O" || return 2
	rm -f "$O"/*
	local plats="kvm-haltpoll amd-zen3-epyc intel-haswell-ep intel-cascadelake-sp
		intel-skylake-client ibm-power10-shared ibm-power10-dedicated amd-zen3-nocstates"
	local w wo d g
	for p in $plats; do
		d=20ms
		[ "$p" = amd-zen3-epyc ] && d=4ms
		for w in sleep-sweep sleep-sweep-rel pingpong wake-latency request-response \
			request-response-tbench stream transactions idle; do
			case $w in
			sleep-sweep) wo="--workload sleep-sweep --wl-opt intervals=2,40,300 --wl-opt loops=10" ;;
			sleep-sweep-rel) wo="--workload sleep-sweep --wl-opt intervals=5,150 --wl-opt loops=10
				--wl-opt mode=relative" ;;
			request-response-tbench) wo="--workload request-response --wl-opt mix=tbench" ;;
			stream) wo="--workload stream --wl-opt phase=500us" ;;
			*) wo="--workload $w" ;;
			esac
			for g in "" menu teo teo@6.1 ladder haltpoll oracle; do
				# shellcheck disable=SC2086
				"$B" sim --platform "$p" $wo ${g:+--governor $g} --duration $d --runs 1 \
					--jobs 1 --format json --output "$O/$p-$w-$g.json" \
					>"$O/$p-$w-$g.out" 2>"$O/$p-$w-$g.err"
				echo "exit $?" >>"$O/$p-$w-$g.err"
			done
			# other seeds, two runs each
			# shellcheck disable=SC2086
			"$B" sim --platform "$p" $wo --governor menu --duration $d --seed 3 --runs 2 \
				--jobs 1 --format json --output "$O/$p-$w-seed3.json" \
				>"$O/$p-$w-seed3.out" 2>"$O/$p-$w-seed3.err"
			echo "exit $?" >>"$O/$p-$w-seed3.err"
		done
	done
	for g in menu teo haltpoll; do
		"$B" sim --platform kvm-haltpoll --workload sleep-sweep --wl-opt loops=20 --governor $g \
			--jobs 1 --sim-opt trace=stderr --format csv >"$O/tr-$g.csv" 2>"$O/tr-$g.trace"
		"$B" sim --platform intel-skylake-client --workload request-response --duration 2ms \
			--governor $g --jobs 1 --sim-opt trace=stderr --format csv >"$O/trr-$g.csv" \
			2>"$O/trr-$g.trace"
		"$B" sim --platform amd-zen3-epyc --workload transactions --duration 1ms --governor $g \
			--jobs 1 --sim-opt trace=stderr --format csv >"$O/trt-$g.csv" 2>"$O/trt-$g.trace"
	done
	"$B" sim --platform kvm-haltpoll --workload pingpong --duration 50ms \
		--gov-param guest_halt_poll_ns=200000 --jobs 1 --format json --output "$O/pp-poll.json"
	"$B" sim --platform kvm-haltpoll --set idle=poll --workload pingpong --duration 20ms --jobs 1 \
		--format json --output "$O/pp-idlepoll.json"
	"$B" sim --platform amd-zen3-epyc --workload request-response --duration 30ms --jobs 1 \
		--format json --output "$O/rr-zen.json"
	# more pairs than CPU pairs: wake-ups find busy CPUs and scan the LLC (select_idle_sibling)
	"$B" sim --platform amd-zen3-epyc --workload request-response --wl-opt pairs=200 \
		--duration 5ms --jobs 1 --format json --output "$O/rr-zen-over.json"
	"$B" sim --platform intel-haswell-ep --workload request-response --wl-opt pairs=40 \
		--duration 10ms --jobs 1 --format json --output "$O/rr-hsw-over.json"
	"$B" sim --platform intel-skylake-client --workload request-response --wl-opt pairs=7 \
		--wl-opt mix=tbench --duration 20ms --jobs 1 --format json --output "$O/rr-skl-over.json"
	# the cpufreq layer (per-core frequencies, PELT, the C0 votes of the depth bookkeeping)
	for cf in schedutil acpi-cpufreq:ondemand intel_pstate:powersave; do
		for p in amd-zen3-epyc intel-haswell-ep intel-skylake-client; do
			d=10ms
			[ "$p" = amd-zen3-epyc ] && d=3ms
			"$B" sim --platform $p --workload request-response --cpufreq $cf --duration $d \
				--jobs 1 --format json --output "$O/cf-$p-${cf/:/-}.json" \
				>"$O/cf-$p-${cf/:/-}.out" 2>"$O/cf-$p-${cf/:/-}.err"
			echo "exit $?" >>"$O/cf-$p-${cf/:/-}.err"
		done
	done
	"$B" sim --platform kvm-haltpoll --workload sleep-sweep --wl-opt loops=3000 --governor menu \
		--jobs 1 --duration 1000s --format json --output "$O/ss-big.json"
	# the glob is expanded before the redirection creates the file
	(cd "$O" && sha256sum -- * >SHA256SUMS)
}

if [ "${1:-}" = --run ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --run IDLELAB OUTDIR" >&2; exit 2; }
	run_matrix "$2" "$3"
	echo "$3: $(($(wc -l <"$3/SHA256SUMS"))) files, SHA256SUMS written"
	exit 0
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 OLD_IDLELAB NEW_IDLELAB [WORKDIR] | $0 --run IDLELAB OUTDIR" >&2
	exit 2
fi
for b in "$1" "$2"; do
	[ -x "$b" ] || { echo "$0: $b: not an executable" >&2; exit 2; }
done
W=${3:-$(mktemp -d)}
run_matrix "$1" "$W/old" || exit 2
run_matrix "$2" "$W/new" || exit 2
n=$(wc -l <"$W/old/SHA256SUMS")
if diff -r "$W/old" "$W/new" >"$W/diff"; then
	echo "identical: $n files ($W/old, $W/new; SHA256SUMS in each)"
	exit 0
fi
echo "DIFFERENT: $(grep -c '^[<>]' "$W/diff") differing lines over $n files ($W/diff)" >&2
head -20 "$W/diff" >&2
exit 1
