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

/// Name tables that parse an enum from architecture names (`"rdna2" =>
/// Arch::Rdna2`) or print one (`Arch::Rdna2 => "rdna2"`) outside the model
/// readers, by file under `crates/`, with the number of such arms: each is a
/// second list of architectures beside the model data. Empty since issue 46
/// (`shadersim rt`'s generations are model names its data file lists); keep
/// it empty: ask the model instead.
const NAME_TABLES: &[(&str, usize)] = &[];

/// True for a string literal that names a generation or an architecture.
fn names_an_architecture(s: &str) -> bool {
    let s = s.trim();
    s.starts_with('"')
        && ["\"rdna", "\"gfx", "\"gcn", "\"cdna"]
            .iter()
            .any(|p| s.starts_with(p))
}

/// Match arms of `code` that go from an architecture name to something or
/// back: a name literal on either side of `=>`.
fn name_arms(code: &str) -> usize {
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .filter_map(|line| line.split_once("=>"))
        .filter(|(left, right)| {
            let left = left.trim().trim_start_matches('|').trim();
            let right = right.trim().split([',', ')']).next().unwrap_or("");
            names_an_architecture(left) || names_an_architecture(right)
        })
        .count()
}

#[test]
fn no_enum_is_parsed_from_architecture_names_outside_the_readers() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
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
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let arms = name_arms(code);
            if arms > 0 {
                let path = f.strip_prefix(&crates).unwrap().display().to_string();
                found.push((path, arms));
            }
        }
    }
    let mut problems = Vec::new();
    for (path, arms) in &found {
        match NAME_TABLES.iter().find(|(p, _)| p == path) {
            None => problems.push(format!("{path}: {arms} arms map architecture names")),
            Some((_, n)) if arms > n => problems.push(format!(
                "{path}: {arms} name arms, listed with {n}: shrink, never grow"
            )),
            Some((_, n)) if arms < n => problems.push(format!(
                "{path}: {arms} name arms, listed with {n}: lower the list"
            )),
            Some(_) => {}
        }
    }
    for (path, _) in NAME_TABLES {
        if !found.iter().any(|(p, _)| p == path) {
            problems.push(format!(
                "{path}: no name arms left: remove it from NAME_TABLES"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "an enum is parsed from architecture names outside the model data (ask the model, ArchSpec, instead):\n{}",
        problems.join("\n")
    );
}

#[test]
fn planted_name_table_is_found() {
    let planted = r#"
        match s {
            "rdna2" => Some(Gen::Two),
            "gfx1100" | "gfx1101" => Some(Gen::Three),
            _ => None,
        }
        match g {
            Gen::Two => "rdna2",
            Gen::Four => other("rdna4"),
        }
        // "rdna4" => a comment is not code
        let x = if a { "rdna2" } else { b };
    "#;
    assert_eq!(name_arms(planted), 3);
}
