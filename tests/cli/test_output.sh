#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# --output of every writer (replay, sim, compare, plot) and info --save:
# a symbolic link is followed and stays a link (D2), a FIFO or device is
# written directly and never replaced (D2), a link planted at the old
# predictable temporary name is not followed (D3), a replaced file keeps
# its mode, write errors name the file (ENOSPC, a file-size limit: D7),
# and a signal while the temporary exists removes it (D12, where strace
# can inject one). Devices are made with mknod in the test's own directory
# (root), never replaced in /dev.
. "$SRCDIR/tests/cli/lib.sh"

FX="$SRCDIR/tests/fixtures"
umask 022

"$IDLELAB" sim --workload wake-latency --duration 20ms --runs 1 --format json --output "$TMP/r.json" ||
	bad "sim for compare"
"$IDLELAB" sim --workload sleep-sweep --runs 1 --format json --output "$TMP/s.json" || bad "sim for plot"

# an output that is an input (by name, another name or a link) is refused
# before anything is read or written: the input is left as it was
mkdir "$TMP/same"
cp "$FX/replay/haltpoll-small.log" "$TMP/same/r.log"
cp "$FX/replay/haltpoll-small.expect" "$TMP/same/r.exp"
cp "$FX/trace/hrtimer.trace" "$TMP/same/h.trace"
cp "$FX/batch/one.ini" "$TMP/same/one.ini"
cp "$TMP/r.json" "$TMP/same/r.json"
cp "$SRCDIR/platforms/kvm-haltpoll.ini" "$TMP/same/p.ini"
ln -s r.log "$TMP/same/link.log"
(cd "$TMP/same" && sha256sum * >"$TMP/same.sum")
S=$TMP/same
same_refused() {
	expect_exit 2 "$@"
	expect_err "the same file as"
}
same_refused "$IDLELAB" replay --governor haltpoll --output "$S/r.log" "$S/r.log"
same_refused "$IDLELAB" replay --governor haltpoll --output "$S/link.log" "$S/r.log"
same_refused "$IDLELAB" replay --governor haltpoll --output "$S/r.log" "$S/./link.log"
same_refused "$IDLELAB" replay --governor haltpoll --expect "$S/r.exp" --output "$S/r.exp" "$S/r.log"
same_refused "$IDLELAB" trace to-replay --states intel-haswell-ep -o "$S/h.trace" "$S/h.trace"
expect_err "idlelab: trace: -o $S/h.trace: the same file as the input $S/h.trace"
same_refused "$IDLELAB" trace whatif --governor menu --states intel-haswell-ep \
	--decisions "$S/h.trace" "$S/h.trace"
same_refused "$IDLELAB" trace to-replay --states intel-haswell-ep -o "$S/x.log" \
	--decisions "$S/x.log" "$S/h.trace"
same_refused "$IDLELAB" batch "$S/one.ini" --quiet --output "$S/one.ini"
same_refused "$IDLELAB" compare --output "$S/r.json" "$TMP/r.json" "$S/r.json"
same_refused "$IDLELAB" plot --metric above_pct --output "$S/r.json" "$S/r.json"
same_refused "$IDLELAB" sim --platform "$S/p.ini" --duration 20ms --output "$S/p.ini"
expect_err "idlelab: sim: --output $S/p.ini: the same file as the input $S/p.ini"
(cd "$TMP/same" && sha256sum -c --quiet "$TMP/same.sum") && ok || bad "an input was changed"
[ "$(ls "$TMP/same" | wc -l)" -eq 7 ] && ok || bad "left in the directory: $(ls "$TMP/same")"
# a built-in platform's name is not a file: an output of that name is written
(cd "$TMP/same" && "$IDLELAB" sim --platform kvm-haltpoll --workload wake-latency --duration 20ms \
	--runs 1 --output kvm-haltpoll) && [ -s "$TMP/same/kvm-haltpoll" ] && ok ||
	bad "sim --output named as the built-in platform"

WRITERS="replay sim compare plot"
# writer.sh NAME OUT: exec writer NAME with --output OUT (same PID, for the
# planted-link case; under ulimit and strace)
cat >"$TMP/writer.sh" <<'EOF2'
out=$2
case $1 in
replay) exec "$IDLELAB" replay --governor haltpoll --format csv --output "$out" "$FX/replay/haswell.log" ;;
sim) exec "$IDLELAB" sim --workload wake-latency --duration 20ms --runs 1 --format json --output "$out" ;;
compare) exec "$IDLELAB" compare --output "$out" "$TMP/r.json" "$TMP/r.json" ;;
plot) exec "$IDLELAB" plot --metric above_pct --output "$out" "$TMP/s.json" ;;
esac
exit 99
EOF2
export IDLELAB FX TMP
writer() { bash "$TMP/writer.sh" "$@"; }
for w in $WRITERS; do
	writer $w "$TMP/ref.$w" || bad "$w: reference output"
	[ "$(wc -c <"$TMP/ref.$w")" -gt 2048 ] && ok || bad "$w: reference output too small for the size-limit case"
