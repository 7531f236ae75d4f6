#!/usr/bin/env python3
"""Makes a book of balanced openings for one game with our own engine.

  scripts/strength/make-book.py --variant chess --count 60 --seed 1 \
      --engine "target/release/chessplayx uci" > scripts/strength/books/chess.txt

Each candidate is a random short opening (a random number of plies between
--min-plies and --max-plies, every move drawn uniformly among the legal ones
by pyffish, seeded), kept when the position is not over, was not kept
already, and a search of --nodes nodes scores it within ±--max-cp
centipawns. One opening a line: its moves in UCI notation from the game's
start position; lines starting with '#' are comments (the command that made
the file is written there).
"""
import argparse
import os
import random
import shlex
import sys

import pyffish as sf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The project's shared/ folder: CHESSPLAYX_SHARED, else beside the checkout (or
# beside its parent, for a git worktree one folder further down).
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from uci import Uci  # noqa: E402


def score_of(engine, variant, moves, nodes):
    """The search's last reported score in cp for the side to move, or None (mate)."""
    engine.set_variant(variant)
    engine.position("startpos", moves)
    engine.send(f"go nodes {nodes}")
    lines = engine.read_until(lambda l: l.startswith("bestmove"), 120)
    score = None
    for line in lines:
        words = line.split()
        if "score" in words:
            i = words.index("score")
            score = int(words[i + 2]) if words[i + 1] == "cp" else None
    return score


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True)
    ap.add_argument("--engine", default="target/release/chessplayx uci")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--min-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--max-cp", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tries", type=int, default=5000)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    fen = sf.start_fen(a.variant)
    engine = Uci(a.engine)
    kept, seen = [], set()
    print("# made by: scripts/strength/make-book.py " + " ".join(shlex.quote(x) for x in sys.argv[1:]))
    for _ in range(a.tries):
        if len(kept) >= a.count:
            break
        moves = []
        for _ in range(rng.randint(a.min_plies, a.max_plies)):
            legal = sf.legal_moves(a.variant, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if not sf.legal_moves(a.variant, fen, moves):
            continue
        ended, _ = sf.is_immediate_game_end(a.variant, fen, moves)
        key = sf.get_fen(a.variant, fen, moves)
        if ended or key in seen:
            continue
        seen.add(key)
        score = score_of(engine, a.variant, moves, a.nodes)
        if score is None or abs(score) > a.max_cp:
            continue
        kept.append(moves)
        print(" ".join(moves), flush=True)
        print(f"kept {len(kept)}: {score:+d} cp", file=sys.stderr)
    engine.close()
    if len(kept) < a.count:
        print(f"only {len(kept)} openings kept", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
