//! The RT IP 3.1 BVH8 encoder: quantized 8-wide box nodes, compressed
//! primitive nodes and 3.1 instance nodes, parents kept inside the nodes.

use super::box8::{self, BoxNode8, ChildInfo};
use super::layout::{LayoutConfig, NodeCounts, StructureRef};
use super::memory::BvhMemory;
use super::obb::NO_OBB;
use super::pointer::*;
use super::primitive::{StoredPair, StoredTriangle};
use super::quantize::{node_frame, QuantizedBox};
use super::support::{
    align, bvh8_rotations_portable, write_header, InstanceLeaf, Leaves, NodeRotations, HEADER_BYTES,
};
use super::{instance, primitive};
use crate::bvh::{WideBvh, WideChild};
use crate::math::Aabb;
use crate::mesh::Mesh;
use std::collections::VecDeque;

/// The OBB choice of every BVH8 node (`support::bvh8_rotations_portable`).
/// On a CPU with AVX2 the same code runs compiled for it (`super::avx2`):
/// its 312-plane loops take half the instructions in 8-lane registers, with
/// the same operations in the same order, so the same bits.
pub(super) fn bvh8_rotations(wide: &WideBvh, mesh: &Mesh) -> NodeRotations {
    #[cfg(target_arch = "x86_64")]
    if let Some(r) = super::avx2::bvh8_rotations(wide, mesh) {
        return r;
    }
    bvh8_rotations_portable(wide, mesh)
}

