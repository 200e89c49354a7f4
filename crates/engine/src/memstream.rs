//! Address streams and the cache hierarchy as the cycle loop sees them.
//!
//! Compiling gives every vector memory op (buffer, global, flat, scratch, image) and every
//! scalar load a [`StreamSpec`]: the requests of one execution (the coalescer's lines, relative
//! to the op's base address) and how the base moves between waves and between executions by the
//! same wave (`[[memory]] wave_stride`, `iteration_stride`, `region`). At issue, the machine asks
//! [`MemorySystem::serve`] for the op's latency: each request walks the model's cache levels
//! (`shadersim_mem::Hierarchy`) and the op's data is back when its slowest request is. With the
//! hierarchy switched off (`--set memory=flat`, or a model without `[cache]`) there is no
//! `MemorySystem` and the units' flat latencies apply.

pub use crate::cache_paths::CachePath;
use crate::cache_paths::{hierarchy_shared, level_depth};
use crate::cache_report::{LevelReport, OpCacheStats};
use crate::error::SimError;
use shadersim_arch::ArchSpec;
use shadersim_mem::{Hierarchy, Serve};

/// How an op's requests are served.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamServe {
    /// By the simulated caches.
    Simulate,
    /// The first level serves this fraction of the requests, the second the rest
    /// (`[[memory]] hit_rate`), spread evenly (deterministic, no draw).
    HitRate(f64),
    /// This level (by name) serves every request (`[[memory]] level`).
    Level(String),
}

/// The address stream of one static memory op.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamSpec {
    /// The path its requests take.
    pub path: CachePath,
    /// The op's first address: its buffer's base (each buffer its own address range,
    /// `shadersim_trace::BufferMap`), plus a scalar load's immediate offset.
    pub base: u64,
    /// Byte offsets of one execution's requests from the op's base address.
    pub requests: Vec<u64>,
    /// Bytes per request.
    pub request_bytes: u32,
    /// Bytes from one execution's first request to past its last (the default wave stride of
    /// vector ops).
    pub footprint: u64,
    /// Bytes between consecutive waves' bases (`None`: the default of the path).
    pub wave_stride: Option<u64>,
    /// Bytes between workgroups one apart in x, y and z (`None`: a workgroup's waves continue
    /// the wave stride; all 0: every workgroup reads the same addresses).
    pub group_stride: Option<[i64; 3]>,
    /// Bytes past the base the op's address lies (the code's constant offset).
    pub offset: i64,
    /// Bytes between consecutive executions by one wave (`None`: the default of the path).
    pub iteration_stride: Option<u64>,
    /// The loop around the op's own: after every `.0` executions the address moves by `.1`
    /// bytes and the iteration stride starts again (`A[i * m + j]`: rows by `i`, columns by
    /// `j`).
    pub outer: Option<(u64, u64)>,
    /// Addresses wrap inside this many bytes.
    pub region: Option<u64>,
    /// `[[memory]] order = "random"`: the seed of the permutation the executions visit the
    /// region's `region / iteration_stride` elements in (`None`: in stride order).
    pub random_order_seed: Option<u64>,
    /// Simulated or overridden.
    pub serve: StreamServe,
    /// Image ops without address hints: the texels each wave reads follow a screen-space (or
    /// 2D compute) tile walk instead of `requests` moved by strides (`requests` then holds the
    /// first wave's lines).
    pub walk: Option<shadersim_mem::ImageFootprint>,
    /// Per-wave private memory (scratch): a wave's addresses follow its wave slot, which the
    /// slot's next wave reuses (the hardware gives each wave in flight its part of the scratch
    /// ring), not its place in the launch.
    pub private: bool,
    /// The depths of its path (bit `d`: depth `d`) whose level does not allocate the lines it
    /// misses: the model's `[[no_allocate]]` policies its instruction's modifiers select.
    pub no_allocate: u32,
}

