//! The parts of an analyze report (serialized as the JSON of `docs/cli.md`).

use super::numbers::{pct, significant};
use serde::Serialize;

/// One CU of several simulated side by side.
#[derive(Debug, Clone, Serialize)]
pub struct CuView {
    /// CU number (the order waves are dealt in).
    pub cu: u32,
    /// Waves that ran to the end on it.
    pub waves: u32,
    /// Its threads per clock.
    pub throughput_per_clock: f64,
    /// Fraction of clocks its own units were busy (the shared export path
    /// is in the total `utilization`).
    pub utilization: CuUtilization,
}

/// A CU's own units' utilization (0..1).
#[derive(Debug, Clone, Serialize)]
pub struct CuUtilization {
    /// Vector ALU (averaged over its SIMDs).
    pub valu: f64,
    /// Scalar ALU.
    pub salu: f64,
    /// Vector memory.
    pub vmem: f64,
    /// LDS.
    pub lds: f64,
}

/// The end-of-program drain.
#[derive(Debug, Clone, Serialize)]
pub struct EndDrainView {
    /// Fraction of (non-starved) clocks in which a wave sat at the end of
    /// the program waiting for outstanding work.
    pub stall_rate: f64,
    /// The part of it in which its SIMD could issue nothing at all.
    pub exposed_rate: f64,
    /// Fraction of the waves' lifetimes (launch to end, summed over the
    /// waves) they spent at the end of the program waiting: the drain's
    /// share of a wave's time, where `stall_rate` counts the clocks in
    /// which at least one wave of all those resident waited.
    pub wave_share: f64,
    /// The program has no `s_endpgm` on its path (an LLVM graphics
    /// function returning to its epilog): the drain is implicit.
    pub implicit: bool,
}

/// The defaults a run took, by source line (JSON `defaults`).
#[derive(Debug, Clone, Serialize)]
pub struct DefaultsView {
    /// Header lines of loops that ran once per entry by default.
    pub loops_once: Vec<u32>,
    /// Of those, the loops whose exit test reads kernel arguments the launch did not give
    /// (`--arg NAME=VALUE` would fix their count).
    pub loop_arguments: Vec<LoopArgumentsView>,
    /// Loops no hint named whose trip count was inferred from their code
    /// and run in full (a constant counter, step and bound).
    pub loops_inferred: Vec<InferredLoopView>,
    /// Lines of if/else and skip branches left at their default (not taken).
    pub branches_not_taken: Vec<u32>,
    /// Image ops whose texel footprint or filter was taken by default, in program order.
    pub images: Vec<ImageDefaultView>,
    /// How buffers were placed: lines whose buffer is unknown (sharing the default buffer 0)
    /// and the bases' spacing and stagger.
    pub buffers: BufferDefaultsView,
    /// Global, flat and buffer ops: where each one's lane pattern and strides came from (the
    /// code's address arithmetic, a hint, or the default), in program order.
    pub addresses: Vec<AddressDefaultView>,
    /// The same as sentences, as the text report prints them.
    pub text: Vec<String>,
}

/// What one image op took by default (JSON `defaults.images[]`).
#[derive(Debug, Clone, Serialize)]
pub struct ImageDefaultView {
    /// The op's line.
    pub line: u32,
    /// The op in words (`sample`, `sample at an explicit LOD`, `gather4`, `load`, ...).
    pub op: String,
    /// `screen-space` (pixel shaders) or `2d`.
    pub layout: Option<String>,
    /// Whether waves walk the screen's tiles (false: a stride hint moves the first wave's).
    pub walked: bool,
    /// The tile one wave covers, `[width, height]` in pixels or threads.
    pub tile: Option<[u32; 2]>,
    /// How the tile was found.
    pub tile_basis: String,
    /// Texels per pixel (thread) along x at the sampled mip.
    pub texels_per_pixel: u32,
    /// Cache lines one execution with every lane active reads or writes (mean over the first
    /// 64 waves' tiles, rounded).
    pub requests: u32,
    /// The texel format used.
    pub format: String,
    /// The filter whose footprint is read.
    pub filter: String,
    /// Why the run chose that filter; null when a `[[memory]] filter` gave it.
    pub filter_reason: Option<String>,
}

