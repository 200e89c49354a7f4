//! The module graph of one crate and its circles.
//!
//! A module is a source file (`src/a/b.rs` and `src/a/b/mod.rs` are
//! `a::b`; `lib.rs` and `main.rs` the root). Module `m` depends on module
//! `n` when its shipped code names a path into `n`: a `use` (brace groups
//! expanded) or a path written inline, through `crate::`, `super::` or
//! `self::`. A path that reaches an item a module re-exports (`pub use`)
//! is followed to the module that defines it, so importing
//! `crate::Simulation` depends on `run`, not on the root that re-exports
//! it. A module naming its own descendants is not an edge: a folder's
//! `mod.rs` assembles its parts, and they may use what it holds.

use super::lexer::{is_word, matching, shipped_code};
use std::collections::{BTreeMap, BTreeSet};

/// One file of a crate: its path below `src/` and its text.
pub struct ModuleFile {
    /// Path below the crate's `src/`, such as `machine/issue.rs`.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// A circle of modules that depend on each other, with the imports that
/// close it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle {
    /// The modules, sorted (`crate` for the root).
    pub modules: Vec<String>,
    /// `from -> to: path (line)` for each edge inside the circle.
    pub edges: Vec<String>,
}

/// The module path of a file below `src/`: `a/b.rs` and `a/b/mod.rs` are
/// `a::b`, `lib.rs` and `main.rs` are the root (empty).
pub fn module_of(path: &str) -> String {
    let trimmed = path.trim_end_matches(".rs");
    let parts: Vec<&str> = trimmed.split('/').collect();
    let parts = match parts.as_slice() {
        [.., "mod"] => &parts[..parts.len() - 1],
        ["lib"] | ["main"] => &[],
        _ => &parts[..],
    };
    parts.join("::")
}

/// One path a module names, where it names it.
struct Reference {
    segments: Vec<String>,
    line: usize,
}

/// What a module offers to paths that go through it: the names it
/// re-exports (with the absolute path of each), the modules it re-exports
/// whole (`pub use views::*`), and the public items it defines.
#[derive(Default)]
struct Exports {
    names: BTreeMap<String, Vec<String>>,
    globs: Vec<String>,
    defined: BTreeSet<String>,
}

/// The circles among the modules of one crate.
pub fn import_circles(files: &[ModuleFile]) -> Vec<Circle> {
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&f.path)).collect();
    let mut references: BTreeMap<String, Vec<Reference>> = BTreeMap::new();
    let mut reexports: BTreeMap<String, Exports> = BTreeMap::new();
    for file in files {
        let module = module_of(&file.path);
        let (refs, exports) = references_of(&module, &file.text, &modules);
        references.insert(module.clone(), refs);
        reexports.insert(module, exports);
    }
    let mut edges: BTreeMap<(String, String), String> = BTreeMap::new();
    for (from, refs) in &references {
        for r in refs {
            let to = resolve(&r.segments, &modules, &reexports, 0);
            if to == *from || is_ancestor(from, &to) {
                continue;
            }
            edges
                .entry((from.clone(), to))
                .or_insert_with(|| format!("{} (line {})", r.segments.join("::"), r.line));
        }
    }
    strongly_connected(&modules, &edges)
}

fn is_ancestor(ancestor: &str, module: &str) -> bool {
    ancestor.is_empty() || module.starts_with(&format!("{ancestor}::"))
}

