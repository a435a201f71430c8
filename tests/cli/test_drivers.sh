#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab platform show on derived tables: haltpoll, x86 default idle (both
# kernel presets), pseries; --kernel, --option, --lines; bad input.
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB

# --- kvm-haltpoll: the cpuidle-haltpoll driver, derived (issue 2's table) ---
expect_exit 0 "$I" platform show kvm-haltpoll --lines
printf 'POLL latency:0 disabled:0 default:enabled\nhaltpoll idle latency:1 disabled:0 default:enabled\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show kvm-haltpoll --format csv
expect_out "kvm-haltpoll,6.18,haltpoll,haltpoll,0,POLL,CPUIDLE CORE POLL IDLE,0,0,0,enabled,POLLING,poll,lognormal:94:0.253"
expect_out "kvm-haltpoll,6.18,haltpoll,haltpoll,1,haltpoll idle,default architecture idle,1,1,0,enabled,-,hlt,lognormal:12410:0.33"
expect_exit 0 "$I" platform show kvm-haltpoll
expect_out "kernel: 6.18"
expect_out "options: cpuidle_haltpoll.force=1 haltpoll.guest_halt_poll_ns=0"
expect_out "driver: haltpoll (preferred governor haltpoll)"
expect_out "governor: haltpoll"
expect_out "default idle: default_idle (hlt): no MWAIT (X86_FEATURE_MWAIT clear)"
expect_out "haltpoll: loaded (cpuidle_haltpoll.force=1)"
# before v6.3 state 1 called default_idle() itself
expect_exit 0 "$I" platform show kvm-haltpoll --kernel 6.2
expect_out "default_idle() (HLT) before 716ff71ae234"
# boot options as the guest could have been booted
expect_exit 0 "$I" platform show kvm-haltpoll --option idle=halt --lines
echo "hlt latency:0 disabled:0 default:enabled" >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show kvm-haltpoll --option idle=halt
expect_out "driver: none (no cpuidle driver registers)"
expect_out "governor: menu"
expect_out "haltpoll: not loaded: idle=halt is given"
expect_exit 0 "$I" platform show kvm-haltpoll --option cpuidle_haltpoll.force=0
expect_out "driver: none"
expect_out "no KVM_HINTS_REALTIME and cpuidle_haltpoll.force is not set"
expect_exit 0 "$I" platform show kvm-haltpoll --option cpuidle.off=1
expect_out "cpuidle.off=1: cpuidle is disabled, no driver can register"
expect_exit 0 "$I" platform show kvm-haltpoll --option cpuidle.governor=teo
expect_out "driver: haltpoll"
expect_out "governor: teo"
expect_out "the driver's preferred haltpoll is ignored"
expect_exit 0 "$I" platform show kvm-haltpoll --option idle=poll
expect_out "default idle: poll: idle=poll"
expect_out "0  poll"

# --- amd-zen3-nocstates: no driver, default idle by kernel preset ---
expect_exit 0 "$I" platform show amd-zen3-nocstates --format csv
printf 'platform,kernel,driver,governor,state,name,desc,latency_us,residency_us,disable,default_status,flags,entry,exit_dist_ns,base_mhz,turbo_bins,freq_max_mhz,freq_max_ratio,freq_max_rule,freq_max_since,cpufreq_driver,cpufreq_governor,cpufreq_mode,efficient_mhz,hwp\namd-zen3-nocstates,6.18,,menu,0,mwait-c1,mwait_idle: MWAIT hint 0,0,0,0,enabled,-,mwait 0x00,61,2450,,,,none,,,,,,\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show amd-zen3-nocstates --kernel 5.15 --format csv
printf 'platform,kernel,driver,governor,state,name,desc,latency_us,residency_us,disable,default_status,flags,entry,exit_dist_ns,base_mhz,turbo_bins,freq_max_mhz,freq_max_ratio,freq_max_rule,freq_max_since,cpufreq_driver,cpufreq_governor,cpufreq_mode,efficient_mhz,hwp\namd-zen3-nocstates,5.15,,menu,0,hlt,default_idle: STI;HLT,0,0,0,enabled,-,hlt,729,2450,,,,none,,,,,,\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show amd-zen3-nocstates --kernel 5.15
expect_out "default idle: default_idle (hlt): amd CPU: kernels before 6.0 use MWAIT C1 only on Intel"
expect_out "cpus: 256 (2 packages x 64 cores x 2 threads), HZ=250"
expect_exit 0 "$I" platform show amd-zen3-nocstates --kernel 6.0
expect_out "default idle: mwait_idle (mwait C1): MWAIT with 1 C1 sub-state(s) (CPUID.5:EDX[7:4])"
expect_out "driver: none"
expect_out "governor: menu"
expect_exit 0 "$I" platform show amd-zen3-nocstates --option idle=nomwait
expect_out "default idle: default_idle (hlt): idle=nomwait on the command line: fall back to HALT"
expect_exit 0 "$I" platform show amd-zen3-nocstates --option idle=poll
expect_out "WARNING: polling idle and HT enabled, performance may degrade"
expect_exit 0 "$I" platform show amd-zen3-nocstates --lines --kernel 5.4
echo "hlt latency:0 disabled:0 default:enabled" >"$TMP/want"
expect_same "$TMP/want"

