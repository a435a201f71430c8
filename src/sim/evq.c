// SPDX-License-Identifier: GPL-2.0-only
/* The engine's event queues: setup and growth (the hot operations are in evq.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "evq.h"
#include "util.h"

int sim_evheap_init(struct sim_evheap *h, int cap)
{
	struct sim_ev *base = malloc(((size_t)cap + 1) * sizeof(*h->ev));

	h->n = 0;
	h->cap = cap;
	h->heap = false;
	h->ev = h->top = NULL;
	if (!base)
		return -ENOMEM;
	base[0] = (struct sim_ev){ .t = INT64_MAX, .seq = UINT64_MAX, .cpu = -1 };
	h->ev = base + 1;
	h->top = &h->ev[-1];
	return 0;
}

void sim_evheap_free(struct sim_evheap *h)
{
	if (h->ev)
		free(h->ev - 1);
	h->ev = h->top = NULL;
	h->n = h->cap = 0;
}

void sim_evheap_grow(struct sim_evheap *h)
{
	size_t cap = (size_t)h->cap * 2;
	struct sim_ev *base = il_xrealloc(h->ev - 1, (cap + 1) * sizeof(*h->ev));

	h->ev = base + 1;
	h->cap = (int)cap;
	h->top = h->heap ? &h->ev[0] : &h->ev[h->n - 1];
}

void sim_evheap_to_heap(struct sim_evheap *h)
{
	/* latest first reversed is earliest first: every parent is before its children */
	for (int i = 0, j = h->n - 1; i < j; i++, j--) {
		struct sim_ev x = h->ev[i];
		h->ev[i] = h->ev[j];
		h->ev[j] = x;
	}
	h->heap = true;
	h->top = &h->ev[0];
}

int sim_ttree_init(struct sim_ttree *tt, int ncpus)
{
	tt->leaves = 1;
	while (tt->leaves < ncpus)
		tt->leaves *= 2;
	tt->depth = 0;
	while (1 << tt->depth < tt->leaves)
		tt->depth++;
	tt->scan = ncpus <= TT_SCAN_MAX;
	tt->two = ncpus == 2;
	size_t n = 2 * (size_t)tt->leaves;
	tt->t = malloc(n * sizeof(*tt->t));
	tt->key = malloc(n * sizeof(*tt->key));
	if (!tt->t || !tt->key)
		return -ENOMEM;
	tt->leaf_t = &tt->t[tt->leaves];
	tt->leaf_key = &tt->key[tt->leaves];
	for (int i = 2 * tt->leaves - 1; i >= 1; i--) {
		if (i >= tt->leaves) {
			tt->t[i] = INT64_MAX;
			tt->key[i] = sim_ttree_key(TT_SEQ_MAX, i - tt->leaves);
			continue;
		}
		/* no events: the lower CPU */
		tt->t[i] = tt->t[2 * i];
		tt->key[i] = tt->key[2 * i];
	}
	return 0;
}

void sim_ttree_free(struct sim_ttree *tt)
{
	free(tt->t);
	free(tt->key);
	tt->t = NULL;
	tt->key = NULL;
	tt->leaf_t = NULL;
	tt->leaf_key = NULL;
}

/*
 * (t, seq) before (t2, seq2): one 128-bit comparison (times are >= 0, so
 * the high halves compare alike signed or unsigned), which compiles to a
 * compare and a subtract with borrow, one flag and one branch instead of
 * three compares.
 */
static inline bool key_before(int64_t t, uint64_t seq, int64_t t2, uint64_t seq2)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 a = (unsigned __int128)(uint64_t)t << 64 | seq;
	unsigned __int128 b = (unsigned __int128)(uint64_t)t2 << 64 | seq2;
	return a < b;
#else
	return (t < t2) | ((t == t2) & (seq < seq2)); /* 32-bit targets: no 128-bit type */
#endif
}

/*
 * The walk from CPU cpu's leaf (already set to t, seq) to the root. Out of
 * line: inlined at each of the engine's many slot changes it made the main
 * loop's code larger, and the few-CPU runs, which never walk, slower.
 */
