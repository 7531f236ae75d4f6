#!/usr/bin/env python3
# Where did level 8 lose? Replays the games A lost in a bookmatch.py log
# (chess from the start position), scores every position with the
# reference at a fixed depth, and finds in each game A's first move that
# dropped A's score by at least --drop centipawns from a position not
# already lost (score >= -100). Then, for each such move, asks A at the
# match's move time and at ten times it, and the reference at the match's
# move time, which move they play there: a move A repeats with ten times
# the time, and the reference avoids, points at the evaluation rather
# than the depth (docs/strength-search-session-24.md).
#
#   scripts/strength/blunders.py --log LOG --a "BIN uci" [--a-opt Level=8] \
#       [--fsf strength-bin/fsf/fairy-stockfish] [--games 50] [--depth 13] \
#       [--movetime 100] [--drop 100] [--jobs 2]
#
# Prints one line per lost game (game, ply, score before and after, the
# move, and the three engines' moves) and a summary line.
import argparse
import concurrent.futures as cf
import subprocess
import sys

FSF_OPTS = [("Threads", "1"), ("Hash", "64"), ("Use NNUE", "false")]
MATE = 30000


class Engine:
    def __init__(self, cmd, opts):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        for k, v in opts:
            self.send(f"setoption name {k} value {v}")
        self.sync()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def sync(self):
        self.send("isready")
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine died")
            if line.strip() == "readyok":
                return

    def go(self, moves, go):
        """(score for the side to move, best move) after `go`."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go " + go)
        score = None
        while True:
            words = self.p.stdout.readline().split()
            if not words:
                raise SystemExit("engine died")
            if words[0] == "info" and "score" in words and "lowerbound" not in words \
                    and "upperbound" not in words:
                i = words.index("score")
                v = int(words[i + 2])
                score = v if words[i + 1] == "cp" else (MATE - abs(v)) * (1 if v > 0 else -1)
            if words[0] == "bestmove":
                return score, words[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


def clamp(v):
    return max(-1500, min(1500, v))


def first_drop(args, game):
    """A's first move in `game` that lost --drop from a playable position."""
    number, a_colour, moves, start = game
    fsf = Engine([args.fsf], FSF_OPTS)
    sign = 1 if a_colour == "w" else -1
    found = None
    before = None
    # The book's moves are nobody's choice: scoring starts after them.
    for k in range(start, len(moves) + 1):
        s, _ = fsf.go(moves[:k], f"depth {args.depth}")
        white = s if k % 2 == 0 else -s
        if before is not None:
            b, a = sign * before, sign * white
            if b >= -100 and clamp(b) - clamp(a) >= args.drop:
                found = (k - 1, b, a)
                break
        a_to_move = (k % 2 == 0) == (a_colour == "w")
        before = white if a_to_move else None
    fsf.quit()
    return number, moves, found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--a", required=True, help="A's command, as in bookmatch.py")
    ap.add_argument("--a-opt", action="append", default=[])
    ap.add_argument("--fsf", default="strength-bin/fsf/fairy-stockfish")
    ap.add_argument("--games", type=int, default=50, help="lost games to replay")
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--drop", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    lost = []
    with open(args.log) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) >= 7 and float(p[2]) == 0.0:
                book = p[5].split()
                lost.append((int(p[0]), p[1], book + p[6].split(), len(book)))
    lost = lost[:args.games]
    with cf.ProcessPoolExecutor(args.jobs) as ex:
        drops = list(ex.map(first_drop, [args] * len(lost), lost))
    a_opts = [tuple(o.split("=", 1)) for o in args.a_opt]
    ours = Engine(args.a.split(), a_opts)
    fsf = Engine([args.fsf], [("Threads", "1"), ("Hash", "16"), ("Use NNUE", "false")])
    n = same_short = same_long = same_ref = 0
    for number, moves, found in drops:
        if found is None:
            print(number, "no single drop", flush=True)
            continue
        k, b, a = found
        played, before = moves[k], moves[:k]
        got = []
        for engine, t in ((ours, args.movetime), (ours, 10 * args.movetime), (fsf, args.movetime)):
            engine.send("ucinewgame")
            engine.sync()
            got.append(engine.go(before, f"movetime {t}")[1])
        n += 1
        same_short += got[0] == played
        same_long += got[1] == played
        same_ref += got[2] == played
        print(number, k, b, a, played, "A", got[0], "A x10", got[1], "reference", got[2], flush=True)
    ours.quit()
    fsf.quit()
    print(f"lost games {len(lost)}, with a drop {n}; A repeats it {same_short}, "
          f"A with 10x the time {same_long}, the reference plays it {same_ref}")


if __name__ == "__main__":
    sys.exit(main())
