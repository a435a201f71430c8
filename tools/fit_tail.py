#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fit a distribution's heavy tail ("BODY+P%:lognormal:M:S", docs/platform-format.md)
to the wake-up latencies bench/bench_hostlat measured.

Reads the output of `bench_hostlat --mode timer|ipi ... --tail`, pools the
first tail line of every timer or ipi row (the wake-up's own latency; the
futex_wake rows of --mode ipi are the waker's cost and are left out), and
fits P, M and S by least squares on the logarithms of the shares of samples
past the median by each of --at (default 30, 50, 100, 200 us). Shorter steps
mix with the body's own spread; from 500 us on the host's stalls ([noise]
host_stall) take over. With --at including 500, --stall-share PCT (the
platform's stall rate times their mean length, in per cent) is taken off the
share at 500 us first, down to a hundredth of it, so that a tail drawn on
every wake-up does not count the stalls' wake-ups twice. The tail's median
is held at --min-median us or more, so that the tail lies past the body
instead of reshaping it.

usage: tools/fit_tail.py [--at 30,50,100,200] [--stall-share PCT]
                         [--min-median 20] FILE...
"""
import argparse
import math
import re
import sys
from statistics import NormalDist

N = NormalDist()


def pooled(files):
    # a row counts for the steps its tail line has (all of them, unless the
    # line was cut short): each step's share is over the samples of those rows
    total, counts, rows = 0, {}, {}
    for name in files:
        try:
            lines = open(name, encoding="utf-8").read().split("\n")
        except OSError as e:
            sys.exit(f"fit_tail: {name}: {e.strerror}")
        except UnicodeDecodeError:
            sys.exit(f"fit_tail: {name}: not UTF-8 text (not bench_hostlat output)")
        for i, line in enumerate(lines):
            if not re.match(r"^(ipi|timer) ", line):
                continue
            # a row whose samples were all dropped prints no tail line
            if line.endswith(" no samples"):
                continue
            tail = lines[i + 1] if i + 1 < len(lines) else ""
            m = re.match(r"^  tail \d+us: n (\d+), past p50 \(\d+ ns\) by(.*)$", tail)
            if not m:
                sys.exit(f"fit_tail: {name}:{i + 2}: no tail line (run bench_hostlat with --tail)")
            n = int(m.group(1))
            total += n
            for x, c in re.findall(r" (\d+)us (\d+) \(", m.group(2)):
                # a share past 1 is no measurement: it would be fitted as one
                if int(c) > n:
                    sys.exit(f"fit_tail: {name}:{i + 2}: {c} samples past the median "
                             f"by {x} us of {n}")
                counts[int(x)] = counts.get(int(x), 0) + int(c)
                rows[int(x)] = rows.get(int(x), 0) + n
    if not total:
        sys.exit("fit_tail: no timer or ipi rows in " + " ".join(files))
    return total, {x: counts[x] / rows[x] for x in sorted(counts) if rows[x]}


def share(p, med, sigma, x):
    """P(tail draw > x), all in us."""
    return p * (1 - N.cdf(math.log(x / med) / sigma))


def fit(shares, at, min_median):
    best = None
    for p in (i / 1000 for i in range(1, 301)):
        for med in range(min_median, 101):
            for s10 in range(3, 31):
                s = s10 / 10
                err = sum((math.log(share(p, med, s, x) + 1e-12) - math.log(shares[x])) ** 2
                          for x in at)
                if best is None or err < best[0]:
                    best = (err, p, med, s)
    return best


def steps(text):
    """--at: bench_hostlat's steps past the median, in us (positive)."""
    try:
        at = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of whole us")
    if min(at) <= 0:
        raise argparse.ArgumentTypeError(f"'{text}': a step is past the median, > 0 us")
    return at


def median_us(text):
    """--min-median: the fit's medians run from it to 100 us, so it is in 1..100."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of us")
    if not 1 <= v <= 100:
        raise argparse.ArgumentTypeError(f"{v} is not in 1..100")
    return v


def stall_pct(text):
    """--stall-share: a per cent of the wake-ups, 0..100 (a NaN would compare false)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if not 0 <= v <= 100:
        raise argparse.ArgumentTypeError(f"{text} is not a per cent in 0..100")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--at", type=steps, default="30,50,100,200")
    ap.add_argument("--stall-share", type=stall_pct, default=0.0)
    ap.add_argument("--min-median", type=median_us, default=20)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    at = a.at
    total, shares = pooled(a.files)
    if 500 in shares and 500 in at and a.stall_share > 0:
        left = shares[500] - a.stall_share / 100
        shares[500] = left if left > shares[500] / 100 else shares[500] / 100
    missing = [x for x in at if not shares.get(x)]
    if missing:
        sys.exit(f"fit_tail: no sample past the median by {missing} us: nothing to fit")
    err, p, med, s = fit(shares, at, a.min_median)
    print(f"{total} samples; past the median by:")
    print("  us      measured %   fitted %")
    for x in sorted(shares):
        note = " (less the stalls)" if x == 500 and 500 in at and a.stall_share > 0 else ""
        print(f"  {x:<5} {100 * shares[x]:10.3f} {100 * share(p, med, s, x):10.3f}{note}")
    print(f"tail: +{100 * p:g}%:lognormal:{med}us:{s:g}  (squared log error {err:.3f})")


if __name__ == "__main__":
    main()
