//! The visual HTML report: one self-contained page (inline SVG and CSS, no
//! script, no external font or file), so it opens offline and renders the
//! same everywhere.
//!
//! Sections: the bottleneck statement, the summary, utilization bars, the
//! activity over time (waves executing / stalled / waiting, and each
//! unit's busy share), the first wave slots' timeline, the latency
//! tolerance curve, the control-flow graph coloured by time, the block and
//! loop tables, and the listing with per-line heat. Charts that need a
//! recorded run ([`Activity`]) are left out without one.

use crate::activity::Activity;
use crate::analyze_view::AnalyzeReport;
use crate::markup::{esc, heat_color, inline};
use crate::numbers;
use crate::timeline::SliceKind;
use std::fmt::Write;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#eee}.code td{font-family:monospace;white-space:pre}.wait{font-weight:bold}\
.code td.ins{white-space:pre-wrap;overflow-wrap:anywhere;min-width:24em}.note{color:#666}\
.bar{display:inline-block;height:10px;background:#d9534f}.bottleneck{font-size:1.2em;\
padding:.6em 1em;background:#fff3d6;border-left:6px solid #e0a800}\
svg text{font-family:sans-serif;font-size:11px}h2{margin-top:1.4em}\
a{color:inherit}.num{text-align:right}";

/// Colours of the series, in order (units after the wave states).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f",
];

/// The page.
pub fn page(r: &AnalyzeReport, cfg_svg: Option<&str>) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>shadersim: {}</title><style>{STYLE}</style></head><body>",
        esc(&r.program)
    );
    let _ = write!(
        o,
        "<h1>{}</h1><p>{} &mdash; {} ISA on the <b>{}</b> model</p>",
        esc(&r.program),
        esc(&r.file),
        esc(&r.isa),
        esc(&r.arch)
    );
    let _ = write!(
        o,
        "<p class=\"bottleneck\" id=\"bottleneck\">{}</p>",
        inline(&r.bottleneck.statement)
    );
    if let Some(k) = &r.kernel_time {
        let _ = write!(
            o,
            "<p class=\"kernel-time\" id=\"kernel-time\"><b>Kernel time on the whole GPU: {:.2} &micro;s.</b> {}</p>",
            k.us,
            esc(&k.statement)
        );
    }
    summary(&mut o, r);
    o.push_str("<h2>Utilization</h2>");
    o.push_str(&crate::utilization::html_section(r));
    if let Some(a) = &r.activity {
        o.push_str("<h2>Activity over time</h2><p>Waves resident on the CU, split into executing (between an issue and their next chance to issue), stalled (sitting on an instruction they cannot issue) and waiting (on a counter, a barrier or their turn); below, each unit's busy share.</p>");
        o.push_str(&activity_svg(a));
        o.push_str(&units_svg(a));
        o.push_str("<p>Issue mix: instructions issued per clock on the CU, by issue category (stacked).</p>");
        o.push_str(&issue_mix_svg(a));
        if !a.lanes.is_empty() {
            o.push_str("<h2>Timeline of the first wave slots</h2><p>Blue: issued instructions; red: stalls; grey: free instructions (waits passed, nops). The full timeline: <code>analyze --timeline FILE.json</code>, opened in Perfetto.</p>");
            o.push_str(&lanes_svg(a));
        }
    }
    if let Some(l) = &r.latency_tolerance {
        let bracket = esc(&match (l.clocks, l.fails_at) {
            (Some(c), Some(f)) => format!(
                " The tolerance lies somewhere between {c} (a simulation passed) and {f} (one failed): {c} is the latency known to pass, not a measured limit."
            ),
            (Some(c), None) => {
                format!(" A simulation passed at {c}; none failed within the search's budget.")
            }
            (None, _) => String::new(),
        });
        o.push_str("<h2>Latency tolerance</h2>");
        // A log axis draws positive latencies only: one of them is a lone
        // point in an empty plot, not a curve.
        if l.curve.iter().filter(|p| p.0 > 0).count() >= 2 {
            let _ = write!(
                o,
                "<p>Throughput against the VMEM latency at the {} latencies simulated to the end (the main run and the search's probes; probes stopped early, once they could no longer pass, have no throughput to plot); the dashed line is 95% of the zero-latency throughput, the vertical lines the model's latency and the tolerance.{bracket}{}</p>",
                l.curve.len(),
                latency_caption(l)
            );
            o.push_str(&latency_svg(l));
        } else {
            // A budgeted search whose probes all failed early finished too
            // few latencies to draw: say them, and the bracket.
            let ran: Vec<String> = l
                .curve
                .iter()
                .map(|(c, t)| format!("{c} clocks: {} per clock", numbers::significant(*t)))
                .collect();
            let _ = write!(
                o,
                "<p>Too few latencies ran to their end to draw a curve ({}; the search's other probes stopped early, once they could no longer pass).{bracket}</p>",
                esc(&ran.join("; "))
            );
        }
    }
    if let Some(svg) = cfg_svg {
        o.push_str("<h2>Control flow</h2><p>Blocks in program order, coloured by the share of the waves' time spent in them; loops are the brackets on the left (nesting to the left), branches the arcs on the right (back edges in red). Click a block to see its lines.</p>");
        o.push_str(svg);
    }
    blocks_table(&mut o, r);
    listing(&mut o, r);
    o.push_str("</body></html>\n");
    o
}

