//! Published hardware measurements and how shadersim reproduces them (`shadersim validate`).
//!
//! The data files (`validation/points/*.toml`, one per model) list every measurement: the GPU, the
//! quantity, the value with its unit and the clock it was taken at, the test's parameters and its
//! source; and the run that reproduces it: a program (a listing the project compiled from its own
//! kernel), the model, hints, and what to read from the runs. Every point is simulated twice with
//! two counts of one loop ([`Measure::runs`]); the difference between the runs is the loop's steady
//! state, free of the program's start, its end and a chase's first (cold) pass. From it:
//!
//! * `clocks_per_unit` (a latency): clocks per unit (a load of a pointer chase, an FMA of a
//!   dependent chain) = Δclocks / (Δiterations x `per_iteration`);
//! * `units_per_clock` (a rate): units per clock per CU = waves x `per_iteration` x Δiterations /
//!   Δclocks (one CU is simulated; `per_iteration` counts one wave's units).
//!
//! The unit conversion uses the point's recorded clock and CU count ([`convert`]). This crate does
//! no I/O and runs nothing: the CLI runs the ordinary `analyze` path for each [`RunPlan`] and hands
//! back each run's clocks and waves ([`RunOutcome`]).

pub mod kernel_times;
pub mod levels;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The points file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsFile {
    /// Every measurement.
    #[serde(default)]
    pub point: Vec<Point>,
    /// Memory levels with fewer than two independent latency points, and why ([`levels`]).
    #[serde(default)]
    pub gap: Vec<levels::Gap>,
}

/// One published measurement and the run that reproduces it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Unique name (`rdna2-l2-latency`).
    pub id: String,
    /// The GPU measured (`Radeon RX 6900 XT`).
    pub gpu: String,
    /// The shadersim model that stands for it (`--arch` name).
    pub model: String,
    /// What was measured, in words (`vector L2 latency`).
    pub quantity: String,
    /// The published value, in `unit`.
    pub value: f64,
    /// Its unit.
    pub unit: Unit,
    /// The shader clock it was taken at (or the documented boost clock, said so in `clock`).
    /// Both conversions use it: the run simulates the model at this clock (`clock_mhz` set for
    /// the run, so a model's per-clock figures derived from per-second ones follow it), and the
    /// run's clocks become the published unit at this clock ([`convert`]).
    pub clock_mhz: f64,
    /// How the clock is known, in words.
    pub clock: String,
    /// Where `clock_mhz` comes from ([`ClockBasis`]).
    pub clock_basis: ClockBasis,
    /// CUs of the GPU, for per-GPU rates (TFLOPS, GB/s).
    #[serde(default)]
    pub gpu_cus: Option<u32>,
    /// The test's parameters (footprint, stride, threads, ...).
    pub parameters: String,
    /// Where the value was published: a URL, or a repository and path.
    pub source: String,
    /// Why the point may not apply, how the value was read (off a chart, ...).
    #[serde(default)]
    pub note: String,
    /// The listing simulated (relative to the points file).
    pub program: String,
    /// The program's name when the listing holds several.
    #[serde(default)]
    pub function: Option<String>,
    /// Hints (TOML) for both runs; the measured loop's `[[loop]]` entry is added per run.
    #[serde(default)]
    pub hints: String,
    /// What to read from the runs.
    pub measure: Measure,
    /// The model parameter this measurement set (`rdna2.l2_latency`), if any: such a point
    /// checks the conversion and the kernel's own overhead, not an independent prediction.
    #[serde(default)]
    pub calibrates: Option<String>,
    /// For `unit = "ratio"`: the point whose simulated value divides this one's (the value is
    /// then this measurement over that one, both from the same source and run).
    #[serde(default)]
    pub relative_to: Option<String>,
    /// The memory level a latency or bandwidth point measures (one of [`LEVELS`]).
    #[serde(default)]
    pub level: Option<String>,
}

