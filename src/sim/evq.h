/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine's event queues (internal to src/sim/), three of them:
 * - a binary min-heap of events (timers, IPIs, device interrupts, the global
 *   tick, the end of the run), ordered by (time, sequence number);
 * - a tournament tree of CPUs by their one internal event (end of a burst,
 *   end of the idle entry, poll limit, end of an exit), updated along one
 *   leaf-to-root path; on few CPUs only its leaves are kept and scanned;
 * - per CPU, a small min-heap of its hrtimer expiry times, which is what the
 *   governor's sleep length is computed from.
 * Keys (t, seq) are unique (one global sequence counter, kept by the engine),
 * so any correct structure gives the same order and runs are deterministic.
 *
 * The operations the idle loop runs are static inline here, so they inline
 * into the engine's main loop as they did when they lived in engine.c; setup,
 * growth and the tree's leaf-to-root walk are in evq.c.
 */
#ifndef IDLELAB_SIM_EVQ_H
#define IDLELAB_SIM_EVQ_H

#include <stdbool.h>
#include <stdint.h>

#include "idlelab/platform.h"

/* ------------------------------------------------------- event heap */

/*
 * 32 bytes: a sift moves it in two 16-byte halves (with type and cpu as
 * ints it was 40, three moves).
 */
struct sim_ev {
	int64_t t;           /* ns */
	uint64_t seq;        /* insertion order: ties */
	uint64_t arg2;
	int arg;
	int16_t cpu;         /* -1: none (IL_CPUS_MAX is 8192) */
	uint16_t type;
};

/*
 * Few events pending (a machine of a few CPUs keeps about eight: the tick,
 * the end, each CPU's noise and host-stall draws, a timer, an IPI) are kept
 * as an array sorted latest first, so the earliest is the last: a pop takes
 * it without sifting, and a push moves only the events due before the new
 * one, which are few (most new events are near: an IPI, a timer's
 * delivery). Beyond EVQ_SORTED_MAX the array turns into a binary min-heap
 * for good (reversed, a sorted array is one). Keys are unique, so either
 * form gives the events out in the same order.
 */
#define EVQ_SORTED_MAX 16

struct sim_evheap {
	struct sim_ev *ev;   /* ev[-1] is a sentinel at INT64_MAX: top of an empty array */
	struct sim_ev *top;  /* the earliest event: &ev[n - 1] while sorted, &ev[0] as a heap */
	int n, cap;
	bool heap;
};

/* Room for cap events; -ENOMEM or 0. */
int sim_evheap_init(struct sim_evheap *h, int cap);
void sim_evheap_free(struct sim_evheap *h);
/* Double the room (a workload keeps more events pending than it was sized for); aborts on OOM. */
void sim_evheap_grow(struct sim_evheap *h);
/* The sorted array outgrew EVQ_SORTED_MAX: it becomes a heap. */
void sim_evheap_to_heap(struct sim_evheap *h);

static inline bool ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/*
 * Add x, whose seq is larger than every pending event's (the engine numbers
 * events as it makes them): ev_before() against a pending event is then a
 * comparison of times alone (a tie puts x after).
 */
static inline void sim_evheap_push(struct sim_evheap *h, struct sim_ev x)
{
	if (h->n == h->cap)
		sim_evheap_grow(h);
	int i = h->n++;
	if (__builtin_expect(h->heap, 0)) {
		while (i > 0) {
			int p = (i - 1) / 2;
			if (!(x.t < h->ev[p].t)) /* !ev_before(&x, &h->ev[p]) */
				break;
			h->ev[i] = h->ev[p];
			i = p;
		}
		h->ev[i] = x;
		return;
	}
	/* the events due before x move up one place: ev_before(&h->ev[i - 1], &x) */
	while (i > 0 && h->ev[i - 1].t <= x.t) {
		h->ev[i] = h->ev[i - 1];
		i--;
	}
	h->ev[i] = x;
	h->top = &h->ev[h->n - 1];
	if (__builtin_expect(h->n > EVQ_SORTED_MAX, 0))
		sim_evheap_to_heap(h);
}

