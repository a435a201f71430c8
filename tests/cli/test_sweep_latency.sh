#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab sweep and idlelab latency on a copy of a captured tree (--root):
# the changes they make (--governor, --param, --disable) are said, written
# and written back at the end, on a refused change and on signals; a
# second run's change refused while they are in force; what a run killed
# with SIGKILL left is written back by the next run; the
# table's shape; usage refusals before anything is changed. The threads
# run on CPUs 0 and 1 for a few wake-ups; no figure is checked (they
# depend on the machine's load). Skips (77) with fewer than 2 CPUs.
# Env: IDLELAB = the binary, SRCDIR = the source root.
. "$SRCDIR/tests/cli/lib.sh"
FX="$SRCDIR/tests/fixtures/capture"
if ! taskset -c 0,1 true 2>/dev/null; then
	echo "SKIP: CPUs 0 and 1 are not both available"
	exit 77
fi
R="$TMP/root"
cp -r "$FX/kvm-haltpoll" "$R"
chmod -R u+w "$R"
G="$R/sys/devices/system/cpu/cpuidle/current_governor"
P="$R/sys/module/haltpoll/parameters/guest_halt_poll_ns"
D0="$R/sys/devices/system/cpu/cpu0/cpuidle/state0/disable"
D1="$R/sys/devices/system/cpu/cpu1/cpuidle/state0/disable"
unchanged() {
	[ "$(cat "$G")" = haltpoll ] && [ "$(cat "$P")" = 0 ] && [ "$(cat "$D0")" = 0 ] &&
		[ "$(cat "$D1")" = 0 ] && ok || bad "$1: the tree was left changed"
}

# --- sweep: changes said, made, written back; rows per pair and interval ---
expect_exit 0 "$IDLELAB" sweep --root "$R" --loops 5 --intervals 20,50 --pair 0:1 --pair 1:0 \
	--governor menu --param haltpoll.guest_halt_poll_ns=200000 --disable POLL --format csv
expect_err "changed $R/sys/devices/system/cpu/cpuidle/current_governor from 'haltpoll' to 'menu' (restored at exit)"
expect_err "changed $R/sys/module/haltpoll/parameters/guest_halt_poll_ns from '0' to '200000' (restored at exit)"
expect_err "changed $R/sys/devices/system/cpu/cpu0/cpuidle/state0/disable from '0' to '1' (restored at exit)"
expect_err "restored $R/sys/devices/system/cpu/cpuidle/current_governor to 'haltpoll'"
expect_err "restored $R/sys/devices/system/cpu/cpu1/cpuidle/state0/disable to '0'"
unchanged "sweep"
[ "$(head -1 "$TMP/out")" = "waker,wakee,interval_us,loops,sleep_us,usage,time_us,above,below,above_pct,below_pct,states,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us" ] &&
	ok || bad "sweep header: $(head -1 "$TMP/out")"
[ "$(wc -l <"$TMP/out")" -eq 5 ] && ok || bad "sweep: 4 rows: $(cat "$TMP/out")"
# the tree's counters do not move: the differences are 0, the states named
grep -q '^0,1,20,[0-9]*,[0-9.]*,0,0,0,0,,,POLL=0;haltpoll idle=0,' "$TMP/out" &&
	ok || bad "sweep row: $(cat "$TMP/out")"
grep -q '^1,0,50,' "$TMP/out" && ok || bad "sweep: the second pair"
# text and JSON
expect_exit 0 "$IDLELAB" sweep --root "$R" --loops 3 --intervals 30
grep -Eq '^ +0 +1 +30 ' "$TMP/out" && ok || bad "sweep text: $(cat "$TMP/out")"
# a wakee CPU whose counters did not move never idled: rows of zeros are not
# a measurement of its idle states, and the run says so (on a busy machine
# it printed such rows without a word); a copied tree's counters never move
expect_err "warning: sweep: in 1 of 1 rows CPU 1 entered no idle state (its cpuidle usage did not move)"
expect_err "load average at start"
grep -q changed "$TMP/err" && bad "sweep changed something unasked" || ok
# wider than 100 columns: every slice names its rows by pair and interval
awk 'NR > 1 && NF == 0 { s = 1; next } s && !/^waker/ && !/^ +0 +1 +30 /' "$TMP/out" | grep -q . &&
	bad "sweep text, second slice without the pair and interval: $(cat "$TMP/out")" || ok
