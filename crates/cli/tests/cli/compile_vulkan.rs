//! GLSL and SPIR-V compiled in place by Mesa RADV on its null device (no
//! AMD GPU): the listing is the driver's own, its statistics feed the
//! occupancy, and every failure is a clear error.

use crate::{command, root, shadersim};
use shadersim_testkit::cli::json;
use shadersim_testkit::tools::have_radv;
use std::process::{Command, Output};

/// `shadersim ARGS` with the environment variables `env` set.
fn shadersim_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    env.iter()
        .fold(command().args(args), |run, (k, v)| run.env(k, v))
        .output()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A statistic of the first executable of `stage` in a statistics file.
fn statistic(stats: &str, stage: &str, name: &str) -> i64 {
    let v: toml::Value = toml::from_str(stats).expect("statistics are TOML");
    let exe = v["executable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["stages"].as_str() == Some(stage))
        .unwrap_or_else(|| panic!("no {stage} executable in\n{stats}"));
    exe["statistics"][name].as_integer().unwrap()
}

#[test]
fn a_fragment_shader_compiles_with_the_drivers_statistics_beside_it() {
    if !have_radv() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lighting.s");
    let out_s = out.display().to_string();
    let o = shadersim(&[
        "compile",
        "examples/glsl/lighting.frag",
        "--arch",
        "gfx900",
        "-o",
        &out_s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = std::fs::read_to_string(&out).unwrap();
    assert!(
        listing.starts_with("; Fragment Shader compiled by Mesa RADV"),
        "{listing}"
    );
    // The pass-through vertex shader feeds real varyings: the fragment
    // shader interpolates them (a constant would have been folded in).
    assert!(listing.contains("v_interp_p1_f32"), "{listing}");
    let stats = std::fs::read_to_string(dir.path().join("lighting.stats.toml")).unwrap();
    // The listing holds exactly the driver's instruction count.
    let cfg = shadersim(&["cfg", &out_s, "--format", "json"]);
    let cfg = json(&cfg);
    assert_eq!(
        cfg["instructions"].as_i64(),
        Some(statistic(&stats, "fragment", "Instructions"))
    );
    // `analyze` on the saved listing finds the statistics beside it.
    let o = shadersim(&["analyze", &out_s, "--no-latency-search", "--format", "json"]);
    let r = json(&o);
    assert_eq!(
        r["occupancy"]["declared_waves_per_simd"].as_i64(),
        Some(statistic(&stats, "fragment", "Subgroups per SIMD"))
    );
}

#[test]
fn analyze_compiles_glsl_and_uses_the_drivers_figures() {
    if !have_radv() {
        return;
    }
    // Vega: the driver states the hardware occupancy; shadersim, fed the
    // driver's VGPR count, computes the same.
    let r = json(&shadersim(&[
        "analyze",
        "examples/glsl/lighting.frag",
        "--arch",
        "gfx900",
        "--no-latency-search",
        "--format",
        "json",
    ]));
    assert_eq!(r["stage"], "pixel");
    assert_eq!(
        r["occupancy"]["declared_waves_per_simd"],
        r["occupancy"]["waves_per_simd"]
    );
    // RDNA 3: a 16x16 workgroup (from the source: a bare listing does not
    // carry it) is 4 wave64s; 32 KB of LDS per workgroup. The driver counts
    // wave32-sized waves, shadersim's figure on that convention agrees.
    let r = json(&shadersim(&[
        "analyze",
        "examples/glsl/tile_matmul.comp",
        "--arch",
        "rdna3",
        "--no-latency-search",
        "--format",
        "json",
    ]));
    assert_eq!(r["stage"], "compute");
    assert_eq!(
        r["waves"].as_u64().unwrap(),
        4 * r["workgroups"].as_u64().unwrap()
    );
    assert_eq!(r["occupancy"]["lds_bytes"], 32768);
    assert_eq!(
        r["occupancy"]["declared_waves_per_simd"],
        r["occupancy"]["radv_convention_waves_per_simd"]
    );
    // RADV's figure is compared in RADV's convention (issue 47 item 8: a
    // clang listing's is not).
    assert_eq!(r["occupancy"]["declared_by"], "radv");
}

#[test]
fn spirv_is_recognised_by_extension_and_by_its_magic_number() {
    if !have_radv() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let spv = dir.path().join("reduce.bin");
    let st = Command::new("glslangValidator")
        .args(["-V", "tests/fixtures/src/glsl/reduce.comp", "-o"])
        .arg(&spv)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(st.status.success());
    let o = shadersim(&["compile", &spv.display().to_string(), "--arch", "navi21"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("; Compute Shader compiled by Mesa RADV"));
    // A .glsl file names its stage with --stage.
    let glsl = dir.path().join("reduce.glsl");
    std::fs::copy(root().join("tests/fixtures/src/glsl/reduce.comp"), &glsl).unwrap();
    let g = glsl.display().to_string();
    let o = shadersim(&["compile", &g, "--arch", "gfx1100"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--stage"));
    let o = shadersim(&["compile", &g, "--arch", "gfx1100", "--stage", "comp"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn spirv_with_glslang_debug_info_compiles() {
    // `glslangValidator -gVS` writes NonSemantic.Shader.DebugInfo.100
    // records, some between functions, which rspirv's loader refused ("not
    // inside block"); the reflection skips non-semantic instructions and
    // the driver compiles the same shader.
    if !have_radv() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let spv = dir.path().join("reduce.spv");
    let st = Command::new("glslangValidator")
        .args(["-V", "-gVS", "tests/fixtures/src/glsl/reduce.comp", "-o"])
        .arg(&spv)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(st.status.success());
    let debug = shadersim(&["compile", &spv.display().to_string(), "--arch", "navi21"]);
    assert!(debug.status.success(), "{}", text(&debug.stderr));
    let plain = shadersim(&[
        "compile",
        "tests/fixtures/src/glsl/reduce.comp",
        "--arch",
        "navi21",
    ]);
    assert!(plain.status.success(), "{}", text(&plain.stderr));
    let instructions = |o: &Output| {
        text(&o.stdout)
            .lines()
            .filter(|l| l.starts_with("\ts_") || l.starts_with("\tv_"))
            .count()
    };
    assert!(instructions(&debug) > 0);
    assert_eq!(instructions(&debug), instructions(&plain));
}

#[test]
fn compile_failures_are_clear_errors() {
    if !have_radv() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Mesa 22.3 predates gfx12.
    let o = shadersim(&[
        "compile",
        "examples/glsl/lighting.frag",
        "--arch",
        "gfx1200",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("gfx6 to gfx11"),
        "{}",
        text(&o.stderr)
    );
    // No glslang: the error names the package.
    let o = shadersim_env(
        &["compile", "examples/glsl/lighting.frag", "--arch", "gfx900"],
        &[("PATH", "/nonexistent")],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("glslang-tools"),
        "{}",
        text(&o.stderr)
    );
    // A GLSL error is glslang's message.
    let bad = dir.path().join("bad.frag");
    std::fs::write(&bad, "#version 450\nvoid main() { undefined_thing = 1; }\n").unwrap();
    let o = shadersim(&["compile", &bad.display().to_string(), "--arch", "gfx900"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("undefined_thing"),
        "{}",
        text(&o.stderr)
    );
    // Bytes that are not SPIR-V.
    let junk = dir.path().join("junk.spv");
    std::fs::write(&junk, b"not spir-v at all, just text.").unwrap();
    let o = shadersim(&["compile", &junk.display().to_string(), "--arch", "gfx900"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("not a SPIR-V module"),
        "{}",
        text(&o.stderr)
    );
    // A module the SPIR-V parser (rspirv) panics on: an error, and no
    // panic message on standard error (OpSpecConstantOp naming opcode 50).
    let words: [u32; 9] = [
        0x0723_0203,
        0x0001_0000,
        0,
        300,
        0,
        (4 << 16) | 52,
        0,
        0,
        50,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let panics = dir.path().join("panics.spv");
    std::fs::write(&panics, bytes).unwrap();
    let o = shadersim(&["compile", &panics.display().to_string(), "--arch", "gfx900"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("not valid SPIR-V"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A driver that does not come up (an unknown family) is an error, not a crash.
    let o = shadersim_env(
        &["radv-capture", "/nonexistent.spv"],
        &[("RADV_FORCE_FAMILY", "gfx1100")],
    );
    assert_eq!(o.status.code(), Some(1));
}

/// The export instructions of a listing (`exp ...`), and the attribute
/// ring stores gfx11 writes its varyings with instead of `exp param`.
fn exports(listing: &str) -> Vec<String> {
    listing
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .filter(|l| l.starts_with("exp ") || l.starts_with("buffer_store"))
        .collect()
}

#[test]
fn a_vertex_shader_compiled_alone_keeps_every_output() {
    if !have_radv() {
        return;
    }
    // light_basic.vert writes gl_Position and three varyings: a vec3
    // (location 0), a vec2 (1) and a vec4 (2): 3 + 2 + 4 = 9 components.
    // The generated fragment shader reads all three, so RADV keeps them and
    // packs the 9 components into ceil(9 / 4) = 3 parameter slots.
    let shader = "crates/cli/tests/glsl/light_basic.vert";
    // gfx9 (a hardware VS): one position export and 3 parameter exports
    // carrying the 9 components (the rest of the last slot is `off`).
    let o = shadersim(&["compile", shader, "--arch", "gfx900"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gfx9 = exports(&text(&o.stdout));
    let params: Vec<&String> = gfx9.iter().filter(|e| e.starts_with("exp param")).collect();
    assert_eq!(params.len(), 3, "{gfx9:#?}");
    let components: usize = params
        .iter()
        .map(|e| e.split([' ', ',']).filter(|t| t.starts_with('v')).count())
        .sum();
    assert_eq!(components, 9, "{gfx9:#?}");
    assert_eq!(gfx9.iter().filter(|e| e.starts_with("exp pos0")).count(), 1);
    // gfx11 (NGG): the primitive and position exports, and the 3 slots
    // written to the attribute ring by buffer stores (gfx11 has no
    // parameter exports).
    let o = shadersim(&["compile", shader, "--arch", "gfx1100"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gfx11 = exports(&text(&o.stdout));
    assert_eq!(
        gfx11.iter().filter(|e| e.starts_with("exp pos0")).count(),
        1,
        "{gfx11:#?}"
    );
    assert_eq!(
        gfx11.iter().filter(|e| e.starts_with("exp prim")).count(),
        1,
        "{gfx11:#?}"
    );
    assert_eq!(
        gfx11
            .iter()
            .filter(|e| e.starts_with("buffer_store"))
            .count(),
        3,
        "{gfx11:#?}"
    );
}
