#!/usr/bin/env bash
# Regenerate shadersim's compiler-generated AMD GPU assembly fixtures:
#
#   tests/fixtures/llvm/<gfx>/<name>.s          clang -S (OpenCL C) and llc (LLVM IR shaders/kernels)
#   tests/fixtures/objdump/<gfx>/<name>.dis     llvm-objdump -d of linked HSA code objects
#   tests/fixtures/radv/<family>/<name>.txt     Mesa RADV/ACO RADV_DEBUG=shaders dump (stderr)
#   tests/fixtures/radv/<family>/<name>.stats.toml  VK_KHR_pipeline_executable_properties statistics
#   tests/fixtures/manifest.toml                facts reported by the compilers, one entry per fixture
#
# from the sources in tests/fixtures/src/. No GPU is needed: RADV runs on its null winsys
# (RADV_FORCE_FAMILY). The output is deterministic for a given toolchain; re-running must
# leave `git diff --exit-code tests/fixtures` clean.
#
# Two LLVM toolchains: every LLVM job names its LLVM major version (the "|19|" / "|22|"
# field of the job lists below) and all of its tools come from that version. LLVM 19 makes
# the gfx6..gfx11 fixtures; LLVM 22 makes the gfx1200 (RDNA4) ones, because LLVM 19 cannot
# compile the RDNA4 ray tracing builtins (BVH8, dual BVH, ds_bvh_stack_push8_*) nor emit
# s_alloc_vgpr, and the seed-000 experiment kernels (ooo_chase*) for gfx1100 too, so the
# RDNA3 and RDNA4 versions of that experiment come from the same compiler. LLVM 22 also
# makes every CDNA fixture (gfx90a, gfx942: MFMA GEMM tiles, the fp8/xf32 MFMAs of
# gfx942, an FP64 stencil, a reduction) and the WMMA kernels of gfx1100 and gfx1200.
# HIP device code is not among them: clang-22 -x hip needs the ROCm headers and device
# libraries (or -nogpuinc -nogpulib and a shim), and the OpenCL kernels already reach
# every builtin the HIP ones would. The manifest
# records each fixture's toolchain ("toolchain" key).
#
# Debian 12 (bookworm) packages needed:
#   clang-19 llvm-19 lld-19 clang-22 llvm-22 lld-22 glslang-tools mesa-vulkan-drivers
#     clang-19 / clang-22  OpenCL C -> amdgcn
#     llvm-19 / llvm-22    llc, llvm-mc, llvm-objdump, llvm-readelf (-19 / -22 suffixes)
#     lld-19 / lld-22      link the HSA code objects that llvm-objdump disassembles
#     glslang-tools        GLSL -> SPIR-V (glslangValidator)
#     mesa-vulkan-drivers  RADV + ACO (the fixtures were made with 22.3.6-1+deb12u2)
#   and cargo: RADV builds the pipelines under `shadersim radv-capture` (built by this script)
#   (clang-19/llvm-19/lld-19 are the bookworm-backports / apt.llvm.org 19.1.7 builds;
#   clang-22/llvm-22/lld-22 the Debian 22.1.8 builds, 1:22.1.8-1~deb12u1.)
#   apt-get install -y --no-install-recommends clang-19 llvm-19 lld-19 \
#       clang-22 llvm-22 lld-22 glslang-tools mesa-vulkan-drivers
#
# Usage: scripts/regen-fixtures.sh        (from anywhere; takes about a minute on 2 cores)
set -euo pipefail
export LC_ALL=C
export TZ=UTC

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIX="$ROOT/tests/fixtures"
SRC="$FIX/src"
EXPECTED_MESA="22.3.6"
EXPECTED_CLANG="19.1.7"
EXPECTED_CLANG22="22.1.8"

die() { echo "regen-fixtures: error: $*" >&2; exit 1; }
warn() { echo "regen-fixtures: warning: $*" >&2; }

