//! Unit tests of the points file, the readings, the conversions and the summaries.

use super::*;

fn point(unit: &str, kind: &str, extra: &str) -> String {
    let basis = if matches!(unit, "ns" | "TFLOPS" | "GB/s") {
        "assumed"
    } else {
        "none"
    };
    format!(
        r#"[[point]]
id = "p"
gpu = "g"
model = "rdna2"
quantity = "q"
value = 100.0
unit = "{unit}"
clock_mhz = 2000.0
clock = "boost"
clock_basis = "{basis}"
parameters = ""
source = "s"
program = "x.s"
{extra}
[point.measure]
kind = "{kind}"
loop_line = 10
runs = [10, 30]
per_iteration = 2.0
"#
    )
}

#[test]
fn latency_reading_and_ns() {
    let f = PointsFile::parse(&point("ns", "clocks_per_unit", "")).unwrap();
    let p = &f.point[0];
    // 20 more iterations x 2 loads = 40 loads took 9000 - 1000 = 8000 clocks: 200 clocks
    // per load; at 2000 MHz a clock is 0.5 ns, so 100 ns.
    let runs = [
        RunOutcome {
            clocks: 1000,
            waves: 1,
        },
        RunOutcome {
            clocks: 9000,
            waves: 1,
        },
    ];
    let r = reading(&p.measure, runs).unwrap();
    assert_eq!(r, 200.0);
    assert_eq!(convert(p, r), 100.0);
}

#[test]
fn rate_reading_and_tflops() {
    let f = PointsFile::parse(&point("TFLOPS", "units_per_clock", "gpu_cus = 80")).unwrap();
    let p = &f.point[0];
    // 64 waves x 2 units x 20 iterations = 2560 units in 20 more clocks: 128 per clock per
    // CU, the RDNA 2 FP32 FMA peak (2 SIMD32 x 32 lanes x 2 FLOPs); x 80 CUs x 2000 MHz
    // = 20.48 TFLOPS.
    let runs = [
        RunOutcome {
            clocks: 100,
            waves: 64,
        },
        RunOutcome {
            clocks: 120,
            waves: 64,
        },
    ];
    let r = reading(&p.measure, runs).unwrap();
    assert_eq!(r, 128.0);
    assert!((convert(p, r) - 20.48).abs() < 1e-9);
}

#[test]
fn gbps_conversion() {
    let f = PointsFile::parse(&point("GB/s", "units_per_clock", "gpu_cus = 80")).unwrap();
    // 2.84 bytes per clock per CU x 80 CUs x 2000 MHz / 1000 = 454.4 GB/s.
    assert!((convert(&f.point[0], 2.84) - 454.4).abs() < 1e-9);
}

#[test]
fn bad_files_are_positioned_errors() {
    let e = PointsFile::parse("[[point]]\nid = 3\n").unwrap_err();
    assert!(matches!(e, ValidateError::Parse { line: 2, .. }), "{e}");
    let e = PointsFile::parse(&point("ns", "units_per_clock", "")).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    let e = PointsFile::parse(&point("TFLOPS", "units_per_clock", "")).unwrap_err();
    assert!(e.to_string().contains("gpu_cus"), "{e}");
    let text = point("ns", "clocks_per_unit", "").replace("\"assumed\"", "\"none\"");
    let e = PointsFile::parse(&text).unwrap_err();
    assert!(e.to_string().contains("needs a clock"), "{e}");
    let e = PointsFile::parse(&point("ns", "clocks_per_unit", "level = \"l9\"")).unwrap_err();
    assert!(e.to_string().contains("level `l9`"), "{e}");
}

#[test]
fn a_run_simulates_the_model_at_the_points_clock() {
    // ns, TFLOPS and GB/s convert at clock_mhz (2000 here), so the run sets it; a value
    // in clocks needs no clock and sets nothing.
    let f = PointsFile::parse(&point("ns", "clocks_per_unit", "")).unwrap();
    assert_eq!(
        f.plans()[0].sets,
        [("clock_mhz".to_string(), "2000".to_string())]
    );
    let f = PointsFile::parse(&point("clocks", "clocks_per_unit", "")).unwrap();
    assert!(f.plans()[0].sets.is_empty());
}

