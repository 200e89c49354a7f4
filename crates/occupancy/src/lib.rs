//! Occupancy rules of GPUs shadersim does not simulate, and the arithmetic
//! shared by every vendor.
//!
//! * [`vendor`]: NVIDIA (Ampere, Hopper, Blackwell, GeForce 6) and Intel
//!   (Xe2, Xe3) occupancy models read from embedded TOML files (`data/`),
//!   every number with its source, and one calculator for all of them.
//! * [`cliffs`]: the register counts at which occupancy changes, for any
//!   occupancy function (the CLI feeds it AMD's rule from the engine too).
//! * [`dynamic_vgpr`]: RDNA 4's dynamic VGPR mode as pure arithmetic.
//!
//! The crate deliberately knows nothing of AMD's static rule: that lives in
//! `shadersim_engine::Occupancy::for_usage`, the single source the engine
//! simulates with, and the engine will depend on this crate, not the reverse.

pub mod cliffs;
pub mod dynamic_vgpr;
pub mod vendor;

pub use cliffs::{cliffs, curve, Cliff};
pub use dynamic_vgpr::{DynamicVgprConfig, DynamicVgprError, WavesReaching};
pub use vendor::{
    Allocation, Sourced, UnitOccupancy, VendorLimiter, VendorModel, VendorModelError, VendorUnit,
};
