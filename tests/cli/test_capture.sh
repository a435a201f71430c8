#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab capture --root TREE OUT: the copy holds the tree's files (the
# known names only, with their modes), reads back to the same doctor
# findings and info output; links, NUL bytes, FIFOs, hard links are left
# out and said; an existing OUT is refused; a write error leaves nothing.
# idlelab platform capture --root TREE: a platform file that loads and
# simulates, with the tree's facts.
# Env: IDLELAB = the binary, SRCDIR = the source root.
. "$SRCDIR/tests/cli/lib.sh"
FX="$SRCDIR/tests/fixtures/capture"
TREES="amd-zen3-dummy-wait amd-zen3-nocstates intel-haswell-cst intel-haswell-acpi power10-menu
       kvm-haltpoll kvm-nodriver intel-icx-states-off intel-icx-pm-qos intel-icx-teo
       intel-icx-healthy"

ids() { # ids ROOT: the doctor finding ids, sorted
	"$IDLELAB" doctor --root "$1" --format json |
		python3 -c 'import json,sys; print(" ".join(sorted(f["id"] for f in json.load(sys.stdin)["findings"])))'
}

# --- every tree: capture, read back the same --------------------------------
for t in $TREES; do
	expect_exit 0 "$IDLELAB" capture --root "$FX/$t" "$TMP/c-$t" || continue
	grep -q "^captured [0-9]* files of $FX/$t to $TMP/c-$t\$" "$TMP/out" && ok ||
		bad "$t: message: $(cat "$TMP/out")"
	[ -s "$TMP/err" ] && bad "$t: stderr: $(cat "$TMP/err")"
	# the same files (a fixture's READMEs and its metadata aside), byte for byte
	diff -r -x README.md -x idlelab-meta.txt "$FX/$t" "$TMP/c-$t" >"$TMP/diff" && ok ||
		{ bad "$t: the copy differs"; head -20 "$TMP/diff" >&2; }
	[ "$(ids "$FX/$t")" = "$(ids "$TMP/c-$t")" ] && ok || bad "$t: doctor differs on the copy"
	if [ -d "$FX/$t/sys/devices/system/cpu/cpu0/cpuidle" ]; then
		"$IDLELAB" info --sysfs-root "$FX/$t/sys/devices/system/cpu" >"$TMP/a"
		"$IDLELAB" info --sysfs-root "$TMP/c-$t/sys/devices/system/cpu" >"$TMP/b"
		cmp -s "$TMP/a" "$TMP/b" && ok || bad "$t: info differs on the copy"
	fi
	grep -qx "format: idlelab-meta 1" "$TMP/c-$t/idlelab-meta.txt" &&
		grep -q "^timestamp: ....-..-..T..:..:..\.[0-9]*Z$" "$TMP/c-$t/idlelab-meta.txt" &&
		grep -qx "root: $FX/$t" "$TMP/c-$t/idlelab-meta.txt" && ok ||
		bad "$t: metadata: $(cat "$TMP/c-$t/idlelab-meta.txt")"
done
# the holders a capture recorded are carried into the copy's metadata
grep -qx "pm_qos.holder: 2217 tuned" "$TMP/c-intel-icx-pm-qos/idlelab-meta.txt" && ok ||
	bad "holders not carried over"
# the metadata info --save writes on the machine (il_host_meta), here of a tree:
# uptime, release, command line, cpuidle and cpufreq module parameters, PM QoS
M="$TMP/c-intel-icx-pm-qos/idlelab-meta.txt"
for l in "uptime_s: 86400.00" "kernel_release: 6.12.0-55.9.1.el10_0.x86_64" \
	"cmdline: $(cat "$FX/intel-icx-pm-qos/proc/cmdline")" "param.cpuidle.off: 0" \
	"param.intel_idle.max_cstate: 9" "param.cpufreq.default_governor: schedutil" \
	"param.cpufreq.off: 0" "pm_qos.cpu_dma_latency_us: 1" "pm_qos.holders: 1"; do
	grep -qxF "$l" "$M" && ok || bad "capture metadata lacks '$l'"
done
# a copy keeps its source's clock: info --diff of two copies (made in the
# other order) takes the interval from when the sources were read
for n in 1 2; do
	cp -r "$FX/kvm-haltpoll" "$TMP/src$n"
	chmod -R u+w "$TMP/src$n"
	sed -i "s/^boottime_ns: .*/boottime_ns: $((1000000000 + n * 2000000000))/" "$TMP/src$n/idlelab-meta.txt"
