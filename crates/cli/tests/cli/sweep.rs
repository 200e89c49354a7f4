//! `shadersim sweep`: grid order and size, parallel runs equal to serial
//! ones, usage errors and the SVG plot.

use crate::shadersim;
use crate::stdout_of as stdout;

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
    // The run is texture-bound: eight rgba8 trilinear samples, 16
    // (image_filtered_32bit_clocks) x 2 (trilinear_factor) = 32 clocks each
    // per wave64 on gfx900, keep the one texture path busy from the first
    // sample to the last. 32 more waves add exactly 32 x 8 x 32 = 8192
    // clocks, and 100 more clocks of flat vmem_latency move only the last
    // sample's return: exactly 100 clocks more.
    for pair in lines[1..].chunks(2) {
        assert_eq!(clocks(pair[1]) - clocks(pair[0]), 32 * 8 * 32, "{pair:?}");
    }
    for i in [1, 2] {
        assert_eq!(clocks(lines[i + 2]) - clocks(lines[i]), 100);
        assert_eq!(clocks(lines[i + 4]) - clocks(lines[i + 2]), 100);
    }
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
    // Beside the consistency check, a derived value: the run is
    // texture-bound (64 waves x 8 samples x 32 clocks = 16384 clocks of
    // path work), so the latency moves only the last return, 150 clocks
    // later at 250 than at 100. What follows the return waits for its
    // SIMD's issue turn, which comes every 4 clocks (issue_interval), so
    // the end moves by 150 rounded to a whole number of turns: 148 or 152
    // (the 100-clock steps of grid_order_and_count are whole turns).
    let v100: serde_json::Value =
        serde_json::from_str(&sweep(&["--vary", "vmem_latency=100", "--format", "json"])).unwrap();
    let c = |v: &serde_json::Value| v["clocks"].as_f64().unwrap();
    let moved = c(row) - c(&v100[0]);
    assert!(moved == 148.0 || moved == 152.0, "{moved}");
    assert!(c(row) > 16384.0 + 250.0, "{}", c(row));
    assert_eq!(row["bottleneck"], "VMEM rate");
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
    let err = String::from_utf8_lossy(&o.stderr);
    // The error names the option the user wrote, not the `--set` it became.
    assert!(
        err.starts_with("error: --vary no_such_key: no such parameter"),
        "{err}"
    );
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
    // The plotted clocks follow the texture-bound rule (see
    // grid_order_and_count): along a series, each 100 clocks of latency
    // adds exactly 100 clocks; from one series to the next, 16 more waves
    // add 16 x 8 samples x 32 clocks = 4096. The y axis maps clocks to
    // pixels linearly between its lowest label (0) and its highest: the
    // points, rounded to 0.1 pixel, must sit at those distances.
    let labels: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| l.starts_with("<text") && l.contains("text-anchor=\"end\""))
        .map(|l| {
            let y = l.split("y=\"").nth(1).unwrap().split('"').next().unwrap();
            let v = l.split('>').nth(1).unwrap().split('<').next().unwrap();
            (y.parse().unwrap(), v.parse().unwrap())
        })
        .collect();
    let (y0, v0) = labels[0];
    let (y1, v1) = labels[labels.len() - 1];
    let px_per_clock = (y0 - y1) / (v1 - v0);
    let series: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| l.starts_with("<polyline"))
        .map(|l| {
            let points = l
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            points
                .split(' ')
                .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
                .collect()
        })
        .collect();
    for ys in &series {
        for w in ys.windows(2) {
            assert!((w[0] - w[1] - 100.0 * px_per_clock).abs() < 0.11, "{ys:?}");
        }
    }
    for pair in series.windows(2) {
        assert!(
            (pair[0][0] - pair[1][0] - 4096.0 * px_per_clock).abs() < 0.11,
            "{series:?}"
        );
    }
    // Tags balance: every opened element is closed or self-closing.
    let opens = text.matches('<').count();
    let closes = text.matches("/>").count() + text.matches("</").count() * 2;
    assert_eq!(opens, closes, "unbalanced tags");
}

/// A point the model cannot run is marked in its row; the rest of the grid
/// runs (it used to abort the whole sweep). gfx900 has 10 wave slots per
/// SIMD, so `waves_per_simd = 11` cannot be.
#[test]
fn an_impossible_point_is_marked_not_fatal() {
    let o = shadersim(&[BASE, &["--vary", "waves_per_simd=1,11"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = String::from_utf8(o.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(
        rows[1].starts_with("1,") && !rows[1].contains("error"),
        "{csv}"
    );
    assert!(
        rows[2].starts_with("11,,,")
            && rows[2].ends_with(
                "error: --vary: `waves_per_simd` must be a whole number from 1 to 10 (the model's wave slots per SIMD)"
            ),
        "{csv}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 of 2 grid points could not run"));
    // When no point runs, the grid is an error.
    let o = shadersim(&[BASE, &["--vary", "waves_per_simd=11,12"]].concat());
    assert_eq!(o.status.code(), Some(2));
}

/// A varied key none of whose values changes a number gets a warning with the run's own note
/// that says why: `vmem_latency` while the cache hierarchy serves the samples (the note of
/// `analyze --set vmem_latency=...`). A key that changes the rows (`waves_per_simd`) gets none.
#[test]
fn a_key_that_changes_nothing_is_warned_about() {
    // BASE without its `memory=flat`: the hierarchy serves the samples.
    let o = shadersim(
        &[
            &BASE[..BASE.len() - 2],
            &[
                "--vary",
                "vmem_latency=100,900",
                "--vary",
                "waves_per_simd=1,4",
            ],
        ]
        .concat(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: --vary vmem_latency: none of its 2 values changed a number: vmem_latency = 100 applies only to memory ops the cache hierarchy does not serve"),
        "{err}"
    );
    assert!(!err.contains("--vary waves_per_simd"), "{err}");
}

/// With a launch, each row's `kernel_time_us` is the time `analyze` gives for that point's
/// launch (a vector add of 2^20 work-items on an MI300X in blocks of 64 and of 256); without a
/// grid the column is empty.
#[test]
fn a_launch_gives_each_point_its_kernel_time() {
    if !shadersim_testkit::tools::have_clang_22() {
        return;
    }
    let file = "crates/cli/tests/cli/data/kernel_time/vadd.cl";
    let common = ["--arch", "mi300x", "--global", "1048576"];
    let rows: serde_json::Value = serde_json::from_str(&stdout(
        &[
            &["sweep", file, "--vary", "block=64,256", "--format", "json"][..],
            &common[..],
        ]
        .concat(),
    ))
    .unwrap();
    for (i, block) in ["64", "256"].iter().enumerate() {
        let analyze: serde_json::Value = serde_json::from_str(&stdout(
            &[
                &["analyze", file, "--block", block, "--no-latency-search"][..],
                &common[..],
                &["--format", "json"][..],
            ]
            .concat(),
        ))
        .unwrap();
        assert_eq!(
            rows[i]["kernel_time_us"], analyze["kernel_time_us"],
            "block {block}"
        );
        assert!(rows[i]["kernel_time_us"].as_f64().unwrap() > 2.0);
    }
    let csv = stdout(&["sweep", file, "--arch", "mi300x", "--vary", "block=64,256"]);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "kernel_time_us").unwrap();
    for line in csv.lines().skip(1) {
        assert_eq!(line.split(',').nth(at), Some(""), "{line}");
    }
}
