#!/usr/bin/env bash
# Byte-identity snapshot: every report a refactoring must not change, written to OUTDIR.
#   scripts/snapshot.sh BIN OUTDIR      (BIN: a release `shadersim` binary)
# Take one with the binary before a change and one after, then `diff -r BEFORE AFTER`: an empty
# diff is the proof. Covers batch over every fixture and example (with the latency search); analyze
# text, JSON, HTML and timeline on one program of each fixture family and model; kernel time with a
# launch; cfg, hints, liveness, compare, sweep, occupancy, coalesce, archs, validate (both suites),
# rt and nami. Stderr is kept beside stdout, and the exit code, so errors must stay the same too.
# Host timings never enter a report, so two runs of one binary give the same bytes.
set -euo pipefail
BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
cd "$(dirname "$0")/.."
mkdir -p "$OUT"

run() { # NAME ARGS...: stdout, stderr and exit code of one command
    local name=$1; shift
    set +e
    "$BIN" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    echo $? >"$OUT/$name.rc"
    set -e
    # Paths of this checkout or of OUTDIR must not make two snapshots differ.
    sed -i -e "s|$PWD|.|g" -e "s|$OUT|OUT|g" "$OUT/$name.out" "$OUT/$name.err"
}

run batch batch tests/fixtures examples --latency-tolerance --jobs 2
run batch-gfx1100 batch tests/fixtures/llvm tests/fixtures/radv --arch gfx1100 --jobs 2

# One program per family, each on its own model and one other.
PROGRAMS=(
  tests/fixtures/llvm/gfx900/matmul_tile.s
  tests/fixtures/llvm/gfx1100/lds_reduce.s
  tests/fixtures/llvm/gfx1200/bvh8_traverse.s
  tests/fixtures/llvm/gfx942/mfma_gemm.s
  tests/fixtures/llvm/gfx90a/stencil_f64.s
  tests/fixtures/radv/vega10/lighting.txt
  tests/fixtures/radv/gfx1100/blur.txt
  tests/fixtures/codeobj/gfx1100/loop_sum.co
  tests/fixtures/r600/blur_loop.cayman.clang-22.s
  examples/lighting_ps.txt
)
i=0
for p in "${PROGRAMS[@]}"; do
  [ -e "$p" ] || { echo "snapshot: $p is missing" >"$OUT/missing-$i"; i=$((i+1)); continue; }
  for arch in "" gfx1100 gfx942; do
    a=(); [ -n "$arch" ] && a=(--arch "$arch")
    n="analyze-$i${arch:+-$arch}"
    run "$n-text" analyze "$p" "${a[@]}"
    run "$n-json" analyze "$p" "${a[@]}" --format json
  done
  run "analyze-$i-html" analyze "$p" --format html --timeline "$OUT/analyze-$i-timeline.json"
  run "cfg-$i" cfg "$p"
  run "hints-$i" hints "$p"
  run "liveness-$i" liveness "$p" --format json
  i=$((i+1))
done
run analyze-hints analyze examples/lighting_ps.txt --hints examples/lighting_ps.toml --format json
run kernel-time analyze tests/fixtures/llvm/gfx942/step_relax.s --arch mi300x --grid 4096 --block 256 --format json
run kernel-time-text analyze tests/fixtures/llvm/gfx1100/matmul_tile.s --arch rx7900xtx --grid 960x2 --block 16x16

run compare compare tests/fixtures/llvm/gfx900/loop_sum.s --arch gfx900,gfx1100,gfx942,gfx1200 --format json
run compare-html compare tests/fixtures/llvm/gfx900/loop_sum.s --arch gfx900,gfx1100 --format html
run sweep sweep examples/lighting_ps.txt --vary vmem_latency=100,300,500 --format json
for r in 32 64 128; do run "occupancy-$r" occupancy --regs "$r" --format json; done
run coalesce coalesce --op buffer_load_dword --pattern stride:16
run archs archs
run archs-params archs --params rdna3
run validate validate --format json
run validate-kt validate --suite kernel-time --format json
run rt rt examples/rt/scene.toml --rays primary:64x64 --format json --verify
run rt-text rt examples/rt/scene.toml --rays primary:48x48 --arch rdna4 --bvh bvh8 --obb both
BUNNY=/usr/share/glmark2/models/bunny.obj
if [ -e "$BUNNY" ]; then
  run rt-bunny rt "$BUNNY" --rays primary:64x64 --format json
fi
run nami nami builtin:small --format json
echo "snapshot: $(ls "$OUT" | wc -l) files in $OUT"
