// SPDX-License-Identifier: GPL-2.0-only
/*
 * The governor registry: spec strings "NAME[@RELEASE][+PATCH[=VALUE]]...",
 * release comparison, errors. Uses only ladder, haltpoll and the oracles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlelab/governor.h"
#include "idlelab/release.h"

static struct il_gov *must(const char *spec)
{
	struct il_err err;
	struct il_gov *g = il_gov_new(spec, 1, &err);

	if (!g)
		fail_msg("il_gov_new(%s): %s", spec, err.msg);
	return g;
}

/* il_gov_new must fail and its message contain want. */
static void refuse(const char *spec, const char *want)
{
	struct il_err err;

	il_err_clear(&err);
	struct il_gov *g = il_gov_new(spec, 1, &err);
	if (g)
		fail_msg("'%s' accepted as %s", spec, g->spec);
	if (!strstr(err.msg, want))
		fail_msg("'%s': message '%s' lacks '%s'", spec, err.msg, want);
}

static void known_governors(void **s)
{
	(void)s;
	static const char *const names[] = { "menu", "teo", "ladder", "haltpoll", "oracle",
					     "oracle-energy" };
	int n = 0;

	while (il_governors[n])
		n++;
	assert_int_equal(n, 6);
	for (int i = 0; i < 6; i++) {
		assert_non_null(il_gov_find(names[i]));
		assert_string_equal(il_gov_find(names[i])->name, names[i]);
	}
	assert_null(il_gov_find("Ladder")); /* exact names */
	/* only the model governors are told the true idle time */
	for (int i = 0; i < 6; i++)
		assert_int_equal(il_gov_find(names[i])->flags & IL_GOV_NEEDS_TRUE_IDLE,
				 i >= 4 ? IL_GOV_NEEDS_TRUE_IDLE : 0);
	/* the kernel's ratings; only ladder's changes with nohz off (init_ladder) */
	static const unsigned int rating[][2] = { { 20, 0 }, { 19, 0 }, { 10, 25 }, { 9, 0 },
						  { 0, 0 }, { 0, 0 } };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(il_gov_find(names[i])->rating, rating[i][0]);
		assert_int_equal(il_gov_find(names[i])->rating_nohz_off, rating[i][1]);
	}
	assert_null(il_gov_find("lad"));
	assert_null(il_gov_find(""));
}

/* Bare name: the newest preset. */
static void name_only(void **s)
{
	(void)s;
	struct il_gov *g = must("ladder");

	assert_ptr_equal(g->ops, il_gov_find("ladder"));
	assert_string_equal(g->spec, "ladder@7.1");
	assert_int_equal(g->ncpus, 1);
	il_gov_free(g);
	g = must("oracle");
	assert_string_equal(g->spec, "oracle@1");
	il_gov_free(g);
}

static void name_at_release(void **s)
{
	(void)s;
	static const char *const rel[] = { "6.1", "6.12", "6.18", "7.1" };
	char spec[32], want[32];

	for (int i = 0; i < 4; i++) {
		snprintf(spec, sizeof(spec), "haltpoll@%s", rel[i]);
		struct il_gov *g = must(spec);
		assert_string_equal(g->spec, spec);
		il_gov_free(g);
		snprintf(spec, sizeof(spec), "ladder@%s", rel[i]);
		snprintf(want, sizeof(want), "ladder@%s", rel[i]);
		g = must(spec);
		assert_string_equal(g->spec, want);
		il_gov_free(g);
	}
}