/// The module that defines the item `segments` (absolute) names: the
/// longest module prefix, then through that module's re-exports.
fn resolve(
    segments: &[String],
    modules: &BTreeSet<String>,
    reexports: &BTreeMap<String, Exports>,
    depth: usize,
) -> String {
    let mut cut = segments.len();
    while cut > 0 && !modules.contains(&segments[..cut].join("::")) {
        cut -= 1;
    }
    let module = segments[..cut].join("::");
    let rest = &segments[cut..];
    let (Some(first), Some(exports), true) = (rest.first(), reexports.get(&module), depth < 8)
    else {
        return module;
    };
    if exports.defined.contains(first) {
        return module;
    }
    let mut followed = match exports.names.get(first) {
        Some(target) => target.clone(),
        None => {
            let glob = exports.globs.iter().find(|g| {
                reexports
                    .get(*g)
                    .is_some_and(|e| e.defined.contains(first) || e.names.contains_key(first))
            });
            match glob {
                Some(g) => g
                    .split("::")
                    .map(String::from)
                    .chain([first.clone()])
                    .collect(),
                None => return module,
            }
        }
    };
    followed.extend(rest[1..].iter().cloned());
    resolve(&followed, modules, reexports, depth + 1)
}

/// The paths `module`'s text names (absolute), and the names it
/// re-exports with the absolute path of each.
fn references_of(
    module: &str,
    text: &str,
    modules: &BTreeSet<String>,
) -> (Vec<Reference>, Exports) {
    let mut code: Vec<char> = shipped_code(text).chars().collect();
    let line_of = |i: usize, code: &[char]| code[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut refs = Vec::new();
    let mut exports = Exports {
        defined: defined_names(&code),
        ..Exports::default()
    };
    // `use` declarations first; each is blanked once read, so the inline
    // scan below does not see its brace groups.
    let mut i = 0;
    while let Some((start, body_start, end)) = next_use(&code, i) {
        let public = code[..start]
            .iter()
            .rev()
            .skip_while(|c| c.is_whitespace())
            .take(12)
            .collect::<String>()
            .contains("bup");
        let tree: String = code[body_start..end].iter().collect();
        let line = line_of(start, &code);
        for (path, alias) in expand_use_tree(&tree) {
            if let Some(segments) = absolute(module, &path, modules) {
                if public && alias == "*" {
                    let whole = &segments[..segments.len().saturating_sub(1)];
                    exports.globs.push(whole.join("::"));
                } else if public && alias != "self" {
                    exports.names.insert(alias, segments.clone());
                }
                refs.push(Reference { segments, line });
            }
        }
        for c in &mut code[start..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    for (at, path) in inline_paths(&code) {
        if let Some(segments) = absolute(module, &path, modules) {
            refs.push(Reference {
                segments,
                line: line_of(at, &code),
            });
        }
    }
    (refs, exports)
}

/// The items `code` defines with `pub` (any visibility beyond private):
/// the names a path through this module may stop at.
fn defined_names(code: &[char]) -> BTreeSet<String> {
    const KINDS: &[&str] = &[
        "struct", "enum", "fn", "type", "trait", "const", "static", "mod", "union",
    ];
    let text: String = code.iter().collect();
    let words: Vec<&str> = text
        .split(|c: char| !(is_word(c) || c == '(' || c == ')'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        if w.starts_with("pub") {
            let mut j = i + 1;
            while words
                .get(j)
                .is_some_and(|k| ["unsafe", "async", "extern"].contains(k))
            {
                j += 1;
            }
            if let (Some(kind), Some(name)) = (words.get(j), words.get(j + 1)) {
                if KINDS.contains(kind) {
                    out.insert(name.trim_end_matches(['(', ')']).to_string());
                }
            }
        }
    }
    out
}

/// The next `use` declaration at or after `from`: where its keyword
/// starts, where its tree starts, and the index of its `;`.
fn next_use(code: &[char], from: usize) -> Option<(usize, usize, usize)> {
    let mut i = from;
    while i + 3 < code.len() {
        let word_start = i == 0 || !is_word(code[i - 1]);
        if word_start && code[i..i + 3] == ['u', 's', 'e'] && code[i + 3].is_whitespace() {
            let end = (i + 3..code.len()).find(|&j| code[j] == ';')?;
            return Some((i, i + 4, end));
        }
        i += 1;
    }
    None
}

/// Every path a use tree names, with the name it brings in:
/// `a::{b, c::d as e}` gives `a::b` (`b`) and `a::c::d` (`e`).
fn expand_use_tree(tree: &str) -> Vec<(String, String)> {
    let compact: String = tree
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let mut out = Vec::new();
    expand_into("", compact.trim(), &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<(String, String)>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let chars: Vec<char> = tree.chars().collect();
        let open_chars = tree[..open].chars().count();
        let close = matching(&chars, open_chars, '{', '}');
        let head = tree[..open].trim().trim_end_matches("::");
        let inner: String = chars[open_chars + 1..close - 1].iter().collect();
        let base = join(prefix, head);
        for part in split_top_level(&inner) {
            expand_into(&base, &part, out);
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p.trim(), a.trim().to_string()),
        None => (tree, tree.rsplit("::").next().unwrap_or(tree).to_string()),
    };
    if path == "self" {
        let alias = prefix.rsplit("::").next().unwrap_or(prefix).to_string();
        out.push((prefix.to_string(), alias));
    } else {
        out.push((join(prefix, path), alias));
    }
}

fn join(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}::{rest}"),
    }
}

/// `a, b::{c, d}, e` split at the commas outside braces.
fn split_top_level(inner: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
}

/// Paths written inline that start with `crate::`, `super::` or `self::`,
/// with the index where each starts.
fn inline_paths(code: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let starts_word = i == 0 || !(is_word(code[i - 1]) || code[i - 1] == '$');
        let rest: String = code[i..(i + 7).min(code.len())].iter().collect();
        if starts_word
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|p| rest.starts_with(p))
        {
            let mut j = i;
            while j < code.len() && (is_word(code[j]) || code[j] == ':') {
                j += 1;
            }
            let path: String = code[i..j].iter().collect();
            out.push((i, path.trim_end_matches(':').to_string()));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `path` made absolute from `module` (segments below the crate root), or
/// `None` for a path into another crate. A path without `crate::`,
/// `super::` or `self::` is relative when it starts with a child module of
/// `module` (`pub use run::Simulation;` in `lib.rs`).
fn absolute(module: &str, path: &str, modules: &BTreeSet<String>) -> Option<Vec<String>> {
    let mut base: Vec<String> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(String::from).collect()
    };
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    match segments.peek().copied() {
        Some("crate") => {
            base.clear();
            segments.next();
        }
        Some("self") => {
            segments.next();
        }
        Some("super") => {
            while segments.peek() == Some(&"super") {
                segments.next();
                base.pop();
            }
        }
        Some(first) => {
            let child = if module.is_empty() {
                first.to_string()
            } else {
                format!("{module}::{first}")
            };
            if !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(segments.map(String::from));
    Some(base)
}

/// Tarjan's strongly connected components of size two or more.
fn strongly_connected(
    modules: &BTreeSet<String>,
    edges: &BTreeMap<(String, String), String>,
) -> Vec<Circle> {
    let names: Vec<&String> = modules.iter().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (from, to) in edges.keys() {
        if let (Some(&f), Some(&t)) = (index_of.get(from), index_of.get(to)) {
            next[f].push(t);
        }
    }
    let components = tarjan(&next);
    components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|component| {
            let members: BTreeSet<&String> = component.iter().map(|&i| names[i]).collect();
            let edges = edges
                .iter()
                .filter(|((f, t), _)| members.contains(f) && members.contains(t))
                .map(|((f, t), why)| format!("{} -> {}: {why}", shown(f), shown(t)))
                .collect();
            Circle {
                modules: members.into_iter().map(|m| shown(m)).collect(),
                edges,
            }
        })
        .collect()
}

fn shown(module: &str) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.to_string()
    }
}

/// Tarjan's algorithm, iterative: the components of the graph `next`.
fn tarjan(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = next.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&(v, child)) = work.last() {
            if child == 0 && index[v] == usize::MAX {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = next[v].get(child) {
                if let Some(top) = work.last_mut() {
                    top.1 += 1;
                }
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}
