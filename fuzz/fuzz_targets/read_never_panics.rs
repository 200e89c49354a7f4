//! Any bytes: the reader returns a program file or an error, and the
//! control-flow analysis of whatever it read returns a graph or an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shadersim_asm::{read_program_bytes, ReadOptions};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = read_program_bytes("fuzz.s", data, &ReadOptions::default()) {
        for p in &file.programs {
            let _ = shadersim_cfg::Cfg::build(p);
        }
    }
});