/* Patches reach the governor in order, with their values. */
static void release_and_patches(void **s)
{
	(void)s;
	struct il_gov *g = must("ladder@6.12+single-state-fix");

	assert_string_equal(g->spec, "ladder@6.12+single-state-fix");
	/* the patch took effect: one polling state answers 0, not 1 */
	struct il_driver drv;
	struct il_device dev;
	struct il_idle_inputs in = { .latency_req_ns = 1000000 };
	bool stop = true;
	memset(&drv, 0, sizeof(drv));
	il_poll_state_init(&drv.states[0]);
	drv.state_count = 1;
	il_device_init(&dev, &drv, 0);
	il_gov_enable(g, 0, &drv, &dev);
	assert_int_equal(il_gov_select(g, 0, &drv, &dev, &in, &stop), 0);
	il_gov_free(g);

	/* release omitted, patch with a value */
	g = must("haltpoll+guest_halt_poll_ns=100000");
	assert_string_equal(g->spec, "haltpoll@7.1+guest_halt_poll_ns=100000");
	il_gov_free(g);
	/* the last of repeated settings wins, as sequential writes would */
	g = must("haltpoll@6.18+guest_halt_poll_grow_start=1000+guest_halt_poll_grow_start=2000");
	char buf[200];
	il_gov_describe(g, buf, sizeof(buf));
	assert_non_null(strstr(buf, "grow_start=2000"));
	il_gov_free(g);
	/* two flag patches, normalised in the given order */
	g = must("ladder+signed-thresholds+single-state-fix");
	assert_string_equal(g->spec, "ladder@7.1+signed-thresholds+single-state-fix");
	il_gov_free(g);
}

static void bad_specs(void **s)
{
	(void)s;
	refuse("+guest_halt_poll_ns=20us", "bad governor spec");
	refuse("@7.1", "bad governor spec");
	refuse("", "bad governor spec");
	refuse("ladder@", "bad kernel release");
	refuse("ladder@6.13", "no preset for kernel 6.13");
	refuse("ladder@6.13", "5.4 5.5 6.1 6.12 6.18 7.1");
	refuse("ladder@6.1.5", "no preset");
	refuse("ladder@7.1@7.1", "no preset");
	refuse("ladder@12345678901234567", "bad kernel release");
	refuse("haltpoll@5.3", "no preset");
	refuse("haltpoll@6.10", "no preset");
	refuse("oracle@7.1", "no preset for kernel 7.1");
	refuse("nosuch", "unknown governor 'nosuch'");
	refuse("nosuch", "ladder, haltpoll, oracle, oracle-energy");
	refuse("nosuch@6.1+x", "unknown governor");
	refuse("ladder ", "unknown governor");
	refuse("averyveryveryveryverylonggovernorname", "bad governor spec");
	/* empty patches, before and after others */
	refuse("ladder+", "bad patch #1");
	refuse("ladder++single-state-fix", "bad patch #1");
	refuse("ladder+single-state-fix+", "bad patch #2");
	refuse("haltpoll+=5", "bad patch");
	refuse("ladder+abcdefghijabcdefghijabcdefghijab", "bad patch");
	refuse("haltpoll+guest_halt_poll_ns=1234567890123456789012345678901234", "bad patch");
	/* the governor judges the patch */
	refuse("ladder+no-poll-escape", "unknown patch 'no-poll-escape'");
	refuse("haltpoll+guest_halt_poll_grow_start=20us", "'20us'");
	refuse("oracle+poll-escape=20us", "no patches");
}

static void too_many_patches(void **s)
{
	(void)s;
	char spec[160] = "ladder";

	for (int i = 0; i < IL_GOV_PATCH_MAX; i++)
		strcat(spec, "+signed-thresholds");
	struct il_gov *g = il_gov_new(spec, 1, &(struct il_err){ 0 });
	/* eight patches fit in the input; the normalised form is too long for spec[] */
	assert_null(g);
	/* several patches are passed in order: the last write wins */
	g = must("haltpoll+guest_halt_poll_ns=1+guest_halt_poll_ns=2+guest_halt_poll_ns=4");
	char buf[200];
	il_gov_describe(g, buf, sizeof(buf));
	assert_non_null(strstr(buf, "guest_halt_poll_ns=4 "));
	il_gov_free(g);
	strcpy(spec, "oracle");
	for (int i = 0; i <= IL_GOV_PATCH_MAX; i++)
		strcat(spec, "+a");
	refuse(spec, "too many patches");
	/* exactly IL_GOV_PATCH_MAX reach the governor (which then refuses them itself) */
	strcpy(spec, "oracle");
	for (int i = 0; i < IL_GOV_PATCH_MAX; i++)
		strcat(spec, "+a");
	refuse(spec, "no patches");
}

