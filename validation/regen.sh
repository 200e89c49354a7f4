#!/bin/sh
# Regenerate the listings `shadersim validate` simulates from the OpenCL C
# kernels beside them (clang-22 through `shadersim compile`, which adds line
# tables: `.loc` lines; deterministic). The committed asm/ is this script's
# output; a test (crates/cli/tests/cli/validate.rs) runs it into a temporary
# directory and compares.
# Usage: validation/regen.sh [path/to/shadersim] [output directory, default asm]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../target/release/shadersim}
out=${2:-$here/asm}
mkdir -p "$out"
cd "$here"
for gpu in gfx900 gfx1010 gfx1030 gfx1100 gfx1201; do
    for k in chase chase_scalar chase_lds chase_pointer rates stream; do
        "$bin" compile "kernels/$k.cl" --arch "$gpu" > "$out/$k.$gpu.s"
    done
done
# CDNA 2 (gfx90a): the pointer chase of its published latency measurements.
"$bin" compile kernels/chase_pointer.cl --arch gfx90a > "$out/chase_pointer.gfx90a.s"
# CDNA 3 (gfx942): the same chase, run on the MI300X and MI325X by the SC25 CDNA 3 study.
"$bin" compile kernels/chase_pointer.cl --arch gfx942 > "$out/chase_pointer.gfx942.s"
