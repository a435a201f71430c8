// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-cmd .dat files for idlelab trace report, read with libtracecmd
 * (trace-cmd 3.x) when the build found it. Here in the command, not in
 * the library: libtracecmd has no static library, and programs link
 * libidlelab statically.
 *
 * Each record, in time order over the file's buffers
 * (tracecmd_iterate_events_multi), becomes the line trace-cmd report would
 * print for it (CPU, nanosecond timestamp, event name, and the event's
 * own print format through tep_print_event for the events the report
 * uses; the name alone for the others), fed to the text reader: the two
 * paths count the same way by construction. Records the ring buffer
 * dropped before a record become the "CPU:N [LOST M EVENTS]" marker. In
 * error messages the line number is the record's number in that order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/trace.h"
#include "trace_dat.h"

#ifdef IL_HAVE_LIBTRACECMD
#include <trace-cmd/trace-cmd.h>

struct dat_ctx {
	struct il_trace *t;
	struct il_err *err;
	int r;
	struct trace_seq seq;
	int nuse;
	signed char *use;         /* by event id: 1 used, -1 skipped, 0 not decided */
	char line[IL_TRACE_LINE_MAX + 2];
};

static bool used_event(const struct tep_event *ev)
{
	static const char *const names[] = {
		"cpu_idle", "cpu_idle_miss", "ipi_send_cpu", "ipi_send_cpumask", "sched_switch",
		"sched_wakeup", "sched_waking", "hrtimer_expire_entry", "irq_handler_entry",
		"ipi_entry", NULL,
	};
	size_t n = strlen(ev->name);

	if (ev->system && !strcmp(ev->system, "irq_vectors"))
		return n > 6 && !strcmp(ev->name + n - 6, "_entry");
	for (int i = 0; names[i]; i++)
		if (!strcmp(ev->name, names[i]))
			return true;
	return false;
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct dat_ctx *c = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	int n;

	(void)cpu;
	if (rec->missed_events) {
		n = rec->missed_events > 0
			? snprintf(c->line, sizeof(c->line), "CPU:%d [LOST %lld EVENTS]\n", rec->cpu,
				   rec->missed_events)
			: snprintf(c->line, sizeof(c->line), "CPU:%d [EVENTS DROPPED]\n", rec->cpu);
		if ((c->r = il_trace_feed(c->t, c->line, (size_t)n, c->err)))
			return -1;
	}
	if (!ev)
		return 0;
	n = snprintf(c->line, sizeof(c->line), "-0 [%03d] %llu.%09llu: %s: ", rec->cpu,
		     rec->ts / 1000000000ull, rec->ts % 1000000000ull, ev->name);
	if (ev->id >= 0 && ev->id >= c->nuse) {
		int m = ev->id + 64;
		signed char *u = realloc(c->use, (size_t)m);
		if (!u) {
			c->r = il_err_set(c->err, ENOMEM, "out of memory");
			return -1;
		}
		memset(u + c->nuse, 0, (size_t)(m - c->nuse));
		c->use = u;
		c->nuse = m;
	}
	signed char *use = ev->id >= 0 ? &c->use[ev->id] : NULL;
	if (use && !*use)
		*use = used_event(ev) ? 1 : -1;
	if (n > 0 && (size_t)n < sizeof(c->line) - 1 && use && *use > 0) {
		trace_seq_reset(&c->seq);
		tep_print_event(tep, &c->seq, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&c->seq);
		size_t k = c->seq.len;
		if (k > sizeof(c->line) - 2 - (size_t)n)
			k = sizeof(c->line) - 2 - (size_t)n;
		for (size_t i = 0; i < k; i++) {
			char ch = c->seq.buffer[i];
			c->line[n + i] = ch == '\n' || ch == '\0' ? ' ' : ch;
		}
		n += (int)k;
	}
	if (n < 0 || (size_t)n >= sizeof(c->line) - 1)
		n = (int)sizeof(c->line) - 2;
	c->line[n++] = '\n';
	if ((c->r = il_trace_feed(c->t, c->line, (size_t)n, c->err)))
		return -1;
	return 0;
}

bool cli_trace_have_dat(void)
{
	return true;
}

int cli_trace_read_dat(struct il_trace *t, const char *path, struct il_err *err)
{
	struct tracecmd_input *h, **hs;
	struct dat_ctx *c;
	int nb, r;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return il_err_set(err, EINVAL, "%s: not a trace-cmd .dat file libtracecmd can read",
				  path);
	nb = tracecmd_buffer_instances(h);
	hs = calloc((size_t)nb + 1, sizeof(*hs));
	c = calloc(1, sizeof(*c));
	if (!hs || !c) {
		free(hs);
		free(c);
		tracecmd_close(h);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	hs[0] = h;
	for (int i = 0; i < nb; i++)
		hs[i + 1] = tracecmd_buffer_instance_handle(h, i);
	int nh = 1;
	for (int i = 0; i < nb; i++)
		if (hs[i + 1])
			hs[nh++] = hs[i + 1];
	c->t = t;
	c->err = err;
	trace_seq_init(&c->seq);
	tracecmd_iterate_events_multi(hs, nh, on_record, c);
	r = c->r;
	if (!r)
		r = il_trace_finish(t, err);
	trace_seq_destroy(&c->seq);
	free(c->use);
	for (int i = 1; i < nh; i++)
		tracecmd_close(hs[i]);
	tracecmd_close(h);
	free(hs);
	free(c);
	return r;
}

#else

bool cli_trace_have_dat(void)
{
	return false;
}

int cli_trace_read_dat(struct il_trace *t, const char *path, struct il_err *err)
{
	(void)t;
	return il_err_set(err, ENOTSUP, "%s: a trace-cmd .dat file, and this idlelab was built "
			  "without libtracecmd: read 'trace-cmd report %s' output instead", path, path);
}

#endif
