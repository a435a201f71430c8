# SPDX-License-Identifier: GPL-2.0-only
"""Shared pieces of the Python reference governors (stdlib only).

C integer helpers, the replay-log reader (format of docs/replay.md,
"# idlelab-replay v1") and the replay loop that mirrors
kernel/sched/idle.c cpuidle_idle_call() as the C engine does it:
select with stop_tick preset to true, the entry (rejected when
residency_ns == -1: last_residency_ns = 0 and no reflect; otherwise a
polling entry caches the poll limit and writes poll_time_limit from the
row, last_residency_ns = residency_ns), the per-CPU replay clock advanced
by the residency, then reflect with got_tick from the row.

This is an independent check of src/governors/{menu,teo}.c: it was
written from the kernel texts (the commits are named in menu_ref.py and
teo_ref.py), without reading the C governors.
"""

import sys

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
S64_MAX = (1 << 63) - 1
S64_MIN = -(1 << 63)
U32_MAX = M32
U64_MAX = M64
KTIME_MAX = S64_MAX
RESIDENCY_THRESHOLD_NS = 15000
NSEC_PER_USEC = 1000

FLAG_POLLING = 1 << 0
FLAG_COUPLED = 1 << 1
FLAG_TIMER_STOP = 1 << 2
FLAG_UNUSABLE = 1 << 3
FLAG_OFF = 1 << 4
FLAG_NAMES = {
    'POLLING': FLAG_POLLING, 'COUPLED': FLAG_COUPLED, 'TIMER_STOP': FLAG_TIMER_STOP,
    'UNUSABLE': FLAG_UNUSABLE, 'OFF': FLAG_OFF, 'TLB_FLUSHED': 1 << 5,
    'RCU_IDLE': 1 << 6, 'TURBO_RELEASE': 1 << 7,
}

COLUMNS = ('cpu,sleep_length_ns,delta_tick_ns,tick_stopped,latency_req_ns,'
           'nr_iowait,cpu_utilized,residency_ns,got_tick,poll_time_limit')


def u32(x):
    return x & M32


def u64(x):
    return x & M64


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def udiv(a, b):
    """Unsigned division of already-reduced operands."""
    return a // b


