//! The command line as users and scripts see it: outputs, JSON keys,
//! determinism, exit codes and error formats.

use crate::{command, root, shadersim};
use shadersim_testkit::cli::{stderr, stdout};

const PS: &str = "tests/fixtures/llvm/gfx900/ps_textured.s";
const KERNEL: &str = "tests/fixtures/llvm/gfx900/loop_sum.s";

#[test]
fn analyze_json_has_the_contract_keys() {
    let o = shadersim(&["analyze", PS, "--format", "json", "--no-latency-search"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["arch"], "gfx900");
    assert_eq!(v["stage"], "pixel");
    assert_eq!(v["waves"], 500);
    assert!(v["clocks"].as_u64().unwrap() > 0);
    assert!(v["wave_clocks"].as_f64().unwrap() > 0.0);
    assert_eq!(v["throughput"]["unit"], "pixels");
    assert!(v["throughput"]["per_clock"].as_f64().unwrap() > 0.0);
    for unit in ["valu", "salu", "smem", "vmem", "lds", "export"] {
        let u = v["utilization"][unit].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&u), "{unit} = {u}");
    }
    for key in ["starve_rate", "stall_rate"] {
        let r = v[key].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&r), "{key} = {r}");
    }
    assert!(v["occupancy"]["waves_per_simd"].as_u64().unwrap() >= 1);
    assert!(["vgpr", "sgpr", "lds", "slots", "hints"]
        .contains(&v["occupancy"]["limiter"].as_str().unwrap()));
    let instrs = v["instructions"].as_array().unwrap();
    assert!(!instrs.is_empty());
    for (i, e) in instrs.iter().enumerate() {
        assert_eq!(e["index"], i);
        for key in ["line", "text", "class", "executions", "stall_rate"] {
            assert!(!e[key].is_null(), "instruction {i} lacks {key}");
        }
        let r = e["stall_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&r));
    }
}

#[test]
fn output_is_deterministic() {
    for format in ["text", "json", "html"] {
        let a = shadersim(&["analyze", KERNEL, "--format", format]);
        let b = shadersim(&["analyze", KERNEL, "--format", format]);
        assert!(a.status.success(), "{}", stderr(&a));
        assert_eq!(a.stdout, b.stdout, "{format} differs between runs");
    }
}

