// SPDX-License-Identifier: GPL-2.0-only
/*
 * The partial results file (--resume FILE): a header line, a line with the
 * fingerprint of the runs, then one record per gathered run: "RUN1", the
 * batch, configuration and run (32-bit), the length (64-bit) of the
 * result's bytes (il_sim_result_pack: this build's layout, so the file is
 * read by the idlelab that wrote it), the bytes, and an FNV-1a 64 of them.
 * Records are appended and flushed as runs finish; a record cut short by
 * an interruption is dropped (the file is truncated to the last whole one)
 * and that run is run again. Before it runs, each run has a "DEAL" record:
 * the batch, configuration and run, where it was dealt (the MPI rank, -1
 * a thread) and an FNV-1a 64 of those; a dealt run without a result is
 * one the interruption caught, and the resumed batch names it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist.h"

#define HEADER "idlelab partial results 1\n"
#define MAGIC_RUN 0x314e5552u   /* "RUN1" */
#define MAGIC_DEAL 0x4c414544u  /* "DEAL" */

struct il_partial {
	FILE *f;
	char *path;
	int nb;
	struct il_sim_batch **bs;     /* a copy of the caller's array */
	int failed;                   /* a write failed: said once */
	bool **have;                  /* the batches' have[], allocated here */
};

const char *il_dist_run_name(const struct il_sim_batch *b, int c, int k, char *buf, size_t size)
{
	snprintf(buf, size, "%s%sgovernor %s on %s, %s: run %d (seed %llu)",
		 b->label ? b->label : "", b->label ? ": " : "", b->gov_names[c], b->platform->name,
		 b->wl->name, k + 1, (unsigned long long)(b->params.seed + (uint64_t)k));
	return buf;
}

uint64_t il_fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t il_partial_args(int argc, char **argv, const char *const *skip, const bool *has_value)
{
	uint64_t h = IL_FNV_START;

	for (int i = 0; i < argc; i++) {
		bool skipped = false;
		for (int k = 0; skip[k] && !skipped; k++) {
			size_t n = strlen(skip[k]);
			if (strncmp(argv[i], skip[k], n))
				continue;
			if (argv[i][n] == '=')
				skipped = true;
			else if (!argv[i][n])
				skipped = true, i += has_value[k];
		}
		if (!skipped)
			h = il_fnv64(h, argv[i], strlen(argv[i]) + 1);
	}
	return h;
}

static int batch_index(const struct il_partial *p, const struct il_sim_batch *b)
{
	for (int i = 0; i < p->nb; i++)
		if (p->bs[i] == b)
			return i;
	return -1;
}

static void record(void *arg, struct il_sim_batch *b, int c, int k)
{
	struct il_partial *p = arg;
	void *buf;
	int bi = batch_index(p, b);
	size_t len = il_sim_result_pack(&b->results[c * b->runs + k], &buf);

	if (bi >= 0 && len) {
		uint32_t h[4] = { MAGIC_RUN, (uint32_t)bi, (uint32_t)c, (uint32_t)k };
		uint64_t n = len, sum = il_fnv64(IL_FNV_START, buf, len);
		if (fwrite(h, sizeof(h), 1, p->f) == 1 && fwrite(&n, sizeof(n), 1, p->f) == 1 &&
		    fwrite(buf, len, 1, p->f) == 1 && fwrite(&sum, sizeof(sum), 1, p->f) == 1 &&
		    fflush(p->f) == 0) {
			free(buf);
			return;
		}
	}
	free(buf);
	if (!p->failed++)
		fprintf(stderr, "idlelab: %s: cannot write the partial results (%s): an interrupted batch "
			"will run these runs again\n", p->path, strerror(errno));
}

static void record_deal(void *arg, struct il_sim_batch *b, int c, int k, int where)
{
	struct il_partial *p = arg;
	int bi = batch_index(p, b);
	uint32_t h[5] = { MAGIC_DEAL, (uint32_t)bi, (uint32_t)c, (uint32_t)k, (uint32_t)where };
	uint64_t sum = il_fnv64(IL_FNV_START, h, sizeof(h));

	if (bi < 0 || fwrite(h, sizeof(h), 1, p->f) != 1 || fwrite(&sum, sizeof(sum), 1, p->f) != 1 ||
	    fflush(p->f))
		if (!p->failed++)
			fprintf(stderr, "idlelab: %s: cannot write the partial results (%s)\n", p->path,
				strerror(errno));
}

