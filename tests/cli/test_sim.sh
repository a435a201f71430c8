#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab sim: defaults, golden outputs of every workload on a small made-up
# platform (deterministic: same numbers with any --jobs), JSON, refusals.
. "$SRCDIR/tests/cli/lib.sh"
FIX="$SRCDIR/tests/fixtures/sim"
SMALL="$FIX/small.ini"

# no options: a short sleep-sweep on kvm-haltpoll
expect_exit 0 "$IDLELAB" sim
expect_out "platform kvm-haltpoll"
expect_out "sleep-sweep"
expect_out "wakee_cpu"
expect_out "relative error <= 0.39 %"
expect_exit 0 "$IDLELAB" help sim
expect_out "usage: idlelab sim"
expect_exit 0 "$IDLELAB" sim --list-workloads
for w in sleep-sweep pingpong wake-latency request-response stream transactions idle; do
	expect_out "$w: "
done

# golden outputs (regenerate with the command in each case after a deliberate change)
golden() {
	name=$1; shift
	for jobs in 1 2; do
		expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --duration 50ms \
			--runs 2 --format csv --jobs $jobs "$@"
		expect_same "$FIX/$name.csv"
	done
}
golden sleep-sweep --workload sleep-sweep --wl-opt loops=10 --wl-opt intervals=5,50,500
golden pingpong --workload pingpong --wl-opt period=10ms
golden wake-latency --workload wake-latency
golden request-response --workload request-response
golden stream --workload stream --wl-opt phase=10ms --wl-opt sizes=64,4096
golden transactions --workload transactions
golden idle --workload idle
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload pingpong \
	--wl-opt period=10ms --duration 50ms
expect_same "$FIX/pingpong.txt"

# JSON to a file, with several governors side by side
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --governor oracle \
	--workload wake-latency --duration 20ms --runs 3 --format json --output "$TMP/r.json"
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
assert d['idlelab']=='sim' and len(d['configs'])==2 and len(d['configs'][0]['metrics'][0]['values'])==3" \
	"$TMP/r.json"; then ok; else bad "JSON output malformed"; fi
# another seed changes the numbers, the same seed does not
"$IDLELAB" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 20ms --seed 9 >"$TMP/a"
"$IDLELAB" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 20ms --seed 9 >"$TMP/b"
"$IDLELAB" sim --platform "$SMALL" --governor ladder --workload wake-latency --duration 20ms --seed 10 >"$TMP/c"
if cmp -s "$TMP/a" "$TMP/b" && ! cmp -s "$TMP/a" "$TMP/c"; then ok; else bad "seed handling"; fi

