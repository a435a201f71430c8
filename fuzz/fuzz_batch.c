// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: batch files (il_scn_parse_batch) and the partial
 * results files of idlelab batch --resume (src/batch/partial.c). An input
 * that starts with the partial file's header is read as one for a fixed
 * small batch (its second line, the fingerprint, replaced by the right one
 * so that the records are reached); anything else is parsed as a batch
 * file and, when it parses, its configurations are checked as idlelab
 * batch checks them (platforms, workloads, governors) when they are few.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist.h"
#include "idlelab/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char header[] = "idlelab partial results 1\n";
static const char small[] = "[config.a]\nworkload = sleep-sweep\nwl = loops=2\nruns = 2\n"
			    "duration = 50ms\n[config.b]\ngovernor = teo\nworkload = idle\nruns = 1\n"
			    "duration = 50ms\n";

static int partial(const uint8_t *data, size_t size)
{
	static struct il_scn s;
	static struct il_scn_outcome out;
	static bool ready;
	struct il_err err;

	if (!ready) {
		struct il_scn_run_opts ro = { false, 1, 1 };
		if (il_scn_parse_batch(&s, small, strlen(small), "small.ini", &err) ||
		    il_scn_prepare(&s, &ro, &out, &err))
			abort();
		ready = true;
	}
	struct il_sim_batch *bs[2] = { &out.batches[0].b, &out.batches[1].b };
	/* the fingerprint il_partial_open writes for 0 in a new file */
	char path[64], fp[128] = "";
	snprintf(path, sizeof(path), "/tmp/fuzz-batch-%d.part", (int)getpid());
	unlink(path);
	struct il_partial *p;
	int loaded;
	if (il_partial_open(&p, path, 0, bs, 2, &loaded))
		abort();
	il_partial_close(p);
	FILE *f = fopen(path, "r");
	if (!f || !fgets(fp, sizeof(fp), f) || !fgets(fp, sizeof(fp), f))
		abort();
	fclose(f);
	/* the input with its second line replaced */
	const uint8_t *rest = data + sizeof(header) - 1;
	size_t n = size - (sizeof(header) - 1);
	const uint8_t *nl = memchr(rest, '\n', n);
	if (nl) {
		n -= (size_t)(nl + 1 - rest);
		rest = nl + 1;
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(header, f);
	fputs(fp, f);
	fwrite(rest, 1, n, f);
	fclose(f);
	if (il_partial_open(&p, path, 0, bs, 2, &loaded) == 0) {
		il_partial_close(p);
		for (int i = 0; i < 2; i++) {
			for (int k = 0; k < bs[i]->nconfigs * bs[i]->runs; k++)
				il_sim_result_free(&bs[i]->results[k]);
			bs[i]->have = NULL;
			bs[i]->result_done = NULL;
		}
	}
	unlink(path);
	return 0;
}

/*
 * A partial file's records are checksummed, so the fuzzer seldom reaches
 * the result bytes inside one: an input that starts with "unpack\n" gives
 * the rest to il_sim_result_unpack() directly, as a forged record would.
 */
static const char unpack[] = "unpack\n";

static int unpack_one(const uint8_t *data, size_t size)
{
	struct il_sim_result r;
	/* aligned, as the loader's buffer is */
	void *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (il_sim_result_unpack(buf, size, &r) == 0) {
		if (r.nfreq < 0 || r.nfreq > 64)
			__builtin_trap();
		for (int i = 0; i < r.metrics.n; i++)
			if (strlen(r.metrics.m[i].row) >= sizeof(r.metrics.m[i].row))
				__builtin_trap();
		il_sim_result_free(&r);
	}
	free(buf);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_scn s;
	struct il_err err;

	if (size >= sizeof(unpack) - 1 && !memcmp(data, unpack, sizeof(unpack) - 1))
		return unpack_one(data + sizeof(unpack) - 1, size - (sizeof(unpack) - 1));
	if (size >= sizeof(header) - 1 && !memcmp(data, header, sizeof(header) - 1))
		return partial(data, size);
	if (il_scn_parse_batch(&s, (const char *)data, size, "fuzz.ini", &err))
		return 0;
	/* a few short runs at most: their memory is what prepare allocates */
	long total = 0;
	for (int c = 0; c < s.nconfigs; c++)
		total += s.configs[c].runs;
	if (s.nconfigs <= 4 && total <= 16) {
		struct il_scn_run_opts ro = { false, 1, 1 };
		struct il_scn_outcome out;
		if (il_scn_prepare(&s, &ro, &out, &err) == 0)
			il_scn_outcome_free(&out);
	}
	il_scn_free(&s);
	return 0;
}
