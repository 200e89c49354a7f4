//! A loop too long to simulate whole: the launch's kernel time from two shorter runs.
//!
//! A kernel whose wave runs past the trace bound (`[trace] max_instructions`, 10 million
//! instructions by default) cannot be simulated whole, yet its kernel time is what a user with a
//! launch asks for (AMD's yAx exercise with 4 one-wave workgroups: 128 rows of 32768 trips each,
//! 42 million instructions a wave). Such a run simulates one loop of the wave's path for fewer
//! trips: `sampled` in the run itself and `shorter` apart. Their difference is the clocks of
//! `sampled - shorter` trips, and the trips left out (`trips - sampled`) are added at that rate:
//!
//! `clocks = C(sampled) + (trips - sampled) x (C(sampled) - C(shorter)) / (sampled - shorter)`
//!
//! exact when every trip past the first costs the same (a steady state: the same
//! instructions, the same memory pattern moved on), which is the loop a kernel spends 10 million
//! instructions in. The loop taken is the outermost one of the path whose trips make the trace
//! long and whose sample fits [`SAMPLE_MAX_INSTRUCTIONS`]: sampling an outer loop keeps every
//! inner loop whole (a row walk stays a row walk). Only for a launch (a kernel time to give)
//! and when every wave runs the same path; otherwise the bound's error stands. A bound of the
//! user's own (`[trace] max_instructions`) is the sample's too: a lower one is a quicker,
//! coarser sample, a higher one simulates more trips.

use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_trace::{TraceError, TracePlan, TraceSummary, TraceWalk};

/// The longest trace a sampled run gives one wave, in instructions: a tenth of the default
/// trace bound, so the two runs of a sample cost less than one run at the bound (an
/// engineering choice; more trips make the steady state's rate no more exact).
pub const SAMPLE_MAX_INSTRUCTIONS: u64 = 1_000_000;

/// A loop simulated for fewer trips than it makes, and what the shorter run took.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopSample {
    /// The loop (index into [`Cfg::loops`]).
    pub loop_id: usize,
    /// Its header's line in the listing.
    pub line: u32,
    /// Its header's label, if it has one.
    pub label: Option<String>,
    /// Trips the loop makes per entry (its plan's count).
    pub trips: u32,
    /// Trips the run simulates.
    pub sampled: u32,
    /// Trips of the shorter run.
    pub shorter: u32,
    /// Clocks of the shorter run.
    pub shorter_clocks: u64,
}

impl LoopSample {
    /// Clocks of one trip in the steady state, from the run's `clocks` and the shorter run's.
    pub fn clocks_per_trip(&self, clocks: u64) -> f64 {
        clocks.saturating_sub(self.shorter_clocks) as f64
            / f64::from(self.sampled.saturating_sub(self.shorter).max(1))
    }

    /// The whole loop's clocks: the run's, plus the trips it left out at the steady rate.
    pub fn whole_clocks(&self, clocks: u64) -> f64 {
        clocks as f64
            + self.clocks_per_trip(clocks) * f64::from(self.trips.saturating_sub(self.sampled))
    }

    /// The report's note on what ran.
    pub fn note(&self, limit: u64) -> String {
        format!(
            "the loop at line {}{} makes {} trips, which would take a wave's trace past the bound of {limit} instructions: the run simulates {} of them, and the kernel time adds the other {} at the clocks per trip of the difference from a run of {} (a steady state); the run's other figures are those of {} trips (`[trace] max_instructions` simulates more)",
            self.line,
            self.label
                .as_deref()
                .map_or(String::new(), |l| format!(" ({l})")),
            self.trips,
            self.sampled,
            self.trips - self.sampled,
            self.shorter,
            self.sampled,
        )
    }
}

/// Choose the loop to sample after `too_long`, setting its trips in `plan` to the run's: the
/// sample and the run's trace, or `None` when no loop of the path can be sampled.
pub(crate) fn choose(
    program: &Program,
    cfg: &Cfg,
    plan: &mut TracePlan,
    too_long: &TraceError,
) -> Option<(LoopSample, TraceSummary)> {
    let TraceError::TooLong { loop_line, .. } = too_long;
    let header_line = |l: usize| {
        program.instructions[cfg.blocks[cfg.loops[l].header].start]
            .pos
            .line
    };
    // The loop the walk was in when it passed the bound and the loops around it, outermost
    // first; every loop when the line names none.
    let mut chain: Vec<usize> = Vec::new();
    for l in (0..cfg.loops.len()).filter(|&l| Some(header_line(l)) == *loop_line) {
        let mut at = Some(l);
        while let Some(a) = at {
            if !chain.contains(&a) {
                chain.push(a);
            }
            at = cfg.loops[a].parent;
        }
    }
    if chain.is_empty() {
        chain = (0..cfg.loops.len()).collect();
    }
    chain.sort_by_key(|&l| (cfg.loops[l].depth, l));
    let budget = SAMPLE_MAX_INSTRUCTIONS.min(plan.max_instructions);
    for l in chain {
        let fixed =
            !plan.wave_iterations.contains_key(&l) && !plan.drawn_iterations.contains_key(&l);
        let trips = plan.iterations.get(l).copied().unwrap_or(1);
        if !fixed || trips < 3 {
            continue;
        }
        if let Some((sampled, trace)) = fit(program, cfg, plan, l, trips, budget) {
            let header = cfg.blocks[cfg.loops[l].header].label.clone();
            let sample = LoopSample {
                loop_id: l,
                line: header_line(l),
                label: header,
                trips,
                sampled,
                shorter: (sampled / 2).max(1),
                shorter_clocks: 0,
            };
            return Some((sample, trace));
        }
        plan.iterations[l] = trips;
    }
    None
}

/// The most trips of loop `l` (at least 2, fewer than `trips`) whose trace fits `budget`, and
/// that trace, with `plan` set to them; `None` when even 2 trips pass the plan's bound.
fn fit(
    program: &Program,
    cfg: &Cfg,
    plan: &mut TracePlan,
    l: usize,
    trips: u32,
    budget: u64,
) -> Option<(u32, TraceSummary)> {
    // Past the plan's bound: no trace (the only way a walk fails).
    let length = |plan: &mut TracePlan, k: u32| -> Option<TraceSummary> {
        plan.iterations[l] = k;
        TraceWalk::new(program, cfg, plan).summary(None).ok()
    };
    let (one, two) = (length(plan, 1)?, length(plan, 2)?);
    // The trace grows by the same instructions every trip: `len(k) = base + k x per_trip`.
    let per_trip = two.len.saturating_sub(one.len);
    if per_trip == 0 {
        return None;
    }
    let base = one.len.saturating_sub(per_trip);
    let most = (budget.saturating_sub(base) / per_trip).min(u64::from(trips - 1));
    let sampled = most.max(2) as u32;
    length(plan, sampled).map(|t| (sampled, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_left_out_trips_are_added_at_the_runs_difference() {
        // C(k) = 500 + 300 k: C(2) = 1100, C(1) = 800; 300 clocks a trip, and 128 trips take
        // 500 + 300 x 128 = 38900 = 1100 + 126 x 300.
        let s = LoopSample {
            loop_id: 0,
            line: 7,
            label: None,
            trips: 128,
            sampled: 2,
            shorter: 1,
            shorter_clocks: 800,
        };
        assert_eq!(s.clocks_per_trip(1100), 300.0);
        assert_eq!(s.whole_clocks(1100), 38900.0);
        // A run no slower than the shorter one adds nothing (never negative clocks).
        assert_eq!(s.whole_clocks(700), 700.0);
    }
}
