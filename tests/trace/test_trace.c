// SPDX-License-Identifier: GPL-2.0-only
/*
 * Traces: the ftrace text reader on hand-written fixtures whose counts were
 * worked out by hand (tests/fixtures/trace/README.md), the same trace as
 * trace-cmd report prints it, feeding in chunks of every size, the
 * kernel's above/below rule on a state table, and every refusal with its
 * line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlelab/trace.h"

#define FIX SRCDIR "/tests/fixtures/trace/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Parse text fed in chunks of `chunk` bytes (0: all at once); returns the code. */
static int parse(struct il_trace *t, const char *text, size_t len, size_t chunk,
		 const struct il_trace_table *tab, struct il_err *err)
{
	int r = 0;

	il_trace_init(t, "t.trace", tab);
	if (!chunk)
		chunk = len ? len : 1;
	for (size_t off = 0; off < len && !r; off += chunk)
		r = il_trace_feed(t, text + off, len - off < chunk ? len - off : chunk, err);
	return r ? r : il_trace_finish(t, err);
}

static int parse_str(struct il_trace *t, const char *text, const struct il_trace_table *tab,
		     struct il_err *err)
{
	return parse(t, text, strlen(text), 0, tab, err);
}

static const struct il_trace_state *st(const struct il_trace *t, int cpu, int s)
{
	assert_true(cpu < t->ncpus);
	assert_non_null(t->cpus[cpu]);
	return &t->cpus[cpu]->st[s];
}

static const struct il_trace_src *src(const struct il_trace *t, int cpu, const char *name)
{
	const struct il_trace_cpu *c = t->cpus[cpu];

	for (int i = 0; i <= IL_TRACE_SRC_MAX; i++)
		if (c->src[i].count && !strcmp(c->src[i].name, name))
			return &c->src[i];
	fail_msg("cpu %d has no wake-up source '%s'", cpu, name);
	return NULL;
}

/* The hand-computed figures of basic.trace (README.md). */
static void check_basic(const struct il_trace *t)
{
	const struct il_trace_src *s;

	assert_int_equal(t->idle_events, 16);
	assert_int_equal(t->miss_events, 2);
	/* cpu0: C2 1005 + 956 us, C1 7593 us and one still open at the end */
	assert_int_equal(st(t, 0, 2)->usage, 2);
	assert_int_equal(st(t, 0, 2)->time_ns, 1961000);
	assert_int_equal(st(t, 0, 2)->min_ns, 956000);
	assert_int_equal(st(t, 0, 2)->max_ns, 1005000);
	assert_int_equal(st(t, 0, 2)->above_ev, 1);
	assert_int_equal(st(t, 0, 1)->usage, 1);
	assert_int_equal(st(t, 0, 1)->time_ns, 7593000);
	assert_int_equal(st(t, 0, 1)->below_ev, 1);
	assert_int_equal(st(t, 0, 1)->unfinished, 1);
	assert_int_equal(st(t, 0, 0)->usage, 0);
	/* cpu1: the first exit and the one after the lost events are not counted */
	assert_int_equal(t->cpus[1]->partial_start, 2);
	assert_int_equal(t->cpus[1]->lost_markers, 1);
	assert_int_equal(t->cpus[1]->dropped, 1);
	assert_int_equal(st(t, 1, 0)->usage, 1);
	assert_int_equal(st(t, 1, 0)->time_ns, 194000);
	assert_int_equal(st(t, 1, 1)->usage, 1);
	assert_int_equal(st(t, 1, 1)->time_ns, 1884000);
	assert_int_equal(st(t, 1, 2)->usage, 1);
	assert_int_equal(st(t, 1, 2)->time_ns, 10002000);
	/* cpu2 has no idle events: no record */
	assert_true(t->ncpus <= 2 || t->cpus[2] == NULL);
	/* wake-ups */
	s = src(t, 0, "tick");
	assert_int_equal(s->kind, IL_TRACE_SRC_TICK);
	assert_int_equal(s->count, 1);
	assert_int_equal(s->switched, 0);
	s = src(t, 0, "ttwu_queue_wakelist");
	assert_int_equal(s->kind, IL_TRACE_SRC_IPI);
	assert_int_equal(s->switched, 1);
	assert_int_equal(s->lat_max_ns, 10000);
	s = src(t, 0, "ahci[0000:00:1f.2]");
	assert_int_equal(s->kind, IL_TRACE_SRC_IRQ);
	s = src(t, 1, "virtio0-input.0");
	assert_int_equal(s->kind, IL_TRACE_SRC_IRQ);
	assert_int_equal(s->lat_sum_ns, 10000);
	s = src(t, 1, "sched_wakeup");
	assert_int_equal(s->kind, IL_TRACE_SRC_WAKEUP);
	assert_int_equal(s->lat_sum_ns, 6000);
	s = src(t, 1, "hrtimer_wakeup");
	assert_int_equal(s->kind, IL_TRACE_SRC_TIMER);
	assert_int_equal(s->lat_sum_ns, 12000);
}

