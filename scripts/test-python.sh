#!/usr/bin/env bash
# The Python package's tests (issue 48): a fresh venv, `pip install .` (maturin builds
# crates/python), then pytest on python/tests. Part of the README's test command.
#
# The wheel is built with Cargo's dev profile into CARGO_TARGET_DIR (default: target/), the
# profile and folder `cargo test` uses: after `cargo test --workspace` only pyo3 and the
# bindings are left to compile. SHADERSIM_PY_PROFILE=release builds what `pip install .`
# builds for users. The venv is kept in SHADERSIM_PY_VENV (default: CARGO_TARGET_DIR/py-venv)
# and made fresh each run.
#
# Triton: the from_triton test on a fresh compilation runs when `triton` imports; with `CI`
# set this script installs it from PyPI (a CPU-only wheel carrying its own LLVM: no GPU, no
# ROCm) and the test fails rather than skips without it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
VENV="${SHADERSIM_PY_VENV:-$CARGO_TARGET_DIR/py-venv}"
PROFILE="${SHADERSIM_PY_PROFILE:-dev}"
PYTHON="${PYTHON:-python3}"

rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet pytest
if [ -n "${CI:-}" ]; then
    "$VENV/bin/pip" install --quiet triton
fi
start=$(date +%s)
# maturin takes its build options from MATURIN_PEP517_ARGS under pip.
MATURIN_PEP517_ARGS="--profile $PROFILE" "$VENV/bin/pip" install --quiet .
echo "test-python: pip install . ($PROFILE profile) took $(( $(date +%s) - start )) s" >&2

# The CLI binary the dict is compared with: the one `cargo test` built, else build it.
BIN="$CARGO_TARGET_DIR/debug/shadersim"
if [ ! -x "$BIN" ]; then
    cargo build --quiet -p shadersim
fi
# Run from outside the repository so `import shadersim` is the installed package, not the
# python/ source folder.
cd "$VENV"
SHADERSIM_BIN="$BIN" "$VENV/bin/python" -m pytest "$ROOT/python/tests" -q -rs
