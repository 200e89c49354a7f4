//! The RT IP 1.x/2.0 (and RT IP 3.1 legacy BVH4) encoder: 4-wide box nodes,
//! triangle pair nodes, instance nodes and the parent-pointer table after
//! the nodes.

use super::box4::{self, BoxNode4};
use super::instance;
use super::layout::{LayoutConfig, NodeCounts, StructureRef};
use super::memory::BvhMemory;
use super::obb::{self, RotatedBounds};
use super::pointer::*;
use super::support::{
    align, pairable, subtree_rotated_bounds, take_rotated_bounds, triangle_box, triangle_points,
    write_header, Leaves, HEADER_BYTES,
};
use super::triangle::{self, TriangleNode};
use crate::bvh::{WideBvh, WideChild};
use crate::math::Aabb;
use crate::mesh::Mesh;
use std::collections::VecDeque;

/// One child slot of a 4-wide node before it is written.
struct Slot4 {
    ptr: u32,
    bounds: Aabb,
    /// The bounds OBB choice needs (only when the node may get an OBB).
    obb: Option<RotatedBounds>,
}

pub(super) fn encode_bvh4(
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
                        let node = triangle_node(mesh, &g);
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
    finish_bvh4(mem, &leaves, header, next, root, &parents, rtip3)
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

/// The triangle node of a group of one triangle, or of two sharing an edge
/// (already checked pairable).
fn triangle_node(mesh: &Mesh, g: &[u32]) -> TriangleNode {
    let t0 = mesh.triangles[g[0] as usize];
    if g.len() == 2 {
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
    }
}

/// After the nodes: the parent-pointer table (one dword per 64-byte slot of
/// the node region, `next` its start) and the header.
fn finish_bvh4(
    mem: &mut BvhMemory,
    leaves: &Leaves<'_>,
    header: u64,
    next: u32,
    root: u32,
    parents: &[(u32, u32)],
    rtip3: bool,
) -> StructureRef {
    let base = header;
    let table = next;
    let slots = (next - HEADER_BYTES as u32) / 64;
    for s in 0..slots {
        mem.write(base + table as u64 + 4 * s as u64, INVALID_NODE);
    }
    for &(off, parent) in parents {
        let s = (off - HEADER_BYTES as u32) / 64;
        mem.write(base + table as u64 + 4 * s as u64, parent);
    }
    let end = align(base + table as u64 + 4 * slots as u64, 128);
    mem.reserve_to(end);
    let prims = match *leaves {
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
