//! What every HTML and SVG drawing of the reports shares: escaping and
//! the heat colour scale.

/// Escape for HTML text and attributes.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escape Markdown-ish report text for HTML, rendering its `code` spans
/// (the text reports quote names and instructions in backticks) as
/// `<code>`; an unpaired backtick stays as it is.
pub fn inline(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        let closed = i % 2 == 1 && i + 1 < parts.len();
        if closed {
            out.push_str("<code>");
            out.push_str(&esc(part));
            out.push_str("</code>");
        } else {
            if i % 2 == 1 {
                // The opening backtick of a span never closed.
                out.push('`');
            }
            out.push_str(&esc(part));
        }
    }
    out
}

/// Heat colour: white to red with the share (full red at `full`).
pub fn heat_color(v: f64, full: f64) -> String {
    let f = (v / full).clamp(0.0, 1.0);
    let g = (255.0 - 140.0 * f).round();
    format!("rgb(255,{g},{g})")
}

#[cfg(test)]
mod tests {
    use super::inline;

    #[test]
    fn backticks_become_code() {
        assert_eq!(
            inline("loop at `s_cbranch_scc0 <x>` and `a`"),
            "loop at <code>s_cbranch_scc0 &lt;x&gt;</code> and <code>a</code>"
        );
        assert_eq!(inline("a ` b"), "a ` b");
        assert_eq!(inline("`x` `y"), "<code>x</code> `y");
    }
}
