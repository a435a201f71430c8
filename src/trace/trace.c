// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace text (tracefs "trace", "trace-cmd report") read line by line into
 * per-CPU, per-state idle statistics (include/idlelab/trace.h,
 * docs/trace.md).
 *
 * An event line is
 *     COMM-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS
 * where FLAGS (irqs-off, need-resched, ...) is absent without the
 * irq-info option, "(TGID)" may follow PID, and trace-cmd report pads
 * EVENT with blanks. Comment lines (#), the markers the kernel and
 * trace-cmd write ("CPU:N [LOST M EVENTS]", "##### CPU N buffer started
 * ####", "CPU N is empty", "cpus=N", "version = N") and blank lines are
 * not events. Events the report does not use are skipped without looking
 * at their fields; the fields of those it uses must be as the kernel
 * prints them, or the line is refused with its number.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idlelab/trace.h"
#include "trace_internal.h"

#define parse_u64 il_ftrace_u64
#define field il_ftrace_field

static const char *const kind_names[IL_TRACE_SRC_KINDS] = {
	[IL_TRACE_SRC_TICK] = "tick",     [IL_TRACE_SRC_TIMER] = "timer",
	[IL_TRACE_SRC_IPI] = "ipi",       [IL_TRACE_SRC_IRQ] = "irq",
	[IL_TRACE_SRC_VECTOR] = "vector", [IL_TRACE_SRC_WAKEUP] = "wakeup",
	[IL_TRACE_SRC_UNKNOWN] = "unknown", [IL_TRACE_SRC_OTHER] = "other",
};

const char *il_trace_src_kind_name(enum il_trace_src_kind k)
{
	return (unsigned)k < IL_TRACE_SRC_KINDS ? kind_names[k] : "?";
}

void il_trace_init(struct il_trace *t, const char *name, const struct il_trace_table *table)
{
	memset(t, 0, offsetof(struct il_trace, carry));
	snprintf(t->file, sizeof(t->file), "%s", name ? name : "");
	t->table = table;
	t->win_to = UINT64_MAX;
}

void il_trace_window(struct il_trace *t, uint64_t from_ns, uint64_t to_ns)
{
	t->win_from = from_ns;
	t->win_to = to_ns;
}

int il_trace_parse_ts(const char *s, uint64_t *ns)
{
	const char *p = s, *end = s + strlen(s), *f0;
	uint64_t sec, frac = 0;

	if (!parse_u64(&p, end, &sec))
		return -EINVAL;
	if (p < end) {
		if (*p != '.')
			return -EINVAL;
		f0 = ++p;
		if (!parse_u64(&p, end, &frac) || p != end || p - f0 > 9)
			return -EINVAL;
		for (long i = p - f0; i < 9; i++)
			frac *= 10;
	}
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return -EINVAL;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

void il_trace_free(struct il_trace *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		if (t->cpus[i])
			free(t->cpus[i]->dev);
		free(t->cpus[i]);
	}
	free(t->cpus);
	t->cpus = NULL;
	t->ncpus = 0;
}

static void warn(struct il_trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct il_trace *t, const char *fmt, ...)
{
	if (t->nwarn < IL_TRACE_WARN_MAX) {
		struct il_err *w = &t->warn[t->nwarn];
		va_list ap;

		il_err_clear(w);
		memcpy(w->file, t->file, sizeof(w->file));
		w->line = (int)(t->lines > INT32_MAX ? INT32_MAX : t->lines);
		va_start(ap, fmt);
		vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
		va_end(ap);
	}
	t->nwarn++;
}

static int line_no(const struct il_trace *t)
{
	return (int)(t->lines > INT32_MAX ? INT32_MAX : t->lines);
}

#define FAIL(t, err, ...) \
	((t)->failed = true, il_err_set_at(err, EINVAL, (t)->file, line_no(t), __VA_ARGS__))

/* The CPU's record, made when it first appears; NULL if out of memory. */
static struct il_trace_cpu *cpu_get(struct il_trace *t, int cpu)
{
	if (cpu >= t->ncpus) {
		int n = t->ncpus ? t->ncpus : 8;

		while (n <= cpu)
			n *= 2;
		if (n > IL_TRACE_CPU_MAX)
			n = IL_TRACE_CPU_MAX;
		struct il_trace_cpu **p = realloc(t->cpus, (size_t)n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + t->ncpus, 0, (size_t)(n - t->ncpus) * sizeof(*p));
		t->cpus = p;
		t->ncpus = n;
	}
	struct il_trace_cpu *c = t->cpus[cpu];
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->cpu = cpu;
		if (t->table) {
			c->dev = calloc(1, sizeof(*c->dev));
			if (!c->dev) {
				free(c);
				return NULL;
			}
			il_device_init(c->dev, &t->table->drv, cpu);
			for (int i = 0; i < t->table->drv.state_count; i++)
				c->dev->states_usage[i].disable =
					(t->table->disabled >> i) & 1 ? IL_DISABLE_BY_USER : 0;
		}
		t->cpus[cpu] = c;
	}
	return c;
}

bool il_ftrace_u64(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		p++;
	}
	*pp = p;
	*v = x;
	return true;
}

