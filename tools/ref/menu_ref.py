#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reference menu governor for the cross-check (stdlib only).

Written from the kernel texts of drivers/cpuidle/governors/menu.c, read
through the search index, independently of src/governors/menu.c:

  6.1   text of 14e6c7067185 (v5.17; unchanged until 5484e31bbbff), read
        as a full copy and as the pre-image of the 5484e31bbbff posting:
        sleep length always queried, 12 buckets, iowait multiplier,
        get_typical_interval(data, predicted_us) with the min >= predicted
        short cut and upward-only trimming.
  6.12  torvalds/linux 5484e31bbbff285f9505c4766373f840ffb746e5 read in
        full (bf183113842b on top touches comments only): pattern first,
        timers only above RESIDENCY_THRESHOLD_NS, "!max -> UINT_MAX".
  6.18  torvalds/linux 17224c1d2574d29668c4879e1fbf36d6f68cd22b read in
        full, plus db86f55bf81a (escape needs exit latency <= predicted) and
        10fad4012234 (revert of 85975daeaa4d: UINT_MAX when <= 6 samples),
        taken from their posted diffs / the gregkh stable text.
  6.19  6.18 + 07d815701274 (escape needs residency < RESIDENCY_THRESHOLD_NS;
        "Applied as 6.19 material", in the v6.19-rc1 pull).
  7.1   6.19 + 80606f4eb8d7 (timer branch also with the tick stopped, the
        stopped-tick override moved into it; stable mail diff; v7.0) and
        e57c2bf2e89d (override only when next timer > SAFE_TIMER_RANGE_NS;
        v2 posting).

The other presets of src/governors/menu.c (5.4, 5.5, 5.13, 6.6, 6.13, 6.15,
6.17, 7.0) are not modelled here; they are checked against the kernel's own
release texts (docs/gov-menu.md).

Patches (idlelab names, issue 3): +no-poll-escape removes the escape from a
polling state to a physical one; +poll-escape-15us keeps it only for states
whose target residency is below 15 us (already the 6.19/7.1 behaviour);
+poll-escape=DUR the same with DUR as the threshold.

Usage: menu_ref.py SPEC LOG [OUT]   (SPEC e.g. menu@6.12+no-poll-escape)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replaylog import (M64, U32_MAX, KTIME_MAX, RESIDENCY_THRESHOLD_NS,  # noqa: E402
                       FLAG_POLLING, u32, u64, s64, sdiv, main, split_spec,
                       parse_duration_ns)

RELEASES = ('6.1', '6.12', '6.18', '7.1')
# 6.19 decides as 6.18 plus 07d815701274's residency threshold
ALIASES = {'6.19': '6.18'}
INTERVALS = 8
RESOLUTION = 1024
DECAY = 8
MAX_INTERESTING = 50000 * 1000
INT_MAX = (1 << 31) - 1


class MenuConfig:
    def __init__(self, release='7.1', patches=()):
        if release not in RELEASES and release not in ALIASES:
            raise ValueError('menu has no preset %s' % release)
        self.release = release
        self.rel = RELEASES.index(ALIASES.get(release, release))   # 0..3
        self.buckets = 12 if self.rel <= 1 else 6
        # escape: None = removed; else threshold (None inside = no threshold)
        self.escape = True
        self.escape_thresh = (RESIDENCY_THRESHOLD_NS if release in ('6.19', '7.1')
                              else None)
        named = set()
        for name, value in patches:
            if name in named:
                raise ValueError('patch %s twice' % name)
            named.add(name)
            if name == 'no-poll-escape' and value is None:
                self.escape = False
            elif name == 'poll-escape-15us' and value is None:
                self.escape_thresh = RESIDENCY_THRESHOLD_NS
            elif name == 'poll-escape' and value is not None:
                self.escape_thresh = parse_duration_ns(value)
            else:
                raise ValueError('unknown menu patch %s' % name)
        if 'no-poll-escape' in named and len(named) > 1:
            raise ValueError('no-poll-escape excludes the other escape patches')