static void basic_tracefs(void **state)
{
	struct il_trace t;
	struct il_err err;
	size_t len;
	char *text = slurp(FIX "basic.trace", &len);

	(void)state;
	assert_int_equal(parse(&t, text, len, 0, NULL, &err), 0);
	check_basic(&t);
	assert_int_equal(t.nwarn, 1);
	assert_int_equal(t.warn[0].line, 38);
	il_trace_free(&t);
	free(text);
}

static void basic_trace_cmd(void **state)
{
	struct il_trace t;
	struct il_err err;

	(void)state;
	il_trace_init(&t, "x", NULL);
	assert_int_equal(il_trace_read_file(&t, FIX "basic-trace-cmd.txt", &err), 0);
	assert_true(t.trace_cmd);
	check_basic(&t);
	assert_int_equal(t.cpus[1]->lost_events, 3);
	il_trace_free(&t);
}

/* Every chunk size gives the same counts as one feed. */
static void chunks(void **state)
{
	size_t len;
	char *text = slurp(FIX "basic.trace", &len);

	(void)state;
	for (size_t chunk = 1; chunk < 300; chunk += chunk < 20 ? 1 : 37) {
		struct il_trace t;
		struct il_err err;

		assert_int_equal(parse(&t, text, len, chunk, NULL, &err), 0);
		check_basic(&t);
		il_trace_free(&t);
	}
	free(text);
}

/* The kernel's rule on a state table: above, below, disabled states. */
static void rule(void **state)
{
	static const char text[] =
		/* a: C2 for 30 us < 50: above */
		"  <idle>-0 [000] 1.000000000: cpu_idle: state=2 cpu_id=0\n"
		"  <idle>-0 [000] 1.000030000: cpu_idle: state=4294967295 cpu_id=0\n"
		/* b: C1 for 100 us: 100 - 2 >= 50 (C2): below */
		"  <idle>-0 [000] 1.000040000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000140000: cpu_idle: state=4294967295 cpu_id=0\n"
		/* c: C1 for 51 us: 51 - 2 < 50: neither */
		"  <idle>-0 [000] 1.000150000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000201000: cpu_idle: state=4294967295 cpu_id=0\n"
		/* d: C1 for 52 us: 52 - 2 >= 50: below (the boundary) */
		"  <idle>-0 [000] 1.000210000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000262000: cpu_idle: state=4294967295 cpu_id=0\n"
		/* e: POLL for 5 us: 5 - 0 >= 2 (C1): below */
		"  <idle>-0 [000] 1.000270000: cpu_idle: state=0 cpu_id=0\n"
		"  <idle>-0 [000] 1.000275000: cpu_idle: state=4294967295 cpu_id=0\n"
		/* f: C3 for 600 us: no deeper state */
		"  <idle>-0 [000] 1.000280000: cpu_idle: state=3 cpu_id=0\n"
		"  <idle>-0 [000] 1.000880000: cpu_idle: state=4294967295 cpu_id=0\n";
	struct il_trace_table tab;
	struct il_trace t;
	struct il_err err;
	static const unsigned lat[] = { 0, 2, 10, 100 }, res[] = { 0, 2, 50, 500 };

	(void)state;
	memset(&tab, 0, sizeof(tab));
	tab.drv.state_count = 4;
	for (int i = 0; i < 4; i++) {
		snprintf(tab.drv.states[i].name, sizeof(tab.drv.states[i].name), "C%d", i);
		tab.drv.states[i].exit_latency = lat[i];
		tab.drv.states[i].target_residency = res[i];
	}
	il_driver_init(&tab.drv);
	snprintf(tab.origin, sizeof(tab.origin), "test");
	assert_int_equal(parse_str(&t, text, &tab, &err), 0);
	assert_int_equal(st(&t, 0, 2)->above_rule, 1);
	assert_int_equal(st(&t, 0, 1)->below_rule, 2);
	assert_int_equal(st(&t, 0, 1)->above_rule, 0);
	assert_int_equal(st(&t, 0, 0)->below_rule, 1);
	assert_int_equal(st(&t, 0, 3)->below_rule + st(&t, 0, 3)->above_rule, 0);
	assert_int_equal(st(&t, 0, 1)->usage, 3);
	il_trace_free(&t);

	/* C1 disabled: POLL's 5 us is measured against C2 (50 us): not below */
	tab.disabled = 1u << 1;
	assert_int_equal(parse_str(&t, text, &tab, &err), 0);
	assert_int_equal(st(&t, 0, 0)->below_rule, 0);
	assert_int_equal(st(&t, 0, 2)->above_rule, 1);
	il_trace_free(&t);

	/* a state the table does not have */
	tab.drv.state_count = 2;
	il_driver_init(&tab.drv);
	assert_int_not_equal(parse_str(&t, text, &tab, &err), 0);
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.msg, "not in the state table of test"));
	il_trace_free(&t);
}

