#!/bin/sh
# Regenerate tests/fixtures/r600/*.s: every OpenCL kernel of
# tests/fixtures/r600/src compiled for the TeraScale chips LLVM's R600
# backend compiles real kernels for (Evergreen cypress, juniper, redwood and
# the VLIW4 cayman; the R700 cpus select no stores, see docs/models/terascale.md)
# by clang-19 and clang-22. Output names: KERNEL.CPU.CLANG.s (the file does
# not name its cpu; tests pass it as --arch).
set -eu
cd "$(dirname "$0")/.."
out=tests/fixtures/r600
for src in "$out"/src/*.cl; do
    k=$(basename "$src" .cl)
    for clang in clang-19 clang-22; do
        for cpu in cypress juniper redwood cayman; do
            "$clang" -target r600 -mcpu="$cpu" -nogpulib -O2 -S "$src" -o "$out/$k.$cpu.$clang.s"
        done
    done
done
