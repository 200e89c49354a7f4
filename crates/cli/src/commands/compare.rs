//! `shadersim compare A B [--arch X] [--hints-a H1 --hints-b H2]` and
//! `shadersim compare FILE --arch X,Y,Z`: the analysis of two programs (or
//! one program on several models) side by side, with deltas against the
//! first and a one-line verdict per variant.

use crate::commands::prepare::{analyse, parse_sets, prepare, RunRequest};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use serde::Serialize;
use shadersim_report::analyze_view::{AnalyzeReport, Utilization};
use std::fmt::Write as _;

/// Output formats of `compare`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CompareFormat {
    /// A table and the verdicts.
    Text,
    /// `{ "variants": [...], "deltas": [...], "verdicts": [...] }`.
    Json,
    /// A self-contained HTML page with the same table.
    Html,
}

/// Arguments of `shadersim compare`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Two assembly files (A and B), or one file with several `--arch`.
    #[arg(num_args = 1..=2, required = true)]
    pub files: Vec<String>,
    /// Model, hints, overrides and program.
    #[command(flatten)]
    pub run: crate::input::RunArgs,
    /// Hints file for A.
    #[arg(long)]
    pub hints_a: Option<String>,
    /// Hints file for B.
    #[arg(long)]
    pub hints_b: Option<String>,
    /// Skip the latency-tolerance search.
    #[arg(long)]
    pub no_latency_search: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CompareFormat,
    /// Write the comparison here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
}

/// One variant's numbers, as the comparison shows them.
#[derive(Debug, Clone, Serialize)]
pub struct Variant {
    /// `A`, `B`, or the model's name when one file runs on several models.
    pub label: String,
    /// The file simulated.
    pub file: String,
    /// The model it ran on.
    pub arch: String,
    /// Clocks of the whole run.
    pub clocks: u64,
    /// Clocks per wave the CU needs (the bottleneck's figure).
    pub clocks_per_wave: f64,
    /// Clocks per wave from launch to end.
    pub wave_clocks: f64,
    /// Throughput in `throughput_unit` per clock per CU.
    pub throughput_per_clock: f64,
    /// What the throughput counts (pixels, vertices, work-items).
    pub throughput_unit: String,
    /// Unit utilizations (0..1).
    pub utilization: Utilization,
    /// Waves per SIMD.
    pub waves_per_simd: u32,
    /// What limits occupancy.
    pub occupancy_limiter: String,
    /// The bottleneck's kind (`VALU`, `VMEM`, ...).
    pub bottleneck: String,
    /// Extra VMEM latency tolerated at unchanged throughput, when searched.
    pub latency_tolerance: Option<u64>,
    /// Ops issued per wave by category, in the model's category order.
    pub issued_per_wave: Vec<NamedValue>,
    /// Throughput in `throughput_unit` per second for the whole GPU (the
    /// model's clock and CU count): what compares across models.
    pub per_second_gpu: f64,
    /// The model's clock, MHz.
    pub clock_mhz: f64,
    /// The model's CUs.
    pub gpu_cus: f64,
    /// The parameters with an assumed source (no measurement, no document)
    /// that charge this run's unit work, with the share of the work each
    /// charges (0..1), largest first.
    pub assumed_costs: Vec<NamedValue>,
}

/// A number named by its unit or op category.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedValue {
    /// Unit or category.
    pub name: String,
    /// Its value.
    pub value: f64,
}

/// A variant against the first one.
#[derive(Debug, Clone, Serialize)]
pub struct Delta {
    /// The variant.
    pub label: String,
    /// The variant it is compared with (the first).
    pub against: String,
    /// Its throughput over the first's (per clock per CU).
    pub throughput_ratio: f64,
    /// Its throughput per second for the whole GPU over the first's.
    pub per_second_ratio: f64,
    /// Difference in clocks per wave (variant minus first).
    pub clocks_per_wave: f64,
    /// Difference in clocks per wave from launch to end.
    pub wave_clocks: f64,
    /// Differences in utilization, by unit.
    pub utilization: Vec<NamedValue>,
    /// Difference in waves per SIMD.
    pub waves_per_simd: i64,
    /// Difference in tolerated latency, when both were searched.
    pub latency_tolerance: Option<i64>,
    /// Differences in ops issued per wave, by category.
    pub issued_per_wave: Vec<NamedValue>,
    /// The one-line verdict.
    pub verdict: String,
}