static void length_limits(void **s)
{
	(void)s;
	char spec[200];

	memset(spec, 'a', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	memcpy(spec, "ladder+", 7);
	refuse(spec, "too long");
	/* fits the input but not the normalised spec[96]: refused, not truncated */
	refuse("haltpoll+guest_halt_poll_grow_start=1+guest_halt_poll_ns=200000"
	       "+guest_halt_poll_shrink=2+guest_halt_poll_grow=2", "too long");
	/* 95 chars normalised: accepted whole; 96: refused */
	struct il_gov *g = must("haltpoll+guest_halt_poll_grow_start=1+guest_halt_poll_ns=200000"
				"+guest_halt_poll_shrink=2222");
	assert_int_equal(strlen(g->spec), 95);
	assert_string_equal(g->spec + 79, "poll_shrink=2222");
	il_gov_free(g);
	refuse("haltpoll+guest_halt_poll_grow_start=1+guest_halt_poll_ns=200000"
	       "+guest_halt_poll_shrink=22222", "too long");
}

static void ncpus_and_cpu_data(void **s)
{
	(void)s;
	struct il_err err;

	assert_null(il_gov_new("ladder", 0, &err));
	assert_non_null(strstr(err.msg, "at least one CPU"));
	assert_null(il_gov_new("ladder", -3, &err));
	struct il_gov *g = il_gov_new("ladder", 64, &err);
	assert_non_null(g);
	assert_int_equal(g->ncpus, 64);
	/* per-CPU blocks are distinct and cpu_data_size apart */
	assert_ptr_equal((unsigned char *)il_gov_cpu(g, 63),
			 g->cpu_data + 63 * g->ops->cpu_data_size);
	assert_true(g->ops->cpu_data_size > 0);
	il_gov_free(g);
	il_gov_free(NULL);
}

static void set_param_routing(void **s)
{
	(void)s;
	struct il_err err;
	struct il_gov *g = must("ladder");

	assert_int_equal(il_gov_set_param(g, "guest_halt_poll_ns", "1", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "ladder has no parameter"));
	il_gov_free(g);
	g = must("haltpoll");
	assert_int_equal(il_gov_set_param(g, "guest_halt_poll_ns", "1", &err), 0);
	assert_int_equal(il_gov_set_param(g, "nope", "1", &err), -ENOENT);
	il_gov_free(g);
}

/*
 * Every governor's preset table: at least one row, releases strictly
 * increasing, each a mainline tag in the modelled range (a model
 * governor's is its own "1"), each with a text for describe.
 */
static void preset_tables(void **s)
{
	(void)s;
	for (int g = 0; il_governors[g]; g++) {
		const struct il_gov_ops *ops = il_governors[g];
		bool model = ops->flags & IL_GOV_NEEDS_TRUE_IDLE;

		assert_true(ops->npresets >= 1);
		for (size_t i = 0; i < ops->npresets; i++) {
			const struct il_gov_preset *p = &ops->presets[i];
			struct il_err err;

			if (model)
				assert_string_equal(p->release, "1");
			else if (il_release_check(p->release, &err))
				fail_msg("%s preset %s: %s", ops->name, p->release, err.msg);
			assert_non_null(p->text);
			assert_true(strlen(p->text) > 0);
			if (i > 0 && il_release_cmp(ops->presets[i - 1].release, p->release) >= 0)
				fail_msg("%s: preset %s after %s", ops->name, p->release,
					 ops->presets[i - 1].release);
			assert_ptr_equal(il_gov_preset_find(ops, p->release), p);
			assert_true(il_gov_has_release(ops, p->release));
			assert_ptr_equal(il_gov_preset_for_release(ops, p->release), p);
		}
		assert_ptr_equal(il_gov_preset_newest(ops), &ops->presets[ops->npresets - 1]);
	}
}

/*
 * The preset in force at every mainline release 5.4 .. 7.1: the newest
 * not newer than it. Expected rows written out by hand from the release
 * table of docs/governors.md (the releases whose text decides differently,
 * plus the rows specs name: menu 6.1/6.12, teo 6.1/6.12/6.18, ladder
 * 6.1/6.12/6.18/7.1, haltpoll 6.1/6.12/6.18/7.1).
 */
static void preset_for_release(void **s)
{
	(void)s;
	static const char *const want[][5] = {
		/* release  menu    teo     ladder  haltpoll */
		{ "5.4", "5.4", "5.4", "5.4", "5.4" },
		{ "5.5", "5.5", "5.5", "5.5", "5.5" },
		{ "5.6", "5.5", "5.5", "5.5", "5.5" },
		{ "5.7", "5.5", "5.5", "5.5", "5.5" },
		{ "5.8", "5.5", "5.5", "5.5", "5.5" },
		{ "5.9", "5.5", "5.5", "5.5", "5.5" },
		{ "5.10", "5.5", "5.5", "5.5", "5.5" },
		{ "5.11", "5.5", "5.5", "5.5", "5.5" },
		{ "5.12", "5.5", "5.5", "5.5", "5.5" },
		{ "5.13", "5.13", "5.13", "5.5", "5.5" },
		{ "5.14", "5.13", "5.14", "5.5", "5.5" },
		{ "5.15", "5.13", "5.14", "5.5", "5.5" },
		{ "5.16", "5.13", "5.14", "5.5", "5.5" },
		{ "5.17", "5.13", "5.14", "5.5", "5.5" },
		{ "5.18", "5.13", "5.14", "5.5", "5.5" },
		{ "5.19", "5.13", "5.14", "5.5", "5.5" },
		{ "6.0", "5.13", "5.14", "5.5", "5.5" },
		{ "6.1", "6.1", "6.1", "6.1", "6.1" },
		{ "6.2", "6.1", "6.1", "6.1", "6.1" },
		{ "6.3", "6.1", "6.3", "6.1", "6.1" },
		{ "6.4", "6.1", "6.3", "6.1", "6.1" },
		{ "6.5", "6.1", "6.3", "6.1", "6.1" },
		{ "6.6", "6.6", "6.6", "6.1", "6.1" },
		{ "6.7", "6.6", "6.6", "6.1", "6.1" },
		{ "6.8", "6.6", "6.6", "6.1", "6.1" },
		{ "6.9", "6.6", "6.6", "6.1", "6.9" },
		{ "6.10", "6.6", "6.6", "6.1", "6.9" },
		{ "6.11", "6.6", "6.11", "6.1", "6.9" },
		{ "6.12", "6.12", "6.12", "6.12", "6.12" },
		{ "6.13", "6.13", "6.12", "6.12", "6.12" },
		{ "6.14", "6.13", "6.14", "6.12", "6.12" },
		{ "6.15", "6.15", "6.14", "6.12", "6.12" },
		{ "6.16", "6.15", "6.14", "6.12", "6.12" },
		{ "6.17", "6.17", "6.14", "6.12", "6.12" },
		{ "6.18", "6.18", "6.18", "6.18", "6.18" },
		{ "6.19", "6.19", "6.19", "6.18", "6.18" },
		{ "7.0", "7.0", "7.0", "6.18", "7.0" },
		{ "7.1", "7.1", "7.1", "7.1", "7.1" },
	};
	const char *govs[] = { "menu", "teo", "ladder", "haltpoll" };
	struct il_err err;

	/* the table covers every release il_release_check() accepts, in order */
	_Static_assert(sizeof(want) / sizeof(want[0]) == 16 + 20 + 2,
		       "5.4..5.19, 6.0..6.19, 7.0, 7.1");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(il_release_check(want[i][0], &err), 0);
		if (i)
			assert_true(il_release_cmp(want[i - 1][0], want[i][0]) < 0);
	}
	for (size_t g = 0; g < 4; g++) {
		const struct il_gov_ops *ops = il_gov_find(govs[g]);

		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			const struct il_gov_preset *p = il_gov_preset_for_release(ops, want[i][0]);

			if (!p)
				fail_msg("%s: no preset in force at %s", govs[g], want[i][0]);
			if (strcmp(p->release, want[i][1 + g]))
				fail_msg("%s at %s: %s, want %s", govs[g], want[i][0], p->release,
					 want[i][1 + g]);
		}
		/* older than every preset: none */
		assert_null(il_gov_preset_for_release(ops, "5.3"));
		/* a release between presets is not a preset itself */
		assert_false(il_gov_has_release(ops, "6.16"));
		assert_null(il_gov_preset_find(ops, "6.16"));
	}
	/* the model governors' one definition is in force at every release */
	assert_string_equal(il_gov_preset_for_release(il_gov_find("oracle"), "5.4")->release, "1");
	assert_string_equal(il_gov_preset_for_release(il_gov_find("oracle-energy"), "7.1")->release,
			    "1");
}

