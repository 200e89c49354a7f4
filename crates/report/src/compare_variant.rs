//! One variant of a comparison from an analysis (`compare` and `sweep` both build them): the
//! numbers it shows and the assumed costs behind its unit work.

use crate::analyze_view::AnalyzeReport;
use crate::compare_view::{round, AssumedEffect, NamedValue, Variant};
use shadersim_arch::ArchSpec;

impl Variant {
    /// The numbers of one analysis that the comparison shows; `arch` is the
    /// model it ran on (for the sources of its costs).
    pub fn of(label: String, r: &AnalyzeReport, arch: &ArchSpec) -> Variant {
        let waves = f64::from(r.waves.max(1));
        Variant {
            per_second_gpu: r.throughput.per_second_gpu,
            clock_mhz: r.throughput.clock_mhz,
            gpu_cus: r.throughput.gpu_cus,
            assumed_costs: assumed_costs(r, arch),
            assumed_effect: AssumedEffect::of(r),
            hints: None,
            overrides: Vec::new(),
            kernel_time_us: r.kernel_time_us,
            kernel_time_bound: r.kernel_time.as_ref().map(|k| k.bound.clone()),
            defaults: r.defaults.text.clone(),
            label,
            file: r.file.clone(),
            arch: r.arch.clone(),
            clocks: r.clocks,
            clocks_per_wave: r.bottleneck.clocks_per_wave,
            wave_clocks: r.wave_clocks,
            throughput_per_clock: r.throughput.per_clock,
            throughput_unit: r.throughput.unit.clone(),
            utilization: r.utilization.clone(),
            waves_per_simd: r.occupancy.waves_per_simd,
            occupancy_limiter: r.occupancy.limiter.clone(),
            bottleneck: r.bottleneck.kind.clone(),
            latency_tolerance: r.latency_tolerance.as_ref().and_then(|l| l.clocks),
            latency_fails_at: r.latency_tolerance.as_ref().and_then(|l| l.fails_at),
            issued_per_wave: r
                .issued
                .iter()
                .map(|c| NamedValue {
                    name: c.name.clone(),
                    value: round(c.count as f64 / waves),
                })
                .collect(),
        }
    }
}

/// The parameters of `arch` whose source is an assumption that charge the
/// run's unit work (an instruction's `cost_basis` names them), with the share
/// of the work (executions x clocks) each charges, largest first.
fn assumed_costs(r: &AnalyzeReport, arch: &ArchSpec) -> Vec<NamedValue> {
    let assumed = |name: &str| {
        arch.params
            .get(name)
            .is_some_and(|p| p.source.trim_start().starts_with("assumption"))
    };
    let mut total = 0.0;
    let mut by_param: std::collections::BTreeMap<String, f64> = Default::default();
    for i in &r.instructions {
        let work = i.executions as f64 * f64::from(i.cost_clocks);
        total += work;
        let words = i
            .cost_basis
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let mut cited: Vec<&str> = words.filter(|w| assumed(w)).collect();
        cited.sort_unstable();
        cited.dedup();
        for w in cited {
            *by_param.entry(w.to_string()).or_default() += work;
        }
    }
    let mut out: Vec<NamedValue> = by_param
        .into_iter()
        .filter(|(_, w)| total > 0.0 && *w > 0.0)
        .map(|(name, w)| NamedValue {
            name,
            value: round(w / total),
        })
        .collect();
    out.sort_by(|a, b| {
        b.value
            .total_cmp(&a.value)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}