# boot options and kernel releases reach the drivers and governors
expect_exit 0 "$IDLELAB" sim --set idle=poll --platform intel-skylake-client --workload wake-latency --duration 20ms
expect_out "(idle=poll)"
expect_out "state poll/usage"
expect_exit 0 "$IDLELAB" sim --kernel 6.1 --workload wake-latency --duration 20ms
expect_out "kernel 6.1:"
expect_out "haltpoll@6.1: per CPU"
# --kernel REL runs each governor's preset in force at REL (5.19: menu of 5.13),
# recorded in every output; an explicit @REL wins; outside 5.4..7.1 is refused
expect_exit 0 "$IDLELAB" sim --kernel 5.19 --platform amd-zen3-epyc --workload idle --duration 2ms --jobs 1
expect_out "kernel 5.19:"
expect_out "menu@5.13: metrics"
expect_exit 0 "$IDLELAB" sim --kernel 5.19 --platform amd-zen3-epyc --workload idle --duration 2ms --jobs 1 --format json
expect_out '"governor": "menu@5.13"'
expect_exit 0 "$IDLELAB" sim --kernel 6.4 --platform intel-skylake-client --governor teo --governor ladder --governor haltpoll --workload idle --duration 2ms --jobs 1
expect_out "teo@6.3: metrics"
expect_out "ladder@6.1: metrics"
expect_out "haltpoll@6.1: metrics"
expect_exit 0 "$IDLELAB" sim --kernel 5.19 --platform amd-zen3-epyc --governor menu@7.1 --workload idle --duration 2ms --jobs 1
expect_out "menu@7.1: metrics"
expect_exit 0 "$IDLELAB" sim --kernel 6.18 --platform amd-zen3-epyc --workload idle --duration 2ms --jobs 1
expect_out "menu@6.18: metrics"
expect_exit 0 "$IDLELAB" sim --kernel 6.19 --platform amd-zen3-epyc --workload idle --duration 2ms --jobs 1
expect_out "menu@6.19: metrics"
"$IDLELAB" sim --kernel 5.3 --workload idle --duration 2ms >"$TMP/out" 2>"$TMP/err"
if [ $? -ne 0 ] && [ ! -s "$TMP/out" ]; then ok; else bad "--kernel 5.3 accepted"; fi
expect_err "5.3"
expect_err "5.4"
"$IDLELAB" sim --kernel 7.2 --workload idle --duration 2ms >"$TMP/out" 2>"$TMP/err"
if [ $? -ne 0 ] && [ ! -s "$TMP/out" ]; then ok; else bad "--kernel 7.2 accepted"; fi
# platform show names the preset in force
expect_exit 0 "$IDLELAB" platform show kvm-haltpoll --kernel 6.9
expect_out "governor: haltpoll@6.9 (496d0a648509"
expect_exit 0 "$IDLELAB" platform show amd-zen3-epyc --kernel 5.19
expect_out "governor: menu@5.13 ("
expect_exit 0 "$IDLELAB" platform show amd-zen3-epyc --kernel 5.19 --format json
expect_out '"governor_preset": "5.13"'
# many CPUs: the per-CPU table only on request
expect_exit 0 "$IDLELAB" sim --platform amd-zen3-epyc --workload idle --duration 20ms
expect_out "per-CPU counters left out for 256 CPUs"
expect_exit 0 "$IDLELAB" sim --platform amd-zen3-epyc --workload idle --duration 20ms --per-cpu
expect_out "255  POLL"

# governor parameters: the platform's haltpoll.guest_halt_poll_ns=0 first, then --gov-param
expect_exit 0 "$IDLELAB" sim --workload wake-latency --duration 50ms
if grep -q 'state POLL/usage  *0$' "$TMP/out"; then ok; else bad "POLL used with guest_halt_poll_ns=0"; fi
expect_exit 0 "$IDLELAB" sim --workload wake-latency --duration 50ms --gov-param guest_halt_poll_ns=200000
if grep -q 'state POLL/usage  *0$' "$TMP/out"; then bad "guest_halt_poll_ns not applied"; else ok; fi
expect_exit 2 "$IDLELAB" sim --gov-param nosuch=1
expect_err "unknown parameter 'nosuch'"
# ... but not over what a spec sets itself: the run labelled +guest_halt_poll_ns=5
# polls 5 ns, as without --gov-param (it ran with the --gov-param's window)
expect_exit 0 "$IDLELAB" sim --governor haltpoll+guest_halt_poll_ns=5 --workload pingpong \
	--duration 10ms --format csv
cp "$TMP/out" "$TMP/spec5.csv"
expect_exit 0 "$IDLELAB" sim --governor haltpoll+guest_halt_poll_ns=5 --workload pingpong \
	--duration 10ms --format csv --gov-param guest_halt_poll_ns=200000
expect_same "$TMP/spec5.csv"

