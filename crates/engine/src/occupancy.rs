//! Occupancy: the AMD rule is `shadersim_occupancy::amd` (one home for every occupancy rule);
//! the engine simulates with it under the names it always had.

pub use shadersim_occupancy::amd::{Limiter, Occupancy, ResourceUsage};
