//! The Ray Accelerator of a model (`[ray_accelerator]`): box and triangle
//! test rates per CU and clock, with their source. The engine's `ray_node`
//! cost rule and `shadersim rt` both read these numbers from the model, so a
//! BVH node costs the same in both.

use serde::{Deserialize, Serialize};

/// Rates of one generation's Ray Accelerator (one per CU).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RayAccelerator {
    /// Box tests per clock per CU.
    pub box_tests_per_clock: f64,
    /// Triangle tests per clock per CU.
    pub triangle_tests_per_clock: f64,
    /// Intersection engines per Ray Accelerator.
    pub intersection_engines: u32,
    /// Where the numbers come from.
    pub source: String,
}