expect_exit 0 "$IDLELAB" sweep --root "$R" --loops 3 --intervals 30 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r)==1 and r[0]["interval_us"]==30' "$TMP/out" &&
	ok || bad "sweep json: $(cat "$TMP/out")"

# --- a refused change: the ones made before it are written back ----------
expect_exit 1 "$IDLELAB" sweep --root "$R" --loops 3 --intervals 30 --governor menu \
	--param nosuchmodule.p=1
expect_err "$R/sys/module/nosuchmodule/parameters/p: no such file"
expect_err "restored $R/sys/devices/system/cpu/cpuidle/current_governor to 'haltpoll'"
unchanged "a refused --param"
[ -s "$TMP/out" ] && bad "output after a refused change" || ok
expect_exit 1 "$IDLELAB" latency --root "$R" --samples 3 --disable C9
expect_err "cpu0 has no idle state 'C9'"
unchanged "a refused --disable"

# --- SIGTERM: everything written back, the signal's exit status ------------
"$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 --governor ladder \
	--disable 0 >/dev/null 2>"$TMP/sig" &
pid=$!
# wait for both changes (written one after the other), up to 20 s on a busy machine
for _ in $(seq 400); do [ "$(cat "$G")" = ladder ] && [ "$(cat "$D1")" = 1 ] && break; sleep 0.05; done
[ "$(cat "$G")" = ladder ] && [ "$(cat "$D1")" = 1 ] && ok || bad "sweep never changed the tree"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] && ok || bad "SIGTERM: exit $rc (want 143)"
unchanged "SIGTERM"
grep -qF "restored $G to 'haltpoll'" "$TMP/sig" && ok || bad "no restore message on SIGTERM"
# SIGINT ends a run with the rows so far and a restore (here sent to a
# process that has SIGINT at its default, as from a terminal)
default_signals "$IDLELAB" latency --root "$R" --mode halt --samples 10000000 --gap 1ms \
	--governor menu >"$TMP/int.out" 2>"$TMP/int" &
pid=$!
for _ in $(seq 400); do [ "$(cat "$G")" = menu ] && break; sleep 0.05; done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] && ok || bad "SIGINT: exit $rc (want 0): $(cat "$TMP/int")"
unchanged "SIGINT"
grep -q "latency: interrupted: the rows done so far" "$TMP/int" && ok || bad "SIGINT message: $(cat "$TMP/int")"
grep -q "^halt " "$TMP/int.out" && ok || bad "SIGINT: no row: $(cat "$TMP/int.out")"

# the other commands on the other signals: sweep on SIGINT (the rows so
# far), latency on SIGTERM, sweep on SIGHUP, latency on SIGQUIT; each writes everything
# back
sigrun() { # sigrun SIG WANT_RC WHAT CMD...: start CMD, wait for its change, send SIG
	local sig=$1 want=$2 what=$3
	shift 3
	# SIGINT and SIGQUIT at their defaults, as from a terminal (a background job has them
	# ignored); no core file from SIGQUIT's default action
	(ulimit -c 0
	 default_signals "$@") >"$TMP/sig.out" 2>"$TMP/sig" &
	pid=$!
	for _ in $(seq 400); do [ "$(cat "$G")" = menu ] && [ "$(cat "$D1")" = 1 ] && break; sleep 0.05; done
	[ "$(cat "$G")" = menu ] && [ "$(cat "$D1")" = 1 ] && ok || bad "$what: never changed the tree"
	sleep 0.3
	kill -"$sig" $pid
	wait $pid
	rc=$?
	[ $rc -eq "$want" ] && ok || bad "$what: exit $rc (want $want): $(cat "$TMP/sig")"
	unchanged "$what"
	grep -qF "restored $G to 'haltpoll'" "$TMP/sig" && grep -qF "restored $D1 to '0'" "$TMP/sig" &&
		ok || bad "$what: no restore message: $(cat "$TMP/sig")"
}
sigrun INT 0 "sweep SIGINT" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0
grep -q "sweep: interrupted: the rows done so far" "$TMP/sig" && ok || bad "sweep SIGINT message"
sigrun TERM 143 "latency SIGTERM" "$IDLELAB" latency --root "$R" --mode halt --samples 10000000 \
	--gap 1ms --governor menu --disable POLL