/* Remove and return the earliest event (the queue is not empty). */
static inline struct sim_ev sim_evheap_pop(struct sim_evheap *h)
{
	if (!__builtin_expect(h->heap, 0)) {
		struct sim_ev top = h->ev[--h->n];
		h->top = &h->ev[h->n - 1];
		return top;
	}
	struct sim_ev top = h->ev[0];
	struct sim_ev x = h->ev[--h->n];
	int n = h->n, i = 0;

	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && ev_before(&h->ev[l + 1], &h->ev[l])) ? l + 1 : l;
		if (!ev_before(&h->ev[m], &x))
			break;
		h->ev[i] = h->ev[m];
		i = m;
	}
	if (n)
		h->ev[i] = x;
	return top;
}

/* ------------------------------------------- tournament tree of CPUs */

/* Up to this many CPUs the main loop scans the tree's leaves instead. */
#define TT_SCAN_MAX 8

/*
 * Node i of the tree holds the winner below it: its time t[i] (INT64_MAX
 * when none) and its key key[i], the winner's tie key (the sequence number
 * of its event) shifted left by TT_CPU_BITS with its CPU in the low bits.
 * Leaf leaves + c is CPU c's own event, every inner node the earlier of its
 * children's winners by (time, key), so node 1 is the earliest. Sequence
 * numbers are unique, so ordering by key is ordering by sequence, and the
 * CPU rides along for free: a level of an update reads and writes two
 * values, not three (the CPU had an array of its own before, 2026-12-07).
 * The two are separate arrays: scaled-index loads, without the address
 * arithmetic of 16-byte nodes.
 */
#define TT_CPU_BITS 13 /* IL_CPUS_MAX is 8192 */
#define TT_SEQ_MAX ((UINT64_C(1) << (64 - TT_CPU_BITS)) - 1)
_Static_assert((1 << TT_CPU_BITS) >= IL_CPUS_MAX,
	       "a key's CPU bits and the walk's 13 levels cover IL_CPUS_MAX");

struct sim_ttree {
	int64_t *t;
	uint64_t *key;
	const int64_t *leaf_t;      /* &t[leaves] and &key[leaves], kept for the */
	const uint64_t *leaf_key;   /* scan: two loads, not five instructions */
	int leaves;          /* a power of two >= the number of CPUs */
	int depth;           /* log2(leaves): at most 13 (IL_CPUS_MAX 8192) */
	bool scan;           /* at most TT_SCAN_MAX CPUs: leaves only, scanned */
	bool two;            /* two CPUs: the scan is one comparison (sim_ttree_scan_min2()) */
};

/* A tree key: seq (< TT_SEQ_MAX: 2^51 events a run) and the CPU. */
static inline uint64_t sim_ttree_key(uint64_t seq, int cpu)
{
	return seq << TT_CPU_BITS | (uint64_t)cpu;
}

static inline int sim_ttree_key_cpu(uint64_t key)
{
	return (int)(key & ((UINT64_C(1) << TT_CPU_BITS) - 1));
}

static inline uint64_t sim_ttree_key_seq(uint64_t key)
{
	return key >> TT_CPU_BITS;
}

/* A tree for ncpus CPUs, all without an event; -ENOMEM or 0. */
int sim_ttree_init(struct sim_ttree *tt, int ncpus);
void sim_ttree_free(struct sim_ttree *tt);

/*
 * Set a CPU's key. An update walks one leaf-to-root path (8 levels on 256
 * CPUs), carrying the winner so far, and stops where another CPU keeps
 * winning.
 */
void sim_ttree_walk(struct sim_ttree *tt, int cpu, int64_t t, uint64_t key);