def sdiv(a, b):
    """C signed division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def tick_nsec(hz):
    return (1000000000 + hz // 2) // hz


class State:
    __slots__ = ('name', 'exit_latency_ns', 'target_residency_ns', 'flags')

    def __init__(self, name, lat, res, flags):
        self.name = name
        self.exit_latency_ns = lat
        self.target_residency_ns = res
        self.flags = flags

    @property
    def polling(self):
        return bool(self.flags & FLAG_POLLING)


class Log:
    def __init__(self):
        self.hz = None
        self.states = []
        self.disabled = set()
        self.params = []
        self.rows = []   # tuples in column order


class LogError(Exception):
    pass


def parse_flags(text):
    flags = 0
    for tok in text.replace('|', ' ').replace(',', ' ').split():
        name = tok.upper().replace('-', '_')
        if name not in FLAG_NAMES:
            raise LogError("unknown state flag '%s'" % tok)
        flags |= FLAG_NAMES[name]
    return flags


def read_log(path):
    log = Log()
    with open(path) as f:
        lines = f.read().split('\n')
    if not lines or lines[0].rstrip('\r') != '# idlelab-replay v1':
        raise LogError('%s:1: bad header' % path)
    header = True
    for n, line in enumerate(lines[1:], start=2):
        line = line.rstrip('\r')
        if not line:
            continue
        if header:
            if line.startswith('#'):
                h = line[1:].strip()
                if h.startswith('state,'):
                    f6 = h.split(',', 5)
                    if len(f6) != 6:
                        raise LogError('%s:%d: bad state line' % (path, n))
                    log.states.append(State(f6[2], int(f6[3]), int(f6[4]),
                                            parse_flags(f6[5])))
                elif h.startswith('disable,'):
                    log.disabled.add(int(h.split(',')[1]))
                elif h.startswith('param,'):
                    _, name, value = h.split(',', 2)
                    log.params.append((name, value))
                else:
                    for kv in h.split():
                        if kv.startswith('hz='):
                            log.hz = int(kv[3:])
                continue
            if line.strip() != COLUMNS:
                raise LogError('%s:%d: bad column line' % (path, n))
            header = False
            continue
        if line.startswith('#'):
            continue
        v = [int(x) for x in line.split(',')]
        if len(v) != 10:
            raise LogError('%s:%d: wrong column count' % (path, n))
        log.rows.append(tuple(v))
    if log.hz is None:
        raise LogError('%s: no hz' % path)
    return log


class Device:
    """The struct cpuidle_device fields a governor reads or writes."""

    def __init__(self, log, cpu):
        self.cpu = cpu
        self.last_state_idx = 0
        self.last_residency_ns = 0
        self.poll_time_limit = False
        self.poll_limit_ns = 0
        self.disable = [0] * len(log.states)
        for i, s in enumerate(log.states):
            if s.flags & FLAG_UNUSABLE:
                self.disable[i] |= 2
            if s.flags & FLAG_OFF:
                self.disable[i] |= 1
        for i in log.disabled:
            self.disable[i] |= 1


class Inputs:
    """What the kernel would return to the governor at select/reflect."""
    __slots__ = ('sleep_length_ns', 'delta_tick_ns', 'tick_stopped', 'latency_req_ns',
                 'nr_iowait', 'cpu_utilized', 'got_tick', 'clock_ns')


def poll_time(states, dev, tick_ns):
    """cpuidle_poll_time(): cached limit of a polling entry (no decision reads it)."""
    if dev.poll_limit_ns:
        return dev.poll_limit_ns
    limit = tick_ns // 16
    for i in range(1, len(states)):
        if dev.disable[i]:
            continue
        if states[i].target_residency_ns < 10000:
            continue
        limit = min(states[i].target_residency_ns, tick_ns // 16)
        break
    dev.poll_limit_ns = limit
    return limit


def replay(log, make_gov):
    """Yield (selected, stop_tick) per row. make_gov(log, tick_ns) -> governor."""
    tick_ns = tick_nsec(log.hz)
    cpus = {}
    states = log.states
    for row in log.rows:
        cpu = row[0]
        ent = cpus.get(cpu)
        if ent is None:
            dev = Device(log, cpu)
            gov = make_gov(log, tick_ns)
            gov.enable(dev)
            ent = cpus[cpu] = [dev, gov, 0]
        dev, gov, clock = ent
        inp = Inputs()
        inp.sleep_length_ns = row[1]
        inp.delta_tick_ns = row[2]
        inp.tick_stopped = bool(row[3])
        inp.latency_req_ns = row[4]
        inp.nr_iowait = row[5]
        inp.cpu_utilized = bool(row[6])
        inp.got_tick = False
        inp.clock_ns = clock
        idx, stop = gov.select(dev, inp)
        yield idx, stop
        res = row[7]
        if res < 0:
            dev.last_residency_ns = 0
            continue
        if states[idx].flags & FLAG_POLLING:
            poll_time(states, dev, tick_ns)
            dev.poll_time_limit = bool(row[9])
        dev.last_residency_ns = res
        clock = u64(clock + res)
        ent[2] = clock
        inp.got_tick = bool(row[8])
        inp.clock_ns = clock
        gov.reflect(dev, idx, inp)


def parse_duration_ns(text):
    """"20us", "15000", "15000ns", "1ms", "1s" -> ns (non-negative)."""
    t = text.strip()
    mult = 1
    for suf, m in (('ns', 1), ('us', 1000), ('ms', 1000000), ('s', 1000000000)):
        if t.endswith(suf):
            t = t[:-len(suf)]
            mult = m
            break
    if not t.isdigit():
        raise ValueError("bad duration '%s'" % text)
    return int(t) * mult


def split_spec(spec, name):
    """"menu@6.12+poll-escape=20us" -> (release or None, [(patch, value), ...])."""
    head, *patches = spec.split('+')
    gname, _, rel = head.partition('@')
    if gname != name:
        raise ValueError("spec '%s' is not for %s" % (spec, name))
    out = []
    for p in patches:
        k, eq, v = p.partition('=')
        out.append((k, v if eq else None))
    return rel or None, out


def write_decisions(log, make_gov, out):
    w = out.write
    w('row,selected,stop_tick\n')
    buf = []
    for r, (idx, stop) in enumerate(replay(log, make_gov)):
        buf.append('%d,%d,%d\n' % (r, idx, 1 if stop else 0))
        if len(buf) >= 4096:
            w(''.join(buf))
            buf = []
    w(''.join(buf))


def main(name, factory_from_spec, argv):
    """CLI: NAME_ref.py SPEC LOG [OUT] | SPEC LOG OUT LOG OUT ...

    Writes a decisions file (row,selected,stop_tick) for each log.
    """
    if len(argv) < 3 or (len(argv) > 4 and len(argv) % 2 == 1):
        sys.stderr.write('usage: %s SPEC LOG [OUT] | SPEC LOG OUT [LOG OUT]...\n' % argv[0])
        return 2
    try:
        make_gov = factory_from_spec(argv[1])
    except ValueError as e:
        sys.stderr.write('%s: %s\n' % (argv[0], e))
        return 1
    if len(argv) == 3:
        write_decisions(read_log(argv[2]), make_gov, sys.stdout)
        return 0
    for k in range(2, len(argv), 2):
        log = read_log(argv[k])
        with open(argv[k + 1], 'w') as out:
            write_decisions(log, make_gov, out)
    return 0
