#!/bin/sh
# Regenerate the listings `shadersim validate` simulates from the OpenCL C
# kernels beside them (clang-22 through `shadersim compile`; deterministic).
# Usage: validation/regen.sh [path/to/shadersim]
set -eu
cd "$(dirname "$0")"
bin=${1:-../target/release/shadersim}
for gpu in gfx900 gfx1010 gfx1030 gfx1100 gfx1201; do
    for k in chase chase_scalar chase_lds rates stream; do
        "$bin" compile "kernels/$k.cl" --arch "$gpu" > "asm/$k.$gpu.s"
    done
done
