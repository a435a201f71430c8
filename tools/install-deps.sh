#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages idlelab needs, only those that are missing.
#   install-deps.sh build        what building and running idlelab needs (make demo)
#   install-deps.sh build test   that and what the tests, ASan and fuzz runs need (make check)
set -eu
# the compiler, C library and build system (gcc only recommends libc6-dev,
# which --no-install-recommends leaves out); inih reads platform files, zlib the kernel
# configuration in /proc/config.gz; python3 embeds the built-in platforms
# and scenarios and writes the manual pages and the library's symbol list
# libtracecmd-dev (with libtraceevent-dev and libtracefs-dev) lets trace
# report read trace-cmd .dat files; the build goes on without it (text only)
# libopenmpi-dev and openmpi-bin (mpirun) deal sim, scenario and batch runs
# to MPI ranks; the build goes on without them (threads only)
build="gcc libc6-dev make meson ninja-build pkg-config python3 libinih-dev zlib1g-dev
	libtracecmd-dev libtraceevent-dev libtracefs-dev libopenmpi-dev openmpi-bin"
# cmocka: unit tests; json-c: reads back what our JSON writer wrote;
# clang and libclang-rt-14-dev: libFuzzer; groff-base: the manual pages
# checked; chromium: the scenario report's HTML page rendered headless;
# g++: the installed headers built and linked from C++ (extern "C");
# trace-cmd: the live suite's .dat check (trace-cmd extract of an instance)
test="libcmocka-dev libjson-c-dev clang libclang-rt-14-dev groff-base chromium g++ trace-cmd"
[ $# -gt 0 ] || set -- build
pkgs=""
for group; do
	case $group in
	build) pkgs="$pkgs $build" ;;
	test) pkgs="$pkgs $test" ;;
	*) echo "usage: $0 build|test..." >&2; exit 2 ;;
	esac
done
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "idlelab: installing Debian packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	echo "idlelab: need root to install packages (run as root or install:$missing)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
