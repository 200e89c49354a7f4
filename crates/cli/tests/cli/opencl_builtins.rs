//! OpenCL C kernels written for an ordinary OpenCL runtime (no shim, no
//! macros: `get_global_id`, `barrier`, `atomic_inc`, `mad` as the
//! specification names them) compile with shadersim's built-in library
//! linked in: barriers and atomics are in the listing and in the trace,
//! and a call nobody defines is an error, not a call the simulation skips.

use crate::command;
use shadersim_testkit::tools::have_clang;
use std::path::{Path, PathBuf};
use std::process::Output;

fn kernels() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/opencl")
}

/// `shadersim ARGS` in the kernels' directory.
fn shadersim(args: &[&str]) -> Output {
    command().args(args).dir(kernels()).output()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The listing `shadersim compile` prints, after checking it succeeded
/// without a warning about calls.
fn compile(file: &str, arch: &str) -> String {
    let o = shadersim(&["compile", file, "--arch", arch]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !text(&o.stderr).contains("not simulated"),
        "{}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// The instructions of kernel `name` in a clang listing: from its label to
/// the end of its function (clang-22 adds a callable copy of each kernel,
/// `__clang_ocl_kern_imp_NAME`, which returns with `s_setpc_b64`).
fn kernel_body<'a>(listing: &'a str, name: &str) -> Vec<&'a str> {
    listing
        .lines()
        .skip_while(|l| !l.starts_with(&format!("{name}:")))
        .skip(1)
        .take_while(|l| !l.starts_with(".Lfunc_end"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with('.'))
        .collect()
}

fn count(body: &[&str], mnemonic_prefix: &str) -> usize {
    body.iter()
        .filter(|l| l.starts_with(mnemonic_prefix))
        .count()
}

/// `analyze --format json` of `file` for `arch`, with optional hints.
fn analyze(file: &str, arch: &str, hints: Option<&Path>) -> serde_json::Value {
    let mut args = vec![
        "analyze",
        file,
        "--arch",
        arch,
        "--format",
        "json",
        "--no-latency-search",
    ];
    let hints_s = hints.map(|h| h.display().to_string());
    if let Some(h) = &hints_s {
        args.extend(["--hints", h.as_str()]);
    }
    let o = shadersim(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !text(&o.stderr).contains("not simulated"),
        "{}",
        text(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON report")
}

/// The instructions of a report whose text starts with `prefix`:
/// (line, executions per wave).
fn executions(report: &serde_json::Value, prefix: &str) -> Vec<(u64, f64)> {
    report["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter(|i| i["text"].as_str().unwrap_or("").starts_with(prefix))
        .map(|i| {
            (
                i["line"].as_u64().unwrap(),
                i["executions"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn vector_add_compiles_to_its_loads_and_store_with_no_call() {
    if !have_clang() {
        return;
    }
    let listing = compile("vector_add.cl", "gfx900");
    let body = kernel_body(&listing, "vector_add");
    // c[i] = a[i] + b[i]: two loads, one add, one store; get_global_id is
    // inline (workgroup id x size + local id + the hidden global offset).
    assert_eq!(count(&body, "global_load_dword"), 2, "{body:#?}");
    assert_eq!(count(&body, "global_store_dword"), 1, "{body:#?}");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
    assert_eq!(count(&body, "s_setpc"), 0, "{body:#?}");
    // Straight-line code: every instruction runs once per wave.
    let report = analyze("vector_add.cl", "gfx900", None);
    for (line, n) in executions(&report, "") {
        assert_eq!(n, 1.0, "line {line}");
    }
}

#[test]
fn tiled_matmul_keeps_its_two_barriers_per_tile_step() {
    if !have_clang() {
        return;
    }
    let listing = compile("matmul_tiled.cl", "gfx900");
    let body = kernel_body(&listing, "matmul_tiled");
    // barrier(CLK_LOCAL_MEM_FENCE) twice in the tile loop: two s_barrier,
    // each between the fences ROCm's work_group_barrier puts around it.
    assert_eq!(count(&body, "s_barrier"), 2, "{body:#?}");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
    assert_eq!(count(&body, "s_setpc"), 0, "{body:#?}");
    assert!(count(&body, "ds_read") > 0 && count(&body, "ds_write") > 0);

    // The tile loop runs N / TILE times: with N = 64, 4 tile steps. Find
    // the loop that holds the barriers and say so in a hints file.
    let report = analyze("matmul_tiled.cl", "gfx900", None);
    let barriers = executions(&report, "s_barrier");
    assert_eq!(barriers.len(), 2);
    let tile_loop = report["loops"]
        .as_array()
        .expect("loops")
        .iter()
        .filter(|l| {
            let lines = &l["lines"];
            let (first, last) = (lines[0].as_u64().unwrap(), lines[1].as_u64().unwrap());
            barriers.iter().all(|(b, _)| (first..=last).contains(b))
        })
        .max_by_key(|l| l["depth"].as_u64())
        .expect("a loop holds both barriers");
    let dir = tempfile::tempdir().unwrap();
    let hints = dir.path().join("matmul.toml");
    std::fs::write(
        &hints,
        format!(
            "[[loop]]\nline = {}\niterations = 4\n",
            tile_loop["header_line"]
        ),
    )
    .unwrap();
    let report = analyze("matmul_tiled.cl", "gfx900", Some(&hints));
    // clang rotates the loop (its exit test is at the bottom, behind a
    // guard that N > 0), so the whole body, both barriers included, runs
    // once per header execution: 4 tile steps x 2 barriers = 8 s_barrier
    // executions per wave, 4 at each.
    let barriers = executions(&report, "s_barrier");
    assert_eq!(
        barriers.iter().map(|(_, n)| n).sum::<f64>(),
        8.0,
        "{barriers:?}"
    );
    for (line, n) in barriers {
        assert_eq!(n, 4.0, "s_barrier at line {line}");
    }
}

#[test]
fn histogram_atomics_are_local_and_global_atomic_adds() {
    if !have_clang() {
        return;
    }
    let listing = compile("histogram_atomics.cl", "gfx900");
    let body = kernel_body(&listing, "histogram");
    // atomic_inc on a local bin: an LDS add (its result unused: no _rtn);
    // atomic_add on the global histogram: a global atomic add.
    assert_eq!(count(&body, "ds_add_u32"), 1, "{body:#?}");
    assert_eq!(count(&body, "global_atomic_add"), 1, "{body:#?}");
    assert_eq!(count(&body, "s_barrier"), 2, "{body:#?}");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
    // The kernel has no loop and no branch: each runs once per wave.
    let report = analyze("histogram_atomics.cl", "gfx900", None);
    for op in ["ds_add_u32", "global_atomic_add"] {
        assert_eq!(executions(&report, op).len(), 1, "{op}");
        assert_eq!(executions(&report, op)[0].1, 1.0, "{op}");
    }
    let barriers = executions(&report, "s_barrier");
    assert_eq!(barriers.iter().map(|(_, n)| n).sum::<f64>(), 2.0);
}

#[test]
fn a_kernel_may_define_a_builtin_name_itself() {
    if !have_clang() {
        return;
    }
    // own_mix.cl defines mix(float, float, float) without `overloadable`:
    // with the library linked only where the kernel leaves a name
    // undefined, the kernel's own mix is used and nothing collides.
    let listing = compile("own_mix.cl", "gfx900");
    let body = kernel_body(&listing, "blend");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
}

#[test]
fn a_call_nobody_defines_is_an_error_naming_it() {
    if !have_clang() {
        return;
    }
    let source = std::fs::read_to_string(kernels().join("unknown_call.cl")).unwrap();
    // Each function is placed at its first call (not the prototype).
    let (call_line, call_text) = source
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("external_helper(p[i])"))
        .unwrap();
    for command in ["compile", "analyze"] {
        let o = shadersim(&[command, "unknown_call.cl", "--arch", "gfx900"]);
        assert_eq!(o.status.code(), Some(1), "{command}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        let helper_col = call_text.find("external_helper").unwrap() + 1;
        let atan2_col = call_text.find("atan2").unwrap() + 1;
        assert!(
            err.contains(&format!(
                "unknown_call.cl:{}:{helper_col}: error: `uses_external` calls `external_helper`, which",
                call_line + 1
            )),
            "{err}"
        );
        // atan2 is an OpenCL built-in the library does not provide.
        assert!(
            err.contains(&format!(
                "unknown_call.cl:{}:{atan2_col}: error: `uses_external` calls `atan2` (`_Z5atan2ff`)",
                call_line + 1
            )),
            "{err}"
        );
        assert!(!err.contains("not simulated"), "{err}");
    }
}

#[test]
fn a_reduction_and_a_convolution_leave_no_call() {
    if !have_clang() {
        return;
    }
    // reduce.cl: one barrier after the load, one in the halving loop.
    let listing = compile("reduce.cl", "gfx900");
    let body = kernel_body(&listing, "reduce");
    assert_eq!(count(&body, "s_barrier"), 2, "{body:#?}");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
    // conv.cl: clamp and fma are inline (v_med3_i32 / v_max-v_min, v_fma or v_mac).
    let listing = compile("conv.cl", "gfx900");
    let body = kernel_body(&listing, "conv");
    assert_eq!(count(&body, "s_swappc"), 0, "{body:#?}");
}
