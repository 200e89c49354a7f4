//! `shadersim liveness FILE [--arch X] [--function NAME] [--format text|json]`.
//!
//! Live VGPRs and SGPRs per line (`shadersim-liveness`), the peak, and the
//! occupancy cliff next to it through the engine's occupancy rule on the
//! chosen model.

use crate::error::{CliError, CliResult};
use crate::input::ProgramArgs;
use serde_json::json;
use shadersim_arch::ArchSpec;
use shadersim_asm::CountSource;
use shadersim_engine::{Occupancy, ResourceUsage};
use shadersim_liveness::Liveness;
use shadersim_report::numbers::count;
use std::io::Write;

/// Output formats of `liveness`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum LivenessFormat {
    /// Summary and a listing with live counts per line.
    Text,
    /// JSON.
    Json,
}

/// Arguments of `shadersim liveness`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program to read (`--arch` also picks the occupancy model).
    #[command(flatten)]
    pub program: ProgramArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: LivenessFormat,
}

/// What cutting live VGPRs at the peak would buy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VgprCliff {
    /// Waves per SIMD at the compiler's VGPR count.
    pub waves: u32,
    /// The model's wave slots.
    pub slots: u32,
    /// What limits the waves now.
    pub limiter: String,
    /// The VGPR count to get under, if more waves are possible.
    pub target: Option<u32>,
    /// Waves per SIMD at that count.
    pub target_waves: u32,
    /// Line ranges whose live VGPRs exceed the target.
    pub regions: Vec<(u32, u32)>,
}

/// The cliff next to the live peak on `arch` for waves of `wave` lanes.
pub fn vgpr_cliff(
    arch: &ArchSpec,
    wave: u32,
    allocated: u32,
    live: &Liveness,
) -> Result<VgprCliff, CliError> {
    let at = |vgprs: u32| {
        Occupancy::for_usage(
            arch,
            &ResourceUsage {
                vgprs,
                sgprs: 0,
                sgprs_declared: false,
                lds_bytes: 0,
                wave_size: wave,
                waves_per_group: 1,
            },
            None,
        )
    };
    let now = at(allocated.max(1)).map_err(|e| CliError::Input(e.to_string()))?;
    let slots = now.limits[0];
    let peak = live.peak_vgprs().map_or(0, |p| p.vgprs);
    // The largest count below the allocation with more waves: the first
    // register count the program must get down to.
    let target = (1..allocated.max(1))
        .rev()
        .find(|&n| at(n).is_ok_and(|o| o.waves_per_simd > now.waves_per_simd));
    let target_waves = target.map_or(now.waves_per_simd, |n| {
        at(n).map_or(now.waves_per_simd, |o| o.waves_per_simd)
    });
    let regions = match target {
        Some(n) if n < peak => live.vgpr_regions_above(n),
        _ => Vec::new(),
    };
    Ok(VgprCliff {
        waves: now.waves_per_simd,
        slots,
        limiter: now.limiter.name().to_string(),
        target,
        target_waves,
        regions,
    })
}

