#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# cpufreq_identity.sh OLD NEW: an optimisation of the cpufreq layer must not
# change any result. Runs the same matrix with two idlelab binaries (for
# example a copy of build/src/cli/idlelab before a change and the one after)
# and compares the JSON output byte for byte: 3 platforms (Cascade Lake,
# Skylake client, Atom) x 4 workloads (request-response with all pairs and
# one, kernbench, gitsource) x 8 cpufreq specs (schedutil with and without
# invariance, schedutil without util_est on acpi-cpufreq, HWP,
# intel_pstate, ondemand on both drivers, performance), 1 s each after a
# 100 ms warm-up, kernels 5.7 and 6.18 (schedutil's runnable boosting,
# 6.5 on). Specs a platform refuses (HWP without HWP) must fail the same
# way with both. About 30 s per binary on one core.
# Exit status 0 when every output is identical.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_IDLELAB NEW_IDLELAB" >&2; exit 2; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
for which in old new; do
	if [ $which = old ]; then bin=$1; else bin=$2; fi
	mkdir -p "$dir/$which"
	for k in 5.7 6.18; do
	for p in intel-cascadelake-sp intel-skylake-client intel-atom-z8350; do
		for w in request-response request-response:pairs=1 kernbench gitsource; do
			wl=${w%%:*}
			opt=
			[ "$wl" != "$w" ] && opt="--wl-opt ${w#*:}"
			for cf in intel_cpufreq:schedutil+invariance=on \
				  intel_cpufreq:schedutil+invariance=off \
				  acpi-cpufreq:schedutil+util_est=off hwp:powersave \
				  intel_pstate:powersave intel_cpufreq:ondemand \
				  acpi-cpufreq:ondemand performance; do
				n=$(echo "$k-$p-$w-$cf" | tr ':+=' '___')
				# shellcheck disable=SC2086
				"$bin" sim --platform $p --kernel $k --workload $wl $opt \
					--cpufreq $cf --duration 1s --warmup 100ms --runs 1 \
					--jobs 1 --quiet --format json >"$dir/$which/$n.json" \
					2>"$dir/$which/$n.err"
				echo "exit $?" >>"$dir/$which/$n.err"
			done
		done
	done
	done
done
n=$(ls "$dir/old"/*.json | wc -l)
if diff -r "$dir/old" "$dir/new" >"$dir/diff"; then
	echo "cpufreq_identity: $n outputs identical"
	exit 0
fi
echo "cpufreq_identity: outputs differ:" >&2
grep '^diff\|^Only' "$dir/diff" >&2
exit 1