# --- POWER10 partitions ---
expect_exit 0 "$I" platform show ibm-power10-dedicated --lines
printf 'snooze latency:0 disabled:0 default:enabled\nCEDE latency:12 disabled:0 default:enabled\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show ibm-power10-dedicated --format csv
expect_out ",1,CEDE,CEDE,12,120,0,enabled,-,cede,2600"
expect_out ",0,snooze,snooze,0,0,0,enabled,POLLING,poll,0"
expect_exit 0 "$I" platform show ibm-power10-dedicated
expect_out "snooze timeout: 120000 ns"
expect_out "pseries: fixed up CEDE exit latency to 12 us (target residency 120 us)"
expect_out "cpus: 64 (1 package x 8 cores x 8 threads), HZ=100"
# before 71737a6c2a8f (v5.15) the fix-up only lowered CEDE: 12 us leaves 10/100
expect_exit 0 "$I" platform show ibm-power10-dedicated --kernel 5.14 --lines
printf 'snooze latency:0 disabled:0 default:enabled\nCEDE latency:10 disabled:0 default:enabled\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show ibm-power10-dedicated --kernel 5.13
expect_out "snooze timeout: 100000 ns"
expect_exit 0 "$I" platform show ibm-power10-shared --lines
printf 'snooze latency:0 disabled:0 default:enabled\nShared Cede latency:10 disabled:0 default:enabled\n' >"$TMP/want"
expect_same "$TMP/want"
expect_exit 0 "$I" platform show ibm-power10-shared
expect_out "snooze timeout: 100000 ns"
expect_exit 0 "$I" platform show ibm-power10-dedicated --option powersave=off
expect_out "driver: none"
expect_out "default idle: cede"
# a POWER9 dedicated partition from a file: no fix-up
f=$TMP/p9.ini
printf '[platform]\nname = p9\n[cpu]\narch = powerpc\nhypervisor = powervm\nmodel = 0x4e\nxcede_latency_ticks = 1024\n' >"$f"
expect_exit 0 "$I" platform show "$f" --lines
printf 'snooze latency:0 disabled:0 default:enabled\nCEDE latency:10 disabled:0 default:enabled\n' >"$TMP/want"
expect_same "$TMP/want"
printf '[platform]\nname = p10\n[cpu]\narch = powerpc\nhypervisor = powervm\nmodel = 0x80\nxcede_record_size = 12\nxcede_latency_ticks = 1024\n' >"$f"
expect_exit 0 "$I" platform show "$f"
expect_out "pseries: xcede: expected record-size 10, observed 12"

# --- JSON is valid ---
for p in kvm-haltpoll amd-zen3-nocstates ibm-power10-dedicated ibm-power10-shared; do
	expect_exit 0 "$I" platform show $p --format json
	if python3 -m json.tool "$TMP/out" >/dev/null; then ok; else bad "$p json invalid"; fi
done
expect_exit 0 "$I" platforms
expect_out "amd-zen3-nocstates"
expect_out "ibm-power10-dedicated"
expect_out "ibm-power10-shared"
expect_out "intel-broadwell-ep"
expect_out "intel-atom-z8350"
expect_out "intel-xeon-phi-7255"

# --- bad input ---
expect_exit 2 "$I" platform show kvm-haltpoll --kernel six
expect_err "--kernel: 'six' is not a kernel release"
expect_exit 2 "$I" platform show kvm-haltpoll --option =1
expect_err "--option: want KEY=VALUE"
expect_exit 2 "$I" platform show kvm-haltpoll --kernel
expect_err "needs a value"
expect_exit 2 "$I" platform show kvm-haltpoll --bogus
expect_err "unknown option '--bogus'"
printf '[platform]\nname = x\n[cpu]\narch = powerpc\nxcede_latency_ticks = 12 -4\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:5: xcede_latency_ticks: '-4' is not a tick count"
printf '[platform]\nname = x\n[cpu]\narch = powerpc\nxcede_record_size = 0\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:5: xcede_record_size: 0 is out of range [1, 256]"
long=$(printf '1 %.0s' $(seq 17))
printf '[platform]\nname = x\n[cpu]\nxcede_latency_ticks = %s\n' "$long" >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "$f:4: xcede_latency_ticks: more than 16 records"

finish