/*
 * The records of f after the header: results filled, have[] set, where[]
 * each run was last dealt (-2: not dealt); returns the good length.
 */
static long load(FILE *f, struct il_sim_batch *const *bs, int nb, int **where, int *loaded)
{
	long good = ftell(f);
	struct stat st;

	if (fstat(fileno(f), &st))
		return good;

	for (;;) {
		uint32_t h[5];
		uint64_t n, sum;
		if (fread(h, sizeof(uint32_t), 4, f) != 4 || h[1] >= (uint32_t)nb)
			break;
		struct il_sim_batch *b = bs[h[1]];
		if (h[2] >= (uint32_t)b->nconfigs || h[3] >= (uint32_t)b->runs)
			break;
		if (h[0] == MAGIC_DEAL) {
			if (fread(&h[4], sizeof(h[4]), 1, f) != 1 || fread(&sum, sizeof(sum), 1, f) != 1 ||
			    sum != il_fnv64(IL_FNV_START, h, sizeof(h)))
				break;
			where[h[1]][h[2] * (size_t)b->runs + h[3]] = (int)h[4];
			good = ftell(f);
			continue;
		}
		/* a result no longer than what is left of the file */
		if (h[0] != MAGIC_RUN || fread(&n, sizeof(n), 1, f) != 1 || n > (uint64_t)st.st_size)
			break;
		char *buf = malloc(n ? n : 1);
		if (!buf || fread(buf, n, 1, f) != 1 || fread(&sum, sizeof(sum), 1, f) != 1 ||
		    sum != il_fnv64(IL_FNV_START, buf, n)) {
			free(buf);
			break;
		}
		size_t i = h[2] * (size_t)b->runs + h[3];
		struct il_sim_result r;
		if (il_sim_result_unpack(buf, n, &r) < 0) {
			free(buf);
			break;
		}
		free(buf);
		if (b->have[i])
			il_sim_result_free(&b->results[i]);
		else
			(*loaded)++;
		b->results[i] = r;
		b->have[i] = true;
		good = ftell(f);
	}
	return good;
}

int il_partial_open(struct il_partial **pp, const char *path, uint64_t fingerprint,
		    struct il_sim_batch *const *bs, int nb, int *loaded)
{
	struct il_partial *p = calloc(1, sizeof(*p));
	char fp[64];

