//! A probe: a run of the machine whose reader wants only its clock count
//! (and, for a run stopped at its clock limit, how much of its work it
//! did), as the latency search's probes do. The machine is built without
//! its bookkeeping (`ComputeUnit`'s `STATS` off): the schedule, and so
//! every clock count and stop, is the one a full run makes.

use super::*;

/// What a probe ([`simulate_probe`]) learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeRun {
    /// The clocks the run took (a full run's `SimStats::clocks`), or, when
    /// it was stopped, the clock limit it passed.
    pub clocks: u64,
    /// Stopped once its clock passed the input's `max_clocks`: the run
    /// would take more clocks than that.
    pub stopped: bool,
    /// The ops its waves issued or passed (by the stop, when stopped): a
    /// full run's `SimStats::issues + SimStats::free_ops`.
    pub work: u64,
    /// Threads the run's finished waves ran (a full run's
    /// `SimStats::threads` when it finished).
    pub threads: u64,
    /// CUs simulated (`SimStats::cus`).
    pub cus: u32,
}

/// Run one simulation for its clock count only: [`simulate`]'s schedule
/// without its statistics (the per-op stall causes, sitting clocks, stall
/// turns and wave lives are not kept), so the clocks and the stop are
/// exactly a full run's at a fraction of the host cost. A run that passes
/// `max_clocks` is not an error here: it comes back `stopped`.
pub fn simulate_probe(input: &SimInput<'_>) -> Result<ProbeRun, SimError> {
    let (tables, units) = OpTables::new(input)?;
    let mut cu = ComputeUnit::<NoObserver, false>::new(input, &tables, units, NoObserver)?;
    let stopped = match cu.run() {
        Ok(()) => false,
        Err(SimError::TooLong(_)) => true,
        Err(e) => return Err(e),
    };
    let stats = &cu.stats;
    Ok(ProbeRun {
        clocks: if stopped {
            input.max_clocks
        } else {
            stats.clocks
        },
        stopped,
        work: stats.category_issues.iter().sum::<u64>() + stats.free_ops,
        threads: cu.threads(),
        cus: cu.cus,
    })
}