[ -s "$TMP/sig.out" ] && bad "latency SIGTERM printed rows" || ok
sigrun HUP 129 "sweep SIGHUP" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0
# SIGQUIT (^\) ends the process as SIGTERM does: everything written back first
sigrun QUIT 131 "latency SIGQUIT" "$IDLELAB" latency --root "$R" --mode halt --samples 10000000 \
	--gap 1ms --governor menu --disable POLL
# the other signals whose default action ends the process (kill -USR1, a
# supervisor's SIGALRM, RLIMIT_CPU's SIGXCPU, ...) write everything back too:
# they used to end it with the changes in force until the next run
sigrun USR1 138 "sweep SIGUSR1" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0
sigrun USR2 140 "latency SIGUSR2" "$IDLELAB" latency --root "$R" --mode halt --samples 10000000 \
	--gap 1ms --governor menu --disable POLL
sigrun ALRM 142 "sweep SIGALRM" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0
sigrun VTALRM 154 "latency SIGVTALRM" "$IDLELAB" latency --root "$R" --mode halt \
	--samples 10000000 --gap 1ms --governor menu --disable POLL
sigrun XCPU 152 "sweep SIGXCPU" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0
sigrun PWR 158 "latency SIGPWR" "$IDLELAB" latency --root "$R" --mode halt --samples 10000000 \
	--gap 1ms --governor menu --disable POLL
sigrun IO 157 "sweep SIGIO" "$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 \
	--governor menu --disable 0

# --- two at once, and kill -9 ------------------------------------------------
# The changes in force are recorded in ROOT/run/idlelab/changes, locked by the
# process that made them. A second process's first change is refused: were it
# made, each would write back the other's values (the first ending first puts
# back 'haltpoll', then the second 'menu', the first's value).
J="$R/run/idlelab/changes"
changing() { # wait until the first run's changes are in force
	for _ in $(seq 400); do [ "$(cat "$G")" = menu ] && [ "$(cat "$D1")" = 1 ] && break; sleep 0.05; done
	[ "$(cat "$G")" = menu ] && [ "$(cat "$D1")" = 1 ] && ok || bad "$1: never changed the tree"
}
"$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 --governor menu --disable 0 \
	>/dev/null 2>"$TMP/first" &
pid=$!
changing "two at once"
grep -qF "the old values are kept in $J until written back" "$TMP/first" && ok ||
	bad "the record is not said: $(cat "$TMP/first")"
expect_exit 1 "$IDLELAB" latency --root "$R" --mode poll --samples 10 --gap 20us --governor ladder
expect_err "$J: another idlelab (pid $pid) has changed this machine and not yet written it back"
[ "$(cat "$G")" = menu ] && ok || bad "two at once: the second changed the governor"
kill -TERM $pid
wait $pid
unchanged "two at once"
[ -s "$J" ] && bad "the record kept after the restore: $(cat "$J")" || ok
# kill -9 cannot be caught: the record stays, and the next run writes it back,
# with or without changes of its own
"$IDLELAB" sweep --root "$R" --loops 10000000 --intervals 1000 --governor menu --disable 0 \
	>/dev/null 2>"$TMP/first" &
