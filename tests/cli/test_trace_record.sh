#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab trace record and trace snapshot without a real tracefs: option
# errors (usage 2), the .dat refusal, a tracefs that is not there, events
# the kernel lacks on a fake tracefs (IDLELAB_TRACEFS), the instance
# removed and no output left after an error, and the snapshot lines of a
# saved sysfs tree (IDLELAB_SYSFS_ROOT). Recording itself is in
# test_trace_record_live.sh (suite 'live').
. "$SRCDIR/tests/cli/lib.sh"
cd "$SRCDIR" || exit 1
I=$IDLELAB
SYS=tests/fixtures/sysfs/kvm-haltpoll

# usage errors, before anything is looked at
expect_exit 2 "$I" trace record
expect_err "record needs -o FILE"
expect_exit 2 "$I" trace record -o "$TMP/x.dat"
expect_err "not trace-cmd .dat"
expect_exit 2 "$I" trace record -e power -o "$TMP/x"
expect_err "'power' is not SYS:EVENT"
expect_exit 2 "$I" trace record -e 'power:cpu/idle' -o "$TMP/x"
expect_err "is not SYS:EVENT"
expect_exit 2 "$I" trace record -e , -o "$TMP/x"
expect_err "no event in ','"
expect_exit 2 "$I" trace record --duration 2x -o "$TMP/x"
expect_err "--duration: '2x' is not a duration"
expect_exit 2 "$I" trace record --duration 0 -o "$TMP/x"
expect_exit 2 "$I" trace record --duration -1 -o "$TMP/x"
expect_err "--duration: '-1' is not a duration"
expect_exit 2 "$I" trace record --duration 100000 -o "$TMP/x"
expect_err "bare numbers: seconds, at most 86400)"
expect_exit 2 "$I" trace record --cpu 3-1 -o "$TMP/x"
expect_err "--cpu"
expect_exit 2 "$I" trace record --buffer-kb 0 -o "$TMP/x"
expect_err "--buffer-kb: '0'"
expect_exit 2 "$I" trace record --bogus -o "$TMP/x"
expect_err "unknown option '--bogus'"
expect_exit 2 "$I" trace snapshot
expect_err "snapshot needs start or end"
expect_exit 2 "$I" trace snapshot middle
expect_err "'middle' is not start or end"
[ ! -e "$TMP/x" ] && ok || bad "an output was left"

# built without libtracefs: a clear refusal, and nothing more to test here
IDLELAB_TRACEFS=$TMP/none "$I" trace record -o "$TMP/x" >"$TMP/out" 2>"$TMP/err"
if grep -q "built without libtracefs" "$TMP/err"; then
	ok
	echo "built without libtracefs: recording tests skipped"
