//! `shadersim coalesce`: what one wave64 memory instruction costs on GCN for a lane address
//! pattern (seed 001's coalescing model, in `shadersim_mem`).
//!
//! Exit codes: every input of this command is an option, so a value that does not parse or
//! does not work (mnemonic, pattern, mask, address, texel format, filter, `--set`) is bad
//! usage, exit 2, with the library's message, as are options that do not go together
//! (`--filter` on a buffer op) and the errors clap finds.

use crate::error::{CliError, CliResult};
use shadersim_mem::{
    coalesce_pattern, parse_number, CoalesceResult, LaneOrder, LanePattern, MemAccess, MemOp,
    VmemRates, WAVE64,
};
use std::io::Write;

/// Arguments of `shadersim coalesce`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Patterns: uniform, linear, stride:BYTES, quad-uniform, quad-permuted, tile2d:WxH[:PITCH], \
random:SEED:RANGE, list:A0,...,A63 (numbers decimal or 0x hex).

Example:
  shadersim coalesce --op buffer_load_dword --pattern linear
  shadersim coalesce --op image_sample --pattern tile2d:8x8 --stage pixel --format-texel rgba16f --filter bilinear --format json")]
pub struct Args {
    /// The memory instruction (buffer_load_dword, buffer_load_format_xyzw, global_load_b128,
    /// buffer_atomic_add, image_sample_d, ...).
    #[arg(long, value_name = "MNEMONIC")]
    op: String,

    /// Where the 64 lanes point, relative to --base (see the list below).
    #[arg(long, value_name = "PATTERN")]
    pattern: String,

    /// EXEC mask: which lanes are active (decimal, 0x hex or 0b binary). Default: all 64.
    #[arg(long, value_name = "MASK")]
    exec: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    format: OutputFormat,

    /// Texel format of an image op (rgba8, r32f, rgba16f, rgba32f, bc1, ...). Default: rgba8.
    #[arg(long = "format-texel", value_name = "FORMAT")]
    format_texel: Option<String>,

    /// Filter of an image sample (point, bilinear, trilinear, aniso2x, aniso4x, aniso8x).
    /// Default: trilinear.
    #[arg(long, value_name = "FILTER")]
    filter: Option<String>,

    /// Shader stage, which decides the lane order of tile2d patterns: compute (and vertex)
    /// lanes are linear, pixel lanes come in 2x2 quads.
    #[arg(long, value_enum, default_value_t = Stage::Compute)]
    stage: Stage,

    /// Address of element 0 of the pattern (decimal or 0x hex). Default: 0.
    #[arg(long, value_name = "ADDR")]
    base: Option<String>,

    /// Override one VMEM rate for this run, e.g. --set l2_line_bytes=128 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// How to print the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OutputFormat {
    /// One fact per line, for people.
    Text,
    /// One JSON object, for programs.
    Json,
}

/// The shader stage issuing the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Stage {
    /// Compute shader: linear lane order.
    Compute,
    /// Vertex shader: linear lane order.
    Vertex,
    /// Pixel shader: lanes in 2x2 pixel quads.
    Pixel,
}

impl Stage {
    fn lane_order(self) -> LaneOrder {
        match self {
            Stage::Compute | Stage::Vertex => LaneOrder::Compute,
            Stage::Pixel => LaneOrder::PixelQuads,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Stage::Compute => "compute",
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
        }
    }
}

