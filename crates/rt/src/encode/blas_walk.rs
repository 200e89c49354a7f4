//! Walking an encoded BLAS back from memory: every triangle it stores,
//! and whether every decoded child box holds its child's contents (the
//! layouts' own check that encoding lost nothing).

use super::box4::BoxNode4;
use super::box8::BoxNode8;
use super::layout::{BvhKind, EncodedBvh, StructureRef};
use super::memory::BvhMemory;
use super::obb::{self, NO_OBB};
use super::pointer::*;
use super::primitive;
use super::triangle::TriangleNode;
use crate::math::{Aabb, Vec3};
use crate::mesh::Mesh;

/// A triangle found by walking an encoded structure: (primitive, corners).
pub type DecodedTriangle = (u32, [Vec3; 3]);

/// Walk a BLAS from its root and decode every triangle it stores, checking
/// on the way that every decoded child box contains its child's contents.
/// Returns the triangles and the number of containment violations.
pub fn decode_blas(e: &EncodedBvh, s: &StructureRef, mesh: &Mesh) -> (Vec<DecodedTriangle>, usize) {
    let mem = &e.memory;
    let mut out = Vec::new();
    let mut violations = 0;
    let mut work = vec![(s.root, None::<(Aabb, Option<u32>)>)];
    let rtip3 = e.config.rtip3();
    let contains = |outer: &Aabb, obb: Option<u32>, pts: &[Vec3]| -> bool {
        pts.iter().all(|&p| {
            let q = match obb {
                Some(i) => obb::rotate(&obb::obb_matrices()[i as usize], p),
                None => p,
            };
            (0..3).all(|a| outer.min.0[a] <= q.0[a] && q.0[a] <= outer.max.0[a])
        })
    };
    if e.config.bvh == BvhKind::Bvh8 {
        while let Some((ptr, parent_box)) = work.pop() {
            let addr = s.base + ptr31_offset(ptr) as u64;
            if is_triangle31(ptr) {
                // Follow the range from this pair to its stop bit.
                for_each_triangle8(mem, addr, pair_index(ptr), |id, v| {
                    if let Some((b, obb)) = parent_box {
                        if !contains(&b, obb, &v) {
                            violations += 1;
                        }
                    }
                    out.push((id, v));
                });
                continue;
            }
            let n = BoxNode8::read(mem, addr);
            let obb = (n.obb != NO_OBB).then_some(n.obb);
            for (cptr, b) in n.decode_children() {
                if cptr != INVALID_NODE {
                    // Box children are checked against everything below them.
                    if cptr & 0xF == TYPE_BOX {
                        let mut pts = Vec::new();
                        collect_points8(e, s, cptr, &mut pts);
                        if !contains(&b, obb, &pts) {
                            violations += 1;
                        }
                    }
                    work.push((cptr, Some((b, obb))));
                }
            }
        }
    } else {
        while let Some((ptr, parent_box)) = work.pop() {
            let addr = s.base + ptr_offset(ptr) as u64;
            match ptr_type(ptr) {
                TYPE_TRI0 | TYPE_TRI1 => {
                    let n = TriangleNode::read(mem, addr, rtip3);
                    let tris: &[u32] = if ptr_type(ptr) == TYPE_TRI1 {
                        &[1, 0]
                    } else {
                        &[0]
                    };
                    for &t in tris {
                        let v = n.triangle(t);
                        if let Some((b, obb)) = parent_box {
                            if !contains(&b, obb, &v) {
                                violations += 1;
                            }
                        }
                        out.push((n.primitive[t as usize], v));
                    }
                }
                TYPE_BOX | TYPE_BOX16 => {
                    let n = if ptr_type(ptr) == TYPE_BOX {
                        BoxNode4::read_fp32(mem, addr, rtip3)
                    } else {
                        BoxNode4::read_fp16(mem, addr)
                    };
                    let obb = (n.obb != NO_OBB).then_some(n.obb);
                    for i in 0..4 {
                        if n.children[i] != INVALID_NODE {
                            work.push((n.children[i], Some((n.boxes[i], obb))));
                        }
                    }
                }
                _ => violations += 1,
            }
        }
    }
    let _ = mesh;
    (out, violations)
}

fn collect_points8(e: &EncodedBvh, s: &StructureRef, ptr: u32, out: &mut Vec<Vec3>) {
    let mem = &e.memory;
    let addr = s.base + ptr31_offset(ptr) as u64;
    if is_triangle31(ptr) {
        for_each_triangle8(mem, addr, pair_index(ptr), |_, v| out.extend(v));
        return;
    }
    let n = BoxNode8::read(mem, addr);
    for (cptr, _) in n.decode_children() {
        if cptr != INVALID_NODE {
            collect_points8(e, s, cptr, out);
        }
    }
}

/// Every triangle of a BVH8 compressed-primitive range, from pair `pair`
/// of the node at `addr` to the range's stop bit (across nodes): its
/// primitive index and corners.
fn for_each_triangle8(mem: &BvhMemory, addr: u64, pair: u32, mut f: impl FnMut(u32, [Vec3; 3])) {
    let (mut node_addr, mut pair) = (addr, pair);
    loop {
        let w: [u32; 32] = mem.block(node_addr);
        let h = primitive::PrimitiveHeader::read(&w);
        let d = h.pair_desc(&w, pair);
        for t in 0..2 {
            if let Some(i) = primitive::triangle_indices(d, t) {
                let v = [h.vertex(&w, i[0]), h.vertex(&w, i[1]), h.vertex(&w, i[2])];
                f(h.primitive_id(&w, 2 * pair + t), v);
            }
        }
        match h.navigation(d, pair) {
            primitive::END_OF_RANGE => break,
            primitive::END_OF_NODE => {
                node_addr += 128;
                pair = 0;
            }
            _ => pair += 1,
        }
    }
}
