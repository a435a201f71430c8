// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle periods of an ftrace text trace with their governor inputs
 * (include/idlelab/trace_periods.h, docs/trace.md "Governor inputs").
 *
 * tick_nohz_get_sleep_length() (kernel/time/tick-sched.c, mainline v6.18)
 * returns the next timer event after the idle entry time without the tick,
 * and in *delta_next the next clock event (the tick included). The events
 * hrtimer_start, hrtimer_cancel and hrtimer_expire_entry give each CPU's
 * queue of hrtimers; their expiries are in CLOCK_MONOTONIC, the trace's
 * timestamps in the trace clock, so the offset between the two is taken
 * from the last hrtimer_expire_entry on the CPU (its now= field minus its
 * timestamp). Timer-wheel timers are not in the queue except through the
 * tick's hrtimer while the tick is stopped (tick_nohz_stop_tick() arms it
 * at the next wheel event).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idlelab/outfile.h"
#include "idlelab/trace.h"
#include "idlelab/trace_periods.h"
#include "trace_internal.h"

#define FOREIGN_NS 1000000000000000000ull /* beyond: a CLOCK_REALTIME/TAI expiry */

struct timer {
	uint64_t id;
	int cpu;
	bool tick;
	uint64_t expires;
};

struct pcpu {
	bool in_idle, held, have_off, tick_stopped, stopped_since_exit, got_tick;
	int64_t off;               /* CLOCK_MONOTONIC - trace clock */
	uint64_t last_ts;
	struct il_trace_period open, done;
};

struct reader {
	struct il_trace_periods *ps;
	const char *file;
	int line;
	struct pcpu *cpu;          /* [IL_TRACE_CPU_MAX], calloc'ed */
	struct timer *t;
	size_t nt, ct;
	struct il_err *err;
	il_trace_period_fn fn;     /* NULL: keep the periods in ps->p */
	void *arg;
};

#define FAIL(r, ...) il_err_set_at((r)->err, EINVAL, (r)->file, (r)->line, __VA_ARGS__)

void il_trace_periods_free(struct il_trace_periods *ps)
{
	free(ps->p);
	free(ps->qos_dev_us);
	free(ps->hp_initial_ns);
	memset(ps, 0, sizeof(*ps));
}

static bool is_tick(const char *f, const char *fe)
{
	char name[64];

	il_ftrace_symbol(name, sizeof(name), f, fe);
	return !strcmp(name, "tick_nohz_handler") || !strcmp(name, "tick_sched_timer") ||
	       !strcmp(name, "tick_nohz_highres_handler");
}

static int hexid(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;

	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (s >= e || e - s > 16)
		return -1;
	for (; s < e; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return 0;
}

static struct timer *tfind(struct reader *r, uint64_t id)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].id == id)
			return &r->t[i];
	return NULL;
}

static void tremove(struct reader *r, uint64_t id)
{
	struct timer *t = tfind(r, id);

	if (t)
		*t = r->t[--r->nt];
}

static int emit(struct reader *r, struct pcpu *c)
{
	struct il_trace_periods *ps = r->ps;

	if (!c->held)
		return 0;
	c->held = false;
	c->done.got_tick = c->got_tick;
	c->got_tick = false;
	if (!r->fn && ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 1024;
		struct il_trace_period *p = realloc(ps->p, cap * sizeof(*p));
		if (!p)
			return il_err_set(r->err, ENOMEM, "out of memory");
		ps->p = p;
		ps->cap = cap;
	}
	if (!r->fn)
		ps->p[ps->n] = c->done;
	ps->n++;
	if (c->done.cpu + 1 > ps->ncpus)
		ps->ncpus = c->done.cpu + 1;
	if (c->done.state > ps->maxstate)
		ps->maxstate = c->done.state;
	return r->fn ? r->fn(r->arg, &c->done) : 0;
}

/* The inputs select saw at an entry at trace time ts on CPU cpu. */
static void inputs(struct reader *r, struct pcpu *c, int cpu, uint64_t ts,
		   struct il_trace_period *p)
{
	uint64_t all = UINT64_MAX, other = UINT64_MAX;

