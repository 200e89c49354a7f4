//! TeraScale files through the binary: `analyze` picks the model from
//! `--arch` (or guesses with a warning), reports the `vliw` object and the
//! re-pack, `cfg` and `hints` see the CF program's loop, bad input exits 1
//! with a position.

use crate::shadersim;

const MATMUL: &str = "tests/fixtures/r600/matmul.cypress.clang-22.s";

#[test]
fn analyze_reports_the_vliw_object() {
    let o = shadersim(&[
        "analyze",
        MATMUL,
        "--arch",
        "cypress",
        "--no-latency-search",
        "--repack",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["arch"], "cypress");
    let w = &v["vliw"];
    // The clang-22 matmul has 18 groups holding 28 operations (the fixture
    // test counts the `*` lines); one loop iteration by default runs each once.
    assert_eq!(w["static_bundles"], 18);
    assert_eq!(w["static_operations"], 28);
    assert_eq!(w["bundles_executed"], 18);
    assert_eq!(w["slots"], 5);
    for s in ["x", "y", "z", "w", "t"] {
        let f = w["slot_utilization"][s].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&f), "{s}");
    }
    // Peak from the model: 20 SIMDs x 16 lanes x 5 slots x 2 x 0.85 GHz.
    assert!((w["peak_gflops"].as_f64().unwrap() - 2720.0).abs() < 1e-9);
    assert!(w["repack"]["static_bundles"].as_u64().unwrap() <= 18);
}

#[test]
fn without_arch_the_chip_is_guessed_with_a_warning() {
    let o = shadersim(&["analyze", MATMUL, "--no-latency-search"]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("read as cypress"), "{err}");
    let o = shadersim(&[
        "analyze",
        "tests/fixtures/r600/transcendental.cayman.clang-19.s",
        "--no-latency-search",
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("on the `cayman` model"));
}

#[test]
fn cfg_and_hints_see_the_cf_loop() {
    let o = shadersim(&["cfg", MATMUL, "--arch", "cypress"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    // One CF loop: the count in the singular.
    assert!(text.contains(", 1 loop, "), "{text}");
    assert!(text.contains("loop-back-edge"), "{text}");
    let o = shadersim(&["hints", MATMUL, "--arch", "cypress"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("[[loop]]"));
}

#[test]
fn bad_terascale_input_exits_1_with_a_position() {
    let dir = std::env::temp_dir().join(format!("shadersim-terascale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad.s");
    std::fs::write(&p, "\t.text\nk:\n\tALU 0, @2, KC0[], KC1[]\n\tCF_END\n\tALU clause starting at 2:\n\t  ADD * T1.X, BOGUS, T0.X,\n").unwrap();
    let o = shadersim(&["analyze", p.to_str().unwrap(), "--arch", "cypress"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.s:6:16: error: unknown operand `BOGUS`"),
        "{err}"
    );
}

#[test]
fn a_loop_hint_on_a_cf_line_repeats_the_body() {
    // matmul's loop header is the `ALU 2, @38` word (line 20). Its body
    // holds 5 groups (1 in the ALU 2 clause, 4 in the ALU_PUSH_BEFORE 6
    // clause), 2 ALU clauses and 1 fetch clause; 16 iterations instead of 1
    // add 15 x 5 = 75 groups to the 18 of one pass (93), 15 x 2 = 30 ALU
    // clauses to 5 (35) and 15 fetch clauses to 1 (16).
    let dir = std::env::temp_dir().join(format!("shadersim-terascale-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let h = dir.join("h.toml");
    std::fs::write(&h, "[[loop]]\nline = 20\niterations = 16\n").unwrap();
    let o = shadersim(&[
        "analyze",
        MATMUL,
        "--arch",
        "cypress",
        "--hints",
        h.to_str().unwrap(),
        "--no-latency-search",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let w = &v["vliw"];
    assert_eq!(w["bundles_executed"], 93);
    assert_eq!(w["alu_clauses"], 35);
    assert_eq!(w["fetch_clauses"], 16);
    assert_eq!(w["clause_switches"], 51);
}
