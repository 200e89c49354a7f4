//! Every key the JSON outputs print is in the reference (issue 47 item 10:
//! docs/cli.md lacked `validate`'s `independent` and `calibrates`, and the
//! analyze report's `cache` object had no row). The runs cover the report's
//! optional parts: a pixel shader with hints (images, latency search), a
//! kernel with a launch grid on a product (kernel time, derived addresses,
//! the cache hierarchy with an Infinity Cache), a TeraScale file (`vliw`,
//! `--repack`), `compare` of two files and of one file on two models (with
//! the latency bracket), and `sweep`.

use crate::shadersim;
use serde_json::Value;
use shadersim_testkit::cli::json;
use std::collections::BTreeMap;

/// Objects whose keys are data, not names the reference lists: the cache
/// levels are the model's (`l1`, `mall`), stall reasons and engines are
/// listed as values where they are documented. Their values' keys are
/// still checked.
const MAPS: &[&str] = &["cache", "stall_reasons", "point"];

/// Every key of `v`, with the path it was first met at.
fn keys(v: &Value, path: &str, data_keys: bool, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                if !data_keys {
                    out.entry(k.clone()).or_insert_with(|| path.to_string());
                }
                keys(x, &format!("{path}.{k}"), MAPS.contains(&k.as_str()), out);
            }
        }
        Value::Array(a) => a
            .iter()
            .for_each(|x| keys(x, &format!("{path}[]"), false, out)),
        _ => {}
    }
}

/// Whether `key` stands in docs/cli.md as a whole word (in `{a, b}` lists
/// and `a`, `b` pairs too).
fn named(docs: &str, key: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    docs.match_indices(key).any(|(i, _)| {
        !word(docs[..i].chars().next_back()) && !word(docs[i + key.len()..].chars().next())
    })
}

fn run(args: &[&str]) -> Value {
    json(&shadersim(args))
}

#[test]
fn every_key_analyze_compare_and_sweep_print_is_in_the_reference() {
    let docs = std::fs::read_to_string(crate::root().join("docs/cli.md")).unwrap();
    let light = [
        "examples/lighting_ps.txt",
        "--arch",
        "gfx900",
        "--hints",
        "examples/lighting_ps.toml",
    ];
    let kernel = "tests/fixtures/llvm/gfx942/stencil_f64.s";
    let latency = ["--set", "memory=flat"];
    let outputs = [
        (
            "analyze (pixel)",
            run(&[&["analyze"], &light[..], &["--format", "json"]].concat()),
        ),
        (
            "analyze (kernel)",
            run(&[
                "analyze", kernel, "--arch", "mi300x", "--grid", "4096", "--format", "json",
            ]),
        ),
        (
            "analyze (TeraScale)",
            run(&[
                "analyze",
                "tests/fixtures/r600/matmul.cypress.clang-22.s",
                "--arch",
                "cypress",
                "--repack",
                "--no-latency-search",
                "--format",
                "json",
            ]),
        ),
        (
            "compare (files)",
            run(&[
                "compare",
                "tests/programs/samples8.s",
                "tests/programs/samples4.s",
                "--arch",
                "gfx900",
                "--set",
                "stage=pixel",
                "--format",
                "json",
            ]),
        ),
        (
            "compare (models)",
            run(&[
                &["compare", kernel, "--arch", "gfx942,rdna3"],
                &latency[..],
                &["--format", "json"],
            ]
            .concat()),
        ),
        (
            "sweep",
            run(&[
                &["sweep"],
                &light[..],
                &["--vary", "waves=100,200", "--format", "json"],
            ]
            .concat()),
        ),
    ];
    let mut missing = Vec::new();
    for (what, v) in &outputs {
        let mut found = BTreeMap::new();
        keys(v, "", false, &mut found);
        assert!(found.len() > 15, "{what}: {found:?}");
        for (k, path) in found {
            if !named(&docs, &k) {
                missing.push(format!("{what}: `{k}` at `{path}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys docs/cli.md does not name:\n{}",
        missing.join("\n")
    );
    // The compare of two models ran the latency search: its bracket is in
    // the JSON (`latency_fails_at` above `latency_tolerance`).
    let v = &outputs[4].1["variants"][0];
    let (c, f) = (
        v["latency_tolerance"].as_u64(),
        v["latency_fails_at"].as_u64(),
    );
    assert!(c.is_some() && f.is_some_and(|f| f > c.unwrap()), "{v}");
    // The table reads it as the clocks hidden: `C to F-1` (or `C` when F = C + 1).
    let (c, f) = (c.unwrap(), f.unwrap());
    let o = shadersim(&[&["compare", kernel, "--arch", "gfx942,rdna3"], &latency[..]].concat());
    let table = shadersim_testkit::cli::stdout(&o);
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("latency tolerance"))
        .unwrap();
    let shown = if f > c + 1 {
        format!("{c} to {}", f - 1)
    } else {
        c.to_string()
    };
    assert!(row.contains(&shown), "{row}");
}
