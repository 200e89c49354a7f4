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

mod address_affine;
mod address_derive;
mod address_ops;
mod affine_query;
mod affine_terms;
mod buffers;
mod cursor;
mod defaults;
mod entry_guard;
mod hints;
mod kernargs;
mod lanes;
mod source_hints;
mod template;
mod tracer;
mod tripcount;
mod vector_trip;
mod wide_trip;

pub use address_affine::{address_forms, AddressForm, AffineAddress, VectorOp, VECTOR_ARITHMETIC};
pub use address_derive::{apply_derived_addresses, derive_address_patterns, DerivedAddress};
pub use buffers::{
    find_buffers, memory_roots, Buffer, BufferFound, BufferMap, BufferUse, Root, BUFFER_SPACING,
    BUFFER_SPACING_BITS, FORWARDING, STAGGER_LINES,
};
pub use cursor::{TraceCursor, TraceRun, TraceStep, TraceSummary, TraceWalk};
pub use defaults::{AddressDefault, FactSource, ImageDefault, PlanDefaults};
pub use entry_guard::{entry_guard, EntryGuard, MAX_GUARDED_GROUPS};
pub use hints::*;
pub use kernargs::apply_kernel_args;
pub use lanes::{lane_branch, LaneBranch};
pub use source_hints::{parse_source_ref, resolve_source_hints, SourceRef, NO_SOURCE_LINES};
pub use template::{hints_template, hints_template_by_source, ModelFigures};
pub use tracer::*;
pub use tripcount::{infer_trip_counts, CounterStep, InferredTrip, MAX_INFERRED_ITERATIONS};