done
"$IDLELAB" capture --root "$TMP/src2" "$TMP/copy2" >/dev/null
"$IDLELAB" capture --root "$TMP/src1" "$TMP/copy1" >/dev/null
grep -qx "boottime_ns: 3000000000" "$TMP/copy1/idlelab-meta.txt" && ok ||
	bad "the copy's boottime_ns: $(grep boottime "$TMP/copy1/idlelab-meta.txt")"
expect_exit 0 "$IDLELAB" info --diff "$TMP/copy1" "$TMP/copy2"
expect_out "interval: 2.000 s"
expect_out "a: $TMP/copy1 ($(sed -n 's/^timestamp: //p' "$FX/kvm-haltpoll/idlelab-meta.txt"))"
# a source without metadata: no boottime_ns made up from this machine's clock
grep -q "^boottime_ns:" "$TMP/c-intel-icx-healthy/idlelab-meta.txt" &&
	bad "a boottime_ns for a tree that recorded none" || ok
# modes: the cpuidle files the kernel's, every other file 0444, directories 0755
find "$TMP/c-intel-icx-healthy" -type f -printf '%m %P\n' | awk '
	{ want = ($2 ~ /cpuidle\/state[0-9]+\/disable$/ || $2 ~ /cpuidle\/current_governor$/) ? "644" : "444" }
	$1 != want { print "mode " $1 " of " $2 " (want " want ")"; bad = 1 }
	END { exit bad }' >"$TMP/modes" && ok || bad "capture modes: $(cat "$TMP/modes")"
[ -z "$(find "$TMP/c-intel-icx-healthy" -type d ! -perm 755)" ] && ok || bad "directory modes"

# --- what a capture does not copy -----------------------------------------
cp -r "$FX/intel-icx-healthy" "$TMP/h"
echo secret >"$TMP/outside"
rm "$TMP/h/proc/cmdline"
ln -s "$TMP/outside" "$TMP/h/proc/cmdline"                  # a link to outside
printf 'Linux\0version\n' >"$TMP/h/proc/version"            # a NUL byte
rm "$TMP/h/proc/uptime"; mkfifo "$TMP/h/proc/uptime"        # a FIFO: never opened
rm "$TMP/h/proc/sys/kernel/random/boot_id"
ln "$TMP/outside" "$TMP/h/proc/sys/kernel/random/boot_id"   # a hard link
echo junk >"$TMP/h/proc/unknown-file"                       # not a known name
expect_exit 1 timeout 20 "$IDLELAB" capture --root "$TMP/h" "$TMP/hc"
expect_err "$TMP/h/proc/cmdline: symbolic link: not followed (the kernel has none here)"
expect_err "$TMP/h/proc/version: holds a NUL byte: not kernel text, left out of the copy"
expect_err "$TMP/h/proc/uptime: not a regular file: not a kernel file"
expect_err "$TMP/h/proc/sys/kernel/random/boot_id: has 2 hard links: not a kernel file"
for f in proc/cmdline proc/version proc/uptime proc/sys/kernel/random/boot_id proc/unknown-file README.md; do
	[ -e "$TMP/hc/$f" ] && bad "$f copied" || ok
done
! grep -rq secret "$TMP/hc" && ok || bad "a file from outside the root was copied"
[ -f "$TMP/hc/proc/cpuinfo" ] && ok || bad "the rest is still copied"
# an existing OUT is refused before anything is read; no temporary is left
mkdir "$TMP/exists"
expect_exit 1 "$IDLELAB" capture --root "$FX/kvm-haltpoll" "$TMP/exists"
expect_err "$TMP/exists: already exists (will not overwrite)"
[ -z "$(ls "$TMP/exists")" ] && ok || bad "wrote into an existing directory"
# a write error (a file-size limit smaller than cpuinfo) leaves nothing behind
mkdir -p "$TMP/lim"
(ulimit -f 1; "$IDLELAB" capture --root "$FX/kvm-haltpoll" "$TMP/lim/out" >"$TMP/out" 2>"$TMP/err")
rc=$?
[ $rc -eq 1 ] && grep -q "cannot write: File too large" "$TMP/err" && [ -z "$(ls "$TMP/lim")" ] &&
	ok || bad "file-size limit: rc $rc, $(cat "$TMP/err"), left: $(ls "$TMP/lim")"
