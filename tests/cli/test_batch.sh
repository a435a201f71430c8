#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab batch on threads: the file's errors by FILE:LINE, each configuration's
# output the same as idlelab sim's, --jobs not changing a byte, --resume from a
# partial results file cut anywhere giving the same output (and sim's and
# scenario run's --resume).
. "$SRCDIR/tests/cli/lib.sh"
small=$SRCDIR/tests/fixtures/batch/small.ini
one=$SRCDIR/tests/fixtures/batch/one.ini

# usage
expect_exit 2 "$IDLELAB" batch
expect_err "a batch FILE is needed"
expect_exit 2 "$IDLELAB" batch "$small" --jobs 0
expect_exit 2 "$IDLELAB" batch "$small" --format xml
expect_exit 1 "$IDLELAB" batch "$TMP/none.ini"

# the file's errors name FILE:LINE
badfile() { printf '%s\n' "$@" >"$TMP/bad.ini"; }
badfile '[scenario]' 'name = x'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:1: unknown section [scenario] (known in a batch file: batch, config.ID)"
badfile '[config.a]' 'workload = sleep-sweep' 'runs = 2' 'duration = 1s' 'colour = red'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: [config.a]: unknown key 'colour'"
badfile '[config.a]' 'workload = sleep-sweep' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:1: [config.a] has no 'runs'"
# a pset of a section the platform file lacks splits where the key table knows the pair
# ([state.1], key latency), not at the first dot (a section [state], a key "1.latency")
badfile '[config.a]' 'workload = idle' 'runs = 1' 'duration = 1ms' 'pset = state.1.latency=5'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "[state.1] without [state.0]"
badfile '[config.a]' 'workload = sleep-sweep' 'runs = 2' 'duration = 1s' 'seed = -3'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: seed: '-3' is not an unsigned integer"
# a governor spec no registry takes is said at its own line (it was the section's)
badfile '[config.a]' 'workload = idle' 'runs = 1' 'duration = 1ms' 'governor = menu@7.2'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: governor menu@7.2: governor menu has no preset for kernel 7.2"
badfile '[config.a]' 'workload = idle' 'runs = 1' 'governor = teo+no-poll-escape' 'duration = 1ms'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:4: governor teo+no-poll-escape: teo: unknown patch 'no-poll-escape'"
badfile '[batch]' 'seed = x' '[config.a]' 'workload = sleep-sweep' 'runs = 2' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:2: seed: 'x' is not an unsigned integer"
badfile '[batch]' 'platform = kvm-haltpoll'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "no [config.ID] section"
badfile '[config.a]' 'workload = sleep-sweep' 'runs = 2' 'duration = 1s' 'platform = no-such'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: platform: no built-in platform 'no-such'"
expect_err "no-such"
[ ! -s "$TMP/out" ] && ok || bad "an error left output"
# a workload option is named by its own line; quick.wl ones also in a full run
badfile '[config.a]' 'workload = sleep-sweep' 'wl = loops=5' 'wl = loops=0' 'runs = 1' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:4: configuration a: wl: loops: '0' is not a whole number"
badfile '[config.a]' 'workload = sleep-sweep' 'wl = loops=5' 'runs = 1' 'duration = 1s' \
	'quick.wl = colour=red'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:6: configuration a: quick.wl: workload sleep-sweep has no option 'colour'"
[ ! -s "$TMP/out" ] && ok || bad "an error left output"

# a platform override the platform refuses is named by the pset's own line
badfile '[config.a]' 'workload = sleep-sweep' 'pset = kernel.hz=100' 'pset = nosuch.key=1' \
	'runs = 1' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:4: configuration a: platform kvm-haltpoll with the overrides:"
expect_err "unknown section [nosuch]"
badfile '[config.a]' 'workload = sleep-sweep' 'pset = kernel.hz=7' 'pset = cpu.mwait=yes' \
	'runs = 1' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:3: configuration a: platform kvm-haltpoll with the overrides:"
# a UTF-8 byte order mark (an editor's) starts the file, as in a platform file; not a syntax error
printf '\xef\xbb\xbf[config.a]\nworkload = idle\nruns = 1\nduration = 1ms\n' >"$TMP/bom.ini"
expect_exit 0 "$IDLELAB" batch "$TMP/bom.ini" --format csv
mv "$TMP/out" "$TMP/bom.out"
tail -c +4 "$TMP/bom.ini" >"$TMP/nobom.ini"
expect_exit 0 "$IDLELAB" batch "$TMP/nobom.ini" --format csv
expect_same "$TMP/bom.out"
# ... an overlong one too (the platform's message was at the next key's line, not its own)
badfile '[config.a]' 'workload = sleep-sweep' 'pset = kernel.hz=100' \
	"pset = cpu.model_name=$(printf '%0250d' 0)" 'runs = 1' 'duration = 1s'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:4: configuration a: platform kvm-haltpoll with the overrides:"
