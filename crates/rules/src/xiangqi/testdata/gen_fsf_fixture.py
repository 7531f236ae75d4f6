#!/usr/bin/env python3
"""Writes fsf_positions.txt: positions from seeded random playouts, each with
every legal move as Fairy-Stockfish (pyffish) generates it and its WXF text.

    python3 gen_fsf_fixture.py > fsf_positions.txt

Line format: <fen>;<uci> <wxf>,<uci> <wxf>,...   (moves sorted by uci)
The Rust test xiangqi_fsf.rs compares our move generation, FEN output and
WXF against these lines, so the test needs no Python at run time.
"""
import random

import pyffish as sf

V = "xiangqi"
WXF = sf.NOTATION_XIANGQI_WXF
STARTS = [
    sf.start_fen(V),
    # Tandem pieces and soldiers on shared files, for the WXF rules.
    "3k5/9/9/9/9/9/9/4C4/4C4/4K4 w - - 0 1",
    "3k5/9/4n4/9/4n4/9/9/9/9/4K4 b - - 0 1",
    "3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1",
    "5k3/9/9/9/9/4p4/2p1p4/2p6/9/3K5 b - - 0 1",
    "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/2P6/2P3P2/6P2/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/2H6/9/2H6/9/4K4 w - - 0 1",
    "4k4/4a4/5a3/9/9/9/9/9/9/3K5 b - - 0 1",
    "2bakab2/9/9/9/2p1p1p2/2P1P1P2/9/9/9/2BAKAB2 w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 0 1",
]


def main():
    rng = random.Random(20240611)
    seen = set()
    out = []
    for start in STARTS:
        for _ in range(3 if start != STARTS[0] else 10):
            moves = []
            for ply in range(rng.randrange(20, 160)):
                fen = sf.get_fen(V, start, moves)
                legal = sorted(sf.legal_moves(V, fen, []))
                if ply % 4 == 0 and fen not in seen:
                    seen.add(fen)
                    items = [f"{m} {sf.get_san(V, fen, m, False, WXF)}" for m in legal]
                    out.append(f"{fen};{','.join(items)}")
                if not legal:
                    break
                moves.append(rng.choice(legal))
    print("\n".join(out))


if __name__ == "__main__":
    main()