# usage
expect_exit 2 "$IDLELAB" capture
expect_err "missing the directory to write"
expect_exit 2 "$IDLELAB" capture a b
expect_err "unexpected argument 'b'"
expect_exit 1 "$IDLELAB" capture --root "$TMP/nosuch" "$TMP/x"
expect_err "$TMP/nosuch: cannot open: No such file or directory"
[ -e "$TMP/x" ] && bad "output on a refusal" || ok

# --- platform capture of every tree: loads, shows its facts, simulates ------
for t in $TREES; do
	expect_exit 0 "$IDLELAB" platform capture --root "$FX/$t" --name "$t" -o "$TMP/$t.ini" || continue
	[ -s "$TMP/out" ] && bad "$t: platform capture -o printed something"
	expect_exit 0 "$IDLELAB" platform show "$TMP/$t.ini"
	expect_out "platform: $t ("
	expect_exit 0 "$IDLELAB" sim --platform "$TMP/$t.ini" --wl-opt loops=2 --wl-opt intervals=10,100 --duration 20ms --format csv
	[ "$(wc -l <"$TMP/out")" -gt 1 ] && ok || bad "$t: sim printed no rows"
done
# ACPI CPPC capabilities (AMD's frequency invariance): CPU 0's values, and preferred cores when
# highest_perf differs between CPUs; freq_max then follows by hand: (255 x 1024 / 177 + 1024) >> 1
# = (1475 + 1024) >> 1 = 1249, 2450 MHz x 1249 / 1024 = 2988.33 MHz at 5.19
rm -rf "$TMP/pc"; cp -r "$FX/amd-zen3-dummy-wait" "$TMP/pc"; chmod -R u+w "$TMP/pc"
for c in "$TMP"/pc/sys/devices/system/cpu/cpu[0-9]*; do
	mkdir -p "$c/acpi_cppc"; echo 255 >"$c/acpi_cppc/highest_perf"; echo 177 >"$c/acpi_cppc/nominal_perf"
done
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/cppc.ini"
grep -q '^cppc_highest_perf = 255$' "$TMP/cppc.ini" && grep -q '^cppc_nominal_perf = 177$' "$TMP/cppc.ini" &&
	grep -q '^cppc_preferred_cores = no$' "$TMP/cppc.ini" && ok || bad "CPPC values not captured"
expect_exit 0 "$IDLELAB" platform show "$TMP/cppc.ini" --kernel 5.19
expect_out "freq_max: 2988.33 MHz"
# _CPC's nominal frequency (CPPC v3): acpi-cpufreq's cpuinfo.max_freq from 6.16 is
# 2450000 kHz x (255 x 1024 / 177 = 1475) >> 10 = 3613750000 / 1024 = 3529052 kHz
echo 2450 >"$TMP/pc/sys/devices/system/cpu/cpu0/acpi_cppc/nominal_freq"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/cppc.ini"
grep -q '^cppc_nominal_freq = 2450$' "$TMP/cppc.ini" && ok || bad "nominal_freq not captured"
expect_exit 0 "$IDLELAB" platform show "$TMP/cppc.ini" --kernel 6.18
expect_out "acpi-cpufreq cpuinfo.max_freq: 3529052 kHz"
rm "$TMP/pc/sys/devices/system/cpu/cpu0/acpi_cppc/nominal_freq"
echo 230 >"$TMP/pc/sys/devices/system/cpu/cpu1/acpi_cppc/highest_perf"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/cppc.ini"
grep -q '^cppc_preferred_cores = yes$' "$TMP/cppc.ini" && ok || bad "preferred cores not seen"
rm "$TMP/pc/sys/devices/system/cpu/cpu1/acpi_cppc/highest_perf"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/cppc.ini"
grep -q '^cppc_preferred_cores' "$TMP/cppc.ini" && bad "preferred cores guessed from some CPUs" || ok
grep -q '^cppc_highest_perf = 255$' "$TMP/cppc.ini" && ok || bad "CPU 0's value lost"
# without the files (every fixture tree): no keys
grep -q '^cppc_' "$TMP/amd-zen3-dummy-wait.ini" && bad "CPPC keys without acpi_cppc files" || ok
# a write error of -o (a file-size limit smaller than the file) leaves no file
mkdir -p "$TMP/plim"
(ulimit -f 1; "$IDLELAB" platform capture --root "$FX/amd-zen3-dummy-wait" -o "$TMP/plim/p.ini" \
	>"$TMP/out" 2>"$TMP/err")
