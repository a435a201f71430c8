#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab platforms / platform show, and refusals of bad platform files.
. "$SRCDIR/tests/cli/lib.sh"

expect_exit 0 "$IDLELAB" platforms
expect_out "kvm-haltpoll"
# the text table fits in 100 columns: a long description is folded under its column
awk 'length > 100 { exit 1 }' "$TMP/out" && ok || bad "platforms wider than 100 columns: $(cat "$TMP/out")"
tr -s ' \n' ' ' <"$TMP/out" | grep -qF "kvm-haltpoll 2-vCPU KVM guest (AMD EPYC host), cpuidle-haltpoll driver and haltpoll governor" &&
	ok || bad "platforms: kvm-haltpoll's description: $(cat "$TMP/out")"
expect_exit 0 "$IDLELAB" platforms --format csv
expect_out "name,cpus,description"
expect_exit 0 "$IDLELAB" platforms --format json
if python3 -m json.tool "$TMP/out" >/dev/null; then ok; else bad "platforms json invalid"; fi

# the table of issue 2, as sysfs shows it
expect_exit 0 "$IDLELAB" platform show kvm-haltpoll --format csv
expect_out "kvm-haltpoll,6.18,haltpoll,haltpoll,0,POLL,CPUIDLE CORE POLL IDLE,0,0,0,enabled"
expect_out "kvm-haltpoll,6.18,haltpoll,haltpoll,1,haltpoll idle,default architecture idle,1,1,0,enabled"
expect_exit 0 "$IDLELAB" platform show kvm-haltpoll
expect_out "POLL"
expect_out "haltpoll idle"
# a distribution with a tail prints whole, at its longest (19-digit times)
long=uniform:9e18:9e18+0.000123457%:uniform:9e18:9e18
printf '[platform]\nname = t\n[topology]\npackages = 1\ncores_per_package = 1\nthreads_per_core = 1\n[cpu]\narch = x86\nvendor = amd\nfamily = 25\nmodel = 17\nmwait = no\n[firmware]\nhlt_exit = %s\n' \
	"$long" >"$TMP/tail.ini"
n=9000000000000000000
for fmt in table csv json; do
	expect_exit 0 "$IDLELAB" platform show "$TMP/tail.ini" --format $fmt
	expect_out "uniform:$n:$n+0.000123457%:uniform:$n:$n"
done

