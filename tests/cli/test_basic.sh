#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The dispatcher: help, version, unknown commands and options.
. "$SRCDIR/tests/cli/lib.sh"

expect_exit 0 "$IDLELAB" --version
expect_out "idlelab "
expect_exit 0 "$IDLELAB" help
for c in info platforms platform replay sim compare; do expect_out "   $c "; done
# the README's list of manual pages names one for every command help lists
for c in $(awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' "$TMP/out"); do
	tr -s ' \n' ' ' <"$SRCDIR/README.md" | grep -qE " idlelab-$c\(1\)[,.]" && ok ||
		bad "README.md: the manual pages lack idlelab-$c(1)"
done
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