/// The whole comparison.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Every variant, in command-line order.
    pub variants: Vec<Variant>,
    /// Every variant but the first against the first.
    pub deltas: Vec<Delta>,
    /// The deltas' verdicts.
    pub verdicts: Vec<String>,
}

/// What one variant runs: label, file, model and hints.
struct Job<'a> {
    label: String,
    file: &'a str,
    arch: Option<&'a str>,
    hints: Option<&'a str>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let sets = parse_sets(&args.run.set)?;
    let archs: Vec<&str> = match &args.run.arch {
        Some(a) => a.split(',').map(str::trim).collect(),
        None => Vec::new(),
    };
    if archs.iter().any(|a| a.is_empty()) {
        return Err(CliError::Usage(
            "--arch: empty model name in the list".into(),
        ));
    }
    let jobs: Vec<Job> = if args.files.len() == 2 {
        if archs.len() > 1 {
            return Err(CliError::Usage(
                "compare A B takes one --arch; several models compare one file".into(),
            ));
        }
        let shared = args.run.hints.as_deref();
        vec![
            Job {
                label: "A".into(),
                file: &args.files[0],
                arch: archs.first().copied(),
                hints: args.hints_a.as_deref().or(shared),
            },
            Job {
                label: "B".into(),
                file: &args.files[1],
                arch: archs.first().copied(),
                hints: args.hints_b.as_deref().or(shared),
            },
        ]
    } else {
        if archs.len() < 2 {
            return Err(CliError::Usage(
                "compare needs two files, or one file and --arch X,Y[,...]".into(),
            ));
        }
        if args.hints_a.is_some() || args.hints_b.is_some() {
            return Err(CliError::Usage(
                "--hints-a/--hints-b need two files; use --hints with one".into(),
            ));
        }
        archs
            .iter()
            .map(|a| Job {
                label: a.to_string(),
                file: &args.files[0],
                arch: Some(a),
                hints: args.run.hints.as_deref(),
            })
            .collect()
    };
    // The variants are independent runs; the first error in command-line
    // order is the one reported, whichever thread met it first.
    let progress = crate::progress::Progress::start(Some(jobs.len() as u64), "variants");
    let variants: Vec<Result<Variant, CliError>> = jobs
        .par_iter()
        .map(|job| {
            let prepared = prepare(RunRequest {
                file: job.file,
                arch: job.arch,
                hints: job.hints,
                sets: &sets,
                function: args.run.function.as_deref(),
            })?;
            let analysis = analyse(&prepared, !args.no_latency_search)?;
            let report = AnalyzeReport::new(&prepared.file_name, &prepared.sim, &analysis);
            Ok(variant(job.label.clone(), &report, &prepared.sim.arch))
        })
        .inspect(|_| progress.inc())
        .collect();
    drop(progress);
    let variants = variants.into_iter().collect::<Result<Vec<_>, _>>()?;
    let comparison = compare(variants);
    let text = match args.format {
        CompareFormat::Text => to_text(&comparison),
        CompareFormat::Json => {
            serde_json::to_string_pretty(&comparison).expect("plain data serializes") + "\n"
        }
        CompareFormat::Html => to_html(&comparison),
    };
    crate::output::write(args.output.as_deref(), text)
}

