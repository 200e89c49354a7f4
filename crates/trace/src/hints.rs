//! The hints file (`docs/cli.md`): dispatch parameters, loop
//! iteration counts, branch directions and memory formats/patterns.
//!
//! Unknown keys, and entries that name no such loop, branch or memory
//! instruction, are errors with the position in the hints file.

use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// The whole hints file as written.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Hints {
    /// How waves arrive.
    #[serde(default)]
    pub dispatch: DispatchHints,
    /// Loop iteration counts.
    #[serde(default, rename = "loop")]
    pub loops: Vec<LoopHint>,
    /// Branch directions.
    #[serde(default, rename = "branch")]
    pub branches: Vec<BranchHint>,
    /// Memory instruction formats, filters and lane patterns.
    #[serde(default, rename = "memory")]
    pub memory: Vec<MemoryHint>,
    /// Limits of trace expansion.
    #[serde(default)]
    pub trace: TraceHints,
    /// The host's launch: grid and block.
    #[serde(default)]
    pub launch: LaunchHints,
}

/// `[launch]`: the kernel's launch as the host states it.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LaunchHints {
    /// Workgroups per dimension (HIP's `gridDim`): `4096`, `"64x64"`, `"8x8x4"`.
    pub grid: Option<Spanned<Dims>>,
    /// Work-items per dimension (OpenCL's global size); the grid is its ceiling over the block.
    pub global: Option<Spanned<Dims>>,
    /// Work-items per workgroup, per dimension (`256`, `"16x16"`).
    pub block: Option<Spanned<Dims>>,
    /// Kernel arguments by their source name: a scalar's value, or a `__local` pointer's
    /// bytes (`args = { n = 1048576, alpha = 2.5, tile = 4096 }`).
    #[serde(default)]
    pub args: std::collections::BTreeMap<String, Spanned<ArgValue>>,
    /// Dynamic LDS bytes per workgroup the launch allocates beyond the kernel's own (HIP's
    /// `sharedMemBytes` for `extern __shared__`, Triton's `shared`).
    pub shared: Option<Spanned<i64>>,
}

/// The grid and block a launch states, read once for everyone who needs them (the dispatch,
/// the kernel-argument segment's hidden sizes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchShape {
    /// Work-items per workgroup, per dimension.
    pub block: [u64; 3],
    /// Whether the launch gave the block (else the kernel's required size or the default).
    pub block_given: bool,
    /// Workgroups per dimension (from `grid`, or `global` over the block, rounded up).
    pub grid: Option<[u64; 3]>,
    /// The global size, when the launch gave one.
    pub global: Option<[u64; 3]>,
}

/// Most work-items in one dimension of a launch (HIP's and OpenCL's grid sizes are 32-bit).
const MAX_LAUNCH_DIM: u64 = u32::MAX as u64;

impl LaunchHints {
    /// The launch's shape, or `None` when it gives neither a block nor a grid. Without a block,
    /// a grid's workgroups are the kernel's required size (`declared`), else `default_threads`
    /// wide. A block of more than 1024 work-items, or both `grid` and `global`, is an error at
    /// the key.
    pub fn shape(
        &self,
        declared: Option<[u32; 3]>,
        default_threads: u32,
    ) -> Result<Option<LaunchShape>, HintsError> {
        let dims = |v: &Spanned<Dims>, key: &str| {
            v.get_ref()
                .parse(MAX_LAUNCH_DIM)
                .map_err(|m| HintsError::at(v.span(), format!("[launch] {key}: {m}")))
        };
        let given = self.block.as_ref().map(|b| dims(b, "block")).transpose()?;
        if let (Some(d), Some(b)) = (given, &self.block) {
            let threads = d.iter().product::<u64>();
            if threads > 1024 {
                return Err(HintsError::at(
                    b.span(),
                    format!("[launch] block: {threads} work-items per workgroup; AMD GPUs take at most 1024"),
                ));
            }
        }
        if let (Some(g), Some(_)) = (&self.grid, &self.global) {
            return Err(HintsError::at(
                g.span(),
                "[launch] gives both grid and global; give one (grid: workgroups, global: work-items)",
            ));
        }
        if given.is_none() && self.grid.is_none() && self.global.is_none() {
            return Ok(None);
        }
        let block = given.unwrap_or_else(|| {
            declared.map_or([u64::from(default_threads.max(1)), 1, 1], |d| {
                d.map(u64::from)
            })
        });
        let global = self
            .global
            .as_ref()
            .map(|g| dims(g, "global"))
            .transpose()?;
        let grid = match (&self.grid, global) {
            (Some(g), _) => Some(dims(g, "grid")?),
            (None, Some(g)) => Some([0, 1, 2].map(|i| g[i].div_ceil(block[i].max(1)))),
            (None, None) => None,
        };
        Ok(Some(LaunchShape {
            block,
            block_given: given.is_some(),
            grid,
            global,
        }))
    }
}