# bad files: FILE:LINE: what, exit 1
f=$TMP/bad.ini
printf '[platform]\nname = x\n[state.0]\nname = POLL\nlatency = soon\nresidency = 0\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "idlelab: $f:5: latency: 'soon' is not a non-negative 32-bit integer"
printf '[platform]\nname = x\ncolour = red\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "idlelab: $f:3: unknown key 'colour' in [platform]"
{ printf '[platform]\nname = x\n'; for i in 0 1 2 3 4 5 6 7 8 9 10; do printf '[state.%d]\nname = S%d\nlatency = %d\nresidency = %d\n' $i $i $i $i; done; } >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "more than 10 states"
printf '[platform]\nname = x\n[state.0]\nname = A\nlatency = 0\nresidency = 0\n[state.1]\nname = A\nlatency = 1\nresidency = 1\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "$f:7: duplicate state name 'A'"
printf '[platform]\nname = x\n[state.0]\nname = A\nlatency = -3\nresidency = 0\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "$f:5: latency: negative value '-3'"
printf '[platform]\nname = x\n[state.0]\nname = A\nresidency = 0\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "$f:3: [state.0] has no latency"
expect_exit 1 "$IDLELAB" platform show "$TMP/missing.ini"
expect_err "$TMP/missing.ini: cannot open"
expect_exit 1 "$IDLELAB" platform show no-such-platform
expect_err "unknown platform 'no-such-platform'"
# turbo bins, freq_max per release and the cpufreq facts (issue 12), in every format
expect_exit 0 "$IDLELAB" platform show intel-cascadelake-sp
# (folded at 100 columns, under the value)
expect_out "turbo: 1-2C 3900, 3-4C 3700, 5-16C 3600, 17-20C 3300, 21-24C 3100 MHz by active cores (base 2400"
expect_out "       MHz)"
w=$(awk '{ if (length > m) m = length } END { print m }' "$TMP/out")
[ "$w" -le 100 ] && ok || bad "platform show is $w columns wide"
expect_out "freq_max: 3700 MHz (4C turbo), ratio 1578; Skylake-X: the first turbo group of >= 4 cores"
expect_out "from 5.7, none before"
expect_out "cpufreq: intel_pstate (mode auto), governor powersave, policy per cpu; EFFIC 1000 MHz, base 2400 MHz"
expect_out "hwp: lowest 1000, efficient 1000, guaranteed 2400, highest 3900 MHz"
expect_out "p-states (acpi-cpufreq): 2401 2400 2300"
# the soft-lockup watchdog and the stopper thread it wakes ([kernel] watchdog_*)
expect_out "watchdog: soft-lockup hrtimer every 4 s, waking the stopper thread (holds 700 ns)"
expect_exit 0 "$IDLELAB" platform show intel-cascadelake-sp --format json
expect_out '"watchdog_period_ns": 4000000000'
expect_out '"watchdog_stopper": "700"'
# the timer without its thread: a copy of a platform with the stopper's line left out
grep -v '^watchdog_stopper' "$SRCDIR/platforms/amd-zen3-epyc.ini" >"$TMP/nostop.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/nostop.ini"
expect_out "watchdog: soft-lockup hrtimer every 4 s"
grep -q stopper "$TMP/out" && bad "a platform without watchdog_stopper shows a stopper" || ok
expect_exit 0 "$IDLELAB" platform show intel-cascadelake-sp --kernel 5.6
expect_out "freq_max: none at 5.6 (no frequency invariance on x86 before 5.7); 3700 MHz (4C turbo) from 5.7"
expect_exit 0 "$IDLELAB" platform show intel-skylake-client
expect_out "freq_max: 3700 MHz (4C turbo), ratio 1082"
expect_out "hwp: no"
expect_exit 0 "$IDLELAB" platform show intel-xeon-phi-7255
expect_out "freq_max: 1100 MHz (second-highest turbo), ratio 1024"
expect_out "turbo: 1-30C 1200, 31-68C 1100 MHz"
expect_exit 0 "$IDLELAB" platform show intel-broadwell-ep
expect_out "freq_max: not modelled ([turbo] bins not given"
expect_exit 0 "$IDLELAB" platform show kvm-haltpoll
expect_out "freq_max: none (guest"
expect_exit 0 "$IDLELAB" platform show ibm-power10-shared
if grep -q "freq_max" "$TMP/out"; then bad "freq_max on powerpc"; else ok; fi
expect_exit 0 "$IDLELAB" platform show intel-atom-z8350 --format csv
expect_out "base_mhz,turbo_bins,freq_max_mhz,freq_max_ratio,freq_max_rule,freq_max_since,cpufreq_driver,cpufreq_governor,cpufreq_mode,efficient_mhz,hwp"
expect_out ",0,1440,1-2:1920 3-4:1680,1920,1365,1C turbo,5.7,intel_pstate,,auto,480,no"
expect_exit 0 "$IDLELAB" platform show intel-atom-z8350 --kernel 5.4 --format csv
expect_out ",0,1440,1-2:1920 3-4:1680,,,none,5.7,intel_pstate,,auto,480,no"
expect_exit 0 "$IDLELAB" platform show intel-xeon-phi-7255 --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "platform show JSON: turbo, freq_max, cpufreq"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["base_mhz"] == 1100
assert d["turbo"] == [{"cores_min": 1, "cores_max": 30, "mhz": 1200},
                      {"cores_min": 31, "cores_max": 68, "mhz": 1100}], d["turbo"]
