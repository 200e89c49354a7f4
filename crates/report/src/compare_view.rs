//! `compare`'s comparison: each variant's numbers, the deltas against the
//! first variant with their one-line verdicts, and the text table and HTML
//! page that show them. The CLI builds the variants from its runs and calls
//! [`compare`], then [`to_text`] or [`to_html`](crate::compare_html::to_html) (JSON is the serialized
//! [`Comparison`]).

use crate::analyze_view::Utilization;
use crate::compare_assumed::ASSUMED_SHARE_LIMIT;
pub use crate::compare_assumed::{round, AssumedEffect};
use crate::compare_time::{defaults_groups, us, Pace, PaceKind, NO_TIME_NOTE};
use crate::numbers::{self, amount, clocks, clocks_delta, pct_delta, si, significant};
use serde::Serialize;
use std::fmt::Write as _;

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
    /// The smallest latency the search saw fail (`null`: none, or not
    /// searched): the tolerance lies from `latency_tolerance` to one below it.
    pub latency_fails_at: Option<u64>,
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
    /// What those costs can do to `clocks_per_wave`: the resource that sets
    /// it, and how far doubling or removing them could move it.
    pub assumed_effect: AssumedEffect,
    /// The hints file the run read (`null`: none).
    pub hints: Option<String>,
    /// The `--set` overrides the run took (`KEY=VALUE`), in command-line order.
    pub overrides: Vec<String>,
    /// The dispatch's duration on the whole GPU, microseconds, when the
    /// launch gave a grid (`analyze`'s `kernel_time_us`).
    pub kernel_time_us: Option<f64>,
    /// What bound that duration's body: `compute units` or `dispatch`.
    pub kernel_time_bound: Option<String>,
    /// What the run took by default (`analyze`'s `defaults.text`): a loop
    /// that ran once and the `--arg` that would run it, default branches,
    /// addresses, buffers.
    pub defaults: Vec<String>,
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
    /// Its kernel time over the first's, when both have one.
    pub kernel_time_ratio: Option<f64>,
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
        kernel_time_ratio: match (a.kernel_time_us, b.kernel_time_us) {
            (Some(x), Some(y)) if x > 0.0 => Some(round(y / x)),
            _ => None,
        },
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

/// One program on two models: the dispatch's time when the launch gave a
/// grid, else per second for the whole GPU (clocks and CU counts differ, so
/// per clock per CU would mislead), no mixed units, and no winner where
/// assumed costs could decide it ([`judge`]).
fn verdict_across_models(a: &Variant, b: &Variant) -> String {
    if a.throughput_unit != b.throughput_unit {
        return format!(
            "{} and {} are not comparable: {} counts {} and {} counts {} (the models run the program as different stages)",
            a.label, b.label, a.label, a.throughput_unit, b.label, b.throughput_unit
        );
    }
    let unit = &a.throughput_unit;
    let pace = pace_across_models(a, b);
    let figures = &pace.figures;
    let (ta, tb) = (pace.a, pace.b);
    if ta == tb || (ta > 0.0 && ((tb / ta) - 1.0).abs() < 0.005) {
        return match pace.kind {
            PaceKind::Dispatch => format!(
                "{} and {} take as long for the dispatch ({figures})",
                a.label, b.label
            ),
            PaceKind::Throughput => format!(
                "{} and {} are as fast per GPU ({figures})",
                a.label, b.label
            ),
        };
    }
    let (win, lose, tw, tl, pct) = winner(a, b, ta, tb);
    let said = match pace.kind {
        // (The winner's time first: a time read against a rate's order misleads.)
        PaceKind::Dispatch => format!(
            "{} runs the dispatch {}x as fast as {} ({})",
            win.label,
            significant(tw / tl),
            lose.label,
            if std::ptr::eq(win, a) {
                &pace.figures
            } else {
                &pace.figures_reversed
            }
        ),
        PaceKind::Throughput => format!(
            "{} runs {pct} more {unit} per second than {} ({figures})",
            win.label, lose.label
        ),
    };
    let bound = if a.bottleneck == b.bottleneck {
        format!("{} in both", bound_by(&a.bottleneck))
    } else {
        format!("{} vs {}", bound_by(&a.bottleneck), bound_by(&b.bottleneck))
    };
    match judge(win, lose, tw, tl, &pace.show) {
        Judgement::Silent => format!("{said}; {bound}"),
        Judgement::Holds(note) => format!("{said}; {bound}; {note}"),
        Judgement::Withheld(why) => format!(
            "no verdict: {said}, but {why}, so an assumption, not a measurement, could decide it"
        ),
    }
}

