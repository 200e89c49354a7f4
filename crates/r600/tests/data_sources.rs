//! Every `vliw5-model.md N` / `N.M` a TeraScale data file cites names a
//! section (`## N.`) or an item of a section's numbered list (`M.` under
//! `## N.`) of docs/models/terascale.md, and every parameter says where it
//! comes from.

use std::path::Path;

#[test]
fn terascale_data_cites_existing_sections() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/models/terascale.md")).unwrap();
    let section = |n: &str| -> Option<&str> {
        let start = doc.find(&format!("\n## {n}. "))?;
        let body = &doc[start + 4..];
        Some(&body[..body.find("\n## ").unwrap_or(body.len())])
    };
    let mut cited = 0;
    for name in ["cypress", "juniper", "redwood", "rv770", "rv740", "cayman"] {
        let text =
            std::fs::read_to_string(root.join(format!("crates/arch/data/{name}.toml"))).unwrap();
        for (at, _) in text.match_indices("vliw5-model.md ") {
            let word: String = text[at + 15..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let word = word.trim_end_matches('.');
            if word.is_empty() {
                // The file's header names the document, not a section.
                continue;
            }
            cited += 1;
            let ok = match word.split_once('.') {
                Some((n, m)) => section(n)
                    .is_some_and(|b| b.lines().skip(1).any(|l| l.starts_with(&format!("{m}. ")))),
                None => section(word).is_some(),
            };
            assert!(
                ok,
                "{name}.toml cites vliw5-model.md {word}, which terascale.md lacks"
            );
        }
        for line in text.lines().filter(|l| l.contains("value =")) {
            assert!(line.contains("source = \""), "{name}.toml: {line}");
        }
    }
    assert!(cited > 15, "only {cited} citations");
}