/// A kernel argument's value as the host passes it.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum ArgValue {
    /// A whole number.
    Int(i64),
    /// A floating-point number.
    Float(f64),
}

impl ArgValue {
    /// Parse `--arg NAME=VALUE`'s value: a whole number (decimal or `0x` hex), else a float.
    pub fn parse(text: &str) -> Option<ArgValue> {
        let t = text.trim();
        if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            return i64::from_str_radix(h, 16).ok().map(ArgValue::Int);
        }
        t.parse::<i64>().ok().map(ArgValue::Int).or_else(|| {
            t.parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(ArgValue::Float)
        })
    }
}

/// A size in one to three dimensions: an integer, or `"XxYxZ"` text.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Dims {
    /// One dimension.
    Count(u64),
    /// `"X"`, `"XxY"` or `"XxYxZ"`.
    Text(String),
}

impl Dims {
    /// The three dimensions (missing ones are 1), or why the text is no size: each a whole
    /// number from 1 to `max`.
    pub fn parse(&self, max: u64) -> Result<[u64; 3], String> {
        let text = match self {
            Dims::Count(n) => n.to_string(),
            Dims::Text(t) => t.clone(),
        };
        let parts: Vec<&str> = text.split(['x', 'X', ',']).map(str::trim).collect();
        if parts.is_empty() || parts.len() > 3 {
            return Err(format!("`{text}` is not a size: give X, XxY or XxYxZ"));
        }
        let mut out = [1u64; 3];
        for (i, p) in parts.iter().enumerate() {
            let v: u64 = p.parse().map_err(|_| {
                format!(
                    "`{text}` is not a size: `{p}` is not a whole number (give X, XxY or XxYxZ)"
                )
            })?;
            if v == 0 || v > max {
                return Err(format!("`{text}`: each dimension must be from 1 to {max}"));
            }
            out[i] = v;
        }
        Ok(out)
    }
}

/// `[dispatch]`: what feeds the compute unit.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DispatchHints {
    /// `"pixel"`, `"vertex"` or `"compute"`.
    pub stage: Option<Spanned<String>>,
    /// Pixel: average triangle size in pixels.
    pub pixels_per_triangle: Option<Spanned<f64>>,
    /// Vertex: post-transform cache efficiency (vertices per triangle, 0.5..3).
    pub vertices_per_triangle: Option<Spanned<f64>>,
    /// Vertex: input elements, for the synthesized fetch shader.
    pub vertex_inputs: Option<Spanned<u32>>,
    /// Compute: threads per workgroup.
    pub workgroup_size: Option<Spanned<u32>>,
    /// CUs sharing one rasterizer / vertex grouper / export path.
    pub cu_count: Option<Spanned<u32>>,
    /// Compute units simulated side by side (default 1), sharing the
    /// rasterizer / vertex grouper and the export path.
    pub cus: Option<Spanned<u32>>,
    /// Waves (vertex, pixel) or workgroups (compute) to simulate.
    pub waves: Option<Spanned<u32>>,
    /// Cap on occupancy (waves per SIMD).
    pub waves_per_simd: Option<Spanned<u32>>,
    /// Lanes per wave (RDNA: 32 or 64); default from the file, else the model's.
    pub wave_size: Option<Spanned<u32>>,
    /// RDNA 4 dynamic VGPR mode for a wave32 compute program.
    pub dynamic_vgpr: Option<Spanned<DynamicVgprHint>>,
    /// VGPRs per wave, for files that do not declare them (overrides the
    /// file's count).
    pub vgprs: Option<Spanned<u32>>,
    /// SGPRs per wave (overrides the file's count).
    pub sgprs: Option<Spanned<u32>>,
    /// LDS bytes per workgroup (overrides the file's size).
    pub lds_bytes: Option<Spanned<u32>>,
}

