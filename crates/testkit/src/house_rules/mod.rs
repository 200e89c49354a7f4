//! The house rules as code: file lengths, function lengths and import
//! circles between a crate's modules, measured from the source text, and
//! the comparison with a list of known violators that may only shrink.
//!
//! `crates/testkit/tests/house_rules.rs` applies them to the workspace;
//! the readers here take text, so a test can plant a violation.

mod functions;
mod lexer;
mod modules;

pub use functions::{function_spans, FunctionSpan};
pub use modules::{import_circles, module_of, Circle, ModuleFile};

use std::path::{Path, PathBuf};

/// The most lines a source file may have.
pub const MAX_FILE_LINES: usize = 800;
/// The most lines a non-test function may have.
pub const MAX_FUNCTION_LINES: usize = 150;

/// A known violator: what it is (a path, `path: function`, or a crate's
/// circle) and its size when it was listed.
pub type Allowed = (&'static str, usize);

/// What a measurement found that the rules and the list of known
/// violators do not accept: a new violator, a listed one that grew, or a
/// listed one that no longer violates (so it must leave the list).
pub fn judge(found: &[(String, usize)], allowed: &[Allowed], limit: usize) -> Vec<String> {
    let mut problems = Vec::new();
    for (what, size) in found.iter().filter(|(_, size)| *size > limit) {
        match allowed.iter().find(|(name, _)| name == what) {
            None => problems.push(format!("{what}: {size}, over {limit} (new)")),
            Some((_, listed)) if size > listed => {
                problems.push(format!("{what}: {size}, grew from the listed {listed}"))
            }
            Some(_) => {}
        }
    }
    for (name, listed) in allowed {
        let now = found
            .iter()
            .filter(|(what, _)| what == name)
            .map(|(_, s)| *s)
            .max();
        match now {
            Some(size) if size > limit => {}
            Some(size) => problems.push(format!(
                "{name}: {size}, within the rule now (listed at {listed}): take it off the list"
            )),
            None => problems.push(format!(
                "{name}: gone (listed at {listed}): take it off the list"
            )),
        }
    }
    problems
}

/// Every `.rs` file below `dir`, sorted, skipping `target` folders.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                collect(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The number of lines of `text`, as `wc -l` counts them for a file that
/// ends in a newline.
pub fn line_count(text: &str) -> usize {
    text.lines().count()
}
