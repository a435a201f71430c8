#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab batch over MPI ranks (docs/batch.md), two figures:
#
# 1. throughput: bench/batch-throughput.ini (16 runs) with --jobs 1 and under
#    mpirun with 1, 2 and 3 ranks (3 oversubscribes a 2-core machine): wall
#    time, runs/s, efficiency against one rank (runs/s / (ranks x runs/s of
#    one rank)), the CPU time of all processes (what dealing costs, whatever
#    share of the machine the job got), and a check that every output is the
#    --jobs 1 bytes. Median of --repeat N (default 3).
# 2. a projection of the full zen3-dummy-wait scenario: one short run
#    (the scenario's quick settings, 3 s) of each of its batches (the five
#    configurations and the two pm-timer reruns of baseline) is timed (its CPU
#    time, user + system, on one core); each full run (97 s) is projected by the active simulated time
#    (duration less the idle lead-in, start=), the scenario's 60 runs are
#    dealt longest-first-by-estimate in the order the dealer deals them, on
#    2 and on 32 ranks, and the makespan printed. A projection, not a
#    measurement: runs of other seeds and the full runs' later states may
#    cost otherwise.
#
# usage: bench_batch.sh [--build DIR] [--repeat N] [--only throughput|zen3]
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
repeat=3
only=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift ;;
	--repeat) repeat=$2; shift ;;
	--only) only=$2; shift ;;
	*) echo "usage: $0 [--build DIR] [--repeat N] [--only throughput|zen3]" >&2; exit 2 ;;
	esac
	shift
done
I=$build/src/cli/idlelab
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# Another measurement on this machine (tools: /tmp/idlelab-measure.lock) stops
# ours; a timing it may have overlapped is taken again.
lock=/tmp/idlelab-measure.lock
quiet_wait() { while [ -e "$lock" ]; do sleep 1; done; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

throughput() {
	local file=$src/bench/batch-throughput.ini runs=16 base=
	echo "batch throughput: $file ($runs runs), median of $repeat; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	"$I" batch "$file" --jobs 1 --format json --quiet >"$tmp/ref.json" || exit 1
	printf '%-30s %8s %8s %10s %8s %s\n' how wall_s runs/s efficiency cpu_s same-bytes
	for how in "jobs 1" "mpirun -np 1" "mpirun -np 2" "mpirun -np 3 --oversubscribe"; do
		local t=() c=() same=yes ranks
		for ((i = 0; i < repeat; i++)); do
			local t0 t1
			quiet_wait
			t0=$(now)
			# the CPU time of every process (ranks and their runs), user + system
			local cpu
			case $how in
			jobs*) cpu=$( { TIMEFORMAT='%U %S'; time "$I" batch "$file" --jobs 1 --format json \
				--quiet >"$tmp/out.json"; } 2>&1 ) ;;
			# --jobs 1: one run at a time on one rank as on several (mpirun's notes to a file)
			*) cpu=$( { TIMEFORMAT='%U %S'; time $how "$I" batch "$file" --jobs 1 --format json \
				--quiet >"$tmp/out.json" 2>>"$tmp/mpirun.log"; } 2>&1 ) ;;
			esac
			t1=$(now)
			[ -e "$lock" ] && { i=$((i - 1)); continue; }
			cmp -s "$tmp/ref.json" "$tmp/out.json" || same=NO
			t+=("$(echo "$t1 - $t0" | bc -l)")
			c+=("$(echo "$cpu" | tail -1 | awk '{ print $1 + $2 }')")
		done
		local wall rps eff
		wall=$(printf '%s\n' "${t[@]}" | median)
		rps=$(echo "$runs / $wall" | bc -l)
		ranks=1
		case $how in *-np\ *) ranks=$(echo "$how" | awk '{ print $3 }') ;; esac
		[ "$how" = "mpirun -np 1" ] && base=$rps
		if [ -n "$base" ]; then
			eff=$(echo "100 * $rps / ($ranks * $base)" | bc -l)
			eff=$(printf '%.0f %%' "$eff")
		else
			eff=-
		fi
		printf '%-30s %8.2f %8.2f %10s %8.2f %s\n' "$how" "$wall" "$rps" "$eff" \
			"$(printf '%s\n' "${c[@]}" | median)" "$same"
	done
}

