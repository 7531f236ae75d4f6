#!/usr/bin/env python3
"""How an engine uses a fixed move time or a fixed node count.

For each of the first N openings of a book it sends `ucinewgame`,
`position startpos moves ...` and `go movetime T` (or `go nodes N`), and
prints the mean wall time from `go` to `bestmove`, the nodes and depth of
the last `info` line, and the CPU time the engine used (two builds that
search the same tree compare by it; run them alternately, since the VM's
speed drifts).

    scripts/strength/movetime.py --engine "strength-bin/chessplayx uci" --opt Level=8 --movetime 100
    scripts/strength/movetime.py --engine strength-bin/fsf/fairy-stockfish --opt "Use NNUE=false" --nodes 300000
"""
import argparse
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


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
    proc = subprocess.Popen(args.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s: str) -> None:
        proc.stdin.write(s + "\n")
        proc.stdin.flush()

    def until(prefix: str) -> list[str]:
        out = []
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"the engine stopped before {prefix!r}")
            out.append(line.strip())
            if line.startswith(prefix):
                return out

    send("uci")
    until("uciok")
    for opt in args.opt:
        name, _, value = opt.partition("=")
        send(f"setoption name {name} value {value}")
    go = f"go movetime {args.movetime}" if args.movetime else f"go nodes {args.nodes}"
    wall, nodes, depth = 0.0, 0, 0
    for moves in openings:
        send("ucinewgame")
        send(f"position startpos moves {moves}")
        send("isready")
        until("readyok")
        start = time.monotonic()
        send(go)
        out = until("bestmove")
        wall += time.monotonic() - start
        info = [l.split() for l in out if l.startswith("info") and " nodes " in l]
        if info:
            nodes += int(info[-1][info[-1].index("nodes") + 1])
            depth += int(info[-1][info[-1].index("depth") + 1])
    send("quit")
    proc.wait()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    n = len(openings)
    print(f"{args.engine}: {n} openings, {go}: wall {1000 * wall / n:.1f} ms a move, "
          f"last info {nodes / n:.0f} nodes, depth {depth / n:.1f}; "
          f"engine CPU {usage.ru_utime + usage.ru_stime:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