	p->tick_stopped = c->tick_stopped && !c->stopped_since_exit;
	p->sleep_length_ns = p->delta_tick_ns = IL_KTIME_MAX;
	p->timers_known = c->have_off;
	if (!c->have_off)
		return;
	/* now: the entry's timestamp, on CLOCK_MONOTONIC */
	uint64_t now = (uint64_t)((int64_t)ts + c->off);
	for (size_t i = 0; i < r->nt; i++) {
		const struct timer *t = &r->t[i];
		if (t->cpu != cpu || t->expires >= FOREIGN_NS)
			continue;
		if (t->expires < all)
			all = t->expires;
		if ((!t->tick || p->tick_stopped) && t->expires < other)
			other = t->expires;
	}
	if (all != UINT64_MAX)
		p->delta_tick_ns = all > now ? (int64_t)(all - now) : 0;
	if (other != UINT64_MAX)
		p->sleep_length_ns = other > now ? (int64_t)(other - now) : 0;
}

static int event(struct reader *r, const struct il_ftrace_line *l)
{
	struct il_trace_periods *ps = r->ps;
	const char *p = l->fields, *end = l->end, *ve, *v;
	struct pcpu *c = &r->cpu[l->cpu];
	int cpu = (int)l->cpu;
	size_t n = l->evlen;
	uint64_t x;

#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(l->ev, lit, sizeof(lit) - 1))
	ps->events++;
	if (IS("cpu_idle")) {
		uint64_t state, on;
		if (!(v = il_ftrace_field(p, end, "state=", 6, &ve)) || !il_ftrace_u64(&v, ve, &state) ||
		    v != ve || !(v = il_ftrace_field(p, end, "cpu_id=", 7, &ve)) ||
		    !il_ftrace_u64(&v, ve, &on) || v != ve)
			return FAIL(r, "cpu_idle: no state= or cpu_id= number");
		if (on >= IL_TRACE_CPU_MAX)
			return FAIL(r, "cpu_idle: cpu_id %llu is not below %d", (unsigned long long)on,
				    IL_TRACE_CPU_MAX);
		if (state != IL_TRACE_PWR_EVENT_EXIT && state >= IL_STATE_MAX)
			return FAIL(r, "cpu_idle: state %llu is not below %d (CPUIDLE_STATE_MAX)",
				    (unsigned long long)state, IL_STATE_MAX);
		c = &r->cpu[on];
		cpu = (int)on;
		if (l->ts < c->last_ts)
			return FAIL(r, "time goes back on CPU %d", cpu);
		c->last_ts = l->ts;
		if (state == IL_TRACE_PWR_EVENT_EXIT) {
			if (!c->in_idle) {
				ps->partial_start++;
				return 0;
			}
			c->in_idle = false;
			c->done = c->open;
			c->done.residency_ns = (int64_t)(l->ts - c->open.entry_ns);
			c->done.exit_flags = l->flags;
			c->done.exit_need_resched = l->need_resched;
			c->held = true;
			c->stopped_since_exit = false;
			return 0;
		}
		int e = emit(r, c);
		if (e)
			return e;
		if (c->in_idle)
			ps->dropped++;
		memset(&c->open, 0, sizeof(c->open));
		c->open.cpu = cpu;
		c->open.state = (int)state;
		c->open.line = r->line;
		c->open.entry_ns = l->ts;
		inputs(r, c, cpu, l->ts, &c->open);
		c->in_idle = true;
		return 0;
	}
	if (l->ts < c->last_ts)
		return FAIL(r, "time goes back on CPU %d", cpu);
	c->last_ts = l->ts;
	if (IS("hrtimer_start") || IS("hrtimer_cancel") || IS("hrtimer_expire_entry")) {
		uint64_t id;
		ps->hrtimer_events++;
		if (!(v = il_ftrace_field(p, end, "hrtimer=", 8, &ve)) || hexid(v, ve, &id))
			return FAIL(r, "%.*s: no hrtimer= pointer", (int)n, l->ev);
		if (IS("hrtimer_cancel")) {
			tremove(r, id);
			return 0;
		}
		const char *fe, *f = il_ftrace_field(p, end, "function=", 9, &fe);
		if (!f)
			return FAIL(r, "%.*s: no function= field", (int)n, l->ev);
		bool tick = is_tick(f, fe);
		if (IS("hrtimer_expire_entry")) {
			tremove(r, id);
			if (!(v = il_ftrace_field(p, end, "now=", 4, &ve)) || !il_ftrace_u64(&v, ve, &x) ||
			    v != ve)
				return FAIL(r, "hrtimer_expire_entry: no now= number");
			if (x < FOREIGN_NS && l->ts < FOREIGN_NS) {
				c->off = (int64_t)x - (int64_t)l->ts;
				c->have_off = true;
			}
			if (tick)
				c->got_tick = true;
			else
				return emit(r, c);
			return 0;
		}
		if (!(v = il_ftrace_field(p, end, "expires=", 8, &ve)) || !il_ftrace_u64(&v, ve, &x) ||
		    v != ve)
			return FAIL(r, "hrtimer_start: no expires= number");
		struct timer *t = tfind(r, id);
		if (!t) {
			if (r->nt == r->ct) {
				size_t ct = r->ct ? r->ct * 2 : 64;
				if (ct > 1u << 20)
					return FAIL(r, "more than %u hrtimers pending", 1u << 20);
				t = realloc(r->t, ct * sizeof(*t));
				if (!t)
					return il_err_set(r->err, ENOMEM, "out of memory");
				r->t = t;
				r->ct = ct;
			}
			t = &r->t[r->nt++];
		}
		t->id = id;
		t->cpu = cpu;
		t->tick = tick;
		t->expires = x;
		return 0;
	}
	if (IS("tick_stop")) {
		if (!(v = il_ftrace_field(p, end, "success=", 8, &ve)) || !il_ftrace_u64(&v, ve, &x))
			return FAIL(r, "tick_stop: no success= number");
		ps->tick_stops++;
		if (x) {
			c->tick_stopped = true;
			c->stopped_since_exit = true;
		}
		return emit(r, c);
	}
	if (IS("sched_switch")) {
		ps->sched_switch = true;
		/* the idle task leaves: tick_nohz_idle_exit() restarts the tick */
		if (((v = il_ftrace_field(p, end, "prev_pid=", 9, &ve)) && ve - v == 1 && *v == '0') ||
		    (end - p >= 7 && !memcmp(p, "swapper", 7))) {
			c->tick_stopped = false;
			c->stopped_since_exit = false;
		}
		return emit(r, c);
	}
	if (IS("irq_handler_entry"))
		return emit(r, c);
	if (IS("guest_halt_poll_ns")) {
		/* "halt_poll_ns NEW (grow|shrink OLD)" (include/trace/events/power.h, v5.5+) */
		uint64_t nv, ov;
		const char *q = p;
		if (end - q < 13 || memcmp(q, "halt_poll_ns ", 13))
			return FAIL(r, "guest_halt_poll_ns: no halt_poll_ns");
		q += 13;
		if (!il_ftrace_u64(&q, end, &nv) || end - q < 2 || memcmp(q, " (", 2))
			return FAIL(r, "guest_halt_poll_ns: no new value");
		q += 2;
		if (end - q >= 5 && !memcmp(q, "grow ", 5))
			q += 5;
		else if (end - q >= 7 && !memcmp(q, "shrink ", 7))
			q += 7;
		else
			return FAIL(r, "guest_halt_poll_ns: not grow or shrink");
		if (!il_ftrace_u64(&q, end, &ov) || q >= end || *q != ')' || ov > UINT32_MAX ||
		    nv > UINT32_MAX)
			return FAIL(r, "guest_halt_poll_ns: no old value");
		if (cpu >= ps->hp_ncpus) {
			int m = cpu + 1;
			int64_t *d = realloc(ps->hp_initial_ns, (size_t)m * sizeof(*d));
			if (!d)
				return il_err_set(r->err, ENOMEM, "out of memory");
			for (int i = ps->hp_ncpus; i < m; i++)
				d[i] = -1;
			ps->hp_initial_ns = d;
			ps->hp_ncpus = m;
		}
		if (ps->hp_initial_ns[cpu] < 0)
			ps->hp_initial_ns[cpu] = (int64_t)ov;
		return 0;
	}
	return 0;
#undef IS
}

