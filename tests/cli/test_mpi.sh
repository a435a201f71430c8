#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs dealt to MPI ranks: mpirun -np 2 and -np 3 (oversubscribed on a
# 2-core machine) write the bytes --jobs 1 writes for batch, sim and
# scenario run; a run that dies (IDLELAB_TEST_ABORT_SEED, for tests only)
# is named by configuration and seed and the rest is written; so is a rank
# that dies where the launcher lets the others live; an interrupted batch
# resumes under MPI to the same bytes. Skipped (77)
# where idlelab is built without MPI or mpirun is missing.
. "$SRCDIR/tests/cli/lib.sh"
if [ "${IDLELAB_MPI:-0}" != 1 ]; then
	echo "SKIP: idlelab built without MPI (meson option mpi; libopenmpi-dev)"
	exit 77
fi
if ! command -v mpirun >/dev/null; then
	echo "SKIP: no mpirun (openmpi-bin)"
	exit 77
fi
# mpirun refuses root without these; a single node, no ssh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent=
# under ASan: the MPI library's own allocations at exit are not ours to check
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
small=$SRCDIR/tests/fixtures/batch/small.ini
tiny=$SRCDIR/tests/fixtures/scenario/tiny.ini
mpi2() { mpirun -np 2 "$@"; }
mpi3() { mpirun -np 3 --oversubscribe "$@"; }

expect_exit 0 "$IDLELAB" batch "$small" --jobs 1 --format json --quiet
cp "$TMP/out" "$TMP/j1.json"
expect_exit 0 "$IDLELAB" sim --governor menu --governor teo --wl-opt loops=20 --runs 4 \
	--duration 300ms --jobs 1 --format json --quiet
cp "$TMP/out" "$TMP/sim1.json"
# the report's wall_s and cpu_s are timings of this process
untimed() { grep -v -e '"wall_s"' -e '"cpu_s"' "$1"; }
expect_exit 0 "$IDLELAB" scenario run "$tiny" --quick --jobs 1 --format json --quiet
untimed "$TMP/out" >"$TMP/scn1.json"
for np in mpi2 mpi3; do
	expect_exit 0 $np "$IDLELAB" batch "$small" --format json --quiet
	expect_same "$TMP/j1.json"
	expect_exit 0 $np "$IDLELAB" batch "$small" --format csv --output "$TMP/b.csv" --quiet
	"$IDLELAB" batch "$small" --format csv --quiet | cmp -s - "$TMP/b.csv" && ok ||
		bad "$np: batch --format csv --output differs"
	expect_exit 0 $np "$IDLELAB" sim --governor menu --governor teo --wl-opt loops=20 --runs 4 \
		--duration 300ms --format json --quiet
	expect_same "$TMP/sim1.json"
	expect_exit 0 $np "$IDLELAB" scenario run "$tiny" --quick --format json --quiet
	untimed "$TMP/out" | cmp -s - "$TMP/scn1.json" && ok || bad "$np: scenario run differs"
	grep -q '"wall_s"' "$TMP/out" && ok || bad "$np: the filter took nothing out"
done

# rank 0 stopping before it deals (a bad partial file only it reads; every run already in
# the partial file) lets the others go: no hang
echo hello >"$TMP/h"
expect_exit 1 timeout 60 mpirun -np 3 --oversubscribe "$IDLELAB" batch "$small" --resume "$TMP/h"
expect_err "not a partial results file"
expect_exit 0 "$IDLELAB" batch "$small" --format json --resume "$TMP/whole" --quiet
expect_exit 0 timeout 60 mpirun -np 2 "$IDLELAB" batch "$small" --format json --resume "$TMP/whole"
expect_err "8 of 8 runs from"
expect_same "$TMP/j1.json"

# a run that dies: named by configuration and seed, the other configurations written, exit 1
expect_exit 1 mpirun -np 3 --oversubscribe -x IDLELAB_TEST_ABORT_SEED=2 "$IDLELAB" batch "$small" \
	--format json --output "$TMP/f.json" --quiet
expect_err "menu-sweep: governor menu@6.18 on kvm-haltpoll, sleep-sweep: run 2 (seed 2)"
expect_err "teo-sweep: governor teo@6.18 on kvm-haltpoll, sleep-sweep: run 2 (seed 2)"
expect_err "killed by signal 6"
expect_err "2 configurations left out"
grep -c '"idlelab": "sim"' "$TMP/f.json" | grep -qx 1 && ok || bad "the run that did not fail is not written"
grep -q '"platform": "intel-skylake-client"' "$TMP/f.json" && ok || bad "menu-rr missing"

