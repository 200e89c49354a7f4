//! shadersim-isa: what shadersim knows about AMD GPU instructions.
//!
//! * [`target`]: generations (gfx6..gfx12) and processor names.
//! * [`class`]: encoding families and execution classes.
//! * [`table`]: the instruction table (data file embedded in the binary).
//! * [`operand`]: registers, ranges, constants and modifiers.
//! * [`waitcnt`]: wait counters, their encodings per generation, and which
//!   operations increment them.
//! * [`memory`]: memory facts of vector memory instructions (data file
//!   embedded, attached to the table's entries).
//! * [`matrix`]: matrix instructions (MFMA, WMMA): shape and clocks per processor
//!   (data file embedded).
//! * [`shape`]: the fewest operands each mnemonic takes.
//! * [`instr`]: one parsed instruction and the facts derived from it.
//! * [`refused`]: forms LLVM refuses that a reader or decoder could still take.
//!
//! Invariants: this crate does no I/O; every fact about a mnemonic comes
//! from the table (or, for unknown mnemonics, from the family rules, which
//! the caller reports as a warning).

pub mod class;
pub mod gen_encoding;
pub mod instr;
pub mod matrix;
pub mod memory;
pub mod operand;
pub mod refused;
pub mod scalar;
pub mod shape;
pub mod size;
pub mod table;
pub mod target;
mod tsv;
pub mod waitcnt;

pub use class::{Encoding, InstrClass, MemDirection};
pub use instr::{DepCtr, ExportTarget, InstrError, Instruction, Recognition};
pub use matrix::{matrix_shape, MatrixShape};
pub use memory::{BvhNodes, VmemFacts, VmemKind, VmemOp, VmemPath, D16};
pub use operand::{Operand, RegFile, RegRange, SpecialReg};
pub use scalar::{CmpCond, ScalarFacts, ScalarOp};
pub use table::{InstrInfo, InstrTable};
pub use target::{GfxGen, Target};
pub use tsv::TableError;
pub use waitcnt::{Counter, WaitSpec};