/// The memory levels a point may name (`level`): the scalar cache, LDS, the first vector
/// cache (`l0` on RDNA, `l1` on GCN and CDNA), RDNA's GL1, L2, Infinity Cache (`mall`), DRAM.
pub const LEVELS: [&str; 8] = ["scalar", "lds", "l0", "l1", "gl1", "l2", "mall", "dram"];

/// Where a point's clock comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockBasis {
    /// The source states the clock its run ran at.
    Measured,
    /// The source states the clock its figure is computed at (a specification's peak at boost).
    Stated,
    /// Computed from another figure of the same run (said in `clock`).
    Derived,
    /// The source states no clock: the card's specified boost clock stands in (an assumption;
    /// cards often run above it, so a latency in ns converts to too few clocks).
    Assumed,
    /// The value needs no clock (clocks, a ratio, units per clock).
    None,
}

impl ClockBasis {
    /// The name as the data file spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockBasis::Measured => "measured",
            ClockBasis::Stated => "stated",
            ClockBasis::Derived => "derived",
            ClockBasis::Assumed => "assumed",
            ClockBasis::None => "none",
        }
    }
}

/// Units of a published value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum Unit {
    /// Nanoseconds (a latency at `clock_mhz`).
    #[serde(rename = "ns")]
    Ns,
    /// Shader clocks.
    #[serde(rename = "clocks")]
    Clocks,
    /// 10^12 operations per second over `gpu_cus` CUs at `clock_mhz`.
    #[serde(rename = "TFLOPS")]
    Tflops,
    /// 10^9 bytes per second over `gpu_cus` CUs at `clock_mhz`.
    #[serde(rename = "GB/s")]
    GigabytesPerSecond,
    /// Units per clock per CU.
    #[serde(rename = "per clock per CU")]
    PerClockPerCu,
    /// This measurement over another (`relative_to`): no clock enters.
    #[serde(rename = "ratio")]
    Ratio,
}

impl Unit {
    /// The unit as the data file spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Clocks => "clocks",
            Unit::Tflops => "TFLOPS",
            Unit::GigabytesPerSecond => "GB/s",
            Unit::PerClockPerCu => "per clock per CU",
            Unit::Ratio => "ratio",
        }
    }

    /// Whether converting a run's clocks to this unit takes a clock.
    pub fn needs_clock(self) -> bool {
        matches!(self, Unit::Ns | Unit::Tflops | Unit::GigabytesPerSecond)
    }
}

/// What a point reads from its two runs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measure {
    /// `clocks_per_unit` or `units_per_clock`.
    pub kind: MeasureKind,
    /// Line of the measured loop's header in the listing.
    pub loop_line: u32,
    /// The loop's iteration counts in the two runs (the second larger).
    pub runs: [u32; 2],
    /// Units per iteration of the loop, per wave (loads, FLOPs, bytes).
    pub per_iteration: f64,
}

/// The two readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MeasureKind {
    /// Clocks per unit of one wave's loop (a latency).
    ClocksPerUnit,
    /// Units per clock per CU over every wave (a rate).
    UnitsPerClock,
}

/// A problem with the points file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValidateError {
    /// The file does not parse (line and column 1-based).
    #[error("{line}:{col}: error: {message}")]
    Parse {
        /// Line.
        line: usize,
        /// Column.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// A point is inconsistent.
    #[error("point `{id}`: {message}")]
    Point {
        /// The point.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// A gap entry is inconsistent.
    #[error("gap `{model}` `{level}`: {message}")]
    Gap {
        /// The gap's model.
        model: String,
        /// The gap's level.
        level: String,
        /// What is wrong.
        message: String,
    },
}

/// Line and column (1-based) of byte `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |p| before.len() - p - 1)
        + 1;
    (line, col)
}

impl PointsFile {
    /// Parse and check a points file: unique ids, units that fit the reading, a ratio's
    /// reference present and read the same way, two increasing run counts, clocks and CU
    /// counts where the unit needs them.
    pub fn parse(text: &str) -> Result<PointsFile, ValidateError> {
        let file = Self::parse_alone(text)?;
        file.check_together()?;
        Ok(file)
    }

