//! Rays, the ray/triangle test and the closest-hit record.
//!
//! The triangle test follows the formulation of gpurt's
//! `fast_intersect_triangle` (rt.md §9): `e1 = b-a`, `e2 = c-a`, `e3 = o-a`,
//! `s1 = d x e2`, `s2 = e3 x e1`, `t = (e2.s2)/(s1.e1)`, barycentrics
//! `I = e3.s1`, `J = d.s2`. The hardware's exact rounding is not public and
//! the emulation is not watertight. We add one rule of our own: the three
//! vertices are first rotated into a canonical cyclic order (the rotation
//! whose vertex bit patterns compare smallest). A rotation keeps the winding,
//! and it makes the arithmetic independent of how a node happens to store the
//! triangle (a triangle pair node stores its second triangle as `(v1,v3,v2)`),
//! so a traversal over encoded bytes and a brute-force loop over the mesh get
//! bit-identical distances.

use crate::math::Vec3;

/// A ray: origin and (not necessarily unit) direction. `t` is measured in
/// units of `dir`, so it survives an affine instance transform unchanged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Origin.
    pub origin: Vec3,
    /// Direction.
    pub dir: Vec3,
}

impl Ray {
    /// Build a ray.
    pub fn new(origin: Vec3, dir: Vec3) -> Ray {
        Ray { origin, dir }
    }
}

/// The closest hit of a ray: distance, triangle index within its mesh and the
/// instance it belongs to (0 for a plain mesh).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Distance along the ray, in units of the ray direction.
    pub t: f32,
    /// Triangle index in the mesh (the BLAS primitive index).
    pub triangle: u32,
    /// Instance index in the scene (0 for a single mesh).
    pub instance: u32,
}

impl Hit {
    /// Whether `self` is closer than `other`. Equal distances are broken by
    /// instance then triangle index, so "the closest hit" is one well-defined
    /// triangle whatever order a traversal visits them in.
    pub fn closer_than(&self, other: &Hit) -> bool {
        (self.t, self.instance, self.triangle) < (other.t, other.instance, other.triangle)
    }
}

fn vertex_key(v: Vec3) -> [u32; 3] {
    [v.0[0].to_bits(), v.0[1].to_bits(), v.0[2].to_bits()]
}

/// Rotate `(a, b, c)` cyclically into the canonical order described in the
/// module documentation.
#[inline]
pub fn canonical_rotation(a: Vec3, b: Vec3, c: Vec3) -> (Vec3, Vec3, Vec3) {
    let (ka, kb, kc) = (vertex_key(a), vertex_key(b), vertex_key(c));
    let r0 = [ka, kb, kc];
    let r1 = [kb, kc, ka];
    let r2 = [kc, ka, kb];
    if r0 <= r1 && r0 <= r2 {
        (a, b, c)
    } else if r1 <= r2 {
        (b, c, a)
    } else {
        (c, a, b)
    }
}

/// A triangle in the form the intersection test consumes: the corners in
/// canonical rotation, as the first corner `a` and the edges `e1 = b - a`,
/// `e2 = c - a`. None of it depends on the ray, so a traversal can prepare
/// every stored triangle once per encoding; the test then does exactly the
/// arithmetic [`intersect_triangle`] does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreparedTriangle {
    /// First corner after the canonical rotation.
    pub a: Vec3,
    /// `b - a`.
    pub e1: Vec3,
    /// `c - a`.
    pub e2: Vec3,
}

impl PreparedTriangle {
    /// Rotate `(a, b, c)` canonically and take the edges.
    #[inline]
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> PreparedTriangle {
        let (a, b, c) = canonical_rotation(a, b, c);
        PreparedTriangle {
            a,
            e1: b - a,
            e2: c - a,
        }
    }

    /// Ray/triangle intersection, see [`intersect_triangle`].
    #[inline]
    pub fn intersect(&self, ray: &Ray) -> Option<f32> {
        let (e1, e2) = (self.e1, self.e2);
        let e3 = ray.origin - self.a;
        let s1 = ray.dir.cross(e2);
        let s2 = e3.cross(e1);
        let t_num = e2.dot(s2);
        let den = s1.dot(e1);
        let i = e3.dot(s1);
        let j = ray.dir.dot(s2);
        // `den` zero, infinite or NaN (every compare with NaN is false),
        // as `den == 0.0 || !den.is_finite()`; written as two compares of
        // `|den|`, which compiles to a little less.
        if !((den.abs() > 0.0) & (den.abs() < f32::INFINITY)) {
            return None;
        }
        // Compare in the sign of the denominator instead of dividing first:
        // the barycentric limits are then exact.
        let (t_num, i, j, den) = if den < 0.0 {
            (-t_num, -i, -j, -den)
        } else {
            (t_num, i, j, den)
        };
        // Non-short-circuit `|`: one branch on the whole outcome, not four
        // on data-dependent parts of it.
        if (i < 0.0) | (j < 0.0) | (i + j > den) | (t_num < 0.0) {
            return None;
        }
        let t = t_num / den;
        if t.is_finite() {
            Some(t)
        } else {
            None
        }
    }
}

/// Ray/triangle intersection. Returns the distance `t >= 0` of a hit, or
/// `None` for a miss (outside the triangle, behind the origin, or a
/// degenerate triangle). Both faces are hit: the traversal applies no culling.
#[inline]
pub fn intersect_triangle(ray: &Ray, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    PreparedTriangle::new(a, b, c).intersect(ray)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_the_inside_and_misses_the_outside() {
        let (a, b, c) = (
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
        let r = Ray::new(Vec3::new(0.25, 0.25, 2.0), Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(intersect_triangle(&r, a, b, c), Some(2.0));
        let r = Ray::new(Vec3::new(0.75, 0.75, 2.0), Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(intersect_triangle(&r, a, b, c), None);
        let behind = Ray::new(Vec3::new(0.25, 0.25, -2.0), Vec3::new(0.0, 0.0, -1.0));
        assert_eq!(intersect_triangle(&behind, a, b, c), None);
    }

    #[test]
    fn rotations_give_bit_identical_distances() {
        let (a, b, c) = (
            Vec3::new(0.1, -0.3, 0.7),
            Vec3::new(1.3, 0.2, -0.1),
            Vec3::new(-0.2, 1.1, 0.4),
        );
        let r = Ray::new(Vec3::new(0.3, 0.3, 5.0), Vec3::new(0.01, -0.02, -1.0));
        let t0 = intersect_triangle(&r, a, b, c).unwrap();
        assert_eq!(
            intersect_triangle(&r, b, c, a).unwrap().to_bits(),
            t0.to_bits()
        );
        assert_eq!(
            intersect_triangle(&r, c, a, b).unwrap().to_bits(),
            t0.to_bits()
        );
    }
}