# refusals: clear message, exit 2 for bad usage and 1 for bad input, no output file left behind
expect_exit 2 "$IDLELAB" sim --workload nosuch
expect_err "unknown workload 'nosuch'"
expect_exit 2 "$IDLELAB" sim --runs 0
expect_err "--runs"
expect_exit 2 "$IDLELAB" sim --duration -1s
expect_err "--duration"
expect_exit 2 "$IDLELAB" sim --wl-opt colour=red
expect_err "no option 'colour'"
expect_exit 2 "$IDLELAB" sim --wl-opt novalue
expect_err "KEY=VALUE"
expect_exit 2 "$IDLELAB" sim --governor nosuch --output "$TMP/never.json"
expect_err "unknown governor"
[ ! -e "$TMP/never.json" ] && ok || bad "output file left after a failure"
expect_exit 1 "$IDLELAB" sim --platform "$TMP/missing.ini"
expect_err "missing.ini"
expect_exit 2 "$IDLELAB" sim --format xml
expect_err "--format"
expect_exit 2 "$IDLELAB" sim --sim-opt nocpuidle_tick=sometimes
expect_err "got-tick, stop, retain, governor or release"
expect_exit 2 "$IDLELAB" sim --sim-opt warp=9
expect_err "unknown key 'warp'"
expect_exit 2 "$IDLELAB" sim --bogus
expect_err "unknown option"
expect_exit 1 "$IDLELAB" sim --workload sleep-sweep --wl-opt wakee=7
expect_err "CPU 7 does not exist"
# the JSON names the engine settings the runs used: switch_ns from the platform, or --sim-opt
expect_exit 0 "$IDLELAB" sim --platform kvm-haltpoll --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json
expect_out '"engine": {"entry_ns": 300, "switch_ns": 2215,'
expect_exit 0 "$IDLELAB" sim --platform kvm-haltpoll --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json --sim-opt switch_ns=100
expect_out '"switch_ns": 100,'
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json
expect_out '"switch_ns": 700, "switch_cycles": null,'
# a platform giving the path in cycles says so; --sim-opt switch_ns wins over it
expect_exit 0 "$IDLELAB" sim --platform amd-zen3-nocstates --workload wake-latency --duration 2ms --format json
expect_out '"switch_cycles": "normal:4284:252",'
expect_exit 0 "$IDLELAB" sim --platform amd-zen3-nocstates --workload wake-latency --duration 2ms --format json --sim-opt switch_ns=100
expect_out '"switch_ns": 100, "switch_cycles": null,'
# one CPU limit (IL_CPUS_MAX = 8192) for the platform loader, the engine and every workload
topo() { sed "s/^packages = 1/packages = $1/; s/^cores_per_package = 2/cores_per_package = $2/;
	s/^threads_per_core = 2/threads_per_core = $3/" "$SMALL" >"$TMP/topo.ini"; }
# 5 x 1024: more clients than transactions had room for (heap overflow before)
topo 5 1024 1
expect_exit 0 "$IDLELAB" sim --platform "$TMP/topo.ini" --workload transactions --duration 1ms \
	--jobs 1
grep -Eq '^transactions/clients +5120$' "$TMP/out" && ok || bad "not 5120 clients on 5120 CPUs"
# exactly the limit runs, every workload sized for it
topo 8 1024 1
# (transactions: long enough for some to complete, as a run must)
for w in transactions request-response idle; do
	d=100us
	[ $w = transactions ] && d=2ms
	expect_exit 0 "$IDLELAB" sim --platform "$TMP/topo.ini" --workload $w --duration $d --jobs 1
done
expect_out "8192 CPUs"
# one more thread per core is refused where the platform says so
topo 8 1024 2
expect_exit 1 "$IDLELAB" sim --platform "$TMP/topo.ini" --workload transactions --duration 1ms
expect_err "topo.ini:11: threads_per_core: 8 packages x 1024 cores x 2 threads = 16384 CPUs, more than the limit of 8192 (IL_CPUS_MAX"
topo 16 1024 1
expect_exit 1 "$IDLELAB" platform show "$TMP/topo.ini"
expect_err "topo.ini:10: cores_per_package: 16 packages x 1024 cores x 1 threads = 16384 CPUs"
# --sim-opt values are bounded so no sum of times overflows; refused with the option's name as
# bad usage (exit 2)
for o in switch_ns=9223372036854775807 entry_ns=9223372036854775807 switch_ns=2s entry_ns=-1 \
	turbo_interval=9223372036854775807 turbo_interval=0 no_timer=9223372036854775807 \
	no_timer=0 default_mhz=1e-300 default_mhz=1e300 resume_latency_us=2147483648 \
	cpu_latency_us=-1; do
	expect_exit 2 timeout 20 "$IDLELAB" sim --workload pingpong --duration 1ms --sim-opt "$o"
	expect_err "sim: --sim-opt ${o%%=*}: '${o#*=}' is not"
done
expect_err "in 0..2147483647 or 'none'"
expect_exit 2 "$IDLELAB" sim --workload pingpong --duration 1ms --sim-opt switch_ns=1000000001
expect_err "switch_ns: '1000000001' is not a duration in 0..1s or 'platform'"
# the bounds themselves are taken
expect_exit 0 "$IDLELAB" sim --workload pingpong --duration 1ms --sim-opt switch_ns=1s \
	--sim-opt entry_ns=1s --sim-opt no_timer=1000s --sim-opt turbo_interval=1us \
	--sim-opt resume_latency_us=0 --sim-opt default_mhz=1
expect_exit 0 "$IDLELAB" sim --workload pingpong --duration 1ms --sim-opt switch_ns=platform \
	--sim-opt cpu_latency_us=none --sim-opt trace=off
# the usage lists every engine option with its default and bounds, from the same table
expect_exit 0 "$IDLELAB" help sim
expect_out "entry_ns=300 "
expect_out "(0..1s, or platform)"
expect_out "nocpuidle_tick=release"
expect_out "(got-tick|stop|retain|governor|release)"
expect_out "trace=off"
# memory is estimated before anything runs: 8 x 1000 runs on 8192 CPUs (~44 GiB) are refused
# at once (the limit is 4 GiB); address space (not under ASan, which reserves terabytes) and
# time are capped in case they are not
topo 8 1024 1
cap="ulimit -v 3000000;"
grep -qa __asan_init "$IDLELAB" && cap=""
expect_exit 1 bash -c "$cap"' exec timeout 20 "$0" "$@"' "$IDLELAB" sim \
	--platform "$TMP/topo.ini" --workload idle --duration 100us --runs 1000 --governor menu \
	--governor teo --governor ladder --governor haltpoll --governor menu@6.1 --governor teo@6.1 \
	--governor oracle --governor menu@6.12
expect_err "sim: 8 configurations x 1000 runs on 8192 CPUs would take about 44.3 GiB"
expect_err "GiB, more than the limit of 4.0 GiB"
# workload options come from each workload's table: help, --list-workloads and the parser agree
expect_exit 0 "$IDLELAB" help sim
expect_out "  sleep-sweep: a waker wakes a blocked wakee"
expect_out "      intervals=2,5,7,12,22,32..152 step 10,202..1002 step 100"
expect_out "      irq_cpu=same"
awk 'length > 100 { exit 1 }' "$TMP/out" && ok || bad "help sim: a line over 100 columns"
# the sleep-sweep's own defaults (100 loops for 2 s) are where --duration's default is said
expect_out "  --duration D       simulated time per run (default 1s; a sleep-sweep without"
expect_out "loops= runs 100 loops for 2s"
# the synopsis (the man page's SYNOPSIS) names every option the help describes
for o in $(grep -oE '^ {2,3}--[a-z-]+' "$TMP/out" | sort -u); do
	awk 'NR == 1, /^$/' "$TMP/out" | grep -qE -- "[[ ]$o[] ]" && ok || bad "help sim: $o not in the synopsis"
done
expect_exit 0 "$IDLELAB" sim --list-workloads
expect_out "  intervals=2,5,7,12,22,32..152 step 10,202..1002 step 100"
expect_out "  loops=500        wake-ups per interval (1..100000000)"
awk 'length > 100 { exit 1 }' "$TMP/out" && ok || bad "--list-workloads: a line over 100 columns"
tr -s ' \n' ' ' <"$TMP/out" | grep -qF "stream: netperf UDP_STREAM over loopback: a sender that never blocks, a receiver on another core woken per message" &&
	ok || bad "--list-workloads: stream's summary"
# the range syntax the help shows is taken (it was refused): 2, 32, 42, ..., 152, 1002
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --wl-opt loops=2 \
	--wl-opt "intervals=2,32..152 step 10,1002" --format csv
[ "$(grep -c ',interval,[^,]*,,,wakee_cpu,' "$TMP/out")" -eq 15 ] && ok || bad "want 15 interval rows"
expect_out ",interval,142,,,wakee_cpu,"
expect_out ",interval,1002,,,wakee_cpu,"
for bad in "32..152" "32..152 step 0" "152..32 step 10" "1..100000 step 1"; do
	expect_exit 2 "$IDLELAB" sim --wl-opt "intervals=$bad"
	expect_err "sim: --wl-opt: intervals: "
done
expect_err "more than 64 values (the most it takes)"
# a value of any sane length: the 27 intervals of a published sweep in µs to three decimals
iv=$(awk 'BEGIN { for (k = 0; k < 27; k++) printf "%s%.3f", k ? "," : "", 1002.585 + k * 397.113 }')
[ ${#iv} -gt 240 ] && ok || bad "the interval list is only ${#iv} characters"
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --wl-opt loops=2 \
	--wl-opt "intervals=$iv" --format json --output "$TMP/iv.json"
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['configs'][0]; \
rows={m['row'] for m in c['metrics'] if m['col']=='wakee_cpu'}; \
assert len(rows)==27, len(rows); assert sys.argv[2] in d['workload_options']" "$TMP/iv.json" "$iv"
then ok; else bad "27 intervals in, 27 rows and the options text out"; fi
# a key longer than any option is refused as such, not as malformed
expect_exit 2 "$IDLELAB" sim --wl-opt "$(printf 'k%.0s' $(seq 40))=1"
expect_err "--wl-opt: key 'kkkkkkkkkkkkkkkkkkkk...' is longer than 31 characters"
expect_exit 2 "$IDLELAB" sim --sim-opt "$(printf 'k%.0s' $(seq 40))=1"
expect_err "--sim-opt: key 'kkkkkkkkkkkkkkkkkkkk...' is longer than 31 characters"
# rows are labelled by the interval as given: two intervals within one µs do not collide,
# whole µs keep their labels
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --wl-opt loops=2 \
	--wl-opt "intervals=2.585,2.9,0.5,3,1500ns" --format csv
for iv in 2.585 2.9 0.5 3 1.5; do expect_out ",interval,$iv,,,wakee_cpu,"; done
[ "$(grep -c ',interval,[^,]*,,,wakee_cpu,' "$TMP/out")" -eq 5 ] && ok || bad "want 5 interval rows"
# work that does not fit in --duration is refused, never cut short silently
expect_exit 1 "$IDLELAB" sim --platform "$SMALL" --governor ladder --wl-opt loops=1000 \
	--wl-opt intervals=1000,2000 --duration 100ms --format json --output "$TMP/cut.json"
expect_err "sleep-sweep: 0 of 2 intervals completed in 0.100 s; the loops need about 3."
[ ! -e "$TMP/cut.json" ] && ok || bad "a cut sweep left an output file"
expect_exit 1 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload stream \
	--wl-opt phase=10ms --wl-opt sizes=64,128,256 --duration 25ms
expect_err "stream: 2 of 3 sizes completed in 0.025 s; the phases need 0.030 s"
# a last phase that ends with the run is complete, and has its row
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload stream \
	--wl-opt phase=10ms --wl-opt sizes=64,128 --duration 20ms
expect_out "128B "
# request-response start=: the machine idles until the clients start (a warm-up
# to the start leaves the count as it is), and a start at the run's end is refused
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload request-response \
	--wl-opt start=10ms --duration 20ms --warmup 10ms --format csv
if grep -q "request-response,,,,round_trips,,0$" "$TMP/out"; then bad "no round trips after the start"; else ok; fi
grep "round_trips" "$TMP/out" >"$TMP/rr-warm"
expect_exit 0 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload request-response \
	--wl-opt start=10ms --duration 20ms --format csv
grep "round_trips" "$TMP/out" | cmp -s - "$TMP/rr-warm" && ok || bad "round trips before the start"
expect_exit 1 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload request-response \
	--wl-opt start=10ms --duration 10ms --format csv --output "$TMP/rr.csv"
expect_err "request-response: the clients start at 0.010 s, not before the run's end (0.010 s)"
# a --governor longer than a configuration holds is refused, not cut
expect_exit 2 "$IDLELAB" sim --platform "$SMALL" --workload idle --governor "menu@6.18+$(printf '%0100d' 0)"
expect_err "is longer than 95 characters"
# --warmup's errors name --warmup, not the engine option it sets
expect_exit 2 "$IDLELAB" sim --platform "$SMALL" --workload idle --warmup -1
expect_err "sim: --warmup: '-1' is not a duration"
# ... and a warm-up as long as the run is bad usage naming both options (it
# was "warmup: 2000000000 ns is not shorter ...", exit 1, after the set-up)
expect_exit 2 "$IDLELAB" sim --platform "$SMALL" --workload idle --warmup 2s --duration 10ms
expect_err "sim: --warmup 2s is not shorter than --duration (0.010 s)"
expect_exit 2 "$IDLELAB" sim --platform "$SMALL" --workload idle --warmup 1s
expect_err "sim: --warmup 1s is not shorter than --duration (1.000 s)"
[ ! -e "$TMP/rr.csv" ] && ok || bad "a refused run left its output"
expect_exit 1 "$IDLELAB" sim --platform "$SMALL" --governor ladder --workload request-response \
	--wl-opt client_work=1099511627776 --duration 10ms
expect_err "request-response: no round trip completed in the measured 0.010 s"
# stream: a sender whose message costs nothing (1 cycle rounds to 0 ns) still lets time pass
expect_exit 0 timeout 60 "$IDLELAB" sim --platform "$SMALL" --workload stream --wl-opt sizes=64,128 \
	--wl-opt phase=1ms --wl-opt send_work=0 --wl-opt send_copy=0.01 --duration 3ms
expect_out "128B"
# transactions: none done (I/O longer than the run) is refused, not latencies of 0
expect_exit 1 "$IDLELAB" sim --platform "$SMALL" --workload transactions --wl-opt ios=1 \
	--wl-opt io=1000s --duration 10ms
expect_err "transactions: no transaction completed in the measured 0.010 s"
# tick_nohz_get_sleep_length() measures from ts->idle_entrytime: after a
# poll that ended on its limit (no interrupt), the next selection sees the
# same sleep length and tick distance as the one before it (unless a tick
# came during the poll: its end is then the entry time)
"$IDLELAB" sim --platform ibm-power10-dedicated --workload wake-latency --duration 20ms \
	--seed 3 --jobs 1 --sim-opt trace=stderr >/dev/null 2>"$TMP/sl-trace"
awk '$3 == "select" { if (lim[$2]) { n++; if ($6 != sl[$2] || $7 != dt[$2]) bad++ }
			 sl[$2] = $6; dt[$2] = $7; lim[$2] = 0 }
     $3 == "exit" && / \(poll limit\) got_tick=0 / { lim[$2] = 1 }
     $3 == "wakes" || $3 == "irq" { lim[$2] = 0 }
     END { print n + 0, bad + 0 }' "$TMP/sl-trace" >"$TMP/sl-count"
read -r sl_n sl_bad <"$TMP/sl-count"
[ "$sl_n" -gt 0 ] && [ "$sl_bad" -eq 0 ] && ok || bad "sleep length after a poll limit: $sl_n selects, $sl_bad measured from now"
# tick_stopped_pct counts a stopped tick with the idle period it begins:
# a run that ends while a CPU is on its way into a state (the entry window)
# has counted neither, so the share stays at most 100 (pingpong's 1 ms gave
# 101.59 when the stop was counted at the governor's choice)
for w in pingpong transactions request-response; do
	"$IDLELAB" sim --workload $w --duration 1ms --jobs 1 --format csv >"$TMP/ts.csv" 2>/dev/null
	awk -F, '$7 == "total" && $11 == "tick_stopped_pct" { print $13 }' "$TMP/ts.csv" >"$TMP/ts"
	awk '{ exit !($1 >= 0 && $1 <= 100) }' "$TMP/ts" && [ -s "$TMP/ts" ] && ok ||
		bad "$w: tick_stopped_pct $(cat "$TMP/ts") is not within 0..100"
done
# --governor and --cpufreq repeat into configurations; --platform, --workload and --kernel
# name one each, and a second is refused rather than silently replacing the first
for o in "--platform kvm-haltpoll --platform amd-zen3-epyc" "--workload idle --workload pingpong" \
	"--kernel 6.1 --kernel 6.6"; do
	expect_exit 2 "$IDLELAB" sim $o
	expect_err "given twice"
done
# nohz=off at boot (tick_nohz_enabled false, any false kstrtobool) stops no tick, as
# --sim-opt nohz=off does; menu stops it on a 41 % share of its wake-latency periods
for o in "--set nohz=0" "--sim-opt nohz=off" ""; do
	"$IDLELAB" sim --platform intel-cascadelake-sp --workload wake-latency --duration 100ms \
		--format csv $o >"$TMP/nz.csv" 2>/dev/null
	v=$(awk -F, '$7 == "total" && $11 == "tick_stopped_pct" { print $13 }' "$TMP/nz.csv")
	if [ -n "$o" ]; then [ "$v" = 0 ] && ok || bad "$o: tick_stopped_pct $v"
	else awk -v v="$v" 'BEGIN { exit !(v > 10) }' && ok || bad "nohz on: tick_stopped_pct $v"; fi
done
finish
