#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab doctor on the captured trees of tests/fixtures/capture: each
# pathology found on its tree and nothing on the healthy one (the exact
# set of ids), the evidence and text of some, and the boundaries of every
# check on derived copies (the release that fixed it, a guest, another
# governor, a boot option or parameter), JSON, usage errors.
# Env: IDLELAB = the binary, SRCDIR = the source root.
. "$SRCDIR/tests/cli/lib.sh"
FX="$SRCDIR/tests/fixtures/capture"

# ids ROOT [ARGS]: the finding ids, sorted, one line
ids() {
	local root=$1; shift
	"$IDLELAB" doctor --root "$root" --format json "$@" >"$TMP/j" 2>"$TMP/jerr" ||
		{ echo "exit $?: $(cat "$TMP/jerr")"; return; }
	python3 -c 'import json,sys; print(" ".join(sorted(f["id"] for f in json.load(open(sys.argv[1]))["findings"])))' "$TMP/j"
}
want() { # want ROOT "IDS" [ARGS]
	local root=$1 w=$2; shift 2
	local got
	got=$(ids "$root" "$@")
	[ "$got" = "$w" ] && ok || bad "$(basename "$root") $*: findings '$got', want '$w'"
}

# --- every tree: its findings, exactly ------------------------------------
want "$FX/amd-zen3-dummy-wait" "acpi-dummy-wait high-miss-rate"
want "$FX/amd-zen3-nocstates" "amd-hlt-default-idle"
want "$FX/intel-haswell-cst" "intel-cst-states-off states-disabled states-disabled"
want "$FX/intel-haswell-acpi" "unexpected-driver"
want "$FX/power10-menu" "high-miss-rate poll-escape"
want "$FX/kvm-haltpoll" "haltpoll-no-poll"
want "$FX/intel-icx-states-off" "states-disabled"
want "$FX/intel-icx-pm-qos" "pm-qos-limit"
want "$FX/intel-icx-teo" "unexpected-governor"
want "$FX/intel-icx-healthy" ""
want "$FX/kvm-nodriver" "haltpoll-not-registered"
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-healthy"
expect_out "no findings"