    /// Join files parsed with [`PointsFile::parse_alone`] (a folder of them, one per model) and
    /// check them as one: ids unique over all, a ratio's reference in any of them.
    pub fn join(files: Vec<PointsFile>) -> Result<PointsFile, ValidateError> {
        let mut all = PointsFile {
            point: Vec::new(),
            gap: Vec::new(),
        };
        for f in files {
            all.point.extend(f.point);
            all.gap.extend(f.gap);
        }
        all.check_together()?;
        Ok(all)
    }

    /// Parse one file and check each point and gap on its own (what [`PointsFile::parse`]
    /// checks, but ids and ratio references, which [`PointsFile::join`] checks over every file).
    pub fn parse_alone(text: &str) -> Result<PointsFile, ValidateError> {
        let file: PointsFile = toml::from_str(text).map_err(|e| {
            let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            ValidateError::Parse {
                line,
                col,
                message: e.message().to_string(),
            }
        })?;
        levels::check_gaps(&file.gap)?;
        for p in &file.point {
            let bad = |message: String| ValidateError::Point {
                id: p.id.clone(),
                message,
            };
            let [a, b] = p.measure.runs;
            if a == 0 || b <= a {
                return Err(bad(format!(
                    "measure.runs must be two increasing counts above 0, got [{a}, {b}]"
                )));
            }
            let positive = |v: f64| v.is_finite() && v > 0.0;
            if !positive(p.measure.per_iteration) {
                return Err(bad("measure.per_iteration must be above 0".into()));
            }
            if !positive(p.value) || !positive(p.clock_mhz) {
                return Err(bad("value and clock_mhz must be above 0".into()));
            }
            let kind = p.measure.kind;
            let fits = match p.unit {
                Unit::Ns | Unit::Clocks => kind == MeasureKind::ClocksPerUnit,
                Unit::Tflops | Unit::GigabytesPerSecond | Unit::PerClockPerCu => {
                    kind == MeasureKind::UnitsPerClock
                }
                Unit::Ratio => true,
            };
            if !fits {
                return Err(bad(format!(
                    "unit `{}` does not fit measure.kind {kind:?}",
                    p.unit.as_str()
                )));
            }
            if matches!(p.unit, Unit::Tflops | Unit::GigabytesPerSecond) && p.gpu_cus.is_none() {
                return Err(bad(format!("unit `{}` needs gpu_cus", p.unit.as_str())));
            }
            if p.unit.needs_clock() == (p.clock_basis == ClockBasis::None) {
                return Err(bad(format!(
                    "unit `{}` {}, but clock_basis is `{}`",
                    p.unit.as_str(),
                    if p.unit.needs_clock() {
                        "needs a clock"
                    } else {
                        "needs no clock (clock_basis = \"none\")"
                    },
                    p.clock_basis.as_str()
                )));
            }
            if let Some(l) = p.level.as_deref().filter(|l| !LEVELS.contains(l)) {
                return Err(bad(format!("level `{l}` is none of {}", LEVELS.join(", "))));
            }
            if (p.unit == Unit::Ratio) != p.relative_to.is_some() {
                return Err(bad("unit = \"ratio\" and relative_to go together".into()));
            }
        }
        Ok(file)
    }

