//! The search algorithm: bracketing the largest passing latency from the
//! probes (placement, early stop, reuse and closing, as the module comment
//! of [`super`] describes), independent of how a probe is run.

use super::budget::{SearchEnd, SearchPlan};
use super::threshold::{Probe, Threshold, SEARCH_LIMIT};
use crate::error::SimError;
use crate::run::PrepareError;

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
    /// The work the search spent, in runs (a run: the whole program's
    /// ops; a probe stopped early counts the share it got through): the
    /// probes, and the zero-latency base when it is not the main run; the
    /// main run is not counted.
    pub work_runs: f64,
    /// Why the search stopped; [`SearchEnd::precise`] says whether the
    /// bracket reached `precision`.
    pub end: SearchEnd,
    /// The estimate the first probe was placed from
    /// ([`Simulation::latency_estimate`](crate::run::Simulation::latency_estimate)).
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
    /// The work spent, in runs (the probes' shares of the program's ops,
    /// and [`SearchPlan::spent`]; the known probes are not counted).
    pub work: f64,
}

/// Search the tolerance. `known` are probes already run (the base at
/// latency 0, which `threshold` was made from, among them);
/// `run(latency, limit)` runs one probe with that clock limit and says
/// what it learned and the work it did, in runs (a share of the whole
/// program's work: 1 for a run that finished, less for one stopped at its
/// limit). With a budget a round runs one probe; without, two, side by
/// side.
pub fn search<F>(
    threshold: &Threshold,
    known: &[(u64, Probe)],
    plan: &SearchPlan,
    run: F,
) -> Result<SearchResult, PrepareError>
where
    F: Fn(u64, u64) -> Result<(Probe, f64), PrepareError> + Sync,
{
    let mut probes: Vec<(u64, Probe)> = Vec::new();
    for &(lat, p) in known {
        if threshold.verdict(p).is_some() && !probes.iter().any(|q| q.0 == lat) {
            probes.push((lat, p));
        }
    }
    // The clocks stopped probes would have taken, extrapolated from the
    // share of the work they did by their limit (budgeted placement).
    let mut guessed: Vec<(u64, f64)> = Vec::new();
    let budget = plan.budget;
    let mut spent = plan.spent;
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
            Some(hi) if lo_near_line(threshold, &probes, lo) && line_stops(&budget, lo, hi) => {
                break (Some(lo), SearchEnd::Line)
            }
            _ => {}
        }
        // The clock limit: a quarter above the pass limit; under a budget
        // the pass limit itself (a probe needs it to tell, and one stopped
        // there costs the least), and only while a whole run is left (a
        // probe that passes does all the work).
        let limit = match budget.runs {
            None => threshold.probe_limit(),
            Some(a) => {
                if a - spent < 1.0 {
                    // (A passing end near the line still answers by the
                    // throughput rule.)
                    let line = hi.is_some() && lo_near_line(threshold, &probes, lo);
                    break (
                        Some(lo),
                        if line {
                            SearchEnd::Line
                        } else {
                            SearchEnd::Budget
                        },
                    );
                }
                threshold.max_pass
            }
        };
        let next = if let Some(a) = budget.runs {
            let left = a - spent;
            vec![budgeted(threshold, &probes, &guessed, lo, hi, plan, left)]
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
        let results: Vec<(Probe, f64)> = match next.as_slice() {
            [a] => vec![run(*a, limit)?],
            [a, b] => {
                let (x, y) = rayon::join(|| run(*a, limit), || run(*b, limit));
                vec![x?, y?]
            }
            _ => unreachable!("a round probes one or two latencies"),
        };
        for (&lat, (p, work)) in next.iter().zip(results) {
            if threshold.verdict(p).is_none() {
                // Only a caller's own clock cap below the pass limit can
                // cut a run this short: the run is too long to tell.
                if let Probe::Stopped(c) = p {
                    return Err(SimError::TooLong(c).into());
                }
            }
            let work = work.clamp(0.0, 1.0);
            spent += work;
            if let (Probe::Stopped(c), true) = (p, work > 0.0) {
                guessed.push((lat, c as f64 / work));
            }
            probes.push((lat, p));
        }
    };
    probes.sort_by_key(|p| p.0);
    Ok(SearchResult {
        answer,
        probes,
        end,
        work: spent,
    })
}

/// The ratio of the bracket's ends a budgeted search aims for
/// (`fails_at <= 2 * clocks`); once there it narrows at the predicted
/// crossing.
pub const GOAL_RATIO: f64 = 2.0;

/// How far above the predicted crossing a probe meant to fail goes, and
/// how far below it one meant to pass. Chosen over the fixture programs
/// (`scripts/bench-latency-search.sh`, ALL=1): wider margins win their
/// bets more often but leave the ends farther apart when they do.
const FAIL_MARGIN: f64 = 1.2;
const PASS_MARGIN: f64 = 1.3;

