/* SPDX-License-Identifier: GPL-2.0-only */
/* idlelab trace record and trace snapshot (cmd_trace_record.c). */
#ifndef IDLELAB_CLI_TRACE_RECORD_H
#define IDLELAB_CLI_TRACE_RECORD_H

#include <stdbool.h>

/*
 * The trace command's help text (the manual page and the completion are
 * made from it): the synopsis lines, after report's, and the text.
 */
#define TRACE_RECORD_SYNOPSIS \
	"       idlelab trace record [-e EVENTS] [--cpu LIST] [--duration D]\n" \
	"                            [--buffer-kb N] -o FILE [-- COMMAND [ARGS]]\n" \
	"       idlelab trace snapshot start|end [-o FILE]\n"

#define TRACE_RECORD_USAGE \
	"\n" \
	"trace record writes the idle-relevant events of this machine to FILE as\n" \
	"ftrace text that trace report reads, from a tracefs instance of its own\n" \
	"(event enable files only: no function tracer, so it works under\n" \
	"lockdown), until --duration has passed, COMMAND has exited, or SIGINT.\n" \
	"The cpuidle sysfs counters read at the start and at the end of the\n" \
	"window are kept in the file as '# idlelab-sysfs' comment lines, each\n" \
	"read between two trace_marker lines. The instance is removed at exit,\n" \
	"on error and on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1/2,\n" \
	"SIGALRM, SIGVTALRM and SIGXCPU (SIGINT keeps the output, the\n" \
	"others discard it); stderr says what was set up and removed. Needs\n" \
	"idlelab built with libtracefs, root and tracefs.\n" \
	"\n" \
	"  -e EVENTS       SYS:EVENT items (a glob in EVENT: irq_vectors:*_entry),\n" \
	"                  comma-separated or repeated; replaces the default set:\n" \
	"                  power:cpu_idle, cpu_idle_miss, guest_halt_poll_ns,\n" \
	"                  sched:sched_switch, sched_wakeup, timer:hrtimer_start,\n" \
	"                  hrtimer_expire_entry, hrtimer_cancel, tick_stop,\n" \
	"                  irq:irq_handler_entry, irq_vectors:*_entry,\n" \
	"                  ipi:ipi_send_cpu, ipi_send_cpumask (those this kernel\n" \
	"                  lacks are skipped with a note); a named event the\n" \
	"                  kernel lacks is an error\n" \
	"  --duration D    record: stop after D (\"10s\", \"500ms\"; a bare number\n" \
	"                  is seconds)\n" \
	"  --buffer-kb N   record: the ring buffer per CPU in KiB (default: the\n" \
	"                  kernel's)\n" \
	"  -o FILE         record, snapshot: the output (under a temporary name,\n" \
	"                  renamed when complete); record refuses a name ending\n" \
	"                  in .dat (it writes text)\n" \
	"\n" \
	"With trace record, --cpu LIST traces only these CPUs (the instance's\n" \
	"tracing_cpumask). trace snapshot prints the sysfs counters now as the\n" \
	"'# idlelab-sysfs start' (or end) lines trace record writes, to put\n" \
	"around a trace recorded another way: cat start idle.trace end.\n"

struct il_table;
struct il_trace;
struct il_trace_state;

/*
 * trace report's "sysfs delta" columns (sysfs_usage, sysfs_time_us,
 * sysfs_above, sysfs_below: end − start of the '# idlelab-sysfs' lines),
 * added when the trace has them; and the note that says where the two
 * reads lie in the trace (the --window that counts the same periods).
 */
bool trace_sysfs_present(const struct il_trace *t);
void trace_sysfs_cols(struct il_table *tb, const struct il_trace *t);
void trace_sysfs_cells(struct il_table *tb, const struct il_trace *t,
		       const struct il_trace_state *s);
void trace_sysfs_note(const struct il_trace *t, const char *label, FILE *out);

/*
 * Warn when the state names a recording kept (its '# idlelab-sysfs' lines,
 * names[i], "" where none) are not those of the table --states gave: the
 * table is then likely another machine's. Names are compared as trace
 * record writes them (blanks and '=' as '_').
 */
void trace_names_check(const char *file, const char (*names)[32], const struct il_driver *drv,
		       const char *states);

int cmd_trace_record(int argc, char **argv);
int cmd_trace_snapshot(int argc, char **argv);

#endif
