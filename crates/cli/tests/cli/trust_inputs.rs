//! Issue 17 item 1: parameters have ranges. `--set` outside a parameter's
//! range is a usage error (exit 2) that states that parameter's rule; a
//! hints file's value out of range is an input error (exit 1) at its
//! position; `--set` wins over the hints file; a user model file needs only
//! `base` and the changed numbers and its errors print once.

use crate::shadersim;
use proptest::prelude::*;
use shadersim_testkit::cli::stderr;
use std::path::PathBuf;
use std::process::Output;

/// A small compute kernel with one loop (runs in milliseconds).
const KERNEL: &str = "tests/fixtures/llvm/gfx900/loop_sum.s";
/// A pixel shader: its arrival interval depends on `cu_count`.
const PIXEL: &str = "examples/lighting_ps.txt";

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-trust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn throughput(o: &Output) -> f64 {
    assert!(o.status.success(), "{}", stderr(o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["throughput"]["per_clock"].as_f64().unwrap()
}

#[test]
fn set_values_issue_17_lists_exit_2_naming_the_rule() {
    for set in [
        "simds=0",
        "lds_queues=0",
        "issue_interval=0",
        "clock_mhz=0",
        "wave_size=0",
        "cu_count=0",
        "compute_waves_per_clock=0",
        "l2_line_bytes=3",
        "waves=0",
        "waves=abc",
        "workgroup_size=2000",
    ] {
        let o = shadersim(&["analyze", KERNEL, "--no-latency-search", "--set", set]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{set}: {e}");
        let key = set.split('=').next().unwrap();
        assert!(e.contains(&format!("`{key}` must be")), "{set}: {e}");
        // The rule of this parameter, not a list of unrelated keys.
        assert!(!e.contains("dispatch keys"), "{set}: {e}");
        assert!(!e.contains("known parameters"), "{set}: {e}");
    }
}

#[test]
fn set_cu_count_wins_over_the_hints_file() {
    let hints = temp_file("cu3.toml", "[dispatch]\ncu_count = 3\n");
    let hints = hints.to_str().unwrap();
    let base = ["analyze", PIXEL, "--no-latency-search", "--format", "json"];
    let with_both = shadersim(&[&base[..], &["--hints", hints, "--set", "cu_count=7"]].concat());
    let set_only = shadersim(&[&base[..], &["--set", "cu_count=7"]].concat());
    let hints_only = shadersim(&[&base[..], &["--hints", hints]].concat());
    // The command line's 7 is what runs, whatever the file says.
    assert_eq!(throughput(&with_both), throughput(&set_only));
    // And the file's 3 would have made a difference (the arrival interval of
    // a pixel wave is proportional to cu_count), so the test can tell.
    assert_ne!(throughput(&hints_only), throughput(&set_only));
}

#[test]
fn hints_values_out_of_range_exit_1_at_their_position() {
    for (text, line_col, key) in [
        ("[dispatch]\ncu_count = 0\n", ":2:12:", "cu_count"),
        ("[dispatch]\nwaves = 0\n", ":2:9:", "waves"),
        (
            "[dispatch]\nvertices_per_triangle = 9.0\n",
            ":2:25:",
            "vertices_per_triangle",
        ),
        ("[dispatch]\nwave_size = 48\n", ":2:13:", "wave_size"),
    ] {
        let hints = temp_file(&format!("bad_{key}.toml"), text);
        let o = shadersim(&["analyze", KERNEL, "--hints", hints.to_str().unwrap()]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{text}: {e}");
        assert!(e.contains(line_col), "{text}: {e}");
        assert!(e.contains(&format!("`{key}` must be")), "{text}: {e}");
    }
}

/// Issue 27 item 5: a model file means what `--set` means. `dram_latency =
/// 2000` in a file and `--set dram_latency=2000` on the command line run the
/// same simulation (every statistic equal), which differs from the stock
/// model's (the kernel streams its loads from DRAM, 600 clocks stock).
#[test]
fn a_user_model_file_means_what_set_means() {
    let model = temp_file(
        "slow_l2.toml",
        "base = \"gcn\"\n[params]\ndram_latency = { value = 2000 }\n",
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["analyze", KERNEL, "--no-latency-search", "--format", "json"];
        args.extend_from_slice(extra);
        let o = shadersim(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let file = run(&["--arch", model.to_str().unwrap()]);
    let set = run(&["--arch", "gcn", "--set", "dram_latency=2000"]);
    let stock = run(&["--arch", "gcn"]);
    assert_eq!(file["arch"], "slow_l2");
    for key in [
        "clocks",
        "wave_clocks",
        "throughput",
        "utilization",
        "cache",
        "bottleneck",
    ] {
        assert_eq!(file[key], set[key], "{key}");
    }
    assert!(file["clocks"].as_f64() > stock["clocks"].as_f64());
    // The flat latency alone changes nothing the hierarchy serves, in a file
    // as on the command line, and the report says so.
    let flat_file = temp_file(
        "vmem900.toml",
        "base = \"gcn\"\n[params]\nvmem_latency = { value = 900 }\n",
    );
    for v in [
        run(&["--arch", flat_file.to_str().unwrap()]),
        run(&["--arch", "gcn", "--set", "vmem_latency=900"]),
    ] {
        assert_eq!(v["clocks"], stock["clocks"]);
        let notes = v["notes"].to_string();
        assert!(
            notes.contains(
                "vmem_latency = 900 applies only to memory ops the cache hierarchy does not serve"
            ),
            "{notes}"
        );
    }
    // `memory = "flat"` in a file is `--set memory=flat`.
    let flat = temp_file("flat.toml", "base = \"gcn\"\nmemory = \"flat\"\n");
    let a = run(&["--arch", flat.to_str().unwrap()]);
    let b = run(&["--arch", "gcn", "--set", "memory=flat"]);
    assert_eq!(a["clocks"], b["clocks"]);
    assert!(a.get("cache").is_none());
    assert!(
        a["notes"].to_string().contains("memory: flat"),
        "{}",
        a["notes"]
    );
}

/// Unknown parameter names in a model file are errors at their line.
#[test]
fn an_unknown_parameter_in_a_model_file_is_an_error_at_its_line() {
    let model = temp_file(
        "typo_param.toml",
        "base = \"gcn\"\n[params]\nl2_latncy = { value = 900 }\n",
    );
    let o = shadersim(&["analyze", KERNEL, "--arch", model.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("typo_param.toml:3:") && e.contains("unknown parameter `l2_latncy`"),
        "{e}"
    );
}

#[test]
fn a_bad_user_model_file_is_exit_1_with_one_error_prefix() {
    for (name, text, place) in [
        (
            "zero_simds.toml",
            "base = \"gcn\"\n[params]\nsimds = { value = 0 }\n",
            ":3:11: error:",
        ),
        (
            "typo.toml",
            "base = \"gcn\"\n[params]\nsimds = { valeu = 2 }\n",
            ":3:",
        ),
    ] {
        let model = temp_file(name, text);
        let o = shadersim(&["analyze", KERNEL, "--arch", model.to_str().unwrap()]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(e.contains(place), "{e}");
        assert_eq!(e.matches("error:").count(), 1, "{e}");
    }
}

/// Keys the property test draws: model parameters of `gfx900` and the
/// dispatch keys.
const KEYS: &[&str] = &[
    "simds",
    "simd_lanes",
    "wave_slots_per_simd",
    "issue_interval",
    "group_waves_max",
    "cu_count",
    "gpu_cus",
    "clock_mhz",
    "valu_clocks",
    "valu_quarter_clocks",
    "salu_clocks",
    "smem_dwords_per_clock",
    "smem_latency",
    "lds_clocks",
    "lds_latency",
    "lds_queues",
    "vmem_latency",
    "vmem_wave_in_flight",
    "vmem_cu_in_flight",
    "vmem_cache_clocks",
    "buffer_load_clocks",
    "l2_line_bytes",
    "vmcnt_max",
    "lgkmcnt_max",
    "expcnt_max",
    "compute_waves_per_clock",
    "raster_quads_per_clock",
    "vgprs_per_simd",
    "vgpr_granule",
    "sgprs_per_simd",
    "sgpr_granule",
    "lds_bytes_per_cu",
    "lds_granule",
    "sleep_clocks_per_unit",
    "waves",
    "workgroup_size",
    "waves_per_simd",
    "wave_size",
    "pixels_per_triangle",
];

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..5).prop_map(|v| v.to_string()),
        (0u32..300).prop_map(|v| v.to_string()),
        (-10.0f64..5000.0).prop_map(|v| format!("{v:.3}")),
        Just("1e9".to_string()),
        Just("-1".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("x".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any `--set` either runs to finite numbers or is refused with exit 2
/// (or, for register files too small for the program, exit 1 saying so).
    #[test]
    fn random_sets_run_to_finite_numbers_or_exit_2(
        picks in proptest::collection::vec((0..KEYS.len(), value()), 1..3)
    ) {
        let mut args = vec![
            "analyze".to_string(), KERNEL.to_string(), "--no-latency-search".to_string(),
            "--format".to_string(), "json".to_string(), "--set".to_string(), "waves=64".to_string(),
        ];
        for (k, v) in &picks {
            args.push("--set".into());
            args.push(format!("{}={v}", KEYS[*k]));
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = shadersim(&refs);
        match o.status.code() {
            Some(0) => {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                for f in [&v["clocks"], &v["wave_clocks"], &v["throughput"]["per_clock"]] {
                    let x = f.as_f64();
                    prop_assert!(x.is_some_and(|x| x.is_finite() && x > 0.0), "{args:?}: {f}");
                }
            }
            // A value out of its key's range, or a wave size the model does not run
            // (`wave_size=32` on a wave64-only model).
            Some(2) => prop_assert!(
                stderr(&o).contains("must be") || stderr(&o).contains("runs wave64 only"),
                "{args:?}: {}",
                stderr(&o)
            ),
            // A valid model on which this program cannot run at all (a
            // register file smaller than its allocation) is an answer about
            // the program, stated as such, not a number.
            Some(1) => prop_assert!(stderr(&o).contains("no wave fits"), "{args:?}: {}", stderr(&o)),
            other => prop_assert!(false, "{args:?}: exit {other:?}: {}", stderr(&o)),
        }
    }
}