/// A stream resolved for a run: strides known, the override turned into a depth.
///
/// What every execution reads comes first and fits one cache line (the struct is aligned to
/// one): an execution of a memory op touches its stream long after the last, so each line
/// it reads is likely a cache miss. The walk, the random order and the overrides, read only
/// by the ops that have them, are boxed or after it.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Stream {
    base: u64,
    wave_stride: u64,
    /// Bytes between workgroups one apart in x, y and z (two's complement: a negative factor
    /// wraps, as the address arithmetic does).
    group_stride: [u64; 3],
    iteration_stride: u64,
    requests: Box<[u64]>,
    /// The tile walk replacing `requests` and the strides (image ops without address hints).
    walk: Option<Box<StreamWalk>>,
    /// Random visit order over the region's elements (`order = "random"`).
    order: Option<Box<crate::visit_order::RandomOrder>>,
    request_bytes: u32,
    /// `StreamSpec::no_allocate`.
    no_allocate: u32,
    /// The path (`CachePath` as a number).
    path: u8,
    /// No hit-rate or level override and no region: the requests are simulated where the
    /// strides put them.
    simulated: bool,
    /// Addressed by wave slot (`StreamSpec::private`).
    private: bool,
    /// The address moves between executions by one wave (a tile walk, an iteration or outer
    /// stride): only then is the execution count kept (a scalar load reads the same address
    /// every time, and counting would cost its every execution a read and a write).
    counted: bool,
    /// The address moves between waves (a wave or workgroup stride): only then are the wave's
    /// group and place in it worked out (two divisions).
    by_wave: bool,
    region: Option<u64>,
    /// Executions per pass through the op's loop and the bytes the loop around moves the
    /// address after each pass (`StreamSpec::outer`); period 0: no loop around moves it.
    outer_period: u64,
    outer_stride: u64,
    /// `None`: simulate; `Some(rate)`: hit-rate override; level override as a depth.
    hit_rate: Option<f64>,
    depth: Option<usize>,
    /// Error-diffusion accumulator of the hit-rate override (a cell: the requests it serves
    /// one at a time are read from the stream while it is borrowed).
    owed: std::cell::Cell<f64>,
}

impl Stream {
    /// What the chip's re-use rule reads of the stream, whose buffer starts at `buffer`
    /// (`None`: its addresses do not follow its strides alone, or are not simulated).
    fn reuse_shape(&self, buffer: u64) -> Option<crate::chip_reuse::ReuseShape> {
        let plain = self.simulated && self.walk.is_none() && self.order.is_none();
        (plain && !self.private && self.region.is_none()).then_some(crate::chip_reuse::ReuseShape {
            base: self.base,
            buffer,
            group_stride: self.group_stride,
            lanes: (
                self.path,
                self.requests.clone(),
                self.request_bytes,
                self.wave_stride,
                self.iteration_stride,
                self.outer_period,
                self.outer_stride,
            ),
        })
    }

    /// Bytes the `k`-th execution by a wave moves past the wave's first (0 for a stream
    /// that does not count its executions).
    #[inline(always)]
    fn along(&self, k: u32) -> u64 {
        if !self.counted {
            return 0;
        }
        // Stride order visits k x stride; random order the k-th element of its permutation.
        let step = self
            .order
            .as_ref()
            .map_or(u64::from(k), |o| o.at(u64::from(k)));
        // A loop around the op's own moves the address after every pass through it.
        if self.outer_period == 0 || self.order.is_some() {
            step.wrapping_mul(self.iteration_stride)
        } else {
            (step / self.outer_period)
                .wrapping_mul(self.outer_stride)
                .wrapping_add((step % self.outer_period).wrapping_mul(self.iteration_stride))
        }
    }
}

/// A walked stream's tile walk (`Stream::walk`).
#[derive(Debug, Clone)]
struct StreamWalk {
    footprint: shadersim_mem::ImageFootprint,
    /// The first stream with the same walk (itself if none before it): streams of one class
    /// read the same lines in the same wave's same execution, so a wave's lines are computed
    /// once per class and execution (`MemorySystem::wave_lines`).
    class: u32,
    /// The walk's lanes per wave of a group, relative to the group's origin (filled as
    /// waves ask).
    lanes: shadersim_mem::WaveLanes,
}

