#!/usr/bin/env python3
"""A match between two UCI engines from a book of openings, with pyffish as
the arbiter (the move and game-end rules of ../shared/tools/match.py, whose
helpers it uses).

  scripts/strength/bookmatch.py --variant chess --book scripts/strength/books/chess.txt \
      --nodes 20000 --concurrency 2 --a "NEW uci" --b "OLD uci" [--sprt -5,15]

Every opening of the book is played twice, colours swapped (--games caps
the count: 2 × book size by default; more than that goes round the book
again). With --concurrency N, N pairs of engines play side by side. With
--sprt ELO0,ELO1 the match stops once the log-likelihood ratio of "A is
ELO1 stronger" against "A is ELO0 stronger" leaves the bounds of α = β =
0.05 (a normal approximation over the mean score of each opening pair,
whose variance is estimated, so no decision is taken before
--sprt-min-pairs pairs). Last line: 'score A: x/n (Elo diff ± err) failures f'
as match.py prints it, preceded by W/D/L and the LLR.

With --log FILE, every game appends one tab-separated line to FILE: game
number, A's colour (w/b), A's score, plies, how it ended (see `ending`),
the opening and the moves after it, in UCI: losses can then be counted by
ending and replayed.
"""
import argparse
import math
import os
import queue
import sys
import threading

import pyffish as sf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The project's shared/ folder: CHESSPLAYX_SHARED, else beside the checkout (or
# beside its parent, for a git worktree one folder further down).
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from match import elo, parse_opts, result_of, start  # noqa: E402
from uci import UciError  # noqa: E402


def read_book(path):
    with open(path) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def llr(scores, elo0, elo1):
    """Log-likelihood ratio of elo1 against elo0 for per-pair mean scores."""
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def ending(variant, fen, moves):
    """How a finished game ended, in the order result_of judges it:
    "no-legal-move" (mate or stalemate), "immediate" (pyffish's
    is_immediate_game_end, e.g. a variant win), "optional" (its
    is_optional_game_end: repetition, including Xiangqi's perpetual check
    and chase, or the move rule), with ":win"/":loss"/":draw" for the side
    to move appended so a judged repetition stands out from a drawn one."""
    if not sf.legal_moves(variant, fen, moves):
        kind, value = "no-legal-move", sf.game_result(variant, fen, moves)
    else:
        ended, value = sf.is_immediate_game_end(variant, fen, moves)
        kind = "immediate"
        if not ended:
            ended, value = sf.is_optional_game_end(variant, fen, moves)
            kind = "optional" if ended else "none"
    return f"{kind}:{'draw' if value == 0 else 'win' if value > 0 else 'loss'}"


