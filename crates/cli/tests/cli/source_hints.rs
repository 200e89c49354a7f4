//! Hints keyed by source location (`source = "FILE:LINE"`): one hints file
//! fits the program compiled for every GPU, and gives each GPU's run the
//! same loop count.

use crate::shadersim;
use crate::stdout_of as stdout;
use shadersim_testkit::tools::have_clang_22;

const MATMUL: &str = "tests/fixtures/src/opencl/matmul_tile.cl";
const ARCHS: [&str; 4] = ["vega10", "navi21", "gfx1100", "gfx1200"];

/// A hints file in a temporary directory of this module.
fn hints_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("shadersim-source_hints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// matmul_tile.cl line 15 is the tile loop `for (int t = 0; t < N; t += TILE)`
/// (N is a kernel argument, so no GPU's compiler unrolls it; the k loop on
/// line 19 has a constant count and is unrolled, leaving one loop), line 16
/// `As[ty][tx] = A[row * N + t + tx]`, the one global load of A.
const HINTS: &str = r#"
[[loop]]
source = "matmul_tile.cl:15"
iterations = 4

[[memory]]
source = "matmul_tile.cl:16"
pattern = "stride:16"
"#;

#[test]
fn one_source_keyed_hints_file_drives_compare_on_four_gpus_with_the_same_loop_count() {
    if !have_clang_22() {
        return;
    }
    let hints = hints_file("by_source.toml", HINTS);
    let v: serde_json::Value = serde_json::from_str(&stdout(&[
        "compare",
        MATMUL,
        "--arch",
        &ARCHS.join(","),
        "--hints",
        &hints,
        "--no-latency-search",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["variants"].as_array().unwrap().len(), 4);
    let mut header_lines = Vec::new();
    for arch in ARCHS {
        let a: serde_json::Value = serde_json::from_str(&stdout(&[
            "analyze",
            MATMUL,
            "--arch",
            arch,
            "--hints",
            &hints,
            "--no-latency-search",
            "--format",
            "json",
        ]))
        .unwrap();
        // One loop (the t loop; the k loop is unrolled), run 4 times per
        // wave as hinted: its header's first instruction executes 4 times
        // per wave on every GPU.
        let loops = a["loops"].as_array().unwrap();
        assert_eq!(loops.len(), 1, "{arch}");
        assert_eq!(loops[0]["iterations"].as_f64(), Some(4.0), "{arch}");
        let header = loops[0]["header_line"].as_u64().unwrap();
        header_lines.push(header);
        let first = a["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["line"].as_u64() == Some(header))
            .unwrap();
        assert_eq!(first["executions"].as_u64(), Some(4), "{arch}: {first}");
        // The memory hint reached the one load of line 16, and only it.
        let strided: Vec<&serde_json::Value> = a["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["pattern"] == "stride:16")
            .collect();
        assert_eq!(strided.len(), 1, "{arch}: {strided:?}");
        assert!(
            strided[0]["text"]
                .as_str()
                .unwrap()
                .starts_with("global_load"),
            "{arch}: {strided:?}"
        );
    }
    // The premise: the GPUs' listings put the loop at different lines, so
    // a `line =` file could not fit them all.
    header_lines.sort_unstable();
    header_lines.dedup();
    assert!(header_lines.len() > 1, "{header_lines:?}");
}

#[test]
fn hints_by_source_writes_a_template_that_fits_every_gpu() {
    if !have_clang_22() {
        return;
    }
    let navi = stdout(&["hints", MATMUL, "--arch", "navi21", "--by-source"]);
    let vega = stdout(&["hints", MATMUL, "--arch", "vega10", "--by-source"]);
    for t in [&navi, &vega] {
        assert!(t.contains("source = \"matmul_tile.cl:15\""), "{t}");
        assert!(t.contains("source = \"matmul_tile.cl:16\""), "{t}");
        assert!(!t.contains("\nline = "), "{t}");
    }
    // navi21's template drives vega10's run.
    let hints = hints_file("template.toml", &navi);
    stdout(&[
        "analyze",
        MATMUL,
        "--arch",
        "vega10",
        "--hints",
        &hints,
        "--no-latency-search",
    ]);
}

#[test]
fn a_source_line_without_memory_ops_names_the_lines_that_have_them() {
    if !have_clang_22() {
        return;
    }
    let hints = hints_file(
        "no_memory.toml",
        "[[memory]]\nsource = \"matmul_tile.cl:20\"\npattern = \"linear\"\n",
    );
    let o = shadersim(&["analyze", MATMUL, "--arch", "gfx1100", "--hints", &hints]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // Line 20 is `acc += As[ty][k] * Bs[k][tx]`: LDS reads only. The vector
    // and scalar memory ops come from 8 (the kernel's opening line, which
    // the kernel arguments' scalar loads carry), 16 and 17 (the global
    // loads of A and B) and 23 (the store of C).
    assert!(
        err.contains(&format!(
            "{hints}:2:10: error: no vector or scalar memory instruction of `matmul_tile` comes \
             from matmul_tile.cl:20; source lines with memory instructions: 8, 16-17, 23"
        )),
        "{err}"
    );
}

#[test]
fn a_glsl_shader_through_radv_has_no_source_lines_and_says_so() {
    if !shadersim_testkit::tools::have_radv() {
        return;
    }
    // Mesa 22.3's ACO prints no line information (the same disassembly
    // for SPIR-V with and without glslang's -g), so a source-keyed hint
    // cannot map; the error says why, at the hint.
    let hints = hints_file(
        "glsl.toml",
        "[[loop]]\nsource = \"tile_matmul.comp:20\"\niterations = 4\n",
    );
    let o = shadersim(&[
        "analyze",
        "tests/fixtures/src/glsl/tile_matmul.comp",
        "--arch",
        "navi21",
        "--hints",
        &hints,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "{hints}:2:10: error: this listing has no source lines (.loc); "
        )),
        "{err}"
    );
    assert!(
        err.contains("RADV/ACO listings (GLSL, SPIR-V) carry none"),
        "{err}"
    );
}

/// Issue 47 item 3: a `hints --by-source` template written for any one of four GPUs
/// drives `compare` across all four, for kernels with the shapes of Rodinia's hotspot
/// (`heat_tile.cl`) and pathfinder (`step_relax.cl`): a loop over a kernel argument whose
/// exit test sits mid-loop, and guards `if (a && b && ...)` that compile to one branch per
/// `&&` from one source line. The loop is keyed by its `for` line; the guards by
/// `FILE:LINE:COLUMN`, the column of each `&&`; an entry no source key names alone is
/// left commented out (a listing line fits one GPU's listing only). The `.cl` is given by
/// relative and by absolute path.
#[test]
fn a_by_source_template_from_each_of_four_gpus_drives_compare_across_them() {
    if !have_clang_22() {
        return;
    }
    const GPUS: [&str; 4] = ["vega10", "navi21", "gfx1100", "mi300x"];
    let absolute = |rel: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(rel)
            .to_str()
            .unwrap()
            .to_string()
    };
    // The `for` line of each kernel's step loop.
    for (kernel, for_line) in [("heat_tile", 25), ("step_relax", 20)] {
        let rel = format!("tests/fixtures/src/opencl/{kernel}.cl");
        for (n, gpu) in GPUS.iter().enumerate() {
            // Relative path for the first two templates, absolute for the others.
            let path = match n < 2 {
                true => rel.clone(),
                false => absolute(&rel),
            };
            let template = stdout(&["hints", &path, "--arch", gpu, "--by-source"]);
            assert!(
                template.contains(&format!("[[loop]]\nsource = \"{kernel}.cl:{for_line}\"")),
                "{gpu}: {template}"
            );
            assert!(!template.contains("\nline = "), "{gpu}: {template}");
            let hints = hints_file(&format!("{kernel}_{gpu}.toml"), &template);
            let v: serde_json::Value = serde_json::from_str(&stdout(&[
                "compare",
                &path,
                "--arch",
                &GPUS.join(","),
                "--hints",
                &hints,
                "--no-latency-search",
                "--format",
                "json",
            ]))
            .unwrap();
            assert_eq!(v["variants"].as_array().unwrap().len(), 4, "{kernel} {gpu}");
        }
    }
}

/// Issue 47 item 3, pathfinder's case reduced: `for_break.cl`'s loop branches all come
/// from its `if (s > steps) break;` (line 11), its `for` line (9) holds only the step.
/// The template keys the loop by the `for` line, which comes first in the source, and
/// the hints reader takes it (before, it refused line 9 as "inside the loop whose
/// branches come from source line 11" and the template used the `if`).
#[test]
fn a_loop_is_keyed_by_its_for_line_when_its_branches_come_from_a_break() {
    if !have_clang_22() {
        return;
    }
    const FILE: &str = "tests/fixtures/src/opencl/for_break.cl";
    for gpu in ["vega10", "gfx1100"] {
        let template = stdout(&["hints", FILE, "--arch", gpu, "--by-source"]);
        assert!(
            template.contains("[[loop]]\nsource = \"for_break.cl:9\""),
            "{gpu}: {template}"
        );
    }
    // Three iterations: the loop's load runs three times per wave.
    let hints = hints_file(
        "for_break.toml",
        "[[loop]]\nsource = \"for_break.cl:9\"\niterations = 3\n",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&[
        "analyze", FILE, "--arch", "gfx1100", "--hints", &hints, "--format", "json",
    ]))
    .unwrap();
    assert!(
        v["defaults"]["loops_once"].as_array().unwrap().is_empty(),
        "{v}"
    );
    // Each wave: the loop's load three times, then the store once.
    let waves = v["waves"].as_u64().unwrap();
    let vmem = v["issued"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vmem")
        .unwrap()["count"]
        .as_u64()
        .unwrap();
    assert_eq!(vmem, waves * (3 + 1));
}
