#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages idlelab needs, only those that are missing.
set -eu
# chromium: the scenario report's HTML page rendered headless (tests/cli/test_scenario_html.sh)
pkgs="gcc clang meson ninja-build pkg-config python3 libinih-dev libcmocka-dev libjson-c-dev zlib1g-dev libclang-rt-14-dev chromium"
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
