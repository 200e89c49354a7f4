//! The visual HTML report: one self-contained page (inline SVG and CSS, no
//! script, no external font or file), so it opens offline and renders the
//! same everywhere.
//!
//! Sections: the bottleneck statement, utilization bars, the summary, the
//! activity over time (waves executing / stalled / waiting, and each
//! unit's busy share), the first wave slots' timeline, the latency
//! tolerance curve, the control-flow graph coloured by time, the block and
//! loop tables, and the listing with per-line heat. Charts that need a
//! recorded run ([`Activity`](crate::activity::Activity)) are left out without one.

use crate::analyze_view::AnalyzeReport;
use crate::markup::{esc, heat_color, inline};
use crate::numbers;
use std::fmt::Write;

mod charts;
mod lanes;

use charts::{activity_svg, issue_mix_svg, latency_caption, latency_svg, units_svg};
use lanes::lanes_svg;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;vertical-align:top}\
th{background:#eee}.code td{font-family:monospace;white-space:pre}.wait{font-weight:bold}\
.code td.ins{white-space:pre-wrap;overflow-wrap:anywhere;min-width:24em}.note{color:#666}\
.bar{display:inline-block;height:10px;background:#d9534f}.bottleneck{font-size:1.2em;\
padding:.6em 1em;background:#fff3d6;border-left:6px solid #e0a800}\
svg text{font-family:sans-serif;font-size:11px}h2{margin-top:1.4em}\
a{color:inherit}.num{text-align:right}";

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
    // The bars right under the verdict that names one of them (issue 47
    // item 5), then the summary table.
    o.push_str("<h2>Utilization</h2>");
    o.push_str(&crate::utilization::html_section(r));
    summary(&mut o, r);
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
            (Some(c), Some(f)) if f > c + 1 => format!(
                " The program {} clocks: a simulation passed at {c} and one failed at {f}, and the search tried nothing between, so {c} is the latency known to pass, not a measured limit (the shaded band).",
                l.hides().unwrap_or_default()
            ),
            (Some(c), Some(f)) => format!(
                " The program {} clocks: a simulation passed at {c} and one failed at {f}.",
                l.hides().unwrap_or_default()
            ),
            (Some(c), None) => {
                format!(" A simulation passed at {c}; none failed within the search's budget.")
            }
            (None, _) => String::new(),
        });
        o.push_str("<h2>Latency tolerance</h2>");
        // A log axis draws positive latencies only; the bracket's band is
        // drawn even when few probes ran to their end.
        if let Some(svg) = latency_svg(l) {
            let _ = write!(
                o,
                "<p>Throughput against the {} at the {} latencies simulated to the end (the main run and the search's probes; probes stopped early, once they could no longer pass, have no throughput to plot, and the one at the bracket's failing end is the cross); the dashed line is 95% of the zero-latency throughput, the vertical lines the model's latency and the tolerance's passing end, the shaded band the bracket the tolerance lies in.{bracket}{}</p>",
                if l.parameter == "vmem_latency" { "VMEM latency" } else { "extra latency per first-level miss" },
                l.curve.len(),
                latency_caption(l)
            );
            o.push_str(&svg);
        } else {
            // Nothing positive to place on a log axis: say the latencies
            // that ran, and the bracket.
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
pub fn analyze_page(r: &AnalyzeReport, cfg: &shadersim_cfg::Cfg, made: &MadeFrom) -> String {
    let svg = (!r.blocks.is_empty()).then(|| crate::cfg_svg::cfg_svg(cfg, &r.blocks));
    let mut o = page(r, svg.as_deref());
    // The record goes under the title line, as `compare`'s page keeps its
    // own: a page read later says which hints and overrides made it.
    if let Some(at) = o.find("<p class=\"bottleneck\"") {
        o.insert_str(at, &made.html());
    }
    o
}

/// What made a run besides its file and model (which the page's title line
/// names): the hints file and the `--set` overrides, as the command line
/// gave them.
#[derive(Debug, Clone, Default)]
pub struct MadeFrom {
    /// The hints file read (`None`: none, defaults).
    pub hints: Option<String>,
    /// The `--set` overrides, `KEY=VALUE`, in command-line order.
    pub overrides: Vec<String>,
}

impl MadeFrom {
    /// One line of the page: hints, overrides and the shadersim version.
    fn html(&self) -> String {
        format!(
            "<p class=\"note made\">Hints: {}; --set: {}; shadersim {}</p>",
            self.hints
                .as_deref()
                .map_or("none (defaults)".to_string(), |h| format!(
                    "<code>{}</code>",
                    esc(h)
                )),
            if self.overrides.is_empty() {
                "none".to_string()
            } else {
                format!("<code>{}</code>", esc(&self.overrides.join(" ")))
            },
            env!("CARGO_PKG_VERSION")
        )
    }
}
