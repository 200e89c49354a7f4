//! What a comparison's verdict weighs and what its text adds below the table: the dispatch's
//! time on the whole GPU when the launch gave a grid (the user's question: how long does this
//! kernel take on that GPU), else throughput; and each variant's defaults, so a comparison says
//! what it took by default as `analyze` does (a loop that ran once, the `--arg` that would run
//! it). Plain numbers and sentences in, so that `compare_view`, which holds the variants, uses
//! this module and not the other way round.

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

impl Pace {
    /// By kernel times `x` and `y` (microseconds, above zero): rates are dispatches per
    /// microsecond; `cus`, the two GPUs' CU counts when they may differ.
    pub fn dispatch(x: f64, y: f64, cus: Option<(f64, f64)>) -> Pace {
        let said = |x: f64, y: f64, cus: Option<(f64, f64)>| {
            let on = cus.map_or(String::new(), |(p, q)| {
                format!(
                    " on {} and {} CUs",
                    crate::numbers::amount(p),
                    crate::numbers::amount(q)
                )
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

    /// By throughputs `a` and `b`, their figures said by `said(first, second)` and a rate by
    /// `show`.
    pub fn throughput(
        a: f64,
        b: f64,
        said: impl Fn(bool) -> String,
        show: Box<dyn Fn(f64) -> String>,
    ) -> Pace {
        Pace {
            kind: PaceKind::Throughput,
            a,
            b,
            figures: said(false),
            figures_reversed: said(true),
            show,
        }
    }
}

/// The defaults the variants took (`(label, sentences)` in order), grouped: the sentences every
/// variant took first (labelled `every variant`), then each variant's own.
pub(crate) fn defaults_groups(variants: &[(&str, &[String])]) -> Vec<(String, Vec<String>)> {
    let Some((_, first)) = variants.first() else {
        return Vec::new();
    };
    let several = variants.len() > 1;
    let shared: Vec<String> = first
        .iter()
        .filter(|d| several && variants.iter().all(|(_, v)| v.contains(d)))
        .cloned()
        .collect();
    let mut groups = Vec::new();
    if !shared.is_empty() {
        groups.push(("every variant".to_string(), shared.clone()));
    }
    for (label, defaults) in variants {
        let own: Vec<String> = defaults
            .iter()
            .filter(|d| !shared.contains(d))
            .cloned()
            .collect();
        if !own.is_empty() {
            groups.push((label.to_string(), own));
        }
    }
    groups
}

/// What the text says when no variant of a compute kernel has a kernel time.
pub(crate) const NO_TIME_NOTE: &str = "kernel time: none, the launch gave no grid; the verdicts compare throughput, not the dispatch's time: give --global (or --grid) and --block";

#[cfg(test)]
mod tests {
    use super::*;

    /// A sentence every variant took is listed once, first; the rest under their variant.
    #[test]
    fn shared_defaults_are_listed_once() {
        let a = ["loop at line 4".to_string(), "buffers".to_string()];
        let b = ["buffers".to_string(), "loop at line 6".to_string()];
        assert_eq!(
            defaults_groups(&[("a", &a), ("b", &b)]),
            vec![
                ("every variant".to_string(), vec!["buffers".to_string()]),
                ("a".to_string(), vec!["loop at line 4".to_string()]),
                ("b".to_string(), vec!["loop at line 6".to_string()]),
            ]
        );
        // One variant: its own, not "every variant".
        assert_eq!(
            defaults_groups(&[("a", &a)]),
            vec![("a".to_string(), a.to_vec())]
        );
    }

    /// Kernel times decide over throughput: 10 us against 4 us is 2.5x as fast, whatever the
    /// per-clock rates say; and a missing time on either side falls back to throughput.
    #[test]
    fn times_decide_when_both_have_one() {
        use crate::compare_view::{compare, no_time_note};
        let v = crate::compare_assumed::tests::variant_for_tests();
        let (mut a, mut b) = (v.clone(), v);
        b.label = "b".into();
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

    /// 10 us against 4 us: the second's rate is 2.5 times the first's, and a rate reads back
    /// as its time.
    #[test]
    fn a_dispatch_pace_is_the_inverse_of_its_times() {
        let p = Pace::dispatch(10.0, 4.0, None);
        assert!((p.b / p.a - 2.5).abs() < 1e-12);
        assert_eq!((p.show)(p.b), "4.00 us");
        assert_eq!(
            p.figures_reversed,
            "4.00 us vs 10.00 us for the whole dispatch"
        );
    }
}
