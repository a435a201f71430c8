// SPDX-License-Identifier: GPL-2.0-only
/* The engine's event queues: setup and growth (the hot operations are in evq.h). */
#include <errno.h>
#include <stdlib.h>

#include "evq.h"
#include "util.h"

int sim_evheap_init(struct sim_evheap *h, int cap)
{
	h->n = 0;
	h->cap = cap;
	h->ev = malloc((size_t)cap * sizeof(*h->ev));
	return h->ev ? 0 : -ENOMEM;
}

void sim_evheap_free(struct sim_evheap *h)
{
	free(h->ev);
	h->ev = NULL;
	h->n = h->cap = 0;
}

void sim_evheap_grow(struct sim_evheap *h)
{
	size_t cap = (size_t)h->cap * 2;

	h->ev = il_xrealloc(h->ev, cap * sizeof(*h->ev));
	h->cap = (int)cap;
}

int sim_ttree_init(struct sim_ttree *tt, int ncpus)
{
	tt->leaves = 1;
	while (tt->leaves < ncpus)
		tt->leaves *= 2;
	tt->scan = ncpus <= TT_SCAN_MAX;
	tt->n = malloc(2 * (size_t)tt->leaves * sizeof(*tt->n));
	tt->seq = malloc((size_t)tt->leaves * sizeof(*tt->seq));
	if (!tt->n || !tt->seq)
		return -ENOMEM;
	for (int i = 2 * tt->leaves - 1; i >= 1; i--) {
		if (i >= tt->leaves) {
			tt->n[i] = (struct sim_tnode){ .t = INT64_MAX, .cpu = i - tt->leaves };
			tt->seq[i - tt->leaves] = UINT64_MAX;
			continue;
		}
		tt->n[i] = tt->n[2 * i]; /* all equal: the lower CPU */
	}
	return 0;
}

void sim_ttree_free(struct sim_ttree *tt)
{
	free(tt->n);
	free(tt->seq);
	tt->n = NULL;
	tt->seq = NULL;
}

void sim_timerq_free(struct sim_timerq *q)
{
	free(q->t);
	q->t = NULL;
	q->n = q->cap = 0;
}

void sim_timerq_grow(struct sim_timerq *q)
{
	int cap = q->cap ? q->cap * 2 : 4;

	q->t = il_xrealloc(q->t, (size_t)cap * sizeof(*q->t));
	q->cap = cap;
}