/// `[dispatch] dynamic_vgpr = { block = 16, slots = 16, deadlock_avoidance = true }`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DynamicVgprHint {
    /// VGPRs per allocation block: 16 or 32.
    pub block: u32,
    /// Wave slots enabled per SIMD (each owns one reserved block).
    pub slots: u32,
    /// Keep enough blocks for one wave to reach the maximum (default false).
    #[serde(default)]
    pub deadlock_avoidance: bool,
}

/// Largest resource counts a hint may give: the register files a wave can
/// address (512 with gfx90a's AGPRs; SGPR allocations stop at 128 on
/// gfx10+) and the largest LDS per workgroup (160 KiB on gfx950).
const MAX_VGPRS: u32 = 512;
const MAX_SGPRS: u32 = 128;
const MAX_LDS_BYTES: u32 = 160 * 1024;

/// `[[loop]]`: how many times a loop's header runs each time the loop is entered.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LoopHint {
    /// 1-based line of the header block's first instruction.
    pub line: Option<Spanned<u32>>,
    /// Or the header's label.
    pub label: Option<Spanned<String>>,
    /// Or the source line the loop comes from: `"FILE:LINE"` or
    /// `"FILE:LINE:COLUMN"`, matched against the listing's `.loc` lines.
    pub source: Option<Spanned<String>>,
    /// Times the header executes per entry (0 skips a guarded loop): one
    /// number, or a list with one number per wave by launch order (repeated
    /// when there are more waves), such as `shadersim rt --hints-out` writes
    /// from a mesh's per-ray step counts.
    pub iterations: Spanned<Iterations>,
}

/// A loop's iteration count: the same for every wave, per wave, or drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Iterations {
    /// Every wave.
    Fixed(u32),
    /// Wave `i` (launch order) runs `list[i % len]`.
    PerWave(Vec<u32>),
    /// `"4..16"`: drawn uniformly (both ends included), per wave and per
    /// entry of the loop.
    Range(String),
    /// `{ mean = 8.0, max = 32 }`: drawn from a geometric distribution
    /// with that mean (at least 1), capped at `max`, per wave and entry.
    Geometric {
        /// Mean iterations.
        mean: f64,
        /// Most iterations.
        max: u32,
    },
}

/// What `iterations` may be, for the error on anything else.
pub const ITERATIONS_FORMS: &str = "an iteration count is a whole number of header executions \
     from 0 to 4294967295, a list of such numbers (one per wave), a range such as \"4..16\", or \
     { mean = 8.0, max = 32 }";

/// Written by hand rather than `#[serde(untagged)]`, whose error ("data did
/// not match any variant") says neither what was wrong nor what is allowed,
/// and which would let an unknown key in `{ mean, max }` pass.
impl<'de> Deserialize<'de> for Iterations {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IterationsVisitor)
    }
}

/// One whole count, from TOML's signed integer.
fn iteration_count<E: serde::de::Error>(v: i64) -> Result<u32, E> {
    u32::try_from(v).map_err(|_| E::custom(format!("{ITERATIONS_FORMS}; found {v}")))
}

/// The visitor behind `Iterations`' `Deserialize`.
struct IterationsVisitor;