rc=$?
[ $rc -eq 1 ] && grep -q "p.ini: cannot write: File too large" "$TMP/err" && [ -z "$(ls -A "$TMP/plim")" ] &&
	ok || bad "platform capture -o, file-size limit: rc $rc, $(cat "$TMP/err"), left: $(ls -A "$TMP/plim")"
# a state whose latency or residency cannot be read is no table to write: exit 1, no file
for f in latency residency; do
	rm -rf "$TMP/pc"; cp -r "$FX/intel-icx-healthy" "$TMP/pc"
	rm "$TMP/pc/sys/devices/system/cpu/cpu0/cpuidle/state3/$f"
	expect_exit 1 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/pc.ini"
	expect_err "$TMP/pc/sys/devices/system/cpu/cpu0/cpuidle/state3/$f: missing"
	expect_err "cpu0/cpuidle/state3/$f: not read: no state table to write"
	[ -e "$TMP/pc.ini" ] && bad "platform capture wrote a table without state3's $f" || ok
done
echo 99999999999999999999999 >"$TMP/pc/sys/devices/system/cpu/cpu0/cpuidle/state3/residency"
expect_exit 1 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/pc.ini"
[ -e "$TMP/pc.ini" ] && bad "platform capture wrote a table with a residency out of range" || ok
# -o naming a file of the tree read would replace what is read
rm -rf "$TMP/pc"; cp -r "$FX/intel-icx-healthy" "$TMP/pc"
cp "$TMP/pc/proc/cpuinfo" "$TMP/cpuinfo.orig"
expect_exit 2 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/pc/proc/cpuinfo"
expect_err "a file of the tree read (--root $TMP/pc): writing it would replace what is read"
cmp -s "$TMP/pc/proc/cpuinfo" "$TMP/cpuinfo.orig" && ok || bad "platform capture -o replaced the tree's cpuinfo"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/pc" -o "$TMP/pc/new.ini"
# the facts each tree shows
"$IDLELAB" platform show "$TMP/kvm-haltpoll.ini" >"$TMP/out"
expect_out "cpus: 2 (1 package x 2 cores x 1 threads), HZ=250"
expect_out "kernel: 6.18"
expect_out "driver: haltpoll (preferred governor haltpoll)"
expect_out "governor: haltpoll"
expect_out "haltpoll.guest_halt_poll_ns=0"
grep -qx "hypervisor = kvm" "$TMP/kvm-haltpoll.ini" && ok || bad "kvm guest: hypervisor"
# a KVM guest told by KVM's CPUID leaves (the capture's kvm_cpuid), its hint
grep -qx "hypervisor = kvm" "$TMP/kvm-nodriver.ini" && grep -qx "kvm_hints_realtime = no" "$TMP/kvm-nodriver.ini" &&
	ok || bad "kvm-nodriver: $(grep -A3 hypervisor "$TMP/kvm-nodriver.ini")"
"$IDLELAB" platform show "$TMP/kvm-nodriver.ini" >"$TMP/out"
expect_out "driver: none (no cpuidle driver registers)"
expect_out "  haltpoll: not loaded: no KVM_HINTS_REALTIME and cpuidle_haltpoll.force is not set"
expect_out "  intel_idle: model 0xcf (Sapphire Rapids table) without MWAIT: not loaded (the hypervisor does not"
rm -rf "$TMP/rt"; cp -r "$FX/kvm-nodriver" "$TMP/rt"; chmod -R u+w "$TMP/rt"
sed -i 's/^kvm_cpuid: .*/kvm_cpuid: base=0x40000100 hints=0x1/' "$TMP/rt/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/rt" -o "$TMP/rt.ini"
grep -qx "kvm_hints_realtime = yes" "$TMP/rt.ini" && ok || bad "hint set: $(grep -A3 hypervisor "$TMP/rt.ini")"
"$IDLELAB" platform show "$TMP/rt.ini" >"$TMP/out"
expect_out "driver: haltpoll (preferred governor haltpoll)"
expect_out "  haltpoll: loaded (KVM_HINTS_REALTIME)"
# a malformed kvm_cpuid line tells nothing: the clocksource (tsc here) decides
sed -i 's/^kvm_cpuid: .*/kvm_cpuid: base=0x4000zz00 hints=0x1/' "$TMP/rt/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/rt" -o "$TMP/rt.ini"
grep -qx "hypervisor = yes" "$TMP/rt.ini" && ok || bad "malformed kvm_cpuid: $(grep -A3 hypervisor "$TMP/rt.ini")"
# so does a base kvm_cpuid_base() cannot find (not 0x40000000 + k * 0x100
# below 0x40010000): the line is not of KVM's leaves
for b in 0x0 0x40000001 0x40000080 0x40010000 0x3fffff00 0xffffff00; do
	sed -i "s/^kvm_cpuid: .*/kvm_cpuid: base=$b hints=0x1/" "$TMP/rt/idlelab-meta.txt"
	expect_exit 0 "$IDLELAB" platform capture --root "$TMP/rt" -o "$TMP/rt.ini"
	grep -qx "hypervisor = yes" "$TMP/rt.ini" && ok || bad "kvm_cpuid base=$b: $(grep -A3 hypervisor "$TMP/rt.ini")"
