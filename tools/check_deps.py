#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Dependencies point one way (docs/design.md, "Dependencies point one way").

Usage: check_deps.py [--nm NM] [--srcdir DIR] LIBRARY_OR_OBJECT...

Reads the symbols of the library's objects with nm (a static library, as
the build gives it, or objects), maps each object to the file under
DIR/src/ it was compiled from, and draws an edge from a file to every
other file that defines a symbol it uses. It fails (exit 1), printing
every violation, when
  - two files call each other, or more files call each other in a cycle;
  - an edge goes from a directory of src/ to one of a higher layer, or
    between two directories of the same layer (LAYERS below);
  - an object or a directory cannot be placed.
Only calls and data references through symbols are seen: static inline
functions in headers and calls through function pointers (a workload's or
a governor's ops table) leave no edge.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

# The layers of src/, highest first: a file may use files of its own
# directory and of directories on lower lines, never of a higher line nor of
# another directory on its own line. The order is docs/design.md's:
#   cli -> scenario -> report, batch -> sim; cli -> report -> sim;
#   cli -> replay, live, trace, kgov; sim, replay, live, trace, kgov -> drivers -> platform
#   -> governors -> core.
# The batch machinery (run.c, result.c) is in sim/. Workloads sit above sim:
# the engine runs a workload through the ops table it is handed, and the
# workloads call the engine's il_sim_* functions and sim's histograms,
# random numbers and statistics; nothing in sim/ names a workload. cli is
# not in the library (it is the command); it is listed so that every
# directory of src/ has its place.
LAYERS = [
    ['cli'],
    ['scenario'],
    ['report', 'workloads'],
    ['sim', 'replay', 'live', 'trace', 'kgov'],
    ['drivers'],
    ['platform'],
    ['governors'],
    ['core'],
    # the built-in platform and scenario files, compiled in from C files the
    # build generates (tools/embed_platforms.py): data, used from above
    ['(generated)'],
]

# Edges the layers forbid but the design keeps on purpose, each with its
# reason in docs/design.md: {('src/A/x.c', 'src/B/y.c'): 'why'}. None today.
EXCEPTIONS = {}

# Symbols an object defines (global text, data, bss, read-only, common,
# small data, indirect functions); lower-case letters are local.
DEFINED = set('TDBRCGSi')


def run_nm(nm, path):
    """{member: (defined symbols, undefined symbols)} of a library or object."""
    try:
        out = subprocess.run([nm, path], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        sys.exit(f'check_deps: {nm}: not found (binutils, which gcc depends on, has nm)')
    except subprocess.CalledProcessError as e:
        sys.exit(f'check_deps: {nm} {path} failed: {e.stderr.strip()}')
    members = {}
    member = os.path.basename(path)
    for line in out.splitlines():
        if not line.strip():
            continue
        if line.endswith(':') and ' ' not in line:
            # "member.o:" in an archive (a path in a thin one)
            member = os.path.basename(line[:-1])
            continue
        defs, undefs = members.setdefault(member, (set(), set()))
        f = line.split()
        if len(f) == 3 and f[1] in DEFINED:
            defs.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            undefs.add(f[1])
    return members


def mangle(path):
    return re.sub(r'[^A-Za-z0-9.]', '_', path)


def source_map(srcdir):
    """{mangled path: 'src/DIR/FILE.c'} for every C file under srcdir/src/."""
    sources = {}
    for d, _, files in os.walk(os.path.join(srcdir, 'src')):
        for f in files:
            if f.endswith('.c'):
                rel = os.path.relpath(os.path.join(d, f), srcdir).replace(os.sep, '/')
                sources[mangle(rel)] = rel
    return sources


def place(member, sources):
    """The source file an object comes from, '(generated)/NAME' or None.

    Build systems name an object after its source's path from the project
    root ("src_core_device.c.o" for src/core/device.c in Meson): the
    object's name, with every character other than letters, digits and dots
    taken as a separator, ends with exactly one source's path."""
    name = mangle(member[:-2] if member.endswith('.o') else member)
    found = [rel for m, rel in sources.items() if name == m or name.endswith('_' + m)]
    if len(found) == 1:
        return found[0]
    if not found and 'generated' in name:
        return '(generated)/' + re.sub(r'^.*generated_(\.\._)*', '', name)
    return None


def layer_of(path):
    """(rank, directory); the rank is None for a directory not in LAYERS."""
    parts = path.split('/')
    d = parts[0] if parts[0] == '(generated)' else parts[1] if len(parts) > 2 else '.'
    for rank, dirs in enumerate(LAYERS):
        if d in dirs:
            return len(LAYERS) - rank, d
    return None, d


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return comps


def shortest_cycle(start, comp, edges):
    """The shortest path start -> ... -> start inside comp (breadth first)."""
    prev, queue = {}, collections.deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(edges.get(v, ())):
            if w not in comp:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start, start]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--nm', default=os.environ.get('NM', 'nm'),
                    help='the nm to run (default: $NM, else nm)')
    ap.add_argument('--srcdir', default=os.path.join(os.path.dirname(__file__), '..'),
                    help='the source tree, whose src/ the objects come from')
    ap.add_argument('inputs', nargs='+', metavar='LIBRARY_OR_OBJECT',
                    help='the static library (or objects) of the build')
    args = ap.parse_args()

    sources = source_map(args.srcdir)
    bad = []
    defs, undefs = {}, {}
    for path in args.inputs:
        for member, (d, u) in run_nm(args.nm, path).items():
            src = place(member, sources)
            if src is None:
                bad.append(f'object: {path}({member}) is compiled from no single file under '
                           f'{args.srcdir}/src/')
                continue
            undefs.setdefault(src, set()).update(u)
            for sym in d:
                defs[sym] = src
    if not undefs or not defs:
        sys.exit(f'check_deps: nm found no symbols in {" ".join(args.inputs)}')

    # edges[a][b]: the symbols of b that a uses
    edges = collections.defaultdict(dict)
    for a, used in undefs.items():
        for sym in sorted(used):
            b = defs.get(sym)
            if b is not None and b != a:
                edges[a].setdefault(b, []).append(sym)

    def via(a, b):
        syms = edges[a][b]
        return syms[0] + (f' and {len(syms) - 1} more' if len(syms) > 1 else '')

    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a < b and a in edges.get(b, {}):
                bad.append(f'two-way: {a} -> {b} ({via(a, b)}) and {b} -> {a} ({via(b, a)})')
    for comp in cycles(edges):
        if len(comp) > 2:
            path = shortest_cycle(comp[0], set(comp), edges)
            steps = ' -> '.join(f'{b} ({via(a, b)})' for a, b in zip(path, path[1:]))
            bad.append(f'cycle of {len(comp)} files ({", ".join(comp)}): {path[0]} -> {steps}')

    unplaced = {}
    for f in sorted(undefs):
        rank, d = layer_of(f)
        if rank is None:
            unplaced.setdefault(d, f)
    for d, f in unplaced.items():
        bad.append(f'layer: src/{d}/ has no place in LAYERS of tools/check_deps.py ({f})')
    used_exceptions = set()
    for a in sorted(edges):
        ra, da = layer_of(a)
        if ra is None:
            continue
        for b in sorted(edges[a]):
            rb, db = layer_of(b)
            if rb is None or da == db or ra > rb:
                continue
            if (a, b) in EXCEPTIONS:
                used_exceptions.add((a, b))
                continue
            why = f'{da} is below {db}' if ra < rb else f'{da} and {db} are side by side'
            bad.append(f'layer: {a} -> {b} ({via(a, b)}): {why}')
    for a, b in sorted(set(EXCEPTIONS) - used_exceptions):
        bad.append(f'exception: {a} -> {b} is in EXCEPTIONS but no longer an edge')

    for line in bad:
        print(line)
    nedges = sum(len(v) for v in edges.values())
    print(f'check_deps: {len(undefs)} files, {nedges} edges between them, '
          f'{len(bad)} violation{"" if len(bad) == 1 else "s"}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
