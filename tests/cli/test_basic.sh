#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The dispatcher: help, version, unknown commands and options.
. "$SRCDIR/tests/cli/lib.sh"

expect_exit 0 "$IDLELAB" --version
expect_out "idlelab "
expect_exit 0 "$IDLELAB" help
for c in info platforms platform replay sim compare; do expect_out "   $c "; done
expect_exit 0 "$IDLELAB" help platform
expect_out "usage: idlelab platform show"
expect_exit 0 "$IDLELAB" platform --help
expect_out "usage: idlelab platform show"
expect_exit 2 "$IDLELAB"
expect_err "usage: idlelab"
expect_exit 2 "$IDLELAB" frobnicate
expect_err "idlelab: 'frobnicate' is not an idlelab command"
expect_exit 2 "$IDLELAB" help frobnicate
expect_err "'frobnicate' is not an idlelab command"
expect_exit 2 "$IDLELAB" help platform --bogus
expect_err "help: unexpected argument '--bogus'"
expect_exit 2 "$IDLELAB" platforms --bogus
expect_err "unknown option '--bogus'"
expect_err "Try 'idlelab help platforms'"
expect_exit 2 "$IDLELAB" platforms --format xml
expect_err "unknown format 'xml'"
finish
