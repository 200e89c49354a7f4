//! Small things users hit (issue 17 item 5): `--function` by a short name,
//! `--hints -` from standard input, and a throughput figure that never
//! prints as `0.0000`.

use crate::{command, root, shadersim};
use shadersim_testkit::cli::{json, stderr, stdout};
use std::process::Output;

/// Run shadersim with `args`, feeding `stdin` to it.
fn shadersim_with_input(args: &[&str], stdin: &str) -> Output {
    command().args(args).stdin(stdin).output()
}

/// A RADV dump holding "Pixel Shader" and "Vertex Shader as VS".
const TWO_STAGES: &str = "tests/fixtures/radv/polaris10/lighting.txt";
const KERNEL: &str = "tests/fixtures/llvm/gfx900/loop_sum.s";

fn program_of(function: &str) -> Output {
    shadersim(&[
        "analyze",
        TWO_STAGES,
        "--function",
        function,
        "--format",
        "json",
        "--no-latency-search",
    ])
}

#[test]
fn function_matches_a_short_name() {
    for (given, name, stage) in [
        ("Vertex Shader as VS", "Vertex Shader as VS", "vertex"),
        ("VS", "Vertex Shader as VS", "vertex"),
        ("vs", "Vertex Shader as VS", "vertex"),
        ("vert", "Vertex Shader as VS", "vertex"),
        ("Pixel", "Pixel Shader", "pixel"),
        ("pixel shader", "Pixel Shader", "pixel"),
    ] {
        let v = json(&program_of(given));
        assert_eq!(v["program"], name, "--function {given}");
        assert_eq!(v["stage"], stage, "--function {given}");
    }
}

#[test]
fn function_that_is_ambiguous_or_unknown_lists_the_names() {
    let o = program_of("Shader");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("matches several programs"), "{e}");
    assert!(
        e.contains("`Pixel Shader`") && e.contains("`Vertex Shader as VS`"),
        "{e}"
    );

    let o = program_of("PS");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("no program named `PS`"), "{e}");
    assert!(
        e.contains("`Pixel Shader`") && e.contains("`Vertex Shader as VS`"),
        "{e}"
    );
}