/// Encode one structure; `box_addrs` gets each wide node's box node address (by wide node
/// index), which [`rotate_box_nodes`] needs to give an encoding without OBBs its rotations.
pub(super) fn encode_bvh8(
    mem: &mut BvhMemory,
    wide: &WideBvh,
    leaves: Leaves<'_>,
    config: LayoutConfig,
    counts: &mut NodeCounts,
    box_addrs: &mut Vec<u64>,
) -> StructureRef {
    let header = align(mem.len_bytes(), 128);
    let base = header + HEADER_BYTES;
    let root = pack_ptr31(0, TYPE_BOX);
    let mut next: u32 = box8::BOX8_BYTES;
    // (wide node, offset, parent pointer, index in parent)
    let mut queue = VecDeque::from([(0u32, 0u32, INVALID_NODE, 0u32)]);
    box_addrs.clear();
    box_addrs.resize(wide.nodes.len(), 0);
    let use_obb = config.obb && matches!(leaves, Leaves::Triangles(_));
    let mut rotations = match (&leaves, use_obb) {
        (Leaves::Triangles(m), true) => bvh8_rotations(wide, m),
        _ => Vec::new(),
    };
    // Buffers every node reuses (a node's are dead once it is written).
    let mut infos: Vec<SlotInfo> = Vec::new();
    let mut boxes: Vec<Aabb> = Vec::new();
    let mut scratch = LeafScratch::default();
    while let Some((n, off, parent, index_in_parent)) = queue.pop_front() {
        let self_ptr = pack_ptr31(off, TYPE_BOX);
        let children = &wide.nodes[n as usize].children;
        // (type, range, box)
        infos.clear();
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
            Leaves::Triangles(mesh) => write_pair_leaves(
                mem,
                mesh,
                children,
                base,
                &mut next,
                counts,
                &mut infos,
                &mut scratch,
            ),
            Leaves::Instances(list) => write_instance_leaves(
                mem, list, children, base, self_ptr, &mut next, counts, &mut infos,
            ),
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
        boxes.clear();
        match &rotation {
            Some((_, b)) => boxes.extend_from_slice(b),
            None => boxes.extend(infos.iter().map(|i| i.2)),
        }
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
        box_addrs[n as usize] = base + off as u64;
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

/// Give the box nodes of a structure encoded without OBBs (at `box_addrs`, by wide node) the
/// rotations `rotations` chooses (`bvh8_rotations` of the same tree): each rotated node gets
/// its matrix index and its children's boxes quantized in the rotated frame, as `encode_bvh8`
/// with OBBs writes it; everything else in the node (pointers, child types and ranges) and
/// every other node are the same either way. Returns the number of nodes rotated.
pub(super) fn rotate_box_nodes(
    mem: &mut BvhMemory,
    box_addrs: &[u64],
    rotations: Vec<Option<(u32, Vec<Aabb>)>>,
) -> u64 {
    let mut rotated = 0;
    for (&addr, rotation) in box_addrs.iter().zip(rotations) {
        let Some((matrix, boxes)) = rotation else {
            continue;
        };
        let mut node = BoxNode8::read(mem, addr);
        let (origin, e) = node_frame(&boxes);
        node.origin = origin;
        node.exponents = e;
        node.obb = matrix;
        for (child, b) in node.children.iter_mut().zip(&boxes) {
            child.qbox = QuantizedBox::new(b, origin, e);
        }
        node.write(mem, addr);
        rotated += 1;
    }
    rotated
}

/// A child slot's (node type, range length, box) before the node is written.
type SlotInfo = (u32, u32, Aabb);

/// The lists [`write_pair_leaves`] fills for one box node, kept from node
/// to node so that their storage is allocated once per structure.
#[derive(Default)]
struct LeafScratch {
    /// Pairs of every leaf, in slot order.
    pairs: Vec<StoredPair>,
    /// Each leaf's first pair in `pairs`.
    leaf_first_pair: Vec<usize>,
    /// Each leaf's box.
    leaf_info: Vec<Aabb>,
    /// Node index and pair slot of every pair.
    where_is: Vec<(u32, u32)>,
}

/// Write the compressed primitive nodes of a box node's leaf children
/// (triangle pairs, packed greedily) at `next`, and add each leaf's slot.
#[allow(clippy::too_many_arguments)]
fn write_pair_leaves(
    mem: &mut BvhMemory,
    mesh: &Mesh,
    children: &[(Aabb, WideChild)],
    base: u64,
    next: &mut u32,
    counts: &mut NodeCounts,
    infos: &mut Vec<SlotInfo>,
    scratch: &mut LeafScratch,
) {
    let LeafScratch {
        pairs,
        leaf_first_pair,
        leaf_info,
        where_is,
    } = scratch;
    pairs.clear();
    leaf_first_pair.clear();
    leaf_info.clear();
    where_is.clear();
    // The last pair of a leaf stops its range.
    for (bounds, c) in children {
        if let WideChild::Leaf(prims) = c {
            leaf_first_pair.push(pairs.len());
            let tri = |p: u32| StoredTriangle {
                primitive: p,
                vertices: mesh.triangle(p as usize),
            };
            let chunks = prims.len().div_ceil(2);
            for (ci, ch) in prims.chunks(2).enumerate() {
                pairs.push(StoredPair {
                    triangles: [Some(tri(ch[0])), ch.get(1).map(|&p| tri(p))],
                    range_stop: ci + 1 == chunks,
                });
            }
            leaf_info.push(*bounds);
        }
    }
    let nodes = primitive::pack_greedy(pairs);
    if let Some(last) = nodes.len().checked_sub(1) {
        // Grown once to the last node's end, not dword by dword.
        let end = *next + (last as u32 + 1) * primitive::PRIMITIVE_NODE_BYTES;
        mem.reserve_to(base + end as u64);
    }
    for (ni, (w, count)) in nodes.iter().enumerate() {
        let addr = base + (*next + ni as u32 * primitive::PRIMITIVE_NODE_BYTES) as u64;
        mem.write_block(addr, w);
        for p in 0..*count {
            where_is.push((ni as u32, p as u32));
        }
    }
    counts.primitive += nodes.len() as u64;
    for (li, &bounds) in leaf_info.iter().enumerate() {
        let (node_i, pair_i) = where_is[leaf_first_pair[li]];
        let next_node = if li + 1 < leaf_first_pair.len() {
            where_is[leaf_first_pair[li + 1]].0
        } else {
            nodes.len() as u32
        };
        infos.push((pair_type(pair_i), next_node - node_i, bounds));
    }
    *next += nodes.len() as u32 * primitive::PRIMITIVE_NODE_BYTES;
}

/// Write the instance nodes of a box node's leaf children at `next`, and
/// add a slot for each.
#[allow(clippy::too_many_arguments)]
fn write_instance_leaves(
    mem: &mut BvhMemory,
    list: &[InstanceLeaf],
    children: &[(Aabb, WideChild)],
    base: u64,
    self_ptr: u32,
    next: &mut u32,
    counts: &mut NodeCounts,
    infos: &mut Vec<SlotInfo>,
) {
    for (_, c) in children {
        if let WideChild::Leaf(insts) = c {
            for &i in insts {
                let coff = *next;
                *next += instance::INSTANCE_NODE_BYTES;
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