done
sed -i "s/^kvm_cpuid: .*/kvm_cpuid: base=0x4000ff00 hints=0x1/" "$TMP/rt/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/rt" -o "$TMP/rt.ini"
grep -qx "kvm_hints_realtime = yes" "$TMP/rt.ini" && ok || bad "kvm_cpuid base=0x4000ff00: $(grep -A3 hypervisor "$TMP/rt.ini")"
# capture --root passes the line on as it reads it: the same value in the
# written form, a line that does not read left out (as cpuid5's)
sed -i "s/^kvm_cpuid: .*/kvm_cpuid: base=0x4000FF00 hints=0x001/" "$TMP/rt/idlelab-meta.txt"
rm -rf "$TMP/rtc"; expect_exit 0 "$IDLELAB" capture --root "$TMP/rt" "$TMP/rtc"
grep -qx "kvm_cpuid: base=0x4000ff00 hints=0x1" "$TMP/rtc/idlelab-meta.txt" && ok ||
	bad "capture --root kvm_cpuid: $(grep kvm_cpuid "$TMP/rtc/idlelab-meta.txt")"
sed -i "s/^kvm_cpuid: .*/kvm_cpuid: base=0x4000zz00 hints=0x1/" "$TMP/rt/idlelab-meta.txt"
rm -rf "$TMP/rtc"; expect_exit 0 "$IDLELAB" capture --root "$TMP/rt" "$TMP/rtc"
grep -q "^kvm_cpuid" "$TMP/rtc/idlelab-meta.txt" && bad "capture --root kept a malformed kvm_cpuid" || ok
sed -i "s/^kvm_cpuid: .*/kvm_cpuid: none/" "$TMP/rt/idlelab-meta.txt"
rm -rf "$TMP/rtc"; expect_exit 0 "$IDLELAB" capture --root "$TMP/rt" "$TMP/rtc"
grep -qx "kvm_cpuid: none" "$TMP/rtc/idlelab-meta.txt" && ok || bad "capture --root kvm_cpuid none"
"$IDLELAB" platform show "$TMP/amd-zen3-dummy-wait.ini" >"$TMP/out"
# (the state table is wider than 100 columns: two slices, state and name in both)
grep -Eq '^ +2 +C2 +ACPI IOPORT 0x814 +30 +60 ' "$TMP/out" &&
	grep -Eq '^ +2 +C2 .* ioport 0x814 ' "$TMP/out" && ok || bad "ioport C2: $(cat "$TMP/out")"
expect_out "cpus: 256 (1 package x 128 cores x 2 threads), HZ=250"
"$IDLELAB" platform show "$TMP/intel-haswell-cst.ini" >"$TMP/out"
grep -Eq '^ +4 +C6 +MWAIT 0x20 +133 +400 +1$' "$TMP/out" &&
	grep -Eq '^ +4 +C6 +disabled +OFF +mwait 0x20 ' "$TMP/out" && ok || bad "C6 off: $(cat "$TMP/out")"
