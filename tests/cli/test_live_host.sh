#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor, capture, platform capture, info --save metadata, sweep and
# latency on the machine the suite runs on. Suite 'live' (make test-live):
# what doctor finds, the counters and the figures depend on this machine,
# and the restore check changes its governor while it runs (root).
# Skips (77) without cpuidle.
# Env: IDLELAB = the binary, SRCDIR = the source root.
. "$SRCDIR/tests/cli/lib.sh"
SYS=/sys/devices/system/cpu
if [ ! -d "$SYS/cpuidle" ]; then
	echo "SKIP: no cpuidle"
	exit 77
fi
ids() { python3 -c 'import json,sys; print(" ".join(sorted(f["id"] for f in json.load(open(sys.argv[1]))["findings"])))' "$1"; }

# --- doctor ------------------------------------------------------------------
expect_exit 0 "$IDLELAB" doctor --interval 0.2
expect_out "doctor: / (kernel $(cat /proc/sys/kernel/osrelease), driver $(cat $SYS/cpuidle/current_driver)"
expect_out "counters: over 0.2"
expect_exit 0 "$IDLELAB" doctor --interval 0 --format json
python3 -m json.tool "$TMP/out" >/dev/null && ok || bad "doctor json"
cp "$TMP/out" "$TMP/live.json"

# --- capture: the copy judged the same ----------------------------------------
expect_exit 0 "$IDLELAB" capture "$TMP/cap"
expect_out "captured "
for f in proc/cpuinfo proc/cmdline proc/sys/kernel/osrelease sys/devices/system/cpu/cpuidle/current_driver idlelab-meta.txt; do
	[ -f "$TMP/cap/$f" ] && ok || bad "capture lacks $f"
done
cmp -s /proc/cmdline "$TMP/cap/proc/cmdline" && ok || bad "cmdline differs"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/cap" --format json
[ "$(ids "$TMP/out")" = "$(ids "$TMP/live.json")" ] && ok ||
	bad "doctor on the capture: '$(ids "$TMP/out")', live: '$(ids "$TMP/live.json")'"

# --- info --save records when and what; --diff of two --------------------------
expect_exit 0 "$IDLELAB" info --save "$TMP/s1"
for k in format timestamp boottime_ns boot_id uptime_s kernel_release cmdline sysfs_root; do
	grep -q "^$k: " "$TMP/s1/idlelab-meta.txt" && ok || bad "--save metadata lacks $k"
done
grep -qx "kernel_release: $(cat /proc/sys/kernel/osrelease)" "$TMP/s1/idlelab-meta.txt" && ok ||
	bad "kernel_release"
# the module parameters and PM QoS this machine has
for m in cpuidle cpufreq haltpoll intel_idle processor; do
	for f in /sys/module/$m/parameters/*; do
		[ -r "$f" ] || continue
		grep -qxF "param.$m.$(basename "$f"): $(cat "$f")" "$TMP/s1/idlelab-meta.txt" && ok ||
			bad "--save metadata lacks param.$m.$(basename "$f")"
	done
done
if [ -r /dev/cpu_dma_latency ]; then
	grep -q "^pm_qos.cpu_dma_latency_us: [0-9]*$" "$TMP/s1/idlelab-meta.txt" && ok ||
		bad "--save metadata lacks pm_qos.cpu_dma_latency_us"
fi
grep -q "^pm_qos.holders: [0-9]*$" "$TMP/s1/idlelab-meta.txt" && ok || bad "--save metadata lacks pm_qos.holders"
sleep 0.2
expect_exit 0 "$IDLELAB" info --save "$TMP/s2"
expect_exit 0 "$IDLELAB" info --diff "$TMP/s1" "$TMP/s2"
# at least the 0.2 s slept between the two reads (more on a loaded machine)
grep -Eq '^interval: (0\.[2-9]|[1-9][0-9]*\.)[0-9]* s$' "$TMP/out" && ok || bad "--diff interval: $(cat "$TMP/out")"
if [ -d "$SYS/cpu0/cpuidle" ]; then
	expect_exit 0 "$IDLELAB" info --interval 0.1 --count 2 --csv
	[ "$(wc -l <"$TMP/out")" -gt 2 ] && ok || bad "info --interval"
else
	# cpuidle without a driver (current_driver "none"): no counters to watch
	expect_exit 1 "$IDLELAB" info --interval 0.1 --count 2 --csv
	expect_err "$SYS: no CPU has a cpuidle directory"
	[ -s "$TMP/out" ] && bad "info --interval without counters printed" || ok
fi

# --- platform capture: this machine simulated -----------------------------------
expect_exit 0 "$IDLELAB" platform capture -o "$TMP/me.ini" --name this-machine
expect_exit 0 "$IDLELAB" platform show "$TMP/me.ini"
expect_out "driver: $(cat $SYS/cpuidle/current_driver)"
expect_exit 0 "$IDLELAB" sim --platform "$TMP/me.ini" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 20ms --format csv

# --- sweep and latency on the machine; a changed governor written back -------------
if [ -d "$SYS/cpu1/cpuidle" ]; then
	expect_exit 0 "$IDLELAB" sweep --loops 20 --intervals 50,200 --format csv
	[ "$(wc -l <"$TMP/out")" -eq 3 ] && ok || bad "sweep rows: $(cat "$TMP/out")"
	expect_exit 0 "$IDLELAB" latency --samples 50 --gap 100us --format csv
	[ "$(wc -l <"$TMP/out")" -eq 5 ] && ok || bad "latency rows: $(cat "$TMP/out")"
	G=$SYS/cpuidle/current_governor
	orig=$(cat "$G")
	other=$(tr ' ' '\n' <"$SYS/cpuidle/available_governors" | grep -v "^$orig\$" | grep . | head -1)
	if [ -w "$G" ] && [ -n "$other" ]; then
		expect_exit 0 "$IDLELAB" latency --mode poll --samples 20 --gap 100us --governor "$other"
		expect_err "changed $G from '$orig' to '$other' (restored at exit)"
		expect_err "restored $G to '$orig'"
		[ "$(cat "$G")" = "$orig" ] && ok || { bad "governor not restored"; echo "$orig" >"$G"; }
	fi
fi
finish
