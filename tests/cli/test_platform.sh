#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# idlelab platforms / platform show, and refusals of bad platform files.
. "$SRCDIR/tests/cli/lib.sh"

expect_exit 0 "$IDLELAB" platforms
expect_out "kvm-haltpoll"
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
expect_exit 2 "$IDLELAB" platform
expect_exit 2 "$IDLELAB" platform list
finish
