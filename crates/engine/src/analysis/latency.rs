//! The latency-tolerance search: the largest memory latency a shader
//! absorbs before its throughput falls more than 5% below its zero-latency
//! throughput, bracketed by re-running the simulation.
//!
//! **The contract.** The result is a bracket of two simulations: `clocks`,
//! the largest latency a run showed passing (the base at 0 if none other
//! did), and `fails_at`, the smallest a run showed failing above it, or
//! none when no failing latency was reached. By default
//! ([`SearchBudget::DEFAULT`]) the search spends at most two *runs* of
//! simulated work beyond the main run, where a run is the pass limit's
//! clocks ([`Threshold::max_passing_clocks`]: the most a passing run
//! takes, at most 1/0.95 times the zero-latency run): each probe costs
//! the clocks it simulated, an early-stopped one what it ran. Work counted
//! in simulated clocks, not wall time, keeps the result deterministic. The
//! search stops earlier when the bracket is within the precision (1/64 by
//! default); [`SearchBudget::precise`] (`--latency-precision P`) drops the
//! budget and searches until `fails_at - clocks <= max(1, P * clocks)`.
//! The zero-latency base, which defines the 95% line, is paid from the
//! same budget: with the cache hierarchy (the model's extra miss latency
//! is 0) it is the main run itself and costs nothing; in flat-latency
//! mode it is one more run, made beside the main run
//! ([`Simulation::latency_head`]), which leaves one probe. (Measured in
//! CPU time over the fixtures, a run of the search costs 0.5 to 0.9 of a
//! whole `analyze` without it, so two runs keep `analyze` within 3 times;
//! see `scripts/bench-latency-search.sh`.)
//!
//! **Placement.** With two probes to spend, they are placed from what the
//! program says rather than by stepping: [`Simulation::latency_estimate`]
//! counts the waits each wave makes for its own vector memory and the
//! waves that share a wave slot over the run, which gives an (upper)
//! estimate of the answer and the slope of the clock count once the
//! latency shows. The first probe goes to the estimate; a probe that
//! finishes on the rising part then predicts the crossing through that
//! slope; failing that, lines through probes (below), and a step by a
//! factor of [`ESTIMATE_STEP`] (up) or [`ESTIMATE_STEP_DOWN`] away from an
//! estimate a probe contradicted. A
//! budgeted round runs one probe, placed from everything known.
//!
//! Without a budget the search runs two probes a round, side by side:
//!
//! - **Early stop.** The work (threads) is the same at every latency, so a
//!   probe's verdict depends only on its clock count: it passes if it ends
//!   within [`Threshold::max_passing_clocks`]. A probe runs with a clock
//!   limit a quarter above that (under a budget, what the budget leaves
//!   beyond the pass limit the next probe needs); one that hits it fails,
//!   and a probe far above the answer stops after a fraction of its work.
//!   (The quarter's slack keeps the clock count of probes just above the
//!   answer, which the interpolation below needs.)
//! - **Reuse.** The main run is a probe at the model's latency, and the
//!   zero-latency base itself when the model's latency is 0 (the cache
//!   hierarchy's `miss_extra_latency`).
//! - **Placement.** Clocks against latency are flat or rising, and the
//!   rise steepens (each wave's exposed waits add up): a convex curve. The
//!   chord between the bracket's ends then crosses the failing clock count
//!   at or before the answer, and the line through two neighbouring probes
//!   on one side at or after it. A round probes the mean of these
//!   estimates, spread by half their disagreement (at least the stopping
//!   width): where they agree, one round closes the bracket. Above the
//!   highest passing probe, a line that reaches the failing count within 4
//!   times that latency is probed just below; a longer extrapolation only
//!   caps a geometric split. Where nothing is known yet, the probes step by
//!   factors of 4 and 16 (the range spans 0 to 65536).
//! - **Closing.** Real curves wiggle and step near the answer, where bets
//!   on estimates can land both probes on one side. Once a stopping width
//!   in from each end of the bracket leaves at most a width between the
//!   two points, the round probes them, which closes the bracket whatever
//!   their verdicts; two rounds in a row that do not halve the bracket
//!   make the next one split it in thirds.
//!
//! The result never rests on the convexity: every decision only narrows a
//! bracket between a passing latency (`lo`) and a failing one (`hi`), each
//! probe lies strictly inside it (so the search ends), and the answer is
//! `lo`. The search stops, as a root finder does, when either side of the
//! crossing is pinned down (or the budget is spent):
//!
//! - **in latency:** `hi - lo <= max(1, precision * lo)` (1/64: within
//!   1.5% or 1 clock); or
//! - **in throughput:** `lo` already loses at least 4% (its throughput is
//!   within [`LINE_BAND`] of the base throughput above the 95% line). The
//!   question is where the loss reaches 5%; a passing latency that loses
//!   4 to 5% answers it to a point of throughput, which is finer than the
//!   simulation's own noise there. Where the curve is steep this is the
//!   latency rule again; where it runs flat along the line (the curves of
//!   real programs wiggle by a percent or more near it), latency
//!   precision means nothing and chasing it cost many rounds.
//!
//! The precision holds against the true crossing where throughput falls
//! monotonically; where it wiggles around the 95% line (scheduling is
//! discrete: a latency may pass that a smaller one fails), several
//! brackets meet the rules and the one found depends on where the probes
//! fall. Every decision depends only on the probes' results, so the
//! answer does not depend on the thread count.

use crate::error::SimError;
use crate::ops::OpKind;
use crate::run::{PrepareError, Simulation};
use crate::stats::SimStats;
use std::sync::atomic::{AtomicU32, Ordering};