static inline void sim_ttree_update(struct sim_ttree *tt, int cpu, int64_t t, uint64_t seq)
{
	int i = tt->leaves + cpu;
	uint64_t key = sim_ttree_key(seq, cpu);

	tt->t[i] = t;
	tt->key[i] = key;
	if (!tt->scan)
		sim_ttree_walk(tt, cpu, t, key);
}

/*
 * Set the key of the CPU that wins at the root (the main loop's CPU, whose
 * leaf stayed unchanged while its event was handled), so it is the winner
 * of every node on its path: every level is recomputed, without the early
 * stop, by conditional moves.
 */
void sim_ttree_walk_top(struct sim_ttree *tt, int cpu, int64_t t, uint64_t key);

static inline void sim_ttree_update_top(struct sim_ttree *tt, int cpu, int64_t t, uint64_t seq)
{
	int i = tt->leaves + cpu;
	uint64_t key = sim_ttree_key(seq, cpu);

	tt->t[i] = t;
	tt->key[i] = key;
	if (!tt->scan)
		sim_ttree_walk_top(tt, cpu, t, key);
}

/*
 * With few CPUs a scan of the leaves is cheaper than keeping the inner
 * nodes: the earliest (time, key) leaf of the first ncpus, its CPU
 * returned (kept beside the key: the loop's shape that measured fastest),
 * its time (INT64_MAX if none has an event) in *t and its key in *key.
 */
static inline int sim_ttree_scan_min(const struct sim_ttree *tt, int ncpus, int64_t *t,
				     uint64_t *key)
{
	const int64_t *lt = tt->leaf_t;
	const uint64_t *ls = tt->leaf_key;
	int k = 0;
	int64_t kt = lt[0];
	uint64_t ks = ls[0];

	for (int i = 1; i < ncpus; i++)
		if (lt[i] < kt || (lt[i] == kt && ls[i] < ks)) {
			k = i;
			kt = lt[i];
			ks = ls[i];
		}
	*t = kt;
	*key = ks;
	return k;
}

/*
 * The scan of exactly two leaves (a 2-CPU machine, such as kvm-haltpoll):
 * the same comparison as the loop's one turn, without the loop's setup,
 * counter and exit test (16 instructions per event were 8 of them).
 */
static inline int sim_ttree_scan_min2(const struct sim_ttree *tt, int64_t *t, uint64_t *key)
{
	const int64_t *lt = tt->leaf_t;
	const uint64_t *ls = tt->leaf_key;
	int64_t t0 = lt[0], t1 = lt[1];
	uint64_t k0 = ls[0], k1 = ls[1];

	if (t1 < t0 || (t1 == t0 && k1 < k0)) {
		*t = t1;
		*key = k1;
		return 1;
	}
	*t = t0;
	*key = k0;
	return 0;
}

/* ------------------------------------------------ per-CPU hrtimers */

/* A small min-heap of expiry times. */
struct sim_timerq {
	int64_t *t;
	int n, cap;
};

void sim_timerq_free(struct sim_timerq *q);
/* More room (4, then doubling); aborts on OOM. */
void sim_timerq_grow(struct sim_timerq *q);

static inline void sim_timerq_push(struct sim_timerq *q, int64_t t)
{
	if (q->n == q->cap)
		sim_timerq_grow(q);
	int i = q->n++;
	while (i > 0 && q->t[(i - 1) / 2] > t) {
		q->t[i] = q->t[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->t[i] = t;
}

/* Remove the earliest expiry (the queue is not empty). */
static inline void sim_timerq_pop(struct sim_timerq *q)
{
	int64_t x = q->t[--q->n];
	int n = q->n, i = 0;

	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= n)
			break;
		m = (l + 1 < n && q->t[l + 1] < q->t[l]) ? l + 1 : l;
		if (q->t[m] >= x)
			break;
		q->t[i] = q->t[m];
		i = m;
	}
	if (n)
		q->t[i] = x;
}

/* The earliest expiry, INT64_MAX if none. */
static inline int64_t sim_timerq_next(const struct sim_timerq *q)
{
	return q->n ? q->t[0] : INT64_MAX;
}

#endif
