#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab sim --cpufreq: bad specs are usage errors naming the part (exit 2,
# nothing on stdout), a platform without HWP refuses hwp (exit 1), the
# configurations are governors x cpufreq values with their label, and a run
# with the layer prints the cpufreq and perf-per-watt rows; without it none.
. "$SRCDIR/tests/cli/lib.sh"

expect_exit 2 "$IDLELAB" sim --cpufreq ondemandx
expect_err "--cpufreq: 'ondemandx': unknown governor 'ondemandx'"
[ -s "$TMP/out" ] && bad "output on a usage error" || ok
expect_exit 2 "$IDLELAB" sim --cpufreq foo:schedutil
expect_err "unknown driver 'foo'"
expect_exit 2 "$IDLELAB" sim --cpufreq schedutil+epp=300
expect_err "bad value '300' for epp"
expect_exit 2 "$IDLELAB" sim --cpufreq schedutil+
expect_err "--cpufreq: 'schedutil+': '' is not KEY=VALUE"
expect_exit 2 "$IDLELAB" sim --cpufreq schedutil+rate_limit_us=500+rate_limit_us=2
expect_err "rate_limit_us given twice"
expect_exit 2 "$IDLELAB" sim --cpufreq hwp:schedutil
expect_err "has only performance and powersave"
expect_exit 2 "$IDLELAB" sim --cpufreq
expect_err "needs a value"
expect_exit 2 "$IDLELAB" sim --governor menu --governor teo --cpufreq performance \
	--cpufreq powersave --cpufreq schedutil --cpufreq hwp --cpufreq acpi-cpufreq:schedutil
expect_err "at most 8 configurations"
expect_exit 1 "$IDLELAB" sim --platform intel-atom-z8350 --workload gitsource --duration 10ms \
	--cpufreq hwp
expect_err "platform intel-atom-z8350 has no HWP"
expect_exit 1 "$IDLELAB" sim --platform amd-zen3-epyc --workload gitsource --duration 10ms \
	--cpufreq intel_pstate:powersave
expect_err "not an Intel x86 part"
# AMD: invariant where the platform layer's CPPC rule gives a ratio (docs/cpufreq.md, Frequency
# invariance on AMD): 5.13's (255 x 1024 / 177 + 1024) >> 1 = 1249, 2450 x 1249 / 1024 MHz; the
# built-in EPYC files give no CPPC values (acpi_cpc = no, dropped here): not invariant, as before 5.11
sed -e '/^acpi_cpc = no$/d' -e '/^base_mhz = 2450/a cppc_highest_perf = 228\ncppc_nominal_perf = 177\ncppc_preferred_cores = no' \
	"$SRCDIR/platforms/amd-zen3-nocstates.ini" >"$TMP/amd-cppc.ini"
