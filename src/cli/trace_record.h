/* SPDX-License-Identifier: GPL-2.0-only */
/* idlelab trace record and trace snapshot (cmd_trace_record.c). */
#ifndef IDLELAB_CLI_TRACE_RECORD_H
#define IDLELAB_CLI_TRACE_RECORD_H

/* Appended to the trace command's help text (the manual page is made from it). */
#define TRACE_RECORD_USAGE \
	"\n" \
	"usage: idlelab trace record [-e EVENTS] [--cpu LIST] [--duration D]\n" \
	"                            [--buffer-kb N] -o FILE [-- COMMAND [ARGS]]\n" \
	"\n" \
	"Records the idle-relevant events of this machine into FILE as ftrace\n" \
	"text that trace report reads, in a tracefs instance of its own (event\n" \
	"enable files only: no function tracer, so it works under lockdown),\n" \
	"until --duration has passed, COMMAND has exited, or SIGINT. The cpuidle\n" \
	"sysfs counters read at the start and at the end of the window are kept\n" \
	"in the file as '# idlelab-sysfs' comment lines, and trace report prints\n" \
	"their difference beside its counts. Everything it sets up is removed at\n" \
	"exit, on error and on SIGINT/SIGTERM/SIGHUP; stderr says what. Needs\n" \
	"libtracefs at build time, root and tracefs.\n" \
	"\n" \
	"  -e EVENTS       SYS:EVENT or SYS:* items, comma-separated or repeated;\n" \
	"                  replaces the default set (power:cpu_idle, cpu_idle_miss,\n" \
	"                  guest_halt_poll_ns, sched_switch, sched_wakeup, the\n" \
	"                  hrtimer and tick_stop events, irq_handler_entry,\n" \
	"                  irq_vectors:*_entry, ipi_send_cpu, ipi_send_cpumask;\n" \
	"                  those this kernel lacks are skipped with a note). A\n" \
	"                  named event the kernel lacks is an error\n" \
	"  --cpu LIST      trace only these CPUs (the instance's tracing_cpumask)\n" \
	"  --duration D    stop after D (\"10s\", \"500ms\")\n" \
	"  --buffer-kb N   ring buffer per CPU in KiB (default: the kernel's)\n" \
	"  -o FILE         the output (written under a temporary name, renamed\n" \
	"                  when complete); a name ending in .dat is refused\n" \
	"\n" \
	"usage: idlelab trace snapshot start|end [-o FILE]\n" \
	"\n" \
	"Prints the cpuidle sysfs counters now as the '# idlelab-sysfs start'\n" \
	"(or end) lines trace record writes, to put before and after a trace\n" \
	"recorded another way (cat start.txt idle.trace end.txt).\n"

int cmd_trace_record(int argc, char **argv);
int cmd_trace_snapshot(int argc, char **argv);

#endif