pid=$!
changing "kill -9"
kill -KILL $pid
wait $pid
[ "$(cat "$G")" = menu ] && ok || bad "kill -9: the governor was written back?"
expect_exit 0 "$IDLELAB" sweep --root "$R" --loops 3 --intervals 30
expect_err "$J: idlelab $pid ended without writing back what it changed (killed?): writing it back now"
expect_err "restored $G to 'haltpoll'"
expect_err "restored $D1 to '0'"
unchanged "the run after a kill -9"
# a value changed again since is not the killed run's to write back
"$IDLELAB" latency --root "$R" --mode halt --samples 10000000 --gap 1ms --governor menu \
	--disable 0 >/dev/null 2>"$TMP/first" &
pid=$!
changing "kill -9, then a change by hand"
kill -KILL $pid
wait $pid
echo teo >"$G"
expect_exit 0 "$IDLELAB" latency --root "$R" --mode poll --samples 10 --gap 20us
expect_err "$G is 'teo', not the 'menu' idlelab $pid wrote: left as it is (it was 'haltpoll' before)"
expect_err "restored $D1 to '0'"
echo haltpoll >"$G"
unchanged "kill -9, then a change by hand"

# an error after the changes (the wakee CPU has no counters): written back
cp -r "$R" "$TMP/r2"
rm -r "$TMP/r2/sys/devices/system/cpu/cpu1/cpuidle"
expect_exit 1 "$IDLELAB" sweep --root "$TMP/r2" --loops 3 --intervals 30 --governor menu
expect_err "changed $TMP/r2/sys/devices/system/cpu/cpuidle/current_governor from 'haltpoll' to 'menu'"
expect_err "restored $TMP/r2/sys/devices/system/cpu/cpuidle/current_governor to 'haltpoll'"
[ "$(cat "$TMP/r2/sys/devices/system/cpu/cpuidle/current_governor")" = haltpoll ] && ok ||
	bad "sweep error: governor left changed"
[ -s "$TMP/out" ] && bad "sweep error: output $(cat "$TMP/out")" || ok

# --- latency: rows per mode, both directions of pingpong -------------------
expect_exit 0 "$IDLELAB" latency --root "$R" --samples 20 --gap 50us --format csv
[ "$(head -1 "$TMP/out")" = "mode,from_cpu,to_cpu,samples,dropped,min_us,p25_us,p50_us,p75_us,p90_us,p99_us,p999_us,max_us,mean_us,switches_per_s" ] &&
	ok || bad "latency header: $(head -1 "$TMP/out")"
[ "$(cut -d, -f1-3 "$TMP/out" | tail -n +2 | tr '\n' ' ')" = "halt,0,1 poll,0,1 pingpong,0,1 pingpong,1,0 " ] &&
	ok || bad "latency rows: $(cat "$TMP/out")"
grep -Eq '^pingpong,0,1,[0-9]+,[0-9]+,([0-9.]+,){9}[0-9]+$' "$TMP/out" && ok || bad "pingpong rate"
expect_exit 0 "$IDLELAB" latency --root "$R" --mode poll --samples 10 --gap 20us
expect_out "clock read (CLOCK_MONOTONIC, back-to-back, least of 1000): "
grep -Eq '^poll +0 +1 +10 ' "$TMP/out" && ok || bad "latency text: $(cat "$TMP/out")"
# its second slice names the rows by mode and CPUs too (pingpong has two)
[ "$(grep -Ec '^poll +0 +1 ' "$TMP/out")" -eq 2 ] && ok ||
	bad "latency text, a slice without the mode and CPUs: $(cat "$TMP/out")"