expect_err "line longer than 197 characters"
# one configuration: the same bytes as idlelab sim with its options
expect_exit 0 "$IDLELAB" sim --governor teo --wl-opt loops=20 --runs 2 --duration 300ms --jobs 1 \
	--format json
{ echo '['; cat "$TMP/out"; echo ']'; } >"$TMP/sim.json"
expect_exit 0 "$IDLELAB" batch "$one" --jobs 1 --format json
expect_same "$TMP/sim.json"
expect_exit 0 "$IDLELAB" sim --governor teo --wl-opt loops=20 --runs 2 --duration 300ms --jobs 1 \
	--format csv
cp "$TMP/out" "$TMP/sim.csv"
expect_exit 0 "$IDLELAB" batch "$one" --format csv
expect_same "$TMP/sim.csv"
# a spec longer than a configuration holds is refused at its line, not cut
badfile '[config.a]' 'workload = idle' 'runs = 1' 'duration = 10ms' \
	"governor = menu@6.18+$(printf '%0100d' 0)"
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: governor: longer than 95 characters"
badfile '[config.a]' 'workload = idle' 'runs = 1' 'duration = 10ms' \
	"cpufreq = schedutil+invariance=on+util_est=off+rate_limit_us=100+transition_us=30+min_mhz=1500+max_mhz=3000"
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:5: cpufreq: longer than 95 characters"
# [batch]'s platform that cannot be loaded is named at its key, as a
# configuration's is (both were named at the configuration's section line)
badfile '[batch]' 'seed = 2' 'platform = ./nosuch.ini' '' '[config.a]' 'workload = idle' 'runs = 1' \
	'duration = 10ms'
expect_exit 1 "$IDLELAB" batch "$TMP/bad.ini"
expect_err "bad.ini:3: platform: ./nosuch.ini: cannot open"
# a cpufreq layer, as a scenario's configuration takes it
expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload gitsource \
	--cpufreq intel_cpufreq:schedutil --duration 50ms --jobs 1 --format csv
cp "$TMP/out" "$TMP/simcf.csv"
printf '%s\n' '[config.a]' 'platform = intel-cascadelake-sp' 'workload = gitsource' 'runs = 1' \
	'duration = 50ms' 'cpufreq = intel_cpufreq:schedutil' >"$TMP/cf.ini"
expect_exit 0 "$IDLELAB" batch "$TMP/cf.ini" --format csv
expect_same "$TMP/simcf.csv"

# several: --jobs changes no byte; the table heads each configuration
expect_exit 0 "$IDLELAB" batch "$small" --jobs 1 --format json --quiet
cp "$TMP/out" "$TMP/j1.json"
grep -c '"idlelab": "sim"' "$TMP/j1.json" | grep -qx 3 && ok || bad "not 3 results in the array"
expect_exit 0 "$IDLELAB" batch "$small" --jobs 2 --format json
expect_same "$TMP/j1.json"
expect_exit 0 "$IDLELAB" batch "$small" --jobs 2
expect_out "== menu-rr: menu, request-response on a Skylake client =="
expect_out "== teo-sweep: teo-sweep =="
# a seed of its own ([config] seed = 7) wins over --seed; the others take --seed
expect_exit 0 "$IDLELAB" batch "$small" --seed 5 --format json
grep -c '"seed": 1,' "$TMP/out" | grep -qx 2 && ok || bad "[batch] seed not the default"

# --resume: the full run's partial file, cut at any length (in its header too), resumes to
# the same bytes
expect_exit 0 "$IDLELAB" batch "$small" --jobs 2 --format json --resume "$TMP/p"
expect_same "$TMP/j1.json"
size=$(stat -c %s "$TMP/p")
for cut in 40 $((size / 3)) $((size / 2 + 17)) $((size - 9)); do
	head -c "$cut" "$TMP/p" >"$TMP/q"
	expect_exit 0 "$IDLELAB" batch "$small" --jobs 2 --format json --resume "$TMP/q"
	expect_same "$TMP/j1.json"
done
# --progress reckons the ETA by the runs' estimated cost, not their count: the run dealt
# first costs twice the two after it together (300 ms of request-response against 75 ms
# each), so when it is done the rest takes half the time it took. (The line after it is
# printed only when the run took over 250 ms, the progress line's period: 300 ms of it
# take some 0.8 s of a quiet core.)
cat >"$TMP/eta.ini" <<'EOF'
[config.dear]
platform = amd-zen3-epyc
governor = menu
workload = request-response
runs = 1
duration = 300ms

[config.quarter]
platform = amd-zen3-epyc
governor = menu
workload = request-response
runs = 2
duration = 75ms
EOF
expect_exit 0 "$IDLELAB" batch "$TMP/eta.ini" --progress --jobs 1
python3 - "$TMP/err" <<'PY' && ok || bad "ETA by cost: $(cat "$TMP/err")"
import re, sys
l = [m for m in map(re.compile(r"batch: 1/3 runs, (\d+\.\d) s, ETA (\d+\.\d) s").fullmatch,
                    open(sys.argv[1]).read().splitlines()) if m]