/// The largest latency the search tries; tolerating it reports `None`.
pub const SEARCH_LIMIT: u64 = 1 << 16;

/// How close to the 95% line, as a fraction of the zero-latency
/// throughput, a passing latency's throughput must be for the search to
/// stop there (a loss of at least 4%; see the module comment).
pub const LINE_BAND: f64 = 0.01;

/// What one probe run learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// The run ended after this many clocks.
    Finished(u64),
    /// The run was stopped at this clock limit: it needs more clocks.
    Stopped(u64),
}

/// The pass rule of the search: a probe passes if its throughput is at
/// least 95% of the zero-latency throughput.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    threads: u64,
    cus: u32,
    base: f64,
    max_pass: u64,
}

/// Throughput per clock per CU, computed exactly as
/// [`SimStats::throughput_per_clock`] does (the verdicts must agree bit
/// for bit with the ones full runs would give).
fn throughput(threads: u64, clocks: u64, cus: u32) -> f64 {
    if clocks == 0 {
        0.0
    } else {
        threads as f64 / clocks as f64 / f64::from(cus.max(1))
    }
}

impl Threshold {
    /// The rule for a program whose zero-latency run gave `base` (threads,
    /// CUs and the clock count are all it reads).
    pub fn new(base: &SimStats) -> Threshold {
        Threshold::from_counts(base.threads, base.cus, base.clocks)
    }

    /// The rule for a base run of `threads` threads on `cus` CUs that took
    /// `clocks` clocks.
    pub fn from_counts(threads: u64, cus: u32, clocks: u64) -> Threshold {
        let mut t = Threshold {
            threads,
            cus,
            base: throughput(threads, clocks, cus),
            max_pass: 0,
        };
        t.max_pass = t.find_max_pass(clocks);
        t
    }

    /// The zero-latency throughput per clock.
    pub fn base_throughput(&self) -> f64 {
        self.base
    }

    /// Whether a throughput passes (within 5% of the base; the 1e-12 keeps
    /// the base itself passing whatever the rounding).
    pub fn passes(&self, throughput: f64) -> bool {
        throughput >= 0.95 * self.base - 1e-12
    }

    /// Whether a run of this program that took `clocks` passes.
    pub fn passes_clocks(&self, clocks: u64) -> bool {
        self.passes(throughput(self.threads, clocks, self.cus))
    }

    /// Whether a run that took `clocks` passes within [`LINE_BAND`] of the
    /// line: it loses between 4% and 5% of the base throughput.
    pub fn near_line(&self, clocks: u64) -> bool {
        self.passes_clocks(clocks)
            && throughput(self.threads, clocks, self.cus) <= (0.95 + LINE_BAND) * self.base
    }

    /// The most clocks a passing run may take (`u64::MAX`: every run
    /// passes, as when the program has no threads). Throughput falls as
    /// clocks grow (the threads are fixed), so a run passes exactly when
    /// it ends within this many clocks.
    pub fn max_passing_clocks(&self) -> u64 {
        self.max_pass
    }

    fn find_max_pass(&self, base_clocks: u64) -> u64 {
        if self.passes_clocks(u64::MAX) {
            return u64::MAX;
        }
        // Start from the real-number answer and step to the exact one under
        // the floating-point rule (a few steps at most).
        let mut c = (base_clocks.max(1) as f64 / 0.95) as u64;
        while self.passes_clocks(c + 1) {
            c += 1;
        }
        while c > 0 && !self.passes_clocks(c) {
            c -= 1;
        }
        c
    }

    /// The clock limit of a probe: a quarter above the last passing count
    /// (see the module comment).
    pub fn probe_limit(&self) -> u64 {
        self.max_pass.saturating_add(self.max_pass / 4)
    }

    /// A probe's verdict: `Some(true)` passes, `Some(false)` fails, `None`
    /// stopped before the pass limit (the probe says nothing).
    pub fn verdict(&self, probe: Probe) -> Option<bool> {
        match probe {
            Probe::Finished(c) => Some(self.passes_clocks(c)),
            Probe::Stopped(limit) => (limit >= self.max_pass).then_some(false),
        }
    }
}

/// The result of the latency-tolerance search.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyTolerance {
    /// The search's probes that ran to their end, free ones included:
    /// (latency, throughput per clock), by latency (each latency once;
    /// early-stopped probes have no throughput and are left out).
    pub curve: Vec<(u64, f64)>,
    /// The largest VMEM latency a simulation showed passing (throughput
    /// within 5% of the zero-latency throughput; 0: only the base did);
    /// `None`: `searched_up_to` passes.
    pub clocks: Option<u64>,
    /// The smallest latency the search found failing (`None`: none
    /// failed): `clocks` is known to `fails_at - clocks`.
    pub fails_at: Option<u64>,
    /// The search limit.
    pub searched_up_to: u64,
    /// The model's own VMEM latency.
    pub model_latency: u64,
    /// Throughput with zero latency.
    pub zero_latency_throughput: f64,
    /// Throughput at the model's latency.
    pub model_throughput: f64,
    /// Simulations the search ran (the main run, reused as a probe, is
    /// not counted).
    pub runs: u32,
    /// The parameter varied: the flat `vmem_latency`, or with the cache
    /// hierarchy on, the extra latency of every first-level miss (the
    /// model's `[cache] miss_extra_latency`; its own value is 0).
    pub parameter: String,
    /// The bracket width asked for, relative to `clocks`.
    pub precision: f64,
    /// The probes' work budget in runs (`None`: none, the search ran to
    /// `precision`).
    pub budget_runs: Option<f64>,
    /// The work the search spent, in runs (the clocks its simulations
    /// ran over the pass limit's: the probes, and the zero-latency base
    /// when it is not the main run; the main run is not counted).
    pub work_runs: f64,
    /// Why the search stopped; [`SearchEnd::precise`] says whether the
    /// bracket reached `precision`.
    pub end: SearchEnd,
    /// The estimate the first probe was placed from
    /// ([`Simulation::latency_estimate`]).
    pub estimate: Option<u64>,
}

