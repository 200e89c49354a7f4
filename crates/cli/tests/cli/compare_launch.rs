//! `compare` with the host's launch: the dispatch's time on each GPU, the same `analyze` gives,
//! decides the verdict, and the comparison lists what each run took by default (a loop that ran
//! once, the `--arg` that would run it), as `analyze` does.

use crate::json_of as json;
use crate::stdout_of as stdout;
use shadersim_testkit::tools::have_clang_22;

const FILE: &str = "tests/fixtures/src/opencl/row_blur.cl";
const GPUS: [&str; 2] = ["gfx1100", "gfx942"];

/// `analyze` or `compare` of `row_blur` with `args` after the common ones.
fn run(command: &str, arch: &str, args: &[&str], format: &str) -> Vec<String> {
    let mut a: Vec<String> = [
        command,
        FILE,
        "--function",
        "row_blur",
        "--arch",
        arch,
        "--block",
        "16x16",
        "--no-latency-search",
        "--format",
        format,
    ]
    .map(str::to_string)
    .to_vec();
    a.extend(args.iter().map(|s| s.to_string()));
    a
}

fn refs(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

/// With a grid, each variant's kernel time is the one `analyze` predicts for that GPU and launch,
/// the delta is their ratio (the second's over the first's, rounded as the deltas are), the table has a `kernel time` row, and the verdict names the faster GPU with its time
/// first. Without `--arg radius`, both runs' defaults say that the loop ran once and that
/// `--arg radius=N` would run it.
#[test]
fn a_launch_compares_the_dispatch_times_analyze_predicts() {
    if !have_clang_22() {
        return;
    }
    let grid = ["--global", "1024x1024"];
    let times: Vec<f64> = GPUS
        .iter()
        .map(|gpu| {
            json(&refs(&run("analyze", gpu, &grid, "json")))["kernel_time_us"]
                .as_f64()
                .expect("a kernel time with a grid")
        })
        .collect();
    let both = GPUS.join(",");
    let c = json(&refs(&run("compare", &both, &grid, "json")));
    for (i, t) in times.iter().enumerate() {
        assert_eq!(c["variants"][i]["kernel_time_us"].as_f64(), Some(*t));
        let defaults = c["variants"][i]["defaults"].as_array().unwrap();
        assert!(
            defaults.iter().any(
                |d| d.as_str().unwrap().contains("ran its body once by default")
                    && d.as_str().unwrap().contains("`--arg radius=N`")
            ),
            "{defaults:?}"
        );
    }
    let ratio = shadersim_report::compare_view::round(times[1] / times[0]);
    assert_eq!(c["deltas"][0]["kernel_time_ratio"].as_f64(), Some(ratio));
    let (win, lose, tw, tl) = if times[1] < times[0] {
        (GPUS[1], GPUS[0], times[1], times[0])
    } else {
        (GPUS[0], GPUS[1], times[0], times[1])
    };
    let verdict = c["verdicts"][0].as_str().unwrap();
    assert!(
        verdict.starts_with(&format!("{win} runs the dispatch "))
            && verdict.contains(&format!("as fast as {lose} ({tw:.2} us vs {tl:.2} us")),
        "{verdict}"
    );
    let text = stdout(&refs(&run("compare", &both, &grid, "text")));
    assert!(text.contains("\n  kernel time "), "{text}");
    assert!(text.contains("defaults of gfx1100:\n"), "{text}");
    assert!(!text.contains("kernel time: none"), "{text}");
}

/// Without a grid there is no kernel time: the text says so and what would give one, the
/// verdict compares throughput, and the JSON's times and ratio are null. With `--arg radius=4`
/// the loop runs 2 x 4 + 1 = 9 trips and no default suggests `--arg` any more.
#[test]
fn no_grid_says_what_is_missing_and_an_argument_ends_its_default() {
    if !have_clang_22() {
        return;
    }
    let both = GPUS.join(",");
    let text = stdout(&refs(&run("compare", &both, &[], "text")));
    assert!(
        text.contains("kernel time: none, the launch gave no grid"),
        "{text}"
    );
    assert!(text.contains("more threads per second than"), "{text}");
    let c = json(&refs(&run("compare", &both, &[], "json")));
    assert!(c["variants"][0]["kernel_time_us"].is_null());
    assert!(c["deltas"][0]["kernel_time_ratio"].is_null());
    let c = json(&refs(&run(
        "compare",
        &both,
        &["--global", "1024x1024", "--arg", "radius=4"],
        "json",
    )));
    for v in c["variants"].as_array().unwrap() {
        let defaults: Vec<&str> = v["defaults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        assert!(
            !defaults.iter().any(|d| d.contains("--arg radius")),
            "{defaults:?}"
        );
        assert!(
            defaults
                .iter()
                .any(|d| d.contains(": 9 iterations inferred")),
            "{defaults:?}"
        );
    }
}
