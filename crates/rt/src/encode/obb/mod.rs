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

mod vertex_planes;
pub use vertex_planes::VertexPlanes;

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
        let file: TableFile = toml::from_str(include_str!("../../../data/obb_table.toml"))
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

/// The planes a point set is bounded by: one per axis of every table
/// rotation, axis-major (plane `axis * OBB_MATRIX_COUNT + rotation`).
const PLANES: usize = 3 * OBB_MATRIX_COUNT;
/// The stride between one rotation's planes of successive axes.
const R: usize = OBB_MATRIX_COUNT;

/// Planes projected together in [`RotatedBounds::set_points`]: six SSE
/// registers' worth, and 312 planes are 13 of them. Wider chunks share each
/// point's broadcast coordinates and the loop's bookkeeping over more
/// planes (8 planes took 4.75 host instructions a plane and point, 24 take
/// about 2.8); beyond 24 the least, greatest and matrix registers spill.
const LANES: usize = 24;
const _: () = assert!(PLANES % LANES == 0);
/// Chunks of `LANES` planes: loops count chunks, so that `c + LANES <= PLANES`
/// is evident and a chunk's slice needs no bounds test.
const CHUNKS: usize = PLANES / LANES;

/// The `LANES` planes from `c`, copied.
#[inline(always)]
fn chunk(v: &[f32; PLANES], c: usize) -> [f32; LANES] {
    v[c..c + LANES]
        .try_into()
        .expect("PLANES is a multiple of LANES")
}

/// Store `x` as the `LANES` planes from `c` (a whole array: a store lane by
/// lane is left scalar).
#[inline(always)]
fn store_chunk(v: &mut [f32; PLANES], c: usize, x: [f32; LANES]) {
    let out: &mut [f32; LANES] = (&mut v[c..c + LANES])
        .try_into()
        .expect("PLANES is a multiple of LANES");
    *out = x;
}

/// Point sets up to this size are searched for repeated points first.
const DEDUP_MAX: usize = 64;

