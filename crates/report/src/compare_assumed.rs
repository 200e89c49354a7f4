//! When an assumed cost may block a verdict across models.
//!
//! A cost whose source is an assumption (a cache invalidate's 16 clocks)
//! decides a comparison only if the verdict depends on it: it charges the
//! resource that sets the variant's clocks, or doubling or removing it could
//! reverse the difference. A kernel bound by DRAM bandwidth on both GPUs is
//! not decided by a VMEM-path cost that stays far below that bound however
//! it is guessed, however large its share of the unit work (issue 47).

use crate::analyze_view::AnalyzeReport;
use serde::Serialize;

/// Round to 4 decimals so that the output does not carry float noise
/// (every figure of the comparison; `compare_view` re-exports it).
pub fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A bound resource whose clocks are this share or more charged at assumed
/// costs rests on an assumption: the verdict names it and is withheld.
pub const ASSUMED_SHARE_LIMIT: f64 = 0.10;

/// What the assumed costs can do to one variant's clocks per wave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssumedEffect {
    /// The resource that sets the variant's clocks: a unit (`vmem`), a
    /// memory level whose bandwidth binds (`dram`), or `none` when no
    /// resource explains them (latency, occupancy).
    pub bound: String,
    /// The share of the bound unit's clocks charged at assumed costs (0 for
    /// a memory level or `none`).
    pub bound_share: f64,
    /// Clocks per wave the variant could need more with every assumed cost
    /// doubled: the larger of their own clocks per wave and the excess of a
    /// resource they would push past the clocks.
    pub doubled: f64,
    /// Clocks per wave it could need less with them removed: their clocks
    /// on the bound unit, all of them without one, and no more than the
    /// gap to a bound memory level's own time for its bytes.
    pub removed: f64,
}