/* A signed 32-bit decimal at [v, ve). */
static bool s32_of(const char *v, const char *ve, int32_t *out)
{
	bool neg = v < ve && *v == '-';
	uint64_t x;

	if (neg)
		v++;
	if (!il_ftrace_u64(&v, ve, &x) || v != ve || x > (neg ? 2147483648ull : 2147483647ull))
		return false;
	*out = neg ? (int32_t)(-(int64_t)x) : (int32_t)x;
	return true;
}

/*
 * "# idlelab-pmqos TAG cpu_dma_latency_us=V" and "# idlelab-pmqos TAG cpu=N
 * resume_latency_us=T", T as pm_qos_resume_latency_us shows it
 * (drivers/base/power/sysfs.c): "0" is no constraint, "n/a" a request of
 * 0, N a request of N µs; "-" is a value that could not be read.
 */
static int pmqos_line(struct reader *r, const char *p, const char *end)
{
	struct il_trace_periods *ps = r->ps;
	const char *v, *ve;
	bool start;

	if (end - p >= 6 && !memcmp(p, "start ", 6))
		start = true, p += 6;
	else if (end - p >= 4 && !memcmp(p, "end ", 4))
		start = false, p += 4;
	else
		return FAIL(r, "idlelab-pmqos: not start or end");
	if ((v = il_ftrace_field(p, end, "cpu_dma_latency_us=", 19, &ve))) {
		int32_t x;
		if (ve - v == 1 && *v == '-')
			return 0;
		if (!s32_of(v, ve, &x) || x < 0)
			return FAIL(r, "idlelab-pmqos: cpu_dma_latency_us is not a number of us");
		if (start) {
			ps->qos_global_known = true;
			ps->qos_global_us = x;
		} else {
			ps->qos_end_lines++;
			if (!ps->qos_global_known || x != ps->qos_global_us)
				ps->qos_changed = true;
		}
		return 0;
	}
	uint64_t cpu;
	int32_t x;
	if (!(v = il_ftrace_field(p, end, "cpu=", 4, &ve)) || !il_ftrace_u64(&v, ve, &cpu) ||
	    v != ve || cpu >= IL_TRACE_CPU_MAX)
		return FAIL(r, "idlelab-pmqos: no cpu= below %d", IL_TRACE_CPU_MAX);
	if (!(v = il_ftrace_field(p, end, "resume_latency_us=", 18, &ve)))
		return FAIL(r, "idlelab-pmqos: no cpu_dma_latency_us= or resume_latency_us=");
	if (ve - v == 1 && *v == '-')
		x = -1;
	else if (ve - v == 3 && !memcmp(v, "n/a", 3))
		x = 0;
	else if (s32_of(v, ve, &x) && x >= 0)
		x = x == 0 ? INT32_MAX : x;
	else
		return FAIL(r, "idlelab-pmqos: resume_latency_us is not a number, n/a or -");
	if ((int)cpu >= ps->qos_ncpus) {
		int n = (int)cpu + 1;
		int32_t *d = realloc(ps->qos_dev_us, (size_t)n * sizeof(*d));
		if (!d)
			return il_err_set(r->err, ENOMEM, "out of memory");
		for (int i = ps->qos_ncpus; i < n; i++)
			d[i] = -1;
		ps->qos_dev_us = d;
		ps->qos_ncpus = n;
	}
	if (start) {
		ps->qos_dev_us[cpu] = x;
	} else {
		ps->qos_end_lines++;
		if (x != ps->qos_dev_us[cpu])
			ps->qos_changed = true;
	}
	return 0;
}

