//! The README's figures come from commands this test re-runs (issue 47 item
//! 10: the README showed outputs the binary no longer printed). Every
//! `$ shadersim ...` (or `$ cargo run --release -- ...`) in a README code
//! block whose files are in the repository is run, and the lines shown under
//! it must be the command's: `...` on a line of its own skips output lines,
//! `...` inside a line stands for any text there. Standard error (notes)
//! comes before standard output in what is matched. Commands on files the
//! README's reader makes first (`conv.toml`, `lighting.s`) are not run; a
//! command that compiles needs its compiler (skipped with a note without it
//! outside `CI`, as the compiler tests are).

use crate::{command, root};
use shadersim_testkit::tools::{have_clang_22, have_radv};

/// One command of a README block and the lines shown under it.
struct Example {
    /// README line of the command.
    line: usize,
    args: Vec<String>,
    shown: Vec<String>,
}

/// The examples of every fenced block of `readme`.
fn examples(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut in_block = false;
    // A block inside a list item is indented; its lines lose the fence's indent.
    let mut indent = 0;
    let mut current: Option<Example> = None;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if t.starts_with("```") {
            in_block = !in_block;
            indent = lines[i].len() - t.len();
            out.extend(current.take());
        } else if in_block {
            if let Some(c) = t.strip_prefix("$ ") {
                out.extend(current.take());
                let mut cmd = c.to_string();
                let line = i + 1;
                while cmd.ends_with('\\') && i + 1 < lines.len() {
                    cmd.pop();
                    i += 1;
                    cmd.push(' ');
                    cmd.push_str(lines[i].trim());
                }
                // A trailing `# comment` is the README's, not the command's.
                let cmd = cmd.split("  #").next().unwrap_or("").trim().to_string();
                let cmd = cmd
                    .strip_prefix("cargo run --release -- ")
                    .map(|c| format!("shadersim {c}"))
                    .unwrap_or(cmd);
                current = cmd.strip_prefix("shadersim ").map(|rest| Example {
                    line,
                    args: words(rest),
                    shown: Vec::new(),
                });
            } else if let Some(c) = current.as_mut() {
                let l = lines[i];
                let l = if l.len() >= indent && l[..indent].trim().is_empty() {
                    &l[indent..]
                } else {
                    l
                };
                c.shown.push(l.trim_end().to_string());
            }
        }
        i += 1;
    }
    // A blank line before the next command separates, it is not output.
    for ex in &mut out {
        while ex.shown.last().is_some_and(|l| l.is_empty()) {
            ex.shown.pop();
        }
    }
    out
}

/// Shell words: whitespace-separated, `'...'` quoted.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for ch in s.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Whether a shown line matches an output line: equal, or with each `...`
/// standing for any text.
fn matches(shown: &str, got: &str) -> bool {
    let got = got.trim_end();
    if !shown.contains("...") {
        return shown == got;
    }
    let parts: Vec<&str> = shown.split("...").collect();
    let mut rest = got;
    for (k, p) in parts.iter().enumerate() {
        if k == 0 {
            let Some(r) = rest.strip_prefix(p) else {
                return false;
            };
            rest = r;
        } else if k == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            let Some(at) = rest.find(p) else {
                return false;
            };
            rest = &rest[at + p.len()..];
        }
    }
    true
}

/// Where the shown lines first disagree with the output (`None`: they
/// match): segments between `...` lines, each found whole and in order. A
/// first segment with no `...` before it starts the output: at its first
/// line, or at `stdout_at`, the first line of standard output after the
/// notes of standard error.
fn disagreement(shown: &[String], got: &[&str], stdout_at: usize) -> Option<String> {
    let mut from = 0;
    let segments = shown
        .split(|l| l.trim() == "...")
        .filter(|s| !s.is_empty() && !s.iter().all(|l| l.trim().is_empty()));
    for (k, seg) in segments.enumerate() {
        // The first segment without a `...` before it starts the output.
        let anchored = k == 0 && shown.first().is_some_and(|l| l.trim() != "...");
        let starts: Vec<usize> = if anchored {
            vec![0, stdout_at]
        } else {
            (from..=got.len().saturating_sub(seg.len())).collect()
        };
        let at = starts.into_iter().find(|&s| {
            s + seg.len() <= got.len() && seg.iter().zip(&got[s..]).all(|(a, b)| matches(a, b))
        });
        match at {
            Some(s) => from = s + seg.len(),
            None => {
                return Some(format!(
                    "no run of output lines matches:\n{}\n--- the output:\n{}",
                    seg.join("\n"),
                    got.join("\n")
                ))
            }
        }
    }
    None
}

#[test]
fn the_readmes_outputs_are_what_the_commands_print() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut checked = 0;
    for ex in examples(&readme) {
        if ex
            .shown
            .iter()
            .all(|l| l.trim().is_empty() || l.trim() == "...")
        {
            continue;
        }
        // Files the reader makes first are not in the repository.
        let made_first = ex.args.iter().any(|a| {
            let file_like = a.contains('/')
                || [
                    ".s", ".co", ".toml", ".txt", ".cl", ".comp", ".frag", ".obj",
                ]
                .iter()
                .any(|e| a.ends_with(e));
            file_like && !a.starts_with('-') && !root().join(a).exists()
        });
        if made_first {
            continue;
        }
        let compiles = |ext: &[&str]| ex.args.iter().any(|a| ext.iter().any(|e| a.ends_with(e)));
        if compiles(&[".cl"]) && !have_clang_22() {
            continue;
        }
        if compiles(&[".comp", ".frag", ".vert"]) && !have_radv() {
            continue;
        }
        // `--plot FILE` would write into the repository; standard output is
        // the same without it. Commands that write other files are not run.
        let mut args = ex.args.clone();
        if let Some(k) = args.iter().position(|a| a == "--plot") {
            args.drain(k..(k + 2).min(args.len()));
        }
        if args
            .iter()
            .any(|a| a == "-o" || a == "--hints-out" || a == "--timeline")
        {
            continue;
        }
        let o = command().args(&args).output();
        let (err, out) = (
            String::from_utf8_lossy(&o.stderr).into_owned(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        );
        assert!(
            o.status.success(),
            "README.md:{}: {:?}: {err}",
            ex.line,
            ex.args
        );
        let got: Vec<&str> = err.lines().chain(out.lines()).collect();
        if let Some(d) = disagreement(&ex.shown, &got, err.lines().count()) {
            panic!(
                "README.md:{}: `shadersim {}`: {d}",
                ex.line,
                ex.args.join(" ")
            );
        }
        checked += 1;
    }
    // analyze (3), hints, cfg, compare, sweep, occupancy, liveness, coalesce (3) at least.
    assert!(checked >= 12, "only {checked} README examples ran");
}

#[test]
fn shown_lines_match_with_elisions() {
    assert!(matches("a ... d", "a b c d"));
    assert!(matches("0,1,...,1,hints", "0,1,2,3,1,hints"));
    assert!(!matches("a ... e", "a b c d"));
    let got = ["h", "x", "a", "b", "y", "c"];
    let shown = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(disagreement(&shown(&["h", "...", "a", "b", "...", "c"]), &got, 0).is_none());
    assert!(disagreement(&shown(&["...", "b", "y"]), &got, 0).is_none());
    assert!(disagreement(&shown(&["x", "a"]), &got, 0).is_some());
    assert!(disagreement(&shown(&["...", "b", "a"]), &got, 0).is_some());
    assert!(disagreement(&shown(&["x", "a"]), &got, 1).is_none());
}
