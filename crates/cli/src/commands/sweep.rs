//! `shadersim sweep FILE --vary KEY=V1,V2,...|A..B:STEP [--vary ...]`: the
//! simulation over a grid of `--set` / dispatch parameters, run in parallel
//! (every point is an independent run, so the rows are those of serial runs,
//! in grid order), as CSV or JSON, with an optional SVG line plot.

use crate::commands::compare::{variant, Variant};
use crate::commands::prepare::{analyse, load, parse_sets, prepare_loaded};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_report::analyze_view::AnalyzeReport;
use std::fmt::Write as _;

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

/// The numeric columns after the varied keys, in CSV order.
pub const METRICS: &[&str] = &[
    "clocks",
    "clocks_per_wave",
    "wave_clocks",
    "throughput",
    "valu_utilization",
    "salu_utilization",
    "smem_utilization",
    "vmem_utilization",
    "lds_utilization",
    "export_utilization",
    "gds_utilization",
    "ray_utilization",
    "trans_utilization",
    "occupancy",
];

/// More points than this is almost certainly a mistyped step.
const MAX_POINTS: usize = 100_000;

/// Grids above this many points start with a warning (each point is a
/// simulation).
const WARN_POINTS: usize = 10_000;

/// One varied parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The `--set` key.
    pub key: String,
    /// Its values, as `--set` receives them.
    pub values: Vec<String>,
}

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

