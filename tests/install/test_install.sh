#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# meson install into a staging directory, then build examples/menu-demo.c
# against what was installed, with nothing but `pkg-config --cflags --libs
# idlelab` (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR point into the staging
# directory): once against the shared library, once static. Its decisions
# are menu@6.12's: the same as `idlelab replay` and the Python reference
# (tools/ref/menu_ref.py) give for the same inputs (examples/menu-demo.log).
# Every installed header compiles on its own with those flags.
. "$SRCDIR/tests/cli/lib.sh"
FX=$SRCDIR/tests/fixtures/install
DEST=$TMP/dest
CC=${CC:-cc}
# a library built with sanitizers needs its users built with them
SAN=
[ "${IDLELAB_SANITIZE:-none}" = none ] || SAN="-fsanitize=$IDLELAB_SANITIZE"

"${MESON:-meson}" install -C "$BUILDDIR" --no-rebuild --destdir "$DEST" >"$TMP/install.log" 2>&1 ||
	{ bad "meson install failed:"; cat "$TMP/install.log" >&2; finish; exit 1; }
pc=$(find "$DEST" -name idlelab.pc)
[ -n "$pc" ] && ok || { bad "no idlelab.pc installed"; finish; exit 1; }
export PKG_CONFIG_PATH=${pc%/idlelab.pc} PKG_CONFIG_SYSROOT_DIR=$DEST
cflags=$(pkg-config --cflags idlelab) && libs=$(pkg-config --libs idlelab) &&
	slibs=$(pkg-config --static --libs idlelab) && ok || bad "pkg-config idlelab failed"
# pkgconf puts the sysroot before the variables too, pkg-config does not
libdir=$(pkg-config --variable=libdir idlelab)
incdir=$(pkg-config --variable=includedir idlelab)/idlelab
[ -d "$libdir" ] || libdir=$DEST$libdir
[ -d "$incdir" ] || incdir=$DEST$incdir
# what is installed
for f in "$libdir/libidlelab.a" "$libdir/libidlelab.so"; do
	[ -e "$f" ] && ok || bad "$f not installed"
done
[ -x "$(find "$DEST" -path '*/bin/idlelab')" ] && ok || bad "bin/idlelab not installed"
[ -f "$(find "$DEST" -path '*/share/bash-completion/completions/idlelab')" ] && ok ||
	bad "bash completion not installed"
for c in idlelab idlelab-sim idlelab-replay idlelab-scenario; do
	[ -n "$(find "$DEST" -path "*/share/man/man1/$c.1")" ] && ok || bad "man page $c.1 not installed"
done
case " $slibs " in *" -lz "*) ok ;; *) bad "--static lacks -lz: $slibs" ;; esac
case " $slibs " in *" -linih "*) ok ;; *) bad "--static lacks -linih: $slibs" ;; esac
case " $slibs " in *" -lm "*) ok ;; *) bad "--static lacks -lm: $slibs" ;; esac

# every header of the source tree installed, and each compiles alone
for h in "$SRCDIR"/include/idlelab/*.h; do
	n=${h##*/}
	[ -f "$incdir/$n" ] && ok || { bad "$n not installed"; continue; }
	echo "#include <idlelab/$n>" >"$TMP/h.c"
	# shellcheck disable=SC2086
	if $CC -std=c11 -pedantic -Wall -Wextra -Werror $cflags -fsyntax-only "$TMP/h.c" 2>"$TMP/err"; then ok; else
		bad "idlelab/$n does not compile on its own:"; cat "$TMP/err" >&2
	fi
done

# the headers from C++: every declaration inside extern "C", so a C++
# program links against the C library (a name mangled by C++ would be
# an undefined symbol here)
CXX=${CXX:-c++}
if command -v "$CXX" >/dev/null 2>&1; then
	{
		for h in "$SRCDIR"/include/idlelab/*.h; do echo "#include <idlelab/${h##*/}>"; done
		cat <<'CXXEOF'