f = d["freq_max"]
assert f["kernel"] == "6.18" and f["invariant"] and f["modelled"] and f["since"] == "5.7", f
assert f["mhz"] == 1100 and f["ratio"] == 1024 and f["rule"] == "second-highest turbo", f
c = d["cpufreq"]
assert c["driver"] == "intel_pstate" and c["governor"] is None and c["mode"] == "auto", c
assert c["efficient_mhz"] == 1000 and c["hwp"] is None and c["pstates_mhz"] == [1101, 1100, 1000], c
assert c["turbo"] is True and c["transition_latency_ns"] is None, c
EOF
expect_exit 0 "$IDLELAB" platform show kvm-haltpoll --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "platform show JSON without [cpufreq]"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpufreq"] is None and d["turbo"] == [] and d["base_mhz"] == 2596, d
assert d["freq_max"]["mhz"] is None and not d["freq_max"]["invariant"] and d["freq_max"]["since"] is None
EOF
# turbo off at boot: freq_max is the base, the turbo figure kept for when it returns
f=$TMP/noturbo.ini
sed 's/^efficient_mhz = 800$/efficient_mhz = 800\nturbo = no/' "$SRCDIR/platforms/intel-skylake-client.ini" >"$f"
expect_exit 0 "$IDLELAB" platform show "$f"
expect_out "freq_max: 3500 MHz (turbo off at boot: base; 3700 MHz, 4C turbo, with turbo), ratio 1024"
expect_out "turbo off at boot"
# a bad [cpufreq] key: FILE:LINE, exit 1
printf '[platform]\nname = x\n[cpu]\nbase_mhz = 2000\n[cpufreq]\nefficient_mhz = 800\nhwp_highest_mhz = 3000\n' >"$f"
expect_exit 1 "$IDLELAB" platform show "$f"
expect_err "idlelab: $f:7: hwp_highest_mhz without hwp = yes"
# --set with a long value (intel_idle.table takes 255 characters) is read whole, as sim reads it
v=$(printf 'ZZ::,%.0s' $(seq 1 36))C6:100:700
expect_exit 0 "$IDLELAB" platform show intel-cascadelake-sp --kernel 7.0 --set "intel_idle.table=$v" --format csv
expect_out "intel-cascadelake-sp,7.0,intel_idle,menu,3,C6,MWAIT 0x20,100,700,"
expect_exit 2 "$IDLELAB" platform show intel-cascadelake-sp --kernel 7.0 --set "intel_idle.table=$(printf 'C6::,%.0s' $(seq 1 52))"
expect_err "option 'intel_idle.table' too long"
# indented lines are lines, not inih's continuations of the key above ("duplicate key 'name'")
printf '[platform]\nname = ind\n  [cpu]\n\tmwait = yes\n  model_name = x\n[state.0]\nname = P\n  latency = 0\n  residency = 0\n' >"$TMP/ind.ini"
printf '[platform]\nname = ind\n[cpu]\nmwait = yes\nmodel_name = x\n[state.0]\nname = P\nlatency = 0\nresidency = 0\n' >"$TMP/flat.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/flat.ini"
mv "$TMP/out" "$TMP/flat.out"
expect_exit 0 "$IDLELAB" platform show "$TMP/ind.ini"
expect_same "$TMP/flat.out"
# a line holds 197 characters whatever ends it (LF, CRLF, the end of the file)
src197=$(printf 'source = %188s' x)
printf '[platform]\nname = x\n%s\n' "$src197" >"$TMP/l197.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/l197.ini"
printf '[platform]\r\nname = x\r\n%s\r\n' "$src197" >"$TMP/l197crlf.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/l197crlf.ini"
for end in '\n' '\r\n' ''; do
	printf "[platform]\\nname = x\\n%sy$end" "$src197" >"$TMP/l198.ini"
	expect_exit 1 "$IDLELAB" platform show "$TMP/l198.ini"
	expect_err "l198.ini:3: line longer than 197 characters"
done
# ... named at its own line, not at the next key's
printf '[platform]\nname = x\n%sy\n\n[cpu]\nmwait = yes\n' "$src197" >"$TMP/lmid.ini"
expect_exit 1 "$IDLELAB" platform show "$TMP/lmid.ini"
expect_err "lmid.ini:3: line longer than 197 characters"
printf '[platform]\nname = x\n%sy\n\nno equals sign\n' "$src197" >"$TMP/lmid.ini"
expect_exit 1 "$IDLELAB" platform show "$TMP/lmid.ini"
expect_err "lmid.ini:3: line longer than 197 characters"
expect_exit 2 "$IDLELAB" platform
expect_exit 2 "$IDLELAB" platform list

