//! `shadersim analyze`: the report of one simulation, as text, JSON or HTML.

use serde::Serialize;
use shadersim_asm::Stage;
use shadersim_engine::{Analysis, Simulation};
use shadersim_engine::{OpKind, OpSource};
use std::fmt::Write;

/// The report, ready to render. Field names are the JSON keys of
/// `docs/cli.md` (plus more).
#[derive(Debug, Clone, Serialize)]
pub struct AnalyzeReport {
    /// Input file.
    pub file: String,
    /// Program name.
    pub program: String,
    /// Model name.
    pub arch: String,
    /// ISA the file was read as.
    pub isa: String,
    /// `pixel`, `vertex` or `compute`.
    pub stage: String,
    /// Lanes per wave (32 or 64).
    pub wave_size: u32,
    /// Waves simulated.
    pub waves: u32,
    /// Workgroups simulated (compute).
    pub workgroups: u32,
    /// Total simulated clocks.
    pub clocks: u64,
    /// Mean clocks from a wave's launch to its end.
    pub wave_clocks: f64,
    /// Throughput.
    pub throughput: Throughput,
    /// Fraction of clocks each unit was busy.
    pub utilization: Utilization,
    /// Fraction of clocks with no wave resident.
    pub starve_rate: f64,
    /// Fraction of issue turns with waves resident where nothing could issue.
    pub stall_rate: f64,
    /// SIMD lane utilization: active lanes x VALU clocks over lanes x VALU
    /// clocks (1 when lanes never diverge).
    pub lane_utilization: f64,
    /// The end-of-program drain: waves that reached the end waiting for
    /// their outstanding memory ops and exports.
    pub end_drain: EndDrainView,
    /// Compute units simulated side by side (`[dispatch] cus`).
    pub cus: u32,
    /// Threads per clock of all the CUs simulated together.
    pub throughput_all_cus: f64,
    /// One entry per CU when several were simulated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_cu: Vec<CuView>,
    /// Occupancy.
    pub occupancy: OccupancyView,
    /// Ops issued per category.
    pub issued: Vec<NamedCount>,
    /// Free ops executed (waits, nops, barriers).
    pub free_ops: u64,
    /// L2 requests per wave (64-byte lines).
    pub l2_requests_per_wave: u64,
    /// Bytes per wave at L2 (requests x line size).
    pub l2_bytes_per_wave: u64,
    /// What limits throughput.
    pub bottleneck: BottleneckView,
    /// Latency tolerance, for programs with vector memory ops.
    pub latency_tolerance: Option<LatencyView>,
    /// The cache hierarchy, keyed by level name in the model's order (first
    /// level first); absent in flat-latency mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheView>,
    /// Decisions and defaults worth knowing.
    pub notes: Vec<String>,
    /// What the run took by default because the hints said nothing (loops
    /// that ran once, branches that went their default way).
    pub defaults: DefaultsView,
    /// Dynamic VGPR mode, when on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dynamic_vgpr: Option<DynamicVgprView>,
    /// TeraScale programs: packing, slot utilization, clauses, peak
    /// (docs/cli.md, `vliw`); the CLI fills it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vliw: Option<shadersim_r600::VliwSummary>,
    /// The distinct paths waves ran, when they differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<PathView>,
    /// The synthesized fetch shader (vertex shaders), in order.
    pub fetch_shader: Vec<InstructionView>,
    /// One entry per static instruction, in program order.
    pub instructions: Vec<InstructionView>,
    /// The listing summed by source line (programs with debug lines).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source_lines: Vec<crate::source_lines::SourceLineView>,
    /// Time per basic block (with a profile, see `with_profile`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<crate::blocks::BlockView>,
    /// Time per loop (with a profile).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<crate::blocks::LoopView>,
    /// Binned activity over the run, for the HTML charts (not in JSON).
    #[serde(skip)]
    pub activity: Option<crate::html::Activity>,
}

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
    /// The program has no `s_endpgm` on its path (an LLVM graphics
    /// function returning to its epilog): the drain is implicit.
    pub implicit: bool,
}

