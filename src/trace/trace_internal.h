/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the ftrace text readers of src/trace share: the split of one line
 * into its CPU, timestamp, event name and fields, and the field helpers.
 */
#ifndef IDLELAB_TRACE_INTERNAL_H
#define IDLELAB_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum il_ftrace_kind {
	IL_FTRACE_SKIP = 0,   /* comment, blank, header or other marker */
	IL_FTRACE_LOST,       /* "CPU:N [LOST M EVENTS]" / "CPU:N [M EVENTS DROPPED]" */
	IL_FTRACE_EVENT,
};

struct il_ftrace_line {
	enum il_ftrace_kind kind;
	bool trace_cmd;       /* a "cpus=N" header line of trace-cmd report */
	uint64_t cpu;         /* < IL_TRACE_CPU_MAX for events; any value for LOST */
	uint64_t lost;        /* events lost (LOST) */
	uint64_t ts;          /* ns (EVENT) */
	const char *ev;       /* event name (EVENT) */
	size_t evlen;
	const char *fields;   /* after "EVENT: ", to end */
	const char *end;
	bool flags;           /* the line has the latency flags column ("d..1.") */
	bool need_resched;    /* its second character says TIF_NEED_RESCHED: N, n, B or b */
};

/*
 * Split the line [s, end) (no newline). Returns 0, or -1 with *why saying
 * what is wrong with it.
 */
int il_ftrace_split(const char *s, const char *end, struct il_ftrace_line *l, const char **why);

/* Unsigned decimal at *pp (at least one digit, no overflow); advances *pp. */
bool il_ftrace_u64(const char **pp, const char *end, uint64_t *v);

/*
 * The value of " KEY=" (or KEY= at the start) in the fields [p, end): its
 * start, with *vend at the blank after it; NULL if absent.
 */
const char *il_ftrace_field(const char *p, const char *end, const char *key, size_t klen,
			    const char **vend);

/* A kernel symbol ("func+0x12/0x40", "func/0x0") as "func" in dst[size]. */
void il_ftrace_symbol(char *dst, size_t size, const char *s, const char *e);

#endif