/// A bad option value: exit 2 with the message.
fn usage_error(msg: impl std::fmt::Display) -> CliError {
    CliError::Usage(msg.to_string())
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    // A table lookup: the access comes from the instruction table's memory facts.
    let mut access = MemAccess::from_mnemonic(&args.op).map_err(usage_error)?;
    match &mut access {
        MemAccess::Image(image) => {
            if let Some(format) = &args.format_texel {
                image.format = format
                    .parse()
                    .map_err(|e| usage_error(format!("--format-texel: {e}")))?;
            }
            if let Some(filter) = &args.filter {
                image.filter = filter
                    .parse()
                    .map_err(|e| usage_error(format!("--filter: {e}")))?;
            }
        }
        MemAccess::Buffer(_) => {
            for (option, given) in [
                ("--format-texel", &args.format_texel),
                ("--filter", &args.filter),
            ] {
                if given.is_some() {
                    return Err(CliError::Usage(format!(
                        "{option} applies to image instructions only, and `{}` is a buffer-like \
                         instruction",
                        args.op.trim()
                    )));
                }
            }
        }
    }
    let pattern: LanePattern = args.pattern.parse().map_err(usage_error)?;
    // `coalesce` costs one wave64: a 32-address list (a wave32's lanes) would
    // leave half its lanes unsaid.
    if let LanePattern::List(offsets) = &pattern {
        if offsets.len() != 64 {
            return Err(usage_error(format!(
                "--pattern: the list has {} addresses; `coalesce` costs a wave64, which needs 64",
                offsets.len()
            )));
        }
    }
    let exec = match &args.exec {
        Some(text) => parse_number(text.trim())
            .map_err(|e| usage_error(format!("--exec: {e} (expected a 64-bit mask)")))?,
        None => u64::MAX,
    };
    let base = match &args.base {
        Some(text) => parse_number(text.trim())
            .map_err(|e| usage_error(format!("--base: {e} (expected a byte address)")))?,
        None => 0,
    };
    let mut rates = VmemRates::GCN;
    for setting in &args.set {
        let Some((key, value)) = setting.split_once('=') else {
            return Err(usage_error(format!(
                "--set `{setting}`: expected KEY=VALUE, e.g. l2_line_bytes=128"
            )));
        };
        let value = parse_number(value.trim())
            .ok()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                usage_error(format!(
                    "--set `{setting}`: the value must be a whole number below 2^32"
                ))
            })?;
        rates
            .set_key(key.trim(), value)
            .map_err(|e| usage_error(format!("--set: {e}")))?;
    }

    let order = args.stage.lane_order();
    let result =
        coalesce_pattern(&access, &pattern, base, order, exec, &rates).map_err(usage_error)?;

    let report = Report {
        mnemonic: args.op.trim(),
        access: &access,
        pattern: &pattern,
        stage: args.stage,
        base,
        exec,
        result: &result,
    };
    let mut out = std::io::stdout().lock();
    match args.format {
        OutputFormat::Text => report.write_text(&mut out)?,
        OutputFormat::Json => report.write_json(&mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// Everything printed about one run.
struct Report<'a> {
    mnemonic: &'a str,
    access: &'a MemAccess,
    pattern: &'a LanePattern,
    stage: Stage,
    base: u64,
    exec: u64,
    result: &'a CoalesceResult,
}

/// Line addresses shown in text output before "and N more".
const TEXT_LINES_SHOWN: usize = 16;

impl Report<'_> {
    fn write_text(&self, out: &mut impl Write) -> CliResult {
        let r = self.result;
        writeln!(out, "op:           {} ({})", self.mnemonic, self.access)?;
        writeln!(
            out,
            "pattern:      {} ({} lane order, {}-byte elements, base {:#x})",
            self.pattern,
            self.stage.lane_order(),
            r.bytes_per_lane,
            self.base
        )?;
        writeln!(
            out,
            "active lanes: {} of {} (exec {:#018x})",
            r.active_lanes, WAVE64, self.exec
        )?;
        writeln!(
            out,
            "L2 requests:  {} x {}-byte lines = {} bytes",
            r.l2_requests, r.l2_line_bytes, r.l2_bytes
        )?;
        let mut lines: Vec<String> = r
            .lines
            .iter()
            .take(TEXT_LINES_SHOWN)
            .map(|line| format!("{line:#x}"))
            .collect();
        if r.lines.len() > TEXT_LINES_SHOWN {
            lines.push(format!("and {} more", r.lines.len() - TEXT_LINES_SHOWN));
        }
        if lines.is_empty() {
            lines.push("none".into());
        }
        writeln!(out, "lines:        {}", lines.join(" "))?;
        if self.access.mem_op() == MemOp::Atomic {
            writeln!(
                out,
                "accesses:     {} (atomics never collapse: one per active lane)",
                r.distinct_accesses
            )?;
        } else {
            writeln!(
                out,
                "accesses:     {} (lanes on one address collapse into one)",
                r.distinct_accesses
            )?;
        }
        writeln!(
            out,
            "L1 groups:    {} of {} lanes",
            r.l1_groups, r.group_size
        )?;
        writeln!(
            out,
            "clocks:       {} (full wave: {}; {})",
            r.clocks, r.wave_clocks, r.clocks_basis
        )?;
        writeln!(out, "rule:         {}", r.rule)?;
        Ok(())
    }

    fn write_json(&self, out: &mut impl Write) -> CliResult {
        let mut value = serde_json::to_value(self.result)
            .map_err(|e| CliError::input(format!("cannot encode the result: {e}")))?;
        if let Some(object) = value.as_object_mut() {
            object.insert("op".into(), self.mnemonic.into());
            object.insert("access".into(), self.access.to_string().into());
            object.insert("pattern".into(), self.pattern.to_string().into());
            object.insert("stage".into(), self.stage.name().into());
            object.insert(
                "lane_order".into(),
                self.stage.lane_order().to_string().into(),
            );
            object.insert("base".into(), format!("{:#x}", self.base).into());
            object.insert("exec".into(), format!("{:#018x}", self.exec).into());
            if let MemAccess::Image(image) = self.access {
                object.insert("texel_format".into(), image.format.to_string().into());
                object.insert("filter".into(), image.filter.to_string().into());
            }
        }
        serde_json::to_writer_pretty(&mut *out, &value)
            .map_err(|e| CliError::Io(std::io::Error::other(e)))?;
        writeln!(out)?;
        Ok(())
    }
}