/// The defaults a run took, by source line (JSON `defaults`).
#[derive(Debug, Clone, Serialize)]
pub struct DefaultsView {
    /// Header lines of loops that ran once per entry by default.
    pub loops_once: Vec<u32>,
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

/// Utilization of each unit (0..1).
#[derive(Debug, Clone, Serialize)]
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
    /// LDS ops: the mean bank-conflict degree of its lanes (1 = none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lds_conflict_degree: Option<f64>,
    /// Vector memory ops and scalar loads: the buffer (address range) the op was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferView>,
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
                "first-level hits {}, mean latency {:.0} clocks",
                pct(h),
                l
            ));
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

/// Per-CU figures when several CUs were simulated.
fn per_cu(st: &shadersim_engine::SimStats) -> Vec<CuView> {
    if st.cus <= 1 {
        return Vec::new();
    }
    let total_waves = f64::from(st.waves.max(1));
    let all = st.throughput_per_clock() * f64::from(st.cus);
    let u = |cu: usize, unit: &str| round(st.cu_utilization(cu, unit).unwrap_or(0.0));
    st.cu_waves
        .iter()
        .enumerate()
        .map(|(cu, &waves)| CuView {
            cu: cu as u32,
            waves,
            throughput_per_clock: round(all * f64::from(waves) / total_waves),
            utilization: CuUtilization {
                valu: u(cu, "valu"),
                salu: u(cu, "salu"),
                vmem: u(cu, "vmem"),
                lds: u(cu, "lds"),
            },
        })
        .collect()
}

/// One entry per distinct trace, when waves ran more than one.
fn paths(sim: &Simulation, st: &shadersim_engine::SimStats) -> Vec<PathView> {
    let n = sim.path_count();
    if !(2..=16).contains(&n) {
        // Per-wave loop counts can give hundreds of paths: not a table.
        return Vec::new();
    }
    let mut out: Vec<PathView> = (0..n)
        .map(|t| PathView {
            waves: 0,
            first_wave: u32::MAX,
            instructions: sim.path_length(t),
            wave_clocks: 0.0,
        })
        .collect();
    for (w, &(launch, end)) in st.wave_life.iter().enumerate() {
        let p = &mut out[sim.path_of_wave(w as u32)];
        p.waves += 1;
        p.first_wave = p.first_wave.min(w as u32);
        p.wave_clocks += (end - launch) as f64;
    }
    for p in &mut out {
        p.wave_clocks = if p.waves == 0 {
            0.0
        } else {
            round(p.wave_clocks / p.waves as f64)
        };
    }
    out.retain(|p| p.waves > 0);
    out
}