/*
 * "# idlelab-param start MODULE.NAME=VALUE": a module parameter of the
 * governors as trace record read it at the start. MODULE and NAME are
 * [a-z0-9_]; VALUE is what the file held, without blanks. The value is
 * the governor's to judge (trace check refuses one it does not take). A
 * MODULE.NAME given twice is refused: the module had one value.
 */
static int param_line(struct reader *r, const char *p, const char *end)
{
	struct il_trace_periods *ps = r->ps;
	const char *dot, *eq;
	struct il_trace_param *tp;
	bool ok;

	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	ok = end - p > 6 && !memcmp(p, "start ", 6);
	if (ok) {
		p += 6;
		eq = memchr(p, '=', (size_t)(end - p));
		dot = eq ? memchr(p, '.', (size_t)(eq - p)) : NULL;
		ok = dot && dot > p && eq > dot + 1 && eq + 1 < end;
		for (const char *q = p; ok && q < eq; q++)
			ok = q == dot || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') ||
			     *q == '_';
		for (const char *q = ok ? eq + 1 : end; q < end; q++)
			ok = ok && (unsigned char)*q > ' ' && (unsigned char)*q < 0x7f;
	}
	if (!ok)
		return FAIL(r, "idlelab-param: not 'start MODULE.NAME=VALUE'");
	if ((size_t)(dot - p) >= sizeof(tp->module) || (size_t)(eq - dot - 1) >= sizeof(tp->name) ||
	    (size_t)(end - eq - 1) >= sizeof(tp->value))
		return FAIL(r, "idlelab-param: a name or value too long");
	/* a module has one value: a second line is no recording trace record wrote */
	for (int i = 0; i < ps->nparams; i++)
		if (strlen(ps->params[i].module) == (size_t)(dot - p) &&
		    !memcmp(ps->params[i].module, p, (size_t)(dot - p)) &&
		    strlen(ps->params[i].name) == (size_t)(eq - dot - 1) &&
		    !memcmp(ps->params[i].name, dot + 1, (size_t)(eq - dot - 1)))
			return FAIL(r, "idlelab-param: %s.%s again (first at line %d)",
				    ps->params[i].module, ps->params[i].name, ps->params[i].line);
	if (ps->nparams == IL_TRACE_PARAM_MAX)
		return FAIL(r, "idlelab-param: more than %d lines", IL_TRACE_PARAM_MAX);
	tp = &ps->params[ps->nparams++];
	tp->line = r->line;
	memcpy(tp->module, p, (size_t)(dot - p));
	tp->module[dot - p] = '\0';
	memcpy(tp->name, dot + 1, (size_t)(eq - dot - 1));
	tp->name[eq - dot - 1] = '\0';
	memcpy(tp->value, eq + 1, (size_t)(end - eq - 1));
	tp->value[end - eq - 1] = '\0';
	return 0;
}

