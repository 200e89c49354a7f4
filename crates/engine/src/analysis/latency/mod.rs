//! The latency-tolerance search: the largest memory latency a shader
//! absorbs before its throughput falls more than 5% below its zero-latency
//! throughput, bracketed by re-running the simulation.
//!
//! **The contract.** The result is a bracket of two simulations: `clocks`,
//! the largest latency a run showed passing (the base at 0 if none other
//! did), and `fails_at`, the smallest a run showed failing above it, or
//! none when no failing latency was reached. By default
//! ([`SearchBudget::DEFAULT`]) the search spends at most three *runs* of
//! work beyond the main run, where a run is the whole program's work (the
//! ops its waves issue or pass, the same at every latency): a probe that
//! finishes costs one run, and one stopped early (at the pass limit,
//! [`Threshold::max_passing_clocks`]: the most clocks a passing run
//! takes, at most 1/0.95 times the zero-latency run) the share of the ops
//! it got through, which is what its host time follows (the clocks it
//! skips idle cost next to nothing). A probe starts only while a whole
//! run is left (a probe that passes does all the work), so the budget
//! holds. Work counted in ops, not wall time, keeps the result
//! deterministic. The search stops earlier when the bracket is within
//! the precision (1/64 by default); [`SearchBudget::precise`]
//! (`--latency-precision P`) drops the budget and searches until
//! `fails_at - clocks <= max(1, P * clocks)`. The zero-latency base,
//! which defines the 95% line, is paid from the same budget: with the
//! cache hierarchy (the model's extra miss latency is 0) it is the main
//! run itself and costs nothing; in flat-latency mode it is one more run,
//! made beside the main run ([`Simulation::latency_head`]), which leaves
//! two. (Measured in CPU time over the fixtures, see
//! `scripts/bench-latency-search.sh` and the README.)
//!
//! **Placement** (budgeted, `search::budgeted`). The rounds aim for ends
//! at most [`GOAL_RATIO`] (2) apart. A probe that fails stops at the pass
//! limit having done a share of the work that shrinks the farther above
//! the answer it lies, and that share extrapolates its clock count
//! (limit / share): a point on the rising part of the curve. The first
//! probe goes between two bounds: the latency that adds the passing
//! margin as one exposure (the clocks rise about a clock per clock of
//! latency at least: above the answer on most programs) and the model's
//! no-slack estimate ([`Simulation::latency_estimate`]: the waits each
//! wave makes for its own vector memory and the waves that share a wave
//! slot give the slope of the clock count once the latency shows; the
//! latency at which the zero-latency run's clocks plus that slope reach
//! the pass limit, usually below the answer), at their geometric middle.
//! From the points on the rising part (finished probes and stopped ones
//! at their extrapolated clocks) each round predicts the crossing of the
//! pass limit (the parabola through the base and a point either side, a
//! line through two on one side, or from one point the chord from the
//! base and the model's slope) and bets on a fail 1.2 times above it
//! while a run will be left for a pass after it, else on a pass 1.3 times
//! below it; the last probe takes the bet whose win leaves the narrower
//! bracket, and ends within 4 times get one probe between `fails_at / 2`
//! and `2 * clocks`, which leaves them within 2 whatever its verdict. A
//! passing end near the line (the throughput rule below) ends a budgeted
//! search only once the failing end is within 2 times of it (or the
//! budget is spent). Once the ends are within the goal, a round probes
//! the predicted crossing.
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

mod budget;
mod search;
mod simulation;
mod threshold;

pub use budget::{SearchBudget, SearchEnd, SearchPlan, DEFAULT_BUDGET_RUNS, DEFAULT_PRECISION};
pub use search::{search, LatencyTolerance, SearchResult, GOAL_RATIO};
pub use simulation::{LatencyHead, LatencySearch};
pub use threshold::{Probe, Threshold, LINE_BAND, SEARCH_LIMIT};