impl AnalyzeReport {
    /// Build the report.
    pub fn new(file: &str, sim: &Simulation, analysis: &Analysis) -> AnalyzeReport {
        let st = &analysis.stats;
        let arch = &sim.arch;
        let unit = match sim.dispatch.stage {
            Stage::Pixel => "pixels",
            Stage::Vertex => "vertices",
            Stage::Compute => "threads",
        };
        let clock_mhz = arch.param("clock_mhz").unwrap_or(1000.0);
        let gpu_cus = arch.param("gpu_cus").unwrap_or(1.0);
        let per_clock = st.throughput_per_clock();
        let mut l2 = 0u64;
        // Mean over the waves (they may run different paths), rounded.
        let mean = sim.mean_executions();
        let executions_of = |src: OpSource| -> u64 {
            match src {
                OpSource::Program(i) => mean[i].round() as u64,
                OpSource::Fetch(_) | OpSource::ImplicitEnd => 1,
            }
        };
        let mut fetch_shader = Vec::new();
        let mut instructions = Vec::new();
        // Live registers per program instruction (none if the control flow
        // cannot be analysed: the column stays empty).
        let live = shadersim_liveness::Liveness::analyse(&sim.program, sim.dispatch.wave_size).ok();
        // Ops an instruction was compiled into under partial EXEC masks
        // (lane divergence) fold into its row.
        let mut variants: Vec<Vec<usize>> = vec![Vec::new(); sim.op_count()];
        for (oi, op) in sim.ops().enumerate() {
            variants[op.masked_from().unwrap_or(oi)].push(oi);
        }
        let mut end_drain = EndDrainView {
            stall_rate: 0.0,
            exposed_rate: 0.0,
            implicit: false,
        };
        for (oi, op) in sim.ops().enumerate() {
            if op.kind() == OpKind::End {
                let (stall, exposed) = st.ops_stall_rates(&[oi]);
                end_drain.stall_rate = round((end_drain.stall_rate + stall).min(1.0));
                end_drain.exposed_rate = round((end_drain.exposed_rate + exposed).min(1.0));
                end_drain.implicit |= op.source() == OpSource::ImplicitEnd && sim.path_reaches(oi);
            }
            if op.masked_from().is_some() {
                continue;
            }
            let execs = executions_of(op.source());
            if op.class().is_vmem() {
                l2 += u64::from(op.l2_requests()) * execs;
            }
            let (index, line, text) = match op.source() {
                OpSource::Program(i) => {
                    let s = &sim.program.instructions[i];
                    (i, s.pos.line, s.text.clone())
                }
                OpSource::Fetch(i) => (i, 0, sim.fetch_shader_text(i).to_string()),
                OpSource::ImplicitEnd => continue,
            };
            let (stall_rate, exposed_rate) = st.ops_stall_rates(&variants[oi]);
            let view = InstructionView {
                index,
                line,
                text,
                class: op.class().name().to_string(),
                executions: execs,
                stall_rate: round(stall_rate),
                exposed_rate: round(exposed_rate),
                cost_clocks: if op.kind() == OpKind::Unit {
                    op.cost()
                } else {
                    0
                },
                cost_basis: op.cost_basis().to_string(),
                l2_requests: op.class().is_vmem().then_some(op.l2_requests()),
                pattern: op.pattern().map(str::to_string),
                wait: op.kind() == OpKind::Wait,
                drain: op.kind() == OpKind::End,
                active_lanes: match (op.source(), &sim.lanes) {
                    (OpSource::Program(i), Some(l)) => Some(round(l.mean_active[i])),
                    _ => None,
                },
                alloc_waits: (op.allocates_vgprs() && sim.dispatch.dynamic_vgpr.is_some())
                    .then(|| st.alloc_denied[oi]),
                live_vgprs: None,
                live_sgprs: None,
                first_level_hit_rate: st
                    .op_cache
                    .get(oi)
                    .filter(|c| c.requests > 0)
                    .map(|c| round(c.first_level_hit_rate())),
                mean_latency: st
                    .op_cache
                    .get(oi)
                    .filter(|c| c.requests > 0)
                    .map(|c| round(c.mean_latency())),
                lds_conflict_degree: op.lds_conflict().map(round),
                buffer: match op.source() {
                    OpSource::Program(i) if op.has_address_stream() => {
                        sim.buffers.buffer_of(i).map(|b| BufferView {
                            id: b.id,
                            name: b.name.clone(),
                            base: b.base,
                            found: b.found.name().to_string(),
                            origin: b.origin.clone(),
                        })
                    }
                    _ => None,
                },
            };
            let mut view = view;
            if let (OpSource::Program(i), Some(l)) = (op.source(), &live) {
                if let Some(at) = l.per_instruction.get(i) {
                    view.live_vgprs = Some(at.vgprs);
                    view.live_sgprs = Some(at.sgprs);
                }
            }
            match op.source() {
                OpSource::Fetch(_) => fetch_shader.push(view),
                _ => instructions.push(view),
            }
        }
        let line_bytes = arch.param("l2_line_bytes").unwrap_or(64.0) as u64;
        let occ = &sim.occupancy;
        let b = &analysis.bottleneck;
        AnalyzeReport {
            file: file.to_string(),
            program: sim.program.name.clone(),
            arch: arch.name.clone(),
            isa: sim
                .program
                .target
                .as_ref()
                .map_or(arch.isa.name.clone(), |t| t.name.clone()),
            stage: sim.dispatch.stage.name().to_string(),
            wave_size: sim.dispatch.wave_size,
            waves: st.waves,
            workgroups: st.groups,
            clocks: st.clocks,
            wave_clocks: round(st.wave_clocks()),
            throughput: Throughput {
                per_clock: round(per_clock),
                unit: unit.to_string(),
                per_second_per_cu: round(per_clock * clock_mhz * 1e6),
                per_second_gpu: round(per_clock * clock_mhz * 1e6 * gpu_cus),
                clock_mhz,
                gpu_cus,
            },
            utilization: Utilization {
                valu: round(st.utilization("valu")),
                salu: round(st.utilization("salu")),
                smem: round(st.utilization("smem")),
                vmem: round(st.utilization("vmem")),
                lds: round(st.utilization("lds")),
                export: round(st.utilization("export")),
                gds: round(st.utilization("gds")),
                ray: round(st.utilization("ray")),
                trans: round(st.utilization("trans")),
            },
            starve_rate: round(st.starve_rate()),
            stall_rate: round(st.stall_rate()),
            lane_utilization: round(sim.lanes.as_ref().map_or(1.0, |l| l.utilization)),
            end_drain,
            cus: st.cus,
            throughput_all_cus: round(per_clock * f64::from(st.cus.max(1))),
            per_cu: per_cu(st),
            occupancy: OccupancyView {
                waves_per_simd: occ.waves_per_simd,
                limiter: occ.limiter.name().to_string(),
                vgprs: occ.vgprs_allocated,
                sgprs: occ.sgprs_allocated,
                lds_bytes: occ.lds_allocated,
                limits: occ.limits,
                peak_waves: st.peak_waves,
                declared_waves_per_simd: sim.program.declared.occupancy,
                radv_convention_waves_per_simd: occ.as_radv_states(
                    sim.program
                        .target
                        .as_ref()
                        .map_or(arch.isa.gen, |t| t.gen)
                        .is_gcn(),
                ),
            },
            issued: st
                .category_names
                .iter()
                .zip(&st.category_issues)
                .map(|(n, c)| NamedCount {
                    name: n.clone(),
                    count: *c,
                })
                .collect(),
            free_ops: st.free_ops,
            l2_requests_per_wave: l2,
            l2_bytes_per_wave: l2 * line_bytes,
            bottleneck: BottleneckView {
                kind: b.kind.clone(),
                statement: b.statement.clone(),
                clocks_per_wave: round(b.clocks_per_wave),
                bounds: b
                    .bounds
                    .iter()
                    .map(|x| BoundView {
                        resource: x.resource.clone(),
                        clocks_per_wave: round(x.clocks_per_wave),
                        detail: x.detail.clone(),
                    })
                    .collect(),
            },
            cache: (!st.cache.is_empty()).then(|| {
                CacheView(
                    st.cache
                        .iter()
                        .map(|l| {
                            (
                                l.name.clone(),
                                LevelView {
                                    requests: l.requests,
                                    hits: l.hits,
                                    hit_rate: round(l.hit_rate()),
                                    bytes: l.bytes,
                                    latency: l.latency,
                                    bytes_per_clock: l.bytes_per_clock,
                                    bandwidth_utilization: l.bytes_per_clock.map(|b| {
                                        round(
                                            (l.bytes as f64 / (b * st.clocks.max(1) as f64))
                                                .min(1.0),
                                        )
                                    }),
                                },
                            )
                        })
                        .collect(),
                )
            }),
            latency_tolerance: analysis.latency.as_ref().map(|l| LatencyView {
                clocks: l.clocks,
                fails_at: l.fails_at,
                searched_up_to: l.searched_up_to,
                model_latency: l.model_latency,
                zero_latency_throughput: round(l.zero_latency_throughput),
                runs: l.runs,
                parameter: l.parameter.clone(),
                curve: l.curve.iter().map(|&(x, t)| (x, round(t))).collect(),
            }),
            notes: sim.notes.clone(),
            defaults: DefaultsView {
                loops_once: sim.plan.defaults.loops_once.clone(),
                loops_inferred: sim
                    .plan
                    .defaults
                    .loops_inferred
                    .iter()
                    .map(|(line, iterations, reason)| InferredLoopView {
                        line: *line,
                        iterations: *iterations,
                        reason: reason.clone(),
                    })
                    .collect(),
                branches_not_taken: sim.plan.defaults.branches_not_taken.clone(),
                images: sim
                    .plan
                    .defaults
                    .images
                    .iter()
                    .filter(|d| d.is_default())
                    .map(|d| ImageDefaultView {
                        line: d.line,
                        op: d.op.clone(),
                        layout: d.layout.clone(),
                        walked: d.walked,
                        tile: d.tile,
                        tile_basis: d.tile_basis.clone(),
                        texels_per_pixel: d.texels_per_pixel,
                        requests: d.requests,
                        format: d.format.clone(),
                        filter: d.filter.clone(),
                        filter_reason: d.filter_reason.clone(),
                    })
                    .collect(),
                buffers: BufferDefaultsView {
                    default_lines: sim
                        .buffers
                        .buffers
                        .first()
                        .map_or(Vec::new(), |b| b.lines.clone()),
                    spacing: sim.buffers.spacing(),
                    stagger: sim.buffers.stagger,
                },
                text: {
                    let mut t = sim.plan.defaults.sentences();
                    // Buffer placement matters only to the simulated caches.
                    if st.cache.iter().any(|l| l.requests > 0) {
                        t.extend(sim.buffers.sentences());
                    }
                    t
                },
            },
            vliw: None,
            dynamic_vgpr: sim.dispatch.dynamic_vgpr.map(|d| DynamicVgprView {
                block: d.block,
                slots: d.slots,
                deadlock_avoidance: d.deadlock_avoidance,
                pool_blocks: d.pool_blocks,
                reserve_blocks: d.reserve_blocks,
                peak_blocks: st.peak_vgpr_blocks,
                peak_vgprs: st.peak_vgpr_blocks * d.block,
            }),
            paths: paths(sim, st),
            fetch_shader,
            source_lines: crate::source_lines::by_source_line(&sim.program, &instructions, &[]),
            instructions,
            blocks: Vec::new(),
            loops: Vec::new(),
            activity: None,
        }
    }