fn summary(o: &mut String, r: &AnalyzeReport) {
    let text = r.to_text();
    o.push_str("<table>");
    for l in text.lines().skip(2).take_while(|l| !l.trim().is_empty()) {
        let l = l.trim();
        let (k, v) = l.split_at(l.find("  ").unwrap_or(0));
        let _ = write!(
            o,
            "<tr><th>{}</th><td>{}</td></tr>",
            esc(k.trim()),
            inline(v.trim())
        );
    }
    o.push_str("</table>");
}

/// A chart frame: width, height, plot margins.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl Frame {
    fn new(h: f64) -> Frame {
        Frame {
            w: 900.0,
            h,
            left: 64.0,
            right: 130.0,
            top: 10.0,
            bottom: 28.0,
        }
    }
    fn pw(&self) -> f64 {
        self.w - self.left - self.right
    }
    fn ph(&self) -> f64 {
        self.h - self.top - self.bottom
    }
    fn x(&self, f: f64) -> f64 {
        self.left + f.clamp(0.0, 1.0) * self.pw()
    }
    fn y(&self, f: f64) -> f64 {
        self.top + (1.0 - f.clamp(0.0, 1.0)) * self.ph()
    }
    fn open(&self, label: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#fafafa\" stroke=\"#ccc\"/>",
            self.w,
            self.h,
            esc(label),
            self.left,
            self.top,
            self.pw(),
            self.ph()
        )
    }
    /// The x axis in clocks.
    fn clock_axis(&self, clocks: u64) -> String {
        let mut s = String::new();
        for k in 0..=4 {
            let f = f64::from(k) / 4.0;
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                self.x(f),
                self.h - 12.0,
                (f * clocks as f64).round()
            );
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">clock</text>",
            self.x(0.5),
            self.h - 1.0
        );
        s
    }
    /// The y axis' labels: `ymax` at the top, 0 at the bottom.
    fn y_range(&self, ymax: &str) -> String {
        format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{ymax}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text>",
            self.left - 4.0,
            self.top + 10.0,
            self.left - 4.0,
            self.top + self.ph()
        )
    }
}

fn legend(s: &mut String, f: &Frame, i: usize, color: &str, name: &str) {
    let y = f.top + 14.0 * i as f64 + 8.0;
    let x = f.w - f.right + 8.0;
    let _ = write!(
        s,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
        y - 8.0,
        x + 14.0,
        y + 1.0,
        esc(name)
    );
}