    /// The checks over every point at once: unique ids, a ratio's reference present and read
    /// the same way, one gap per model and level.
    fn check_together(&self) -> Result<(), ValidateError> {
        let file = self;
        let mut seen = BTreeMap::new();
        for (i, p) in file.point.iter().enumerate() {
            if seen.insert(p.id.clone(), i).is_some() {
                return Err(ValidateError::Point {
                    id: p.id.clone(),
                    message: "a second point has this id".into(),
                });
            }
        }
        levels::check_gaps(&file.gap)?;
        for p in &file.point {
            if let Some(r) = &p.relative_to {
                let Some(&j) = seen.get(r) else {
                    return Err(ValidateError::Point {
                        id: p.id.clone(),
                        message: format!("relative_to names no point: `{r}`"),
                    });
                };
                let other = &file.point[j];
                if other.measure.kind != p.measure.kind || other.relative_to.is_some() {
                    return Err(ValidateError::Point {
                        id: p.id.clone(),
                        message: format!(
                            "relative_to `{r}` must be read the same way and not be a ratio itself"
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// The runs to simulate: two per point.
    pub fn plans(&self) -> Vec<RunPlan> {
        self.point
            .iter()
            .enumerate()
            .flat_map(|(i, p)| {
                p.measure.runs.iter().map(move |&n| RunPlan {
                    point: i,
                    iterations: n,
                    hints: run_hints(p, n),
                    sets: run_sets(p),
                })
            })
            .collect()
    }
}

/// The hints of one run: the point's, plus the measured loop's iteration count.
pub fn run_hints(p: &Point, iterations: u32) -> String {
    format!(
        "{}\n[[loop]]\nline = {}\niterations = {}\n",
        p.hints.trim_end(),
        p.measure.loop_line,
        iterations
    )
}

/// The model parameters a run sets: the point's clock, when its unit takes one, so the model
/// runs at the clock the value is converted at.
pub fn run_sets(p: &Point) -> Vec<(String, String)> {
    if p.unit.needs_clock() {
        vec![("clock_mhz".to_string(), p.clock_mhz.to_string())]
    } else {
        Vec::new()
    }
}

/// One simulation to run.
#[derive(Debug, Clone)]
pub struct RunPlan {
    /// Index of the point.
    pub point: usize,
    /// The measured loop's iterations.
    pub iterations: u32,
    /// The complete hints text.
    pub hints: String,
    /// `--set` pairs for the run ([`run_sets`]).
    pub sets: Vec<(String, String)>,
}

/// What a run gives back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOutcome {
    /// Clocks of the run.
    pub clocks: u64,
    /// Waves that ran.
    pub waves: u32,
}

/// The reading of two runs (`runs[0]` with `measure.runs[0]` iterations): clocks per unit or
/// units per clock per CU (see the crate docs).
pub fn reading(m: &Measure, runs: [RunOutcome; 2]) -> Option<f64> {
    let d_iter = f64::from(m.runs[1] - m.runs[0]);
    let d_clocks = runs[1].clocks.checked_sub(runs[0].clocks)? as f64;
    if d_clocks <= 0.0 {
        return None;
    }
    Some(match m.kind {
        MeasureKind::ClocksPerUnit => d_clocks / (d_iter * m.per_iteration),
        MeasureKind::UnitsPerClock => {
            f64::from(runs[1].waves) * m.per_iteration * d_iter / d_clocks
        }
    })
}

/// A reading in the point's unit at its clock: ns = clocks x 1000 / MHz; TFLOPS = per clock per
/// CU x CUs x MHz / 10^6; GB/s = bytes per clock per CU x CUs x MHz / 10^3. Ratios are
/// divided by the reference's reading by the caller.
pub fn convert(p: &Point, reading: f64) -> f64 {
    let cus = f64::from(p.gpu_cus.unwrap_or(1));
    match p.unit {
        Unit::Ns => reading * 1000.0 / p.clock_mhz,
        Unit::Clocks | Unit::PerClockPerCu | Unit::Ratio => reading,
        Unit::Tflops => reading * cus * p.clock_mhz / 1e6,
        Unit::GigabytesPerSecond => reading * cus * p.clock_mhz / 1e3,
    }
}

/// Errors above this need a stated reason in the point's note.
pub const REASON_NEEDED_ABOVE: f64 = 0.25;

/// One line of the table.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The point's id.
    pub id: String,
    /// GPU.
    pub gpu: String,
    /// Model.
    pub model: String,
    /// Quantity.
    pub quantity: String,
    /// Unit.
    pub unit: &'static str,
    /// Clock the value was taken at, MHz.
    pub clock_mhz: f64,
    /// Where that clock comes from.
    pub clock_basis: ClockBasis,
    /// The memory level a latency point measures (`l0`, `l2`, ...), if any.
    pub level: Option<String>,
    /// Published value.
    pub measured: f64,
    /// Simulated value in the same unit (`None`: the runs gave no reading).
    pub simulated: Option<f64>,
    /// (simulated - measured) / measured.
    pub error: Option<f64>,
    /// The reading before conversion (clocks per unit, or units per clock per CU).
    pub reading: Option<f64>,
    /// Source.
    pub source: String,
    /// Note.
    pub note: String,
    /// Error above [`REASON_NEEDED_ABOVE`] with no note.
    pub unexplained: bool,
    /// The model parameter the measurement set, if any.
    pub calibrates: Option<String>,
    /// What the point measures: `latency` (clocks per unit), `bandwidth` (GB/s) or `rate`
    /// (operations per clock, TFLOPS, a ratio of rates).
    pub kind: &'static str,
}

/// The kinds of [`Row::kind`], in the order the summaries list them.
pub const KINDS: [&str; 3] = ["latency", "bandwidth", "rate"];

fn kind_of(p: &Point) -> &'static str {
    match (p.measure.kind, p.unit) {
        (MeasureKind::ClocksPerUnit, _) => "latency",
        (_, Unit::GigabytesPerSecond) => "bandwidth",
        _ => "rate",
    }
}

/// Median and mean absolute error of a group of rows.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The model (`all` for every row).
    pub model: String,
    /// Rows with a reading.
    pub points: usize,
    /// Distinct GPUs.
    pub gpus: usize,
    /// Median of |error|.
    pub median_abs_error: f64,
    /// Mean of |error|.
    pub mean_abs_error: f64,
    /// Rows whose |error| is above 25%.
    pub above_25_percent: usize,
}

/// The whole result.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Every point.
    pub points: Vec<Row>,
    /// Per model, in name order.
    pub models: Vec<Summary>,
    /// Over every point.
    pub overall: Summary,
    /// Over the points that set no model parameter (independent predictions).
    pub independent: Summary,
    /// Over the points that set a model parameter (`calibrates`): checks of the conversion and
    /// the kernel's overhead.
    pub calibration: Summary,
    /// The independent points per kind ([`KINDS`]: `independent latency`, ...).
    pub independent_by_kind: Vec<Summary>,
    /// Per model and memory level: its latency points and, with fewer than two independent
    /// ones, the stated reason ([`levels::coverage`]).
    pub levels: Vec<levels::LevelCoverage>,
}

fn summarize(model: &str, rows: &[&Row]) -> Summary {
    let mut errs: Vec<f64> = rows.iter().filter_map(|r| r.error.map(f64::abs)).collect();
    errs.sort_by(f64::total_cmp);
    let n = errs.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => errs[n / 2],
        _ => (errs[n / 2 - 1] + errs[n / 2]) / 2.0,
    };
    let mean = if n == 0 {
        0.0
    } else {
        errs.iter().sum::<f64>() / n as f64
    };
    let gpus: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.gpu.as_str()).collect();
    Summary {
        model: model.to_string(),
        points: n,
        gpus: gpus.len(),
        median_abs_error: median,
        mean_abs_error: mean,
        above_25_percent: errs.iter().filter(|e| **e > REASON_NEEDED_ABOVE).count(),
    }
}

