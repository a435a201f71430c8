# SPDX-License-Identifier: GPL-2.0-only
# bash completion for idlelab.
#
# Nothing here names a command, an option or a value: they are read from the
# binary being completed. Commands from `idlelab help`; a command's
# subcommands, options and the choices of an option (--format table|csv|json)
# from `idlelab help COMMAND`; governors and their presets from `idlelab
# governors`, platforms from `idlelab platforms`, workloads and their
# --wl-opt keys from `idlelab sim --list-workloads`, --sim-opt keys from the
# sim help, scenarios from `idlelab scenario list`. An argument the help
# calls FILE, DIR, LOG, OUT, OUTDIR, PARTIAL or RUN.json completes as a path;
# a batch's FILE as a .ini file.

# The commands `idlelab help` lists.
_idlelab_commands()
{
	"$1" help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
}

# The usage lines and option items of a command's help, where its options
# are declared (not the prose that mentions other commands' options).
_idlelab_decl()
{
	# an item "  -o, --output FILE" declares "-o FILE, --output FILE", and
	# "  --lines   print ..." declares "--lines" (its text is no argument)
	"$1" help "$2" 2>/dev/null | awk '
		function decl(o, a) { return o ((a ~ /^[A-Z]/ || a ~ /[|=]/) ? " " a : "") }
		NR == 1, /^$/ { print; next }
		/^  -|^   -/ { if ($1 ~ /,$/) print decl(substr($1, 1, length($1) - 1), $3) ", " decl($2, $3)
			     else print decl($1, $2) }'
}

# The declarations $1 narrowed to subcommand $3 of command $2: its usage
# lines, and the option items that name an option those lines use.
_idlelab_subdecl()
{
	printf '%s\n' "$1" | awk -v s="idlelab $2 $3" '
		index($0, s) { on = 1 } /idlelab / && !index($0, s) || /^$/ { on = 0 }
		on { print; n = split($0, w, /[][ |,]+/); for (i = 1; i <= n; i++) if (w[i] ~ /^-/) used[w[i]] = 1; next }
		/^-/ { item[++k] = $0 }
		END { for (i = 1; i <= k; i++) { n = split(item[i], w, /[ ,]+/)
			for (j = 1; j <= n; j++) if (w[j] in used) { print item[i]; break } } }'
}

# Words that follow option $2 in the declarations $1: its argument's name or
# its choices (table|csv|json).
_idlelab_optarg()
{
	printf '%s\n' "$1" | grep -oE -- "(^|[[ ,])$2 [^] ,]+" | sed "s/^.*$2 //" | sort -u
}