/// Stacked areas: executing, stalled, waiting (= resident minus both).
fn activity_svg(a: &Activity) -> String {
    let f = Frame::new(200.0);
    let n = a.times.len().max(1);
    let peak = a.resident.iter().copied().fold(1.0f64, f64::max).ceil();
    let mut s = f.open("waves over time");
    // The top of each layer, stacked: executing, + stalled, + waiting.
    let m = a.times.len();
    let executing: Vec<f64> = (0..m).map(|i| a.executing[i]).collect();
    let stalled: Vec<f64> = (0..m).map(|i| a.executing[i] + a.stalled[i]).collect();
    let waiting: Vec<f64> = (0..m).map(|i| a.resident[i].max(stalled[i])).collect();
    let layers = [
        ("executing", "#1f77b4", executing),
        ("stalled", "#d62728", stalled),
        ("waiting", "#bbbbbb", waiting),
    ];
    let mut below: Vec<f64> = vec![0.0; n];
    for (li, (name, color, tops)) in layers.into_iter().enumerate() {
        let mut pts = String::new();
        for (i, t) in tops.iter().enumerate() {
            let _ = write!(pts, "{:.1},{:.1} ", f.x(i as f64 / n as f64), f.y(t / peak));
            let _ = write!(
                pts,
                "{:.1},{:.1} ",
                f.x((i + 1) as f64 / n as f64),
                f.y(t / peak)
            );
        }
        for i in (0..tops.len()).rev() {
            let _ = write!(
                pts,
                "{:.1},{:.1} ",
                f.x((i + 1) as f64 / n as f64),
                f.y(below[i] / peak)
            );
            let _ = write!(
                pts,
                "{:.1},{:.1} ",
                f.x(i as f64 / n as f64),
                f.y(below[i] / peak)
            );
        }
        let _ = write!(
            s,
            "<polygon points=\"{}\" fill=\"{color}\" fill-opacity=\"0.85\"/>",
            pts.trim_end()
        );
        legend(&mut s, &f, li, color, name);
        below = tops;
    }
    s.push_str(&f.clock_axis(a.clocks));
    s.push_str(&f.y_range(&format!("{peak} waves")));
    s.push_str("</svg>");
    s
}

fn issue_mix_svg(a: &Activity) -> String {
    let f = Frame::new(170.0);
    let n = a.times.len().max(1);
    let peak = a.issues.iter().copied().fold(1e-9f64, f64::max);
    let mut s = f.open("issues per clock by category");
    let mut below = vec![0.0f64; a.times.len()];
    for (ci, (name, v)) in a.categories.iter().enumerate() {
        let color = PALETTE[ci % PALETTE.len()];
        let tops: Vec<f64> = below.iter().zip(v).map(|(b, x)| b + x).collect();
        let mut pts = String::new();
        for (i, t) in tops.iter().enumerate() {
            let _ = write!(
                pts,
                "{:.1},{:.1} {:.1},{:.1} ",
                f.x(i as f64 / n as f64),
                f.y(t / peak),
                f.x((i + 1) as f64 / n as f64),
                f.y(t / peak)
            );
        }
        for i in (0..tops.len()).rev() {
            let _ = write!(
                pts,
                "{:.1},{:.1} {:.1},{:.1} ",
                f.x((i + 1) as f64 / n as f64),
                f.y(below[i] / peak),
                f.x(i as f64 / n as f64),
                f.y(below[i] / peak)
            );
        }
        let _ = write!(
            s,
            "<polygon points=\"{}\" fill=\"{color}\" fill-opacity=\"0.85\"/>",
            pts.trim_end()
        );
        legend(&mut s, &f, ci, color, name);
        below = tops;
    }
    s.push_str(&f.clock_axis(a.clocks));
    s.push_str(&f.y_range(&numbers::significant(peak)));
    s.push_str("</svg>");
    s
}

