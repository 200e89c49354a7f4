//! Shader source handed to shadersim: compiled in a child process for the
//! chosen GPU, then read like the compiler's own listing.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shadersim(args: &[&str], path_env: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shadersim"));
    c.args(args)
        .current_dir(root().join("tests/fixtures/src/opencl"));
    if let Some(p) = path_env {
        c.env("PATH", p);
    }
    c.output().expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn have_clang() -> bool {
    ["clang-22", "clang-19", "clang"]
        .iter()
        .any(|c| Command::new(c).arg("--version").output().is_ok())
}

/// The "N instructions" of `shadersim cfg`'s first line.
fn instructions(cfg_output: &str) -> String {
    let first = cfg_output.lines().next().unwrap_or_default();
    first
        .split(": ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn opencl_source_reads_like_the_compilers_listing() {
    if !have_clang() {
        // CI installs clang-22 (.ci/run): there the test must run.
        assert!(
            std::env::var_os("CI").is_none(),
            "clang is missing on CI: .ci/run installs clang-22"
        );
        eprintln!("skipped: no clang (Debian package clang-19)");
        return;
    }
    let o = shadersim(&["compile", "loop_sum.cl", "--arch", "gfx900"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\""));
    // The fixture was made by the same compiler command
    // (scripts/regen-fixtures.sh): the same program.
    let compiled = shadersim(&["cfg", "loop_sum.cl", "--arch", "gfx900"], None);
    assert!(compiled.status.success(), "{}", text(&compiled.stderr));
    let fixture = shadersim(&["cfg", "../../llvm/gfx900/loop_sum.s"], None);
    assert_eq!(
        instructions(&text(&compiled.stdout)),
        instructions(&text(&fixture.stdout))
    );
    assert!(text(&compiled.stderr).contains("compiled for gfx900"));
    let analyzed = shadersim(
        &[
            "analyze",
            "loop_sum.cl",
            "--arch",
            "gfx900",
            "--no-latency-search",
        ],
        None,
    );
    assert!(analyzed.status.success(), "{}", text(&analyzed.stderr));
    // gfx12 (RDNA 4) through clang-22, on the rdna4 model.
    if Command::new("clang-22").arg("--version").output().is_ok() {
        let o = shadersim(
            &[
                "analyze",
                "loop_sum.cl",
                "--arch",
                "gfx1200",
                "--no-latency-search",
            ],
            None,
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains("on the `rdna4` model"),
            "{}",
            text(&o.stdout)
        );
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            ".ci/run installs clang-22"
        );
    }
}

#[test]
fn missing_compilers_and_unsupported_sources_are_clear_errors() {
    let o = shadersim(
        &["compile", "loop_sum.cl", "--arch", "gfx900"],
        Some("/nonexistent"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("Debian package clang-19"),
        "{}",
        text(&o.stderr)
    );
    let o = shadersim(&["cfg", "loop_sum.cl"], None);
    assert_eq!(
        o.status.code(),
        Some(2),
        "source without --arch is a usage error"
    );
}
