//! The cache hierarchy: set-associative levels with least-recently-used replacement, walked by
//! every simulated memory request (a coalescer line, a scalar load), each level with a hit
//! latency and, where known, a bandwidth.
//!
//! A [`Hierarchy`] holds every level of a model once and one or more *paths* through them (the
//! vector path L1 → L2 → DRAM and the scalar path scalar cache → L2 → DRAM share L2 and DRAM).
//! [`Hierarchy::access`] walks a path: the first level holding the line serves it, every level
//! passed on the way fills it (inclusive, LRU), and the request's latency is the serving level's
//! hit latency plus any wait for a level's bandwidth on the way. The last level of a path should
//! be a memory level ([`LevelConfig::capacity_bytes`] `None`), which always hits.
//!
//! The model is deterministic: the same requests in the same order give the same answers.

use std::fmt;

use rustc_hash::FxHashMap;

/// Levels with more line slots than this keep only the sets a run touches.
const DENSE_SLOTS: u64 = 1 << 16;

/// One level as the architecture model describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelConfig {
    /// Name (`l1`, `l2`, `dram`), used in reports and `[[memory]] level`.
    pub name: String,
    /// Bytes it holds; `None` for memory, which holds everything.
    pub capacity_bytes: Option<u64>,
    /// Bytes per line (the unit of lookup and fill).
    pub line_bytes: u32,
    /// Lines per set (`capacity / line` for a fully associative level).
    pub ways: u32,
    /// Clocks from request to data when this level serves it.
    pub latency: u32,
    /// Bytes per clock it can deliver to this compute unit; `None`: not modelled (unlimited).
    pub bytes_per_clock: Option<f64>,
    /// Sets chosen by an XOR fold of the line address instead of its low bits, as a cache
    /// that spreads addresses over its channels by a hash does (power-of-two strides then
    /// spread over the sets instead of piling into a few).
    pub hashed_sets: bool,
}

/// A level whose numbers do not make a cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheConfigError(pub String);

impl fmt::Display for CacheConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CacheConfigError {}

/// Counts of one level over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// Requests that reached the level.
    pub requests: u64,
    /// Requests it served (a line it held, or any request for memory).
    pub hits: u64,
    /// Bytes it delivered (its hits times the request size).
    pub bytes: u64,
    /// Clocks requests waited for its bandwidth.
    pub queue_clocks: u64,
}

impl LevelStats {
    /// `hits / requests` (0 without requests).
    pub fn hit_rate(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.hits as f64 / self.requests as f64
        }
    }
}

/// One cache level's state.
///
/// Laid out by use (`repr(C)`, aligned to a cache line): the first line holds what every
/// lookup reads, the second what the serving level updates, the rest (the sparse store, the
/// configuration) is read rarely. A request's levels are touched long after the last
/// request, so every line a lookup reads tends to be a cache miss.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Level {
    /// Dense levels: `sets x ways` tags (a line number's complement, `!line`: an empty way
    /// is 0, so the store starts as zeroed memory the allocator hands out without writing
    /// it, and a run touches only the pages of the sets it uses), each set's most recently
    /// used first and its empty ways last. The order is the LRU state itself: a hit moves
    /// its line to the front, a miss drops the last way (an empty one while any is left,
    /// else the least recently used) and puts the new line in front. No per-way use stamps
    /// to keep, and the common hit on the newest line reads one word. Empty for a sparse
    /// level and for memory.
    tags: Vec<u64>,
    /// Sets (a power of two is not required: the set is `line % sets`); 0 for memory.
    sets: u64,
    ways: u64,
    /// `sets - 1` when the set count is a power of two (`mask_ok`), and `log2(line_bytes)`
    /// when the line size is (`shift_ok`): a shift and a mask instead of two 64-bit
    /// divisions per lookup (the usual case; the divisions remain for other sizes).
    set_mask: u64,
    line_shift: u32,
    shift_ok: bool,
    mask_ok: bool,
    /// A dense cache level with both (`shift_ok`, `mask_ok`, and `tags` not empty): the
    /// usual case, which one test sends down the short way of `lookup_fill`.
    plain: bool,
    /// Requests that reached the level ([`LevelStats::requests`]).
    requests: u64,
    /// The other counts (`requests` is the field above).
    stats: LevelStats,
    /// When the level's bandwidth is next free (fractional clocks).
    free_at: f64,
    /// The last request size and its clocks of bandwidth (`bytes / bytes_per_clock`): a
    /// level sees few sizes, and the same division gives the same quotient.
    last_clocks: f64,
    /// `config.bytes_per_clock`, 0 when it is not modelled (a modelled one is positive).
    bandwidth: f64,
    last_bytes: u32,
    /// `config.latency`.
    latency: u32,
    /// Large levels (an Infinity Cache of a million lines): only the sets touched, kept like
    /// the dense ones, so a run pays for what it uses.
    sparse: Option<SparseSets>,
    /// The model level of a level the chip's CUs share (`Hierarchy::per_cu`), which
    /// [`Hierarchy::access_lines_chip`] asks about the lines it misses; `None` for a private
    /// level.
    chip_level: Option<usize>,
    /// Of the requests, misses that left no line behind (the access's policy said not to
    /// allocate here): the chip rule counts only the requests that bring lines in.
    passed: u64,
    config: LevelConfig,
}

