#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Exit codes over every command: bad usage (an unknown option, a missing or
# malformed value, an unknown name for a choice, a bad governor spec) exits 2
# with the pointer to help; bad input files exit 1 and name the file; neither
# prints anything on stdout.
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB
LOG=tests/fixtures/replay/haltpoll-small.log
SMALL=tests/fixtures/sim/small.ini
SYS=tests/fixtures/sysfs/kvm-haltpoll
"$I" sim --platform "$SMALL" --workload sleep-sweep --wl-opt loops=2 --wl-opt intervals=10,100 --duration 5ms --format json --output "$TMP/r.json" ||
	bad "sim for the results file"
echo 'not json' >"$TMP/bad.json"
printf '# idlelab-replay v1\n# hz=x\n' >"$TMP/bad.log"
printf '[platform]\nname = x\nlatency = soon\n' >"$TMP/bad.ini"

# every command: the same refusals of its command line
for cmd in "info --sysfs-root $SYS" platforms "platform show kvm-haltpoll" "replay --governor menu $LOG" \
	"sim --duration 1ms" "compare $TMP/r.json" "plot --metric usage --output $TMP/p.svg $TMP/r.json" \
	"doctor --root tests/fixtures/capture/kvm-haltpoll" "capture $TMP/never-cap" \
	"platform capture --root tests/fixtures/capture/kvm-haltpoll" "sweep --loops 1" "latency --samples 1" \
	"scenario run tests/fixtures/scenario/tiny.ini --quick" "trace report tests/fixtures/trace/basic.trace"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$I" $cmd --bogus
	expect_err "unknown option '--bogus'"
	expect_err "Try 'idlelab help ${cmd%% *}'"
	[ ! -s "$TMP/out" ] && ok || bad "$cmd --bogus printed on stdout"
	case $cmd in plot*) continue ;; esac
	# shellcheck disable=SC2086
	expect_exit 2 "$I" $cmd --format xml
	# shellcheck disable=SC2086
	expect_exit 2 "$I" $cmd --format
	[ ! -s "$TMP/out" ] && ok || bad "$cmd --format printed on stdout"
done

# usage: exit 2, option named
usage() {
	msg=$1; shift
	expect_exit 2 "$I" "$@"
	expect_err "$msg"
	[ ! -s "$TMP/out" ] && ok || bad "$* printed on stdout"
}
usage "--governor nosuch: unknown governor 'nosuch'" sim --governor nosuch
usage "unknown patch 'bogus'" sim --governor menu+bogus
usage "unknown governor 'nosuch'" sim --governor menu --governor nosuch
usage "--duration: bad duration '5parsecs'" sim --duration 5parsecs
usage "--duration: bad duration '0'" sim --duration 0
# a bare number is refused as in a batch file (sim --duration 5 ran 5 ns, "0.000 s", exit 0)
usage "--duration: '5' needs a unit (ns, us, ms, s)" sim --duration 5
usage "--warmup: '1' needs a unit (ns, us, ms, s)" sim --duration 5ms --warmup 1
# a bad --warmup is not told that bare numbers are ns: --warmup refuses them
usage "--warmup: '5x' is not a duration in 0..1000000s (with a unit: ns, us, ms, s)" \
	sim --duration 5ms --warmup 5x
