//! Small fp32 vector, box and affine-transform types.
//!
//! Everything is `f32` because the Ray Accelerator computes in fp32 and the
//! encoded nodes store fp32 (or less); computing the reference in f64 would
//! make "the same hit as brute force" a statement about two different
//! arithmetics.

use std::ops::{Add, Index, Mul, Sub};

/// A 3-component fp32 vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vec3(pub [f32; 3]);

impl Vec3 {
    /// Build from components.
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vec3([x, y, z])
    }
    /// x component.
    pub fn x(self) -> f32 {
        self.0[0]
    }
    /// y component.
    pub fn y(self) -> f32 {
        self.0[1]
    }
    /// z component.
    pub fn z(self) -> f32 {
        self.0[2]
    }
    /// Dot product.
    pub fn dot(self, o: Vec3) -> f32 {
        self.0[0] * o.0[0] + self.0[1] * o.0[1] + self.0[2] * o.0[2]
    }
    /// Cross product.
    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.0[1] * o.0[2] - self.0[2] * o.0[1],
            self.0[2] * o.0[0] - self.0[0] * o.0[2],
            self.0[0] * o.0[1] - self.0[1] * o.0[0],
        )
    }
    /// Component-wise minimum.
    pub fn min(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.0[0].min(o.0[0]),
            self.0[1].min(o.0[1]),
            self.0[2].min(o.0[2]),
        )
    }
    /// Component-wise maximum.
    pub fn max(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.0[0].max(o.0[0]),
            self.0[1].max(o.0[1]),
            self.0[2].max(o.0[2]),
        )
    }
    /// Euclidean length.
    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }
    /// This vector scaled to unit length (unchanged if zero).
    pub fn normalized(self) -> Vec3 {
        let l = self.length();
        if l > 0.0 {
            self * (1.0 / l)
        } else {
            self
        }
    }
    /// Component-wise reciprocal, as the hardware derives `inv_dir`.
    pub fn recip(self) -> Vec3 {
        Vec3::new(1.0 / self.0[0], 1.0 / self.0[1], 1.0 / self.0[2])
    }
    /// True when every component is finite.
    pub fn is_finite(self) -> bool {
        self.0.iter().all(|c| c.is_finite())
    }
    /// Largest absolute component.
    pub fn max_abs(self) -> f32 {
        self.0[0].abs().max(self.0[1].abs()).max(self.0[2].abs())
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2])
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2])
    }
}

impl Mul<f32> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f32) -> Vec3 {
        Vec3::new(self.0[0] * s, self.0[1] * s, self.0[2] * s)
    }
}

impl Index<usize> for Vec3 {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        &self.0[i]
    }
}

/// An axis-aligned box; `min > max` on any axis means empty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

impl Aabb {
    /// The empty box (grows to anything it is merged with).
    pub const EMPTY: Aabb = Aabb {
        min: Vec3([f32::INFINITY; 3]),
        max: Vec3([f32::NEG_INFINITY; 3]),
    };

    /// Box around one point.
    pub fn from_point(p: Vec3) -> Aabb {
        Aabb { min: p, max: p }
    }

    /// Grow to contain `p`.
    pub fn grow(&mut self, p: Vec3) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// Union of two boxes.
    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// True when the box holds no point.
    pub fn is_empty(&self) -> bool {
        (0..3).any(|a| self.min.0[a] > self.max.0[a])
    }

    /// Surface area (0 for an empty box), the SAH's probability measure.
    pub fn surface_area(&self) -> f32 {
        if self.is_empty() {
            return 0.0;
        }
        let d = self.max - self.min;
        2.0 * (d.0[0] * d.0[1] + d.0[1] * d.0[2] + d.0[2] * d.0[0])
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Extent per axis.
    pub fn extent(&self) -> Vec3 {
        self.max - self.min
    }

    /// True when `o` lies inside this box (inclusive).
    pub fn contains(&self, o: &Aabb) -> bool {
        (0..3).all(|a| self.min.0[a] <= o.min.0[a] && self.max.0[a] >= o.max.0[a])
    }
}

/// A 3x4 affine transform stored by rows, as D3D12/gpurt store instance
/// transforms: `p' = M[:, 0..3] * p + M[:, 3]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine3x4(pub [[f32; 4]; 3]);

impl Affine3x4 {
    /// The identity transform.
    pub const IDENTITY: Affine3x4 = Affine3x4([
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ]);