fn regions_text(regions: &[(u32, u32)]) -> String {
    let shown: Vec<String> = regions
        .iter()
        .take(4)
        .map(|&(a, b)| {
            if a == b {
                format!("line {a}")
            } else {
                format!("lines {a}-{b}")
            }
        })
        .collect();
    let more = regions.len().saturating_sub(4);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The sentence about the cliff.
pub fn cliff_sentence(c: &VgprCliff, allocated: u32, peak: u32) -> String {
    match c.target {
        None if c.waves >= c.slots => format!(
            "{} waves per SIMD, every wave slot: fewer VGPRs would not add waves",
            c.waves
        ),
        None => format!(
            "{} waves per SIMD limited by {}: fewer VGPRs would not add waves",
            c.waves, c.limiter
        ),
        Some(n) if n >= peak => format!(
            "the allocation ({allocated} VGPRs) exceeds the live peak ({peak}): allocating {n} or fewer would give {} more per SIMD ({} -> {})",
            count(u64::from(c.target_waves - c.waves), "wave"),
            c.waves,
            c.target_waves
        ),
        Some(n) => format!(
            "{} fewer VGPRs at the peak, {}, would give {} more per SIMD ({} -> {} at {n} VGPRs)",
            peak - n,
            regions_text(&c.regions),
            count(u64::from(c.target_waves - c.waves), "wave"),
            c.waves,
            c.target_waves
        ),
    }
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    // The one loading path (file, program, model) of every command.
    let loaded = crate::commands::prepare::load(
        &args.program.file,
        args.program.arch.as_deref(),
        args.program.function.as_deref(),
    )?;
    let (file, arch) = (&loaded.file, &loaded.arch);
    let program = &file.programs[loaded.program];
    let wave32 = arch.param("supports_wave32").unwrap_or(0.0) != 0.0;
    let wave = match program.wave_size() {
        Some((32, _)) if !wave32 => 64,
        Some((w, _)) if w == 32 || w == 64 => w,
        _ => arch
            .get_u32("wave_size")
            .map_err(|e| CliError::Input(e.to_string()))?,
    };
    let live = Liveness::analyse(program, wave)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
    let usage = program.register_usage();
    let peak_v = live.peak_vgprs();
    let peak_s = live.peak_sgprs();
    let peak = peak_v.map_or(0, |p| p.vgprs);
    let allocated = usage.vgprs.max(peak);
    let cliff = vgpr_cliff(arch, wave, allocated, &live)?;
    let sentence = cliff_sentence(&cliff, allocated, peak);
    let source = match usage.vgpr_source {
        CountSource::Declared => "declared by the compiler",
        CountSource::Computed => "highest register named + 1",
    };
    let text = match args.format {
        LivenessFormat::Json => {
            let v = json!({
                "program": program.name,
                "arch": arch.name,
                "wave_size": wave,
                "vgprs": usage.vgprs,
                "vgprs_source": match usage.vgpr_source { CountSource::Declared => "declared", CountSource::Computed => "computed" },
                "peak_vgprs": peak_v.map(|p| json!({"count": p.vgprs, "line": p.line})),
                "peak_sgprs": peak_s.map(|p| json!({"count": p.sgprs, "line": p.line})),
                "live_in": {"vgprs": live.live_in_vgprs, "sgprs": live.live_in_sgprs},
                "occupancy": {
                    "waves": cliff.waves,
                    "slots": cliff.slots,
                    "limiter": cliff.limiter,
                    "next_vgprs": cliff.target,
                    "next_waves": cliff.target_waves,
                    "regions": cliff.regions.iter().map(|(a, b)| json!([a, b])).collect::<Vec<_>>(),
                    "summary": sentence,
                },
                "instructions": live.per_instruction.iter().map(|a| json!({"line": a.line, "vgprs": a.vgprs, "sgprs": a.sgprs})).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&v).map_err(CliError::input)? + "\n"
        }
        LivenessFormat::Text => {
            let mut out = format!(
                "shadersim: live registers of `{}` in {} (wave{wave}) on the `{}` model\n\n",
                program.name, file.file_name, arch.name
            );
            out += &format!("  VGPRs          {} ({source})\n", usage.vgprs);
            if let Some(p) = peak_v {
                out += &format!("  peak VGPRs     {} live at line {}\n", p.vgprs, p.line);
            }
            if let Some(p) = peak_s {
                out += &format!("  peak SGPRs     {} live at line {}\n", p.sgprs, p.line);
            }
            out += &format!(
                "  live on entry  {} VGPRs, {} SGPRs\n",
                live.live_in_vgprs, live.live_in_sgprs
            );
            out += &format!("  occupancy      {sentence}\n\n");
            out += "    line  vgprs  sgprs  instruction\n";
            let width = peak.max(1);
            for (a, s) in live.per_instruction.iter().zip(&program.instructions) {
                let bar = "#".repeat(((a.vgprs * 20).div_ceil(width)) as usize);
                out += &format!(
                    "{:>8} {:>6} {:>6}  {:<20} {}\n",
                    a.line, a.vgprs, a.sgprs, bar, s.text
                );
            }
            out
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
