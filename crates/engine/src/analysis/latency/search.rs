//! The search algorithm: bracketing the largest passing latency from the
//! probes (placement, early stop, reuse and closing, as the module comment
//! of [`super`] describes), independent of how a probe is run.

use super::budget::{SearchEnd, SearchPlan, ESTIMATE_STEP, ESTIMATE_STEP_DOWN};
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
            if let (Probe::Stopped(c), true) = (p, work > 0.0 && work < FULL_SHARE) {
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

/// The ratio of the bracket's ends a budgeted search aims for first
/// (`fails_at <= 2 * clocks`); once there it narrows as [`single`] does.
pub const GOAL_RATIO: f64 = 2.0;

/// How far above the predicted crossing a probe meant to fail goes, and
/// how far below it one meant to pass: the predictions from extrapolated
/// clocks and lines through probes miss by up to about this much on the
/// fixtures; the two together still leave a bracket within
/// [`GOAL_RATIO`] (1.3 x 1.15 = 1.5).
const FAIL_MARGIN: f64 = 1.3;
const PASS_MARGIN: f64 = 1.15;

/// The one probe of a budgeted round, while the bracket is wider than
/// [`GOAL_RATIO`] (then [`single`]). A probe that fails stops at the pass
/// limit having done a share of the work that shrinks the farther it lies
/// above the answer, while one that passes does all of it: so the round
/// bets on a fail while the budget keeps a whole run for a probe that
/// passes after it, and then on a pass. Both bets are placed from the
/// crossing [`predict`] gives: a fail [`FAIL_MARGIN`] above it (and far
/// enough above that its expected share leaves the run), a pass
/// [`PASS_MARGIN`] below it (but not below `fails_at / 2` where the
/// prediction allows). With nothing on the rising part yet, the model's
/// estimate, an upper one (a fail there is cheap), or a step up.
fn budgeted(
    th: &Threshold,
    probes: &[(u64, Probe)],
    guessed: &[(u64, f64)],
    lo: u64,
    hi: Option<u64>,
    plan: &SearchPlan,
    left: f64,
) -> u64 {
    if hi.is_some_and(|h| h as f64 <= GOAL_RATIO * lo.max(1) as f64) {
        return single(th, probes, lo, hi, plan);
    }
    let top = hi.map_or(SEARCH_LIMIT, |h| h - 1);
    let inside = |e: f64| (e.round().max(0.0) as u64).clamp(lo + 1, top.max(lo + 1));
    if lo > 0 && lo_near_line(th, probes, lo) {
        return inside(GOAL_RATIO * lo as f64);
    }
    let target = th.max_pass as f64 + 0.5;
    let mut pts = finished(probes);
    pts.extend_from_slice(guessed);
    pts.sort_by_key(|a| a.0);
    let predicted = predict(&pts, lo, hi, target, plan.slope);
    // Ends within GOAL_RATIO squared: a probe between `fails_at / 2` and
    // `2 * clocks` leaves them within GOAL_RATIO whatever its verdict
    // (the prediction kept there, else the geometric middle).
    if let (Some(h), true) = (hi, lo > 0) {
        let (from, to) = (h as f64 / GOAL_RATIO, GOAL_RATIO * lo as f64);
        if from <= to {
            let mid = (lo as f64 * h as f64).sqrt();
            return inside(predicted.map_or(mid, |p| p.0).clamp(from, to));
        }
    }
    let Some((p, slope)) = predicted else {
        return match (hi, plan.estimate) {
            (None, Some(e)) if e > lo => inside(e as f64),
            (None, _) if lo == 0 => inside(BLIND_FIRST as f64),
            // Flat so far above the first probe: the upper estimate, where
            // a fail costs little.
            (None, _) if plan.ceiling.is_some_and(|c| c > lo) => {
                inside(plan.ceiling.unwrap_or(lo) as f64)
            }
            (None, _) => inside((lo * ESTIMATE_STEP as u64) as f64),
            (Some(_), _) => single(th, probes, lo, hi, plan),
        };
    };
    // A prediction at or below the passing end contradicts the probes:
    // the geometric middle of the bracket instead.
    let p = match hi {
        Some(h) if p <= lo as f64 => (lo.max(1) as f64 * h as f64).sqrt(),
        _ => p.max(lo as f64 + 1.0),
    };
    let pass_at = p / PASS_MARGIN;
    let spare = left - 1.0;
    let wide = hi.is_none_or(|h| h as f64 > GOAL_RATIO * pass_at);
    if wide && (spare > 0.0 || hi.is_none()) {
        // Where the predicted clocks reach the pass limit over the spare
        // share: a fail there costs at most the spare.
        let cheap = if spare > 0.0 {
            p + (th.max_pass as f64 / spare.min(1.0) - target) / slope
        } else {
            p
        };
        let fail_at = (p * FAIL_MARGIN).max(cheap);
        // (At or above the failing end it would learn nothing: bet on a
        // pass instead.)
        if hi.is_none_or(|h| fail_at < h as f64) {
            return inside(fail_at.max(p + 1.0));
        }
    }
    let floor = hi.map_or(0.0, |h| (h as f64 / GOAL_RATIO).min(p));
    inside(pass_at.max(floor))
}

/// A probe stopped after at least this share of the program's ops had
/// issued them all but sat out its last memory (the program's end waits
/// for it): its share does not tell how long it would have run (the limit
/// over the share is the limit itself), so it places no point for the
/// prediction. (Only its verdict counts.)
const FULL_SHARE: f64 = 0.99;

/// The first probe when the model gives no usable estimate: 4096, the
/// geometric middle of 256 and the search limit (65536).
const BLIND_FIRST: u64 = 4096;

/// Where the clock curve crosses `target`, and its slope there, from
/// the points on its rising part (`pts`: finished probes, and stopped
/// ones at their extrapolated clocks; rising: more clocks than the base
/// at latency 0): the line through the nearest point at or below `lo`
/// and the nearest at or above `hi` (or the two nearest on one side);
/// with one rising point, the model's slope through it. `None`: nothing
/// rises, or the line does not.
fn predict(
    pts: &[(u64, f64)],
    lo: u64,
    hi: Option<u64>,
    target: f64,
    model_slope: Option<f64>,
) -> Option<(f64, f64)> {
    let base = pts.iter().find(|p| p.0 == 0).map_or(f64::INFINITY, |p| p.1);
    let rising = |p: &&(u64, f64)| p.1 > base;
    let below: Vec<_> = pts.iter().filter(|p| p.0 <= lo).filter(rising).collect();
    let above: Vec<_> = pts
        .iter()
        .filter(|p| hi.is_some_and(|h| p.0 >= h))
        .filter(rising)
        .collect();
    let pair = match (below.as_slice(), above.as_slice()) {
        ([.., a], [b, ..]) => Some((**a, **b)),
        ([], [a, b, ..]) => Some((**a, **b)),
        ([.., a, b], []) => Some((**a, **b)),
        _ => None,
    };
    if let Some((a, b)) = pair {
        let slope = (b.1 - a.1) / (b.0 as f64 - a.0 as f64);
        if slope > 0.0 && slope.is_finite() {
            return Some((b.0 as f64 + (target - b.1) / slope, slope));
        }
    }
    // One point: the chord from the base crosses at or before the answer
    // (the curve is convex) where it is above the point, and its
    // extension at or after it where it is below; the model's slope
    // through the point misses either way by up to a few times on the
    // fixtures. Their geometric mean, and the line from it to the point.
    let one = **below.last().or(above.first())?;
    let chord = (target - base) / ((one.1 - base) / one.0 as f64);
    let p = match model_slope.filter(|s| *s > 0.0 && s.is_finite()) {
        Some(s) => {
            let m = one.0 as f64 + (target - one.1) / s;
            if m > 0.0 {
                (chord.max(1.0) * m).sqrt()
            } else {
                chord
            }
        }
        None => chord,
    };
    let slope = (one.1 - target) / (one.0 as f64 - p);
    (p.is_finite() && slope > 0.0 && slope.is_finite()).then_some((p, slope))
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
/// already loses 4%, so [`budgeted`] bets on a fail at twice the passing
/// end).
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
