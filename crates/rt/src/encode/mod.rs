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

pub mod blas_walk;
pub mod box4;
pub mod box8;
pub mod decoded;
pub mod f16;
pub mod instance;
pub mod memory;
pub mod obb;
pub mod pointer;
pub mod primitive;
pub mod quantize;
pub mod triangle;

use crate::bvh::{BuildParams, Bvh2, WideBvh, WideChild};
use crate::math::{Aabb, Vec3};
use crate::mesh::Mesh;
use crate::scene::Scene;
pub use blas_walk::{decode_blas, DecodedTriangle};
use box4::BoxNode4;
use box8::{BoxNode8, ChildInfo, DecodedBox8Table};
use decoded::DecodedNodes;
use instance::InstanceNode;
use memory::BvhMemory;
use obb::{RotatedBounds, NO_OBB};
use pointer::*;
use primitive::{StoredPair, StoredTriangle};
use quantize::{node_frame, QuantizedBox};
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt;
use triangle::TriangleNode;

/// GPU generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// RDNA 2 (RT IP 1.1).
    Rdna2,
    /// RDNA 3 (RT IP 2.0).
    Rdna3,
    /// RDNA 4 (RT IP 3.1).
    Rdna4,
}

impl Arch {
    /// Parse `rdna2`, `rdna3` or `rdna4`.
    pub fn parse(s: &str) -> Option<Arch> {
        match s {
            "rdna2" => Some(Arch::Rdna2),
            "rdna3" => Some(Arch::Rdna3),
            "rdna4" => Some(Arch::Rdna4),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Rdna2 => "rdna2",
            Arch::Rdna3 => "rdna3",
            Arch::Rdna4 => "rdna4",
        }
    }
}

/// BVH layout and traversal mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BvhKind {
    /// 4-wide nodes, one node per step.
    Bvh4,
    /// 4-wide nodes, two nodes per step (RDNA 4 DUAL_INTERSECT_RAY).
    Bvh4x2,
    /// Quantized 8-wide nodes (RDNA 4 BVH8_INTERSECT_RAY).
    Bvh8,
}

impl BvhKind {
    /// Parse `bvh4`, `bvh4x2` or `bvh8`.
    pub fn parse(s: &str) -> Option<BvhKind> {
        match s {
            "bvh4" => Some(BvhKind::Bvh4),
            "bvh4x2" => Some(BvhKind::Bvh4x2),
            "bvh8" => Some(BvhKind::Bvh8),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            BvhKind::Bvh4 => "bvh4",
            BvhKind::Bvh4x2 => "bvh4x2",
            BvhKind::Bvh8 => "bvh8",
        }
    }
}

/// What to build: generation, layout and options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LayoutConfig {
    /// GPU generation.
    pub arch: Arch,
    /// Layout / traversal mode.
    pub bvh: BvhKind,
    /// Oriented bounding boxes (RDNA 4 only).
    pub obb: bool,
    /// fp16 box nodes below the root (4-wide layouts only).
    pub fp16: bool,
}

impl LayoutConfig {
    /// A configuration with OBBs and fp16 off.
    pub fn new(arch: Arch, bvh: BvhKind) -> LayoutConfig {
        LayoutConfig {
            arch,
            bvh,
            obb: false,
            fp16: false,
        }
    }

    /// Check that the generation supports the options.
    pub fn validate(&self) -> Result<(), String> {
        if self.arch != Arch::Rdna4 && self.bvh != BvhKind::Bvh4 {
            return Err(format!("{} exists only on rdna4", self.bvh.name()));
        }
        if self.arch != Arch::Rdna4 && self.obb {
            return Err("oriented bounding boxes exist only on rdna4".into());
        }
        if self.bvh == BvhKind::Bvh8 && self.fp16 {
            return Err("fp16 box nodes are 4-wide; bvh8 nodes are quantized".into());
        }
        Ok(())
    }

