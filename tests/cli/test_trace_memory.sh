#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace check, whatif and to-replay hold no idle period: their memory does
# not grow with the trace (docs/design.md, "Traces in two passes"). 600000
# periods held would take 32 MiB (56 bytes each) and more; the peak resident
# set of a run over them may exceed that of a run over 1000 periods by 8 MiB
# at most (a difference: the floor is the forked python's own before its
# exec, and ASan's is higher).
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
P=intel-haswell-ep

# 4 CPUs, n periods each: entry and exit, the tick's hrtimer every fourth
gen() {
	awk -v n="$1" 'BEGIN { t = 100000000
	for (i = 0; i < n; i++) {
		for (c = 0; c < 4; c++) {
			ts = t + c
			if (i % 4 == 0) {
				printf "<idle>-0 [%03d] d.h1. %d.%06d: hrtimer_expire_entry: hrtimer=%d function=tick_nohz_handler now=%d000\n", c, ts / 1000000, ts % 1000000, c + 1, ts + 7000000000
				printf "<idle>-0 [%03d] d.h1. %d.%06d: hrtimer_start: hrtimer=%d function=tick_nohz_handler expires=%d000 softexpires=0 mode=ABS\n", c, ts / 1000000, ts % 1000000, c + 1, ts + 7000004000
			}
			printf "<idle>-0 [%03d] d..1. %d.%06d: cpu_idle: state=%d cpu_id=%d\n", c, ts / 1000000, ts % 1000000, (i + c) % 5, c
			ts += 20 + (i * 7 + c * 13) % 3000
			printf "<idle>-0 [%03d] dN.1. %d.%06d: cpu_idle: state=4294967295 cpu_id=%d\n", c, ts / 1000000, ts % 1000000, c
		}
		t += 3100
	} }'
}
gen 250 >"$TMP/small.trace"
gen 150000 >"$TMP/large.trace"

for cmd in "check --governor menu" "whatif --governor teo --decisions $TMP/dec" \
	"to-replay -o $TMP/log --decisions $TMP/dec"; do
	# shellcheck disable=SC2086
	run_rss "$I" trace $cmd --states $P "$TMP/small.trace"
	[ "$rc" -eq 0 ] && ok || { bad "trace $cmd (small): exit $rc"; cat "$TMP/err" >&2; }
	small=$rss
	[ -z "${small_check:-}" ] && small_check=$rss
	# shellcheck disable=SC2086
	run_rss "$I" trace $cmd --states $P "$TMP/large.trace"
	[ "$rc" -eq 0 ] && ok || { bad "trace $cmd (large): exit $rc"; cat "$TMP/err" >&2; }
	case $cmd in
	check*) expect_out ": 600000 idle periods" ;;
	to-replay*) [ "$(wc -l <"$TMP/log")" -gt 600000 ] && ok || bad "to-replay: short log" ;;
	esac
	[ "$((rss - small))" -lt 8192 ] && ok ||
		bad "trace $cmd: $small KiB for 1000 periods, $rss KiB for 600000"
done
# the same from a pipe (a temporary copy, not memory)
run_rss "$I" trace check --governor menu --states $P - < <(cat "$TMP/large.trace")
[ "$rc" -eq 0 ] && ok || bad "check of a pipe: exit $rc"
expect_out "-: 600000 idle periods"
[ "$((rss - small_check))" -lt 8192 ] && ok || bad "check of a pipe: $small_check KiB for 1000 periods, $rss KiB for 600000"
finish