/// Where one global, flat or buffer op's address stream came from (JSON
/// `defaults.addresses[]`).
#[derive(Debug, Clone, Serialize)]
pub struct AddressDefaultView {
    /// The op's line.
    pub line: u32,
    /// The lane pattern used.
    pub pattern: String,
    /// `code`, `hint` or `default`.
    pub pattern_from: String,
    /// Why (the address in words, or why the code gave no pattern); empty for a hint.
    pub pattern_reason: String,
    /// Bytes between consecutive waves; null for the default (the op's footprint).
    pub wave_stride: Option<u64>,
    /// `code`, `hint` or `default`.
    pub wave_stride_from: String,
    /// Why; empty for a hint.
    pub wave_stride_reason: String,
    /// Bytes between executions by one wave; null for the default (footprint x waves) or an
    /// op in no loop.
    pub iteration_stride: Option<u64>,
    /// `code`, `hint` or `default`; null when the op is in no loop and no hint gave one.
    pub iteration_stride_from: Option<String>,
    /// Why; empty for a hint or an op in no loop.
    pub iteration_stride_reason: String,
    /// Bytes past the base the addresses wrap in (a masked index, or a `region` hint); left out
    /// when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<u64>,
    /// `code` or `hint`; left out with `region`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_from: Option<String>,
    /// Why; left out with `region`, empty for a hint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_reason: Option<String>,
}

/// How the run placed buffers (JSON `defaults.buffers`).
#[derive(Debug, Clone, Serialize)]
pub struct BufferDefaultsView {
    /// Lines of memory ops whose root the program does not show: they share buffer 0 at
    /// address 0.
    pub default_lines: Vec<u32>,
    /// Bytes between consecutive buffers' default bases (2^40).
    pub spacing: u64,
    /// Extra bytes per buffer number on top of the spacing (a few of the model's largest
    /// cache lines, so equal indices in different buffers fall in different sets).
    pub stagger: u64,
}

/// One inferred loop count (JSON `defaults.loops_inferred[]`).
#[derive(Debug, Clone, Serialize)]
pub struct InferredLoopView {
    /// The loop's header line.
    pub line: u32,
    /// Header executions per entry.
    pub iterations: u64,
    /// How it was found: the exit compare and the counter.
    pub reason: String,
}

/// A loop that ran once by default whose exit test reads kernel arguments (JSON
/// `defaults.loop_arguments[]`).
#[derive(Debug, Clone, Serialize)]
pub struct LoopArgumentsView {
    /// The loop's header line.
    pub line: u32,
    /// The arguments' source names, in argument order.
    pub arguments: Vec<String>,
}

/// Throughput figures.
#[derive(Debug, Clone, Serialize)]
pub struct Throughput {
    /// Threads per clock per CU.
    pub per_clock: f64,
    /// `pixels`, `vertices` or `threads`.
    pub unit: String,
    /// Threads per second per CU at the model's clock.
    pub per_second_per_cu: f64,
    /// Threads per second for the whole GPU (`gpu_cus` CUs).
    pub per_second_gpu: f64,
    /// The clock used, MHz.
    pub clock_mhz: f64,
    /// CUs of the GPU.
    pub gpu_cus: f64,
}

/// Threads per clock per CU for the text line: `per_clock` is rounded to
/// 1e-6 for JSON, which can leave nothing of a slow program's figure, so
/// take it back from the per-second figure when there is one.
pub fn per_clock_unrounded(t: &Throughput) -> f64 {
    if t.clock_mhz > 0.0 && t.per_second_per_cu.is_finite() && t.per_second_per_cu > 0.0 {
        t.per_second_per_cu / (t.clock_mhz * 1e6)
    } else {
        t.per_clock
    }
}