assert len(l) == 1, "no line after the first run"
el, eta = float(l[0][1]), float(l[0][2])
assert el >= 0.1 and abs(eta - el / 2) <= 0.1, (el, eta)
PY
# a whole file: nothing runs
expect_exit 0 "$IDLELAB" batch "$small" --format json --resume "$TMP/p" --progress
expect_err "8 of 8 runs from"
expect_err "0 to run"
expect_same "$TMP/j1.json"
# partial results of other runs, or not one, are refused before anything runs
expect_exit 1 "$IDLELAB" batch "$small" --seed 3 --format json --resume "$TMP/p"
expect_err "the partial results of other runs"
echo hello >"$TMP/h"
expect_exit 1 "$IDLELAB" batch "$small" --resume "$TMP/h"
expect_err "not a partial results file"

# sim and scenario run resume the same way
simargs=(--governor menu --governor teo --wl-opt loops=20 --runs 3 --duration 300ms --format json)
expect_exit 0 "$IDLELAB" sim "${simargs[@]}" --jobs 1
cp "$TMP/out" "$TMP/sim3.json"
expect_exit 0 "$IDLELAB" sim "${simargs[@]}" --jobs 2 --resume "$TMP/sp"
expect_same "$TMP/sim3.json"
head -c $(($(stat -c %s "$TMP/sp") / 2)) "$TMP/sp" >"$TMP/sq"
expect_exit 0 "$IDLELAB" sim "${simargs[@]}" --jobs 2 --resume "$TMP/sq" --quiet
expect_err "runs from"
expect_same "$TMP/sim3.json"
expect_exit 1 "$IDLELAB" sim "${simargs[@]}" --seed 9 --resume "$TMP/sp"
expect_err "the partial results of other runs"
tiny=$SRCDIR/tests/fixtures/scenario/tiny.ini
untimed() { grep -v -e '"wall_s"' -e '"cpu_s"' -e '"resumed_runs"' "$1"; }
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --jobs 1 --format json --quiet
untimed "$TMP/out" >"$TMP/scn.json"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --format json --quiet --resume "$TMP/cp"
head -c $(($(stat -c %s "$TMP/cp") / 2)) "$TMP/cp" >"$TMP/cq"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --format json --resume "$TMP/cq" --quiet
expect_err "runs from"
untimed "$TMP/out" | cmp -s - "$TMP/scn.json" && ok || bad "scenario run --resume differs"
# the report says which runs it read rather than ran, and leaves them out of the times
n=$(sed -n 's/^ *"resumed_runs": \([0-9]*\),*$/\1/p' "$TMP/out")
[ -n "$n" ] && [ "$n" -gt 0 ] && ok || bad "resumed_runs: '$n'"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --resume "$TMP/cq" --quiet
grep -q "read from the partial results file, not in the times" "$TMP/out" && ok ||
	bad "the text report does not say which runs were resumed"
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --resume "$TMP/cq" --quiet --output "$TMP/rdir"
grep -Eq "[0-9]+ runs \([0-9]+ read from the partial results file, not in the times\)" "$TMP/rdir/report.html" && ok ||
	bad "the HTML report does not say how many runs were resumed"
expect_exit 1 "$IDLELAB" scenario run "$tiny" --format json --resume "$TMP/cp" --quiet
expect_err "the partial results of other runs"
# a platform file changed since: its runs are other runs, though the command line is the same
cp "$SRCDIR/platforms/kvm-haltpoll.ini" "$TMP/plat.ini"
printf '[batch]\nplatform = %s\n[config.a]\nworkload = sleep-sweep\nwl = loops=2\nruns = 1\nduration = 100ms\n' \
	"$TMP/plat.ini" >"$TMP/pb.ini"
expect_exit 0 "$IDLELAB" batch "$TMP/pb.ini" --jobs 1 --resume "$TMP/pp"
sed -i 's/^cores_per_package = 2$/cores_per_package = 4/' "$TMP/plat.ini"
expect_exit 1 "$IDLELAB" batch "$TMP/pb.ini" --jobs 1 --resume "$TMP/pp"
expect_err "the partial results of other runs"
expect_exit 0 "$IDLELAB" sim --platform "$TMP/plat.ini" --wl-opt loops=2 --duration 100ms --resume "$TMP/ps"
echo "; changed" >>"$TMP/plat.ini"
expect_exit 1 "$IDLELAB" sim --platform "$TMP/plat.ini" --wl-opt loops=2 --duration 100ms --resume "$TMP/ps"
expect_err "the partial results of other runs"
# --output and --resume the same file: the output would replace the kept runs (scenario run:
# ran everything, then found its output taken); refused before anything runs
expect_exit 1 "$IDLELAB" batch "$TMP/pb.ini" --jobs 1 --resume "$TMP/same" --output "$TMP/same"
expect_err "--output and --resume name the same file"
expect_exit 1 "$IDLELAB" scenario run "$tiny" --quick --resume "$TMP/same" --output "$TMP/same"
expect_err "--output and --resume name the same file"
[ ! -e "$TMP/same" ] && ok || bad "a refused resume left $TMP/same"
ln -s "$TMP/pp" "$TMP/pp-link"
expect_exit 1 "$IDLELAB" batch "$TMP/pb.ini" --resume "$TMP/pp" --output "$TMP/pp-link"
expect_err "--output and --resume name the same file"
finish
