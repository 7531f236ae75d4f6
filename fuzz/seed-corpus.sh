#!/bin/sh
# Seeds the (git-ignored) corpus folders with valid inputs, so the
# targets start from real FENs and moves instead of discovering the
# syntax byte by byte. Safe to run again: files are named by content.
# Usage, from the repository root: sh fuzz/seed-corpus.sh
set -eu
cd "$(dirname "$0")"
# The perft suites the rules tests read (copies of ../shared/perft).
perft="../crates/rules/tests/data/perft"

seed() { # seed <target> <content>; <prefix> (printf escapes) comes first
    mkdir -p "corpus/$1"
    tmp="corpus/$1/.new"
    printf "${3:-}" > "$tmp"
    printf '%s' "$2" >> "$tmp"
    mv "$tmp" "corpus/$1/$(sha1sum < "$tmp" | cut -c1-40)"
}

for f in chess horde atomic; do
    cut -d';' -f1 "$perft/$f.public.epd" | while IFS= read -r fen; do
        [ -n "$fen" ] && seed chess_fen "$fen"
    done
done
cut -d';' -f1 "$perft/xiangqi.public.epd" | while IFS= read -r fen; do
    [ -n "$fen" ] && seed xiangqi_fen "$fen"
done
# Move targets: variant and position bytes, ply count 0, then the text
# (chess_moves: variant, position, plies; xiangqi_moves: position, plies).
for t in e2e4 e7e8q g1f3 e1g1 Nf3 exd5 O-O O-O-O e8=Q+ Nbd7 R1e2 0-0 Qh4xe1#; do
    for v in 000 001 002; do
        seed chess_moves "$t" "\\$v\\001\\000"
    done
done
for t in h3e3 b10c8 a10a9 C2=5 H2+3 R+=6 +R=6 25=6 P7+1 A4+5 E3+5 K5=4 C8.5; do
    seed xiangqi_moves "$t" '\000\000'
    seed xiangqi_moves "$t" '\001\000'
done
