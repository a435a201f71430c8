#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab trace report on the hand-written fixtures (tests/fixtures/trace/
# README.md has the figures worked out by hand): the CSV, the trace-cmd
# report form reading the same, the rule from a state table, --cpu,
# --baseline, JSON, and refusals (usage 2, input 1 with FILE:LINE, nothing
# on stdout).
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB
F=tests/fixtures/trace
SYS=tests/fixtures/sysfs/kvm-haltpoll

cat >"$TMP/want.csv" <<'END'
cpu,state,name,usage,time_us,above,below,min_us,avg_us,max_us,unfinished
0,0,state0,0,0,0,0,,,,0
0,1,state1,1,7593,0,1,7593.000,7593.000,7593.000,1
0,2,state2,2,1961,1,0,956.000,980.500,1005.000,0
1,0,state0,1,194,0,0,194.000,194.000,194.000,0
1,1,state1,1,1884,0,0,1884.000,1884.000,1884.000,0
1,2,state2,1,10002,0,0,10002.000,10002.000,10002.000,0
END
for f in basic.trace basic-trace-cmd.txt; do
	expect_exit 0 "$I" trace report "$F/$f" --format csv
	expect_same "$TMP/want.csv"
	expect_err "CPU 1 lost 3 events"
done
# the text: the trace's facts folded to 100 columns, under their value
expect_exit 0 "$I" trace report "$F/basic-trace-cmd.txt"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || bad "trace report is $w columns wide"
grep -q '^cpu 1: 2 exit(s) without an entry .*, 3$' "$TMP/out" &&
	grep -q '^       lost events, 1 period(s) dropped around them, 0 entries without exit$' "$TMP/out" &&
	ok || bad "the lost-events line is not folded: $(cat "$TMP/out")"
# the same from standard input
expect_exit 0 "$I" trace report - --format csv <"$F/basic.trace"
expect_same "$TMP/want.csv"

cat >"$TMP/want-wk.csv" <<'END'
cpu,kind,source,count,switched,avg_to_switch_us,max_to_switch_us
0,tick,tick,1,0,,
0,ipi,ttwu_queue_wakelist,1,1,10.000,10.000
0,irq,ahci[0000:00:1f.2],1,0,,
1,irq,virtio0-input.0,1,1,10.000,10.000
1,wakeup,sched_wakeup,1,1,6.000,6.000
1,timer,hrtimer_wakeup,1,1,12.000,12.000
END
expect_exit 0 "$I" trace report "$F/basic-trace-cmd.txt" --format csv --table wakeups
expect_same "$TMP/want-wk.csv"

# text: where above/below come from, the partial periods
expect_exit 0 "$I" trace report "$F/basic.trace"
expect_out "above/below: from power:cpu_idle_miss events (exact)"
expect_out "cpu 1: 2 exit(s) without an entry"

# without cpu_idle_miss: the rule on --states, said so; names from the table
grep -v cpu_idle_miss "$F/basic.trace" >"$TMP/nomiss.trace"
expect_exit 0 "$I" trace report "$TMP/nomiss.trace"
expect_out "above/below: not known"
expect_exit 0 "$I" trace report "$TMP/nomiss.trace" --format csv
grep -q '^0,2,state2,2,1961,,,' "$TMP/out" && ok || bad "no rule: above/below should be empty"
expect_exit 0 "$I" trace report "$TMP/nomiss.trace" --states intel-skylake-client
expect_out "by the kernel's rule on the state table of platform intel-skylake-client"
expect_exit 0 "$I" trace report "$TMP/nomiss.trace" --states intel-skylake-client --format csv
# C1E (10 us, 20 us): 1005 and 956 us are long enough for C3 (70 us, 100 us): below
grep -q '^0,2,C1E,2,1961,0,2,' "$TMP/out" && ok || bad "rule on skylake: $(grep '^0,2' "$TMP/out")"
# a state the table lacks: FILE:LINE, exit 1, nothing on stdout
expect_exit 1 "$I" trace report "$F/basic.trace" --states "$SYS"
expect_err "basic.trace:14: cpu_idle: state 2 is not in the state table of $SYS"
[ ! -s "$TMP/out" ] && ok || bad "refused trace printed on stdout"
sed 's/state=2 /state=1 /' "$TMP/nomiss.trace" >"$TMP/two.trace"
expect_exit 0 "$I" trace report "$TMP/two.trace" --states "$SYS" --format csv
expect_out "0,1,haltpoll idle,3,"
# one CPU's cpuidle directory gives the same table
expect_exit 0 "$I" trace report "$TMP/two.trace" --states "$SYS/cpu1/cpuidle/" --format csv
expect_out "0,1,haltpoll idle,3,"
expect_exit 0 "$I" trace report "$TMP/two.trace" --states "$SYS/cpu1/cpuidle"
expect_out "(cpu1, latency"