# ---------------------------------------------------------------- prerequisites
PACKAGES=(clang-19 llvm-19 lld-19 clang-22 llvm-22 lld-22 glslang-tools mesa-vulkan-drivers)
if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for p in "${PACKAGES[@]}"; do
        st="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
        [[ "$st" == "install ok installed" ]] || missing+=("$p")
    done
    if ((${#missing[@]})); then
        die "missing Debian packages: ${missing[*]}
    install them with: apt-get install -y --no-install-recommends ${missing[*]}"
    fi
    mesa_ver="$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)"
    [[ "$mesa_ver" == "$EXPECTED_MESA"* ]] ||
        warn "mesa-vulkan-drivers is $mesa_ver, fixtures were made with $EXPECTED_MESA: RADV dumps will differ"
else
    warn "dpkg-query not found (not Debian?): checking for the tools only"
fi
for tool in clang-19 llc-19 llvm-mc-19 llvm-objdump-19 llvm-readelf-19 \
    clang-22 llc-22 llvm-mc-22 llvm-objdump-22 llvm-readelf-22 ld.lld-22 glslangValidator cargo awk sed; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found in PATH (see the package list at the top of $0)"
done
ICD=/usr/share/vulkan/icd.d/radeon_icd.x86_64.json
[[ -f "$ICD" ]] || die "$ICD not found (package mesa-vulkan-drivers)"
clang_version() { "$1" --version | awk 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "version") print $(i+1) }'; }
clang_ver="$(clang_version clang-19)"
[[ "$clang_ver" == "$EXPECTED_CLANG"* ]] ||
    warn "clang-19 is $clang_ver, fixtures were made with $EXPECTED_CLANG: LLVM output may differ"
clang22_ver="$(clang_version clang-22)"
[[ "$clang22_ver" == "$EXPECTED_CLANG22"* ]] ||
    warn "clang-22 is $clang22_ver, fixtures were made with $EXPECTED_CLANG22: LLVM output may differ"
# "clang-<major> <version>", the manifest's toolchain value for an LLVM job
toolchain_of() { # major
    case "$1" in
    19) echo "clang-19 $clang_ver" ;;
    22) echo "clang-22 $clang22_ver" ;;
    *) die "no LLVM $1 toolchain" ;;
    esac
}

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# ------------------------------------------------------------------ what to build
OPENCL_ALL="loop_sum nested_loops loop_break_continue if_else lds_reduce global_atomics f64_math transcendentals int_mul matmul_tile histogram"
# target|LLVM major|kernels (older generations get a representative subset;
# image_bvh_intersect_ray needs gfx10.3+; the LDS stack builtin is gfx11+: on gfx11 it is
# ds_bvh_stack_rtn_b32, clang-22 makes ds_bvh_stack_push4_pop1_rtn_b32 of it for gfx12
# (clang-19 crashes on it for gfx1200); bvh8_traverse / bvh_dual_traverse use the RDNA4-only
# BVH8, dual-BVH and push8 stack builtins; ooo_chase* are seed 000's two-wave experiment,
# made with clang-22 for both RDNA3 and RDNA4)
# CDNA (gfx90a MI250X, gfx942 MI300X): MFMA GEMM tiles (mfma_gemm_agpr needs more than the
# 256 architectural VGPRs, so it uses AGPRs), the FP64 MFMA, an FP64 stencil, a reduction;
# mfma_fp8 uses the gfx942-only fp8 and xf32 MFMAs. wmma_gemm (gfx1100) and
# wmma_gemm_gfx12 (gfx1200, the _gfx12 builtins) use two WMMA shapes each.
CDNA_KERNELS="mfma_gemm mfma_gemm_agpr mfma_f64 stencil_f64 lds_reduce"
RDNA4_KERNELS="bvh_lds_stack bvh8_traverse bvh_dual_traverse ooo_chase ooo_chase_u8"
OPENCL_JOBS=(
    "gfx600|19|loop_sum if_else f64_math int_mul"
    "gfx700|19|nested_loops lds_reduce global_atomics"
    "gfx803|19|lds_reduce transcendentals matmul_tile histogram"
    "gfx900|19|$OPENCL_ALL"
    "gfx1030|19|$OPENCL_ALL bvh_traverse"
    "gfx1100|19|$OPENCL_ALL bvh_traverse bvh_lds_stack"
    "gfx1100|22|ooo_chase ooo_chase_u8 wmma_gemm"
    # address patterns read from the code (issue 33): a 1D convolution and a gather;
    # step_relax: Rodinia pathfinder's loop shape, its exit test mid-loop (issue 47 item 1)
    "gfx900|22|conv1d gather step_relax"
    "gfx1100|22|conv1d gather step_relax"
    "gfx1200|22|$OPENCL_ALL bvh_traverse $RDNA4_KERNELS wmma_gemm_gfx12"
    "gfx90a|22|$CDNA_KERNELS"
    "gfx942|22|$CDNA_KERNELS mfma_fp8 step_relax"
)
# LLVM IR graphics shaders: target|LLVM major|source variant (gfx9 = interp p1/p2 + param
# exports, gfx11 = lds_param_load + interp.inreg, attribute ring store instead of param export)
GRAPHICS_JOBS=("gfx900|19|gfx9" "gfx1030|19|gfx9" "gfx1100|19|gfx11" "gfx1200|22|gfx11")
# LLVM IR compute kernels (amdgcn-amd-amdhsa): target|LLVM major|sources without .ll.
# dyn_vgpr*: RDNA4 dynamic VGPR mode ("amdgpu-dynamic-vgpr-block-size"), which makes llc-22
# emit s_alloc_vgpr; it exists only as a function attribute, so these are IR, not OpenCL.
IR_COMPUTE_JOBS=("gfx1200|22|dyn_vgpr dyn_vgpr_retry")
# linked code objects disassembled with llvm-objdump: target|LLVM major|kernels
# (llvm-objdump-19 cannot disassemble gfx6/gfx7: "Disassembly not yet supported for subtarget")
OBJDUMP_JOBS=(
    "gfx803|19|if_else matmul_tile"
    "gfx900|19|loop_sum lds_reduce f64_math"
    "gfx1030|19|bvh_traverse"
    "gfx1100|19|loop_sum lds_reduce bvh_traverse bvh_lds_stack"
    "gfx1200|22|lds_reduce bvh_traverse bvh8_traverse ooo_chase"
)
# RADV pipelines: name|subject stage|shaders (vertex+fragment, or compute)|RADV_PERFTEST
RADV_PIPELINES=(
    "lighting|pixel|transform.vert lighting.frag|"
    "skinning|vertex|skinning.vert flat.frag|"
    "blur|pixel|fullscreen.vert blur.frag|"
    "alpha_test|pixel|transform.vert alpha_test.frag|"
    "reduce|compute|reduce.comp|"
    "tile_matmul|compute|tile_matmul.comp|"
    "many_lights|pixel|transform.vert many_lights.frag|"
    "lighting_wave32|pixel|transform.vert lighting.frag|pswave32,gewave32"
    "skinning_wave32|vertex|skinning.vert flat.frag|pswave32,gewave32"
    "blur_wave32|pixel|fullscreen.vert blur.frag|pswave32,gewave32"
    "alpha_test_wave32|pixel|transform.vert alpha_test.frag|pswave32,gewave32"
    "reduce_wave32|compute|reduce.comp|cswave32"
    "tile_matmul_wave32|compute|tile_matmul.comp|cswave32"
    "many_lights_wave32|pixel|transform.vert many_lights.frag|pswave32,gewave32"
)
# family|gfx|pipelines. Mesa 22.3 knows no gfx12 family; gfx6/gfx7 (tahiti, bonaire) compile
# but ACO 22.3 prints "Shader disassembly is not supported" for them without CLRX, so none.
# RDNA families get every pipeline in wave64 (RADV 22.3's default for graphics) and wave32
# (RADV_PERFTEST), so occupancy can be checked against the driver on both wave sizes.
RDNA_PIPELINES="lighting skinning blur alpha_test reduce tile_matmul many_lights lighting_wave32 skinning_wave32 blur_wave32 alpha_test_wave32 reduce_wave32 tile_matmul_wave32 many_lights_wave32"
# (navi10's reduce listings fold repeated s_nop lines into "(then repeated N times)", which
# the reader learns separately; they are left out here until it does.)
RADV_JOBS=(
    "polaris10|gfx803|lighting reduce"
    "vega10|gfx900|lighting skinning blur alpha_test reduce tile_matmul many_lights"
    "navi10|gfx1010|lighting skinning blur alpha_test tile_matmul many_lights lighting_wave32 skinning_wave32 blur_wave32 alpha_test_wave32 tile_matmul_wave32 many_lights_wave32"
    "navi21|gfx1030|$RDNA_PIPELINES"
    "gfx1100|gfx1100|$RDNA_PIPELINES"
)