"$IDLELAB" platform show "$TMP/power10-menu.ini" >"$TMP/out"
expect_out "cpus: 160 (1 package x 20 cores x 8 threads), HZ=100"
grep -Eq '^ +1 +CEDE +CEDE +12 +120 ' "$TMP/out" && grep -Eq '^ +1 +CEDE .* cede ' "$TMP/out" && ok || bad "CEDE: $(cat "$TMP/out")"
grep -qx "shared_processor = no" "$TMP/power10-menu.ini" && ok || bad "dedicated LPAR"
# snooze is a polling state from 6.2 (5ddcc03a07ae); a 6.1 capture spins in it
# without the flag, as pseries_idle of 6.1 registered it
awk '/^\[state.0\]/ { s = 1; next } /^\[/ { s = 0 } s && /^(flags|entry) =/' \
	"$TMP/power10-menu.ini" | tr '\n' ' ' | grep -qx "flags = POLLING entry = poll " && ok ||
	bad "6.10 snooze: $(grep -A9 '^\[state.0\]' "$TMP/power10-menu.ini")"
cp -r "$FX/power10-menu" "$TMP/p10-61"
echo 6.1.0 >"$TMP/p10-61/proc/sys/kernel/osrelease"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/p10-61" -o "$TMP/p10-61.ini"
grep -qx "release = 6.1" "$TMP/p10-61.ini" && ok || bad "6.1 capture: no release line"
awk '/^\[state.0\]/ { s = 1; next } /^\[/ { s = 0 } s && /^(flags|entry) =/' \
	"$TMP/p10-61.ini" | tr '\n' ' ' | grep -qx "entry = poll " && ok ||
	bad "6.1 snooze: $(grep -A9 '^\[state.0\]' "$TMP/p10-61.ini")"
expect_exit 0 "$IDLELAB" platform show "$TMP/p10-61.ini"
grep -Eq '^ +0 +snooze .* enabled +- +poll ' "$TMP/out" && ok || bad "6.1 snooze shown: $(cat "$TMP/out")"
"$IDLELAB" platform show "$TMP/amd-zen3-nocstates.ini" >"$TMP/out"
expect_out "driver: none (no cpuidle driver registers)"
expect_out "default idle: default_idle (hlt)"
# the same file from the same tree (apart from the time it was written)
"$IDLELAB" platform capture --root "$FX/intel-icx-healthy" --name x | grep -v "T..:..:..Z" >"$TMP/p1"
"$IDLELAB" platform capture --root "$FX/intel-icx-healthy" --name x | grep -v "T..:..:..Z" >"$TMP/p2"
cmp -s "$TMP/p1" "$TMP/p2" && ok || bad "platform capture is not repeatable"
# CPUID leaf 5: a tree has no record of it; the live machine on x86 gives it by the instruction
grep -qF "is not in /proc/cpuinfo and the tree did not record it: left at 0" "$TMP/p1" && ok ||
	bad "capture of a tree: no word on CPUID leaf 5"
# a tree whose capture recorded it (idlelab-meta.txt's cpuid5 line)
rm -rf "$TMP/c5"; cp -r "$FX/intel-icx-healthy" "$TMP/c5"
echo "cpuid5: ecx=0x3 edx=0x2020" >>"$TMP/c5/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" platform capture --root "$TMP/c5"
expect_out "; CPUID leaf 5 as the tree's idlelab-meta.txt recorded it"
expect_out "cpuid5_edx = 0x2020"
# a line that is not what idlelab writes is no record: 0, said so
for bad in "ecx=0x3" "ecx=0x3 edx=zz" "ecx=0x3 edx=0x123456789" "ecx=3 edx=0x2020" "ecx=0x3 edx=0x2020 x"; do
	rm -rf "$TMP/c5"; cp -r "$FX/intel-icx-healthy" "$TMP/c5"
	echo "cpuid5: $bad" >>"$TMP/c5/idlelab-meta.txt"
	expect_exit 0 "$IDLELAB" platform capture --root "$TMP/c5"
	expect_out "and the tree did not record it: left at 0"
done
if [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ]; then
	# (whatever this machine's values and idle states: only the line's form is checked)
	if "$IDLELAB" platform capture --name live >"$TMP/live.ini" 2>/dev/null; then
		grep -q '^cpuid5_edx = 0x[0-9a-f]*$' "$TMP/live.ini" && ok ||
			bad "live capture on x86: no cpuid5_edx: $(grep -i cpuid "$TMP/live.ini")"
	fi