/// The parameters of `arch` whose source is an assumption that charge the
/// run's unit work (an instruction's `cost_basis` names them), with the share
/// of the work (executions x clocks) each charges, largest first.
fn assumed_costs(r: &AnalyzeReport, arch: &shadersim_arch::ArchSpec) -> Vec<NamedValue> {
    let assumed = |name: &str| {
        arch.params
            .get(name)
            .is_some_and(|p| p.source.trim_start().starts_with("assumption"))
    };
    let mut total = 0.0;
    let mut by_param: std::collections::BTreeMap<String, f64> = Default::default();
    for i in &r.instructions {
        let work = i.executions as f64 * f64::from(i.cost_clocks);
        total += work;
        let words = i
            .cost_basis
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let mut cited: Vec<&str> = words.filter(|w| assumed(w)).collect();
        cited.sort_unstable();
        cited.dedup();
        for w in cited {
            *by_param.entry(w.to_string()).or_default() += work;
        }
    }
    let mut out: Vec<NamedValue> = by_param
        .into_iter()
        .filter(|(_, w)| total > 0.0 && *w > 0.0)
        .map(|(name, w)| NamedValue {
            name,
            value: round(w / total),
        })
        .collect();
    out.sort_by(|a, b| {
        b.value
            .total_cmp(&a.value)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

/// The numbers of one analysis that the comparison shows; `arch` is the
/// model it ran on (for the sources of its costs).
pub fn variant(label: String, r: &AnalyzeReport, arch: &shadersim_arch::ArchSpec) -> Variant {
    let waves = f64::from(r.waves.max(1));
    Variant {
        per_second_gpu: r.throughput.per_second_gpu,
        clock_mhz: r.throughput.clock_mhz,
        gpu_cus: r.throughput.gpu_cus,
        assumed_costs: assumed_costs(r, arch),
        label,
        file: r.file.clone(),
        arch: r.arch.clone(),
        clocks: r.clocks,
        clocks_per_wave: r.bottleneck.clocks_per_wave,
        wave_clocks: r.wave_clocks,
        throughput_per_clock: r.throughput.per_clock,
        throughput_unit: r.throughput.unit.clone(),
        utilization: r.utilization.clone(),
        waves_per_simd: r.occupancy.waves_per_simd,
        occupancy_limiter: r.occupancy.limiter.clone(),
        bottleneck: r.bottleneck.kind.clone(),
        latency_tolerance: r.latency_tolerance.as_ref().and_then(|l| l.clocks),
        issued_per_wave: r
            .issued
            .iter()
            .map(|c| NamedValue {
                name: c.name.clone(),
                value: round(c.count as f64 / waves),
            })
            .collect(),
    }
}

/// Utilizations by unit name, in a fixed order.
fn utilizations(u: &Utilization) -> [(&'static str, f64); 9] {
    [
        ("valu", u.valu),
        ("salu", u.salu),
        ("smem", u.smem),
        ("vmem", u.vmem),
        ("lds", u.lds),
        ("export", u.export),
        ("gds", u.gds),
        ("ray", u.ray),
        ("trans", u.trans),
    ]
}

/// Round to 4 decimals so that the output does not carry float noise.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Compare every variant with the first.
pub fn compare(variants: Vec<Variant>) -> Comparison {
    let base = &variants[0];
    let deltas: Vec<Delta> = variants[1..].iter().map(|v| delta(base, v)).collect();
    let verdicts = deltas.iter().map(|d| d.verdict.clone()).collect();
    Comparison {
        variants,
        deltas,
        verdicts,
    }
}

/// `b` against `a`.
fn delta(a: &Variant, b: &Variant) -> Delta {
    let ratio = if a.throughput_per_clock > 0.0 {
        b.throughput_per_clock / a.throughput_per_clock
    } else {
        0.0
    };
    let ua = utilizations(&a.utilization);
    let ub = utilizations(&b.utilization);
    let issued: Vec<NamedValue> = b
        .issued_per_wave
        .iter()
        .map(|x| {
            let before = a
                .issued_per_wave
                .iter()
                .find(|y| y.name == x.name)
                .map_or(0.0, |y| y.value);
            NamedValue {
                name: x.name.clone(),
                value: round(x.value - before),
            }
        })
        .collect();
    Delta {
        label: b.label.clone(),
        against: a.label.clone(),
        throughput_ratio: round(ratio),
        per_second_ratio: round(if a.per_second_gpu > 0.0 {
            b.per_second_gpu / a.per_second_gpu
        } else {
            0.0
        }),
        clocks_per_wave: round(b.clocks_per_wave - a.clocks_per_wave),
        wave_clocks: round(b.wave_clocks - a.wave_clocks),
        utilization: ua
            .iter()
            .zip(&ub)
            .map(|((n, x), (_, y))| NamedValue {
                name: n.to_string(),
                value: round(y - x),
            })
            .collect(),
        waves_per_simd: i64::from(b.waves_per_simd) - i64::from(a.waves_per_simd),
        latency_tolerance: match (a.latency_tolerance, b.latency_tolerance) {
            (Some(x), Some(y)) => Some(y as i64 - x as i64),
            _ => None,
        },
        verdict: verdict(a, b, &issued),
        issued_per_wave: issued,
    }
}

/// A difference smaller than this share of the work charged by assumed
/// costs is not declared a win across models (an assumption, not a
/// measurement, would decide it).
const ASSUMED_SHARE_LIMIT: f64 = 0.10;

/// One program on two models: per second for the whole GPU (clocks and CU
/// counts differ, so per clock per CU would mislead), no mixed units, and no
/// winner where assumed costs could decide it.
fn verdict_across_models(a: &Variant, b: &Variant) -> String {
    if a.throughput_unit != b.throughput_unit {
        return format!(
            "{} and {} are not comparable: {} counts {} and {} counts {} (the models run the program as different stages)",
            a.label, b.label, a.label, a.throughput_unit, b.label, b.throughput_unit
        );
    }
    let unit = &a.throughput_unit;
    let (ta, tb) = (a.per_second_gpu, b.per_second_gpu);
    let per_second = |v: &Variant, t: f64| {
        format!(
            "{} {unit}/s on {} CUs at {} MHz",
            giga(t),
            num(v.gpu_cus),
            num(v.clock_mhz)
        )
    };
    let figures = format!("{} vs {}", per_second(a, ta), per_second(b, tb));
    if ta == tb || (ta > 0.0 && ((tb / ta) - 1.0).abs() < 0.005) {
        return format!(
            "{} and {} are as fast per GPU ({figures})",
            a.label, b.label
        );
    }
    let (win, lose, _, _, pct) = winner(a, b, ta, tb);
    let shaky: Vec<String> = [a, b]
        .iter()
        .filter_map(|v| {
            let share: f64 = v
                .assumed_costs
                .iter()
                .map(|c| c.value)
                .fold(0.0, |a, b| a + b);
            (share >= ASSUMED_SHARE_LIMIT).then(|| {
                let names: Vec<String> = v
                    .assumed_costs
                    .iter()
                    .take(3)
                    .map(|c| format!("{} {:.0}%", c.name, c.value * 100.0))
                    .collect();
                format!(
                    "{:.0}% of {}'s unit work is charged by assumed costs ({})",
                    (share * 100.0).min(100.0),
                    v.label,
                    names.join(", ")
                )
            })
        })
        .collect();
    if shaky.is_empty() {
        format!(
            "{} runs {pct} more {unit} per second than {} ({figures}); {}-bound vs {}-bound",
            win.label, lose.label, a.bottleneck, b.bottleneck
        )
    } else {
        format!(
            "no verdict: {} runs {pct} more {unit} per second than {} ({figures}), but {}, so an assumption, not a measurement, could decide it",
            win.label,
            lose.label,
            shaky.join(" and ")
        )
    }
}

/// The faster of two variants by their rates `ta`, `tb`: winner, loser,
/// their rates and how much faster in percent.
fn winner<'a>(
    a: &'a Variant,
    b: &'a Variant,
    ta: f64,
    tb: f64,
) -> (&'a Variant, &'a Variant, f64, f64, String) {
    let (win, lose, tw, tl) = if tb > ta {
        (b, a, tb, ta)
    } else {
        (a, b, ta, tb)
    };
    let pct = if tl > 0.0 {
        format!("{:.0}%", (tw / tl - 1.0) * 100.0)
    } else {
        "infinitely".into()
    };
    (win, lose, tw, tl, pct)
}

/// A rate in G (or M) per second.
fn giga(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2}G", x / 1e9)
    } else {
        format!("{:.2}M", x / 1e6)
    }
}

/// "B is 18% faster than A: VMEM-bound in both, B issues 3 fewer vmem ops per wave".
fn verdict(a: &Variant, b: &Variant, issued: &[NamedValue]) -> String {
    if a.arch != b.arch {
        return verdict_across_models(a, b);
    }
    let (ta, tb) = (a.throughput_per_clock, b.throughput_per_clock);
    let unit = &a.throughput_unit;
    let speed = if ta == tb || (ta > 0.0 && ((tb / ta) - 1.0).abs() < 0.005) {
        format!(
            "{} and {} are as fast ({} vs {} {unit} per clock per CU, {:.2}x)",
            a.label,
            b.label,
            num(ta),
            num(tb),
            if ta > 0.0 { tb / ta } else { 1.0 }
        )
    } else {
        let (win, lose, tw, tl, pct) = winner(a, b, ta, tb);
        format!(
            "{} is {pct} faster than {} ({} vs {} {unit} per clock per CU, {:.2}x)",
            win.label,
            lose.label,
            num(tw),
            num(tl),
            if tl > 0.0 { tw / tl } else { 0.0 }
        )
    };
    let bound = if a.bottleneck == b.bottleneck {
        format!("{}-bound in both", a.bottleneck)
    } else {
        format!(
            "{} is {}-bound, {} is {}-bound",
            a.label, a.bottleneck, b.label, b.bottleneck
        )
    };
    // The category of the bottleneck's unit when it changed (a VMEM-bound
    // pair is told about its vmem ops), else the one with the largest
    // change; ties go to the first in the model's order so the verdict is
    // deterministic.
    let kind = b.bottleneck.to_lowercase();
    let changed = || issued.iter().filter(|x| x.value != 0.0);
    let biggest = changed()
        .find(|x| kind.starts_with(x.name.as_str()))
        .or_else(|| {
            changed().fold(None::<&NamedValue>, |best, x| match best {
                Some(b) if b.value.abs() >= x.value.abs() => Some(b),
                _ => Some(x),
            })
        });
    let ops = match biggest {
        Some(x) => format!(
            "{} issues {} {} {} ops per wave",
            b.label,
            num(x.value.abs()),
            if x.value < 0.0 { "fewer" } else { "more" },
            x.name
        ),
        None => "the same ops per wave".into(),
    };
    format!("{speed}: {bound}, {ops}")
}

/// A number without trailing zeros (at most 4 decimals).
fn num(x: f64) -> String {
    let s = format!("{:.4}", round(x));
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A signed number for delta columns.
fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{}", num(x))
    } else {
        num(x)
    }
}