else
	# no tracefs there
	expect_exit 1 env IDLELAB_TRACEFS="$TMP/none" "$I" trace record -o "$TMP/x"
	expect_err "$TMP/none: no tracefs there"
	# a tracefs this user may not read is not said to be missing (it told a
	# user without root to mount tracefs again)
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		mkdir -p "$TMP/locked/instances"; chmod 700 "$TMP/locked"
		expect_exit 1 env IDLELAB_TRACEFS="$TMP/locked" setpriv --reuid=65534 --regid=65534 \
			--clear-groups "$I" trace record -o /dev/null
		expect_err "$TMP/locked: cannot read it: Permission denied (tracing needs root)"
		if grep -q "no tracefs there" "$TMP/err"; then bad "a locked tracefs said missing"; else ok; fi
	fi

	# a fake tracefs with two events
	T=$TMP/tfs
	mkdir -p "$T/instances" "$T/events/power/cpu_idle" "$T/events/sched/sched_switch" \
		"$T/events/irq_vectors/reschedule_entry" "$T/events/irq_vectors/reschedule_exit"
	touch "$T/events/power/cpu_idle/enable" "$T/events/sched/sched_switch/enable" \
		"$T/events/irq_vectors/reschedule_entry/enable" \
		"$T/events/irq_vectors/reschedule_exit/enable"
	# a named event the kernel lacks is an error naming it; nothing is created
	expect_exit 1 env IDLELAB_TRACEFS="$T" "$I" trace record -e sched:sched_switch,power:nope \
		-o "$TMP/x"
	expect_err "event power:nope: not in this kernel (no $T/events/power/nope/enable)"
	expect_exit 1 env IDLELAB_TRACEFS="$T" "$I" trace record -e 'timer:*' -o "$TMP/x"
	expect_err "event timer:*: not in this kernel"
	if grep -q "created" "$TMP/err"; then bad "an instance was created"; else ok; fi
	# defaults the kernel lacks are notes; this fake instance has no files, so
	# setting it up fails: the instance is removed and no output is left
	expect_exit 1 env IDLELAB_TRACEFS="$T" "$I" trace record -o "$TMP/x"
	expect_err "note: power:cpu_idle_miss not in this kernel: not recorded"
	expect_err "note: ipi:ipi_send_cpu not in this kernel: not recorded"
	if grep -q "irq_vectors" "$TMP/err"; then bad "irq_vectors:*_entry was there"; else ok; fi
	expect_err "created tracefs instance $T/instances/idlelab-record-"
	expect_err "tracing_on: cannot open"
	expect_err "removed tracefs instance $T/instances/idlelab-record-"
	[ -z "$(ls -A "$T/instances")" ] && ok || bad "instance left: $(ls "$T/instances")"
	[ -z "$(ls "$TMP" | grep '^x')" ] && ok || bad "output left: $(ls "$TMP")"
	# a --cpu CPU the machine does not have is refused before anything is made
	# (it was the kernel's "tracing_cpumask: cannot write '00000020': Value
	# too large for defined data type", after the instance was created)
	cp -r "$SYS" "$TMP/sysp"; chmod -R u+w "$TMP/sysp"; echo 0-1 >"$TMP/sysp/possible"
	expect_exit 2 env IDLELAB_TRACEFS="$T" IDLELAB_SYSFS_ROOT="$TMP/sysp" "$I" trace record --cpu 1,5 -o "$TMP/x"
	expect_err "--cpu 1,5: CPU 5 is not one of this machine's (possible: 0-1)"
	if grep -q "created" "$TMP/err"; then bad "an instance was created for CPU 5"; else ok; fi
	# an instance a recording killed with SIGKILL left (its PID runs no more; no PID
	# reaches 99999999) is removed and said; one whose PID runs (1) is left alone
	mkdir "$T/instances/idlelab-record-99999999" "$T/instances/idlelab-record-1"
	expect_exit 1 env IDLELAB_TRACEFS="$T" "$I" trace record -e 'timer:*' -o "$TMP/x"
	expect_err "removed tracefs instance $T/instances/idlelab-record-99999999, left by process 99999999, which no longer runs"
	[ ! -e "$T/instances/idlelab-record-99999999" ] && ok || bad "a dead run's instance left"
	[ -d "$T/instances/idlelab-record-1" ] && ok || bad "a running PID's instance removed"
	rmdir "$T/instances/idlelab-record-1"
	# stderr a pipe nobody reads: the SIGPIPE of 'created tracefs instance'
	# removes the instance and the output's temporary, and is the exit status
	rc=$(IDLELAB_TRACEFS="$T" python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
print(subprocess.run(sys.argv[1:], stderr=w, stdout=subprocess.DEVNULL).returncode)' \
		"$I" trace record -e power:cpu_idle -o "$TMP/x")
	[ "$rc" = -13 ] && ok || bad "SIGPIPE: exit $rc (want -13, killed by SIGPIPE)"
	[ -z "$(ls -A "$T/instances")" ] && ok || bad "SIGPIPE: instance left: $(ls "$T/instances")"
	[ -z "$(ls "$TMP" | grep '^x')" ] && ok || bad "SIGPIPE: output left: $(ls "$TMP")"
	# without power:cpu_idle there is nothing to record
	rm -r "$T/events/power"
	expect_exit 1 env IDLELAB_TRACEFS="$T" "$I" trace record -o "$TMP/x"
	expect_err "power:cpu_idle: not in this kernel"
fi

# the snapshot lines of a saved tree, and trace report reading them as comments
cat >"$TMP/want" <<'END'
# idlelab-sysfs start cpu=0 state=0 name=POLL usage=0 time=0 above=0 below=0
# idlelab-sysfs start cpu=0 state=1 name=haltpoll_idle usage=51014 time=946371061 above=0 below=0
# idlelab-sysfs start cpu=1 state=0 name=POLL usage=0 time=0 above=0 below=0
# idlelab-sysfs start cpu=1 state=1 name=haltpoll_idle usage=86015 time=920573283 above=0 below=0
# idlelab-pmqos start cpu_dma_latency_us=-
# idlelab-pmqos start cpu=0 resume_latency_us=-
# idlelab-pmqos start cpu=1 resume_latency_us=-
# idlelab-cpuidle start driver=haltpoll governor=haltpoll
END
# PM QoS: /dev/cpu_dma_latency through IDLELAB_CPU_DMA_LATENCY (a missing file: "-")
# (IDLELAB_MODULE_ROOT: no module parameters, so no idlelab-param line)
Q="env IDLELAB_CPU_DMA_LATENCY=$TMP/no-dma IDLELAB_MODULE_ROOT=$TMP/no-mod"
expect_exit 0 $Q IDLELAB_SYSFS_ROOT="$SYS" "$I" trace snapshot start
expect_same "$TMP/want"
expect_exit 0 $Q IDLELAB_SYSFS_ROOT="$SYS" "$I" trace snapshot end -o "$TMP/end"
sed 's/ start / end /' "$TMP/want" | grep -v idlelab-cpuidle >"$TMP/want-end"
cp "$TMP/end" "$TMP/out"
expect_same "$TMP/want-end"
# a latency limit of 20 us (the s32 the device reads), CPU 0 asking for 0 us (sysfs "n/a"),
# CPU 1 for none ("0")
cp -r "$SYS" "$TMP/sysq"
mkdir -p "$TMP/sysq/cpu0/power" "$TMP/sysq/cpu1/power"
echo n/a >"$TMP/sysq/cpu0/power/pm_qos_resume_latency_us"
echo 0 >"$TMP/sysq/cpu1/power/pm_qos_resume_latency_us"
printf '\x14\x00\x00\x00' >"$TMP/dma"
expect_exit 0 env IDLELAB_CPU_DMA_LATENCY="$TMP/dma" IDLELAB_SYSFS_ROOT="$TMP/sysq" "$I" trace snapshot start
expect_out "# idlelab-pmqos start cpu_dma_latency_us=20"
expect_out "# idlelab-pmqos start cpu=0 resume_latency_us=n/a"
expect_out "# idlelab-pmqos start cpu=1 resume_latency_us=0"
# the governor's module parameters (haltpoll's) as the start saw them, for
# trace check: "# idlelab-param start MODULE.NAME=VALUE" (a missing one left out)
M=tests/fixtures/capture/kvm-haltpoll/sys/module
expect_exit 0 $Q IDLELAB_MODULE_ROOT="$M" IDLELAB_SYSFS_ROOT="$SYS" "$I" trace snapshot start
expect_out "# idlelab-param start haltpoll.guest_halt_poll_ns=0"
expect_out "# idlelab-param start haltpoll.guest_halt_poll_grow_start=50000"
expect_out "# idlelab-param start haltpoll.guest_halt_poll_allow_shrink=Y"
[ "$(grep -c '^# idlelab-param start haltpoll\.' "$TMP/out")" -eq 5 ] && ok ||
	bad "snapshot: 5 haltpoll parameters: $(cat "$TMP/out")"
expect_exit 0 $Q IDLELAB_MODULE_ROOT="$M" IDLELAB_SYSFS_ROOT="$SYS" "$I" trace snapshot end
if grep -q idlelab-param "$TMP/out"; then bad "parameters in the end lines"; else ok; fi
expect_exit 1 env IDLELAB_SYSFS_ROOT="$TMP/nothing" "$I" trace snapshot start
[ ! -s "$TMP/out" ] && ok || bad "output on an error"

# trace report's sysfs_* columns: end - start of those lines (basic.trace
# between hand-written snapshots; a value '-' leaves the state without them)
cat >"$TMP/want.csv" <<'END'
cpu,state,name,usage,time_us,above,below,min_us,avg_us,max_us,unfinished,sysfs_usage,sysfs_time_us,sysfs_above,sysfs_below
0,0,POLL,0,0,0,0,,,,0,0,0,0,0
0,1,C1,1,7593,0,1,7593.000,7593.000,7593.000,1,2,7600,0,1
0,2,C2,2,1961,1,0,956.000,980.500,1005.000,0,2,1961,1,0
1,0,POLL,1,194,0,0,194.000,194.000,194.000,0,1,194,0,0
1,1,C1,1,1884,0,0,1884.000,1884.000,1884.000,0,1,1884,0,0
1,2,C2,1,10002,0,0,10002.000,10002.000,10002.000,0,,,,
END
expect_exit 0 "$I" trace report tests/fixtures/trace/sysfs.trace --format csv
expect_same "$TMP/want.csv"
expect_exit 0 "$I" trace report tests/fixtures/trace/sysfs.trace
expect_out "sysfs_*: the kernel's counters, end - start"
# without the lines, no such columns
expect_exit 0 "$I" trace report tests/fixtures/trace/basic.trace --format csv
if grep -q sysfs "$TMP/out"; then bad "sysfs columns without a snapshot"; else ok; fi
# malformed lines name the line
sed 's/^\(# idlelab-sysfs start cpu=0 state=1 .*\)usage=20/\1usage=2x/' \
	tests/fixtures/trace/sysfs.trace >"$TMP/bad.trace"
expect_exit 1 "$I" trace report "$TMP/bad.trace"
expect_err "bad.trace:3: idlelab-sysfs line: bad usage="
sed 's/^# idlelab-sysfs start cpu=0 state=1/# idlelab-sysfs start cpu=0 state=99/' \
	tests/fixtures/trace/sysfs.trace >"$TMP/bad.trace"
expect_exit 1 "$I" trace report "$TMP/bad.trace"
expect_err "bad.trace:3: idlelab-sysfs line: bad state="
sed 's/^# idlelab-sysfs start cpu=0 state=1/# idlelab-sysfs middle cpu=0 state=1/' \
	tests/fixtures/trace/sysfs.trace >"$TMP/bad.trace"
expect_exit 1 "$I" trace report "$TMP/bad.trace"
expect_err "bad.trace:3: idlelab-sysfs line: not start or end"
[ ! -s "$TMP/out" ] && ok || bad "output on an error"
finish
