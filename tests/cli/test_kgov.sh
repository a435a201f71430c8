#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Governors from kernel-style source files (docs/own-governor.md): the test
# governors of tests/fixtures/kgov build against the kernel-API layer, load
# in replay and sim, and decide as the equivalent built-in; broken ones fail
# with clear errors.
. "$SRCDIR/tests/cli/lib.sh"
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
	echo "SKIP: no C compiler to build governors with"
	exit 77
fi
export XDG_CACHE_HOME=$TMP/cache
KG=$SRCDIR/tests/fixtures/kgov
RP=$SRCDIR/tests/fixtures/replay
LOGS="$RP/haswell.log $RP/kvm.log $RP/pseries.log $RP/zen3.log"

# build: into the cache, the same object for the same source
expect_exit 0 "$IDLELAB" governor build "$KG/fixed.c"
so=$(cat "$TMP/out")
case $so in "$XDG_CACHE_HOME"/idlelab/kgov-*.so) ok ;; *) bad "cache path: $so" ;; esac
[ -f "$so" ] && ok || bad "no object at $so"
expect_exit 0 "$IDLELAB" governor build "$KG/fixed.c"
[ "$(cat "$TMP/out")" = "$so" ] && ok || bad "a second build gave another object"
expect_exit 0 "$IDLELAB" governor build "$KG/ladder-like.c" -o "$TMP/ll.so"
[ -f "$TMP/ll.so" ] && ok || bad "-o wrote nothing"

# replay: the object and file:, state 1 on every row (fixed's default)
expect_exit 0 "$IDLELAB" replay --governor "$so" --format csv "$RP/zen3.log"
n=$(grep -c '^decision,.*,selected,' "$TMP/out")
[ "$n" -eq 2000 ] && ok || bad "replay printed $n rows"
grep '^decision,.*,selected,' "$TMP/out" | cut -d, -f8 | sort -u >"$TMP/sel"
[ "$(cat "$TMP/sel")" = 1 ] && ok || bad "fixed selected $(tr '\n' ' ' <"$TMP/sel")"
# file: takes a source only: an object given as file:X.so was linked into an empty one
expect_exit 2 "$IDLELAB" replay --governor "file:$TMP/ll.so" --quiet "$RP/zen3.log"
expect_err "file:$TMP/ll.so: not a C file: file: builds FILE.c; load an object by its path (--governor $TMP/ll.so)"
expect_exit 2 "$IDLELAB" sim --governor "file:$TMP/ll.so" --duration 10ms
expect_err "not a C file: file: builds FILE.c"
expect_exit 0 "$IDLELAB" replay --governor "file:$KG/fixed.c" --quiet "$RP/zen3.log"
expect_err "governor fixed: fixed: state 1 of 3"

# check: the ladder-like test governor decides as ladder@6.12 on every row
expect_exit 0 "$IDLELAB" governor check "$KG/ladder-like.c" --against ladder@6.12 $LOGS
expect_out "$RP/zen3.log: 2000 rows, 2000 agree (100.00%)"
expect_exit 0 "$IDLELAB" governor check "$TMP/ll.so" --against ladder@6.12 "$RP/kvm.log"
expect_out "2000 rows, 2000 agree"
# the µs views of the texts before v5.6: the µs variant with --kernel 5.4
# decides as ladder@5.4; without it, its µs fields do not exist
expect_exit 0 "$IDLELAB" governor check "$KG/ladder-like-us.c" --kernel 5.4 \
	--against ladder@5.4 $LOGS
expect_out "$RP/haswell.log: 2000 rows, 2000 agree (100.00%)"
expect_out "$RP/zen3.log: 2000 rows, 2000 agree (100.00%)"
expect_exit 1 "$IDLELAB" governor check "$KG/ladder-like-us.c" --against ladder@5.4 "$RP/zen3.log"
expect_err "no member named"
# ... which the error names, with the way to build such a text
expect_err "does not compile against idlelab's kernel-API layer; missing: last_residency, disabled"
expect_err "(fields of the texts before v5.6: build with --kernel 5.5 or older, or load file:FILE.c@5.4)"
# sim, batch and replay build a file: for the run's release: a text before
# v5.6 runs under --kernel 5.4 (it did not compile: the release was not
# passed to the build), and decides as the preset it follows
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --kernel 5.4 --governor ladder \
	--governor "file:$KG/ladder-like-us.c" --workload wake-latency --duration 50ms --format csv
