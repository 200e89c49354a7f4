//! Issue 17 item 3: defaults say so. A loop that ran once and a branch that
//! went its default way because the hints said nothing are listed in the
//! text, JSON (`defaults`) and HTML reports.

use crate::shadersim;
use shadersim_testkit::cli::success_stdout as stdout;
use std::path::PathBuf;

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Two nested loops, headers at lines 4 (outer) and 6 (inner).
const NESTED: &str = "tests/programs/nested_loops.s";
/// An if/else (branch at line 4) inside a loop headed at line 3.
const IF_ELSE: &str = "tests/programs/if_else_in_loop.s";

fn analyze(file: &str, format: &str, hints: Option<&str>) -> String {
    let mut args = vec!["analyze", file, "--no-latency-search", "--format", format];
    if let Some(h) = hints {
        args.extend(["--hints", h]);
    }
    stdout(&shadersim(&args))
}

/// `NESTED` with both bounds in registers (s8, s9): no trip count can be
/// inferred, so both loops run once by default. Headers at lines 4 and 6.
const NESTED_RUNTIME: &str = "; nested loops with runtime bounds
    s_mov_b32 s0, 0
.Louter:
    s_mov_b32 s1, 0
.Linner:
    v_add_f32 v0, v0, v1
    s_add_u32 s1, s1, 1
    s_cmp_lt_u32 s1, s9
    s_cbranch_scc1 .Linner
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, s8
    s_cbranch_scc1 .Louter
    s_endpgm
";

#[test]
fn unhinted_loops_are_listed_in_text_json_and_html() {
    let file = temp_file("nested_runtime.s", NESTED_RUNTIME);
    let file = file.to_str().unwrap();
    let text = analyze(file, "text", None);
    assert!(
        text.contains(
            "2 loops ran their body once by default: lines 4, 6; give iterations in a hints file"
        ),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&analyze(file, "json", None)).unwrap();
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([4, 6]));
    assert_eq!(json["defaults"]["loops_inferred"], serde_json::json!([]));
    assert_eq!(
        json["defaults"]["branches_not_taken"],
        serde_json::json!([])
    );
    let html = analyze(file, "html", None);
    assert!(
        html.contains("2 loops ran their body once by default: lines 4, 6"),
        "{html}"
    );
}

#[test]
fn a_hinted_loop_leaves_the_list() {
    let file = temp_file("nested_runtime2.s", NESTED_RUNTIME);
    let hints = temp_file("inner.toml", "[[loop]]\nline = 6\niterations = 4\n");
    let json: serde_json::Value = serde_json::from_str(&analyze(
        file.to_str().unwrap(),
        "json",
        Some(hints.to_str().unwrap()),
    ))
    .unwrap();
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([4]));
    assert_eq!(
        json["defaults"]["text"][0],
        "1 loop ran its body once by default: line 4; give iterations in a hints file"
    );
}

