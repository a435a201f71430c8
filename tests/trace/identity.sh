#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace check, whatif and to-replay's identity matrix: run the same fixed set
# of commands with two idlelab binaries and compare every output byte for
# byte (standard output, standard error, exit code, the files -o and
# --decisions write, and what is left in their directory). A change to how
# the periods are read (held in memory, or streamed in two passes) must
# leave all of it unchanged.
#
#   tests/trace/identity.sh OLD_IDLELAB NEW_IDLELAB [WORKDIR]
#   tests/trace/identity.sh --run IDLELAB OUTDIR     (one binary)
#
# The matrix: the trace fixtures and traces of tests/trace/gen_trace.py,
# each format, governors menu, teo, teo@6.1, ladder, haltpoll (with
# --kernel-governor for whatif and to-replay), --cpu, --hz, --latency-req,
# --param, --decisions (a file and standard output), -o to a file and to
# standard output, input from standard input, a pipe and a FIFO, and the
# refusals: malformed and cut lines, NUL bytes, an over-long line, a CPU or
# state past the table, a loaded governor that returns a bad index or
# crashes (when the kernel-API layer builds), an empty trace.
# Exit 0 when identical, 1 when not, 2 on bad usage.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)

run_matrix() {
	local B=$1 O=$2 n=0
	mkdir -p "$O" || return 2
	rm -rf "${O:?}"/*
	local T="$O/in"
	mkdir -p "$T"
	local F=$SRC/tests/fixtures/trace S=$SRC/tests/fixtures/sysfs/kvm-haltpoll P=intel-haswell-ep
	local KG=$SRC/tests/fixtures/kgov
	python3 "$SRC/tests/trace/gen_trace.py" --cpus 4 --periods 300 >"$T/g4.trace"
	python3 "$SRC/tests/trace/gen_trace.py" --cpus 2 --periods 200 --states 2 --seed 5 >"$T/g2.trace"
	python3 "$SRC/tests/trace/gen_trace.py" --cpus 3 --periods 100 --plain --seed 9 >"$T/plain.trace"
	head -c 20000 "$T/g4.trace" >"$T/cut.trace"
	sed '200s/hrtimer=/hrtimr=/' "$T/g4.trace" >"$T/bad1.trace"
	awk '!done && NR >= 350 && /cpu_idle: state=[0-9] / { sub(/state=[0-9]/, "state=x"); done = 1 } { print }' \
		"$T/g4.trace" >"$T/bad2.trace"
	(head -300 "$T/g4.trace"; printf 'x\0y\n'; tail -5 "$T/g4.trace") >"$T/nul.trace"
	(head -100 "$T/g4.trace"; head -c 9000 /dev/zero | tr '\0' a; echo) >"$T/long.trace"
	sed 's/cpu_id=2$/cpu_id=9/; s/\[002\]/[009]/' "$T/g4.trace" >"$T/cpu9.trace"
	: >"$T/empty.trace"
	# time going back at line 250
	awk 'NR == 250 { sub(/: cpu_idle|: hrtimer|: tick|: sched|: irq|: guest/, "&") ; $0 = "          <idle>-0       [000] d..1.      1.000000: cpu_idle: state=1 cpu_id=0" } { print }' \
		"$T/g4.trace" >"$T/back.trace"
	local cases=()
	local tr g fmt
	for tr in "$F/hrtimer.trace" "$F/basic.trace" "$F/basic-trace-cmd.txt" "$F/sysfs.trace" \
		"$T/g4.trace" "$T/plain.trace" "$T/cut.trace"; do
		for g in menu teo teo@6.1 ladder haltpoll menu@5.4; do
			for fmt in table csv json; do
				cases+=("trace check --governor $g --states $P $tr --format $fmt")
				cases+=("trace whatif --governor $g --states $P $tr --format $fmt")
			done
			cases+=("trace whatif --governor $g --kernel-governor haltpoll --platform $P $tr --decisions @D")
			cases+=("trace check --governor $g --states $P $tr --cpu 1,3 --decisions @D")
		done
		cases+=("trace to-replay --states $P $tr -o @L")
		cases+=("trace to-replay --states $P $tr -o @L --cpu 0-1 --hz 100 --param foo=1")
		cases+=("trace to-replay --kernel-governor haltpoll --states $P $tr -o @L --decisions @D")
		cases+=("trace to-replay --kernel-governor menu --states $P $tr -o - --decisions -")
		cases+=("trace to-replay --states $P $tr -o @L --latency-req 5000")
		cases+=("trace to-replay --states $P $tr -o /dev/full --decisions /dev/null")
		cases+=("trace to-replay --states $P $tr -o /dev/null --decisions /dev/full")
		cases+=("trace whatif --governor menu --states $P $tr --decisions /dev/full")
	done
	for tr in "$F/haltpoll-window.trace" "$F/haltpoll-seed.trace" "$T/g2.trace"; do
		for g in haltpoll menu teo; do
			cases+=("trace check --governor $g --states $S $tr")
			cases+=("trace check --governor $g --states $S $tr --format json --latency-req 0")
			cases+=("trace whatif --governor $g --kernel-governor haltpoll --states $S $tr --format csv")
			cases+=("trace whatif --governor $g --states $S $tr --hz 100 --decisions -")
		done
		cases+=("trace check --governor haltpoll --param guest_halt_poll_ns=100000 --states $S $tr")
		cases+=("trace to-replay --kernel-governor haltpoll --states $S $tr -o @L")
	done
	for tr in "$T/bad1.trace" "$T/bad2.trace" "$T/nul.trace" "$T/long.trace" "$T/cpu9.trace" \
		"$T/empty.trace" "$T/back.trace" /dev/null "$T/nosuch.trace" "$F/hrtimer.trace"; do
		cases+=("trace check --governor menu --states kvm-haltpoll $tr")
		cases+=("trace check --governor menu --states $P $tr --format csv")
		cases+=("trace whatif --governor teo --states $P $tr --decisions @D")
		cases+=("trace to-replay --states $P $tr -o @L --decisions @D")
		cases+=("trace to-replay --states $P $tr -o @L --cpu 40")
		cases+=("trace to-replay --states $P $tr -o @L --cpu 40 --decisions @D")
		cases+=("trace to-replay --states $P $tr -o /nonexistent/dir/x.log --decisions @D")
		cases+=("trace to-replay --states $P $tr -o @L --decisions /nonexistent/dir/x.dec")
	done
	# loaded governors: a bad index and a crash at a period's line
	if "$B" trace check --governor "file:$KG/fixed.c" --states $P "$F/hrtimer.trace" >/dev/null 2>&1; then
		cases+=("trace check --governor file:$KG/bad-index.c --states $P $T/g4.trace")
		cases+=("trace whatif --governor file:$KG/crash.c --states $P $T/g4.trace --decisions @D")
		cases+=("trace to-replay --kernel-governor file:$KG/crash.c --states $P $T/g4.trace -o @L --decisions @D")
		cases+=("trace to-replay --kernel-governor file:$KG/bad-index.c --states $P $T/g4.trace -o - --decisions -")
		cases+=("trace whatif --governor file:$KG/fixed.c --states $P $T/g4.trace --decisions -")
	fi
	local c
	for c in "${cases[@]}"; do
		n=$((n + 1))
		local d="$O/$n"
		mkdir -p "$d/w"
		c=${c//@D/$d/w/dec}
		c=${c//@L/$d/w/log}
		echo "$c" >"$d/cmd"
		# shellcheck disable=SC2086
		(cd "$d/w" && "$B" $c >"$d/out" 2>"$d/err"; echo "exit $?" >>"$d/err")
		ls -A "$d/w" >"$d/ls"
	done
	# other kinds of input: standard input (a file and a pipe), a pipe as FILE, a FIFO
	for tr in "$T/g4.trace" "$F/hrtimer.trace" "$T/nul.trace" "$T/cut.trace"; do
		for sub in "check --governor menu" "whatif --governor teo --decisions @D" \
			"to-replay -o @L --decisions @D"; do
			for how in redirect pipe devstdin fifo; do
				n=$((n + 1))
				local d="$O/$n" s=${sub//@D/$O/$n/w/dec}
				s=${s//@L/$O/$n/w/log}
				mkdir -p "$d/w"
				echo "$how $tr $s" >"$d/cmd"
				case $how in
				redirect) "$B" trace $s --states $P - <"$tr" >"$d/out" 2>"$d/err" ;;
				pipe) cat "$tr" | "$B" trace $s --states $P - >"$d/out" 2>"$d/err" ;;
				devstdin) cat "$tr" | "$B" trace $s --states $P /dev/stdin >"$d/out" 2>"$d/err" ;;
				fifo)
					rm -f "$O/fifo"
					mkfifo "$O/fifo"
					cat "$tr" >"$O/fifo" &
					"$B" trace $s --states $P "$O/fifo" >"$d/out" 2>"$d/err" ;;
				esac
				echo "exit $?" >>"$d/err"
				wait
				sed -i "s|$O/fifo|FIFO|g" "$d/err" "$d/out"
				ls -A "$d/w" >"$d/ls"
			done
		done
	done
	rm -f "$O/fifo"
	rm -rf "$T"
	echo "$n cases"
}

if [ "${1:-}" = --run ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --run IDLELAB OUTDIR" >&2; exit 2; }
	run_matrix "$2" "$3"
	exit $?
fi
[ $# -ge 2 ] || { echo "usage: $0 OLD_IDLELAB NEW_IDLELAB [WORKDIR]" >&2; exit 2; }
W=${3:-$(mktemp -d)}
# the same directory names for both binaries: paths appear in messages
run_matrix "$1" "$W/run" || exit 2
mv "$W/run" "$W/old"
run_matrix "$2" "$W/run" || exit 2
mv "$W/run" "$W/new"
if diff -r "$W/old" "$W/new" >"$W/diff"; then
	echo "identical"
	exit 0
fi
head -50 "$W/diff"
echo "differs: $W/diff"
exit 1
