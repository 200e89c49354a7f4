//! Encoders and decoders for the real RDNA node layouts, and the builder
//! that lays a whole scene (BLASes and a TLAS) out in one memory.
//!
//! Two families:
//! * RT IP 1.x/2.0 (RDNA 2/3) and its RT IP 3.1 legacy form (RDNA 4 BVH4 and
//!   BVH4x2): 4-wide fp32 (128 B) or fp16 (64 B) box nodes, 64-byte triangle
//!   pair nodes, 128-byte instance nodes; 64-byte aligned pointers with a
//!   3-bit type; parent pointers in a table after the nodes (for stackless
//!   walk-back).
//! * RT IP 3.1 (RDNA 4 BVH8): quantized 8-wide box nodes, compressed
//!   primitive nodes and 3.1 instance nodes, all 128 bytes, 4-bit types,
//!   parent pointers inside box and instance nodes.
//!
//! Every structure starts with a 128-byte header of our own (the fields a
//! traversal needs; gpurt's header carries much more). RT IP 2.0 pointers are
//! relative to the header, so the root is `0x15` like gpurt's; an RT IP 3.1
//! structure's base is its root node, so the instance filter's first child
//! (offset 0, type 5) is the root.

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod blas_walk;
pub mod box4;
pub mod box8;
mod bvh4_encode;
mod bvh8_encode;
pub mod decoded;
mod decoded8;
pub mod f16;
pub mod instance;
mod layout;
pub mod memory;
pub mod obb;
pub mod pointer;
pub mod primitive;
pub mod quantize;
mod scene_encode;
mod support;
pub mod triangle;

pub use blas_walk::{decode_blas, DecodedTriangle};
pub use bvh4_encode::parent_of_bvh4;
pub use layout::{ra_rates, Arch, BvhKind, EncodedBvh, LayoutConfig, NodeCounts, StructureRef};
pub use scene_encode::{build_mesh_bvh, build_params, encode_built, encode_scene, MeshBuilds};
