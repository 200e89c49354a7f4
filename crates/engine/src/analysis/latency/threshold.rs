//! The pass rule of the search: what a probe learned and whether it
//! passes the 95% line.

use crate::stats::SimStats;

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
    base_clocks: u64,
    pub(super) max_pass: u64,
}

/// Throughput per clock per CU, computed exactly as
/// [`SimStats::throughput_per_clock`] does (the verdicts must agree bit
/// for bit with the ones full runs would give).
pub(super) fn throughput(threads: u64, clocks: u64, cus: u32) -> f64 {
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
            base_clocks: clocks,
            max_pass: 0,
        };
        t.max_pass = t.find_max_pass(clocks);
        t
    }

    /// The zero-latency throughput per clock.
    pub fn base_throughput(&self) -> f64 {
        self.base
    }

    /// The clocks the zero-latency run took.
    pub fn base_clocks(&self) -> u64 {
        self.base_clocks
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
