//! RT IP 3.1 12-bit box quantization (rt.md §6; gpurt `Math.hlsl`
//! `ComputeCommonExponent`, `ComputeQuantizedMin/Max`, `Dequantize`).
//!
//! The GPU builder rounds the subtract and multiply toward -inf (minimum) or
//! +inf (maximum). Rust has no rounding-mode control, so those operations are
//! done exactly in f64 and rounded in the wanted direction to f32.

use crate::math::{Aabb, Vec3};

/// Number of quantization bits per plane.
pub const QUANT_BITS: u32 = 12;

fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// Round an f64 to the largest f32 not above it.
fn f32_down(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) > x {
        next_down(f)
    } else {
        f
    }
}

/// Round an f64 to the smallest f32 not below it.
fn f32_up(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) < x {
        next_up(f)
    } else {
        f
    }
}

/// `a - b` rounded toward -inf (exact in f64 unless the operands are more than
/// 29 binades apart; then one more step down keeps it conservative).
fn sub_down(a: f32, b: f32) -> f32 {
    let r = f32_down(a as f64 - b as f64);
    if far_apart(a, b) {
        next_down(r)
    } else {
        r
    }
}

fn sub_up(a: f32, b: f32) -> f32 {
    let r = f32_up(a as f64 - b as f64);
    if far_apart(a, b) {
        next_up(r)
    } else {
        r
    }
}

fn far_apart(a: f32, b: f32) -> bool {
    let ea = ((a.to_bits() >> 23) & 0xFF) as i32;
    let eb = ((b.to_bits() >> 23) & 0xFF) as i32;
    a != 0.0 && b != 0.0 && (ea - eb).abs() > 28
}

/// Per-axis exponent of a node: the biased exponent of the extent rounded up
/// to a power of two, clamped to at least 13 (0 means zero thickness).
pub fn common_exponents(min_of_mins: Vec3, max_of_maxs: Vec3) -> [u32; 3] {
    let mut e = [0u32; 3];
    for a in 0..3 {
        let extent = sub_up(max_of_maxs.0[a], min_of_mins.0[a]);
        let bits = extent.to_bits();
        let x = (bits.wrapping_add(0x7F_FFFF) >> 23) & 0xFF;
        e[a] = if x == 0 { 0 } else { x.max(QUANT_BITS + 1) };
    }
    e
}

/// `2^(139 - e)`, built from exponent bits as the builder does (undefined
/// for e = 254, as in gpurt).
pub fn reciprocal_scale(e: u32) -> f32 {
    f32::from_bits((254u32.wrapping_sub(e).wrapping_add(QUANT_BITS)) << 23)
}

/// Quantized minimum plane of `v` (0..4095): `diff * 2^(139 - e)` rounded
/// down, floored and clamped to 0..=4095.
///
/// In f32, without a rounding mode or `floor` (a library call on the
/// baseline x86-64 target), and the same numbers: the scale is a normal
/// power of two for every `e` in 13..=255, so the product is exact unless
/// it overflows (infinity instead of `f32::MAX`: both clamp to 4095) or
/// falls below the normal range (a magnitude below 1 either way, which
/// floors and clamps to 0); the saturating cast truncates, which for the
/// values 0..4096 it keeps is the floor, sends every negative value and NaN
/// to 0 as the clamp did, and infinity to `u32::MAX`, which the `min` clamps.
#[inline]
pub fn quantize_min(v: f32, origin: f32, e: u32) -> u32 {
    if e == 0 {
        return 0;
    }
    let q = sub_down(v, origin) * reciprocal_scale(e);
    (q as u32).min((1 << QUANT_BITS) - 1)
}

/// Quantized maximum plane of `v`, stored minus one (0..4095): `diff *
/// 2^(139 - e)` rounded up, ceiled, clamped to 1..=4096, minus one.
///
/// In f32 as [`quantize_min`]: a product that is not exact is infinite
/// (clamps to 4096 either way) or below the normal range (ceils to 1 or to
/// 0 or below, which clamps to 1, either way). The ceiling of a value in
/// (0, 4096) is its truncation plus one unless it is whole (exact: below
/// 2^24 the truncation converts back exactly). A NaN takes the rounded
/// path, whose result it decides.
#[inline]
pub fn quantize_max(v: f32, origin: f32, e: u32) -> u32 {
    const TOP: u32 = 1 << QUANT_BITS;
    if e == 0 {
        return 0;
    }
    let diff = sub_up(v, origin);
    let q = diff * reciprocal_scale(e);
    let ceiled = if q <= 0.0 {
        1
    } else if q >= TOP as f32 {
        TOP
    } else if q > 0.0 {
        let t = q as u32;
        t + u32::from((t as f32) < q)
    } else {
        let q = f32_up(diff as f64 * reciprocal_scale(e) as f64).ceil();
        return (q.clamp(1.0, TOP as f32) as u32).wrapping_sub(1);
    };
    ceiled - 1
}

/// Decode a plane: `origin + plane * 2^(e - 139)`, the product built directly
/// from exponent and mantissa bits (a product that would be denormal is 0).
#[inline]
pub fn dequantize(origin: f32, e: u32, plane: u32) -> f32 {
    let mut result = 0u32;
    if plane != 0 {
        let high = 31 - plane.leading_zeros() as i32;
        let signed_pos = high - QUANT_BITS as i32;
        let signed_exp = signed_pos + e as i32;
        if signed_exp > 0 {
            result = (plane << (23 - QUANT_BITS as i32 - signed_pos) as u32) & 0x7F_FFFF;
            result |= ((signed_exp as u32) << 23) & 0x7FFF_FFFF;
        }
    }
    f32::from_bits(result) + origin
}

