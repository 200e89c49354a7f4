//! `shadersim batch`: a whole corpus as JSON lines, and `--diff` of two runs.

use crate::{root, shadersim};
use serde_json::Value;
use shadersim_testkit::cli::stderr;
use std::path::{Path, PathBuf};
use std::process::Command;

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every fixture file and the programs the manifest says it holds are
/// covered: one line per program, none with an error, in sorted file order.
#[test]
fn every_fixture_program_has_a_line_without_error() {
    let dir = scratch("fixtures");
    let out = dir.join("a.jsonl");
    let o = shadersim(&["batch", "tests/fixtures", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = lines(&out);
    for r in &rows {
        assert!(r["error"].is_null(), "{r}");
    }
    // Every program file under tests/fixtures appears, in sorted order:
    // listings by extension, AMDGPU code objects and offload bundles by their
    // first bytes (ELF with e_machine 224, or the bundle magic; a host ELF
    // carrying a bundle is read only when named).
    fn is_device_code_object(p: &Path) -> bool {
        let b = std::fs::read(p).unwrap_or_default();
        b.starts_with(b"__CLANG_OFFLOAD_BUNDLE__")
            || (b.starts_with(b"\x7fELF")
                && b.len() > 20
                && u16::from_le_bytes([b[18], b[19]]) == 224)
    }
    let mut files = Vec::new();
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("s" | "dis" | "txt")
            ) || is_device_code_object(&p)
            {
                out.push(p);
            }
        }
    }
    walk(&root().join("tests/fixtures"), &mut files);
    files.sort();
    let mut seen: Vec<String> = rows
        .iter()
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    seen.dedup();
    let expected: Vec<String> = files
        .iter()
        .map(|p| {
            format!(
                "tests/fixtures/{}",
                p.strip_prefix(root().join("tests/fixtures"))
                    .unwrap()
                    .display()
            )
        })
        .collect();
    assert_eq!(seen, expected);
    // RADV graphics pipelines give two programs (vertex and pixel shader).
    let pipeline: Vec<&Value> = rows
        .iter()
        .filter(|r| r["file"] == "tests/fixtures/radv/vega10/lighting.txt")
        .collect();
    let stages: Vec<&str> = pipeline
        .iter()
        .map(|r| r["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages.len(), 2, "{stages:?}");
    assert!(stages.contains(&"pixel") && stages.contains(&"vertex"));
}

/// The schema of a program line, and that its numbers are analyze's.
#[test]
fn a_line_carries_the_analyze_summary() {
    let dir = scratch("schema");
    let out = dir.join("one.jsonl");
    let file = "tests/fixtures/llvm/gfx900/loop_sum.s";
    let o = shadersim(&["batch", file, "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = lines(&out);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    for key in [
        "file",
        "function",
        "error",
        "arch",
        "isa",
        "stage",
        "waves",
        "workgroups",
        "clocks",
        "wave_clocks",
        "throughput",
        "utilization",
        "starve_rate",
        "stall_rate",
        "occupancy",
        "instruction_count",
        "issued",
        "l2_requests_per_wave",
        "bottleneck",
        "latency_tolerance",
        "warnings",
    ] {
        assert!(r.get(key).is_some(), "missing `{key}` in {r}");
    }
    assert_eq!(r["file"], file);
    assert_eq!(r["function"], "loop_sum");
    assert!(r["latency_tolerance"].is_null(), "skipped by default");
    let a = shadersim(&["analyze", file, "--format", "json", "--no-latency-search"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    for key in [
        "arch",
        "stage",
        "waves",
        "clocks",
        "wave_clocks",
        "throughput",
        "utilization",
        "starve_rate",
        "stall_rate",
        "occupancy",
    ] {
        assert_eq!(r[key], a[key], "{key}");
    }
    assert_eq!(r["bottleneck"]["kind"], a["bottleneck"]["kind"]);
    assert_eq!(
        r["instruction_count"].as_u64().unwrap() as usize,
        a["instructions"].as_array().unwrap().len()
    );
    // Beside the consistency check, counts that follow from the listing:
    // with no hints the `s_cbranch_scc1 .LBB0_3` guard falls through and
    // the loop runs once (the defaults), so every wave executes all 33
    // instructions once: 15 VALU ops (six v_mov_b32, v_mad_u64_u32,
    // v_lshlrev_b64, three v_add_co_u32, three v_addc_co_u32, v_add_f32)
    // and 2 VMEM ops (the global load and store).
    let issued = |name: &str| {
        r["issued"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["name"] == name)
            .unwrap()["count"]
            .as_u64()
            .unwrap()
    };
    let waves = r["waves"].as_u64().unwrap();
    assert_eq!(r["instruction_count"], 33);
    assert_eq!(issued("valu"), 15 * waves);
    assert_eq!(issued("vmem"), 2 * waves);

    let o = shadersim(&[
        "batch",
        file,
        "--latency-tolerance",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        lines(&out)[0]["latency_tolerance"]["runs"]
            .as_u64()
            .unwrap()
            > 1
    );
}

/// A bad file is a line with its error; the run goes on and the output
/// keeps the input order whatever the thread count.
#[test]
fn bad_files_are_error_lines_and_order_is_deterministic() {
    let dir = scratch("bad");
    let bad = dir.join("bad.s");
    std::fs::write(&bad, "this is not assembly\n").unwrap();
    let good = "tests/fixtures/llvm/gfx900/if_else.s";
    let run = |jobs: &str| {
        let o = shadersim(&[
            "batch",
            bad.to_str().unwrap(),
            good,
            "tests/fixtures/objdump",
            "--jobs",
            jobs,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        o.stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let rows: Vec<Value> = String::from_utf8(one)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["file"], bad.to_str().unwrap());
    assert!(rows[0]["error"].as_str().unwrap().contains("error:"));
    assert!(rows[0]["function"].is_null());
    assert_eq!(rows[1]["file"], good);
    assert!(rows[1]["error"].is_null());
    // 14 objdump fixtures holding 18 programs, of which 4 are clang-22's
    // `__clang_ocl_kern_imp_` copies of a gfx1200 kernel's body, skipped.
    assert_eq!(rows.len(), 2 + 14, "14 objdump programs");
    assert!(rows.iter().all(|r| !r["function"]
        .as_str()
        .unwrap_or("")
        .starts_with("__clang_ocl_kern_imp_")));
}

/// A missing path or `-` is an error before anything runs (it used to be
/// exit 0 with nothing on standard error).
#[test]
fn a_missing_path_or_stdin_is_an_error() {
    let o = shadersim(&[
        "batch",
        "tests/fixtures/llvm/gfx900/if_else.s",
        "no/such/dir",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("no/such/dir: error: cannot read: no such file"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
    let o = shadersim(&["batch", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not standard input (`-`)"),
        "{}",
        stderr(&o)
    );
}

/// clang-22 emits each OpenCL kernel's body again as a device function
/// `__clang_ocl_kern_imp_NAME`; batch analyzes the kernel once and says so.
#[test]
fn clangs_kernel_copies_are_not_programs_of_their_own() {
    let o = shadersim(&["batch", "tests/fixtures/objdump/gfx1200/lds_reduce.dis"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<Value> = String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["function"], "lds_reduce");
    assert!(
        stderr(&o).contains(
            "tests/fixtures/objdump/gfx1200/lds_reduce.dis: note: skipped `__clang_ocl_kern_imp_lds_reduce`: clang's copy of kernel `lds_reduce`'s body"
        ),
        "{}",
        stderr(&o)
    );
}

/// The driver's statistics saved beside a listing apply as in `analyze`:
/// the line carries the driver's occupancy.
#[test]
fn statistics_beside_a_listing_are_read() {
    let f = "tests/fixtures/aco/gfx1100/reduce.cs.s";
    let o = shadersim(&["batch", f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let row: Value =
        serde_json::from_slice(o.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    // reduce.stats.toml: "Subgroups per SIMD" = 32.
    assert_eq!(row["occupancy"]["declared_waves_per_simd"], 32, "{row}");
    let a = shadersim(&["analyze", f, "--format", "json", "--no-latency-search"]);
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(row["occupancy"], a["occupancy"]);
}

/// A FIFO would block the batch forever and two symbolic-link loops made the
/// walk exponential: the FIFO is skipped with a note, each directory is
/// walked once, and every regular file gets exactly one line.
#[cfg(unix)]
#[test]
fn fifos_are_skipped_and_link_loops_walked_once() {
    let dir = scratch("walk");
    let program =
        std::fs::read_to_string(root().join("tests/fixtures/llvm/gfx900/if_else.s")).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.s"), &program).unwrap();
    std::fs::write(dir.join("sub/b.s"), &program).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("loop1")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("sub/loop2")).unwrap();
    // The FIFO half needs coreutils' mkfifo on PATH: skipped with a note without it (a
    // container whose PATH points nowhere), a failure on CI (issue 47 item 16).
    let fifo = dir.join("pipe.s");
    let with_fifo = shadersim_testkit::tools::require(
        shadersim_testkit::tools::runs("mkfifo"),
        "mkfifo",
        "coreutils",
    );
    if with_fifo {
        let made = Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    let o = shadersim(&["batch", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let files: Vec<String> = String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let d = dir.display();
    assert_eq!(files, [format!("{d}/a.s"), format!("{d}/sub/b.s")]);
    assert_eq!(
        stderr(&o).contains(&format!(
            "{d}/pipe.s: note: skipped: a FIFO, not a regular file"
        )),
        with_fifo,
        "{}",
        stderr(&o)
    );
}

#[test]
fn hints_dir_supplies_per_program_hints() {
    let dir = scratch("hints");
    std::fs::create_dir_all(dir.join("gfx900")).unwrap();
    std::fs::write(
        dir.join("gfx900/loop_sum.toml"),
        "[dispatch]\nwaves = 100\n",
    )
    .unwrap();
    let o = shadersim(&[
        "batch",
        "tests/fixtures/llvm/gfx900/loop_sum.s",
        "tests/fixtures/llvm/gfx900/if_else.s",
        "--hints-dir",
        dir.to_str().unwrap(),
    ]);
    // Files named directly are looked up by file name below the hints
    // directory; these two have no hints there.
    assert!(o.status.success(), "{}", stderr(&o));
    let o = shadersim(&[
        "batch",
        "tests/fixtures/llvm",
        "--hints-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let with_hints: Vec<&Value> = rows.iter().filter(|r| !r["hints"].is_null()).collect();
    assert_eq!(with_hints.len(), 1);
    assert_eq!(
        with_hints[0]["file"],
        "tests/fixtures/llvm/gfx900/loop_sum.s"
    );
    assert_eq!(with_hints[0]["waves"], 100);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["batch", "tests/fixtures", "--set", "no_such_parameter=1"][..],
        &["batch", "tests/fixtures", "--set", "waves=10"],
        &["batch", "tests/fixtures", "--jobs", "0"],
        &["batch"],
    ] {
        let o = shadersim(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

fn line(file: &str, wave_clocks: f64, per_clock: f64, waves_per_simd: u32, count: u32) -> String {
    format!(
        r#"{{"file":"{file}","function":"main","error":null,"wave_clocks":{wave_clocks},"throughput":{{"per_clock":{per_clock}}},"occupancy":{{"waves_per_simd":{waves_per_simd}}},"instruction_count":{count}}}"#
    )
}

/// The diff arithmetic on a hand-made pair: counts, totals, percentages,
/// ranking, and programs missing or failing on one side.
#[test]
fn diff_arithmetic_on_a_hand_made_pair() {
    let dir = scratch("diff");
    let before = [
        line("a.s", 100.0, 1.0, 10, 50),
        line("b.s", 200.0, 2.0, 8, 100),
        line("c.s", 400.0, 4.0, 4, 200),
        line("gone.s", 1.0, 1.0, 1, 1),
        r#"{"file":"broken.s","function":null,"error":"broken.s:1:1: error: x"}"#.to_string(),
    ];
    let after = [
        line("a.s", 50.0, 2.0, 10, 50),  // clocks -50%, throughput +100%
        line("b.s", 300.0, 1.0, 8, 90),  // clocks +50%, throughput -50%, instrs -10%
        line("c.s", 400.0, 4.0, 5, 220), // unchanged clocks, occupancy +25%, instrs +10%
        line("new.s", 1.0, 1.0, 1, 1),
        r#"{"file":"broken.s","function":null,"error":"broken.s:1:1: error: x"}"#.to_string(),
    ];
    let b = dir.join("before.jsonl");
    let a = dir.join("after.jsonl");
    std::fs::write(&b, before.join("\n") + "\n").unwrap();
    std::fs::write(&a, after.join("\n") + "\n").unwrap();
    let o = shadersim(&[
        "batch",
        "--diff",
        b.to_str().unwrap(),
        a.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(d["compared"], 3);
    assert_eq!(d["only_before"], 1);
    assert_eq!(d["only_after"], 1);
    assert_eq!(d["errors"], 1);
    let m = |name: &str| -> Value {
        d["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == name)
            .unwrap()
            .clone()
    };
    let clocks = m("clocks per wave");
    assert_eq!(
        (
            clocks["helped"].as_u64(),
            clocks["hurt"].as_u64(),
            clocks["unchanged"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(clocks["total_before"], 700.0);
    assert_eq!(clocks["total_after"], 750.0);
    let pct = clocks["total_change_percent"].as_f64().unwrap();
    assert!((pct - 50.0 / 700.0 * 100.0).abs() < 1e-9, "{pct}");
    assert_eq!(clocks["most_helped"][0]["file"], "a.s");
    assert_eq!(clocks["most_helped"][0]["change_percent"], -50.0);
    assert_eq!(clocks["most_hurt"][0]["file"], "b.s");
    assert_eq!(clocks["most_hurt"][0]["change_percent"], 50.0);

    let tp = m("throughput");
    assert_eq!(
        (tp["helped"].as_u64(), tp["hurt"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(tp["most_helped"][0]["file"], "a.s");
    assert_eq!(tp["total_change_percent"], 0.0);

    let occ = m("occupancy");
    assert_eq!(
        (
            occ["helped"].as_u64(),
            occ["hurt"].as_u64(),
            occ["unchanged"].as_u64()
        ),
        (Some(1), Some(0), Some(2))
    );
    assert_eq!(occ["most_helped"][0]["change_percent"], 25.0);

    let ins = m("instructions");
    assert_eq!(
        (ins["helped"].as_u64(), ins["hurt"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(ins["total_before"], 350.0);
    assert_eq!(ins["total_after"], 360.0);
    assert_eq!(ins["most_hurt"][0]["file"], "c.s");

    // The text form says the same.
    let o = shadersim(&["batch", "--diff", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("programs compared: 3"), "{text}");
    assert!(text.contains("most hurt, clocks per wave"), "{text}");

    // A broken results file is bad input with its line.
    std::fs::write(&a, "{not json\n").unwrap();
    let o = shadersim(&["batch", "--diff", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("after.jsonl:1: error:"),
        "{}",
        stderr(&o)
    );
}

/// More VMEM latency never helps: a flat-latency run at the models' 320
/// clocks against one with `--set vmem_latency=640` hurts or leaves every
/// program (both in flat mode, `--set memory=flat`, where `vmem_latency` is
/// every vector request's latency).
#[test]
fn more_memory_latency_helps_no_program() {
    let dir = scratch("latency");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    let o = shadersim(&[
        "batch",
        "tests/fixtures",
        "--set",
        "memory=flat",
        "--set",
        "vmem_latency=320",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = shadersim(&[
        "batch",
        "tests/fixtures",
        "--set",
        "memory=flat",
        "--set",
        "vmem_latency=640",
        "-o",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = shadersim(&[
        "batch",
        "--diff",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d: Value = serde_json::from_slice(&o.stdout).unwrap();
    // Every line is compared, none an error.
    assert_eq!(d["compared"].as_u64(), Some(lines(&a).len() as u64));
    assert_eq!(d["errors"].as_u64(), Some(0));
    // More memory latency never helps by more than scheduling noise: with
    // oldest-first arbitration, longer waits can reorder the waves of a
    // VALU-bound shader slightly (RADV many_lights on navi10: -0.77% clocks
    // per wave). Every metric's helped programs must be within 1%, or 3% for
    // programs whose workgroups meet at barriers, where a later first load
    // can line the waves up better at the barriers that follow (RADV reduce
    // on navi21, whose LDS reduction loop now runs its 8 barriers: -2.4%), and
    // for programs whose waves share their SIMD's one matrix core, where a later
    // load return can line the waves' MFMAs up better on it (mfma_gemm on cdna2:
    // -1.03%).
    for m in d["metrics"].as_array().unwrap() {
        for c in m["most_helped"].as_array().unwrap() {
            let p = c["change_percent"].as_f64().unwrap_or(0.0);
            let file = root().join(c["file"].as_str().unwrap());
            // A code object is binary: its instructions are in the llvm-objdump text committed
            // beside it (`NAME.co.dis`), or LLVM's listing Triton kept (`K.amdgcn`).
            let dis = file.with_file_name(format!(
                "{}.dis",
                file.file_name().unwrap().to_string_lossy()
            ));
            let text = std::fs::read_to_string(&dis)
                .or_else(|_| std::fs::read_to_string(file.with_extension("amdgcn")))
                .or_else(|_| std::fs::read_to_string(&file))
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let lines_up = text.contains("s_barrier") || text.contains("v_mfma_");
            let noise = if lines_up { 3.0 } else { 1.0 };
            assert!(p.abs() < noise, "{}: {c}", m["metric"]);
        }
        // Most programs get slower, a handful faster within that noise (with
        // RDNA 2's LDS latency at 42 clocks, issue 44: clocks per wave reduce on
        // navi21 -1.1%, mfma_gemm on gfx90a -0.37% as LLVM and code-object
        // listings, f64_math on gfx1200 -0.28%, reduce on gfx1100 -0.22%,
        // many_lights_wave32 on gfx1100 -0.09%; throughput: reduce on navi21
        // +0.57%, many_lights_wave32 on gfx1100 +0.11%, lighting on gfx1100 and
        // navi21 +0.01% as RADV and ACO listings).
        assert!(m["helped"].as_u64().unwrap() <= 6, "{}", m["metric"]);
    }
    let clocks = &d["metrics"][0];
    assert!(clocks["hurt"].as_u64().unwrap() > 0);
}

/// Issue 47 item 15: every file a walk meets gets a line or a counted skip. A folder of a
/// code object, the same with its magic damaged under its `.co` name and under a name
/// without an extension, and a README: the good one gives its kernel's line, the damaged
/// `.co` an error line that says it is no code object by its first bytes, and the other two
/// are counted in one note on standard error ("skipped 2 files ...") with their names.
#[test]
fn a_walk_reads_or_counts_every_file_it_meets() {
    let dir = scratch("walk_counts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let good = root().join("tests/fixtures/codeobj/gfx1100/loop_sum.co");
    let bytes = std::fs::read(&good).unwrap();
    let mut damaged = bytes.clone();
    damaged[..4].copy_from_slice(b"XXXX");
    std::fs::copy(&good, dir.join("loop_sum.co")).unwrap();
    std::fs::write(dir.join("damaged.co"), &damaged).unwrap();
    std::fs::write(dir.join("sub/damaged_kernel"), &damaged).unwrap();
    std::fs::write(dir.join("README.md"), "a corpus\n").unwrap();
    let out = dir.join("out.jsonl");
    let o = shadersim(&["batch", dir.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let got = lines(&out);
    let files: Vec<&str> = got.iter().map(|l| l["file"].as_str().unwrap()).collect();
    // Sorted: damaged.co before loop_sum.co.
    assert_eq!(files.len(), 2, "{got:?}");
    assert!(
        files[0].ends_with("damaged.co") && files[1].ends_with("loop_sum.co"),
        "{files:?}"
    );
    let error = got[0]["error"].as_str().unwrap();
    assert!(
        error.contains(
            "nor a code object: it starts with bytes 58 58 58 58, not an ELF's 7f 45 4c 46"
        ),
        "{error}"
    );
    assert!(got[1]["error"].is_null(), "{:?}", got[1]);
    assert!(
        err.contains(&format!(
            "{}: note: skipped 2 files the walk met: 2 neither a listing (.s, .asm, .dis, .txt) nor a code object (no AMDGPU ELF or bundle magic): README.md, sub/damaged_kernel",
            dir.display()
        )),
        "{err}"
    );
}