rm -rf "$FIX/llvm" "$FIX/objdump" "$FIX/radv"
MANIFEST_BODY="$TMP/manifest.body"
: >"$MANIFEST_BODY"
count_llvm=0
count_objdump=0
count_radv=0

# ------------------------------------------------------------------ awk helpers
# Facts from LLVM's own comments/directives in a .s file, as "key value" lines, for the
# FIRST function of the file: clang-21+ follows each OpenCL kernel with a callable copy of
# its body, __clang_ocl_kern_imp_<kernel> (a plain function, not a kernel), whose comments
# must not overwrite the kernel's. The HSA metadata at the end lists kernels only.
llvm_facts() {
    awk '
    /^\t\.type\t[^,]+,@function/ && fn != "" { second = 1 }
    /^\t\.type\t[^,]+,@function/ && fn == "" { s = $0; sub(/^\t\.type\t/, "", s); sub(/,@function.*/, "", s); fn = s }
    second                   { if ($0 ~ /^    \.wavefront_size: /) ws = $2; next }
    /^; NumVgprs: /          { vg = $3 }
    /^; (Total)?NumSgprs: /  { sg = $3 }   # LLVM 19 "NumSgprs", LLVM 22 "TotalNumSgprs"
    /^; codeLenInByte = /    { cb = $4 }
    /^; ScratchSize: /       { sc = $3 }
    /^; Occupancy: /         { oc = $3 }
    /^; NumAgprs: /          { ag = $3 }
    /\.amdhsa_accum_offset / { ao = $2 }
    /^; LDSByteSize: /       { lds = $3 }
    /\.amdhsa_next_free_vgpr / { nfv = $2 }
    /\.amdhsa_next_free_sgpr / { nfs = $2 }
    /^    \.wavefront_size: / { ws = $2 }
    /=> *This (Inner )?Loop Header: Depth=/ { lh++ }
    END {
        print "function", fn; print "vgprs", vg; print "sgprs", sg; print "code_bytes", cb
        print "scratch_bytes", sc; print "occupancy", oc; print "lds_bytes", lds
        print "next_free_vgpr", (nfv == "" ? "-" : nfv); print "next_free_sgpr", (nfs == "" ? "-" : nfs)
        print "wave_size", (ws == "" ? "-" : ws); print "loop_headers", lh + 0
        print "agprs", (ag == "" ? "-" : ag); print "accum_offset", (ao == "" ? "-" : ao)
    }' "$1"
}

# Symbol value (hex) and size of FUNCTION in an ELF file.
sym_range() { # file function llvm-major
    llvm-readelf-"$3" -s --wide "$1" | awk -v f="$2" '$4 == "FUNC" && $8 == f { print $2, $3; exit }'
}

# Count the instructions llvm-objdump prints inside [start, start+size) and the natural loops
# (distinct targets of backward branches: s_branch / s_cbranch_* with a negative simm16).
# Prints "instructions loops".
objdump_count() { # objdump-output-file start-hex size-dec
    awk -v start_hex="$2" -v size="$3" '
    function hex(s,   i, n, c) {
        n = 0; s = tolower(s)
        for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); n = n * 16 + c - 1 }
        return n
    }
    BEGIN { start = hex(start_hex); end = start + size }
    match($0, /\/\/ [0-9A-F]+:/) {
        a = hex(substr($0, RSTART + 3, RLENGTH - 4))
        if (a < start || a >= end) next
        n++
        if ($1 ~ /^s_(branch|cbranch_[a-z0-9_]+)$/ && $2 ~ /^[0-9]+$/ && $2 + 0 >= 32768) {
            t = a + 4 + ($2 - 65536) * 4
            if (!(t in seen)) { seen[t] = 1; loops++ }
        }
    }
    END { print n + 0, loops + 0 }' "$1"
}

