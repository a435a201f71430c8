#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The command lines of idlelab sim, batch and scenario run, run by two
# idlelab binaries and compared: stdout, stderr, exit status and every file
# the command wrote. For a change to how these commands parse their options
# or run their runs (src/cli/run_opts.c, src/sim/child.c) that should not
# change what they do. Good and bad options and values, --jobs 1 and 2,
# --resume from nothing, from a whole and from a cut partial file, the
# tests' batch files, loaded governors (contained runs, one
# that crashes), and, where mpirun is found, mpirun -np 2.
#
#   tests/cli/run_opts_identity.sh OLD_IDLELAB NEW_IDLELAB [WORKDIR]
#
# Wall times in the outputs (progress lines, "in 0.1 s (CPU 0.2 s)") and the
# rank a run was dealt to are masked; a partial results file is compared by
# size (it holds the results' bytes as this process laid them out). A case
# whose name ends in '!' changed on purpose since 1dafbcc (sim --output ''
# is refused as batch refuses it): its difference is shown, not counted.
# Prints each case that differs and a closing "N passed, N failed"; exit 0
# when all are identical, 1 when not, 2 on bad usage.
set -u

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
	echo "usage: $0 OLD_IDLELAB NEW_IDLELAB [WORKDIR]" >&2
	exit 2
fi
OLD=$(realpath "$1")
NEW=$(realpath "$2")
W=${3:-$(mktemp -d)}
S=$(realpath "$(dirname "$0")/../..")
mkdir -p "$W" || exit 2
W=$(realpath "$W")
export IDLELAB_PROGRESS_DELAY_MS=100000
unset IDLELAB_TEST_ABORT_SEED IDLELAB_MPI_RANK_TIMEOUT

SMALL=$S/tests/fixtures/batch/small.ini
ONE=$S/tests/fixtures/batch/one.ini
TINY=$S/tests/fixtures/scenario/tiny.ini
KG=$S/tests/fixtures/kgov
BASE="sim --platform kvm-haltpoll --workload idle --duration 20ms"
MPI=
if command -v mpirun >/dev/null && ldd "$NEW" 2>/dev/null | grep -q libmpi; then
	# a single node, no ssh
	MPI="mpirun -np 2 --oversubscribe --allow-run-as-root"
	export OMPI_MCA_plm_rsh_agent=
fi