/// The hierarchy and every op's stream during one run.
#[derive(Debug, Clone)]
pub struct MemorySystem {
    hierarchy: Hierarchy,
    streams: Vec<Stream>,
    /// Stream index of every static op (`u32::MAX`: none).
    stream_of_op: Vec<u32>,
    /// Executions so far of each stream by the wave in each wave slot: `slot * streams +
    /// stream` (slots, not launch ids: memory follows the resident waves, not the dispatch).
    executions: Vec<u32>,
    /// Extra clocks for requests the first level of their path does not serve.
    miss_extra: u32,
    /// Waves of the run (the tile walk's screen pass).
    total_waves: u64,
    /// Waves of a workgroup (1 outside compute): a wave's place in its group and its group.
    group_waves: u64,
    /// Workgroups per row and per plane of the grid (x, then x times y): the simulated CU's
    /// `n`-th workgroup is the grid's `n`-th in x-fastest order (without a launch, one row).
    group_grid: [u64; 2],
    /// Per static op.
    op_stats: Vec<OpCacheStats>,
    /// Per wave slot: the walk class and execution whose lines its wave last computed, and
    /// those lines (kept for the slot's next wave: `release_wave` only forgets the class).
    /// A shader's image ops usually share one walk (same filter, format and tile), so the
    /// wave's next image op of that class and execution takes them as they are instead of
    /// walking its tile again (the walk is a pure function of wave, execution and the run's
    /// wave count; other waves' ops in between do not change it).
    wave_lines: Vec<WaveLines>,
    /// Re-use across the chip's CUs at the shared levels (a launch's grid on one simulated CU).
    chip: Option<crate::chip_reuse::ChipReuse>,
}

/// The lines one wave's walked image op last read (`MemorySystem::wave_lines`).
#[derive(Debug, Clone, Default)]
struct WaveLines {
    /// Walk class (`u32::MAX`: none yet) and execution they are of.
    class: u32,
    execution: u32,
    lines: Vec<u64>,
}

/// The requests of one execution of a stream its strides do not place alone (a hit-rate or
/// level override, or a region its addresses wrap in), one at a time along `path` from clock
/// `now` (`miss_extra` added to those the first level does not serve): the slowest's clocks.
/// Out of line: few streams are of this kind.
#[inline(never)]
fn serve_each(
    hierarchy: &mut Hierarchy,
    s: &Stream,
    (start, offsets): (u64, &[u64]),
    (path, now, miss_extra): (usize, u64, u32),
    stats: &mut OpCacheStats,
) -> u64 {
    let start = s.region.map_or(start, |r| start % r);
    let mut worst = 0;
    for &off in offsets {
        let mut offset = start.wrapping_add(off);
        if let Some(r) = s.region {
            offset %= r;
        }
        let address = s.base.wrapping_add(offset);
        let serve = if let Some(rate) = s.hit_rate {
            // Error diffusion: exactly `rate` of the requests hit, spread evenly.
            let owed = s.owed.get() + rate;
            if owed >= 1.0 - 1e-9 {
                s.owed.set(owed - 1.0);
                Serve::AtDepth(0)
            } else {
                s.owed.set(owed);
                Serve::AtDepth(1)
            }
        } else if let Some(d) = s.depth {
            Serve::AtDepth(d)
        } else {
            Serve::Simulate
        };
        let first_level = if serve == Serve::Simulate && s.no_allocate != 0 {
            // Simulated where a region puts it, by an access some levels do not allocate.
            let block = (s.request_bytes, s.no_allocate);
            let l = hierarchy.access_lines_passing(path, address, &[0], block, now);
            (l.first_level == 1)
                .then_some(l.worst_first)
                .ok_or(l.worst_rest.unwrap_or(0))
        } else {
            let served = hierarchy.access(path, address, s.request_bytes, now, serve);
            (served.depth == 0)
                .then_some(served.latency)
                .ok_or(served.latency)
        };
        stats.requests += 1;
        let latency = match first_level {
            Ok(l) => {
                stats.first_level_hits += 1;
                u64::from(l)
            }
            Err(l) => u64::from(l) + u64::from(miss_extra),
        };
        worst = worst.max(latency);
    }
    worst
}

