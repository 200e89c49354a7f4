//! shadersim-rt: build, encode and traverse RDNA 2/3/4 bounding volume
//! hierarchies, and model what the Ray Accelerator does with them.
//!
//! The pipeline, one module each:
//! * [`mesh`] / [`scene`]: OBJ, PLY and OFF meshes, procedural meshes, and
//!   TOML scenes of instances (a TLAS over BLASes);
//! * [`bvh`]: a binned-SAH binary BVH collapsed to 4 or 8 wide;
//! * [`encode`]: the real node byte layouts (RT IP 1.x/2.0 4-wide fp32/fp16
//!   box nodes, 64-byte triangle pair nodes; RT IP 3.1 quantized BVH8 box
//!   nodes with oriented bounding boxes, compressed primitive nodes;
//!   instance nodes) and their decoders;
//! * [`traverse`]: traversal that reads only those bytes, with the
//!   hardware's box test, sort networks and LDS short stack, counting steps,
//!   tests, bytes, overflows and walk-backs per ray;
//! * [`cost`]: the Ray Accelerator rates per CU (a data table) and the
//!   utilization arithmetic of seed 000;
//! * [`rays`], [`report`], [`heatmap`]: ray sets, the side-by-side layout
//!   comparison and the steps-per-pixel image behind `shadersim rt`.
//!
//! [`reference`] is the brute-force closest hit everything is checked against.

// Loops over the x/y/z axes and fixed node slots index several parallel
// arrays at once; iterator chains would hide which slot is which.
#![allow(clippy::needless_range_loop)]

pub mod bvh;
pub mod cost;
pub mod encode;
pub mod heatmap;
pub mod limits;
pub mod math;
pub mod mesh;
pub mod ray;
pub mod rays;
pub mod reference;
pub mod report;
pub mod rng;
pub mod scene;
pub mod traverse;
