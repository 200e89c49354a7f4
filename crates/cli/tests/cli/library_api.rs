//! The library API the Python package calls (`shadersim_cli::api`): the same report and the
//! same errors as the binary, without Python.

use crate::{command, root};
use serde_json::Value;
use shadersim_cli::api::{self, ErrorKind, OccupancyOptions, RunOptions};

fn softmax() -> String {
    root()
        .join("tests/fixtures/triton/gfx942/softmax_kernel")
        .display()
        .to_string()
}

#[test]
fn analyze_is_the_cli_json() {
    let options = RunOptions {
        grid: Some("1024".into()),
        ..RunOptions::default()
    };
    let from_api = api::analyze(&softmax(), &options).expect("report");
    let (code, out, err) = command()
        .args(["analyze", &softmax(), "--grid", "1024", "--format", "json"])
        .code_and_text();
    assert_eq!(code, 0, "{err}");
    let from_cli: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(from_api, from_cli);
    // The text form keeps the CLI's key order (a parsed Value sorts its keys).
    assert_eq!(api::analyze_text(&softmax(), &options).expect("text"), out);
}

#[test]
fn errors_carry_the_cli_message_and_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hints = dir.path().join("h.toml");
    std::fs::write(&hints, "[dispatch]\nwaves = \"many\"\n").expect("write");
    let hints = hints.display().to_string();
    let options = RunOptions {
        hints: Some(hints.clone()),
        ..RunOptions::default()
    };
    let e = api::analyze(&softmax(), &options).expect_err("bad hints");
    // Line 2, column 9: the string after `waves = `.
    assert_eq!(e.location, Some((hints.clone(), 2, 9)));
    assert_eq!(e.kind, ErrorKind::Input);
    let (code, _, err) = command()
        .args(["analyze", &softmax(), "--hints", &hints])
        .code_and_text();
    assert_eq!(code, 1);
    assert_eq!(format!("{}\n", e.message), err);
}

#[test]
fn occupancy_and_its_usage_errors() {
    // 104 VGPRs on CDNA 3: 512 / 104 = 4 waves per SIMD (104 is a multiple of the granule 8).
    let rows = api::occupancy(&OccupancyOptions {
        regs: 104,
        archs: vec!["gfx942".into()],
        ..OccupancyOptions::default()
    })
    .expect("rows");
    assert_eq!(rows[0]["waves"], 4);
    let e = api::occupancy(&OccupancyOptions::default()).expect_err("0 registers");
    assert_eq!(e.kind, ErrorKind::Usage);
    let e = api::compare(&[], &RunOptions::default()).expect_err("no files");
    assert_eq!(e.kind, ErrorKind::Usage);
}