impl MemorySystem {
    /// The memory system of a run: `None` when the model's hierarchy is off. `streams[op]` is
    /// each static op's stream; `total_waves` sizes the default iteration stride (a grid-stride
    /// loop moves by every wave's footprint); `launch`, a launch's grid on the chip, lays the
    /// workgroups out and, on one simulated CU, lets the chip's other CUs serve re-use at the
    /// shared levels (`chip_reuse`).
    pub fn new(
        arch: &ArchSpec,
        streams: &[Option<StreamSpec>],
        total_waves: u32,
        group_waves: u32,
        cus: u32,
        chip_shares: f64,
        launch: Option<crate::chip_reuse::ChipLayout>,
    ) -> Result<Option<MemorySystem>, SimError> {
        let grid = launch.map(|l| l.grid);
        let (Some(hierarchy), Some(cache)) = (
            hierarchy_shared(arch, cus, chip_shares)?,
            arch.cache.as_ref(),
        ) else {
            return Ok(None);
        };
        let miss_extra = arch
            .get_u32(&cache.miss_extra_latency)
            .map_err(|e| SimError::Model(e.to_string()))?;
        let mut resolved = Vec::new();
        // Each resolved stream's buffer: its `StreamSpec::base`, before the op's offset.
        let mut buffers = Vec::new();
        let mut stream_of_op = Vec::with_capacity(streams.len());
        for s in streams {
            let Some(s) = s else {
                stream_of_op.push(u32::MAX);
                continue;
            };
            stream_of_op.push(resolved.len() as u32);
            // Vector ops stream by default (each wave its own data, each
            // iteration past every wave's); scalar loads read the same
            // constants in every wave and iteration.
            let (ws, is) = match s.path {
                CachePath::Vector | CachePath::Atomic => (
                    s.footprint,
                    s.footprint.saturating_mul(u64::from(total_waves.max(1))),
                ),
                CachePath::Scalar => (0, 0),
            };
            let (hit_rate, depth) = match &s.serve {
                StreamServe::Simulate => (None, None),
                StreamServe::HitRate(r) => (Some(*r), None),
                StreamServe::Level(name) => {
                    let d = level_depth(arch, s.path, name).map_err(|known| {
                        SimError::Model(format!(
                            "[[memory]] level `{name}` is not on this op's path ({})",
                            known.join(", ")
                        ))
                    })?;
                    (None, Some(d))
                }
            };
            let walk = s
                .walk
                .filter(|_| s.wave_stride.is_none() && s.iteration_stride.is_none());
            let walk_class = walk
                .and_then(|w| {
                    resolved
                        .iter()
                        .position(|r: &Stream| r.walk.as_ref().map(|x| x.footprint) == Some(w))
                })
                .unwrap_or(resolved.len()) as u32;
            let wave_stride = s.wave_stride.unwrap_or(ws);
            // Without strides from the code, each workgroup continues the stream where the one
            // before it in dispatch order (x fastest) ended: every wave its own data across the
            // whole grid, not only along its first row.
            let group_stride = s.group_stride.map_or_else(
                || {
                    let group = wave_stride.wrapping_mul(u64::from(group_waves.max(1)));
                    let [x, y, _] = grid.map_or([1, 1, 1], |g| g.map(|d| d.max(1)));
                    [
                        group,
                        group.wrapping_mul(x),
                        group.wrapping_mul(x).wrapping_mul(y),
                    ]
                },
                |g| g.map(|c| c as u64),
            );
            let iteration_stride = s.iteration_stride.unwrap_or(is);
            let outer_stride = s.outer.map_or(0, |o| o.1);
            buffers.push(s.base);
            resolved.push(Stream {
                path: s.path as u8,
                base: s.base.wrapping_add(s.offset as u64),
                requests: s.requests.clone().into_boxed_slice(),
                request_bytes: s.request_bytes,
                wave_stride,
                group_stride,
                iteration_stride,
                simulated: hit_rate.is_none() && depth.is_none() && s.region.is_none(),
                // With no stride along executions, the k-th execution's `along` is 0 for
                // every k (random order too: its element times a stride of 0).
                counted: walk.is_some() || iteration_stride != 0 || outer_stride != 0,
                by_wave: wave_stride != 0 || group_stride != [0; 3],
                private: s.private,
                no_allocate: s.no_allocate,
                region: s.region,
                outer_period: s.outer.map_or(0, |o| o.0),
                outer_stride,
                order: s.random_order_seed.map(|seed| {
                    let elements = s.region.unwrap_or(0) / s.iteration_stride.unwrap_or(1).max(1);
                    Box::new(crate::visit_order::RandomOrder::new(elements, seed))
                }),
                hit_rate,
                depth,
                owed: std::cell::Cell::new(0.0),
                // A stride hint replaces the walk: the first wave's lines move by the strides.
                walk: walk.map(|footprint| {
                    Box::new(StreamWalk {
                        footprint,
                        class: walk_class,
                        lanes: shadersim_mem::WaveLanes::default(),
                    })
                }),
            });
        }
        let chip = launch.filter(|_| cus == 1).map(|layout| {
            let shapes: Vec<_> = resolved
                .iter()
                .zip(&buffers)
                .map(|(s, &b)| s.reuse_shape(b))
                .collect();
            let lines = hierarchy
                .configs()
                .map(|c| c.capacity_bytes.map_or(0, |b| b / u64::from(c.line_bytes)))
                .collect();
            crate::chip_reuse::ChipReuse::new(layout, &shapes, lines)
        });
        Ok(Some(MemorySystem {
            chip,
            hierarchy,
            streams: resolved,
            op_stats: vec![OpCacheStats::default(); streams.len()],
            wave_lines: Vec::new(),
            stream_of_op,
            executions: Vec::new(),
            miss_extra,
            total_waves: u64::from(total_waves.max(1)),
            group_waves: u64::from(group_waves.max(1)),
            group_grid: grid.map_or([u64::MAX, u64::MAX], |g| {
                [g[0].max(1), g[0].max(1).saturating_mul(g[1].max(1))]
            }),
        }))
    }

