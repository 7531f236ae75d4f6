#!/usr/bin/env python3
"""Compares two builds' side-by-side runs against one opponent, opening by opening.

    python3 scripts/strength/paired.py A.log B.log [A2.log B2.log ...]

Each log is bookmatch.py's --log output (game number, colour, A's score,
...). Games 2k+1 and 2k+2 play opening k with both colours, so a pair's
score is A's points in those two games; a pair counts only when both of
its games are in both logs. The difference of the two builds' pair
scores cancels most of what the opening decides, which is why two runs
played at the same time compare where runs from different sessions do
not (docs/strength-search-session-24.md). Several (A, B) log pairs are
pooled: each contributes its own pairs.

Prints the pooled games, both builds' points, the mean difference a
pair, its standard error and z = mean / standard error.
"""
import math
import sys


def load(path: str) -> dict[int, float]:
    scores = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split("\t")
            if len(parts) >= 3 and parts[0].isdigit():
                scores[int(parts[0])] = float(parts[2])
    return scores


def main() -> int:
    args = sys.argv[1:]
    if not args or len(args) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    diffs, points_a, points_b = [], 0.0, 0.0
    for path_a, path_b in zip(args[::2], args[1::2]):
        a, b = load(path_a), load(path_b)
        for k in sorted({(g - 1) // 2 for g in a.keys() & b.keys()}):
            games = (2 * k + 1, 2 * k + 2)
            if all(g in a and g in b for g in games):
                pa, pb = sum(a[g] for g in games), sum(b[g] for g in games)
                diffs.append(pa - pb)
                points_a += pa
                points_b += pb
    n = len(diffs)
    if n < 2:
        print(f"{n} complete pairs: too few to compare", file=sys.stderr)
        return 1
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    # Every pair the same difference: no spread to measure it against.
    z = mean / se if se > 0 else math.copysign(math.inf, mean) if mean else 0.0
    print(f"games {2 * n}: A {points_a:g}, B {points_b:g}; pairs {n}, "
          f"mean difference {mean:+.3f} a pair, standard error {se:.3f}, z {z:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