# --cpu: only those; a CPU without events shows the table's states as zeros
expect_exit 0 "$I" trace report "$F/basic.trace" --cpu 1 --format csv
[ "$(cut -d, -f1 "$TMP/out" | sort -u | tr '\n' ' ')" = "1 cpu " ] && ok || bad "--cpu 1: $(cat "$TMP/out")"
expect_exit 0 "$I" trace report "$TMP/nomiss.trace" --cpu 7 --states intel-skylake-client --format csv
[ "$(grep -c '^7,[0-6],[^,]*,0,0,0,0,' "$TMP/out")" = 7 ] && ok || bad "--cpu 7: $(cat "$TMP/out")"

# --baseline - with FILE - too: standard input is read once, so the second
# side would be empty; refused as usage
expect_exit 2 "$I" trace report - --baseline - <"$F/basic.trace"
expect_err "trace: --baseline -: FILE is standard input already; give one of the two as a file"
expect_exit 0 "$I" trace report - --baseline "$F/basic.trace" <"$F/basic.trace"
# --baseline: the same trace twice differs by nothing
expect_exit 0 "$I" trace report "$F/basic.trace" --baseline "$F/basic-trace-cmd.txt" --format csv
head -1 "$TMP/out" | grep -q '^cpu,state,name,usage,time_us,above,below,base_usage,base_time_us,base_above,base_below,usage_diff,time_us_diff,above_diff,below_diff$' &&
	ok || bad "baseline columns: $(head -1 "$TMP/out")"
[ "$(tail -n +2 "$TMP/out" | cut -d, -f12-15 | sort -u)" = "0,0,0,0" ] && ok || bad "baseline differences"
sed '/^ *<idle>-0 *\[001\].*100.019003/d' "$F/basic.trace" >"$TMP/less.trace"
expect_exit 0 "$I" trace report "$TMP/less.trace" --baseline "$F/basic.trace" --format csv
expect_out "1,2,state2,0,0,0,0,1,10002,0,0,-1,-10002,0,0"

# --window FROM,TO: the periods that end between them (README.md)
expect_exit 0 "$I" trace report "$F/basic.trace" --window 100.002000,100.010003 --format csv
expect_out "0,2,state2,1,956,1,0,"
expect_out "1,2,state2,0,0,0,0,,,,1"
# the text and JSON say which window they count (they printed the whole trace's
# header over the window's counts, and nothing about the window)
expect_exit 0 "$I" trace report "$F/basic.trace" --window 100.002000,100.010003
expect_out "window: 100.002000..100.010003 s (--window): only the periods that ended in it"
expect_exit 0 "$I" trace report "$F/basic.trace" --window 100.002000,100.010003 --format json
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trace"]; assert t["window_from_s"] == 100.002 and t["window_to_s"] == 100.010003, t' "$TMP/out" &&
	ok || bad "json window: $(head -c 400 "$TMP/out")"
expect_exit 0 "$I" trace report "$F/basic.trace" --format json
python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trace"]; assert t["window_from_s"] is None and t["window_to_s"] is None, t' "$TMP/out" &&
	ok || bad "json without a window: $(head -c 400 "$TMP/out")"
expect_exit 0 "$I" trace report "$F/basic.trace"
if grep -q "^window:" "$TMP/out"; then bad "a window said without --window"; else ok; fi

# a trace record file whose idlelab-events line has power:cpu_idle_miss: the
# event was on, so no such event means above and below were 0, exactly (they
# were "not known", or the rule's estimate of 4 below where the kernel had 0)
(echo "# idlelab-events power:cpu_idle power:cpu_idle_miss sched:sched_switch"
 cat "$F/haltpoll-window.trace") >"$TMP/missoff.trace"
expect_exit 0 "$I" trace report "$TMP/missoff.trace" --states tests/fixtures/sysfs/kvm-haltpoll --format csv
expect_out "0,0,POLL,4,170,0,0,"
expect_exit 0 "$I" trace report "$TMP/missoff.trace" --format csv
expect_out "0,0,state0,4,170,0,0,"
expect_exit 0 "$I" trace report "$TMP/missoff.trace"
expect_out "above/below: from power:cpu_idle_miss events (exact: the event was recorded, none in the trace)"
expect_exit 0 "$I" trace report "$TMP/missoff.trace" --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["trace"]["above_below"] == "cpu_idle_miss", d["trace"]' "$TMP/out" &&
	ok || bad "json above_below with the event recorded"
# without the event in that line, as before: the rule, or not known
(echo "# idlelab-events power:cpu_idle sched:sched_switch"; cat "$F/haltpoll-window.trace") >"$TMP/missno.trace"
expect_exit 0 "$I" trace report "$TMP/missno.trace" --format csv
expect_out "0,0,state0,4,170,,,"

