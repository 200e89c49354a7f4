//! The valid range of each model parameter (`data/ranges.toml`).
//!
//! A value outside its range does not describe a machine the engine can
//! run (no SIMD, an issue turn that never comes, a rate of zero), so it is
//! refused with the rule, never clamped.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// The rule one parameter's value must follow.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamRange {
    /// Smallest valid value (inclusive).
    pub min: f64,
    /// Largest valid value (inclusive).
    pub max: f64,
    /// Only whole numbers.
    #[serde(default)]
    pub integer: bool,
    /// Only powers of two (sizes that are address granules).
    #[serde(default)]
    pub power_of_two: bool,
    /// What the bound protects, for the error message.
    #[serde(default)]
    pub why: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangesFile {
    ranges: BTreeMap<String, ParamRange>,
}

impl ParamRange {
    /// The rule for a parameter that `data/ranges.toml` does not list (a
    /// user model's own): any finite non-negative number.
    pub const ANY_NON_NEGATIVE: ParamRange = ParamRange {
        min: 0.0,
        max: f64::MAX,
        integer: false,
        power_of_two: false,
        why: String::new(),
    };

    /// A whole-number range, for dispatch keys.
    pub fn whole(min: u32, max: u32, why: &str) -> ParamRange {
        ParamRange {
            min: f64::from(min),
            max: f64::from(max),
            integer: true,
            power_of_two: false,
            why: why.to_string(),
        }
    }

    /// A real-number range, for dispatch keys.
    pub fn real(min: f64, max: f64, why: &str) -> ParamRange {
        ParamRange {
            min,
            max,
            integer: false,
            power_of_two: false,
            why: why.to_string(),
        }
    }

    /// Whether `v` follows the rule.
    pub fn contains(&self, v: f64) -> bool {
        v.is_finite()
            && v >= self.min
            && v <= self.max
            && (!self.integer || v.fract() == 0.0)
            && (!self.power_of_two
                || (v >= 1.0 && v.fract() == 0.0 && (v as u64).is_power_of_two()))
    }

    /// The range of a named model parameter (the shared table's entry, or
    /// any non-negative number).
    pub fn of(name: &str) -> &'static ParamRange {
        static ANY: ParamRange = ParamRange::ANY_NON_NEGATIVE;
        table().get(name).unwrap_or(&ANY)
    }

    /// Whether the shared table lists `name`.
    pub fn is_listed(name: &str) -> bool {
        table().contains_key(name)
    }
}

impl fmt::Display for ParamRange {
    /// `a whole number from 1 to 64 (a CU has at least one SIMD)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match (self.power_of_two, self.integer) {
            (true, _) => "a power of two",
            (false, true) => "a whole number",
            (false, false) => "a number",
        };
        if self.max == f64::MAX {
            write!(f, "{kind} of at least {}", self.min)?;
        } else {
            write!(f, "{kind} from {} to {}", self.min, self.max)?;
        }
        if !self.why.is_empty() {
            write!(f, " ({})", self.why)?;
        }
        Ok(())
    }
}

/// The shared table, parsed once (it is embedded and tested to parse).
fn table() -> &'static BTreeMap<String, ParamRange> {
    static TABLE: OnceLock<BTreeMap<String, ParamRange>> = OnceLock::new();
    TABLE.get_or_init(|| {
        toml::from_str::<RangesFile>(include_str!("../data/ranges.toml"))
            .map(|f| f.ranges)
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_its_bounds_are_ordered() {
        let parsed: RangesFile = toml::from_str(include_str!("../data/ranges.toml")).unwrap();
        for (name, r) in &parsed.ranges {
            assert!(r.min <= r.max, "{name}");
            assert!(!r.why.is_empty(), "{name}");
        }
    }

    #[test]
    fn rules_refuse_what_they_say() {
        let r = ParamRange::of("l2_line_bytes");
        assert!(r.contains(64.0));
        // 3 is in 4..4096 neither by size nor as a power of two.
        assert!(!r.contains(3.0));
        assert!(!r.contains(96.0));
        let simds = ParamRange::of("simds");
        assert!(!simds.contains(0.0));
        assert!(!simds.contains(1.5));
        assert_eq!(
            simds.to_string(),
            "a whole number from 1 to 64 (a CU has at least one SIMD)"
        );
        assert!(ParamRange::of("a_user_parameter").contains(0.5));
        assert!(!ParamRange::of("a_user_parameter").contains(f64::NAN));
    }
}
