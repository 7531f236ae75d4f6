#!/usr/bin/env python3
"""Replaces a game's PARAMS constant with the literal a `tune fit` report ends with.

    python3 scripts/strength/splice-params.py crates/engine/src/eval/standard.rs target/tune/chess.fit

The report's literal starts at the line naming the params type
(`StandardParams {`) and runs to the end; the constant is the
`const PARAMS: <Type> = <Type> { ... };` item in the source file. Run
`cargo fmt` afterwards.
"""
import re
import sys


def main() -> int:
    source_path, report_path = sys.argv[1], sys.argv[2]
    report = open(report_path, encoding="utf-8").read()
    m = re.search(r"^(\w+Params) \{$", report, re.M)
    if not m:
        print(f"{report_path}: no params literal", file=sys.stderr)
        return 1
    ty = m.group(1)
    literal = report[m.start():].strip()
    src = open(source_path, encoding="utf-8").read()
    head = re.search(r"const PARAMS: " + ty + r" = ", src)
    if not head:
        print(f"{source_path}: no `const PARAMS: {ty}`", file=sys.stderr)
        return 1
    # The constant ends at the first `};` at the start of a line after it.
    end = src.index("\n};", head.end()) + 3
    src = src[: head.end()] + literal + ";" + src[end:]
    open(source_path, "w", encoding="utf-8").write(src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
