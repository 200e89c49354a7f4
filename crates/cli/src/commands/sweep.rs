//! `shadersim sweep FILE --vary KEY=V1,V2,...|A..B:STEP [--vary ...]`: the
//! simulation over a grid of `--set` / dispatch parameters, run in parallel
//! (every point is an independent run, so the rows are those of serial runs,
//! in grid order), as CSV or JSON, with an optional SVG line plot.

use crate::commands::prepare::{analyse, load_with, prepare_loaded};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_report::compare_view::Variant;
use shadersim_report::sweep_view::{to_csv, to_json, to_svg, Axis, Marked, Row, METRICS};

/// Output formats of `sweep`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SweepFormat {
    /// One header line and one line per grid point.
    Csv,
    /// An array of one object per grid point.
    Json,
}

/// Arguments of `shadersim sweep`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Assembly file.
    pub file: String,
    /// A parameter and its values: `KEY=V1,V2,...` or `KEY=A..B:STEP`
    /// (A to B inclusive). Repeatable; the first key varies slowest.
    #[arg(long, value_name = "KEY=VALUES", required = true)]
    pub vary: Vec<String>,
    /// Model, hints, overrides and program.
    #[command(flatten)]
    pub run: crate::input::RunArgs,
    /// The column plotted (any numeric column of the CSV).
    #[arg(long, default_value = "throughput")]
    pub metric: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: SweepFormat,
    /// Also draw the metric against the first key as an SVG line plot here.
    #[arg(long, value_name = "OUT.svg")]
    pub plot: Option<String>,
    /// Write the table here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// More points than this is almost certainly a mistyped step.
const MAX_POINTS: usize = 100_000;

/// Grids above this many points start with a warning (each point is a
/// simulation).
const WARN_POINTS: usize = 10_000;

/// Parse one `--vary` argument.
pub fn parse_vary(arg: &str) -> Result<Axis, CliError> {
    let bad = |why: &str| CliError::Usage(format!("--vary {arg}: {why}"));
    let (key, spec) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=V1,V2,... or KEY=A..B:STEP"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(bad("the key is empty"));
    }
    let values = if let Some((range, step)) = spec.split_once(':') {
        let (from, to) = range
            .split_once("..")
            .ok_or_else(|| bad("a range is A..B:STEP"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(&format!("`{}` is not a number", s.trim())))
        };
        let (from, to, step) = (number(from)?, number(to)?, number(step)?);
        if step <= 0.0 {
            return Err(bad("the step must be positive"));
        }
        if from > to {
            return Err(bad("the range is empty (A > B)"));
        }
        // Counting steps rather than adding them keeps the values exact
        // (0.1 added ten times is not 1.0); the epsilon keeps B itself.
        let count = ((to - from) / step + 1e-9).floor() + 1.0;
        if count > MAX_POINTS as f64 {
            return Err(bad(&format!("more than {MAX_POINTS} values")));
        }
        (0..count as usize)
            .map(|i| format_value(from + step * i as f64))
            .collect()
    } else {
        let values: Vec<String> = spec.split(',').map(|v| v.trim().to_string()).collect();
        if values.iter().any(String::is_empty) {
            return Err(bad("empty value in the list"));
        }
        if values.iter().any(|v| v.contains("..")) {
            return Err(bad("a range needs a step: A..B:STEP"));
        }
        values
    };
    Ok(Axis {
        key: key.to_string(),
        values,
    })
}

/// A range value as `--set` and the CSV show it: integers without a
/// fraction, others with at most 6 decimals.
fn format_value(x: f64) -> String {
    let rounded = (x * 1e6).round() / 1e6;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        let s = format!("{rounded:.6}");
        s.trim_end_matches('0').to_string()
    }
}

/// Every combination of the axes' values, the first axis varying slowest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<String>> {
    let mut points = vec![Vec::new()];
    for axis in axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                axis.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push(v.clone());
                    q
                })
            })
            .collect();
    }
    points
}