/// The search's result: the answer and every probe (by latency).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Largest passing latency found (`None`: [`SEARCH_LIMIT`] passes).
    pub answer: Option<u64>,
    /// Every probe used, free ones included, sorted by latency.
    pub probes: Vec<(u64, Probe)>,
    /// Why the search stopped.
    pub end: SearchEnd,
    /// The work spent, in runs (pass-limit clocks: the probes, and
    /// [`SearchPlan::spent`]; the known probes are not counted).
    pub work: f64,
}

/// How far the search goes: the work its probes may spend and the
/// bracket width it aims for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchBudget {
    /// The bracket width, relative to its passing end, at which the search
    /// stops: `fails_at - clocks <= max(1, precision * clocks)` (the
    /// default, 1/64, is the 1.5% bracket of the search before budgets).
    pub precision: f64,
    /// The work the search may spend, in runs (a run: the pass limit's
    /// clocks, see the module comment; the zero-latency base, when the
    /// search runs it, included); `None`: no limit, the search goes
    /// on until the bracket reaches `precision`.
    pub runs: Option<f64>,
}

/// The default relative bracket width, 1/64 (1.5625%).
pub const DEFAULT_PRECISION: f64 = 1.0 / 64.0;

/// The default work budget of the search, in runs: two (the zero-latency
/// base included when it is not the main run).
pub const DEFAULT_BUDGET_RUNS: f64 = 2.0;

/// The factor by which a budgeted probe steps up from a bracket's passing
/// end when a probe passed at the model's estimate and nothing measured
/// places the next one (the estimate is often off by a factor of 2 to 4
/// on the fixtures: it ignores how the waves' exposures overlap and which
/// requests hit the caches).
pub const ESTIMATE_STEP: f64 = 4.0;

/// The factor by which a budgeted probe steps down from a failing end at
/// the model's estimate. Larger than [`ESTIMATE_STEP`]: a probe that fails
/// says nothing about how far above the answer it lay, and a bracket
/// without a passing end says little. (Over the fixtures, where the
/// estimate failed it lay a median 3.9 times above the answer and 3 in 4
/// times within 8 of it: a step of 4 found the passing end half the time.)
pub const ESTIMATE_STEP_DOWN: f64 = 8.0;

impl SearchBudget {
    /// `analyze`'s and `batch`'s default: two runs of work, stopping early
    /// if the bracket reaches 1/64.
    pub const DEFAULT: SearchBudget = SearchBudget {
        precision: DEFAULT_PRECISION,
        runs: Some(DEFAULT_BUDGET_RUNS),
    };

    /// No work limit: search until the bracket is `precision` wide
    /// (`--latency-precision`).
    pub fn precise(precision: f64) -> SearchBudget {
        SearchBudget {
            precision,
            runs: None,
        }
    }

    /// Allowed width of the final bracket `[lo, hi]`.
    fn tolerance(&self, lo: u64) -> u64 {
        ((lo as f64 * self.precision) as u64).max(1)
    }
}

/// What the search knows before its first probe besides the probes: the
/// budget, and the estimate from the main run's statistics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchPlan {
    /// Work budget and precision.
    pub budget: SearchBudget,
    /// The estimated answer (see [`Simulation::latency_estimate`]).
    pub estimate: Option<u64>,
    /// The estimated rise of the clock count per clock of latency once
    /// the latency shows (the exposures each wave slot sits through in
    /// series): a finished probe on the rising part then predicts the
    /// crossing.
    pub slope: Option<f64>,
    /// Clocks the search already simulated before its first probe, paid
    /// from the budget: the zero-latency base when it is not the main run
    /// (flat-latency mode), 0 otherwise.
    pub spent: u64,
}

impl SearchPlan {
    /// A plan with no estimate and nothing spent.
    pub fn new(budget: SearchBudget) -> SearchPlan {
        SearchPlan {
            budget,
            estimate: None,
            slope: None,
            spent: 0,
        }
    }
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchEnd {
    /// The bracket is within the precision.
    Precision,
    /// The passing end already loses 4 to 5% of the throughput (the
    /// throughput rule of the module comment).
    Line,
    /// The budget could not pay for another probe.
    Budget,
    /// [`SEARCH_LIMIT`] passes.
    Limit,
}

impl SearchEnd {
    /// The name the reports print.
    pub fn name(self) -> &'static str {
        match self {
            SearchEnd::Precision => "precision",
            SearchEnd::Line => "line",
            SearchEnd::Budget => "budget",
            SearchEnd::Limit => "limit",
        }
    }

    /// Whether the bracket met the precision asked for (or the throughput
    /// rule, or the search limit passed: the answer is then as precise as
    /// the search can make it).
    pub fn precise(self) -> bool {
        self != SearchEnd::Budget
    }
}