for k in 5.10:2450:0 5.13:2988.3:1 6.12:2801.7:1; do
	expect_exit 0 "$IDLELAB" sim --platform "$TMP/amd-cppc.ini" --workload idle --duration 10ms \
		--cpufreq schedutil --kernel "${k%%:*}"
	v=${k#*:}
	grep -Eq "^cpufreq/freq_max_mhz +MHz +${v%%:*}\$" "$TMP/out" &&
		grep -Eq "^cpufreq/invariant +${v#*:}\$" "$TMP/out" && ok ||
		bad "AMD --cpufreq at ${k%%:*}: $(grep '^cpufreq/\(freq_max\|invariant\)' "$TMP/out")"
done
# the layer on AMD is acpi-cpufreq: with preferred cores at 6.12, 166 below nominal_perf 177, the
# driver's boost ratio is unknown and it sets ratio 1024 (d11a1d08a082): freq_max is base
sed -e 's/^cppc_preferred_cores = no/cppc_preferred_cores = yes/' "$TMP/amd-cppc.ini" >"$TMP/amd-pc.ini"
expect_exit 0 "$IDLELAB" sim --platform "$TMP/amd-pc.ini" --workload idle --duration 10ms \
	--cpufreq schedutil --kernel 6.12
grep -Eq "^cpufreq/freq_max_mhz +MHz +2450$" "$TMP/out" && ok ||
	bad "AMD acpi-cpufreq below nominal: $(grep '^cpufreq/freq_max' "$TMP/out")"
expect_exit 0 "$IDLELAB" sim --platform amd-zen3-nocstates --workload idle --duration 10ms \
	--cpufreq schedutil --kernel 6.18
grep -Eq "^cpufreq/invariant +0$" "$TMP/out" && ok || bad "amd-zen3-nocstates is invariant"
# a CPPC ratio so large that mcnt x arch_max_freq_ratio overflows 64 bits (2^41 from highest_perf
# 2^32 - 1 over nominal_perf 1; at 2097.152 MHz a busy 4 ms tick is 2^23 cycles, the product 0):
# the kernel's tick (e2b0d619b400) turns invariance off, no crash, no wrapped freq_scale
sed -e '/^acpi_cpc = no$/d' -e '/^base_mhz = 2450/c base_mhz = 2097.152\ncppc_highest_perf = 4294967295\ncppc_nominal_perf = 1\ncppc_preferred_cores = no' \
	"$SRCDIR/platforms/amd-zen3-nocstates.ini" >"$TMP/amd-huge.ini"
for w in kernbench gitsource; do
	expect_exit 0 "$IDLELAB" sim --platform "$TMP/amd-huge.ini" --workload $w --duration 20ms \
		--cpufreq schedutil --kernel 6.12
	grep -Eq "^cpufreq/invariant +0$" "$TMP/out" && ok ||
		bad "$w: a ratio that overflows the tick's product stays invariant"
done
# policy limits below the lowest P-state, freq_max below base: refused, not run
expect_exit 1 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq schedutil+max_mhz=1 --output "$TMP/lim.txt"
expect_err "max_mhz=1 is below the lowest frequency of platform intel-cascadelake-sp, 1000 MHz"
[ ! -e "$TMP/lim.txt" ] && ok || bad "a refused run left its output"
expect_exit 1 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq schedutil+min_mhz=999
expect_err "min_mhz=999 is below the lowest frequency"
expect_exit 1 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq schedutil+freq_max_mhz=1
expect_err "freq_max_mhz=1 is below the base frequency of platform intel-cascadelake-sp, 2400 MHz"
expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq schedutil+min_mhz=1000+max_mhz=1000+freq_max_mhz=2400
# every key given names the configuration: two specs that run differently never share a label
expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq schedutil+rate_limit_us=100+min_mhz=1500+domain=core --cpufreq schedutil
expect_out "menu@6.18 cpufreq=schedutil+rate_limit_us=100+min_mhz=1500+domain=core: metrics"
expect_out "menu@6.18 cpufreq=schedutil: metrics"
# a floor above base is kept (the policy's max bounds it, not base): gitsource runs at it
expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload gitsource --duration 200ms \
	--cpufreq schedutil+min_mhz=3500 --format csv
python3 - "$TMP/out" <<'PY' && ok || bad "min_mhz=3500 not kept"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 12 and r[10] == "mean_mhz"]
assert rows and float(rows[0][12]) > 3400, rows
PY
# a spec longer than a configuration holds is refused, not cut
long=intel_cpufreq:schedutil+invariance=on+util_est=off+rate_limit_us=100+transition_us=30+min_mhz=1500
expect_exit 2 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq "$long+max_mhz=3000"
expect_err "is longer than 95 characters"
# EPP and the HWP window exist only with HWP
expect_exit 1 "$IDLELAB" sim --platform intel-cascadelake-sp --workload idle --duration 10ms \
	--cpufreq performance+epp=5
expect_err "intel_cpufreq:performance: epp is for the hwp driver only"

expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload gitsource --duration 50ms \
	--cpufreq schedutil+invariance=off --cpufreq schedutil