# What LLVM's assembler parses from a .s (llvm-mc -show-encoding), for FUNCTION only:
# "instructions bytes loops" (loops = distinct labels targeted by a branch after the label).
# Used for gfx6/gfx7, which llvm-objdump-19 cannot disassemble, and as a cross-check.
mc_count() { # file triple gfx function llvm-major
    llvm-mc-"$5" -triple="$2" -mcpu="$3" -show-encoding "$1" | awk -v f="$4" '
    $0 == f ":" { on = 1; next }
    on && /^\.Lfunc_end[0-9]+:/ { on = 0 }
    !on { next }
    /^[.A-Za-z_$][A-Za-z0-9_.$]*:/ { l = $0; sub(/:.*/, "", l); lab[l] = 1; next }
    /; encoding: \[/ {
        n++
        e = $0; sub(/.*; encoding: \[/, "", e); sub(/\].*/, "", e); bytes += split(e, tmp, ",")
        if ($1 ~ /^s_(branch|cbranch_[a-z0-9_]+)$/ && ($2 in lab) && !($2 in seen)) { seen[$2] = 1; loops++ }
    }
    END { print n + 0, bytes + 0, loops + 0 }'
}

# One line per disasm block of a RADV_DEBUG=shaders dump:
# "header|hex_words|hex_dwords|loops|loop_headers" where loops = distinct backward branch
# targets in the disassembly and loop_headers = blocks ACO marked "loop-header" in the
# "After RA" IR printed just before that block.
radv_blocks() {
    awk '
    function flush() { if (inb) { printf "%s|%d|%d|%d|%d\n", hdr, words, dwords, loops, lh_sec } inb = 0 }
    /^After RA:/ { flush(); lh = 0; next }
    /^disasm:/ { flush(); inb = 1; hdr = prev; words = 0; dwords = 0; loops = 0; lh_sec = lh; delete lab; delete seen; nlab = 0; next }
    inb && /^$/ { flush(); next }
    inb && /^BB[0-9]+:$/ { l = $0; sub(/:$/, "", l); lab[l] = 1; next }
    inb && /; [0-9a-f]+( [0-9a-f]+)*$/ {
        words++
        h = $0; sub(/.*; /, "", h); dwords += split(h, tmp, " ")
        if ($1 ~ /^s_(branch|cbranch_[a-z0-9_]+)$/ && ($2 in lab) && !($2 in seen)) { seen[$2] = 1; loops++ }
    }
    !inb && /kind:.*loop-header/ { lh++ }
    { prev = $0 }
    END { flush() }' "$1"
}

# "index|stage|name|subgroup_size|key=value;..." for each executable of a stats TOML file.
radv_stats() {
    awk '
    function flush() { if (idx != "") printf "%s|%s|%s|%s|%s\n", idx, stage, name, sg, kv; idx = ""; kv = "" }
    /^\[\[executable\]\]/ { flush() }
    /^index = / { idx = $3 }
    /^stages = / { stage = $3; gsub(/"/, "", stage) }
    /^name = / { name = $0; sub(/^name = "/, "", name); sub(/"$/, "", name) }
    /^subgroup_size = / { sg = $3 }
    /^"[^"]+" = / { k = $0; sub(/^"/, "", k); sub(/".*/, "", k); v = $0; sub(/^"[^"]+" = /, "", v); sub(/  #.*/, "", v); kv = kv k "=" v ";" }
    END { flush() }' "$1"
}
stat_of() { # "key=value;..." key
    awk -v k="$2" 'BEGIN { RS = ";" } { i = index($0, "="); if (substr($0, 1, i - 1) == k) { print substr($0, i + 1); exit } }' <<<"$1"
}
get() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }

emit() { printf '%s\n' "$@" >>"$MANIFEST_BODY"; }

# -------------------------------------------------- LLVM: compute kernels (.s)
# Facts and manifest entry of one compute kernel .s (amdgcn-amd-amdhsa) already written to
# $FIX/llvm/GFX/NAME.s by COMMAND (as shown in the manifest) from SOURCE.
llvm_compute_fixture() { # gfx llvm-major name source command
    local gfx="$1" v="$2" k="$3" source="$4" command="$5"
    local out="$FIX/llvm/$gfx/$k.s" fn start size nasm mcbytes mcloops ninst loops isrc lh
    # instruction count: assemble the .s and count what llvm-objdump prints for the function
    llvm-mc-"$v" -triple=amdgcn-amd-amdhsa -mcpu="$gfx" -filetype=obj "$out" -o "$TMP/k.o"
    llvm_facts "$out" >"$TMP/facts"
    fn="$(get "$TMP/facts" function)"
    read -r start size < <(sym_range "$TMP/k.o" "$fn" "$v") || die "no symbol $fn in llvm/$gfx/$k.s"
    read -r nasm mcbytes mcloops < <(mc_count "$out" amdgcn-amd-amdhsa "$gfx" "$fn" "$v")
    case "$gfx" in
    gfx6* | gfx7*)
        # llvm-objdump-19: "Disassembly not yet supported for subtarget" (SI/CI encoding).
        # The assembler's own count is exact when its bytes fill the whole symbol.
        [[ "$mcbytes" == "$size" ]] || die "llvm/$gfx/$k.s: llvm-mc bytes $mcbytes != symbol size $size"
        ninst="$nasm" loops="$mcloops" isrc="llvm-mc"
        ;;
    *)
        llvm-objdump-"$v" -d --mcpu="$gfx" "$TMP/k.o" >"$TMP/k.dis"
        read -r ninst loops < <(objdump_count "$TMP/k.dis" "$start" "$size")
        isrc="llvm-objdump"
        [[ "$loops" == "$mcloops" ]] || warn "llvm/$gfx/$k.s: objdump loops $loops != llvm-mc label loops $mcloops"
        ;;
    esac
    lh="$(get "$TMP/facts" loop_headers)"
    [[ "$loops" == "$lh" ]] || warn "llvm/$gfx/$k.s: $loops backward-branch loops but LLVM reports $lh loop headers"
    emit "" "[[fixture]]" \
        "path = \"llvm/$gfx/$k.s\"" \
        "dialect = \"llvm\"" \
        "target = \"$gfx\"" \
        "stage = \"compute\"" \
        "source = \"$source\"" \
        "function = \"$fn\"" \
        "command = \"$command\"" \
        "toolchain = \"$(toolchain_of "$v")\"" \
        "instructions = $ninst" \
        "instructions_source = \"$isrc\"" \
        "asm_instructions = $nasm" \
        "loops = $loops" \
        "loop_headers_reported = $lh" \
        "vgprs = $(get "$TMP/facts" vgprs)" \
        "sgprs = $(get "$TMP/facts" sgprs)" \
        "next_free_vgpr = $(get "$TMP/facts" next_free_vgpr)" \
        "next_free_sgpr = $(get "$TMP/facts" next_free_sgpr)" \
        "code_bytes = $(get "$TMP/facts" code_bytes)" \
        "lds_bytes = $(get "$TMP/facts" lds_bytes)" \
        "scratch_bytes = $(get "$TMP/facts" scratch_bytes)" \
        "occupancy = $(get "$TMP/facts" occupancy)" \
        "wave_size = $(get "$TMP/facts" wave_size)"
    # gfx90a/gfx942 (unified VGPR+AGPR file): the compiler's AGPR count and the first AGPR's
    # index in the unified file
    [[ "$(get "$TMP/facts" agprs)" == "-" ]] || emit "agprs = $(get "$TMP/facts" agprs)"
    [[ "$(get "$TMP/facts" accum_offset)" == "-" ]] || emit "accum_offset = $(get "$TMP/facts" accum_offset)"
    count_llvm=$((count_llvm + 1))
}