# every tree of the fixture directory is judged above
for d in "$FX"/*/; do
	grep -q "^want \"\$FX/$(basename "$d")\" " "$0" && ok || bad "tree $(basename "$d") is not judged"
done

# a root given with a trailing slash joins its files with one slash
expect_exit 0 "$IDLELAB" doctor --root "$FX/amd-zen3-dummy-wait/"
expect_out "    $FX/amd-zen3-dummy-wait/sys/devices/system/cpu/cpu0/cpuidle/state2/desc = ACPI IOPORT 0x814"
grep -q "dummy-wait//" "$TMP/out" && bad "doctor: a doubled slash in an evidence path" || ok
# --- the text of a finding: evidence with the files, what to do -----------
expect_exit 0 "$IDLELAB" doctor --root "$FX/amd-zen3-dummy-wait"
expect_out "warning acpi-dummy-wait: acpi_idle enters C2 through an I/O port on an AMD family 0x19 CPU, and kernel 5.19 does the PM-timer dummy wait after it"
expect_out "    $FX/amd-zen3-dummy-wait/sys/devices/system/cpu/cpu0/cpuidle/state2/desc = ACPI IOPORT 0x814"
expect_out "    $FX/amd-zen3-dummy-wait/proc/sys/kernel/osrelease = 5.19.0-rc2-tip+"
expect_out "vendor_id AuthenticAMD, cpu family 25 (0x19)"
expect_out "e400ad8b7e6a"
expect_out "counters: since boot"
expect_out "2 findings (2 warnings)"
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-haswell-cst"
expect_out "warning intel-cst-states-off: intel_idle on kernel 5.9 has states disabled by default (C3, C6)"
expect_out "cpu0/cpuidle/state3/default_status = disabled (C3, latency 33 us)"
expect_out "intel_idle.no_acpi=1"
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-pm-qos"
expect_out "warning pm-qos-limit: a CPU latency limit of 1 us is in force (/dev/cpu_dma_latency)"
expect_out "    held open by pid 2217 (tuned)"
expect_out "    state3 C6 (exit latency 170 us) is out of use"
expect_exit 0 "$IDLELAB" doctor --root "$FX/power10-menu"
expect_out "warning poll-escape: menu on pseries, kernel 6.10: short idle periods leave snooze for CEDE"
expect_out "07d815701274"
expect_exit 0 "$IDLELAB" doctor --root "$FX/kvm-haltpoll"
expect_out "    $FX/kvm-haltpoll/sys/module/haltpoll/parameters/guest_halt_poll_ns = 0"
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-states-off"
expect_out "info states-disabled: state3 C6 is disabled by the user on CPUs 0-1"

# --- JSON: valid, every field of a finding ---------------------------------
expect_exit 0 "$IDLELAB" doctor --root "$FX/amd-zen3-dummy-wait" --format json
python3 - "$TMP/out" "$FX/amd-zen3-dummy-wait" <<'EOF' && ok || bad "doctor json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["root"] == sys.argv[2] and j["kernel_release"] == "5.19.0-rc2-tip+"
assert j["release_judged"] == "5.19" and j["driver"] == "acpi_idle" and j["window_s"] is None
f = j["findings"][0]
assert f["id"] == "acpi-dummy-wait" and f["severity"] == "warning", f
assert set(f) == {"id", "severity", "title", "evidence", "action", "references"}
assert {"file": sys.argv[2] + "/sys/devices/system/cpu/cpuidle/current_driver", "value": "acpi_idle"} in f["evidence"]
assert f["action"] and "e400ad8b7e6a" in f["references"]
EOF

# --- boundaries: each check on a copy changed at its edge -----------------
cpt() { rm -rf "$TMP/t"; cp -r "$FX/$1" "$TMP/t"; }
rel() { echo "$1" >"$TMP/t/proc/sys/kernel/osrelease"; }
# acpi-dummy-wait: fixed in 6.0; not in a guest; not on Intel
cpt amd-zen3-dummy-wait; rel 6.0.0
want "$TMP/t" "high-miss-rate"
cpt amd-zen3-dummy-wait; sed -i 's/^flags\t\t: /&hypervisor /' "$TMP/t/proc/cpuinfo"
want "$TMP/t" "high-miss-rate"
cpt amd-zen3-dummy-wait; rel 5.15.0-91-generic
want "$TMP/t" "acpi-dummy-wait high-miss-rate"
# amd-hlt-default-idle: 6.0 prefers MWAIT; no MONITOR: nothing to prefer; idle= chosen
cpt amd-zen3-nocstates; rel 6.0.0
want "$TMP/t" "unexpected-driver"
cpt amd-zen3-nocstates; sed -i 's/ monitor / /' "$TMP/t/proc/cpuinfo"
want "$TMP/t" "unexpected-driver"
cpt amd-zen3-nocstates; echo "ro idle=halt" >"$TMP/t/proc/cmdline"
want "$TMP/t" "states-disabled"
# intel-cst-states-off: 5.10 has the fix; enabled by hand: info only
cpt intel-haswell-cst; rel 5.10.0
want "$TMP/t" "states-disabled states-disabled"
cpt intel-haswell-cst
for c in 0 1; do for s in 3 4; do echo 0 >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state$s/disable"; done; done
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info intel-cst-states-off: intel_idle on kernel 5.9 has states disabled by default (C3, C6), enabled again by hand"
# intel-idle-cst-table: an Alder Lake (0x97) on 5.15, intel_idle with C<n>_ACPI states
# (its table came in 5.19); not on 5.19; not with the model's own names
adl() {
	cpt intel-icx-healthy; rel "$1"
	sed -i 's/^model\t\t: 106$/model\t\t: 151/' "$TMP/t/proc/cpuinfo"
	for c in 0 1; do for s in 1 2 3; do
		echo "C${s}_ACPI" >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state$s/name"
	done; done
}
adl 5.15.0-91-generic
want "$TMP/t" "intel-idle-cst-table"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info intel-idle-cst-table: intel_idle on kernel 5.15 builds its states from _CST: its Alder Lake table came in 5.19"
expect_out "intel_idle has a table for family 6 model 0x97 from 5.19 on, not in 5.15"
expect_out "3 of 4 states named C<n>_ACPI"
adl 5.19.0
want "$TMP/t" ""
cpt intel-icx-healthy; rel 5.15.0-91-generic
sed -i 's/^model\t\t: 106$/model\t\t: 151/' "$TMP/t/proc/cpuinfo"
want "$TMP/t" ""
# a Jasper Lake (0x9c): no intel_idle release has a table of its own for it (6.12's
# descriptor only turns C1E promotion off), so C<n>_ACPI states are what every kernel gives
adl 6.8.0; sed -i 's/^model\t\t: 151$/model\t\t: 156/' "$TMP/t/proc/cpuinfo"
want "$TMP/t" ""
# unexpected-driver's evidence: what this release's intel_idle has for the model, as a fact
# of idlelab's model (no file)
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-haswell-acpi"
expect_out "    idlelab's intel_idle model: intel_idle of 5.9 has the Haswell-X table for family 6 model 0x3f"
grep -q "intel_idle.c (idlelab" "$TMP/out" && bad "model evidence shown as a file" || ok
# a kernel configuration without intel_idle: its file below the root (it was
# "ROOTboot/config-R", the root and the relative name run together)
cpt intel-haswell-acpi
sed -i 's/^CONFIG_INTEL_IDLE=y/# CONFIG_INTEL_IDLE is not set/' "$TMP/t/boot/config-5.9.0-vanilla"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "    $TMP/t/boot/config-5.9.0-vanilla = CONFIG_INTEL_IDLE not set"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t/" --format json
expect_out "\"file\": \"$TMP/t/boot/config-5.9.0-vanilla\", \"value\": \"CONFIG_INTEL_IDLE not set\""
# intel-idle-table-values: a Sapphire Rapids (0x8f) whose C6 has the SPR fix-up's numbers
# (package C6 not allowed by the firmware); an Ice Lake C6 no fix-up explains; intel_idle.table
st() { # st STATE LAT RES: on both CPUs
	for c in 0 1; do
		echo "$2" >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state$1/latency"
		echo "$3" >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state$1/residency"
	done
}
cpt intel-icx-healthy
sed -i 's/^model\t\t: 106$/model\t\t: 143/' "$TMP/t/proc/cpuinfo"
st 2 2 4; st 3 190 600
want "$TMP/t" "intel-idle-table-values"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info intel-idle-table-values: intel_idle's C6 is 190/600 us, its table for kernel 6.12 says 290/800"
expect_out "the SPR fix-up: package C6 not allowed by MSR_PKG_CST_CONFIG_CONTROL"
st 3 290 800
want "$TMP/t" ""
cpt intel-icx-healthy; st 3 100 600
want "$TMP/t" "intel-idle-table-values"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "Neither a fix-up nor intel_idle.table explains them"
rel 7.0.0; echo "$(cat "$TMP/t/proc/cmdline") intel_idle.table=C6:100:600" >"$TMP/t/proc/cmdline"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "/proc/cmdline = intel_idle.table=C6:100:600"
expect_out "intel_idle.table on the command line set them"
# a table= that does not name the state explains nothing
sed -i 's/intel_idle.table=C6:100:600/intel_idle.table=C1E:4:5/' "$TMP/t/proc/cmdline"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "Neither a fix-up nor intel_idle.table explains them"
# Emerald Rapids (0xcf) on 6.3 with the SPR fix-up's C6; Goldmont's IRTL states are not judged
cpt intel-icx-healthy; rel 6.3.0
sed -i 's/^model\t\t: 106$/model\t\t: 207/' "$TMP/t/proc/cpuinfo"
st 2 2 4; st 3 190 600
want "$TMP/t" "intel-idle-table-values"
cpt intel-icx-healthy; sed -i 's/^model\t\t: 106$/model\t\t: 92/' "$TMP/t/proc/cpuinfo"
st 1 2 2; st 2 10 20; st 3 77 77
echo C6 >"$TMP/t/sys/devices/system/cpu/cpu0/cpuidle/state3/name"
echo C6 >"$TMP/t/sys/devices/system/cpu/cpu1/cpuidle/state3/name"
want "$TMP/t" ""
# poll-escape: 6.19 has the gate; teo has none of it
cpt power10-menu; rel 6.19.0
want "$TMP/t" "high-miss-rate"
cpt power10-menu; echo teo >"$TMP/t/sys/devices/system/cpu/cpuidle/current_governor"
echo "menu teo " >"$TMP/t/sys/devices/system/cpu/cpuidle/available_governors"
want "$TMP/t" "high-miss-rate unexpected-governor"
# haltpoll-no-poll: the default poll limit; menu in the guest
cpt kvm-haltpoll; echo 200000 >"$TMP/t/sys/module/haltpoll/parameters/guest_halt_poll_ns"
want "$TMP/t" ""
cpt kvm-haltpoll; echo menu >"$TMP/t/sys/devices/system/cpu/cpuidle/current_governor"
want "$TMP/t" "unexpected-governor"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info unexpected-governor: governor menu runs; the kernel chooses haltpoll at boot (the haltpoll driver asks for the haltpoll governor)"
# haltpoll-not-registered: KVM's leaves with and without the hint, another
# hypervisor, idle=, a release before the driver, a driver that registered
cpt kvm-nodriver
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info haltpoll-not-registered: a KVM guest without a cpuidle driver: every idle period halts the vCPU"
expect_out "    $TMP/t/idlelab-meta.txt = kvm_cpuid: base=0x40000000 hints=0x0: KVM_HINTS_REALTIME clear"
expect_out "    $TMP/t/sys/module/haltpoll/parameters/guest_halt_poll_ns = 200000"
tr '\n' ' ' <"$TMP/out" | grep -q "The host does not set KVM_HINTS_REALTIME, so cpuidle-haltpoll does not register" &&
	ok || bad "haltpoll-not-registered without the hint: $(cat "$TMP/out")"
# every evidence file is a file of the tree (the hints' was "idlelab-meta.txt
# kvm_cpuid", a name no file has), or "" for a fact of no file
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t" --format json
python3 -c '
import json, os, sys
for f in json.load(open(sys.argv[1]))["findings"]:
	for e in f["evidence"]:
		assert e["file"] == "" or os.path.exists(e["file"]), e
' "$TMP/out" && ok || bad "haltpoll-not-registered evidence files: $(cat "$TMP/out")"
sed -i 's/^kvm_cpuid: .*/kvm_cpuid: base=0x40000000 hints=0x1/' "$TMP/t/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "    $TMP/t/idlelab-meta.txt = kvm_cpuid: base=0x40000000 hints=0x1: KVM_HINTS_REALTIME set"
tr '\n' ' ' <"$TMP/out" | grep -q "CONFIG_HALTPOLL_CPUIDLE" && ok || bad "hint set: $(cat "$TMP/out")"
# without the leaves in the capture the clocksource tells KVM; with none, nothing does
sed -i '/^kvm_cpuid: /d' "$TMP/t/idlelab-meta.txt"
want "$TMP/t" ""
echo kvm-clock >"$TMP/t/sys/devices/system/clocksource/clocksource0/current_clocksource"
want "$TMP/t" "haltpoll-not-registered"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
tr '\n' ' ' <"$TMP/out" | grep -q "KVM_HINTS_REALTIME is not known" && ok || bad "hint unknown: $(cat "$TMP/out")"
cpt kvm-nodriver; sed -i 's/^kvm_cpuid: .*/kvm_cpuid: none/' "$TMP/t/idlelab-meta.txt"
want "$TMP/t" ""
cpt kvm-nodriver; sed -i 's/^cmdline: /&idle=halt /' "$TMP/t/idlelab-meta.txt"
echo "idle=halt $(cat "$TMP/t/proc/cmdline")" >"$TMP/t/proc/cmdline"
want "$TMP/t" "states-disabled"
cpt kvm-nodriver; rel 5.3.0
want "$TMP/t" ""
cpt kvm-nodriver; rel 5.4.0
want "$TMP/t" "haltpoll-not-registered"
# a current_driver that cannot be read is not "none" (the finding showed it
# as "current_driver = none"); nor is a tree whose CPUs have a driver's states
cpt kvm-nodriver; printf 'none\0' >"$TMP/t/sys/devices/system/cpu/cpuidle/current_driver"
want "$TMP/t" ""
cpt kvm-haltpoll; echo none >"$TMP/t/sys/devices/system/cpu/cpuidle/current_driver"
echo "kvm_cpuid: base=0x40000000 hints=0x1" >>"$TMP/t/idlelab-meta.txt"
want "$TMP/t" "haltpoll-no-poll"
# the hint set with the driver built in (the tree's kernel configuration):
# not a missing CONFIG_HALTPOLL_CPUIDLE or module, but metadata at odds with
# the tree, as another machine's idlelab-meta.txt is
cpt kvm-nodriver; sed -i 's/^kvm_cpuid: .*/kvm_cpuid: base=0x40000000 hints=0x1/' "$TMP/t/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "    $TMP/t/boot/config-6.18.44-fc-v1272 = CONFIG_HALTPOLL_CPUIDLE=y"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' | grep -q "the kernel has cpuidle-haltpoll built in (CONFIG_HALTPOLL_CPUIDLE=y)" &&
	ok || bad "hint set, driver built in: $(cat "$TMP/out")"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' | grep -q "built without CONFIG_HALTPOLL_CPUIDLE" &&
	bad "hint set, driver built in: said not built" || ok