#[test]
fn summary_median_and_mean() {
    let rows: Vec<Row> = [0.1, -0.3, 0.05]
        .iter()
        .map(|e| Row {
            id: String::new(),
            gpu: "g".into(),
            model: "m".into(),
            quantity: String::new(),
            unit: "ns",
            clock_mhz: 1.0,
            clock_basis: ClockBasis::Assumed,
            level: None,
            measured: 1.0,
            simulated: Some(1.0 + e),
            error: Some(*e),
            reading: None,
            source: String::new(),
            note: String::new(),
            unexplained: false,
            calibrates: None,
            kind: "latency",
        })
        .collect();
    let refs: Vec<&Row> = rows.iter().collect();
    let s = summarize("m", &refs);
    // |errors| 0.05, 0.1, 0.3: median 0.1, mean 0.15, one above 25%.
    assert!((s.median_abs_error - 0.1).abs() < 1e-12);
    assert!((s.mean_abs_error - 0.15).abs() < 1e-12);
    assert_eq!(s.above_25_percent, 1);
}

fn outcome(clocks: u64) -> RunOutcome {
    RunOutcome { clocks, waves: 1 }
}

#[test]
fn level_coverage_counts_points_and_states_gaps() {
    // Two latency points of rdna2's L2 (one sets the model, one checks it) and a gap for that
    // level and for rdna4's DRAM, which no point names.
    let set = point(
        "ns",
        "clocks_per_unit",
        "level = \"l2\"\ncalibrates = \"rdna2.l2_latency\"",
    );
    let check =
        point("ns", "clocks_per_unit", "level = \"l2\"").replace("id = \"p\"", "id = \"q\"");
    let gaps = "[[gap]]\nmodel = \"rdna2\"\nlevel = \"l2\"\nreason = \"one check\"\n\
                [[gap]]\nmodel = \"rdna4\"\nlevel = \"dram\"\nreason = \"none published\"\n";
    let f = PointsFile::parse(&format!("{set}\n{check}\n{gaps}")).unwrap();
    // Both points read 200 clocks a load = 100 ns at 2000 MHz (latency_reading_and_ns); the
    // check was published as 100 ns, so its error is 0.
    let runs = Some([outcome(1000), outcome(9000)]);
    let r = report(&f, &[runs, runs]);
    assert_eq!(r.levels.len(), 2);
    let l2 = &r.levels[0];
    assert_eq!((l2.model.as_str(), l2.level.as_str()), ("rdna2", "l2"));
    assert_eq!((l2.calibration, l2.independent), (1, 1));
    assert_eq!(l2.independent_median_abs_error, Some(0.0));
    assert_eq!(l2.reason.as_deref(), Some("one check"));
    let dram = &r.levels[1];
    assert_eq!((dram.calibration, dram.independent), (0, 0));
    assert_eq!(dram.independent_median_abs_error, None);
    assert!(r.to_text().contains("none published"));
}

#[test]
fn a_gap_needs_a_known_level_a_reason_and_no_twin() {
    let gap = |level: &str, reason: &str| {
        format!("[[gap]]\nmodel = \"rdna2\"\nlevel = \"{level}\"\nreason = \"{reason}\"\n")
    };
    let err = |text: String| PointsFile::parse(&text).unwrap_err().to_string();
    assert!(err(gap("l9", "x")).contains("level is none of"));
    assert!(err(gap("l2", " ")).contains("needs its reason"));
    assert!(err(gap("l2", "x") + &gap("l2", "y")).contains("a second gap"));
}

#[test]
fn files_joined_are_checked_as_one() {
    // A folder of points files: ids must be unique over all of them, and a ratio may name a
    // point of another file.
    let a = PointsFile::parse_alone(&point("clocks", "clocks_per_unit", "")).unwrap();
    let b = PointsFile::parse_alone(&point("clocks", "clocks_per_unit", "")).unwrap();
    let err = PointsFile::join(vec![a.clone(), b])
        .unwrap_err()
        .to_string();
    assert!(err.contains("a second point has this id"), "{err}");
    let ratio = point("ratio", "clocks_per_unit", "relative_to = \"p\"")
        .replace("id = \"p\"", "id = \"r\"");
    let c = PointsFile::parse_alone(&ratio).unwrap();
    assert_eq!(PointsFile::join(vec![a, c]).unwrap().point.len(), 2);
}
