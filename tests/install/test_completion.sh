#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The bash completion (completions/idlelab.bash) against the built binary:
# commands, subcommands, options per command and subcommand, choices read
# from the help, governors and presets, platforms, workloads and their keys,
# scenarios, paths where the help says FILE or DIR.
. "$SRCDIR/tests/cli/lib.sh"
I=$IDLELAB
bash -n "$SRCDIR/completions/idlelab.bash" && ok || bad "completions/idlelab.bash: syntax"
# shellcheck source=/dev/null
. "$SRCDIR/completions/idlelab.bash"
complete -p idlelab | grep -q -- '-F _idlelab' && ok || bad "not registered for idlelab"
cd "$TMP" || exit 1
mkdir adir
touch r1.json r2.json plat.ini x.log

# comp WORD... : the completions of the last word (COMPREPLY, sorted, one line)
comp() {
	COMP_WORDS=("$I" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_idlelab
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
# want "WORDS" "COMPLETIONS": exactly these
want() {
	local got
	# shellcheck disable=SC2086
	got=$(comp $1)
	[ "$got" = "$2" ] && ok || bad "completing '$1': got '$got', want '$2'"
}
# has "WORDS" WORD...: these among the completions
has() {
	local got w words=$1
	shift
	# shellcheck disable=SC2086
	got=" $(comp $words) "
	for w; do case $got in *" $w "*) ok ;; *) bad "completing '$words': no '$w' in '$got'" ;; esac; done
}
comp_empty() { comp "$@" ''; }

# commands: those idlelab help lists
cmds=$("$I" help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }' | sort | tr '\n' ' ')
got=$(comp_empty | tr ' ' '\n' | grep -v -- '^-\|^help$' | tr '\n' ' ')
[ "$got" = "$cmds" ] && ok || bad "commands: got '$got', want '$cmds'"
want "pla" "platform platforms"
want "help sc" "scenario"
# options of a command, of a subcommand
has "sim --" --governor --platform --workload --wl-opt --sim-opt --format --kernel --quiet --cpufreq
# --cpufreq: [DRIVER:]GOVERNOR
want "sim --cpufreq sch" "schedutil"
want "sim --cpufreq intel_c" "intel_cpufreq:"
want "sim --cpufreq acpi-cpufreq:o" "acpi-cpufreq:ondemand"
want "replay --e" "--expect"
want "platform capture --" "--name --output --root"
want "platform show kvm-haltpoll --" "--format --kernel --lines --set"
want "platform history kvm-haltpoll --" "--format --from --set --to"
want "platform history kvm-h" "kvm-haltpoll"
[ "$(comp_empty platform)" = "capture history show" ] && ok || bad "platform subcommands: $(comp_empty platform)"
[ "$(comp_empty scenario)" = "list run show" ] && ok || bad "scenario subcommands: $(comp_empty scenario)"
# batch: its options, a .ini FILE, paths for --resume and --output
has "batch --" --jobs --resume --output --format --quick --seed
[ "$(comp_empty batch --format)" = "csv json table" ] && ok || bad "batch --format: $(comp_empty batch --format)"
want "batch p" "plat.ini"
want "batch plat.ini --resume r" "r1.json r2.json"
# choices from the help
[ "$(comp_empty sim --format)" = "csv json table" ] && ok || bad "sim --format: $(comp_empty sim --format)"
[ "$(comp_empty doctor --format)" = "json table" ] && ok || bad "doctor --format: $(comp_empty doctor --format)"
[ "$(comp_empty scenario run x --format)" = "html json markdown table" ] && ok ||
	bad "scenario run --format: $(comp_empty scenario run x --format)"
[ "$(comp_empty latency --mode)" = "all halt pingpong poll" ] && ok || bad "latency --mode: $(comp_empty latency --mode)"
# governors and presets, platforms, workloads, keys, scenarios
want "replay -g te" "teo"
has "sim --governor m" menu
want "sim --governor menu@6.1" "menu@6.1 menu@6.12 menu@6.13 menu@6.15 menu@6.17 menu@6.18 menu@6.19"
has "sim --platform kvm" kvm-haltpoll
has "platform show int" intel-haswell-ep intel-skylake-client
has "sim --platform pl" plat.ini
has "sim --workload p" pingpong
want "sim --workload pingpong --wl-opt w" "work= work_ns="
has "sim --sim-opt no" nohz= no_timer=
has "scenario run z" zen3-dummy-wait
# paths
want "compare r" "r1.json r2.json"
has "replay --output x" x.log
want "capture a" "adir"
[ "$(comp_empty governors --format)" = "csv json table" ] && ok || bad "governors --format"
[ "$(comp_empty info --format)" = "csv json table" ] && ok || bad "info --format: $(comp_empty info --format)"
[ "$(comp_empty info --interval 1 --format)" = "csv json table" ] && ok || bad "info --interval --format"
[ "$(comp_empty trace)" = "check record report snapshot to-replay whatif" ] && ok || bad "trace subcommands: $(comp_empty trace)"
has "trace record --" --buffer-kb --cpu --duration
has "trace report x --" --baseline --cpu --format --states --table
[ "$(comp_empty trace report x --table)" = "states wakeups" ] && ok || bad "trace report --table"
[ "$(comp_empty trace report x --format)" = "csv json table" ] && ok || bad "trace report --format"
# check, whatif, to-replay: the options they share, each one's own
has "trace check x --" --governor --states --cpu --format --hz --latency-req --param --decisions
has "trace whatif x --" --governor --platform --cpu --format --hz --latency-req --param \
	--decisions --kernel-governor
has "trace to-replay x --" --states --cpu --hz --latency-req --param --kernel-governor
[ "$(comp_empty trace whatif x --format)" = "csv json table" ] && ok || bad "trace whatif --format"
[ "$(comp_empty trace check x --format)" = "csv json table" ] && ok || bad "trace check --format"
finish
