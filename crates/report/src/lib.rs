//! shadersim-report: renders what the other crates compute.
//!
//! * [`cfg_view`]: the control-flow graph as text, Graphviz dot or JSON.
//!
//! Invariant: rendering is deterministic (same input, byte-identical output).

pub mod cfg_view;