/// Search the tolerance. `known` are probes already run (the base at
/// latency 0, which `threshold` was made from, among them);
/// `run(latency, limit)` runs one probe with that clock limit. With a
/// budget a round runs one probe; without, two, side by side.
pub fn search<F>(
    threshold: &Threshold,
    known: &[(u64, Probe)],
    plan: &SearchPlan,
    run: F,
) -> Result<SearchResult, PrepareError>
where
    F: Fn(u64, u64) -> Result<Probe, PrepareError> + Sync,
{
    let mut probes: Vec<(u64, Probe)> = Vec::new();
    for &(lat, p) in known {
        if threshold.verdict(p).is_some() && !probes.iter().any(|q| q.0 == lat) {
            probes.push((lat, p));
        }
    }
    let budget = plan.budget;
    let unit = threshold.max_pass as f64;
    let allowed = budget.runs.map(|r| r * unit);
    let mut spent = plan.spent as f64;
    // The bracket's width after the last narrowing round: two rounds in a
    // row that did not halve it mean the curve is not what the
    // interpolation assumes, and the next round splits the bracket in
    // thirds (so the search ends in a number of rounds logarithmic in the
    // range, whatever the curve).
    let mut last_width = u64::MAX;
    let mut slow = 0;
    let (answer, end) = loop {
        probes.sort_by_key(|p| p.0);
        let (lo, hi) = bracket(threshold, &probes);
        match hi {
            None if lo >= SEARCH_LIMIT => break (None, SearchEnd::Limit),
            Some(hi) if hi - lo <= budget.tolerance(lo) => break (Some(lo), SearchEnd::Precision),
            Some(_) if lo_near_line(threshold, &probes, lo) => break (Some(lo), SearchEnd::Line),
            _ => {}
        }
        // The clock limit: a quarter above the pass limit, or under a
        // budget what it has left beyond the pass limit a next probe needs
        // (a probe needs the pass limit to tell).
        let limit = match allowed {
            None => threshold.probe_limit(),
            Some(a) => {
                let left = a - spent;
                if left < unit {
                    break (Some(lo), SearchEnd::Budget);
                }
                threshold.probe_limit().min((left - unit).max(unit) as u64)
            }
        };
        let next = if allowed.is_some() {
            vec![single(threshold, &probes, lo, hi, plan)]
        } else {
            let next = match hi {
                None => ascend(threshold, &probes, lo, plan),
                Some(hi) => {
                    slow = if 2 * (hi - lo) > last_width {
                        slow + 1
                    } else {
                        0
                    };
                    let stalled = slow >= 2;
                    last_width = hi - lo;
                    narrow(threshold, &probes, lo, hi, stalled, plan)
                }
            };
            inside_bracket(next, lo, hi)
        };
        let results: Vec<Probe> = match next.as_slice() {
            [a] => vec![run(*a, limit)?],
            [a, b] => {
                let (x, y) = rayon::join(|| run(*a, limit), || run(*b, limit));
                vec![x?, y?]
            }
            _ => unreachable!("a round probes one or two latencies"),
        };
        for (&lat, p) in next.iter().zip(results) {
            if threshold.verdict(p).is_none() {
                // Only a caller's own clock cap below the pass limit can
                // cut a run this short: the run is too long to tell.
                if let Probe::Stopped(c) = p {
                    return Err(SimError::TooLong(c).into());
                }
            }
            spent += match p {
                Probe::Finished(c) => c as f64,
                Probe::Stopped(c) => c as f64,
            };
            probes.push((lat, p));
        }
    };
    probes.sort_by_key(|p| p.0);
    Ok(SearchResult {
        answer,
        probes,
        end,
        work: if unit > 0.0 { spent / unit } else { 0.0 },
    })
}

/// The one probe of a budgeted round, strictly inside (`lo`, `hi`): the
/// mean of the measured estimates (lines through probes, and the model's
/// slope from a probe on the rising part); else the model's estimate, or
/// when a probe has already contradicted it, a step of
/// [`ESTIMATE_STEP`] (up) or [`ESTIMATE_STEP_DOWN`] from the bracket's end
/// toward the rest; with neither,
/// a midpoint or a step up.
fn single(
    th: &Threshold,
    probes: &[(u64, Probe)],
    lo: u64,
    hi: Option<u64>,
    plan: &SearchPlan,
) -> u64 {
    let top = hi.map_or(SEARCH_LIMIT, |h| h - 1);
    let inside = |e: f64| (e.round() as u64).clamp(lo + 1, top.max(lo + 1));
    let target = th.max_pass as f64 + 0.5;
    let fin = finished(probes);
    // The model's slope from a measured point on the rising part predicts
    // the crossing best where the latency adds to a chain (it tends to
    // fall short where requests hit the caches, so without a failing end
    // it would creep up): from
    // the passing end, probe at it (betting on a fail); else from the
    // failing end, a stopping width below it (betting on a pass, which
    // puts the passing end on the rising part for the next round). A bet
    // that wins leaves a bracket about a stopping width wide.
    if let (Some(&e), Some(_)) = (
        slope_estimates(&fin, lo, hi, target, plan.slope, true).first(),
        hi,
    ) {
        return inside(e.ceil());
    }
    let from_hi = slope_estimates(&fin, lo, hi, target, plan.slope, false);
    if let Some(&e) = from_hi.first() {
        return inside(e.floor() - plan.budget.tolerance(e as u64) as f64);
    }
    let ests = estimates(&fin, lo, hi, target);
    if !ests.is_empty() {
        return inside(ests.iter().sum::<f64>() / ests.len() as f64);
    }
    if let Some(e) = plan.estimate {
        let e = e as f64;
        // A step by the factor, kept inside the bracket (else its
        // geometric middle).
        let step = |x: f64| match hi {
            Some(h) if x <= lo as f64 || x >= h as f64 => {
                inside((lo.max(1) as f64 * h as f64).sqrt())
            }
            _ => inside(x),
        };
        return match hi {
            Some(h) if e >= h as f64 => step(h as f64 / ESTIMATE_STEP_DOWN),
            _ if e <= lo as f64 => step(lo.max(1) as f64 * ESTIMATE_STEP),
            _ => inside(e),
        };
    }
    match hi {
        Some(h) if h > 4 * lo.max(1) => inside((lo.max(h / 64).max(1) as f64 * h as f64).sqrt()),
        Some(h) => inside((lo + (h - lo) / 2) as f64),
        None => inside((lo * 4).max(16) as f64),
    }
}

