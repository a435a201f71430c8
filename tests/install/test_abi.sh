#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The shared library's ABI is what the installed headers declare: it exports
# every name they declare (a declaration without a definition would link in
# the build and fail for a user) and nothing else (internal helpers stay
# hidden). Also the rules of tools/gen_symbols.py, which reads the headers.
. "$SRCDIR/tests/cli/lib.sh"
GEN="$SRCDIR/tools/gen_symbols.py"

python3 "$GEN" --list "$SRCDIR"/include/idlelab/*.h >"$TMP/declared" || bad "gen_symbols.py --list failed"
nm -D --defined-only "$LIBIDLELAB_SO" | awk '$2 ~ /^[TDRBV]$/ { sub(/@.*/, "", $3); print $3 }' |
	sort >"$TMP/exported"
[ "$(wc -l <"$TMP/declared")" -gt 250 ] && ok || bad "fewer names declared than expected"
if diff -u "$TMP/declared" "$TMP/exported" >"$TMP/diff"; then ok; else
	bad "exported symbols differ from the declared ones (- declared only, + exported only):"
	cat "$TMP/diff" >&2
fi
# a few names the example and users need, and internal helpers that must stay hidden
for n in il_gov_new il_gov_free il_platform_load il_machine_idle_build il_device_init il_account_enter; do
	grep -qx "$n" "$TMP/exported" && ok || bad "$n is not exported"
done
for n in il_xcalloc il_tree_read il_machine_note; do
	grep -qx "$n" "$TMP/exported" && bad "internal $n is exported" || ok
done
readelf -d "$LIBIDLELAB_SO" | grep -q 'SONAME.*libidlelab\.so\.' && ok || bad "no soname"

# the parser of the headers
cat >"$TMP/good.h" <<'H'
#include <stdio.h>
#define il_macro(x) ((x) + 1)
struct il_thing { int (*cb)(int); int il_member; };
enum il_kind { IL_A, IL_B };
typedef int (*il_fn)(void);
/* int not_a_decl(void); */
const char *il_name(const struct il_thing *t) __attribute__((pure));
__attribute__((format(printf, 1, 2))) int il_say(const char *fmt, ...);
extern const struct il_thing *const il_things[];
extern int (*il_hook)(int);
static inline int il_inline(int x)
{
	return x + 1;
}
int il_last(void);
H
python3 "$GEN" --list "$TMP/good.h" >"$TMP/out" 2>"$TMP/err" || bad "good.h refused: $(cat "$TMP/err")"
printf 'il_hook\nil_last\nil_name\nil_say\nil_things\n' >"$TMP/want"
expect_same "$TMP/want"
printf 'int helper(void);\n' >"$TMP/bad1.h"
expect_exit 1 python3 "$GEN" --list "$TMP/bad1.h"
expect_err "public name helper does not start with il_"
printf 'int il_defined(void)\n{\n\treturn 0;\n}\n' >"$TMP/bad2.h"
expect_exit 1 python3 "$GEN" --list "$TMP/bad2.h"
expect_err "must be static"
printf 'int il_open(void)\n' >"$TMP/bad3.h"
expect_exit 1 python3 "$GEN" --list "$TMP/bad3.h"
expect_err 'without ";"'
python3 "$GEN" --map "$TMP/x.map" "$TMP/good.h" && grep -q '^local:' "$TMP/x.map" &&
	grep -q '	il_say;' "$TMP/x.map" && ok || bad "--map wrote no version script"
finish
