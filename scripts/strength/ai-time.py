#!/usr/bin/env python3
"""How long the server's AI takes to answer, per game: goal 4 of issue 13
("level 8 answers within its time in every game").

Starts the release binary as a server on a free port of 127.0.0.1 with a
fresh SQLite file, then, for each game, plays the AI against itself through
`POST /api/ai-move` from the first openings of the game's book
(scripts/strength/books/VARIANT.txt): each answer is the next move of the
same line, until the game ends or the line has its plies. Every request is
timed from the client's side (HTTP over loopback, queueing and search), so
the figures are what a player waits. The server keeps its defaults: the AI
pool runs under SCHED_IDLE at nice 19, so on a loaded machine level 8 still
answers on time, with a shallower search.

Prints, per game, the requests, the median, 95th percentile and largest
answer time, and how many answers took longer than the level's time plus
the grace (--grace-ms, 100 by default: the trip through HTTP and the
queue). Exit status 1 if any did, or if any request failed.

Usage: scripts/strength/ai-time.py [--level 8] [--openings 6] [--plies 16]
       [--variants chess,horde,atomic,xiangqi] [--bin target/release/chessplayx]
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The level's own move time (crates/engine/src/level.rs, docs/protocol.md).
MOVETIME_MS = {1: 50, 2: 100, 3: 150, 4: 200, 5: 300, 6: 400, 7: 500, 8: 1000}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_book(variant):
    with open(os.path.join(ROOT, "scripts", "strength", "books", f"{variant}.txt")) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def post(base, path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def wait_ready(base, proc):
    for _ in range(200):
        if proc.poll() is not None:
            sys.exit(f"the server exited with status {proc.returncode}")
        try:
            status, _ = post(base, "/api/ai-move", {"variant": "chess", "level": 1, "moves": []})
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit("the server did not answer within 10 s")


def measure(base, variant, level, openings, plies):
    """Answer times (ms) of every AI move of the lines, and failures."""
    times, failures = [], []
    for line in read_book(variant)[:openings]:
        moves = list(line)
        for _ in range(plies):
            t0 = time.perf_counter()
            status, body = post(base, "/api/ai-move",
                                {"variant": variant, "fen": None, "level": level, "moves": moves})
            ms = (time.perf_counter() - t0) * 1000
            if status == 409:  # the game is over: this line is done
                break
            if status != 200:
                failures.append(f"{variant} {' '.join(moves)}: {status} {body}")
                break
            times.append(ms)
            moves.append(body["uci"])
    return times, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--level", type=int, default=8)
    ap.add_argument("--openings", type=int, default=6)
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--grace-ms", type=int, default=100)
    ap.add_argument("--variants", default="chess,horde,atomic,xiangqi")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "chessplayx"))
    a = ap.parse_args()
    limit = MOVETIME_MS[a.level] + a.grace_ms
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([a.bin, "serve", "--addr", f"127.0.0.1:{port}",
                                 "--db", os.path.join(tmp, "ai-time.sqlite"),
                                 "--room-rate", "0"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready(base, proc)
            print(f"level {a.level}: {MOVETIME_MS[a.level]} ms a move; over = longer than {limit} ms;"
                  f" load {os.getloadavg()[0]:.2f}")
            print(f"{'game':8} {'answers':>7} {'median':>8} {'p95':>8} {'max':>8} {'over':>5}")
            for variant in a.variants.split(","):
                times, failures = measure(base, variant, a.level, a.openings, a.plies)
                for f in failures:
                    print("failed:", f)
                if not times:
                    print(f"{variant:8} no answers")
                    bad += 1
                    continue
                times.sort()
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                over = sum(1 for t in times if t > limit)
                bad += over + len(failures)
                print(f"{variant:8} {len(times):7} {statistics.median(times):7.0f}ms {p95:7.0f}ms "
                      f"{times[-1]:7.0f}ms {over:5}", flush=True)
            print(f"load afterwards {os.getloadavg()[0]:.2f}")
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