def play(engines, a, white, opening, go):
    """One game; returns (A's score, plies, note, failed side or None, how it
    ended, the moves).
    `go` maps each side ("A", "B") to its `go` command."""
    black = "B" if white == "A" else "A"
    fen = sf.start_fen(a.variant)
    for e in engines.values():
        e.send("ucinewgame")
    moves = list(opening)
    # The arbiter replays only the moves since the last capture or pawn
    # move (the position then, as a FEN, is `base`): nothing before it can
    # repeat, and its FEN carries the move-rule counter. Replaying the whole
    # game five times a ply made pyffish, not the engines, the cost of a
    # match at a few thousand nodes a move.
    base, tail = fen, list(moves)

    def rebase():
        nonlocal base, tail
        now = sf.get_fen(a.variant, base, tail)
        if now.split()[-2] == "0":
            base, tail = now, []

    rebase()
    res = result_of(a.variant, base, tail)
    note, failed = "", None
    while res is None and len(moves) < a.max_plies:
        side = white if len(moves) % 2 == 0 else black
        try:
            mv = engines[side].bestmove(a.variant, fen, moves, go[side],
                                        timeout=max(60.0, a.movetime / 100))
        except UciError as e:
            note, failed = f"{side} failed: {e}", side
            res = 0.0 if side == white else 1.0
            break
        if mv not in sf.legal_moves(a.variant, base, tail):
            note, failed = f"{side} played illegal {mv}", side
            res = 0.0 if side == white else 1.0
            break
        moves.append(mv)
        tail.append(mv)
        rebase()
        res = result_of(a.variant, base, tail)
    if failed:
        how = "failure"
    elif res is None:
        res, note, how = 0.5, "max plies", "max-plies"
    else:
        how = ending(a.variant, base, tail)
    return (res if white == "A" else 1 - res), len(moves), note, failed, how, moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True)
    ap.add_argument("--book", required=True)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--a-opt", action="append")
    ap.add_argument("--b-opt", action="append")
    ap.add_argument("--games", type=int, default=0, help="default: 2 × book size")
    ap.add_argument("--movetime", type=int, default=100, help="ms per move")
    ap.add_argument("--nodes", type=int, default=0, help="use go nodes N instead of movetime")
    # One side's own limits, e.g. a level-8 engine capped at N nodes against
    # a level playing by its caps: a candidate level row tried without a build.
    ap.add_argument("--a-go", default="", help="A's go arguments (default: --nodes/--movetime)")
    ap.add_argument("--b-go", default="", help="B's go arguments (default: --nodes/--movetime)")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--sprt", default="", help="ELO0,ELO1")
    ap.add_argument("--sprt-min-pairs", type=int, default=40,
                    help="no SPRT decision before this many pairs: the variance is estimated")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--log", default="", help="append one line per game to this file")
    a = ap.parse_args()

    book = read_book(a.book)
    games = a.games or 2 * len(book)
    pairs = (games + 1) // 2
    common = f"go nodes {a.nodes}" if a.nodes else f"go movetime {a.movetime}"
    go = {"A": f"go {a.a_go}" if a.a_go else common, "B": f"go {a.b_go}" if a.b_go else common}
    sprt = [float(x) for x in a.sprt.split(",")] if a.sprt else None
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    work = queue.Queue()
    for p in range(pairs):
        work.put(p)
    lock = threading.Lock()
    state = {"score": 0.0, "played": 0, "failures": 0, "w": 0, "d": 0, "l": 0,
             "pairs": {}, "done": [], "llr": 0.0, "stop": False}

    def record(pair, g, score, plies, note, a_white, how, opening, moves):
        with lock:
            if a.log:
                with open(a.log, "a") as f:
                    f.write(f"{g + 1}\t{'w' if a_white else 'b'}\t{score}\t{plies}\t{how}\t"
                            f"{' '.join(opening)}\t{' '.join(moves[len(opening):])}\n")
            state["score"] += score
            state["played"] += 1
            state["w" if score == 1 else "d" if score == 0.5 else "l"] += 1
            got = state["pairs"].setdefault(pair, [])
            got.append(score)
            if len(got) == 2:
                state["done"].append(sum(got) / 2)
                if sprt:
                    state["llr"] = llr(state["done"], *sprt)
                    if len(state["done"]) >= a.sprt_min_pairs and not lower < state["llr"] < upper:
                        state["stop"] = True
            if not a.quiet:
                print(f"game {g + 1}: {plies} plies, A scores {score} {note}".rstrip(), flush=True)
            # Progress, off stdout (whose last line is the result).
            print(f"{state['played']} games, A {state['score']}"
                  + (f", LLR {state['llr']:.2f}" if sprt else ""), file=sys.stderr, flush=True)

    def worker():
        engines = {"A": start(a.a, parse_opts(a.a_opt)), "B": start(a.b, parse_opts(a.b_opt))}
        while not state["stop"]:
            try:
                pair = work.get_nowait()
            except queue.Empty:
                break
            opening = book[pair % len(book)]
            for colour in range(2):
                g = 2 * pair + colour
                if g >= games:
                    break
                score, plies, note, failed, how, moves = play(
                    engines, a, "A" if colour == 0 else "B", opening, go)
                if failed:
                    with lock:
                        state["failures"] += 1
                    engines[failed].close()
                    engines[failed] = start(a.a if failed == "A" else a.b,
                                            parse_opts(a.a_opt if failed == "A" else a.b_opt))
                record(pair, g, score, plies, note, colour == 0, how, opening, moves)
        for e in engines.values():
            e.close()

    threads = [threading.Thread(target=worker) for _ in range(max(1, a.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    d, err = elo(state["score"], state["played"])
    print(f"W/D/L {state['w']}/{state['d']}/{state['l']}, pairs {len(state['done'])}"
          + (f", LLR {state['llr']:.2f} ({lower:.2f}, {upper:.2f}) for [{sprt[0]:g}, {sprt[1]:g}]"
             + (" H1 accepted" if state["llr"] >= upper else " H0 accepted" if state["llr"] <= lower
                else "") if sprt else ""))
    print(f"score A: {state['score']}/{state['played']} ({d:+.0f} Elo ± {err:.0f}) "
          f"failures {state['failures']}")
    return 0 if state["failures"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