/// Utilization of each unit (0..1).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Utilization {
    /// Vector ALU (averaged over SIMDs).
    pub valu: f64,
    /// Scalar ALU.
    pub salu: f64,
    /// Scalar memory.
    pub smem: f64,
    /// Vector memory (texture path).
    pub vmem: f64,
    /// LDS (averaged over queues).
    pub lds: f64,
    /// Export path.
    pub export: f64,
    /// GDS.
    pub gds: f64,
    /// Ray accelerator (models that have one).
    pub ray: f64,
    /// Transcendental unit (models that have one, averaged over SIMDs).
    pub trans: f64,
    /// Matrix cores (CDNA models' `matrix` unit, one per SIMD, averaged over SIMDs).
    pub matrix: f64,
}

/// Matrix instructions (MFMA/SMFMAC on CDNA's matrix cores, WMMA/SWMMAC on RDNA 3/4), charged by
/// the matrix table's cycles (AMD's matrix instruction calculator).
#[derive(Debug, Clone, Serialize)]
pub struct MatrixView {
    /// Matrix instructions a wave executes, on average.
    pub instructions_per_wave: f64,
    /// Clocks a wave's matrix instructions hold their pipe, on average.
    pub busy_clocks_per_wave: f64,
    /// Busy clocks of the matrix pipes (one per SIMD) over run clocks x CUs x SIMDs.
    pub utilization: f64,
    /// Operations (2 x M x N x K x blocks per instruction) per wave.
    pub flops_per_wave: f64,
    /// Operations per clock per CU achieved.
    pub flops_per_clock_per_cu: f64,
    /// Operations per clock per CU with every matrix pipe busy every clock on this mix.
    pub peak_flops_per_clock_per_cu: f64,
    /// Achieved operations per second per CU at the model's clock.
    pub flops_per_second_per_cu: f64,
    /// Peak operations per second per CU at the model's clock, on this mix.
    pub peak_flops_per_second_per_cu: f64,
    /// Achieved over peak.
    pub fraction_of_peak: f64,
}

/// Occupancy as reported.
#[derive(Debug, Clone, Serialize)]
pub struct OccupancyView {
    /// Waves per SIMD.
    pub waves_per_simd: u32,
    /// `vgpr`, `sgpr`, `lds`, `slots` or `hints`.
    pub limiter: String,
    /// VGPRs allocated per wave.
    pub vgprs: u32,
    /// SGPRs allocated per wave.
    pub sgprs: u32,
    /// LDS bytes allocated per workgroup.
    pub lds_bytes: u32,
    /// Waves per SIMD each resource allows: slots, vgpr, sgpr, lds.
    pub limits: [u32; 5],
    /// Most waves resident on the CU at once.
    pub peak_waves: u32,
    /// The compiler's or driver's own occupancy figure (RADV's "Subgroups
    /// per SIMD", a `; Occupancy:` comment), when the input carries one.
    pub declared_waves_per_simd: Option<u32>,
    /// shadersim's occupancy stated as RADV states it (wave32-sized waves
    /// on RDNA), to compare with `declared_waves_per_simd`.
    pub radv_convention_waves_per_simd: u32,
    /// Who gave `declared_waves_per_simd`: `radv` (its statistics, in its
    /// convention) or `compiler` (a listing's occupancy comment, in
    /// hardware waves); `null` with no figure.
    pub declared_by: Option<String>,
}

/// A name and a count.
#[derive(Debug, Clone, Serialize)]
pub struct NamedCount {
    /// Name.
    pub name: String,
    /// Count.
    pub count: u64,
}

/// The bottleneck statement and the per-resource bounds.
#[derive(Debug, Clone, Serialize)]
pub struct BottleneckView {
    /// Kind: VALU, VMEM rate, export, dispatch starvation, memory latency, occupancy.
    pub kind: String,
    /// One line with the numbers.
    pub statement: String,
    /// Simulated CU clocks per wave.
    pub clocks_per_wave: f64,
    /// Every resource's demand in CU clocks per wave, largest first.
    pub bounds: Vec<BoundView>,
}