impl<'de> serde::de::Visitor<'de> for IterationsVisitor {
    type Value = Iterations;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(ITERATIONS_FORMS)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Iterations, E> {
        iteration_count(v).map(Iterations::Fixed)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Iterations, E> {
        u32::try_from(v)
            .map(Iterations::Fixed)
            .map_err(|_| E::custom(format!("{ITERATIONS_FORMS}; found {v}")))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Iterations, E> {
        Err(E::custom(format!(
            "{ITERATIONS_FORMS}; found the fraction {v} (write a whole number without `.` or `e`)"
        )))
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Iterations, E> {
        Err(E::custom(format!("{ITERATIONS_FORMS}; found {v}")))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Iterations, E> {
        Ok(Iterations::Range(v.to_string()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Iterations, A::Error> {
        let mut list = Vec::new();
        while let Some(v) = seq.next_element::<toml::Value>()? {
            match v {
                toml::Value::Integer(n) => list.push(iteration_count(n)?),
                other => {
                    return Err(serde::de::Error::custom(format!(
                        "a per-wave iterations list holds whole numbers from 0 to 4294967295; found {other}"
                    )))
                }
            }
        }
        Ok(Iterations::PerWave(list))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Iterations, A::Error> {
        use serde::de::Error;
        let (mut mean, mut max) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "mean" => {
                    mean = Some(match map.next_value::<toml::Value>()? {
                        toml::Value::Float(f) => f,
                        toml::Value::Integer(n) => n as f64,
                        other => {
                            return Err(A::Error::custom(format!(
                                "`mean` is a number of iterations (at least 1); found {other}"
                            )))
                        }
                    })
                }
                "max" => {
                    max = Some(match map.next_value::<toml::Value>()? {
                        toml::Value::Integer(n) => u32::try_from(n).map_err(|_| {
                            A::Error::custom(format!(
                                "`max` is a whole number of iterations from 1 to 4294967295; found {n}"
                            ))
                        })?,
                        other => {
                            return Err(A::Error::custom(format!(
                                "`max` is a whole number of iterations from 1 to 4294967295; found {other}"
                            )))
                        }
                    })
                }
                other => {
                    return Err(A::Error::custom(format!(
                        "unknown key `{other}` in an iterations table: it takes `mean` and `max` ({{ mean = 8.0, max = 32 }})"
                    )))
                }
            }
        }
        match (mean, max) {
            (Some(mean), Some(max)) => Ok(Iterations::Geometric { mean, max }),
            _ => Err(A::Error::custom(
                "an iterations table needs both `mean` and `max` ({ mean = 8.0, max = 32 })",
            )),
        }
    }
}

/// `[[branch]]`: which way a conditional branch goes.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BranchHint {
    /// 1-based line of the branch instruction.
    pub line: Option<Spanned<u32>>,
    /// Or the source line the branch comes from (`"FILE:LINE[:COLUMN]"`).
    pub source: Option<Spanned<String>>,
    /// Taken (jump to the target) or not (fall through).
    pub taken: Option<Spanned<bool>>,
    /// Probability (0..1) that a wave takes the branch, drawn each time a
    /// wave reaches it (the whole wave goes one way).
    pub probability: Option<Spanned<f64>>,
    /// Only these waves (by launch order: `"0"`, `"1..63"` inclusive,
    /// `"0,4,8..11"`) take the branch; every other wave falls through.
    pub waves: Option<Spanned<String>>,
    /// Probability (0..1) that each lane takes the branch, drawn lane by
    /// lane: a wave whose lanes disagree runs both sides with EXEC masked.
    /// Only on a branch on EXEC (`s_cbranch_execz`).
    pub lane_probability: Option<Spanned<f64>>,
}

/// `[[memory]]`: facts about one memory instruction.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MemoryHint {
    /// 1-based line of the memory instruction.
    pub line: Option<Spanned<u32>>,
    /// Or the source line whose memory instructions it describes
    /// (`"FILE:LINE[:COLUMN]"`).
    pub source: Option<Spanned<String>>,
    /// Texel format of an image op (`rgba8`, `r32f`, `bc1`, ...).
    pub format: Option<Spanned<String>>,
    /// Filter of a sample (`point`, `bilinear`, `trilinear`, `aniso2x`..`aniso8x`).
    pub filter: Option<Spanned<String>>,
    /// Lane address pattern (`linear`, `uniform`, `stride:16`, ...).
    pub pattern: Option<Spanned<String>>,
    /// This op's latency in clocks after service, overriding the unit's
    /// (a known cache miss, say).
    pub latency: Option<Spanned<u32>>,
    /// BVH intersections: the mean fraction of the wave's lanes still
    /// traversing (finished rays' lanes are masked off), 0..1.
    pub active_lanes: Option<Spanned<f64>>,
    /// BVH intersections: the fraction of visited nodes that are box nodes
    /// (the rest are triangle nodes).
    pub box_fraction: Option<Spanned<f64>>,
    /// Bytes between consecutive waves' addresses (default: the wave's own
    /// footprint for vector ops, streaming; 0 for scalar loads: every wave
    /// reads the same constants). Image ops: texels times the format's size.
    pub wave_stride: Option<Spanned<u64>>,
    /// Bytes the op's addresses move per execution by the same wave (each
    /// iteration of its loop); default: the footprint of all the waves
    /// (a grid-stride loop) for vector ops, 0 for scalar loads.
    pub iteration_stride: Option<Spanned<u64>>,
    /// Addresses wrap inside a buffer of this many bytes (a lookup table, a
    /// constant buffer); default: no wrap.
    pub region: Option<Spanned<u64>>,
    /// The order of the executions' bases: `"stride"` (default: execution k
    /// at k x `iteration_stride`) or `"random"` (execution k at element
    /// perm(k) of a fixed pseudo-random permutation of the region's
    /// `region / iteration_stride` elements, seeded from `[trace] seed`: a
    /// pointer chase).
    pub order: Option<Spanned<String>>,
    /// The fraction of this op's requests the first cache level serves
    /// (0..1), overriding the cache simulation; the rest go to the second.
    pub hit_rate: Option<Spanned<f64>>,
    /// The cache level (by the model's name: `l1`, `l2`, `dram`, ...) that
    /// serves every request of this op, overriding the cache simulation.
    pub level: Option<Spanned<String>>,
    /// First byte address of this op's buffer, for a buffer the program does not show (default:
    /// the buffer found from the op's address registers, each at its own range).
    pub base: Option<Spanned<u64>>,
    /// The buffer this op reads or writes, by a name of the user's: ops with the same name
    /// share one address range (its `base` if one of them gives it).
    pub buffer: Option<Spanned<String>>,
}

/// `[trace]`: limits of trace expansion.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TraceHints {
    /// Largest trace (dynamic instructions per wave) before stopping with an
    /// error; default 10 million.
    pub max_instructions: Option<Spanned<u64>>,
    /// Seed of the per-wave draws (branch probabilities, iteration
    /// distributions): the same seed gives the same run.
    pub seed: Option<Spanned<u64>>,
}

/// A problem in a hints file, with a byte range into it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HintsError {
    /// Byte range in the hints text, when known.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
}

impl HintsError {
    /// An error at `span`.
    pub fn at(span: Range<usize>, message: impl Into<String>) -> Self {
        HintsError {
            span: Some(span),
            message: message.into(),
        }
    }

    /// `FILE:LINE:COL: error: message` for a hints file whose text is `text`.
    pub fn render(&self, file: &str, text: &str) -> String {
        match &self.span {
            Some(span) => {
                let (line, col) = line_col(text, span.start);
                format!("{file}:{line}:{col}: error: {}", self.message)
            }
            None => format!("{file}: error: {}", self.message),
        }
    }
}

/// A hints file's bytes as text, or the error at the first byte that is not
/// UTF-8 (its span: render it against the lossy text, whose bytes before
/// that point are the same).
pub fn hints_text(bytes: &[u8]) -> Result<&str, HintsError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        HintsError::at(
            at..at + 1,
            format!(
                "invalid UTF-8 (byte {:#04x}): a hints file is TOML text",
                bytes[at]
            ),
        )
    })
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

