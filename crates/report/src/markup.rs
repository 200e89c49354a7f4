//! What every HTML and SVG drawing of the reports shares: escaping and
//! the heat colour scale.

/// Escape for HTML text and attributes.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Heat colour: white to red with the share (full red at `full`).
pub fn heat_color(v: f64, full: f64) -> String {
    let f = (v / full).clamp(0.0, 1.0);
    let g = (255.0 - 140.0 * f).round();
    format!("rgb(255,{g},{g})")
}
