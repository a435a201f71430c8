#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The main job on the built-in default platform (README.md, first command):
# the CI guest (kvm-haltpoll) running a ping-pong between its two vCPUs under
# the haltpoll governor as the guest boots it (guest_halt_poll_ns=0: never
# polls), with the kernel's default poll window (200 us), and under menu and
# teo; 3 runs each, compared. Then the live machine's own counters.
set -eu
idlelab=$1
out=$(dirname "$idlelab")/demo-pingpong.json
echo "== idlelab sim --platform kvm-haltpoll --workload pingpong: 4 governors x 3 runs =="
"$idlelab" sim --platform kvm-haltpoll --workload pingpong --duration 1s --runs 3 \
	--governor haltpoll --governor haltpoll+guest_halt_poll_ns=200000 \
	--governor menu --governor teo --format json --output "$out"
"$idlelab" compare "$out"
echo "(full per-run results: $out)"
echo
echo "== idlelab info (this machine) =="
"$idlelab" info || echo "(no cpuidle sysfs on this machine)"
