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

finish