/// One resource bound.
#[derive(Debug, Clone, Serialize)]
pub struct BoundView {
    /// Resource.
    pub resource: String,
    /// CU clocks per wave it alone needs.
    pub clocks_per_wave: f64,
    /// The part of `clocks_per_wave` charged at costs whose parameter's
    /// source is an assumption: what `compare` weighs before letting such a
    /// cost block a verdict.
    pub assumed_clocks_per_wave: f64,
    /// How.
    pub detail: String,
}

/// The cache levels of a run, in the model's order (serialized as a JSON
/// object whose keys keep that order).
#[derive(Debug, Clone)]
pub struct CacheView(pub Vec<(String, LevelView)>);

impl Serialize for CacheView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One cache level over the run.
#[derive(Debug, Clone, Serialize)]
pub struct LevelView {
    /// Requests that reached it.
    pub requests: u64,
    /// Requests it served.
    pub hits: u64,
    /// Of those, requests the simulated CU's own view of a shared level missed and the
    /// level served because another CU's workgroup had read the line (a launch's grid).
    pub chip_hits: u64,
    /// `hits / requests`.
    pub hit_rate: f64,
    /// Bytes it delivered.
    pub bytes: u64,
    /// Its hit latency (clocks).
    pub latency: u32,
    /// Its bandwidth per CU (bytes per clock), when the model gives one.
    pub bytes_per_clock: Option<f64>,
    /// Fraction of that bandwidth used over the run.
    pub bandwidth_utilization: Option<f64>,
}

/// The latency-tolerance search result.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyView {
    /// Largest VMEM latency within 5% of the zero-latency throughput
    /// (`null` when at least `searched_up_to`).
    pub clocks: Option<u64>,
    /// The smallest latency the search found failing (`null`: none did):
    /// `clocks` is known to `fails_at - clocks`.
    pub fails_at: Option<u64>,
    /// Search limit.
    pub searched_up_to: u64,
    /// The model's VMEM latency.
    pub model_latency: u64,
    /// Throughput with no latency.
    pub zero_latency_throughput: f64,
    /// Simulations the search ran.
    pub runs: u32,
    /// The parameter varied: `vmem_latency` (flat latency) or the extra
    /// latency of every first-level cache miss (`cache_miss_extra_latency`).
    pub parameter: String,
    /// Every probe of the search, by latency: `[vmem_latency, throughput
    /// per clock]`.
    pub curve: Vec<(u64, f64)>,
    /// The bracket width asked for, relative to `clocks`.
    pub precision: f64,
    /// The search's work budget in runs, the zero-latency base included
    /// when it is not the main run (`null`: none, `--latency-precision`).
    pub budget_runs: Option<f64>,
    /// The work the search spent, in runs (its probes, and the
    /// zero-latency base when it is not the main run).
    pub work_runs: f64,
    /// Whether the bracket reached `precision` (or the throughput rule, or
    /// the search limit) before the budget ran out.
    pub precision_reached: bool,
    /// Why the search stopped: `precision`, `line` (the passing end loses 4
    /// to 5%), `budget` or `limit`.
    pub stopped_by: String,
    /// The estimate from the main run's statistics the first probe was
    /// placed from (`null`: none).
    pub estimate: Option<u64>,
}

impl LatencyView {
    /// The latencies the text report's line starts with: `C to F-1` for a
    /// bracket (a simulation passed at C and failed at F, so the shader hides
    /// at most F - 1), `C` when F is C + 1, `at least C` when no failing
    /// latency was reached (`None`: the search limit passed).
    pub fn bracket_range(&self) -> Option<String> {
        let c = self.clocks?;
        Some(match self.fails_at {
            Some(f) if f > c + 1 => format!("{c} to {}", f - 1),
            Some(_) => c.to_string(),
            None => format!("at least {c}"),
        })
    }