sed -i 's/^CONFIG_HALTPOLL_CPUIDLE=y/CONFIG_HALTPOLL_CPUIDLE=m/' "$TMP/t/boot/config-6.18.44-fc-v1272"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' | grep -q "a module that was not loaded" && ok || bad "hint set, module: $(cat "$TMP/out")"
# states-disabled: idle=poll, cpuidle.off, max_cstate, states_off
cpt intel-icx-healthy; echo "ro idle=poll" >"$TMP/t/proc/cmdline"
want "$TMP/t" "states-disabled"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "warning states-disabled: idle=poll on the command line"
cpt intel-icx-healthy; echo "ro cpuidle.off=1" >"$TMP/t/proc/cmdline"
echo 1 >"$TMP/t/sys/module/cpuidle/parameters/off"
rm -r "$TMP/t/sys/devices/system/cpu/cpuidle" "$TMP/t"/sys/devices/system/cpu/cpu*/cpuidle
want "$TMP/t" "states-disabled"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "warning states-disabled: cpuidle is switched off (cpuidle.off=1)"
expect_out "/sys/devices/system/cpu/cpuidle = absent"
cpt intel-icx-healthy; echo "ro intel_idle.max_cstate=2" >"$TMP/t/proc/cmdline"
echo 2 >"$TMP/t/sys/module/intel_idle/parameters/max_cstate"
rm -r "$TMP/t"/sys/devices/system/cpu/cpu*/cpuidle/state3
want "$TMP/t" "states-disabled"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "info states-disabled: intel_idle uses only its states up to C2"
expect_out "/proc/cmdline = intel_idle.max_cstate=2"
cpt intel-icx-healthy; echo 8 >"$TMP/t/sys/module/intel_idle/parameters/states_off"
want "$TMP/t" "states-disabled"
# high-miss-rate: the threshold; too few entries are not judged
# C1's below is 4.57 % of its entries, the highest ratio of the tree
want "$FX/intel-icx-healthy" "high-miss-rate" --miss-threshold 4.5
want "$FX/intel-icx-healthy" "" --miss-threshold 4.6
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-healthy" --miss-threshold 4.5
expect_out "warning high-miss-rate: state1 C1: a deeper state would have fitted (below) on 4.6% of its entries (worst CPU 0) since boot, on 2 of 2 CPUs judged"
cpt amd-zen3-dummy-wait
for c in 0 1; do echo 99 >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state2/usage"; echo 90 >"$TMP/t/sys/devices/system/cpu/cpu$c/cpuidle/state2/above"; done
want "$TMP/t" "acpi-dummy-wait"
# pm-qos-limit: per-CPU resume latency ("n/a" is 0 us); the default limit is none
cpt intel-icx-healthy; echo n/a >"$TMP/t/sys/devices/system/cpu/cpu1/power/pm_qos_resume_latency_us"
want "$TMP/t" "pm-qos-limit"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "warning pm-qos-limit: a resume latency limit of 0 (n/a) us on CPU 1"
cpt intel-icx-pm-qos; printf 'format: idlelab-meta 1\npm_qos.holders: 0\n' >"$TMP/t/idlelab-meta.txt"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "no process holds /dev/cpu_dma_latency open"
cpt intel-icx-pm-qos; printf '\x00\x94\x35' >"$TMP/t/dev/cpu_dma_latency"
want "$TMP/t" ""
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_err "dev/cpu_dma_latency: 3 bytes: want the 4 of an s32"
# unexpected-driver: intel_idle registers on a known Intel model; unexpected-governor
cpt intel-haswell-acpi; sed -i 's/^flags\t\t: /&hypervisor /' "$TMP/t/proc/cpuinfo"
want "$TMP/t" ""
cpt intel-icx-healthy; echo teo >"$TMP/t/sys/devices/system/cpu/cpuidle/current_governor"
want "$TMP/t" "unexpected-governor"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_out "governor teo runs; the kernel chooses menu at boot (the highest rating among the available governors)"
echo "ro cpuidle.governor=teo" >"$TMP/t/proc/cmdline"
want "$TMP/t" ""
# an unknown release is not judged against fixed releases
cpt amd-zen3-dummy-wait; rm "$TMP/t/proc/sys/kernel/osrelease"
want "$TMP/t" "high-miss-rate"

