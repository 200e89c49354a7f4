//! The decoder's tables are what scripts/isa/gen_encodings.py generates from llvm-mc-22 today
//! (run when llvm-mc-22 and python3 are on PATH; skipped with the reason otherwise).

use std::path::Path;
use std::process::Command;

#[test]
fn encodings_tsv_is_up_to_date() {
    let present = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    for tool in ["llvm-mc-22", "python3"] {
        if !present(tool) {
            eprintln!("skipped: {tool} is not on PATH");
            return;
        }
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
