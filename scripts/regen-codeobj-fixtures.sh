#!/usr/bin/env bash
# Regenerate tests/fixtures/codeobj: AMDGPU code objects compiled by clang-22 from the OpenCL
# kernels of tests/fixtures/src/opencl, and llvm-objdump-22's disassembly of each (the reference
# the decoder of crates/codeobj is tested against when LLVM is absent).
#
#   <gfx>/<name>.co      clang-22 -O2 (linked by ld.lld-22: an HSA code object, v6 by default)
#   <gfx>/<name>.o       clang-22 -c (relocatable)
#   <gfx>/<name>.v4.co   -mcode-object-version=4 / .v5.co (the older code-object versions)
#   <gfx>/<name>.args.o  -c -cl-kernel-arg-info (relocatable): the metadata note names the
#                        kernel's arguments
#   bundle/<name>.bundle a clang offload bundle of the gfx900 and gfx1100 code objects, written
#                        by scripts/codeobj/make_bundle.py in the format clang-offload-bundler
#                        writes (that tool is not packaged with Debian's clang-22)
#   bundle/<name>.host.o a host ELF (x86-64) whose .hip_fatbin section holds that bundle
#   *.dis                llvm-objdump-22 -d --mcpu=<gfx> of the code object (gfx12 with
#                        --mattr=+real-true16: the decoder reads gfx12 as true16, as LLVM
#                        reads gfx11 by default)
#   *.notes              llvm-readelf-22 --notes of it (the metadata note as YAML)
#
# Needs: clang-22, lld-22 (ld.lld-22), llvm-22 (llvm-objdump-22, llvm-objcopy-22, llvm-readelf-22),
# python3.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="$ROOT/tests/fixtures/src/opencl"
OUT="$ROOT/tests/fixtures/codeobj"
PATH="/usr/lib/llvm-22/bin:$PATH"
for tool in clang-22 ld.lld llvm-objdump-22 llvm-objcopy-22 llvm-readelf-22 python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done
rm -rf "$OUT"
mkdir -p "$OUT"
CFLAGS=(-target amdgcn-amd-amdhsa -O2 -nogpulib -x cl -cl-std=CL2.0 -include "$SRC/ocl_shim.h")
# gfx|kernels|extra variants (o = relocatable, v4/v5 = older code-object versions, args = with
# argument names)
JOBS=(
    "gfx900|loop_sum lds_reduce f64_math int_mul global_atomics wave_reduce_dpp|o v4 v5"
    "gfx90a|loop_sum lds_reduce f64_math codeobj_mfma mfma_gemm stencil_f64 wave_reduce_dpp|"
    "gfx942|loop_sum lds_reduce codeobj_mfma mfma_gemm stencil_f64|"
    "gfx1100|loop_sum lds_reduce global_atomics if_else bvh_traverse bvh_lds_stack wave_reduce_dpp wave_dpp8 half_axpy|o args"
    "gfx1030|loop_sum lds_reduce bvh_traverse wave_reduce_dpp wave_dpp8|"
    "gfx1200|loop_sum lds_reduce bvh_traverse bvh_lds_stack wave_reduce_dpp wave_dpp8 half_axpy|"
)
dis() { # file gfx
    local mattr=()
    [[ "$2" == gfx12* ]] && mattr=(--mattr=+real-true16)
    llvm-objdump-22 -d --mcpu="$2" "${mattr[@]}" "$1" | sed "s|$OUT/$2/||" > "${1}.dis"
}
for job in "${JOBS[@]}"; do
    IFS='|' read -r gfx kernels variants <<<"$job"
    mkdir -p "$OUT/$gfx"
    for k in $kernels; do
        clang-22 "${CFLAGS[@]}" -mcpu="$gfx" "$SRC/$k.cl" -o "$OUT/$gfx/$k.co"
        dis "$OUT/$gfx/$k.co" "$gfx"
    done
    first="${kernels%% *}"
    for v in $variants; do
        case "$v" in
        o) clang-22 "${CFLAGS[@]}" -mcpu="$gfx" -c "$SRC/$first.cl" -o "$OUT/$gfx/$first.o"
           dis "$OUT/$gfx/$first.o" "$gfx" ;;
        v4|v5) clang-22 "${CFLAGS[@]}" -mcpu="$gfx" -mcode-object-version="${v#v}" \
               "$SRC/$first.cl" -o "$OUT/$gfx/$first.$v.co"
           dis "$OUT/$gfx/$first.$v.co" "$gfx" ;;
        args) clang-22 "${CFLAGS[@]}" -mcpu="$gfx" -c -cl-kernel-arg-info \
               "$SRC/$first.cl" -o "$OUT/$gfx/$first.args.o"
           dis "$OUT/$gfx/$first.args.o" "$gfx"
           llvm-readelf-22 --notes "$OUT/$gfx/$first.args.o" > "$OUT/$gfx/$first.args.o.notes" ;;
        esac
    done
done
mkdir -p "$OUT/bundle"
python3 "$ROOT/scripts/codeobj/make_bundle.py" "$OUT/bundle/loop_sum.bundle" \
    "hipv4-amdgcn-amd-amdhsa--gfx900=$OUT/gfx900/loop_sum.co" \
    "hipv4-amdgcn-amd-amdhsa--gfx1100=$OUT/gfx1100/loop_sum.co"
# A host object to carry the bundle, as hipcc's host binaries do in .hip_fatbin.
echo 'int main(void) { return 0; }' | clang-22 -x c -c -O2 - -o "$OUT/bundle/loop_sum.host.o"
llvm-objcopy-22 --add-section .hip_fatbin="$OUT/bundle/loop_sum.bundle" \
    --set-section-flags .hip_fatbin=alloc,readonly "$OUT/bundle/loop_sum.host.o"
ls -l "$OUT"/*/ | awk '{print $5, $9}'