# --- platform history: every release, equal setups merged ---------------------------------
expect_exit 0 "$IDLELAB" platform history intel-haswell-ep
# the _CST firmware of the 2020 report: C3 and C6 off by default from 5.6 until 75af76d0a34e (5.10)
# (and frequency invariance from 5.7: freq_max the 4C turbo)
expect_out "5.6: intel_idle, governor menu@5.5, default idle mwait_idle (mwait C1), no frequency invariance"
expect_out "5.7 .. 5.9: intel_idle, governor menu@5.5, default idle mwait_idle (mwait C1), freq_max 2800 MHz"
expect_out "  POLL 0/0, C1 2/2, C1E 10/20, C3 33/100-, C6 133/400-"
expect_out "5.10 .. 5.12: intel_idle, governor menu@5.5"
expect_out "kernels: 5.4 .. 7.1"
awk 'length > 100 { exit 1 }' "$TMP/out" && ok || bad "history: a line over 100 columns"
# an Alder Lake platform file without _CST: no driver until intel_idle knows the model (5.19)
f=$TMP/adl.ini
printf '[platform]\nname = adl\n[cpu]\narch = x86\nvendor = intel\nfamily = 6\nmodel = 0x97\nmwait = yes\ncpuid5_ecx = 3\ncpuid5_edx = 0x10102020\n' >"$f"
expect_exit 0 "$IDLELAB" platform history "$f"
expect_out "5.4 .. 5.6: no cpuidle driver, default idle mwait_idle (mwait C1), no frequency invariance"
expect_out "5.7 .. 5.18: no cpuidle driver, default idle mwait_idle (mwait C1), freq_max not modelled"
expect_out "5.19 .. 6.0: intel_idle, governor menu@5.13"
expect_out "  POLL 0/0, C1E 2/4, C6 220/600, C8 280/800, C10 680/2000"
# --set applies to every release (preferred_cstates exists 5.18 .. 6.19)
expect_exit 0 "$IDLELAB" platform history "$f" --set intel_idle.preferred_cstates=2
expect_out "  POLL 0/0, C1 1/1, C6 220/600, C8 280/800, C10 680/2000"
# JSON: ranges that cover every release once, in order; CSV: a row per release and state
expect_exit 0 "$IDLELAB" platform history intel-haswell-ep --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "history json"
import json, sys
d = json.load(open(sys.argv[1]))
rels = [r for x in d["ranges"] for r in x["releases"]]
assert rels[0] == "5.4" and rels[-1] == "7.1" and len(rels) == len(set(rels)) == 38, rels
assert all(x["from"] == x["releases"][0] and x["to"] == x["releases"][-1] for x in d["ranges"])
off = [x for x in d["ranges"] if any(s["default_status"] == "disabled" for s in x["states"])]
assert [x["from"] for x in off] == ["5.6", "5.7"] and off[1]["to"] == "5.9", off
assert [x["freq_max_mhz"] for x in off] == [None, 2800], off
assert all(isinstance(s["latency_us"], int) for x in d["ranges"] for s in x["states"])
EOF
expect_exit 0 "$IDLELAB" platform history intel-haswell-ep --format csv
[ "$(head -1 "$TMP/out")" = "kernel,driver,governor,default_idle,freq_max_mhz,state,name,latency_us,residency_us,default_status" ] &&
	[ "$(grep -c '^5.7,intel_idle,menu@5.5,mwait_idle (mwait C1),2800,' "$TMP/out")" -eq 5 ] &&
	[ "$(grep -c '^5.6,intel_idle,menu@5.5,mwait_idle (mwait C1),,' "$TMP/out")" -eq 5 ] &&
	[ "$(wc -l <"$TMP/out")" -eq 191 ] && ok ||
	bad "history csv: $(head -3 "$TMP/out")"
# Zen 3's acpi_idle: the PM-timer dummy wait on every C2 exit until e400ad8b7e6a (6.0)
expect_exit 0 "$IDLELAB" platform history amd-zen3-epyc
expect_out "5.13 .. 5.19: acpi_idle, governor menu@5.13, default idle default_idle (hlt)"
expect_out "  POLL 0/0, C1 1/2, C2 30/60 +exit read"
expect_out "6.0: acpi_idle, governor menu@5.13, default idle mwait_idle (mwait C1)"
expect_exit 0 "$IDLELAB" platform history amd-zen3-epyc --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w=[(x["from"],[s["exit_wait"] for s in x["states"]]) for x in d["ranges"]]; assert w[0]==("5.4",[False,False,True]) and ("6.0",[False,False,False]) in w, w' \
	"$TMP/out" && ok || bad "history json exit_wait"
