//! The source line under an error about a place, rustc-style:
//!
//! ```text
//! prog.s:3:5: error: unknown instruction `v_foo`
//!   --> prog.s:3:5
//!    |
//!  3 |     v_foo v0, v1
//!    |     ^^^^^
//! ```
//!
//! The first line stays `FILE:LINE:COL: error: ...` (scripts read it);
//! the snippet, drawn by `annotate-snippets`, follows it. The file is read
//! again here: errors carry positions, not text, and only the CLI touches
//! files. Standard input, unreadable files and positions past the end
//! give no snippet.

use annotate_snippets::{Level, Renderer, Snippet};

/// Largest file read again for a snippet (a listing can be large; the
/// error line alone is still useful without the picture).
const MAX_BYTES: u64 = 64 << 20;

/// What a tab in a shown source line is drawn as.
const TAB: &str = "    ";

/// `FILE`, `LINE` and `COL` of a message starting `FILE:LINE:COL: error:`.
pub(crate) fn place(msg: &str) -> Option<(&str, usize, usize)> {
    let first = msg.lines().next()?;
    let head = &first[..first.find(": error:")?];
    let mut parts = head.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    (line > 0 && col > 0 && !file.is_empty()).then_some((file, line, col))
}

/// The snippet for `msg`, or `None` when it names no readable place.
pub fn source_snippet(msg: &str) -> Option<String> {
    let (file, line, col) = place(msg)?;
    if file.starts_with('<') || std::fs::metadata(file).ok()?.len() > MAX_BYTES {
        return None;
    }
    let bytes = std::fs::read(file).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let source = text.lines().nth(line - 1)?;
    Some(render(file, line, col, source))
}

/// Draw `source` (line `line` of `file`) with a caret under the word that
/// starts at column `col` (1-based, in characters).
fn render(file: &str, line: usize, col: usize, source: &str) -> String {
    // Tabs are drawn as four spaces (as rustc does) here, before the
    // renderer sees the line: annotate-snippets widens a tab in the line it
    // shows but not in the caret's offset, which put the caret of every
    // tab-indented compiler listing three columns early per tab.
    let expanded = source.replace('\t', TAB);
    let start: usize = source
        .chars()
        .take(col - 1)
        .map(|c| if c == '\t' { TAB.len() } else { c.len_utf8() })
        .sum();
    let source = expanded.as_str();
    let start = start.min(source.len());
    let word = source[start..]
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(source.len() - start);
    let span = start..(start + word.max(1)).min(source.len().max(start));
    let message = Level::Error.title("").snippet(
        Snippet::source(source)
            .line_start(line)
            .origin(file)
            .annotation(Level::Error.span(span)),
    );
    let rendered = Renderer::plain().render(message).to_string();
    // The title line repeats what the first line already said. The `-->`
    // line's column is the renderer's, counted in the tab-widened line:
    // give it the message's own.
    let origin = format!("--> {file}:");
    let mut out: String = rendered
        .lines()
        .skip(1)
        .map(|l| match l.find(&origin) {
            Some(at) => format!("{}--> {file}:{line}:{col}\n", &l[..at]),
            None => format!("{l}\n"),
        })
        .collect();
    if out.trim().is_empty() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{place, render};

    #[test]
    fn place_is_read_from_the_first_line() {
        assert_eq!(place("a.s:3:5: error: bad"), Some(("a.s", 3, 5)));
        assert_eq!(place("C:/x/a.s:3:5: error: bad"), Some(("C:/x/a.s", 3, 5)));
        assert_eq!(place("a.s: error: bad"), None);
        assert_eq!(place("error: bad"), None);
    }

    #[test]
    fn caret_under_the_word_at_the_column() {
        let s = render("a.s", 3, 5, "    v_foo v0, v1");
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].ends_with("--> a.s:3:5"), "{s}");
        assert!(
            lines.iter().any(|l| l.ends_with("3 |     v_foo v0, v1")),
            "{s}"
        );
        // Five carets under `v_foo`, starting at column 5 of the source.
        let caret = lines.iter().find(|l| l.contains('^')).unwrap();
        let bar = caret.find('|').unwrap();
        assert_eq!(&caret[bar + 2..], "    ^^^^^");
    }

    #[test]
    fn caret_under_the_word_on_a_tab_indented_line() {
        // Compiler listings indent with tabs: `\ts_mov_b32 s0, \t v300` has
        // `v300` at column 18 (1-based characters: tab, the 14 characters
        // `s_mov_b32 s0, `, tab, space). Drawn with each tab as four
        // spaces, it starts at display offset 4 + 14 + 4 + 1 = 23, and so
        // must the caret; the `-->` line keeps the message's column.
        let s = render("a.s", 2, 18, "\ts_mov_b32 s0, \t v300");
        let lines: Vec<&str> = s.lines().collect();
        let shown = lines.iter().find(|l| l.contains("s_mov_b32")).unwrap();
        let caret = lines.iter().find(|l| l.contains('^')).unwrap();
        let bar = shown.find('|').unwrap();
        assert_eq!(&shown[bar + 2..], "    s_mov_b32 s0,      v300");
        assert_eq!(&caret[bar + 2..], "                       ^^^^");
        assert!(lines[0].ends_with("--> a.s:2:18"), "{s}");
    }

    #[test]
    fn a_column_past_the_end_still_renders() {
        let s = render("a.s", 1, 40, "s_nop");
        assert!(s.contains("1 | s_nop"), "{s}");
    }
}