#include <cstdio>
int main()
{
	struct il_err err;
	struct il_gov *gov = il_gov_new("menu@6.12", 1, &err);
	if (!gov)
		return 1;
	il_gov_free(gov);
	std::puts("ok");
	return 0;
}
CXXEOF
	} >"$TMP/all.cpp"
	# shellcheck disable=SC2086
	$CXX $SAN -std=c++17 -Wall -Werror -o "$TMP/cxx-demo" "$TMP/all.cpp" $cflags $libs 2>"$TMP/err" &&
		ok || { bad "the headers do not build and link from C++:"; cat "$TMP/err" >&2; }
	expect_exit 0 env LD_LIBRARY_PATH="$libdir" "$TMP/cxx-demo"
else
	echo "# no C++ compiler ($CXX): the extern \"C\" check skipped" >&2
fi

# the example against the shared library
# shellcheck disable=SC2086
$CC $SAN -Wall -Wextra -Werror -o "$TMP/menu-demo" "$SRCDIR/examples/menu-demo.c" $cflags $libs 2>"$TMP/err" &&
	ok || { bad "menu-demo does not build against the shared library:"; cat "$TMP/err" >&2; }
LD_LIBRARY_PATH=$libdir ldd "$TMP/menu-demo" | grep -q "libidlelab.so.* => $libdir/" && ok ||
	bad "menu-demo does not use the installed libidlelab.so"
expect_exit 0 env LD_LIBRARY_PATH="$libdir" "$TMP/menu-demo"
expect_same "$FX/menu-demo.out"

# and static (a sanitizer runtime cannot be linked statically: those builds skip it)
if [ -z "$SAN" ]; then
	# shellcheck disable=SC2046,SC2086
	$CC -static -Wall -Wextra -Werror -o "$TMP/menu-demo-static" "$SRCDIR/examples/menu-demo.c" \
		$(pkg-config --static --cflags --libs idlelab) 2>"$TMP/err" && ok ||
		{ bad "menu-demo does not build static:"; cat "$TMP/err" >&2; }
	ldd "$TMP/menu-demo-static" >/dev/null 2>&1 && bad "menu-demo-static is dynamic" || ok
	expect_exit 0 "$TMP/menu-demo-static"
	expect_same "$FX/menu-demo.out"
fi

# the decisions are menu@6.12's: the installed idlelab replays the same inputs
# to them, and so does the independent reference
awk '{ printf "%d,%d,%d\n", $1, $6, ($8 == "stop") }' "$FX/menu-demo.out" >"$TMP/demo.dec"
tail -n +2 "$FX/menu-demo.expect" >"$TMP/want.dec"
diff -u "$TMP/want.dec" "$TMP/demo.dec" >&2 && ok || bad "menu-demo.out disagrees with menu-demo.expect"
expect_exit 0 "$(find "$DEST" -path '*/bin/idlelab')" replay --governor menu@6.12 --quiet --strict \
	--expect "$FX/menu-demo.expect" "$SRCDIR/examples/menu-demo.log"
if command -v python3 >/dev/null; then
	python3 "$SRCDIR/tools/ref/menu_ref.py" menu@6.12 "$SRCDIR/examples/menu-demo.log" "$TMP/ref.csv" &&
		diff -u "$FX/menu-demo.expect" "$TMP/ref.csv" >&2 && ok || bad "the reference decides otherwise"
else
	bad "python3 is needed for tools/ref/menu_ref.py"
fi
# the log holds the table idlelab builds for the platform
"$(find "$DEST" -path '*/bin/idlelab')" platform show intel-skylake-client --kernel 6.12 --format csv |
	awk -F, 'NR > 1 { printf "%s,%s,%d,%d\n", $5, $6, $8 * 1000, $9 * 1000 }' >"$TMP/plat.st"
awk -F, '/^# state,/ { printf "%s,%s,%s,%s\n", $2, $3, $4, $5 }' "$SRCDIR/examples/menu-demo.log" >"$TMP/log.st"
diff -u "$TMP/plat.st" "$TMP/log.st" >&2 && ok || bad "menu-demo.log's states are not the platform's"
finish