impl AssumedEffect {
    /// The effect in `r`, from its bottleneck's resource bounds and the part
    /// of each charged at assumed costs.
    pub fn of(r: &AnalyzeReport) -> AssumedEffect {
        let t = r.bottleneck.clocks_per_wave;
        let bounds = &r.bottleneck.bounds;
        let total: f64 = bounds.iter().map(|b| b.assumed_clocks_per_wave).sum();
        // Doubled, a resource whose demand then passes the clocks the CU
        // needs becomes the limit: the clocks grow by the excess. Below that
        // the costs still delay the waves that queue behind them (doubling
        // the invalidates of a DRAM-bound matmul costs 6%), so the swing
        // is at least the assumed clocks themselves.
        let over = bounds
            .iter()
            .filter(|b| b.assumed_clocks_per_wave > 0.0)
            .map(|b| b.clocks_per_wave + b.assumed_clocks_per_wave - t)
            .fold(total, f64::max);
        // A memory level's bandwidth (the verdict "DRAM bandwidth"): no
        // unit cost is part of it, and removing them cannot take the clocks
        // below the time the level needs for its bytes.
        if let Some(level) = r.bottleneck.kind.strip_suffix(" bandwidth") {
            let bound = level.to_lowercase();
            let used = r
                .cache
                .as_ref()
                .and_then(|c| c.0.iter().find(|(n, _)| *n == bound))
                .and_then(|(_, l)| l.bandwidth_utilization)
                .unwrap_or(0.0);
            return AssumedEffect {
                bound,
                bound_share: 0.0,
                doubled: round(over),
                removed: round(total.min(t * (1.0 - used))),
            };
        }
        // The unit the verdict names: the bottleneck's rule, a resource
        // that alone needs 90% of the clocks.
        match bounds
            .iter()
            .find(|b| t > 0.0 && b.clocks_per_wave >= 0.9 * t)
        {
            Some(b) => AssumedEffect {
                bound: b.resource.clone(),
                bound_share: round(if b.clocks_per_wave > 0.0 {
                    b.assumed_clocks_per_wave / b.clocks_per_wave
                } else {
                    0.0
                }),
                doubled: round(over),
                removed: round(b.assumed_clocks_per_wave),
            },
            // Latency or occupancy: the costs lengthen the waves' paths, so
            // all of them can move the clocks.
            None => AssumedEffect {
                bound: "none".into(),
                bound_share: 0.0,
                doubled: round(total),
                removed: round(total),
            },
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::compare_view::{judge, Judgement, NamedValue, Variant};

    /// A variant at `rate` per second needing `clocks` per wave, with
    /// `share` of its unit work assumed and the given effect.
    fn variant(label: &str, rate: f64, clocks: f64, share: f64, effect: AssumedEffect) -> Variant {
        Variant {
            label: label.into(),
            file: "k.cl".into(),
            arch: label.into(),
            clocks: 1000,
            clocks_per_wave: clocks,
            wave_clocks: clocks * 10.0,
            throughput_per_clock: 1.0,
            throughput_unit: "threads".into(),
            utilization: Default::default(),
            waves_per_simd: 10,
            occupancy_limiter: "slots".into(),
            bottleneck: effect.bound.clone(),
            latency_tolerance: None,
            latency_fails_at: None,
            issued_per_wave: Vec::new(),
            per_second_gpu: rate,
            clock_mhz: 1000.0,
            gpu_cus: 64.0,
            assumed_costs: if share > 0.0 {
                vec![NamedValue {
                    name: "vmem_cache_clocks".into(),
                    value: share,
                }]
            } else {
                Vec::new()
            },
            assumed_effect: effect,
            hints: None,
            overrides: Vec::new(),
            kernel_time_us: None,
            kernel_time_bound: None,
            defaults: Vec::new(),
        }
    }

    /// A plain variant for other modules' tests: no assumed costs, no kernel time.
    pub(crate) fn variant_for_tests() -> Variant {
        variant("a", 100.0, 100.0, 0.0, effect("valu", 0.0, 0.0, 0.0))
    }

    fn effect(bound: &str, bound_share: f64, doubled: f64, removed: f64) -> AssumedEffect {
        AssumedEffect {
            bound: bound.into(),
            bound_share,
            doubled,
            removed,
        }
    }

    #[test]
    fn a_cost_off_the_bound_that_cannot_reverse_the_difference_leaves_the_verdict() {
        // Issue 47 item 2, reduced: gfx1100 twice as fast, both DRAM-bound,
        // a fifth of gfx1100's unit work (32 of 96 clocks) assumed.
        let gcn = variant("gfx900", 40.0, 157.0, 0.0, effect("dram", 0.0, 0.0, 0.0));
        let rdna = variant("gfx1100", 80.0, 96.0, 0.23, effect("dram", 0.0, 32.0, 2.0));
        match judge(&rdna, &gcn, 80.0, 40.0, &|r| r.to_string()) {
            Judgement::Holds(note) => assert!(
                note.contains("none of its bound") && note.contains("cannot reverse"),
                "{note}"
            ),
            _ => panic!("the verdict should hold"),
        }
    }

    #[test]
    fn a_cost_that_could_reverse_the_difference_withholds_it() {
        // 10% faster, but doubling the winner's 30 assumed clocks per wave
        // would make it slower than the loser.
        let a = variant("a", 100.0, 100.0, 0.0, effect("none", 0.0, 0.0, 0.0));
        let b = variant("b", 110.0, 100.0, 0.3, effect("none", 0.0, 30.0, 30.0));
        match judge(&b, &a, 110.0, 100.0, &|r| r.to_string()) {
            Judgement::Withheld(why) => assert!(why.contains("could reverse it"), "{why}"),
            _ => panic!("the verdict should be withheld"),
        }
    }

    #[test]
    fn a_cost_on_the_bound_unit_withholds_the_verdict_however_wide_the_gap() {
        // The winner's VMEM path, its bound, is 40% assumed clocks: the
        // difference rests on an assumption even if no flip is in reach.
        let a = variant("a", 10.0, 100.0, 0.0, effect("valu", 0.0, 0.0, 0.0));
        let b = variant("b", 100.0, 100.0, 0.4, effect("vmem", 0.4, 40.0, 40.0));
        match judge(&b, &a, 100.0, 10.0, &|r| r.to_string()) {
            Judgement::Withheld(why) => {
                assert!(why.contains("40.0% of b's vmem clocks, its bound"), "{why}")
            }
            _ => panic!("the verdict should be withheld"),
        }
    }

    #[test]
    fn no_assumed_cost_says_nothing() {
        let a = variant("a", 10.0, 100.0, 0.0, effect("valu", 0.0, 0.0, 0.0));
        let b = variant("b", 20.0, 50.0, 0.0, effect("valu", 0.0, 0.0, 0.0));
        assert!(matches!(
            judge(&b, &a, 20.0, 10.0, &|r| r.to_string()),
            Judgement::Silent
        ));
    }
}