# the state names trace record kept (its idlelab-sysfs lines) against the table
# of --states: a table of another machine is said (it named haltpoll's
# state 1 "C1" in silence); check, whatif and to-replay, whose --states
# defaults to this machine's, the same
(echo "# idlelab-sysfs start cpu=0 state=0 name=POLL usage=0 time=0 above=0 below=0"
 echo "# idlelab-sysfs start cpu=0 state=1 name=haltpoll_idle usage=0 time=0 above=0 below=0"
 cat "$F/haltpoll-window.trace") >"$TMP/named.trace"
expect_exit 0 "$I" trace report "$TMP/named.trace" --states tests/fixtures/sysfs/kvm-haltpoll
if grep -q "not the traced machine's" "$TMP/err"; then bad "names warned on the right table: $(cat "$TMP/err")"; else ok; fi
expect_exit 0 "$I" trace report "$TMP/named.trace" --states intel-skylake-client
expect_err "warning: $TMP/named.trace: state 1 is 'haltpoll_idle' in the trace's idlelab-sysfs lines, 'C1' in --states intel-skylake-client: is the table not the traced machine's?"
for sub in check whatif; do
	expect_exit 0 "$I" trace $sub --governor menu --states intel-skylake-client "$TMP/named.trace"
	expect_err "state 1 is 'haltpoll_idle' in the trace's idlelab-sysfs lines, 'C1' in --states intel-skylake-client"
	expect_exit 0 "$I" trace $sub --governor menu --states kvm-haltpoll "$TMP/named.trace"
	if grep -q "idlelab-sysfs lines" "$TMP/err"; then bad "$sub warned on the right table"; else ok; fi
done

# without --states, the states are named as the recording named them (they were
# state0, state1 beside the names in the file)
expect_exit 0 "$I" trace report "$TMP/named.trace" --format csv
expect_out "0,0,POLL,4,170,"
expect_out "0,1,haltpoll_idle,2,60,"
expect_exit 0 "$I" trace report "$F/haltpoll-window.trace" --format csv
expect_out "0,1,state1,2,60,"

# a window outside a trace's time counts nothing: said (a baseline read with
# FILE's --window, from another time, showed base_usage 0 beside FILE's counts)
expect_exit 0 "$I" trace report "$F/basic.trace" --window 500,600 --format csv
expect_err "warning: $F/basic.trace: --window 500.000000..600.000000 lies outside the trace (100.000050..100.019100): nothing counted"
expect_exit 0 "$I" trace report "$F/basic.trace" --window 100.002000,100.010003 --format csv
if grep -q "lies outside" "$TMP/err"; then bad "a window inside the trace warned"; else ok; fi
sed 's/ 100\./ 700./' "$F/basic.trace" >"$TMP/later.trace"
expect_exit 0 "$I" trace report "$F/basic.trace" --baseline "$TMP/later.trace" --window 100.002000,100.010003 --format csv
expect_err "warning: $TMP/later.trace: --window 100.002000..100.010003 lies outside the trace (700.000050..700.019100)"

# JSON: one document with both sides and both tables
expect_exit 0 "$I" trace report "$F/basic.trace" --format json --baseline "$F/basic.trace"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["trace"]["above_below"] == "cpu_idle_miss"; assert len(d["states"]) == 6 and len(d["wakeups"]) == 6; assert d["trace"]["cpus"][1]["partial_start"] == 2' "$TMP/out" &&
	ok || bad "json: $(head -c 300 "$TMP/out")"

# a cut last line: a warning, the rest counted
head -c -20 "$F/basic.trace" >"$TMP/cut.trace"
expect_exit 0 "$I" trace report "$TMP/cut.trace" --format csv
expect_err "cut.trace:48: the last line has no newline"