    /// Name the source files of the `source_lines` entries (the `.file`
    /// table of the listing the program came from).
    pub fn name_source_files(&mut self, source_files: &[(u32, String)]) {
        for l in &mut self.source_lines {
            l.file = source_files
                .iter()
                .find(|(n, _)| *n == l.file_number)
                .map(|(_, p)| p.clone());
        }
    }

    /// Add what a recorded run tells: time per block and loop, and the
    /// activity series the HTML page draws.
    pub fn with_profile(
        mut self,
        sim: &Simulation,
        stats: &shadersim_engine::SimStats,
        timeline: &crate::timeline::Timeline<'_>,
    ) -> AnalyzeReport {
        let (blocks, loops) = crate::blocks::block_views(sim, stats, timeline);
        self.blocks = blocks;
        self.loops = loops;
        self.activity = Some(crate::html::Activity::new(sim, stats, timeline));
        self
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The summary and the annotated listing.
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let t = &self.throughput;
        let _ = writeln!(
            o,
            "shadersim: `{}` in {} ({} ISA) on the `{}` model",
            self.program, self.file, self.isa, self.arch
        );
        let _ = writeln!(o);
        let what = if self.stage == "compute" {
            format!(
                "compute, {} workgroups ({} wave{}s)",
                self.workgroups, self.waves, self.wave_size
            )
        } else {
            format!("{}, {} wave{}s", self.stage, self.waves, self.wave_size)
        };
        let _ = writeln!(o, "  stage              {what}");
        let _ = writeln!(
            o,
            "  clocks             {} total; {:.1} per wave from launch to end",
            self.clocks, self.wave_clocks
        );
        let _ = writeln!(
            o,
            "  throughput         {} {} per clock per CU = {} per second per CU at {} MHz; {} per second on {} CUs",
            significant(per_clock_unrounded(t)),
            t.unit,
            si(t.per_second_per_cu),
            t.clock_mhz,
            si(t.per_second_gpu),
            t.gpu_cus
        );
        if self.cus > 1 {
            let _ = writeln!(
                o,
                "  CUs                {} simulated side by side, sharing the rasterizer and the export path: {} {} per clock together",
                self.cus,
                significant(self.throughput_all_cus),
                t.unit
            );
            for c in &self.per_cu {
                let _ = writeln!(
                    o,
                    "  CU {:<15} {} waves, {} {} per clock; VALU {}  SALU {}  VMEM {}  LDS {}",
                    c.cu,
                    c.waves,
                    significant(c.throughput_per_clock),
                    t.unit,
                    pct(c.utilization.valu),
                    pct(c.utilization.salu),
                    pct(c.utilization.vmem),
                    pct(c.utilization.lds)
                );
            }
        }
        let u = &self.utilization;
        // TeraScale models have their own engines (ALU, fetch, sequencer,
        // RAT): name them instead of GCN's units, which they do not have.
        if let Some(v) = self
            .vliw
            .as_ref()
            .filter(|v| !v.engine_utilization.is_empty())
        {
            let parts: Vec<String> = v
                .engine_utilization
                .iter()
                .map(|(k, b)| format!("{k} {}", pct(*b)))
                .collect();
            let _ = writeln!(o, "  utilization        {}", parts.join("  "));
        } else {
            let _ = writeln!(
                o,
                "  utilization        VALU {}  SALU {}  SMEM {}  VMEM {}  LDS {}  export {}{}{}{}",
                pct(u.valu),
                pct(u.salu),
                pct(u.smem),
                pct(u.vmem),
                pct(u.lds),
                pct(u.export),
                if u.gds > 0.0 {
                    format!("  GDS {}", pct(u.gds))
                } else {
                    String::new()
                },
                if u.trans > 0.0 {
                    format!("  trans {}", pct(u.trans))
                } else {
                    String::new()
                },
                if u.ray > 0.0 {
                    format!("  ray accelerator {}", pct(u.ray))
                } else {
                    String::new()
                }
            );
        }
        let _ = writeln!(
            o,
            "  starve rate        {} of clocks with no wave on the CU",
            pct(self.starve_rate)
        );
        let _ = writeln!(
            o,
            "  stall rate         {} of issue turns with waves where none could issue",
            pct(self.stall_rate)
        );
        if self.lane_utilization < 1.0 || self.instructions.iter().any(|i| i.active_lanes.is_some())
        {
            let _ = writeln!(
                o,
                "  lane utilization   {} of VALU lane-clocks did work (active lanes x VALU clocks / lanes x VALU clocks)",
                pct(self.lane_utilization)
            );
        }
        if self.end_drain.stall_rate > 0.0 {
            let _ = writeln!(
                o,
                "  end drain          waves sat at the {}end of the program waiting for their memory ops and exports {} of clocks ({} exposed)",
                if self.end_drain.implicit { "implicit " } else { "" },
                pct(self.end_drain.stall_rate),
                pct(self.end_drain.exposed_rate)
            );
        }
        let oc = &self.occupancy;
        let _ = writeln!(
            o,
            "  occupancy          {} waves per SIMD, limited by {} (slots {}, VGPRs {} -> {}, SGPRs {} -> {}, LDS {} B -> {}); peak {} waves on the {}",
            oc.waves_per_simd, oc.limiter, oc.limits[0], oc.vgprs, oc.limits[1], oc.sgprs, oc.limits[2], oc.lds_bytes, oc.limits[3], oc.peak_waves,
            if self.cus > 1 { format!("{} CUs together", self.cus) } else { "CU".to_string() }
        );
        if let Some(d) = oc.declared_waves_per_simd {
            let verdict = if d == oc.waves_per_simd {
                "agrees".to_string()
            } else if d == oc.radv_convention_waves_per_simd {
                format!(
                    "agrees: RADV counts wave32-sized waves on RDNA, {} hardware waves",
                    oc.waves_per_simd
                )
            } else {
                format!(
                    "differs; shadersim's figure on RADV's convention is {}",
                    oc.radv_convention_waves_per_simd
                )
            };
            let _ = writeln!(
                o,
                "                     the compiler's own figure: {d} waves per SIMD ({verdict})"
            );
        }
        let issued: Vec<String> = self
            .issued
            .iter()
            .map(|c| format!("{} {}", c.name, c.count))
            .collect();
        let _ = writeln!(
            o,
            "  issued             {}; free ops {}",
            issued.join(", "),
            self.free_ops
        );
        if self.l2_requests_per_wave > 0 {
            let _ = writeln!(
                o,
                "  L2 traffic         {} requests per wave = {} bytes per wave",
                self.l2_requests_per_wave, self.l2_bytes_per_wave
            );
        }
        if let Some(c) = &self.cache {
            for (name, l) in c.0.iter().filter(|(_, l)| l.requests > 0) {
                let bw = l
                    .bandwidth_utilization
                    .map_or(String::new(), |u| format!(", {} of its bandwidth", pct(u)));
                let _ = writeln!(
                    o,
                    "  cache {name:<12} {} requests, hit rate {}, {} bytes, {} clocks a hit{bw}",
                    l.requests,
                    pct(l.hit_rate),
                    l.bytes,
                    l.latency
                );
            }
        }
        let _ = writeln!(o, "  bottleneck         {}", self.bottleneck.statement);
        if let Some(l) = &self.latency_tolerance {
            // What the answer itself loses: the search stops at a latency
            // losing 4 to 5% or within 1.5% of the crossing, so this says
            // how close to the line the answer is.
            let loss = |c: u64| {
                l.curve
                    .iter()
                    .find(|p| p.0 == c)
                    .filter(|_| l.zero_latency_throughput > 0.0)
                    .map_or(String::new(), |p| {
                        format!(
                            "losing {:.1}% there; ",
                            100.0 * (1.0 - p.1 / l.zero_latency_throughput)
                        )
                    })
            };
            let _ = match l.clocks {
                Some(c) if l.parameter != "vmem_latency" => writeln!(
                    o,
                    "  latency tolerance  {c} clocks: throughput stays within 5% of the model's up to {c} extra clocks on every first-level cache miss ({}{} runs)",
                    loss(c),
                    l.runs
                ),
                None if l.parameter != "vmem_latency" => writeln!(o, "  latency tolerance  at least {} extra clocks per first-level miss (throughput never fell 5% below the model's)", l.searched_up_to),
                Some(c) => writeln!(
                    o,
                    "  latency tolerance  {c} clocks: throughput stays within 5% of its zero-latency value up to a VMEM latency of {c} clocks (the model uses {}; {}{} runs)",
                    l.model_latency, loss(c), l.runs
                ),
                None => writeln!(o, "  latency tolerance  at least {} clocks (throughput never fell 5% below its zero-latency value)", l.searched_up_to),
            };
        }
        for (i, p) in self.paths.iter().enumerate() {
            let _ = writeln!(
                o,
                "  path {}             {} wave(s) from wave {}: {} instructions, {:.1} clocks per wave",
                i, p.waves, p.first_wave, p.instructions, p.wave_clocks
            );
        }
        if let Some(d) = &self.dynamic_vgpr {
            let waits: Vec<String> = self
                .instructions
                .iter()
                .filter_map(|i| {
                    i.alloc_waits
                        .map(|w| format!("line {} waited {w} turns", i.line))
                })
                .collect();
            let _ = writeln!(
                o,
                "  dynamic VGPRs      peak {} VGPRs ({} blocks of {}) in use on a SIMD of {} slots; {}",
                d.peak_vgprs,
                d.peak_blocks,
                d.block,
                d.slots,
                waits.join(", ")
            );
        }
        for d in &self.defaults.text {
            let _ = writeln!(o, "  defaults           {d}");
        }
        for n in &self.notes {
            let _ = writeln!(o, "  note               {n}");
        }
        if let Some(v) = &self.vliw {
            let _ = writeln!(o);
            o.push_str(&v.to_text());
        }
        let _ = writeln!(o);
        o.push_str(&crate::blocks::blocks_text(&self.blocks, &self.loops));
        let _ = writeln!(
            o,
            "  {:>6}  {:>8}  {:>6}  {:>5}  {:>5}  instruction",
            "line", "per wave", "stall", "cost", "vgprs"
        );
        let listing = |o: &mut String, i: &InstructionView| {
            let stall = if i.stall_rate > 0.0 {
                pct(i.stall_rate)
            } else {
                String::new()
            };
            let marker = if i.drain && i.stall_rate > 0.0 {
                "<<"
            } else if i.wait {
                if i.stall_rate > 0.0 {
                    ">>"
                } else {
                    "> "
                }
            } else {
                "  "
            };
            let cost = if i.cost_clocks > 0 {
                i.cost_clocks.to_string()
            } else {
                String::new()
            };
            let line = if i.line > 0 {
                i.line.to_string()
            } else {
                "fetch".into()
            };
            let mut extra = match (i.l2_requests, &i.pattern) {
                (Some(r), Some(p)) => format!("   ; {p}, {r} L2 requests"),
                (Some(r), None) => format!("   ; {r} L2 requests"),
                (None, Some(p)) => format!("   ; {p}"),
                _ => String::new(),
            };
            if let Some(a) = i.active_lanes {
                extra += &format!("   ; {a:.1} active lanes");
            }
            if i.drain && i.stall_rate > 0.0 {
                extra += "   ; end-of-program drain: outstanding memory and exports";
            }
            let note = i.memory_note();
            if !note.is_empty() {
                if extra.is_empty() {
                    extra = format!("   ; {note}");
                } else {
                    extra = format!("{extra}; {note}");
                }
            }
            let live = i.live_vgprs.map_or(String::new(), |v| v.to_string());
            let _ = writeln!(
                o,
                "{marker}{line:>6}  {:>8}  {stall:>6}  {cost:>5}  {live:>5}  {}{extra}",
                i.executions, i.text
            );
        };
        for i in &self.fetch_shader {
            listing(&mut o, i);
        }
        for i in &self.instructions {
            listing(&mut o, i);
        }
        if self.end_drain.implicit {
            let stall = if self.end_drain.stall_rate > 0.0 {
                pct(self.end_drain.stall_rate)
            } else {
                String::new()
            };
            let marker = if self.end_drain.stall_rate > 0.0 {
                "<<"
            } else {
                "  "
            };
            let _ = writeln!(
                o,
                "{marker}{:>6}  {:>8}  {stall:>6}  {:>5}  {:>5}  (implicit end of program: drains outstanding memory and exports)",
                "end", 1, "", ""
            );
        }
        o.push_str(&crate::source_lines::text_table(&self.source_lines, 20));
        o
    }
}

