//! RDNA 4 oriented bounding boxes: the 104-rotation table and the choice of
//! a rotation per box node (rt.md §7).
//!
//! One rotation serves all children of a node; the children are quantized in
//! the rotated frame and the hardware rotates the ray (origin and direction,
//! about the world origin) before the ordinary slab test. The table is built
//! at first use from `data/obb_table.toml`: 26 fp32 magnitudes and 104
//! entries of nine 6-bit codes (AMD gpurt data, MIT).

use crate::math::{Aabb, Vec3};
use serde::Deserialize;
use std::sync::OnceLock;

/// Node value meaning "no OBB: plain axis-aligned boxes".
pub const NO_OBB: u32 = 0x7F;
/// Number of rotations in the table.
pub const OBB_MATRIX_COUNT: usize = 104;
/// gpurt pads OBB extents by this fraction of the longest extent.
pub const OBB_PADDING: f32 = 7.15254e-7;

#[derive(Deserialize)]
struct TableFile {
    magnitudes: Vec<u32>,
    matrices: Vec<u64>,
}

/// A 3x3 rotation, rows first: `local = M * world`.
pub type Matrix3 = [[f32; 3]; 3];

/// The decoded table.
pub fn obb_matrices() -> &'static [Matrix3; OBB_MATRIX_COUNT] {
    static TABLE: OnceLock<[Matrix3; OBB_MATRIX_COUNT]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let file: TableFile = toml::from_str(include_str!("../../data/obb_table.toml"))
            .expect("the embedded OBB table parses");
        assert_eq!(file.magnitudes.len(), 26, "the OBB table has 26 magnitudes");
        assert_eq!(
            file.matrices.len(),
            OBB_MATRIX_COUNT,
            "the OBB table has 104 matrices"
        );
        // The 32-entry second-level table: 26 values, then zeros.
        let mut stage2 = [0u32; 32];
        stage2[..26].copy_from_slice(&file.magnitudes);
        let mut out = [[[0.0f32; 3]; 3]; OBB_MATRIX_COUNT];
        for (m, &packed) in out.iter_mut().zip(&file.matrices) {
            for (r, row) in m.iter_mut().enumerate() {
                for (c, v) in row.iter_mut().enumerate() {
                    let code = ((packed >> (18 * r + 6 * c)) & 0x3F) as u32;
                    *v = f32::from_bits(stage2[(code & 0x1F) as usize] | ((code >> 5) << 31));
                }
            }
        }
        out
    })
}

/// Rotate a point or direction: `M * v`, with gpurt's `OBBTransform`
/// operation order (z term first, then y, then x) so the builder and the
/// traversal round identically.
#[inline]
pub fn rotate(m: &Matrix3, v: Vec3) -> Vec3 {
    let mut r = [0.0f32; 3];
    for (row, out) in r.iter_mut().enumerate() {
        let mut x = v.0[2] * m[row][2] + 0.0;
        x += v.0[1] * m[row][1];
        x += v.0[0] * m[row][0];
        *out = x;
    }
    Vec3(r)
}

/// Bounds of `points` in the frame of `m`, padded like gpurt pads OBBs.
pub fn rotated_bounds(m: &Matrix3, points: &[Vec3]) -> Aabb {
    let mut b = Aabb::EMPTY;
    for &p in points {
        b.grow(rotate(m, p));
    }
    pad(b)
}

/// Pad a rotated box by `OBB_PADDING` times its longest extent, plus a few
/// ulps of its largest coordinate: the ray is rotated in fp32 at traversal
/// time, and a hit point on a triangle at the box face must still land in
/// the box after that rounding.
pub fn pad(b: Aabb) -> Aabb {
    if b.is_empty() {
        return b;
    }
    let e = b.extent().max_abs();
    let mag = b.min.max_abs().max(b.max.max_abs());
    let p = OBB_PADDING * e + mag * 4.0 * f32::EPSILON;
    Aabb {
        min: b.min - Vec3::new(p, p, p),
        max: b.max + Vec3::new(p, p, p),
    }
}

