//! The tab-separated tables shipped with shadersim (instructions, memory
//! and scalar facts): how their rows are read, and what a malformed row is.

/// A malformed line in a table file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}:{line}: {message}")]
pub struct TableError {
    /// Name of the table file.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The data rows of a tab-separated table shipped with shadersim: the
/// 1-based line and its trimmed columns; blank lines and `#` comments are
/// skipped. Every table of this crate (instructions, memory and scalar
/// facts) is read through it.
pub(crate) fn tsv_rows(text: &'static str) -> impl Iterator<Item = (usize, Vec<&'static str>)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            None
        } else {
            Some((i + 1, line.split('\t').map(str::trim).collect()))
        }
    })
}
