//! The listing summed by source line for a program with debug lines
//! (clang `-g`: `.file`/`.loc`).

use crate::shadersim;

fn analyze(format: &str) -> String {
    let o = shadersim(&[
        "analyze",
        "crates/asm/tests/data/calls_gfx900.s",
        "--no-latency-search",
        "--format",
        format,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn every_instruction_with_a_line_is_counted_once_and_the_shares_add_up() {
    let r: serde_json::Value = serde_json::from_str(&analyze("json")).unwrap();
    let lines = r["source_lines"].as_array().expect("source_lines");
    assert!(!lines.is_empty());
    for l in lines {
        assert!(l["file"].as_str().unwrap().ends_with("calls.cl"), "{l}");
        assert!(l["line"].as_u64().unwrap() > 0);
    }
    // Each static instruction belongs to at most one line, so the lines'
    // counts add up to at most the listing's.
    let counted: u64 = lines
        .iter()
        .map(|l| l["instructions"].as_u64().unwrap())
        .sum();
    let listed = r["instructions"].as_array().unwrap().len() as u64;
    assert!(counted > 0 && counted <= listed, "{counted} of {listed}");
    // Cost shares are parts of one whole.
    let share: f64 = lines
        .iter()
        .map(|l| l["cost_share"].as_f64().unwrap())
        .sum();
    assert!(share > 0.5 && share <= 1.0 + 1e-3, "{share}");
    assert!(analyze("text").contains("by source line ("));
}