fn round(v: f64) -> f64 {
    if v.is_finite() {
        (v * 1e6).round() / 1e6
    } else {
        0.0
    }
}

/// Threads per clock per CU for the text line: `per_clock` is rounded to
/// 1e-6 for JSON, which can leave nothing of a slow program's figure, so
/// take it back from the per-second figure when there is one.
fn per_clock_unrounded(t: &Throughput) -> f64 {
    if t.clock_mhz > 0.0 && t.per_second_per_cu.is_finite() && t.per_second_per_cu > 0.0 {
        t.per_second_per_cu / (t.clock_mhz * 1e6)
    } else {
        t.per_clock
    }
}

/// `v` with 4 significant digits (`0.1663`, `1.250`, `0.003125`), in
/// scientific notation with 3 below 0.001 or from 1e6 (`1.35e-4`): never a
/// `0.0000` that hides a small throughput.
fn significant(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        // Rust writes `1.35e-4` (no `+`, no leading zeros in the exponent).
        return format!("{v:.2e}");
    }
    let decimals = (3 - a.log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    // Rounding can carry into a fifth digit (9.9996 -> "10.000"); drop it.
    if s.trim_start_matches(['-', '0', '.']).replace('.', "").len() > 4 && decimals > 0 {
        format!("{v:.prec$}", prec = decimals - 1)
    } else {
        s
    }
}

fn pct(v: f64) -> String {
    if v > 0.0 && v < 0.0005 {
        "<0.1%".to_string()
    } else {
        format!("{:.1}%", 100.0 * v)
    }
}

fn si(v: f64) -> String {
    let (d, s) = if v >= 1e12 {
        (1e12, "T")
    } else if v >= 1e9 {
        (1e9, "G")
    } else if v >= 1e6 {
        (1e6, "M")
    } else if v >= 1e3 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    format!("{:.2}{s}", v / d)
}

#[cfg(test)]
mod throughput_text_tests {
    use super::significant;

    #[test]
    fn four_significant_digits_never_zero() {
        assert_eq!(significant(0.1663), "0.1663");
        assert_eq!(significant(0.003125), "0.003125");
        assert_eq!(significant(1.25), "1.250");
        assert_eq!(significant(0.99996), "1.000");
        assert_eq!(significant(0.000135), "1.35e-4");
        assert_eq!(significant(0.0), "0");
    }
}