impl Level {
    fn new(config: LevelConfig) -> Result<Level, CacheConfigError> {
        let err = |m: &str| CacheConfigError(format!("cache level `{}`: {m}", config.name));
        if config.line_bytes == 0 {
            return Err(err("the line size must be at least 1 byte"));
        }
        if let Some(b) = config.bytes_per_clock {
            if !(b.is_finite() && b > 0.0) {
                return Err(err("bytes per clock must be a positive number"));
            }
        }
        let (sets, ways) = match config.capacity_bytes {
            None => (0, 0),
            Some(cap) => {
                let lines = cap / u64::from(config.line_bytes);
                let ways = u64::from(config.ways.max(1)).min(lines.max(1));
                if lines == 0 {
                    return Err(err("the capacity holds no whole line"));
                }
                ((lines / ways).max(1), ways)
            }
        };
        let slots = sets * ways;
        let dense = slots <= DENSE_SLOTS;
        let n = if dense { slots as usize } else { 0 };
        Ok(Level {
            tags: vec![0; n],
            sets,
            ways,
            set_mask: sets.wrapping_sub(1),
            line_shift: config.line_bytes.trailing_zeros(),
            shift_ok: config.line_bytes.is_power_of_two(),
            mask_ok: sets.is_power_of_two(),
            plain: config.line_bytes.is_power_of_two() && sets.is_power_of_two() && n > 0,
            requests: 0,
            passed: 0,
            stats: LevelStats::default(),
            free_at: 0.0,
            last_clocks: 0.0,
            bandwidth: config.bytes_per_clock.unwrap_or(0.0),
            last_bytes: 0,
            latency: config.latency,
            sparse: (!dense).then(SparseSets::default),
            chip_level: None,
            config,
        })
    }

    /// The level's counts.
    fn counts(&self) -> LevelStats {
        LevelStats {
            requests: self.requests,
            ..self.stats
        }
    }

    /// Look `address` up; on a miss, fill it (evicting the least recently used way).
    /// (Inlined into the walk: as a call of its own its entry and exit cost as much as a
    /// hit on the newest way.)
    #[inline(always)]
    fn lookup_fill(&mut self, address: u64) -> bool {
        let ways = self.ways as usize;
        if self.plain {
            let line = address >> self.line_shift;
            let start = (self.set_key(line) & self.set_mask) as usize * ways;
            return move_to_front(&mut self.tags[start..start + ways], !line);
        }
        if self.sets == 0 {
            return true;
        }
        let (line, set_index) = self.line_and_set(address);
        // A cache level with no dense store is sparse (a dense one has a way at least).
        if self.tags.is_empty() {
            if let Some(SparseSets { start_of, tags }) = &mut self.sparse {
                // A set touched first gets `ways` empty ways at the end of the store.
                let end = tags.len();
                let start = *start_of.entry(set_index).or_insert(end);
                if start == end {
                    tags.resize(end + ways, 0);
                }
                return move_to_front(&mut tags[start..start + ways], !line);
            }
        }
        let start = set_index as usize * ways;
        move_to_front(&mut self.tags[start..start + ways], !line)
    }

    /// Look `address` up without filling it on a miss (an access whose policy says this level
    /// does not allocate): a hit is made the most recently used, a miss leaves the set as it
    /// was. Memory (no sets) always holds it.
    fn lookup_only(&mut self, address: u64) -> bool {
        if self.sets == 0 {
            return true;
        }
        let ways = self.ways as usize;
        let (line, set_index) = self.line_and_set(address);
        let set = if self.tags.is_empty() {
            // A sparse set never touched holds nothing (and is not created for a miss).
            match &mut self.sparse {
                Some(SparseSets { start_of, tags }) => match start_of.get(&set_index) {
                    Some(&start) => &mut tags[start..start + ways],
                    None => return false,
                },
                None => return false,
            }
        } else {
            let start = set_index as usize * ways;
            &mut self.tags[start..start + ways]
        };
        match set.iter().position(|&t| t == !line) {
            Some(way) => {
                set[..=way].rotate_right(1);
                true
            }
            None => false,
        }
    }

