//! What shadersim's tests share across files and crates, so that each
//! helper exists once: running the `shadersim` binary ([`cli`]), reading a
//! short assembly text as one program ([`program`]), the fixture corpus's
//! manifests ([`fixtures`]) and the checks for the external tools some tests
//! need ([`tools`]: a missing tool skips the test, except on CI where it
//! fails it), and the house rules' readers ([`house_rules`]: file and
//! function lengths, import circles), and with the feature `engine`,
//! preparing engine runs (`sim`).
//!
//! A dev-dependency only (`publish = false`); nothing here is part of the
//! simulator.

pub mod cli;
pub mod fixtures;
pub mod house_rules;
#[cfg(feature = "engine")]
pub mod sim;
pub mod tools;

use shadersim_asm::{read_program_text, Program, ReadOptions};
use std::path::PathBuf;

/// The repository root (the workspace directory): fixture paths such as
/// `tests/fixtures/...` and `examples/...` are relative to it.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The first program of `text`, read as gfx900 (GCN 5) assembly; panics
/// with the reader's message when the text does not read.
pub fn program(text: &str) -> Program {
    program_for("gfx900", text)
}

/// The first program of `text`, read as assembly for `target` (a gfx
/// name such as `gfx1100`); panics with the reader's message when the text
/// does not read.
pub fn program_for(target: &str, text: &str) -> Program {
    let opts = ReadOptions {
        target: Some(
            target
                .parse()
                .unwrap_or_else(|e| panic!("target {target}: {e}")),
        ),
        ..Default::default()
    };
    read_program_text("t.s", text, &opts)
        .unwrap_or_else(|e| panic!("{e}"))
        .programs
        .remove(0)
}
