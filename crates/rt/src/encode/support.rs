//! Pieces the 4-wide and 8-wide encoders share: the structure header, the
//! leaf kinds a structure holds, and the OBB bounds of wide-BVH subtrees.

use super::instance::InstanceNode;
use super::memory::BvhMemory;
use super::obb::{self, RotatedBounds};
use super::triangle::{self};
use crate::bvh::{WideBvh, WideChild};
use crate::math::{Aabb, Vec3};
use crate::mesh::Mesh;

pub(super) const HEADER_BYTES: u64 = 128;
pub(super) const HEADER_MAGIC: u32 = 0x5452_5353; // "SSRT"

pub(super) fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// Triangle vertices of a mesh triangle as points for OBB fitting.
pub(super) fn triangle_points(mesh: &Mesh, prims: &[u32], out: &mut Vec<Vec3>) {
    for &p in prims {
        out.extend_from_slice(&mesh.triangle(p as usize));
    }
}

pub(super) fn subtree_points(wide: &WideBvh, node: u32, mesh: &Mesh) -> Vec<Vec3> {
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
pub(super) fn subtree_rotated_bounds(wide: &WideBvh, mesh: &Mesh) -> Vec<Option<RotatedBounds>> {
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

/// Every wide node's OBB choice, by node: the rotation's table index and
/// the children's boxes in its frame, or `None` for plain boxes.
pub(super) type NodeRotations = Vec<Option<(u32, Vec<Aabb>)>>;

/// The OBB choice of every BVH8 node, made bottom-up in one pass: a node's
/// children are its box children then its leaves, each in slot order (the
/// order `encode_bvh8` lays them out and chooses in); each leaf's bounds
/// are computed once, into buffers every leaf reuses, and a subtree's are
/// dropped once its parent has them. For any CPU; inlined whole, with the
/// plane loops it calls, into its AVX2 copy (`bvh8_encode::bvh8_rotations`
/// picks one).
#[inline(always)]
pub(super) fn bvh8_rotations_portable(wide: &WideBvh, mesh: &Mesh) -> NodeRotations {
    let mut subtree: Vec<Option<RotatedBounds>> = vec![None; wide.nodes.len()];
    let mut choice = vec![None; wide.nodes.len()];
    let mut points = Vec::new();
    let (mut vertices, mut distinct) = (Vec::new(), Vec::new());
    let mut cache = obb::VertexPlanes::default();
    let mut leaf_bounds: Vec<RotatedBounds> = Vec::new();
    // The box children's bounds of the node at hand, and bounds whose node is
    // done, kept for their storage (a subtree's bounds live until its parent
    // has them, so as many are made as there are nodes, but few at once).
    let mut inner: Vec<RotatedBounds> = Vec::new();
    let mut spare: Vec<RotatedBounds> = Vec::new();
    for n in (0..wide.nodes.len()).rev() {
        let children = &wide.nodes[n].children;
        for (_, c) in children {
            if let WideChild::Node(k) = c {
                inner.push(take_rotated_bounds(&mut subtree, wide, *k, mesh));
            }
        }
        let mut leaves = 0;
        for (_, c) in children {
            if let WideChild::Leaf(p) = c {
                if leaves == leaf_bounds.len() {
                    leaf_bounds.push(RotatedBounds::empty());
                }
                points.clear();
                triangle_points(mesh, p, &mut points);
                // Each vertex once: a leaf's triangles share corners, and
                // comparing indices is cheaper than comparing points.
                vertices.clear();
                for &t in p {
                    for v in mesh.triangles[t as usize] {
                        if !vertices.contains(&v) {
                            vertices.push(v);
                        }
                    }
                }
                let b = &mut leaf_bounds[leaves];
                if !cache.set_bounds(b, &points, &vertices, &mesh.positions) {
                    distinct.clear();
                    distinct.extend(vertices.iter().map(|&v| mesh.positions[v as usize]));
                    b.set_points_from(&points, &distinct);
                }
                leaves += 1;
            }
        }
        let refs: Vec<&RotatedBounds> = inner.iter().chain(&leaf_bounds[..leaves]).collect();
        choice[n] = obb::choose_rotation_of(&refs, 1.0);
        // The union in slot order; min and max are exact and never meet a
        // -0.0 (see `RotatedBounds`), so starting from the first part's
        // storage instead of an empty one gives the same bits.
        let mut parts = inner.drain(..);
        let mut union = parts.next().unwrap_or_else(|| match spare.pop() {
            Some(mut b) => {
                b.clear();
                b
            }
            None => RotatedBounds::empty(),
        });
        for p in parts {
            union.add(&p);
            spare.push(p);
        }
        for p in &leaf_bounds[..leaves] {
            union.add(p);
        }
        subtree[n] = Some(union);
    }
    choice
}

/// Take node `k`'s entry of [`subtree_rotated_bounds`] (computing it from
/// the points if it is not there).
pub(super) fn take_rotated_bounds(
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

pub(super) fn triangle_box(mesh: &Mesh, p: u32) -> Aabb {
    let mut b = Aabb::EMPTY;
    for v in mesh.triangle(p as usize) {
        b.grow(v);
    }
    b
}

/// What the leaves of a structure are.
pub(super) enum Leaves<'a> {
    Triangles(&'a Mesh),
    Instances(&'a [InstanceLeaf]),
}

/// An instance as a TLAS leaf.
#[derive(Debug, Clone, Copy)]
pub(super) struct InstanceLeaf {
    pub(super) node: InstanceNode,
    pub(super) world_box: Aabb,
}

/// Whether two leaf triangles fit one RT IP 2.0 pair node.
pub(super) fn pairable(mesh: &Mesh, prims: &[u32]) -> bool {
    prims.len() == 2
        && triangle::pair_up(
            mesh.triangles[prims[0] as usize],
            mesh.triangles[prims[1] as usize],
        )
        .is_some()
}

pub(super) fn write_header(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::layout::BvhKind;
    use crate::encode::scene_encode::build_mesh_bvh;
    use crate::mesh::procedural;

    /// The bottom-up choice (children's bounds unioned, leaf bounds in
    /// reused buffers, unions started from the first part) is the rule's
    /// own answer: `choose_rotation` on each child's points, box children
    /// then leaves, index and boxes bit for bit.
    #[test]
    fn bvh8_rotations_equal_the_choice_from_each_childs_points() {
        let bits = |b: &Aabb| [b.min.0, b.max.0].map(|v| v.map(f32::to_bits));
        for mesh in [
            procedural::bumpy_sphere(8, 16),
            procedural::thin_rotated_parts(4, 9, 5),
        ] {
            let (_, wide) = build_mesh_bvh(&mesh, BvhKind::Bvh8);
            let fast = bvh8_rotations_portable(&wide, &mesh);
            let mut rotated = 0;
            for (n, node) in wide.nodes.iter().enumerate() {
                let mut sets: Vec<Vec<Vec3>> = Vec::new();
                for (_, c) in &node.children {
                    if let WideChild::Node(k) = c {
                        sets.push(subtree_points(&wide, *k, &mesh));
                    }
                }
                for (_, c) in &node.children {
                    if let WideChild::Leaf(p) = c {
                        let mut points = Vec::new();
                        triangle_points(&mesh, p, &mut points);
                        sets.push(points);
                    }
                }
                let want = obb::choose_rotation(&sets, 1.0);
                let got = &fast[n];
                assert_eq!(
                    want.as_ref().map(|w| w.0),
                    got.as_ref().map(|g| g.0),
                    "node {n}"
                );
                if let (Some(w), Some(g)) = (want, got) {
                    let w: Vec<_> = w.1.iter().map(bits).collect();
                    let g: Vec<_> = g.1.iter().map(bits).collect();
                    assert_eq!(w, g, "node {n}");
                    rotated += 1;
                }
            }
            assert!(rotated > 0, "some node takes a rotation");
        }
    }
}