# --- a hostile tree: links below the root are not followed ----------------
cpt intel-icx-healthy
rm "$TMP/t/proc/cmdline"
echo "idle=poll" >"$TMP/outside"
ln -s "$TMP/outside" "$TMP/t/proc/cmdline"
want "$TMP/t" ""
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_err "proc/cmdline: symbolic link: not followed (the kernel has none here)"
rm -r "$TMP/t/sys/module"
ln -s "$FX/intel-haswell-acpi/sys/module" "$TMP/t/sys/module"
expect_exit 0 "$IDLELAB" doctor --root "$TMP/t"
expect_err "sys/module/intel_idle/parameters/max_cstate: symbolic link: not followed (sysfs has none here) (on its way)"

# --- the shallowest state disabled: its periods go deeper, not shallower -----
# (the advice said "go to a shallower state" for POLL, which has none)
SD="$TMP/polloff"
rm -rf "$SD"; cp -r "$FX/kvm-haltpoll" "$SD"; chmod -R u+w "$SD"
echo 1 >"$SD/sys/devices/system/cpu/cpu1/cpuidle/state0/disable"
expect_exit 0 "$IDLELAB" doctor --root "$SD"
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/flat"
grep -q "the idle periods it would have taken go to a deeper state" "$TMP/flat" && ok ||
	bad "POLL disabled: $(cat "$TMP/out")"
