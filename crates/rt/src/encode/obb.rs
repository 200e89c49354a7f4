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

/// Rotations projected together in [`RotatedBounds::of_points`]: two SSE
/// registers' worth, and 104 is 13 of them.
const LANES: usize = 8;
const _: () = assert!(OBB_MATRIX_COUNT % LANES == 0);

/// Point sets up to this size are searched for repeated points first.
const DEDUP_MAX: usize = 64;

/// The table's rotations laid out by element (`[row][column][rotation]`),
/// so a point is rotated by all of them in one vectorizable loop.
fn matrices_by_element() -> &'static [[[f32; OBB_MATRIX_COUNT]; 3]; 3] {
    static TABLE: OnceLock<[[[f32; OBB_MATRIX_COUNT]; 3]; 3]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = [[[0.0f32; OBB_MATRIX_COUNT]; 3]; 3];
        for (i, m) in obb_matrices().iter().enumerate() {
            for (r, row) in m.iter().enumerate() {
                for (c, v) in row.iter().enumerate() {
                    out[r][c][i] = *v;
                }
            }
        }
        out
    })
}

/// What [`choose_rotation_of`] needs of one child's point set: its
/// axis-aligned box and its boxes in the frame of every table rotation
/// (unpadded), by axis and rotation. The boxes of a union of sets are the
/// unions of the sets' boxes, so a subtree's come from its children's
/// without visiting its points again: min and max are exact, and
/// [`rotate`] never gives -0.0 (its `+ 0.0` start), so no zero's sign
/// depends on the grouping.
#[derive(Debug, Clone)]
pub struct RotatedBounds {
    /// Axis-aligned bounds of the points.
    pub plain: Aabb,
    /// Per axis and rotation: the least and greatest rotated coordinate.
    lo: Box<[[f32; OBB_MATRIX_COUNT]; 3]>,
    hi: Box<[[f32; OBB_MATRIX_COUNT]; 3]>,
    /// No point at all.
    pub empty: bool,
}

impl RotatedBounds {
    /// The bounds of no point.
    pub fn empty() -> RotatedBounds {
        RotatedBounds {
            plain: Aabb::EMPTY,
            lo: Box::new([[f32::INFINITY; OBB_MATRIX_COUNT]; 3]),
            hi: Box::new([[f32::NEG_INFINITY; OBB_MATRIX_COUNT]; 3]),
            empty: true,
        }
    }

    /// The bounds of `points`.
    pub fn of_points(points: &[Vec3]) -> RotatedBounds {
        let mut b = RotatedBounds::empty();
        b.set_points(points);
        b
    }

    /// Make these the bounds of `points`, reusing the storage (every lane
    /// is written, so what was there does not matter): a leaf's bounds are
    /// needed only while its parent chooses, so one set of buffers serves
    /// every leaf.
    pub fn set_points(&mut self, points: &[Vec3]) {
        self.empty = points.is_empty();
        self.plain = Aabb::EMPTY;
        for &p in points {
            self.plain.grow(p);
        }
        // Each distinct point once (a leaf's triangles share corners; a
        // repeated point cannot move a min or max); small sets only, where
        // the quadratic search is cheaper than the rotations it saves.
        let mut distinct = [Vec3::new(0.0, 0.0, 0.0); DEDUP_MAX];
        let mut count = 0;
        let key = |v: &Vec3| v.0.map(f32::to_bits);
        let distinct: &[Vec3] = if points.len() > DEDUP_MAX {
            points
        } else {
            for p in points {
                if !distinct[..count].iter().any(|d| key(d) == key(p)) {
                    distinct[count] = *p;
                    count += 1;
                }
            }
            &distinct[..count]
        };
        let m = matrices_by_element();
        // Rotations in chunks of `LANES`, every point inside a chunk: the
        // chunk's least and greatest stay in registers and each matrix
        // element is loaded once per chunk, not once per point. Each lane
        // still sees the points in order, so the result is the same.
        for row in 0..3 {
            for c in (0..OBB_MATRIX_COUNT).step_by(LANES) {
                let lanes = |v: &[f32; OBB_MATRIX_COUNT]| -> [f32; LANES] {
                    std::array::from_fn(|k| v[c + k])
                };
                let (m0, m1, m2) = (lanes(&m[row][0]), lanes(&m[row][1]), lanes(&m[row][2]));
                let mut lo = [f32::INFINITY; LANES];
                let mut hi = [f32::NEG_INFINITY; LANES];
                for p in distinct {
                    let [x, y, z] = p.0;
                    for k in 0..LANES {
                        // `rotate`'s operations in its order, for every rotation.
                        let mut v = z * m2[k] + 0.0;
                        v += y * m1[k];
                        v += x * m0[k];
                        // `lo`/`hi` are never NaN (they start infinite) and `v`
                        // is never -0.0, so the compare-and-select equals
                        // `f32::min`/`max` (a NaN `v` is skipped by both) and
                        // compiles to one `minps`/`maxps` instead of NaN fix-ups.
                        lo[k] = if v < lo[k] { v } else { lo[k] };
                        hi[k] = if v > hi[k] { v } else { hi[k] };
                    }
                }
                self.lo[row][c..c + LANES].copy_from_slice(&lo);
                self.hi[row][c..c + LANES].copy_from_slice(&hi);
            }
        }
    }