/// Build the table from every point's two run outcomes (`outcomes[i]` for point i; `None` when
/// a run failed).
pub fn report(file: &PointsFile, outcomes: &[Option<[RunOutcome; 2]>]) -> Report {
    let readings: Vec<Option<f64>> = file
        .point
        .iter()
        .zip(outcomes)
        .map(|(p, o)| o.and_then(|o| reading(&p.measure, o)))
        .collect();
    let index: BTreeMap<&str, usize> = file
        .point
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.as_str(), i))
        .collect();
    let rows: Vec<Row> = file
        .point
        .iter()
        .zip(&readings)
        .map(|(p, r)| {
            let simulated = match &p.relative_to {
                Some(other) => {
                    let base = index.get(other.as_str()).and_then(|&j| readings[j]);
                    r.zip(base).map(|(a, b)| a / b)
                }
                None => r.map(|r| convert(p, r)),
            };
            let error = simulated.map(|s| (s - p.value) / p.value);
            Row {
                id: p.id.clone(),
                gpu: p.gpu.clone(),
                model: p.model.clone(),
                quantity: p.quantity.clone(),
                unit: p.unit.as_str(),
                clock_mhz: p.clock_mhz,
                clock_basis: p.clock_basis,
                level: p.level.clone(),
                measured: p.value,
                simulated,
                error,
                reading: *r,
                source: p.source.clone(),
                note: p.note.clone(),
                unexplained: error.is_some_and(|e| e.abs() > REASON_NEEDED_ABOVE)
                    && p.note.trim().is_empty(),
                calibrates: p.calibrates.clone(),
                kind: kind_of(p),
            }
        })
        .collect();
    let mut by_model: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in &rows {
        by_model.entry(r.model.as_str()).or_default().push(r);
    }
    let models = by_model.iter().map(|(m, rs)| summarize(m, rs)).collect();
    let all: Vec<&Row> = rows.iter().collect();
    let overall = summarize("all", &all);
    let free: Vec<&Row> = rows.iter().filter(|r| r.calibrates.is_none()).collect();
    let independent = summarize("independent", &free);
    let set: Vec<&Row> = rows.iter().filter(|r| r.calibrates.is_some()).collect();
    let calibration = summarize("calibration", &set);
    let independent_by_kind = KINDS
        .iter()
        .map(|k| {
            let of_kind: Vec<&Row> = free.iter().copied().filter(|r| r.kind == *k).collect();
            summarize(&format!("independent {k}"), &of_kind)
        })
        .collect();
    let levels = levels::coverage(&rows, &file.gap);
    Report {
        points: rows,
        models,
        overall,
        independent,
        calibration,
        independent_by_kind,
        levels,
    }
}