if grep -q "go to a shallower state" "$TMP/flat"; then bad "POLL disabled: 'shallower' said"; else ok; fi

# --- a tree without the CPU's or the kernel's facts: said, not "no findings" --
# (a capture without proc/cpuinfo printed "no findings" where acpi_idle drives
# an Intel CPU, the checks that need the vendor having been skipped in silence)
NJ="$TMP/notjudged"
rm -rf "$NJ"; cp -r "$FX/intel-haswell-acpi" "$NJ"; chmod -R u+w "$NJ"
rm "$NJ/proc/cpuinfo"
expect_exit 0 "$IDLELAB" doctor --root "$NJ"
expect_out "not judged: no proc/cpuinfo (vendor, model, flags): acpi-dummy-wait, amd-hlt-default-idle,"
expect_out "unexpected-driver"
if grep -qx "no findings" "$TMP/out"; then bad "no cpuinfo: no findings said"; else ok; fi
expect_out "no findings among the checks judged"
expect_exit 0 "$IDLELAB" doctor --root "$NJ" --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["not_judged"]; assert n[0]["missing"] == "proc/cpuinfo" and "unexpected-driver" in n[0]["checks"], n' "$TMP/out" &&
	ok || bad "json not_judged: $(cat "$TMP/out")"
rm "$NJ/proc/sys/kernel/osrelease"
expect_exit 0 "$IDLELAB" doctor --root "$NJ"
expect_out "not judged: no proc/sys/kernel/osrelease (kernel release): acpi-dummy-wait,"
# a whole tree: nothing said
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-healthy"
if grep -q "not judged" "$TMP/out"; then bad "not judged on a whole tree: $(cat "$TMP/out")"; else ok; fi
expect_out "no findings"
expect_exit 0 "$IDLELAB" doctor --root "$FX/intel-icx-healthy" --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["not_judged"] == [], d["not_judged"]' "$TMP/out" &&
	ok || bad "json not_judged on a whole tree"

