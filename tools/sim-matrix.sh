#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run a fixed matrix of simulations (every built-in platform x workload x
# governor, short runs, plus step-by-step traces) with one idlelab binary and
# write the results to a directory; run it with two binaries and diff the
# directories to show that an engine change keeps every decision:
#   tools/sim-matrix.sh old/idlelab /tmp/a; tools/sim-matrix.sh build/src/cli/idlelab /tmp/b
#   diff -r /tmp/a /tmp/b && echo identical
set -u
if [ $# -ne 2 ]; then
	echo "usage: $0 IDLELAB OUTDIR" >&2
	exit 2
fi
B=$1
O=$2
mkdir -p "$O"
rm -f "$O"/*
for p in kvm-haltpoll amd-zen3-epyc intel-haswell-ep intel-cascadelake-sp intel-skylake-client \
	ibm-power10-shared ibm-power10-dedicated amd-zen3-nocstates; do
	for w in sleep-sweep pingpong wake-latency request-response stream transactions idle; do
		d=20ms
		[ "$p" = amd-zen3-epyc ] && d=3ms
		for g in "" menu teo@6.1 ladder haltpoll oracle; do
			"$B" sim --platform $p --workload $w ${g:+--governor $g} --duration $d --runs 1 \
				--jobs 1 --format json --output "$O/$p-$w-$g.json" >/dev/null \
				2>"$O/$p-$w-$g.err"
		done
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
"$B" sim --platform intel-cascadelake-sp --workload idle --duration 200ms --jobs 1 --format json \
	--output "$O/idle-csl.json"
"$B" sim --platform kvm-haltpoll --workload sleep-sweep --wl-opt loops=3000 --governor menu \
	--jobs 1 --duration 1000s --format json --output "$O/ss-big.json"
"$B" sim --platform intel-haswell-ep --workload sleep-sweep --wl-opt loops=300 --governor menu \
	--runs 2 --jobs 1 --duration 1000s --format json --output "$O/ss-hsw.json"
"$B" sim --platform amd-zen3-epyc --workload request-response --duration 30ms --jobs 1 \
	--format json --output "$O/rr-zen.json"
echo "$O: $(ls "$O" | wc -l) files"
