//! `sweep`'s grid as CSV, JSON and an SVG plot: one row per grid point
//! (the varied values and the point's [`Variant`], or why it could not
//! run). The CLI parses `--vary`, runs the grid and calls [`to_csv`],
//! [`to_json`] or [`to_svg`].

use crate::compare_view::Variant;
use crate::markup::esc;
use std::fmt::Write as _;

/// The numeric columns after the varied keys, in CSV order. `kernel_time_us`
/// (the whole dispatch's time, microseconds) is empty in the CSV and null in
/// the JSON at a point whose launch gave no grid.
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
    "kernel_time_us",
];

/// One varied parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The `--set` key.
    pub key: String,
    /// Its values, as `--set` receives them.
    pub values: Vec<String>,
}

/// A grid point as the table shows it: its result, or why it could not run.
#[derive(Debug, Clone)]
pub enum Marked {
    /// The point ran.
    Ran(Box<Row>),
    /// The point's values, and the error.
    Failed(Vec<String>, String),
}

/// One grid point's result.
#[derive(Debug, Clone)]
pub struct Row {
    /// The varied keys' values, in axis order.
    pub values: Vec<String>,
    /// The point's numbers.
    pub result: Variant,
}

impl Row {
    /// The numeric columns, in [`METRICS`] order (NaN: no value, a kernel
    /// time without a grid).
    pub fn metrics(&self) -> [f64; 15] {
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
            r.kernel_time_us.unwrap_or(f64::NAN),
        ]
    }
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
pub fn to_csv(axes: &[Axis], rows: &[Marked]) -> String {
    let mut header: Vec<String> = axes.iter().map(|a| csv_field(&a.key)).collect();
    header.extend(METRICS.iter().map(|m| m.to_string()));
    header.push("occupancy_limiter".into());
    header.push("bottleneck".into());
    let mut out = header.join(",") + "\n";
    for marked in rows {
        let fields: Vec<String> = match marked {
            Marked::Ran(row) => {
                let mut fields: Vec<String> = row.values.iter().map(|v| csv_field(v)).collect();
                fields.extend(row.metrics().iter().map(|x| {
                    if x.is_nan() {
                        String::new()
                    } else {
                        x.to_string()
                    }
                }));
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
pub fn to_json(axes: &[Axis], rows: &[Marked]) -> String {
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
                // (`json!` of NaN is null too; said here, not left to it.)
                let x = if x.is_nan() {
                    serde_json::Value::Null
                } else {
                    serde_json::json!(x)
                };
                obj.insert(name.to_string(), x);
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

/// The unit of a metric's axis (`unit` is the throughput's, e.g.
/// `threads`), and the factor its values are drawn with (utilizations
/// as percentages).
fn metric_axis(metric: usize, unit: &str) -> (String, f64) {
    match METRICS[metric] {
        "clocks" => ("clocks, total".into(), 1.0),
        "clocks_per_wave" => ("clocks per wave".into(), 1.0),
        "wave_clocks" => ("clocks from a wave's launch to its end".into(), 1.0),
        "throughput" => (format!("{unit} per clock per CU"), 1.0),
        "occupancy" => ("waves per SIMD".into(), 1.0),
        "kernel_time_us" => ("microseconds for the whole dispatch".into(), 1.0),
        m if m.ends_with("_utilization") => ("% of clocks busy".into(), 100.0),
        _ => (String::new(), 1.0),
    }
}

/// The unit of a varied key, from what its name says (a model parameter
/// or a dispatch key): latencies and clocks in clocks, sizes in bytes,
/// counts of waves, threads, registers and CUs.
fn key_unit(key: &str) -> &'static str {
    let k = key.to_ascii_lowercase();
    if k.contains("latency") || k.contains("clocks") || k.contains("cycles") {
        "clocks"
    } else if k.contains("bytes") {
        "bytes"
    } else if k.contains("mhz") {
        "MHz"
    } else if k.contains("waves") {
        "waves"
    } else if k == "workgroup_size" {
        "threads"
    } else if k.contains("vgprs") || k.contains("sgprs") {
        "registers"
    } else if k == "cus" || k == "cu_count" {
        "CUs"
    } else {
        ""
    }
}

/// `name (unit)`, or `name` without a unit.
fn with_unit(name: &str, unit: &str) -> String {
    if unit.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({unit})")
    }
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

/// The plot's size and margins (pixels) and its series' colours.
const W: f64 = 720.0;
const H: f64 = 420.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 60.0;
const COLORS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The plot: the metric against the first key, one polyline per value of
/// the other keys. Non-numeric first-key values are placed evenly.
pub fn to_svg(axes: &[Axis], rows: &[Row], metric: usize) -> String {
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
    let first_result = rows.first().map(|r| &r.result);
    let (y_unit, scale) = metric_axis(
        metric,
        first_result.map_or("threads", |r| r.throughput_unit.as_str()),
    );
    // (A point without the metric, a kernel time without a grid, is left out.)
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.metrics()[metric].is_nan())
        .collect();
    let ys: Vec<f64> = rows.iter().map(|r| r.metrics()[metric] * scale).collect();
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

    let series = series(axes, &rows, &ys, &x_of);

    let mut out = String::new();
    write_header(&mut out, first_result, metric, &first.key, &y_unit);
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
            esc(v)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        (LEFT + W - RIGHT) / 2.0,
        H - 16.0,
        esc(&with_unit(&first.key, key_unit(&first.key)))
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
            esc(&label)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The series of the plot: rows that share the values of every key but the first, in the
/// order they first appear (grid order), as (name, points).
fn series(
    axes: &[Axis],
    rows: &[&Row],
    ys: &[f64],
    x_of: &dyn Fn(&str) -> f64,
) -> Vec<(String, Vec<(f64, f64)>)> {
    // Series: rows that share the values of every key but the first, in
    // the order they first appear (grid order).
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (row, y) in rows.iter().zip(ys) {
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
    series
}

/// The plot's frame, title (what was run: the program, its file and the model) and y axis
/// name.
fn write_header(
    out: &mut String,
    first_result: Option<&Variant>,
    metric: usize,
    first_key: &str,
    y_unit: &str,
) {
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{W}\" height=\"{H}\" fill=\"white\"/>"
    );
    // The title names what was run: the program, its file and the model.
    let what = first_result.map_or(String::new(), |r| {
        let program = if r.label.is_empty() {
            String::new()
        } else {
            format!("`{}` in ", r.label)
        };
        format!("{program}{} on {}", r.file, r.arch)
    });
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">{} against {}</text>",
        W / 2.0,
        esc(METRICS[metric]),
        esc(first_key)
    );
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"33\" text-anchor=\"middle\">{}</text>",
        W / 2.0,
        esc(&what)
    );
    // The y axis' name and unit, turned along the axis.
    let _ = writeln!(
        out,
        "<text x=\"14\" y=\"{mid}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {mid})\">{}</text>",
        esc(&with_unit(METRICS[metric], y_unit)),
        mid = TOP + (H - TOP - BOTTOM) / 2.0
    );
}