# AMD frequency invariance from ACPI CPPC: the built-in EPYC files give no CPPC values and say
# acpi_cpc = no (not known: the kernel's no-_CPC path, no invariance); a copy without that line,
# with highest_perf 228, nominal_perf 177 and no preferred cores gives each release's ratio:
# (228 x 1024 / 177 + 1024) >> 1 = 1171 (5.11, 5.12, 6.12 on), with 255 1249
expect_exit 0 "$IDLELAB" platform show amd-zen3-epyc
expect_out "freq_max: none (no _CPC ([cpu] acpi_cpc = no): AMD's invariance reads the CPPC"
expect_exit 0 "$IDLELAB" platform history amd-zen3-nocstates
expect_out "5.4 .. 5.19: no cpuidle driver, default idle default_idle (hlt), no frequency invariance"
sed -e '/^acpi_cpc = no$/d' \
	-e '/^base_mhz = 2450/a cppc_highest_perf = 228\ncppc_nominal_perf = 177\ncppc_preferred_cores = no' \
	-e 's/^name = amd-zen3-nocstates/name = amd-cppc/' \
	"$SRCDIR/platforms/amd-zen3-nocstates.ini" >"$TMP/amd-cppc.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-cppc.ini" --kernel 5.12
expect_out "freq_max: 2801.71 MHz (CPPC highest_perf midpoint), ratio 1171; AMD: (228 x 1024 /"
expect_out "from 5.11, none before"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-cppc.ini" --kernel 5.13
expect_out "freq_max: 2988.33 MHz (model perf midpoint), ratio 1249; AMD: (255 x 1024 / nominal_perf"
expect_out "255: the constant for other models; this rule from 5.13, invariant"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-cppc.ini" --kernel 5.10
expect_out "freq_max: none at 5.10 (x86 frequency invariance is Intel-only before 5.11); 2801.71 MHz"
expect_exit 0 "$IDLELAB" platform history "$TMP/amd-cppc.ini"
expect_out "5.4 .. 5.10: no cpuidle driver, default idle default_idle (hlt), no frequency invariance"
expect_out "5.11 .. 5.12: no cpuidle driver, default idle default_idle (hlt), freq_max 2801.71 MHz (CPPC"
expect_out "5.13 .. 5.19: no cpuidle driver, default idle default_idle (hlt), freq_max 2988.33 MHz (model"
expect_out "6.0 .. 6.11: no cpuidle driver, default idle mwait_idle (mwait C1), freq_max 2988.33 MHz"
expect_out "6.12 .. 7.1: no cpuidle driver, default idle mwait_idle (mwait C1), freq_max 2801.71 MHz"
expect_exit 0 "$IDLELAB" platform history "$TMP/amd-cppc.ini" --format csv
[ "$(grep -c '^5.10,.*,default_idle (hlt),,' "$TMP/out")" -eq 1 ] &&
	[ "$(grep -c '^5.12,.*,default_idle (hlt),2801.71,' "$TMP/out")" -eq 1 ] &&
	[ "$(grep -c '^6.11,.*,mwait_idle (mwait C1),2988.33,' "$TMP/out")" -eq 1 ] &&
	[ "$(grep -c '^6.12,.*,mwait_idle (mwait C1),2801.71,' "$TMP/out")" -eq 1 ] && ok ||
	bad "history csv on AMD: $(grep '^5.1[0-3],\|^6.1[12],' "$TMP/out")"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-cppc.ini" --kernel 6.11 --format json
