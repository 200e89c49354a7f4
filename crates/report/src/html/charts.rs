//! The charts of the page drawn as inline SVG: the activity over time, the
//! issue mix, the units' busy shares and the latency-tolerance curve, on
//! one frame of axes and legends.

use crate::activity::Activity;
use crate::markup::esc;
use crate::numbers;
use std::fmt::Write;

/// Colours of the series, in order (units after the wave states).
pub(super) const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f",
];

/// A chart frame: width, height, plot margins.
pub(super) struct Frame {
    pub(super) w: f64,
    pub(super) h: f64,
    pub(super) left: f64,
    pub(super) right: f64,
    pub(super) top: f64,
    pub(super) bottom: f64,
}

impl Frame {
    pub(super) fn new(h: f64) -> Frame {
        Frame {
            w: 900.0,
            h,
            left: 64.0,
            right: 130.0,
            top: 10.0,
            bottom: 28.0,
        }
    }
    pub(super) fn pw(&self) -> f64 {
        self.w - self.left - self.right
    }
    pub(super) fn ph(&self) -> f64 {
        self.h - self.top - self.bottom
    }
    pub(super) fn x(&self, f: f64) -> f64 {
        self.left + f.clamp(0.0, 1.0) * self.pw()
    }
    pub(super) fn y(&self, f: f64) -> f64 {
        self.top + (1.0 - f.clamp(0.0, 1.0)) * self.ph()
    }
    pub(super) fn open(&self, label: &str) -> String {
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
    pub(super) fn clock_axis(&self, clocks: u64) -> String {
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
    pub(super) fn y_range(&self, ymax: &str) -> String {
        format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{ymax}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text>",
            self.left - 4.0,
            self.top + 10.0,
            self.left - 4.0,
            self.top + self.ph()
        )
    }
}

pub(super) fn legend(s: &mut String, f: &Frame, i: usize, color: &str, name: &str) {
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
pub(super) fn activity_svg(a: &Activity) -> String {
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

pub(super) fn issue_mix_svg(a: &Activity) -> String {
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

pub(super) fn units_svg(a: &Activity) -> String {
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

/// Throughput against latency on a log axis. A log axis cannot show 0,
/// so it starts at the least positive latency it marks (a probe, the
/// bracket's ends, the model's latency); a latency of 0 (the zero-latency
/// run, or a model latency of 0) is said in the caption
/// ([`latency_caption`]) instead of marked. The search's bracket is a
/// shaded band from its passing end C to its failing end F: the tolerance
/// lies in it, and a wide one is the answer's width (issue 47 item 6: a
/// wide bracket drew an empty plot with one point). `None` when nothing
/// positive is there to place on the axis.
pub(super) fn latency_svg(l: &crate::analyze_view::LatencyView) -> Option<String> {
    let f = Frame::new(240.0);
    let positive: Vec<(u64, f64)> = l.curve.iter().copied().filter(|p| p.0 > 0).collect();
    let band = l.clocks.zip(l.fails_at);
    let placed: Vec<u64> = positive
        .iter()
        .map(|p| p.0)
        .chain(band.map(|(c, f)| [c, f]).into_iter().flatten())
        .chain([l.model_latency])
        .filter(|&lat| lat > 0)
        .collect();
    if positive.len() < 2 && band.is_none() {
        return None;
    }
    let xmin = *placed.iter().min()? as f64;
    let xmax = (*placed.iter().max()? as f64).max(xmin * 2.0);
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
    let mut legends = 0;
    if let Some((c, fail)) = band {
        // C = 0 sits left of the axis: the band starts at its edge. A band
        // narrower than 3 px is drawn 3 px wide so it stays visible.
        let x0 = if c == 0 { f.left } else { f.x(fx(c as f64)) };
        let x1 = f.x(fx(fail as f64)).max(x0 + 3.0);
        let _ = write!(
            s,
            "<rect class=\"bracket\" x=\"{x0:.1}\" y=\"{}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#d62728\" fill-opacity=\"0.15\"><title>the tolerance lies here: passed at {c}, fell below at {fail}</title></rect>",
            f.top,
            x1 - x0,
            f.ph()
        );
        let label = if fail > c + 1 {
            format!("band {c} to {}", fail - 1)
        } else {
            format!("exactly {c}")
        };
        legend(&mut s, &f, legends, "#f4c7c7", &label);
        legends += 1;
        // The failing end ran no further than its verdict: a cross at the top.
        let _ = write!(
            s,
            "<text x=\"{x1:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#d62728\">&#215;<title>{fail} clocks: fell below 95% (stopped early)</title></text>",
            f.top + 12.0
        );
    }
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
        legend(&mut s, &f, legends + i, color, &format!("{name} {lat}"));
    }
    // Ticks at the latencies placed, skipping any closer than 40 px to the last.
    let mut ticks = placed.clone();
    ticks.sort_unstable();
    ticks.dedup();
    let mut last_x = f64::NEG_INFINITY;
    for lat in ticks {
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
    Some(s)
}

/// What the latency chart cannot mark on its log axis, in words.
pub(super) fn latency_caption(l: &crate::analyze_view::LatencyView) -> String {
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
