#!/usr/bin/env python3
"""Writes pgn_python_chess.txt: games of standard chess, Horde and Atomic
with the PGN python-chess exports for them, for the Rust test to compare
`ChessGame::pgn` with byte for byte.

Run from this directory with python-chess installed (`pip install chess`):

    python3 gen_pgn_fixture.py > pgn_python_chess.txt

Moves come from seeded random playouts with python-chess (plus a few fixed
games). Each game ends where chessplayx's rules end it; those rules are
written here again with python-chess's own primitives (mate, stalemate,
variant end, fivefold repetition, 75 moves; insufficient material as
docs/rules say: never in Horde, bare kings only in Atomic), and the Rust
test checks the record reaches the same outcome.

The PGN is built by python-chess: the tags in chessplayx's order (the
Seven Tag Roster, Variant, FEN and SetUp when the start is not the standard
chess position, Termination, the caller's other tags), the moves, a comment
naming the end reason after the last move, and the result, exported with
python-chess's StringExporter at 80 columns. Each exported text is read
back with chess.pgn.read_game and must give the same moves.

Record format, one block per game:

    game <variant>
    fen <start fen>
    moves <uci> <uci> ...
    claim <threefold_repetition|fifty_moves|->
    tags <Name=Value;Name=Value...>   (or -)
    outcome <white|black|draw|none> <reason|->
    pgn
    <the PGN lines>
    end
"""

import io
import random
import sys

import chess
import chess.pgn
import chess.variant

BOARDS = {
    "chess": chess.Board,
    "horde": chess.variant.HordeBoard,
    "atomic": chess.variant.AtomicBoard,
}
PGN_NAMES = {"chess": "Standard", "horde": "Horde", "atomic": "Atomic"}
STANDARD_START = chess.STARTING_FEN


def outcome(variant, board):
    """(winner, reason) as chessplayx ends the game, or None."""
    if board.is_variant_loss():
        reason = "horde_destroyed" if variant == "horde" else "king_exploded"
        return ("black" if board.turn == chess.WHITE else "white", reason)
    if not any(board.legal_moves):
        if board.is_check():
            return ("black" if board.turn == chess.WHITE else "white", "checkmate")
        return ("draw", "stalemate")
    if variant == "chess" and board.is_insufficient_material():
        return ("draw", "insufficient_material")
    if variant == "atomic" and board.occupied == board.kings:
        return ("draw", "insufficient_material")
    if board.is_fivefold_repetition():
        return ("draw", "fivefold_repetition")
    if board.halfmove_clock >= 150:
        return ("draw", "seventy_five_moves")
    return None


def play(variant, fen, ucis):
    board = BOARDS[variant](fen)
    for uci in ucis:
        assert outcome(variant, board) is None, (variant, fen, uci)
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (variant, fen, uci)
        board.push(move)
    return board


def random_game(variant, fen, rng, max_plies):
    board = BOARDS[variant](fen)
    ucis = []
    while outcome(variant, board) is None and len(ucis) < max_plies:
        move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
        board.push(move)
        ucis.append(move.uci())
    return ucis


def export(variant, fen, ucis, claim, tags):
    board = play(variant, fen, ucis)
    end = outcome(variant, board)
    if claim != "-":
        assert end is None
        end = ("draw", claim)
    result = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}[end[0]] if end else "*"
    game = chess.pgn.Game()
    user = dict(tags)
    for name in ["Event", "Site", "Date", "Round", "White", "Black"]:
        if name in user:
            game.headers[name] = user[name]
    game.headers["Result"] = user.get("Result", result)
    game.headers["Variant"] = PGN_NAMES[variant]
    if fen != STANDARD_START:
        game.headers["FEN"] = fen
        game.headers["SetUp"] = "1"
    over = end is not None or user.get("Result", "*") != "*"
    game.headers["Termination"] = user.get("Termination", "Normal" if over else "Unterminated")
    for name, value in tags:
        if name not in game.headers:
            game.headers[name] = value
    node = game
    for uci in ucis:
        node = node.add_variation(chess.Move.from_uci(uci))
    if end is not None:
        node.comment = end[1]
    text = game.accept(chess.pgn.StringExporter(columns=80))

    back = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in back.mainline_moves()] == ucis, (variant, fen)
    assert back.headers.get("Variant") == PGN_NAMES[variant]
    return end, text


def main():
    rng = random.Random(77)
    games = []  # (variant, fen, ucis, claim, tags)
    for variant, count in [("chess", 6), ("horde", 4), ("atomic", 6)]:
        start = BOARDS[variant].starting_fen
        for _ in range(count):
            games.append((variant, start, random_game(variant, start, rng, 3000), "-", []))
        # An unfinished game.
        games.append((variant, start, random_game(variant, start, rng, 31), "-", []))
    # Black to move first, from a set-up position, with tags.
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    tags = [("Event", "Casual game"), ("White", "Alice"), ("Black", "chessplayx level 3"),
            ("Date", "2024.05.17"), ("TimeControl", "300+3")]
    games.append(("chess", fen, random_game("chess", fen, rng, 60), "-", tags))
    fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 30"
    games.append(("atomic", fen, random_game("atomic", fen, rng, 200), "-", []))
    # Fool's mate, fivefold repetition, a claimed threefold, a destroyed horde,
    # a resignation.
    start = chess.STARTING_FEN
    games.append(("chess", start, ["f2f3", "e7e5", "g2g4", "d8h4"], "-", []))
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    games.append(("chess", start, shuffle * 4, "-", []))
    games.append(("atomic", start, ["e2e4"] + ["g8f6", "g1f3", "f6g8", "f3g1"] * 2,
                  "threefold_repetition", []))
    games.append(("horde", "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", ["d2e1"], "-", []))
    games.append(("horde", chess.variant.HordeBoard.starting_fen, ["d4d5", "e7e6"], "-",
                  [("Result", "0-1"), ("Termination", "Normal")]))

    out = []
    for variant, fen, ucis, claim, tags in games:
        end, text = export(variant, fen, ucis, claim, tags)
        out.append(f"game {variant}")
        out.append(f"fen {fen}")
        out.append("moves " + " ".join(ucis))
        out.append(f"claim {claim}")
        out.append("tags " + (";".join(f"{n}={v}" for n, v in tags) if tags else "-"))
        if end is None:
            out.append("outcome none -")
        else:
            out.append(f"outcome {end[0]} {end[1]}")
        out.append("pgn")
        out.append(text)
        out.append("end")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