const char *il_ftrace_field(const char *p, const char *end, const char *key, size_t klen,
			    const char **vend)
{
	const char *s = p;

	while (s + klen < end) {
		const char *q = memchr(s, key[0], (size_t)(end - s));
		if (!q || q + klen > end)
			return NULL;
		if ((q == p || q[-1] == ' ') && !memcmp(q, key, klen)) {
			const char *v = q + klen;
			const char *e = memchr(v, ' ', (size_t)(end - v));
			*vend = e ? e : end;
			return v;
		}
		s = q + 1;
	}
	return NULL;
}

static int field_u64(struct il_trace *t, const char *p, const char *end, const char *key,
		     const char *ev, uint64_t *v, struct il_err *err)
{
	const char *vend, *s = field(p, end, key, strlen(key), &vend);

	if (!s)
		return FAIL(t, err, "%s: no %s field", ev, key);
	if (!parse_u64(&s, vend, v) || s != vend)
		return FAIL(t, err, "%s: %s is not a number", ev, key);
	return 0;
}

/*
 * A kernel symbol as "func": the kernel prints %pS as "func+0x12/0x40",
 * trace-cmd report as "func+0x12" and %ps as "func/0x0".
 */
void il_ftrace_symbol(char *dst, size_t size, const char *s, const char *e)
{
	size_t n;

	for (const char *q = s + 1; q < e; q++)
		if (*q == '+' || *q == '/') {
			e = q;
			break;
		}
	n = (size_t)(e - s);
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* The source table entry of (kind, name), pooled into "other" when full. */
static struct il_trace_src *src_slot(struct il_trace_cpu *c, enum il_trace_src_kind kind,
				     const char *name)
{
	for (int i = 0; i < c->nsrc; i++)
		if (c->src[i].kind == kind && !strcmp(c->src[i].name, name))
			return &c->src[i];
	if (c->nsrc < IL_TRACE_SRC_MAX) {
		struct il_trace_src *s = &c->src[c->nsrc++];
		s->kind = kind;
		snprintf(s->name, sizeof(s->name), "%s", name);
		return s;
	}
	struct il_trace_src *o = &c->src[IL_TRACE_SRC_MAX];
	o->kind = IL_TRACE_SRC_OTHER;
	snprintf(o->name, sizeof(o->name), "other");
	return o;
}

/*
 * The completed period's wake-up source is final: at the next sched_switch
 * (switched, with its latency) or at the next idle entry.
 */
static void src_close(struct il_trace_cpu *c, bool switched, uint64_t ts)
{
	if (!c->pending)
		return;
	enum il_trace_src_kind kind = c->src_kind;
	const char *name = c->src_name;

	if (!c->have_src) {
		kind = c->woken ? IL_TRACE_SRC_WAKEUP : IL_TRACE_SRC_UNKNOWN;
		name = c->woken ? "sched_wakeup" : "unknown";
	}
	struct il_trace_src *s = src_slot(c, kind, name);
	s->count++;
	if (switched) {
		uint64_t from = c->have_src && c->src_ts < c->exit_ts ? c->src_ts : c->exit_ts;
		uint64_t lat = ts > from ? ts - from : 0;

		s->switched++;
		s->lat_sum_ns += lat;
		if (lat > s->lat_max_ns)
			s->lat_max_ns = lat;
	}
	c->pending = false;
}

/* A wake-up source event on CPU c: the first one of an idle period names it. */
static void src_event(struct il_trace_cpu *c, enum il_trace_src_kind kind, const char *name,
		      uint64_t ts, bool provisional)
{
	if (!c->in_idle && !c->pending)
		return;
	if (c->have_src && !(c->provisional && kind == IL_TRACE_SRC_TIMER) &&
	    !(c->provisional && kind == IL_TRACE_SRC_TICK))
		return;
	if (!c->have_src)
		c->src_ts = ts;
	c->have_src = true;
	c->provisional = provisional;
	c->src_kind = kind;
	snprintf(c->src_name, sizeof(c->src_name), "%s", name);
}

static void idle_entry(struct il_trace *t, struct il_trace_cpu *c, int state, uint64_t ts)
{
	src_close(c, false, ts);
	if (c->in_idle)
		c->unpaired++;
	c->in_idle = true;
	c->cur = state;
	c->entry_ts = ts;
	c->have_src = c->provisional = c->woken = false;
	if (state + 1 > c->nstates)
		c->nstates = state + 1;
	(void)t;
}

static void idle_exit(struct il_trace *t, struct il_trace_cpu *c, uint64_t ts)
{
	if (!c->in_idle) {
		if (ts >= t->win_from && ts <= t->win_to)
			c->partial_start++;
		return;
	}
	struct il_trace_state *s = &c->st[c->cur];
	uint64_t d = ts - c->entry_ts;

	if (ts < t->win_from || ts > t->win_to) {
		/* counted before the window opened, or after it closed */
		if (ts > t->win_to && c->entry_ts <= t->win_to)
			s->unfinished++;
		c->in_idle = false;
		return;
	}

	s->usage++;
	s->time_ns += d;
	if (s->usage == 1 || d < s->min_ns)
		s->min_ns = d;
	if (d > s->max_ns)
		s->max_ns = d;
	if (c->dev) {
		struct il_state_usage *u = &c->dev->states_usage[c->cur];
		unsigned long long a = u->above, b = u->below;

		il_account_enter(&t->table->drv, c->dev, c->cur, c->cur,
				 d > INT64_MAX ? INT64_MAX : (int64_t)d);
		s->above_rule += u->above - a;
		s->below_rule += u->below - b;
	}
	c->in_idle = false;
	c->pending = true;
	c->exit_ts = ts;
}

/* cpu_idle: state=%lu cpu_id=%lu */
static int ev_cpu_idle(struct il_trace *t, const char *p, const char *end, uint64_t ts,
		       struct il_err *err)
{
	uint64_t state = 0, cpu = 0;
	int r;

	const char *q = p + 6;

	/* the kernel's order "state=%lu cpu_id=%lu" first, any order after */
	if (!(end - p > 6 && !memcmp(p, "state=", 6) && parse_u64(&q, end, &state) &&
	      end - q > 8 && !memcmp(q, " cpu_id=", 8) && (q += 8, parse_u64(&q, end, &cpu)) &&
	      (q == end || *q == ' ')) &&
	    ((r = field_u64(t, p, end, "state=", "cpu_idle", &state, err)) ||
	     (r = field_u64(t, p, end, "cpu_id=", "cpu_idle", &cpu, err))))
		return r;
	if (cpu >= IL_TRACE_CPU_MAX)
		return FAIL(t, err, "cpu_idle: cpu_id %llu is not below %d", (unsigned long long)cpu,
			    IL_TRACE_CPU_MAX);
	if (state != IL_TRACE_PWR_EVENT_EXIT && state >= IL_STATE_MAX)
		return FAIL(t, err, "cpu_idle: state %llu is not below %d (CPUIDLE_STATE_MAX)",
			    (unsigned long long)state, IL_STATE_MAX);
	if (t->table && t->table->ncpus && cpu >= (uint64_t)t->table->ncpus)
		return FAIL(t, err, "cpu_idle: cpu_id %llu is past the %d CPUs of %s",
			    (unsigned long long)cpu, t->table->ncpus, t->table->origin);
	if (t->table && state != IL_TRACE_PWR_EVENT_EXIT &&
	    state >= (uint64_t)t->table->drv.state_count)
		return FAIL(t, err, "cpu_idle: state %llu is not in the state table of %s (%d states)",
			    (unsigned long long)state, t->table->origin, t->table->drv.state_count);
	struct il_trace_cpu *c = cpu_get(t, (int)cpu);
	if (!c)
		return il_err_set(err, ENOMEM, "out of memory");
	t->idle_events++;
	if (state == IL_TRACE_PWR_EVENT_EXIT)
		idle_exit(t, c, ts);
	else
		idle_entry(t, c, (int)state, ts);
	return 0;
}

/* cpu_idle_miss: cpu_id=%lu state=%lu type=%s */
static int ev_cpu_idle_miss(struct il_trace *t, const char *p, const char *end, uint64_t ts,
			    struct il_err *err)
{
	uint64_t state = 0, cpu = 0;
	const char *vend, *type;
	int r;

	if ((r = field_u64(t, p, end, "cpu_id=", "cpu_idle_miss", &cpu, err)) ||
	    (r = field_u64(t, p, end, "state=", "cpu_idle_miss", &state, err)))
		return r;
	if (cpu >= IL_TRACE_CPU_MAX || state >= IL_STATE_MAX)
		return FAIL(t, err, "cpu_idle_miss: cpu_id or state out of range");
	type = field(p, end, "type=", 5, &vend);
	bool below = type && vend - type == 5 && !memcmp(type, "below", 5);
	if (!type || (!below && !(vend - type == 5 && !memcmp(type, "above", 5))))
		return FAIL(t, err, "cpu_idle_miss: type is neither above nor below");
	struct il_trace_cpu *c = cpu_get(t, (int)cpu);
	if (!c)
		return il_err_set(err, ENOMEM, "out of memory");
	if (state + 1 > (uint64_t)c->nstates)
		c->nstates = (int)state + 1;
	t->miss_events++;
	if (ts < t->win_from || ts > t->win_to)
		return 0;
	if (below)
		c->st[state].below_ev++;
	else
		c->st[state].above_ev++;
	return 0;
}

/* Remember the callsite of an IPI sent to CPU target, for its reschedule/call-function entry. */
static void ipi_note(struct il_trace *t, int target, const char *cs, const char *cse, uint64_t ts)
{
	if (target >= t->ncpus || !t->cpus[target])
		return;    /* a CPU without idle events yet */
	struct il_trace_cpu *c = t->cpus[target];
	il_ftrace_symbol(c->ipi_callsite, sizeof(c->ipi_callsite), cs, cse);
	c->ipi_pending = true;
	c->ipi_ts = ts;
}

/* ipi_send_cpu: cpu=%u callsite=%pS callback=%pS */
static int ev_ipi_send_cpu(struct il_trace *t, const char *p, const char *end, uint64_t ts,
			   struct il_err *err)
{
	uint64_t cpu = 0;
	const char *cse, *cs;
	int r = field_u64(t, p, end, "cpu=", "ipi_send_cpu", &cpu, err);

	if (r)
		return r;
	cs = field(p, end, "callsite=", 9, &cse);
	if (!cs)
		return FAIL(t, err, "ipi_send_cpu: no callsite= field");
	if (cpu < IL_TRACE_CPU_MAX)
		ipi_note(t, (int)cpu, cs, cse, ts);
	return 0;
}

/* ipi_send_cpumask: cpumask=%s callsite=%pS callback=%pS; the mask a CPU list */
static int ev_ipi_send_cpumask(struct il_trace *t, const char *p, const char *end, uint64_t ts,
			       struct il_err *err)
{
	const char *me, *m = field(p, end, "cpumask=", 8, &me);
	const char *cse, *cs = field(p, end, "callsite=", 9, &cse);

	if (!m || !cs)
		return FAIL(t, err, "ipi_send_cpumask: no cpumask= or callsite= field");
	while (m < me) {
		uint64_t a, b;
		if (!parse_u64(&m, me, &a))
			return FAIL(t, err, "ipi_send_cpumask: cpumask is not a CPU list");
		b = a;
		if (m < me && *m == '-') {
			m++;
			if (!parse_u64(&m, me, &b) || b < a)
				return FAIL(t, err, "ipi_send_cpumask: cpumask is not a CPU list");
		}
		for (uint64_t i = a; i <= b && i < (uint64_t)t->ncpus; i++)
			ipi_note(t, (int)i, cs, cse, ts);
		if (m < me && *m != ',')
			return FAIL(t, err, "ipi_send_cpumask: cpumask is not a CPU list");
		if (m < me)
			m++;
	}
	return 0;
}

/* hrtimer_expire_entry: hrtimer=%p function=%ps now=%llu (order varies by release) */
static int ev_hrtimer_expire(struct il_trace *t, struct il_trace_cpu *c, const char *p,
			     const char *end, uint64_t ts, struct il_err *err)
{
	const char *fe, *f = field(p, end, "function=", 9, &fe);
	char name[IL_TRACE_SRC_NAME];

	if (!f)
		return FAIL(t, err, "hrtimer_expire_entry: no function= field");
	il_ftrace_symbol(name, sizeof(name), f, fe);
	/* the tick's hrtimer handler: tick_nohz_handler (v6.9+), tick_sched_timer before */
	if (!strcmp(name, "tick_nohz_handler") || !strcmp(name, "tick_sched_timer") ||
	    !strcmp(name, "tick_nohz_highres_handler"))
		src_event(c, IL_TRACE_SRC_TICK, "tick", ts, false);
	else
		src_event(c, IL_TRACE_SRC_TIMER, name, ts, false);
	return 0;
}

/* An irq_vectors "*_entry: vector=%d" event on CPU c. */
static void ev_vector(struct il_trace_cpu *c, const char *ev, size_t n, uint64_t ts)
{
	char name[IL_TRACE_SRC_NAME];
	size_t k = n - 6; /* without "_entry" */

	if (k == 11 && !memcmp(ev, "local_timer", 11)) {
		src_event(c, IL_TRACE_SRC_TIMER, "local_timer", ts, true);
		return;
	}
	if ((k == 10 && !memcmp(ev, "reschedule", 10)) ||
	    (k == 13 && !memcmp(ev, "call_function", 13)) ||
	    (k == 20 && !memcmp(ev, "call_function_single", 20))) {
		if (c->ipi_pending && (c->in_idle || c->pending)) {
			snprintf(name, sizeof(name), "%s", c->ipi_callsite);
		} else {
			memcpy(name, ev, k);
			name[k] = '\0';
		}
		c->ipi_pending = false;
		src_event(c, IL_TRACE_SRC_IPI, name, ts, false);
		return;
	}
	if (k >= sizeof(name))
		k = sizeof(name) - 1;
	memcpy(name, ev, k);
	name[k] = '\0';
	src_event(c, IL_TRACE_SRC_VECTOR, name, ts, false);
}

/*
 * "# idlelab-sysfs start|end cpu=N state=I name=NAME usage=U time=T
 * above=A below=B" (idlelab trace record, trace snapshot); p is after
 * "# idlelab-sysfs ". A value "-" (unreadable when recorded) leaves the
 * state without that side; anything else malformed is refused.
 */
static int sysfs_line(struct il_trace *t, const char *p, const char *end, struct il_err *err)
{
	static const char *const keys[] = { "usage=", "time=", "above=", "below=" };
	uint64_t cpu, state, v[4];
	const char *q, *e;
	int side;

	if (end - p >= 6 && !memcmp(p, "start ", 6))
		side = 0;
	else if (end - p >= 4 && !memcmp(p, "end ", 4))
		side = 1;
	else
		return FAIL(t, err, "idlelab-sysfs line: not start or end");
	if (!(q = field(p, end, "cpu=", 4, &e)) || !parse_u64(&q, e, &cpu) || q != e ||
	    cpu >= IL_TRACE_CPU_MAX)
		return FAIL(t, err, "idlelab-sysfs line: bad cpu=");
	if (!(q = field(p, end, "state=", 6, &e)) || !parse_u64(&q, e, &state) || q != e ||
	    state >= IL_STATE_MAX)
		return FAIL(t, err, "idlelab-sysfs line: bad state= (at most %d states)", IL_STATE_MAX);
	/* the state's name as the recording wrote it, for a check of --states */
	if ((q = field(p, end, "name=", 5, &e)) && e > q && !t->sysfs_name[state][0])
		snprintf(t->sysfs_name[state], sizeof(t->sysfs_name[state]), "%.*s",
			 (int)(e - q), q);
	for (int i = 0; i < 4; i++) {
		if (!(q = field(p, end, keys[i], strlen(keys[i]), &e)))
			return FAIL(t, err, "idlelab-sysfs line: no %s", keys[i]);
		if (e - q == 1 && *q == '-')
			return 0;
		if (!parse_u64(&q, e, &v[i]) || q != e)
			return FAIL(t, err, "idlelab-sysfs line: bad %s", keys[i]);
	}
	struct il_trace_cpu *c = cpu_get(t, (int)cpu);
	if (!c)
		return il_err_set(err, ENOMEM, "out of memory");
	memcpy(c->st[state].sysfs[side], v, sizeof(v));
	c->st[state].sysfs_have |= 1u << side;
	if ((int)state + 1 > c->nstates)
		c->nstates = (int)state + 1;
	return 0;
}

int il_ftrace_split(const char *s, const char *end, struct il_ftrace_line *l, const char **why)
{
	const char *p = s;

	memset(l, 0, sizeof(*l));
	while (p < end && *p == ' ')
		p++;
	if (p == end)
		return 0;
	if (*p == '#')
		return 0; /* comments; trace.c reads its "# idlelab-sysfs" lines itself */
	/* markers that are not events */
	if (end - p >= 4 && !memcmp(p, "CPU", 3) && (p[3] == ':' || p[3] == ' ')) {
		const char *q = p + 4;
		uint64_t cpu, n = 0;
		if (parse_u64(&q, end, &cpu) && p[3] == ':' && q < end && *q == ' ') {
			/* "CPU:N [LOST M EVENTS]" (kernel), "CPU:N [M EVENTS DROPPED]" (trace-cmd) */
			q++;
			if (q < end && *q == '[') {
				const char *r = q + 1;
				if (end - r > 5 && !memcmp(r, "LOST ", 5))
					r += 5;
				parse_u64(&r, end, &n);
				l->kind = IL_FTRACE_LOST;
				l->cpu = cpu;
				l->lost = n;
				return 0;
			}
		}
		return 0; /* "CPU N is empty" and such */
	}
	if (end - p >= 5 && !memcmp(p, "cpus=", 5)) {
		l->trace_cmd = true;
		return 0;
	}
	if (end - p >= 7 && !memcmp(p, "version", 7))
		return 0;
	/* COMM-PID [CPU]: the first "[digits]" */
	const char *b = p;
	uint64_t cpu = 0;
	for (;;) {
		b = memchr(b, '[', (size_t)(end - b));
		if (!b)
			return *why = "not an ftrace event line (no [CPU] field)", -1;
		const char *q = b + 1;
		if (parse_u64(&q, end, &cpu) && q < end && *q == ']') {
			b = q + 1;
			break;
		}
		b++;
	}
	if (cpu >= IL_TRACE_CPU_MAX)
		return *why = "CPU number is not below 8192", -1;
	/* optional flags, then "SECONDS.FRACTION:" */
	while (b < end && *b == ' ')
		b++;
	const char *q = b;
	uint64_t sec, frac = 0;
	if (!parse_u64(&q, end, &sec) || q >= end || (*q != '.' && *q != ':')) {
		/* the flags column ("d..1.", "dNh2.") */
		const char *f = b;
		while (b < end && *b != ' ')
			b++;
		/*
		 * Its second character is the need-resched one of
		 * trace_print_lat_fmt() (kernel/trace/trace_output.c): 'N'
		 * and 'n' have TIF_NEED_RESCHED, and since the lazy
		 * preemption flags of v6.13 also 'B' and 'b'; '.', 'p', 'L'
		 * and 'l' do not.
		 */
		if (b - f >= 4 && strchr("dDbX.", f[0]) && strchr("NnBbpLl.", f[1])) {
			l->flags = true;
			l->need_resched = f[1] == 'N' || f[1] == 'n' || f[1] == 'B' || f[1] == 'b';
		}
		while (b < end && *b == ' ')
			b++;
		q = b;
		if (!parse_u64(&q, end, &sec) || q >= end)
			return *why = "not an ftrace event line (no timestamp)", -1;
	}
	if (*q != '.')
		return *why = "timestamp without a fraction: the trace clock counts cycles "
			      "or events (counter, x86-tsc); record with local, global, mono or boot", -1;
	const char *f0 = ++q;
	if (!parse_u64(&q, end, &frac) || q >= end || *q != ':' || q - f0 > 9)
		return *why = "not an ftrace event line (bad timestamp)", -1;
	for (long i = q - f0; i < 9; i++)
		frac *= 10;
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return *why = "timestamp out of range", -1;
	q++;
	while (q < end && *q == ' ')
		q++;
	/* EVENT: */
	const char *colon = memchr(q, ':', (size_t)(end - q));
	if (!colon || colon == q)
		return *why = "not an ftrace event line (no event name)", -1;
	l->kind = IL_FTRACE_EVENT;
	l->cpu = cpu;
	l->ts = sec * 1000000000ull + frac;
	l->ev = q;
	l->evlen = (size_t)(colon - q);
	p = colon + 1;
	while (p < end && *p == ' ')
		p++;
	l->fields = p;
	l->end = end;
	return 0;
}

/* The bytes of one line (no newline), with what was already split off. */
static int parse_line(struct il_trace *t, const char *s, const char *end, struct il_err *err)
{
	struct il_ftrace_line l;
	const char *why;

	t->lines++;
	{
		const char *p = s;
		while (p < end && *p == ' ')
			p++;
		if (end - p > 16 && !memcmp(p, "# idlelab-sysfs ", 16))
			return sysfs_line(t, p + 16, end, err);
		/* trace record's driver (what the periods are); the rest is trace check's */
		if (end - p > 18 && !memcmp(p, "# idlelab-cpuidle ", 18)) {
			const char *d, *de;
			if ((d = field(p + 18, end, "driver=", 7, &de)) && de > d &&
			    de - d < (long)sizeof(t->driver)) {
				/* the first line tells how the trace began; another is of a joined trace */
				if (!t->driver[0])
					snprintf(t->driver, sizeof(t->driver), "%.*s", (int)(de - d), d);
				else if ((size_t)(de - d) != strlen(t->driver) ||
					 memcmp(d, t->driver, (size_t)(de - d)))
					warn(t, "a second idlelab-cpuidle line, driver=%.*s (traces joined?): "
					     "the first, driver=%s, is kept", (int)(de - d), d, t->driver);
			}
			return 0;
		}
		/* trace record's list of the events it enabled */
		if (end - p > 17 && !memcmp(p, "# idlelab-events ", 17)) {
			static const char ev[] = "power:cpu_idle_miss";
			for (const char *q = p + 17; q < end;) {
				const char *e = memchr(q, ' ', (size_t)(end - q));
				size_t n = (size_t)((e ? e : end) - q);
				if (n == sizeof(ev) - 1 && !memcmp(q, ev, n))
					t->miss_recorded = true;
				q += n + 1;
			}
			return 0;
		}
	}
	if (il_ftrace_split(s, end, &l, &why))
		return FAIL(t, err, "%s", why);
	if (l.trace_cmd)
		t->trace_cmd = true;
	if (l.kind == IL_FTRACE_LOST) {
		if (l.cpu < IL_TRACE_CPU_MAX) {
			struct il_trace_cpu *c = cpu_get(t, (int)l.cpu);
			if (!c)
				return il_err_set(err, ENOMEM, "out of memory");
			c->lost_markers++;
			c->lost_events += l.lost;
			if (c->in_idle)
				c->dropped++;
			c->in_idle = c->pending = c->ipi_pending = false;
			c->cur = -1;
		}
		warn(t, "CPU %llu lost %llu events: its open idle period is left out",
		     (unsigned long long)l.cpu, (unsigned long long)l.lost);
		return 0;
	}
	if (l.kind != IL_FTRACE_EVENT)
		return 0;
	uint64_t cpu = l.cpu, ts = l.ts;
	const char *ev = l.ev, *p = l.fields;
	size_t n = l.evlen;

	end = l.end;
	t->events++;
	if (!t->have_ts) {
		t->first_ts = ts;
		t->have_ts = true;
	}
	if (ts > t->last_ts)
		t->last_ts = ts;

#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(ev, lit, sizeof(lit) - 1))
	if (IS("cpu_idle")) {
		struct il_trace_cpu *c = cpu < (uint64_t)t->ncpus ? t->cpus[cpu] : NULL;
		if (c && ts < c->last_ts)
			return FAIL(t, err, "time goes back on CPU %llu", (unsigned long long)cpu);
		int r = ev_cpu_idle(t, p, end, ts, err);
		if (!r && (c = cpu_get(t, (int)cpu)))
			c->last_ts = ts;
		return r;
	}
	if (IS("cpu_idle_miss"))
		return ev_cpu_idle_miss(t, p, end, ts, err);
	if (IS("ipi_send_cpu"))
		return ev_ipi_send_cpu(t, p, end, ts, err);
	if (IS("ipi_send_cpumask"))
		return ev_ipi_send_cpumask(t, p, end, ts, err);

	if (IS("tracing_mark_write")) {
		static const char *const marks[] = { "idlelab-sysfs-start-begin", "idlelab-sysfs-start-end",
						      "idlelab-sysfs-end-begin", "idlelab-sysfs-end-end" };
		const char *e = end;
		while (e > p && e[-1] == ' ')
			e--;
		for (unsigned int i = 0; i < 4; i++)
			if ((size_t)(e - p) == strlen(marks[i]) && !memcmp(p, marks[i], strlen(marks[i]))) {
				t->sysfs_mark[i] = ts;
				t->sysfs_marks |= 1u << i;
			}
		return 0;
	}

	/* the rest concern the CPU they happen on, once it has idled */
	struct il_trace_cpu *c = cpu < (uint64_t)t->ncpus ? t->cpus[cpu] : NULL;
	if (!c) {
		t->unknown_events++;
		return 0;
	}
	if (ts < c->last_ts)
		return FAIL(t, err, "time goes back on CPU %llu", (unsigned long long)cpu);
	c->last_ts = ts;
	if (IS("sched_switch")) {
		src_close(c, true, ts);
	} else if (IS("hrtimer_expire_entry")) {
		return ev_hrtimer_expire(t, c, p, end, ts, err);
	} else if (IS("irq_handler_entry")) {
		const char *ne, *nm = field(p, end, "name=", 5, &ne);
		char name[IL_TRACE_SRC_NAME];
		if (!nm)
			return FAIL(t, err, "irq_handler_entry: no name= field");
		/* the name is the rest of the line: it may hold blanks */
		ne = end;
		while (ne > nm && ne[-1] == ' ')
			ne--;
		size_t k = (size_t)(ne - nm) < sizeof(name) ? (size_t)(ne - nm) : sizeof(name) - 1;
		memcpy(name, nm, k);
		name[k] = '\0';
		src_event(c, IL_TRACE_SRC_IRQ, name, ts, false);
	} else if (n > 6 && !memcmp(ev + n - 6, "_entry", 6) && !IS("softirq_entry") &&
		   !IS("hrtimer_entry") && !IS("ipi_entry") && !IS("irq_handler_entry")) {
		ev_vector(c, ev, n, ts);
	} else if (IS("ipi_entry")) {
		/* arm64 and others: "ipi_entry: (Rescheduling interrupts)" */
		char name[IL_TRACE_SRC_NAME];
		const char *e = end;
		if (p < e && *p == '(')
			p++;
		while (e > p && (e[-1] == ')' || e[-1] == ' '))
			e--;
		size_t k = (size_t)(e - p) < sizeof(name) ? (size_t)(e - p) : sizeof(name) - 1;
		memcpy(name, p, k);
		name[k] = '\0';
		src_event(c, IL_TRACE_SRC_IPI, name, ts, false);
	} else if (IS("sched_wakeup") || IS("sched_waking")) {
		uint64_t target;
		const char *ve, *v = field(p, end, "target_cpu=", 11, &ve);
		/* trace-cmd report's sched plugin: "comm:pid [prio] CPU:003" */
		if (!v && (v = field(p, end, "CPU:", 4, &ve)) == NULL)
			return FAIL(t, err, "sched_wakeup: no target_cpu= field");
		if (parse_u64(&v, ve, &target) && target < (uint64_t)t->ncpus &&
		    t->cpus[target] && t->cpus[target]->in_idle)
			t->cpus[target]->woken = true;
	} else {
		t->unknown_events++;
	}
#undef IS
	return 0;
}

/* A whole line [p, e) without its newline, split into chunks or not. */
static int one_line(struct il_trace *t, const char *p, const char *e, struct il_err *err)
{
	if (e > p && e[-1] == '\r')
		e--;
	if (memchr(p, '\0', (size_t)(e - p))) {
		t->lines++;
		return FAIL(t, err, "NUL byte in the text");
	}
	return parse_line(t, p, e, err);
}

int il_trace_feed(struct il_trace *t, const char *buf, size_t len, struct il_err *err)
{
	const char *p = buf, *end = buf + len;

	if (t->failed)
		return il_err_set(err, EINVAL, "trace reader used after an error");
	t->bytes += len;
	if (t->carry_len) {
		const char *nl = memchr(p, '\n', len);
		size_t k = nl ? (size_t)(nl - p) : len;
		if (t->carry_len + k > IL_TRACE_LINE_MAX) {
			t->lines++;
			return FAIL(t, err, "line longer than %d bytes", IL_TRACE_LINE_MAX);
		}
		memcpy(t->carry + t->carry_len, p, k);
		t->carry_len += k;
		if (!nl)
			return 0;
		int r = one_line(t, t->carry, t->carry + t->carry_len, err);
		t->carry_len = 0;
		if (r)
			return r;
		p = nl + 1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			size_t k = (size_t)(end - p);
			if (k > IL_TRACE_LINE_MAX) {
				t->lines++;
				return FAIL(t, err, "line longer than %d bytes", IL_TRACE_LINE_MAX);
			}
			memcpy(t->carry, p, k);
			t->carry_len = k;
			return 0;
		}
		if (nl - p > IL_TRACE_LINE_MAX) {
			t->lines++;
			return FAIL(t, err, "line longer than %d bytes", IL_TRACE_LINE_MAX);
		}
		int r = one_line(t, p, nl, err);
		if (r)
			return r;
		p = nl + 1;
	}
	return 0;
}