    /// Add the points `o` bounds.
    pub fn add(&mut self, o: &RotatedBounds) {
        if o.empty {
            return;
        }
        self.empty = false;
        self.plain = self.plain.union(&o.plain);
        for a in 0..3 {
            for i in 0..OBB_MATRIX_COUNT {
                // Neither side is ever NaN: see `of_points`.
                let (lo, hi) = (o.lo[a][i], o.hi[a][i]);
                self.lo[a][i] = if lo < self.lo[a][i] {
                    lo
                } else {
                    self.lo[a][i]
                };
                self.hi[a][i] = if hi > self.hi[a][i] {
                    hi
                } else {
                    self.hi[a][i]
                };
            }
        }
    }

    /// The (unpadded) bounds in the frame of rotation `i`.
    pub fn rotated(&self, i: usize) -> Aabb {
        Aabb {
            min: Vec3::new(self.lo[0][i], self.lo[1][i], self.lo[2][i]),
            max: Vec3::new(self.hi[0][i], self.hi[1][i], self.hi[2][i]),
        }
    }

    /// `pad(self.rotated(i)).surface_area()` for every rotation `i`, with
    /// the same operations in the same order, lane by lane.
    fn padded_areas(&self) -> [f32; OBB_MATRIX_COUNT] {
        let mut out = [0.0f32; OBB_MATRIX_COUNT];
        let (lo, hi) = (&self.lo, &self.hi);
        for (i, area) in out.iter_mut().enumerate() {
            let min = [lo[0][i], lo[1][i], lo[2][i]];
            let max = [hi[0][i], hi[1][i], hi[2][i]];
            let empty = min[0] > max[0] || min[1] > max[1] || min[2] > max[2];
            let d = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
            // No operand here is NaN (planes are never NaN; an empty set's
            // infinities give infinities) nor -0.0 (`abs`), so a plain
            // compare-and-select is `f32::max` without its NaN fix-ups.
            let big = |a: f32, b: f32| if a > b { a } else { b };
            let e = big(big(d[0].abs(), d[1].abs()), d[2].abs());
            let mag = big(
                big(big(min[0].abs(), min[1].abs()), min[2].abs()),
                big(big(max[0].abs(), max[1].abs()), max[2].abs()),
            );
            let p = OBB_PADDING * e + mag * 4.0 * f32::EPSILON;
            let (a, b) = (
                [min[0] - p, min[1] - p, min[2] - p],
                [max[0] + p, max[1] + p, max[2] + p],
            );
            let padded_empty = a[0] > b[0] || a[1] > b[1] || a[2] > b[2];
            let dd = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let s = 2.0 * (dd[0] * dd[1] + dd[1] * dd[2] + dd[2] * dd[0]);
            *area = if empty || padded_empty { 0.0 } else { s };
        }
        out
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
    // Summed per rotation over the children in order, as `.sum()` adds
    // (from -0.0; no area is -0.0, so the start cannot show).
    let mut sums = [-0.0f32; OBB_MATRIX_COUNT];
    for c in children {
        let areas = c.padded_areas();
        for (s, a) in sums.iter_mut().zip(areas) {
            *s += a;
        }
    }
    let mut best: Option<(f32, usize)> = None;
    for (i, &area) in sums.iter().enumerate() {
        if best.is_none_or(|(a, _)| area < a) {
            best = Some((area, i));
        }
    }
    let (area, idx) = best?;
    if area < aabb_area * threshold {
        Some((
            idx as u32,
            children.iter().map(|c| pad(c.rotated(idx))).collect(),
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

    /// Bounds set into storage that held another point set (larger, or
    /// past the repeat search's 64 points) are the fresh bounds, bit for
    /// bit: every lane is written.
    #[test]
    fn reused_bounds_equal_fresh_bounds() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let mut point = || Vec3::new(rng.next_f32() - 0.5, rng.next_f32(), rng.next_f32() * 3.0);
        let big: Vec<Vec3> = (0..100).map(|_| point()).collect();
        let mut small: Vec<Vec3> = (0..5).map(|_| point()).collect();
        small.push(small[0]);
        let mut reused = RotatedBounds::of_points(&big);
        let bits = |b: &Aabb| [b.min.0, b.max.0].map(|v| v.map(f32::to_bits));
        for pts in [&small[..], &big[..], &[][..]] {
            reused.set_points(pts);
            let fresh = RotatedBounds::of_points(pts);
            assert_eq!(reused.empty, pts.is_empty());
            assert_eq!(bits(&reused.plain), bits(&fresh.plain));
            for (i, m) in obb_matrices().iter().enumerate() {
                assert_eq!(bits(&reused.rotated(i)), bits(&fresh.rotated(i)));
                if !pts.is_empty() {
                    assert_eq!(bits(&pad(reused.rotated(i))), bits(&rotated_bounds(m, pts)));
                }
            }
        }
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
        for (i, m) in obb_matrices().iter().enumerate() {
            assert_eq!(bits(&whole.rotated(i)), bits(&parts.rotated(i)));
            // Each rotation's box is `rotated_bounds` before its padding,
            // and the lane-wise padded areas equal `pad` then `surface_area`.
            assert_eq!(bits(&pad(whole.rotated(i))), bits(&rotated_bounds(m, &pts)));
            assert_eq!(
                whole.padded_areas()[i].to_bits(),
                rotated_bounds(m, &pts).surface_area().to_bits()
            );
        }
        let none = RotatedBounds::empty();
        assert!(none.padded_areas().iter().all(|a| a.to_bits() == 0));
        for m in obb_matrices() {
            let r = rotate(m, Vec3::new(-0.0, -0.0, -0.0));
            assert!(r.0.iter().all(|v| v.to_bits() == 0), "{r:?}");
        }
        assert!(!parts.empty && RotatedBounds::empty().empty);
    }
}
