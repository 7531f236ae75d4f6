#!/usr/bin/env python3
"""Check every board diagram of the rules pages against Fairy-Stockfish (pyffish).

The rules pages draw positions with fenced blocks whose info line is
    board <variant> <fen> [moves <uci> <uci> ...]
A wrong FEN or an illegal move in a diagram would teach players a false rule,
so every block is replayed here: the FEN must be valid for its variant (and,
beyond what pyffish checks, the side not to move must not be in check, and in
Xiangqi the generals must not face each other), and every move must be legal
in turn. The pages must also have the agreed front matter and a play link.

Usage: python3 check_boards.py [rules_dir]   (exit status 1 on any problem)
"""
import pathlib
import re
import sys

import pyffish as sf

VARIANTS = {"chess", "horde", "atomic", "xiangqi"}
LANGS = ("en", "vi", "pl", "pt")
FENCE = re.compile(r"^```board[ \t]+(.*)$", re.M)


def side_not_to_move_in_check(variant, fen):
    """pyffish only reports whether the side to move is in check; flip the turn."""
    fields = fen.split()
    fields[1] = "b" if fields[1] == "w" else "w"
    if len(fields) > 3:
        fields[3] = "-"
    flipped = " ".join(fields)
    if sf.validate_fen(flipped, variant) != 1:
        return False
    return sf.gives_check(variant, flipped, [])


def xiangqi_generals_face(fen):
    rows = fen.split()[0].split("/")
    grid = []
    for row in rows:
        line = ""
        for ch in row:
            line += "." * int(ch) if ch.isdigit() else ch
        grid.append(line)
    red = [(r, f) for r, line in enumerate(grid) for f, ch in enumerate(line) if ch == "K"]
    blk = [(r, f) for r, line in enumerate(grid) for f, ch in enumerate(line) if ch == "k"]
    if len(red) != 1 or len(blk) != 1 or red[0][1] != blk[0][1]:
        return False
    f = red[0][1]
    lo, hi = sorted((red[0][0], blk[0][0]))
    return all(grid[r][f] == "." for r in range(lo + 1, hi))


def check_block(info):
    """Return a list of problems found in one block's info line."""
    tokens = info.split()
    if not tokens or tokens[0] not in VARIANTS:
        return [f"unknown variant in '{info}'"]
    variant = tokens[0]
    rest = tokens[1:]
    if "moves" in rest:
        i = rest.index("moves")
        fen, moves = " ".join(rest[:i]), rest[i + 1:]
        if not moves:
            return ["'moves' with no move after it"]
    else:
        fen, moves = " ".join(rest), []
    if len(fen.split()) != 6:
        return [f"FEN must have 6 fields: '{fen}'"]
    code = sf.validate_fen(fen, variant)
    if code != 1:
        return [f"pyffish rejects FEN '{fen}' (code {code})"]
    problems = []
    placement = fen.split()[0]
    kings = (placement.count("K"), placement.count("k"))
    if kings != ((0, 1) if variant == "horde" else (1, 1)):
        problems.append(f"wrong number of kings/generals {kings}: '{fen}'")
    if side_not_to_move_in_check(variant, fen):
        problems.append(f"side not to move is in check: '{fen}'")
    if variant == "xiangqi" and xiangqi_generals_face(fen):
        problems.append(f"generals face each other: '{fen}'")
    played = []
    for mv in moves:
        legal = sf.legal_moves(variant, fen, played)
        if mv not in legal:
            problems.append(f"{variant} '{fen}': move {len(played) + 1} '{mv}' is illegal after {played}")
            break
        played.append(mv)
    return problems


def check_page(path):
    text = path.read_text(encoding="utf-8")
    problems = []
    game = path.stem
    front = re.match(r"\A---\ntitle: (.+)\nreviewed: \d{4}-\d{2}-\d{2}\n---\n", text)
    if not front:
        problems.append("front matter must be ---/title/reviewed/---")
    elif ": " in front.group(1) or front.group(1)[0] in "'\"[{&*!|>%@`#":
        # An unquoted ": " or a leading YAML indicator would break a YAML front-matter parser.
        problems.append(f"title is not a plain YAML scalar: {front.group(1)}")
    if f"](/#/play/{game})" not in text:
        problems.append(f"no link to /#/play/{game}")
    if text.count("```") % 2:
        problems.append("unbalanced code fences")
    blocks = FENCE.findall(text)
    for info in blocks:
        variant = info.split()[0] if info.split() else ""
        if variant != game:
            problems.append(f"board variant '{variant}' on the {game} page")
        problems += check_block(info)
    return blocks, problems


def main():
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parent
    failed = False
    total_blocks = total_moves = 0
    for lang in LANGS:
        for game in sorted(VARIANTS):
            path = root / lang / f"{game}.md"
            if not path.exists():
                print(f"MISSING {path}")
                failed = True
                continue
            blocks, problems = check_page(path)
            total_blocks += len(blocks)
            for info in blocks:
                t = info.split()
                total_moves += len(t) - t.index("moves") - 1 if "moves" in t else 0
            status = "ok" if not problems else "FAIL"
            print(f"{status:4} {lang}/{game}.md: {len(blocks)} boards")
            for p in problems:
                print(f"     - {p}")
            failed |= bool(problems)
    print(f"{total_blocks} boards, {total_moves} moves checked with pyffish {sf.version()}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