expect_out ",file:$KG/ladder-like-us.c@5.4,"
awk -F, 'NR > 1 { $1 = ""; $4 = ""; print }' "$TMP/out" | sort | uniq -c |
	awk '$1 != 2' >"$TMP/odd"
if [ -s "$TMP/odd" ]; then
	bad "sim --kernel 5.4: ladder-like-us is not ladder@5.4"; head "$TMP/odd" >&2
else ok; fi
printf '[config.us]\nkernel = 5.4\ngovernor = file:%s\nworkload = wake-latency\n' \
	"$KG/ladder-like-us.c" >"$TMP/us.ini"
printf 'runs = 1\nduration = 20ms\n' >>"$TMP/us.ini"
expect_exit 0 "$IDLELAB" batch "$TMP/us.ini" --format csv
expect_out ",5.4,file:$KG/ladder-like-us.c@5.4,"
# a name that fits without "@REL" but not with it is refused, not built for no release
d=$TMP/long
while [ ${#d} -lt 83 ]; do d=${d}x; done
if [ ${#d} -eq 83 ]; then
	mkdir -p "$d" && cp "$KG/fixed.c" "$d/f.c"   # file:$d/f.c: 93 characters
	expect_exit 2 "$IDLELAB" sim --kernel 5.4 --governor "file:$d/f.c" --workload wake-latency \
		--duration 10ms
	expect_err "f.c@5.4': name over 95 characters"
	printf '[config.long]\nkernel = 5.4\ngovernor = file:%s/f.c\nworkload = wake-latency\n' \
		"$d" >"$TMP/long.ini"
	printf 'runs = 1\nduration = 10ms\n' >>"$TMP/long.ini"
	expect_exit 1 "$IDLELAB" batch "$TMP/long.ini" --format csv
	expect_err "f.c@5.4': name over 95 characters"
fi
# replay has no --kernel: the release is given in the spec
expect_exit 0 "$IDLELAB" replay --governor "file:$KG/ladder-like-us.c@5.4" --quiet --format csv \
	"$RP/zen3.log"
cp "$TMP/out" "$TMP/us-replay.csv"
expect_exit 0 "$IDLELAB" replay --governor ladder@5.4 --quiet --format csv "$RP/zen3.log"
expect_same "$TMP/us-replay.csv"
expect_exit 2 "$IDLELAB" replay --governor "file:$KG/ladder-like-us.c@4.19" --quiet "$RP/zen3.log"
expect_err "kernel release 4.19 is outside the releases idlelab models"
# ... and one of many digits is named whole, not cut to 15 characters
expect_exit 2 "$IDLELAB" replay --governor "file:$KG/ladder-like-us.c@5.44444444444444444444" \
	--quiet "$RP/zen3.log"
expect_err "kernel release '5.44444444444444444444' is not MAJOR.MINOR"
# an unknown name passed to the layer's min_t(): not also the macro's own variable
sed 's/drv->state_count - 1)/drv->state_count - NO_SUCH_ARG)/' "$KG/fixed.c" >"$TMP/macro-arg.c"
expect_exit 1 "$IDLELAB" governor build "$TMP/macro-arg.c"
grep -q "kernel-API layer; missing: NO_SUCH_ARG\$" "$TMP/err" && ok ||
	bad "missing names of an unknown min_t() argument: $(grep missing: "$TMP/err")"
# clang says "no member named 'X' in ...": the fields and the way out all the same
if command -v clang >/dev/null 2>&1; then
	CC=clang expect_exit 2 "$IDLELAB" replay --governor "file:$KG/ladder-like-us.c" --quiet \
		"$RP/zen3.log"
	expect_err "missing: last_residency, disabled (fields of the texts before v5.6: build with"
	# "use of undeclared identifier 'X'": a name the layer lacks, listed as gcc's is
	sed 's/state __read_mostly = 1;/state __read_mostly = NO_SUCH_CONST;/' "$KG/fixed.c" \
		>"$TMP/undeclared.c"
	CC=clang expect_exit 1 "$IDLELAB" governor build "$TMP/undeclared.c"
	expect_err "kernel-API layer; missing: NO_SUCH_CONST"
	# "fatal error: 'X' file not found": the header, as gcc's "X: No such file"
	{ echo '#include <linux/nosuch.h>'; cat "$KG/fixed.c"; } >"$TMP/header.c"
	CC=clang expect_exit 1 "$IDLELAB" governor build "$TMP/header.c"
	expect_err "kernel-API layer; missing: linux/nosuch.h"
fi
# a C file with a release that is not MAJOR.MINOR: the release is what is wrong
for rel in 5.4.1 5 v5.4 ''; do
	expect_exit 2 "$IDLELAB" replay --governor "file:$KG/ladder-like-us.c@$rel" --quiet \
		"$RP/zen3.log"
	expect_err "ladder-like-us.c@$rel: kernel release '$rel' is not MAJOR.MINOR (mainline tags"
done
# the other way: a text of v5.6 on under sim --kernel 5.4 misses the ns fields, and the
# message says how to run it there (name its own release)
expect_exit 2 "$IDLELAB" sim --platform intel-haswell-ep --kernel 5.4 \
	--governor "file:$KG/ladder-like.c" --workload wake-latency --duration 20ms
expect_err "missing: last_residency_ns, exit_latency_ns (fields of the texts from v5.6: build with --kernel 5.6 or newer, or load file:FILE.c@6.12)"
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --kernel 5.4 \
	--governor "file:$KG/ladder-like.c@6.12" --workload wake-latency --duration 20ms --format csv
expect_out ",5.4,file:$KG/ladder-like.c@6.12,"
# one row in 40000 differs: the share is not rounded up to 100.00 %
awk 'BEGIN { print "# idlelab-replay v1"; print "# hz=1000"; print "# state,0,POLL,0,0,polling"
	print "# state,1,C1,1000,2000,"
	print "cpu,sleep_length_ns,delta_tick_ns,tick_stopped,latency_req_ns,nr_iowait,cpu_utilized,residency_ns,got_tick,poll_time_limit"
	for (i = 0; i < 40000; i++) printf "0,4000000,1000000,0,%s,0,0,100000,0,0\n", i == 20000 ? "0" : "2000000000000" }' \
	>"$TMP/one-in-40000.log"
expect_exit 3 "$IDLELAB" governor check "$KG/fixed.c" --against ladder@6.12 "$TMP/one-in-40000.log"
expect_out "one-in-40000.log: 40000 rows, 39999 agree (99.99%)"
# --kernel builds a file: --against for that release too (a patch against its base)
expect_exit 0 "$IDLELAB" governor check "$KG/ladder-like-us.c" --kernel 5.4 \
	--against "file:$KG/ladder-like-us.c" "$RP/zen3.log"
expect_out "zen3.log: 2000 rows, 2000 agree (100.00%)"
# ... nor one that agrees down to 0.00 %, which reads as none
awk -F, -v OFS=, '/^0,/ { $5 = $5 == "0" ? "2000000000000" : "0" } 1' "$TMP/one-in-40000.log" \
	>"$TMP/one-agrees.log"
expect_exit 3 "$IDLELAB" governor check "$KG/fixed.c" --against ladder@6.12 "$TMP/one-agrees.log"
expect_out "one-agrees.log: 40000 rows, 1 agree (0.01%)"
# a log of no rows checks nothing: bad input, not 100.00 % and exit 0
head -5 "$TMP/one-in-40000.log" >"$TMP/no-rows.log"
expect_exit 1 "$IDLELAB" governor check "$KG/fixed.c" --against ladder@6.12 "$TMP/no-rows.log"
expect_err "no-rows.log: no rows: nothing to check the governor on"
# ... and the check can fail: fixed is not ladder
expect_exit 3 "$IDLELAB" governor check "$KG/fixed.c" --against ladder@6.12 "$RP/zen3.log"
expect_out "first difference: row"

# sim: the same results as the built-in, and parameters reach module_param
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --governor ladder@6.12 \
	--governor "file:$KG/ladder-like.c" --runs 2 --jobs 2 --format csv
awk -F, 'NR > 1 { $1 = ""; $4 = ""; print }' "$TMP/out" | sort | uniq -c |
	awk '$1 != 2' >"$TMP/odd"
[ -s "$TMP/odd" ] && { bad "sim: ladder-like differs from ladder@6.12"; head "$TMP/odd" >&2; } || ok
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --governor "file:$KG/fixed.c" \
	--gov-param state=2 --format csv
# only C1E (state 2 of intel-haswell-ep) is entered
awk -F, '$7 == "state" && $11 == "usage" && $13 > 0 { print $9 }' "$TMP/out" >"$TMP/used"
[ "$(cat "$TMP/used")" = C1E ] && ok || bad "sim with state=2 entered $(tr '\n' ' ' <"$TMP/used")"
# --resume: the runs of a loaded governor depend on its object, not its
# name: after the file is edited (or the object rebuilt) the partial results
# of the old one are refused, never taken as the new one's
mkdir "$TMP/rs"
cp "$KG/fixed.c" "$TMP/rs/gov.c"
rsim() {
	expect_exit "$1" "$IDLELAB" sim --platform intel-haswell-ep --governor "$g" \
		--workload wake-latency --duration 20ms --resume "$TMP/rs/p.part" --format csv
}
for how in file obj; do
	rm -f "$TMP/rs/p.part"
	g="file:$TMP/rs/gov.c"
	if [ $how = obj ]; then
		g="$TMP/rs/gov.so"
		"$IDLELAB" governor build "$TMP/rs/gov.c" -o "$g" >/dev/null || bad "build"
	fi
	rsim 0
	cp "$TMP/out" "$TMP/rs/first.csv"
	# the same object: its run is taken from the file
	rsim 0
	expect_err "1 of 1 runs from $TMP/rs/p.part, 0 to run"
	expect_same "$TMP/rs/first.csv"
	sed -i 's/^\(static unsigned int state __read_mostly = \)1;/\12;/' "$TMP/rs/gov.c"
	if [ $how = obj ]; then
		"$IDLELAB" governor build "$TMP/rs/gov.c" -o "$g" >/dev/null || bad "build"
	fi
	rsim 1
	expect_err "p.part: the partial results of other runs"
	[ -s "$TMP/out" ] && bad "--resume $how: printed another governor's runs" || ok
	cp "$KG/fixed.c" "$TMP/rs/gov.c"
done
expect_exit 2 "$IDLELAB" sim --platform intel-haswell-ep --governor "file:$KG/fixed.c" \
	--gov-param nosuch=1
expect_err "no parameter 'nosuch'"
expect_exit 2 "$IDLELAB" sim --platform intel-haswell-ep --governor "file:$KG/fixed.c" \
	--gov-param state=-1
expect_err "not a valid value"

# errors: what the layer lacks, an invalid index with its row, bad usage
expect_exit 1 "$IDLELAB" governor build "$KG/missing.c"
expect_err "missing: tick_nohz_get_idle_calls_cpu"
expect_err "implicit declaration"
expect_exit 1 "$IDLELAB" replay --governor "file:$KG/bad-index.c" "$RP/zen3.log"
expect_err "zen3.log:10: governor file:$KG/bad-index.c returned an invalid state index"
expect_exit 1 "$IDLELAB" governor check "$KG/bad-index.c" --against menu@6.12 "$RP/zen3.log"
expect_err "zen3.log:10:"
# a governor the kernel would refuse to register says why
expect_exit 2 "$IDLELAB" replay --governor "file:$KG/no-select.c" "$RP/zen3.log"
expect_err "an initcall failed with -22 (cpuidle_register_governor(): the governor has no .select)"
# trace check and whatif say it at the period's line (they used to drop the period, exit 0)
HT=$SRCDIR/tests/fixtures/trace/hrtimer.trace
for sub in check whatif; do
	expect_exit 1 "$IDLELAB" trace $sub --governor "file:$KG/bad-index.c" --states intel-haswell-ep "$HT"
	expect_err "hrtimer.trace:19: governor file:$KG/bad-index.c returned an invalid state index 5 (5 states)"
	[ -s "$TMP/out" ] && bad "trace $sub printed results past an invalid index" || ok
done
expect_exit 1 "$IDLELAB" trace to-replay --kernel-governor "file:$KG/bad-index.c" \
	--states intel-haswell-ep "$HT" -o "$TMP/bad-index.log"
expect_err "hrtimer.trace:19: governor file:$KG/bad-index.c returned an invalid state index"
[ ! -e "$TMP/bad-index.log" ] && ok || bad "to-replay wrote a log past an invalid index"
expect_exit 1 "$IDLELAB" governor build "$TMP/nonexistent.c"
expect_err "nonexistent.c"
expect_exit 1 "$IDLELAB" governor check "$KG/fixed.c" --against menu@6.12 "$TMP/nolog.log"
printf 'not an object\n' >"$TMP/junk.so"
expect_exit 2 "$IDLELAB" replay --governor "$TMP/junk.so" "$RP/zen3.log"
expect_err "cannot load"
expect_exit 2 "$IDLELAB" governor
expect_exit 2 "$IDLELAB" governor frob
expect_exit 2 "$IDLELAB" governor build
expect_exit 2 "$IDLELAB" governor build "$RP/zen3.log"
# -o where nothing can be written: said before compiling, not "does not compile"
for o in "$TMP/nodir/g.so" /proc/version/g.so; do
	expect_exit 1 "$IDLELAB" governor build "$KG/fixed.c" -o "$o"
	expect_err "idlelab: $o: cannot create:"
	grep -q "does not compile" "$TMP/err" && bad "-o $o: blamed the source" || ok
done
mkdir "$TMP/adir"
expect_exit 1 "$IDLELAB" governor build "$KG/fixed.c" -o "$TMP/adir"
expect_err "idlelab: $TMP/adir: is a directory"
[ -z "$(ls -A "$TMP/adir")" ] && ok || bad "governor build -o DIR left files in it"
expect_exit 2 "$IDLELAB" governor build "$KG/fixed.c" -o ""
expect_err "-o: an empty file name"
# -o naming the source, or a link to it: refused, the source kept (the object
# was written over the governor file, exit 0)
cp "$KG/fixed.c" "$TMP/self.c"
ln -s self.c "$TMP/self-link.so"
for o in "$TMP/self.c" "$TMP/self-link.so"; do
	expect_exit 2 "$IDLELAB" governor build "$TMP/self.c" -o "$o"
	expect_err "-o $o: the same file as the input $TMP/self.c"
	cmp -s "$KG/fixed.c" "$TMP/self.c" && ok || bad "governor build -o $o replaced the source"
done
# a failed build leaves neither the object nor a temporary beside it
printf 'int x = ;\n' >"$TMP/broken.c"
mkdir "$TMP/bdir"
expect_exit 1 "$IDLELAB" governor build "$TMP/broken.c" -o "$TMP/bdir/b.so"
[ -z "$(ls -A "$TMP/bdir")" ] && ok || bad "a failed build left $(ls "$TMP/bdir")"

# only a regular file of an object's size is copied to be loaded: /dev/zero
# was copied into TMPDIR without end, a FIFO blocked the open
mkdir "$TMP/tmpd"
TMPDIR=$TMP/tmpd expect_exit 2 timeout 60 "$IDLELAB" replay --governor /dev/zero "$RP/zen3.log"
expect_err "--governor /dev/zero: /dev/zero: not a regular file: not a governor object"
mkfifo "$TMP/fifo.so"
TMPDIR=$TMP/tmpd expect_exit 2 timeout 60 "$IDLELAB" replay --governor "$TMP/fifo.so" "$RP/zen3.log"
expect_err "fifo.so: not a regular file: not a governor object"
truncate -s 300M "$TMP/big.so"
TMPDIR=$TMP/tmpd expect_exit 2 timeout 60 "$IDLELAB" replay --governor "$TMP/big.so" "$RP/zen3.log"
expect_err "big.so: more than 256 MiB: not a governor object"
[ -z "$(ls -A "$TMP/tmpd")" ] && ok || bad "left in TMPDIR: $(ls -A "$TMP/tmpd")"
rm -f "$TMP/big.so"

# a compiler that cannot be run is said as such (it read as "does not compile")
CC=/nonexistent/cc expect_exit 1 "$IDLELAB" governor build "$KG/fixed.c" -o "$TMP/nocc.so"
expect_err "idlelab: cannot run the compiler '/nonexistent/cc' (\$CC, else cc): No such file or directory"
[ ! -e "$TMP/nocc.so" ] && ok || bad "a build without a compiler left an object"

# the compiler runs in the C locale, whatever the user's: the missing-names list and
# the era's hints are read from its English messages
printf '#!/bin/sh\necho "x.c:1:1: error: locale LC_ALL=[$LC_ALL] LANGUAGE=[$LANGUAGE]" >&2\nexit 1\n' \
	>"$TMP/localecc"
chmod +x "$TMP/localecc"
CC=$TMP/localecc expect_exit 1 env LC_ALL=de_DE.UTF-8 LANGUAGE=de "$IDLELAB" governor build \
	"$KG/fixed.c" -o "$TMP/locale.so"
expect_err "locale LC_ALL=[C] LANGUAGE=[]"

# a file whose name starts with '-' is a file to the compiler, not an option
# ("-ovictim.c" made cc write its output over victim.c)
mkdir "$TMP/dash"
cp "$KG/fixed.c" "$TMP/dash/-ovictim.c"
echo precious >"$TMP/dash/victim.c"
(cd "$TMP/dash" && "$IDLELAB" governor build -- -ovictim.c >"$TMP/out" 2>"$TMP/err") && ok ||
	bad "build of -ovictim.c: $(cat "$TMP/err")"
[ "$(cat "$TMP/dash/victim.c")" = precious ] && ok || bad "the build wrote over victim.c"
(cd "$TMP/dash" && "$IDLELAB" replay --governor file:-ovictim.c "$RP/zen3.log" --quiet >/dev/null 2>&1) &&
	ok || bad "replay --governor file:-ovictim.c"

# the compiler runs under limits: a file that includes an endless one ends
# in an error within the memory limit (it used to take all the machine's)
printf '#include "/dev/zero"\n' >"$TMP/zero.c"
run_rss timeout 120 "$IDLELAB" governor build "$TMP/zero.c" -o "$TMP/zero.so"
[ "$rc" -eq 1 ] && ok || bad "build of an endless include: exit $rc"
expect_err "idlelab: $TMP/zero.c: "
[ "$rss" -lt 1100000 ] && ok || bad "build of an endless include: $rss KiB"
[ ! -e "$TMP/zero.so" ] && ok || bad "a failed build left its object"
# a header that is not there: the compiler's messages, not the preprocessed text
printf '#include <linux/cpuidle.h>\n#include <nosuch.h>\n' >"$TMP/noinc.c"
expect_exit 1 "$IDLELAB" governor build "$TMP/noinc.c"
expect_err "idlelab: $TMP/noinc.c: does not compile against idlelab's kernel-API layer; missing: nosuch.h"
if grep -q kapi_module "$TMP/err" || [ "$(wc -c <"$TMP/err")" -gt 2000 ]; then
	bad "the preprocessed text on stderr ($(wc -c <"$TMP/err") bytes)"
else ok; fi

# a crash or a loop (crash.c, loop.c: at their 100th decision) ends only
# its configuration, with where it happened: the built-in's results are
# those of a run without it, and the exit status is 1
expect_exit 0 "$IDLELAB" sim --platform intel-haswell-ep --governor menu@6.12 --format csv
cp "$TMP/out" "$TMP/menu.csv"
expect_exit 1 "$IDLELAB" sim --platform intel-haswell-ep --governor menu@6.12 \
	--governor "file:$KG/crash.c" --format csv
expect_err "governor file:$KG/crash.c crashed (SIGSEGV) in select on cpu1 at simulated time"
expect_err "(run 1, seed 1)"
expect_same "$TMP/menu.csv"
expect_exit 1 "$IDLELAB" sim --platform intel-haswell-ep --governor "file:$KG/crash.c"
expect_err "crashed (SIGSEGV)"
[ -s "$TMP/out" ] && bad "sim printed results with no configuration left" || ok
expect_exit 1 "$IDLELAB" replay --governor "file:$KG/crash.c" "$RP/zen3.log"
expect_err "zen3.log:107: governor file:$KG/crash.c crashed (SIGSEGV) in select on cpu2"
[ -s "$TMP/out" ] && bad "replay printed decisions before the crash" || ok
# governor check goes on with the next log
expect_exit 1 "$IDLELAB" governor check "$KG/crash.c" --against menu@6.12 "$RP/zen3.log" \
	"$RP/kvm.log"
expect_err "zen3.log:107: governor $KG/crash.c crashed (SIGSEGV)"
expect_err "kvm.log:106: governor $KG/crash.c crashed (SIGSEGV)"
# what a contained child prints is checked as main() checks it: a full disk
# is an error (governor check printed into /dev/full and exited 0)
if [ -w /dev/full ]; then
	"$IDLELAB" governor check "$KG/ladder-like.c" --against ladder@6.12 "$RP/zen3.log" \
		>/dev/full 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && ok || bad "governor check into /dev/full: exit $rc"
	expect_err "idlelab: standard output: cannot write: No space left on device"
fi
# a loaded --against runs in the same child: a crash is not put on FILE alone
expect_exit 1 "$IDLELAB" governor check "$KG/fixed.c" --against "file:$KG/crash.c" "$RP/zen3.log"
expect_err "zen3.log:107: governor $KG/fixed.c or file:$KG/crash.c crashed (SIGSEGV)"
# a loop is ended by the CPU-time limit on one call (200 ms here)
export IDLELAB_GOV_CALL_LIMIT_MS=200
expect_exit 1 "$IDLELAB" sim --platform intel-haswell-ep --governor "file:$KG/loop.c" \
	--governor menu@6.12 --format csv
expect_err "governor file:$KG/loop.c looped: a select call on cpu1 at simulated time"
expect_same "$TMP/menu.csv"
expect_exit 1 "$IDLELAB" replay --governor "file:$KG/loop.c" "$RP/zen3.log"
expect_err "zen3.log:107: governor file:$KG/loop.c looped"
# trace check, whatif and to-replay (the governor's 100th period enters at line 199)
awk 'BEGIN { for (i = 0; i < 150; i++) {
	printf "          <idle>-0       [001] d..1.   %d.%06d: cpu_idle: state=1 cpu_id=1\n", 100, 2 * i * 10
	printf "          <idle>-0       [001] d..1.   %d.%06d: cpu_idle: state=4294967295 cpu_id=1\n", 100, (2 * i + 1) * 10 } }' \
	>"$TMP/p150.trace"
expect_exit 1 "$IDLELAB" trace whatif --governor "file:$KG/loop.c" --states intel-haswell-ep \
	"$TMP/p150.trace"
expect_err "p150.trace:199: governor file:$KG/loop.c looped: a select call on cpu1"
expect_exit 1 "$IDLELAB" trace check --governor "file:$KG/crash.c" --states intel-haswell-ep \
	"$TMP/p150.trace"
expect_err "p150.trace:199: governor file:$KG/crash.c crashed (SIGSEGV) in select on cpu1"
[ -s "$TMP/out" ] && bad "trace check printed results before the crash" || ok
expect_exit 1 "$IDLELAB" trace to-replay --kernel-governor "file:$KG/crash.c" \
	--states intel-haswell-ep "$TMP/p150.trace" -o "$TMP/p150.log"
expect_err "p150.trace:199: governor file:$KG/crash.c crashed (SIGSEGV)"
[ ! -e "$TMP/p150.log" ] && ok || bad "to-replay wrote a log past a crash"
# the object's constructors, initcall, exit and destructors run once in a
# watched child before the first load: a loop or a crash there is said as
# such (it used to hang idlelab, or end it with SIGSEGV)
for cmd in "sim --duration 20ms --workload wake-latency --governor" "replay $RP/zen3.log --governor" \
	"trace whatif --states intel-haswell-ep $SRCDIR/tests/fixtures/trace/hrtimer.trace --governor"; do
	# shellcheck disable=SC2086
	expect_exit 2 timeout 60 "$IDLELAB" $cmd "file:$KG/init-loop.c"
	expect_err "governor file:$KG/init-loop.c looped while loading or unloading: ran past 200 ms"
	# shellcheck disable=SC2086
	expect_exit 2 timeout 60 "$IDLELAB" $cmd "file:$KG/init-crash.c"
	expect_err "governor file:$KG/init-crash.c crashed (SIGSEGV) while loading or unloading"
done
unset IDLELAB_GOV_CALL_LIMIT_MS

# scenario: a configuration's "governor = file:X.c" runs the file's
# governor (the same results as the built-in it follows), and its crash
# fails the scenario at the configuration's line
tiny=$SRCDIR/tests/fixtures/scenario/tiny.ini
sed "s|^governor = teo|governor = ladder@6.12|" "$tiny" >"$TMP/s-builtin.ini"
sed "s|^governor = teo|governor = file:$KG/ladder-like.c|" "$tiny" >"$TMP/s-file.ini"
# (40 loops a row, so that the crash's 100th decision comes at HZ 250 too)
sed -e "s|^governor = teo|governor = file:$KG/crash.c|" -e "s|^quick.wl = loops=20|quick.wl = loops=40|" \
	"$tiny" >"$TMP/s-crash.ini"
expect_exit 0 "$IDLELAB" scenario run "$TMP/s-builtin.ini" --quick --jobs 2 --output "$TMP/sb"
expect_exit 0 "$IDLELAB" scenario run "$TMP/s-file.ini" --quick --jobs 2 --output "$TMP/sf"
grep -q '"governor": "file:' "$TMP/sf/sim-teo.json" && ok || bad "scenario did not run the file"
if diff <(grep -v '"governor"' "$TMP/sb/sim-teo.json") \
	<(grep -v '"governor"' "$TMP/sf/sim-teo.json") >/dev/null; then ok
else bad "scenario: ladder-like.c differs from ladder@6.12"; fi
expect_exit 1 "$IDLELAB" scenario run "$TMP/s-crash.ini" --quick --jobs 2 --output "$TMP/sc"
expect_err "s-crash.ini:29: configuration teo: governor file:$KG/crash.c crashed (SIGSEGV)"

expect_exit 2 "$IDLELAB" governor check "$KG/fixed.c" "$RP/zen3.log"
expect_err "--against"
expect_exit 2 "$IDLELAB" governor check "$KG/fixed.c" --against nosuch "$RP/zen3.log"
expect_exit 2 "$IDLELAB" governor build "$KG/fixed.c" --frob
# --kernel is checked as an option, and refused where nothing is built
expect_exit 2 "$IDLELAB" governor build "$KG/fixed.c" --kernel 1.0
expect_err "idlelab: governor: --kernel: kernel release 1.0 is outside the releases"
expect_exit 2 "$IDLELAB" governor build "$KG/fixed.c" --kernel ""
expect_err "idlelab: governor: --kernel: kernel release '' is not MAJOR.MINOR"
expect_exit 2 "$IDLELAB" governor check "$so" --kernel 6.12 --against menu@6.12 "$RP/zen3.log"
expect_err "--kernel 6.12: $so is built already"
expect_exit 2 "$IDLELAB" governor check "$KG/fixed.c" --against menu@6.12 ""
expect_err "idlelab: governor: LOG: an empty file name"
finish
