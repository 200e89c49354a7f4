#!/usr/bin/env bash
# Regenerate shadersim's bare ACO listing fixtures:
#
#   tests/fixtures/aco/<family>/<pipeline>.<stage>.s    the "Assembly" internal representation of
#                                                       one pipeline executable, as Vulkan's
#                                                       VK_KHR_pipeline_executable_properties
#                                                       returns it (what RenderDoc shows for RADV):
#                                                       ACO's disassembly, BBn: labels, "; hex"
#                                                       encodings, "(then repeated N times)" lines,
#                                                       and no RADV_DEBUG header
#   tests/fixtures/aco/<family>/<pipeline>.stats.toml   the driver's statistics of every executable
#   tests/fixtures/aco/manifest.toml                    one entry per listing: GPU, stage and the
#                                                       driver's own counts
#
# from the GLSL in tests/fixtures/src/glsl/ (shared with scripts/regen-fixtures.sh) and
# tests/fixtures/aco/src/ (shaders written for these listings: identical consecutive
# instructions, a 256-thread workgroup with 8 KB of LDS). No GPU is needed: RADV runs on its null
# winsys (RADV_FORCE_FAMILY). The output is deterministic for a given Mesa; re-running must leave
# `git diff --exit-code tests/fixtures/aco` clean.
#
# Debian 12 (bookworm) packages needed:
#   glslang-tools mesa-vulkan-drivers
#     glslang-tools        GLSL -> SPIR-V (glslangValidator)
#     mesa-vulkan-drivers  RADV + ACO (the listings were made with 22.3.6-1+deb12u2)
#   and cargo: RADV builds the pipelines under `shadersim radv-capture` (built by this script)
#   apt-get install -y --no-install-recommends glslang-tools mesa-vulkan-drivers
#
# Usage: scripts/regen-aco-listings.sh        (from anywhere; takes a few seconds)
set -euo pipefail
export LC_ALL=C
export TZ=UTC

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/tests/fixtures/aco"
SHARED_SRC="$ROOT/tests/fixtures/src/glsl"
OWN_SRC="$OUT/src"
EXPECTED_MESA="22.3.6"

die() { echo "regen-aco-listings: error: $*" >&2; exit 1; }
warn() { echo "regen-aco-listings: warning: $*" >&2; }

# ---------------------------------------------------------------- prerequisites
PACKAGES=(glslang-tools mesa-vulkan-drivers)
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
        warn "mesa-vulkan-drivers is $mesa_ver, the listings were made with $EXPECTED_MESA: they will differ"
else
    warn "dpkg-query not found (not Debian?): checking for the tools only"
fi
for tool in glslangValidator cargo awk; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found in PATH (see the package list at the top of $0)"
done
ICD=/usr/share/vulkan/icd.d/radeon_icd.x86_64.json
[[ -f "$ICD" ]] || die "$ICD not found (package mesa-vulkan-drivers)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# ------------------------------------------------------------------ what to build
# pipeline|shaders (vertex+fragment, or compute)|RADV_PERFTEST
PIPELINES=(
    "lighting|transform.vert lighting.frag|"
    "skinning|skinning.vert flat.frag|"
    "blur|fullscreen.vert blur.frag|"
    "alpha_test|transform.vert alpha_test.frag|"
    "reduce|reduce.comp|"
    "repeat_store|repeat_store.comp|"
    "lds_tile|lds_tile.comp|"
    "lighting_wave32|transform.vert lighting.frag|pswave32,gewave32"
    "repeat_store_wave32|repeat_store.comp|cswave32"
    "lds_tile_wave32|lds_tile.comp|cswave32"
)
# family|gfx|pipelines (wave32 exists from gfx10 on)
JOBS=(
    "vega10|gfx900|lighting skinning blur alpha_test reduce repeat_store lds_tile"
    "navi21|gfx1030|lighting skinning blur alpha_test reduce repeat_store lds_tile lighting_wave32 repeat_store_wave32 lds_tile_wave32"
    "gfx1100|gfx1100|lighting skinning blur alpha_test reduce repeat_store lds_tile lighting_wave32 repeat_store_wave32 lds_tile_wave32"
)

# RADV builds each pipeline under shadersim's own capture command (crates/radv).
cargo build --release --quiet -p shadersim --manifest-path "$ROOT/Cargo.toml"
CAPTURE="${CARGO_TARGET_DIR:-$ROOT/target}/release/shadersim"
mkdir -p "$TMP/spv"
for f in "$SHARED_SRC"/*.vert "$SHARED_SRC"/*.frag "$SHARED_SRC"/*.comp "$OWN_SRC"/*.comp; do
    (cd "$(dirname "$f")" && glslangValidator -V --quiet "$(basename "$f")" -o "$TMP/spv/$(basename "$f").spv")
done

rm -rf "$OUT/vega10" "$OUT/navi21" "$OUT/gfx1100"
BODY="$TMP/manifest.body"
: >"$BODY"
count=0

# "index|stage|subgroup_size|instructions|vgprs|sgprs|lds|code_bytes|waves_per_simd" per executable.
exec_stats() {
    awk '
    function flush() { if (idx != "") printf "%s|%s|%s|%s|%s|%s|%s|%s|%s\n", idx, st, sg, ni, vg, sgp, lds, cb, occ; idx = "" }
    /^\[\[executable\]\]/ { flush() }
    /^index = / { idx = $3 }
    /^stages = / { st = $3; gsub(/"/, "", st) }
    /^subgroup_size = / { sg = $3 }
    /^"[^"]+" = / {
        k = $0; sub(/^"/, "", k); sub(/".*/, "", k)
        v = $0; sub(/^"[^"]+" = /, "", v); sub(/ .*/, "", v)
        if (k == "Instructions") ni = v
        else if (k == "VGPRs") vg = v
        else if (k == "SGPRs") sgp = v
        else if (k == "LDS size") lds = v
        else if (k == "Code size") cb = v
        else if (k == "Subgroups per SIMD") occ = v
    }
    END { flush() }' "$1"
}

