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
#   BREAKDOWN=1: after each benchmark, the inclusive Ir per wave-instruction of the cycle loop's
#     out-of-line parts (the memory path, the quiet SIMDs' gathering and waking, free ops, the trace
#     walk, sitting), by the same difference of two runs: where the Ir goes.
#   PROBE=1: also run each benchmark without its statistics (the latency search's probe, `hotpath
#     ... probe`) and print its Ir per wave-instruction: what the schedule costs without the stall
#     and per-op bookkeeping.
#   MISSES=1: also run each benchmark under cachegrind (`--cache-sim=yes --branch-sim=yes`) and print
#     first-level data cache misses and mispredicted branches per wave-instruction (simulated, so
#     machine-independent too): what Ir does not show of the wall time (RDNA 3's rate against GCN's).
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
  local which=$1 n=$2 mode=${3:-} out="$tmp/$1.$2${3:+.$3}"
  # (`mode` empty: no third argument, a full run.)
  valgrind --tool=callgrind --callgrind-out-file="$out.cg" "$BIN" "$which" "$n" ${mode:+"$mode"} \
    > "$out.txt" 2> "$out.err"
  local ir wi
  ir=$(grep -m1 '^summary:' "$out.cg" | awk '{print $2}')
  wi=$(sed -n 's/.* runs, \([0-9]*\) wave-instructions.*/\1/p' "$out.txt")
  echo "$ir $wi"
}
# The parts BREAKDOWN names (functions kept out of line, so callgrind sees them).
PARTS="serve_stream access_lines gather_and_stall earliest_wake wake_due_dormant wake_dormant free_step sleep_until_event next_op_slow start_sitting stop_sitting"
# Inclusive Ir of each of PARTS in one callgrind output, one "name Ir" line each (0 if never called).
parts_of() {
  local ann
  ann=$(callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null)
  for p in $PARTS; do
    local v
    # (grep finds nothing for a part the benchmark never calls: not an error.)
    v=$(echo "$ann" | { grep -E "::$p \[" || true; } | head -1 | awk '{gsub(",", "", $1); print $1}')
    echo "$p ${v:-0}"
  done
}
# D1 misses and mispredicted branches of one cachegrind run.
misses() {
  local which=$1 n=$2 out="$tmp/$1.$2.cache"
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="$out" \
    "$BIN" "$which" "$n" > /dev/null 2> "$out.err"
  local d1 bm
  d1=$(grep 'D1  misses' "$out.err" | awk '{gsub(",", "", $4); print $4}')
  bm=$(grep 'Mispredicts' "$out.err" | awk '{gsub(",", "", $3); print $3}')
  echo "$d1 $bm"
}
printf '%-12s %14s %12s %10s\n' benchmark host_Ir wave_instr Ir/wave_instr
for which in gcn rdna3 rdna3-w64 rdna4-bvh8; do
  read -r ir_a wi_a < <(measure "$which" "$A")
  read -r ir_b wi_b < <(measure "$which" "$B")
  ir=$((ir_b - ir_a))
  wi=$((wi_b - wi_a))
  printf '%-12s %14d %12d %10.1f\n' "$which" "$ir" "$wi" "$(echo "$ir / $wi" | bc -l)"
  if [ "${BREAKDOWN:-0}" = 1 ]; then
    paste <(parts_of "$tmp/$which.$A.cg") <(parts_of "$tmp/$which.$B.cg") |
      while read -r name a _ b; do
        printf '    %-20s %8.1f\n' "$name" "$(echo "($b - $a) / $wi" | bc -l)"
      done
  fi
  if [ "${PROBE:-0}" = 1 ]; then
    read -r pir_a pwi_a < <(measure "$which" "$A" probe)
    read -r pir_b pwi_b < <(measure "$which" "$B" probe)
    printf '    %-20s %8.1f\n' probe "$(echo "($pir_b - $pir_a) / ($pwi_b - $pwi_a)" | bc -l)"
  fi
  if [ "${MISSES:-0}" = 1 ]; then
    read -r d1_a bm_a < <(misses "$which" "$A")
    read -r d1_b bm_b < <(misses "$which" "$B")
    printf '    %-20s %8.2f\n' D1_misses "$(echo "($d1_b - $d1_a) / $wi" | bc -l)" \
      mispredicts "$(echo "($bm_b - $bm_a) / $wi" | bc -l)"
  fi
done