    /// What the program hides, in words a new user reads right (issue 47
    /// item 7: "absorbs 0 but not 85" read as "absorbs none"): `hides at
    /// least C and at most F-1`, `hides exactly C`, or `hides at least C`,
    /// to be followed by the clocks' unit.
    pub fn hides(&self) -> Option<String> {
        let c = self.clocks?;
        Some(match self.fails_at {
            Some(f) if f > c + 1 => format!("hides at least {c} and at most {}", f - 1),
            Some(_) => format!("hides exactly {c}"),
            None => format!("hides at least {c}"),
        })
    }

    /// The bracket's failing end in words (`a simulation at F fell below;
    /// the search tried nothing between`, or that no latency the budget
    /// reached failed), and whether the precision asked for was reached,
    /// for the text report's line after what the passing end loses.
    pub fn bracket_words(&self) -> String {
        let ends = match (self.clocks, self.fails_at) {
            // Say that the answer is a bracket: the lower end passed, the
            // upper failed, and nothing between was tried.
            (Some(c), Some(f)) if f > c + 1 => {
                format!(
                    "a simulation at {f} fell below; the search tried nothing between {c} and {f}"
                )
            }
            (Some(_), Some(f)) => format!("a simulation at {f} fell below"),
            (Some(_), None) => "none of the budget's probes fell below".into(),
            (None, _) => return String::new(),
        };
        let budget = match self.budget_runs {
            Some(b) if !self.precision_reached => format!(
                "; the budget of {} runs ran out before a {}% bracket",
                fmt_runs(b),
                fmt_runs(100.0 * self.precision)
            ),
            _ => String::new(),
        };
        format!("{ends}{budget}; ")
    }
}

/// A count of runs with up to three decimals, without trailing zeros.
fn fmt_runs(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One static instruction in the listing.
#[derive(Debug, Clone, Serialize)]
pub struct InstructionView {
    /// Index in the program (or the fetch shader).
    pub index: usize,
    /// Source line (0 for synthesized instructions).
    pub line: u32,
    /// Text.
    pub text: String,
    /// Execution class.
    pub class: String,
    /// Executions per wave.
    pub executions: u64,
    /// Fraction of (non-starved) clocks in which a wave sat on it unable to
    /// issue, whether or not other waves issued meanwhile (seed 004).
    pub stall_rate: f64,
    /// The part of `stall_rate` in which its SIMD could issue nothing at all
    /// (exposed); the rest other waves hid.
    pub exposed_rate: f64,
    /// Why waves sat on it: each cause's share of the wave-clocks waves
    /// spent sitting on it (summed over the waves), largest first; the
    /// cause names are `shadersim_engine::StallCause::name`'s. Empty when
    /// no wave sat on it.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "serialize_reasons"
    )]
    pub stall_reasons: Vec<(String, f64)>,
    /// Clocks the op holds its unit (0 for free ops).
    pub cost_clocks: u32,
    /// Why that cost.
    pub cost_basis: String,
    /// L2 requests per execution (vector memory ops).
    pub l2_requests: Option<u32>,
    /// Lane pattern (buffer-like ops).
    pub pattern: Option<String>,
    /// Is it a wait on counters?
    pub wait: bool,
    /// Is it the end of the program (`s_endpgm`)? Its stall is the
    /// end-of-program drain, not a wait the program wrote.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub drain: bool,
    /// Mean active lanes per execution (lane divergence hints only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_lanes: Option<f64>,
    /// Live VGPRs while it issues (registers of the wave's width), from a
    /// liveness analysis of the program (shadersim-liveness).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live_vgprs: Option<u32>,
    /// Live SGPRs while it issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live_sgprs: Option<u32>,
    /// Dynamic VGPR mode, `s_alloc_vgpr`: issue turns in which a wave was
    /// denied the allocation (it spun on the retry loop).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_waits: Option<u64>,
    /// Memory ops with a cache stream: the fraction of its requests the first
    /// level of its path served.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_level_hit_rate: Option<f64>,
    /// Memory ops with a cache stream: mean clocks from service to data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_latency: Option<f64>,
    /// Memory ops: the cache levels the model's access policy keeps its lines out of (gfx11's
    /// `dlc`: the Infinity Cache), each `{level, flag}`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_allocated_in: Vec<NotAllocatedView>,
    /// LDS ops: the mean bank-conflict degree of its lanes (1 = none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lds_conflict_degree: Option<f64>,
    /// Vector memory ops and scalar loads: the buffer (address range) the op was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferView>,
}

