//! The CLI's integration tests, one module per subject, built as ONE test
//! binary: cargo links each file directly under `tests/` as its own
//! executable (about 28 links of the whole simulator), a directory with a
//! `main.rs` as one. Run a subject alone with
//! `cargo test -p shadersim --test cli batch::`.
//!
//! Adding a test file: put it in this directory, add `mod NAME;` below, and
//! take the runner from here (`use crate::{root, shadersim};`) instead of
//! defining one. Paths stay relative to the repository root (the runner's
//! working directory) or to `env!("CARGO_MANIFEST_DIR")` (still
//! `crates/cli`); only `include_str!` paths, relative to the file, gain a
//! `../`. Temporary directories are named per module (`shadersim-NAME-PID`):
//! every module now shares one process id.

mod bare_listings;
mod batch;
mod cache;
mod chip_reuse;
mod cli;
mod coalesce;
mod code_objects;
mod compare;
mod compare_launch;
mod compile;
mod compile_vulkan;
mod diagnostics;
mod diverge;
mod docs_links;
mod documented_keys;
mod glsl_dialects;
mod kernel_time;
mod library_api;
mod listings;
mod liveness;
mod loop_exits;
mod loop_sample;
mod masked_index;
mod mutations;
mod nami_cli;
mod occupancy;
mod opencl_builtins;
mod readme_examples;
mod rt;
mod rt_traversal;
mod small_things;
mod source_hints;
mod source_lines;
mod sweep;
mod terascale;
mod texture_reuse;
mod triton;
mod triton_fixtures;
mod trust_defaults;
mod trust_inputs;
mod validate;
mod validate_levels;
mod visual;
mod wide_index;
mod wrong_assembly;

use shadersim_testkit::cli::Run;
use std::path::PathBuf;
use std::process::Output;

/// The repository root: fixture paths (`tests/fixtures/...`,
/// `examples/...`) are relative to it.
pub fn root() -> PathBuf {
    shadersim_testkit::repo_root()
}

/// A run of the `shadersim` binary cargo built for these tests, in the
/// repository root; add arguments, standard input, environment or another
/// directory, then `.output()`.
pub fn command() -> Run {
    Run::new(env!("CARGO_BIN_EXE_shadersim"))
}

/// `shadersim ARGS` in the repository root, run to its end.
pub fn shadersim(args: &[&str]) -> Output {
    command().args(args).output()
}

/// `shadersim ARGS` in the repository root, which must succeed: its standard output.
pub fn stdout_of(args: &[&str]) -> String {
    shadersim_testkit::cli::success_stdout(&shadersim(args))
}

/// `shadersim ARGS` in the repository root, which must succeed: its standard output as JSON.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    shadersim_testkit::cli::json(&shadersim(args))
}

/// `shadersim ARGS` in the repository root: the exit code (-1 when a
/// signal ended it), standard output and standard error as text.
pub fn shadersim_text(args: &[&str]) -> (i32, String, String) {
    command().args(args).code_and_text()
}
