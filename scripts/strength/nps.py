#!/usr/bin/env python3
"""Search speed, ours against Fairy-Stockfish, on the same positions.

Each position of `chessplayx bench` (read from its own output) is searched by each engine for
the same move time, one engine after the other, single thread, 16 MiB
hash; the nodes per second are the engines' own last `info ... nps`.
Debian's Fairy-Stockfish has no Atomic, so Atomic is ours alone.

Usage: scripts/strength/nps.py [--movetime MS] [--ours CMD] [--fsf PATH]
"""
import argparse
import os
import subprocess
import sys

def bench_positions(ours):
    """The positions of `chessplayx bench`, as it prints them (a depth-1 run)."""
    binary = ours.split()[0]
    out = subprocess.run([binary, "bench", "search", "--depth", "1"],
                         capture_output=True, text=True, check=True).stdout
    positions = []
    for line in out.splitlines()[1:]:
        words = line.split()
        if len(words) >= 6 and words[0] in ("chess", "horde", "atomic", "xiangqi"):
            positions.append((words[0], " ".join(words[5:])))
    if not positions:
        sys.exit("no positions in the output of `chessplayx bench search`")
    return positions


def nps(cmd, variant, fen, movetime):
    """The engine's last reported nodes per second after `go movetime`."""
    script = (
        "uci\nsetoption name Hash value 16\n"
        f"setoption name UCI_Variant value {variant}\nisready\nucinewgame\n"
        f"position fen {fen}\ngo movetime {movetime}\n"
    )
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(script)
    p.stdin.flush()
    last = None
    for line in p.stdout:
        words = line.split()
        if "nps" in words:
            last = int(words[words.index("nps") + 1])
        if words and words[0] == "bestmove":
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait(timeout=10)
    return last


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser()
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--ours", default=os.path.join(root, "target/release/chessplayx") + " uci")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    print("| variant | position | ours (knps) | Fairy-Stockfish (knps) | ratio |")
    print("|---|---|---:|---:|---:|")
    for variant, fen in bench_positions(a.ours):
        ours = nps(a.ours, variant, fen, a.movetime)
        theirs = nps(a.fsf, variant, fen, a.movetime) if variant != "atomic" else None
        ratio = f"{ours / theirs:.2f}" if ours and theirs else "—"
        print(f"| {variant} | `{fen}` | {ours // 1000 if ours else '—'} | "
              f"{theirs // 1000 if theirs else '—'} | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