/// A utilization difference in percent points, `0.0%` when it rounds to nothing.
fn percent_delta(x: f64) -> String {
    let p = (x * 1000.0).round() / 10.0;
    if p == 0.0 {
        "0.0%".into()
    } else {
        format!("{p:+.1}%")
    }
}

/// The table's rows: a name, each variant's value, each delta's value.
fn rows(c: &Comparison) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut rows = Vec::new();
    let vs = &c.variants;
    let ds = &c.deltas;
    let mut row = |name: &str, v: &dyn Fn(&Variant) -> String, d: &dyn Fn(&Delta) -> String| {
        rows.push((
            name.to_string(),
            vs.iter().map(v).collect(),
            ds.iter().map(d).collect(),
        ));
    };
    row("model", &|v| v.arch.clone(), &|_| String::new());
    row("clocks per wave", &|v| num(v.clocks_per_wave), &|d| {
        signed(d.clocks_per_wave)
    });
    row("wave clocks", &|v| num(v.wave_clocks), &|d| {
        signed(d.wave_clocks)
    });
    row(
        "throughput/clock",
        &|v| format!("{} {}", num(v.throughput_per_clock), v.throughput_unit),
        &|d| format!("{}x", num(d.throughput_ratio)),
    );
    if vs.iter().any(|v| v.arch != vs[0].arch) {
        row(
            "throughput/s, GPU",
            &|v| format!("{} {}", giga(v.per_second_gpu), v.throughput_unit),
            &|d| format!("{}x", num(d.per_second_ratio)),
        );
        row(
            "assumed costs",
            &|v| {
                format!(
                    "{:.0}%",
                    v.assumed_costs
                        .iter()
                        .map(|c| c.value)
                        .fold(0.0, |a, b| a + b)
                        * 100.0
                )
            },
            &|_| String::new(),
        );
    }
    for (i, (unit, _)) in utilizations(&vs[0].utilization).iter().enumerate() {
        let used = vs.iter().any(|v| utilizations(&v.utilization)[i].1 > 0.0);
        if !used {
            continue;
        }
        row(
            &format!("{unit} utilization"),
            &|v| format!("{:.1}%", utilizations(&v.utilization)[i].1 * 100.0),
            &|d| percent_delta(d.utilization[i].value),
        );
    }
    row(
        "occupancy",
        &|v| format!("{} ({})", v.waves_per_simd, v.occupancy_limiter),
        &|d| format!("{:+}", d.waves_per_simd),
    );
    row("bottleneck", &|v| v.bottleneck.clone(), &|_| String::new());
    row(
        "latency tolerance",
        &|v| v.latency_tolerance.map_or("-".into(), |l| l.to_string()),
        &|d| d.latency_tolerance.map_or("-".into(), |l| format!("{l:+}")),
    );
    for (i, op) in vs[0].issued_per_wave.iter().enumerate() {
        row(
            &format!("{} ops/wave", op.name),
            &|v| {
                v.issued_per_wave
                    .get(i)
                    .map_or("-".into(), |x| num(x.value))
            },
            &|d| {
                d.issued_per_wave
                    .get(i)
                    .map_or("-".into(), |x| signed(x.value))
            },
        );
    }
    rows
}