int64_t il_trace_periods_latency_req(const struct il_trace_periods *ps, int cpu, bool *known)
{
	bool dev = cpu >= 0 && cpu < ps->qos_ncpus && ps->qos_dev_us[cpu] >= 0;
	int64_t us = INT32_MAX;

	if (known)
		*known = ps->qos_global_known || dev;
	if (!ps->qos_global_known && !dev)
		return IL_TRACE_NO_QOS_NS;
	if (dev)
		us = ps->qos_dev_us[cpu];
	if (ps->qos_global_known && ps->qos_global_us < us)
		us = ps->qos_global_us;
	return us * 1000;
}

static int line(struct reader *r, const char *s, const char *e)
{
	struct il_ftrace_line l;
	const char *why;

	r->line++;
	r->ps->lines++;
	if (e > s && e[-1] == '\r')
		e--;
	if (memchr(s, '\0', (size_t)(e - s)))
		return FAIL(r, "NUL byte in the text");
	if (e - s > IL_TRACE_LINE_MAX)
		return FAIL(r, "line longer than %d bytes", IL_TRACE_LINE_MAX);
	{
		const char *q = s;
		while (q < e && *q == ' ')
			q++;
		if (e - q > 16 && !memcmp(q, "# idlelab-pmqos ", 16))
			return pmqos_line(r, q + 16, e);
		if (e - q >= 16 && !memcmp(q, "# idlelab-param ", 16))
			return param_line(r, q + 16, e);
		/* "# idlelab-cpuidle start driver=D governor=G": what the kernel ran */
		if (e - q > 18 && !memcmp(q, "# idlelab-cpuidle ", 18)) {
			const char *d, *de, *g, *ge, *p = q + 18;
			if (e - p < 6 || memcmp(p, "start ", 6) ||
			    !(d = il_ftrace_field(p, e, "driver=", 7, &de)) || de == d ||
			    !(g = il_ftrace_field(p, e, "governor=", 9, &ge)) || ge == g ||
			    de - d >= (long)sizeof(r->ps->driver) || ge - g >= (long)sizeof(r->ps->governor))
				return FAIL(r, "idlelab-cpuidle: not 'start driver=NAME governor=NAME'");
			/* the first line tells how the trace began, as trace report keeps it */
			if (!r->ps->driver[0]) {
				snprintf(r->ps->driver, sizeof(r->ps->driver), "%.*s", (int)(de - d), d);
				snprintf(r->ps->governor, sizeof(r->ps->governor), "%.*s",
					 (int)(ge - g), g);
			}
			return 0;
		}
		/* trace record's counters: only the state names are of use here */
		if (e - q > 16 && !memcmp(q, "# idlelab-sysfs ", 16)) {
			const char *v, *ve, *n, *ne;
			uint64_t st;
			if ((v = il_ftrace_field(q + 16, e, "state=", 6, &ve)) &&
			    il_ftrace_u64(&v, ve, &st) && v == ve && st < IL_STATE_MAX &&
			    (n = il_ftrace_field(q + 16, e, "name=", 5, &ne)) && ne > n &&
			    !r->ps->sysfs_name[st][0])
				snprintf(r->ps->sysfs_name[st], sizeof(r->ps->sysfs_name[st]), "%.*s",
					 (int)(ne - n), n);
			return 0;
		}
		if (e - q > 17 && !memcmp(q, "# idlelab-kernel ", 17)) {
			const char *v, *ve;
			uint64_t hz;
			/* release=R: uname -r; its MAJ.MIN, when it has one, for the table */
			if ((v = il_ftrace_field(q + 17, e, "release=", 8, &ve))) {
				uint64_t maj, min;
				if (il_ftrace_u64(&v, ve, &maj) && v < ve && *v == '.' && ++v < ve &&
				    il_ftrace_u64(&v, ve, &min) && maj < 100 && min < 100)
					snprintf(r->ps->release, sizeof(r->ps->release), "%u.%u",
						 (unsigned int)maj, (unsigned int)min);
			}
			if (!(v = il_ftrace_field(q + 17, e, "hz=", 3, &ve)))
				return FAIL(r, "idlelab-kernel: no hz=");
			if (ve - v == 1 && *v == '-')
				return 0;
			if (!il_ftrace_u64(&v, ve, &hz) || v != ve || hz < 1 || hz > 10000)
				return FAIL(r, "idlelab-kernel: hz is not 1..10000 or -");
			r->ps->hz = (unsigned int)hz;
			return 0;
		}
	}
	if (il_ftrace_split(s, e, &l, &why))
		return FAIL(r, "%s", why);
	if (l.kind == IL_FTRACE_LOST && l.cpu < IL_TRACE_CPU_MAX) {
		struct pcpu *c = &r->cpu[l.cpu];
		int x = emit(r, c);
		if (c->in_idle)
			r->ps->dropped++;
		c->in_idle = false;
		/* its queue is not known any more */
		for (size_t i = 0; i < r->nt;)
			if (r->t[i].cpu == (int)l.cpu)
				r->t[i] = r->t[--r->nt];
			else
				i++;
		return x;
	}
	return l.kind == IL_FTRACE_EVENT ? event(r, &l) : 0;
}

