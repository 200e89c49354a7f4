//! The repository documents itself: every relative link in README.md,
//! ARCHITECTURE.md and docs/**/*.md resolves to a file (or directory) inside
//! the repository, and every `#anchor` on a markdown page names one of its
//! headings. Nothing points to `../shared` or elsewhere outside the clone.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    crate::root().canonicalize().expect("repository root")
}

/// README.md, ARCHITECTURE.md and every `.md` under docs/.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut out = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out
}

/// The text outside fenced code blocks and inline code spans, line by line
/// (1-based line numbers kept).
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::new();
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                kept.push(c);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// Targets of inline links and images `[text](target "title")` and of
/// reference definitions `[key]: target`.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let t = line.trim_start();
    if t.starts_with('[') {
        if let Some(end) = t.find("]:") {
            if !t[1..end].contains(']') {
                if let Some(target) = t[end + 2..].split_whitespace().next() {
                    out.push(target.trim_matches(['<', '>']).to_string());
                }
                return out;
            }
        }
    }
    let b = line.as_bytes();
    let mut i = 0;
    while let Some(off) = line[i..].find("](") {
        let start = i + off + 2;
        let mut depth = 1;
        let mut j = start;
        while j < b.len() {
            match b[j] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let inner = line[start..j.min(b.len())].trim();
        let target = inner.split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(['<', '>']).to_string());
        i = j.min(b.len());
    }
    out
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, only
/// letters, digits, hyphens and underscores kept.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_relative_link_resolves_inside_the_repository() {
    let root = root();
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let rel = page.strip_prefix(&root).unwrap().display().to_string();
        for (n, line) in prose(&text) {
            for target in links(&line) {
                if target.is_empty() || is_external(&target) {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(path)
                };
                let Ok(resolved) = file.canonicalize() else {
                    problems.push(format!("{rel}:{n}: `{target}` does not exist"));
                    continue;
                };
                if !resolved.starts_with(&root) {
                    problems.push(format!(
                        "{rel}:{n}: `{target}` points outside the repository"
                    ));
                    continue;
                }
                if let Some(a) = anchor {
                    if resolved.extension().is_some_and(|x| x == "md")
                        && !anchors(&resolved).iter().any(|h| h == a)
                    {
                        problems.push(format!(
                            "{rel}:{n}: `{target}`: no heading with anchor `#{a}`"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn readme_and_architecture_do_not_send_readers_outside_the_clone() {
    let root = root();
    for name in ["README.md", "ARCHITECTURE.md"] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        for (i, line) in text.lines().enumerate() {
            for bad in [
                "../shared",
                "shared/spec/",
                "shared/notes/",
                "shared/seeds/",
            ] {
                assert!(
                    !line.contains(bad),
                    "{name}:{}: mentions `{bad}`, which is not in the repository: {line}",
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_documents_the_readme_promises_exist() {
    let root = root();
    for doc in [
        "docs/cli.md",
        "docs/sources.md",
        "docs/models/gcn.md",
        "docs/models/rdna.md",
    ] {
        assert!(root.join(doc).is_file(), "{doc} is missing");
    }
}

#[test]
fn the_link_parser_finds_what_it_should() {
    assert_eq!(
        links("see [a](docs/a.md#x) and ![img](b.svg \"t\") and [c](d(e).md)"),
        vec!["docs/a.md#x", "b.svg", "d(e).md"]
    );
    assert_eq!(links("[key]: docs/x.md"), vec!["docs/x.md"]);
    assert_eq!(
        slug(" 6. RDNA4 dynamic VGPR mode (S0; LLVM)"),
        "6-rdna4-dynamic-vgpr-mode-s0-llvm"
    );
    assert_eq!(slug(" `analyze FILE`"), "analyze-file");
    assert_eq!(prose("a `[x](y)` b\n```\n[z](w)\n```\n")[0].1, "a  b");
}

/// Every `rdna-model.md N.M` and `gcn-model.md Heading` that a data file's
/// `source` cites names a section of docs/models/rdna.md or gcn.md.
#[test]
fn model_sections_cited_by_the_data_files_exist() {
    let root = root();
    let headings = |page: &str| -> Vec<String> {
        std::fs::read_to_string(root.join(page))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim().to_string())
            .collect()
    };
    // Item M of the numbered list in section N (`11.8`: open question 8).
    let rdna_text = std::fs::read_to_string(root.join("docs/models/rdna.md")).unwrap();
    let list_item = |word: &str| -> bool {
        let Some((n, m)) = word.split_once('.') else {
            return false;
        };
        let Some(start) = rdna_text.find(&format!("\n## {n}. ")) else {
            return false;
        };
        let body = &rdna_text[start + 4..];
        let body = &body[..body.find("\n## ").unwrap_or(body.len())];
        // The heading line itself ("4. Memory ...") is not an item.
        body.lines()
            .skip(1)
            .any(|l| l.starts_with(&format!("{m}. ")))
    };
    let rdna = headings("docs/models/rdna.md");
    let gcn = headings("docs/models/gcn.md");
    let mut cited = 0;
    let mut problems = Vec::new();
    for dir in std::fs::read_dir(root.join("crates")).unwrap() {
        let data = dir.unwrap().path().join("data");
        let Ok(files) = std::fs::read_dir(&data) else {
            continue;
        };
        for f in files {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|x| x != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            for (key, sections) in [("rdna-model.md ", &rdna), ("gcn-model.md ", &gcn)] {
                for (at, _) in text.match_indices(key) {
                    let rest = &text[at + key.len()..];
                    let word: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '.')
                        .collect();
                    let word = word.trim_end_matches('.');
                    if word.is_empty() {
                        continue;
                    }
                    cited += 1;
                    // `2.1` names "2.1 ..."; `8` names "8. ..."; `Shape` names "Shape".
                    let found = sections.iter().any(|h| {
                        h.starts_with(&format!("{word} "))
                            || h.starts_with(&format!("{word}. "))
                            || h == word
                    }) || (key.starts_with("rdna") && list_item(word));
                    if !found {
                        problems.push(format!("{}: `{key}{word}`", f.display()));
                    }
                }
            }
        }
    }
    assert!(cited > 50, "only {cited} citations found");
    assert!(
        problems.is_empty(),
        "sections not in docs/models: {}",
        problems.join(", ")
    );
}
