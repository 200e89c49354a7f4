//! The one set of number formats every text (and HTML) report of
//! shadersim uses, so a figure of one kind reads the same everywhere:
//! * clocks (means and sums that need not be whole): 1 decimal below
//!   1000, none from 1000 or when whole ([`clocks`]: `71.9`, `2929`,
//!   `6`); a change in clocks
//!   has the precision of the values it compares ([`clocks_delta`]);
//! * fractions (rates, shares, utilizations) as percentages with 1
//!   decimal ([`pct`], changes [`pct_delta`]), `<0.1%` for a nonzero one
//!   that would round to nothing;
//! * other measures (throughput, ratios, per-wave op counts): 4
//!   significant digits ([`significant`]), large ones with an SI prefix
//!   ([`si`]);
//! * counts are integers, with the noun in the right number ([`count`]).
//!
//! JSON keeps full precision (a contract); only renderings round.

/// `v` rounded to 1e-6 for JSON (non-finite values as 0).
pub fn round(v: f64) -> f64 {
    if v.is_finite() {
        (v * 1e6).round() / 1e6
    } else {
        0.0
    }
}

/// `v` with 4 significant digits (`0.1663`, `1.250`, `0.003125`), in
/// scientific notation with 3 below 0.001 or from 1e6 (`1.35e-4`): never a
/// `0.0000` that hides a small throughput.
pub fn significant(v: f64) -> String {
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

/// A fraction as a percentage with 1 decimal (`45.7%`; `<0.1%` for a
/// positive fraction below 0.05%).
pub fn pct(v: f64) -> String {
    if v > 0.0 && v < 0.0005 {
        "<0.1%".to_string()
    } else {
        format!("{:.1}%", 100.0 * v)
    }
}

/// `v` with 2 decimals and an SI prefix (`830.05M`).
pub fn si(v: f64) -> String {
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

/// A clock figure: 1 decimal below 1000, none from 1000 (`71.9`,
/// `2929`) or when whole (`6`: costs and unit work are often whole).
pub fn clocks(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() >= 999.95 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The change from `before` to `after` in clocks, signed, with the
/// precision [`clocks`] gives the larger of the two (`+38.9`, `+1233`);
/// `0` when nothing changed at that precision.
pub fn clocks_delta(before: f64, after: f64) -> String {
    let d = after - before;
    let decimals = if before.abs().max(after.abs()) >= 999.95 {
        0
    } else {
        1
    };
    let s = format!("{d:+.decimals$}");
    if s.trim_start_matches(['+', '-'])
        .trim_start_matches(['0', '.'])
        .is_empty()
    {
        "0".into()
    } else {
        s
    }
}

/// A change of a fraction (percentage points, or a relative change) as a
/// signed percentage with 1 decimal (`+0.8%`, `-13.1%`); `+<0.1%` or
/// `-<0.1%` for a nonzero change that would round to nothing, `0.0%`
/// for none.
pub fn pct_delta(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        "0.0%".into()
    } else if v.abs() < 0.0005 {
        format!("{}<0.1%", if v > 0.0 { '+' } else { '-' })
    } else {
        format!("{:+.1}%", 100.0 * v)
    }
}

/// A mean of counts (executions or ops per wave): whole numbers as
/// integers (`1`), others with 4 significant digits (`0.3333`).
pub fn amount(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        significant(v)
    }
}

/// `n` and the noun in the right number: `count(1, "wave")` is `1 wave`,
/// `count(2, "wave")` is `2 waves` (nouns whose plural is not `-s` take
/// [`count_as`]).
pub fn count(n: u64, noun: &str) -> String {
    count_as(n, noun, &format!("{noun}s"))
}

/// `n` and `one` or `many` (`count_as(2, "branch", "branches")`).
pub fn count_as(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The noun alone in the number `n` asks for (`wave` or `waves`).
pub fn noun(n: u64, noun: &str) -> String {
    if n == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod throughput_text_tests {
    use super::*;

    #[test]
    fn one_rule_per_kind() {
        // Clocks: 1 decimal below 1000, none from 1000.
        assert_eq!(clocks(71.883), "71.9");
        assert_eq!(clocks(1.0), "1");
        assert_eq!(clocks(220.8), "220.8");
        assert_eq!(clocks(999.96), "1000");
        assert_eq!(clocks(2928.612), "2929");
        // Deltas at the precision of the values they compare.
        assert_eq!(clocks_delta(96.3795, 135.2598), "+38.9");
        assert_eq!(clocks_delta(2928.612, 4161.769), "+1233");
        assert_eq!(clocks_delta(2033.044, 2033.15), "0");
        assert_eq!(clocks_delta(1977.554, 1034.0), "-944");
        // Percentages with 1 decimal, never a 0.0 that hides a change.
        assert_eq!(pct_delta(-0.0791), "-7.9%");
        assert_eq!(pct_delta(0.0006), "+0.1%");
        assert_eq!(pct_delta(-0.0001), "-<0.1%");
        assert_eq!(pct_delta(0.0), "0.0%");
        assert_eq!(amount(1.0), "1");
        assert_eq!(amount(1.0 / 3.0), "0.3333");
        assert_eq!(count(1, "wave"), "1 wave");
        assert_eq!(count(0, "instruction"), "0 instructions");
        assert_eq!(count_as(2, "branch", "branches"), "2 branches");
    }

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