static int reader_begin(struct reader *r, struct il_trace_periods *ps, const char *name,
			struct il_err *err)
{
	memset(r, 0, sizeof(*r));
	r->ps = ps;
	r->file = name;
	r->err = err;
	memset(ps, 0, sizeof(*ps));
	r->cpu = calloc(IL_TRACE_CPU_MAX, sizeof(*r->cpu));
	if (!r->cpu)
		return il_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Close the periods still held (x: the error so far), free the reader. */
static int reader_end(struct reader *r, int x)
{
	struct il_trace_periods *ps = r->ps;

	for (int i = 0; i < IL_TRACE_CPU_MAX && !x; i++) {
		x = emit(r, &r->cpu[i]);
		if (r->cpu[i].in_idle)
			ps->unfinished++;
	}
	free(r->cpu);
	free(r->t);
	if (x)
		il_trace_periods_free(ps);
	return x;
}

int il_trace_periods_parse(struct il_trace_periods *ps, const char *text, size_t len,
			   const char *name, struct il_err *err)
{
	struct reader r;
	const char *p = text, *end = text + len;
	int x = 0;

	if (reader_begin(&r, ps, name, err))
		return -1;
	while (p < end && !x) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			r.line++;   /* a cut last line is left out, as trace report does */
			ps->cut_line = r.line;
			break;
		}
		x = line(&r, p, nl);
		p = nl + 1;
	}
	return reader_end(&r, x);
}

