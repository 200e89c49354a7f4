//! What the cache hierarchy reports after a run: per level and per static op (the
//! statistics' `cache` and `op_cache`, filled by `MemorySystem::report`).

/// What one cache level did during a run.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelReport {
    /// The model's name for it.
    pub name: String,
    /// Requests that reached it.
    pub requests: u64,
    /// Requests it served.
    pub hits: u64,
    /// Of those, requests that missed the simulated CU's own view of a shared level and were
    /// served there because another CU's workgroup had read the line (`chip_reuse`).
    pub chip_hits: u64,
    /// Bytes it delivered.
    pub bytes: u64,
    /// Its hit latency.
    pub latency: u32,
    /// Its bandwidth per CU, if modelled.
    pub bytes_per_clock: Option<f64>,
    /// Clocks requests waited for its bandwidth.
    pub queue_clocks: u64,
}

impl LevelReport {
    /// `hits / requests` (0 without requests).
    pub fn hit_rate(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.hits as f64 / self.requests as f64
        }
    }
}

/// Cache counts of one static op.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpCacheStats {
    /// Executions.
    pub executions: u64,
    /// Requests (lines) sent.
    pub requests: u64,
    /// Requests the first level of its path served.
    pub first_level_hits: u64,
    /// Sum over executions of the clocks until the slowest request's data was back.
    pub latency_sum: u64,
}

impl OpCacheStats {
    /// The first level's hit rate for this op's requests.
    pub fn first_level_hit_rate(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.first_level_hits as f64 / self.requests as f64
        }
    }

    /// Mean clocks from service to data per execution.
    pub fn mean_latency(&self) -> f64 {
        if self.executions == 0 {
            0.0
        } else {
            self.latency_sum as f64 / self.executions as f64
        }
    }
}