/// The model's slope from the finished probe at the bracket's passing
/// (`from_lo`) or failing end, if it lies on the rising part (more clocks than the base at latency 0): each
/// predicts the crossing of `target` at `l + (target - clocks) / slope`,
/// kept if inside the bracket.
fn slope_estimates(
    fin: &[(u64, f64)],
    lo: u64,
    hi: Option<u64>,
    target: f64,
    slope: Option<f64>,
    from_lo: bool,
) -> Vec<f64> {
    let Some(s) = slope.filter(|s| *s > 0.0 && s.is_finite()) else {
        return Vec::new();
    };
    let base = fin.iter().find(|p| p.0 == 0).map_or(f64::INFINITY, |p| p.1);
    let inside = |e: &f64| *e > lo as f64 && hi.is_none_or(|h| *e < h as f64);
    fin.iter()
        .filter(|p| (if from_lo { p.0 == lo } else { Some(p.0) == hi }) && p.1 > base)
        .map(|p| p.0 as f64 + (target - p.1) / s)
        .filter(inside)
        .collect()
}

/// The bracket: the smallest failing latency (if any) and the largest
/// passing one below it.
fn bracket(th: &Threshold, probes: &[(u64, Probe)]) -> (u64, Option<u64>) {
    let hi = probes
        .iter()
        .find(|p| th.verdict(p.1) == Some(false))
        .map(|p| p.0);
    let lo = probes
        .iter()
        .filter(|p| th.verdict(p.1) == Some(true) && hi.is_none_or(|h| p.0 < h))
        .map(|p| p.0)
        .max()
        .unwrap_or(0);
    (lo, hi)
}

/// Whether the passing latency `lo` is a finished probe within
/// [`LINE_BAND`] of the line (the throughput rule of the module comment).
fn lo_near_line(th: &Threshold, probes: &[(u64, Probe)], lo: u64) -> bool {
    probes
        .iter()
        .any(|&(l, p)| l == lo && matches!(p, Probe::Finished(c) if th.near_line(c)))
}

/// Clocks a finished probe took.
fn clocks(p: Probe) -> Option<f64> {
    match p {
        Probe::Finished(c) => Some(c as f64),
        Probe::Stopped(_) => None,
    }
}

/// Where the line through two finished probes reaches the clock count
/// `target` (`None` unless the line rises).
fn line_crossing(a: (u64, f64), b: (u64, f64), target: f64) -> Option<f64> {
    let slope = (b.1 - a.1) / (b.0 as f64 - a.0 as f64);
    (slope > 0.0 && slope.is_finite()).then(|| b.0 as f64 + (target - b.1) / slope)
}

/// Finished probes among `probes` (sorted), as (latency, clocks).
fn finished(probes: &[(u64, Probe)]) -> Vec<(u64, f64)> {
    probes
        .iter()
        .filter_map(|&(l, p)| clocks(p).map(|c| (l, c)))
        .collect()
}

/// Estimates of where the curve crosses `target` inside the bracket
/// (`lo`, `hi`): the chord between the bracket's ends (when both finished;
/// at or before the crossing on a convex curve), and the lines through the
/// two highest finished probes at or below `lo` and the two lowest at or
/// above `hi` (at or after it), each kept only if it crosses inside the
/// bracket (the verdicts contradict one that does not).
fn estimates(fin: &[(u64, f64)], lo: u64, hi: Option<u64>, target: f64) -> Vec<f64> {
    let at = |l: u64| fin.iter().find(|p| p.0 == l).map(|p| p.1);
    let inside = |e: &f64| *e > lo as f64 && hi.is_none_or(|h| *e < h as f64);
    let mut out = Vec::new();
    if let Some(hi) = hi {
        if let (Some(a), Some(b)) = (at(lo), at(hi)) {
            out.extend(line_crossing((lo, a), (hi, b), target).filter(inside));
        }
    }
    let below: Vec<_> = fin.iter().filter(|p| p.0 <= lo).collect();
    if let [.., a, b] = below.as_slice() {
        out.extend(line_crossing(**a, **b, target).filter(inside));
    }
    if let Some(hi) = hi {
        let above: Vec<_> = fin.iter().filter(|p| p.0 >= hi).collect();
        if let [a, b, ..] = above.as_slice() {
            out.extend(line_crossing(**a, **b, target).filter(inside));
        }
    }
    out
}

/// Two latencies splitting (`from`, `to`) in geometric thirds.
fn geometric_thirds(from: u64, to: f64) -> Vec<u64> {
    let base = from.max(1) as f64;
    let r = to / base;
    vec![(base * r.cbrt()) as u64, (base * r.powf(2.0 / 3.0)) as u64]
}

/// Probes while no latency has failed yet: where the line through the two
/// highest probes says the curve crosses, if that is at most 4 times the
/// highest latency (there and a stopping width below); a longer
/// extrapolation overshoots on a curve that has not turned yet, so it only
/// caps a geometric split; with no line, steps of 4 and 16 times the
/// highest.
fn ascend(th: &Threshold, probes: &[(u64, Probe)], lo: u64, plan: &SearchPlan) -> Vec<u64> {
    let tolerance = |l| plan.budget.tolerance(l);
    let target = th.max_pass as f64 + 0.5;
    let fin = finished(probes);
    let top = fin.last().map_or(lo, |p| p.0).max(lo);
    let ests = estimates(&fin, lo, None, target);
    if let Some(&e) = ests.first() {
        if e <= 4.0 * top.max(16) as f64 {
            // The first latency believed to fail, and one a stopping
            // width below it: exact on a straight curve.
            let ub = e.ceil().min(SEARCH_LIMIT as f64) as u64;
            return vec![ub - tolerance(ub - tolerance(ub)), ub];
        }
        return geometric_thirds(top, e.min(64.0 * top.max(1) as f64));
    }
    // The model's estimate, and a stopping width below it.
    if let Some(e) = plan.estimate.filter(|&e| e > lo) {
        return vec![e - tolerance(e), e];
    }
    vec![(lo * 4).max(16), (lo * 16).max(256)]
}

