#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each built fuzz target for a few seconds on a copy of its seed corpus.
set -eu
build=$1
secs=${2:-15}
status=0
# An undefined-behaviour report fails the target, as the sanitizer suite's do.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
export UBSAN_OPTIONS
for f in "$build"/fuzz/fuzz_*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	name=$(basename "$f")
	seeds=fuzz/corpus/${name#fuzz_}
	work=$(mktemp -d)
	[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/
	echo "fuzz: $name for ${secs}s"
	if ! "$f" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix="$build/" "$work" >"$work.log" 2>&1; then
		tail -40 "$work.log"
		echo "fuzz: $name FAILED" >&2
		status=1
	else
		grep -E "DONE|Done" "$work.log" | tail -1
	fi
	rm -rf "$work" "$work.log"
done
exit $status
