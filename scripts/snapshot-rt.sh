#!/usr/bin/env bash
# Byte-identity snapshot of `shadersim rt`: every layout's report, written to OUTDIR.
#   scripts/snapshot-rt.sh BIN OUTDIR      (BIN: a release `shadersim` binary)
# Take one with the binary before a change to the rt crate and one after, then
# `diff -r BEFORE AFTER`: an empty diff is the proof that hits and counters did not change.
# Covers, on the glmark2 bunny (skipped with a note when glmark2-data is not installed) and on
# examples/rt/scene.toml (two-level, instanced): JSON and text for each of rdna2, rdna3, rdna4
# with bvh4, bvh4x2, bvh8, OBBs on/off/both and fp16 off/on (the combinations a generation
# refuses are kept too: their message and exit code must not change either); the default
# layouts; the benchmark runs (`--bvh bvh8` and `--bvh bvh4` at 384x384 and 512x512, JSON with
# every hit); random and diffuse rays, a heatmap (its PNG bytes) and a hints file.
# `rt --help` is left out: it prints the binary's name. Host timings never enter a report.
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

BUNNY=/usr/share/glmark2/models/bunny.obj
MESHES=(scene:examples/rt/scene.toml)
if [ -e "$BUNNY" ]; then
  MESHES+=(bunny:"$BUNNY")
else
  echo "snapshot-rt: $BUNNY is missing (install glmark2-data); bunny runs skipped" >&2
  echo "$BUNNY missing" >"$OUT/missing-bunny"
fi

for entry in "${MESHES[@]}"; do
  m=${entry%%:*}
  mesh=${entry#*:}
  for arch in rdna2 rdna3 rdna4; do
    for bvh in bvh4 bvh4x2 bvh8; do
      for obb in off on both; do
        for fp16 in off on; do
          n="$m-$arch-$bvh-obb_$obb-fp16_$fp16"
          a=(rt "$mesh" --arch "$arch" --bvh "$bvh" --obb "$obb" --fp16 "$fp16")
          run "$n-json" "${a[@]}" --rays primary:96x96 --format json
          run "$n-text" "${a[@]}" --rays primary:64x64
        done
      done
    done
  done
  run "$m-default-json" rt "$mesh" --format json
  run "$m-default-text" rt "$mesh" --arch rdna2,rdna3,rdna4 --fp16 both --published
  run "$m-random" rt "$mesh" --rays random:5000 --format json --arch rdna3,rdna4
  run "$m-diffuse" rt "$mesh" --rays diffuse:3000 --arch rdna4 --bvh bvh8,bvh4 --obb both
  run "$m-nowide" rt "$mesh" --rays primary:64x64 --arch rdna4 --bvh bvh8 --no-wide-sort --stack 4
  run "$m-heatmap" rt "$mesh" --rays primary:48x48 --arch rdna4 --bvh bvh8 --obb both \
    --heatmap "$OUT/$m-steps.png"
  run "$m-hints" rt "$mesh" --rays primary:64x64 --arch rdna4 --bvh bvh8 --obb on \
    --hints-for examples/rt/traverse_bvh8_gfx1200.s --hints-out "$OUT/$m-hints.toml"
done

# The benchmark runs (the default layouts of each): every hit in the JSON.
if [ -e "$BUNNY" ]; then
  for size in 384x384 512x512; do
    for bvh in bvh8 bvh4; do
      run "bench-$bvh-$size" rt "$BUNNY" --bvh "$bvh" --rays "primary:$size" --format json
      run "bench-$bvh-$size-text" rt "$BUNNY" --bvh "$bvh" --rays "primary:$size"
    done
  done
fi
echo "snapshot-rt: $(ls "$OUT" | wc -l) files in $OUT"
