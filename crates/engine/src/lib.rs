//! shadersim-engine: simulates waves on a compute unit, clock by clock.
//!
//! The engine is generic over an architecture model (shadersim-arch): the
//! number of SIMDs, wave slots, issue cadence and categories, units and
//! costs all come from the model's data; nothing here knows it is running
//! GCN.
//!
//! * [`ops`]: instructions compiled against a model into static ops.
//! * [`occupancy`]: waves per SIMD and the limiter.
//! * [`config`]: dispatch parameters and arrival rates.
//! * [`machine`]: the cycle loop.
//! * [`memstream`]: address streams and the cache hierarchy the loop asks for VMEM/SMEM latencies.
//! * [`observer`]: optional listeners on the cycle loop (timelines), free when off.
//! * [`stats`]: what a run measured.
//! * [`lanes`]: lane divergence: traces waves share, lane figures.
//! * [`run`]: one call from program + hints + model to a run's statistics.
//! * [`analysis`]: what a run means: resource bounds, the bottleneck verdict
//!   and the latency-tolerance search (re-runs with a latency changed).
//!
//! Invariants: deterministic (same inputs, same statistics); every run
//! ends (a wave that can never progress is a [`SimError::Deadlock`] naming
//! it, its instruction and the reason).

pub mod analysis;
pub mod config;
pub mod error;
pub mod lanes;
pub mod machine;
pub mod memstream;
pub mod observer;
pub mod occupancy;
pub mod ops;
pub mod run;
pub mod stats;
pub mod visit_order;

pub use analysis::bottleneck::Bottleneck;
pub use analysis::bounds::ResourceBound;
pub use analysis::latency::{LatencyHead, LatencySearch, LatencyTolerance};
pub use analysis::Analysis;
pub use config::{DispatchConfig, DynamicVgpr};
pub use error::{SimError, StuckWave};
pub use memstream::{LevelReport, OpCacheStats};
pub use observer::{IssueEvent, NoObserver, Observer};
pub use occupancy::{Limiter, Occupancy, ResourceUsage};
pub use ops::{SimProgram, StaticOp};
pub use run::{PrepareError, Simulation};
pub use stats::SimStats;
