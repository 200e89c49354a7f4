//! shadersim-infer: what the code of a program fixes, read statically from
//! its instructions and control flow: the affine address formula of every
//! global, flat and buffer op (`address_forms`), the buffer each memory op
//! reaches (`memory_roots`), loop trip counts (`infer_trip_counts`: scalar,
//! vector and 64-bit counters), the kernel arguments a loop's exit test reads
//! (`exit_test_arguments`) and the entry guard that leaves the extra
//! workgroups of a launch without work (`entry_guard`).
//!
//! It sits between `shadersim-cfg` and `shadersim-trace`: it knows nothing
//! of hints; the trace crate combines its answers with the hints file.
//!
//! Invariant: a pure function of the program and its CFG (and the launch
//! numbers the program's declared resources carry); no I/O.

mod address_affine;
mod address_ops;
mod affine_query;
mod affine_terms;
mod buffers;
mod counter_walk;
mod entry_guard;
mod exit_args;
mod flag_exit;
mod kernel_args;
mod tripcount;
mod vector_trip;
mod wide_trip;

pub use address_affine::{address_forms, AddressForm, AffineAddress, VectorOp, VECTOR_ARITHMETIC};
pub use buffers::{
    memory_roots, root_words, roots_and_words, Buffer, BufferFound, BufferMap, BufferUse, Root,
    RootsOf, BUFFER_SPACING, BUFFER_SPACING_BITS, FORWARDING, STAGGER_LINES,
};
pub use entry_guard::{entry_guard, EntryGuard, MAX_GUARDED_GROUPS};
pub use exit_args::exit_test_arguments;
pub use flag_exit::{flag_exit, FlagExit};
pub use kernel_args::argument_names;
pub use tripcount::{
    infer_trip_counts, CounterStep, InferredTrip, MAX_COUNTED_ITERATIONS, MAX_INFERRED_ITERATIONS,
};
