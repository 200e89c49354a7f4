//! Kernel time on the whole GPU (`--grid`, `--block`, `--arg`, `-D`, products by name): each
//! rule's number derived in a comment from the model's data, on kernels compiled in place
//! (`tests/cli/data/kernel_time/`, clang-22; skipped with a note without it outside `CI`).

use crate::command;
use serde_json::Value;
use shadersim_testkit::tools::have_clang_22;

/// `analyze KERNEL ARGS --no-latency-search --format json` in the kernels' directory.
pub(crate) fn report(kernel: &str, args: &[&str]) -> Value {
    let mut all = vec!["analyze", kernel, "--no-latency-search", "--format", "json"];
    all.extend_from_slice(args);
    let o = command()
        .args(&all)
        .dir(crate::root().join("crates/cli/tests/cli/data/kernel_time"))
        .output();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON report")
}

pub(crate) fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn a_stream_moves_whole_lines_from_dram_on_every_model() {
    if !have_clang_22() {
        return;
    }
    // Two workgroups of 256 work-items on the busiest CU (grid = 2 x the CUs): each work-item
    // reads 2 floats and writes 1, so the CU's vector data is 2 x 256 x 12 = 6144 bytes, all
    // cold. Memory delivers whole lines of the level above it, so it moves at least those
    // bytes (gfx942: 128-byte L1 lines over 128-byte L2 lines, 64-byte requests; before, half
    // of each 128-byte line: 3072) and at most the kernel arguments' few lines more.
    for (arch, cus, line) in [
        ("vega64", 64, 64.0),
        ("mi300x", 304, 128.0),
        ("rx7900xtx", 96, 128.0),
    ] {
        let grid = (2 * cus).to_string();
        let r = report(
            "vadd.cl",
            &["--arch", arch, "--grid", &grid, "--block", "256"],
        );
        let dram = f(&r["cache"]["dram"]["bytes"]);
        assert!(
            (6144.0..=6144.0 + 4.0 * line).contains(&dram),
            "{arch}: {dram} DRAM bytes"
        );
        assert_eq!(dram % 64.0, 0.0, "{arch}: whole lines");
        assert_eq!(r["kernel_time"]["workgroups_per_cu"], 2, "{arch}");
    }
}

#[test]
fn a_launch_bound_kernel_takes_the_launch_cost_and_a_sliver() {
    if !have_clang_22() {
        return;
    }
    // One workgroup of one wave: the busiest CU runs one wave whose life is a few memory
    // round trips (its argument loads and its store, each under 600 clocks from memory), so
    // under 2100 clocks: under a microsecond at 2100 MHz. The time is the model's
    // kernel_launch_us (2 us, gcn.toml) plus exactly those clocks over the clock.
    let r = report(
        "empty.cl",
        &["--arch", "mi300x", "--grid", "1", "--block", "64"],
    );
    let k = &r["kernel_time"];
    assert_eq!(f(&k["launch_us"]), 2.0);
    assert!(f(&k["cu_us"]) < 1.0, "{k}");
    let clocks = f(&k["cu_clocks"]);
    assert!((f(&r["kernel_time_us"]) - (2.0 + clocks / 2100.0)).abs() < 1e-5);
    assert_eq!(k["active_cus"], 1);
    // Each busy CU takes the chip-wide levels' bandwidth of 304 / 1 CUs.
    assert_eq!(f(&k["chip_shares"]), 304.0);
}

#[test]
fn one_workgroup_past_whole_rounds_costs_a_tail() {
    if !have_clang_22() {
        return;
    }
    // 64 CUs (Vega 64) x 16 workgroups fill every CU alike; one more gives one CU a 17th,
    // which the others wait for idle: the busiest CU has one workgroup more and the kernel
    // takes longer.
    let even = report(
        "vadd.cl",
        &["--arch", "vega64", "--grid", "1024", "--block", "256"],
    );
    let tail = report(
        "vadd.cl",
        &["--arch", "vega64", "--grid", "1025", "--block", "256"],
    );
    assert_eq!(even["kernel_time"]["workgroups_per_cu"], 16);
    assert_eq!(tail["kernel_time"]["workgroups_per_cu"], 17);
    assert_eq!(tail["kernel_time"]["tail_cus"], 1);
    assert!(f(&tail["kernel_time_us"]) > f(&even["kernel_time_us"]));
}

