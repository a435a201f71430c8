#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every benchmark (make bench). Figures go to docs/performance.md.
set -eu
build=$1
"$build"/bench/bench_governors
echo
"$build"/bench/bench_sim
echo
"$build"/bench/bench_wakeup --samples 2000
echo
# every built-in scenario, quick then full (the full ones take hours: docs/scenarios.md)
"$build"/bench/bench_scenarios
echo
# batch throughput on 1, 2, 3 MPI ranks and the zen3-dummy-wait projection (docs/batch.md)
"$(dirname "$0")"/../bench/bench_batch.sh --build "$build"