/// A box quantized against a node's origin and exponents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuantizedBox {
    /// Minimum planes.
    pub min: [u32; 3],
    /// Maximum planes minus one.
    pub max: [u32; 3],
}

impl QuantizedBox {
    /// The encoding of an empty slot (min = FFF, max = 0).
    pub const INVALID: QuantizedBox = QuantizedBox {
        min: [0xFFF; 3],
        max: [0; 3],
    };

    /// Quantize `b` (an inverted box gives [`QuantizedBox::INVALID`]).
    pub fn new(b: &Aabb, origin: Vec3, e: [u32; 3]) -> QuantizedBox {
        if b.is_empty() {
            return QuantizedBox::INVALID;
        }
        let mut q = QuantizedBox {
            min: [0; 3],
            max: [0; 3],
        };
        for a in 0..3 {
            q.min[a] = quantize_min(b.min.0[a], origin.0[a], e[a]);
            q.max[a] = quantize_max(b.max.0[a], origin.0[a], e[a]);
        }
        q
    }

    /// Decode to a box.
    pub fn decode(&self, origin: Vec3, e: [u32; 3]) -> Aabb {
        let mut b = Aabb::EMPTY;
        for a in 0..3 {
            b.min.0[a] = dequantize(origin.0[a], e[a], self.min[a]);
            b.max.0[a] = dequantize(origin.0[a], e[a], self.max[a] + 1);
        }
        b
    }
}

/// Quantization frame of a node: origin (min of the children's minima) and
/// per-axis exponents.
pub fn node_frame(children: &[Aabb]) -> (Vec3, [u32; 3]) {
    let mut all = Aabb::EMPTY;
    for c in children.iter().filter(|c| !c.is_empty()) {
        all = all.union(c);
    }
    (all.min, common_exponents(all.min, all.max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn exponent_and_planes_of_a_unit_box() {
        let kids = [Aabb {
            min: Vec3::new(0.0, 0.0, 0.0),
            max: Vec3::new(1.0, 0.5, 0.0),
        }];
        let (o, e) = node_frame(&kids);
        // extent 1.0 has biased exponent 127 -> rounded-up power of two is 2^0.
        assert_eq!(e, [127, 126, 0]);
        let q = QuantizedBox::new(&kids[0], o, e);
        assert_eq!(q.min, [0, 0, 0]);
        assert_eq!(q.max[0], 4095);
        let d = q.decode(o, e);
        assert_eq!(d.max.0[0], 1.0);
        assert_eq!(d.max.0[2], 0.0);
    }

    /// The f32 planes equal the rounded f64 products floored, ceiled and
    /// clamped (the builder's definition), on edge values and random ones:
    /// zeros, tiny, huge and infinite differences, NaN, every exponent.
    #[test]
    fn planes_equal_the_rounded_products() {
        fn min_ref(v: f32, origin: f32, e: u32) -> u32 {
            let q = f32_down(sub_down(v, origin) as f64 * reciprocal_scale(e) as f64).floor();
            q.clamp(0.0, 4095.0) as u32
        }
        fn max_ref(v: f32, origin: f32, e: u32) -> u32 {
            let q = f32_up(sub_up(v, origin) as f64 * reciprocal_scale(e) as f64).ceil();
            (q.clamp(1.0, 4096.0) as u32).wrapping_sub(1)
        }
        let mut rng = crate::rng::SplitMix64::new(0x51_7CC1_B727_220A);
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            4095.0,
            4096.0,
            1.0e-40,
            -1.0e-40,
            1.0e-30,
            3.0e38,
            -3.0e38,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for i in 0..400_000u32 {
            let mut pick = || match rng.next_u32() % 4 {
                0 => special[rng.next_u32() as usize % special.len()],
                1 => f32::from_bits(rng.next_u32()),
                _ => (rng.next_f32() - 0.5) * 2f32.powi((rng.next_u32() % 60) as i32 - 30),
            };
            let (v, origin) = (pick(), pick());
            let e = [13, 14, 100, 127, 139, 200, 254, 255][i as usize % 8] + rng.next_u32() % 3;
            let e = e.min(255);
            assert_eq!(
                quantize_min(v, origin, e),
                min_ref(v, origin, e),
                "{v} {origin} {e}"
            );
            assert_eq!(
                quantize_max(v, origin, e),
                max_ref(v, origin, e),
                "{v} {origin} {e}"
            );
        }
    }

    proptest! {
        #[test]
        fn quantized_boxes_contain_the_true_boxes(
            raw in proptest::collection::vec((-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4, 0f32..50.0, 0f32..50.0, 0f32..50.0), 1..9),
            scale in prop::sample::select(vec![1e-6f32, 1e-3, 1.0, 1e3]),
        ) {
            let kids: Vec<Aabb> = raw.iter().map(|&(x, y, z, dx, dy, dz)| {
                let min = Vec3::new(x * scale, y * scale, z * scale);
                Aabb { min, max: min + Vec3::new(dx * scale, dy * scale, dz * scale) }
            }).collect();
            let (o, e) = node_frame(&kids);
            for k in &kids {
                let q = QuantizedBox::new(k, o, e);
                for a in 0..3 {
                    prop_assert!(q.min[a] <= 0xFFF && q.max[a] <= 0xFFF);
                }
                let d = q.decode(o, e);
                prop_assert!(d.contains(k), "{:?} does not contain {:?}", d, k);
            }
        }
    }
}