#[test]
fn every_cu_streams_at_its_share_of_the_chip() {
    if !have_clang_22() {
        return;
    }
    // 304 CUs x 8 workgroups of 256 work-items, 12 bytes each: 7,471,104 bytes through
    // memory at MI300X's 5.3 TB/s take at least 1.41 us; the prediction is memory-bound near
    // it (one CU's share is 5300 / 304 GB/s: the simulated CU's 8 workgroups take as long as
    // all 2432 at the chip's rate), not 304 times longer.
    let r = report(
        "vadd.cl",
        &["--arch", "mi300x", "--grid", "2432", "--block", "256"],
    );
    let floor = 7_471_104.0 / 5300e9 * 1e6;
    let cu = f(&r["kernel_time"]["cu_us"]);
    assert!(
        cu >= floor * 0.98 && cu < floor * 2.0,
        "{cu} us against {floor}"
    );
    // CUs simulated side by side split the shared levels at the same per-CU share: 4 CUs
    // with 4 x the workgroups take as long as one with its own.
    let one = report(
        "vadd.cl",
        &[
            "--arch",
            "mi300x",
            "--set",
            "waves=64",
            "--set",
            "workgroup_size=256",
        ],
    );
    let four = report(
        "vadd.cl",
        &[
            "--arch",
            "mi300x",
            "--set",
            "waves=256",
            "--set",
            "workgroup_size=256",
            "--set",
            "cus=4",
        ],
    );
    let (c1, c4) = (f(&one["clocks"]), f(&four["clocks"]));
    assert!((c4 / c1 - 1.0).abs() < 0.1, "1 CU {c1} clocks, 4 CUs {c4}");
}