#[test]
fn the_hints_template_changes_nothing_until_edited() {
    let dir = std::env::temp_dir().join(format!("shadersim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in [PS, KERNEL, "tests/fixtures/llvm/gfx900/nested_loops.s"] {
        let t = shadersim(&["hints", file]);
        assert!(t.status.success(), "{}", stderr(&t));
        let path = dir.join("h.toml");
        std::fs::write(&path, &t.stdout).unwrap();
        let with = shadersim(&[
            "analyze",
            file,
            "--format",
            "json",
            "--no-latency-search",
            "--hints",
            path.to_str().unwrap(),
        ]);
        let without = shadersim(&["analyze", file, "--format", "json", "--no-latency-search"]);
        assert!(with.status.success(), "{}", stderr(&with));
        // Every number is the same; only `defaults` differs, since the
        // template states each loop's count and branch's direction (the
        // run no longer takes them by default).
        let strip = |o: &std::process::Output| {
            let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            v.as_object_mut().unwrap().remove("defaults");
            v
        };
        assert_eq!(strip(&with), strip(&without), "{file}");
    }
}

#[test]
fn bad_input_exits_1_with_a_position() {
    let dir = std::env::temp_dir().join(format!("shadersim-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let asm = dir.join("bad.s");
    std::fs::write(&asm, "s_mov_b32 s0, 0\nv_add_f32 v0, v[9:2], v1\n").unwrap();
    let o = shadersim(&["analyze", asm.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!(
            "{}:2:15: error: bad register range",
            asm.display()
        )),
        "{}",
        stderr(&o)
    );

    let hints = dir.join("bad.toml");
    std::fs::write(&hints, "[[loop]]\nline = 3\niterations = 2\n").unwrap();
    let o = shadersim(&["analyze", KERNEL, "--hints", hints.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!("{}:2:8: error: ", hints.display())),
        "{}",
        stderr(&o)
    );

    let o = shadersim(&["analyze", "no/such/file.s"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("no/such/file.s: error: cannot read"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_usage_exits_2() {
    let o = shadersim(&["analyze", KERNEL, "--set", "frobs=3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("known parameters") && stderr(&o).contains("vmem_latency"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        shadersim(&["analyze", KERNEL, "--set", "novalue"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        shadersim(&["analyze", KERNEL, "--format", "pdf"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(shadersim(&["analyze"]).status.code(), Some(2));
    assert_eq!(
        shadersim(&["analyze", KERNEL, "--arch", "nosuchgpu"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(shadersim(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn set_overrides_change_the_model() {
    let base = shadersim(&["analyze", PS, "--format", "json", "--no-latency-search"]);
    let slow = shadersim(&[
        "analyze",
        PS,
        "--format",
        "json",
        "--no-latency-search",
        "--set",
        "image_filtered_32bit_clocks=64",
    ]);
    let b: serde_json::Value = serde_json::from_str(&stdout(&base)).unwrap();
    let s: serde_json::Value = serde_json::from_str(&stdout(&slow)).unwrap();
    assert!(s["clocks"].as_u64() > b["clocks"].as_u64());
}

#[test]
fn cfg_formats_and_archs() {
    let o = shadersim(&[
        "cfg",
        "tests/fixtures/llvm/gfx900/nested_loops.s",
        "--format",
        "dot",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("digraph"));
    let o = shadersim(&[
        "cfg",
        "tests/fixtures/llvm/gfx900/nested_loops.s",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["loops"].as_array().unwrap().len(), 2);
    let o = shadersim(&["archs"]);
    assert!(stdout(&o).lines().any(|l| l.starts_with("gcn ")));
    let o = shadersim(&["archs", "--params", "gcn"]);
    assert!(stdout(&o).contains("vmem_latency"));
}

#[test]
fn standard_input_is_a_file() {
    let text = std::fs::read(root().join(KERNEL)).unwrap();
    let o = command().args(["cfg", "-"]).stdin(text).output();
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("program loop_sum"));
}

#[test]
fn set_overrides_dispatch_parameters_too() {
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["analyze", PS, "--format", "json", "--no-latency-search"];
        args.extend_from_slice(extra);
        let o = shadersim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(&stdout(&o)).unwrap()
    };
    assert_eq!(json(&["--set", "waves=40"])["waves"], 40);
    let small = json(&["--set", "pixels_per_triangle=1", "--set", "waves=40"]);
    let big = json(&["--set", "pixels_per_triangle=64", "--set", "waves=40"]);
    // 1-pixel triangles: a wave every 160 clocks; 64-pixel ones: every 40.
    assert!(small["throughput"]["per_clock"].as_f64() < big["throughput"]["per_clock"].as_f64());
    let o = shadersim(&["analyze", PS, "--set", "waves=0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--set waves=0: `waves` must be a whole number from 1 to"),
        "{}",
        stderr(&o)
    );
    let o = shadersim(&["analyze", PS, "--set", "frob=1"]);
    assert!(
        stderr(&o).contains("dispatch keys: stage, pixels_per_triangle"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_latency_search_states_its_bracket_budget_and_precision() {
    // Default: a budget of three runs; `--latency-precision` drops it and
    // searches to the width asked for (1/64 here), which it reaches.
    let o = shadersim(&["analyze", PS, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let l = &v["latency_tolerance"];
    assert_eq!(l["budget_runs"], 3.0);
    assert_eq!(l["precision"], 1.0 / 64.0);
    assert!(l["work_runs"].as_f64().unwrap() <= 3.0);
    assert!(l["precision_reached"].is_boolean() && l["stopped_by"].is_string());
    let o = shadersim(&[
        "analyze",
        PS,
        "--format",
        "json",
        "--latency-precision",
        "0.015625",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let l = &v["latency_tolerance"];
    assert!(l["budget_runs"].is_null());
    assert_eq!(l["precision_reached"], true);
    let (lo, hi) = (l["clocks"].as_u64().unwrap(), l["fails_at"].as_u64());
    if l["stopped_by"] == "precision" {
        assert!(hi.unwrap() - lo <= (lo / 64).max(1));
    }
    for bad in ["0", "1", "2", "nan"] {
        let o = shadersim(&["analyze", PS, "--latency-precision", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--latency-precision"), "{}", stderr(&o));
    }
}

#[test]
fn a_missing_file_is_worded_one_way_whatever_reads_it() {
    // Issue 47 item 8: "no such file" from one path, "No such file or
    // directory (os error 2)" from others. Every kind of input a command
    // reads (listing, OpenCL C, GLSL, SPIR-V, hints, model file, mesh,
    // scene, batch path) now says `PATH: error: cannot read: no such file`.
    let ps = "examples/lighting_ps.txt";
    let cases: [&[&str]; 11] = [
        &["analyze", "no/such/file.s"],
        &["cfg", "no/such/file.s"],
        &["analyze", "no/such/file.cl", "--arch", "gfx900"],
        &["compile", "no/such/file.cl", "--arch", "gfx900"],
        &["compile", "no/such/file.frag", "--arch", "gfx1030"],
        &["compile", "no/such/file.spv", "--arch", "gfx1030"],
        &["analyze", ps, "--hints", "no/such/file.toml"],
        &["analyze", ps, "--arch", "no/such/file.toml"],
        &["rt", "no/such/file.obj"],
        &["nami", "no/such/file.toml"],
        &["batch", "no/such/file.s"],
    ];
    for args in cases {
        let o = shadersim(args);
        let err = stderr(&o);
        let path = args.iter().find(|a| a.starts_with("no/such/")).unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        // Warnings about the listing may come first; the error is one line.
        assert!(
            err.lines()
                .any(|l| l == format!("{path}: error: cannot read: no such file")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("os error"), "{args:?}: {err}");
    }
}

#[test]
fn archs_params_says_how_the_cache_hierarchy_is_switched_off() {
    // Issue 47 item 10: it said "off with --set vmem_latency=N", which no
    // longer switches it off; `memory=flat` does.
    let o = shadersim(&["archs", "--params", "gcn"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let line = out.lines().find(|l| l.starts_with("cache: ")).unwrap();
    assert!(line.contains("off with --set memory=flat"), "{line}");
    assert!(!line.contains("vmem_latency=N"), "{line}");
}