done
# no_temporaries DIR...: nothing named *.tmp.* is left in DIR
no_temporaries() {
	for d in "$@"; do
		if ls -A "$d" | grep -q '\.tmp\.'; then bad "temporary left in $d: $(ls -A "$d")"; else ok; fi
	done
}

# --- D2: a symbolic link is followed to its target, and stays a link -------
for w in $WRITERS; do
	D="$TMP/link.$w"
	mkdir -p "$D/a" "$D/b"
	echo old >"$D/b/target"
	ln -s ../b/target "$D/a/link"
	expect_exit 0 writer $w "$D/a/link"
	[ -L "$D/a/link" ] && ok || bad "$w: the link was replaced"
	cmp -s "$D/b/target" "$TMP/ref.$w" && ok || bad "$w: the link's target was not written"
	# a dangling link creates its target
	ln -s ../b/new "$D/a/dangling"
	expect_exit 0 writer $w "$D/a/dangling"
	[ -L "$D/a/dangling" ] && cmp -s "$D/b/new" "$TMP/ref.$w" && ok || bad "$w: dangling link"
	no_temporaries "$D/a" "$D/b"
done

# --- D2: a FIFO is written to, not replaced -------------------------------
for w in $WRITERS; do
	F="$TMP/fifo.$w"
	mkfifo "$F"
	timeout 60 cat "$F" >"$TMP/got" &
	reader=$!
	expect_exit 0 writer $w "$F"
	# unfixed, the FIFO is renamed over and the reader waits: end it after 10 s
	for _ in $(seq 100); do kill -0 $reader 2>/dev/null || break; sleep 0.1; done
	kill $reader 2>/dev/null; wait $reader 2>/dev/null
	[ -p "$F" ] && ok || bad "$w: the FIFO was replaced by a regular file"
	cmp -s "$TMP/got" "$TMP/ref.$w" && ok || bad "$w: the FIFO's reader did not get the output"
done

# --- D2, D7: devices are written directly; ENOSPC is said -----------------
NULL=/dev/null FULL=/dev/full
if [ "$(id -u)" -eq 0 ]; then
	# root: nodes of our own, so that a regression cannot replace /dev's
	if mknod "$TMP/null" c 1 3 2>/dev/null && mknod "$TMP/full" c 1 7 2>/dev/null &&
		echo >"$TMP/null" 2>/dev/null; then
		NULL=$TMP/null FULL=$TMP/full
	else
		NULL= FULL=
		echo "skip: device cases (root, but no usable mknod here)"
	fi
fi
if [ -n "$NULL" ]; then
	for w in $WRITERS; do
		expect_exit 0 writer $w "$NULL"
		[ -c "$NULL" ] && ok || bad "$w: $NULL was replaced"
		expect_exit 1 writer $w "$FULL"
		expect_err "idlelab: $FULL: cannot write: No space left on device"
		[ -c "$FULL" ] && ok || bad "$w: $FULL was replaced"
	done
fi
# standard output on a full device
expect_exit 1 bash -c '"$IDLELAB" replay --governor haltpoll "$1" >/dev/full' _ "$FX/replay/haltpoll-small.log"
expect_err "idlelab: standard output: cannot write: No space left on device"
# every command: what it printed on a full standard output is an error, said once
SYS0="$FX/sysfs/kvm-haltpoll"
while read -r cmd; do
	# shellcheck disable=SC2086
	expect_exit 1 bash -c '"$IDLELAB" "$@" >/dev/full' _ $cmd
	expect_err "idlelab: standard output: cannot write"
	[ "$(grep -c 'standard output' "$TMP/err")" -eq 1 ] && ok || bad "$cmd: said $(grep -c 'standard output' "$TMP/err") times"
done <<EOF2
platforms
governors
platform show kvm-haltpoll --format json
info --sysfs-root $SYS0
doctor --root $FX/capture/kvm-haltpoll
trace report $FX/trace/basic.trace
scenario list
scenario show $FX/scenario/tiny.ini
compare $TMP/r.json
help sim
sim --help
--version
EOF2

# --- D3: a link planted at the old name NAME.tmp.PID is not followed -------
for w in $WRITERS; do
	D="$TMP/plant.$w"
	mkdir "$D"
	echo precious >"$D/victim"
	# the shell's PID is the writer's after exec: plant exactly where the old code wrote
	expect_exit 0 bash -c 'ln -s "$1" "$2.tmp.$$" && shift 2 && exec "$@"' _ "$D/victim" "$D/out" \
		bash "$TMP/writer.sh" $w "$D/out"
	[ "$(cat "$D/victim")" = precious ] && ok || bad "$w: the planted link's victim was overwritten"
	cmp -s "$D/out" "$TMP/ref.$w" && ok || bad "$w: output not written past the planted link"
done

# --- a replaced file keeps its mode; a new one gets 0666 less the umask ----
for w in $WRITERS; do
	echo old >"$TMP/mode.$w"
	chmod 640 "$TMP/mode.$w"
	expect_exit 0 writer $w "$TMP/mode.$w"
	[ "$(stat -c %a "$TMP/mode.$w")" = 640 ] && ok || bad "$w: mode not kept: $(stat -c %a "$TMP/mode.$w")"
	(umask 027; writer $w "$TMP/new.$w")
	[ "$(stat -c %a "$TMP/new.$w")" = 640 ] && ok || bad "$w: new file mode $(stat -c %a "$TMP/new.$w")"
