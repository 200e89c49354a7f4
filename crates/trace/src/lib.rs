//! shadersim-trace: the hints file and the per-wave instruction trace.
//!
//! [`Hints`] is the user's description of one run (`docs/cli.md`);
//! [`TracePlan`] resolves it against a program's control flow;
//! [`WaveTrace::expand`] walks the CFG into the exact instruction sequence
//! one wave executes, bounded by a configurable length, and
//! [`TraceCursor`] yields the same sequence one instruction at a time, in
//! memory that does not grow with it.
//!
//! Invariants: every hint names something that exists (an error otherwise,
//! with its position in the hints file); expansion always terminates.

mod address_derive;
mod buffer_hints;
mod cursor;
mod defaults;
mod hints;
mod kernargs;
mod lanes;
mod source_hints;
mod template;
mod tracer;

pub use address_derive::{apply_derived_addresses, derive_address_patterns, DerivedAddress};
pub use buffer_hints::find_buffers;
pub use cursor::{TraceCursor, TraceRun, TraceStep, TraceSummary, TraceWalk};
pub use defaults::{AddressDefault, FactSource, ImageDefault, PlanDefaults};
pub use hints::*;
pub use kernargs::apply_kernel_args;
pub use lanes::{lane_branch, LaneBranch};
pub use source_hints::{parse_source_ref, resolve_source_hints, SourceRef, NO_SOURCE_LINES};
pub use template::{hints_template, hints_template_by_source, ModelFigures};
pub use tracer::*;
// What the code fixes, inferred by shadersim-infer, re-exported so the
// trace's users keep one import path.
pub use shadersim_infer::{
    address_forms, entry_guard, infer_trip_counts, memory_roots, AddressForm, AffineAddress,
    Buffer, BufferFound, BufferMap, BufferUse, CounterStep, EntryGuard, InferredTrip, Root,
    VectorOp, BUFFER_SPACING, BUFFER_SPACING_BITS, FORWARDING, MAX_GUARDED_GROUPS,
    MAX_INFERRED_ITERATIONS, STAGGER_LINES, VECTOR_ARITHMETIC,
};