/// What [`choose_rotation_of`] needs of one child's point set: its
/// axis-aligned box and its boxes in the frame of every table rotation
/// (unpadded). The boxes of a union of sets are the unions of the sets'
/// boxes, so a subtree's come from its children's without visiting its
/// points again: min and max are exact, and [`rotate`] never gives -0.0
/// (its `+ 0.0` start), so no zero's sign depends on the grouping.
#[derive(Debug, Clone)]
pub struct RotatedBounds {
    /// Axis-aligned bounds of the points.
    pub plain: Aabb,
    /// Bounds in the frame of each table rotation, unpadded.
    pub rotated: Box<[Aabb; OBB_MATRIX_COUNT]>,
    /// No point at all.
    pub empty: bool,
}

impl RotatedBounds {
    /// The bounds of no point.
    pub fn empty() -> RotatedBounds {
        RotatedBounds {
            plain: Aabb::EMPTY,
            rotated: Box::new([Aabb::EMPTY; OBB_MATRIX_COUNT]),
            empty: true,
        }
    }

    /// The bounds of `points`.
    pub fn of_points(points: &[Vec3]) -> RotatedBounds {
        let mut b = RotatedBounds::empty();
        b.empty = points.is_empty();
        for &p in points {
            b.plain.grow(p);
        }
        // Each distinct point once (a leaf's triangles share corners; a
        // repeated point cannot move a min or max); small sets only, where
        // the quadratic search is cheaper than the rotations it saves.
        let mut distinct: Vec<Vec3> = Vec::with_capacity(points.len());
        let key = |v: &Vec3| v.0.map(f32::to_bits);
        for p in points {
            if points.len() > 64 || !distinct.iter().any(|d| key(d) == key(p)) {
                distinct.push(*p);
            }
        }
        for (r, m) in b.rotated.iter_mut().zip(obb_matrices()) {
            for &p in &distinct {
                r.grow(rotate(m, p));
            }
        }
        b
    }

    /// Add the points `o` bounds.
    pub fn add(&mut self, o: &RotatedBounds) {
        if o.empty {
            return;
        }
        self.empty = false;
        self.plain = self.plain.union(&o.plain);
        for (r, q) in self.rotated.iter_mut().zip(o.rotated.iter()) {
            *r = r.union(q);
        }
    }
}

/// Choose a rotation for a node whose children cover `children` (each a set
/// of points). Every table entry is tried; the one with the smallest summed
/// child surface area wins if that sum is below `threshold` times the summed
/// axis-aligned surface area. gpurt picks one candidate from triangle edges
/// and rejects it at >= 1.12x; with an exhaustive search a factor above 1
/// would accept rotations that make the boxes larger, so the default
/// threshold is 1.0. Returns the index and the children's rotated boxes.
pub fn choose_rotation(children: &[Vec<Vec3>], threshold: f32) -> Option<(u32, Vec<Aabb>)> {
    let bounds: Vec<RotatedBounds> = children
        .iter()
        .map(|c| RotatedBounds::of_points(c))
        .collect();
    let refs: Vec<&RotatedBounds> = bounds.iter().collect();
    choose_rotation_of(&refs, threshold)
}

