#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Move regret against an oracle: a quick, low-noise screen of a search
change at fixed nodes, before games.

Games against the reference resolve about ±60 Elo in an hour; a change
worth 10-20 Elo cannot be seen there. This script instead takes chess
positions from bookmatch logs (those where player A was to move), lets
the engine under test pick a move at a fixed node count, and asks an
oracle (Fairy-Stockfish at a fixed depth, far deeper than the test
search) how much worse that move is than its own best: the regret, in
centipawns, capped at --cap. Two runs on the same positions are compared
position by position (--against), so only the positions where the moves
differ carry noise.

Finding (session 27, docs/strength-search-session-27.md): this does NOT
predict games. Changes that lose games against the reference (ProbCut
off, steeper reductions) score as fewer errors here, and so does the
same build at 19,000 or 21,000 nodes: a few positions where the
baseline's move is far off flip under almost any change. Use it to look
at positions, not to accept or reject a change.

The oracle's answers are cached (--cache, JSON keyed by FEN, depth and
move), so a second candidate costs only the positions where it moves
differently. Everything is deterministic: fixed nodes, fixed depth,
`ucinewgame` before every position, one thread.

    python3 scripts/strength/regret.py --logs base-15000.log base-20000.log \\
        --engine "target/release/chessplayx uci" --opt Level=8 \\
        --opt "LevelRow=engine=full hash=32 switches=5734511" --nodes 20000 \\
        --oracle strength-bin/fsf/fairy-stockfish --depth 14 \\
        --cache regret-cache.json --out base.json [--against other.json]
"""

import argparse
import json
import math
import os
import sys

import chess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from uci import Uci  # noqa: E402


def start(command, opts):
    """The shared tools' UCI client with `opts` set."""
    eng = Uci(command, timeout=600)
    for name, value in opts:
        eng.send(f"setoption name {name} value {value}")
    eng.ready()
    return eng


def go(eng, fen, go_args):
    """(best move, last exact score in centipawns or None), from a fresh
    game so that no table carries over from the previous position."""
    eng.send("ucinewgame")
    eng.ready()
    eng.position(fen)
    eng.send(f"go {go_args}")
    lines = eng.read_until(lambda l: l.startswith("bestmove"))
    score = None
    for line in lines:
        w = line.split()
        if "score" in w and "upperbound" not in w and "lowerbound" not in w:
            i = w.index("score")
            kind, value = w[i + 1], int(w[i + 2])
            score = value if kind == "cp" else (100_000 - abs(value)) * (1 if value > 0 else -1)
    return lines[-1].split()[1], score


def positions(logs, every, max_ply, limit):
    """FENs where player A is to move, sampled from bookmatch logs."""
    seen, out = set(), []
    for log in logs:
        for line in open(log):
            f = line.rstrip("\n").split("\t")
            if len(f) < 7:
                continue
            a_white = f[1] == "w"
            board = chess.Board()
            for m in f[5].split():
                board.push_uci(m)
            own = 0
            for ply, m in enumerate(f[6].split()):
                if ply >= max_ply:
                    break
                if board.turn == (chess.WHITE if a_white else chess.BLACK):
                    if own % every == 0 and not board.is_game_over():
                        fen = board.fen()
                        key = " ".join(fen.split()[:4])
                        if key not in seen:
                            seen.add(key)
                            out.append(fen)
                    own += 1
                board.push_uci(m)
    step = max(1, len(out) // limit) if limit else 1
    return out[::step][:limit] if limit else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--logs", nargs="+", required=True)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--against")
    ap.add_argument("--every", type=int, default=3, help="every n-th own move")
    ap.add_argument("--max-ply", type=int, default=120)
    ap.add_argument("--limit", type=int, default=600)
    ap.add_argument("--cap", type=int, default=400)
    args = ap.parse_args()

    cache = json.load(open(args.cache)) if os.path.exists(args.cache) else {}
    fens = positions(args.logs, args.every, args.max_ply, args.limit)
    opts = [tuple(o.split("=", 1)) for o in args.opt]
    engine = start(args.engine, opts)
    oracle = start(args.oracle, [("Threads", "1"), ("Hash", "64"), ("Use NNUE", "false")])

    def oracle_score(fen, move):
        key = f"{fen}|{args.depth}|{move or '*'}"
        if key not in cache:
            go_args = f"depth {args.depth}" + (f" searchmoves {move}" if move else "")
            best, score = go(oracle, fen, go_args)
            cache[key] = [best, score]
        return cache[key]

    results = {}
    for n, fen in enumerate(fens):
        move, _ = go(engine, fen, f"nodes {args.nodes}")
        best, best_score = oracle_score(fen, None)
        if move == best or best_score is None:
            regret = 0
        else:
            _, s = oracle_score(fen, move)
            regret = 0 if s is None else min(args.cap, max(0, best_score - s))
        results[fen] = {"move": move, "regret": regret}
        if n % 50 == 49:
            json.dump(cache, open(args.cache, "w"))
            print(f"{n + 1}/{len(fens)}", file=sys.stderr, flush=True)
    engine.close()
    oracle.close()
    json.dump(cache, open(args.cache, "w"))
    json.dump(results, open(args.out, "w"), indent=0)

    regrets = [r["regret"] for r in results.values()]
    agree = sum(1 for fen, r in results.items() if r["regret"] == 0)
    print(f"positions {len(regrets)}: mean regret {sum(regrets) / len(regrets):.2f} cp, "
          f"{agree} with no regret")
    if args.against:
        other = json.load(open(args.against))
        d = [r["regret"] - other[f]["regret"] for f, r in results.items() if f in other]
        differ = sum(1 for f, r in results.items() if f in other and r["move"] != other[f]["move"])
        mean = sum(d) / len(d)
        var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
        se = math.sqrt(var / len(d))
        z = mean / se if se > 0 else 0.0
        print(f"against {args.against}: {len(d)} positions, {differ} other moves, "
              f"regret {mean:+.2f} ± {se:.2f} cp a position, z {z:+.2f} (negative: fewer errors)")


if __name__ == "__main__":
    main()
