//! The control-flow graph as an SVG drawing for the HTML report.
//!
//! A layout that stays readable for any graph shadersim accepts (reducible,
//! up to hundreds of blocks) without a graph-layout engine: blocks are rows
//! in program order (the order the compiler laid them out, so fall-through
//! is the next row); every loop is a bracket on the left, outer loops
//! further left; edges that do not fall through are arcs on the right,
//! back edges in red. A block's fill is the share of the waves' time spent
//! in it, its text links to its first line in the listing.

use crate::blocks::BlockView;
use crate::markup::{esc, heat_color};
use crate::numbers;
use shadersim_cfg::Cfg;
use std::fmt::Write;

const ROW: f64 = 24.0;
const BOX_W: f64 = 420.0;
const BRACKET: f64 = 14.0;

/// Draw `cfg` with the time of `blocks` (the rows drawn are the blocks in
/// `blocks`: reachable, non-empty).
pub fn cfg_svg(cfg: &Cfg, blocks: &[BlockView]) -> String {
    let row_of = |b: usize| blocks.iter().position(|v| v.id == b);
    let depth = cfg.loops.iter().map(|l| l.depth).max().unwrap_or(0) as f64;
    let x0 = 10.0 + depth * BRACKET;
    // Arcs need room: the longest jump bulges most.
    let arcs: Vec<(usize, usize, bool)> = blocks
        .iter()
        .enumerate()
        .flat_map(|(r, v)| {
            cfg.blocks[v.id]
                .succs
                .iter()
                .filter_map(move |e| row_of(e.to).map(|t| (r, t, e.to <= v.id)))
                .filter(|&(r, t, _)| t != r + 1)
                .collect::<Vec<_>>()
        })
        .collect();
    let width = x0 + BOX_W + 40.0 + 8.0 * arcs.len().min(40) as f64;
    let height = blocks.len() as f64 * ROW + 10.0;
    let max_share = blocks
        .iter()
        .map(|b| b.share)
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" aria-label=\"control-flow graph\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#555\"/></marker></defs>"
    );
    for l in &cfg.loops {
        let rows: Vec<usize> = l.blocks.iter().filter_map(|&b| row_of(b)).collect();
        let (Some(&lo), Some(&hi)) = (rows.iter().min(), rows.iter().max()) else {
            continue;
        };
        let x = 10.0 + (f64::from(l.depth) - 1.0) * BRACKET;
        let (y0, y1) = (
            5.0 + lo as f64 * ROW + 2.0,
            5.0 + (hi + 1) as f64 * ROW - 2.0,
        );
        let _ = write!(
            s,
            "<path d=\"M{:.1},{y0:.1}H{x:.1}V{y1:.1}H{:.1}\" fill=\"none\" stroke=\"#9467bd\" stroke-width=\"2\"><title>loop {} (depth {})</title></path>",
            x + BRACKET - 3.0,
            x + BRACKET - 3.0,
            l.id,
            l.depth
        );
    }
    for (r, b) in blocks.iter().enumerate() {
        let y = 5.0 + r as f64 * ROW;
        let label = format!(
            "B{} lines {}-{}: {} of the time, {} clocks per execution, {} per wave",
            b.id,
            b.lines[0],
            b.lines[1],
            numbers::pct(b.share),
            numbers::clocks(b.clocks_per_execution),
            numbers::amount(b.executions)
        );
        let short = format!(
            "B{}  lines {}-{}  {}  {} clk/exec  x{}",
            b.id,
            b.lines[0],
            b.lines[1],
            numbers::pct(b.share),
            numbers::clocks(b.clocks_per_execution),
            numbers::amount(b.executions)
        );
        let _ = write!(
            s,
            "<a href=\"#L{}\"><rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{BOX_W}\" height=\"{:.1}\" fill=\"{}\" stroke=\"#555\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text><title>{}</title></a>",
            b.lines[0],
            y + 2.0,
            ROW - 4.0,
            heat_color(b.share, max_share),
            x0 + 6.0,
            y + 16.0,
            esc(&short),
            esc(&label)
        );
    }
    for (k, &(from, to, back)) in arcs.iter().enumerate() {
        let xr = x0 + BOX_W;
        let bulge = 14.0 + 8.0 * (k % 40) as f64;
        let (ya, yb) = (
            5.0 + from as f64 * ROW + ROW * 0.6,
            5.0 + to as f64 * ROW + ROW * 0.4,
        );
        let _ = write!(
            s,
            "<path d=\"M{xr:.1},{ya:.1}C{:.1},{ya:.1} {:.1},{yb:.1} {xr:.1},{yb:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.3\" marker-end=\"url(#arrow)\"/>",
            xr + bulge,
            xr + bulge,
            if back { "#d62728" } else { "#555" }
        );
    }
    s.push_str("</svg>");
    s
}
