//! shadersim-engine: simulates waves on a compute unit, clock by clock.
//!
//! The engine is generic over an architecture model (shadersim-arch): the
//! number of SIMDs, wave slots, issue cadence and categories, units and
//! costs all come from the model's data; nothing here knows it is running
//! GCN.
//!
//! The public API is what reports and tools need, all re-exported here:
//! [`Simulation`] (prepare a run from program, hints and model; run it;
//! its documented view of static ops, units and paths in `view.rs`),
//! [`SimStats`], the [`analysis`] layer above the run (resource bounds,
//! the bottleneck verdict, the latency-tolerance search), the
//! [`observer`] hooks the timelines use, and the occupancy rules.
//!
//! Inside (private, may change freely): `ops` (instructions compiled
//! against a model into static ops), `occupancy` (waves per SIMD and the
//! limiter), `config` (dispatch parameters and arrival rates), `machine`
//! (the cycle loop), `memstream` (address streams and the cache hierarchy
//! the loop asks for VMEM/SMEM latencies), `stats` (what a run measured),
//! `lanes` (traces waves share, lane figures), `run` (one call from
//! program + hints + model to a run's statistics). Layering, bottom up:
//! error, config, launch, ops/memstream, stats, machine, run, view, analysis; no
//! module imports one above it.

//! Invariants: deterministic (same inputs, same statistics); every run
//! ends (a wave that can never progress is a [`SimError::Deadlock`] naming
//! it, its instruction and the reason).

pub mod analysis;
mod cache_paths;
mod cache_report;
mod chip_reuse;
mod config;
mod error;
mod lanes;
mod launch;
pub mod loop_sample;
mod machine;
mod memstream;
pub mod observer;
mod occupancy;
mod ops;
mod prepare;
mod run;
mod stats;
mod view;
mod visit_order;

pub use analysis::bottleneck::Bottleneck;
pub use analysis::bounds::ResourceBound;
pub use analysis::latency::{LatencyHead, LatencySearch, LatencyTolerance};
pub use analysis::Analysis;
pub use cache_paths::{hierarchy_for, hierarchy_of};
pub use cache_report::{LevelReport, OpCacheStats};
pub use config::check_dispatch;
pub use config::{DispatchConfig, DynamicVgpr, LaunchPlan};
pub use error::{SimError, StuckWave};
pub use launch::MAX_SIMULATED_GROUPS;
pub use observer::{IssueEvent, NoObserver, Observer};
pub use occupancy::{Limiter, Occupancy, ResourceUsage};
pub use run::{PrepareError, Simulation};
pub use stats::{SimStats, StallCause};
pub use view::{OpKind, OpSource, OpView};
