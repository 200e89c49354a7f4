//! The decoder's tables are what scripts/isa/gen_encodings.py generates from llvm-mc-22 today
//! (run when llvm-mc-22 and python3 are on PATH; skipped with the reason otherwise, except on CI).

use std::path::Path;
use std::process::Command;

#[test]
fn encodings_tsv_is_up_to_date() {
    use shadersim_testkit::tools::{require, runs};
    // On CI (`CI` set) a missing tool fails: .ci/run installs both.
    if !require(runs("llvm-mc-22"), "llvm-mc-22", "llvm-22")
        || !require(runs("python3"), "python3", "python3")
    {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("python3")
        .arg(root.join("scripts/isa/gen_encodings.py"))
        .arg("--check")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The decoder's fixed bits (data/fixed_fields.tsv: fields an instruction does not have, which
/// llvm-objdump-22 requires to be zero or `off`) are what scripts/isa/gen_fixed_fields.py
/// finds with llvm-mc-22 today (issue 47 item 14).
#[test]
fn fixed_fields_tsv_is_up_to_date() {
    use shadersim_testkit::tools::{require, runs};
    if !require(runs("llvm-mc-22"), "llvm-mc-22", "llvm-22")
        || !require(runs("python3"), "python3", "python3")
    {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("python3")
        .arg(root.join("scripts/isa/gen_fixed_fields.py"))
        .arg("--check")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
