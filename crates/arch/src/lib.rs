//! shadersim-arch: architecture models as data.
//!
//! A model is a TOML file (embedded for the built-in ones, or given by
//! path) with a `[params]` table of named numbers, each with its source,
//! and tables that describe the machine's shape generically: issue
//! categories, execution units, and which unit, category and cost each
//! instruction class uses. The engine reads only this; nothing GCN-specific
//! is compiled into it. Chip variants inherit from a base (`base = "gcn"`)
//! and override parameters. `--set NAME=VALUE` overrides one parameter.
//!
//! Invariants: every parameter has a non-empty source and lies in its
//! range (`data/ranges.toml`, [`ParamRange`]); every instruction
//! class of shadersim-isa is mapped by every built-in model; unknown keys
//! are errors that list the known ones.

mod cache;
mod formula;
mod names;
mod range;
mod ray_accelerator;
mod spec;

pub use cache::{CacheLevelSpec, CacheSpec, NoAllocateSpec};
pub use formula::Formula;
pub use names::{alias_target, default_model, family_model};
pub use range::ParamRange;
pub use ray_accelerator::RayAccelerator;
pub use spec::*;
