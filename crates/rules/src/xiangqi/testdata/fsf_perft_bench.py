#!/usr/bin/env python3
"""Times Fairy-Stockfish's `go perft` on the positions and depths that
`cargo bench -p chessplayx-rules --bench xiangqi_perft` measured, and checks
that both agree on the node counts.

    cargo bench -p chessplayx-rules --bench xiangqi_perft > /tmp/ours.txt
    python3 fsf_perft_bench.py /tmp/ours.txt [/usr/games/fairy-stockfish]

Best of three wall-clock timings per position, from sending `go perft` to
reading `Nodes searched`, single thread.
"""
import re
import subprocess
import sys
import time
from pathlib import Path


def suite_fens():
    here = Path(__file__).resolve()
    for d in here.parents:
        p = d / "shared/perft/xiangqi.public.epd"
        if p.exists():
            return [l.split(";")[0].strip() for l in p.read_text().splitlines() if l.strip() and not l.startswith("#")]
    sys.exit("shared/perft/xiangqi.public.epd not found")


def main():
    ours_path = sys.argv[1]
    engine = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/fairy-stockfish"
    fens = suite_fens()
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    rows = []
    for line in open(ours_path):
        m = re.match(r"(startpos|suite #(\d+))\s+d(\d+)\s+(\d+) nodes\s+([\d.]+) s\s+([\d.]+) Mnps", line)
        if m:
            fen = start if m.group(1) == "startpos" else fens[int(m.group(2)) - 1]
            rows.append((m.group(1), fen, int(m.group(3)), int(m.group(4)), float(m.group(6))))
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(cmd):
        p.stdin.write(cmd + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("engine exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    send("setoption name UCI_Variant value xiangqi")
    send("setoption name Threads value 1")
    send("isready")
    wait_for("readyok")
    tot_nodes = tot_time = tot_ours = 0.0
    print(f"{'position':<12} {'depth':>5} {'nodes':>12} {'fsf s':>8} {'fsf Mnps':>9} {'ours Mnps':>10}")
    for name, fen, depth, nodes, ours in rows:
        best = float("inf")
        for _ in range(3):
            send(f"position fen {fen}")
            send("isready")
            wait_for("readyok")
            t = time.perf_counter()
            send(f"go perft {depth}")
            got = int(wait_for("Nodes searched").split(":")[1])
            best = min(best, time.perf_counter() - t)
        assert got == nodes, f"{name}: fairy-stockfish {got} != ours {nodes}"
        print(f"{name:<12} {depth:>5} {nodes:>12} {best:>8.3f} {nodes / best / 1e6:>9.1f} {ours:>10.1f}", flush=True)
        if name != "startpos":
            tot_nodes += nodes
            tot_time += best
            tot_ours += nodes / (ours * 1e6)
    print(f"suite total: fsf {tot_nodes / tot_time / 1e6:.1f} Mnps, ours {tot_nodes / tot_ours / 1e6:.1f} Mnps")
    send("quit")


if __name__ == "__main__":
    main()