/// Probes inside the bracket (`lo`, `hi`): the pair that surely closes
/// it when there is one; else around the mean of the
/// estimates, spread by half their disagreement and at least the stopping
/// width (a pair that width apart closes the bracket if the mean is
/// right); with no estimate, or `stalled`, the bracket split in thirds
/// (geometric ones when it is wide).
fn narrow(
    th: &Threshold,
    probes: &[(u64, Probe)],
    lo: u64,
    hi: u64,
    stalled: bool,
    plan: &SearchPlan,
) -> Vec<u64> {
    let tolerance = |l| plan.budget.tolerance(l);
    // Close to the end, a width above `lo` and a width below `hi` close
    // the bracket in this round whatever the curve (every outcome leaves
    // a passing and a failing probe within the stopping width), which
    // noisy curves need: betting on estimates there can miss both sides.
    let (up, down) = (lo + tolerance(lo), hi - tolerance(hi - tolerance(hi)));
    if down <= up || down - up <= tolerance(up) {
        return vec![up, down];
    }
    let target = th.max_pass as f64 + 0.5;
    let fin = finished(probes);
    let ests = if stalled {
        Vec::new()
    } else {
        estimates(&fin, lo, Some(hi), target)
    };
    if ests.is_empty() {
        if hi > 4 * lo.max(1) {
            return geometric_thirds(lo.max(hi / 64), hi as f64);
        }
        let third = (hi - lo) / 3;
        return vec![lo + third.max(1), lo + (2 * third).max(2)];
    }
    let (min, max) = ests
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &e| {
            (a.min(e), b.max(e))
        });
    let e = ests.iter().sum::<f64>() / ests.len() as f64;
    let w = tolerance(e as u64);
    let spread = (max - min) / 2.0;
    if spread > w as f64 {
        vec![(e - spread / 2.0) as u64, (e + spread / 2.0) as u64 + 1]
    } else {
        vec![e as u64, e as u64 + w]
    }
}

/// The round's probes: `wanted` moved strictly inside the bracket, each
/// once; with fewer than two left, the midpoint of the widest gap fills
/// the free slot.
fn inside_bracket(wanted: Vec<u64>, lo: u64, hi: Option<u64>) -> Vec<u64> {
    let top = hi.map_or(SEARCH_LIMIT, |h| h - 1);
    let mut cand: Vec<u64> = wanted
        .into_iter()
        .map(|c| c.clamp(lo + 1, top.max(lo + 1)))
        .filter(|&c| c > lo && hi.is_none_or(|h| c < h))
        .collect();
    cand.sort_unstable();
    cand.dedup();
    if let (true, Some(hi)) = (cand.len() < 2, hi) {
        let mut cuts = vec![lo];
        cuts.extend(&cand);
        cuts.push(hi);
        if let Some(w) = cuts.windows(2).max_by_key(|w| w[1] - w[0]) {
            let mid = w[0] + (w[1] - w[0]) / 2;
            if mid > w[0] && mid < w[1] {
                cand.push(mid);
            }
        }
        cand.sort_unstable();
    }
    cand
}

/// The search's first simulation, which needs nothing from the main run,
/// so it can run beside it: made by [`Simulation::latency_head`], used by
/// [`Simulation::latency_tolerance_with`] of the same simulation. It is the
/// zero-latency base when the model's latency is not 0 (else the main run
/// is the base and there is nothing to run beside it: the search's probes
/// are placed from the main run's statistics).
#[derive(Debug, Clone)]
pub struct LatencyHead(Option<Box<SimStats>>);

/// Whether and how an analysis searches the latency tolerance.
#[derive(Debug, Clone)]
pub enum LatencySearch {
    /// No search.
    Off,
    /// Search, running its first simulation after the main run.
    On,
    /// Search, its first simulation run beside the main run
    /// ([`Simulation::latency_head`]; `None`: there is nothing to search).
    Started(Option<LatencyHead>),
}

/// What the search varies: the parameter, the model's value of it, and
/// that value as a latency the search could probe (the main run is then
/// a free probe).
struct SearchSetup {
    param: String,
    model_latency: f64,
    main: Option<u64>,
}

impl Simulation {
    /// The search's parameter, or `None` when there is nothing to search
    /// (no such parameter, or no vector memory op in the trace).
    fn search_setup(&self) -> Option<SearchSetup> {
        // With the hierarchy on, the question is how much extra miss
        // latency the shader absorbs: the levels' latencies stay, every
        // request the first level does not serve takes longer.
        let param = match &self.arch.cache {
            Some(c) if c.enabled => c.miss_extra_latency.clone(),
            _ => "vmem_latency".to_string(),
        };
        let model_latency = self.arch.param(&param)?;
        let uses_vmem = self
            .compiled
            .ops
            .iter()
            .zip(&self.compiled.in_trace)
            .any(|(op, &run)| run && op.kind == OpKind::Unit && op.class.is_vmem());
        // The main run is a probe at the model's latency when that is a
        // whole number of clocks the search could probe.
        let main = (model_latency.fract() == 0.0
            && (0.0..=SEARCH_LIMIT as f64).contains(&model_latency))
        .then_some(model_latency as u64);
        uses_vmem.then_some(SearchSetup {
            param,
            model_latency,
            main,
        })
    }