/// A grid point as the table shows it: its result, or why it could not run.
#[derive(Debug, Clone)]
enum Marked {
    /// The point ran.
    Ran(Box<Row>),
    /// The point's values, and the error.
    Failed(Vec<String>, String),
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

/// One grid point's result.
#[derive(Debug, Clone)]
struct Row {
    values: Vec<String>,
    result: Variant,
}

impl Row {
    /// The numeric columns, in [`METRICS`] order.
    fn metrics(&self) -> [f64; 14] {
        let r = &self.result;
        let u = &r.utilization;
        [
            r.clocks as f64,
            r.clocks_per_wave,
            r.wave_clocks,
            r.throughput_per_clock,
            u.valu,
            u.salu,
            u.smem,
            u.vmem,
            u.lds,
            u.export,
            u.gds,
            u.ray,
            u.trans,
            f64::from(r.waves_per_simd),
        ]
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
    let fixed = parse_sets(&args.run.set)?;
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
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Input(format!("error: cannot start worker threads: {e}")))?;
    // Read once: the points differ only in their `--set` values.
    let loaded = load(
        &args.file,
        args.run.arch.as_deref(),
        args.run.function.as_deref(),
    )?;
    let run_point = |values: &Vec<String>| -> Result<Row, CliError> {
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
        Ok(Row {
            values: values.clone(),
            result: variant(String::new(), &report, &prepared.sim.arch),
        })
    };
    // Collected in grid order; the first failing point in that order is the
    // error reported, whichever thread met it first.
    let progress = crate::progress::Progress::start(Some(points.len() as u64), "points");
    let rows: Vec<Result<Row, CliError>> = pool.install(|| {
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
    for (values, row) in points.iter().zip(rows) {
        match row {
            Ok(r) => {
                marked.push(Marked::Ran(Box::new(r.clone())));
                ran.push(r);
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

/// A CSV field, quoted when it holds a separator or a quote.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV: the varied keys, the metrics, occupancy limiter and bottleneck.
fn to_csv(axes: &[Axis], rows: &[Marked]) -> String {
    let mut header: Vec<String> = axes.iter().map(|a| csv_field(&a.key)).collect();
    header.extend(METRICS.iter().map(|m| m.to_string()));
    header.push("occupancy_limiter".into());
    header.push("bottleneck".into());
    let mut out = header.join(",") + "\n";
    for marked in rows {
        let fields: Vec<String> = match marked {
            Marked::Ran(row) => {
                let mut fields: Vec<String> = row.values.iter().map(|v| csv_field(v)).collect();
                fields.extend(row.metrics().iter().map(|x| x.to_string()));
                fields.push(csv_field(&row.result.occupancy_limiter));
                fields.push(csv_field(&row.result.bottleneck));
                fields
            }
            // Empty numbers; the bottleneck column says why.
            Marked::Failed(values, error) => {
                let mut fields: Vec<String> = values.iter().map(|v| csv_field(v)).collect();
                fields.extend(METRICS.iter().map(|_| String::new()));
                fields.push(String::new());
                fields.push(csv_field(&format!("error: {error}")));
                fields
            }
        };
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

/// The JSON: one object per point, `point` holding the varied values
/// (numbers when they are numbers).
fn to_json(axes: &[Axis], rows: &[Marked]) -> String {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|marked| {
            let values = match marked {
                Marked::Ran(row) => &row.values,
                Marked::Failed(values, _) => values,
            };
            let mut point = serde_json::Map::new();
            for (a, v) in axes.iter().zip(values) {
                let value = match v.parse::<f64>() {
                    Ok(x) if x.is_finite() => serde_json::json!(x),
                    _ => serde_json::json!(v),
                };
                point.insert(a.key.clone(), value);
            }
            let mut obj = serde_json::Map::new();
            obj.insert("point".into(), serde_json::Value::Object(point));
            let row = match marked {
                Marked::Ran(row) => row,
                // Null numbers and `error`: why the point could not run.
                Marked::Failed(_, error) => {
                    for name in METRICS {
                        obj.insert(name.to_string(), serde_json::Value::Null);
                    }
                    obj.insert("occupancy_limiter".into(), serde_json::Value::Null);
                    obj.insert("bottleneck".into(), serde_json::Value::Null);
                    obj.insert("error".into(), serde_json::json!(error));
                    return serde_json::Value::Object(obj);
                }
            };
            for (name, x) in METRICS.iter().zip(row.metrics()) {
                obj.insert(name.to_string(), serde_json::json!(x));
            }
            obj.insert(
                "occupancy_limiter".into(),
                serde_json::json!(row.result.occupancy_limiter),
            );
            obj.insert(
                "bottleneck".into(),
                serde_json::json!(row.result.bottleneck),
            );
            serde_json::Value::Object(obj)
        })
        .collect();
    serde_json::to_string_pretty(&rows).expect("plain data serializes") + "\n"
}

/// Escape text for SVG.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A tick label: up to 4 significant decimals, no trailing zeros.
fn tick(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The plot: the metric against the first key, one polyline per value of
/// the other keys. Non-numeric first-key values are placed evenly.
fn to_svg(axes: &[Axis], rows: &[Row], metric: usize) -> String {
    const W: f64 = 720.0;
    const H: f64 = 420.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 180.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 60.0;
    const COLORS: &[&str] = &[
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22", "#17becf",
    ];
    let first = &axes[0];
    let numeric: Option<Vec<f64>> = first.values.iter().map(|v| v.parse().ok()).collect();
    let x_of = |v: &str| -> f64 {
        match &numeric {
            Some(_) => v.parse().unwrap_or(0.0),
            None => first.values.iter().position(|w| w == v).unwrap_or(0) as f64,
        }
    };
    let xs: Vec<f64> = first.values.iter().map(|v| x_of(v)).collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let ys: Vec<f64> = rows.iter().map(|r| r.metrics()[metric]).collect();
    let y1 = ys.iter().cloned().fold(0.0_f64, f64::max);
    let y0 = ys.iter().cloned().fold(0.0_f64, f64::min);
    let y1 = if y1 > y0 { y1 * 1.05 } else { y0 + 1.0 };
    let sx = |x: f64| {
        if x1 > x0 {
            LEFT + (x - x0) / (x1 - x0) * (W - LEFT - RIGHT)
        } else {
            LEFT + (W - LEFT - RIGHT) / 2.0
        }
    };
    let sy = |y: f64| H - BOTTOM - (y - y0) / (y1 - y0) * (H - TOP - BOTTOM);

    // Series: rows that share the values of every key but the first, in
    // the order they first appear (grid order).
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (row, y) in rows.iter().zip(&ys) {
        let name = axes[1..]
            .iter()
            .zip(&row.values[1..])
            .map(|(a, v)| format!("{}={v}", a.key))
            .collect::<Vec<_>>()
            .join(", ");
        let point = (x_of(&row.values[0]), *y);
        match series.iter_mut().find(|(n, _)| *n == name) {
            Some((_, pts)) => pts.push(point),
            None => series.push((name, vec![point])),
        }
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{H}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">{} against {}</text>",
        (LEFT + W - RIGHT) / 2.0,
        escape(METRICS[metric]),
        escape(&first.key)
    );
    // Axes.
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>",
        H - BOTTOM,
        W - RIGHT,
        H - BOTTOM
    );
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{}\" stroke=\"black\"/>",
        H - BOTTOM
    );
    for i in 0..=5 {
        let y = y0 + (y1 - y0) * f64::from(i) / 5.0;
        let py = sy(y);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{py:.1}\" x2=\"{}\" y2=\"{py:.1}\" stroke=\"#ddd\"/>",
            LEFT,
            W - RIGHT
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            py + 4.0,
            tick(y)
        );
    }
    // At most about 10 x labels, evenly picked from the values.
    let every = first.values.len().div_ceil(10).max(1);
    for (i, v) in first.values.iter().enumerate().step_by(every) {
        let px = sx(xs[i]);
        let _ = writeln!(
            out,
            "<text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            H - BOTTOM + 18.0,
            escape(v)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        (LEFT + W - RIGHT) / 2.0,
        H - 16.0,
        escape(&first.key)
    );
    for (i, (name, pts)) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let points: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>",
            points.join(" ")
        );
        let label = if name.is_empty() {
            METRICS[metric].to_string()
        } else {
            name.clone()
        };
        let ly = TOP + 18.0 * i as f64;
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{color}\" stroke-width=\"2\"/>",
            W - RIGHT + 12.0,
            W - RIGHT + 32.0
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            W - RIGHT + 38.0,
            ly + 4.0,
            escape(&label)
        );
    }
    out.push_str("</svg>\n");
    out
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
