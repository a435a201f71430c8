# SPDX-License-Identifier: GPL-2.0-only
# Helpers for command-line tests: source this file. Needs $IDLELAB, $SRCDIR.
set -u
fails=0
passes=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { passes=$((passes + 1)); }

# default_signals CMD...: run CMD with SIGINT, SIGQUIT, SIGHUP and SIGTERM at
# their default actions, as a command started from a terminal has them. A
# suite started under nohup or as a background job passes some of them on
# ignored, and a non-interactive shell cannot undo that ("signals ignored
# upon entry to the shell cannot be trapped or reset", bash(1)); idlelab
# keeps an ignored signal ignored, as it should, so a test of what a signal
# does sets them here. It execs: the (sub)shell it runs in becomes CMD, so
# call it in ( ) or with &, and $! is CMD's pid.
default_signals() {
	exec python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
bad() { fails=$((fails + 1)); echo "FAIL: $*" >&2; }

# expect_exit CODE CMD...: run, keep stdout in $TMP/out, stderr in $TMP/err
expect_exit() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else bad "exit $got (want $want): $*"; cat "$TMP/err" >&2; fi
}
# run_rss CMD...: run as expect_exit does; exit code into $rc, max RSS in KiB into $rss
run_rss() {
	set -- $(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as o, open(sys.argv[2], "w") as e:
    rc = subprocess.call(sys.argv[3:], stdout=o, stderr=e)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$TMP/out" "$TMP/err" "$@")
	rc=$1 rss=$2
}
# expect_err TEXT: stderr of the last command contains TEXT
expect_err() { if grep -qF -- "$1" "$TMP/err"; then ok; else bad "stderr lacks '$1':"; cat "$TMP/err" >&2; fi; }
expect_out() { if grep -qF -- "$1" "$TMP/out"; then ok; else bad "stdout lacks '$1':"; cat "$TMP/out" >&2; fi; }
# expect_same FILE: stdout of the last command equals FILE
expect_same() {
	if diff -u "$1" "$TMP/out" >"$TMP/diff"; then ok; else bad "output differs from $1:"; cat "$TMP/diff" >&2; fi
}
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" -eq 0 ]
}