/// The table's rotations laid out by column and plane (`[column][row *
/// OBB_MATRIX_COUNT + rotation]`), so a point is projected onto every plane
/// in one vectorizable loop.
fn matrices_by_plane() -> &'static [[f32; PLANES]; 3] {
    static TABLE: OnceLock<[[f32; PLANES]; 3]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = [[0.0f32; PLANES]; 3];
        for (i, m) in obb_matrices().iter().enumerate() {
            for (r, row) in m.iter().enumerate() {
                for (c, v) in row.iter().enumerate() {
                    out[c][r * OBB_MATRIX_COUNT + i] = *v;
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
    /// Per plane (axis-major, see [`PLANES`]): the least and greatest
    /// rotated coordinate.
    lo: Box<[f32; PLANES]>,
    hi: Box<[f32; PLANES]>,
    /// No point at all.
    pub empty: bool,
}

impl RotatedBounds {
    /// The bounds of no point.
    pub fn empty() -> RotatedBounds {
        RotatedBounds {
            plain: Aabb::EMPTY,
            lo: Box::new([f32::INFINITY; PLANES]),
            hi: Box::new([f32::NEG_INFINITY; PLANES]),
            empty: true,
        }
    }

    /// Make these the bounds of no point, keeping the storage.
    pub fn clear(&mut self) {
        self.plain = Aabb::EMPTY;
        self.lo.fill(f32::INFINITY);
        self.hi.fill(f32::NEG_INFINITY);
        self.empty = true;
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
        self.set_points_from(points, distinct);
    }

    /// [`RotatedBounds::set_points`] with the points to project already
    /// picked: `distinct` holds every point of `points`, each at least once
    /// (a repeated point cannot move a least or greatest), and the points
    /// are finite, as every mesh's are (`Mesh::validate`). A caller that
    /// knows which points repeat (a leaf's triangles share vertices) skips
    /// the search for them by their bits.
    pub fn set_points_from(&mut self, points: &[Vec3], distinct: &[Vec3]) {
        self.empty = points.is_empty();
        self.plain = Aabb::EMPTY;
        for &p in points {
            self.plain.grow(p);
        }
        let m = matrices_by_plane();
        // Planes in chunks of `LANES`, every point inside a chunk: the
        // chunk's least and greatest stay in registers and each matrix
        // element is loaded once per chunk, not once per point.
        for c in (0..CHUNKS).map(|ci| ci * LANES) {
            // The chunk's matrix elements, borrowed as whole arrays (copying
            // them out costs a `memcpy` call per chunk).
            let lanes = |v: &'static [f32; PLANES]| -> &'static [f32; LANES] {
                v[c..c + LANES]
                    .try_into()
                    .expect("PLANES is a multiple of LANES")
            };
            let (m0, m1, m2) = (lanes(&m[0]), lanes(&m[1]), lanes(&m[2]));
            let mut lo = [f32::INFINITY; LANES];
            let mut hi = [f32::NEG_INFINITY; LANES];
            for p in distinct {
                let [x, y, z] = p.0;
                for k in 0..LANES {
                    // `rotate`'s operations in its order, for every plane, but
                    // for its `+ 0.0`, which only turns a -0.0 into +0.0: the
                    // sums here equal `rotate`'s but may be -0.0 where its are
                    // +0.0, which no comparison below tells apart, so the
                    // least and greatest are at the same points and adding
                    // 0.0 to them once, when stored, gives `rotate`'s bits.
                    let mut v = z * m2[k];
                    v += y * m1[k];
                    v += x * m0[k];
                    // Compare-and-select with the running value first is one
                    // `minps`/`maxps` into it, with no copy of `v` (a NaN `v`
                    // would be taken, but the points are finite, as every
                    // mesh's are (`Mesh::validate`), and so is every `v`:
                    // finite products, and a sum that overflows stays
                    // infinite).
                    lo[k] = if lo[k] < v { lo[k] } else { v };
                    hi[k] = if hi[k] > v { hi[k] } else { v };
                }
            }
            for k in 0..LANES {
                lo[k] += 0.0;
                hi[k] += 0.0;
            }
            store_chunk(&mut self.lo, c, lo);
            store_chunk(&mut self.hi, c, hi);
        }
    }

    /// Add the points `o` bounds.
    #[inline(always)]
    pub fn add(&mut self, o: &RotatedBounds) {
        if o.empty {
            return;
        }
        self.empty = false;
        self.plain = self.plain.union(&o.plain);
        // A chunk of lanes at a time, through copies: once this is inlined
        // into a larger function the compiler no longer knows that `self`
        // and `o` do not overlap, and lane by lane in place it kept every
        // lane scalar in the AVX2 copy (three times the instructions).
        for c in (0..CHUNKS).map(|ci| ci * LANES) {
            let (olo, ohi) = (chunk(&o.lo, c), chunk(&o.hi, c));
            let (mut lo, mut hi) = (chunk(&self.lo, c), chunk(&self.hi, c));
            for k in 0..LANES {
                // Neither side is ever NaN: see `set_points`.
                lo[k] = if olo[k] < lo[k] { olo[k] } else { lo[k] };
                hi[k] = if ohi[k] > hi[k] { ohi[k] } else { hi[k] };
            }
            store_chunk(&mut self.lo, c, lo);
            store_chunk(&mut self.hi, c, hi);
        }
    }

    /// The (unpadded) bounds in the frame of rotation `i`.
    pub fn rotated(&self, i: usize) -> Aabb {
        Aabb {
            min: Vec3::new(self.lo[i], self.lo[R + i], self.lo[2 * R + i]),
            max: Vec3::new(self.hi[i], self.hi[R + i], self.hi[2 * R + i]),
        }
    }

    /// `pad(self.rotated(i)).surface_area()` for every rotation `i`, with
    /// the same operations in the same order, lane by lane.
    #[cfg(test)]
    fn padded_areas(&self) -> [f32; OBB_MATRIX_COUNT] {
        std::array::from_fn(|i| self.padded_area(i))
    }

    /// `pad(self.rotated(i)).surface_area()`, with the same operations in
    /// the same order.
    #[inline(always)]
    fn padded_area(&self, i: usize) -> f32 {
        let (lo, hi) = (&self.lo, &self.hi);
        let min = [lo[i], lo[R + i], lo[2 * R + i]];
        let max = [hi[i], hi[R + i], hi[2 * R + i]];
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
        if empty || padded_empty {
            0.0
        } else {
            s
        }
    }

    /// The surface area of every rotation's box before its padding, in
    /// the operations of [`RotatedBounds::padded_area`] with `p` = 0: never
    /// above the padded area (the padding only widens each extent, and
    /// rounding keeps the order of the sums and products of non-negative
    /// extents), for a third of its work.
    #[inline(always)]
    fn unpadded_areas(&self) -> [f32; OBB_MATRIX_COUNT] {
        let mut out = [0.0f32; OBB_MATRIX_COUNT];
        let (lo, hi) = (&self.lo, &self.hi);
        for (i, area) in out.iter_mut().enumerate() {
            let min = [lo[i], lo[R + i], lo[2 * R + i]];
            let max = [hi[i], hi[R + i], hi[2 * R + i]];
            let empty = (min[0] > max[0]) | (min[1] > max[1]) | (min[2] > max[2]);
            let d = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
            let s = 2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]);
            *area = if empty { 0.0 } else { s };
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
#[inline(always)]
pub fn choose_rotation_of(children: &[&RotatedBounds], threshold: f32) -> Option<(u32, Vec<Aabb>)> {
    if children.is_empty() || children.iter().all(|c| c.empty) {
        return None;
    }
    let aabb_area: f32 = children.iter().map(|c| c.plain.surface_area()).sum();
    // A rotation's summed area: its children's in order, as `.sum()` adds
    // (from -0.0; no area is -0.0, so the start cannot show).
    let summed = |i: usize| children.iter().fold(-0.0f32, |s, c| s + c.padded_area(i));
    // Every rotation's summed unpadded area, a lower bound of its summed
    // area (summing in the same order keeps the order of the parts).
    let mut lower = [-0.0f32; OBB_MATRIX_COUNT];
    for c in children {
        for (s, a) in lower.iter_mut().zip(c.unpadded_areas()) {
            *s += a;
        }
    }
    // The summed area of the rotation with the least bound is a bar every
    // rotation whose bound is above it cannot reach: the winner (the first
    // rotation with the least summed area) is among the others, whose
    // summed areas are worked out in full and compared in index order, as
    // if every rotation's were. (Padding is a millionth of a box, so few
    // rotations are that close; with a NaN anywhere every rotation's sum is
    // taken, as a NaN in the scan decides what wins.)
    let first = first_least(&lower);
    let bar = summed(first);
    // A fold, not `any`: no early exit, so the lanes are tested together.
    let all = bar.is_nan() || lower.iter().fold(false, |nan, b| nan | b.is_nan());
    let mut best: Option<(f32, usize)> = None;
    for_not_above(&lower, bar, all, |i| {
        let area = if i == first { bar } else { summed(i) };
        if best.is_none_or(|(a, _)| area < a) {
            best = Some((area, i));
        }
    });
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

/// The first rotation with the least bound: the scan `if b < least {
/// first = i }` in index order, in lanes. Without a NaN the scan stops at
/// the first bound equal to the least (it moves only on a smaller one);
/// with one the caller sums every rotation and `first` only names which
/// sum is already known, so any index does.
#[inline(always)]
fn first_least(lower: &[f32; OBB_MATRIX_COUNT]) -> usize {
    let mut least = [f32::INFINITY; 8];
    for part in lower.chunks_exact(8) {
        for k in 0..8 {
            least[k] = if part[k] < least[k] {
                part[k]
            } else {
                least[k]
            };
        }
    }
    let least = least
        .iter()
        .fold(f32::INFINITY, |m, &b| if b < m { b } else { m });
    for (c, part) in lower.chunks_exact(8).enumerate() {
        // Eight lanes compared at once; only the chunk holding it is searched.
        if (0..8).fold(false, |any, k| any | (part[k] == least)) {
            if let Some(k) = part.iter().position(|&b| b == least) {
                return 8 * c + k;
            }
        }
    }
    0
}

/// Call `f` with every rotation whose bound is not above `bar`, in index
/// order, or with every rotation when `all` (bounds and bar are not NaN
/// unless `all`). Few are near the bar: a chunk of eight is looked into
/// only when one of its lanes is.
#[inline(always)]
fn for_not_above(lower: &[f32; OBB_MATRIX_COUNT], bar: f32, all: bool, mut f: impl FnMut(usize)) {
    const _: () = assert!(OBB_MATRIX_COUNT % 8 == 0);
    for (c, part) in lower.chunks_exact(8).enumerate() {
        if !all && !(0..8).fold(false, |any, k| any | (part[k] <= bar)) {
            continue;
        }
        for (k, &b) in part.iter().enumerate() {
            if all || b <= bar {
                f(8 * c + k);
            }
        }
    }
}

/// A rotation choice as bits (the rotation and its children's boxes), for tests that compare
/// two choices exactly.
#[cfg(test)]
pub(crate) fn rotation_bits(r: &Option<(u32, Vec<Aabb>)>) -> Option<(u32, Vec<[[u32; 3]; 2]>)> {
    r.as_ref().map(|(i, boxes)| {
        let b = boxes
            .iter()
            .map(|b| [b.min.0, b.max.0].map(|v| v.map(f32::to_bits)))
            .collect();
        (*i, b)
    })
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

    /// The rotation chosen with the unpadded areas as a bar is the one the
    /// full scan of every rotation's summed padded area chooses, with the
    /// same boxes, on random children of one to eight point sets (some
    /// flat, some repeated, so rotations tie).
    #[test]
    fn the_barred_choice_equals_the_full_scan() {
        fn full_scan(children: &[&RotatedBounds], threshold: f32) -> Option<(u32, Vec<Aabb>)> {
            let aabb_area: f32 = children.iter().map(|c| c.plain.surface_area()).sum();
            let mut sums = [-0.0f32; OBB_MATRIX_COUNT];
            for c in children {
                for (s, a) in sums.iter_mut().zip(c.padded_areas()) {
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
            (area < aabb_area * threshold).then(|| {
                let boxes = children.iter().map(|c| pad(c.rotated(idx))).collect();
                (idx as u32, boxes)
            })
        }
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut chosen = 0;
        for case in 0..300 {
            let n = 1 + case % 8;
            let sets: Vec<RotatedBounds> = (0..n)
                .map(|k| {
                    let scale = [1.0, 0.01, 3.0][(case + k) % 3];
                    let pts: Vec<Vec3> = (0..1 + (case * 7 + k) % 9)
                        .map(|_| {
                            let t = rng.next_f32();
                            Vec3::new(t, t * scale + 0.5, rng.next_f32() * scale)
                        })
                        .collect();
                    RotatedBounds::of_points(&pts)
                })
                .collect();
            let mut refs: Vec<&RotatedBounds> = sets.iter().collect();
            if case % 5 == 0 {
                refs.push(refs[0]);
            }
            for threshold in [1.0, 1.12] {
                let want = full_scan(&refs, threshold);
                let got = choose_rotation_of(&refs, threshold);
                assert_eq!(rotation_bits(&got), rotation_bits(&want), "case {case}");
                chosen += usize::from(got.is_some());
            }
        }
        assert!(chosen > 50, "rotations are chosen ({chosen})");
    }
}
