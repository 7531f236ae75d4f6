#!/usr/bin/env python3
"""How an engine uses a fixed move time or a fixed node count.

For each of the first N openings of a book it sends `ucinewgame`,
`position startpos moves ...` and `go movetime T` (or `go nodes N`), and
prints the mean wall time from `go` to `bestmove`, the nodes and depth of
the last `info` line, and the CPU time the engine used (two builds that
search the same tree compare by it; run them alternately, since the VM's
speed drifts). Drives the engine with the shared tools' UCI client
(../shared/tools/uci.py, or $CHESSPLAYX_SHARED/tools).

    scripts/strength/movetime.py --engine "strength-bin/chessplayx uci" --opt Level=8 --movetime 100
    scripts/strength/movetime.py --engine strength-bin/fsf/fairy-stockfish --opt "Use NNUE=false" --nodes 300000
"""
import argparse
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from uci import Uci  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="command line of a UCI engine")
    ap.add_argument("--opt", action="append", default=[], help="NAME=VALUE, a UCI option (repeatable)")
    ap.add_argument("--book", default=os.path.join(HERE, "books", "chess.txt"))
    ap.add_argument("--positions", type=int, default=30)
    limit = ap.add_mutually_exclusive_group(required=True)
    limit.add_argument("--movetime", type=int, help="ms a move")
    limit.add_argument("--nodes", type=int, help="nodes a move")
    args = ap.parse_args()

    with open(args.book, encoding="utf-8") as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    openings = lines[: args.positions]
    eng = Uci(args.engine, timeout=600)
    for opt in args.opt:
        name, _, value = opt.partition("=")
        eng.send(f"setoption name {name} value {value}")
    go = f"go movetime {args.movetime}" if args.movetime else f"go nodes {args.nodes}"
    wall, nodes, depth = 0.0, 0, 0
    for moves in openings:
        eng.send("ucinewgame")
        eng.send(f"position startpos moves {moves}")
        eng.ready()
        start = time.monotonic()
        eng.send(go)
        out = eng.read_until(lambda l: l.startswith("bestmove"))
        wall += time.monotonic() - start
        info = [l.split() for l in out if l.startswith("info") and " nodes " in l]
        if info:
            nodes += int(info[-1][info[-1].index("nodes") + 1])
            depth += int(info[-1][info[-1].index("depth") + 1])
    eng.close()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    n = len(openings)
    print(f"{args.engine}: {n} openings, {go}: wall {1000 * wall / n:.1f} ms a move, "
          f"last info {nodes / n:.0f} nodes, depth {depth / n:.1f}; "
          f"engine CPU {usage.ru_utime + usage.ru_stime:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
