#!/usr/bin/env python3
"""Are level 8's middle-game errors search or judgement? For each move of
player A that `swings.py` charged with a drop of at least --min-drop cp
(middle game, before A's game was judged lost), it sets up the position
and asks: which move does A's engine choose at the match's nodes, and at
--deep times as many; which does the reference choose at the match's
nodes? A judge (the reference at --judge-nodes) scores each choice, and
the script reports how often each avoids the error (drops less than half
of it) and their mean drop.

If more nodes let A's engine avoid most errors, they are errors of search
depth; if not, while the reference at the match's nodes avoids them, A's
evaluation misjudges those positions (or its search has a blind spot
that depth does not cure). Chess only.

    scripts/strength/errors.py --log base-15000.log --swings swings-base15.json --nodes 15000 \\
        --engine "strength-bin/chessplayx uci" --opt Level=8 --reference strength-bin/fsf/fairy-stockfish
"""
import argparse
import json
import sys

import chess
import chess.engine

from swings import judge_score, parse_log


def open_engine(command, opts):
    eng = chess.engine.SimpleEngine.popen_uci(command.split())
    for o in opts:
        name, _, value = o.partition("=")
        eng.configure({name: value})
    return eng


def error_positions(log, swings, min_drop, side):
    """(board, the move played, its drop) for every error charged to
    `side` ("A" or "B")."""
    games = parse_log(log)
    with open(swings) as f:
        data = json.load(f)
    out = []
    for game, res in zip(games, data):
        _colour, score, opening, moves = game
        end = res["lost_at"] if score == 0.0 and res["lost_at"] else len(moves)
        board = chess.Board()
        for m in opening:
            board.push_uci(m)
        for i, m in enumerate(moves[:end]):
            is_a, ph, drop = res["moves"][i]
            if is_a == (side == "A") and ph == "middle" and drop >= min_drop:
                out.append((board.copy(), m, drop))
            board.push_uci(m)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True)
    ap.add_argument("--swings", required=True)
    ap.add_argument("--nodes", type=int, required=True, help="the match's nodes a move")
    ap.add_argument("--deep", type=int, default=10, help="A's engine again at this many times the nodes")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--reference", required=True)
    ap.add_argument("--ref-opt", action="append", help="default: Threads=1, Hash=16, Use NNUE=false")
    ap.add_argument("--judge", help="the engine that scores the choices (default: --reference)")
    ap.add_argument("--judge-nodes", type=int, default=100_000)
    ap.add_argument("--min-drop", type=int, default=100)
    ap.add_argument("--quick", action="store_true",
                    help="only A's engine at the match's nodes: a build's errors replayed by another build")
    ap.add_argument("--side", choices=("A", "B"), default="A",
                    help="whose errors: B's (the log's opponent) with --engine the opponent's engine, "
                    "so that its errors are replayed by itself and by --reference")
    args = ap.parse_args()
    positions = error_positions(args.log, args.swings, args.min_drop, args.side)
    a = open_engine(args.engine, args.opt)
    ref = open_engine(args.reference, args.ref_opt or ["Threads=1", "Hash=16", "Use NNUE=false"])
    judge = open_engine(args.judge or args.reference, ["Threads=1", "Hash=64", "Use NNUE=false"])
    rows = {"A in the game": [], "A again": []}
    if not args.quick:
        rows.update({f"A at {args.deep}x": [], "reference": []})
    for n, (board, game_move, _drop) in enumerate(positions, 1):
        picks = {
            "A in the game": chess.Move.from_uci(game_move),
            "A again": a.play(board, chess.engine.Limit(nodes=args.nodes), game=object()).move,
        }
        if not args.quick:
            deep = chess.engine.Limit(nodes=args.nodes * args.deep)
            picks[f"A at {args.deep}x"] = a.play(board, deep, game=object()).move
            picks["reference"] = ref.play(board, chess.engine.Limit(nodes=args.nodes), game=object()).move
        sign = 1 if board.turn == chess.WHITE else -1
        best = sign * judge_score(judge, board, args.judge_nodes)
        for name, mv in picks.items():
            after = board.copy()
            after.push(mv)
            drop = max(0, min(500, best - sign * judge_score(judge, after, args.judge_nodes)))
            rows[name].append(drop)
        print(f"{n}/{len(positions)} positions", file=sys.stderr, flush=True)
    for e in (a, ref, judge):
        e.quit()
    first = rows["A in the game"]  # "A": the engine under test
    print(f"{len(first)} positions where {args.side}'s game move dropped >= {args.min_drop} cp (middle game, before lost)")
    print(f"{'chooser':16} {'mean drop':>9}  avoids (drops less than half the game move)")
    for name, drops in rows.items():
        avoided = sum(1 for d, g in zip(drops, first) if d < g / 2)
        print(f"{name:16} {sum(drops) / len(drops):9.1f} {avoided:6d} ({100 * avoided / len(drops):.0f}%)")


if __name__ == "__main__":
    sys.exit(main())
