#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Seeds for fuzz/fuzz_tree.c from captured trees: each file of TREE that
# the target knows by name becomes a record (its index, two bytes of
# length, the content). Usage: tools/fuzz_tree_seeds.py OUTDIR TREE...
import os
import re
import sys

src = open(os.path.join(os.path.dirname(__file__), '..', 'fuzz', 'fuzz_tree.c')).read()
body = src[src.index('static const char *const files[]'):]
body = body[:body.index('};')]
names = []
for m in re.finditer(r'STATE_FILES\((\d), (\d)\)|((?:CPU )?"[^"]+")', body):
    if m.group(1):
        c, s = m.group(1), m.group(2)
        for f in ['name', 'desc', 'latency', 'residency', 'power', 'usage', 'time', 'above',
                  'below', 'rejected', 'disable', 'default_status']:
            names.append(f'sys/devices/system/cpu/cpu{c}/cpuidle/state{s}/{f}')
    else:
        t = m.group(3)
        names.append(('sys/devices/system/cpu/' if t.startswith('CPU ') else '') +
                     t.split('"')[1])
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for tree in sys.argv[2:]:
    rec = b''
    for i, n in enumerate(names):
        p = os.path.join(tree, n)
        if n.startswith('boot/config-'):
            d = os.path.join(tree, 'boot')
            c = [f for f in os.listdir(d)] if os.path.isdir(d) else []
            p = os.path.join(d, c[0]) if c else p
        if os.path.isfile(p):
            data = open(p, 'rb').read()[:65535]
            rec += bytes([i, len(data) & 0xff, len(data) >> 8]) + data
    open(os.path.join(out, os.path.basename(tree.rstrip('/'))), 'wb').write(rec)
