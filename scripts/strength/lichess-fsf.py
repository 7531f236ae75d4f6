#!/usr/bin/env python3
"""Fairy-Stockfish configured as lichess's AI level N (1-8), as a UCI engine.

Lichess sets Skill Level -9, -5, -1, 3, 7, 11, 16, 20, a move time of
50, 100, 150, 200, 300, 400, 500, 1000 ms and a depth limit of
5, 5, 5, 5, 5, 8, 13, 22 for its levels 1-8. match.py sends one `go`
command to both engines, so this proxy rewrites every `go ...` into the
level's own `go movetime T depth D` and sets the skill level after `uci`.

Usage: lichess-fsf.py LEVEL [FAIRY_STOCKFISH]   (default /usr/games/fairy-stockfish)
"""
import subprocess
import sys
import threading

SKILL = [-9, -5, -1, 3, 7, 11, 16, 20]
MOVETIME = [50, 100, 150, 200, 300, 400, 500, 1000]
DEPTH = [5, 5, 5, 5, 5, 8, 13, 22]


def main() -> int:
    if len(sys.argv) < 2 or not sys.argv[1].isdigit() or not 1 <= int(sys.argv[1]) <= 8:
        print("usage: lichess-fsf.py LEVEL(1-8) [ENGINE]", file=sys.stderr)
        return 2
    i = int(sys.argv[1]) - 1
    binary = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/fairy-stockfish"
    eng = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def pump() -> None:
        for line in eng.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "go":
            line = f"go movetime {MOVETIME[i]} depth {DEPTH[i]}\n"
        eng.stdin.write(line)
        if words and words[0] == "uci":
            eng.stdin.write(f"setoption name Skill Level value {SKILL[i]}\n")
        eng.stdin.flush()
        if words and words[0] == "quit":
            break
    eng.stdin.close()
    eng.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