class Menu:
    def __init__(self, cfg, log, tick_ns):
        self.cfg = cfg
        self.states = log.states
        self.tick = tick_ns
        self.safe_range = 2 * tick_ns

    def enable(self, dev):
        self.needs_update = False
        self.tick_wakeup = False
        self.next_timer_ns = 0
        self.bucket = 0
        self.cf = [RESOLUTION * DECAY] * self.cfg.buckets
        self.intervals = [0] * INTERVALS
        self.ptr = 0

    # -- helpers -----------------------------------------------------------
    def which_bucket(self, duration_ns, nr_iowait):
        b = self.cfg.buckets // 2 if (self.cfg.rel <= 1 and nr_iowait) else 0
        for lim in (10000, 100000, 1000000, 10000000, 100000000):
            if duration_ns < lim:
                return b
            b += 1
        return b

    def push_interval(self, value_us):
        self.intervals[self.ptr] = u32(value_us)
        self.ptr += 1
        if self.ptr >= INTERVALS:
            self.ptr = 0

    def typical_old(self, predicted_us):
        """6.1 (predicted_us given) and 6.12 (predicted_us None) forms."""
        thresh = INT_MAX
        iv = self.intervals
        while True:
            mn = U32_MAX
            mx = 0
            total = 0
            divisor = 0
            for v in iv:
                if v <= thresh:
                    total += v
                    divisor += 1
                    if v > mx:
                        mx = v
                    if v < mn:
                        mn = v
            if predicted_us is not None:
                if mn >= predicted_us:
                    return U32_MAX
            elif not mx:
                return U32_MAX
            if divisor == INTERVALS:
                avg = (total >> 3) & 0xFFFFFFFF
            else:
                avg = (total // divisor) & 0xFFFFFFFF
            var = 0
            for v in iv:
                if v <= thresh:
                    d = v - avg
                    var = (var + d * d) & M64
            if divisor == INTERVALS:
                var >>= 3
            else:
                var //= divisor
            if var <= M64 // 36:
                if ((avg * avg > var * 36 and divisor * 4 >= INTERVALS * 3)
                        or var <= 400):
                    return avg
            if divisor * 4 <= INTERVALS * 3:
                return U32_MAX
            thresh = u32(mx - 1)

    def typical_new(self):
        """6.18/7.1: two-sided trimming, UINT_MAX when <= 6 samples remain."""
        min_t = -1
        max_t = U32_MAX
        iv = self.intervals
        while True:
            mx = 0
            mn = U32_MAX
            avg = 0
            var = 0
            divisor = 0
            for v in iv:
                if v <= min_t or v >= max_t:
                    continue
                divisor += 1
                avg += v
                var = (var + v * v) & M64
                if v > mx:
                    mx = v
                if v < mn:
                    mn = v
            if not mx:
                return U32_MAX
            if divisor == INTERVALS:
                avg >>= 3
                var >>= 3
            else:
                avg //= divisor
                var //= divisor
            avg_sq = (avg * avg) & M64
            var = (var - avg_sq) & M64
            if var <= M64 // 36:
                if ((avg_sq > (var * 36) & M64 and divisor * 4 >= INTERVALS * 3)
                        or var <= 400):
                    return u32(avg)
            if divisor * 4 <= INTERVALS * 3:
                return U32_MAX
            # avg, min, max are u64 / unsigned int: the differences are u64
            if u64(avg - mn) > u64(mx - avg):
                min_t = mn
            else:
                max_t = mx

    # -- select ------------------------------------------------------------
    def select(self, dev, inp):
        if self.needs_update:
            self.update(dev)
            self.needs_update = False
        elif self.cfg.rel >= 2 and dev.last_residency_ns == 0:
            self.push_interval(U32_MAX)
        if self.cfg.rel == 0:
            return self.select_61(dev, inp)
        return self.select_new(dev, inp)

    def escape_ok(self, s, predicted_ns, latency_req):
        cfg = self.cfg
        if not cfg.escape:
            return False
        tr = s.target_residency_ns
        if cfg.escape_thresh is not None and not tr < cfg.escape_thresh:
            return False
        if not u64(tr) <= self.next_timer_ns:
            return False
        if cfg.rel <= 1:
            return s.exit_latency_ns <= latency_req
        return u64(s.exit_latency_ns) <= predicted_ns

    def trivial(self, dev, latency_req):
        st = self.states
        if (len(st) <= 1 or latency_req == 0 or
                ((self.next_timer_ns < u64(st[1].target_residency_ns) or
                  latency_req < st[1].exit_latency_ns) and not dev.disable[0])):
            return True
        return False

    def select_61(self, dev, inp):
        st = self.states
        latency_req = inp.latency_req_ns
        delta = inp.sleep_length_ns
        delta_tick = inp.delta_tick_ns
        if delta < 0:
            delta = 0
            delta_tick = 0
        self.next_timer_ns = delta
        nr = inp.nr_iowait
        self.bucket = self.which_bucket(self.next_timer_ns, nr)
        if self.trivial(dev, latency_req):
            return 0, not (st[0].flags & FLAG_POLLING)
        predicted_us = u32(u64(self.next_timer_ns * self.cf[self.bucket] + 4096000)
                           // 8192000)
        typ = self.typical_old(predicted_us)
        predicted_ns = min(predicted_us, typ) * 1000
        if inp.tick_stopped:
            if predicted_ns < self.tick:
                predicted_ns = self.next_timer_ns
        else:
            latency_req = self.interactivity(latency_req, predicted_ns, nr)
        return self.walk_old(dev, inp, latency_req, predicted_ns, delta_tick)

    def interactivity(self, latency_req, predicted_ns, nr):
        mult = u32(1 + 10 * nr)
        if mult >> 31:            # int return value, sign-extended to u64
            mult = u64(mult - (1 << 32))
        req = predicted_ns // mult
        if u64(latency_req) > req:
            latency_req = req
        return latency_req

    def select_new(self, dev, inp):
        cfg = self.cfg
        st = self.states
        latency_req = inp.latency_req_ns
        nr = inp.nr_iowait
        predicted_ns = self.typical_old(None) if cfg.rel == 1 else self.typical_new()
        predicted_ns *= 1000
        if predicted_ns > RESIDENCY_THRESHOLD_NS or (cfg.rel == 3 and inp.tick_stopped):
            delta = inp.sleep_length_ns
            delta_tick = inp.delta_tick_ns
            if delta < 0:
                delta = 0
                delta_tick = 0
            self.next_timer_ns = delta
            self.bucket = self.which_bucket(self.next_timer_ns, nr)
            timer_us = u32(u64(4096000 + self.next_timer_ns * self.cf[self.bucket])
                           // 8192000)
            predicted_ns = min(timer_us * 1000, predicted_ns)
            if (cfg.rel == 3 and inp.tick_stopped and predicted_ns < self.tick and
                    self.next_timer_ns > self.safe_range):
                predicted_ns = self.next_timer_ns
        else:
            self.next_timer_ns = KTIME_MAX
            delta_tick = self.tick // 2
            self.bucket = self.which_bucket(KTIME_MAX, nr)
        if self.trivial(dev, latency_req):
            return 0, not (st[0].flags & FLAG_POLLING)
        if cfg.rel == 1:
            if inp.tick_stopped:
                if predicted_ns < self.tick:
                    predicted_ns = self.next_timer_ns
            else:
                latency_req = self.interactivity(latency_req, predicted_ns, nr)
            return self.walk_old(dev, inp, latency_req, predicted_ns, delta_tick)
        if cfg.rel == 2 and inp.tick_stopped and predicted_ns < self.tick:
            predicted_ns = self.next_timer_ns
        return self.walk_new(dev, inp, latency_req, predicted_ns, delta_tick)

    def walk_old(self, dev, inp, latency_req, predicted_ns, delta_tick):
        """6.1/6.12 loop: residency test first, latency break after it."""
        st = self.states
        idx = -1
        for i, s in enumerate(st):
            if dev.disable[i]:
                continue
            if idx == -1:
                idx = i
            if u64(s.target_residency_ns) > predicted_ns:
                if (st[idx].flags & FLAG_POLLING) and self.escape_ok(s, predicted_ns,
                                                                     latency_req):
                    predicted_ns = s.target_residency_ns
                    idx = i
                    break
                if predicted_ns < self.tick:
                    break
                if not inp.tick_stopped:
                    predicted_ns = u64(st[idx].target_residency_ns)
                    break
                if (st[idx].target_residency_ns < self.tick and
                        s.target_residency_ns <= delta_tick):
                    idx = i
                return idx, True
            if s.exit_latency_ns > latency_req:
                break
            idx = i
        return self.finish(dev, inp, idx, predicted_ns, delta_tick)

    def walk_new(self, dev, inp, latency_req, predicted_ns, delta_tick):
        """6.18/7.1 loop: latency break first."""
        st = self.states
        idx = -1
        for i, s in enumerate(st):
            if dev.disable[i]:
                continue
            if idx == -1:
                idx = i
            if s.exit_latency_ns > latency_req:
                break
            if u64(s.target_residency_ns) <= predicted_ns:
                idx = i
                continue
            if (st[idx].flags & FLAG_POLLING) and self.escape_ok(s, predicted_ns,
                                                                 latency_req):
                predicted_ns = u64(s.target_residency_ns)
                idx = i
                break
            if predicted_ns < self.tick:
                break
            if not inp.tick_stopped:
                predicted_ns = u64(st[idx].target_residency_ns)
                break
            if (st[idx].target_residency_ns < self.tick and
                    s.target_residency_ns <= delta_tick):
                idx = i
            return idx, True
        return self.finish(dev, inp, idx, predicted_ns, delta_tick)

    def finish(self, dev, inp, idx, predicted_ns, delta_tick):
        st = self.states
        stop = True
        if idx == -1:
            idx = 0
        if ((st[idx].flags & FLAG_POLLING) or predicted_ns < self.tick) and \
                not inp.tick_stopped:
            stop = False
            if idx > 0 and st[idx].target_residency_ns > delta_tick:
                for i in range(idx - 1, -1, -1):
                    if dev.disable[i]:
                        continue
                    idx = i
                    if st[i].target_residency_ns <= delta_tick:
                        break
        return idx, stop

    # -- reflect / update ---------------------------------------------------
    def reflect(self, dev, idx, inp):
        dev.last_state_idx = idx
        self.needs_update = True
        self.tick_wakeup = inp.got_tick

    def update(self, dev):
        last = dev.last_state_idx
        target = self.states[last]
        ntn = self.next_timer_ns
        if self.tick_wakeup and ntn > self.tick:
            measured = 9 * MAX_INTERESTING // 10
        elif (target.flags & FLAG_POLLING) and dev.poll_time_limit:
            measured = ntn
        else:
            measured = u64(dev.last_residency_ns)
            el = target.exit_latency_ns
            if measured > u64(2 * el):
                measured = u64(measured - el)
            else:
                measured //= 2
        if measured > ntn:
            measured = ntn
        f = self.cf[self.bucket]
        f = u32(f - f // DECAY)
        if ntn > 0 and measured < MAX_INTERESTING:
            f = u32(f + u64(RESOLUTION * measured) // ntn)
        else:
            f = u32(f + RESOLUTION)
        self.cf[self.bucket] = f
        # ktime_to_us(): s64 division of the (u64 -> s64) value, stored as u32
        self.push_interval(u32(sdiv(s64(measured), 1000)))


def factory(spec):
    rel, patches = split_spec(spec, 'menu')
    cfg = MenuConfig(rel or RELEASES[-1], patches)
    return lambda log, tick_ns: Menu(cfg, log, tick_ns)


if __name__ == '__main__':
    sys.exit(main('menu', factory, sys.argv))