int il_trace_source_open(struct il_trace_source *s, const char *path, bool again,
			 struct il_err *err)
{
	bool std = !strcmp(path, "-");   /* standard input, as trace report reads it */
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->f = std ? stdin : fopen(path, "rb");
	if (!s->f)
		return il_err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
	if (!again)
		return 0;
	/* a regular file is read again from here; anything else is copied */
	if (fstat(fileno(s->f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (s->start = (int64_t)ftello(s->f)) >= 0)
		return 0;
	s->start = 0;
	if (!(s->spool = il_unnamed_file(il_tmp_dir(), "idlelab-trace"))) {
		int e = errno;
		const char *name = std ? "standard input" : path;
		il_trace_source_close(s);
		return il_err_set(err, e, "%s: cannot make a temporary copy in %s: %s", name,
				  il_tmp_dir(), strerror(e));
	}
	return 0;
}

void il_trace_source_close(struct il_trace_source *s)
{
	if (s->f && s->f != stdin)
		fclose(s->f);
	if (s->spool)
		fclose(s->spool);
	memset(s, 0, sizeof(*s));
}

/*
 * The file is read a chunk at a time, never whole: a line that does not
 * end within IL_TRACE_LINE_MAX bytes (and its '\r') is refused where it
 * begins, so an endless input without newlines (/dev/zero) ends at once.
 */
int il_trace_periods_scan(struct il_trace_periods *ps, struct il_trace_source *s,
			  il_trace_period_fn fn, void *arg, struct il_err *err)
{
	enum { CHUNK = 1 << 20, CARRY = IL_TRACE_LINE_MAX + 1 };
	const char *path = s->path;
	bool std = !strcmp(path, "-");
	const char *name = std ? "standard input" : path;
	bool again = s->passes++ > 0;
	FILE *f = again && s->spool ? s->spool : s->f;
	uint64_t left = again ? s->len : UINT64_MAX;
	struct reader r;
	char *buf = NULL, *carry = NULL;
	size_t carry_len = 0;
	bool first = true;
	int x = 0;

	if (again && fseeko(f, s->spool ? 0 : (off_t)s->start, SEEK_SET))
		return il_err_set(err, errno, "%s: cannot read it again: %s", name, strerror(errno));
	buf = malloc(CHUNK);
	carry = malloc(CARRY);
	if (!buf || !carry || reader_begin(&r, ps, path, err)) {
		free(buf);
		free(carry);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	r.fn = fn;
	r.arg = arg;
	while (!x && left) {
		size_t k = fread(buf, 1, left < CHUNK ? (size_t)left : CHUNK, f);
		const char *p = buf, *end = buf + k;
		if (k == 0)
			break;
		if (again) {
			left -= k;
		} else {
			s->len += k;
			if (s->spool && fwrite(buf, 1, k, s->spool) != k) {
				x = il_err_set(err, errno, "%s: cannot write its temporary copy in %s: %s",
					       name, il_tmp_dir(), strerror(errno));
				break;
			}
		}
		if (first && il_trace_is_dat(buf, k)) {
			x = il_err_set(err, EINVAL, "%s: a trace-cmd .dat file: convert it with "
				       "trace-cmd report", name);
			break;
		}
		first = false;
		while (p < end && !x) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = (size_t)((nl ? nl : end) - p);
			if (carry_len + n > CARRY) {
				r.line++;
				x = FAIL(&r, "line longer than %d bytes", IL_TRACE_LINE_MAX);
				break;
			}
			if (!nl) {
				memcpy(carry + carry_len, p, n);
				carry_len += n;
				break;
			}
			if (carry_len) {
				memcpy(carry + carry_len, p, n);
				x = line(&r, carry, carry + carry_len + n);
				carry_len = 0;
			} else {
				x = line(&r, p, nl);
			}
			p = nl + 1;
		}
	}
	if (!x && ferror(f))
		x = il_err_set(err, EIO, "%s: cannot read", name);
	if (!x && again && left)
		x = il_err_set(err, EIO, "%s: changed while read (shorter the second time)", name);
	if (!x && !again && s->spool && fflush(s->spool))
		x = il_err_set(err, errno, "%s: cannot write its temporary copy in %s: %s", name,
			       il_tmp_dir(), strerror(errno));
	if (!x && carry_len) {
		r.line++;   /* a cut last line is left out, as trace report does */
		ps->cut_line = r.line;
	}
	free(buf);
	free(carry);
	return reader_end(&r, x);
}

int il_trace_periods_read(struct il_trace_periods *ps, const char *path, struct il_err *err)
{
	struct il_trace_source s;
	int x;

	if ((x = il_trace_source_open(&s, path, false, err)))
		return x;
	x = il_trace_periods_scan(ps, &s, NULL, NULL, err);
	il_trace_source_close(&s);
	return x;
}

/* ------------------------------------------------------------------ runs */

int il_trace_run_init(struct il_trace_run *r, const struct il_driver *drv, unsigned int disabled,
		      struct il_gov *gov, bool follow_kernel, unsigned int hz, int ncpus,
		      struct il_err *err)
{
	size_t n = ncpus > 0 ? (size_t)ncpus : 1;

	memset(r, 0, sizeof(*r));
	r->drv = drv;
	r->gov = gov;
	r->follow_kernel = follow_kernel || !gov;
	r->tick_nsec = il_tick_nsec(hz);
	r->ncpus = (int)n;
	r->devs = calloc(n, sizeof(*r->devs));
	r->clock_ns = calloc(n, sizeof(*r->clock_ns));
	r->got_tick = calloc(n, sizeof(*r->got_tick));
	if (!r->devs || !r->clock_ns || !r->got_tick) {
		il_trace_run_free(r);
		return il_err_set(err, ENOMEM, "out of memory");
	}
	if (gov && gov->ops->cpu_data_size)
		memset(gov->cpu_data, 0, (size_t)gov->ncpus * gov->ops->cpu_data_size);
	for (int cpu = 0; cpu < (int)n; cpu++) {
		il_device_init(&r->devs[cpu], drv, cpu);
		if (gov)
			il_gov_enable(gov, cpu, drv, &r->devs[cpu]);
		for (int i = 0; i < drv->state_count; i++)
			if (disabled & (1u << i))
				il_device_set_user_disable(&r->devs[cpu], i, true);
	}
	return 0;
}

void il_trace_run_seed(struct il_trace_run *r, const struct il_trace_periods *ps)
{
	for (int cpu = 0; cpu < r->ncpus && cpu < ps->hp_ncpus; cpu++)
		if (ps->hp_initial_ns[cpu] >= 0)
			r->devs[cpu].poll_limit_ns = (uint64_t)ps->hp_initial_ns[cpu];
}

void il_trace_run_free(struct il_trace_run *r)
{
	free(r->devs);
	free(r->clock_ns);
	free(r->got_tick);
	memset(r, 0, sizeof(*r));
}

int il_trace_run_step(struct il_trace_run *r, struct il_trace_period *p, int64_t latency_req_ns,
		      bool *stop_tick)
{
	const struct il_driver *drv = r->drv;
	int cpu = p->cpu;
	struct il_device *dev = &r->devs[cpu];
	struct il_idle_inputs in = {
		.sleep_length_ns = p->sleep_length_ns,
		.delta_tick_ns = p->delta_tick_ns,
		.tick_stopped = p->tick_stopped,
		.latency_req_ns = latency_req_ns,
		.clock_ns = r->clock_ns[cpu],
		.tick_nsec = r->tick_nsec,
		.true_idle_ns = p->residency_ns,
	};
	bool one_state = drv->state_count <= 1;
	int idx;

	*stop_tick = true;
	if (one_state || !r->gov) {
		/* a single state: the idle loop enters it without asking (e5c9ffc6ae1b) */
		idx = one_state ? 0 : p->state;
		if (one_state)
			*stop_tick = r->got_tick[cpu];
	} else {
		idx = il_gov_select(r->gov, cpu, drv, dev, &in, stop_tick);
	}
	int entered = r->follow_kernel ? p->state : idx;
	if (entered < 0 || entered >= drv->state_count)
		return idx;
	if (drv->states[entered].flags & IL_FLAG_POLLING) {
		uint64_t limit = il_poll_time(drv, dev, r->tick_nsec);
		/*
		 * The poll loop ends on need_resched or on its time limit
		 * (poll_idle(), drivers/cpuidle/poll_state.c): where the exit
		 * event shows the need-resched flag, a poll that ended
		 * without it ran out of time. Without the flags, compare the
		 * residency with the limit the device had.
		 */
		if (r->follow_kernel)
			p->poll_time_limit = p->exit_flags ? !p->exit_need_resched
							   : (uint64_t)p->residency_ns > limit;
		dev->poll_time_limit = p->poll_time_limit;
	}
	il_account_enter(drv, dev, entered, entered, p->residency_ns);
	r->exit_latency_ns += drv->states[entered].exit_latency_ns;
	r->clock_ns[cpu] += (uint64_t)p->residency_ns;
	in.got_tick = p->got_tick;
	in.clock_ns = r->clock_ns[cpu];
	r->got_tick[cpu] = p->got_tick;
	if (!one_state && r->gov)
		il_gov_reflect(r->gov, cpu, drv, dev, entered, &in);
	return idx;
}
