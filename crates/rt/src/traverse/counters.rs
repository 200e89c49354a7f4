//! Per-ray traversal counters.

use serde::Serialize;
use std::ops::AddAssign;

/// What one ray cost, counted the way gpurt's DEVELOPER traversal counters
/// count: a step is one loop iteration (one intersect instruction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct RayCounters {
    /// Traversal steps: intersect instructions issued.
    pub steps: u64,
    /// Nodes fetched by those instructions (two per BVH4x2 step when both paths are live).
    pub nodes_fetched: u64,
    /// Box nodes tested.
    pub box_nodes: u64,
    /// Box tests: the child slots the intersection engines evaluate, 4 per
    /// 4-wide node and 8 per BVH8 node, valid or not (the engines process
    /// the whole node).
    pub box_tests: u64,
    /// Ray/triangle tests.
    pub triangle_tests: u64,
    /// Instance nodes processed (ray transforms).
    pub instance_tests: u64,
    /// Bytes the Ray Accelerator and the shader read from the BVH
    /// (whole nodes, plus 4 bytes per parent-pointer read; no cache model).
    pub bytes_fetched: u64,
    /// Entries written to the LDS stack.
    pub stack_pushes: u64,
    /// Entries read back from it.
    pub stack_pops: u64,
    /// Pushes that overwrote a live entry (the short stack overflowed).
    pub stack_overflows: u64,
    /// Stackless walk-backs: pops that found lost data and restarted from a parent.
    pub walk_backs: u64,
}

impl AddAssign for RayCounters {
    fn add_assign(&mut self, o: RayCounters) {
        self.steps += o.steps;
        self.nodes_fetched += o.nodes_fetched;
        self.box_nodes += o.box_nodes;
        self.box_tests += o.box_tests;
        self.triangle_tests += o.triangle_tests;
        self.instance_tests += o.instance_tests;
        self.bytes_fetched += o.bytes_fetched;
        self.stack_pushes += o.stack_pushes;
        self.stack_pops += o.stack_pops;
        self.stack_overflows += o.stack_overflows;
        self.walk_backs += o.walk_backs;
    }
}
