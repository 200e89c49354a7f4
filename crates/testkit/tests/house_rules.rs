//! The house rules, checked: no source file over 800 lines, no non-test
//! function over 150 lines, no import circle between the modules of a
//! crate (see `shadersim_testkit::house_rules` for how each is read).
//!
//! Known violators stand in the lists below with their size when listed
//! ("issue 46: shrink, never grow"): a listed item that grows fails, a new
//! violator fails, and a listed item that is now within the rule fails
//! too, so the lists only shrink. The `planted_*` tests show each rule
//! failing on a violation made for it.
//!
//! And ARCHITECTURE.md's code map stays true to the tree: every
//! `crates/...` path it names exists.

use shadersim_testkit::house_rules::{
    function_spans, import_circles, judge, line_count, rust_files, Allowed, ModuleFile,
    MAX_FILE_LINES, MAX_FUNCTION_LINES,
};
use std::path::{Path, PathBuf};

/// Files over 800 lines, by path from the repository root.
/// issue 46: shrink, never grow.
const LONG_FILES: &[Allowed] = &[];

/// Non-test functions over 150 lines, `path: name`.
/// issue 46: shrink, never grow.
const LONG_FUNCTIONS: &[Allowed] = &[];

/// Import circles, `crate: module, module, ...` with the number of
/// modules in the circle. issue 46: shrink, never grow.
const CIRCLES: &[Allowed] = &[];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn relative(path: &Path) -> String {
    let root = repo().canonicalize().unwrap();
    let path = path.canonicalize().unwrap();
    path.strip_prefix(&root).unwrap().display().to_string()
}

fn crate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn report(rule: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{rule}:\n{}\n(the lists in crates/testkit/tests/house_rules.rs: issue 46, shrink, never grow)",
        problems.join("\n")
    );
}

fn file_lengths() -> Vec<(String, usize)> {
    rust_files(&repo().join("crates"))
        .iter()
        .map(|f| (relative(f), line_count(&read(f))))
        .collect()
}

/// Functions of every crate's `src/`; tests, benches and examples are
/// test code.
fn function_lengths() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for dir in crate_dirs() {
        for f in rust_files(&dir.join("src")) {
            let path = relative(&f);
            for span in function_spans(&read(&f)) {
                out.push((format!("{path}: {}", span.name), span.lines));
            }
        }
    }
    out
}

fn circles() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for dir in crate_dirs() {
        let src = dir.join("src");
        let files: Vec<ModuleFile> = rust_files(&src)
            .iter()
            .map(|f| ModuleFile {
                path: f.strip_prefix(&src).unwrap().display().to_string(),
                text: read(f),
            })
            .collect();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        for circle in import_circles(&files) {
            eprintln!(
                "{name}: {}\n  {}",
                circle.modules.join(", "),
                circle.edges.join("\n  ")
            );
            out.push((
                format!("{name}: {}", circle.modules.join(", ")),
                circle.modules.len(),
            ));
        }
    }
    out
}

#[test]
fn no_source_file_is_over_800_lines() {
    report(
        "files over 800 lines",
        &judge(&file_lengths(), LONG_FILES, MAX_FILE_LINES),
    );
}

#[test]
fn no_function_is_over_150_lines() {
    let found = function_lengths();
    report(
        "functions over 150 lines",
        &judge(&found, LONG_FUNCTIONS, MAX_FUNCTION_LINES),
    );
}

#[test]
fn no_import_circle_inside_a_crate() {
    report("import circles", &judge(&circles(), CIRCLES, 1));
}

/// Lines `fn long() {`, then `body` lines, then `}`.
fn function_of(body: usize) -> String {
    let mut text = String::from("fn long() {\n");
    for i in 0..body {
        text.push_str(&format!("    let x{i} = {i};\n"));
    }
    text.push_str("}\n");
    text
}

#[test]
fn planted_801_line_file_fails() {
    let text = "//\n".repeat(801);
    let found = vec![("crates/x/src/planted.rs".to_string(), line_count(&text))];
    assert_eq!(
        judge(&found, &[], MAX_FILE_LINES),
        ["crates/x/src/planted.rs: 801, over 800 (new)"]
    );
    let at_limit = vec![("crates/x/src/planted.rs".to_string(), 800)];
    assert!(judge(&at_limit, &[], MAX_FILE_LINES).is_empty());
}

