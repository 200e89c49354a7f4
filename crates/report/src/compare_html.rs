//! `compare`'s HTML page: the verdicts, the table with a unit for every row,
//! and a record of what made the comparison (each variant's file, model,
//! hints and `--set` overrides), so a page read later says what it compares
//! (issue 47: the page was a bare table without units or provenance).

use crate::compare_view::{defaults_of, header, no_time_note, rows, Comparison};
use crate::markup::esc;
use std::fmt::Write as _;

/// The unit of a row of the table, by its name (the rows of
/// `compare_view::rows`): what a number in it counts.
pub fn row_unit(name: &str) -> &'static str {
    match name {
        "model" | "bottleneck" => "",
        "kernel time" => "the whole dispatch on the GPU, launch included (deltas: this variant's time over the first's)",
        "clocks per wave" => "CU clocks per wave (the throughput view)",
        "wave clocks" => "clocks from a wave's launch to its end",
        "throughput/clock" => "per clock per CU",
        "throughput/s, GPU" => "per second on the whole GPU (model's clock and CUs)",
        "assumed costs" => "share of the unit work charged at assumed costs",
        "occupancy" => "waves per SIMD (limiter)",
        "latency tolerance" => "clocks of latency hidden within 5% of throughput (C to F-1: a simulation passed at C and one failed at F, nothing tried between)",
        n if n.ends_with(" utilization") => "share of clocks the unit was busy",
        n if n.ends_with(" ops/wave") => "ops issued per wave",
        _ => "",
    }
}

/// A self-contained HTML page (no scripts, no external resources).
pub fn to_html(c: &Comparison) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>shadersim compare</title>\n\
         <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
         td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}\
         td:first-child,td.unit,.made td,.made th{text-align:left}.unit{color:#666}\
         .verdict{font-weight:bold}</style></head><body>\n\
         <h1>shadersim compare</h1>\n",
    );
    for v in &c.verdicts {
        let _ = writeln!(out, "<p class=\"verdict\">{}</p>", esc(v));
    }
    out.push_str("<table>\n<tr><th></th>");
    let (labels, delta_labels) = header(c);
    for l in labels.iter().chain(&delta_labels) {
        let _ = write!(out, "<th>{}</th>", esc(l));
    }
    out.push_str("<th>unit</th></tr>\n");
    for (name, vals, deltas) in rows(c) {
        let _ = write!(out, "<tr><td>{}</td>", esc(&name));
        for x in vals.iter().chain(&deltas) {
            let _ = write!(out, "<td>{}</td>", esc(x));
        }
        let _ = writeln!(out, "<td class=\"unit\">{}</td></tr>", esc(row_unit(&name)));
    }
    out.push_str("</table>\n<p class=\"note\">Deltas are each variant against the first: differences in the row's unit, ratios as N&times;.</p>\n");
    if let Some(note) = no_time_note(c) {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    defaults(&mut out, c);
    made_of(&mut out, c);
    out.push_str("</body></html>\n");
    out
}

/// What each variant took by default, as `analyze` lists it (none: no section).
fn defaults(out: &mut String, c: &Comparison) {
    let groups = defaults_of(c);
    if groups.is_empty() {
        return;
    }
    out.push_str("<h2>Defaults</h2>\n");
    for (label, sentences) in groups {
        let _ = writeln!(out, "<h3>{}</h3>\n<ul>", esc(&label));
        for d in sentences {
            let _ = writeln!(out, "<li>{}</li>", esc(&d));
        }
        out.push_str("</ul>\n");
    }
}

/// The record of the inputs: per variant its file, model, hints and
/// overrides, as the command line gave them.
fn made_of(out: &mut String, c: &Comparison) {
    out.push_str("<h2>Made from</h2>\n<table class=\"made\">\n<tr><th>variant</th><th>file</th><th>model</th><th>hints</th><th>--set</th></tr>\n");
    for v in &c.variants {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            esc(&v.label),
            esc(&v.file),
            esc(&v.arch),
            v.hints
                .as_deref()
                .map_or("none (defaults)".to_string(), |h| format!("<code>{}</code>", esc(h))),
            if v.overrides.is_empty() {
                "none".to_string()
            } else {
                format!("<code>{}</code>", esc(&v.overrides.join(" ")))
            }
        );
    }
    let _ = writeln!(
        out,
        "</table>\n<p class=\"note\">shadersim {}</p>",
        env!("CARGO_PKG_VERSION")
    );
}
