//! What a comparison's verdict weighs and what its text adds below the table: the dispatch's
//! time on the whole GPU when the launch gave a grid (the user's question: how long does this
//! kernel take on that GPU), else throughput; and each variant's defaults, so a comparison says
//! what it took by default as `analyze` does (a loop that ran once, the `--arg` that would run
//! it).

use crate::compare_view::{Comparison, Variant};
use crate::numbers::{amount, si, significant};

/// What a verdict compares two variants by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PaceKind {
    /// Both have a kernel time: the whole dispatch's duration.
    Dispatch,
    /// Throughput (per second on the GPU across models, per clock per CU on one).
    Throughput,
}

/// Two variants' speeds as rates (higher is faster), their figures as the
/// verdict prints them, and how the assumed-cost judgement prints a rate.
pub(crate) struct Pace {
    pub kind: PaceKind,
    /// The first variant's rate, and the second's.
    pub a: f64,
    pub b: f64,
    /// "A's figure vs B's figure ...", and B's first.
    pub figures: String,
    pub figures_reversed: String,
    /// A rate as the verdict states it (a time for `Dispatch`).
    pub show: Box<dyn Fn(f64) -> String>,
}

/// A duration in microseconds as the kernel time states it.
pub(crate) fn us(v: f64) -> String {
    format!("{v:.2} us")
}

/// Both variants' kernel times, when both have one above zero.
fn both_times(a: &Variant, b: &Variant) -> Option<(f64, f64)> {
    match (a.kernel_time_us, b.kernel_time_us) {
        (Some(x), Some(y)) if x > 0.0 && y > 0.0 => Some((x, y)),
        _ => None,
    }
}

impl Pace {
    /// By kernel time: rates are dispatches per microsecond; `cus`, the
    /// two GPUs' CU counts when they may differ.
    fn dispatch(x: f64, y: f64, cus: Option<(f64, f64)>) -> Pace {
        let said = |x: f64, y: f64, cus: Option<(f64, f64)>| {
            let on = cus.map_or(String::new(), |(p, q)| {
                format!(" on {} and {} CUs", amount(p), amount(q))
            });
            format!("{} vs {} for the whole dispatch{on}", us(x), us(y))
        };
        Pace {
            kind: PaceKind::Dispatch,
            a: 1.0 / x,
            b: 1.0 / y,
            figures: said(x, y, cus),
            figures_reversed: said(y, x, cus.map(|(p, q)| (q, p))),
            show: Box::new(|r| us(1.0 / r)),
        }
    }

    /// Two models: the dispatch's time, else throughput per second on the whole GPU.
    pub fn across_models(a: &Variant, b: &Variant) -> Pace {
        let unit = a.throughput_unit.clone();
        if let Some((x, y)) = both_times(a, b) {
            return Pace::dispatch(x, y, Some((a.gpu_cus, b.gpu_cus)));
        }
        let per_second = |v: &Variant| {
            format!(
                "{} {unit}/s on {} CUs at {} MHz",
                si(v.per_second_gpu),
                amount(v.gpu_cus),
                amount(v.clock_mhz)
            )
        };
        Pace {
            kind: PaceKind::Throughput,
            a: a.per_second_gpu,
            b: b.per_second_gpu,
            figures: format!("{} vs {}", per_second(a), per_second(b)),
            figures_reversed: format!("{} vs {}", per_second(b), per_second(a)),
            show: Box::new(move |r| format!("{} {unit}/s", si(r))),
        }
    }

    /// One model: the dispatch's time, else throughput per clock per CU.
    pub fn same_model(a: &Variant, b: &Variant) -> Pace {
        if let Some((x, y)) = both_times(a, b) {
            return Pace::dispatch(x, y, None);
        }
        let unit = a.throughput_unit.clone();
        let (ta, tb) = (a.throughput_per_clock, b.throughput_per_clock);
        let pair = |x: f64, y: f64| {
            format!(
                "{} vs {} {unit} per clock per CU",
                significant(x),
                significant(y)
            )
        };
        Pace {
            kind: PaceKind::Throughput,
            a: ta,
            b: tb,
            figures: pair(ta, tb),
            figures_reversed: pair(tb, ta),
            show: Box::new(move |r| format!("{} {unit} per clock per CU", significant(r))),
        }
    }
}