#[test]
fn planted_151_line_function_fails() {
    // 149 body lines between the `fn` line and the closing brace: 151.
    let spans = function_spans(&function_of(149));
    assert_eq!((spans[0].name.as_str(), spans[0].lines), ("long", 151));
    let found = vec![(format!("x.rs: {}", spans[0].name), spans[0].lines)];
    assert_eq!(
        judge(&found, &[], MAX_FUNCTION_LINES),
        ["x.rs: long: 151, over 150 (new)"]
    );
    assert_eq!(function_spans(&function_of(148))[0].lines, 150);
}

#[test]
fn test_code_comments_and_strings_are_not_functions() {
    let text = format!(
        "// fn in_comment() {{\nconst S: &str = \"fn in_string() {{\";\n\
         #[cfg(test)]\nmod tests {{\n{}}}\n#[test]\n{}fn shipped(x: fn(u8) -> u8) -> u8 {{ x(1) }}\n",
        function_of(200),
        function_of(200)
    );
    let names: Vec<String> = function_spans(&text).into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["shipped"]);
}

fn module(path: &str, text: &str) -> ModuleFile {
    ModuleFile {
        path: path.to_string(),
        text: text.to_string(),
    }
}

#[test]
fn planted_circle_fails() {
    let files = [
        module("lib.rs", "mod a;\nmod b;\npub use a::Y;\n"),
        module("a.rs", "use crate::b::{self, X};\npub struct Y;\n"),
        // Through the root's re-export of `a::Y`, inline.
        module("b.rs", "pub struct X;\nfn f() -> crate::Y { crate::Y }\n"),
    ];
    let circles = import_circles(&files);
    assert_eq!(circles.len(), 1);
    assert_eq!(circles[0].modules, ["a", "b"]);
    let found = vec![("planted: a, b".to_string(), circles[0].modules.len())];
    assert_eq!(judge(&found, &[], 1), ["planted: a, b: 2, over 1 (new)"]);
}

#[test]
fn a_folder_using_its_parts_is_no_circle() {
    let files = [
        module("lib.rs", "mod machine;\n"),
        module(
            "machine/mod.rs",
            "mod issue;\npub struct State;\nfn f() { issue::step() }\n",
        ),
        module("machine/issue.rs", "use super::State;\npub fn step() {}\n"),
        module(
            "other.rs",
            "#[cfg(test)]\nmod tests { use crate::machine::State; }\n",
        ),
    ];
    assert!(import_circles(&files).is_empty());
}

#[test]
fn a_listed_item_may_only_shrink() {
    const LISTED: &[Allowed] = &[("big.rs", 900)];
    let grown = vec![("big.rs".to_string(), 901)];
    assert_eq!(
        judge(&grown, LISTED, MAX_FILE_LINES),
        ["big.rs: 901, grew from the listed 900"]
    );
    let shrunk = vec![("big.rs".to_string(), 850)];
    assert!(judge(&shrunk, LISTED, MAX_FILE_LINES).is_empty());
    let fixed = vec![("big.rs".to_string(), 700)];
    assert_eq!(
        judge(&fixed, LISTED, MAX_FILE_LINES),
        ["big.rs: 700, within the rule now (listed at 900): take it off the list"]
    );
}

/// The `crates/...` paths ARCHITECTURE.md names between backticks (a
/// glob's folder for `*` patterns).
fn architecture_paths() -> Vec<String> {
    let text = read(&repo().join("ARCHITECTURE.md"));
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| quoted.starts_with("crates/") && !quoted.contains(' '))
        .map(|path| match path.find('*') {
            Some(star) => path[..star].to_string(),
            None => path.to_string(),
        })
        .collect()
}

#[test]
fn every_path_architecture_md_names_exists() {
    let missing: Vec<String> = architecture_paths()
        .into_iter()
        .filter(|p| !repo().join(p).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}
