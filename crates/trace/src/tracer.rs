//! From hints to the dynamic instruction sequence one wave executes.
//!
//! Split by task: `plan` resolves hints against a program, `expand` is
//! the reference expansion the streaming cursor is tested against, `rule`
//! the branch decision both follow, and
//! `memory_hints` resolves the `[[memory]]` hints. Every public item is
//! re-exported here, so `crate::tracer::*` paths are unchanged.

mod expand;
mod memory_hints;
mod plan;
mod rule;

pub(crate) use expand::too_long;
pub use expand::{TraceError, WaveTrace};
pub use memory_hints::{memory_facts, MemoryFacts, MAX_LATENCY_HINT};
pub use plan::{
    default_iterations, IterationDraw, TracePlan, WaveSet, DEFAULT_MAX_INSTRUCTIONS, DEFAULT_SEED,
};
pub(crate) use rule::BranchRule;