    /// `address`'s line number and set index (the general way: any line size and set count).
    #[inline(always)]
    fn line_and_set(&self, address: u64) -> (u64, u64) {
        let line = if self.shift_ok {
            address >> self.line_shift
        } else {
            address / u64::from(self.config.line_bytes)
        };
        let key = self.set_key(line);
        let set_index = if self.mask_ok {
            key & self.set_mask
        } else {
            key % self.sets
        };
        (line, set_index)
    }

    /// The number `line`'s set is taken from (`% sets`, or `& set_mask`).
    #[inline(always)]
    fn set_key(&self, line: u64) -> u64 {
        if self.config.hashed_sets {
            // Fold the line number's higher bits onto the set bits (XOR of three slices).
            let bits = 64 - self.set_mask.leading_zeros();
            line ^ (line >> bits) ^ (line >> (2 * bits))
        } else {
            line
        }
    }

    /// Wait for this level's bandwidth to move `bytes` from `now`; returns the clocks waited.
    #[inline(always)]
    fn take_bandwidth(&mut self, bytes: u32, now: f64) -> f64 {
        if self.bandwidth == 0.0 {
            return 0.0;
        }
        if bytes != self.last_bytes {
            self.last_bytes = bytes;
            self.last_clocks = f64::from(bytes) / self.bandwidth;
        }
        // `free_at.max(now)` without its NaN handling: neither is NaN (clocks, and sums of
        // positive finite bandwidth steps).
        let start = if self.free_at > now {
            self.free_at
        } else {
            now
        };
        self.free_at = start + self.last_clocks;
        start - now
    }
}

impl Level {
    /// This level (index `li`, at `depth` on the walked path) serves `bytes` at clock `t`:
    /// only the serving level's bandwidth is waited for (the levels passed on the way only
    /// look the line up), so its wait is the request's.
    #[inline(always)]
    fn serve_bytes(&mut self, li: usize, depth: usize, bytes: u32, t: f64) -> Served {
        let waited = ceil_clocks(self.take_bandwidth(bytes, t));
        self.stats.hits += 1;
        self.stats.bytes += u64::from(bytes);
        self.stats.queue_clocks += waited;
        Served {
            level: li,
            depth,
            latency: self
                .latency
                .saturating_add(waited.min(u64::from(u32::MAX)) as u32),
        }
    }
}

/// Look `tag` (`!line`) up in `set` (most recently used first, empty ways, 0, last) and make
/// it the most recently used: a hit moves it to the front, a miss drops the last way (an empty
/// one while any is left, else the least recently used) and puts `tag` in front. Whether it
/// hit. (Line `u64::MAX`, whose tag is the empty way's 0, exists only for 1-byte lines at the
/// last address; as with the `u64::MAX` empty marker before, it reads as an empty way.)
#[inline]
fn move_to_front(set: &mut [u64], tag: u64) -> bool {
    if set[0] == tag {
        return true;
    }
    // One pass: each way takes the one before it until the way that held the line (a hit),
    // the first empty way (a miss: the ways after it are empty too, so the set ends as if
    // the last had been dropped), or past the last way (a miss that drops the least recently
    // used). Cheaper than a scan and then a `memmove` call for sets of a few ways.
    let mut carry = tag;
    for way in set.iter_mut() {
        let old = std::mem::replace(way, carry);
        if old == tag {
            return true;
        }
        if old == 0 {
            return false;
        }
        carry = old;
    }
    false
}

/// The sets a large level has touched: each set's ways (the dense levels' move-to-front
/// order of `!line` tags, 0 for an empty way) at its start in one store, so a new set is no
/// allocation of its own.
#[derive(Debug, Clone, Default)]
struct SparseSets {
    /// Where each touched set's ways start in `tags` (Fx hashing: set indices are not chosen
    /// by an adversary, and std's SipHash costs several times as much per lookup).
    start_of: FxHashMap<u64, usize>,
    tags: Vec<u64>,
}

