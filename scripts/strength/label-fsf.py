#!/usr/bin/env python3
"""Labels positions with a reference engine's search score, for `tune fit`
and `tune train-net` when the games' results are a poor judge (Horde: Black
wins most self-play games whatever the evaluation says).

  scripts/strength/label-fsf.py --variant horde --engine strength-bin/fsf/fairy-stockfish \
      --nodes 50000 --jobs 2 --data target/s9/selfplay.txt --games match.log ... --out FILE

Positions come from `tune gen` files (--data: `<fen>;...` lines) and from
bookmatch.py --log files (--games: every --every-th position after the
opening of each game). Each is searched with `go nodes N` and written as
`<fen>;<cp>;<p>`: cp the reference's score for White (mates as ±MATE_CP),
p = 1 / (1 + 10^(-cp/SCALE)) the win probability the fit compares its own
logistic curve with (the last field is what `tune fit` reads as the
result, the middle one is the network trainer's score target). With
--mix W, p is W × that probability + (1 − W) × the game's result where the
input has one. Duplicate positions (by placement, side and castling) are
labelled once.

With --static the label is the reference's static evaluation (its `eval`
command, classical) instead of a search score: a deterministic function
of the position, so a network can learn it without a search's tactical
noise, and about 20,000 positions a second where `go nodes 5000` labels
a few hundred. Positions in check have no static value and are dropped.
"""
import argparse
import os
import queue
import subprocess
import sys
import threading

import chess
import pyffish as sf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.environ.get("CHESSPLAYX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(os.path.join(d, "tools"))), os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
from uci import Uci  # noqa: E402

MATE_CP = 3000


def key(fen):
    return " ".join(fen.split()[:3])


def from_data(path):
    """(fen, result or None) from a `tune gen` file."""
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(";")
            res = float(parts[-1]) if len(parts) > 1 else None
            yield parts[0].strip(), res


def from_log(path, variant, every):
    """(fen, White's result) every `every` plies of each logged game."""
    startfen = sf.start_fen(variant)
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 7:
                continue
            colour, score = cols[1], float(cols[2])
            white = score if colour == "w" else 1 - score
            opening, moves = cols[5].split(), cols[6].split()
            if variant == "chess":
                # python-chess replays a game hundreds of times faster than
                # pyffish's calls (about 4 ms a position).
                board = chess.Board()
                for m in opening:
                    board.push_uci(m)
                for i, m in enumerate(moves):
                    if i % every == 0 and not board.is_game_over(claim_draw=False):
                        yield board.fen(), white
                    board.push_uci(m)
                continue
            # One ply at a time from the last FEN: replaying every prefix
            # from the start made a long log quadratic.
            fen = sf.get_fen(variant, startfen, opening)
            for i, m in enumerate(moves):
                if i % every == 0 and sf.legal_moves(variant, fen, []):
                    yield fen, white
                fen = sf.get_fen(variant, fen, [m])


def score_of(lines):
    """The last reported score, in centipawns for the side to move."""
    cp = None
    for l in lines:
        t = l.split()
        if "score" in t:
            i = t.index("score")
            kind, v = t[i + 1], int(t[i + 2])
            cp = v if kind == "cp" else (MATE_CP if v > 0 else -MATE_CP)
    return cp


def static_labels(engine, opts, variant, fens, batch=20000):
    """(fen, cp for White or None in check): the reference's `eval` of each
    position, fed in batches through one process per batch (no round trip
    a position)."""
    for i in range(0, len(fens), batch):
        chunk = fens[i : i + batch]
        cmds = ["uci"] + [f"setoption name {n} value {v}" for n, _, v in (o.partition("=") for o in opts)]
        cmds.append(f"setoption name UCI_Variant value {variant}")
        for fen in chunk:
            cmds += [f"position fen {fen}", "eval"]
        cmds.append("quit")
        out = subprocess.run([engine], input="\n".join(cmds) + "\n", capture_output=True, text=True,
                             check=True).stdout
        finals = [l for l in out.splitlines() if l.startswith("Final evaluation")]
        if len(finals) != len(chunk):
            raise SystemExit(f"label-fsf: {len(finals)} evaluations for {len(chunk)} positions")
        for fen, line in zip(chunk, finals):
            # "Final evaluation       +0.08 (white side)", pawns for White;
            # "Final evaluation: none (in check)".
            yield fen, None if "none" in line else round(float(line.split()[2]) * 100)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="horde")
    ap.add_argument("--engine", default=os.path.join(ROOT, "strength-bin/fsf/fairy-stockfish"))
    ap.add_argument("--opt", action="append", default=["Threads=1", "Hash=16", "Use NNUE=false"])
    ap.add_argument("--nodes", type=int, default=50000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--data", action="append", default=[])
    ap.add_argument("--games", action="append", default=[])
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--scale", type=float, default=400.0)
    ap.add_argument("--mix", type=float, default=1.0)
    ap.add_argument("--limit", type=int, default=0, help="label at most this many positions")
    ap.add_argument("--static", action="store_true", help="the reference's static evaluation, not a search")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    seen, todo = set(), []
    sources = [from_data(p) for p in a.data] + [from_log(p, a.variant, a.every) for p in a.games]
    for src in sources:
        for fen, res in src:
            if key(fen) not in seen:
                seen.add(key(fen))
                todo.append((fen, res))
    if a.limit:
        todo = todo[: a.limit]
    print(f"{len(todo)} positions to label", file=sys.stderr)
    if a.static:
        results = dict(todo)
        n = 0
        with open(a.out, "w") as out:
            for fen, cp in static_labels(a.engine, a.opt, a.variant, [f for f, _ in todo]):
                if cp is None:
                    continue
                p = 1 / (1 + 10 ** (-cp / a.scale))
                if results[fen] is not None:
                    p = a.mix * p + (1 - a.mix) * results[fen]
                out.write(f"{fen};{cp};{p:.4f}\n")
                n += 1
        print(f"done: {n} labelled", file=sys.stderr)
        return

    work, done = queue.Queue(), queue.Queue()
    for item in todo:
        work.put(item)

    def worker():
        eng = Uci(a.engine, timeout=120)
        for o in a.opt:
            name, _, value = o.partition("=")
            eng.send(f"setoption name {name} value {value}")
        eng.set_variant(a.variant)
        while True:
            try:
                fen, res = work.get_nowait()
            except queue.Empty:
                break
            eng.position(fen)
            eng.send(f"go nodes {a.nodes}")
            cp = score_of(eng.read_until(lambda l: l.startswith("bestmove")))
            if cp is not None:
                if fen.split()[1] == "b":
                    cp = -cp
                done.put((fen, cp, res))
        eng.close()

    threads = [threading.Thread(target=worker) for _ in range(a.jobs)]
    for t in threads:
        t.start()
    n = 0
    with open(a.out, "w") as out:
        while any(t.is_alive() for t in threads) or not done.empty():
            try:
                fen, cp, res = done.get(timeout=1)
            except queue.Empty:
                continue
            p = 1 / (1 + 10 ** (-cp / a.scale))
            if res is not None:
                p = a.mix * p + (1 - a.mix) * res
            out.write(f"{fen};{cp};{p:.4f}\n")
            n += 1
            if n % 500 == 0:
                print(f"{n} labelled", file=sys.stderr)
                out.flush()
    print(f"done: {n} labelled", file=sys.stderr)


if __name__ == "__main__":
    main()