/// Both variants' kernel times, when both have one above zero.
fn both_times(a: &Variant, b: &Variant) -> Option<(f64, f64)> {
    match (a.kernel_time_us, b.kernel_time_us) {
        (Some(x), Some(y)) if x > 0.0 && y > 0.0 => Some((x, y)),
        _ => None,
    }
}

/// Two models: the dispatch's time, else throughput per second on the whole GPU.
fn pace_across_models(a: &Variant, b: &Variant) -> Pace {
    if let Some((x, y)) = both_times(a, b) {
        return Pace::dispatch(x, y, Some((a.gpu_cus, b.gpu_cus)));
    }
    let unit = a.throughput_unit.clone();
    let per_second = |v: &Variant| {
        format!(
            "{} {unit}/s on {} CUs at {} MHz",
            si(v.per_second_gpu),
            amount(v.gpu_cus),
            amount(v.clock_mhz)
        )
    };
    let (pa, pb) = (per_second(a), per_second(b));
    Pace::throughput(
        a.per_second_gpu,
        b.per_second_gpu,
        |reversed| {
            if reversed {
                format!("{pb} vs {pa}")
            } else {
                format!("{pa} vs {pb}")
            }
        },
        Box::new(move |r| format!("{} {unit}/s", si(r))),
    )
}

/// One model: the dispatch's time, else throughput per clock per CU.
fn pace_same_model(a: &Variant, b: &Variant) -> Pace {
    if let Some((x, y)) = both_times(a, b) {
        return Pace::dispatch(x, y, None);
    }
    let unit = a.throughput_unit.clone();
    let (ta, tb) = (a.throughput_per_clock, b.throughput_per_clock);
    let pair = |x: f64, y: f64| {
        format!(
            "{} vs {} {unit} per clock per CU",
            significant(x),
            significant(y)
        )
    };
    let (ab, ba) = (pair(ta, tb), pair(tb, ta));
    Pace::throughput(
        ta,
        tb,
        |reversed| if reversed { ba.clone() } else { ab.clone() },
        Box::new(move |r| format!("{} {unit} per clock per CU", significant(r))),
    )
}

/// The defaults the variants took, grouped (`compare_time::defaults_groups`).
pub(crate) fn defaults_of(c: &Comparison) -> Vec<(String, Vec<String>)> {
    let variants: Vec<(&str, &[String])> = c
        .variants
        .iter()
        .map(|v| (v.label.as_str(), v.defaults.as_slice()))
        .collect();
    defaults_groups(&variants)
}

/// A note when no variant has a kernel time though the program is a
/// compute kernel: the launch gave no grid, so the comparison is one CU's.
pub(crate) fn no_time_note(c: &Comparison) -> Option<&'static str> {
    let compute = c.variants.iter().all(|v| v.throughput_unit == "threads");
    let none = c.variants.iter().all(|v| v.kernel_time_us.is_none());
    (compute && none).then_some(NO_TIME_NOTE)
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
        numbers::pct(tw / tl - 1.0)
    } else {
        "infinitely".into()
    };
    (win, lose, tw, tl, pct)
}

/// "B is 18% faster than A: VMEM-bound in both, B issues 3 fewer vmem ops per wave".
fn verdict(a: &Variant, b: &Variant, issued: &[NamedValue]) -> String {
    if a.arch != b.arch {
        return verdict_across_models(a, b);
    }
    let pace = pace_same_model(a, b);
    let (ta, tb) = (pace.a, pace.b);
    let speed = if ta == tb || (ta > 0.0 && ((tb / ta) - 1.0).abs() < 0.005) {
        format!(
            "{} and {} are as fast ({}, {}x)",
            a.label,
            b.label,
            pace.figures,
            significant(if ta > 0.0 { tb / ta } else { 1.0 })
        )
    } else {
        let (win, lose, tw, tl, pct) = winner(a, b, ta, tb);
        let figures = if std::ptr::eq(win, a) {
            pace.figures.clone()
        } else {
            pace.figures_reversed.clone()
        };
        format!(
            "{} is {pct} faster than {} ({figures}, {}x)",
            win.label,
            lose.label,
            significant(if tl > 0.0 { tw / tl } else { 0.0 })
        )
    };
    let bound = if a.bottleneck == b.bottleneck {
        format!("{} in both", bound_by(&a.bottleneck))
    } else {
        format!(
            "{} is {}, {} is {}",
            a.label,
            bound_by(&a.bottleneck),
            b.label,
            bound_by(&b.bottleneck)
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
            amount(x.value.abs()),
            if x.value < 0.0 { "fewer" } else { "more" },
            x.name
        ),
        None => "the same ops per wave".into(),
    };
    format!("{speed}: {bound}, {ops}")
}