# bad input: exit 1, FILE:LINE, nothing on stdout
printf '# x\nnot a trace\n' >"$TMP/bad.trace"
expect_exit 1 "$I" trace report "$TMP/bad.trace"
expect_err "bad.trace:2: not an ftrace event line"
[ ! -s "$TMP/out" ] && ok || bad "bad trace printed on stdout"
expect_exit 1 "$I" trace report "$TMP/bad.trace" --baseline "$F/basic.trace"
expect_exit 1 "$I" trace report "$F/basic.trace" --baseline "$TMP/bad.trace"
[ ! -s "$TMP/out" ] && ok || bad "bad baseline printed on stdout"
# a .dat file libtracecmd cannot read, or a build without libtracecmd: input error
printf '\027\010Dtracing6\0\0\0garbage' >"$TMP/bad.dat"
expect_exit 1 "$I" trace report "$TMP/bad.dat"
expect_err "bad.dat: "
expect_err ".dat file"
[ ! -s "$TMP/out" ] && ok || bad "bad .dat printed on stdout"
expect_exit 1 "$I" trace report - <"$TMP/bad.dat"
expect_err "standard input: a trace-cmd .dat file, not ftrace text"
expect_exit 1 "$I" trace report "$TMP/nosuch"
expect_err "nosuch: cannot open"
expect_exit 1 "$I" trace report "$F/basic.trace" --states nosuch-platform
expect_err "--states nosuch-platform"
# a CPU past a platform's is refused at its line: the trace is not of that machine
printf '          <idle>-0       [005] d..1.   100.000050: cpu_idle: state=1 cpu_id=5\n' >"$TMP/cpu5.trace"
expect_exit 1 "$I" trace report "$TMP/cpu5.trace" --states kvm-haltpoll
expect_err "cpu5.trace:1: cpu_idle: cpu_id 5 is past the 2 CPUs of platform kvm-haltpoll"
[ ! -s "$TMP/out" ] && ok || bad "refused trace printed on stdout"
expect_exit 0 "$I" trace report "$TMP/cpu5.trace" --states intel-skylake-client
printf '          <idle>-0       [005] d..1.   100.000060: cpu_idle: state=4294967295 cpu_id=5\n' \
	>>"$TMP/cpu5.trace"
for sub in check whatif; do
	expect_exit 1 "$I" trace $sub --governor menu --states kvm-haltpoll "$TMP/cpu5.trace"
	expect_err "cpu5.trace:1: cpu_idle: cpu_id 5 is past the 2 CPUs of platform kvm-haltpoll"
done
expect_exit 1 "$I" trace to-replay --states kvm-haltpoll -o "$TMP/cpu5.log" "$TMP/cpu5.trace"
[ ! -e "$TMP/cpu5.log" ] && ok || bad "to-replay wrote a log for a CPU the platform lacks"
# a state table that cannot be used names the file and what is wrong with it
# (it was "cpu0 state2: no readable latency and residency" for all of these)
cp -r "$SRCDIR/tests/fixtures/sysfs/intel-icx-intel_idle" "$TMP/st"
chmod -R u+w "$TMP/st"
echo garbage >"$TMP/st/cpu0/cpuidle/state2/latency"
expect_exit 1 "$I" trace report "$F/basic.trace" --states "$TMP/st/"
expect_err "idlelab: --states $TMP/st/: $TMP/st/cpu0/cpuidle/state2/latency: not a number: 'garbage'"
echo 99999999999 >"$TMP/st/cpu0/cpuidle/state2/latency"
expect_exit 1 "$I" trace report "$F/basic.trace" --states "$TMP/st/cpu0/cpuidle"
expect_err "$TMP/st/cpu0/cpuidle/state2/latency: 99999999999 us is over 4294967295"
rm "$TMP/st/cpu0/cpuidle/state1/residency"
expect_exit 1 "$I" trace report "$F/basic.trace" --states "$TMP/st"
expect_err "$TMP/st/cpu0/cpuidle/state1/residency: missing"
echo 600 >"$TMP/st/cpu0/cpuidle/state1/residency"
rm -r "$TMP/st/cpu0/cpuidle/state2"
expect_exit 1 "$I" trace report "$F/basic.trace" --states "$TMP/st"
expect_err "$TMP/st: cpu0: no state2 (state3 follows state1)"

# usage
expect_exit 2 "$I" trace
expect_err "a subcommand is needed"
expect_exit 2 "$I" trace frobnicate
expect_err "unknown subcommand 'frobnicate'"
expect_exit 2 "$I" trace report
expect_err "report needs a trace FILE"
expect_exit 2 "$I" trace report a b
expect_exit 2 "$I" trace report "$F/basic.trace" --table nope
expect_exit 2 "$I" trace report "$F/basic.trace" --cpu 3-1
expect_exit 2 "$I" trace report "$F/basic.trace" --window 2,1
expect_exit 2 "$I" trace report "$F/basic.trace" --window 1.5
expect_exit 2 "$I" trace report "$F/basic.trace" --states
[ ! -s "$TMP/out" ] && ok || bad "usage error printed on stdout"
# a trace with no CPU in it (empty, or the header alone): the warning, no crash
: >"$TMP/empty.trace"
head -3 "$F/basic.trace" >"$TMP/header.trace"
for t in "$TMP/empty.trace" "$TMP/header.trace"; do
	for fmt in table csv json; do
		expect_exit 0 "$I" trace report "$t" --format $fmt
		expect_err "no power:cpu_idle events"
	done
	expect_exit 0 "$I" trace report "$t" --baseline "$t"
done
expect_exit 0 "$I" trace report "$TMP/empty.trace" --format csv --table wakeups
finish