/// A number with about four significant digits.
fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

impl Report {
    /// The text table: one line per point, then the summaries.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<30} {:<8} {:<40} {:>10} {:>10} {:>8}  unit",
            "point", "model", "quantity", "measured", "simulated", "error"
        );
        for r in &self.points {
            let (sim, err) = match (r.simulated, r.error) {
                (Some(s), Some(e)) => (num(s), format!("{:+.1}%", e * 100.0)),
                _ => ("-".into(), "no run".into()),
            };
            let flag = if r.unexplained {
                "  (no reason given)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{:<30} {:<8} {:<40} {:>10} {:>10} {:>8}  {}{flag}",
                r.id,
                r.model,
                r.quantity,
                num(r.measured),
                sim,
                err,
                r.unit
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{:<22} {:>6} {:>5} {:>12} {:>12} {:>6}",
            "model", "points", "gpus", "median |err|", "mean |err|", ">25%"
        );
        let split = [&self.calibration, &self.independent]
            .into_iter()
            .chain(&self.independent_by_kind);
        for s in self.models.iter().chain([&self.overall]).chain(split) {
            let _ = writeln!(
                out,
                "{:<22} {:>6} {:>5} {:>11.1}% {:>11.1}% {:>6}",
                s.model,
                s.points,
                s.gpus,
                s.median_abs_error * 100.0,
                s.mean_abs_error * 100.0,
                s.above_25_percent
            );
        }
        if !self.levels.is_empty() {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "{:<8} {:<7} {:>4} {:>7} {:>12}  why fewer than two checks",
                "model", "level", "sets", "checks", "median |err|"
            );
            for l in &self.levels {
                let median = l
                    .independent_median_abs_error
                    .map_or("-".into(), |m| format!("{:.1}%", m * 100.0));
                let _ = writeln!(
                    out,
                    "{:<8} {:<7} {:>4} {:>7} {:>12}  {}",
                    l.model,
                    l.level,
                    l.calibration,
                    l.independent,
                    median,
                    l.reason.as_deref().unwrap_or("")
                );
            }
        }
        out
    }

    /// The JSON report (keys in docs/cli.md).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into())
    }
}

#[cfg(test)]
mod tests;
