#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reference TEO governor for the cross-check (stdlib only).

Written from the kernel texts of drivers/cpuidle/governors/teo.c, read
through the search index, independently of src/governors/teo.c:

  6.1   torvalds/linux c2ec772b87408259cb01209a22fb4e1ae7d346de read in
        full (4adae7dd10db, the local renames, is its parent): NR_RECENT
        ring, time_span_ns from local_clock(), sleep length always queried.
  6.12  torvalds/linux 449914398083148f93d070a8aace04f9ec296ce3 read in
        full, plus 4b20b07ce72f ("Don't count non-existent intercepts",
        the v4 posting: query the sleep length when the intercepts logic
        alone moved the choice to state 0).
  6.18  torvalds/linux a7bee4e7f78089c101be2ad51f4b5ec64782053e read in
        full (artificial_wakeup, short_idles, TICK_NSEC <= measured).
  7.1   torvalds/linux f36de72673ad80c9931c0b411df0d6ef184f6c22 read in
        full, plus a971f984b845 (intercept_max_idx; v3 posting, "no
        changes" from v2) and 106a2662e655 (stopped-tick handling with
        SAFE_TIMER_RANGE_NS; v2 posting).

The replay clock (local_clock() of 6.1/6.12) is the per-CPU sum of the
residencies entered so far; it advances by exactly residency_ns between
select and reflect.

Usage: teo_ref.py SPEC LOG [OUT]   (SPEC e.g. teo@6.12)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replaylog import (U64_MAX, S64_MAX, KTIME_MAX, RESIDENCY_THRESHOLD_NS,  # noqa: E402
                       FLAG_POLLING, u32, u64, s64, sdiv, main, split_spec)

RELEASES = ('6.1', '6.12', '6.18', '7.1')
PULSE = 1024
NR_RECENT = 9
LATENCY_THRESHOLD_NS = RESIDENCY_THRESHOLD_NS // 2


def decay(m):
    """m -= m >> DECAY_SHIFT (u32)."""
    return m - (m >> 3)


def decay_floor(m):
    """teo_decay() of 6.19+: values below 8 collapse to 0."""
    d = m >> 3
    return m - d if d else 0


