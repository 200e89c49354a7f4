//! The engine stays generic: outside the crates that read ISA facts and
//! model data, no code tests a generation or an architecture by name. A
//! new architecture is a data file (plus at most a mechanism its data
//! switches on), never an `if arch == ...`.
//!
//! Allowed: `isa` (the generation facts themselves), `arch` (model data and
//! its name tables), `asm` and `r600` (the readers, which recognise what a
//! listing names), `codeobj` (the machine-code decoder: each generation has
//! its own encodings and register numbering), `radv` (Mesa's own family names for RADV_FORCE_FAMILY),
//! and clap's `default_value` (a default names models, it tests none).

use std::path::{Path, PathBuf};

const ALLOWED_CRATES: &[&str] = &["isa", "arch", "asm", "codeobj", "r600", "radv", "testkit"];

/// Spellings that test a generation or an architecture by name.
const FORBIDDEN: &[&str] = &[
    "is_gcn()",
    "GfxGen::Gfx",
    "starts_with(\"gfx",
    "starts_with(\"rdna",
    "starts_with(\"gcn",
    "starts_with(\"image_bvh",
    "== \"gcn\"",
    "== \"rdna",
    "== \"gfx",
    "builtin(\"gcn\")",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_generation_or_architecture_name_is_tested_outside_the_readers() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut offenders = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let src = entry.path().join("src");
        if ALLOWED_CRATES.contains(&name.as_str()) || !src.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            // Unit tests inside a source file may name what they test.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (i, line) in code.lines().enumerate() {
                let t = line.trim_start();
                if t.starts_with("//") || t.contains("default_value") {
                    continue;
                }
                if let Some(p) = FORBIDDEN.iter().find(|p| line.contains(*p)) {
                    offenders.push(format!("{}:{}: `{p}`: {}", f.display(), i + 1, t));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "code outside the ISA and model readers tests a name:\n{}",
        offenders.join("\n")
    );
}
