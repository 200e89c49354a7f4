//! What several of this crate's test files share.

use std::path::{Path, PathBuf};

/// (path, target) of every `[[fixture]]` / `[[listing]]` of a manifest.
pub fn labelled(manifest: &Path) -> Vec<(PathBuf, String)> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let dir = manifest.parent().unwrap();
    let value = |l: &str| l.split('"').nth(1).unwrap().to_string();
    let mut out = Vec::new();
    let mut path = None;
    for line in text.lines() {
        if line.starts_with("path = ") {
            path = Some(dir.join(value(line)));
        } else if line.starts_with("target = ") {
            if let Some(p) = path.take() {
                out.push((p, value(line)));
            }
        }
    }
    out
}
