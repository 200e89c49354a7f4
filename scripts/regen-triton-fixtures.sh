#!/usr/bin/env bash
# Regenerate tests/fixtures/triton: Triton cache entries (K.hsaco beside K.json, and LLVM's
# K.amdgcn listing) of the kernels in scripts/triton/kernels.py, compiled by the PyPI `triton`
# wheel for gfx90a, gfx942, gfx1100 and gfx1200. No GPU and no ROCm are needed: the wheel carries its LLVM.
#
#   tests/fixtures/triton/<gfx>/<kernel>/<kernel>.{hsaco,json,amdgcn}
#
# Needs: python3 with venv, and network access to PyPI the first time (the venv is kept in
# $TRITON_VENV, default /tmp/triton-venv). The tests need none of this: the output is committed.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/tests/fixtures/triton"
VENV="${TRITON_VENV:-/tmp/triton-venv}"
if ! "$VENV/bin/python" -c 'import triton' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet triton
fi
CACHE="$(mktemp -d)"
trap 'rm -rf "$CACHE"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"
# A fresh cache, so every kernel is compiled (not taken from an earlier run); fusion stated so
# the output does not depend on Triton's changing default.
TRITON_CACHE_DIR="$CACHE" TRITON_DEFAULT_FP_FUSION=1 \
    "$VENV/bin/python" "$ROOT/scripts/triton/kernels.py" "$OUT"
"$VENV/bin/python" -c 'import triton; print("triton", triton.__version__)'
