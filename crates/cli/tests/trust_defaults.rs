//! Issue 17 item 3: defaults say so. A loop that ran once and a branch that
//! went its default way because the hints said nothing are listed in the
//! text, JSON (`defaults`) and HTML reports.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shadersim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shadersim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

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

#[test]
fn unhinted_loops_are_listed_in_text_json_and_html() {
    let text = analyze(NESTED, "text", None);
    assert!(
        text.contains("2 loops ran once by default: lines 4, 6; give iterations in a hints file"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&analyze(NESTED, "json", None)).unwrap();
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([4, 6]));
    assert_eq!(
        json["defaults"]["branches_not_taken"],
        serde_json::json!([])
    );
    let html = analyze(NESTED, "html", None);
    assert!(
        html.contains("2 loops ran once by default: lines 4, 6"),
        "{html}"
    );
}

#[test]
fn a_hinted_loop_leaves_the_list() {
    let hints = temp_file("inner.toml", "[[loop]]\nline = 6\niterations = 4\n");
    let json: serde_json::Value =
        serde_json::from_str(&analyze(NESTED, "json", Some(hints.to_str().unwrap()))).unwrap();
    assert_eq!(json["defaults"]["loops_once"], serde_json::json!([4]));
    assert_eq!(
        json["defaults"]["text"][0],
        "1 loop ran once by default: line 4; give iterations in a hints file"
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