#[test]
fn function_applies_to_the_other_commands_too() {
    let o = shadersim(&["cfg", TWO_STAGES, "--function", "VS", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = shadersim(&["hints", TWO_STAGES, "--function", "pixel"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Pixel Shader"), "{}", stdout(&o));
}

#[test]
fn hints_from_standard_input() {
    let args = [
        "analyze",
        KERNEL,
        "--hints",
        "-",
        "--format",
        "json",
        "--no-latency-search",
    ];
    let v = json(&shadersim_with_input(&args, "[dispatch]\nwaves = 7\n"));
    assert_eq!(v["workgroups"], 7);

    // Errors point into standard input.
    let o = shadersim_with_input(&args, "[dispatch]\nwaves = \"many\"\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("<stdin>:2:"), "{}", stderr(&o));

    // The program and the hints cannot share standard input.
    let o = shadersim(&["analyze", "-", "--hints", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The number after `throughput` in the text report.
fn throughput_text(hints: &str) -> (String, f64) {
    let o = shadersim_with_input(
        &["analyze", KERNEL, "--hints", "-", "--no-latency-search"],
        hints,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("throughput"))
        .expect("a throughput line")
        .to_string();
    let number = line.split_whitespace().nth(1).unwrap().to_string();
    let v = json(&shadersim_with_input(
        &[
            "analyze",
            KERNEL,
            "--hints",
            "-",
            "--format",
            "json",
            "--no-latency-search",
        ],
        hints,
    ));
    (
        number,
        v["throughput"]["per_second_per_cu"].as_f64().unwrap()
            / (v["throughput"]["clock_mhz"].as_f64().unwrap() * 1e6),
    )
}

fn significant_digits(number: &str) -> usize {
    let mantissa = number.split('e').next().unwrap();
    mantissa
        .trim_start_matches(['0', '.'])
        .chars()
        .filter(|c| c.is_ascii_digit())
        .count()
}

#[test]
fn small_throughput_keeps_its_significant_digits() {
    // One wave running a loop 2000 times: some 1e-4 threads per clock.
    let slow = "[dispatch]\nwaves = 1\n[[loop]]\nline = 32\niterations = 2000\n";
    let (text, exact) = throughput_text(slow);
    assert!(!text.starts_with("0.000"), "{text}");
    assert!(
        text.contains("e-"),
        "scientific notation below 0.001: {text}"
    );
    let printed: f64 = text.parse().unwrap();
    assert!(exact > 0.0 && exact < 1e-3, "{exact}");
    assert!(
        ((printed - exact) / exact).abs() < 0.01,
        "{text} is not {exact}"
    );
    assert_eq!(significant_digits(&text), 3, "{text}");
}

#[test]
fn ordinary_throughput_has_four_significant_digits() {
    let (text, exact) = throughput_text("");
    assert!(!text.contains('e'), "{text}");
    assert_eq!(significant_digits(&text), 4, "{text}");
    let printed: f64 = text.parse().unwrap();
    assert!(
        ((printed - exact) / exact).abs() < 1e-3,
        "{text} is not {exact}"
    );
}

/// `-o -` is standard output for every command that takes `-o` (it used to
/// write a file named `-` in the working directory).
#[test]
fn dash_output_is_standard_output() {
    let dash = root().join("-");
    let _ = std::fs::remove_file(&dash);
    let file_run = json(&shadersim(&[
        "analyze",
        KERNEL,
        "--format",
        "json",
        "--no-latency-search",
    ]));
    let dash_run = json(&shadersim(&[
        "analyze",
        KERNEL,
        "--format",
        "json",
        "--no-latency-search",
        "-o",
        "-",
    ]));
    assert_eq!(file_run, dash_run);
    for args in [
        &["sweep", KERNEL, "--vary", "vmem_latency=100,200", "-o", "-"][..],
        &[
            "compare",
            KERNEL,
            "--arch",
            "gcn,rdna2",
            "--no-latency-search",
            "-o",
            "-",
        ][..],
        &["batch", KERNEL, "-o", "-"][..],
    ] {
        let o = shadersim(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            !o.stdout.is_empty(),
            "{args:?} wrote nothing to standard output"
        );
    }
    assert!(!dash.exists(), "a file named `-` was written");
}

/// A TeraScale listing on standard input gets its `vliw` report as from a
/// file: the report comes from the file read once, not from reading the
/// path again after the run (which dropped it for `-`).
#[test]
fn terascale_on_standard_input_keeps_its_vliw_report() {
    let path = "tests/fixtures/r600/matmul.cypress.clang-22.s";
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let args = [
        "--format",
        "json",
        "--no-latency-search",
        "--arch",
        "cypress",
    ];
    let from_file = json(&shadersim(&[&["analyze", path][..], &args[..]].concat()));
    let from_stdin = json(&shadersim_with_input(
        &[&["analyze", "-"][..], &args[..]].concat(),
        &text,
    ));
    assert!(from_file["vliw"].is_object(), "{}", from_file["vliw"]);
    assert_eq!(from_file["vliw"], from_stdin["vliw"]);
}

/// A hints file that is not UTF-8 is an error at the first bad byte, as the
/// assembly reader places one; a trace over its bound names the loop's
/// header with `FILE:LINE:COL` (issue 32 item 4).
#[test]
fn hints_bytes_and_trace_bounds_are_located() {
    let dir = std::env::temp_dir().join(format!("shadersim-located-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, b"[dispatch]\nwaves = 4 # \xff\n").unwrap();
    let o = shadersim(&["analyze", KERNEL, "--hints", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!(
            "{}:2:13: error: invalid UTF-8 (byte 0xff): a hints file is TOML text",
            bad.display()
        )),
        "{}",
        stderr(&o)
    );
    // loop_sum.s's loop header is line 32, `\tglobal_load_dword ...` (column 2).
    let o = shadersim_with_input(
        &["analyze", KERNEL, "--hints", "-"],
        "[[loop]]\nline = 32\niterations = 100000\n[trace]\nmax_instructions = 1000\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(&format!(
            "{KERNEL}:32:2: error: the trace of one wave would exceed 1000 instructions in the loop at line 32"
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_analyze_page_records_its_hints_and_overrides() {
    // Issue 47 item 6: a page read later says what made it, as compare's
    // page does: the file and model in the title line, then the hints file
    // and the --set values as given.
    let o = shadersim(&[
        "analyze",
        "examples/lighting_ps.txt",
        "--arch",
        "gfx900",
        "--hints",
        "examples/lighting_ps.toml",
        "--set",
        "waves=100",
        "--no-latency-search",
        "--format",
        "html",
    ]);
    let page = stdout(&o);
    assert!(
        page.contains("examples/lighting_ps.txt &mdash; gfx900 ISA on the <b>gfx900</b> model"),
        "{page}"
    );
    assert!(
        page.contains("Hints: <code>examples/lighting_ps.toml</code>; --set: <code>waves=100</code>; shadersim "),
        "{page}"
    );
    let o = shadersim(&["analyze", KERNEL, "--no-latency-search", "--format", "html"]);
    assert!(stdout(&o).contains("Hints: none (defaults); --set: none;"));
}