    /// Serve one execution of static op `op` by wave `wave` (launch order: its addresses),
    /// which runs in wave slot `slot` (its per-wave state) on compute unit `cu` (its private
    /// cache levels), whose requests leave at clock `now`: the clocks until its data is back,
    /// or `None` if the op has no stream (its unit's latency applies).
    #[inline]
    pub fn serve(
        &mut self,
        op: usize,
        wave: usize,
        slot: usize,
        cu: usize,
        now: u64,
    ) -> Option<u64> {
        let si = *self.stream_of_op.get(op)?;
        if si == u32::MAX {
            return None;
        }
        Some(self.serve_stream(op, si as usize, wave, slot, cu, now))
    }

    fn serve_stream(
        &mut self,
        op: usize,
        si: usize,
        wave: usize,
        slot: usize,
        cu: usize,
        now: u64,
    ) -> u64 {
        let k = if self.streams[si].counted {
            let n = self.streams.len();
            let at = slot * n + si;
            if self.executions.len() <= at {
                self.executions.resize((slot + 1) * n, 0);
            }
            let k = self.executions[at];
            self.executions[at] = k.wrapping_add(1);
            k
        } else {
            // Not read: the address does not move between executions.
            0
        };
        let s = &mut self.streams[si];
        let (start, offsets): (u64, &[u64]) = if let Some(w) = s.walk.as_deref_mut() {
            // A walked image op's lines are its wave's list, computed unless the wave's
            // last walked op of the same class and execution left them there; they are
            // already its tile's offsets.
            if self.wave_lines.len() <= slot {
                self.wave_lines.resize(
                    slot + 1,
                    WaveLines {
                        class: u32::MAX,
                        ..Default::default()
                    },
                );
            }
            let walked = &mut self.wave_lines[slot];
            if walked.class != w.class || walked.execution != k {
                w.footprint.lines_into_cached(
                    &mut w.lanes,
                    wave as u64,
                    u64::from(k),
                    self.total_waves,
                    &mut walked.lines,
                );
                walked.class = w.class;
                walked.execution = k;
            }
            (0, &walked.lines)
        } else {
            // Offsets inside the op's buffer (a `region` wraps them), then the buffer's base.
            let by_wave = if s.by_wave {
                // Private memory is the wave slot's: one group of slots, no workgroups across.
                let (group, in_group) = if s.private {
                    (0, slot as u64)
                } else {
                    (
                        wave as u64 / self.group_waves,
                        wave as u64 % self.group_waves,
                    )
                };
                // Without a launch's grid the workgroups form one row: no division on this
                // path.
                let [row, plane] = self.group_grid;
                let across = if row == u64::MAX {
                    group.wrapping_mul(s.group_stride[0])
                } else {
                    (group % row)
                        .wrapping_mul(s.group_stride[0])
                        .wrapping_add((group % plane / row).wrapping_mul(s.group_stride[1]))
                        .wrapping_add((group / plane).wrapping_mul(s.group_stride[2]))
                };
                in_group.wrapping_mul(s.wave_stride).wrapping_add(across)
            } else {
                0
            };
            let start = by_wave.wrapping_add(s.along(k));
            (start, &s.requests)
        };
        let stats = &mut self.op_stats[op];
        stats.executions += 1;
        let path = self.hierarchy.path_of(cu, usize::from(s.path));
        let worst = if s.simulated {
            // Simulated requests at base + start + offset (no region wraps them): the
            // hierarchy walks them in one call, as `serve_each` would one by one.
            let at = s.base.wrapping_add(start);
            let block = (s.request_bytes, s.no_allocate);
            let served = match &mut self.chip {
                None if block.1 == 0 => {
                    self.hierarchy.access_lines(path, at, offsets, block.0, now)
                }
                None => self
                    .hierarchy
                    .access_lines_passing(path, at, offsets, block, now),
                Some(chip) => {
                    let lines = (path, at, offsets, block, now);
                    let group = wave as u64 / self.group_waves;
                    crate::chip_reuse::chip_lines(&mut self.hierarchy, chip, si, group, lines)
                }
            };
            stats.requests += offsets.len() as u64;
            stats.first_level_hits += served.first_level;
            u64::from(served.worst_first).max(
                served
                    .worst_rest
                    .map_or(0, |w| u64::from(w) + u64::from(self.miss_extra)),
            )
        } else {
            let at = (path, now, self.miss_extra);
            serve_each(&mut self.hierarchy, s, (start, offsets), at, stats)
        };
        stats.latency_sum += worst;
        worst
    }