/// Stall reasons as a JSON object (cause -> share), in their order.
fn serialize_reasons<S: serde::Serializer>(
    reasons: &[(String, f64)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(reasons.len()))?;
    for (k, v) in reasons {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

impl InstructionView {
    /// The main reason waves sat on it and its share, if any.
    pub fn main_stall_reason(&self) -> Option<(&str, f64)> {
        self.stall_reasons.first().map(|(k, v)| (k.as_str(), *v))
    }
}

/// A cache level an access policy keeps an op's lines out of (JSON
/// `instructions[].not_allocated_in`).
#[derive(Debug, Clone, Serialize)]
pub struct NotAllocatedView {
    /// The cache level (`mall`).
    pub level: String,
    /// The instruction modifier that selects the policy (`dlc`).
    pub flag: String,
}

/// The buffer a memory op was given (JSON `instructions[].buffer`).
#[derive(Debug, Clone, Serialize)]
pub struct BufferView {
    /// Its number (0: the default buffer of ops whose root is unknown).
    pub id: u32,
    /// The `[[memory]] buffer` name, when a hint named it.
    pub name: Option<String>,
    /// The buffer's first byte address.
    pub base: u64,
    /// `program` (found from the op's address registers), `hint` or `default`.
    pub found: String,
    /// Where it comes from, in words (`loaded at line 13 from s8 at entry + 0x8`).
    pub origin: String,
}

impl InstructionView {
    /// The cache or LDS figures of the op, in words (empty for others).
    pub fn memory_note(&self) -> String {
        let mut parts = Vec::new();
        if let (Some(h), Some(l)) = (self.first_level_hit_rate, self.mean_latency) {
            parts.push(format!(
                "first-level hits {}, mean latency {} clocks",
                pct(h),
                super::numbers::clocks(l)
            ));
        }
        for n in &self.not_allocated_in {
            parts.push(format!("not allocated in {} (`{}`)", n.level, n.flag));
        }
        if let Some(d) = self.lds_conflict_degree {
            if d > 1.0 {
                parts.push(format!("{}-way LDS bank conflicts", significant(d)));
            }
        }
        if let Some(b) = &self.buffer {
            let name = b.name.as_ref().map_or(String::new(), |n| format!(" `{n}`"));
            parts.push(format!("buffer {}{name} ({})", b.id, b.origin));
        }
        parts.join("; ")
    }
}

/// Waves that ran one distinct path (hints that name waves, per-wave loop
/// counts).
#[derive(Debug, Clone, Serialize)]
pub struct PathView {
    /// Waves that ran it.
    pub waves: u64,
    /// The first of them (launch order).
    pub first_wave: u32,
    /// Dynamic instructions per wave.
    pub instructions: usize,
    /// Mean clocks from launch to end of its waves.
    pub wave_clocks: f64,
}

/// Dynamic VGPR mode as run.
#[derive(Debug, Clone, Serialize)]
pub struct DynamicVgprView {
    /// VGPRs per block.
    pub block: u32,
    /// Slots enabled per SIMD.
    pub slots: u32,
    /// Deadlock-avoidance mode.
    pub deadlock_avoidance: bool,
    /// Blocks in each SIMD's shared pool.
    pub pool_blocks: u32,
    /// Blocks in reserve.
    pub reserve_blocks: u32,
    /// Most blocks in use on one SIMD at once.
    pub peak_blocks: u32,
    /// The same in VGPRs (wave32 registers).
    pub peak_vgprs: u32,
}
