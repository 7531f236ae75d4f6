#!/usr/bin/env python3
"""Search speed, ours against Fairy-Stockfish, on the same positions.

Each position (those of `chessplayx bench`) is searched by each engine for
the same move time, one engine after the other, single thread, 16 MiB
hash; the nodes per second are the engines' own last `info ... nps`.
Debian's Fairy-Stockfish has no Atomic, so Atomic is ours alone.

Usage: scripts/strength/nps.py [--movetime MS] [--ours CMD] [--fsf PATH]
"""
import argparse
import os
import subprocess
import sys

# The positions of crates/engine/src/bench.rs.
POSITIONS = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20"),
    ("chess", "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 w - - 0 40"),
    ("horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    ("horde", "r1bqkb1r/pp1p1ppp/2n1pn2/1Pp1P1P1/P1PP1P1P/PP1PPP1P/1PPPPPPP/PPPPPPPP b kq - 0 6"),
    ("horde", "4k3/2r5/8/1P1P1P2/PPPPPPP1/1PPPPP2/8/8 b - - 0 30"),
    ("atomic", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("atomic", "r1bqkb1r/pppppppp/2n2n2/8/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 3 3"),
    ("atomic", "4k3/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R3K2R w KQ - 0 15"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("xiangqi", "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 4"),
    ("xiangqi", "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RAK4 w - - 0 40"),
]


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
    for variant, fen in POSITIONS:
        ours = nps(a.ours, variant, fen, a.movetime)
        theirs = nps(a.fsf, variant, fen, a.movetime) if variant != "atomic" else None
        ratio = f"{ours / theirs:.2f}" if ours and theirs else "—"
        print(f"| {variant} | `{fen}` | {ours // 1000 if ours else '—'} | "
              f"{theirs // 1000 if theirs else '—'} | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