# OpenCL kernels
for job in "${OPENCL_JOBS[@]}"; do
    IFS='|' read -r gfx v kernels <<<"$job"
    mkdir -p "$FIX/llvm/$gfx"
    for k in $kernels; do
        # clang-22 warns "local memory global used by non-kernel function" for kernels with
        # local arrays: the warning is about the __clang_ocl_kern_imp_ copy (see llvm_facts).
        (cd "$SRC/opencl" && clang-"$v" -S -O2 -nogpulib -target amdgcn-amd-amdhsa -mcpu="$gfx" \
            -x cl -cl-std=CL2.0 "$k.cl" -o "$FIX/llvm/$gfx/$k.s")
        llvm_compute_fixture "$gfx" "$v" "$k" "src/opencl/$k.cl" \
            "clang-$v -S -O2 -nogpulib -target amdgcn-amd-amdhsa -mcpu=$gfx -x cl -cl-std=CL2.0 $k.cl"
    done
done

# ------------------------------------------------------- LLVM: IR graphics shaders
for job in "${GRAPHICS_JOBS[@]}"; do
    IFS='|' read -r gfx v variant <<<"$job"
    mkdir -p "$FIX/llvm/$gfx"
    for shader in ps_textured vs_transform; do
        src="${shader}_${variant}.ll"
        out="$FIX/llvm/$gfx/$shader.s"
        stage=pixel
        [[ "$shader" == vs_* ]] && stage=vertex
        (cd "$SRC/llvm-ir" && llc-"$v" -O2 -mtriple=amdgcn-mesa-mesa3d -mcpu="$gfx" "$src" -o "$out")
        llvm-mc-"$v" -triple=amdgcn-mesa-mesa3d -mcpu="$gfx" -filetype=obj "$out" -o "$TMP/g.o"
        llvm-objdump-"$v" -d --mcpu="$gfx" "$TMP/g.o" >"$TMP/g.dis"
        llvm_facts "$out" >"$TMP/facts"
        fn="$(get "$TMP/facts" function)"
        read -r start size < <(sym_range "$TMP/g.o" "$fn" "$v") || die "no symbol $fn in llvm/$gfx/$shader.s"
        read -r ninst loops < <(objdump_count "$TMP/g.dis" "$start" "$size")
        read -r nasm mcbytes mcloops < <(mc_count "$out" amdgcn-mesa-mesa3d "$gfx" "$fn" "$v")
        [[ "$loops" == "$mcloops" ]] || warn "llvm/$gfx/$shader.s: objdump loops $loops != llvm-mc label loops $mcloops"
        lh="$(get "$TMP/facts" loop_headers)"
        [[ "$loops" == "$lh" ]] || warn "llvm/$gfx/$shader.s: $loops backward-branch loops but LLVM reports $lh loop headers"
        emit "" "[[fixture]]" \
            "path = \"llvm/$gfx/$shader.s\"" \
            "dialect = \"llvm\"" \
            "target = \"$gfx\"" \
            "stage = \"$stage\"" \
            "source = \"src/llvm-ir/$src\"" \
            "function = \"$fn\"" \
            "command = \"llc-$v -O2 -mtriple=amdgcn-mesa-mesa3d -mcpu=$gfx $src\"" \
            "toolchain = \"$(toolchain_of "$v")\"" \
            "instructions = $ninst" \
            "instructions_source = \"llvm-objdump\"" \
            "asm_instructions = $nasm" \
            "loops = $loops" \
            "loop_headers_reported = $lh" \
            "vgprs = $(get "$TMP/facts" vgprs)" \
            "sgprs = $(get "$TMP/facts" sgprs)" \
            "code_bytes = $(get "$TMP/facts" code_bytes)" \
            "lds_bytes = $(get "$TMP/facts" lds_bytes)" \
            "scratch_bytes = $(get "$TMP/facts" scratch_bytes)" \
            "occupancy = $(get "$TMP/facts" occupancy)"
        count_llvm=$((count_llvm + 1))
    done