done

# --- D7: a file-size limit is an error naming the file; the old file stays -
for w in $WRITERS; do
	echo old >"$TMP/big.$w"
	expect_exit 1 bash -c 'ulimit -f 1 && exec "$@"' _ bash "$TMP/writer.sh" $w "$TMP/big.$w"
	expect_err "idlelab: $TMP/big.$w: cannot write: File too large"
	[ "$(cat "$TMP/big.$w")" = old ] && ok || bad "$w: the old file was touched"
done
expect_exit 1 bash -c 'ulimit -f 1 && exec "$@" >"$0"' "$TMP/big.stdout" \
	"$IDLELAB" replay --governor haltpoll --format csv "$FX/replay/haswell.log"
expect_err "idlelab: standard output: cannot write: File too large"
no_temporaries "$TMP"

# --- D3, D7 for info --save ------------------------------------------------
SYS="$FX/sysfs/kvm-haltpoll"
mkdir "$TMP/victimdir"
expect_exit 0 bash -c 'ln -s "$1" "$2.tmp.$$" && shift 2 && exec "$@"' _ "$TMP/victimdir" "$TMP/save1" \
	"$IDLELAB" info --sysfs-root "$SYS" --save "$TMP/save1"
[ -z "$(ls -A "$TMP/victimdir")" ] && [ -f "$TMP/save1/cpuidle/current_driver" ] && ok ||
	bad "--save followed a planted link"
rm -f "$TMP"/save1.tmp.*
# a 4-byte limit (below "haltpoll\n"); messages go through a pipe, which no limit applies to
python3 -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (4, resource.RLIM_INFINITY))
os.execvp(sys.argv[1], sys.argv[1:])' "$IDLELAB" info --sysfs-root "$SYS" --save "$TMP/save2" 2>&1 | cat >"$TMP/err"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 1 ] && ok || bad "--save under a file-size limit: exit $rc"
expect_err "idlelab: $TMP/save2/cpuidle/current_driver: cannot write: File too large"
[ ! -e "$TMP/save2" ] && ok || bad "--save left its directory after a failure"
no_temporaries "$TMP"

# --- a name the file system takes, however long: its temporary fits too ---
long=$(printf 'n%.0s' $(seq 250))
for w in $WRITERS; do
	mkdir "$TMP/long.$w"
	expect_exit 0 writer $w "$TMP/long.$w/$long"
	cmp -s "$TMP/long.$w/$long" "$TMP/ref.$w" && ok || bad "$w: a 250-character name was not written"
	no_temporaries "$TMP/long.$w"
done
expect_exit 0 "$IDLELAB" info --sysfs-root "$SYS" --save "$TMP/$long"
[ -d "$TMP/$long" ] && ok || bad "--save: a 250-character name was not made"
no_temporaries "$TMP"
rm -rf "${TMP:?}/$long"

# --- D12: a signal while the temporary exists removes it -------------------
# strace injects the signal where the temporary is complete but not yet
# renamed (the rename fails with EINTR and the signal arrives).
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
	inject() { # SIG CMD...
		local sig=$1; shift
		# in a subshell whose stderr is quiet: no "Terminated" from bash
		(default_signals strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
			-e inject=rename,renameat,renameat2:signal=$sig:error=EINTR "$@"; exit $?) 2>/dev/null
	}
	for w in $WRITERS; do
		mkdir "$TMP/sig.$w"
		inject INT bash "$TMP/writer.sh" $w "$TMP/sig.$w/out"
		rc=$?
		[ $rc -eq 130 ] && ok || bad "$w: exit status $rc after SIGINT (want 130)"
		[ -z "$(ls -A "$TMP/sig.$w")" ] && ok || bad "$w: left after SIGINT: $(ls -A "$TMP/sig.$w")"
	done
	# SIGQUIT (^\) ends a process as SIGTERM does: the temporary goes too
	w=${WRITERS%% *}
	mkdir "$TMP/sigq.$w"
	(ulimit -c 0; inject QUIT bash "$TMP/writer.sh" $w "$TMP/sigq.$w/out")
	rc=$?
	[ $rc -eq 131 ] && ok || bad "$w: exit status $rc after SIGQUIT (want 131)"
	[ -z "$(ls -A "$TMP/sigq.$w")" ] && ok || bad "$w: left after SIGQUIT: $(ls -A "$TMP/sigq.$w")"
	mkdir "$TMP/sigsave"
	inject TERM "$IDLELAB" info --sysfs-root "$SYS" --save "$TMP/sigsave/out"
	rc=$?
	[ $rc -eq 143 ] && ok || bad "--save: exit status $rc after SIGTERM (want 143)"
	[ -z "$(ls -A "$TMP/sigsave")" ] && ok || bad "--save: left after SIGTERM: $(ls -A "$TMP/sigsave")"
else
	echo "skip: signal cases (no usable strace; tests/core/test_outfile.c covers the mechanism)"
fi
finish
