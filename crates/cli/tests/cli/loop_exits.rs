//! Issue 47 item 1: a loop whose exit test sits in the middle of its body (Rodinia
//! pathfinder's `if (i == iteration - 1) break;` between two barriers) simulates end to end
//! on gfx900, gfx1100 and gfx942: its count comes from the launch (`--arg`) or from a
//! one-line hint keyed by the `for` line, and every block of the body runs as the source
//! says. `step_relax.cl` is pathfinder's shape, written here.

use crate::json_of as json;
use crate::shadersim;
use shadersim_testkit::tools::have_clang_22;

const FILE: &str = "tests/fixtures/src/opencl/step_relax.cl";
const GPUS: [&str; 3] = ["gfx900", "gfx1100", "gfx942"];

/// Executions per wave of the kernel's three `s_barrier`s (the one before the loop first,
/// then the loop's two, fewer first: LLVM places the copy's barrier, in the latch, before or
/// after the relaxation's) and of its `v_min3_i32` (the relaxation).
fn counts(v: &serde_json::Value) -> ([u64; 3], u64) {
    let instrs = v["instructions"].as_array().unwrap();
    let of = |what: &str| -> Vec<u64> {
        instrs
            .iter()
            .filter(|i| i["text"].as_str().unwrap().starts_with(what))
            .map(|i| i["executions"].as_u64().unwrap())
            .collect()
    };
    let barriers = of("s_barrier");
    let relax = of("v_min3_i32");
    assert_eq!(
        (barriers.len(), relax.len()),
        (3, 1),
        "{barriers:?} {relax:?}"
    );
    let mut in_loop = [barriers[1], barriers[2]];
    in_loop.sort_unstable();
    ([barriers[0], in_loop[0], in_loop[1]], relax[0])
}