# --- the wakee CPU's counters as the files hold them --------------------------
# a counter every cpuidle kernel has (usage, time) that is missing or garbage is
# an error naming the file, not a difference of 0 (it used to print 0, exit 0);
# above and below, which kernels before 5.x lack, are n/a, not 0
RB="$TMP/rootbad"
rm -rf "$RB"; cp -r "$FX/kvm-haltpoll" "$RB"; chmod -R u+w "$RB"
C1="$RB/sys/devices/system/cpu/cpu1/cpuidle"
rm "$C1/state1/usage"
expect_exit 1 "$IDLELAB" sweep --root "$RB" --loops 3 --intervals 30 --format csv
expect_err "$C1/state1/usage: missing"
[ ! -s "$TMP/out" ] && ok || bad "sweep printed rows without a usage counter: $(cat "$TMP/out")"
echo 12 >"$C1/state1/usage"
echo xyz >"$C1/state0/time"
expect_exit 1 "$IDLELAB" sweep --root "$RB" --loops 3 --intervals 30 --format csv
expect_err "$C1/state0/time: not a number: 'xyz'"
echo 0 >"$C1/state0/time"
rm "$C1"/state*/above "$C1"/state*/below
expect_exit 0 "$IDLELAB" sweep --root "$RB" --loops 3 --intervals 30 --format csv
grep -q '^0,1,30,[0-9]*,[0-9.]*,0,0,,,,,POLL=0;haltpoll idle=0,' "$TMP/out" &&
	ok || bad "sweep without above/below: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" sweep --root "$RB" --loops 3 --intervals 30 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[0]; assert r["above"] is None and r["below"] is None and r["usage"] == 0, r' "$TMP/out" &&
	ok || bad "sweep json without above/below: $(cat "$TMP/out")"

# a machine without a cpuidle driver (a KVM guest without KVM_HINTS_REALTIME,
# the kvm-nodriver capture): no counters, said once; rows with the sleep and
# the latency; the warning about rows without idle entries does not apply
RN="$TMP/rootnd"
rm -rf "$RN"; cp -r "$FX/kvm-nodriver" "$RN"; chmod -R u+w "$RN"
expect_exit 0 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30,60 --format csv
expect_err "sweep: $RN/sys/devices/system/cpu/cpuidle: no cpuidle driver: the CPUs idle in the default routine"
grep -q "entered no idle state" "$TMP/err" && bad "no-driver sweep warned of busy rows" || ok
grep -Eq '^0,1,30,[0-9]+,[0-9.]+,,,,,,,,[0-9.]+,' "$TMP/out" && grep -q '^0,1,60,' "$TMP/out" &&
	ok || bad "no-driver sweep csv: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[0]; assert r["usage"] is None and r["states"] is None and r["lat_p50_us"] > 0 and r["sleep_us"] > 0, r' "$TMP/out" &&
	ok || bad "no-driver sweep json: $(cat "$TMP/out")"
# current_driver is read as the sysfs reader reads it (info, doctor): "none"
# without its newline is no driver; a symbolically linked cpuidle directory
# is not followed, so it is no such machine but the reader's error
printf none >"$RN/sys/devices/system/cpu/cpuidle/current_driver"
expect_exit 0 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --format csv
expect_err "no cpuidle driver"
echo none >"$RN/sys/devices/system/cpu/cpuidle/current_driver"
mv "$RN/sys/devices/system/cpu/cpuidle" "$TMP/cpuidle-real"
ln -s "$TMP/cpuidle-real" "$RN/sys/devices/system/cpu/cpuidle"
expect_exit 1 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --format csv
expect_err "cpuidle: symbolic link: not followed"
grep -q "no cpuidle driver" "$TMP/err" && bad "a linked cpuidle directory followed" || ok
[ -s "$TMP/out" ] && bad "sweep through a linked cpuidle directory printed rows" || ok
rm "$RN/sys/devices/system/cpu/cpuidle"
mv "$TMP/cpuidle-real" "$RN/sys/devices/system/cpu/cpuidle"
# no cpuidle directory at all (CONFIG_CPU_IDLE off) is the same; a root
# without the CPU directory is not "no cpuidle" but an error
rm -r "$RN/sys/devices/system/cpu/cpuidle"
expect_exit 0 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --format csv
expect_err "no cpuidle driver"
expect_exit 1 "$IDLELAB" sweep --root "$TMP/nosuchroot" --loops 3 --intervals 30
grep -q "no cpuidle driver" "$TMP/err" && bad "a missing root read as no cpuidle" || ok
# a state to disable on a machine without states is refused with that reason,
# nothing run; a governor or a haltpoll parameter is set as asked, with a
# warning that it changes nothing the CPUs do (and written back)
rm -rf "$RN"; cp -r "$FX/kvm-nodriver" "$RN"; chmod -R u+w "$RN"
expect_exit 1 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --disable 1
expect_err "idlelab: --disable 1: $RN/sys/devices/system/cpu/cpuidle: no cpuidle driver: the CPUs idle in the default routine and have no idle states to disable"
[ -s "$TMP/out" ] && bad "no-driver --disable printed rows" || ok
expect_exit 1 "$IDLELAB" latency --root "$RN" --mode halt --samples 3 --disable POLL
expect_err "no idle states to disable"
expect_exit 0 "$IDLELAB" sweep --root "$RN" --loops 3 --intervals 30 --governor haltpoll \
	--param haltpoll.guest_halt_poll_ns=0 --format csv