# --- --list and usage errors -----------------------------------------------
expect_exit 0 "$IDLELAB" doctor --list
[ "$(head -1 "$TMP/out")" = "id,severity,finds" ] && [ "$(wc -l <"$TMP/out")" -eq 14 ] && ok ||
	bad "--list: $(cat "$TMP/out")"
for id in acpi-dummy-wait amd-hlt-default-idle intel-cst-states-off intel-idle-cst-table \
	intel-idle-table-values \
	poll-escape haltpoll-no-poll haltpoll-not-registered \
	states-disabled high-miss-rate pm-qos-limit unexpected-driver unexpected-governor; do
	grep -q "^$id," "$TMP/out" && ok || bad "--list lacks $id"
	grep -q "^### \`$id\`" "$SRCDIR/docs/doctor.md" && ok || bad "docs/doctor.md lacks $id"
done
# the help (and the manual page made from it) names every check --list has
"$IDLELAB" help doctor | tr '\n' ' ' >"$TMP/help"
for id in $(tail -n +2 "$TMP/out" | cut -d, -f1); do
	grep -q -- "$id[,.]" "$TMP/help" && ok || bad "idlelab help doctor lacks the check $id"
done
# every captured tree is in docs/doctor.md's table of fixtures
for d in "$FX"/*/; do
	t=$(basename "$d")
	grep -q "^| \`$t\` | " "$SRCDIR/docs/doctor.md" && ok || bad "docs/doctor.md: no row for the tree $t"
done
expect_exit 2 "$IDLELAB" doctor --format csv
expect_err "unknown format 'csv' (table or json)"
# --list reads every option: a mistyped one is refused, --format is kept
expect_exit 2 "$IDLELAB" doctor --list --bogus
expect_err "unknown option '--bogus'"
expect_exit 0 "$IDLELAB" doctor --list --format table
awk 'length > 100 { exit 1 }' "$TMP/out" && ok || bad "--list --format table wider than 100 columns: $(cat "$TMP/out")"
grep -q '^high-miss-rate  *a state whose entries' "$TMP/out" && ok || bad "--list --format table: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" doctor --list --format json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 13 and d[0]["id"] == "acpi-dummy-wait"' \
	"$TMP/out" && ok || bad "--list --format json: $(cat "$TMP/out")"
expect_exit 2 "$IDLELAB" doctor --root "$FX/kvm-haltpoll" --interval 2
expect_err "--interval samples the live machine"
expect_exit 2 "$IDLELAB" doctor --interval -1
expect_err "--interval: '-1' is not a duration"
# the limit is told in a form --interval takes: "24h" was in the message, but
# durations have no h unit ("86400s" is the longest)
expect_exit 2 "$IDLELAB" doctor --interval 86401s
expect_err "from 0 to 86400s (24 hours"
expect_exit 2 "$IDLELAB" doctor --miss-threshold 0
expect_err "--miss-threshold: '0' is not a percentage"
expect_exit 2 "$IDLELAB" doctor extra
expect_err "unexpected argument 'extra'"
expect_exit 1 "$IDLELAB" doctor --root "$TMP/nosuch"
expect_err "$TMP/nosuch: cannot open: No such file or directory"
[ -s "$TMP/out" ] && bad "output on a refusal" || ok
# a tree that is no machine's (empty; no CPU directories): an error, not "no findings"
mkdir -p "$TMP/empty" "$TMP/nocpus/sys/devices/system/cpu"
expect_exit 1 "$IDLELAB" doctor --root "$TMP/empty"
expect_err "$TMP/empty: not a machine's tree: no sys/devices/system/cpu"
[ -s "$TMP/out" ] && bad "doctor printed on an empty tree: $(cat "$TMP/out")" || ok
expect_exit 1 "$IDLELAB" doctor --root "$TMP/nocpus" --format json
expect_err "$TMP/nocpus: not a machine's tree: no CPU (cpu<N>/) in sys/devices/system/cpu"
[ -s "$TMP/out" ] && bad "doctor printed on a tree without CPUs" || ok
finish