#[test]
fn a_loop_bounded_by_an_argument_runs_its_count() {
    if !have_clang_22() {
        return;
    }
    // `for (k = 0; k < K; k++)` with --arg K=64: the loop's header runs 64 times (the
    // compiler counts K down to 0), and with cols = 2048 its load moves 2048 x 4 bytes an
    // iteration.
    let r = report(
        "loop_k.cl",
        &[
            "--arch",
            "gfx900",
            "--grid",
            "16",
            "--block",
            "256",
            "--arg",
            "K=64",
            "--arg",
            "cols=2048",
        ],
    );
    let inferred = &r["defaults"]["loops_inferred"];
    assert_eq!(inferred[0]["iterations"], 64, "{inferred}");
    let load = r["defaults"]["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["iteration_stride"].is_number())
        .expect("the loop's load");
    assert_eq!(load["iteration_stride"], 8192);
    // Without the argument the loop runs its body once, and says so.
    let r = report(
        "loop_k.cl",
        &["--arch", "gfx900", "--grid", "16", "--block", "256"],
    );
    assert_eq!(
        r["defaults"]["loops_once"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn local_ids_read_the_same_tile_in_every_workgroup() {
    if !have_clang_22() {
        return;
    }
    // The A and B panels are indexed by the local id alone: every workgroup reads the same
    // 2 x 64 x 64 x 8 bytes, which stay in the caches, and the 8 MFMAs of each of the 64
    // iterations keep the matrix cores busy: matrix-bound on gfx942 and gfx90a, no hints.
    for arch in ["gfx942", "gfx90a"] {
        let r = report("mfma_tile.cl", &["--arch", arch]);
        assert_eq!(
            r["bottleneck"]["kind"], "matrix-core",
            "{arch}: {}",
            r["bottleneck"]
        );
        let reason = r["defaults"]["addresses"][0]["wave_stride_reason"]
            .as_str()
            .unwrap();
        assert!(
            reason.contains("every workgroup reads the same addresses"),
            "{reason}"
        );
    }
}

#[test]
fn rows_a_launch_argument_apart_are_distinct_addresses() {
    if !have_clang_22() {
        return;
    }
    // Rodinia nw's eight loads `in[index + cols * r]`: with cols = 2048 they are 8192 bytes
    // apart, so each reads lines of its own and no load hits the first level on lines
    // another brought (each op misses the L1 on its first touch of each line).
    let r = report(
        "rows.cl",
        &[
            "--arch",
            "gfx900",
            "--grid",
            "64",
            "--block",
            "64",
            "--arg",
            "cols=2048",
        ],
    );
    let loads: Vec<&Value> = r["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("global_load"))
        })
        .collect();
    assert_eq!(loads.len(), 8);
    for l in &loads {
        assert!(f(&l["first_level_hit_rate"]) < 0.5, "{}", l["text"]);
    }
}

#[test]
fn products_are_models_with_their_numbers() {
    // MI300A: 228 CUs (6 XCDs of 38); the error for an unknown name lists the products.
    let o = command()
        .args(["occupancy", "--regs", "64", "--arch", "mi300a"])
        .output();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = command()
        .args(["analyze", "examples/lighting_ps.txt", "--arch", "mi300"])
        .output();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("products: mi300x, mi300a"), "{err}");
    // Issue 47 item 8: `mi300` is the family of both; the error names them with their compute
    // unit's model and processor (cdna3, gfx942: data/products/mi300x.toml's base and isa), and
    // lists every processor prefix with the model it runs on (data/names.toml).
    assert!(
        err.contains("no product is named `mi300`, but these names begin with it: mi300x (AMD Instinct MI300X")
            && err.contains("mi300a (AMD Instinct MI300A")
            && err.contains("compute unit: cdna3, gfx942"),
        "{err}"
    );
    for family in [
        "gfx9* -> gcn",
        "gfx90a* -> cdna2",
        "gfx94* -> cdna3",
        "gfx103* -> rdna2",
    ] {
        assert!(
            err.contains(family) || family == "gfx103* -> rdna2" && err.contains("gfx10* -> rdna2"),
            "{family}: {err}"
        );
    }
    // Products and models as people write them: any case, with spaces or hyphens.
    for name in ["MI300X", "RX 7900 XTX", "rx-6900-xt", "RDNA3"] {
        let o = command()
            .args([
                "analyze",
                "tests/fixtures/llvm/gfx942/stencil_f64.s",
                "--arch",
                name,
            ])
            .args(["--no-latency-search", "--format", "json"])
            .output();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_2d_block_and_a_definition_compile_and_launch() {
    if !have_clang_22() {
        return;
    }
    // -D BLOCK_SIZE=16 and a 16x16 block: workgroups of 256 work-items (4 wave64s) holding
    // 16 x 16 x 4 = 1024 bytes of LDS; a 64x64 grid is 4096 workgroups, 64 on each of Vega
    // 64's 64 CUs.
    let r = report(
        "tile2d.cl",
        &[
            "--arch",
            "vega64",
            "-D",
            "BLOCK_SIZE=16",
            "--grid",
            "64x64",
            "--block",
            "16x16",
            "--arg",
            "cols=1024",
        ],
    );
    assert_eq!(r["occupancy"]["lds_bytes"], 1024);
    assert_eq!(r["kernel_time"]["workgroups"], 4096);
    assert_eq!(r["kernel_time"]["workgroups_per_cu"], 64);
    assert_eq!(r["waves"], 64 * 4);
    // Without the definition the kernel does not compile: bad input, exit 1.
    let o = command()
        .args(["analyze", "tile2d.cl", "--arch", "vega64"])
        .dir(crate::root().join("crates/cli/tests/cli/data/kernel_time"))
        .output();
    assert_eq!(o.status.code(), Some(1));
    // A block over 1024 work-items on the command line is refused with the rule: bad usage.
    let o = command()
        .args([
            "analyze", "vadd.cl", "--arch", "vega64", "--grid", "4", "--block", "64x32",
        ])
        .dir(crate::root().join("crates/cli/tests/cli/data/kernel_time"))
        .output();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most 1024"));
}

#[test]
fn a_grid_stride_loop_runs_until_its_last_lane_passes_the_bound() {
    if !have_clang_22() {
        return;
    }
    // 4 workgroups of 64: the grid is 256 work-items, so lane l of the first wave visits
    // l, l + 256, ... below n = 2560: 10 iterations for every lane (2560 / 256), and the
    // loop's header runs 10 times. With n = 2600 lanes 0-39 need an 11th (2560 + l < 2600).
    for (n, want) in [("2560", 10), ("2600", 11)] {
        let arg = format!("n={n}");
        let r = report(
            "grid_stride.cl",
            &[
                "--arch", "mi210", "--grid", "4", "--block", "64", "--arg", &arg,
            ],
        );
        let inferred = &r["defaults"]["loops_inferred"];
        assert_eq!(inferred[0]["iterations"], want, "n = {n}: {inferred}");
        assert!(inferred[0]["reason"]
            .as_str()
            .unwrap()
            .contains("vector loop"));
    }
}

#[test]
fn without_a_launch_the_report_says_what_ran_instead() {
    if !have_clang_22() {
        return;
    }
    // No grid: no kernel time, and a note naming the defaults the run took (500 workgroups of
    // 64 work-items, the dispatch's defaults) and how to get the time.
    let r = report("vadd.cl", &["--arch", "mi300x"]);
    assert!(r["kernel_time_us"].is_null());
    let notes = r["notes"].to_string();
    assert!(
        notes.contains("no launch grid: 500 workgroups of 64 work-items"),
        "{notes}"
    );
    // A kernel reading get_local_id(1) run in the default one-dimensional workgroups says so;
    // with a 16x16 block it does not.
    let r = report("tile2d.cl", &["--arch", "vega64", "-D", "BLOCK_SIZE=16"]);
    assert!(
        r["notes"]
            .to_string()
            .contains("one-dimensional (64 work-items)"),
        "{}",
        r["notes"]
    );
    let r = report(
        "tile2d.cl",
        &[
            "--arch",
            "vega64",
            "-D",
            "BLOCK_SIZE=16",
            "--block",
            "16x16",
        ],
    );
    assert!(
        !r["notes"].to_string().contains("one-dimensional"),
        "{}",
        r["notes"]
    );
}

#[test]
fn a_2d_block_in_a_2d_grid_reads_each_tile_once() {
    if !have_clang_22() {
        return;
    }
    // tile2d reads in[y x cols + x] with x = 16 gx + tx, y = 16 gy + ty: 4 B per tx, 4 x cols
    // = 128 B per ty (cols = 32), 64 B per gx and 16 x 128 = 2048 B per gy. A 16x16 block's
    // wave64 holds local ids 0-63, x fastest: 4 rows of 16 lanes, lane l at 4 (l mod 16) +
    // 128 (l / 16); the next wave is the same 4 rows further, 4 x 128 = 512 B on.
    let r = report(
        "tile2d.cl",
        &[
            "--arch",
            "vega64",
            "-D",
            "BLOCK_SIZE=16",
            "--grid",
            "2x2048",
            "--block",
            "16x16",
            "--arg",
            "cols=32",
        ],
    );
    let load = &r["defaults"]["addresses"][0];
    let lanes: Vec<u64> = (0..64u64).map(|l| 4 * (l % 16) + 128 * (l / 16)).collect();
    let list = lanes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    assert_eq!(load["pattern"], format!("list:{list}"), "{load}");
    assert_eq!(load["wave_stride"], 512, "{load}");
    // 4096 workgroups on 64 CUs: 64 on the busiest, the grid's first 64 in x-fastest order
    // (gx 0-1, gy 0-31): image rows 0-511, each 32 floats = 128 B = two 64-B lines, read once
    // and written once: 2 x 512 x 128 = 131072 DRAM bytes, plus the kernel arguments' lines.
    // (Workgroups numbered along x alone, 64 B apart, would overlap and move far less.)
    let dram = f(&r["cache"]["dram"]["bytes"]);
    assert!(
        (131072.0..=131072.0 + 4.0 * 64.0).contains(&dram),
        "{dram} DRAM bytes"
    );
    // The block was given: no note that the kernel reads y ids in one-dimensional workgroups.
    assert!(
        !r["notes"].to_string().contains("one-dimensional"),
        "{}",
        r["notes"]
    );
}

#[test]
fn counters_of_64_bits_run_their_counts() {
    if !have_clang_22() {
        return;
    }
    // loop_k64: `for (ulong k = 0; k < K; k++)` counts a register pair down from K = 64 to 0
    // (`s_cmp_eq_u64`): 64 header executions. The grid-stride row loop around it compares
    // 64-bit lane counters (`v_cmp_le_u64`): 4 x 256 = 1024 work-items over n = 2048 rows
    // take 2 trips.
    let r = report(
        "loop_k64.cl",
        &[
            "--arch",
            "gfx942",
            "--grid",
            "4",
            "--block",
            "256",
            "--arg",
            "n=2048",
            "--arg",
            "K=64",
            "--arg",
            "cols=2048",
        ],
    );
    let inferred = r["defaults"]["loops_inferred"].as_array().unwrap();
    let counts: Vec<u64> = inferred
        .iter()
        .map(|l| l["iterations"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [2, 64], "{inferred:?}");
    assert!(inferred[1]["reason"]
        .as_str()
        .unwrap()
        .contains("64-bit counter"));
    assert_eq!(r["defaults"]["loops_once"], serde_json::json!([]));
}

#[test]
fn workgroups_past_the_entry_guard_have_no_work() {
    if !have_clang_22() {
        return;
    }
    // `if (i < n)` with i the global id: 1024 workgroups of 64 on Vega 64's 64 CUs, n = 4096
    // rows: only workgroups 0-63 hold a row, one on each CU. With n = 4100 workgroup 64 holds
    // rows 4096-4099 (lanes 0-3 pass), so 65 workgroups have work and the busiest CU runs 2.
    for (n, working, per_cu) in [(4096, 64, 1), (4100, 65, 2)] {
        let r = report(
            "guarded.cl",
            &[
                "--arch",
                "vega64",
                "--grid",
                "1024",
                "--block",
                "64",
                "--arg",
                &format!("n={n}"),
                "--arg",
                "m=16",
            ],
        );
        let k = &r["kernel_time"];
        assert_eq!(k["workgroups"], 1024, "{k}");
        assert_eq!(k["workgroups_with_work"], working, "{k}");
        assert_eq!(k["workgroups_per_cu"], per_cu, "{k}");
        assert_eq!(k["active_cus"], 64, "{k}");
        assert!(k["statement"].as_str().unwrap().contains("entry guard"));
    }
    // Without n the guard's bound is unknown: every workgroup counts.
    let r = report(
        "guarded.cl",
        &["--arch", "vega64", "--grid", "1024", "--block", "64"],
    );
    assert_eq!(r["kernel_time"]["workgroups_with_work"], 1024);
    assert_eq!(r["kernel_time"]["workgroups_per_cu"], 16);
}

#[test]
fn a_workgroup_that_fills_the_lds_runs_alone_on_its_cu() {
    if !have_clang_22() {
        return;
    }
    // 8192 doubles = 65536 B of LDS per workgroup = all of a gfx90a CU's (lds_bytes_per_cu
    // 65536): one workgroup resident per CU. 2048 workgroups on the MI210's 104 CUs: 2048 /
    // 104 = 19.7, so 20 on the busiest CU (2048 - 19 x 104 = 72 CUs take 20), in 20 rounds
    // of one.
    let r = report(
        "lds_full.cl",
        &["--arch", "mi210", "--grid", "2048", "--block", "64"],
    );
    assert_eq!(r["occupancy"]["waves_per_simd"], 1, "{}", r["occupancy"]);
    assert_eq!(r["kernel_time"]["workgroups_per_cu"], 20);
    assert_eq!(r["kernel_time"]["resident_workgroups_per_cu"], 1);
    assert_eq!(r["kernel_time"]["rounds"], 20);
}

#[test]
fn a_uniform_guard_leaves_workgroups_past_the_data_empty() {
    if !have_clang_22() {
        return;
    }
    // The loop's first index is i = 64 x workgroup id (block 64): `i < n` is a scalar
    // compare. n = 4096: workgroups 0..63 pass (63 x 64 = 4032 < 4096, 64 x 64 = 4096 is
    // not), 1024 - 64 = 960 are empty; n = 4097 lets workgroup 64 in too (4096 < 4097).
    for (arch, n, working) in [
        ("mi210", 4096, 64),
        ("rx7900xtx", 4096, 64),
        ("vega64", 4097, 65),
    ] {
        let n = format!("n={n}");
        let r = report(
            "guarded_uniform.cl",
            &[
                "--arch", arch, "--grid", "1024", "--block", "64", "--arg", &n, "--arg", "m=1024",
            ],
        );
        assert_eq!(r["kernel_time"]["workgroups_with_work"], working, "{arch}");
    }
}

#[test]
fn a_guard_after_a_prologue_still_decides_which_workgroups_work() {
    if !have_clang_22() {
        return;
    }
    // `after_fill` fills LDS and waits at a barrier in every workgroup, then tests
    // i = global id < n = 4096 before its two-loop nest: 4096 / 64 = 64 of the 1024
    // workgroups have rows. gfx1030 and on test with one `v_cmpx` writing EXEC; gfx12 reads
    // the workgroup id from ttmp9. `guarded_prologue` guards only a loop before its barrier and
    // runs its main loop in every workgroup: all 1024 work.
    for arch in ["mi210", "rx6900xt", "rx7900xtx", "rx9070xt"] {
        let launch = |function: &str| {
            let r = report(
                "guarded_after_fill.cl",
                &[
                    "--function",
                    function,
                    "--arch",
                    arch,
                    "--grid",
                    "1024",
                    "--block",
                    "64",
                    "--arg",
                    "n=4096",
                    "--arg",
                    "m=256",
                ],
            );
            r["kernel_time"]["workgroups_with_work"].clone()
        };
        assert_eq!(launch("after_fill"), 64, "{arch}");
        assert_eq!(launch("guarded_prologue"), 1024, "{arch}");
        // The same guard behind an assert's trap (`after_assert`): 64 again.
        assert_eq!(launch("after_assert"), 64, "{arch}");
    }
}

#[test]
fn gfx12s_renamed_scalar_adds_still_count_a_loop() {
    if !have_clang_22() {
        return;
    }
    // gfx12 spells the scalar add `s_add_co_i32`: `for (k = 0; k < K; k++)` with --arg K=64
    // runs 64 times on every generation, as on gfx900 above.
    for arch in ["rx6900xt", "rx7900xtx", "rx9070xt"] {
        let r = report(
            "loop_k.cl",
            &[
                "--arch",
                arch,
                "--grid",
                "16",
                "--block",
                "256",
                "--arg",
                "K=64",
                "--arg",
                "cols=2048",
            ],
        );
        let inferred = &r["defaults"]["loops_inferred"];
        assert_eq!(inferred[0]["iterations"], 64, "{arch}: {inferred}");
    }
}

#[test]
fn a_loop_over_rows_by_the_workgroup_count_runs_its_count_and_reads_its_rows() {
    if !have_clang_22() {
        return;
    }
    // `for (i = group; i < n; i += groups)` over 2048 workgroups: the first workgroup visits
    // 0, 2048, ..., n - 2048 when n = 32768 (32768 / 2048 = 16 trips) and one more row, 32768,
    // when n = 32769 (17); no workgroup makes more than the first.
    for (n, want) in [("32768", 16), ("32769", 17)] {
        let arg = format!("n={n}");
        let r = report(
            "group_stride.cl",
            &[
                "--arch", "mi210", "--grid", "2048", "--block", "64", "--arg", &arg, "--arg",
                "m=4096",
            ],
        );
        let inferred = r["defaults"]["loops_inferred"].as_array().unwrap();
        let rows = inferred
            .iter()
            .find(|l| l["reason"].as_str().unwrap().contains("workgroup id"))
            .unwrap_or_else(|| panic!("n = {n}: {inferred:?}"));
        assert_eq!(rows["iterations"], want, "n = {n}: {rows}");
        // The column loop: j = lane, lane + 64, ... below m = 4096: 64 trips.
        assert!(
            inferred.iter().any(|l| l["iterations"] == 64),
            "{inferred:?}"
        );
        // A[i * m + j]: 8 B per lane, workgroups one row (4096 x 8 = 32768 B) apart, and the
        // column loop moves 64 x 8 = 512 B; the second register holding j is followed.
        let a = r["defaults"]["addresses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["pattern_from"] == "code" && a["iteration_stride"] == 512)
            .unwrap_or_else(|| panic!("{}", r["defaults"]["addresses"]));
        assert_eq!(a["pattern"], "linear");
        assert!(
            a["wave_stride_reason"]
                .as_str()
                .unwrap()
                .contains("workgroups 32768 B apart"),
            "{a}"
        );
        // The row loop moves it by groups x m x 8 = 2048 x 4096 x 8 = 67108864 B after each
        // pass through the column loop (64 executions), so no workgroup rereads a row.
        assert!(
            a["iteration_stride_reason"]
                .as_str()
                .unwrap()
                .ends_with("by 67108864 B per iteration after every 64 executions"),
            "{a}"
        );
    }
}