fn units_svg(a: &Activity) -> String {
    let f = Frame::new(170.0);
    let n = a.times.len().max(1);
    let mut s = f.open("unit busy over time");
    for (ui, (name, v)) in a.units.iter().enumerate() {
        let color = PALETTE[ui % PALETTE.len()];
        let mut pts = String::new();
        for (i, b) in v.iter().enumerate() {
            let _ = write!(
                pts,
                "{:.1},{:.1} ",
                f.x((i as f64 + 0.5) / n as f64),
                f.y(*b)
            );
        }
        let _ = write!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\"/>",
            pts.trim_end()
        );
        legend(&mut s, &f, ui, color, &format!("{name} busy"));
    }
    s.push_str(&f.clock_axis(a.clocks));
    s.push_str(&f.y_range("100%"));
    s.push_str("</svg>");
    s
}

fn lanes_svg(a: &Activity) -> String {
    let end = a
        .lanes
        .iter()
        .flat_map(|(_, v)| v.iter().map(|x| x.1))
        .max()
        .unwrap_or(1)
        .max(1);
    let row = 14.0;
    let mut f = Frame::new(a.lanes.len() as f64 * row + 40.0);
    f.left = 110.0;
    f.right = 20.0;
    let mut s = f.open("wave slot timeline");
    let columns = f.pw().round().max(1.0) as usize;
    for (li, (label, slices)) in a.lanes.iter().enumerate() {
        let y = f.top + li as f64 * row;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            f.left - 4.0,
            y + 10.0,
            esc(label)
        );
        let (runs, density) = pixel_runs(slices, end, columns);
        for run in runs {
            let color = match run.kind {
                SliceKind::Issue => "#1f77b4",
                SliceKind::Stall => "#d62728",
                SliceKind::Pass => "#999999",
            };
            let x0 = f.x(run.start as f64 / end as f64);
            let x1 = f.x(run.end as f64 / end as f64).max(x0 + 0.6);
            let what = match run.line {
                Some(line) => format!("{} line {line}", run.kind.name()),
                None => format!(
                    "mostly {}: {} slices, {} of the clocks",
                    run.kind.name(),
                    run.slices,
                    numbers::pct(run.share)
                ),
            };
            let _ = write!(
                s,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{color}\"><title>{what}, clocks {}..{}</title></rect>",
                y + 1.0,
                x1 - x0,
                row - 2.0,
                run.start,
                run.end
            );
        }
        // Over it, a strip of issue density: issues a stall- or
        // idle-dominated pixel would hide stay visible.
        for (a0, a1, level) in density {
            let x0 = f.x(a0 as f64 / end as f64);
            let x1 = f.x(a1 as f64 / end as f64).max(x0 + 0.6);
            let _ = write!(
                s,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"3\" fill=\"#08306b\" fill-opacity=\"{}\"><title>issues in up to {}% of clocks {a0}..{a1}</title></rect>",
                y + 1.0,
                x1 - x0,
                f64::from(level) / 4.0,
                25 * level
            );
        }
    }
    s.push_str(&f.clock_axis(end));
    s.push_str("</svg>");
    s
}

/// One rectangle of a wave slot's row: clocks `start..end` shown as `kind`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PixelRun {
    start: u64,
    end: u64,
    kind: SliceKind,
    /// The source line, when the rectangle is one slice.
    line: Option<u32>,
    /// Slices it stands for.
    slices: usize,
    /// The part of its clocks spent in `kind`.
    share: f64,
}