/// With no passing end yet, the last probe's bet on a pass goes at most
/// `fails_at / NO_PASS_CEILING`: predictions from failing points alone
/// overshoot where the curve bends the other way (over the fixture
/// programs: at `fails_at / 2` the ends are a median 1.98 times apart,
/// at 1.5 a median 1.62, 90th percentiles 3.25 and 3.77).
const NO_PASS_CEILING: f64 = 1.5;

/// The share of a run a probe meant to fail is expected to cost: it stops
/// at the pass limit, near the answer most of the way through its work
/// (0.7 to 0.95 of a run on the fixtures).
const EXPECTED_FAIL_SHARE: f64 = 0.8;

/// A point rises (lies on the rising part of the curve) when its clocks
/// exceed the base's by more than this share: a rise of a few clocks
/// over a long run (the last wave's wait) says nothing about the slope.
const RISE_SHARE: f64 = 0.0005;

/// The one probe of a budgeted round.
///
/// Two bounds frame the answer before any probe. The clocks rise by about
/// a clock per clock of latency at least (the last wave waits for its
/// last memory at the end), so the latency that adds the passing margin
/// (`max_pass - base`) as one exposure fails on most programs (362 of the
/// 375 fixture programs): the upper bound. The model's no-slack estimate
/// (the margin over its slope, every exposure in series) lies at or below
/// the answer on most (286 of 375). The first probe goes to their
/// geometric middle (a median 1.02 times the answer over the fixtures).
///
/// Each later round predicts where the clocks cross the pass limit from
/// the points on the rising part (finished probes, and stopped ones at
/// the clocks their share extrapolates): between the highest point below
/// the limit and the lowest above it, on the parabola through the base
/// and the two (else the line through them); else along the line through
/// the two nearest on one side; from one point above, the geometric
/// middle of the chord from the base (at or below the answer on a convex
/// curve) and the model's slope back from the point; from one below, of
/// the model's slope on from it and the chord (at or above the answer).
///
/// Then, while the ends are wider than [`GOAL_RATIO`]: with no failing
/// end, it bets on a fail [`FAIL_MARGIN`] above the prediction unless a
/// pass [`PASS_MARGIN`] below it still leaves a run for a fail after it;
/// with one, ends within the goal squared take a probe between
/// `fails_at / 2` and `2 * clocks` (within the goal whatever its verdict);
/// else it bets on a fail while a run will be left for a pass after it,
/// and the last probe takes the bet whose win leaves the narrower bracket
/// (a pass not below `fails_at / 4`, nor above `fails_at /`
/// [`NO_PASS_CEILING`] without a passing end). Ends within the goal take
/// the prediction itself.
fn budgeted(
    th: &Threshold,
    probes: &[(u64, Probe)],
    guessed: &[(u64, f64)],
    lo: u64,
    hi: Option<u64>,
    plan: &SearchPlan,
    left: f64,
) -> u64 {
    let top = hi.map_or(SEARCH_LIMIT, |h| h - 1);
    let inside = |e: f64| (e.round().max(0.0) as u64).clamp(lo + 1, top.max(lo + 1));
    let pass = th.max_pass as f64;
    let base = th.base_clocks() as f64;
    // One exposure: the slowest the clocks rise.
    let margin = (pass - base).max(1.0);
    let slope = plan.slope.filter(|s| *s > 0.0 && s.is_finite());
    let no_slack = slope
        .map(|s| margin / s)
        .or(plan.estimate.map(|e| e as f64));
    let mut pts = finished(probes);
    pts.extend_from_slice(guessed);
    pts.retain(|p| p.0 > 0);
    pts.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    if pts.is_empty() {
        return inside((no_slack.unwrap_or(margin).max(1.0) * margin).sqrt());
    }
    let lo_f = lo.max(1) as f64;
    // Without a failing end, the one-exposure bound; once a probe passed
    // it (waves with slack hide more), the model's upper estimate, or a
    // step up.
    let ub = match hi {
        Some(h) => h as f64,
        None if (lo as f64) < margin => margin,
        None => plan
            .ceiling
            .filter(|&c| c > lo)
            .map_or(GOAL_RATIO * GOAL_RATIO * lo_f, |c| c as f64),
    };
    let below: Vec<(u64, f64)> = pts
        .iter()
        .copied()
        .filter(|p| p.1 <= pass && p.1 > base * (1.0 + RISE_SHARE))
        .collect();
    let above: Vec<(u64, f64)> = pts.iter().copied().filter(|p| p.1 > pass).collect();
    // Nothing rising yet: the bracket's geometric middle; the upper
    // estimate itself once a pass disproved the one-exposure bound (the
    // curve is flat so far: its slack is hiding the latency).
    let predicted = crossing(&below, &above, (base, pass), lo, slope).unwrap_or_else(|| {
        if hi.is_some() || (lo as f64) < margin {
            (no_slack.unwrap_or(1.0).max(lo_f) * ub).sqrt()
        } else {
            ub
        }
    });
    let predicted = predicted.max(lo as f64 + 1.0).min(ub - 1.0);
    if hi.is_some_and(|h| h as f64 <= GOAL_RATIO * lo_f) {
        return inside(predicted);
    }
    let (fail_at, pass_at) = (predicted * FAIL_MARGIN, predicted / PASS_MARGIN);
    let Some(h) = hi else {
        // No failing end yet: bet on one unless a pass now leaves a run
        // for it after.
        return inside(if left < 2.0 || left - EXPECTED_FAIL_SHARE >= 1.0 {
            fail_at
        } else {
            pass_at
        });
    };
    let h = h as f64;
    if h <= GOAL_RATIO * GOAL_RATIO * lo_f {
        // Ends within the goal squared: a probe between `fails_at / 2` and
        // `2 * clocks` leaves them within the goal whatever its verdict.
        return inside(predicted.clamp(h / GOAL_RATIO, GOAL_RATIO * lo_f));
    }
    if left - EXPECTED_FAIL_SHARE >= 1.0 && fail_at < h {
        // A fail now, a pass after it.
        return inside(fail_at);
    }
    // The last probe: the bet whose win leaves the narrower bracket.
    let ceiling = if lo == 0 {
        h / NO_PASS_CEILING
    } else {
        h - 1.0
    };
    let pass_at = pass_at
        .max(h / (GOAL_RATIO * GOAL_RATIO))
        .min(ceiling)
        .max(lo as f64 + 1.0);
    if fail_at < h && fail_at / lo_f < h / pass_at {
        inside(fail_at)
    } else {
        inside(pass_at)
    }
}

