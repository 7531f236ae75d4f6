#!/usr/bin/env python3
"""Where a match's games are lost: the reference's evaluation after every
ply of every game of a `bookmatch.py` log, and the drops each side's moves
cause, by phase of the game.

For each game it replays the opening and the game's moves, asks a judge
engine (the reference, at fixed nodes) for the score after every ply, and
charges each move with the drop it causes from its mover's point of view
(the score before the move less the score after it, from the mover's
side, capped at 500 cp; gains count 0). It prints, for player A (the
log's engine) and its opponent:

- the total and mean drop a move, by phase (opening plies after the book
  up to 20, middle game, ending: at most 13 points of non-pawn material a
  side in pawn units, queens 9, rooks 5, minor pieces 3);
- how many moves drop 100 cp or more ("errors") and 300 or more
  ("blunders"), by phase;
- the ply where each lost game was first judged lost (A below −300).

A side that loses by many small drops loses on judgement (evaluation);
one that loses by a few large ones loses on tactics (search). Chess only.

    scripts/strength/swings.py --log base-15000.log --judge strength-bin/fsf/fairy-stockfish \\
        --nodes 40000 --out swings.json
"""
import argparse
import json
import os
import sys

import chess
import chess.engine

CAP = 500
VALUES = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def phase(board, ply_after_book):
    """'opening', 'middle' or 'ending' for the position before a move."""
    def pieces(color):
        return sum(v * len(board.pieces(p, color)) for p, v in VALUES.items())
    if max(pieces(chess.WHITE), pieces(chess.BLACK)) <= 13:
        return "ending"
    return "opening" if ply_after_book < 20 else "middle"


def judge_score(engine, board, nodes):
    """The judge's score of `board` for White, in centipawns (mates ±10,000)."""
    if board.is_game_over(claim_draw=False):
        outcome = board.outcome(claim_draw=False)
        if outcome.winner is None:
            return 0
        return 10_000 if outcome.winner == chess.WHITE else -10_000
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    return info["score"].white().score(mate_score=10_000)


def parse_log(path):
    """Games of a bookmatch log: (A's colour, A's score, opening, moves)."""
    games = []
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 7:
                continue
            games.append((cols[1], float(cols[2]), cols[5].split(), cols[6].split()))
    return games


def analyse_game(engine, game, nodes):
    """Per move: (mover is A, phase, drop in cp), and the ply A was judged lost."""
    a_colour, _, opening, moves = game
    board = chess.Board()
    for m in opening:
        board.push_uci(m)
    a_white = a_colour == "w"
    before = judge_score(engine, board, nodes)
    out = []
    lost_at = None
    for i, m in enumerate(moves):
        mover_white = board.turn == chess.WHITE
        ph = phase(board, i)
        board.push_uci(m)
        after = judge_score(engine, board, nodes)
        sign = 1 if mover_white else -1
        drop = max(0, min(CAP, sign * (before - after)))
        out.append((mover_white == a_white, ph, drop))
        a_score = after if a_white else -after
        if lost_at is None and a_score < -300:
            lost_at = i + 1
        before = after
    return out, lost_at


def summarise(results):
    """Totals by side and phase."""
    table = {}
    for moves, _lost_at, _score in results:
        for is_a, ph, drop in moves:
            t = table.setdefault(("A" if is_a else "B", ph), [0, 0, 0, 0])
            t[0] += 1
            t[1] += drop
            t[2] += drop >= 100
            t[3] += drop >= 300
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True, nargs="+")
    ap.add_argument("--judge", required=True, help="a UCI engine (the reference)")
    ap.add_argument("--judge-opt", action="append", default=["Threads=1", "Hash=64", "Use NNUE=false"])
    ap.add_argument("--nodes", type=int, default=40_000)
    ap.add_argument("--out", help="per-game results as JSON")
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.judge)
    for o in args.judge_opt:
        name, _, value = o.partition("=")
        engine.configure({name: value})
    results = []
    games = [g for path in args.log for g in parse_log(path)]
    for n, game in enumerate(games, 1):
        moves, lost_at = analyse_game(engine, game, args.nodes)
        results.append((moves, lost_at, game[1]))
        print(f"{n}/{len(games)} games", file=sys.stderr, flush=True)
    engine.quit()
    table = summarise(results)
    print(f"{'side':4} {'phase':8} {'moves':>6} {'drop/move':>9} {'>=100':>6} {'>=300':>6} {'total':>8}")
    for side in ("A", "B"):
        for ph in ("opening", "middle", "ending"):
            t = table.get((side, ph), [0, 0, 0, 0])
            mean = t[1] / t[0] if t[0] else 0.0
            print(f"{side:4} {ph:8} {t[0]:6d} {mean:9.1f} {t[2]:6d} {t[3]:6d} {t[1]:8d}")
    lost = sorted(la for _, la, s in results if s == 0.0 and la is not None)
    if lost:
        print(f"lost games: {len(lost)}; judged lost at ply (after the book) median {lost[len(lost) // 2]}, "
              f"quartiles {lost[len(lost) // 4]}–{lost[3 * len(lost) // 4]}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump([{"moves": m, "lost_at": la, "score": s} for m, la, s in results], f)


if __name__ == "__main__":
    sys.exit(main())