class Teo:
    def __init__(self, rel, log, tick_ns):
        self.rel = rel
        self.states = log.states
        self.tick = tick_ns
        self.safe_range = 2 * tick_ns

    def enable(self, dev):
        n = len(self.states)
        self.hits = [0] * max(n, 1)
        self.intercepts = [0] * max(n, 1)
        self.recent = [0] * max(n, 1)
        self.total = 0
        self.sleep_length_ns = 0
        self.time_span_ns = 0
        self.next_recent_idx = 0
        self.recent_idx = [-1] * NR_RECENT
        self.tick_hits = 0
        self.tick_intercepts = 0
        self.short_idles = 0
        self.total_tick = 0
        self.artificial_wakeup = False
        self.tick_wakeup = False

    def shallower(self, dev, idx, duration):
        st = self.states
        for i in range(idx - 1, -1, -1):
            if dev.disable[i]:
                continue
            idx = i
            if st[i].target_residency_ns <= duration:
                break
        return idx

    def state_ok(self, i, inp):
        return not inp.tick_stopped or self.states[i].target_residency_ns >= self.tick

    # ---------------------------------------------------------------- update
    def update(self, dev):
        getattr(self, 'update_' + self.rel.replace('.', '_'))(dev)

    def update_6_1(self, dev):
        st = self.states
        if self.time_span_ns >= self.sleep_length_ns:
            measured = U64_MAX
        else:
            lat = u64(st[dev.last_state_idx].exit_latency_ns)
            measured = u64(dev.last_residency_ns)
            if measured >= lat:
                measured = u64(measured - lat // 2)
            else:
                measured //= 2
        total = 0
        idx_timer = idx_duration = 0
        for i, s in enumerate(st):
            self.hits[i] = decay(self.hits[i])
            self.intercepts[i] = decay(self.intercepts[i])
            total = u32(total + u32(self.hits[i] + self.intercepts[i]))
            tr = s.target_residency_ns
            if tr <= self.sleep_length_ns:
                idx_timer = i
                if u64(tr) <= measured:
                    idx_duration = i
        i = self.next_recent_idx
        self.next_recent_idx += 1
        if self.next_recent_idx >= NR_RECENT:
            self.next_recent_idx = 0
        if self.recent_idx[i] >= 0:
            b = self.recent_idx[i]
            self.recent[b] = u32(self.recent[b] - 1)
        if idx_timer == idx_duration:
            self.hits[idx_timer] = u32(self.hits[idx_timer] + PULSE)
            self.recent_idx[i] = -1
        else:
            self.intercepts[idx_duration] = u32(self.intercepts[idx_duration] + PULSE)
            self.recent[idx_duration] = u32(self.recent[idx_duration] + 1)
            self.recent_idx[i] = idx_duration
        self.total = u32(total + PULSE)

    def update_6_12(self, dev):
        st = self.states
        tick = self.tick
        if self.time_span_ns >= self.sleep_length_ns:
            measured = U64_MAX
        else:
            lat = u64(st[dev.last_state_idx].exit_latency_ns)
            measured = u64(dev.last_residency_ns)
            if measured >= lat:
                measured = u64(measured - lat // 2)
            else:
                measured //= 2
        total = 0
        idx_timer = idx_duration = 0
        tr = 0
        for i, s in enumerate(st):
            self.hits[i] = decay(self.hits[i])
            self.intercepts[i] = decay(self.intercepts[i])
            total = u32(total + u32(self.hits[i] + self.intercepts[i]))
            tr = s.target_residency_ns
            if tr <= self.sleep_length_ns:
                idx_timer = i
                if u64(tr) <= measured:
                    idx_duration = i
        self.total = total
        if tr < tick:
            self.tick_hits = decay(self.tick_hits)
            self.total = u32(self.total + self.tick_hits)
            if tick <= self.sleep_length_ns:
                idx_timer = len(st)
                if tick <= measured:
                    self.tick_hits = u32(self.tick_hits + PULSE)
                    self.total = u32(self.total + PULSE)
                    return
        if idx_timer == idx_duration:
            self.hits[idx_timer] = u32(self.hits[idx_timer] + PULSE)
        else:
            self.intercepts[idx_duration] = u32(self.intercepts[idx_duration] + PULSE)
        self.total = u32(self.total + PULSE)

    def update_6_18(self, dev):
        st = self.states
        self.short_idles = decay(self.short_idles)
        if self.artificial_wakeup:
            measured = U64_MAX
        else:
            lat = u64(st[dev.last_state_idx].exit_latency_ns)
            measured = u64(dev.last_residency_ns)
            if measured >= lat:
                measured = u64(measured - lat // 2)
                if measured < RESIDENCY_THRESHOLD_NS:
                    self.short_idles = u32(self.short_idles + PULSE)
            else:
                measured //= 2
                self.short_idles = u32(self.short_idles + PULSE)
        idx_timer = idx_duration = 0
        for i, s in enumerate(st):
            self.hits[i] = decay(self.hits[i])
            self.intercepts[i] = decay(self.intercepts[i])
            tr = s.target_residency_ns
            if tr <= self.sleep_length_ns:
                idx_timer = i
                if u64(tr) <= measured:
                    idx_duration = i
        self.tick_intercepts = decay(self.tick_intercepts)
        if idx_timer == idx_duration:
            self.hits[idx_timer] = u32(self.hits[idx_timer] + PULSE)
        else:
            self.intercepts[idx_duration] = u32(self.intercepts[idx_duration] + PULSE)
            if self.tick <= measured:
                self.tick_intercepts = u32(self.tick_intercepts + PULSE)
        self.total = decay(self.total)
        self.total = u32(self.total + PULSE)

    def update_7_1(self, dev):
        st = self.states
        lat = st[dev.last_state_idx].exit_latency_ns
        self.short_idles = decay_floor(self.short_idles)
        if dev.poll_time_limit:
            dev.poll_time_limit = False
            measured = S64_MAX
        else:
            measured = dev.last_residency_ns
            if measured >= lat:
                measured = s64(measured - sdiv(lat, 2))
                if measured < RESIDENCY_THRESHOLD_NS:
                    self.short_idles = u32(self.short_idles + PULSE)
            else:
                measured = sdiv(measured, 2)
                self.short_idles = u32(self.short_idles + PULSE)
        total = 0
        idx_timer = idx_duration = 0
        for i, s in enumerate(st):
            self.hits[i] = decay_floor(self.hits[i])
            total = u32(total + self.hits[i])
            self.intercepts[i] = decay_floor(self.intercepts[i])
            total = u32(total + self.intercepts[i])
            tr = s.target_residency_ns
            if tr <= self.sleep_length_ns:
                idx_timer = i
                if tr <= measured:
                    idx_duration = i
        self.total = u32(total + PULSE)
        self.tick_intercepts = decay_floor(self.tick_intercepts)
        self.total_tick = decay_floor(self.total_tick)
        if self.tick_wakeup:
            self.total_tick = u32(self.total_tick + PULSE)
            if u32(3 * self.total_tick) > u32(2 * self.total):
                n = len(st) - 1
                self.hits[n] = u32(self.hits[n] + PULSE)
                return
            if u32(3 * self.tick_intercepts) < u32(2 * total):
                self.hits[idx_timer] = u32(self.hits[idx_timer] + PULSE)
                return
        if (idx_timer == idx_duration and
                s64(self.sleep_length_ns - measured) < sdiv(lat, 2)):
            self.hits[idx_timer] = u32(self.hits[idx_timer] + PULSE)
        else:
            self.intercepts[idx_duration] = u32(self.intercepts[idx_duration] + PULSE)
            if measured <= self.tick:
                self.tick_intercepts = u32(self.tick_intercepts + PULSE)

    # ---------------------------------------------------------------- select
    def select(self, dev, inp):
        if dev.last_state_idx >= 0:
            self.update(dev)
            dev.last_state_idx = -1
        return getattr(self, 'select_' + self.rel.replace('.', '_'))(dev, inp)

    def select_6_1(self, dev, inp):
        st = self.states
        tick = self.tick
        latency_req = inp.latency_req_ns
        self.time_span_ns = s64(inp.clock_ns)
        duration = inp.sleep_length_ns
        delta_tick = inp.delta_tick_ns
        self.sleep_length_ns = duration
        idx = -1
        idx0 = 0
        constraint_idx = 0
        n = len(st)

        def end(idx, duration):
            stop = True
            if ((st[idx].flags & FLAG_POLLING) or duration < tick) and \
                    not inp.tick_stopped:
                stop = False
                if idx > idx0 and st[idx].target_residency_ns > delta_tick:
                    idx = self.shallower(dev, idx, delta_tick)
            return idx, stop

        if n < 2:
            return end(0, duration)
        if not dev.disable[0]:
            idx = 0
            if st[1].target_residency_ns > duration:
                return end(idx, duration)
        intercept_sum = hit_sum = recent_sum = 0
        idx_intercept_sum = idx_hit_sum = idx_recent_sum = 0
        for i in range(1, n):
            intercept_sum = u32(intercept_sum + self.intercepts[i - 1])
            hit_sum = u32(hit_sum + self.hits[i - 1])
            recent_sum = u32(recent_sum + self.recent[i - 1])
            if dev.disable[i]:
                continue
            if idx < 0:
                idx = i
                idx0 = i
            if st[i].target_residency_ns > duration:
                break
            idx = i
            if st[i].exit_latency_ns <= latency_req:
                constraint_idx = i
            idx_intercept_sum = intercept_sum
            idx_hit_sum = hit_sum
            idx_recent_sum = recent_sum
        if idx < 0:
            return end(0, duration)
        if idx == idx0:
            return end(idx, duration)
        alt_intercepts = u32(2 * idx_intercept_sum) > u32(self.total - idx_hit_sum)
        alt_recent = idx_recent_sum > NR_RECENT // 2
        if alt_recent or alt_intercepts:
            last_enabled_span = duration
            last_enabled_idx = idx
            intercept_sum = 0
            recent_sum = 0
            for i in range(idx - 1, -1, -1):
                intercept_sum = u32(intercept_sum + self.intercepts[i])
                recent_sum = u32(recent_sum + self.recent[i])
                span = sdiv(s64(st[i].target_residency_ns + st[i + 1].target_residency_ns), 2)
                time_ok = not inp.tick_stopped or u64(span) >= tick
                if ((not alt_recent or u32(2 * recent_sum) > idx_recent_sum) and
                        (not alt_intercepts or
                         u32(2 * intercept_sum) > idx_intercept_sum)):
                    if time_ok and not dev.disable[i]:
                        idx = i
                        duration = span
                    else:
                        idx = last_enabled_idx
                        duration = last_enabled_span
                    break
                if dev.disable[i]:
                    continue
                if not time_ok:
                    if last_enabled_idx != idx:
                        continue
                    break
                last_enabled_span = span
                last_enabled_idx = i
        if idx > constraint_idx:
            idx = constraint_idx
        return end(idx, duration)

    def _sums(self, dev, latency_req, with_max):
        st = self.states
        idx = 0 if not dev.disable[0] else -1
        idx0 = 0
        constraint_idx = 0
        intercept_sum = hit_sum = 0
        idx_intercept_sum = idx_hit_sum = 0
        intercept_max = 0
        intercept_max_idx = -1
        for i in range(1, len(st)):
            prev = self.intercepts[i - 1]
            intercept_sum = u32(intercept_sum + prev)
            hit_sum = u32(hit_sum + self.hits[i - 1])
            if with_max and prev >= intercept_max:
                intercept_max = prev
                intercept_max_idx = i - 1
            if dev.disable[i]:
                continue
            if idx < 0:
                idx0 = i
            idx = i
            if st[i].exit_latency_ns <= latency_req:
                constraint_idx = i
            idx_intercept_sum = intercept_sum
            idx_hit_sum = hit_sum
        return (idx, idx0, constraint_idx, intercept_sum, idx_intercept_sum,
                idx_hit_sum, intercept_max_idx)

    def _end(self, dev, inp, idx, idx0, duration, delta_tick):
        st = self.states
        if (not (st[idx].flags & FLAG_POLLING) and duration >= self.tick) or \
                inp.tick_stopped:
            return idx, True
        if idx > idx0 and st[idx].target_residency_ns > delta_tick:
            idx = self.shallower(dev, idx, delta_tick)
        return idx, False

    def select_6_12(self, dev, inp):
        st = self.states
        tick = self.tick
        latency_req = inp.latency_req_ns
        delta_tick = tick // 2
        self.time_span_ns = s64(inp.clock_ns)
        self.sleep_length_ns = KTIME_MAX
        if len(st) < 2:
            return 0, False
        (idx, idx0, constraint_idx, intercept_sum, idx_intercept_sum, idx_hit_sum,
         _) = self._sums(dev, latency_req, False)
        if idx < 0:
            return 0, False
        if idx == idx0:
            return self._end(dev, inp, idx, idx0, st[idx].target_residency_ns,
                             delta_tick)
        tick_intercept_sum = u32(intercept_sum + self.intercepts[len(st) - 1])
        prev_intercept_idx = idx
        if u32(2 * idx_intercept_sum) > u32(self.total - idx_hit_sum):
            first_suitable_idx = idx
            intercept_sum = 0
            for i in range(idx - 1, -1, -1):
                intercept_sum = u32(intercept_sum + self.intercepts[i])
                if u32(2 * intercept_sum) > idx_intercept_sum:
                    if self.state_ok(i, inp) and not dev.disable[i]:
                        idx = i
                    else:
                        idx = first_suitable_idx
                    break
                if dev.disable[i]:
                    continue
                if not self.state_ok(i, inp):
                    if first_suitable_idx != idx:
                        continue
                    break
                first_suitable_idx = i
        if not idx and prev_intercept_idx:
            self.sleep_length_ns = inp.sleep_length_ns
            return idx, False
        if idx > constraint_idx:
            idx = constraint_idx
        if not idx:
            return idx, False
        if (st[0].flags & FLAG_POLLING) and \
                st[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS:
            return idx, False
        duration = inp.sleep_length_ns
        delta_tick = inp.delta_tick_ns
        self.sleep_length_ns = duration
        if st[idx].target_residency_ns > duration:
            i = self.shallower(dev, idx, duration)
            if self.state_ok(i, inp):
                idx = i
        if st[idx].target_residency_ns < tick and \
                tick_intercept_sum > self.total // 2 + self.total // 8:
            duration = tick // 2
        return self._end(dev, inp, idx, idx0, duration, delta_tick)

    def select_6_18(self, dev, inp):
        st = self.states
        tick = self.tick
        latency_req = inp.latency_req_ns
        delta_tick = tick // 2
        self.sleep_length_ns = KTIME_MAX
        if len(st) < 2:
            return 0, False
        (idx, idx0, constraint_idx, _, idx_intercept_sum, idx_hit_sum,
         _) = self._sums(dev, latency_req, False)
        if idx < 0:
            return 0, False
        if idx == idx0:
            return self._end(dev, inp, idx, idx0, st[idx].target_residency_ns,
                             delta_tick)
        if u32(2 * idx_intercept_sum) > u32(self.total - idx_hit_sum):
            first_suitable_idx = idx
            intercept_sum = 0
            for i in range(idx - 1, -1, -1):
                intercept_sum = u32(intercept_sum + self.intercepts[i])
                if u32(2 * intercept_sum) > idx_intercept_sum:
                    if self.state_ok(i, inp) and not dev.disable[i]:
                        idx = i
                        break
                    idx = first_suitable_idx
                    break
                if dev.disable[i]:
                    continue
                if self.state_ok(i, inp):
                    first_suitable_idx = i
                    continue
                if first_suitable_idx == idx:
                    break
        if idx > constraint_idx:
            idx = constraint_idx
        if ((not idx or st[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS) and
                (u32(2 * self.short_idles) >= self.total or
                 latency_req < LATENCY_THRESHOLD_NS)):
            return idx, False
        duration = inp.sleep_length_ns
        delta_tick = inp.delta_tick_ns
        self.sleep_length_ns = duration
        if not idx:
            return idx, False
        if st[idx].target_residency_ns > duration:
            i = self.shallower(dev, idx, duration)
            if self.state_ok(i, inp):
                idx = i
        if st[idx].target_residency_ns < tick and \
                self.tick_intercepts > self.total // 2 + self.total // 8:
            duration = tick // 2
        return self._end(dev, inp, idx, idx0, duration, delta_tick)

    def select_7_1(self, dev, inp):
        st = self.states
        tick = self.tick
        latency_req = inp.latency_req_ns
        delta_tick = tick // 2
        self.sleep_length_ns = KTIME_MAX
        if len(st) < 2:
            return 0, False
        (idx, idx0, constraint_idx, _, idx_intercept_sum, idx_hit_sum,
         intercept_max_idx) = self._sums(dev, latency_req, True)
        if idx < 0:
            return 0, False
        if idx == idx0:
            return self._end(dev, inp, idx, idx0, st[idx].target_residency_ns,
                             delta_tick)
        if u32(2 * idx_intercept_sum) > u32(self.total - idx_hit_sum):
            intercept_sum = 0
            for i in range(idx - 1, idx0 - 1, -1):
                intercept_sum = u32(intercept_sum + self.intercepts[i])
                if dev.disable[i]:
                    continue
                idx = i
                if u32(2 * intercept_sum) > idx_intercept_sum and i <= intercept_max_idx:
                    break
        if idx > constraint_idx:
            idx = constraint_idx
        if (not inp.tick_stopped and
                (not idx or st[idx].target_residency_ns < RESIDENCY_THRESHOLD_NS) and
                (u32(2 * self.short_idles) >= self.total or
                 latency_req < LATENCY_THRESHOLD_NS)):
            return idx, False
        duration = inp.sleep_length_ns
        delta_tick = inp.delta_tick_ns
        self.sleep_length_ns = duration
        if inp.tick_stopped and duration > self.safe_range and \
                st[idx].target_residency_ns < tick:
            for i in range(constraint_idx, idx, -1):
                if dev.disable[i]:
                    continue
                if st[i].target_residency_ns <= duration:
                    idx = i
                    break
            return idx, True
        if not idx:
            return idx, False
        if st[idx].target_residency_ns > duration:
            idx = self.shallower(dev, idx, duration)
        if st[idx].target_residency_ns < tick and \
                u32(3 * self.tick_intercepts) >= u32(2 * self.total):
            duration = tick // 2
        return self._end(dev, inp, idx, idx0, duration, delta_tick)

    # --------------------------------------------------------------- reflect
    def reflect(self, dev, state, inp):
        dev.last_state_idx = state
        if self.rel in ('6.1', '6.12'):
            if dev.poll_time_limit or (inp.got_tick and self.sleep_length_ns > self.tick):
                dev.poll_time_limit = False
                self.time_span_ns = self.sleep_length_ns
            else:
                self.time_span_ns = s64(inp.clock_ns - self.time_span_ns)
        elif self.rel == '6.18':
            if dev.poll_time_limit or (inp.got_tick and self.sleep_length_ns > self.tick):
                dev.poll_time_limit = False
                self.artificial_wakeup = True
            else:
                self.artificial_wakeup = False
        else:
            self.tick_wakeup = inp.got_tick


def factory(spec):
    rel, patches = split_spec(spec, 'teo')
    rel = rel or RELEASES[-1]
    if rel not in RELEASES:
        raise ValueError('teo has no preset %s' % rel)
    if patches:
        raise ValueError('teo has no patches')
    return lambda log, tick_ns: Teo(rel, log, tick_ns)


if __name__ == '__main__':
    sys.exit(main('teo', factory, sys.argv))
