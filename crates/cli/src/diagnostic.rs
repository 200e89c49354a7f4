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

/// `FILE`, `LINE` and `COL` of a message starting `FILE:LINE:COL: error:`.
fn place(msg: &str) -> Option<(&str, usize, usize)> {
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
    let start = source
        .char_indices()
        .nth(col - 1)
        .map_or(source.len(), |(i, _)| i);
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
    // The title line repeats what the first line already said.
    let mut out: String = rendered.lines().skip(1).map(|l| format!("{l}\n")).collect();
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
    fn a_column_past_the_end_still_renders() {
        let s = render("a.s", 1, 40, "s_nop");
        assert!(s.contains("1 | s_nop"), "{s}");
    }
}
