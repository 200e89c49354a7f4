//! `shadersim analyze`: the report of one simulation, as text, JSON or HTML.
//!
//! * `views`: the report's parts (the JSON model; field names are the JSON
//!   keys of `docs/cli.md`).
//! * `build`: the report from a prepared run and its analysis.
//! * `text`: the text rendering (summary and annotated listing).
//! * `kernel_time`: the dispatch's duration on the whole GPU.
//! * `numbers`: rounding and number formats every rendering shares.
//!
//! The HTML rendering is `crate::html`.

mod build;
mod kernel_time;
pub mod numbers;
mod text;
pub(crate) mod views;

pub use kernel_time::KernelTimeView;
use serde::Serialize;
pub use views::*;

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
    /// The whole dispatch's predicted duration on the whole GPU, microseconds (`null` without
    /// a launch grid).
    pub kernel_time_us: Option<f64>,
    /// How the kernel time was composed (with a launch grid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_time: Option<KernelTimeView>,
    /// Throughput.
    pub throughput: Throughput,
    /// Fraction of clocks each unit was busy.
    pub utilization: Utilization,
    /// Matrix-core figures, for programs with matrix instructions the model charges by the
    /// matrix table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<MatrixView>,
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
    /// Requests per wave that reached L2 (lines of the model's
    /// `l2_line_bytes`): the cache hierarchy's `l2` level's requests over
    /// the waves, rounded; with flat latencies (no hierarchy) every vector
    /// memory request of the coalescer.
    pub l2_requests_per_wave: u64,
    /// Bytes per wave at L2 (requests x line size, from the unrounded
    /// requests per wave).
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
    pub activity: Option<crate::activity::Activity>,
}

impl AnalyzeReport {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