# resume: the runs that finished before the failure are kept; the rerun runs only the others
expect_exit 1 mpirun -np 2 -x IDLELAB_TEST_ABORT_SEED=3 "$IDLELAB" batch "$small" --format json \
	--resume "$TMP/p" --quiet
expect_err "run 3 (seed 3)"
expect_exit 0 mpi3 "$IDLELAB" batch "$small" --format json --resume "$TMP/p"
expect_err "6 of 8 runs from"
expect_same "$TMP/j1.json"
# a rank that dies (IDLELAB_TEST_KILL_RANK_SEED: the rank dealt seed 2 is killed): mpirun
# ends the job; the partial file has what was gathered and where the runs in flight were,
# and the resumed batch names the one that was on the dead rank
rm -f "$TMP/k"
expect_exit 137 mpirun -np 3 --oversubscribe -x IDLELAB_TEST_KILL_RANK_SEED=2 "$IDLELAB" batch \
	"$small" --format json --resume "$TMP/k" --quiet
grep -q "exited on signal 9" "$TMP/err" && ok || bad "mpirun did not name the rank"
expect_exit 0 mpi3 "$IDLELAB" batch "$small" --format json --resume "$TMP/k" --quiet
expect_err "menu-sweep: governor menu@6.18 on kvm-haltpoll, sleep-sweep: run 2 (seed 2), started on rank"
expect_err "did not finish (the batch stopped or its run failed); it runs again"
expect_same "$TMP/j1.json"
# a rank that dies where the launcher lets the others live (Open MPI: the MCA parameter
# orte_abort_on_non_zero_status 0): rank 0 hears nothing from it for
# IDLELAB_MPI_RANK_TIMEOUT seconds, names its run by configuration and seed, writes the
# rest and ends non-zero; the partial file then completes the batch
rm -f "$TMP/k2" "$TMP/d.json"
mpirun -np 3 --oversubscribe --quiet --mca orte_abort_on_non_zero_status 0 -x IDLELAB_TEST_KILL_RANK=2 \
	-x IDLELAB_MPI_RANK_TIMEOUT=6 "$IDLELAB" batch "$small" --format json --output "$TMP/d.json" \
	--resume "$TMP/k2" --quiet >"$TMP/out" 2>"$TMP/err"
[ $? -ne 0 ] && ok || bad "a dead rank: mpirun exited 0"
grep -Eq "governor [a-z]+@[0-9.]+ on [a-z0-9-]+, [a-z-]+: run [0-9]+ \(seed [0-9]+\) on rank 2: silent for [0-9]+ s \(dead or stuck\)" \
	"$TMP/err" && ok || { bad "the dead rank's run is not named:"; cat "$TMP/err" >&2; }
expect_err "1 rank taken for dead; the other results are written"
n=$(grep -c '"idlelab": "sim"' "$TMP/d.json" 2>/dev/null)
[ "${n:-0}" -ge 1 ] && [ "${n:-0}" -lt 3 ] && ok || bad "a dead rank: $n configurations written"
expect_exit 0 mpi2 "$IDLELAB" batch "$small" --format json --resume "$TMP/k2" --quiet
expect_same "$TMP/j1.json"
# the run a dead rank had started dies with it: a run left computing would take a core
# from the batch that resumes, for as long as the run lasts (here about 10 s)
cat >"$TMP/long.ini" <<'END'
[config.long]
governor = menu
workload = request-response
wl = pairs=4
runs = 2
duration = 40s
END
expect_exit 137 mpirun -np 2 -x IDLELAB_TEST_KILL_RANK=1 "$IDLELAB" batch "$TMP/long.ini" --quiet
for _ in 1 2 3 4 5 6; do pgrep -f "batch $TMP/long.ini" >/dev/null || break; sleep 0.5; done
if pgrep -f "batch $TMP/long.ini" >/dev/null; then
	bad "a run outlived its rank: $(pgrep -af "batch $TMP/long.ini")"
	kill -KILL $(pgrep -f "batch $TMP/long.ini") 2>/dev/null
else
	ok
fi
expect_exit 2 mpirun -np 2 -x IDLELAB_MPI_RANK_TIMEOUT=soon "$IDLELAB" batch "$small" --quiet
expect_err "IDLELAB_MPI_RANK_TIMEOUT: 'soon' is not a number of seconds in 1..86400"
# and a partial file cut short, resumed on 2 ranks
head -c 100000 "$TMP/p" >"$TMP/q"
expect_exit 0 mpi2 "$IDLELAB" batch "$small" --format json --resume "$TMP/q" --quiet
expect_same "$TMP/j1.json"
finish