/// A change of a mean count (ops per wave), signed, with the precision
/// [`amount`] gives the values: whole counts as `+3`, others with 4
/// significant digits.
fn amount_delta(d: f64) -> String {
    if d == 0.0 {
        "0".into()
    } else if d > 0.0 {
        format!("+{}", amount(d))
    } else {
        amount(d)
    }
}

/// The table's rows: a name, each variant's value, each delta's value.
pub(crate) fn rows(c: &Comparison) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut rows = Vec::new();
    let vs = &c.variants;
    let ds = &c.deltas;
    // The two variants a delta compares (before, after).
    let pair = |d: &Delta| {
        let find = |l: &str| vs.iter().find(|v| v.label == l).unwrap_or(&vs[0]);
        (find(&d.against), find(&d.label))
    };
    let mut row = |name: &str, v: &dyn Fn(&Variant) -> String, d: &dyn Fn(&Delta) -> String| {
        rows.push((
            name.to_string(),
            vs.iter().map(v).collect(),
            ds.iter().map(d).collect(),
        ));
    };
    row("model", &|v| v.arch.clone(), &|_| String::new());
    if vs.iter().any(|v| v.kernel_time_us.is_some()) {
        row(
            "kernel time",
            &|v| v.kernel_time_us.map_or("-".into(), us),
            &|d| {
                d.kernel_time_ratio
                    .map_or("-".into(), |r| format!("{}x", significant(r)))
            },
        );
    }
    row("clocks per wave", &|v| clocks(v.clocks_per_wave), &|d| {
        let (a, b) = pair(d);
        clocks_delta(a.clocks_per_wave, b.clocks_per_wave)
    });
    row("wave clocks", &|v| clocks(v.wave_clocks), &|d| {
        let (a, b) = pair(d);
        clocks_delta(a.wave_clocks, b.wave_clocks)
    });
    row(
        "throughput/clock",
        &|v| {
            format!(
                "{} {}",
                significant(v.throughput_per_clock),
                v.throughput_unit
            )
        },
        &|d| format!("{}x", significant(d.throughput_ratio)),
    );
    if vs.iter().any(|v| v.arch != vs[0].arch) {
        row(
            "throughput/s, GPU",
            &|v| format!("{} {}", si(v.per_second_gpu), v.throughput_unit),
            &|d| format!("{}x", significant(d.per_second_ratio)),
        );
        row(
            "assumed costs",
            &|v| {
                numbers::pct(
                    v.assumed_costs
                        .iter()
                        .map(|c| c.value)
                        .fold(0.0, |a, b| a + b),
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
            &|v| numbers::pct(utilizations(&v.utilization)[i].1),
            &|d| pct_delta(d.utilization[i].value),
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
        &|v| match (v.latency_tolerance, v.latency_fails_at) {
            // A bracket reads as one (issue 47 items 6, 7): the program
            // hides at least C and at most F - 1 clocks.
            (Some(c), Some(f)) if f > c + 1 => format!("{c} to {}", f - 1),
            (Some(c), _) => c.to_string(),
            (None, _) => "-".into(),
        },
        &|d| d.latency_tolerance.map_or("-".into(), |l| format!("{l:+}")),
    );
    for (i, op) in vs[0].issued_per_wave.iter().enumerate() {
        row(
            &format!("{} ops/wave", op.name),
            &|v| {
                v.issued_per_wave
                    .get(i)
                    .map_or("-".into(), |x| amount(x.value))
            },
            &|d| {
                d.issued_per_wave
                    .get(i)
                    .map_or("-".into(), |x| amount_delta(x.value))
            },
        );
    }
    rows
}

/// The header: variant labels, then one `B-A` per delta.
pub(crate) fn header(c: &Comparison) -> (Vec<String>, Vec<String>) {
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
    if let Some(note) = no_time_note(c) {
        let _ = writeln!(out, "{note}");
    }
    for v in &c.verdicts {
        let _ = writeln!(out, "verdict: {v}");
    }
    // What each run took by default, as `analyze` lists it: the verdict
    // holds for these defaults (a loop that ran once, its `--arg`).
    for (label, sentences) in defaults_of(c) {
        let _ = writeln!(out, "defaults of {label}:");
        for d in sentences {
            let _ = writeln!(out, "  {d}");
        }
    }
    out
}

/// What the assumed costs do to a verdict across models.
pub enum Judgement {
    /// None charge either variant.
    Silent,
    /// Some do, but the verdict does not depend on them: the note says why.
    Holds(String),
    /// The verdict depends on them: the reasons, for "no verdict".
    Withheld(String),
}

/// The share of `v`'s unit work its assumed costs charge, and the largest
/// three by name.
fn charged(v: &Variant) -> (f64, String) {
    let share: f64 = v.assumed_costs.iter().map(|c| c.value).sum();
    let names: Vec<String> = v
        .assumed_costs
        .iter()
        .take(3)
        .map(|c: &NamedValue| format!("{} {}", c.name, numbers::pct(c.value)))
        .collect();
    (share.min(1.0), names.join(", "))
}

/// Judge the assumed costs of `win` (rate `tw`) against `lose` (rate `tl`):
/// withheld when either's bound unit rests on them or when doubling the
/// winner's and removing the loser's could reverse the difference (`show`
/// states a rate: a throughput, or the time it stands for).
pub fn judge(
    win: &Variant,
    lose: &Variant,
    tw: f64,
    tl: f64,
    show: &dyn Fn(f64) -> String,
) -> Judgement {
    let charged_any = [win, lose].iter().any(|v| !v.assumed_costs.is_empty());
    if !charged_any {
        return Judgement::Silent;
    }
    let mut reasons = Vec::new();
    for v in [win, lose] {
        let e = &v.assumed_effect;
        if e.bound_share >= ASSUMED_SHARE_LIMIT {
            let (_, names) = charged(v);
            reasons.push(format!(
                "{} of {}'s {} clocks, its bound, are charged at assumed costs ({names})",
                numbers::pct(e.bound_share),
                v.label,
                e.bound
            ));
        }
    }
    // The rates scale as 1 / clocks per wave: the winner's worst case and
    // the loser's best.
    let scaled = |v: &Variant, t: f64, by: f64| {
        let c = v.clocks_per_wave;
        if c > 0.0 {
            t * c / (c + by).max(c * 1e-6)
        } else {
            t
        }
    };
    let worst_win = scaled(win, tw, win.assumed_effect.doubled);
    let best_lose = scaled(lose, tl, -lose.assumed_effect.removed);
    if worst_win <= best_lose {
        reasons.push(format!(
            "doubling {}'s assumed costs and removing {}'s could reverse it ({} vs {})",
            win.label,
            lose.label,
            show(worst_win),
            show(best_lose)
        ));
    }
    if !reasons.is_empty() {
        return Judgement::Withheld(reasons.join("; "));
    }
    // Say which costs were weighed and why they do not decide it.
    let notes: Vec<String> = [win, lose]
        .iter()
        .filter(|v| !v.assumed_costs.is_empty())
        .map(|v| {
            let (share, names) = charged(v);
            let on_bound = if v.assumed_effect.bound_share > 0.0 {
                numbers::pct(v.assumed_effect.bound_share)
            } else {
                "none".into()
            };
            format!(
                "{} of {}'s unit work ({names}) but {on_bound} of its bound ({})",
                numbers::pct(share),
                v.label,
                v.bottleneck
            )
        })
        .collect();
    Judgement::Holds(format!(
        "assumed costs charge {}, and doubling or removing them cannot reverse it",
        notes.join(" and ")
    ))
}

/// "DRAM bandwidth-bound" for a bottleneck kind; a kind that already says it ("no single
/// bound") as it is.
fn bound_by(kind: &str) -> String {
    if kind.ends_with("bound") {
        kind.to_string()
    } else {
        format!("{kind}-bound")
    }
}

#[cfg(test)]
mod tests {
    use super::bound_by;

    #[test]
    fn a_kind_is_bound_once() {
        assert_eq!(bound_by("DRAM bandwidth"), "DRAM bandwidth-bound");
        assert_eq!(bound_by("no single bound"), "no single bound");
    }
}