#[test]
fn constant_trip_counts_are_inferred_and_shown() {
    // tests/programs/nested_loops.s: s0 and s1 start at 0 and step by 1;
    // the inner loop (line 6) leaves when s1 reaches 4 (4 header
    // executions), the outer (line 4) when s0 reaches 3 (3).
    let outer = "loop at line 4: 3 iterations inferred from `s_cmp_lt_u32 s0, 3` (s0 from 0, +1 per iteration)";
    let inner = "loop at line 6: 4 iterations inferred from `s_cmp_lt_u32 s1, 4` (s1 from 0, +1 per iteration)";
    let text = analyze(NESTED, "text", None);
    assert!(text.contains(outer) && text.contains(inner), "{text}");
    assert!(!text.contains("ran once by default"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&analyze(NESTED, "json", None)).unwrap();
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([]));
    assert_eq!(
        json["defaults"]["loops_inferred"],
        serde_json::json!([
            {"line": 4, "iterations": 3, "reason": "`s_cmp_lt_u32 s0, 3` (s0 from 0, +1 per iteration)"},
            {"line": 6, "iterations": 4, "reason": "`s_cmp_lt_u32 s1, 4` (s1 from 0, +1 per iteration)"},
        ])
    );
    // The run uses them: the outer header (line 4) runs 3 times per wave,
    // the inner body (line 6) 3 x 4 = 12.
    let executions = |line: u64| {
        json["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["line"] == line)
            .map(|i| i["executions"].as_f64().unwrap())
    };
    assert_eq!(executions(4), Some(3.0));
    assert_eq!(executions(6), Some(12.0));
    let html = analyze(NESTED, "html", None);
    assert!(
        html.contains("loop at line 6: 4 iterations inferred"),
        "{html}"
    );
    // A hint wins and takes the loop out of the inferred list.
    let hints = temp_file("inner2.toml", "[[loop]]\nline = 6\niterations = 2\n");
    let json: serde_json::Value =
        serde_json::from_str(&analyze(NESTED, "json", Some(hints.to_str().unwrap()))).unwrap();
    assert_eq!(json["defaults"]["loops_inferred"][0]["line"], 4);
    assert_eq!(
        json["defaults"]["loops_inferred"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn a_branch_left_at_its_default_is_listed_until_hinted() {
    let json: serde_json::Value = serde_json::from_str(&analyze(IF_ELSE, "json", None)).unwrap();
    assert_eq!(
        json["defaults"]["branches_not_taken"],
        serde_json::json!([4])
    );
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([3]));
    let hints = temp_file(
        "branch.toml",
        "[[loop]]\nline = 3\niterations = 8\n[[branch]]\nline = 4\nprobability = 0.5\n",
    );
    let json: serde_json::Value =
        serde_json::from_str(&analyze(IF_ELSE, "json", Some(hints.to_str().unwrap()))).unwrap();
    assert_eq!(
        json["defaults"]["branches_not_taken"],
        serde_json::json!([])
    );
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([]));
    let text = analyze(IF_ELSE, "text", Some(hints.to_str().unwrap()));
    assert!(!text.contains("by default"), "{text}");
}

/// A key that is accepted must be simulated: a compute-only or vertex-only
/// dispatch key on another stage is refused at its position, not ignored.
#[test]
fn keys_that_would_change_nothing_are_refused() {
    for (text, key) in [
        (
            "[dispatch]\nstage = \"pixel\"\nworkgroup_size = 128\n",
            "workgroup_size",
        ),
        (
            "[dispatch]\nstage = \"compute\"\nvertex_inputs = 2\n",
            "vertex_inputs",
        ),
    ] {
        let hints = temp_file(&format!("{key}.toml"), text);
        let o = shadersim(&["analyze", NESTED, "--hints", hints.to_str().unwrap()]);
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(
            e.contains(":3:") && e.contains(&format!("{key} applies to")),
            "{e}"
        );
    }
    // From the command line it is a usage error.
    let o = shadersim(&[
        "analyze",
        NESTED,
        "--set",
        "stage=pixel",
        "--set",
        "workgroup_size=128",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Issue 27 item 4: a loop tested at its top runs its body without hints.
/// `tests/fixtures/radv/vega10/reduce.txt` is RADV's compile of
/// `tests/fixtures/src/glsl/reduce.comp`: a grid-stride loop over a runtime
/// count (header line 324, its exit test in the header's second block, so
/// the header runs twice by default and the body, with the
/// `buffer_load_dword` at line 337, once), then the LDS reduction
/// `for (s = 128u; s > 0u; s >>= 1)` (header line 352 tests `0 >= s0`;
/// s0 halves from 128 to 0: 9 header executions, the body 8 times), whose
/// `ds_read_b32` (line 359, behind an execz skip that falls through by
/// default) and `s_barrier` (line 368) run 8 times per wave; the barrier
/// before the loop (line 349) once.
#[test]
fn a_top_tested_loop_runs_its_body_and_a_halving_loop_its_count() {
    let json: serde_json::Value = serde_json::from_str(&analyze(
        "tests/fixtures/radv/vega10/reduce.txt",
        "json",
        None,
    ))
    .unwrap();
    let executions = |line: u64| {
        json["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["line"] == line)
            .unwrap_or_else(|| panic!("line {line}"))["executions"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(executions(324), 2.0);
    assert_eq!(executions(337), 1.0);
    assert_eq!(executions(352), 9.0);
    assert_eq!(executions(359), 8.0);
    assert_eq!(executions(368), 8.0);
    assert_eq!(executions(349), 1.0);
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([324]));
    assert_eq!(
        json["defaults"]["loops_inferred"][0]["reason"],
        "`s_cmp_ge_u32 0, s0` (s0 from 128, >> 1 per iteration)"
    );
}

/// Issue 33 item 3: every global/buffer op's lane pattern and strides, read from the code or
/// taken by default, are listed with where they came from and why, in text, JSON and HTML.
#[test]
fn address_patterns_are_listed_with_their_reasons() {
    // tests/fixtures/llvm/gfx900/gather.s: `idx[gid]` (line 23) and `out[gid]` (line 35) are
    // 4 x gid: linear, waves 4 x 64 = 256 B apart; `data[idx[gid]]` (line 30) takes its
    // address from the load at line 23: data-dependent, the defaults stay.
    let file = "tests/fixtures/llvm/gfx900/gather.s";
    let json: serde_json::Value = serde_json::from_str(&analyze(file, "json", None)).unwrap();
    let a = &json["defaults"]["addresses"];
    assert_eq!(a.as_array().unwrap().len(), 3, "{a}");
    assert_eq!(a[0]["line"], 23);
    assert_eq!(a[0]["pattern"], "linear");
    assert_eq!(a[0]["pattern_from"], "code");
    assert_eq!(a[0]["wave_stride"], 256);
    assert_eq!(a[0]["wave_stride_from"], "code");
    assert_eq!(a[0]["iteration_stride_from"], serde_json::Value::Null);
    let why = "data-dependent: the address comes from the `global_load_dword` at line 23";
    assert_eq!(a[1]["line"], 30);
    assert_eq!(a[1]["pattern"], "linear");
    assert_eq!(a[1]["pattern_from"], "default");
    assert_eq!(a[1]["pattern_reason"], why);
    assert_eq!(a[1]["wave_stride"], serde_json::Value::Null);
    assert_eq!(a[1]["wave_stride_from"], "default");
    let sentence = format!(
        "line 30: default pattern linear ({why}); default wave stride: the op's footprint (each wave its own data)"
    );
    let text = analyze(file, "text", None);
    assert!(text.contains(&sentence), "{text}");
    assert!(text.contains("lines 23, 35: pattern linear from the code (linear: address = base + 4 x work-item id (x) + 4 x workgroup id (x) x `s_and_b32` at line"), "{text}");
    let html = analyze(file, "html", None);
    assert!(
        html.contains("line 30: default pattern linear (data-dependent"),
        "{html}"
    );
    // A hint wins per key: `pattern` from the hint, the wave stride still from the code.
    let hints = temp_file(
        "gather.toml",
        "[[memory]]\nline = 23\npattern = \"stride:8\"\n",
    );
    let json: serde_json::Value =
        serde_json::from_str(&analyze(file, "json", Some(hints.to_str().unwrap()))).unwrap();
    let a = &json["defaults"]["addresses"][0];
    assert_eq!(
        (a["pattern"].as_str(), a["pattern_from"].as_str()),
        (Some("stride:8"), Some("hint"))
    );
    assert_eq!(
        (a["wave_stride"].as_u64(), a["wave_stride_from"].as_str()),
        (Some(256), Some("code"))
    );
}

/// Issue 47 item 9: lines of a real ACO listing (gfx1100 `blur.ps.s`, Mesa's RADV) that
/// name neither exec nor vcc nor a wave size, as a RenderDoc paste gives them. The run takes
/// the model's wave32 and says so, with how to choose wave64; a hint's width is no default.
const BARE_ACO: &str = "\tv_add_f32_e32 v1, s0, v0\n\tv_add_f32_e32 v3, s4, v2\n\
    \tv_subrev_f32_e32 v6, s0, v0\n\tv_fma_f32 v8, s0, 2.0, v0\n\ts_endpgm\n";

#[test]
fn a_listing_that_does_not_show_its_wave_size_lists_the_default_it_took() {
    let file = temp_file("bare_aco.s", BARE_ACO);
    let file = file.to_str().unwrap();
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["analyze", file, "--arch", "gfx1100", "--format", "json"];
        args.extend(extra);
        serde_json::from_str(&stdout(&shadersim(&args))).unwrap()
    };
    let notes = |v: &serde_json::Value| v["notes"].to_string();
    let v = run(&[]);
    assert_eq!(v["wave_size"], 32);
    assert!(
        notes(&v).contains("default: wave32, the `rdna3` model's wave size: the program does not show its own (no wave-size declaration, no exec/vcc operand); for wave64 code give [dispatch] wave_size = 64 in the hints, or --set wave_size=64"),
        "{v}"
    );
    assert_eq!(run(&["--set", "wave_size=64"])["wave_size"], 64);
    let hints = temp_file("wave64.toml", "[dispatch]\nwave_size = 64\n");
    let v = run(&["--hints", hints.to_str().unwrap()]);
    assert_eq!(v["wave_size"], 64);
    assert!(!notes(&v).contains("wave size"), "{v}");
}