python3 - "$TMP/out" <<'EOF' && ok || bad "platform show JSON: AMD freq_max"
import json, sys
f = json.load(open(sys.argv[1]))["freq_max"]
assert f["kernel"] == "6.11" and f["invariant"] and f["modelled"] and f["since"] == "5.13", f
assert f["ratio"] == 1249 and f["turbo_ratio"] == 1249 and f["rule"] == "model perf midpoint", f
EOF
sed -e 's/^cppc_preferred_cores = no/cppc_preferred_cores = yes/' "$TMP/amd-cppc.ini" >"$TMP/amd-pc.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-pc.ini" --kernel 6.12
expect_out "ratio 992; AMD: (166 x 1024 / nominal_perf 177"
# with acpi-cpufreq a numerator below nominal_perf leaves the driver's boost ratio unknown, and
# the driver sets ratio 1024 after the CPPC code (d11a1d08a082, 5.11-rc7)
printf '[cpufreq]\nefficient_mhz = 1500\ndriver = acpi-cpufreq\n' | cat "$TMP/amd-pc.ini" - >"$TMP/amd-pc-acpi.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-pc-acpi.ini" --kernel 6.12
expect_out "freq_max: 2450 MHz (base, acpi-cpufreq), ratio 1024; AMD: (166 x 1024 / nominal_perf 177"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-pc-acpi.ini" --kernel 5.10
expect_out "5.11); 2450 MHz (base,"
expect_exit 0 "$IDLELAB" platform history "$TMP/amd-pc-acpi.ini"
expect_out "6.0 .. 6.11: no cpuidle driver, default idle mwait_idle (mwait C1), freq_max 2988.33 MHz"
expect_out "6.12 .. 7.1: no cpuidle driver, default idle mwait_idle (mwait C1), freq_max 2450 MHz (base,"
sed -e '/^cppc_preferred_cores/d' "$TMP/amd-cppc.ini" >"$TMP/amd-nopc.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-nopc.ini" --kernel 6.12
expect_out "freq_max: not modelled ([cpu] cppc_preferred_cores not given"
expect_exit 0 "$IDLELAB" platform show "$TMP/amd-nopc.ini" --kernel 6.11
expect_out "ratio 1249"
# acpi-cpufreq's cpuinfo.max_freq beside freq_max: the Skylake client says acpi_cpc = no, so P0
# (base + 1 MHz) in every release, and from 5.11 the driver would set freq_max to base
expect_exit 0 "$IDLELAB" platform show intel-skylake-client --kernel 5.10
expect_out "acpi-cpufreq cpuinfo.max_freq: 3501000 kHz (P0, the table's top: no boost ratio before"
expect_exit 0 "$IDLELAB" platform show intel-skylake-client --kernel 6.18
expect_out "acpi-cpufreq cpuinfo.max_freq: 3501000 kHz (P0: no _CPC, no boost ratio; arch ratio 1024"
expect_out "with it freq_max is base, ratio 1024"
# given _CPC 255 over 177 (ratio 261120 / 177 = 1475): 3501000 x 1475 >> 10 = 5042944 kHz from
# 5.11 (538b0188da46 from 5.12); the file names intel_pstate, so its freq_max stays the MSR's
sed -e '/^acpi_cpc = no$/c cppc_highest_perf = 255\ncppc_nominal_perf = 177' \
	"$SRCDIR/platforms/intel-skylake-client.ini" >"$TMP/skl-cpc.ini"
expect_exit 0 "$IDLELAB" platform show "$TMP/skl-cpc.ini" --kernel 6.18
expect_out "acpi-cpufreq cpuinfo.max_freq: 5042944 kHz (P0 x 255 / nominal_perf 177 (ratio 1475)"
expect_out "freq_max: 3700 MHz (4C turbo), ratio 1082"
expect_exit 0 "$IDLELAB" platform show "$TMP/skl-cpc.ini" --kernel 6.18 --format json
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["freq_max"]; assert f["acpi_cpufreq_max_khz"]==5042944, f' \
	"$TMP/out" && ok || bad "platform show JSON: acpi_cpufreq_max_khz"
expect_exit 0 "$IDLELAB" platform show ibm-power10-shared --format json
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["freq_max"]; assert f["acpi_cpufreq_max_khz"] is None, f' \
	"$TMP/out" && ok || bad "platform show JSON: acpi_cpufreq_max_khz on POWER"
# --from and --to keep the releases between them
expect_exit 0 "$IDLELAB" platform history intel-haswell-ep --from 5.15 --to 6.6
expect_out "kernels: 5.15 .. 6.6"
expect_out "5.15 .. 6.0: intel_idle, governor menu@5.13"
expect_out "6.6: intel_idle, governor menu@6.6"
grep -q '^5.13\|^6.12' "$TMP/out" && bad "history --from/--to: a release outside them" || ok
expect_exit 0 "$IDLELAB" platform history intel-haswell-ep --from 7.1 --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [x["releases"] for x in d["ranges"]] == [["7.1"]], d' \
	"$TMP/out" && ok || bad "history --from 7.1 json"
expect_exit 2 "$IDLELAB" platform history intel-haswell-ep --from 6.6 --to 5.15
expect_err "--from 6.6 is after --to 5.15"
expect_exit 2 "$IDLELAB" platform history intel-haswell-ep --to 4.19
expect_err "--to: '4.19' is not a kernel release idlelab models (5.4 .. 7.1)"
expect_exit 2 "$IDLELAB" platform show intel-haswell-ep --from 5.4
expect_err "--from is history's: show takes --kernel"
expect_exit 2 "$IDLELAB" platform history intel-haswell-ep --kernel 6.1
expect_err "history shows every release: --kernel is show's"
expect_exit 2 "$IDLELAB" platform history intel-haswell-ep kvm-haltpoll
expect_err "history takes one platform name or file"
expect_exit 1 "$IDLELAB" platform history "$TMP/missing.ini"
finish