/// A row's slices (sorted by start, not overlapping) as at most `columns`
/// rectangles over clocks `0..end`: each pixel column shows the kind that
/// covers most of its clocks (nothing, if idle time covers more), and
/// neighbouring columns of one kind are one rectangle. What a screen
/// cannot show (slices narrower than a pixel) is merged, so the page's
/// size follows the chart's width, not the run's length.
///
/// Also the issue density per column, merged where equal: `(start, end,
/// level)` with level 1 to 4 the issued quarter of the clocks, rounded up
/// (one issue in a column shows).
fn pixel_runs(
    slices: &[crate::activity::LaneSlice],
    end: u64,
    columns: usize,
) -> (Vec<PixelRun>, Vec<(u64, u64, u8)>) {
    let kinds = [SliceKind::Issue, SliceKind::Stall, SliceKind::Pass];
    let col_of = |t: u64| ((t as f64 / end as f64 * columns as f64) as usize).min(columns - 1);
    let col_start = |c: usize| (c as f64 * end as f64 / columns as f64).ceil() as u64;
    // Per column: clocks covered by each kind, slices starting in it, and
    // the line of the last slice touching it.
    let mut cover = vec![[0u64; 3]; columns];
    let mut starts = vec![0usize; columns];
    let mut lines: Vec<Option<u32>> = vec![None; columns];
    for &(a0, a1, k, line) in slices {
        let (a0, a1) = (a0.min(end), a1.min(end));
        if a1 <= a0 {
            continue;
        }
        let ki = kinds.iter().position(|&x| x == k).unwrap_or(0);
        starts[col_of(a0)] += 1;
        for c in col_of(a0)..=col_of(a1 - 1) {
            let lo = a0.max(col_start(c));
            let hi = a1.min(col_start(c + 1).max(lo));
            cover[c][ki] += hi - lo;
            lines[c] = match lines[c] {
                None => Some(line),
                Some(l) if l == line => Some(l),
                // Two lines in one column: no single line to name.
                Some(_) => Some(u32::MAX),
            };
        }
    }
    let mut runs: Vec<PixelRun> = Vec::new();
    let mut density: Vec<(u64, u64, u8)> = Vec::new();
    let mut covered = [0u64; 3];
    for c in 0..columns {
        let (lo, hi) = (col_start(c), col_start(c + 1).min(end).max(col_start(c)));
        let span = hi - lo;
        if span > 0 && cover[c][0] > 0 {
            let level = (4 * cover[c][0]).div_ceil(span).clamp(1, 4) as u8;
            match density.last_mut() {
                Some(d) if d.2 == level && d.1 == lo => d.1 = hi,
                _ => density.push((lo, hi, level)),
            }
        }
        let busy: u64 = cover[c].iter().sum();
        let (ki, &most) = cover[c]
            .iter()
            .enumerate()
            .max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i)))
            .unwrap_or((0, &0));
        if span == 0 {
            // A column narrower than a clock (a short run): nothing to draw.
            continue;
        }
        if most == 0 || span.saturating_sub(busy) > most {
            runs.push(PixelRun {
                start: lo,
                end: hi,
                kind: SliceKind::Pass,
                line: None,
                slices: 0,
                share: -1.0,
            });
            continue;
        }
        let kind = kinds[ki];
        match runs.last_mut() {
            Some(r) if r.kind == kind && r.share >= 0.0 && r.end == lo => {
                r.end = hi;
                r.slices += starts[c];
                if r.line != lines[c] {
                    r.line = Some(u32::MAX);
                }
            }
            _ => {
                covered = [0; 3];
                runs.push(PixelRun {
                    start: lo,
                    end: hi,
                    kind,
                    line: lines[c],
                    slices: starts[c].max(1),
                    share: 0.0,
                });
            }
        }
        for i in 0..3 {
            covered[i] += cover[c][i];
        }
        if let Some(r) = runs.last_mut() {
            r.share = covered[ki] as f64 / (r.end - r.start).max(1) as f64;
        }
    }
    runs.retain(|r| r.share >= 0.0);
    for r in &mut runs {
        // A line names the rectangle only when it is one slice of one line.
        if r.slices > 1 || r.line == Some(u32::MAX) {
            r.line = None;
        }
    }
    (runs, density)
}

