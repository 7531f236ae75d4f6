# Shared helpers for the scripts in this folder. Sourced, not run.
#
# Sets ROOT (the repository root, also the working directory), SHARED (the
# project's shared material: perft suites, rules cases, conformance tools)
# and exports CHESSPLAYX_COMMIT so `chessplayx --version` names the commit.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# ../shared beside the checkout (CI, the main checkout) or higher up (a
# worktree under wt/); CHESSPLAYX_SHARED overrides.
find_shared() {
    if [ -n "${CHESSPLAYX_SHARED:-}" ]; then
        echo "$CHESSPLAYX_SHARED"
        return
    fi
    local dir="$ROOT"
    while [ "$dir" != "/" ]; do
        dir="$(dirname "$dir")"
        if [ -d "$dir/shared/tools" ] && [ -d "$dir/shared/perft" ]; then
            echo "$dir/shared"
            return
        fi
    done
    return 1
}

if ! SHARED="$(find_shared)"; then
    echo "cannot find the shared folder (../shared with tools/ and perft/); set CHESSPLAYX_SHARED" >&2
    exit 1
fi

commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi
export CHESSPLAYX_COMMIT="$commit"

BIN="target/release/chessplayx"
ENGINE="$BIN uci"
STATUS="$BIN status"

SECTIONS_PASSED=0

# section NAME COMMAND...: runs one step under a header, stops everything on
# the first failure.
section() {
    local name="$1"
    shift
    printf '\n==> %s\n' "$name"
    printf '    $ %s\n' "$*"
    local start=$SECONDS
    if "$@"; then
        SECTIONS_PASSED=$((SECTIONS_PASSED + 1))
        printf '==> ok: %s (%ss)\n' "$name" $((SECONDS - start))
    else
        local rc=$?
        printf '\n==> FAILED: %s (exit status %s, after %ss)\n' "$name" "$rc" $((SECONDS - start))
        printf 'sections: %s passed, 1 failed\n' "$SECTIONS_PASSED"
        exit 1
    fi
}

# The main workspace and the fuzz targets (a separate cargo workspace that
# `cargo fmt --all` does not see).
check_format() {
    cargo fmt --all --check && rustfmt --edition 2024 --check fuzz/fuzz_targets/*.rs
}

check_python_tools() {
    if ! python3 -c 'import pyffish, chess' 2>/dev/null; then
        echo "the conformance tools need pyffish and python-chess: pip install pyffish chess" >&2
        return 1
    fi
}

# The cargo tests read copies of the perft suites and the Xiangqi cases kept
# in the repository (crates/rules/tests/data/), so a fresh clone tests
# itself; this checks that the copies still match ../shared.
check_test_data() {
    local data="crates/rules/tests/data"
    diff -r "$SHARED/perft" "$data/perft" &&
        cmp "$SHARED/rules/xiangqi-cases.json" "$data/rules/xiangqi-cases.json"
}
