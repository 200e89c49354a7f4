//! The projection cache of the OBB choice: mesh vertices' coordinates on
//! every plane, kept by vertex index.

use super::{matrices_by_plane, store_chunk, RotatedBounds, CHUNKS, LANES, PLANES};
use crate::math::{Aabb, Vec3};

/// Mesh vertices' coordinates on every plane, kept by vertex index in a
/// direct-mapped cache of [`VertexPlanes::SLOTS`] entries: a vertex is
/// shared by about six triangles, which sit in a few leaves the bottom-up
/// OBB choice meets close together, so most of a leaf's vertices were
/// projected for a leaf just before. (A table of every vertex was tried and
/// dropped: 44 MB more memory, and its page faults and cache misses cost
/// more time than the projections it saved; 1,024 entries are 1.25 MB.)
pub struct VertexPlanes {
    /// The vertex each slot holds, `u32::MAX` for none.
    tags: Vec<u32>,
    /// Each slot's coordinates, [`super::rotate`]'s bits. A fixed-size
    /// array, so that a slot (`vertex % SLOTS`) indexes it without a bounds
    /// test.
    planes: Box<[[f32; PLANES]; VertexPlanes::SLOTS]>,
}

impl Default for VertexPlanes {
    fn default() -> Self {
        let planes = vec![[0.0; PLANES]; Self::SLOTS].into_boxed_slice();
        VertexPlanes {
            tags: vec![u32::MAX; Self::SLOTS],
            planes: planes.try_into().expect("SLOTS entries"),
        }
    }
}

impl VertexPlanes {
    /// Entries kept.
    pub const SLOTS: usize = 1024;

    /// Make `bounds` the bounds of `points`, which are the mesh vertices
    /// `vertices` (each distinct vertex at least once) of `positions`,
    /// projecting only the vertices the cache lacks. Returns false, and
    /// leaves `bounds` alone, when two of the vertices take one slot or
    /// there is no vertex (the caller projects them itself).
    #[inline(always)]
    pub fn set_bounds(
        &mut self,
        bounds: &mut RotatedBounds,
        points: &[Vec3],
        vertices: &[u32],
        positions: &[Vec3],
    ) -> bool {
        const MAX: usize = 32;
        if vertices.is_empty() || vertices.len() > MAX {
            return false;
        }
        let mut slots = [0usize; MAX];
        for (i, &v) in vertices.iter().enumerate() {
            let s = v as usize % Self::SLOTS;
            if slots[..i].contains(&s) {
                return false;
            }
            slots[i] = s;
        }
        for (&v, &s) in vertices.iter().zip(&slots) {
            if self.tags[s] != v {
                project(positions[v as usize], &mut self.planes[s]);
                self.tags[s] = v;
            }
        }
        bounds.empty = points.is_empty();
        bounds.plain = Aabb::EMPTY;
        for &p in points {
            bounds.plain.grow(p);
        }
        // Each vertex's coordinates, looked up once for all chunks.
        let planes = &self.planes;
        let mut rows = [&planes[0]; MAX];
        for (row, &s) in rows.iter_mut().zip(&slots[..vertices.len()]) {
            *row = &planes[s % Self::SLOTS];
        }
        let (first, rest) = (rows[0], &rows[1..vertices.len()]);
        for ci in 0..CHUNKS {
            let c = ci * LANES;
            // The first vertex's coordinates are the least and greatest of
            // one vertex: the compare-and-select below from the infinities
            // would give exactly them (`inf < q` is false for every `q`).
            let at = |row: &[f32; PLANES]| -> [f32; LANES] {
                row[c..c + LANES]
                    .try_into()
                    .expect("PLANES is a multiple of LANES")
            };
            let mut lo = at(first);
            let mut hi = lo;
            for &row in rest {
                let q = at(row);
                for k in 0..LANES {
                    // As in `set_points_from`, on values that are never
                    // -0.0 or NaN.
                    lo[k] = if lo[k] < q[k] { lo[k] } else { q[k] };
                    hi[k] = if hi[k] > q[k] { hi[k] } else { q[k] };
                }
            }
            store_chunk(&mut bounds.lo, c, lo);
            store_chunk(&mut bounds.hi, c, hi);
        }
        true
    }
}

/// A point's coordinate on every plane: [`super::rotate`] by every rotation,
/// its operations in its order, lane by lane.
#[inline(always)]
fn project(p: Vec3, out: &mut [f32; PLANES]) {
    let m = matrices_by_plane();
    let [x, y, z] = p.0;
    for i in 0..PLANES {
        let mut v = z * m[2][i] + 0.0;
        v += y * m[1][i];
        v += x * m[0][i];
        out[i] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bounds from the vertex cache equal `of_points`, bit for bit: on a
    /// leaf's first visit (vertices projected), on a later one sharing
    /// vertices (taken from the cache), with a vertex evicted by another in
    /// its slot, and with negative zeros; two vertices in one slot, and no
    /// vertex at all, are refused, leaving the bounds alone.
    #[test]
    fn cached_vertex_bounds_equal_bounds_of_the_points() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut positions: Vec<Vec3> = (0..3000)
            .map(|_| Vec3::new(rng.next_f32() * 2.0 - 1.0, rng.next_f32(), -rng.next_f32()))
            .collect();
        positions[7] = Vec3::new(-0.0, 0.0, -0.0);
        let slots = VertexPlanes::SLOTS as u32;
        let mut cache = VertexPlanes::default();
        let bits = |b: &RotatedBounds| {
            let planes = |v: &[f32; PLANES]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            (planes(&b.lo), planes(&b.hi), b.empty)
        };
        let leaves: [&[u32]; 5] = [
            &[0, 1, 2, 3],
            &[2, 3, 4, 7],
            &[7, 2 + slots, 9, 1],
            &[2, 3, 4, 7, 0],
            &[5],
        ];
        for vertices in leaves {
            // Corners repeat in a leaf's triangles: the bounds of the points
            // with repeats are wanted.
            let points: Vec<Vec3> = vertices
                .iter()
                .chain(vertices)
                .map(|&v| positions[v as usize])
                .collect();
            let mut got = RotatedBounds::empty();
            assert!(cache.set_bounds(&mut got, &points, vertices, &positions));
            let want = RotatedBounds::of_points(&points);
            assert!(bits(&got) == bits(&want), "{vertices:?}");
            assert_eq!(got.plain, want.plain);
        }
        let mut untouched = RotatedBounds::empty();
        let clash = [3, 3 + slots];
        let points: Vec<Vec3> = clash.iter().map(|&v| positions[v as usize]).collect();
        assert!(!cache.set_bounds(&mut untouched, &points, &clash, &positions));
        assert!(!cache.set_bounds(&mut untouched, &[], &[], &positions));
        assert!(untouched.empty);
    }
}