# NAME<tab>shell command line ($I: the idlelab binary; run in an empty directory)
cases() {
	cat <<EOF
help-sim	\$I help sim
help-batch	\$I help batch
help-scenario	\$I help scenario
sim-base	\$I $BASE
sim-runs3-j1	\$I $BASE --runs 3 --jobs 1
sim-runs3-j2	\$I $BASE --runs 3 --jobs 2
sim-jobs-eq	\$I $BASE --runs 2 --jobs=2
sim-jobs-abbrev	\$I $BASE --runs 2 --job 2
sim-seed	\$I $BASE --seed 7 --runs 2
sim-seed-max	\$I $BASE --seed 18446744073709551615
sim-seed-eq	\$I $BASE --seed=3
sim-json-out	\$I $BASE --format json --output out.json
sim-csv-out-j2	\$I $BASE --format csv --output out.csv --jobs 2 --runs 2
sim-govs-j2	\$I sim --platform kvm-haltpoll --governor menu --governor teo --workload idle --duration 20ms --runs 2 --jobs 2
sim-quiet	\$I $BASE --quiet
sim-progress	\$I $BASE --progress --runs 2 --jobs 1
sim-quiet-progress	\$I $BASE --quiet --progress
sim-progress-quiet	\$I $BASE --progress --quiet
sim-trace	\$I sim --platform kvm-haltpoll --workload idle --duration 1ms --jobs 1 --progress --sim-opt trace=stderr
sim-jobs0	\$I $BASE --jobs 0
sim-jobs257	\$I $BASE --jobs 257
sim-jobs256	\$I $BASE --jobs 256
sim-jobs-abc	\$I $BASE --jobs abc
sim-jobs-empty	\$I $BASE --jobs ''
sim-jobs-neg	\$I $BASE --jobs -1
sim-jobs-trail	\$I $BASE --jobs 2x
sim-jobs-missing	\$I $BASE --jobs
sim-seed-neg	\$I $BASE --seed -1
sim-seed-abc	\$I $BASE --seed abc
sim-seed-over	\$I $BASE --seed 18446744073709551616
sim-seed-missing	\$I $BASE --seed
sim-output-empty!	\$I $BASE --output ''
sim-output-missing	\$I $BASE --output
sim-output-nodir	\$I $BASE --output no/such/dir/out.txt
sim-resume-empty	\$I $BASE --resume ''
sim-resume-missing	\$I $BASE --resume
sim-quick	\$I $BASE --quick
sim-bogus	\$I $BASE --bogus
sim-bogus-short	\$I $BASE -x
sim-arg	\$I $BASE extra
sim-arg-then-opt	\$I sim extra --jobs 1
sim-runs-bad	\$I $BASE --runs 0
sim-format-bad	\$I $BASE --format xml
sim-resume-new	\$I $BASE --runs 3 --jobs 1 --resume p.part
sim-resume-whole	\$I $BASE --runs 3 --jobs 2 --resume p.part >/dev/null 2>&1; \$I $BASE --runs 3 --jobs 2 --resume p.part
sim-resume-cut	\$I $BASE --runs 3 --jobs 1 --resume p.part >/dev/null 2>&1; truncate -s -100 p.part; \$I $BASE --runs 3 --jobs 2 --resume p.part --format json
sim-resume-other	\$I $BASE --runs 3 --jobs 1 --resume p.part >/dev/null 2>&1; \$I $BASE --runs 3 --seed 9 --resume p.part
sim-resume-skip	\$I $BASE --runs 2 --jobs 1 --resume p.part >/dev/null 2>&1; \$I $BASE --runs 2 --jobs=2 --quiet --format csv --output o.csv --resume p.part
sim-resume-junk	echo junk > p.part; \$I $BASE --runs 2 --resume p.part
sim-kgov-j1	\$I sim --platform intel-haswell-ep --governor ladder@6.12 --governor file:$KG/ladder-like.c --workload idle --duration 20ms --runs 2 --jobs 1 --format csv
sim-kgov-j2	\$I sim --platform intel-haswell-ep --governor ladder@6.12 --governor file:$KG/ladder-like.c --workload idle --duration 20ms --runs 3 --jobs 2 --format csv
sim-kgov-crash	\$I sim --platform intel-haswell-ep --governor menu@6.12 --governor file:$KG/crash.c --runs 2 --jobs 1 --format csv
sim-kgov-crash-only	\$I sim --platform intel-haswell-ep --governor file:$KG/crash.c
sim-kgov-resume	\$I sim --platform intel-haswell-ep --governor file:$KG/ladder-like.c --workload idle --duration 20ms --runs 3 --jobs 2 --resume p.part >/dev/null 2>&1; truncate -s -10 p.part; \$I sim --platform intel-haswell-ep --governor file:$KG/ladder-like.c --workload idle --duration 20ms --runs 3 --jobs 2 --resume p.part
batch-none	\$I batch
batch-two	\$I batch $SMALL $ONE
batch-missing-file	\$I batch no-such.ini
batch-small	\$I batch $SMALL
batch-small-j1	\$I batch $SMALL --jobs 1
batch-small-j2	\$I batch $SMALL --jobs 2
batch-opts-first	\$I batch --jobs 2 --format csv $SMALL
batch-one	\$I batch $ONE --format json
batch-json-out	\$I batch $SMALL --format json --output out.json
batch-csv-out	\$I batch $SMALL --format csv --output out.csv --jobs 2
batch-quick	\$I batch $SMALL --quick --jobs 1
batch-seed	\$I batch $SMALL --seed 5 --jobs 2
batch-quiet	\$I batch $SMALL --quiet
batch-progress	\$I batch $SMALL --progress --jobs 1
batch-quiet-progress	\$I batch $SMALL --quiet --progress
batch-jobs0	\$I batch $SMALL --jobs 0
batch-jobs-abc	\$I batch $SMALL --jobs abc
batch-jobs-missing	\$I batch $SMALL --jobs
batch-seed-bad	\$I batch $SMALL --seed -3
batch-seed-missing	\$I batch $SMALL --seed
batch-output-empty	\$I batch $SMALL --output ''
batch-resume-empty	\$I batch $SMALL --resume ''
batch-format-bad	\$I batch $SMALL --format xml
batch-bogus	\$I batch $SMALL --per-cpu
batch-resume-new	\$I batch $SMALL --jobs 2 --resume p.part
batch-resume-whole	\$I batch $SMALL --jobs 1 --resume p.part >/dev/null 2>&1; \$I batch $SMALL --jobs 2 --resume p.part --format json
batch-resume-cut	\$I batch $SMALL --jobs 1 --resume p.part >/dev/null 2>&1; truncate -s -5000 p.part; \$I batch $SMALL --jobs 2 --resume p.part --format csv
batch-resume-seed	\$I batch $SMALL --jobs 1 --resume p.part >/dev/null 2>&1; \$I batch $SMALL --seed 4 --resume p.part
batch-kgov-crash	sed -e "s|^governor = teo|governor = file:$KG/crash.c|" $SMALL > c.ini; \$I batch c.ini --jobs 1 --format csv
scn-none	\$I scenario run
scn-two	\$I scenario run $TINY extra
scn-tiny	\$I scenario run $TINY
scn-quick-j1	\$I scenario run $TINY --quick --jobs 1
scn-quick-j2	\$I scenario run --quick --jobs 2 $TINY
scn-seed	\$I scenario run $TINY --quick --seed 3
scn-outdir	\$I scenario run $TINY --quick --output d
scn-outdir-exists	mkdir d; \$I scenario run $TINY --quick --output d
scn-outdir-empty	\$I scenario run $TINY --quick --output ''
scn-fmt-md	\$I scenario run $TINY --quick --format markdown
scn-fmt-json	\$I scenario run $TINY --quick --format json
scn-fmt-html	\$I scenario run $TINY --quick --format html
scn-fmt-bad	\$I scenario run $TINY --quick --format csv
scn-quiet	\$I scenario run $TINY --quick --quiet
scn-progress	\$I scenario run $TINY --quick --progress --jobs 1
scn-quiet-progress	\$I scenario run $TINY --quick --quiet --progress
scn-jobs-bad	\$I scenario run $TINY --jobs 300
scn-jobs-missing	\$I scenario run $TINY --jobs
scn-seed-bad	\$I scenario run $TINY --seed x1
scn-resume-empty	\$I scenario run $TINY --resume ''
scn-bogus	\$I scenario run $TINY --per-cpu
scn-missing	\$I scenario run no-such-scenario
scn-builtin-bad	\$I scenario run intel-cst-claim --quick --seed x
scn-resume-new	\$I scenario run $TINY --quick --resume p.part
scn-resume-cut	\$I scenario run $TINY --quick --jobs 1 --resume p.part >/dev/null 2>&1; truncate -s -3000 p.part; \$I scenario run $TINY --quick --jobs 2 --resume p.part --format json
scn-resume-other	\$I scenario run $TINY --quick --resume p.part >/dev/null 2>&1; \$I scenario run $TINY --resume p.part
scn-list	\$I scenario list
scn-sub-bad	\$I scenario walk
EOF
	[ -n "$MPI" ] || return 0
	cat <<EOF
mpi-batch	$MPI \$I batch $SMALL
mpi-batch-json	$MPI \$I batch $SMALL --format json --output out.json
mpi-batch-resume	\$I batch $SMALL --jobs 1 --resume p.part >/dev/null 2>&1; truncate -s -5000 p.part; $MPI \$I batch $SMALL --resume p.part --format csv
mpi-batch-abort	$MPI -x IDLELAB_TEST_ABORT_SEED=2 \$I batch $SMALL --format csv
mpi-sim	$MPI \$I $BASE --runs 3
mpi-scn	$MPI \$I scenario run $TINY --quick
mpi-bad-jobs	$MPI \$I batch $SMALL --jobs 0
EOF
}

