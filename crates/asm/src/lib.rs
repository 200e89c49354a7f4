//! shadersim-asm: reads AMD GPU assembly as real tools print it.
//!
//! Dialects: LLVM (`clang -S`, `llc`), `llvm-objdump -d`, and Mesa
//! ACO/RADV (`RADV_DEBUG=shaders` dumps). The result is a [`ProgramFile`]
//! of [`Program`]s whose instructions keep their source position, with
//! labels, resolved branch targets and the resources the compiler declared.
//!
//! Invariants: no input makes the reader panic; every error names the file
//! and, when it is about a place, the line and column; this crate does no
//! file I/O (callers pass bytes or text).

mod calls;
mod expr;
mod program;
mod reader;
mod statistics;

pub use calls::{external_calls, ExternalCall};
pub use program::*;
pub use reader::{detect_dialect, read_program_bytes, read_program_text, ReadOptions};
pub use statistics::{apply_driver_statistics, parse_driver_statistics, ExecutableStatistics};