/// Where the clock curve crosses the pass limit `pass`, from the points
/// on its rising part below the limit (`below`) and above it (`above`),
/// both by latency, `base` the clocks at latency 0 (see [`budgeted`]);
/// `None` where the points give no rising line.
fn crossing(
    below: &[(u64, f64)],
    above: &[(u64, f64)],
    (base, pass): (f64, f64),
    lo: u64,
    slope: Option<f64>,
) -> Option<f64> {
    let floor = lo as f64 + 1.0;
    let line = |a: (u64, f64), b: (u64, f64)| line_crossing(a, b, pass);
    let chord = |a: (u64, f64)| a.0 as f64 * (pass - base) / (a.1 - base);
    match (below, above) {
        ([.., a], [b, ..]) => parabola(base, *a, *b, pass).or_else(|| line(*a, *b)),
        ([.., a, b], []) => line(*a, *b),
        ([], [a, b, ..]) => line(*a, *b),
        ([], [a]) => {
            let c = chord(*a);
            let back = slope.map_or(c, |s| a.0 as f64 - (a.1 - pass) / s);
            Some((c.max(floor) * back.max(c).max(floor)).sqrt())
        }
        ([a], []) => {
            let on = slope.map_or(a.0 as f64 + 1.0, |s| a.0 as f64 + (pass - a.1) / s);
            Some((on.max(a.0 as f64 + 1.0) * chord(*a)).sqrt())
        }
        _ => None,
    }
}

/// Where the parabola through the base (latency 0, `base` clocks) and the
/// points `a` and `b` reaches `pass`, if it opens upward (a convex
/// curve): the line between `a` and `b` crosses at or before the answer
/// on a convex curve, the parabola, which bends like it, near it.
fn parabola(base: f64, a: (u64, f64), b: (u64, f64), pass: f64) -> Option<f64> {
    let (x1, y1, x2, y2) = (a.0 as f64, a.1 - base, b.0 as f64, b.1 - base);
    let square = (y2 / x2 - y1 / x1) / (x2 - x1);
    let linear = y1 / x1 - square * x1;
    let root = (linear * linear + 4.0 * square * (pass - base)).sqrt();
    let at = (root - linear) / (2.0 * square);
    (square > 0.0 && at.is_finite() && at > 0.0).then_some(at)
}

/// The bracket: the smallest failing latency (if any) and the largest
/// passing one below it.
pub(super) fn bracket(th: &Threshold, probes: &[(u64, Probe)]) -> (u64, Option<u64>) {
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

/// Whether a passing end near the line ends the search: without a
/// budget always (the throughput rule of the module comment); under a
/// budget once the failing end lies within [`GOAL_RATIO`] of it (a
/// bracket the rule stopped wider says little about where the crossing
/// is, and the probe above it that fails is cheap to place: the curve
/// already loses 4%, so the crossing [`budgeted`] predicts lies just
/// above the passing end).
fn line_stops(budget: &super::budget::SearchBudget, lo: u64, hi: u64) -> bool {
    budget.runs.is_none() || hi as f64 <= GOAL_RATIO * lo.max(1) as f64
}

/// Whether the passing latency `lo` is a finished probe within
/// [`LINE_BAND`](super::LINE_BAND) of the line (the throughput rule of the module comment).
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
    // The model's upper estimate (where the search before budgets went
    // first), and a stopping width below it.
    if let Some(e) = plan.ceiling.or(plan.estimate).filter(|&e| e > lo) {
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
