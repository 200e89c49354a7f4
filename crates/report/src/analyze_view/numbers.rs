//! Rounding and number formats the analyze report's renderings share.

use super::Throughput;

pub(super) fn round(v: f64) -> f64 {
    if v.is_finite() {
        (v * 1e6).round() / 1e6
    } else {
        0.0
    }
}

/// Threads per clock per CU for the text line: `per_clock` is rounded to
/// 1e-6 for JSON, which can leave nothing of a slow program's figure, so
/// take it back from the per-second figure when there is one.
pub(super) fn per_clock_unrounded(t: &Throughput) -> f64 {
    if t.clock_mhz > 0.0 && t.per_second_per_cu.is_finite() && t.per_second_per_cu > 0.0 {
        t.per_second_per_cu / (t.clock_mhz * 1e6)
    } else {
        t.per_clock
    }
}

/// `v` with 4 significant digits (`0.1663`, `1.250`, `0.003125`), in
/// scientific notation with 3 below 0.001 or from 1e6 (`1.35e-4`): never a
/// `0.0000` that hides a small throughput.
pub(super) fn significant(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        // Rust writes `1.35e-4` (no `+`, no leading zeros in the exponent).
        return format!("{v:.2e}");
    }
    let decimals = (3 - a.log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    // Rounding can carry into a fifth digit (9.9996 -> "10.000"); drop it.
    if s.trim_start_matches(['-', '0', '.']).replace('.', "").len() > 4 && decimals > 0 {
        format!("{v:.prec$}", prec = decimals - 1)
    } else {
        s
    }
}

pub(super) fn pct(v: f64) -> String {
    if v > 0.0 && v < 0.0005 {
        "<0.1%".to_string()
    } else {
        format!("{:.1}%", 100.0 * v)
    }
}

pub(super) fn si(v: f64) -> String {
    let (d, s) = if v >= 1e12 {
        (1e12, "T")
    } else if v >= 1e9 {
        (1e9, "G")
    } else if v >= 1e6 {
        (1e6, "M")
    } else if v >= 1e3 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    format!("{:.2}{s}", v / d)
}

#[cfg(test)]
mod throughput_text_tests {
    use super::significant;

    #[test]
    fn four_significant_digits_never_zero() {
        assert_eq!(significant(0.1663), "0.1663");
        assert_eq!(significant(0.003125), "0.003125");
        assert_eq!(significant(1.25), "1.250");
        assert_eq!(significant(0.99996), "1.000");
        assert_eq!(significant(0.000135), "1.35e-4");
        assert_eq!(significant(0.0), "0");
    }
}