#[test]
fn the_launchs_step_count_or_a_one_line_hint_runs_every_block_of_the_loop() {
    if !have_clang_22() {
        return;
    }
    // The source's loop for steps = N: N relaxations, each followed by the first barrier;
    // the break on the last pass skips the copy and the second barrier, so N - 1 of those;
    // the barrier before the loop once. The loop's header runs N times (no peeled pass).
    let n = 6u64;
    let hints =
        std::env::temp_dir().join(format!("shadersim-loop_exits-{}.toml", std::process::id()));
    // Line 20 is the `for (int s = 0; s < steps; ++s)` line.
    std::fs::write(
        &hints,
        "[[loop]]\nsource = \"step_relax.cl:20\"\niterations = 6\n",
    )
    .unwrap();
    let hints = hints.to_str().unwrap();
    for gpu in GPUS {
        // No hints: the bound is unknown, the loop runs its body once by default (two header
        // executions: the exit test is mid-body) and the run ends.
        let v = json(&[
            "analyze",
            FILE,
            "--arch",
            gpu,
            "--no-latency-search",
            "--format",
            "json",
        ]);
        assert_eq!(
            v["defaults"]["loops_once"].as_array().unwrap().len(),
            1,
            "{gpu}"
        );
        // Both exit tests (`s < steps` and `s == steps - 1`) read `steps`, the kernel's fourth
        // argument, and nothing else the launch could give (`cols` moves an address only):
        // the report names the one `--arg` that fixes the count.
        let header = &v["defaults"]["loops_once"][0];
        let arguments = &v["defaults"]["loop_arguments"];
        assert_eq!(
            arguments,
            &serde_json::json!([{ "line": header, "arguments": ["steps"] }]),
            "{gpu}"
        );
        // `cost[s * cols + x]` moves by `4 x cols` bytes a pass: the reader names the argument
        // in the address and in why it took the default stride.
        let cost = v["defaults"]["addresses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["iteration_stride_from"] == "default")
            .unwrap_or_else(|| panic!("{gpu}: no default iteration stride"));
        assert!(
            cost["pattern_reason"]
                .as_str()
                .unwrap()
                .contains("x the kernel argument `cols`"),
            "{gpu}: {cost}"
        );
        assert!(
            cost["iteration_stride_reason"]
                .as_str()
                .unwrap()
                .ends_with("not derived; give `--arg cols=N`"),
            "{gpu}: {cost}"
        );
        let text = v["defaults"]["text"][0].as_str().unwrap();
        assert!(
            text.ends_with(
                "give iterations in a hints file, or the kernel argument its exit test reads: `--arg steps=N`"
            ),
            "{gpu}: {text}"
        );
        // The launch gives `steps`: the count is inferred from the exit test.
        let arg = format!("steps={n}");
        let v = json(&[
            "analyze",
            FILE,
            "--arch",
            gpu,
            "--arg",
            &arg,
            "--no-latency-search",
            "--format",
            "json",
        ]);
        let inferred = v["defaults"]["loops_inferred"].as_array().unwrap();
        assert_eq!(inferred.len(), 1, "{gpu}: {v}");
        assert_eq!(
            v["defaults"]["loop_arguments"],
            serde_json::json!([]),
            "{gpu}"
        );
        assert_eq!(inferred[0]["iterations"], n, "{gpu}: {inferred:?}");
        assert_eq!(counts(&v), ([1, n - 1, n], n), "{gpu} --arg");
        // A one-line hint keyed by the `for` line: the same counts.
        let v = json(&[
            "analyze",
            FILE,
            "--arch",
            gpu,
            "--hints",
            hints,
            "--no-latency-search",
            "--format",
            "json",
        ]);
        assert!(
            v["defaults"]["loops_once"].as_array().unwrap().is_empty(),
            "{gpu}"
        );
        assert_eq!(counts(&v), ([1, n - 1, n], n), "{gpu} hint");
    }
    let _ = std::fs::remove_file(hints);
}

#[test]
fn hints_takes_the_defines_analyze_compiles_with() {
    if !have_clang_22() {
        return;
    }
    // Rodinia's hotspot.cl needs `-D BLOCK_SIZE=16`; without it the template could not be
    // written for the program `analyze -D` runs. Reduced: a kernel that needs STEP.
    let dir = tempfile::tempdir().unwrap();
    let cl = dir.path().join("strided.cl");
    std::fs::write(
        &cl,
        "kernel void strided(global int *a, int n) {\n    for (int i = 0; i < n; ++i)\n        a[i * STEP] += 1;\n}\n",
    )
    .unwrap();
    let cl = cl.to_str().unwrap();
    let o = shadersim(&["hints", cl, "--arch", "gfx1100", "--by-source"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("STEP"));
    let o = shadersim(&[
        "hints",
        cl,
        "--arch",
        "gfx1100",
        "--by-source",
        "-D",
        "STEP=4",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.contains("[[loop]]\nsource = \"strided.cl:2\""),
        "{text}"
    );
}

/// Executions per wave of the kernel's `s_barrier`s, in program order.
fn barriers_in_order(v: &serde_json::Value) -> Vec<u64> {
    v["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["text"].as_str().unwrap().starts_with("s_barrier"))
        .map(|i| i["executions"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_break_kept_in_a_flag_register_is_counted_from_the_launch() {
    if !have_clang_22() {
        return;
    }
    // Rodinia hotspot's loop shape (heat_steps.cl, written here): `for (i = 0; i < iteration;
    // i++) { compute; barrier; if (i == iteration - 1) break; copy; barrier; }`. LLVM keeps
    // the break in an SGPR pair (`s_mov_b64 s[0:1], -1` before `s_cbranch_scc1` to the latch,
    // `s_mov_b64 s[0:1], 0` on the staying side) and the latch leaves on
    // `s_and_b64 vcc, exec, s[0:1]; s_cbranch_vccnz`. For iteration = N: the header runs N
    // times; the first barrier (before the break) N times, the second (after the copy) N - 1
    // times, the one before the loop once.
    let n = 5u64;
    let arg = format!("iteration={n}");
    for gpu in GPUS {
        let v = json(&[
            "analyze",
            "tests/fixtures/src/opencl/heat_steps.cl",
            "--arch",
            gpu,
            "--arg",
            &arg,
            "--no-latency-search",
            "--format",
            "json",
        ]);
        let inferred = v["defaults"]["loops_inferred"].as_array().unwrap();
        assert_eq!(inferred.len(), 1, "{gpu}: {v}");
        assert_eq!(inferred[0]["iterations"], n, "{gpu}: {inferred:?}");
        assert!(
            v["defaults"]["loops_once"].as_array().unwrap().is_empty(),
            "{gpu}"
        );
        let mut barriers = barriers_in_order(&v);
        assert_eq!(barriers.len(), 3, "{gpu}: {barriers:?}");
        // LLVM places the second barrier (in the latch's path) before or after the first.
        barriers[1..].sort_unstable();
        assert_eq!(barriers, [1, n - 1, n], "{gpu}");
    }
}

/// `analyze` of `row_blur.cl`'s `function` on `gpu` in 16x16 blocks over 1024x1024 work-items,
/// with `extra` arguments: the JSON report.
fn row_blur(gpu: &str, function: &str, extra: &[&str]) -> serde_json::Value {
    let mut a = vec![
        "analyze",
        "tests/fixtures/src/opencl/row_blur.cl",
        "--function",
        function,
        "--arch",
        gpu,
        "--block",
        "16x16",
        "--global",
        "1024x1024",
        "--no-latency-search",
        "--format",
        "json",
    ];
    a.extend_from_slice(extra);
    json(&a)
}

/// `row_blur` on `gpu` with every argument its addresses and loop read: `width` and `height`
/// 1024, `radius` 4.
fn row_blur_with_arguments(gpu: &str) -> serde_json::Value {
    row_blur(
        gpu,
        "row_blur",
        &[
            "--arg",
            "width=1024",
            "--arg",
            "height=1024",
            "--arg",
            "radius=4",
        ],
    )
}

/// `row_blur.cl`: a loop from `-radius` to `radius` is counted down from `(radius << 1) | 1`.
/// Without `--arg` it runs once and the report names `radius`, the one argument its exit test
/// reads (through the `s_or` the address reader does not follow); with `--arg radius=4` it runs
/// 2 x 4 + 1 = 9 times. `row_chase`'s loop ends on loaded data: no argument is named, though
/// its address reads `cols`.
#[test]
fn a_loop_counted_from_an_argument_names_it_and_a_data_bound_loop_names_none() {
    if !have_clang_22() {
        return;
    }
    for gpu in GPUS {
        let v = row_blur(gpu, "row_blur", &[]);
        let header = &v["defaults"]["loops_once"][0];
        assert_eq!(
            v["defaults"]["loop_arguments"],
            serde_json::json!([{ "line": header, "arguments": ["radius"] }]),
            "{gpu}"
        );
        let v = row_blur(gpu, "row_blur", &["--arg", "radius=4"]);
        let inferred = v["defaults"]["loops_inferred"].as_array().unwrap();
        assert_eq!(inferred.len(), 1, "{gpu}: {inferred:?}");
        assert_eq!(inferred[0]["iterations"], 9, "{gpu}: {inferred:?}");
        let v = row_blur(gpu, "row_chase", &[]);
        assert_eq!(
            v["defaults"]["loops_once"].as_array().unwrap().len(),
            1,
            "{gpu}"
        );
        assert_eq!(
            v["defaults"]["loop_arguments"],
            serde_json::json!([]),
            "{gpu}"
        );
    }
}

/// `row_blur.cl`'s tap load reads `in[y * width + clamp(x + d, 0, width - 1)]`: the clamp
/// (`v_maxmin_i32` on gfx1100, `v_max_i32` then `v_min_i32` on gfx900 and gfx942) bounds one
/// lane-varying value by uniform ones, so the address is read as that value inside its bounds:
/// derived from the code, 4 bytes a lane and, `d` stepping by one, 4 bytes an iteration, and the
/// reason names the clamp (lanes past the bounds read the edge).
#[test]
fn a_clamped_index_is_followed_inside_its_bounds() {
    if !have_clang_22() {
        return;
    }
    for gpu in GPUS {
        let v = row_blur_with_arguments(gpu);
        let taps: Vec<&serde_json::Value> = v["defaults"]["addresses"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["iteration_stride_from"] == "code")
            .collect();
        assert_eq!(taps.len(), 1, "{gpu}: {:?}", v["defaults"]["addresses"]);
        let tap = taps[0];
        assert_eq!(tap["pattern_from"], "code", "{gpu}");
        assert_eq!(tap["iteration_stride"], 4, "{gpu}");
        let reason = tap["pattern_reason"].as_str().unwrap();
        assert!(
            reason.contains("4 x work-item id (x) + 4096 x work-item id (y)")
                && reason.contains("4 x iteration of the loop")
                && reason.contains("(clamped by `v_m")
                && reason.contains("taken within its bounds"),
            "{gpu}: {reason}"
        );
    }
}

/// `row_blur.cl`'s store after the loop: the compiler's skip of the loop when no lane is left
/// (`s_cbranch_execz` straight to the store's block) brings the address register there from
/// before its definitions, but on that path EXEC is zero and no lane stores. So the value the
/// lanes use is the one both other paths agree on: `out[y * width + x]`, derived from the code
/// (4 bytes a lane, 4096 a row of the 16x16 block), where it was "differs by path".
#[test]
fn a_value_reaching_only_over_an_exec_zero_skip_is_no_other_path() {
    if !have_clang_22() {
        return;
    }
    for gpu in GPUS {
        let v = row_blur_with_arguments(gpu);
        let addresses = v["defaults"]["addresses"].as_array().unwrap();
        let stores: Vec<&serde_json::Value> = addresses
            .iter()
            .filter(|a| a["iteration_stride_from"].is_null())
            .collect();
        assert_eq!(stores.len(), 1, "{gpu}: {addresses:?}");
        assert_eq!(stores[0]["pattern_from"], "code", "{gpu}: {addresses:?}");
        let reason = stores[0]["pattern_reason"].as_str().unwrap();
        assert!(
            reason.contains("4 x work-item id (x) + 4096 x work-item id (y)")
                && !reason.contains("iteration"),
            "{gpu}: {reason}"
        );
    }
}