    /// The wave in wave slot `slot` retired: the slot's next wave starts with no executions
    /// and no walked lines (their list's memory stays with the slot).
    pub fn release_wave(&mut self, slot: usize) {
        let n = self.streams.len();
        if let Some(counts) = self.executions.get_mut(slot * n..(slot + 1) * n) {
            counts.fill(0);
        }
        if let Some(w) = self.wave_lines.get_mut(slot) {
            w.class = u32::MAX;
        }
    }

    /// Counts per level (model order) and per static op, for the statistics.
    pub fn report(&self) -> (Vec<LevelReport>, Vec<OpCacheStats>) {
        let levels = self
            .hierarchy
            .configs()
            .zip(self.hierarchy.stats())
            .enumerate()
            .map(|(i, (c, s))| LevelReport {
                name: c.name.clone(),
                requests: s.requests,
                hits: s.hits,
                chip_hits: self.chip.as_ref().map_or(0, |r| r.served[i]),
                bytes: s.bytes,
                latency: c.latency,
                bytes_per_clock: c.bytes_per_clock,
                queue_clocks: s.queue_clocks,
            })
            .collect();
        (levels, self.op_stats.clone())
    }
}

/// What the report says about the memory model when the user chose it or
/// changed its flat latency: flat mode is named in every report it affects,
/// and a flat latency set while the cache hierarchy serves the requests says
/// what it still changes (the ops the caches do not serve: BVH intersections
/// and others without an address stream keep their unit's latency).
pub fn memory_model_notes(arch: &ArchSpec) -> Vec<String> {
    let Some(cache) = &arch.cache else {
        return Vec::new();
    };
    let flat = &cache.flat_latency;
    let value = arch.param(flat).unwrap_or(0.0);
    if !cache.enabled {
        return vec![format!(
            "memory: flat (memory=flat): the cache hierarchy is off; every vector memory request takes {flat} = {value} clocks and every scalar load its unit's latency, seed 004's model"
        )];
    }
    let user_set = arch
        .params
        .get(flat)
        .is_some_and(|p| p.source.starts_with("--set") || p.source.starts_with("model file"));
    if user_set {
        return vec![format!(
            "{flat} = {value} applies only to memory ops the cache hierarchy does not serve (BVH intersections and others without an address stream); the hierarchy's level latencies serve the rest; --set memory=flat for one latency for every request"
        )];
    }
    Vec::new()
}

/// Check the `[[memory]] level` hints against the model's paths (an unknown level is an error
/// at the hint's position); notes for cache hints the run will not use (the hierarchy is off).
pub fn check_hints(
    program: &shadersim_asm::Program,
    memory: &std::collections::HashMap<usize, shadersim_trace::MemoryFacts>,
    arch: &ArchSpec,
) -> Result<Vec<String>, shadersim_trace::HintsError> {
    let enabled = arch.cache.as_ref().is_some_and(|c| c.enabled);
    let mut notes = Vec::new();
    let mut indices: Vec<&usize> = memory.keys().collect();
    indices.sort();
    for &i in indices {
        let f = &memory[&i];
        let line = program.instructions[i].pos.line;
        if !enabled && (f.level.is_some() || f.hit_rate.is_some()) {
            let note = format!(
                "line {line}: `hit_rate`/`level` have no effect: the cache hierarchy is off (flat latency)"
            );
            if !notes.contains(&note) {
                notes.push(note);
            }
            continue;
        }
        if let Some((name, span)) = &f.level {
            let path = CachePath::of(&program.instructions[i].inst);
            level_depth(arch, path, name).map_err(|known| {
                shadersim_trace::HintsError::at(
                    span.clone(),
                    format!(
                        "no cache level `{name}` on this op's path in `{}`; levels: {}",
                        arch.name,
                        known.join(", ")
                    ),
                )
            })?;
        }
    }
    Ok(notes)
}
