//! `shadersim sweep`: grid order and size, parallel runs equal to serial
//! ones, usage errors and the SVG plot.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shadersim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shadersim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs")
}

fn stdout(args: &[&str]) -> String {
    let o = shadersim(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

const BASE: &[&str] = &[
    "sweep",
    "tests/programs/samples8.s",
    "--arch",
    "gfx900",
    "--set",
    "stage=pixel",
    "--set",
    "waves=64",
    // Flat memory: every vector request takes vmem_latency, which the
    // sweeps below vary.
    "--set",
    "memory=flat",
];

fn sweep(extra: &[&str]) -> String {
    let mut args = BASE.to_vec();
    args.extend_from_slice(extra);
    stdout(&args)
}

/// Three latencies times two wave counts: six rows, the first key slowest.
#[test]
fn grid_order_and_count() {
    let csv = sweep(&[
        "--vary",
        "vmem_latency=100..300:100",
        "--vary",
        "waves=32,64",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("vmem_latency,waves,clocks,"));
    assert!(lines[0].ends_with(",occupancy_limiter,bottleneck"));
    assert_eq!(lines.len(), 1 + 6);
    let keys: Vec<(&str, &str)> = lines[1..]
        .iter()
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("100", "32"),
            ("100", "64"),
            ("200", "32"),
            ("200", "64"),
            ("300", "32"),
            ("300", "64")
        ]
    );
    // The varied `waves` wins over the fixed `--set waves=64`: a run of 32
    // waves takes fewer clocks than one of 64 on the same model.
    let clocks = |l: &str| l.split(',').nth(2).unwrap().parse::<u64>().unwrap();
    assert!(clocks(lines[1]) < clocks(lines[2]));
}

/// A point of the sweep is the analysis of the same settings.
#[test]
fn a_point_is_the_analyze_run() {
    let v: serde_json::Value =
        serde_json::from_str(&sweep(&["--vary", "vmem_latency=250", "--format", "json"])).unwrap();
    let row = &v[0];
    assert_eq!(row["point"]["vmem_latency"], 250.0);
    let a: serde_json::Value = serde_json::from_str(&stdout(&[
        "analyze",
        "tests/programs/samples8.s",
        "--arch",
        "gfx900",
        "--set",
        "stage=pixel",
        "--set",
        "waves=64",
        "--set",
        "memory=flat",
        "--set",
        "vmem_latency=250",
        "--no-latency-search",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(row["clocks"], a["clocks"].as_f64().unwrap());
    assert_eq!(row["throughput"], a["throughput"]["per_clock"]);
    assert_eq!(row["bottleneck"], a["bottleneck"]["kind"]);
    assert_eq!(row["vmem_utilization"], a["utilization"]["vmem"]);
}

#[test]
fn parallel_equals_serial() {
    let vary = ["--vary", "vmem_latency=0..950:50", "--vary", "waves=16,48"];
    let serial = sweep(&[&vary[..], &["--jobs", "1"]].concat());
    let parallel = sweep(&vary);
    assert_eq!(serial, parallel);
    assert_eq!(serial.lines().count(), 1 + 40);
    let json1 = sweep(&[&vary[..], &["--jobs", "1", "--format", "json"]].concat());
    let json2 = sweep(&[&vary[..], &["--jobs", "2", "--format", "json"]].concat());
    assert_eq!(json1, json2);
}

#[test]
fn bad_vary_is_a_usage_error() {
    for (vary, why) in [
        ("vmem_latency", "expected KEY=V1,V2"),
        ("vmem_latency=5..1:1", "the range is empty"),
        ("vmem_latency=0..10:0", "the step must be positive"),
        ("vmem_latency=0..x:1", "`x` is not a number"),
        ("vmem_latency=1,,2", "empty value"),
    ] {
        let mut args = BASE.to_vec();
        args.extend_from_slice(&["--vary", vary]);
        let o = shadersim(&args);
        assert_eq!(o.status.code(), Some(2), "{vary}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("--vary {vary}")), "{err}");
        assert!(err.contains(why), "{err}");
    }
    // An unknown key is the model's error, also usage.
    let mut args = BASE.to_vec();
    args.extend_from_slice(&["--vary", "no_such_key=1,2"]);
    let o = shadersim(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no_such_key"));
    let mut args = BASE.to_vec();
    args.extend_from_slice(&["--vary", "waves=1,2", "--metric", "speed"]);
    assert_eq!(shadersim(&args).status.code(), Some(2));
}

#[test]
fn svg_plot_has_a_polyline_per_series() {
    let dir = std::env::temp_dir().join(format!("shadersim-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("plot.svg");
    sweep(&[
        "--vary",
        "vmem_latency=0..400:100",
        "--vary",
        "waves=16,32,48",
        "--metric",
        "clocks",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches("<polyline").count(), 3);
    assert!(text.contains("waves=48"));
    assert!(!text.contains("<script"));
    // Every polyline has one point per value of the first key.
    for line in text.lines().filter(|l| l.starts_with("<polyline")) {
        let points = line.split("points=\"").nth(1).unwrap();
        assert_eq!(points.split(' ').count(), 5, "{line}");
    }
    // Tags balance: every opened element is closed or self-closing.
    let opens = text.matches('<').count();
    let closes = text.matches("/>").count() + text.matches("</").count() * 2;
    assert_eq!(opens, closes, "unbalanced tags");
}