/* A last line without its newline is left out with a warning. */
static void truncated_last_line(void **state)
{
	static const char text[] =
		"  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000100: cpu_idle: state=4294967295 cpu_id=0\n"
		"  <idle>-0 [000] 1.000200: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000300: cpu_idle: state=42949";
	struct il_trace t;
	struct il_err err;

	(void)state;
	assert_int_equal(parse_str(&t, text, NULL, &err), 0);
	assert_int_equal(st(&t, 0, 1)->usage, 1);
	assert_int_equal(st(&t, 0, 1)->unfinished, 1);
	assert_int_equal(t.nwarn, 1);
	assert_int_equal(t.warn[0].line, 4);
	assert_non_null(strstr(t.warn[0].msg, "no newline"));
	il_trace_free(&t);
}

/* Nanosecond timestamps, CRLF, no flags column, a tgid column. */
static void variants(void **state)
{
	static const char text[] =
		"\n"
		"  <idle>-0     (-------) [003] d..1. 7.000000001: cpu_idle: state=1 cpu_id=3\r\n"
		"  <idle>-0 [003] 7.000001002: cpu_idle: state=4294967295 cpu_id=3\r\n"
		"  bash-7 [001] 7.000002000: some_event: whatever [x] = 1\n"
		"CPU 2 is empty\n"
		"##### CPU 3 buffer started ####\n";
	struct il_trace t;
	struct il_err err;

	(void)state;
	for (size_t chunk = 0; chunk < sizeof(text); chunk++) {
		assert_int_equal(parse(&t, text, sizeof(text) - 1, chunk, NULL, &err), 0);
		assert_int_equal(st(&t, 3, 1)->usage, 1);
		assert_int_equal(st(&t, 3, 1)->time_ns, 1001);
		assert_int_equal(t.unknown_events, 1);
		il_trace_free(&t);
	}
}

static void refused(const char *text, int line, const char *msg)
{
	struct il_trace t;
	struct il_err err;

	il_err_clear(&err);
	assert_int_not_equal(parse_str(&t, text, NULL, &err), 0);
	if (err.line != line || !strstr(err.msg, msg) || strcmp(err.file, "t.trace"))
		fail_msg("'%s': got %s:%d: %s, want line %d '%s'", text, err.file, err.line, err.msg,
			 line, msg);
	il_trace_free(&t);
}

static void refusals(void **state)
{
	(void)state;
	refused("# c\n  <idle>-0 [000] 1.000000: cpu_idle: state=x cpu_id=0\n", 2,
		"cpu_idle: state= is not a number");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: cpu_id=0\n", 1, "cpu_idle: no state=");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: state=10 cpu_id=0\n", 1, "not below 10");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=99999\n", 1, "cpu_id 99999");
	refused("hello world\n", 1, "not an ftrace event line");
	refused("  <idle>-0 [000] 12345678: cpu_idle: state=1 cpu_id=0\n", 1, "counter, x86-tsc");
	refused("  <idle>-0 [000] 1.0000000001: cpu_idle: state=1 cpu_id=0\n", 1, "bad timestamp");
	refused("  <idle>-0 [000] 2.000000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000000: cpu_idle: state=4294967295 cpu_id=0\n", 2,
		"time goes back on CPU 0");
	refused("  <idle>-0 [000] 1.000000: cpu_idle_miss: cpu_id=0 state=1 type=sideways\n", 1,
		"neither above nor below");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000001: ipi_send_cpumask: cpumask=3-1 callsite=x\n", 2,
		"not a CPU list");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000001: hrtimer_expire_entry: hrtimer=0\n", 2, "no function=");
	refused("  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] 1.000001: sched_wakeup: comm=x pid=1 prio=120\n", 2, "no target_cpu=");
}

static void long_line(void **state)
{
	size_t n = IL_TRACE_LINE_MAX + 100;
	char *text = malloc(n + 2);
	struct il_trace t;
	struct il_err err;

	(void)state;
	memset(text, 'x', n);
	text[n] = '\n';
	text[n + 1] = '\0';
	for (size_t chunk = 0; chunk < 5000; chunk += 4999) {
		assert_int_not_equal(parse(&t, text, n + 1, chunk, NULL, &err), 0);
		assert_int_equal(err.line, 1);
		assert_non_null(strstr(err.msg, "longer than"));
		il_trace_free(&t);
	}
	free(text);
}

