//! A launch whose wave would pass the trace bound: one loop runs fewer trips and the kernel
//! time adds the others at the steady rate (`crate::loop_sample` in the engine). Kernels
//! compiled in place (`tests/cli/data/kernel_time/`, clang-22; skipped without it outside `CI`).

use crate::command;
use crate::kernel_time::f;
use serde_json::Value;
use shadersim_testkit::tools::have_clang_22;

/// `analyze KERNEL --hints HINTS ARGS --no-latency-search --format json` in the kernels'
/// directory (the kernel-time tests' runner).
fn report(kernel: &str, hints: &str, args: &[&str]) -> Value {
    let mut all = vec!["--hints", hints];
    all.extend_from_slice(args);
    crate::kernel_time::report(kernel, &all)
}

#[test]
fn a_loop_past_the_bound_is_sampled_and_its_other_trips_added() {
    if !have_clang_22() {
        return;
    }
    for arch in ["gfx900", "gfx1100", "gfx942"] {
        let launch = [
            "--arch", arch, "--grid", "1", "--block", "64", "--arg", "K=1000",
        ];
        // The whole loop, under a bound it fits (1000 trips of a few instructions each).
        let whole = report("alu_loop.cl", "bound_1m.toml", &launch);
        assert!(whole["kernel_time"]["sampled_loop"].is_null(), "{arch}");
        // Under 2000 instructions the loop is sampled. A trip is the same instructions every
        // time with nothing to wait on, so the run's clocks are C(k) = a + b k for k >= 1 trips,
        // and C(k2) + (1000 - k2) (C(k2) - C(k1)) / (k2 - k1) = a + 1000 b: the whole run's
        // clocks, to the rounding of the per-trip rate.
        let sampled = report("alu_loop.cl", "bound_2000.toml", &launch);
        let k = &sampled["kernel_time"];
        let s = &k["sampled_loop"];
        assert_eq!(s["trips"], 1000, "{arch}: {s}");
        let (k2, k1) = (f(&s["simulated_trips"]), f(&s["shorter_trips"]));
        assert!(
            (2.0..1000.0).contains(&k2) && (1.0..k2).contains(&k1),
            "{arch}: {s}"
        );
        let whole_clocks = f(&whole["kernel_time"]["cu_clocks"]);
        let sampled_clocks = f(&k["cu_clocks"]);
        assert!(
            (sampled_clocks - whole_clocks).abs() <= 1.0,
            "{arch}: sampled {sampled_clocks} against whole {whole_clocks}"
        );
        // The rate is the two runs' difference over their trips'.
        let per_trip = (f(&k["simulated_clocks"]) - f(&s["shorter_clocks"])) / (k2 - k1);
        assert!(
            (f(&s["clocks_per_trip"]) - per_trip).abs() < 0.01,
            "{arch}: {s}"
        );
        // The report says what ran.
        let notes = sampled["notes"].to_string();
        assert!(notes.contains("makes 1000 trips"), "{arch}: {notes}");
        assert!(
            k["statement"]
                .as_str()
                .is_some_and(|t| t.contains("of its 1000 trips")),
            "{arch}: {k}"
        );
    }
}

#[test]
fn a_memory_loop_sampled_keeps_close_to_the_whole_run() {
    if !have_clang_22() {
        return;
    }
    // `column_sum` reads a new row every trip (2048 floats apart): after the first trips every
    // trip misses the same way, so the sampled kernel time stays within 2% of the whole
    // run's (the first trips' cold start is in both runs of the sample).
    let launch = [
        "--arch",
        "gfx900",
        "--grid",
        "4",
        "--block",
        "64",
        "--arg",
        "K=600",
        "--arg",
        "cols=2048",
    ];
    let whole = report("loop_k.cl", "bound_1m.toml", &launch);
    let sampled = report("loop_k.cl", "bound_2000.toml", &launch);
    assert!(!sampled["kernel_time"]["sampled_loop"].is_null());
    let (w, s) = (
        f(&whole["kernel_time"]["cu_clocks"]),
        f(&sampled["kernel_time"]["cu_clocks"]),
    );
    assert!((s / w - 1.0).abs() < 0.02, "sampled {s} against whole {w}");
}

#[test]
fn without_a_launch_the_bound_is_still_an_error() {
    if !have_clang_22() {
        return;
    }
    // No grid, no kernel time to give: the bound's error stands, naming the loop.
    let o = command()
        .args([
            "analyze",
            "alu_loop.cl",
            "--hints",
            "bound_2000.toml",
            "--arch",
            "gfx900",
            "--arg",
            "K=1000",
        ])
        .dir(crate::root().join("crates/cli/tests/cli/data/kernel_time"))
        .output();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("would exceed 2000 instructions in the loop"),
        "{err}"
    );
}

#[test]
fn a_launch_argument_of_millions_of_trips_is_counted_and_sampled() {
    if !have_clang_22() {
        return;
    }
    // `for (k = 0; k < K; k++)` with K = 5000000: the counter is counted in closed form (it was
    // left uncounted past a million trips, and the loop ran once), and the trace, 5000000 trips
    // of a dozen instructions, passes the default bound of 10 million, so the loop is sampled.
    let launch = [
        "--arch",
        "gfx942",
        "--grid",
        "4",
        "--block",
        "64",
        "--arg",
        "K=5000000",
        "--arg",
        "cols=2048",
    ];
    let r = crate::kernel_time::report("loop_k.cl", &launch);
    let s = &r["kernel_time"]["sampled_loop"];
    assert_eq!(s["trips"], 5_000_000, "{s}");
    assert!(f(&s["simulated_trips"]) < 5_000_000.0, "{s}");
}