static void preset_list_and_describe(void **s)
{
	(void)s;
	char buf[64];
	struct il_gov *g;

	il_gov_preset_list(il_gov_find("ladder"), buf, sizeof(buf));
	assert_string_equal(buf, "5.4 5.5 6.1 6.12 6.18 7.1");
	il_gov_preset_list(il_gov_find("ladder"), buf, 8);  /* truncated, terminated */
	assert_string_equal(buf, "5.4 5.5");
	il_gov_preset_list(il_gov_find("oracle"), buf, sizeof(buf));
	assert_string_equal(buf, "1");

	/* release and text of the preset, then what the spec added */
	g = must("ladder@6.1+signed-thresholds");
	assert_ptr_equal(g->preset, il_gov_preset_find(g->ops, "6.1"));
	char line[160];
	il_gov_describe(g, line, sizeof(line));
	assert_string_equal(line, "ladder@6.1 (release blob 8e9058c4ea63) "
			    "+signed-thresholds (unmerged RFC)");
	il_gov_describe(g, line, 12);
	assert_string_equal(line, "ladder@6.1 ");
	il_gov_free(g);
	g = must("haltpoll");
	assert_ptr_equal(g->preset, il_gov_preset_newest(g->ops));
	il_gov_describe(g, line, sizeof(line));
	assert_string_equal(line, "haltpoll@7.1 (release blob ed3952df8526) "
			    "guest_halt_poll_ns=200000 grow=2 grow_start=50000 "
			    "shrink=2 allow_shrink=Y");
	il_gov_free(g);
}

