//! How far the search goes: its work budget and precision, what it knows
//! before its first probe, and why it stopped. Nothing here runs a
//! simulation, so the run's configuration can hold a budget without
//! depending on the search.

/// How far the search goes: the work its probes may spend and the
/// bracket width it aims for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchBudget {
    /// The bracket width, relative to its passing end, at which the search
    /// stops: `fails_at - clocks <= max(1, precision * clocks)` (the
    /// default, 1/64, is the 1.5% bracket of the search before budgets).
    pub precision: f64,
    /// The work the search may spend, in runs (a run: the work of the
    /// whole program, its wave-instructions, see the module comment; the
    /// zero-latency base, when the search runs it, included); `None`: no
    /// limit, the search goes on until the bracket reaches `precision`.
    pub runs: Option<f64>,
}

/// The default relative bracket width, 1/64 (1.5625%).
pub const DEFAULT_PRECISION: f64 = 1.0 / 64.0;

/// The default work budget of the search, in runs: three (the zero-latency
/// base included when it is not the main run). A bracket whose ends lie
/// within twice of each other takes a probe that passes (a whole run) and
/// one that fails near it (0.7 to 0.95 of a run on the fixtures), and a
/// first probe to place them.
pub const DEFAULT_BUDGET_RUNS: f64 = 3.0;

impl SearchBudget {
    /// `analyze`'s and `batch`'s default: three runs of work, stopping
    /// early if the bracket reaches 1/64.
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
    pub(super) fn tolerance(&self, lo: u64) -> u64 {
        ((lo as f64 * self.precision) as u64).max(1)
    }
}

/// What the search knows before its first probe besides the probes: the
/// budget, and the estimate from the main run's statistics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchPlan {
    /// Work budget and precision.
    pub budget: SearchBudget,
    /// The estimated answer (see [`Simulation::latency_estimate`](crate::run::Simulation::latency_estimate)).
    pub estimate: Option<u64>,
    /// An upper estimate of the answer (see
    /// [`Simulation::latency_estimate`](crate::run::Simulation::latency_estimate)):
    /// where an unbudgeted search goes while no probe has failed and no
    /// line through probes predicts the crossing.
    pub ceiling: Option<u64>,
    /// The estimated rise of the clock count per clock of latency once
    /// the latency shows (the exposures each wave slot sits through in
    /// series): a finished probe on the rising part then predicts the
    /// crossing.
    pub slope: Option<f64>,
    /// Work the search already spent before its first probe, in runs,
    /// paid from the budget: the zero-latency base (one run) when it is
    /// not the main run (flat-latency mode), 0 otherwise.
    pub spent: f64,
}

impl SearchPlan {
    /// A plan with no estimate and nothing spent.
    pub fn new(budget: SearchBudget) -> SearchPlan {
        SearchPlan {
            budget,
            estimate: None,
            ceiling: None,
            slope: None,
            spent: 0.0,
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
    /// [`SEARCH_LIMIT`](super::SEARCH_LIMIT) passes.
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
