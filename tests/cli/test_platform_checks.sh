#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Refusals of issue 9: kernel releases outside the modelled range, misspelt
# boot/module options, unknown and duplicate platform keys, state-name keys
# naming no state the platform can have.
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
f=$TMP/p.ini

# --- --kernel outside 5.4..7.1: bad usage (2) on every command that takes it ---
for k in banana 2.6 99.0 5.20 6.20 7.2 5.15.120 6.012; do
	expect_exit 2 "$I" platform show kvm-haltpoll --kernel "$k"
	expect_err "--kernel"
	expect_exit 2 "$I" sim --kernel "$k" --duration 10ms
	expect_err "--kernel"
done
expect_exit 2 "$I" platform show kvm-haltpoll --kernel 2.6
expect_err "kernel release 2.6 is outside the releases idlelab models (5.4 to 7.1)"
expect_exit 2 "$I" sim --kernel banana --duration 10ms
expect_err "kernel release 'banana' is not MAJOR.MINOR"
if [ -s "$TMP/out" ]; then bad "sim --kernel banana printed output"; else ok; fi
for k in 5.4 5.19 6.0 6.19 7.0 7.1; do
	expect_exit 0 "$I" platform show kvm-haltpoll --kernel "$k" --lines
done
# a platform file's release: FILE:LINE, bad input (1)
printf '[platform]\nname = x\n[kernel]\nrelease = 2.6\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:4: release: kernel release 2.6 is outside the releases idlelab models"
printf '[platform]\nname = x\n[kernel]\nrelease = banana\n' >"$f"
expect_exit 1 "$I" sim --platform "$f" --duration 10ms
expect_err "$f:4: release: kernel release 'banana' is not MAJOR.MINOR"

# --- misspelt boot/module options: refused with the name, exit 2 on the command line ---
expect_exit 2 "$I" platform show intel-haswell-ep --option intel_idle.max_csate=1
expect_err "--option intel_idle.max_csate=1: unknown boot/module option 'intel_idle.max_csate' (did you mean 'intel_idle.max_cstate'?"
if [ -s "$TMP/out" ]; then bad "platform show printed output for a bad --option"; else ok; fi
# -o is capture's output: show and history refuse it as theirs, not as a --set
for sub in show history; do
	expect_exit 2 "$I" platform $sub kvm-haltpoll -o "$TMP/k.txt"
	expect_err "platform: $sub prints to standard output: -o FILE is capture's"
	grep -q -- "--set" "$TMP/err" && bad "platform $sub -o: refused as a --set: $(cat "$TMP/err")" || ok
	[ -e "$TMP/k.txt" ] && bad "platform $sub -o wrote a file" || ok
done
# the refusal names the spelling typed: --set, or its deprecated alias --option
expect_exit 2 "$I" platform show intel-haswell-ep --set intel_idle.max_csate=1
expect_err "--set intel_idle.max_csate=1: unknown boot/module option 'intel_idle.max_csate'"
expect_exit 2 "$I" sim --set idel=halt --duration 10ms
expect_err "--set idel=halt: unknown boot/module option 'idel' (did you mean 'idle'?"
expect_exit 2 "$I" platform show kvm-haltpoll --option haltpoll.guest_halt_poll=0
expect_err "did you mean 'haltpoll.guest_halt_poll_ns'?"
expect_exit 0 "$I" platform show intel-haswell-ep --option intel_idle.max_cstate=0 --lines
# ... and in a platform file: FILE:LINE, exit 1
printf '[platform]\nname = x\n[kernel]\noption = idle=halt\noption = processor.max_csate=1\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:5: option: unknown boot/module option 'processor.max_csate' (did you mean 'processor.max_cstate'?"
# every option name the drivers read is in the table, and every table entry is read
names=$(grep -ohE '(il_platform_option|il_option_bool)\((p|c->p), "[^"]+"|read_(uint|flag)_param\(p, m, "[^"]+"' \
	"$SRCDIR"/src/drivers/*.c | sed 's/.*"\(.*\)"/\1/' | sort -u)
[ -n "$names" ] && ok || bad "no option reads found in src/drivers"
for n in $names; do
	if grep -qF "{ \"$n\"," "$SRCDIR/src/platform/options.c"; then ok; else bad "option $n is read in src/drivers but not in il_boot_options"; fi
done
for n in $(grep -oE '^	\{ "[^"]+",' "$SRCDIR/src/platform/options.c" | sed 's/.*"\(.*\)".*/\1/'); do
	case $n in
	haltpoll.*) grep -qF "\"${n#haltpoll.}\"" "$SRCDIR/src/governors/haltpoll.c" && ok || bad "$n is no haltpoll parameter" ;;
	*) echo "$names" | grep -qxF "$n" && ok || bad "il_boot_options lists $n, which src/drivers does not read" ;;
	esac
