#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The manual pages generated from `idlelab help` (tools/gen_man.py): one per
# command the binary has and idlelab(1), each accepted by groff without a
# warning, and each saying every word of its help in the help's order (the
# help is their only source: nothing lost, nothing reordered).
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
if ! command -v groff >/dev/null; then
	bad "groff is needed to check the manual pages (Debian groff-base; make check installs it)"
	finish
	exit 1
fi
cmds=$("$I" help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 12 ] && ok || bad "idlelab help lists too few commands: $cmds"
pages=$(cd "$MANDIR" && ls idlelab*.1)
want=$( (echo idlelab.1; for c in $cmds; do echo "idlelab-$c.1"; done) | sort)
[ "$(echo "$pages" | sort)" = "$want" ] && ok || bad "pages $pages, want $want"

# words of TEXT (file 1) appear in the page (file 2) in the same order
subseq() {
	python3 - "$1" "$2" <<'PY'
import sys
norm = lambda s: s.replace('`', '').replace('\u2019', "'").replace('\u2018', "'") \
    .replace('\u2010', '-').replace('\u2212', '-')
want = norm(open(sys.argv[1], encoding='utf-8').read()).split()
have = norm(open(sys.argv[2], encoding='utf-8').read()).split()
i = 0
for k, w in enumerate(want):
    while i < len(have) and have[i] != w:
        i += 1
    if i == len(have):
        print(f'word {k} {w!r} (after {" ".join(want[max(0, k - 6):k])!r}) not found in order')
        sys.exit(1)
    i += 1
PY
}

for p in $pages; do
	groff -man -Tutf8 -ww -z "$MANDIR/$p" 2>"$TMP/err"
	[ ! -s "$TMP/err" ] && ok || { bad "groff warns on $p:"; cat "$TMP/err" >&2; }
	groff -man -Tutf8 -P-cbou "$MANDIR/$p" >"$TMP/page" 2>/dev/null
	c=${p#idlelab}; c=${c#-}; c=${c%.1}
	# shellcheck disable=SC2086
	"$I" help $c | sed '1s/^usage: //; s/^Commands:$/COMMANDS/' >"$TMP/help"
	if subseq "$TMP/help" "$TMP/page" >"$TMP/why"; then ok; else bad "$p lacks help text: $(cat "$TMP/why")"; fi
	grep -q '^NAME' "$TMP/page" && grep -q '^SYNOPSIS' "$TMP/page" && grep -q '^SEE ALSO' "$TMP/page" &&
		ok || bad "$p lacks a NAME, SYNOPSIS or SEE ALSO section"
done
# the options are a list with the option in bold
grep -q '^\\fB\\-g\\fR, \\fB\\-\\-governor\\fR \\fISPEC\\fR$' "$MANDIR/idlelab-replay.1" && ok ||
	bad "replay's --governor is not an option item"
grep -q '^\.SH OPTIONS' "$MANDIR/idlelab-replay.1" && ok || bad "idlelab-replay.1 has no OPTIONS"
# the command list links the pages
grep -q 'idlelab\\-sim\\fR(1)' "$MANDIR/idlelab.1" && ok || bad "idlelab.1 does not point at idlelab-sim(1)"

# the generator refuses a page list that is not the binary's commands
mkdir "$TMP/m"
expect_exit 1 python3 "$SRCDIR/tools/gen_man.py" "$I" 0 "$TMP/m" info sim
expect_err "idlelab has the commands"
finish
