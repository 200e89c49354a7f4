//! Shader source handed to shadersim: compiled in a child process for the
//! chosen GPU, then read like the compiler's own listing.

use crate::{command, root};
use shadersim_testkit::tools::{have_clang, have_clang_22};
use std::process::Output;

/// `shadersim ARGS` in the OpenCL sources' directory, with `PATH` replaced
/// by `path_env` when given.
fn shadersim(args: &[&str], path_env: Option<&str>) -> Output {
    let run = command()
        .args(args)
        .dir(root().join("tests/fixtures/src/opencl"));
    match path_env {
        Some(p) => run.env("PATH", p),
        None => run,
    }
    .output()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
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
    if have_clang_22() {
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