impl Hints {
    /// `program` with the `[dispatch]` hints `vgprs`, `sgprs` and
    /// `lds_bytes` applied to what it declares, or `None` when there are
    /// none. Hints win over the file: they are what the user knows.
    pub fn with_declared_resources(
        &self,
        program: &shadersim_asm::Program,
    ) -> Result<Option<shadersim_asm::Program>, HintsError> {
        let d = &self.dispatch;
        if d.vgprs.is_none() && d.sgprs.is_none() && d.lds_bytes.is_none() {
            return Ok(None);
        }
        let check = |v: &Option<Spanned<u32>>, min: u32, max: u32, key: &str| match v {
            Some(v) if !(min..=max).contains(v.get_ref()) => Err(HintsError::at(
                v.span(),
                format!("{key} must be between {min} and {max}"),
            )),
            _ => Ok(v.as_ref().map(|v| *v.get_ref())),
        };
        let vgprs = check(&d.vgprs, 1, MAX_VGPRS, "vgprs")?;
        let sgprs = check(&d.sgprs, 0, MAX_SGPRS, "sgprs")?;
        let lds = check(&d.lds_bytes, 0, MAX_LDS_BYTES, "lds_bytes")?;
        let mut p = program.clone();
        p.declared.vgprs = vgprs.or(p.declared.vgprs);
        p.declared.sgprs = sgprs.or(p.declared.sgprs);
        p.declared.lds_bytes = lds.or(p.declared.lds_bytes);
        Ok(Some(p))
    }

    /// Parse a hints file.
    pub fn parse(text: &str) -> Result<Hints, HintsError> {
        toml::from_str(text).map_err(|e| HintsError {
            span: e.span(),
            message: e.message().trim().to_string(),
        })
    }
}
