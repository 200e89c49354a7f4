//! What several of this crate's test files share.

use shadersim_asm::{read_program_text, Program, ReadOptions};

/// The first program of `text`, read as gfx900 (GCN 5) assembly.
pub fn program(text: &str) -> Program {
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    read_program_text("t.s", text, &opts)
        .unwrap()
        .programs
        .remove(0)
}