	*loaded = 0;
	*pp = NULL;
	if (!p)
		return fprintf(stderr, "idlelab: out of memory\n"), -1;
	/* what the runs depend on, and this build's layout of a result */
	fingerprint = il_fnv64(fingerprint, IDLELAB_VERSION, strlen(IDLELAB_VERSION));
	uint64_t rs = sizeof(struct il_sim_result);
	fingerprint = il_fnv64(fingerprint, &rs, sizeof(rs));
	snprintf(fp, sizeof(fp), "runs %016" PRIx64 "\n", fingerprint);
	p->have = calloc((size_t)(nb ? nb : 1), sizeof(*p->have));
	for (int i = 0; p->have && i < nb; i++)
		if (!(p->have[i] = bs[i]->have = calloc((size_t)(bs[i]->nconfigs * bs[i]->runs),
							    sizeof(bool))))
			break;
	p->nb = nb;
	if (!p->have || (nb && !p->have[nb - 1])) {
		fprintf(stderr, "idlelab: out of memory\n");
		goto fail;
	}
	p->path = strdup(path);
	p->f = fopen(path, "r+b");
	if (p->f) {
		/* cut short in its two header lines (no run in it yet): begun again */
		char line[128], head[128];
		struct stat st;
		snprintf(head, sizeof(head), "%s%s", HEADER, fp);
		size_t got = fread(line, 1, strlen(head), p->f);
		if (!fstat(fileno(p->f), &st) && (size_t)st.st_size < strlen(head) &&
		    got == (size_t)st.st_size && !memcmp(line, head, got)) {
			fclose(p->f);
			p->f = NULL;
			errno = ENOENT;
			goto fresh;
		}
		rewind(p->f);
		if (!fgets(line, sizeof(line), p->f) || strcmp(line, HEADER)) {
			fprintf(stderr, "idlelab: %s: not a partial results file of idlelab (--resume "
				"takes the file a batch wrote its finished runs to)\n", path);
			goto fail;
		}
		if (!fgets(line, sizeof(line), p->f) || strcmp(line, fp)) {
			fprintf(stderr, "idlelab: %s: the partial results of other runs (another batch "
				"or platform file, other options, another loaded governor or another "
				"idlelab build): start a new file\n", path);
			goto fail;
		}
		int **where = calloc((size_t)nb, sizeof(*where));
		for (int i = 0; where && i < nb; i++) {
			size_t n = (size_t)(bs[i]->nconfigs * bs[i]->runs);
			if (!(where[i] = malloc(n * sizeof(int))))
				break;
			for (size_t k = 0; k < n; k++)
				where[i][k] = -2;
		}
		if (!where || (nb && !where[nb - 1])) {
			for (int i = 0; where && i < nb; i++)
				free(where[i]);
			free(where);
			fprintf(stderr, "idlelab: out of memory\n");
			goto fail;
		}
		long good = load(p->f, bs, nb, where, loaded);
		/* the runs the interruption caught */
		for (int i = 0; i < nb; i++) {
			const struct il_sim_batch *b = bs[i];
			for (int k = 0; k < b->nconfigs * b->runs; k++) {
				if (where[i][k] == -2 || b->have[k])
					continue;
				char on[32] = "on a thread", name[256];
				if (where[i][k] >= 0)
					snprintf(on, sizeof(on), "on rank %d", where[i][k]);
				il_dist_run_name(b, k / b->runs, k % b->runs, name, sizeof(name));
				/* a run caught by the interruption, or one whose process failed */
				fprintf(stderr, "idlelab: %s: %s, started %s, did not finish (the batch "
					"stopped or its run failed); it runs again\n", path, name, on);
			}
			free(where[i]);
		}
		free(where);
		if (fflush(p->f) || ftruncate(fileno(p->f), good) || fseek(p->f, good, SEEK_SET)) {
			fprintf(stderr, "idlelab: %s: %s\n", path, strerror(errno));
			goto fail;
		}
	} else if (errno == ENOENT) {
fresh:
		p->f = fopen(path, "w+b");
		if (!p->f || fputs(HEADER, p->f) < 0 || fputs(fp, p->f) < 0 || fflush(p->f)) {
			fprintf(stderr, "idlelab: %s: %s\n", path, strerror(errno));
			goto fail;
		}
	} else {
		fprintf(stderr, "idlelab: %s: %s\n", path, strerror(errno));
		goto fail;
	}
	p->bs = malloc((size_t)(nb ? nb : 1) * sizeof(*p->bs));
	if (!p->bs) {
		fprintf(stderr, "idlelab: out of memory\n");
		goto fail;
	}
	memcpy(p->bs, bs, (size_t)nb * sizeof(*p->bs));
	for (int i = 0; i < nb; i++) {
		bs[i]->result_done = record;
		bs[i]->run_dealt = record_deal;
		bs[i]->result_done_arg = p;
	}
	*pp = p;
	return 0;
fail:
	if (p->f)
		fclose(p->f);
	p->f = NULL;
	for (int i = 0; p->have && i < nb; i++)
		if (p->have[i] && bs[i]->have == p->have[i])
			bs[i]->have = NULL;
	il_partial_close(p);
	return -1;
}

void il_partial_close(struct il_partial *p)
{
	if (!p)
		return;
	if (p->f)
		fclose(p->f);
	for (int i = 0; p->have && i < p->nb; i++)
		free(p->have[i]);
	free(p->have);
	free(p->bs);
	free(p->path);
	free(p);
}