for job in "${JOBS[@]}"; do
    IFS='|' read -r fam gfx pipes <<<"$job"
    mkdir -p "$OUT/$fam"
    for p in $pipes; do
        line=""
        for pl in "${PIPELINES[@]}"; do [[ "${pl%%|*}" == "$p" ]] && line="$pl"; done
        [[ -n "$line" ]] || die "unknown pipeline $p"
        IFS='|' read -r _ shaders perftest <<<"$line"
        spvs=()
        for s in $shaders; do spvs+=("$TMP/spv/$s.spv"); done
        stats="$OUT/$fam/$p.stats.toml"
        # clean environment: only what RADV needs, HOME in the temp dir (no shader cache reuse)
        if ! env -i PATH="$PATH" HOME="$TMP" LC_ALL=C \
            VK_ICD_FILENAMES="$ICD" NODEVICE_SELECT=1 MESA_SHADER_CACHE_DISABLE=true \
            RADV_FORCE_FAMILY="$fam" RADV_DEBUG=nocache ${perftest:+RADV_PERFTEST=$perftest} \
            "$CAPTURE" radv-capture -o "$stats" -a "$TMP/$fam.$p" "${spvs[@]}" 2>"$TMP/err"; then
            cat "$TMP/err" >&2
            die "shadersim radv-capture failed for $fam/$p"
        fi
        # the pipeline hash statistic changes with nothing the listing shows; keep it out so
        # that reruns are byte-identical whatever the driver build
        sed -i '/^"Driver pipeline hash" = /d' "$stats"
        while IFS='|' read -r idx stage sg ninst vg sgp lds cb occ; do
            case "$stage" in
            vertex) short=vs st=vertex ;;
            fragment) short=ps st=pixel ;;
            compute) short=cs st=compute ;;
            *) die "$fam/$p: unexpected executable stage $stage" ;;
            esac
            listing="$OUT/$fam/$p.$short.s"
            cp "$TMP/$fam.$p.$idx.s" "$listing"
            lines="$(awk '/^\t[a-z]/ && !/\(then repeated/ { n++ } END { print n + 0 }' "$listing")"
            repeats="$(awk '/\(then repeated [0-9]+ times\)/ { n += $3 } END { print n + 0 }' "$listing")"
            [[ $((lines + repeats)) == "$ninst" ]] ||
                warn "$fam/$p.$short.s: $lines lines + $repeats repeats != driver's $ninst instructions"
            emit_lines=(
                "" "[[listing]]"
                "path = \"$fam/$p.$short.s\""
                "family = \"$fam\""
                "target = \"$gfx\""
                "stage = \"$st\""
                "statistics = \"$fam/$p.stats.toml\""
                "executable = $idx"
                "command = \"RADV_FORCE_FAMILY=$fam${perftest:+ RADV_PERFTEST=$perftest} shadersim radv-capture -o $p.stats.toml -a $p $(for s in $shaders; do printf '%s.spv ' "$s"; done | sed 's/ $//')\""
                "wave_size = $sg"
                "instructions = $ninst"
                "listed_lines = $lines"
                "repeated = $repeats"
                "vgprs = $vg"
                "sgprs = $sgp"
                "lds_bytes = $lds"
                "code_bytes = $cb"
                "waves_per_simd = $occ"
            )
            printf '%s\n' "${emit_lines[@]}" >>"$BODY"
            count=$((count + 1))
        done < <(exec_stats "$stats")
    done
done

{
    echo "# Bare ACO listings and the driver's facts about them. GENERATED by"
    echo "# scripts/regen-aco-listings.sh; do not edit by hand (edit the script)."
    echo "# Mesa RADV/ACO $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo unknown), $count listings."
    echo "#"
    echo "# path: relative to tests/fixtures/aco; target: the gfx of the forced family; stage: the"
    echo "# executable's stage (\"pixel\" | \"vertex\" | \"compute\"); executable: its index in the"
    echo "# statistics file. instructions, vgprs, sgprs, lds_bytes, code_bytes, waves_per_simd: the"
    echo "# driver's \"Instructions\", \"VGPRs\", \"SGPRs\", \"LDS size\", \"Code size\" and \"Subgroups"
    echo "# per SIMD\" statistics. listed_lines: instruction lines in the listing; repeated: copies"
    echo "# folded into \"(then repeated N times)\" lines (listed_lines + repeated == instructions)."
    cat "$BODY"
} >"$OUT/manifest.toml"
echo "regen-aco-listings: $count listings in tests/fixtures/aco"