void sim_ttree_walk(struct sim_ttree *tt, int cpu, int64_t t, uint64_t key)
{
	int64_t *nt = tt->t;
	uint64_t *nk = tt->key;
	size_t i = (size_t)tt->leaves + (size_t)cpu; /* unsigned: no sign extension per level */
	const uint64_t own = key;

	while (i > 1) {
		size_t j = i ^ 1;
		int64_t ot = nt[j];
		uint64_t ok = nk[j];
		/*
		 * A branch, not conditional moves: the real predictor gets it
		 * right, and a select puts every level's compare on the previous
		 * one's result (measured: 20 % slower on 256 CPUs). Equal times
		 * are frequent (every CPU without an event has INT64_MAX), so the
		 * tie is part of the one comparison, not a branch of its own.
		 */
		if (key_before(ot, ok, t, key)) {
			__asm__ volatile(""); /* keeps this a branch (see above) */
			t = ot;
			key = ok;
		}
		i >>= 1;
		/* keys are unique: the node holds this other CPU's key already */
		if (key != own && nk[i] == key)
			return; /* another CPU still wins here: nothing above changes */
		nt[i] = t;
		nk[i] = key;
	}
}

/*
 * The walk of the CPU that won at the root: on its path every node is its,
 * so each level is recomputed and nothing can stop early. Which sibling
 * wins is data: as a branch it was mispredicted at ~30 % of the levels
 * (callgrind, 256 CPUs: 99 % of the run's mispredictions), so the selects
 * are cmovs; in asm, as gcc 12 turns the C selects back into a branch.
 * The chain per level (cmp, sbb, cmov) is ~4 cycles.
 *
 * The tree's depth is fixed at setup, so the walk is straight-line code
 * entered at its level count (a jump table whose target never changes):
 * no loop test per level, no count of the levels per walk.
 */
#if defined(__x86_64__) && defined(__GNUC__)
/*
 * One level: node i's sibling j = i ^ 1 against the winner so far (t,
 * key), as one 128-bit subtract (cmp, sbb) and two cmovs (the subtract
 * consumes its own load of the sibling's time, the cmov reads it from
 * memory again), written to the parent i >> 1. The index steps are in the
 * asm too: with them in C around it, gcc 12 moved t between two registers
 * at every level (each entry of the switch is a join point).
 */
#define WALK_TOP_LEVEL()						\
	__asm__ volatile("mov %[i], %[j]\n\t"				\
			 "xor $1, %[j]\n\t"				\
			 "shr %[i]\n\t"				\
			 "mov (%[nk],%[j],8), %[ok]\n\t"		\
			 "mov (%[nt],%[j],8), %[tmp]\n\t"		\
			 "cmp %[key], %[ok]\n\t"			\
			 "sbb %[t], %[tmp]\n\t"			\
			 "cmovb (%[nt],%[j],8), %[t]\n\t"		\
			 "cmovb %[ok], %[key]\n\t"			\
			 "mov %[t], (%[nt],%[i],8)\n\t"		\
			 "mov %[key], (%[nk],%[i],8)"			\
			 : [i] "+r"(i), [t] "+r"(t), [key] "+r"(key),	\
			   [j] "=&r"(j), [ok] "=&r"(ok), [tmp] "=&r"(tmp) \
			 : [nt] "r"(nt), [nk] "r"(nk)			\
			 : "cc", "memory")
#else
#define WALK_TOP_LEVEL()						\
	do {								\
		j = i ^ 1;						\
		ok = nk[j];						\
		tmp = nt[j];						\
		bool b_ = key_before(tmp, ok, t, key);			\
		t = b_ ? tmp : t;					\
		key = b_ ? ok : key;					\
		i >>= 1;						\
		nt[i] = t;						\
		nk[i] = key;						\
	} while (0)
#endif

void sim_ttree_walk_top(struct sim_ttree *tt, int cpu, int64_t t, uint64_t key)
{
	int64_t *nt = tt->t;
	uint64_t *nk = tt->key;
	size_t i = (size_t)tt->leaves + (size_t)cpu;
	size_t j;
	uint64_t ok;
	int64_t tmp;

	switch (tt->depth) {
	case 13: WALK_TOP_LEVEL(); /* fallthrough */
	case 12: WALK_TOP_LEVEL(); /* fallthrough */
	case 11: WALK_TOP_LEVEL(); /* fallthrough */
	case 10: WALK_TOP_LEVEL(); /* fallthrough */
	case 9: WALK_TOP_LEVEL(); /* fallthrough */
	case 8: WALK_TOP_LEVEL(); /* fallthrough */
	case 7: WALK_TOP_LEVEL(); /* fallthrough */
	case 6: WALK_TOP_LEVEL(); /* fallthrough */
	case 5: WALK_TOP_LEVEL(); /* fallthrough */
	case 4: WALK_TOP_LEVEL(); /* fallthrough */
	case 3: WALK_TOP_LEVEL(); /* fallthrough */
	case 2: WALK_TOP_LEVEL(); /* fallthrough */
	case 1: WALK_TOP_LEVEL(); /* fallthrough */
	case 0: break;
	default: __builtin_unreachable();  /* IL_CPUS_MAX 8192: 13 levels */
	}
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