/// [`choose_rotation`] from the children's [`RotatedBounds`] (the same
/// answer: every rotated box is the padded bounds of the child's points).
pub fn choose_rotation_of(children: &[&RotatedBounds], threshold: f32) -> Option<(u32, Vec<Aabb>)> {
    if children.is_empty() || children.iter().all(|c| c.empty) {
        return None;
    }
    let aabb_area: f32 = children.iter().map(|c| c.plain.surface_area()).sum();
    let mut best: Option<(f32, usize)> = None;
    for i in 0..OBB_MATRIX_COUNT {
        let area: f32 = children
            .iter()
            .map(|c| pad(c.rotated[i]).surface_area())
            .sum();
        if best.is_none_or(|(a, _)| area < a) {
            best = Some((area, i));
        }
    }
    let (area, idx) = best?;
    if area < aabb_area * threshold {
        Some((
            idx as u32,
            children.iter().map(|c| pad(c.rotated[idx])).collect(),
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_matrix_is_a_rotation() {
        let t = obb_matrices();
        let mut identity_found = false;
        for (i, m) in t.iter().enumerate() {
            let m64: Vec<[f64; 3]> = m
                .iter()
                .map(|r| [r[0] as f64, r[1] as f64, r[2] as f64])
                .collect();
            for a in 0..3 {
                for b in 0..3 {
                    let d: f64 = (0..3).map(|k| m64[a][k] * m64[b][k]).sum();
                    let want = if a == b { 1.0 } else { 0.0 };
                    assert!((d - want).abs() < 1e-6, "matrix {i} rows {a},{b}: {d}");
                }
            }
            let det = m64[0][0] * (m64[1][1] * m64[2][2] - m64[1][2] * m64[2][1])
                - m64[0][1] * (m64[1][0] * m64[2][2] - m64[1][2] * m64[2][0])
                + m64[0][2] * (m64[1][0] * m64[2][1] - m64[1][1] * m64[2][0]);
            assert!((det - 1.0).abs() < 1e-6, "matrix {i} det {det}");
            identity_found |=
                (0..3).all(|a| (0..3).all(|b| m[a][b] == if a == b { 1.0 } else { 0.0 }));
        }
        assert!(
            !identity_found,
            "0x7F, not a table entry, means no rotation"
        );
        // The table uses all 26 magnitudes and no others.
        let mut seen: Vec<u32> = t
            .iter()
            .flatten()
            .flatten()
            .map(|v| v.abs().to_bits())
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 26);
    }

    #[test]
    fn a_rotated_rod_gets_a_rotation_and_a_smaller_box() {
        // A rod along the table's first row direction: its box in that frame is thin.
        let m = &obb_matrices()[40];
        let axis = Vec3::new(m[0][0], m[0][1], m[0][2]);
        let pts: Vec<Vec3> = (0..=10).map(|i| axis * (i as f32)).collect();
        let (idx, boxes) =
            choose_rotation(std::slice::from_ref(&pts), 1.0).expect("an OBB helps a rotated rod");
        let mut aabb = Aabb::EMPTY;
        for &p in &pts {
            aabb.grow(p);
        }
        assert!(boxes[0].surface_area() < 0.5 * aabb.surface_area());
        assert!((idx as usize) < OBB_MATRIX_COUNT);
        // Axis-aligned geometry keeps its AABB.
        let flat: Vec<Vec3> = (0..=10).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        assert!(choose_rotation(&[flat], 1.0).is_none());
    }

    /// A subtree's bounds built from its parts equal the bounds of all its
    /// points, bit for bit, in every rotation (min and max are exact, and
    /// rotate never yields -0.0, so no zero's sign depends on grouping),
    /// and a rotation never gives -0.0 even from negative zeros.
    #[test]
    fn bounds_of_parts_equal_bounds_of_all_points() {
        let mut rng = crate::rng::SplitMix64::new(99);
        let mut pts: Vec<Vec3> = (0..300)
            .map(|_| {
                Vec3::new(
                    rng.next_f32() * 4.0 - 2.0,
                    rng.next_f32() * 0.5,
                    rng.next_f32() - 1.0,
                )
            })
            .collect();
        pts.push(Vec3::new(-0.0, 0.0, -0.0));
        pts.push(Vec3::new(0.0, -0.0, 0.0));
        let whole = RotatedBounds::of_points(&pts);
        let mut parts = RotatedBounds::empty();
        for chunk in pts.rchunks(37) {
            parts.add(&RotatedBounds::of_points(chunk));
        }
        parts.add(&RotatedBounds::empty());
        let bits = |b: &Aabb| [b.min.0, b.max.0].map(|v| v.map(f32::to_bits));
        for (a, b) in whole.rotated.iter().zip(parts.rotated.iter()) {
            assert_eq!(bits(a), bits(b));
        }
        for m in obb_matrices() {
            let r = rotate(m, Vec3::new(-0.0, -0.0, -0.0));
            assert!(r.0.iter().all(|v| v.to_bits() == 0), "{r:?}");
        }
        assert!(!parts.empty && RotatedBounds::empty().empty);
    }
}
