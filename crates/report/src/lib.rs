//! shadersim-report: renders what the other crates compute.
//!
//! * [`cfg_view`]: the control-flow graph as text, Graphviz dot or JSON.
//! * [`analyze_view`]: a simulation's summary and annotated listing as text, JSON or HTML.
//! * [`blocks`]: time, unit pressure and dependency chain per basic block and loop.
//! * [`html`], [`cfg_svg`]: the visual HTML page (inline SVG charts, the CFG drawn);
//!   [`activity`]: what its charts draw; [`markup`]: escaping and colours every drawing shares.
//! * [`compare_view`]: `compare`'s variants, deltas and verdicts as a text table or HTML page;
//!   [`compare_assumed`]: when an assumed cost may withhold a verdict; [`compare_html`]: its page;
//!   `compare_time`: the kernel times a verdict weighs and the defaults each variant took;
//!   `Variant::of` builds a variant from an analysis.
//! * [`occupancy_view`]: `occupancy`'s rows as a table, JSON array and SVG plot.
//! * [`sweep_view`]: `sweep`'s grid as CSV, JSON and an SVG plot.
//! * [`utilization`]: the utilization bars (units and memory-level bandwidth) both reports show.
//! * [`timeline`]: a run's events as Chrome trace JSON and binned series.
//! * [`numbers`]: the number formats and plurals every text report shares.
//!
//! Invariant: rendering is deterministic (same input, byte-identical output).

pub mod activity;
pub mod analyze_view;
pub mod blocks;
pub mod cfg_svg;
pub mod cfg_view;
pub mod compare_assumed;
pub mod compare_html;
mod compare_time;
mod compare_variant;
pub mod compare_view;
pub mod html;
pub mod markup;
pub mod occupancy_view;
pub mod source_lines;
pub mod sweep_view;
pub mod timeline;
pub mod utilization;

pub use analyze_view::numbers;
