#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job on the built-in default platform (README.md, first command).
set -eu
idlelab=$1
echo "== idlelab info (this machine) =="
"$idlelab" info || echo "(no cpuidle sysfs on this machine)"
echo
echo "== idlelab platform show kvm-haltpoll =="
"$idlelab" platform show kvm-haltpoll