    /// True for the RT IP 3.x forms of the nodes (RDNA 4).
    pub fn rtip3(&self) -> bool {
        self.arch == Arch::Rdna4
    }

    /// Short name such as `rdna4 bvh8+obb`.
    pub fn label(&self) -> String {
        let mut s = format!("{} {}", self.arch.name(), self.bvh.name());
        if self.obb {
            s.push_str("+obb");
        }
        if self.fp16 {
            s.push_str("+fp16");
        }
        s
    }
}

impl fmt::Display for LayoutConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// Where a structure sits in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StructureRef {
    /// Byte address node pointers are relative to.
    pub base: u64,
    /// Root node pointer.
    pub root: u32,
    /// Byte address of the header.
    pub header: u64,
    /// Size in bytes, header and parent table included.
    pub bytes: u64,
    /// Byte offset (from `base`) of the parent-pointer table, 4-wide layouts only.
    pub parent_table: u32,
}

/// Node counts by type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct NodeCounts {
    /// 128-byte fp32 4-wide box nodes.
    pub box_fp32: u64,
    /// 64-byte fp16 4-wide box nodes.
    pub box_fp16: u64,
    /// 128-byte quantized 8-wide box nodes.
    pub box_quantized: u64,
    /// 64-byte triangle pair nodes.
    pub triangle_pair: u64,
    /// 128-byte compressed primitive nodes.
    pub primitive: u64,
    /// 128-byte instance nodes.
    pub instance: u64,
    /// Box nodes carrying an OBB rotation.
    pub with_obb: u64,
}

/// An encoded scene: memory, where its structures are, and statistics.
#[derive(Debug, Clone)]
pub struct EncodedBvh {
    /// What was built.
    pub config: LayoutConfig,
    /// All structures.
    pub memory: BvhMemory,
    /// The structure rays start in (the TLAS, or the only BLAS).
    pub top: StructureRef,
    /// One per scene mesh.
    pub blases: Vec<StructureRef>,
    /// True when `top` is a TLAS.
    pub two_level: bool,
    /// Node counts.
    pub counts: NodeCounts,
    /// Deepest box-node path from the root (TLAS and BLAS levels added).
    pub depth: usize,
    /// SAH cost of the wide trees (mean over BLASes).
    pub sah_cost: f32,
    /// SAH cost of the binary BVHs they were collapsed from.
    pub bvh2_sah_cost: f32,
    /// Triangles stored (per BLAS, not per instance).
    pub triangles: u64,
    /// BVH8 box nodes decoded once from `memory` (empty for 4-wide
    /// layouts); the traversal reads nodes here and falls back to decoding
    /// `memory` for any address it lacks. Derived data: anyone who edits
    /// `memory` must rebuild it with [`EncodedBvh::rebuild_box8_table`].
    pub box8_table: DecodedBox8Table,
    /// The other nodes decoded once from `memory` (4-wide box and triangle
    /// nodes, BVH8 primitive nodes), with the same fallback; rebuilt with
    /// the box8 table.
    pub decoded: DecodedNodes,
}

impl EncodedBvh {
    /// Decode the nodes of `memory` into [`EncodedBvh::box8_table`] and
    /// [`EncodedBvh::decoded`] again (after editing it).
    pub fn rebuild_box8_table(&mut self) {
        let roots = std::iter::once(&self.top)
            .chain(&self.blases)
            .map(|s| (s.base, s.root));
        if self.config.bvh == BvhKind::Bvh8 {
            self.box8_table = DecodedBox8Table::build(&self.memory, roots.clone());
            self.decoded = DecodedNodes::build8(&self.memory, roots);
        } else {
            self.box8_table = DecodedBox8Table::default();
            self.decoded = DecodedNodes::build4(&self.memory, roots, self.config.rtip3());
        }
    }

    /// Total bytes of all structures.
    pub fn bytes(&self) -> u64 {
        self.memory.len_bytes()
    }
}

const HEADER_BYTES: u64 = 128;
const HEADER_MAGIC: u32 = 0x5452_5353; // "SSRT"

fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// Triangle vertices of a mesh triangle as points for OBB fitting.
fn triangle_points(mesh: &Mesh, prims: &[u32], out: &mut Vec<Vec3>) {
    for &p in prims {
        out.extend_from_slice(&mesh.triangle(p as usize));
    }
}

fn subtree_points(wide: &WideBvh, node: u32, mesh: &Mesh) -> Vec<Vec3> {
    let mut out = Vec::new();
    let mut work = vec![node];
    while let Some(n) = work.pop() {
        for (_, c) in &wide.nodes[n as usize].children {
            match c {
                WideChild::Node(k) => work.push(*k),
                WideChild::Leaf(p) => triangle_points(mesh, p, &mut out),
            }
        }
    }
    out
}

/// The OBB bounds of every wide node's subtree, built bottom-up (a node's
/// from its children's; `collapse` places children after their parent), so
/// choosing a node's rotation costs its children, not every point below
/// it. Each entry is taken once, by the node's parent.
fn subtree_rotated_bounds(wide: &WideBvh, mesh: &Mesh) -> Vec<Option<RotatedBounds>> {
    let mut out: Vec<Option<RotatedBounds>> = vec![None; wide.nodes.len()];
    let mut points = Vec::new();
    for n in (0..wide.nodes.len()).rev() {
        let mut b = RotatedBounds::empty();
        for (_, c) in &wide.nodes[n].children {
            match c {
                WideChild::Node(k) => match out.get(*k as usize).and_then(Option::as_ref) {
                    Some(kb) => b.add(kb),
                    None => b.add(&RotatedBounds::of_points(&subtree_points(wide, *k, mesh))),
                },
                WideChild::Leaf(p) => {
                    points.clear();
                    triangle_points(mesh, p, &mut points);
                    b.add(&RotatedBounds::of_points(&points));
                }
            }
        }
        out[n] = Some(b);
    }
    out
}

/// The OBB choice of every BVH8 node, made bottom-up in one pass: a node's
/// children are its box children then its leaves, each in slot order (the
/// order `encode_bvh8` lays them out and chooses in); each leaf's bounds
/// are computed once, and a subtree's are dropped once its parent has them.
fn bvh8_rotations(wide: &WideBvh, mesh: &Mesh) -> Vec<Option<(u32, Vec<Aabb>)>> {
    let mut subtree: Vec<Option<RotatedBounds>> = vec![None; wide.nodes.len()];
    let mut choice = vec![None; wide.nodes.len()];
    let mut points = Vec::new();
    for n in (0..wide.nodes.len()).rev() {
        let children = &wide.nodes[n].children;
        let mut parts: Vec<RotatedBounds> = Vec::with_capacity(children.len());
        for (_, c) in children {
            if let WideChild::Node(k) = c {
                parts.push(take_rotated_bounds(&mut subtree, wide, *k, mesh));
            }
        }
        for (_, c) in children {
            if let WideChild::Leaf(p) = c {
                points.clear();
                triangle_points(mesh, p, &mut points);
                parts.push(RotatedBounds::of_points(&points));
            }
        }
        let refs: Vec<&RotatedBounds> = parts.iter().collect();
        choice[n] = obb::choose_rotation_of(&refs, 1.0);
        let mut union = RotatedBounds::empty();
        for p in &parts {
            union.add(p);
        }
        subtree[n] = Some(union);
    }
    choice
}

/// Take node `k`'s entry of [`subtree_rotated_bounds`] (computing it from
/// the points if it is not there).
fn take_rotated_bounds(
    table: &mut [Option<RotatedBounds>],
    wide: &WideBvh,
    k: u32,
    mesh: &Mesh,
) -> RotatedBounds {
    table
        .get_mut(k as usize)
        .and_then(Option::take)
        .unwrap_or_else(|| RotatedBounds::of_points(&subtree_points(wide, k, mesh)))
}

