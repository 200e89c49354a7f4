#!/usr/bin/env bash
# Regenerate the listings WITH source lines (.loc/.file) that the tests of
# source-keyed hints (`source = "FILE:LINE"`, issue 33) read:
#
#   tests/fixtures/debug-lines/<gfx>/<name>.s   clang-22 -S -gline-tables-only (OpenCL C)
#
# Kept apart from scripts/regen-fixtures.sh's listings, which other tests
# pin line by line and which carry no .loc. -gline-tables-only does not
# change the generated code (the same instructions with and without it on
# the OpenCL fixtures for gfx900, gfx1030, gfx1100 and gfx1200);
# -fdebug-compilation-dir=. keeps the machine's directories out of `.file`.
#
# Needs clang-22 (Debian package clang-22, 1:22.1.8-1~deb12u1).
# Usage: scripts/regen-debug-line-fixtures.sh   (from anywhere)
set -euo pipefail
export LC_ALL=C

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/tests/fixtures/src"
OUT="$ROOT/tests/fixtures/debug-lines"
command -v clang-22 >/dev/null || { echo "regen-debug-line-fixtures: error: clang-22 is missing (Debian package clang-22)" >&2; exit 1; }

# source directory | kernel | GPUs
JOBS=(
    "opencl|matmul_tile|gfx900 gfx1100"
    "debug-lines|split_loop|gfx900 gfx1100"
)
for job in "${JOBS[@]}"; do
    IFS='|' read -r dir k gfxs <<<"$job"
    for gfx in $gfxs; do
        mkdir -p "$OUT/$gfx"
        (cd "$SRC/$dir" && clang-22 -S -O2 -gline-tables-only -fdebug-compilation-dir=. \
            -nogpulib -target amdgcn-amd-amdhsa -mcpu="$gfx" -x cl -cl-std=CL2.0 \
            "$k.cl" -o "$OUT/$gfx/$k.s")
    done
done
echo "regen-debug-line-fixtures: wrote $(find "$OUT" -name '*.s' | wc -l) listings under tests/fixtures/debug-lines"
