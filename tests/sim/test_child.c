// SPDX-License-Identifier: GPL-2.0-only
/*
 * The child runner (src/sim/child.c): a run in a child process, its result
 * or its error back over the pipe, and the words for each way it can end
 * (an error, a signal, an exit without a result, a watched crash, the test
 * abort of MPI batches).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"

#define RUNS 2
#define SEED 10

static struct il_sim_batch *batch(void)
{
	static struct il_sim_result results[RUNS];
	static struct il_sim_batch b;

	memset(&b, 0, sizeof(b));
	memset(results, 0, sizeof(results));
	b.runs = RUNS;
	b.params.seed = SEED;
	b.results = results;
	return &b;
}

/* the runs the child may run: c says which */
static int fake_run(struct il_sim_batch *b, int c, int k, struct il_err *err)
{
	struct il_sim_result *r = &b->results[c * b->runs + k];

	switch (c) {
	case 0:
		r->duration_ns = 1000 + k;
		r->energy_j = 2.5;
		return 0;
	case 1:
		return il_err_set_at(err, EINVAL, "file.ini", 7, "run %d: no such thing", k + 1);
	case 2:
		raise(SIGKILL);
		return 0;
	default:
		_exit(7);
	}
}

/* Start run k of configuration c and wait for it: how it ended. */
static enum il_child_end run(struct il_child *ch, int c, int k)
{
	struct il_err err;
	int r;

	assert_int_equal(il_child_start(ch, batch(), 3, c, k, &err), 0);
	assert_true(ch->pid > 0);
	do {
		struct pollfd pf = { .fd = ch->fd, .events = POLLIN };
		assert_true(poll(&pf, 1, 10000) > 0);
		r = il_child_read(ch);
		assert_true(r >= 0);
	} while (!r);
	enum il_child_end end = il_child_reap(ch);
	assert_int_equal(ch->pid, 0);
	assert_int_equal(ch->batch, 3);
	assert_int_equal(ch->config, c);
	assert_int_equal(ch->run, k);
	return end;
}

/*
 * The packed bytes hold no addresses: two copies of one result in
 * different memory pack to the same bytes (a partial results file is the
 * same file for the same runs), and unpacking gives the values back.
 */
static void pack_has_no_addresses(void **unused)
{
	(void)unused;
	struct il_sim_result a, b, u;
	memset(&a, 0, sizeof(a));
	a.ncpus = 2;
	a.duration_ns = 123456789;
	a.cpu = calloc(2, sizeof(*a.cpu));
	a.cpu[1].busy_ns = 42;
	a.metrics.n = a.metrics.cap = 1;
	a.metrics.m = calloc(1, sizeof(*a.metrics.m));
	strcpy(a.metrics.m[0].col, "round_trips");
	a.metrics.m[0].value = 7;
	b = a;
	b.cpu = calloc(2, sizeof(*b.cpu));
	memcpy(b.cpu, a.cpu, 2 * sizeof(*b.cpu));
	b.metrics.m = calloc(1, sizeof(*b.metrics.m));
	memcpy(b.metrics.m, a.metrics.m, sizeof(*b.metrics.m));
	void *pa, *pb;
	size_t la = il_sim_result_pack(&a, &pa), lb = il_sim_result_pack(&b, &pb);
	assert_int_equal(la, lb);
	assert_memory_equal(pa, pb, la);
	assert_int_equal(il_sim_result_unpack(pa, la, &u), 0);
	assert_int_equal(u.duration_ns, 123456789);
	assert_int_equal(u.cpu[1].busy_ns, 42);
	assert_string_equal(u.metrics.m[0].col, "round_trips");
	assert_true(u.metrics.m[0].value == 7);
	free(u.cpu);
	free(u.metrics.m);
	/* forged bytes (a partial file's record with a valid checksum) are refused */
	struct il_sim_result *h = pa;   /* the header is the struct, malloc-aligned */
	h->nfreq = 65;
	assert_int_equal(il_sim_result_unpack(pa, la, &u), -1);
	h->nfreq = 0;
	struct il_metric *m = (struct il_metric *)(void *)((char *)pa + sizeof(a) +
							  2 * sizeof(*a.cpu));
	memset(m->col, 'x', sizeof(m->col));
	assert_int_equal(il_sim_result_unpack(pa, la, &u), -1);
	memcpy(m->col, "round_trips", 12);
	m->better = (enum il_better)7;
	assert_int_equal(il_sim_result_unpack(pa, la, &u), -1);
	m->better = IL_BETTER_NONE;
	assert_int_equal(il_sim_result_unpack(pa, la, &u), 0);
	free(u.cpu);
	free(u.metrics.m);
	free(pa);
	free(pb);
	free(a.cpu);
	free(a.metrics.m);
	free(b.cpu);
	free(b.metrics.m);
}