/// `x.ceil() as u64` (saturating, like `as`), without the library call `f64::ceil` is on the
/// baseline x86-64 target: waits are mostly 0, and below 2^52 the truncation to `i64` is exact
/// (one instruction) and the ceiling one more when `x` had a fraction.
#[inline]
fn ceil_clocks(x: f64) -> u64 {
    if x <= 0.0 {
        return 0;
    }
    if x < 4_503_599_627_370_496.0 {
        let t = x as i64;
        return (t + i64::from((t as f64) < x)) as u64;
    }
    // Integers already (and NaN, which `as` makes 0).
    x.ceil() as u64
}

/// Where a request was served and when its data is back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// Index of the serving level in the model's order ([`Hierarchy::level_names`]).
    pub level: usize,
    /// Its position on the path walked (0 = the path's first level).
    pub depth: usize,
    /// Clocks from the request to its data: the serving level's latency plus bandwidth waits.
    pub latency: u32,
}

/// How a request is served: by the simulation, or as a user's override says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Serve {
    /// Walk the path and let the caches decide.
    Simulate,
    /// Served by the path's level at this depth, the caches' contents left alone
    /// (`[[memory]] level`).
    AtDepth(usize),
}

/// Every level of a model and the paths requests take through them, for one compute unit or
/// several side by side.
///
/// With several CUs a level private to a CU (an L1) is one instance per CU and a shared level
/// (the L2, memory) one instance for all; CU `c`'s copy of path `p` is path
/// `c x paths + p` ([`Hierarchy::path_of`]). Names, configurations and counts are per model
/// level (instances summed), in the model's order.
#[derive(Debug, Clone)]
pub struct Hierarchy {
    levels: Vec<Level>,
    paths: Vec<Vec<usize>>,
    /// The model level of each instance in `levels`.
    model_level: Vec<usize>,
    /// The model's levels: their configuration (a private level's bandwidth summed over its
    /// instances) and instance count.
    model: Vec<(LevelConfig, u32)>,
    /// Paths per CU.
    paths_per_cu: usize,
    /// The last CU's index (`path_of` takes the first CU's paths past it).
    last_cu: usize,
}

impl Hierarchy {
    /// Build the levels and the paths (each a list of level names, first level first) of one
    /// compute unit.
    pub fn new(
        levels: Vec<LevelConfig>,
        paths: &[Vec<String>],
    ) -> Result<Hierarchy, CacheConfigError> {
        let shared = vec![false; levels.len()];
        Hierarchy::per_cu(levels, paths, &shared, 1)
    }

    /// The levels and paths of `cus` compute units side by side: a level whose `shared` entry
    /// is true is one instance all of them reach (its configuration as given: the caller sizes
    /// its bandwidth for all of them), any other level one instance per CU.
    pub fn per_cu(
        levels: Vec<LevelConfig>,
        paths: &[Vec<String>],
        shared: &[bool],
        cus: u32,
    ) -> Result<Hierarchy, CacheConfigError> {
        let cus = cus.max(1) as usize;
        let mut built: Vec<Level> = Vec::new();
        let mut model_level = Vec::new();
        // Instance of model level `i` for CU `c`: `instance[i][c]` (one entry for a shared level).
        let mut instance: Vec<Vec<usize>> = Vec::new();
        let mut model = Vec::new();
        for (i, config) in levels.into_iter().enumerate() {
            let is_shared = shared.get(i).copied().unwrap_or(false);
            let copies = if is_shared { 1 } else { cus };
            let mut ids = Vec::with_capacity(copies);
            for _ in 0..copies {
                ids.push(built.len());
                let mut level = Level::new(config.clone())?;
                if is_shared {
                    level.chip_level = Some(i);
                }
                built.push(level);
                model_level.push(i);
            }
            instance.push(ids);
            let mut total = config;
            total.bytes_per_clock = total.bytes_per_clock.map(|b| b * copies as f64);
            model.push((total, copies as u32));
        }
        let mut out = Vec::new();
        for cu in 0..cus {
            for p in paths {
                let mut idx = Vec::new();
                for name in p {
                    let i = model
                        .iter()
                        .position(|(c, _)| &c.name == name)
                        .ok_or_else(|| CacheConfigError(format!("no cache level `{name}`")))?;
                    let ids = &instance[i];
                    idx.push(ids[cu.min(ids.len() - 1)]);
                }
                if idx.is_empty() {
                    return Err(CacheConfigError(
                        "a cache path needs at least one level".into(),
                    ));
                }
                out.push(idx);
            }
        }
        Ok(Hierarchy {
            levels: built,
            paths: out,
            model_level,
            model,
            paths_per_cu: paths.len(),
            last_cu: cus - 1,
        })
    }

