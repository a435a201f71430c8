#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A synthetic ftrace text trace for trace check, whatif and to-replay.

Fixed pseudo-random sequence (a seed), CPUs interleaved in time order, with
every event the period reader uses: cpu_idle entries and exits (with and
without the need-resched flag), hrtimer_start / hrtimer_cancel /
hrtimer_expire_entry (the tick's hrtimer and others), tick_stop,
sched_switch, irq_handler_entry, guest_halt_poll_ns, lost-event lines,
exits without entries, entries without exits, and the PM QoS and kernel
lines trace record writes.

  gen_trace.py [--cpus N] [--periods N] [--states N] [--seed N] [--plain]

--periods is per CPU; --plain leaves out the header lines, lost events and
the PM QoS lines.
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--periods", type=int, default=200)
    ap.add_argument("--states", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plain", action="store_true")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    out = sys.stdout
    ev = []  # (ts_ns, seq, text)
    seq = 0

    def add(ts, cpu, text, flags="d..1."):
        nonlocal seq
        ev.append((ts, seq, "          <idle>-0       [%03d] %s %6d.%06d: %s" %
                   (cpu, flags, ts // 1000000000, (ts // 1000) % 1000000, text)))
        seq += 1

    off = 400000000000  # CLOCK_MONOTONIC - trace clock
    for cpu in range(a.cpus):
        t = 100000000000 + cpu * 3000
        tick = 0xffff000000000000 + cpu * 16
        hp = 50000
        if cpu % 2 == 0:
            # an exit without its entry (idle when the trace began)
            add(t, cpu, "cpu_idle: state=4294967295 cpu_id=%d" % cpu)
            t += 5000
        for i in range(a.periods):
            if i % 7 == 1 or (i == 0 and cpu == 0):
                add(t, cpu, "hrtimer_expire_entry: hrtimer=%016x function=tick_nohz_handler now=%d"
                    % (tick, t + off))
                add(t + 1000, cpu, "hrtimer_start: hrtimer=%016x function=tick_nohz_handler "
                    "expires=%d softexpires=%d mode=ABS|PINNED_HARD" % (tick, t + off + 4000000,
                                                                       t + off + 4000000))
                t += 2000
            if i % 5 == 2:
                tid = 0xffff100000000000 + cpu * 256 + (i % 3)
                exp = t + off + rnd.randrange(5000, 3000000)
                add(t, cpu, "hrtimer_start: hrtimer=%016x function=hrtimer_wakeup expires=%d "
                    "softexpires=%d mode=ABS" % (tid, exp, exp))
                t += 1000
            if i % 11 == 4:
                add(t, cpu, "hrtimer_cancel: hrtimer=%016x" % (0xffff100000000000 + cpu * 256))
                t += 1000
            if i % 9 == 3:
                add(t, cpu, "tick_stop: success=%d dependency=NONE" % (i % 2))
                t += 1000
            state = rnd.randrange(a.states)
            add(t, cpu, "cpu_idle: state=%d cpu_id=%d" % (state, cpu))
            res = rnd.choice([3000, 20000, 60000, 150000, 700000, 2500000]) + rnd.randrange(1000)
            t += res
            if i % 4 == 1:
                add(t, cpu, "hrtimer_expire_entry: hrtimer=%016x function=tick_nohz_handler now=%d"
                    % (tick, t + off))
                t += 1000
            elif i % 4 == 2:
                add(t, cpu, "irq_handler_entry: irq=24 name=virtio3-tx", "d.h1.")
                t += 1000
            elif i % 4 == 3:
                tid = 0xffff100000000000 + cpu * 256 + 1
                add(t, cpu, "hrtimer_expire_entry: hrtimer=%016x function=hrtimer_wakeup now=%d"
                    % (tid, t + off))
                t += 1000
            if i % 13 == 12 and not a.plain:
                # an entry whose exit is lost, then another entry: a dropped period
                t += 1000
            else:
                add(t, cpu, "cpu_idle: state=4294967295 cpu_id=%d" % cpu,
                    "dN.1." if rnd.random() < 0.6 else "d..1.")
            t += 1000
            if i % 6 == 5:
                add(t, cpu, "sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 "
                    "prev_state=R ==> next_comm=kworker next_pid=77 next_prio=120" % cpu, "d..2.")
                t += 20000
                add(t, cpu, "sched_switch: prev_comm=kworker prev_pid=77 prev_prio=120 "
                    "prev_state=I ==> next_comm=swapper/%d next_pid=0 next_prio=120" % cpu, "d..2.")
                t += 1000
            if i % 17 == 8:
                nv = hp * 2 if i % 2 else hp // 2
                add(t, cpu, "guest_halt_poll_ns: halt_poll_ns %d (%s %d)"
                    % (nv, "grow" if nv > hp else "shrink", hp), ".N.1.")
                hp = nv
                t += 1000
            if i == a.periods // 2 and cpu == 1 and not a.plain:
                ev.append((t, seq, "CPU:%d [LOST 12 EVENTS]" % cpu))
                seq += 1
                t += 1000
        if cpu == a.cpus - 1:
            # an entry without its exit
            add(t, cpu, "cpu_idle: state=1 cpu_id=%d" % cpu)
    ev.sort()
    if not a.plain:
        out.write("# tracer: nop\n#\n")
        out.write("# idlelab-kernel release=6.18.44 hz=1000 config=proc/config.gz\n")
        out.write("# idlelab-pmqos start cpu_dma_latency_us=2000000000\n")
        for cpu in range(a.cpus):
            out.write("# idlelab-pmqos start cpu=%d resume_latency_us=%s\n"
                      % (cpu, "n/a" if cpu == 1 else "0" if cpu != 2 else "20"))
    for e in ev:
        out.write(e[2] + "\n")
    if not a.plain:
        out.write("# idlelab-pmqos end cpu_dma_latency_us=2000000000\n")
        out.write("# idlelab-pmqos end cpu=1 resume_latency_us=0\n")


if __name__ == "__main__":
    main()