/// The defaults the variants took, grouped: the sentences every variant
/// took first (labelled `every variant`), then each variant's own.
pub(crate) fn defaults_groups(c: &Comparison) -> Vec<(String, Vec<String>)> {
    let vs = &c.variants;
    let shared: Vec<String> = vs[0]
        .defaults
        .iter()
        .filter(|d| vs.iter().all(|v| v.defaults.contains(d)))
        .cloned()
        .collect();
    let mut groups = Vec::new();
    if !shared.is_empty() && vs.len() > 1 {
        groups.push(("every variant".to_string(), shared.clone()));
    }
    for v in vs {
        let own: Vec<String> = v
            .defaults
            .iter()
            .filter(|d| vs.len() == 1 || !shared.contains(d))
            .cloned()
            .collect();
        if !own.is_empty() {
            groups.push((v.label.clone(), own));
        }
    }
    groups
}

/// A note when no variant has a kernel time though the program is a
/// compute kernel: the launch gave no grid, so the comparison is one CU's.
pub(crate) fn no_time_note(c: &Comparison) -> Option<String> {
    let compute = c.variants.iter().all(|v| v.throughput_unit == "threads");
    let none = c.variants.iter().all(|v| v.kernel_time_us.is_none());
    (compute && none).then(|| {
        "kernel time: none, the launch gave no grid; the verdicts compare throughput, not the dispatch's time: give --global (or --grid) and --block".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare_view::compare;

    fn with_defaults(v: &Variant, label: &str, defaults: &[&str]) -> Variant {
        let mut v = v.clone();
        v.label = label.into();
        v.defaults = defaults.iter().map(|d| d.to_string()).collect();
        v
    }

    /// A sentence every variant took is listed once, first; the rest under their variant.
    #[test]
    fn shared_defaults_are_listed_once() {
        let v = crate::compare_assumed::tests::variant_for_tests();
        let c = compare(vec![
            with_defaults(&v, "a", &["loop at line 4", "buffers"]),
            with_defaults(&v, "b", &["buffers", "loop at line 6"]),
        ]);
        assert_eq!(
            defaults_groups(&c),
            vec![
                ("every variant".to_string(), vec!["buffers".to_string()]),
                ("a".to_string(), vec!["loop at line 4".to_string()]),
                ("b".to_string(), vec!["loop at line 6".to_string()]),
            ]
        );
    }

    /// Kernel times decide over throughput: 10 us against 4 us is 2.5x as fast, whatever the
    /// per-clock rates say; and a missing time on either side falls back to throughput.
    #[test]
    fn times_decide_when_both_have_one() {
        let v = crate::compare_assumed::tests::variant_for_tests();
        let mut a = with_defaults(&v, "a", &[]);
        let mut b = with_defaults(&v, "b", &[]);
        a.kernel_time_us = Some(10.0);
        b.kernel_time_us = Some(4.0);
        b.throughput_per_clock = a.throughput_per_clock / 2.0;
        let c = compare(vec![a.clone(), b.clone()]);
        assert_eq!(c.deltas[0].kernel_time_ratio, Some(0.4));
        assert!(
            c.verdicts[0].starts_with("b is 150.0% faster than a (4.00 us vs 10.00 us"),
            "{}",
            c.verdicts[0]
        );
        b.kernel_time_us = None;
        let c = compare(vec![a, b]);
        assert!(
            c.verdicts[0].starts_with("a is 100.0% faster"),
            "{}",
            c.verdicts[0]
        );
        assert!(no_time_note(&c).is_none(), "a has a time");
    }
}
