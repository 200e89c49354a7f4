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
//! * [`run`]: one call from program + hints + model to results.
//! * [`latency`]: the latency-tolerance search (re-runs with a latency changed).
//!
//! Invariants: deterministic (same inputs, same statistics); every run
//! ends (a wave that can never progress is a [`SimError::Deadlock`] naming
//! it, its instruction and the reason).

pub mod config;
pub mod error;
pub mod lanes;
pub mod latency;
pub mod machine;
pub mod memstream;
pub mod observer;
pub mod occupancy;
pub mod ops;
pub mod run;
pub mod stats;
pub mod visit_order;

pub use config::{DispatchConfig, DynamicVgpr};
pub use error::{SimError, StuckWave};
pub use latency::{LatencyHead, LatencySearch};
pub use observer::{IssueEvent, NoObserver, Observer};
pub use occupancy::{Limiter, Occupancy, ResourceUsage};
pub use ops::{SimProgram, StaticOp};
pub use run::{Analysis, Simulation};
pub use stats::{LevelReport, OpCacheStats, SimStats};
