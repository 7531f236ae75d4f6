#!/usr/bin/env python3
"""Nodes an engine spends to finish each depth: the shape of its tree.

For each of the first N openings of a book it sends `ucinewgame`, the
opening and `go depth D`, and keeps, for every depth, the node count of
the last exact `info depth` line (bounds are skipped). It prints the
geometric mean over the openings of the nodes at each depth, and with a
second engine the ratio of the two. Two engines that report the same
depth at the same nodes can still differ here: a tree that is thinner at
high depths reaches a nominal depth with fewer nodes, so "the same depth
at equal nodes" is not the same search (docs/strength-session-29.md).
Node counts do not depend on the machine's load.

    scripts/strength/treeshape.py --a "strength-bin/chessplayx uci" --a-opt Level=8 \\
        --b strength-bin/fsf/fairy-stockfish --b-opt "Use NNUE=false" --positions 12 --depth 15
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from uci import Uci  # noqa: E402


def nodes_by_depth(command, opts, variant, openings, depth):
    """One dict depth -> nodes per opening."""
    eng = Uci(command, timeout=3600)
    for o in opts:
        name, _, value = o.partition("=")
        eng.send(f"setoption name {name} value {value}")
    eng.set_variant(variant)
    out = []
    for moves in openings:
        eng.send("ucinewgame")
        eng.ready()
        eng.position(None, moves)
        eng.send(f"go depth {depth}")
        seen = {}
        for line in eng.read_until(lambda l: l.startswith("bestmove")):
            t = line.split()
            if "depth" in t and "nodes" in t and "seldepth" in t and "lowerbound" not in t and "upperbound" not in t:
                seen[int(t[t.index("depth") + 1])] = int(t[t.index("nodes") + 1])
        out.append(seen)
    eng.close()
    return out


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="command line of a UCI engine")
    ap.add_argument("--a-opt", action="append", default=[], help="NAME=VALUE (repeatable)")
    ap.add_argument("--b", help="a second engine, compared with the first")
    ap.add_argument("--b-opt", action="append", default=[])
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--book", default=os.path.join(HERE, "books", "chess.txt"))
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--depth", type=int, default=15)
    args = ap.parse_args()
    with open(args.book) as f:
        openings = [l.split() for l in f if l.strip() and not l.startswith("#")][: args.positions]
    a = nodes_by_depth(args.a, args.a_opt, args.variant, openings, args.depth)
    b = nodes_by_depth(args.b, args.b_opt, args.variant, openings, args.depth) if args.b else None
    print("depth  A nodes" + ("    B nodes  A/B" if b else ""))
    for d in range(1, args.depth + 1):
        xa = [r[d] for r in a if d in r]
        if len(xa) < len(openings):
            continue
        line = f"{d:5d} {geomean(xa):9.0f}"
        if b:
            xb = [r[d] for r in b if d in r]
            if len(xb) < len(openings):
                continue
            line += f" {geomean(xb):10.0f}  {geomean(xa) / geomean(xb):.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
