//! What a run means: the analyses above the cycle loop. Each reads a
//! prepared [`Simulation`] and its statistics (or re-runs it, for the
//! latency tolerance) and never changes how a run is simulated.
//!
//! * [`bounds`]: each resource's demand per wave, and a wave's dependency
//!   chain alone on a SIMD.
//! * [`bottleneck`]: the one-line verdict naming what limits throughput.
//! * [`latency`]: the latency-tolerance search.
//! * [`matrix`]: matrix-core utilization and operations per clock.
//! * [`kernel_time`]: the whole dispatch's duration on the whole GPU, from a launch.

pub mod bottleneck;
pub mod bounds;
pub mod kernel_time;
pub mod latency;
pub mod matrix;

use crate::run::{PrepareError, Simulation};
use crate::stats::SimStats;
use bottleneck::Bottleneck;
use latency::{LatencySearch, LatencyTolerance};

impl Simulation {
    /// Run and analyse: the statistics, the latency tolerance and the
    /// bottleneck statement. The run and the latency search's first
    /// simulation run side by side.
    pub fn analyse(&self) -> Result<Analysis, PrepareError> {
        let (stats, search) = self.beside_latency_head(true, || self.run());
        self.analyse_run(stats?, search?)
    }

    /// [`Simulation::analyse`] for a run already done (`stats`, e.g. a
    /// recorded run): the bottleneck and, as `latency_search` says, the
    /// latency tolerance, whose search reuses the run as one of its probes.
    pub fn analyse_run(
        &self,
        stats: SimStats,
        latency_search: LatencySearch,
    ) -> Result<Analysis, PrepareError> {
        let latency = match latency_search {
            LatencySearch::Off => None,
            LatencySearch::On => self.latency_tolerance(&stats)?,
            LatencySearch::Started(None) => None,
            LatencySearch::Started(head) => self.latency_tolerance_with(&stats, head)?,
        };
        let bottleneck = self.bottleneck(&stats, latency.as_ref());
        Ok(Analysis {
            stats,
            latency,
            bottleneck,
        })
    }
}

/// A run with its analyses.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// Statistics of the run.
    pub stats: SimStats,
    /// Latency tolerance (for programs with VMEM ops on models with `vmem_latency`).
    pub latency: Option<LatencyTolerance>,
    /// Bottleneck statement.
    pub bottleneck: Bottleneck,
}