done

# ---------------------------------------------------------- LLVM: IR compute kernels
for job in "${IR_COMPUTE_JOBS[@]}"; do
    IFS='|' read -r gfx v kernels <<<"$job"
    mkdir -p "$FIX/llvm/$gfx"
    for k in $kernels; do
        (cd "$SRC/llvm-ir" && llc-"$v" -O2 -mtriple=amdgcn-amd-amdhsa -mcpu="$gfx" "$k.ll" -o "$FIX/llvm/$gfx/$k.s")
        llvm_compute_fixture "$gfx" "$v" "$k" "src/llvm-ir/$k.ll" \
            "llc-$v -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=$gfx $k.ll"
    done
done

# ------------------------------------------------------------ objdump: code objects
for job in "${OBJDUMP_JOBS[@]}"; do
    IFS='|' read -r gfx v kernels <<<"$job"
    mkdir -p "$FIX/objdump/$gfx" "$TMP/obj"
    for k in $kernels; do
        out="$FIX/objdump/$gfx/$k.dis"
        # clang-<v> links with its own ld.lld (package lld-<v>)
        (cd "$SRC/opencl" && clang-"$v" -O2 -nogpulib -target amdgcn-amd-amdhsa -mcpu="$gfx" \
            -x cl -cl-std=CL2.0 "$k.cl" -o "$TMP/obj/$k.hsaco")
        # run in the object's directory so the header names "k.hsaco", not a temp path
        (cd "$TMP/obj" && llvm-objdump-"$v" -d --mcpu="$gfx" "$k.hsaco") >"$out"
        read -r start size < <(sym_range "$TMP/obj/$k.hsaco" "$k" "$v") || die "no symbol $k in $k.hsaco"
        read -r ninst loops < <(objdump_count "$out" "$start" "$size")
        llvm-readelf-"$v" --notes "$TMP/obj/$k.hsaco" >"$TMP/notes"
        vg="$(awk '$1 == ".vgpr_count:" { print $2; exit }' "$TMP/notes")"
        sg="$(awk '$1 == ".sgpr_count:" { print $2; exit }' "$TMP/notes")"
        ws="$(awk '$1 == ".wavefront_size:" { print $2; exit }' "$TMP/notes")"
        lds="$(awk '$1 == ".group_segment_fixed_size:" { print $2; exit }' "$TMP/notes")"
        emit "" "[[fixture]]" \
            "path = \"objdump/$gfx/$k.dis\"" \
            "dialect = \"objdump\"" \
            "target = \"$gfx\"" \
            "stage = \"compute\"" \
            "source = \"src/opencl/$k.cl\"" \
            "function = \"$k\"" \
            "command = \"clang-$v -O2 -nogpulib -target amdgcn-amd-amdhsa -mcpu=$gfx -x cl -cl-std=CL2.0 $k.cl -o $k.hsaco; llvm-objdump-$v -d --mcpu=$gfx $k.hsaco\"" \
            "toolchain = \"$(toolchain_of "$v")\"" \
            "instructions = $ninst" \
            "instructions_source = \"llvm-objdump\"" \
            "loops = $loops" \
            "vgprs = $vg" \
            "sgprs = $sg" \
            "code_bytes = $size" \
            "code_start = 0x$(awk -v s="$start" 'BEGIN { sub(/^0+/, "", s); print s }')" \
            "lds_bytes = $lds" \
            "wave_size = $ws"
        count_objdump=$((count_objdump + 1))
    done
done

