#!/usr/bin/env python3
"""Replaces a game's PARAMS constant with the literal a `tune fit` report ends with.

    python3 scripts/strength/splice-params.py crates/engine/src/eval/standard.rs target/tune/chess.fit
    python3 scripts/strength/splice-params.py --const TOP_PARAMS crates/engine/src/eval/standard.rs chess-top.fit

The report's literal starts at the line naming the params type
(`StandardParams {`) and runs to the end; the constant is the
`const PARAMS: <Type> = <Type> { ... };` item in the source file, or the
one --const names (level 8's `TOP_PARAMS`, which the fit with `FitOptions::top`
starts from). Run `cargo fmt` afterwards.
"""
import re
import sys


def main() -> int:
    args = sys.argv[1:]
    name = "PARAMS"
    if args[:1] == ["--const"]:
        name, args = args[1], args[2:]
    source_path, report_path = args[0], args[1]
    report = open(report_path, encoding="utf-8").read()
    m = re.search(r"^(\w+Params) \{$", report, re.M)
    if not m:
        print(f"{report_path}: no params literal", file=sys.stderr)
        return 1
    ty = m.group(1)
    literal = report[m.start():].strip()
    src = open(source_path, encoding="utf-8").read()
    head = re.search(r"const " + name + r": " + ty + r" = ", src)
    if not head:
        print(f"{source_path}: no `const {name}: {ty}`", file=sys.stderr)
        return 1
    # The constant ends at the first `};` at the start of a line after it.
    end = src.index("\n};", head.end()) + 3
    src = src[: head.end()] + literal + ";" + src[end:]
    open(source_path, "w", encoding="utf-8").write(src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