# The outputs of case $1 (command $2) by binary $3 into directory $4.
run_case() {
	local name=$1 cmd=$2 I=$3 d=$4
	rm -rf "$d"
	mkdir -p "$d/run"
	(cd "$d/run" && I=$I bash -c "$cmd" >"$d/stdout" 2>"$d/stderr" </dev/null; echo $? >"$d/rc")
	[ -e "$d/run/p.part" ] && { stat -c 'partial file of %s bytes' "$d/run/p.part" >"$d/p.size";
				   rm -f "$d/run/p.part"; }
	# wall times, ranks and mpirun's job ids vary from run to run
	find "$d" -type f ! -name '*.ini' -exec sed -E -i -e 's/[0-9]+\.[0-9]+ s\b/T s/g' \
		-e 's/"(wall|cpu)_s": [0-9.e+-]+/"\1_s": T/g' -e 's/on rank [0-9]+/on rank R/g' \
		-e 's/Process name: \[\[[0-9]+,1\],[0-9]+\]/Process name: [[J,1],R]/' {} +
}

pass=0
fail=0
while IFS=$'\t' read -r name cmd; do
	[ -n "$name" ] || continue
	run_case "$name" "$cmd" "$OLD" "$W/old/$name"
	run_case "$name" "$cmd" "$NEW" "$W/new/$name"
	if diff -r "$W/old/$name" "$W/new/$name" >"$W/$name.diff" 2>&1; then
		pass=$((pass + 1))
		rm -f "$W/$name.diff"
	elif [ "${name%!}" != "$name" ]; then
		pass=$((pass + 1))
		echo "differs, as intended: $name: $cmd"
		sed 's/^/    /' "$W/$name.diff"
	else
		fail=$((fail + 1))
		echo "DIFFERS: $name: $cmd"
		head -20 "$W/$name.diff"
	fi
done < <(cases)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