static void release_cmp(void **s)
{
	(void)s;
	assert_int_equal(il_release_cmp("6.1", "6.1"), 0);
	assert_true(il_release_cmp("6.12", "6.9") > 0);
	assert_true(il_release_cmp("6.9", "6.12") < 0);
	assert_true(il_release_cmp("7.1", "6.18") > 0);
	assert_true(il_release_cmp("6.18", "7.0") < 0);
	assert_true(il_release_cmp("6.1", "6.1.1") < 0);
	assert_true(il_release_cmp("6.1.1", "6.1") > 0);
	assert_int_equal(il_release_cmp("7", "7.0"), 0);
	assert_true(il_release_cmp("1", "7.1") < 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(known_governors),
		cmocka_unit_test(name_only),
		cmocka_unit_test(name_at_release),
		cmocka_unit_test(release_and_patches),
		cmocka_unit_test(bad_specs),
		cmocka_unit_test(too_many_patches),
		cmocka_unit_test(length_limits),
		cmocka_unit_test(ncpus_and_cpu_data),
		cmocka_unit_test(set_param_routing),
		cmocka_unit_test(preset_tables),
		cmocka_unit_test(preset_for_release),
		cmocka_unit_test(preset_list_and_describe),
		cmocka_unit_test(release_cmp),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