int il_trace_finish(struct il_trace *t, struct il_err *err)
{
	if (t->failed)
		return il_err_set(err, EINVAL, "trace reader used after an error");
	if (t->carry_len) {
		t->lines++;
		warn(t, "the last line has no newline (a trace cut short?): left out");
		t->carry_len = 0;
	}
	for (int i = 0; i < t->ncpus; i++) {
		struct il_trace_cpu *c = t->cpus[i];
		if (!c)
			continue;
		src_close(c, false, 0);
		if (c->in_idle && c->entry_ts <= t->win_to)
			c->st[c->cur].unfinished++;
		c->in_idle = false;
	}
	t->finished = true;
	return 0;
}

bool il_trace_is_dat(const char *buf, size_t len)
{
	/* "\027\010D" then "tracing" */
	return len >= 10 && !memcmp(buf, "\027\010Dtracing", 10);
}

int il_trace_read_file(struct il_trace *t, const char *path, struct il_err *err)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	enum { CHUNK = 1 << 20 };
	char *buf;
	int r = 0;

	if (fd < 0)
		return il_err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
	buf = malloc(CHUNK);
	if (!buf) {
		if (fd)
			close(fd);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	for (;;) {
		ssize_t n = read(fd, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = il_err_set(err, errno, "%s: cannot read: %s", path, strerror(errno));
			break;
		}
		if (n == 0) {
			r = il_trace_finish(t, err);
			break;
		}
		if (t->bytes == 0 && il_trace_is_dat(buf, (size_t)n)) {
			r = il_err_set(err, EINVAL, "%s: a trace-cmd .dat file, not ftrace text "
				       "(idlelab trace report reads .dat files given by name when "
				       "built with libtracecmd)", fd ? path : "standard input");
			break;
		}
		if ((r = il_trace_feed(t, buf, (size_t)n, err)))
			break;
	}
	free(buf);
	if (fd)
		close(fd);
	return r;
}