usage "--runs: 'x'" sim --runs x
usage "--jobs: '0'" sim --jobs 0
usage "--seed: '-1'" sim --seed -1
usage "--sim-opt: unknown key 'warp'" sim --sim-opt warp=1
usage "--sim-opt entry_ns: 'soon' is not a duration" sim --sim-opt entry_ns=soon
usage "--sim-opt nohz: 'maybe'" sim --sim-opt nohz=maybe
usage "--sim-opt ilb: 'maybe' is not on or off" sim --sim-opt ilb=maybe
usage "--sim-opt ilb_cost: '2s' is not a duration in 0..1s" sim --sim-opt ilb_cost=2s
usage "--sim-opt ilb_cost: '$(printf '9%.0s' $(seq 300))' is not a duration" sim --sim-opt ilb_cost=$(printf '9%.0s' $(seq 300))
usage "--wl-opt: 'novalue' is not KEY=VALUE" sim --wl-opt novalue
usage "no option 'colour'" sim --wl-opt colour=red
usage "setup_work: '-1' is not a whole number in 0..2^40" sim --workload request-response --wl-opt setup_work=-1
usage "unknown workload 'nosuch'" sim --workload nosuch
usage "--gov-param nosuch=1: haltpoll: unknown parameter 'nosuch'" sim --gov-param nosuch=1
usage "--gov-param nosuch=1: governor menu has no parameter" sim --governor menu --gov-param nosuch=1
usage "--set: 'novalue' is not KEY=VALUE" sim --set novalue
usage "unexpected argument 'extra'" sim extra
usage "unknown option '--bogus'" sim --list-workloads --bogus
usage "unexpected argument 'extra'" sim --list-workloads extra
usage "--duration: bad duration 'x'" sim --list-workloads --duration x
expect_exit 0 "$I" sim --list-workloads --workload pingpong
expect_out "sleep-sweep"
usage "--governor nosuch: unknown governor" replay --governor nosuch "$LOG"
usage "--governor SPEC is required" replay "$LOG"
usage "missing replay log" replay --governor menu
usage "give at least one RUN.json" compare
usage "--metric COL" plot --output "$TMP/p.svg" "$TMP/r.json"
usage "show takes one platform name or file" platform show
usage "unknown subcommand 'list'" platform list
usage "--kernel: 'banana'" platform show kvm-haltpoll --kernel banana
usage "--set: want KEY=VALUE" platform show kvm-haltpoll --set =1
usage "bad CPU list '3-1'" info --sysfs-root "$SYS" --cpu 3-1
usage "takes no output format" info --save "$TMP/never" --json
usage "unexpected argument 'extra'" platforms extra
usage "platforms: option '--format' needs a value" platforms --format
usage "governors: option '--format' needs a value" governors --format
usage "platforms: unknown format 'yaml'" platforms --format yaml
usage "governors: unexpected argument 'x'" governors x
usage "--diff takes two snapshots" info --diff "$SYS"
usage "--count needs --interval" info --count 2
usage "--interval samples the live machine" doctor --root tests/fixtures/capture/kvm-haltpoll --interval 1
usage "missing the directory to write" capture
usage "--pair 1:1: the waker and the wakee must be two CPUs" sweep --pair 1:1
usage "--mode: 'nap'" latency --mode nap
# the run options of sim, batch and scenario run (src/cli/run_opts.c): one message each, with
# the command's name; a command that lacks one refuses it
for cmd in "sim --duration 1ms" "batch tests/fixtures/batch/small.ini" \
	"scenario run tests/fixtures/scenario/tiny.ini --quick"; do
	c=${cmd%% *}
	# shellcheck disable=SC2086
	{
	usage "$c: --jobs: '0' is not a number 1..256" $cmd --jobs 0
	usage "$c: --jobs: '257' is not a number 1..256" $cmd --jobs 257
	usage "$c: --jobs: '2x' is not a number 1..256" $cmd --jobs 2x
	usage "$c: --seed: '-1' is not an unsigned integer" $cmd --seed -1
	usage "$c: --seed: '18446744073709551616' is not an unsigned integer" \
		$cmd --seed 18446744073709551616
	usage "$c: --output: an empty" $cmd --output ''
	usage "$c: --resume: an empty file name" $cmd --resume ''
	usage "$c: option '--resume' needs a value" $cmd --resume
	}
done
usage "sim: unknown option '--quick'" sim --quick
usage "batch: --quiet and --progress exclude each other" batch tests/fixtures/batch/small.ini \
	--quiet --progress
usage "scenario: --quiet and --progress exclude each other" scenario run \
	tests/fixtures/scenario/tiny.ini --progress --quiet
# a single-valued option of replay and trace given twice is refused, not
# replaced by the last (sim's --governor is repeatable: it compares them)
usage "replay: --governor given twice ('menu', 'teo'): replay decides with one governor" \
	replay --governor menu --governor teo tests/fixtures/replay/zen3.log
usage "trace: --governor given twice ('menu', 'teo'): check decides with one governor" \
	trace check -g menu -g teo tests/fixtures/trace/hrtimer.trace
usage "trace: --kernel-governor given twice ('menu', 'teo')" \
	trace whatif -g menu --kernel-governor menu --kernel-governor teo tests/fixtures/trace/hrtimer.trace
usage "trace: --baseline given twice" trace report tests/fixtures/trace/basic.trace \
	--baseline tests/fixtures/trace/basic.trace --baseline tests/fixtures/trace/hrtimer.trace