/// Throughput against latency on a log axis. A log axis cannot show 0,
/// so it starts at the first positive probe; a latency of 0 (the
/// zero-latency run, or a model latency of 0) is said in the caption
/// ([`latency_caption`]) instead of marked.
fn latency_svg(l: &crate::analyze_view::LatencyView) -> String {
    let f = Frame::new(240.0);
    let positive: Vec<(u64, f64)> = l.curve.iter().copied().filter(|p| p.0 > 0).collect();
    let xmin = positive.iter().map(|p| p.0).min().unwrap_or(1) as f64;
    let xmax = (positive.iter().map(|p| p.0).max().unwrap_or(1) as f64).max(xmin * 2.0);
    // Log scale (the search probes by factors of four), xmin to xmax.
    let fx = |lat: f64| (lat / xmin).ln() / (xmax / xmin).ln();
    let ymax = l
        .curve
        .iter()
        .map(|p| p.1)
        .fold(l.zero_latency_throughput, f64::max)
        .max(1e-12)
        * 1.1;
    let mut s = f.open("latency tolerance");
    let mut pts = String::new();
    for &(lat, t) in &positive {
        let _ = write!(pts, "{:.1},{:.1} ", f.x(fx(lat as f64)), f.y(t / ymax));
    }
    let _ = write!(
        s,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>",
        pts.trim_end()
    );
    for &(lat, t) in &positive {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#1f77b4\"><title>{lat} clocks: {} per clock</title></circle>",
            f.x(fx(lat as f64)),
            f.y(t / ymax),
            numbers::significant(t)
        );
    }
    let y95 = f.y(0.95 * l.zero_latency_throughput / ymax);
    let _ = write!(s, "<line x1=\"{}\" x2=\"{:.1}\" y1=\"{y95:.1}\" y2=\"{y95:.1}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>", f.left, f.left + f.pw());
    let mut marks = vec![(l.model_latency, "model", "#2ca02c")];
    if let Some(c) = l.clocks {
        marks.push((c, "tolerance", "#d62728"));
    }
    let in_range = |lat: u64| (lat as f64) >= xmin && (lat as f64) <= xmax;
    for (i, (lat, name, color)) in marks.into_iter().filter(|m| in_range(m.0)).enumerate() {
        let x = f.x(fx(lat as f64));
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{}\" y2=\"{:.1}\" stroke=\"{color}\"/>",
            f.top,
            f.top + f.ph()
        );
        legend(&mut s, &f, i, color, &format!("{name} {lat}"));
    }
    // Ticks at the probes, skipping any closer than 40 px to the last.
    let mut last_x = f64::NEG_INFINITY;
    for &(lat, _) in &positive {
        let x = f.x(fx(lat as f64));
        if x - last_x < 40.0 {
            continue;
        }
        last_x = x;
        let _ = write!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{lat}</text>",
            f.h - 12.0
        );
    }
    let what = if l.parameter == "vmem_latency" {
        "VMEM latency"
    } else {
        "extra latency per first-level miss"
    };
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{what} (clocks, log scale); throughput per clock per CU</text></svg>",
        f.left - 4.0,
        f.top + 10.0,
        numbers::significant(ymax),
        f.left - 4.0,
        f.top + f.ph(),
        f.x(0.5),
        f.h - 1.0
    );
    s
}