/// The header: variant labels, then one `B-A` per delta.
fn header(c: &Comparison) -> (Vec<String>, Vec<String>) {
    (
        c.variants.iter().map(|v| v.label.clone()).collect(),
        c.deltas
            .iter()
            .map(|d| format!("{} vs {}", d.label, d.against))
            .collect(),
    )
}

/// The text rendering.
pub fn to_text(c: &Comparison) -> String {
    let mut out = String::new();
    for v in &c.variants {
        let _ = writeln!(out, "{}: {} on `{}`", v.label, v.file, v.arch);
    }
    out.push('\n');
    let (labels, delta_labels) = header(c);
    let mut table = vec![{
        let mut h = vec![String::new()];
        h.extend(labels);
        h.extend(delta_labels);
        h
    }];
    for (name, vals, deltas) in rows(c) {
        let mut r = vec![name];
        r.extend(vals);
        r.extend(deltas);
        table.push(r);
    }
    let cols = table[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in &table {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            if i == 0 {
                let _ = write!(line, "  {cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[i]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    for v in &c.verdicts {
        let _ = writeln!(out, "verdict: {v}");
    }
    out
}

/// Escape text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A self-contained HTML page (no scripts, no external resources).
pub fn to_html(c: &Comparison) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>shadersim compare</title>\n\
         <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
         td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}\
         td:first-child{text-align:left}.verdict{font-weight:bold}</style></head><body>\n\
         <h1>shadersim compare</h1>\n<ul>\n",
    );
    for v in &c.variants {
        let _ = writeln!(
            out,
            "<li>{}: {} on <code>{}</code></li>",
            escape(&v.label),
            escape(&v.file),
            escape(&v.arch)
        );
    }
    out.push_str("</ul>\n");
    for v in &c.verdicts {
        let _ = writeln!(out, "<p class=\"verdict\">{}</p>", escape(v));
    }
    out.push_str("<table>\n<tr><th></th>");
    let (labels, delta_labels) = header(c);
    for l in labels.iter().chain(&delta_labels) {
        let _ = write!(out, "<th>{}</th>", escape(l));
    }
    out.push_str("</tr>\n");
    for (name, vals, deltas) in rows(c) {
        let _ = write!(out, "<tr><td>{}</td>", escape(&name));
        for x in vals.iter().chain(&deltas) {
            let _ = write!(out, "<td>{}</td>", escape(x));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</body></html>\n");
    out
}