zen3() {
	local scn=$src/scenarios/zen3-dummy-wait.ini
	# the platform's pm_timer_read estimate, for the sensitivity reruns (x0.5, x2)
	echo "zen3-dummy-wait projection: one quick run (3 s: start=500ms, warmup 1.5 s) per batch, --jobs 1, seed 1"
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	# the scenario's batches: id, runs, batch-file keys
	cat >"$tmp/zen3.ini" <<EOT
[batch]
platform = amd-zen3-epyc
seed = 1
[config.baseline]
kernel = 5.19
workload = request-response
wl = pairs=128
wl = mix=tbench
wl = start=500ms
runs = 1
duration = 3s
warmup = 1500ms
EOT
	local ids=(baseline c2off patched c2lat100 c2lat400 pmtimer-x0.5 pmtimer-x2)
	local nruns=(10 10 10 5 5 10 10)
	local extra=("" "set = processor.max_cstate=1" "" "pset = cst.2.latency=100" "pset = cst.2.latency=400"
		"scale 0.5" "scale 2")
	local times=()
	for i in "${!ids[@]}"; do
		local f=$tmp/z-$i.ini kernel=5.19 add=${extra[$i]}
		[ "${ids[$i]}" = patched ] && kernel=6.0
		sed "s/^kernel = 5.19/kernel = $kernel/" "$tmp/zen3.ini" >"$f"
		case $add in
		scale*)
			# the rerun's pm_timer_read: the platform's value, each number scaled
			local v f2=${add#scale }
			v=$(grep -h '^pm_timer_read' "$src/platforms/amd-zen3-epyc.ini" | head -1 | sed 's/^[^=]*= *//; s/ *;.*//')
			case $v in uniform:*) ;; *) echo "zen3: pm_timer_read '$v' is not uniform:A:B" >&2; return 1 ;; esac
			v=$(echo "$v" | awk -F: -v f="$f2" '{ printf "%s:%g:%g", $1, $2 * f, $3 * f }')
			echo "pset = firmware.pm_timer_read=$v" >>"$f" ;;
		?*) echo "$add" >>"$f" ;;
		esac
		local t0 t1
		# CPU time (user + system) of the run: what a rank of its own would take, less
		# sensitive than the wall time to the other work on a shared machine
		local cpu
		while :; do
			quiet_wait
			t0=$(now)
			cpu=$( { TIMEFORMAT='%U %S'; time "$I" batch "$f" --jobs 1 --format json --quiet \
				>"$tmp/z.json" 2>/dev/null; } 2>&1 ) || { echo "zen3: ${ids[$i]} failed" >&2; return 1; }
			t1=$(now)
			[ -e "$lock" ] || break
		done
		times+=("$(echo "$cpu" | awk '{ print $1 + $2 }')")
		printf '  %-13s %6.2f s CPU per 3 s run (%.2f s wall)\n' "${ids[$i]}" "${times[$i]}" \
			"$(echo "$t1 - $t0" | bc -l)"
	done
	# project: full run = quick run x (97 - 1) / (3 - 0.5), the active (non-lead-in) simulated time
	local list=""
	for i in "${!ids[@]}"; do
		local p
		p=$(echo "${times[$i]} * 96 / 2.5" | bc -l)
		for ((k = 0; k < ${nruns[$i]}; k++)); do list="$list $p"; done
	done
	echo "$list" | awk '
	function makespan(n,   i, r, best, load) {
		for (r = 1; r <= n; r++) load[r] = 0
		for (i = 1; i <= nt; i++) {           # the dealer: next task to the first rank free
			best = 1
			for (r = 2; r <= n; r++) if (load[r] < load[best]) best = r
			load[best] += t[i]
		}
		m = 0
		for (r = 1; r <= n; r++) if (load[r] > m) m = load[r]
		return m
	}
	{ for (i = 1; i <= NF; i++) { t[++nt] = $i; sum += $i; if ($i > mx) mx = $i } }
	END {
		printf "projected: %d runs, %.0f s of CPU (%.1f h) on one core; the longest run %.0f s\n", nt, sum, sum / 3600, mx
		printf "projected makespan on  2 ranks: %6.0f s (%.1f h)\n", makespan(2), makespan(2) / 3600
		printf "projected makespan on 32 ranks: %6.0f s (%.1f min); the sum / 32 is %.0f s\n", makespan(32), makespan(32) / 60, sum / 32
	}'
}

[ "$only" = zen3 ] || throughput
[ "$only" = throughput ] || zen3
