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
    /// The RT IP 3.x node formats: BVH8 nodes, dual 4-wide pairs, oriented
    /// bounding boxes and the 3.x forms of every node. Absent: 4-wide nodes
    /// only. `shadersim rt` offers a generation's layouts from it; its JSON
    /// lists the rates, not this flag.
    #[serde(default, skip_serializing)]
    pub rtip3_nodes: bool,
}