    /// Transform a point. The multiply-add order (z, then y, then x, with the
    /// translation first) is gpurt's `InstanceTransform` order, so a ray and
    /// a brute-force reference transformed here round identically.
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        let m = &self.0;
        let mut r = [0.0f32; 3];
        for (row, out) in r.iter_mut().enumerate() {
            let mut v = p.0[2] * m[row][2] + m[row][3];
            v += p.0[1] * m[row][1];
            v += p.0[0] * m[row][0];
            *out = v;
        }
        Vec3(r)
    }

    /// Transform a direction (no translation), same operation order.
    pub fn transform_dir(&self, d: Vec3) -> Vec3 {
        let m = &self.0;
        let mut r = [0.0f32; 3];
        for (row, out) in r.iter_mut().enumerate() {
            let mut v = d.0[2] * m[row][2];
            v += d.0[1] * m[row][1];
            v += d.0[0] * m[row][0];
            *out = v;
        }
        Vec3(r)
    }

    /// Determinant of the linear 3x3 part.
    pub fn determinant(&self) -> f64 {
        let m = |r: usize, c: usize| self.0[r][c] as f64;
        m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1))
            - m(0, 1) * (m(1, 0) * m(2, 2) - m(1, 2) * m(2, 0))
            + m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0))
    }

    /// Inverse transform, computed in f64 and rounded once; `None` when the
    /// linear part is singular (an instance must be invertible to be traced).
    pub fn inverse(&self) -> Option<Affine3x4> {
        let det = self.determinant();
        if !det.is_finite() || det.abs() < 1e-30 {
            return None;
        }
        let m = |r: usize, c: usize| self.0[r][c] as f64;
        let mut inv = [[0.0f64; 3]; 3];
        inv[0][0] = (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) / det;
        inv[0][1] = (m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2)) / det;
        inv[0][2] = (m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1)) / det;
        inv[1][0] = (m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2)) / det;
        inv[1][1] = (m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0)) / det;
        inv[1][2] = (m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2)) / det;
        inv[2][0] = (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0)) / det;
        inv[2][1] = (m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1)) / det;
        inv[2][2] = (m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0)) / det;
        let t = [m(0, 3), m(1, 3), m(2, 3)];
        let mut out = [[0.0f32; 4]; 3];
        for r in 0..3 {
            for c in 0..3 {
                out[r][c] = inv[r][c] as f32;
            }
            out[r][3] = (-(inv[r][0] * t[0] + inv[r][1] * t[1] + inv[r][2] * t[2])) as f32;
        }
        Some(Affine3x4(out))
    }

    /// Bounds of a transformed box (transforms its 8 corners).
    pub fn transform_aabb(&self, b: &Aabb) -> Aabb {
        let mut out = Aabb::EMPTY;
        for i in 0..8 {
            let p = Vec3::new(
                if i & 1 == 0 { b.min.0[0] } else { b.max.0[0] },
                if i & 2 == 0 { b.min.0[1] } else { b.max.0[1] },
                if i & 4 == 0 { b.min.0[2] } else { b.max.0[2] },
            );
            out.grow(self.transform_point(p));
        }
        out
    }

    /// Rotation about a unit axis by `degrees`, followed by a uniform scale and
    /// a translation (the scene file's shorthand).
    pub fn from_rotation_scale_translation(
        axis: Vec3,
        degrees: f32,
        scale: f32,
        t: Vec3,
    ) -> Affine3x4 {
        let a = axis.normalized();
        let (s, c) = (degrees.to_radians() as f64).sin_cos();
        let (x, y, z) = (a.0[0] as f64, a.0[1] as f64, a.0[2] as f64);
        let k = 1.0 - c;
        let r = [
            [c + x * x * k, x * y * k - z * s, x * z * k + y * s],
            [y * x * k + z * s, c + y * y * k, y * z * k - x * s],
            [z * x * k - y * s, z * y * k + x * s, c + z * z * k],
        ];
        let sc = scale as f64;
        let mut m = [[0.0f32; 4]; 3];
        for row in 0..3 {
            for col in 0..3 {
                m[row][col] = (r[row][col] * sc) as f32;
            }
            m[row][3] = t.0[row];
        }
        Affine3x4(m)
    }
}