    /// `main` (the main run) and, with `search`, the latency search's first
    /// simulation beside it ([`Simulation::latency_head`]): what `main`
    /// gave, and how [`Simulation::analyse_run`] should then search
    /// ([`LatencySearch::Off`] without `search`).
    pub fn beside_latency_head<R: Send>(
        &self,
        search: bool,
        main: impl FnOnce() -> R + Send,
    ) -> (R, Result<LatencySearch, PrepareError>) {
        let (result, head) = rayon::join(main, || search.then(|| self.latency_head()));
        let search = match head {
            None => Ok(LatencySearch::Off),
            Some(head) => head.map(LatencySearch::Started),
        };
        (result, search)
    }

    /// Run the latency search's first simulation (`None`: there is no
    /// search). It does not depend on the main run: run the two side by
    /// side and pass both to [`Simulation::latency_tolerance_with`].
    pub fn latency_head(&self) -> Result<Option<LatencyHead>, PrepareError> {
        let Some(setup) = self.search_setup() else {
            return Ok(None);
        };
        let base = if setup.main == Some(0) {
            None
        } else {
            Some(Box::new(self.with_param(&setup.param, 0.0)?.run()?))
        };
        Ok(Some(LatencyHead(base)))
    }

    /// The largest `vmem_latency` the shader absorbs before its throughput
    /// falls more than 5% below its zero-latency throughput ("latency
    /// potential" in seed 004), found by re-running the simulation (see
    /// the module comment of `latency.rs`), within
    /// [`Simulation::latency_budget`]: the answer `lo` passes and a probe
    /// at `hi` failed (if one did within the budget). `stats` is
    /// this simulation's own run (a free probe at the model's latency).
    /// Runs the search's first simulation after it; see
    /// [`Simulation::latency_tolerance_with`] to run them side by side.
    pub fn latency_tolerance(
        &self,
        stats: &SimStats,
    ) -> Result<Option<LatencyTolerance>, PrepareError> {
        self.latency_tolerance_with(stats, None)
    }

    /// [`Simulation::latency_tolerance`] with the search's first
    /// simulation already run (`head`, from [`Simulation::latency_head`]
    /// of this simulation; `None`: run it now).
    pub fn latency_tolerance_with(
        &self,
        stats: &SimStats,
        head: Option<LatencyHead>,
    ) -> Result<Option<LatencyTolerance>, PrepareError> {
        let Some(setup) = self.search_setup() else {
            return Ok(None);
        };
        let head = match head {
            Some(h) => h,
            None => match self.latency_head()? {
                Some(h) => h,
                None => return Ok(None),
            },
        };
        let param = setup.param.as_str();
        // The zero-latency base, when it is not the main run, is a run of
        // the search, paid from its budget.
        let runs = AtomicU32::new(u32::from(head.0.is_some()));
        let run = |lat: u64, limit: u64| -> Result<Probe, PrepareError> {
            runs.fetch_add(1, Ordering::Relaxed);
            self.latency_probe(param, lat, limit)
        };
        let base_run = head.0.is_some();
        let base = match head.0 {
            Some(base) => *base,
            None => stats.clone(),
        };
        let threshold = Threshold::new(&base);
        let mut known = vec![(0, Probe::Finished(base.clocks))];
        if let Some(m) = setup.main {
            known.push((m, Probe::Finished(stats.clocks)));
        }
        let (estimate, slope) = match self.latency_estimate(stats, &threshold) {
            Some((e, s)) => (Some(e), Some(s)),
            None => (None, None),
        };
        let plan = SearchPlan {
            budget: self.latency_budget,
            estimate,
            slope,
            // The base, when the search ran it, is paid from the budget.
            spent: if base_run { base.clocks } else { 0 },
        };
        let found = search(&threshold, &known, &plan, run)?;
        let curve = found
            .probes
            .iter()
            .filter_map(|&(lat, p)| match p {
                Probe::Finished(c) => Some((lat, throughput(base.threads, c, base.cus))),
                Probe::Stopped(_) => None,
            })
            .collect();
        Ok(Some(LatencyTolerance {
            curve,
            clocks: found.answer,
            fails_at: bracket(&threshold, &found.probes).1,
            searched_up_to: SEARCH_LIMIT,
            model_latency: setup.model_latency.round() as u64,
            zero_latency_throughput: threshold.base_throughput(),
            model_throughput: stats.throughput_per_clock(),
            runs: runs.into_inner(),
            parameter: param.to_string(),
            precision: plan.budget.precision,
            budget_runs: plan.budget.runs,
            work_runs: found.work,
            end: found.end,
            estimate,
        }))
    }