# ------------------------------------------------------------------ RADV / ACO
# RADV builds each pipeline under shadersim's own capture command (crates/radv).
cargo build --release --quiet -p shadersim --manifest-path "$ROOT/Cargo.toml"
CAPTURE="${CARGO_TARGET_DIR:-$ROOT/target}/release/shadersim"
mkdir -p "$TMP/spv"
for f in "$SRC"/glsl/*.vert "$SRC"/glsl/*.frag "$SRC"/glsl/*.comp; do
    (cd "$SRC/glsl" && glslangValidator -V --quiet "$(basename "$f")" -o "$TMP/spv/$(basename "$f").spv")
done
stage_of_header() { # disasm header / executable stages -> manifest stage
    case "$1" in
    Vertex* | vertex*) echo vertex ;;
    Pixel* | Fragment* | fragment*) echo pixel ;;
    Compute* | compute*) echo compute ;;
    *) echo unknown ;;
    esac
}
for job in "${RADV_JOBS[@]}"; do
    IFS='|' read -r fam gfx pipes <<<"$job"
    mkdir -p "$FIX/radv/$fam"
    for p in $pipes; do
        line=""
        for pl in "${RADV_PIPELINES[@]}"; do [[ "${pl%%|*}" == "$p" ]] && line="$pl"; done
        [[ -n "$line" ]] || die "unknown RADV pipeline $p"
        IFS='|' read -r _ subject shaders perftest <<<"$line"
        spvs=()
        for s in $shaders; do spvs+=("$TMP/spv/$s.spv"); done
        out="$FIX/radv/$fam/$p.txt"
        stats="$FIX/radv/$fam/$p.stats.toml"
        # clean environment: only what RADV needs, HOME in the temp dir (no shader cache reuse)
        if ! env -i PATH="$PATH" HOME="$TMP" LC_ALL=C \
            VK_ICD_FILENAMES="$ICD" NODEVICE_SELECT=1 MESA_SHADER_CACHE_DISABLE=true \
            RADV_FORCE_FAMILY="$fam" RADV_DEBUG=shaders,nocache ${perftest:+RADV_PERFTEST=$perftest} \
            "$CAPTURE" radv-capture -o "$stats" "${spvs[@]}" 2>"$out"; then
            cat "$out" >&2
            die "shadersim radv-capture failed for $fam/$p"
        fi
        grep -q '^disasm:' "$out" || die "radv/$fam/$p.txt has no disasm block"
        radv_blocks "$out" >"$TMP/blocks"
        radv_stats "$stats" >"$TMP/stats"
        # pair each disasm block with the executable of the same stage
        : >"$TMP/shaders"
        sub_line=""
        while IFS='|' read -r hdr words dwords loops lh; do
            st="$(stage_of_header "$hdr")"
            ex="$(awk -F'|' -v s="$st" '
                function m(x) { return x ~ /^vertex/ ? "vertex" : x ~ /^fragment/ ? "pixel" : x ~ /^compute/ ? "compute" : "?" }
                m($2) == s { print; exit }' "$TMP/stats")"
            [[ -n "$ex" ]] || die "radv/$fam/$p: no statistics for disasm block '$hdr'"
            IFS='|' read -r idx _ exname sgsize kv <<<"$ex"
            ninst="$(stat_of "$kv" Instructions)"
            [[ "$ninst" == "$words" ]] || warn "radv/$fam/$p.txt '$hdr': ACO Instructions=$ninst but $words hex-encoded lines"
            [[ "$loops" == "$lh" ]] || warn "radv/$fam/$p.txt '$hdr': $loops backward-branch loops but ACO marks $lh loop headers"
            printf '%s\n' "" "[[fixture.shaders]]" \
                "stage = \"$st\"" \
                "disasm_header = \"$hdr\"" \
                "executable = \"$exname\"" \
                "executable_index = $idx" \
                "instructions = $ninst" \
                "instructions_source = \"aco-statistics\"" \
                "hex_words = $words" \
                "hex_dwords = $dwords" \
                "loops = $loops" \
                "loop_headers_reported = $lh" \
                "vgprs = $(stat_of "$kv" VGPRs)" \
                "sgprs = $(stat_of "$kv" SGPRs)" \
                "pre_sched_vgprs = $(stat_of "$kv" 'Pre-Sched VGPRs')" \
                "pre_sched_sgprs = $(stat_of "$kv" 'Pre-Sched SGPRs')" \
                "code_bytes = $(stat_of "$kv" 'Code size')" \
                "lds_bytes = $(stat_of "$kv" 'LDS size')" \
                "scratch_bytes = $(stat_of "$kv" 'Scratch size')" \
                "wave_size = $sgsize" \
                "branches = $(stat_of "$kv" Branches)" \
                "latency = $(stat_of "$kv" Latency)" \
                "inverse_throughput = $(stat_of "$kv" 'Inverse Throughput')" >>"$TMP/shaders"
            if [[ "$st" == "$subject" ]]; then
                sub_line="$ninst|$words|$dwords|$loops|$lh|$(stat_of "$kv" VGPRs)|$(stat_of "$kv" SGPRs)|$(stat_of "$kv" 'Code size')|$(stat_of "$kv" 'LDS size')|$sgsize|$hdr"
            fi
        done <"$TMP/blocks"
        [[ -n "$sub_line" ]] || die "radv/$fam/$p: no $subject shader in the dump"
        IFS='|' read -r s_inst s_words s_dwords s_loops s_lh s_vg s_sg s_code s_lds s_ws s_hdr <<<"$sub_line"
        subject_src=""
        for s in $shaders; do
            case "$subject:$s" in pixel:*.frag | vertex:*.vert | compute:*.comp) subject_src="$s" ;; esac
        done
        srcs=""
        for s in $shaders; do srcs+="${srcs:+, }\"src/glsl/$s\""; done
        emit "" "[[fixture]]" \
            "path = \"radv/$fam/$p.txt\"" \
            "dialect = \"radv\"" \
            "target = \"$gfx\"" \
            "family = \"$fam\"" \
            "stage = \"$subject\"" \
            "source = \"src/glsl/$subject_src\"" \
            "sources = [$srcs]" \
            "function = \"main\"" \
            "disasm_header = \"$s_hdr\"" \
            "statistics = \"radv/$fam/$p.stats.toml\"" \
            "command = \"RADV_FORCE_FAMILY=$fam RADV_DEBUG=shaders,nocache${perftest:+ RADV_PERFTEST=$perftest} shadersim radv-capture -o $p.stats.toml $(for s in $shaders; do printf '%s.spv ' "$s"; done | sed 's/ $//')\"" \
            "toolchain = \"mesa-radv ${mesa_ver:-unknown}\"" \
            "instructions = $s_inst" \
            "instructions_source = \"aco-statistics\"" \
            "hex_words = $s_words" \
            "hex_dwords = $s_dwords" \
            "loops = $s_loops" \
            "loop_headers_reported = $s_lh" \
            "vgprs = $s_vg" \
            "sgprs = $s_sg" \
            "code_bytes = $s_code" \
            "lds_bytes = $s_lds" \
            "wave_size = $s_ws"
        cat "$TMP/shaders" >>"$MANIFEST_BODY"
        count_radv=$((count_radv + 1))
    done
done

# ------------------------------------------------------------------ manifest
{
    cat <<EOF
# Compiler-reported facts about every generated fixture. GENERATED by
# scripts/regen-fixtures.sh; do not edit by hand (edit the script).
# Toolchains: clang/llc/llvm-mc/llvm-objdump $clang_ver (Debian llvm-19) for gfx6..gfx11,
# $clang22_ver (Debian llvm-22) for gfx1200, gfx90a, gfx942, the WMMA kernels and for the
# ooo_chase* kernels of every target,
# Mesa RADV/ACO ${mesa_ver:-unknown}. Each fixture's "toolchain" key says which made it:
# "clang-19 <version>", "clang-22 <version>" (also for llc) or "mesa-radv <version>".
# Fixtures: $count_llvm llvm, $count_objdump objdump, $count_radv radv.
#
# Common keys: path (relative to tests/fixtures), dialect ("llvm" | "objdump" | "radv"),
# target (gfx name; RADV: the gfx of the forced family), stage ("compute" | "pixel" | "vertex"),
# source, function (kernel / shader function; "main" for GLSL), command (how it was made),
# toolchain (see above). The llvm facts are the kernel's, the first function of the .s:
# clang-22 (clang 21+) follows each OpenCL kernel with __clang_ocl_kern_imp_<kernel>, a
# callable (non-kernel) copy of its body, in the .s and in the linked code object.
#
# instructions
#   llvm:    the .s is assembled with llvm-mc -filetype=obj (same LLVM version as the
#            compiler); we count the instruction lines
#            llvm-objdump -d prints inside the function symbol [value, value+size). That
#            includes s_endpgm and any s_nop padding that ".p2align" directives put INSIDE the
#            function (e.g. before loop headers on gfx10+), and excludes everything after the
#            function's end (s_code_end / trailing padding). asm_instructions = instructions
#            written in the .s text (llvm-mc -show-encoding count), i.e. without alignment
#            padding; instructions - asm_instructions = padding s_nop count.
#   objdump: the same count on the .dis itself, within the linked symbol's range.
#   radv:    ACO's "Instructions" statistic (VK_KHR_pipeline_executable_properties).
#            hex_words = instructions in the disasm block that carry a trailing "; hex" encoding,
#            hex_dwords = dwords in those encodings (= code_bytes / 4). For every fixture here
#            hex_words == instructions (the script warns if not).
# loops: natural loops in THIS machine code = distinct targets of backward branches
#   (s_branch / s_cbranch_* with a negative offset, or to an earlier BBn label in RADV
#   dumps). loop_headers_reported is the compiler's own count: LLVM's "=>This (Inner) Loop
#   Header" comments (MachineLoopInfo) or ACO blocks of kind "loop-header"; the script
#   warns if the two disagree, and the CFG tests hold the compiler's count then
#   (step_relax: the structurizer's flow blocks branch back to a block that heads no
#   loop, 2 backward targets for 1 loop). Loops the compiler fully unrolled are not counted.
# vgprs / sgprs
#   llvm:    "; NumVgprs:" / "; NumSgprs:" comments ("; TotalNumSgprs:" in LLVM 22). NumSgprs INCLUDES the extra SGPRs LLVM
#            reserves (VCC, FLAT_SCRATCH, XNACK_MASK); next_free_vgpr / next_free_sgpr are the
#            .amdhsa_next_free_* values of the kernel descriptor (excluding them); the
#            amdgcn-mesa-mesa3d shaders have no kernel descriptor, so no next_free_* keys.
#   objdump: .vgpr_count / .sgpr_count of the code object's metadata note (same as NumVgprs /
#            NumSgprs).
#   radv:    ACO "VGPRs" / "SGPRs" statistics: registers ALLOCATED per wave, i.e. rounded up to
#            the allocation granule; on gfx10+ SGPRs is always 128 (fixed allocation).
#            pre_sched_* are ACO's "Pre-Sched VGPRs/SGPRs" (demand before scheduling).
# agprs / accum_offset (gfx90a, gfx942 only): "; NumAgprs:" and .amdhsa_accum_offset. Their
#   register file is unified: a wave's architectural VGPRs (vgprs) come first, its AGPRs
#   start at accum_offset (vgprs rounded up to 4), and the compiler's "; TotalNumVgprs:" is
#   accum_offset + agprs when agprs > 0, else vgprs.
# code_bytes: llvm ";codeLenInByte", objdump symbol size, radv "Code size".
# RADV files hold a whole pipeline (a graphics pipeline = vertex + fragment shader). The
# top-level keys describe the SUBJECT shader of the fixture (stage = its stage, disasm_header
# = the line before its "disasm:"); [[fixture.shaders]] lists every disasm block in file
# order with the matching statistics (radv/<family>/<name>.stats.toml has them all).
EOF
    # drop "key = -" lines (facts a given dialect does not have)
    grep -v ' = -$' "$MANIFEST_BODY"
} >"$FIX/manifest.toml"

echo "regen-fixtures: $count_llvm llvm, $count_objdump objdump, $count_radv radv fixtures; manifest: tests/fixtures/manifest.toml"
