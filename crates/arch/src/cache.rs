//! The `[cache]` section of a model: the memory hierarchy as data.
//!
//! ```toml
//! [cache]
//! flat_latency = "vmem_latency"         # --set of this parameter switches the hierarchy off
//! vector = ["l1", "l2", "dram"]         # the path of vector memory requests, first level first
//! scalar = ["scalar", "l2", "dram"]     # the path of scalar loads
//! atomic = ["l2", "dram"]               # optional: where atomics go (default: the vector path)
//! miss_extra_latency = "cache_miss_extra_latency"
//!
//! [[cache.level]]
//! name = "l1"
//! capacity = "l1_bytes"                 # every number is a parameter (with its source)
//! line = "l1_line_bytes"
//! ways = "l1_ways"
//! latency = "l1_latency"
//! bytes_per_clock = "l1_bytes_per_clock" # optional: no bandwidth limit without it
//! ```
//!
//! A level without `capacity` is memory: it holds everything. Levels are listed in the model's
//! order (the report keeps it). A variant that defines `[cache]` replaces its base's whole
//! section (a level list does not merge).

use serde::Deserialize;

/// The hierarchy of one model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSpec {
    /// The parameter whose `--set` switches the hierarchy off: every request then takes that
    /// flat latency (the seed model's "no cache misses").
    pub flat_latency: String,
    /// Parameter with extra clocks added to every request its path's first level does not
    /// serve (0 in the models; the latency-tolerance analysis raises it).
    pub miss_extra_latency: String,
    /// Level names vector memory requests walk, first level first.
    pub vector: Vec<String>,
    /// Level names scalar loads walk.
    pub scalar: Vec<String>,
    /// Level names atomic read-modify-write ops walk: from the level that performs them (the
    /// L2 on AMD GPUs: atomics bypass the L0/L1). None: the vector path.
    #[serde(default)]
    pub atomic: Option<Vec<String>>,
    /// The levels, in the model's order.
    pub level: Vec<CacheLevelSpec>,
    /// Whether the hierarchy serves requests (false after `--set` of `flat_latency`, or when a
    /// model says so).
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
}

fn enabled_by_default() -> bool {
    true
}

/// One level: each field names a parameter.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheLevelSpec {
    /// Level name (`l1`, `l2`, `dram`).
    pub name: String,
    /// Parameter with its capacity in bytes; none: memory (holds everything).
    pub capacity: Option<String>,
    /// Parameter with its line size in bytes.
    pub line: String,
    /// Parameter with its associativity (ways per set); none: fully associative.
    pub ways: Option<String>,
    /// Parameter with its hit latency in clocks.
    pub latency: String,
    /// Parameter with the bytes per clock it delivers to one CU; none: not modelled.
    pub bytes_per_clock: Option<String>,
    /// One level for the whole chip (the L2, an Infinity Cache, memory): CUs simulated side
    /// by side reach the same instance, and its `bytes_per_clock` is one CU's share of it, so
    /// N CUs get N shares. False (the default): a level of each CU's own (an L1, an L0).
    #[serde(default)]
    pub shared: bool,
    /// Sets chosen by a hash of the address (an XOR fold) rather than its low bits.
    #[serde(default)]
    pub hashed_sets: bool,
}

/// An access policy of the ISA (`[[no_allocate]]`): memory instructions carrying `flag` (a
/// bare modifier such as gfx11's `dlc`) do not allocate in cache level `level`. A request that
/// misses there is served from below and leaves the level as it was; a hit is a hit.
///
/// ```toml
/// [[no_allocate]]
/// level = "mall"
/// flag = "dlc"
/// source = "where the ISA says so"
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoAllocateSpec {
    /// The `[[cache.level]]` name.
    pub level: String,
    /// The instruction's modifier (`dlc`, `nt`).
    pub flag: String,
    /// Where the policy is documented.
    pub source: String,
}

impl CacheSpec {
    /// Every parameter the section names.
    pub fn params(&self) -> impl Iterator<Item = &String> {
        self.level
            .iter()
            .flat_map(|l| {
                [
                    l.capacity.as_ref(),
                    Some(&l.line),
                    l.ways.as_ref(),
                    Some(&l.latency),
                    l.bytes_per_clock.as_ref(),
                ]
            })
            .flatten()
            .chain([&self.flat_latency, &self.miss_extra_latency])
    }

    /// Problems with the section's shape (names, paths), in words.
    pub fn check(&self) -> Result<(), String> {
        for (i, l) in self.level.iter().enumerate() {
            if self.level[..i].iter().any(|o| o.name == l.name) {
                return Err(format!("[cache] level `{}` is listed twice", l.name));
            }
        }
        let atomic = self.atomic.as_ref().unwrap_or(&self.vector);
        for (what, path) in [
            ("vector", &self.vector),
            ("scalar", &self.scalar),
            ("atomic", atomic),
        ] {
            if path.is_empty() {
                return Err(format!("[cache] {what} path is empty"));
            }
            for name in path {
                if !self.level.iter().any(|l| &l.name == name) {
                    return Err(format!(
                        "[cache] {what} path names unknown level `{name}`; levels: {}",
                        self.level
                            .iter()
                            .map(|l| l.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            let last = path
                .last()
                .and_then(|n| self.level.iter().find(|l| &l.name == n));
            if last.is_some_and(|l| l.capacity.is_some()) {
                return Err(format!(
                    "[cache] the {what} path must end in memory (a level without capacity)"
                ));
            }
        }
        Ok(())
    }
}