/// What the latency chart cannot mark on its log axis, in words.
fn latency_caption(l: &crate::analyze_view::LatencyView) -> String {
    let mut parts = Vec::new();
    if let Some(&(_, t)) = l.curve.iter().find(|p| p.0 == 0) {
        parts.push(format!(
            "the run at latency 0 ({} per clock) is the reference of the dashed line",
            numbers::significant(t)
        ));
    }
    if l.model_latency == 0 {
        parts.push(format!(
            "the model's {} is 0, left of the axis",
            if l.parameter == "vmem_latency" {
                "VMEM latency"
            } else {
                "extra latency per miss"
            }
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" A log axis cannot show 0: {}.", parts.join("; "))
    }
}

fn blocks_table(o: &mut String, r: &AnalyzeReport) {
    if r.blocks.is_empty() {
        return;
    }
    o.push_str("<h2>Blocks</h2><table><tr><th>block</th><th>lines</th><th>per wave</th><th>clocks per execution</th><th>share</th><th>unit work per execution</th><th>dependency chain</th></tr>");
    for b in &r.blocks {
        let _ = write!(
            o,
            "<tr id=\"B{}\"><td>B{}{}</td><td><a href=\"#L{}\">{}-{}</a></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td><span class=\"bar\" style=\"width:{}px\"></span> {}</td><td>{}</td><td>{}, {}</td></tr>",
            b.id,
            b.id,
            b.label.as_ref().map_or(String::new(), |l| format!(" ({})", esc(l))),
            b.lines[0],
            b.lines[0],
            b.lines[1],
            numbers::amount(b.executions),
            numbers::clocks(b.clocks_per_execution),
            (b.share * 150.0).round(),
            numbers::pct(b.share),
            work(&b.pressure),
            numbers::count(b.dependency_chain.clocks, "clock"),
            numbers::count(u64::from(b.dependency_chain.instructions), "instruction")
        );
    }
    o.push_str("</table>");
    if r.loops.is_empty() {
        return;
    }
    o.push_str("<h2>Loops</h2><table><tr><th>loop</th><th>lines</th><th>depth</th><th>iterations per wave</th><th>clocks per iteration</th><th>share</th><th>unit work per iteration</th><th>dependency chain</th></tr>");
    for l in &r.loops {
        let _ = write!(
            o,
            "<tr><td>loop {}</td><td><a href=\"#L{}\">{}-{}</a></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}, {}</td></tr>",
            l.id,
            l.lines[0],
            l.lines[0],
            l.lines[1],
            l.depth,
            numbers::amount(l.iterations),
            numbers::clocks(l.clocks_per_iteration),
            numbers::pct(l.share),
            work(&l.pressure),
            numbers::count(l.dependency_chain.clocks, "clock"),
            numbers::count(u64::from(l.dependency_chain.instructions), "instruction")
        );
    }
    o.push_str("</table>");
}

fn work(p: &[crate::blocks::UnitWork]) -> String {
    p.iter()
        .take(3)
        .map(|w| format!("{} {}", esc(&w.unit), numbers::clocks(w.clocks)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn listing(o: &mut String, r: &AnalyzeReport) {
    let share = r.activity.as_ref().map(|a| &a.time_share);
    let max_share = share
        .map(|s| s.iter().copied().fold(0.0f64, f64::max))
        .unwrap_or(0.0)
        .max(1e-9);
    // Cost share: the line's part of the unit work the model charges a
    // wave (cost x executions), whatever the time it took.
    let work =
        |i: &crate::analyze_view::InstructionView| f64::from(i.cost_clocks) * i.executions as f64;
    let total_work: f64 = r
        .fetch_shader
        .iter()
        .chain(&r.instructions)
        .map(work)
        .sum::<f64>()
        .max(1e-9);
    let max_work = r
        .fetch_shader
        .iter()
        .chain(&r.instructions)
        .map(work)
        .fold(0.0f64, f64::max)
        .max(1e-9);
    o.push_str("<h2>Listing</h2><p>Time share: the part of the waves' time spent on the line; cost share: its part of the unit work charged per wave (both as heat); stall: the part of the run in which a wave sat on it unable to issue it (red bar).</p><table class=\"code\"><tr><th>line</th><th>per wave</th><th>time share</th><th>cost share</th><th>stall</th><th>cost</th><th title=\"live VGPRs while it issues\">vgprs</th><th>instruction</th></tr>");
    let mut anchored = std::collections::HashSet::new();
    for i in r.fetch_shader.iter().chain(&r.instructions) {
        let ts = match (share, i.line) {
            (Some(s), l) if l > 0 => s.get(i.index).copied().unwrap_or(0.0),
            _ => 0.0,
        };
        let id = if i.line > 0 && anchored.insert(i.line) {
            format!(" id=\"L{}\"", i.line)
        } else {
            String::new()
        };
        let _ = write!(
            o,
            "<tr{id}{}><td>{}</td><td>{}</td><td style=\"background:{}\">{}</td><td style=\"background:{}\">{}</td><td><span class=\"bar\" style=\"width:{}px\"></span> {}</td><td>{}</td><td>{}</td><td class=\"ins\" title=\"{}\">{}</td></tr>",
            if i.wait { " class=\"wait\"" } else { "" },
            if i.line > 0 { i.line.to_string() } else { "fetch".into() },
            i.executions,
            heat_color(ts, max_share),
            if ts > 0.0 { format!("{:.1}%", 100.0 * ts) } else { String::new() },
            heat_color(work(i), max_work),
            if work(i) > 0.0 { format!("{:.1}%", 100.0 * work(i) / total_work) } else { String::new() },
            (i.stall_rate * 120.0).round(),
            if i.stall_rate > 0.0 { format!("{:.1}%", 100.0 * i.stall_rate) } else { String::new() },
            if i.cost_clocks > 0 { i.cost_clocks.to_string() } else { String::new() },
            i.live_vgprs.map_or(String::new(), |v| v.to_string()),
            esc(&match i.active_lanes {
                Some(a) => format!("{}; {a:.1} active lanes", i.cost_basis),
                None if i.drain => format!("{}; end-of-program drain", i.cost_basis),
                None => i.cost_basis.clone(),
            }),
            if i.memory_note().is_empty() {
                esc(&i.text)
            } else {
                // The note wraps under the instruction rather than
                // widening the table past the page.
                format!(
                    "{} <span class=\"note\">; {}</span>",
                    esc(&i.text),
                    esc(&i.memory_note())
                )
            }
        );
    }
    if r.end_drain.implicit {
        let _ = write!(
            o,
            "<tr class=\"wait\"><td>end</td><td>1</td><td></td><td></td><td>{}</td><td></td><td></td><td>(implicit end of program: drains outstanding memory and exports)</td></tr>",
            if r.end_drain.stall_rate > 0.0 { format!("{:.1}%", 100.0 * r.end_drain.stall_rate) } else { String::new() }
        );
    }
    o.push_str("</table>");
}

/// The analyze page: [`page`] with the control-flow graph drawn when the
/// report has block times.
pub fn analyze_page(r: &AnalyzeReport, cfg: &shadersim_cfg::Cfg) -> String {
    let svg = (!r.blocks.is_empty()).then(|| crate::cfg_svg::cfg_svg(cfg, &r.blocks));
    page(r, svg.as_deref())
}

#[cfg(test)]
mod tests {
    use super::{pixel_runs, SliceKind};

    #[test]
    fn a_long_row_is_drawn_per_pixel_column() {
        // 100,000 periods of 4 clocks: 1 clock issued (line 7), 3 stalled,
        // over clocks 0..400,000 on 800 columns of exactly 500 clocks. Each
        // column holds 125 periods: 125 issue clocks, 375 stall clocks, so
        // stall dominates every column and the row is one rectangle
        // (instead of 200,000), 75% of its clocks stalled.
        let slices: Vec<_> = (0..100_000u64)
            .flat_map(|p| {
                [
                    (4 * p, 4 * p + 1, SliceKind::Issue, 7),
                    (4 * p + 1, 4 * p + 4, SliceKind::Stall, 7),
                ]
            })
            .collect();
        let (runs, density) = pixel_runs(&slices, 400_000, 800);
        assert_eq!(runs.len(), 1);
        let r = runs[0];
        assert_eq!((r.start, r.end, r.kind), (0, 400_000, SliceKind::Stall));
        assert_eq!(r.share, 0.75);
        // Issues cover a quarter of each column: level ceil(4 x 125 / 500)
        // = 1 everywhere, one strip.
        assert_eq!(density, vec![(0, 400_000, 1)]);
    }

    #[test]
    fn wide_slices_keep_their_line_and_idle_time_stays_empty() {
        // A run of 1000 clocks on 100 columns of 10: an issue of line 3
        // over clocks 0..500, nothing until 800, a stall of line 4 to 1000.
        let slices = [
            (0, 500, SliceKind::Issue, 3),
            (800, 1000, SliceKind::Stall, 4),
        ];
        let (runs, _) = pixel_runs(&slices, 1000, 100);
        assert_eq!(runs.len(), 2);
        assert_eq!(
            (runs[0].start, runs[0].end, runs[0].line),
            (0, 500, Some(3))
        );
        assert_eq!(
            (runs[1].start, runs[1].end, runs[1].line),
            (800, 1000, Some(4))
        );
    }
}
