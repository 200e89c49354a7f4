//! 64-byte triangle (pair) nodes of RT IP 1.x/2.0/3.0 (rt.md §3).
//!
//! Four vertices; a type-0 pointer tests `(v0, v1, v2)`, a type-1 pointer
//! `(v1, v3, v2)`. Two triangles share a node when the second has the first's
//! edge `v1 -> v2` reversed, which keeps both windings.

use super::memory::BvhMemory;
use crate::math::Vec3;

/// Size of a triangle node.
pub const TRIANGLE_NODE_BYTES: u32 = 64;

/// A decoded triangle pair node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleNode {
    /// v0..v3.
    pub vertices: [Vec3; 4],
    /// Primitive (triangle) index of tri0 and tri1.
    pub primitive: [u32; 2],
    /// Geometry index.
    pub geometry: u32,
    /// One byte per triangle: [1:0] vertex for barycentric I, [3:2] for J,
    /// bit 7 opaque.
    pub triangle_id: u32,
}

impl TriangleNode {
    /// The triangle tested for a pointer of type `t` (0 or 1).
    #[inline]
    pub fn triangle(&self, t: u32) -> [Vec3; 3] {
        let v = &self.vertices;
        if t == 0 {
            [v[0], v[1], v[2]]
        } else {
            [v[1], v[3], v[2]]
        }
    }

    /// Write at `addr`. `rtip3` selects the RT IP 3.0 tail (primIndex0 @48,
    /// primIndex1 @52, geometryIndex @56) instead of RT IP 1.x/2.0's
    /// (geometryIndexAndFlags @48, primIndex0 @52, primIndex1 @56).
    pub fn write(&self, mem: &mut BvhMemory, addr: u64, rtip3: bool) {
        for (i, v) in self.vertices.iter().enumerate() {
            for a in 0..3 {
                mem.write_f32(addr + 12 * i as u64 + 4 * a as u64, v.0[a]);
            }
        }
        if rtip3 {
            mem.write(addr + 48, self.primitive[0]);
            mem.write(addr + 52, self.primitive[1]);
            mem.write(addr + 56, self.geometry);
        } else {
            // Geometry flags above bit 24: bit 0 of the flags is "opaque".
            mem.write(addr + 48, (self.geometry & 0xFF_FFFF) | (1 << 24));
            mem.write(addr + 52, self.primitive[0]);
            mem.write(addr + 56, self.primitive[1]);
        }
        mem.write(addr + 60, self.triangle_id);
    }

    /// Read the node at `addr`.
    #[inline]
    pub fn read(mem: &BvhMemory, addr: u64, rtip3: bool) -> TriangleNode {
        let w: [u32; 16] = mem.block(addr);
        let f = |i: usize| f32::from_bits(w[i]);
        let vertices = [
            Vec3::new(f(0), f(1), f(2)),
            Vec3::new(f(3), f(4), f(5)),
            Vec3::new(f(6), f(7), f(8)),
            Vec3::new(f(9), f(10), f(11)),
        ];
        let (primitive, geometry) = if rtip3 {
            ([w[12], w[13]], w[14])
        } else {
            ([w[13], w[14]], w[12] & 0xFF_FFFF)
        };
        TriangleNode {
            vertices,
            primitive,
            geometry,
            triangle_id: w[15],
        }
    }
}

/// Try to put mesh triangles `a` and `b` (vertex index triples) in one node.
/// Returns the node's four vertex indices, with `a` rotated so that the
/// shared edge is `v1 -> v2`, and the rotation applied to each triangle.
pub fn pair_up(a: [u32; 3], b: [u32; 3]) -> Option<([u32; 4], [u32; 2])> {
    for ra in 0..3 {
        let (v0, v1, v2) = (a[ra], a[(ra + 1) % 3], a[(ra + 2) % 3]);
        if v0 == v1 || v1 == v2 || v0 == v2 {
            return None;
        }
        // b must contain the directed edge v2 -> v1, i.e. be (v1, v3, v2) cyclically.
        for rb in 0..3 {
            if b[rb] == v1 && b[(rb + 2) % 3] == v2 {
                let v3 = b[(rb + 1) % 3];
                if v3 == v0 || v3 == v1 || v3 == v2 {
                    return None;
                }
                return Some(([v0, v1, v2, v3], [ra as u32, rb as u32]));
            }
        }
    }
    None
}

/// triangleId byte for a triangle stored rotated by `r`: the positions of the
/// original vertices 1 and 2 (used for barycentrics I and J), opaque bit set.
pub fn triangle_id_byte(r: u32) -> u32 {
    let i = (4 - r) % 3; // where original v1 went
    let j = (5 - r) % 3; // where original v2 went
    i | (j << 2) | 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_share_a_reversed_edge() {
        // Quad 0-1-2-3 split along 0-2: (0,1,2) and (0,2,3).
        let (v, rot) = pair_up([0, 1, 2], [0, 2, 3]).unwrap();
        let t0 = [v[0], v[1], v[2]];
        let t1 = [v[1], v[3], v[2]];
        let is_rotation =
            |t: [u32; 3], o: [u32; 3]| (0..3).any(|r| (0..3).all(|k| t[k] == o[(k + r) % 3]));
        assert!(is_rotation(t0, [0, 1, 2]));
        assert!(is_rotation(t1, [0, 2, 3]));
        assert!(rot[0] < 3 && rot[1] < 3);
        // Same edge in the same direction (inconsistent winding) does not pair.
        assert!(pair_up([0, 1, 2], [0, 3, 2]).is_none());
        assert!(pair_up([0, 1, 2], [5, 6, 7]).is_none());
    }

    #[test]
    fn node_round_trip_both_tails() {
        let n = TriangleNode {
            vertices: [
                Vec3::new(0.0, 1.0, 2.0),
                Vec3::new(3.0, 4.0, 5.0),
                Vec3::new(6.0, 7.0, 8.0),
                Vec3::new(9.0, 10.0, 11.5),
            ],
            primitive: [42, 43],
            geometry: 0,
            triangle_id: triangle_id_byte(1) | (triangle_id_byte(2) << 8),
        };
        for rtip3 in [false, true] {
            let mut mem = BvhMemory::default();
            n.write(&mut mem, 64, rtip3);
            assert_eq!(TriangleNode::read(&mem, 64, rtip3), n);
        }
        assert_eq!(n.triangle(1), [n.vertices[1], n.vertices[3], n.vertices[2]]);
    }
}