    /// Names of the levels, in the model's order.
    pub fn level_names(&self) -> Vec<&str> {
        self.model.iter().map(|(c, _)| c.name.as_str()).collect()
    }

    /// The level configurations, in the model's order; a level with an instance per CU gives
    /// the bandwidth of all its instances.
    pub fn configs(&self) -> impl Iterator<Item = &LevelConfig> {
        self.model.iter().map(|(c, _)| c)
    }

    /// Instances of each level, in the model's order: 1 for a shared level, the CUs for the
    /// others.
    pub fn instances(&self) -> Vec<u32> {
        self.model.iter().map(|&(_, n)| n).collect()
    }

    /// The index of CU `cu`'s copy of path `path` (the last CU's for a CU past the last).
    /// (Inlined: asked once per memory op's execution, and its call cost more than its work.)
    #[inline]
    pub fn path_of(&self, cu: usize, path: usize) -> usize {
        cu.min(self.last_cu) * self.paths_per_cu + path
    }

    /// The model levels of path `path`, as indices into [`Hierarchy::level_names`].
    pub fn path(&self, path: usize) -> Vec<usize> {
        self.paths[path]
            .iter()
            .map(|&i| self.model_level[i])
            .collect()
    }

    /// Counts of every level, in the model's order (a level's instances summed).
    pub fn stats(&self) -> Vec<LevelStats> {
        let mut out = vec![LevelStats::default(); self.model.len()];
        for (l, &m) in self.levels.iter().zip(&self.model_level) {
            let c = l.counts();
            let o = &mut out[m];
            o.requests += c.requests;
            o.hits += c.hits;
            o.bytes += c.bytes;
            o.queue_clocks += c.queue_clocks;
        }
        out
    }

    /// One request of `bytes` at `address`, issued at clock `now`, along path `path`.
    pub fn access(
        &mut self,
        path: usize,
        address: u64,
        bytes: u32,
        now: u64,
        serve: Serve,
    ) -> Served {
        let mut served = walk_path::<false, false>(
            &mut self.levels,
            &self.paths[path],
            (address, bytes),
            now as f64,
            (serve, 0),
            &mut |_, _| false,
        );
        served.level = self.model_level[served.level];
        served
    }

    /// Requests of `bytes` at `base + offset` (wrapping) for every offset of `offsets`, in
    /// order, issued at clock `now` along path `path`, each simulated: the same as
    /// [`Hierarchy::access`] with [`Serve::Simulate`] of each address in turn, summed up as
    /// an op's execution needs it (which requests the path's first level served, and the
    /// slowest of those and of the others), without a call and a path lookup per request.
    pub fn access_lines(
        &mut self,
        path: usize,
        base: u64,
        offsets: &[u64],
        bytes: u32,
        now: u64,
    ) -> LinesServed {
        self.lines_walked::<false, false>(path, base, offsets, (bytes, 0), now, &mut |_, _| false)
    }

    /// [`Hierarchy::access_lines`] of requests some levels do not allocate: `no_allocate` has
    /// bit `d` set for each such depth `d` of the path (an access policy such as gfx11's
    /// `dlc`), where a miss passes the level by and leaves it as it was. (Its own entry point,
    /// so the usual walk above has no call to make room for.)
    #[inline(never)]
    pub fn access_lines_passing(
        &mut self,
        path: usize,
        base: u64,
        offsets: &[u64],
        (bytes, no_allocate): (u32, u32),
        now: u64,
    ) -> LinesServed {
        let mut never = |_, _| false;
        self.lines_walked::<false, true>(path, base, offsets, (bytes, no_allocate), now, &mut never)
    }

    /// [`Hierarchy::access_lines`] on a chip whose other CUs read some of the same lines: a
    /// request that misses a shared level's instance (`per_cu`'s `shared`) is served there
    /// when `held(model level, the instance's requests before it that brought lines in)` says
    /// another CU brought the line in and the level still holds it. The line is filled either
    /// way, as on any miss (unless `no_allocate`, as in [`Hierarchy::access_lines_passing`],
    /// says the level does not allocate it).
    pub fn access_lines_chip(
        &mut self,
        path: usize,
        base: u64,
        offsets: &[u64],
        (bytes, no_allocate): (u32, u32),
        now: u64,
        held: &mut impl FnMut(usize, u64) -> bool,
    ) -> LinesServed {
        let block = (bytes, no_allocate);
        if no_allocate == 0 {
            self.lines_walked::<true, false>(path, base, offsets, block, now, held)
        } else {
            self.lines_walked::<true, true>(path, base, offsets, block, now, held)
        }
    }