fi
# every line within the platform format's 196 characters
awk 'length > 196 { print FILENAME ": " length; bad = 1 } END { exit bad }' "$TMP"/*.ini && ok ||
	bad "a platform line is too long"
expect_exit 2 "$IDLELAB" platform capture --root "$FX/kvm-haltpoll" --name "my box"
expect_err "--name: platform name 'my box': letters, digits, '-', '_', '.' only"
expect_exit 2 "$IDLELAB" platform capture --root "$FX/kvm-haltpoll" extra
expect_err "capture: unexpected argument 'extra'"
expect_exit 2 "$IDLELAB" platform frobnicate
expect_err "unknown subcommand 'frobnicate' (show, history, capture)"
# --- a tree that is no machine's: refused, nothing written ------------------
# (an empty directory, and one with sys/devices/system/cpu but no cpu<N>/:
# read as a machine, they made a platform file sim refuses and a capture)
mkdir -p "$TMP/empty" "$TMP/nocpus/sys/devices/system/cpu"
for t in empty nocpus; do
	expect_exit 1 "$IDLELAB" platform capture --root "$TMP/$t" -o "$TMP/$t.ini"
	expect_err "$TMP/$t: not a machine's tree: no"
	[ -e "$TMP/$t.ini" ] && bad "platform capture of $t wrote a file" || ok
	expect_exit 1 "$IDLELAB" platform capture --root "$TMP/$t"
	[ -s "$TMP/out" ] && bad "platform capture of $t printed: $(cat "$TMP/out")" || ok
	expect_exit 1 "$IDLELAB" capture --root "$TMP/$t" "$TMP/$t-copy"
	expect_err "$TMP/$t: not a machine's tree: no"
	[ -e "$TMP/$t-copy" ] && bad "capture of $t wrote a copy" || ok
done
expect_err "no CPU (cpu<N>/) in sys/devices/system/cpu"
# a link on the way to the CPU directory is not followed
mkdir -p "$TMP/linked/sys/devices/system"
ln -s "$FX/kvm-haltpoll/sys/devices/system/cpu" "$TMP/linked/sys/devices/system/cpu"
expect_exit 1 "$IDLELAB" platform capture --root "$TMP/linked" -o "$TMP/linked.ini"
expect_err "not a machine's tree: a symbolic link on the way to sys/devices/system/cpu"
[ -e "$TMP/linked.ini" ] && bad "platform capture through a link wrote a file" || ok
# a tree read as a machine whose platform file would not load (two states of
# one name): refused before -o is written, as sim --platform would refuse it
cp -r "$FX/kvm-haltpoll" "$TMP/dup"
chmod -R u+w "$TMP/dup"
for c in 0 1; do
	cp -r "$TMP/dup/sys/devices/system/cpu/cpu$c/cpuidle/state1" \
		"$TMP/dup/sys/devices/system/cpu/cpu$c/cpuidle/state2"
done
expect_exit 1 "$IDLELAB" platform capture --root "$TMP/dup" -o "$TMP/dup.ini"
expect_err "$TMP/dup: cannot make a platform of it: the captured platform:"
expect_err "duplicate state name 'haltpoll idle'"
[ -e "$TMP/dup.ini" ] && bad "platform capture wrote a file sim refuses" || ok

# a file every cpuidle kernel has (usage) missing from the tree: reported and
# exit 1 as info reports it, the copy still written (it was copied in silence,
# exit 0, into a tree info and doctor then call damaged); info --save the same
cp -r "$FX/kvm-haltpoll" "$TMP/nousage"; chmod -R u+w "$TMP/nousage"
rm "$TMP/nousage/sys/devices/system/cpu/cpu1/cpuidle/state1/usage"
expect_exit 1 "$IDLELAB" capture --root "$TMP/nousage" "$TMP/nousage.cap"
expect_err "$TMP/nousage/sys/devices/system/cpu/cpu1/cpuidle/state1/usage: missing"
[ -d "$TMP/nousage.cap/sys/devices/system/cpu/cpu1/cpuidle/state1" ] && ok || bad "capture: no copy"
expect_exit 1 "$IDLELAB" info --sysfs-root "$TMP/nousage/sys/devices/system/cpu" --save "$TMP/nousage.save"
expect_err "$TMP/nousage/sys/devices/system/cpu/cpu1/cpuidle/state1/usage: missing"
[ -d "$TMP/nousage.save/cpu1/cpuidle/state1" ] && ok || bad "info --save: no copy"
# above, below (kernels before 5.x lack them) are not required
rm "$TMP/nousage/sys/devices/system/cpu/cpu0/cpuidle/state1/above"
echo 5 >"$TMP/nousage/sys/devices/system/cpu/cpu1/cpuidle/state1/usage"
expect_exit 0 "$IDLELAB" capture --root "$TMP/nousage" "$TMP/noabove.cap"
finish
