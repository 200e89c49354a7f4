//! fp32 -> fp16 conversion with directed rounding, for fp16 box nodes.
//!
//! A box stored in half precision must still contain the true box, so its
//! minimum rounds toward -inf and its maximum toward +inf.

/// Decode IEEE half bits to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = ((h >> 10) & 0x1F) as i32;
    let man = (h & 0x3FF) as f32;
    match exp {
        0 => sign * man * (2.0f32).powi(-24),
        31 => {
            if man == 0.0 {
                sign * f32::INFINITY
            } else {
                f32::NAN
            }
        }
        e => sign * (1.0 + man / 1024.0) * (2.0f32).powi(e - 15),
    }
}

/// The half with the largest magnitude not above `|x|` (truncation), and
/// whether it is exact. `|x|` beyond the largest half truncates to 65504.
fn truncate_magnitude(x: f64) -> (u16, bool) {
    let a = x.abs();
    if a >= 65504.0 {
        return (0x7BFF, a == 65504.0);
    }
    if a < 2f64.powi(-14) {
        let m = (a / 2f64.powi(-24)).floor();
        return (m as u16, m * 2f64.powi(-24) == a);
    }
    let e = a.log2().floor() as i32;
    // log2 may be off by one near powers of two: fix it.
    let e = if 2f64.powi(e) > a {
        e - 1
    } else if 2f64.powi(e + 1) <= a {
        e + 1
    } else {
        e
    };
    let frac = a / 2f64.powi(e) - 1.0;
    let m = (frac * 1024.0).floor();
    let bits = (((e + 15) as u16) << 10) | (m as u16);
    let exact = (1.0 + m / 1024.0) * 2f64.powi(e) == a;
    (bits, exact)
}

/// Round `x` to half toward -inf (`up == false`) or +inf (`up == true`).
pub fn f32_to_f16_directed(x: f32, up: bool) -> u16 {
    if x.is_nan() {
        return 0x7E00;
    }
    if x.is_infinite() {
        return if x > 0.0 { 0x7C00 } else { 0xFC00 };
    }
    let (mag, exact) = truncate_magnitude(x as f64);
    let negative = x < 0.0;
    // Truncation moved toward zero; step one half-ulp away from zero when the
    // requested direction is away from zero and the value was inexact.
    let away = !exact && (up != negative);
    let mag = if away { mag + 1 } else { mag }; // 0x7BFF + 1 = infinity: fine
    if negative {
        mag | 0x8000
    } else {
        mag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_rounding_brackets_the_value() {
        for &x in &[
            0.0f32, 1.0, -1.0, 0.1, -0.1, 2.5, 1e-6, -1e-6, 65504.0, 1e5, -1e5, 1234.567,
        ] {
            let lo = f16_to_f32(f32_to_f16_directed(x, false));
            let hi = f16_to_f32(f32_to_f16_directed(x, true));
            assert!(lo <= x && x <= hi, "{x}: {lo} {hi}");
            if x.abs() <= 65504.0 {
                assert!(hi - lo <= (x.abs() * 0.001).max(6e-8), "{x}: {lo} {hi}");
            }
        }
        assert_eq!(f32_to_f16_directed(1.0, false), 0x3C00);
        assert_eq!(f32_to_f16_directed(1.0, true), 0x3C00);
    }
}