# bad input: exit 1, the file named
input() {
	msg=$1; shift
	expect_exit 1 "$I" "$@"
	expect_err "$msg"
	[ ! -s "$TMP/out" ] && ok || bad "$* printed on stdout"
}
input "$TMP/missing.ini" sim --platform "$TMP/missing.ini"
input "$TMP/bad.ini:3" sim --platform "$TMP/bad.ini"
input "$TMP/missing.ini" platform show "$TMP/missing.ini"
input "$TMP/bad.ini:3" platform show "$TMP/bad.ini" --format json
input "$TMP/missing.log" replay --governor menu "$TMP/missing.log"
input "$TMP/bad.log:2" replay --governor menu --format json "$TMP/bad.log"
input "$TMP/missing.json" compare "$TMP/missing.json"
input "$TMP/bad.json:1" compare "$TMP/bad.json" --format csv
input "$TMP/bad.json:1" plot --metric usage --output "$TMP/p.svg" "$TMP/bad.json"
input "$TMP/nosuch" info --sysfs-root "$TMP/nosuch"
input "$TMP/nosuch" doctor --root "$TMP/nosuch"
input "$TMP/nosuch" capture --root "$TMP/nosuch" "$TMP/never-cap"
input "$TMP/nosuch" info --diff "$TMP/nosuch" "$SYS"
[ ! -e "$TMP/never-cap" ] && ok || bad "capture left a directory after bad usage"
[ ! -e "$TMP/p.svg" ] && ok || bad "plot left a file after bad input"
# numbers are decimal or 0x hex (docs/platform-format.md): a leading zero is
# not octal, on the command line or in a file
"$I" sim --platform "$SMALL" --workload sleep-sweep --wl-opt loops=2 --wl-opt intervals=10 \
	--duration 5ms --runs 010 --format json --output "$TMP/r10.json" || bad "sim --runs 010"
grep -q '"runs": 10,' "$TMP/r10.json" && ok || bad "sim --runs 010 did not make 10 runs"
sed 's/^latency = 100$/latency = 0100/' "$SMALL" >"$TMP/dec.ini"
expect_exit 0 "$I" platform show "$TMP/dec.ini" --format csv
expect_out ",2,C6,,100,400,"
sed 's/^latency = 100$/latency = 0x64/' "$SMALL" >"$TMP/hex.ini"
expect_exit 0 "$I" platform show "$TMP/hex.ini" --format csv
expect_out ",2,C6,,100,400,"
# an empty directory name is refused, never read as this machine's / (the
# same as an unset variable in --root "$DIR")
usage "--root: an empty directory name" doctor --root ""
usage "--root: an empty directory name" capture --root "" "$TMP/never-cap"
[ ! -e "$TMP/never-cap" ] && ok || bad "capture --root '' wrote a capture"
usage "capture: --root: an empty directory name" platform capture --root ""
usage "--root: an empty directory name" sweep --root "" --loops 1
usage "--root: an empty directory name" latency --root "" --samples 1
usage "--sysfs-root: an empty directory name" info --sysfs-root ""
usage "--diff: an empty directory name" info --diff "" "$SYS"
usage "--diff: an empty directory name" info --diff "$SYS" ""
# an empty file name is bad usage naming its option or argument (it was
# "idlelab: empty output file name" or "idlelab: cannot open: ...", exit 1)
R=$SRCDIR/tests/fixtures/replay/zen3.log
T=$SRCDIR/tests/fixtures/trace/hrtimer.trace
usage "replay: LOG: an empty file name" replay --governor menu ""
usage "replay: --output: an empty file name" replay --governor menu --output "" "$R"
usage "replay: --expect: an empty file name" replay --governor menu --expect "" "$R"
usage "trace: FILE: an empty file name" trace report ""
usage "trace: --baseline: an empty file name" trace report "$T" --baseline ""
usage "trace: FILE: an empty file name" trace whatif --governor menu ""
usage "trace: -o: an empty file name" trace to-replay -o "" "$T"
usage "trace: --decisions: an empty file name" trace check --governor menu --decisions "" "$T"
usage "trace: -o: an empty file name" trace snapshot start -o ""
usage "trace: -o: an empty file name" trace record -o ""
usage "compare: --output: an empty file name" compare --output "" "$TMP/r.json"
usage "compare: RUN.json: an empty file name" compare "$TMP/r.json" ""
usage "plot: --output: an empty file name" plot --metric usage --output "" "$TMP/r.json"
usage "plot: RUN.json: an empty file name" plot --metric usage --output "$TMP/p.svg" ""
usage "batch: FILE: an empty file name" batch ""
usage "platform: capture: -o: an empty file name" platform capture -o ""
usage "info: --save: an empty directory name" info --save ""
usage "capture: OUTDIR: an empty directory name" capture ""
finish
