#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab info against the saved sysfs trees in tests/fixtures/sysfs:
# text output compared with <machine>.expected.txt, --json checked with a
# JSON parser, --csv header and rows, --cpu, --save round trips, garbage
# counters, missing directories, usage errors.
# Env: IDLELAB = the binary, SRCDIR = the source root.
set -u
: "${IDLELAB:?set IDLELAB to the idlelab binary}"
: "${SRCDIR:?set SRCDIR to the source root}"
FX="$SRCDIR/tests/fixtures/sysfs"
MACHINES="kvm-haltpoll amd-zen3-acpi_idle intel-icx-intel_idle power-pseries"
T=$(mktemp -d /tmp/test_info.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
checks=0

ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# expect_rc WANT CMD...: run, keep stdout/stderr in $T/out $T/err
expect_rc() {
	local want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "exit $rc, want $want: $*"; sed 's/^/  stderr: /' "$T/err"; return 1
	fi
	ok
}
same() { # same FILE_A FILE_B WHAT
	if cmp -s "$1" "$2"; then ok; else fail "$3"; diff -u "$1" "$2" | head -40; fi
}

# --- text output of every fixture, exactly -------------------------------
for m in $MACHINES; do
	expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/$m" || continue
	same "$FX/$m.expected.txt" "$T/out" "$m: text output differs from $m.expected.txt"
	[ -s "$T/err" ] && fail "$m: unexpected stderr: $(cat "$T/err")"
	# --format table is the same thing
	expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/$m" --format table &&
		same "$FX/$m.expected.txt" "$T/out" "$m: --format table differs"
done

# --- JSON: valid, and the values of the tree -----------------------------
for m in $MACHINES; do
	expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/$m" --json || continue
	if python3 -m json.tool "$T/out" >/dev/null 2>"$T/jerr"; then ok; else
		fail "$m: --json is not valid JSON: $(cat "$T/jerr")"; fi
	cp "$T/out" "$T/$m.json"
done
if python3 - "$T" "$FX" <<'EOF'; then ok; else fail "JSON content checks"; fi
import json, os, sys
T, FX = sys.argv[1], sys.argv[2]
def load(m):
    with open(os.path.join(T, m + ".json")) as f:
        return json.load(f)
def raw(m, rel):
    p = os.path.join(FX, m, rel)
    if not os.path.exists(p):
        return None
    return open(p).read()[:-1]
bad = 0
for m in ["kvm-haltpoll", "amd-zen3-acpi_idle", "intel-icx-intel_idle", "power-pseries"]:
    j = load(m)
    want_gov = raw(m, "cpuidle/current_governor") or raw(m, "cpuidle/current_governor_ro")
    assert j["driver"] == raw(m, "cpuidle/current_driver"), m
    assert j["governor"] == want_gov, m
    ag = raw(m, "cpuidle/available_governors")
    assert j["available_governors"] == (ag.split() if ag is not None else None), m
    cpus = sorted(int(d[3:]) for d in os.listdir(os.path.join(FX, m))
                  if d.startswith("cpu") and d[3:].isdigit())
    assert [c["cpu"] for c in j["cpus"]] == cpus, m
    for c in j["cpus"]:
        sdir = os.path.join(FX, m, "cpu%d" % c["cpu"], "cpuidle")
        n = len([d for d in os.listdir(sdir) if d.startswith("state")])
        assert len(c["states"]) == n, (m, c["cpu"])
        for s in c["states"]:
            rel = "cpu%d/cpuidle/state%d/" % (c["cpu"], s["state"])
            for key, f in [("name", "name"), ("desc", "desc"), ("default_status", "default_status")]:
                assert s[key] == raw(m, rel + f), (m, rel, key)
            for key, f in [("latency_us", "latency"), ("residency_us", "residency"),
                           ("usage", "usage"), ("time_us", "time"), ("above", "above"),
                           ("below", "below"), ("rejected", "rejected"), ("disable", "disable"),
                           ("power_mW", "power"), ("s2idle_usage", "s2idle/usage"),
                           ("s2idle_time_us", "s2idle/time")]:
                r = raw(m, rel + f)
                want = int(r) if r is not None else None
                # power: the kernel's int, printed unsigned by sysfs (POLL's -1)
                if key == "power_mW" and want is not None and want >= 2**31:
                    want -= 2**32
                assert s[key] == want, (m, rel, key, s[key], want)
# the old-kernel tree has nulls, not zeros
j = load("power-pseries")
s = j["cpus"][0]["states"][1]
assert s["above"] is None and s["below"] is None and s["rejected"] is None
assert s["default_status"] is None and s["s2idle_usage"] is None
assert j["available_governors"] is None
EOF

# --- CSV: header row, one row per CPU and state ---------------------------
HDR="cpu,state,name,desc,latency_us,residency_us,usage,time_us,above,below,rejected,disable,default_status,power_mW,s2idle_usage,s2idle_time_us"
for m in $MACHINES; do
	expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/$m" --csv || continue
	if [ "$(head -1 "$T/out")" = "$HDR" ]; then ok; else fail "$m: csv header: $(head -1 "$T/out")"; fi
	nstates=$(ls -d "$FX/$m"/cpu*/cpuidle/state* | wc -l)
	rows=$(($(wc -l <"$T/out") - 1))
	[ "$rows" -eq "$nstates" ] && ok || fail "$m: csv has $rows rows, want $nstates"
done
expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/power-pseries" --csv
grep -qx '50,1,CEDE,CEDE,12,120,270004,283019526849,,,,0,,0,,' "$T/out" &&
	ok || fail "power-pseries: csv row for cpu50 CEDE: $(cat "$T/out")"
expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/amd-zen3-acpi_idle" --format csv
grep -qx '28,2,C2,ACPI IOPORT 0x814,400,800,1244,3411,1201,0,0,0,enabled,0,0,0' "$T/out" &&
	ok || fail "amd: csv row for cpu28 C2: $(cat "$T/out")"

# --- --cpu ----------------------------------------------------------------
expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/intel-icx-intel_idle" --cpu 1-2
grep -q '^idle states (cpus 1-2):$' "$T/out" && grep -q '^cpu1:$' "$T/out" &&
	grep -q '^cpu2:$' "$T/out" && ! grep -q '^cpu[03]:$' "$T/out" && ok ||
	fail "--cpu 1-2: $(cat "$T/out")"
expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/amd-zen3-acpi_idle" --cpu 31
grep -q '^idle states (cpu 31):$' "$T/out" && ! grep -q '^cpu28:$' "$T/out" && ok ||
	fail "--cpu 31: $(cat "$T/out")"
expect_rc 2 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --cpu 3-1 &&
	grep -q "^idlelab: info: bad CPU list '3-1': range '3-1' runs backwards$" "$T/err" && ok ||
	fail "--cpu 3-1 message: $(cat "$T/err")"
expect_rc 2 "$IDLELAB" info --cpu 0,,1 &&
	grep -q "empty item" "$T/err" && ok || fail "--cpu 0,,1 message: $(cat "$T/err")"
expect_rc 1 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --cpu 5 &&
	[ "$(cat "$T/err")" = "idlelab: $FX/kvm-haltpoll/cpu5/cpuidle: no such directory: CPU 5 absent, offline or without cpuidle" ] &&
	[ ! -s "$T/out" ] && ok || fail "--cpu 5 on a 2-CPU tree: $(cat "$T/err")"

# --- --save then --sysfs-root reads it back identically -------------------
for m in $MACHINES; do
	expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/$m" --save "$T/save-$m" || continue
	grep -q "^saved [0-9]* files of $FX/$m to $T/save-$m\$" "$T/out" && ok ||
		fail "$m: save message: $(cat "$T/out")"
	# the metadata of a copy of a tree that had none says so
	grep -qx "note: copied from a tree without metadata" "$T/save-$m/idlelab-meta.txt" &&
		grep -qx "sysfs_root: $FX/$m" "$T/save-$m/idlelab-meta.txt" && ok ||
		fail "$m: metadata of the copy: $(cat "$T/save-$m/idlelab-meta.txt")"
	diff -r -x README.md -x idlelab-meta.txt "$FX/$m" "$T/save-$m" >"$T/diff" && ok ||
		{ fail "$m: saved tree differs"; head -20 "$T/diff"; }
	for fmt in table csv json; do
		"$IDLELAB" info --sysfs-root "$FX/$m" --format $fmt >"$T/a" 2>&1
		"$IDLELAB" info --sysfs-root "$T/save-$m" --format $fmt >"$T/b" 2>&1
		[ $fmt = json ] && sed -i '/"sysfs_root"/d' "$T/a" "$T/b"
		same "$T/a" "$T/b" "$m: --format $fmt of the saved copy differs"
	done
done
expect_rc 0 "$IDLELAB" info --sysfs-root "$FX/intel-icx-intel_idle" --cpu 3 --save "$T/one"
[ -d "$T/one/cpu3" ] && [ ! -e "$T/one/cpu0" ] && ok || fail "--save --cpu 3 saved other CPUs"
expect_rc 1 "$IDLELAB" info --sysfs-root "$FX/kvm-haltpoll" --save "$T/one" &&
	[ "$(cat "$T/err")" = "idlelab: $T/one: already exists (will not overwrite)" ] && ok ||
	fail "--save onto an existing directory: $(cat "$T/err")"
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/nosuch" --save "$T/never"
[ ! -e "$T/never" ] && ! ls -d "$T"/never.tmp.* >/dev/null 2>&1 && ok ||
	fail "failed --save left a directory"

# --- links out of the root are not followed; --save keeps the kernel's rules
umask 022
cp -r "$FX/kvm-haltpoll" "$T/hostile"
echo 'root:s3cret:19000:0:99999:7:::' >"$T/shadow"
chmod 600 "$T/shadow"
rm "$T/hostile/cpu0/cpuidle/state0/desc" "$T/hostile/cpu1/cpuidle/state1/name"
ln -s "$T/shadow" "$T/hostile/cpu0/cpuidle/state0/desc"
ln -s ../../../../shadow "$T/hostile/cpu1/cpuidle/state1/name"
chmod 600 "$T/hostile/cpu0/cpuidle/state1/usage"
chmod 666 "$T/hostile/cpuidle/current_driver"
cat >"$T/want_err" <<EOF
idlelab: $T/hostile/cpu0/cpuidle/state0/desc: symbolic link: not followed (sysfs has none here)
idlelab: $T/hostile/cpu1/cpuidle/state1/name: symbolic link: not followed (sysfs has none here)
EOF
for fmt in table csv json; do
	expect_rc 1 "$IDLELAB" info --sysfs-root "$T/hostile" --format $fmt
	! grep -q s3cret "$T/out" && ok || fail "--format $fmt shows a file outside the root"
	same "$T/want_err" "$T/err" "links below the root: stderr"
done
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/hostile" --save "$T/hsave"
same "$T/want_err" "$T/err" "--save of links below the root: stderr"
! grep -rq s3cret "$T/hsave" && [ ! -e "$T/hsave/cpu0/cpuidle/state0/desc" ] &&
	[ ! -e "$T/hsave/cpu1/cpuidle/state1/name" ] && ok || fail "--save copied a file outside the root"
# modes are the kernel's, not the source's: 0644 for disable and current_governor, else 0444
find "$T/hsave" -type f -printf '%m %P\n' | awk '
	{ want = ($2 ~ /\/disable$/ || $2 == "cpuidle/current_governor") ? "644" : "444" }
	$1 != want { print "mode " $1 " of " $2 " (want " want ")"; bad = 1 }
	END { exit bad }' >"$T/modes" && ok || fail "--save modes: $(cat "$T/modes")"
[ -z "$(find "$T/hsave" -type d ! -perm 755)" ] && ok || fail "--save directory modes"

# --- garbage and missing files: reported per file, n/a, exit 1 ------------
cp -r "$FX/kvm-haltpoll" "$T/g"
echo xyz >"$T/g/cpu0/cpuidle/state1/usage"
printf '12345678901234567890123\n' >"$T/g/cpu1/cpuidle/state0/time"
rm "$T/g/cpu1/cpuidle/state1/above" "$T/g/cpu1/cpuidle/state1/desc"
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/g"
cat >"$T/want_err" <<EOF
idlelab: $T/g/cpu0/cpuidle/state1/usage: not a number: 'xyz'
idlelab: $T/g/cpu1/cpuidle/state0/time: out of range: '12345678901234567890123'
idlelab: $T/g/cpu1/cpuidle/state1/desc: missing
EOF
same "$T/want_err" "$T/err" "garbage tree: stderr"
grep -q '^    1  haltpoll idle  n/a    946371061      0      0         0        0$' "$T/out" && ok ||
	fail "garbage usage not shown as n/a: $(cat "$T/out")"
grep -q '^idle states of cpu1:$' "$T/out" && ok || fail "cpu1's state table differs now: per-CPU tables expected"
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/g" --json &&
	python3 -m json.tool "$T/out" >/dev/null && ok || fail "garbage tree: --json invalid"
grep -q '"usage": null' "$T/out" && ok || fail "garbage usage not null in JSON"

# --- text that is not UTF-8 or needs escapes still gives valid JSON -------
cp -r "$FX/kvm-haltpoll" "$T/u"
printf 'C\xff\xfe1 "q"\n' >"$T/u/cpu0/cpuidle/state1/name"
printf 'caf\xc3\xa9\tback\\slash\n' >"$T/u/cpu0/cpuidle/state1/desc"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/u" --json
if python3 - "$T/out" <<'EOF'; then ok; else fail "non-UTF-8 names: JSON: $(cat "$T/out")"; fi
import json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
s = j["cpus"][0]["states"][1]
assert s["name"] == 'C\ufffd\ufffd1 "q"', repr(s["name"])
assert s["desc"] == 'caf\u00e9\tback\\slash', repr(s["desc"])
EOF

# --- per-CPU drivers (CPUIDLE_MULTIPLE_DRIVERS): one state table per CPU ---
cp -r "$FX/kvm-haltpoll" "$T/md"
mkdir "$T/md/cpu1/cpuidle/driver" && echo other_idle >"$T/md/cpu1/cpuidle/driver/name"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/md"
grep -qx 'idle states of cpu0:' "$T/out" && grep -qx 'idle states of cpu1 (driver other_idle):' "$T/out" &&
	ok || fail "per-CPU driver tables: $(cat "$T/out")"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/md" --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["cpus"][1]["driver"] == "other_idle" and "driver" not in j["cpus"][0]' "$T/out" &&
	ok || fail "per-CPU driver in JSON: $(cat "$T/out")"

# --- no idle driver registered: cpuidle/ but no per-CPU directories -------
mkdir -p "$T/nodrv/cpuidle" "$T/nodrv/cpu0" "$T/nodrv/cpu1"
echo none >"$T/nodrv/cpuidle/current_driver"
echo menu >"$T/nodrv/cpuidle/current_governor"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/nodrv"
printf 'driver: none\ngovernor: menu\navailable governors: n/a\n\nno CPU has a cpuidle directory\n' >"$T/want"
same "$T/want" "$T/out" "tree without an idle driver"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/nodrv" --json && python3 -m json.tool "$T/out" >/dev/null &&
	grep -q '"cpus": \[\]' "$T/out" && ok || fail "no-driver JSON: $(cat "$T/out")"
# --interval has nothing to sample there: it says why, exit 1, no empty tables
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/nodrv" --interval 10ms --count 1
[ ! -s "$T/out" ] && ok || fail "--interval without an idle driver printed: $(cat "$T/out")"
grep -q "nodrv: no CPU has a cpuidle directory (no cpuidle driver" "$T/err" && ok ||
	fail "--interval without an idle driver: $(cat "$T/err")"
expect_rc 0 "$IDLELAB" info --sysfs-root "$T/nodrv" --csv && [ "$(cat "$T/out")" = "$HDR" ] && ok ||
	fail "no-driver CSV: $(cat "$T/out")"

# --- missing cpuidle directory, missing root ------------------------------
mkdir -p "$T/nocpuidle/cpu0"
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/nocpuidle" &&
	[ "$(cat "$T/err")" = "idlelab: $T/nocpuidle/cpuidle: no cpuidle directory: kernel without CONFIG_CPU_IDLE or booted with cpuidle.off=1" ] &&
	[ ! -s "$T/out" ] && ok || fail "missing cpuidle dir: $(cat "$T/err")"
expect_rc 1 "$IDLELAB" info --sysfs-root "$T/nosuch" &&
	[ "$(cat "$T/err")" = "idlelab: $T/nosuch: cannot open: No such file or directory" ] && ok ||
	fail "missing root: $(cat "$T/err")"

# --- the live test's own logic: skips without cpuidle, passes on fixtures --
IDLELAB_LIVE_SYSFS="$T/nocpuidle" bash "$SRCDIR/tests/cli/test_info_live.sh" >"$T/out" 2>&1
[ $? -eq 77 ] && ok || fail "test_info_live.sh does not skip without cpuidle: $(cat "$T/out")"
for m in $MACHINES; do
	IDLELAB_LIVE_SYSFS="$FX/$m" bash "$SRCDIR/tests/cli/test_info_live.sh" >"$T/out" 2>&1 && ok ||
		fail "test_info_live.sh on $m: $(cat "$T/out")"
done

# --- usage errors ---------------------------------------------------------
expect_rc 2 "$IDLELAB" info --bogus && grep -q "unknown option '--bogus'" "$T/err" && ok ||
	fail "unknown option: $(cat "$T/err")"
expect_rc 2 "$IDLELAB" info --cpu && grep -q "option '--cpu' needs a value" "$T/err" && ok ||
	fail "missing value: $(cat "$T/err")"
expect_rc 2 "$IDLELAB" info --format xml && grep -q "unknown format 'xml'" "$T/err" && ok ||
	fail "bad format: $(cat "$T/err")"
expect_rc 2 "$IDLELAB" info --save "$T/x" --json && grep -q "takes no output format" "$T/err" && ok ||
	fail "--save --json: $(cat "$T/err")"
expect_rc 2 "$IDLELAB" info extra && grep -q "unexpected argument 'extra'" "$T/err" && ok ||
	fail "extra argument: $(cat "$T/err")"
expect_rc 0 "$IDLELAB" help info && grep -q -- "--sysfs-root DIR" "$T/out" && ok ||
	fail "help info"

echo "test_info: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