fn triangle_box(mesh: &Mesh, p: u32) -> Aabb {
    let mut b = Aabb::EMPTY;
    for v in mesh.triangle(p as usize) {
        b.grow(v);
    }
    b
}

/// What the leaves of a structure are.
enum Leaves<'a> {
    Triangles(&'a Mesh),
    Instances(&'a [InstanceLeaf]),
}

/// An instance as a TLAS leaf.
#[derive(Debug, Clone, Copy)]
struct InstanceLeaf {
    node: InstanceNode,
    world_box: Aabb,
}

/// Whether two leaf triangles fit one RT IP 2.0 pair node.
fn pairable(mesh: &Mesh, prims: &[u32]) -> bool {
    prims.len() == 2
        && triangle::pair_up(
            mesh.triangles[prims[0] as usize],
            mesh.triangles[prims[1] as usize],
        )
        .is_some()
}

/// Build parameters and width for a layout.
pub fn build_params(kind: BvhKind) -> (BuildParams, usize) {
    match kind {
        BvhKind::Bvh8 => (BuildParams::BVH8, 8),
        _ => (BuildParams::BVH4, 4),
    }
}

/// Build the binary and wide BVHs of a mesh for a layout.
pub fn build_mesh_bvh(mesh: &Mesh, kind: BvhKind) -> (Bvh2, WideBvh) {
    let (params, width) = build_params(kind);
    let boxes: Vec<Aabb> = (0..mesh.triangles.len())
        .map(|i| triangle_box(mesh, i as u32))
        .collect();
    let bvh2 = Bvh2::build(&boxes, &params);
    let wide = if width == 4 {
        WideBvh::collapse(&bvh2, 4, &|p: &[u32]| {
            if p.len() <= 1 || pairable(mesh, p) {
                1
            } else {
                p.len()
            }
        })
    } else {
        WideBvh::collapse(&bvh2, 8, &|_| 1)
    };
    (bvh2, wide)
}

/// Encode a scene in the layout `config`.
pub fn encode_scene(scene: &Scene, config: LayoutConfig) -> Result<EncodedBvh, String> {
    config.validate()?;
    let mut mem = BvhMemory::default();
    let mut counts = NodeCounts::default();
    let mut blases = Vec::new();
    let mut blas_bounds = Vec::new();
    let mut depth = 0;
    let (mut sah, mut sah2) = (0.0f32, 0.0f32);
    let (params, width) = build_params(config.bvh);
    let mut triangles = 0u64;
    for mesh in &scene.meshes {
        let (bvh2, wide) = build_mesh_bvh(mesh, config.bvh);
        sah += wide.sah_cost(&params);
        sah2 += bvh2.sah_cost(&params);
        depth = depth.max(wide.depth());
        triangles += mesh.triangles.len() as u64;
        let s = if config.bvh == BvhKind::Bvh8 {
            encode_bvh8(
                &mut mem,
                &wide,
                Leaves::Triangles(mesh),
                config,
                &mut counts,
            )
        } else {
            encode_bvh4(
                &mut mem,
                &wide,
                Leaves::Triangles(mesh),
                config,
                &mut counts,
            )
        };
        blases.push(s);
        blas_bounds.push(mesh.bounds());
    }
    let n = scene.meshes.len().max(1) as f32;
    let (top, two_level) = if scene.is_two_level() {
        let leaves: Vec<InstanceLeaf> = scene
            .instances
            .iter()
            .enumerate()
            .map(|(i, inst)| {
                let b = inst.object_to_world.transform_aabb(&blas_bounds[inst.mesh]);
                // The world box comes through an fp32 transform; pad it so a
                // hit found in object space is never culled at the TLAS.
                let mag = b.min.max_abs().max(b.max.max_abs());
                let p = mag * 8.0 * f32::EPSILON + b.extent().max_abs() * 1e-6;
                let world_box = Aabb {
                    min: b.min - Vec3::new(p, p, p),
                    max: b.max + Vec3::new(p, p, p),
                };
                let s = blases[inst.mesh];
                InstanceLeaf {
                    node: InstanceNode {
                        world_to_object: inst.world_to_object,
                        object_to_world: inst.object_to_world,
                        blas_base: if config.bvh == BvhKind::Bvh8 {
                            s.base
                        } else {
                            s.header
                        },
                        blas_root: s.root,
                        instance_index: i as u32,
                        mask: 0xFF,
                        parent: INVALID_NODE,
                        filter_box: blas_bounds[inst.mesh],
                    },
                    world_box,
                }
            })
            .collect();
        let boxes: Vec<Aabb> = leaves.iter().map(|l| l.world_box).collect();
        let tlas2 = Bvh2::build(&boxes, &BuildParams::TLAS);
        let wide = WideBvh::collapse(&tlas2, width, &|_| 1);
        depth += wide.depth();
        let s = if config.bvh == BvhKind::Bvh8 {
            encode_bvh8(
                &mut mem,
                &wide,
                Leaves::Instances(&leaves),
                config,
                &mut counts,
            )
        } else {
            encode_bvh4(
                &mut mem,
                &wide,
                Leaves::Instances(&leaves),
                config,
                &mut counts,
            )
        };
        (s, true)
    } else {
        (blases[0], false)
    };
    let mut e = EncodedBvh {
        config,
        memory: mem,
        top,
        blases,
        two_level,
        counts,
        depth,
        sah_cost: sah / n,
        bvh2_sah_cost: sah2 / n,
        triangles,
        box8_table: DecodedBox8Table::default(),
        decoded: DecodedNodes::default(),
    };
    e.rebuild_box8_table();
    Ok(e)
}

fn write_header(
    mem: &mut BvhMemory,
    at: u64,
    format: u32,
    root: u32,
    parent_table: u32,
    bytes: u64,
    prims: u32,
) {
    let w = [
        HEADER_MAGIC,
        format,
        root,
        parent_table,
        bytes as u32,
        prims,
    ];
    for (i, v) in w.iter().enumerate() {
        mem.write(at + 4 * i as u64, *v);
    }
    mem.reserve_to(at + HEADER_BYTES);
}

/// One child slot of a 4-wide node before it is written.
struct Slot4 {
    ptr: u32,
    bounds: Aabb,
    /// The bounds OBB choice needs (only when the node may get an OBB).
    obb: Option<RotatedBounds>,
}

fn encode_bvh4(
    mem: &mut BvhMemory,
    wide: &WideBvh,
    leaves: Leaves<'_>,
    config: LayoutConfig,
    counts: &mut NodeCounts,
) -> StructureRef {
    let header = align(mem.len_bytes(), 128);
    let base = header;
    let rtip3 = config.rtip3();
    let mut next: u32 = HEADER_BYTES as u32;
    let root = pack_ptr(next, TYPE_BOX);
    next += box4::BOX32_BYTES;
    // (wide node, offset, own pointer)
    let mut queue = VecDeque::from([(0u32, HEADER_BYTES as u32, root)]);
    let mut parents: Vec<(u32, u32)> = vec![(HEADER_BYTES as u32, INVALID_NODE)];
    let use_obb = config.obb && matches!(leaves, Leaves::Triangles(_));
    let mut rotated = match (&leaves, use_obb && rtip3) {
        (Leaves::Triangles(m), true) => subtree_rotated_bounds(wide, m),
        _ => Vec::new(),
    };
    while let Some((n, off, self_ptr)) = queue.pop_front() {
        let is16 = ptr_type(self_ptr) == TYPE_BOX16;
        let node_obb = use_obb && rtip3 && !is16;
        let mut slots: Vec<Slot4> = Vec::with_capacity(4);
        let mut primitive_count = 0u32;
        for (bounds, child) in &wide.nodes[n as usize].children {
            match (child, &leaves) {
                (WideChild::Node(k), _) => {
                    let fp16 = config.fp16;
                    let coff = next;
                    next += if fp16 {
                        box4::BOX16_BYTES
                    } else {
                        box4::BOX32_BYTES
                    };
                    let ptr = pack_ptr(coff, if fp16 { TYPE_BOX16 } else { TYPE_BOX });
                    queue.push_back((*k, coff, ptr));
                    parents.push((coff, self_ptr));
                    let obb = match (&leaves, node_obb) {
                        (Leaves::Triangles(m), true) => {
                            Some(take_rotated_bounds(&mut rotated, wide, *k, m))
                        }
                        _ => None,
                    };
                    slots.push(Slot4 {
                        ptr,
                        bounds: *bounds,
                        obb,
                    });
                }
                (WideChild::Leaf(prims), Leaves::Triangles(mesh)) => {
                    primitive_count += prims.len() as u32;
                    let groups: Vec<Vec<u32>> = if prims.len() == 1 || pairable(mesh, prims) {
                        vec![prims.clone()]
                    } else {
                        prims.iter().map(|&p| vec![p]).collect()
                    };
                    for g in groups {
                        let coff = next;
                        next += triangle::TRIANGLE_NODE_BYTES;
                        let t0 = mesh.triangles[g[0] as usize];
                        let node = if g.len() == 2 {
                            let t1 = mesh.triangles[g[1] as usize];
                            let (v, rot) = triangle::pair_up(t0, t1).expect("checked pairable");
                            TriangleNode {
                                vertices: v.map(|i| mesh.positions[i as usize]),
                                primitive: [g[0], g[1]],
                                geometry: 0,
                                triangle_id: triangle::triangle_id_byte(rot[0])
                                    | (triangle::triangle_id_byte(rot[1]) << 8),
                            }
                        } else {
                            let p = mesh.positions[t0[2] as usize];
                            TriangleNode {
                                vertices: [
                                    mesh.positions[t0[0] as usize],
                                    mesh.positions[t0[1] as usize],
                                    p,
                                    p,
                                ],
                                primitive: [g[0], g[0]],
                                geometry: 0,
                                triangle_id: triangle::triangle_id_byte(0),
                            }
                        };
                        node.write(mem, base + coff as u64, rtip3);
                        counts.triangle_pair += 1;
                        let ptr = pack_ptr(coff, if g.len() == 2 { TYPE_TRI1 } else { TYPE_TRI0 });
                        parents.push((coff, self_ptr));
                        let obb = node_obb.then(|| {
                            let mut points = Vec::new();
                            triangle_points(mesh, &g, &mut points);
                            RotatedBounds::of_points(&points)
                        });
                        let b = if g.len() == prims.len() {
                            *bounds
                        } else {
                            triangle_box(mesh, g[0])
                        };
                        slots.push(Slot4 {
                            ptr,
                            bounds: b,
                            obb,
                        });
                    }
                }
                (WideChild::Leaf(insts), Leaves::Instances(list)) => {
                    for &i in insts {
                        let coff = next;
                        next += instance::INSTANCE_NODE_BYTES;
                        let leaf = &list[i as usize];
                        let mut node = leaf.node;
                        node.parent = self_ptr;
                        // 4-wide layouts keep the RT IP 2.0 instance node on every
                        // generation: its sideband holds the BLAS root pointer.
                        node.write_rtip2(mem, base + coff as u64);
                        counts.instance += 1;
                        parents.push((coff, self_ptr));
                        slots.push(Slot4 {
                            ptr: pack_ptr(coff, TYPE_INSTANCE),
                            bounds: leaf.world_box,
                            obb: node_obb.then(RotatedBounds::empty),
                        });
                    }
                }
            }
        }
        debug_assert!(
            slots.len() <= 4,
            "collapse keeps 4-wide nodes within 4 slots"
        );
        let mut node = BoxNode4::empty();
        node.primitive_count = primitive_count;
        let rotation = if node_obb {
            let bounds: Vec<&RotatedBounds> = slots.iter().filter_map(|s| s.obb.as_ref()).collect();
            obb::choose_rotation_of(&bounds, 1.0)
        } else {
            None
        };
        for (i, s) in slots.iter().enumerate() {
            node.children[i] = s.ptr;
            node.boxes[i] = s.bounds;
        }
        if let Some((idx, boxes)) = rotation {
            node.obb = idx;
            node.boxes[..boxes.len()].copy_from_slice(&boxes);
            counts.with_obb += 1;
        }
        if is16 {
            node.write_fp16(mem, base + off as u64);
            counts.box_fp16 += 1;
        } else {
            node.write_fp32(mem, base + off as u64, rtip3);
            counts.box_fp32 += 1;
        }
    }
    // Parent pointers, one dword per 64-byte slot of the node region.
    let table = next;
    let slots = (next - HEADER_BYTES as u32) / 64;
    for s in 0..slots {
        mem.write(base + table as u64 + 4 * s as u64, INVALID_NODE);
    }
    for (off, parent) in parents {
        let s = (off - HEADER_BYTES as u32) / 64;
        mem.write(base + table as u64 + 4 * s as u64, parent);
    }
    let end = align(base + table as u64 + 4 * slots as u64, 128);
    mem.reserve_to(end);
    let prims = match leaves {
        Leaves::Triangles(m) => m.triangles.len() as u32,
        Leaves::Instances(l) => l.len() as u32,
    };
    write_header(
        mem,
        header,
        if rtip3 { 30 } else { 20 },
        root,
        table,
        end - header,
        prims,
    );
    StructureRef {
        base,
        root,
        header,
        bytes: end - header,
        parent_table: table,
    }
}

/// Parent pointer of node `ptr` in a 4-wide structure (the walk-back fetch).
#[inline]
pub fn parent_of_bvh4(mem: &BvhMemory, s: &StructureRef, ptr: u32) -> u32 {
    let off = ptr_offset(ptr);
    if off < HEADER_BYTES as u32 {
        return INVALID_NODE;
    }
    mem.read(s.base + s.parent_table as u64 + 4 * ((off - HEADER_BYTES as u32) / 64) as u64)
}

fn encode_bvh8(
    mem: &mut BvhMemory,
    wide: &WideBvh,
    leaves: Leaves<'_>,
    config: LayoutConfig,
    counts: &mut NodeCounts,
) -> StructureRef {
    let header = align(mem.len_bytes(), 128);
    let base = header + HEADER_BYTES;
    let root = pack_ptr31(0, TYPE_BOX);
    let mut next: u32 = box8::BOX8_BYTES;
    // (wide node, offset, parent pointer, index in parent)
    let mut queue = VecDeque::from([(0u32, 0u32, INVALID_NODE, 0u32)]);
    let use_obb = config.obb && matches!(leaves, Leaves::Triangles(_));
    let mut rotations = match (&leaves, use_obb) {
        (Leaves::Triangles(m), true) => bvh8_rotations(wide, m),
        _ => Vec::new(),
    };
    while let Some((n, off, parent, index_in_parent)) = queue.pop_front() {
        let self_ptr = pack_ptr31(off, TYPE_BOX);
        let children = &wide.nodes[n as usize].children;
        // (type, range, box)
        let mut infos: Vec<(u32, u32, Aabb)> = Vec::new();
        // Box children first: one 128-byte node each.
        let internal_base = next >> 3;
        for (bounds, c) in children {
            if let WideChild::Node(k) = c {
                let coff = next;
                next += box8::BOX8_BYTES;
                queue.push_back((*k, coff, self_ptr, infos.len() as u32));
                infos.push((TYPE_BOX, 1, *bounds));
            }
        }
        let leaf_base = next >> 3;
        match &leaves {
            Leaves::Triangles(mesh) => {
                // Pairs of every leaf, in slot order; the last pair of a leaf stops its range.
                let mut pairs: Vec<StoredPair> = Vec::new();
                let mut leaf_first_pair = Vec::new();
                let mut leaf_info = Vec::new();
                for (bounds, c) in children {
                    if let WideChild::Leaf(prims) = c {
                        leaf_first_pair.push(pairs.len());
                        let tri = |p: u32| StoredTriangle {
                            primitive: p,
                            vertices: mesh.triangle(p as usize),
                        };
                        let chunks: Vec<&[u32]> = prims.chunks(2).collect();
                        for (ci, ch) in chunks.iter().enumerate() {
                            pairs.push(StoredPair {
                                triangles: [Some(tri(ch[0])), ch.get(1).map(|&p| tri(p))],
                                range_stop: ci + 1 == chunks.len(),
                            });
                        }
                        leaf_info.push(*bounds);
                    }
                }
                let nodes = primitive::pack_greedy(&pairs);
                // Node index and pair slot of every pair.
                let mut where_is = Vec::with_capacity(pairs.len());
                for (ni, (w, count)) in nodes.iter().enumerate() {
                    let addr = base + (next + ni as u32 * primitive::PRIMITIVE_NODE_BYTES) as u64;
                    for (k, word) in w.iter().enumerate() {
                        mem.write(addr + 4 * k as u64, *word);
                    }
                    for p in 0..*count {
                        where_is.push((ni as u32, p as u32));
                    }
                }
                counts.primitive += nodes.len() as u64;
                for (li, bounds) in leaf_info.into_iter().enumerate() {
                    let (node_i, pair_i) = where_is[leaf_first_pair[li]];
                    let next_node = if li + 1 < leaf_first_pair.len() {
                        where_is[leaf_first_pair[li + 1]].0
                    } else {
                        nodes.len() as u32
                    };
                    infos.push((pair_type(pair_i), next_node - node_i, bounds));
                }
                next += nodes.len() as u32 * primitive::PRIMITIVE_NODE_BYTES;
            }
            Leaves::Instances(list) => {
                for (_, c) in children {
                    if let WideChild::Leaf(insts) = c {
                        for &i in insts {
                            let coff = next;
                            next += instance::INSTANCE_NODE_BYTES;
                            let leaf = &list[i as usize];
                            let mut node = leaf.node;
                            node.parent = self_ptr;
                            node.write_rtip31(mem, base + coff as u64);
                            counts.instance += 1;
                            infos.push((TYPE_INSTANCE, 1, leaf.world_box));
                        }
                    }
                }
            }
        }
        debug_assert!(
            infos.len() <= 8,
            "collapse keeps 8-wide nodes within 8 slots"
        );
        let rotation = if use_obb {
            rotations.get_mut(n as usize).and_then(Option::take)
        } else {
            None
        };
        let boxes: Vec<Aabb> = match &rotation {
            Some((_, b)) => b.clone(),
            None => infos.iter().map(|i| i.2).collect(),
        };
        let (origin, e) = node_frame(&boxes);
        let mut node = BoxNode8 {
            internal_base,
            leaf_base,
            parent,
            origin,
            exponents: e,
            disable_box_sort: false,
            index_in_parent,
            valid_children: infos.len() as u32,
            obb: rotation.as_ref().map_or(NO_OBB, |r| r.0),
            children: [ChildInfo::INVALID; 8],
        };
        for (i, info) in infos.iter().enumerate() {
            node.children[i] = ChildInfo {
                qbox: QuantizedBox::new(&boxes[i], origin, e),
                cull_flags: 0,
                instance_mask: 0xFF,
                node_type: info.0,
                range_length: info.1,
            };
        }
        node.write(mem, base + off as u64);
        counts.box_quantized += 1;
        if rotation.is_some() {
            counts.with_obb += 1;
        }
    }
    let end = align(base + next as u64, 128);
    mem.reserve_to(end);
    let prims = match leaves {
        Leaves::Triangles(m) => m.triangles.len() as u32,
        Leaves::Instances(l) => l.len() as u32,
    };
    write_header(mem, header, 31, root, 0, end - header, prims);
    StructureRef {
        base,
        root,
        header,
        bytes: end - header,
        parent_table: 0,
    }
}