/* A NUL byte is refused at its line (the memory text is not a C string). */
static void nul_byte(void **state)
{
	static const char text[] = "# x\n  <idle>-0 [000] 1.0: cpu_idle: state=1\0 cpu_id=0\n";
	struct il_trace t;
	struct il_err err;

	(void)state;
	/* also when the line is split across chunks (found by fuzz_trace) */
	for (size_t chunk = 0; chunk < sizeof(text); chunk++) {
		assert_int_not_equal(parse(&t, text, sizeof(text) - 1, chunk, NULL, &err), 0);
		assert_int_equal(err.line, 2);
		assert_non_null(strstr(err.msg, "NUL"));
		il_trace_free(&t);
	}
}

/* Many CPUs and many distinct sources stay within their bounds. */
static void bounds(void **state)
{
	char line[200];
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	struct il_trace t;
	struct il_err err;

	(void)state;
	for (int i = 0; i < 100; i++) {
		len += (size_t)snprintf(text + len, cap - len,
					"  <idle>-0 [005] 1.%06d: cpu_idle: state=1 cpu_id=5\n", i * 10);
		snprintf(line, sizeof(line), "  <idle>-0 [005] 1.%06d: irq_handler_entry: irq=%d name=dev%d\n",
			 i * 10 + 1, i, i);
		len += (size_t)snprintf(text + len, cap - len, "%s", line);
		len += (size_t)snprintf(text + len, cap - len,
					"  <idle>-0 [005] 1.%06d: cpu_idle: state=4294967295 cpu_id=5\n",
					i * 10 + 2);
	}
	assert_int_equal(parse(&t, text, len, 0, NULL, &err), 0);
	assert_int_equal(t.cpus[5]->nsrc, IL_TRACE_SRC_MAX);
	assert_int_equal(t.cpus[5]->src[IL_TRACE_SRC_MAX].count, 100 - IL_TRACE_SRC_MAX);
	assert_int_equal(t.cpus[5]->src[IL_TRACE_SRC_MAX].kind, IL_TRACE_SRC_OTHER);
	assert_int_equal(st(&t, 5, 1)->usage, 100);
	il_trace_free(&t);
	free(text);
}

/* --window: periods counted by their exit, whole, as the kernel counts them. */
static void window(void **state)
{
	size_t len;
	char *text = slurp(FIX "basic.trace", &len);
	struct il_trace t;
	struct il_err err;
	uint64_t from, to;

	(void)state;
	assert_int_equal(il_trace_parse_ts("100.002000", &from), 0);
	assert_int_equal(il_trace_parse_ts("100.010003", &to), 0);
	assert_int_equal(from, 100002000000ull);
	il_trace_init(&t, "w", NULL);
	il_trace_window(&t, from, to);
	assert_int_equal(il_trace_feed(&t, text, len, &err), 0);
	assert_int_equal(il_trace_finish(&t, &err), 0);
	/* cpu0: the C2 period of 100.001106-.002062 counts whole; C1 ends at TO */
	assert_int_equal(st(&t, 0, 2)->usage, 1);
	assert_int_equal(st(&t, 0, 2)->time_ns, 956000);
	assert_int_equal(st(&t, 0, 2)->above_ev, 1);
	assert_int_equal(st(&t, 0, 1)->usage, 1);
	assert_int_equal(st(&t, 0, 1)->below_ev, 1);
	assert_int_equal(st(&t, 0, 1)->unfinished, 0);  /* entered after TO */
	/* cpu1: the C2 period ending after TO is unfinished; the lost one's exit is inside */
	assert_int_equal(st(&t, 1, 2)->usage, 0);
	assert_int_equal(st(&t, 1, 2)->unfinished, 1);
	assert_int_equal(t.cpus[1]->partial_start, 1);
	assert_int_equal(st(&t, 1, 0)->usage + st(&t, 1, 1)->usage, 2);
	il_trace_free(&t);
	free(text);

	assert_int_equal(il_trace_parse_ts("7", &from), 0);
	assert_int_equal(from, 7000000000ull);
	assert_int_not_equal(il_trace_parse_ts("1.0000000001", &from), 0);
	assert_int_not_equal(il_trace_parse_ts("1.", &from), 0);
	assert_int_not_equal(il_trace_parse_ts("-1", &from), 0);
	assert_int_not_equal(il_trace_parse_ts("99999999999999999999", &from), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(basic_tracefs),   cmocka_unit_test(basic_trace_cmd),
		cmocka_unit_test(chunks),          cmocka_unit_test(rule),
		cmocka_unit_test(truncated_last_line), cmocka_unit_test(variants),
		cmocka_unit_test(refusals),        cmocka_unit_test(long_line),
		cmocka_unit_test(nul_byte),        cmocka_unit_test(bounds),
		cmocka_unit_test(window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
