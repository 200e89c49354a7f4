//! Every occupancy rule: AMD's, which the engine simulates with, those of GPUs shadersim
//! does not simulate, and the arithmetic shared by every vendor.
//!
//! * [`amd`]: the one rule for every AMD model (register rows, SGPRs, LDS, barriers), read
//!   from the model's parameters ([`amd::Occupancy::for_usage`], usable without a program).
//! * [`vendor`]: NVIDIA (Ampere, Hopper, Blackwell, GeForce 6) and Intel
//!   (Xe2, Xe3) occupancy models read from embedded TOML files (`data/`),
//!   every number with its source, and one calculator for all of them.
//! * [`cliffs`]: the register counts at which occupancy changes, for any
//!   occupancy function (the CLI feeds it the AMD rule, [`amd`], too).
//! * [`dynamic_vgpr`]: RDNA 4's dynamic VGPR mode as pure arithmetic.
//!
//! The engine depends on this crate, not the reverse, and re-exports the AMD rule's types.

pub mod amd;
pub mod cliffs;
pub mod dynamic_vgpr;
pub mod vendor;

pub use cliffs::{cliffs, curve, Cliff};
pub use dynamic_vgpr::{DynamicVgprConfig, DynamicVgprError, WavesReaching};
pub use vendor::{
    Allocation, Sourced, UnitOccupancy, VendorLimiter, VendorModel, VendorModelError, VendorUnit,
};