done

# --- D11: duplicate keys, sections, [state.N], [cst.N]: both lines, exit 1 ---
printf '[platform]\nname = x\n[cpu]\nmwait = yes\n[kernel]\nhz = 250\n[cpu]\nmwait = no\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:7: duplicate section [cpu] (first at line 3)"
printf '[platform]\nname = x\n[cpu]\nfamily = 6\nfamily = 7\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:5: duplicate key 'family' (first at line 4)"
printf '[platform]\nname = x\n[state.0]\nname = A\nlatency = 0\nresidency = 0\n[state.0]\nname = B\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:7: duplicate section [state.0] (first at line 3)"
printf '[platform]\nname = x\n[cst.1]\ntype = C1\nlatency = 1\nmethod = ffh\n[cst.1]\ntype = C2\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:7: duplicate section [cst.1] (first at line 3)"
printf '[platform]\nname = x\n[kernel]\noption = idle=halt\noption = idle=poll\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:5: option: duplicate option 'idle' (first at line 4)"
printf '[platform]\nname = x\n[colours]\n' >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:3: unknown section [colours]"

# --- keys naming a state the platform cannot have (or that takes its data elsewhere) ---
sed 's/^\[kernel\]/[firmware]\nexit.CEDE = 5us\n[kernel]/' "$SRCDIR/platforms/ibm-power10-shared.ini" >"$f"
line=$(grep -n '^exit.CEDE' "$f" | cut -d: -f1)
expect_exit 1 "$I" platform show "$f"
expect_err "idlelab: $f:$line: exit.CEDE: no state of this platform is named 'CEDE' under any kernel release or option"
sed 's/^\[firmware\]/[firmware]\nexit.CEDE = 5us/' "$SRCDIR/platforms/ibm-power10-dedicated.ini" >"$f"
line=$(grep -n '^exit.CEDE' "$f" | cut -d: -f1)
expect_exit 1 "$I" sim --platform "$f" --duration 10ms
expect_err "$f:$line: exit.CEDE: pseries_idle's state CEDE takes its wake-up latency from hlt_exit, not from exit.NAME"
if [ -s "$TMP/out" ]; then bad "sim printed output for a bad platform"; else ok; fi
# a state that exists only under some option or release is accepted
sed 's/^\[firmware\]/[firmware]\nexit.C2 = 40us\npower.C2 = 1\n/' "$SRCDIR/platforms/intel-haswell-ep.ini" >"$f"
expect_exit 0 "$I" platform show "$f" --lines
expect_exit 0 "$I" platform show "$f" --option intel_idle.max_cstate=0 --format csv
expect_out "2,C2,ACPI IOPORT 0x414,33,66,0,enabled,TURBO_RELEASE,ioport 0x414,40000"
sed 's/^\[firmware\]/[firmware]\nexit.C7s = 200us\n/' "$SRCDIR/platforms/intel-haswell-ep.ini" >"$f"
expect_exit 1 "$I" platform show "$f"
expect_err "exit.C7s: no state of this platform is named 'C7s'"
# firmware.cst_claim is idlelab's own: a value that is no bool is refused
# (as [firmware] cst_claim = maybe is), on the command line and in a file
expect_exit 2 "$I" platform show intel-haswell-ep --set firmware.cst_claim=maybe
expect_err "firmware.cst_claim: 'maybe' is not yes or no"
expect_exit 2 "$I" sim --platform intel-haswell-ep --set firmware.cst_claim=maybe --duration 10ms
expect_err "firmware.cst_claim: 'maybe' is not yes or no"
sed 's/^\[kernel\]/[kernel]\noption = firmware.cst_claim=maybe/' "$SRCDIR/platforms/intel-haswell-ep.ini" >"$f"
line=$(grep -n '^option = firmware.cst_claim' "$f" | cut -d: -f1)
expect_exit 1 "$I" platform show "$f"
expect_err "$f:$line: option: firmware.cst_claim: 'maybe' is not yes or no"
for v in yes no 0 1 ""; do
	expect_exit 0 "$I" platform show intel-haswell-ep --set "firmware.cst_claim${v:+=$v}"
done
# the built-in platforms are valid under these checks
for p in $("$I" platforms --format csv | tail -n +2 | cut -d, -f1); do
	expect_exit 0 "$I" platform show "$p"
done

finish