expect_err "warning: --governor haltpoll: $RN/sys/devices/system/cpu/cpuidle: no cpuidle driver: no governor decides here"
expect_err "warning: --param haltpoll.guest_halt_poll_ns=0: $RN/sys/devices/system/cpu/cpuidle: no cpuidle driver: the haltpoll governor and driver act on nothing here"
[ "$(cat "$RN/sys/devices/system/cpu/cpuidle/current_governor")" = menu ] &&
	[ "$(cat "$RN/sys/module/haltpoll/parameters/guest_halt_poll_ns")" = 200000 ] &&
	ok || bad "no-driver sweep did not write the governor and parameter back"

# pingpong's dropped column is said in the help (it was for halt only)
"$IDLELAB" help latency | tr '\n' ' ' | tr -s ' ' | grep -q "hand-overs that found the other side awake are dropped and counted" &&
	ok || bad "help latency does not say what pingpong's dropped counts"

# a bare --gap is µs, as sweep's --intervals and the "(500us)" of the help
# (it was ns: "--gap 1000" gave 1 us gaps, "--gap 20" was refused)
expect_exit 0 "$IDLELAB" latency --root "$R" --mode poll --samples 3 --gap 20
expect_exit 2 "$IDLELAB" latency --root "$R" --mode poll --samples 3 --gap 2000000
expect_err "--gap: '2000000' is not a duration of 1us..1s (bare numbers: us; 500us)"

# --- usage errors: nothing changed, nothing measured -----------------------
for cmd in sweep latency; do
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --pair 0:0 --governor menu
	expect_err "--pair 0:0: the waker and the wakee must be two CPUs"
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --pair 0-1
	expect_err "--pair: '0-1' is not WAKER:WAKEE"
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --param guest_halt_poll_ns=5
	expect_err "--param guest_halt_poll_ns=5: want MODULE.PARAM=VALUE"
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --pair 0:1023 --governor menu
	expect_err "CPU 1023: not one this process may run on"
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --no-such
	expect_err "unknown option '--no-such'"
	expect_exit 2 "$IDLELAB" $cmd --root "$R" --format xml
	expect_err "unknown format 'xml'"
	unchanged "$cmd usage errors"
done
expect_exit 2 "$IDLELAB" sweep --loops 0
expect_err "--loops: '0' is not 1..10000000"
expect_exit 2 "$IDLELAB" sweep --intervals 5,x
expect_err "--intervals: "
expect_exit 2 "$IDLELAB" latency --mode nap
expect_err "--mode: 'nap' is not halt, poll, pingpong or all"
expect_exit 2 "$IDLELAB" latency --gap 10ns
expect_err "--gap: '10ns' is not a duration of 1us..1s"
expect_exit 2 "$IDLELAB" latency --samples x
expect_err "--samples: 'x' is not 1..10000000"
finish
