#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seeded generator of adversarial replay logs (docs/replay.md format).

Each log gets its own random state table (2..6 states, rarely up to 10 or
unsorted, usually POLL first) with values placed on the edges the governors test: TICK_NSEC, 2*TICK_NSEC,
RESIDENCY_THRESHOLD_NS (15 us), CPUIDLE_POLL_MIN (10 us), equal neighbour
residencies, exit latencies around 7.5 us. Rows come in phases (repeating
intervals that the menu pattern detector locks on to, timer-dominated,
interrupt-dominated, tick wake-ups, random) with sleep lengths near the
menu bucket edges and near KTIME_MAX, latency limits of 0 and small values,
runs of stopped tick, rejected entries, nr_iowait including values that
wrap the 6.1 performance multiplier, and poll_time_limit flags.

Usage: gen_logs.py [--seed N] [--rows R] [--cpus C] [--count K] OUT
  With --count K, OUT is a prefix and OUT-0.log .. OUT-(K-1).log are written
  (log i uses seed N + i); otherwise OUT is the file.
"""

import argparse
import random

KTIME_MAX = (1 << 63) - 1
NO_QOS = 2000000000 * 1000   # global CPU-latency QoS default, in ns
BUCKET_EDGES = (10000, 100000, 1000000, 10000000, 100000000)


def around(r, v, spread=1):
    return min(KTIME_MAX, max(0, v + r.randint(-spread, spread)))


def gen_table(r, tick):
    # 2..6 states; rarely up to CPUIDLE_STATE_MAX (10) for vectorised paths
    n = r.randint(7, 10) if r.random() < 0.04 else r.randint(2, 6)
    specials = [9999, 10000, 10001, 14999, 15000, 15001, tick - 1, tick, tick + 1,
                2 * tick, 2 * tick + 1, tick // 2, tick // 16]
    realistic = [1000, 2000, 5000, 20000, 33000, 50000, 100000, 200000, 300000,
                 600000, 800000, 1500000, 3000000, 5000000, 20000000, 3 * tick,
                 6 * tick]
    res = []
    for _ in range(n - 1):
        k = r.random()
        if k < 0.45:
            v = r.choice(specials)
        elif k < 0.9:
            v = r.choice(realistic)
        else:
            v = r.randint(0, 3 * tick)
        res.append(v)
    if r.random() < 0.95:                  # drivers list states shallow to deep
        res.sort()
    if n > 2 and r.random() < 0.15:        # equal neighbour residencies
        j = r.randrange(len(res) - 1)
        res[j + 1] = res[j]
    if r.random() < 0.04:                  # absurd but legal: s64-overflowing values
        res[-1] = r.choice((KTIME_MAX, KTIME_MAX - 1, 1 << 62, (1 << 62) + 7))
    states = []
    poll0 = r.random() < 0.9
    if poll0:
        states.append(('POLL', 0, 0, 'polling'))
    else:
        lat0 = r.choice([0, 1, 500, 1000])
        states.append(('C0', lat0, r.choice([lat0, 1000, 2000]), ''))
    for i, tr in enumerate(res, start=1):
        k = r.random()
        if k < 0.3:
            el = tr
        elif k < 0.5:
            el = tr // 2
        elif k < 0.65:
            el = r.choice([7499, 7500, 7501, 1, 0])
        elif k < 0.75:
            el = tr + r.randint(1, 5000)     # exit latency above residency
        else:
            el = r.randint(0, max(tr, 1))
        if tr >= 1 << 62 and r.random() < 0.5:
            el = r.choice((tr, 1 << 62, (1 << 62) + 1, KTIME_MAX))
        el = min(el, KTIME_MAX)
        flags = []
        if tr >= 100000 and r.random() < 0.5:
            flags.append('timer_stop')
        if r.random() < 0.04:
            flags.append('off')
        if r.random() < 0.02:
            flags.append('unusable')
        if i <= 2 and r.random() < 0.04:   # a second (or only) polling state
            flags.append('polling')
        states.append(('C%d' % i, el, tr, '|'.join(flags)))
    k = r.random()
    if k < 0.05:                             # nothing enabled
        disabled = list(range(n))
    elif k < 0.13:                           # exactly one state enabled
        keep = r.randrange(n)
        disabled = [i for i in range(n) if i != keep]
    elif k < 0.25:                           # state 0 disabled
        disabled = [0]
    else:
        disabled = [i for i in range(n) if r.random() < 0.08]
    return states, disabled


def sleep_length(r, tick):
    k = r.random()
    if k < 0.25:
        return around(r, r.choice(BUCKET_EDGES), 1)
    if k < 0.35:
        return around(r, r.choice((tick, 2 * tick, tick // 2, 15000, 10000)), 1)
    if k < 0.40:
        return r.choice((KTIME_MAX, KTIME_MAX - 1, KTIME_MAX // 2, 1 << 62,
                         (1 << 62) + 12345))
    if k < 0.42:
        return r.choice((0, 1, -1, -1000, -tick, -KTIME_MAX - 1))
    return int(10 ** r.uniform(3, 8.5))


def gen_rows(r, states, nrows, ncpus, tick):
    lats = sorted({s[1] for s in states})
    rows = []
    cpu_state = [{'stopped': False, 'phase': 0, 'left': 0, 'period': 50000}
                 for _ in range(ncpus)]
    for _ in range(nrows):
        cpu = r.randrange(ncpus)
        cs = cpu_state[cpu]
        if cs['left'] <= 0:
            cs['phase'] = r.randrange(7)
            cs['left'] = r.randint(5, 80)
            cs['period'] = r.choice((2000, 8000, 14000, 15000, 16000, 40000, 90000,
                                     400000, tick - 1000, tick + 1000, 3 * tick))
        cs['left'] -= 1
        # tick stopped comes in runs
        if r.random() < 0.12:
            cs['stopped'] = not cs['stopped']
        stopped = cs['stopped']
        sl = sleep_length(r, tick)
        phase = cs['phase']
        if phase == 0:                       # repeating interval (+ small jitter)
            res = max(0, cs['period'] + r.randint(-300, 300))
            if r.random() < 0.3:
                sl = max(sl, res * 3)
        elif phase == 1:                     # timer-dominated: wakes at the timer
            res = max(0, min(sl, 1 << 62) + r.randint(-2000, 2000)) if sl > 0 else 0
        elif phase == 2:                     # interrupts well before the timer
            res = int(10 ** r.uniform(2.5, 6))
        elif phase == 3:                     # tick wake-ups
            res = tick + r.randint(-500, 500)
        elif phase == 4:                     # very short idles
            res = r.randint(0, 20000)
        elif phase == 5:                     # long intercepts (beyond the tick)
            res = r.randint(tick, 4 * tick)
            if r.random() < 0.8:
                sl = r.choice((100000000, 1000000000, KTIME_MAX, 20 * tick))
        else:
            res = r.choice((0, 1, int(10 ** r.uniform(0, 9)), KTIME_MAX // 4,
                            50000000, 45000000, 49999999, KTIME_MAX, 1 << 62))
        k = r.random()
        if k < 0.08:                         # sleep length on a bin edge
            sl = around(r, r.choice(states)[2], 1)
        elif k < 0.16:                       # residency on a bin edge, +/- el/2
            _, el, tr, _ = r.choice(states)
            res = max(0, min(KTIME_MAX, r.choice((tr - 1, tr, tr + 1, tr + el // 2,
                                                  tr + el // 2 + 1, 2 * el, 2 * el + 1,
                                                  el - 1))))
        if r.random() < 0.03:
            res = -1                         # rejected entry
        # delta_tick: the closer of the timer and the next tick
        if stopped:
            dt = sl
        else:
            dt = min(sl, r.randint(0, tick))
        if r.random() < 0.05:
            dt = r.choice((0, sl, tick, tick // 2, -1, min(sl + 1, KTIME_MAX),
                           KTIME_MAX, -KTIME_MAX - 1))
        k = r.random()
        if k < 0.7:
            lq = NO_QOS
        elif k < 0.78:
            lq = 0
        elif k < 0.9:
            lq = around(r, r.choice(lats), 1) if lats else 1
        else:
            lq = r.choice((1, 2, 500, 7499, 7500, 7501, 100000, KTIME_MAX))
        k = r.random()
        if k < 0.85:
            nio = 0
        elif k < 0.98:
            nio = r.randint(1, 3)
        else:
            nio = r.choice((214748364, 214748365, 429496729, 429496730, 4294967295))
        util = 1 if r.random() < 0.3 else 0
        if phase == 3 and not stopped:
            got = 1 if r.random() < 0.8 else 0
        else:
            got = 1 if r.random() < 0.07 else 0
        ptl = 1 if r.random() < (0.4 if res >= 62500 else 0.08) else 0
        rows.append((cpu, sl, dt, int(stopped), lq, nio, util, res, got, ptl))
    return rows


def write_log(path, seed, nrows, ncpus):
    r = random.Random(seed)
    hz = r.choice((100, 250, 300, 1000, 1000))
    tick = (1000000000 + hz // 2) // hz
    states, disabled = gen_table(r, tick)
    rows = gen_rows(r, states, nrows, ncpus, tick)
    out = ['# idlelab-replay v1', '# generator=tools/ref/gen_logs.py seed=%d' % seed,
           '# hz=%d' % hz]
    for i, (name, el, tr, flags) in enumerate(states):
        out.append('# state,%d,%s,%d,%d,%s' % (i, name, el, tr, flags))
    for i in disabled:
        out.append('# disable,%d' % i)
    out.append('cpu,sleep_length_ns,delta_tick_ns,tick_stopped,latency_req_ns,'
               'nr_iowait,cpu_utilized,residency_ns,got_tick,poll_time_limit')
    out.extend(','.join(str(x) for x in row) for row in rows)
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rows', type=int, default=1000)
    ap.add_argument('--cpus', type=int, default=2)
    ap.add_argument('--count', type=int, default=0)
    ap.add_argument('out')
    a = ap.parse_args()
    if a.count:
        for i in range(a.count):
            write_log('%s-%d.log' % (a.out, i), a.seed + i, a.rows, a.cpus)
    else:
        write_log(a.out, a.seed, a.rows, a.cpus)


if __name__ == '__main__':
    main()