_idlelab()
{
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd=${COMP_WORDS[1]-} decl args a words i sub=
	COMPREPLY=()

	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_idlelab_commands "$prog") help --help --version" -- "$cur")
		return
	fi
	case $cmd in
	help | --help | -h)
		[ "$COMP_CWORD" -eq 2 ] &&
			mapfile -t COMPREPLY < <(compgen -W "$(_idlelab_commands "$prog")" -- "$cur")
		return ;;
	esac
	decl=$(_idlelab_decl "$prog" "$cmd")
	[ -n "$decl" ] || return
	# subcommands: the lowercase word after the command in the usage lines
	words=$(printf '%s\n' "$decl" | sed -n "s/^.*idlelab $cmd \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p" | sort -u)
	if [ -n "$words" ]; then
		if [ "$COMP_CWORD" -eq 2 ]; then
			mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
			return
		fi
		sub=${COMP_WORDS[2]}
		decl=$(_idlelab_subdecl "$decl" "$cmd" "$sub")
	fi

	# the value of the option before the cursor
	if [[ $prev == -* ]]; then
		args=$(_idlelab_optarg "$decl" "$prev")
		if [ -n "$args" ]; then
			case $prev in
			-g | --governor)
				local govs
				govs=$("$prog" governors --format csv 2>/dev/null | tail -n +2)
				if [[ $cur == *@* ]]; then
					local rels
					rels=$(printf '%s\n' "$govs" | awk -F, -v g="${cur%%@*}" '$1 == g { print $3 }')
					mapfile -t COMPREPLY < <(compgen -P "${cur%%@*}@" -W "$rels" -- "${cur#*@}")
				else
					mapfile -t COMPREPLY < <(compgen -W "$(printf '%s\n' "$govs" | cut -d, -f1 | uniq)" -- "$cur")
				fi
				return ;;
			--platform)
				mapfile -t COMPREPLY < <(compgen -W "$("$prog" platforms --format csv 2>/dev/null |
					tail -n +2 | cut -d, -f1)" -- "$cur")
				mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur")
				return ;;
			--cpufreq)
				# [DRIVER:]GOVERNOR (docs/cpufreq.md)
				local g="performance powersave schedutil ondemand"
				local d="intel_pstate intel_cpufreq hwp acpi-cpufreq"
				if [[ $cur == *:* ]]; then
					mapfile -t COMPREPLY < <(compgen -P "${cur%%:*}:" -W "$g" -- "${cur#*:}")
				else
					mapfile -t COMPREPLY < <(compgen -W "$g hwp" -- "$cur")
					mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -S : -W "$d" -- "$cur")
				fi
				return ;;
			--workload)
				mapfile -t COMPREPLY < <(compgen -W "$("$prog" sim --list-workloads 2>/dev/null |
					sed -n 's/^\([a-z][a-z-]*\): .*/\1/p')" -- "$cur")
				return ;;
			--wl-opt | --sim-opt)
				local wl=sleep-sweep keys
				for ((i = 2; i < COMP_CWORD; i++)); do
					[ "${COMP_WORDS[i]}" = --workload ] && wl=${COMP_WORDS[i + 1]}
				done
				if [ "$prev" = --wl-opt ]; then
					keys=$("$prog" sim --list-workloads 2>/dev/null | awk -v w="$wl:" \
						'/^[a-z]/ { on = ($1 == w); next } on && /^  [a-z]/ { sub(/=.*/, "", $1); print $1 "=" }')
				else
					keys=$("$prog" help sim 2>/dev/null | awk '/^  --sim-opt/ { on = 1; next }
						on && /^[^ ]/ { exit } on && /^      [a-z_]+=/ { sub(/=.*/, "", $1); print $1 "=" }')
				fi
				compopt -o nospace 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -W "$keys" -- "$cur")
				return ;;
			esac
			words=
			for a in $args; do
				case $a in
				*'|'*)
					words="$words ${a//|/ }" ;;
				DIR | OUTDIR)
					mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
				FILE* | LOG | OUT | PARTIAL | *.json | *.svg)
					mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
				esac
			done
			[ -n "$words" ] &&
				mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$(tr ' ' '\n' <<<"$words" | sort -u)" -- "$cur")
			return
		fi
	fi

	if [[ $cur == -* ]]; then
		# the options of this command (or subcommand)
		words=$(printf '%s\n' "$decl" | grep -oE -- '(^|[[ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[[ ,|]//' | sort -u)
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi

	# operands
	case $cmd${sub:+ $sub} in
	'platform show' | 'platform history')
		mapfile -t COMPREPLY < <(compgen -W "$("$prog" platforms --format csv 2>/dev/null |
			tail -n +2 | cut -d, -f1)" -- "$cur")
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
	batch)
		mapfile -t COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
	'scenario show' | 'scenario run')
		mapfile -t COMPREPLY < <(compgen -W "$("$prog" scenario list --format json 2>/dev/null |
			sed -n 's/^ *{"name": "\([^"]*\)".*/\1/p')" -- "$cur")
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
	compare | plot)
		mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur"; compgen -d -- "$cur") ;;
	capture)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	*)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	esac
}
complete -F _idlelab -o filenames idlelab