    /// The walk of [`Hierarchy::access_lines`]; with `CHIP`, shared levels ask `held` about
    /// their misses; with `PASS`, the depths `no_allocate` names do not allocate.
    #[inline(always)]
    fn lines_walked<const CHIP: bool, const PASS: bool>(
        &mut self,
        path: usize,
        base: u64,
        offsets: &[u64],
        (bytes, no_allocate): (u32, u32),
        now: u64,
        held: &mut impl FnMut(usize, u64) -> bool,
    ) -> LinesServed {
        let path_levels = &self.paths[path];
        let t = now as f64;
        let mut out = LinesServed::default();
        for &offset in offsets {
            let served = walk_path::<CHIP, PASS>(
                &mut self.levels,
                path_levels,
                (base.wrapping_add(offset), bytes),
                t,
                (Serve::Simulate, no_allocate),
                held,
            );
            if served.depth == 0 {
                out.first_level += 1;
                out.worst_first = out.worst_first.max(served.latency);
            } else {
                out.worst_rest = Some(out.worst_rest.unwrap_or(0).max(served.latency));
            }
        }
        out
    }
}

/// What [`Hierarchy::access_lines`] did with a list of requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinesServed {
    /// Requests the path's first level served.
    pub first_level: u64,
    /// The largest latency among those (0 without any).
    pub worst_first: u32,
    /// The largest latency among the requests a later level served (`None` without any).
    pub worst_rest: Option<u32>,
}

mod walk;
use walk::{chip_holds, finds_passing, split_block};

/// One request along the levels `path_levels` (indices into `levels`), at clock `t`:
/// [`Hierarchy::access`]'s walk.
///
/// A level that misses is filled with a whole line of its own, so the level below is asked
/// for that line, not for the request's bytes: a 64-byte request that misses a 128-byte L1
/// moves 128 bytes from the L2, and a 128-byte L2 line missing in the L2 moves 128 bytes from
/// memory. When the level below has smaller lines than the block asked of it, the block is
/// that many lines there, each looked up (and served) on its own; the request's latency is
/// the slowest of them. Equal line sizes (the usual case) take one lookup per level, as a
/// plain walk would.
#[inline(always)]
fn walk_path<const CHIP: bool, const PASS: bool>(
    levels: &mut [Level],
    path_levels: &[usize],
    (address, bytes): (u64, u32),
    t: f64,
    (serve, no_allocate): (Serve, u32),
    held: &mut impl FnMut(usize, u64) -> bool,
) -> Served {
    let last = path_levels.len() - 1;
    // The block asked of the level at `depth`: the request itself at the first level, then
    // the line the level above fills.
    let mut block_bytes = bytes;
    let mut block_start = address;
    for (depth, &li) in path_levels.iter().enumerate() {
        let level = &mut levels[li];
        let line = level.config.line_bytes;
        if depth > 0 && line < block_bytes && depth < last && serve == Serve::Simulate {
            return split_block::<CHIP, PASS>(
                levels,
                path_levels,
                (depth, no_allocate),
                block_start,
                block_bytes,
                t,
                held,
            );
        }
        level.requests += 1;
        let hit = match serve {
            Serve::Simulate if PASS && no_allocate >> depth & 1 != 0 => {
                finds_passing::<CHIP>(level, block_start, depth == last, held)
            }
            Serve::Simulate => {
                level.lookup_fill(block_start) || depth == last || CHIP && chip_holds(level, held)
            }
            Serve::AtDepth(d) => depth >= d.min(last),
        };
        if hit {
            return level.serve_bytes(li, depth, block_bytes, t);
        }
        // The next level fills this level's whole line.
        if line >= block_bytes {
            block_start = align_down(block_start, line);
            block_bytes = line;
        }
    }
    unreachable_served(path_levels[last])
}

/// `address` rounded down to a multiple of `line` (a power of two or not).
#[inline(always)]
fn align_down(address: u64, line: u32) -> u64 {
    let line = u64::from(line.max(1));
    if line.is_power_of_two() {
        address & !(line - 1)
    } else {
        address - address % line
    }
}

/// The loop above always returns at the last level (it always hits); this keeps the function
/// total without a panic.
fn unreachable_served(level: usize) -> Served {
    Served {
        level,
        depth: 0,
        latency: 0,
    }
}

#[cfg(test)]
mod tests;
