#!/usr/bin/env python3
"""Writes san_python_chess.txt: the SAN python-chess gives to every legal
move of a set of positions of standard chess, Horde and Atomic.

Run from this directory with python-chess installed (`pip install chess`):

    python3 gen_san_fixture.py > san_python_chess.txt

Each output line is `variant;fen;uci san,uci san,...` listing ALL legal moves
of the position (so the Rust test also compares the legal-move sets). The
positions are hand-picked cases (disambiguation, pins, promotions, castling,
en passant, mates, exploded kings, a destroyed horde) plus positions from
seeded random playouts. python-chess is the reference: the moves, their
legality and their SAN all come from it.
"""

import random
import sys

import chess
import chess.variant

BOARDS = {
    "chess": chess.Board,
    "horde": chess.variant.HordeBoard,
    "atomic": chess.variant.AtomicBoard,
}

HAND_PICKED = {
    "chess": [
        # Four queens on d3: file, rank and full-square disambiguation.
        "7k/8/8/8/2Q1Q3/8/2Q1Q3/K7 w - - 0 1",
        # Four knights around d4.
        "k7/8/8/1N3N2/8/1N3N2/8/K7 w - - 0 1",
        # Rooks on one rank, rooks on one file.
        "4k3/8/8/8/R6R/8/8/K7 w - - 0 1",
        "7k/R7/8/8/8/8/R7/1K6 w - - 0 1",
        # A pinned knight needs no disambiguation.
        "4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1",
        # Promotions, with capture and check.
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1",
        # Castling both ways, castling with check.
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        # En passant.
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        # Mate in one, and a mate by promotion.
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "6k1/P4ppp/8/8/8/8/8/6K1 w - - 0 1",
        # Discovered and double check.
        "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1",
    ],
    "horde": [
        chess.variant.HordeBoard.starting_fen,
        # Black takes the last white piece (a pawn, then a knight).
        "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1",
        "4k3/8/8/8/8/8/3q4/4N3 b - - 0 1",
        # White mates Black with a queen, and by promotion.
        "6k1/5ppp/8/8/8/8/8/Q7 w - - 0 1",
        "6k1/P4ppp/8/8/8/8/8/8 w - - 0 1",
        # Pawns on rank 1 (two-step) and rank 2.
        "rnbqkbnr/pppppppp/8/8/8/8/1P6/P1P5 w kq - 0 1",
        # Black castles.
        "r3k2r/8/8/8/8/8/PPPPPPPP/PPPPPPPP b kq - 0 1",
    ],
    "atomic": [
        chess.variant.AtomicBoard.starting_fen,
        # Capturing next to the enemy king explodes it.
        "4k3/4q3/8/8/8/8/4Q3/4K3 w - - 0 1",
        "3k4/3n4/8/8/8/8/8/3QK3 w - - 0 1",
        # Kings touching: no check.
        "8/8/8/3kK3/8/8/8/7R w - - 0 1",
        # En passant that explodes.
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        # Castling, promotion.
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    ],
}


def line(variant, board):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    pairs = ",".join(f"{m.uci()} {board.san(m)}" for m in moves)
    return f"{variant};{board.fen()};{pairs}"


def playout_positions(variant, rng, games, every):
    """Positions of random games, one every `every` plies."""
    out = []
    for _ in range(games):
        board = BOARDS[variant]()
        ply = 0
        while not board.is_game_over() and ply < 400:
            if ply % every == 0:
                out.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
            ply += 1
    return out


def main():
    rng = random.Random(20240517)
    lines = []
    for variant, fens in HAND_PICKED.items():
        for fen in fens:
            board = BOARDS[variant](fen)
            assert board.is_valid(), (variant, fen, board.status())
            lines.append(line(variant, board))
    plan = {"chess": (6, 9), "horde": (4, 9), "atomic": (10, 3)}
    for variant, (games, every) in plan.items():
        for board in playout_positions(variant, rng, games, every):
            if any(board.legal_moves):
                lines.append(line(variant, board))
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
