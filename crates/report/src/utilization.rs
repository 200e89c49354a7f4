//! What the utilization bars show, shared by the text and HTML reports:
//! every resource the bottleneck verdict can name. The verdict names an
//! execution unit or a memory level's bandwidth ("DRAM bandwidth-bound"),
//! so the bars hold both: a report whose headline names DRAM must show a
//! DRAM bar near the verdict's percentage, not only unit bars far below it.

use crate::analyze_view::AnalyzeReport;
use std::fmt::Write;

/// One bar: a resource and the fraction of it the run used.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The name the verdict uses for it (`VALU`, `DRAM`, ...).
    pub name: String,
    /// Fraction used, 0 to 1.
    pub share: f64,
}

/// How a bandwidth bar's share is computed, said wherever the bars are.
pub const BANDWIDTH_MEANING: &str =
    "bytes the level served / (clocks x its bytes per clock per CU)";

/// Each memory level with a bandwidth in the model, in the model's order:
/// the share of it the run used (the report's `cache` object:
/// `bytes / (clocks x bytes_per_clock)`). Named in upper case as the
/// bottleneck verdict names it (`DRAM bandwidth-bound`).
pub fn bandwidth_bars(r: &AnalyzeReport) -> Vec<Bar> {
    r.cache.as_ref().map_or_else(Vec::new, |c| {
        c.0.iter()
            .filter_map(|(name, l)| {
                Some(Bar {
                    name: name.to_uppercase(),
                    share: l.bandwidth_utilization?,
                })
            })
            .collect()
    })
}

/// The text report's line of [`bandwidth_bars`] (`None` without a level
/// that has a bandwidth): the verdict can name a memory level's bandwidth,
/// so a bandwidth-bound headline has its figure beside the units'.
pub fn bandwidth_line(r: &AnalyzeReport) -> Option<String> {
    let bars = bandwidth_bars(r);
    if bars.is_empty() {
        return None;
    }
    let parts: Vec<String> = bars
        .iter()
        .map(|b| format!("{} {}", b.name, crate::numbers::pct(b.share)))
        .collect();
    Some(format!(
        "  bandwidth used     {} ({BANDWIDTH_MEANING})",
        parts.join("  ")
    ))
}

/// The execution units' bars: the four every model has, and the others
/// when they did any work.
pub fn unit_bars(r: &AnalyzeReport) -> Vec<Bar> {
    let u = &r.utilization;
    [
        ("VALU", u.valu),
        ("SALU", u.salu),
        ("SMEM", u.smem),
        ("VMEM", u.vmem),
        ("LDS", u.lds),
        ("export", u.export),
        ("GDS", u.gds),
        ("trans", u.trans),
        ("ray", u.ray),
        ("matrix", u.matrix),
    ]
    .into_iter()
    .filter(|(n, v)| *v > 0.0 || matches!(*n, "VALU" | "VMEM" | "LDS" | "export"))
    .map(|(name, share)| Bar {
        name: name.to_string(),
        share,
    })
    .collect()
}

/// The HTML section's body: a caption saying what the two kinds of bar
/// measure, and one SVG of the unit bars followed by the bandwidth bars.
pub fn html_section(r: &AnalyzeReport) -> String {
    let units = unit_bars(r);
    let bandwidth = bandwidth_bars(r);
    let mut o = String::new();
    if !bandwidth.is_empty() {
        let _ = write!(
            o,
            "<p>Units: the share of the clocks each was busy. Memory levels (below the line): the share of their bandwidth used, {}.</p>",
            crate::markup::esc(BANDWIDTH_MEANING)
        );
    }
    let (w, bar) = (520, 400.0);
    // A gap of half a row between the units and the memory levels.
    let gap = if bandwidth.is_empty() { 0 } else { 10 };
    let h = (units.len() + bandwidth.len()) * 20 + gap + 6;
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"utilization\">"
    );
    let rows = units
        .iter()
        .map(|b| (b, 0))
        .chain(bandwidth.iter().map(|b| (b, gap)));
    for (i, (b, shift)) in rows.enumerate() {
        let y = i * 20 + 3 + shift;
        let _ = write!(
            o,
            "<text x=\"0\" y=\"{}\">{}</text><rect x=\"60\" y=\"{y}\" width=\"{bar}\" height=\"14\" fill=\"#eee\"/><rect x=\"60\" y=\"{y}\" width=\"{:.1}\" height=\"14\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{:.1}%</text>",
            y + 11,
            crate::markup::esc(&b.name),
            bar * b.share.clamp(0.0, 1.0),
            if b.share >= 0.9 { "#d62728" } else { "#1f77b4" },
            60.0 + bar + 6.0,
            y + 11,
            100.0 * b.share
        );
    }
    if !bandwidth.is_empty() {
        let y = units.len() * 20 + 3 + gap / 2 - 1;
        let _ = write!(
            o,
            "<line x1=\"0\" x2=\"{w}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#bbb\"/>"
        );
    }
    o.push_str("</svg>");
    o
}