static void result(void **unused)
{
	(void)unused;
	struct il_child ch = { .run_one = fake_run };
	struct il_sim_result res;
	size_t len;

	for (int k = 0; k < RUNS; k++) {
		assert_int_equal(run(&ch, 0, k), IL_CHILD_RESULT);
		const char *bytes = il_child_result(&ch, &len);
		assert_int_equal(il_sim_result_unpack(bytes, len, &res), 0);
		assert_int_equal(res.duration_ns, 1000 + k);
		assert_true(res.energy_j == 2.5);
		il_sim_result_free(&res);
		/* the parent's own results are untouched: the run was the child's */
		assert_int_equal(batch()->results[k].duration_ns, 0);
	}
	/* bytes that are not a result */
	assert_int_equal(il_sim_result_unpack("R", 1, &res), -1);
	il_child_free(&ch);
}

static void why(void **unused)
{
	(void)unused;
	struct il_child ch = { .run_one = fake_run };
	char buf[600];

	assert_int_equal(run(&ch, 1, 1), IL_CHILD_ERROR);
	il_child_why(&ch, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "file.ini:7: run 2: no such thing");
	assert_int_equal(run(&ch, 2, 0), IL_CHILD_SIGNAL);
	il_child_why(&ch, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "killed by signal 9 (Killed)");
	assert_int_equal(run(&ch, 3, 0), IL_CHILD_NO_RESULT);
	il_child_why(&ch, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "ended with status 7 and no result");
	/* cut short: no room for the words, and no overflow */
	il_child_why(&ch, NULL, buf, 6);
	assert_string_equal(buf, "ended");
	il_child_free(&ch);
}

/* A watched child (a loaded governor's run): the watch's verdict names the governor. */
static void watched(void **unused)
{
	(void)unused;
	struct il_child ch = { .run_one = fake_run };
	char buf[300];

	ch.w = il_gov_watch_map();
	assert_non_null(ch.w);
	ch.w->calls = 5; /* zeroed by il_child_start */
	assert_int_equal(run(&ch, 2, 0), IL_CHILD_SIGNAL);
	il_child_why(&ch, "file:g.c", buf, sizeof(buf));
	assert_string_equal(buf, "governor file:g.c crashed (SIGKILL) outside the governor, "
			    "after 0 calls");
	il_gov_watch_unmap(ch.w);
	il_child_free(&ch);
}

/* IDLELAB_TEST_ABORT_SEED aborts the run with that seed, where the caller asks for it. */
static void test_abort(void **unused)
{
	(void)unused;
	struct il_child ch = { .run_one = fake_run };
	char buf[300];

	assert_int_equal(setenv("IDLELAB_TEST_ABORT_SEED", "11", 1), 0); /* SEED + run 1 */
	assert_int_equal(run(&ch, 0, 1), IL_CHILD_RESULT);
	ch.test_abort = true;
	assert_int_equal(run(&ch, 0, 0), IL_CHILD_RESULT);
	assert_int_equal(run(&ch, 0, 1), IL_CHILD_SIGNAL);
	il_child_why(&ch, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "killed by signal 6 (Aborted)");
	unsetenv("IDLELAB_TEST_ABORT_SEED");
	il_child_free(&ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pack_has_no_addresses),
		cmocka_unit_test(result),
		cmocka_unit_test(why),
		cmocka_unit_test(watched),
		cmocka_unit_test(test_abort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
