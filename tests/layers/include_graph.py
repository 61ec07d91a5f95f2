#!/usr/bin/env python3
"""include_graph.py — the include graph of src/ at module level, and the check that it has no cycle.

A module is a file's folder plus its name without the extension: src/daemon/http.c and
src/daemon/http.h are the module daemon/http; a header x_impl.h or x_internal.h belongs to module x
(field/fp_impl.h to field/fp, engine/engine_internal.h to engine/engine); a header with no .c of its
name (daemon/daemon.h) is a module of its own, and so is a .c with no header (a command, a kind). There is an edge m -> n when a file of m has
`#include "…"` naming a header of n (a path under SRC_DIR, as "daemon/http.h", or a name beside the
file, as "x.h"); includes of files not under SRC_DIR (<…>, generated code) are not edges, and a
module including its own header is not an edge.

A cycle (m -> … -> m) means the modules on it cannot be read, tested or replaced one at a time:
ARCHITECTURE.md wants listeners below routing, routing below handlers. Modules of one layer may
include each other, but only in one direction.

usage: include_graph.py [--check] SRC_DIR
  default   the graph as Graphviz dot on stdout (one cluster per layer folder; the edges of a cycle
            drawn red): python3 tests/layers/include_graph.py src > graph.dot && dot -Tsvg graph.dot
  --check   exit 0 when there is no cycle; else 1, printing each strongly connected set of
            modules and one cycle through it, with the file and line of each include on it
Exit 2 on usage errors. Python 3 standard library only (Debian 12's python3).
"""
import os
import re
import sys

EXTS = (".c", ".h", ".cu", ".cuh", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def module_of(rel):
    """daemon/http.c -> daemon/http; field/fp_impl.h and engine/engine_internal.h are the private
    halves of field/fp and engine/engine (STYLE.md item 1: X.h + X_impl.h)."""
    base, ext = os.path.splitext(rel)
    if ext in (".h", ".cuh"):
        base = re.sub(r"_(impl|internal)$", "", base)
    return base


def read_graph(src):
    """modules (set), edges {m: {n: (file, line)}} over every source file under src."""
    files = []
    for root, dirs, names in os.walk(src):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(EXTS):
                files.append(os.path.relpath(os.path.join(root, name), src).replace(os.sep, "/"))
    known = set(files)
    modules = {module_of(f) for f in files}
    edges = {m: {} for m in modules}
    for rel in files:
        m = module_of(rel)
        here = os.path.dirname(rel)
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as fh:
            for lineno, text in enumerate(fh, 1):
                hit = INCLUDE.match(text)
                if not hit:
                    continue
                inc = hit.group(1)
                beside = os.path.normpath(os.path.join(here, inc)).replace(os.sep, "/")
                target = inc if inc in known else beside if beside in known else None
                if target is None:
                    continue
                n = module_of(target)
                if n != m and n not in edges[m]:
                    edges[m][n] = (rel, lineno)
    return modules, edges


def strongly_connected(modules, edges):
    """Tarjan's algorithm (iterative): the sets of more than one module that reach each other."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def one_cycle(comp, edges):
    """A shortest cycle through comp's first module, inside comp (breadth-first)."""
    start, inside = comp[0], set(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def check(src):
    modules, edges = read_graph(src)
    if not modules:
        print(f"include_graph: no source files under {src}")
        return 1
    comps = strongly_connected(modules, edges)
    for comp in comps:
        cyc = one_cycle(comp, edges)
        print(f"include cycle: {' -> '.join(cyc)}   (modules that include each other: {', '.join(comp)})")
        for a, b in zip(cyc, cyc[1:]):
            f, line = edges[a][b]
            print(f"  {f}:{line}: {a} includes {b}")
    if comps:
        return 1
    n = sum(len(e) for e in edges.values())
    print(f"include_graph: {len(modules)} modules, {n} edges, no cycle")
    return 0


def dot(src):
    modules, edges = read_graph(src)
    red = set()
    for comp in strongly_connected(modules, edges):
        inside = set(comp)
        red |= {(a, b) for a in comp for b in edges[a] if b in inside}
    print("digraph includes {")
    print('  rankdir=BT; node [shape=box, fontname="monospace", fontsize=10];')
    folders = {}
    for m in sorted(modules):
        folders.setdefault(m.split("/")[0] if "/" in m else "", []).append(m)
    for k, (folder, mods) in enumerate(sorted(folders.items())):
        print(f'  subgraph cluster_{k} {{ label="{folder or "."}";')
        for m in mods:
            print(f'    "{m}";')
        print("  }")
    for a in sorted(edges):
        for b in sorted(edges[a]):
            attr = ' [color=red, penwidth=2]' if (a, b) in red else ""
            print(f'  "{a}" -> "{b}"{attr};')
    print("}")
    return 0


def main(argv):
    args = argv[1:]
    mode = dot
    if args and args[0] == "--check":
        mode = check
        args = args[1:]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: include_graph.py [--check] SRC_DIR", file=sys.stderr)
        return 2
    return mode(args[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
