//! shadersim-report: renders what the other crates compute.
//!
//! * [`cfg_view`]: the control-flow graph as text, Graphviz dot or JSON.
//! * [`analyze_view`]: a simulation's summary and annotated listing as text, JSON or HTML.
//!
//! Invariant: rendering is deterministic (same input, byte-identical output).

pub mod analyze_view;
pub mod cfg_view;
pub mod source_lines;