/// A point's error about a varied key names `--vary`, not the `--set` it
/// became.
fn name_vary(e: CliError, keys: &[&str]) -> CliError {
    match e {
        CliError::Usage(m)
            if m.starts_with("--set")
                && keys.iter().any(|k| {
                    m.contains(&format!("`{k}`")) || m.starts_with(&format!("--set {k}"))
                }) =>
        {
            CliError::Usage(format!("--vary{}", &m["--set".len()..]))
        }
        other => other,
    }
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let metric = METRICS
        .iter()
        .position(|m| *m == args.metric)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--metric {}: unknown; one of {}",
                args.metric,
                METRICS.join(", ")
            ))
        })?;
    if args.jobs == Some(0) {
        return Err(CliError::Usage("--jobs must be at least 1".into()));
    }
    let fixed = args.run.sets()?;
    let axes = args
        .vary
        .iter()
        .map(|v| parse_vary(v))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(CliError::Usage(format!(
                "--vary {}: the key is varied twice",
                a.key
            )));
        }
    }
    let points = grid(&axes);
    if points.len() > MAX_POINTS {
        return Err(CliError::Usage(format!(
            "--vary: {} grid points, more than {MAX_POINTS}",
            points.len()
        )));
    }
    if points.len() > WARN_POINTS {
        eprintln!(
            "warning: --vary makes {} grid points: {} simulations, which may take a long time",
            points.len(),
            points.len()
        );
    }
    let pool = super::worker_pool(args.jobs)?;
    // Read once: the points differ only in their `--set` values.
    let loaded = load_with(
        &args.file,
        args.run.arch.as_deref(),
        args.run.function.as_deref(),
        args.run.source(),
    )?;
    let run_point = |values: &Vec<String>| -> Result<(Row, Vec<String>), CliError> {
        // The varied values come after the fixed ones: the later `--set` wins.
        let mut sets = fixed.clone();
        sets.extend(
            axes.iter()
                .zip(values)
                .map(|(a, v)| (a.key.clone(), v.clone())),
        );
        let prepared = prepare_loaded(&loaded, args.run.hints.as_deref(), &sets)?;
        let analysis = analyse(&prepared, false)?;
        let report = AnalyzeReport::new(&prepared.file_name, &prepared.sim, &analysis);
        Ok((
            Row {
                values: values.clone(),
                // The program's name labels the plot's title.
                result: Variant::of(report.program.clone(), &report, prepared.sim.arch()),
            },
            // Only the notes about a varied key (the warning below quotes them): memory per
            // point stays small on a large grid.
            report
                .notes
                .into_iter()
                .filter(|n| axes.iter().any(|a| n.starts_with(&format!("{} ", a.key))))
                .collect(),
        ))
    };
    // Collected in grid order; the first failing point in that order is the
    // error reported, whichever thread met it first.
    let progress = crate::progress::Progress::start(Some(points.len() as u64), "points");
    let rows: Vec<Result<(Row, Vec<String>), CliError>> = pool.install(|| {
        points
            .par_iter()
            .map(|p| {
                let row = run_point(p);
                progress.inc();
                row
            })
            .collect()
    });
    drop(progress);
    // A point the model cannot run (a `waves_per_simd` beyond its slots)
    // is marked in its row; only when no point runs is the grid an error
    // (an unknown key, a value no point accepts), the first in grid order.
    let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
    let mut failed = Vec::new();
    let mut ran = Vec::new();
    let mut marked = Vec::new();
    let mut notes = Vec::new();
    for (values, row) in points.iter().zip(rows) {
        match row {
            Ok((r, n)) => {
                marked.push(Marked::Ran(Box::new(r.clone())));
                ran.push(r);
                notes.push(n);
            }
            Err(e) => {
                let e = name_vary(e, &keys);
                marked.push(Marked::Failed(values.clone(), e.message()));
                failed.push(e);
            }
        }
    }
    if ran.is_empty() {
        if let Some(e) = failed.into_iter().next() {
            return Err(e);
        }
    } else if !failed.is_empty() {
        eprintln!(
            "warning: {} of {} grid points could not run; their rows say why",
            failed.len(),
            points.len()
        );
    }
    for warning in unused_axes(&axes, &ran, &notes) {
        eprintln!("{warning}");
    }
    let text = match args.format {
        SweepFormat::Csv => to_csv(&axes, &marked),
        SweepFormat::Json => to_json(&axes, &marked),
    };
    if let Some(path) = &args.plot {
        let svg = to_svg(&axes, &ran, metric);
        std::fs::write(path, svg)
            .map_err(|e| CliError::input(format!("{path}: error: cannot write: {e}")))?;
    }
    crate::output::write(args.output.as_deref(), text)
}

/// A warning for each varied key none of whose values changed any number: at every setting of
/// the other keys, the rows that differ only in it are equal (a parameter the run does not
/// use, such as `vmem_latency` while the cache hierarchy serves the requests). The run's own
/// note that names the key, when there is one, says why. `notes[i]` are `rows[i]`'s.
fn unused_axes(axes: &[Axis], rows: &[Row], notes: &[Vec<String>]) -> Vec<String> {
    let mut warnings = Vec::new();
    for (k, axis) in axes.iter().enumerate() {
        if axis.values.len() < 2 {
            continue;
        }
        // Rows keyed by the other keys' values (a map: a grid has up to 100,000 points); each
        // group must hold one result.
        let mut groups: std::collections::HashMap<Vec<&String>, &Row> =
            std::collections::HashMap::new();
        let mut compared = false;
        let mut same = true;
        for row in rows {
            let others: Vec<&String> = row
                .values
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, v)| v)
                .collect();
            match groups.get(&others) {
                Some(first) => {
                    compared = true;
                    let (a, b) = (first.metrics(), row.metrics());
                    // (NaN, a missing kernel time, equals itself here.)
                    let equal = a
                        .iter()
                        .zip(&b)
                        .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
                        && first.result.bottleneck == row.result.bottleneck;
                    same &= equal;
                }
                None => {
                    groups.insert(others, row);
                }
            }
        }
        if !(compared && same) {
            continue;
        }
        let key = &axis.key;
        let why = notes
            .iter()
            .flatten()
            .find(|n| n.starts_with(&format!("{key} ")))
            .map_or(String::new(), |n| format!(": {n}"));
        warnings.push(format!(
            "warning: --vary {key}: none of its {} values changed a number{why}",
            axis.values.len()
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists() {
        let a = parse_vary("vmem_latency=0..950:50").unwrap();
        assert_eq!(a.values.len(), 20);
        assert_eq!(a.values[19], "950");
        let a = parse_vary("x=0..1:0.1").unwrap();
        assert_eq!(a.values.len(), 11);
        assert_eq!(a.values[3], "0.3");
        let a = parse_vary("stage=pixel, compute").unwrap();
        assert_eq!(a.values, ["pixel", "compute"]);
        for bad in [
            "x", "=1,2", "x=1..2", "x=2..1:1", "x=0..1:0", "x=a..1:1", "x=1,,2",
        ] {
            assert!(parse_vary(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn grid_first_key_slowest() {
        let axes = [parse_vary("a=1,2").unwrap(), parse_vary("b=x,y,z").unwrap()];
        let g = grid(&axes);
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], ["1", "x"]);
        assert_eq!(g[1], ["1", "y"]);
        assert_eq!(g[3], ["2", "x"]);
    }
}
