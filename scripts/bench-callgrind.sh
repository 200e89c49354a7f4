#!/usr/bin/env bash
# bench-callgrind.sh: host instructions per simulated wave-instruction (issue 45), machine-independent.
#
# Builds the engine's `hotpath` example in release and runs each of the four benchmarks of issue 45
# under callgrind (`valgrind --tool=callgrind`, total Ir): GCN (RADV's vega10 lighting pixel shader),
# RDNA 3 wave32 and wave64 (RADV's gfx1100 builds of the same shader), and RDNA 4 BVH8 traversal
# (examples/rt/traverse_bvh8_gfx1200.s with the bunny's per-wave step counts). Each is the `simulate`
# bench's run (crates/engine/benches/simulate.rs). Set-up (reading, preparing) is excluded by running
# the example twice, with A and with B simulations, and dividing the difference in Ir by the difference
# in simulated wave-instructions the example reports.
#
# Usage: scripts/bench-callgrind.sh [BIN]   (BIN: a prebuilt hotpath example; default: build it)
# Env: CARGO_TARGET_DIR as usual; RUNS_A/RUNS_B (default 1 and 3).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
  BIN=$(realpath "$1")
else
  cargo build --release -q -p shadersim-engine --example hotpath
  BIN="${CARGO_TARGET_DIR:-target}/release/examples/hotpath"
fi
command -v valgrind > /dev/null || { echo "error: valgrind not found" >&2; exit 1; }
A=${RUNS_A:-1}
B=${RUNS_B:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Total Ir of one callgrind run and the wave-instructions the example printed.
measure() {
  local which=$1 n=$2 out="$tmp/$1.$2"
  valgrind --tool=callgrind --callgrind-out-file="$out.cg" "$BIN" "$which" "$n" > "$out.txt" 2> "$out.err"
  local ir wi
  ir=$(grep -m1 '^summary:' "$out.cg" | awk '{print $2}')
  wi=$(sed -n 's/.* runs, \([0-9]*\) wave-instructions.*/\1/p' "$out.txt")
  echo "$ir $wi"
}
printf '%-12s %14s %12s %10s\n' benchmark host_Ir wave_instr Ir/wave_instr
for which in gcn rdna3 rdna3-w64 rdna4-bvh8; do
  read -r ir_a wi_a < <(measure "$which" "$A")
  read -r ir_b wi_b < <(measure "$which" "$B")
  ir=$((ir_b - ir_a))
  wi=$((wi_b - wi_a))
  printf '%-12s %14d %12d %10.1f\n' "$which" "$ir" "$wi" "$(echo "$ir / $wi" | bc -l)"
done