    /// The estimate the search's first probe is placed from, and the
    /// slope it predicts, from the trace and the main run's statistics
    /// (`None`: no wave waits for vector memory).
    ///
    /// A wave that waits for a load it issued *exposes* the load: from
    /// issue to data it takes the op's service clocks plus the latency L,
    /// and the wave cannot pass its wait before. `exposures` counts, per
    /// wave (a mean over the traces, by weight), the waits and program
    /// ends that find vector memory ops of the wave outstanding on a
    /// counter they wait for (the counters are in order: a wait for at
    /// most N outstanding waits for all but the newest N), each weighted
    /// with the cache hierarchy by the share of executions a first-level
    /// miss delays (the most of the ops it waits for), and `service` sums
    /// the most any of those ops takes besides L: its service clocks, and
    /// with the cache hierarchy (L is then the extra latency of a miss)
    /// the mean latency of its requests in the main run. Exposures of one
    /// wave come one after
    /// the other, and the waves that share a wave slot over the run (`g`
    /// = waves / the most resident at once, from the run's statistics)
    /// run one after the other, so once L shows, the run takes at least
    /// `g * (service + exposures * L)` clocks: its clocks then rise by
    /// `g * exposures` per clock of latency (the slope). Below that the
    /// other waves' work hides the latency: the run keeps its
    /// zero-latency clocks as long as that bound stays under them. The
    /// throughput holds within 5% while the bound stays within the pass
    /// limit `P` ([`Threshold::max_passing_clocks`]):
    ///
    /// `L <= (P / g - service) / exposures`
    ///
    /// An upper estimate (a wave's own work before its first load and
    /// after its last wait adds to the chain, and a wave waits for
    /// issue turns the others take), exact for one wave with independent
    /// work between a load and its wait (the test of `latency_search.rs`).
    /// For N waves resident together the same work hides N times the
    /// latency: the pass limit then holds N waves' work, which is the
    /// "per-wave independent work times the waves that can hide it".
    pub fn latency_estimate(&self, stats: &SimStats, th: &Threshold) -> Option<(u64, f64)> {
        let walk = self.walk();
        let (mut exposures, mut service) = (0.0, 0.0);
        for (trace, weight) in self.weighted_traces() {
            let (n, s) = self.trace_exposures(self.compiled.trace_ops(&walk, trace), stats);
            exposures += weight * n;
            service += weight * s as f64;
        }
        let slots = f64::from(stats.peak_waves.max(1));
        let g = (f64::from(stats.waves.max(1)) / slots).max(1.0);
        if exposures <= 0.0 || th.max_passing_clocks() == u64::MAX {
            return None;
        }
        let e = (th.max_passing_clocks() as f64 / g - service) / exposures;
        Some((e.clamp(1.0, SEARCH_LIMIT as f64) as u64, g * exposures))
    }

    /// One trace's exposures and their service clocks (see
    /// [`Simulation::latency_estimate`]).
    fn trace_exposures(&self, trace: impl Iterator<Item = u32>, stats: &SimStats) -> (f64, u64) {
        // What an op's data takes beyond the latency searched: its service
        // clocks, and with the cache hierarchy the levels' own latencies
        // the main run measured (the searched extra latency is 0 there);
        // in flat-latency mode the searched latency is all of it.
        let fixed = |i: usize, op: &crate::ops::StaticOp| {
            let levels = stats.op_cache.get(i).map_or(0.0, |c| c.mean_latency());
            op.cost + levels.round() as u32
        };
        // The share of an op's executions the searched latency delays:
        // every one in flat-latency mode, with the hierarchy those with a
        // request the first level missed (at most one per missed request).
        let delayed = |i: usize| {
            stats.op_cache.get(i).map_or(1.0, |c| {
                let missed = c.requests.saturating_sub(c.first_level_hits) as f64;
                (missed / c.executions.max(1) as f64).min(1.0)
            })
        };
        // Per counter, the ops outstanding, oldest first: for a vector
        // memory op what its data takes besides the latency and the share
        // of its executions the latency delays (`None`: another op). The
        // counters are in order: a wait for at most N outstanding waits
        // for all but the newest N, whatever op came last.
        let mut outstanding: [std::collections::VecDeque<Option<(u32, f64)>>; 16] =
            Default::default();
        // Vector memory ops issued since the last exposure: a wait for
        // ops already in flight during an earlier exposure overlaps it.
        let mut fresh = 0u32;
        let (mut n, mut service) = (0f64, 0u64);
        for i in trace {
            let op = &self.compiled.ops[i as usize];
            match op.kind {
                OpKind::Unit => {
                    fresh += u32::from(op.class.is_vmem());
                    let entry = op
                        .class
                        .is_vmem()
                        .then(|| (fixed(i as usize, op), delayed(i as usize)));
                    for c in op.inc.indices() {
                        outstanding[c].push_back(entry);
                    }
                }
                OpKind::Wait | OpKind::End => {
                    let mut exposed: Option<(u32, f64)> = None;
                    for (c, queue) in outstanding.iter_mut().enumerate() {
                        let limit = if op.kind == OpKind::End {
                            0
                        } else {
                            op.wait.get(c).map_or(usize::MAX, |&w| {
                                if w == u8::MAX {
                                    usize::MAX
                                } else {
                                    usize::from(w)
                                }
                            })
                        };
                        while queue.len() > limit {
                            if let Some(Some((s, d))) = queue.pop_front() {
                                let (s0, d0) = exposed.unwrap_or((0, 0.0));
                                exposed = Some((s0.max(s), d0.max(d)));
                            }
                        }
                    }
                    if let (Some((s, d)), true) = (exposed, fresh > 0) {
                        n += d;
                        service += u64::from(s);
                        fresh = 0;
                    }
                }
                _ => {}
            }
        }
        (n, service)
    }

    /// One probe of the search: this simulation with `param` set to
    /// `latency`, stopped once it passes `limit` clocks (or its own clock
    /// limit, if lower).
    pub fn latency_probe(
        &self,
        param: &str,
        latency: u64,
        limit: u64,
    ) -> Result<Probe, PrepareError> {
        let mut s = self.with_param(param, latency as f64)?;
        s.max_clocks = limit.min(self.max_clocks);
        match s.run() {
            Ok(st) => Ok(Probe::Finished(st.clocks)),
            // The machine stops as soon as its clock passes the limit, and
            // a run's clock count is the clock it ended at: stopped means
            // it would have taken more than `max_clocks`.
            Err(SimError::TooLong(c)) => Ok(Probe::Stopped(c)),
            Err(e) => Err(e.into()),
        }
    }
}
