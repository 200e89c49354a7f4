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
//! And ARCHITECTURE.md stays true to the tree: every path it names
//! between backticks exists (`planted_missing_path_fails` shows the check
//! failing).

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

/// Every file and folder of the repository (less `target` and `.git`), as
/// `/`-separated paths from its root.
fn repository_paths() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name == ".git" || name == "target" {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.path().is_dir() {
                walk(&entry.path(), &format!("{path}/"), out);
            }
            out.push(path);
        }
    }
    let mut out = Vec::new();
    walk(&repo(), "", &mut out);
    out
}

/// A path ARCHITECTURE.md names between backticks: where, and in which
/// crate's section (`### ... (crates/NAME)`), if any.
struct NamedPath {
    line: usize,
    section_crate: Option<String>,
    path: String,
}

/// The paths `text` (a Markdown document) names between backticks: the
/// quoted words with a `/` that are made of path characters only (a
/// glob's folder for `*` patterns, a folder without its trailing `/`).
fn named_paths(text: &str) -> Vec<NamedPath> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_-./*".contains(c);
    let mut out = Vec::new();
    let mut section_crate = None;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            section_crate = line
                .split_once("(crates/")
                .and_then(|(_, rest)| rest.split([')', ',', '/']).next())
                .map(str::to_string);
        }
        for quoted in line.split('`').skip(1).step_by(2) {
            if !quoted.contains('/') || quoted.starts_with('/') || !quoted.chars().all(is_path_char)
            {
                continue;
            }
            let path = match quoted.find('*') {
                Some(star) => &quoted[..star],
                None => quoted,
            };
            let path = path.trim_end_matches('/');
            if !path.is_empty() {
                out.push(NamedPath {
                    line: i + 1,
                    section_crate: section_crate.clone(),
                    path: path.to_string(),
                });
            }
        }
    }
    out
}

/// True when a newcomer finds `named` in `tree`: at the repository root,
/// inside its section's crate (`machine/issue.rs` in the engine's), or, for
/// a path the text places in another crate (`commands/vliw.rs`, the CLI's),
/// as the end of some path of the tree.
fn finds(named: &NamedPath, tree: &[String]) -> bool {
    let tail = format!("/{}", named.path);
    tree.iter().any(|p| p == &named.path)
        || named.section_crate.as_ref().is_some_and(|c| {
            let root = format!("crates/{c}/");
            tree.iter()
                .any(|p| p.starts_with(&root) && p.ends_with(&tail))
        })
        || tree.iter().any(|p| p.ends_with(&tail))
}

#[test]
fn every_path_architecture_md_names_exists() {
    let tree = repository_paths();
    let named = named_paths(&read(&repo().join("ARCHITECTURE.md")));
    assert!(
        named.len() > 100,
        "{} paths: the reader lost them",
        named.len()
    );
    let missing: Vec<String> = named
        .iter()
        .filter(|n| !finds(n, &tree))
        .map(|n| format!("ARCHITECTURE.md:{}: `{}`", n.line, n.path))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn planted_missing_path_fails() {
    let text = "### `shadersim-engine` (crates/engine)\n\
                `machine/issue.rs`, `crates/engine/src/run.rs`, `data/*.toml` and \
                `machine/gone.rs`; `a b/c` is no path\n";
    let tree: Vec<String> = [
        "crates/engine/src/machine/issue.rs",
        "crates/engine/src/run.rs",
        "crates/arch/data",
    ]
    .map(str::to_string)
    .to_vec();
    let named = named_paths(text);
    let paths: Vec<&str> = named.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "machine/issue.rs",
            "crates/engine/src/run.rs",
            "data",
            "machine/gone.rs"
        ]
    );
    let missing: Vec<&str> = named
        .iter()
        .filter(|n| !finds(n, &tree))
        .map(|n| n.path.as_str())
        .collect();
    assert_eq!(missing, ["machine/gone.rs"]);
}