expect_out "menu@6.18 cpufreq=schedutil+invariance=off: metrics over 1 run"
expect_out "menu@6.18 cpufreq=schedutil: metrics over 1 run"
expect_out "cpufreq/mean_mhz"
expect_out "cpufreq/freq_max_mhz"
expect_out "gitsource/procs_per_j"
expect_exit 0 "$IDLELAB" sim --platform intel-cascadelake-sp --workload gitsource --duration 50ms
if grep -q "cpufreq" "$TMP/out"; then bad "cpufreq rows without --cpufreq"; else ok; fi
if grep -q "procs_per_j" "$TMP/out"; then ok; else bad "gitsource without procs_per_j"; fi

# --kernel decides invariance: none before 5.7, the 4C bin (3700 MHz on the E3-1240 v5) from 5.7
expect_exit 0 "$IDLELAB" sim --platform intel-skylake-client --workload gitsource --duration 20ms \
	--kernel 5.6 --cpufreq schedutil
if grep -qE "cpufreq/invariant +0$" "$TMP/out"; then ok; else bad "5.6: invariant"; fi
expect_exit 0 "$IDLELAB" sim --platform intel-skylake-client --workload gitsource --duration 20ms \
	--kernel 5.7 --cpufreq schedutil
if grep -qE "cpufreq/invariant +1$" "$TMP/out"; then ok; else bad "5.7: not invariant"; fi
if grep -qE "cpufreq/freq_max_mhz +MHz +3700$" "$TMP/out"; then ok; else bad "5.7: freq_max"; fi

# a scenario configuration's cpufreq key: checked when the file is read, FILE:LINE
sed 's/^governor = menu$/governor = menu\ncpufreq = schedutil+colour=red/' \
	"$SRCDIR/tests/fixtures/scenario/tiny.ini" >"$TMP/bad-cf.ini"
line=$(grep -n '^cpufreq = ' "$TMP/bad-cf.ini" | cut -d: -f1)
expect_exit 1 "$IDLELAB" scenario show "$TMP/bad-cf.ini"
expect_err "bad-cf.ini:$line: cpufreq: 'schedutil+colour=red': unknown key 'colour'"
# and a good one runs with the layer, its label saying so
sed 's/^governor = menu$/governor = menu\ncpufreq = performance/' \
	"$SRCDIR/tests/fixtures/scenario/tiny.ini" >"$TMP/cf.ini"
expect_exit 0 "$IDLELAB" scenario run "$TMP/cf.ini" --quick --quiet --jobs 1
expect_out "menu@"
expect_out "cpufreq=performance"
# tbench with one client under invariant schedutil: the pair's CPUs keep the
# tick, so schedutil's busy rule holds the first request; a wake-up that finds
# its previous CPU running the watchdog's stopper thread moves to an idle core,
# whose request is not held (docs/cpufreq.md). Without the thread the pair
# never moves after the release and keeps the higher frequency.
tb() {
	"$IDLELAB" sim --platform "$1" --kernel 5.7 --cpufreq intel_cpufreq:schedutil+invariance=on \
		--workload request-response --wl-opt pairs=1 --wl-opt mix=tbench --wl-opt start=100ms \
		--duration 30s --warmup 500ms --format json >"$2" 2>"$TMP/err"
}
grep -v '^watchdog_stopper' "$SRCDIR/platforms/intel-cascadelake-sp.ini" >"$TMP/nostop.ini"
tb "$SRCDIR/platforms/intel-cascadelake-sp.ini" "$TMP/tb.json" && ok || bad "tbench with the stopper"
tb "$TMP/nostop.ini" "$TMP/tb0.json" && ok || bad "tbench without the stopper"
python3 - "$TMP/tb.json" "$TMP/tb0.json" <<'PY' && ok || bad "the stopper did not release tbench's frequency"
import json, sys
def get(f):
    return {(m["row"], m["col"]): m["values"][0] for m in json.load(open(f))["configs"][0]["metrics"]}
a, b = get(sys.argv[1]), get(sys.argv[2])
assert a[("stopper", "from_idle")] > 0 and ("stopper", "from_idle") not in b
assert a[("request-response", "migrations_pct")] > 0
assert b[("request-response", "migrations_pct")] == 0
assert a[("cpufreq", "mean_mhz")] < b[("cpufreq", "mean_mhz")] - 100
PY
finish
