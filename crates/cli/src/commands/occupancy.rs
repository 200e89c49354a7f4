//! `shadersim occupancy --regs N [--arch A,B,...] [--wave-size 32|64] [--lds BYTES --workgroup THREADS] [--format text|json] [--plot OUT.svg]`.
//!
//! One register count on every model with occupancy rules: the AMD
//! built-ins through the engine's own rule (`Occupancy::for_usage`, never
//! re-implemented here) and the other vendors' models of
//! `shadersim-occupancy`.

use crate::error::{CliError, CliResult};
use shadersim_arch::ArchSpec;
use shadersim_engine::{Occupancy, ResourceUsage};
use shadersim_occupancy::{
    cliffs, dynamic_vgpr::DynamicVgprConfig, Allocation, VendorModel, VendorUnit,
};
use shadersim_report::occupancy_view::{to_json, to_svg, to_text, OccupancyRow};
use std::io::Write;

/// Output formats of `occupancy`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum OccupancyFormat {
    /// A table.
    Text,
    /// An array with one object per architecture unit.
    Json,
}

/// Arguments of `shadersim occupancy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Registers per thread (AMD: VGPRs per wave, in registers of the wave's width).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub regs: u32,
    /// Comma-separated models (AMD built-ins or model files, and the vendor
    /// models of `shadersim archs`). Default: every model with occupancy rules.
    #[arg(long, value_delimiter = ',')]
    pub arch: Vec<String>,
    /// AMD wave size (default: each model's own; wave64-only models ignore 32).
    #[arg(long, value_parser = ["32", "64"])]
    pub wave_size: Option<String>,
    /// LDS bytes per workgroup (AMD only; needs --workgroup).
    #[arg(long, requires = "workgroup")]
    pub lds: Option<u32>,
    /// Threads per workgroup (AMD: LDS and barrier limits; NVIDIA: whole blocks).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub workgroup: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OccupancyFormat,
    /// Also write occupancy against register count for every model to this SVG file.
    #[arg(long, value_name = "OUT.svg")]
    pub plot: Option<String>,
}

/// The row of an AMD model at `regs` VGPRs, and why no wave fits when none does.
pub fn amd_row(
    arch: &ArchSpec,
    regs: u32,
    wave_size: Option<u32>,
    lds: u32,
    workgroup: Option<u32>,
) -> Result<(OccupancyRow, Option<String>), CliError> {
    let model_err = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", arch.name));
    let default = arch.get_u32("wave_size").map_err(|e| model_err(&e))?;
    let wave32 = arch.param("supports_wave32").unwrap_or(0.0) != 0.0;
    let wave = match wave_size {
        Some(32) if !wave32 => 64,
        Some(w) => w,
        None => default,
    };
    let waves_per_group = workgroup.map_or(1, |t| t.div_ceil(wave));
    let usage = |vgprs: u32| ResourceUsage {
        vgprs,
        sgprs: 0,
        sgprs_declared: false,
        lds_bytes: lds,
        wave_size: wave,
        waves_per_group,
    };
    // Most registers one wave can hold (the model's `max_vgprs_per_wave`: 256 on GCN and RDNA,
    // 512 VGPRs and AGPRs together on CDNA 2/3). The engine's rule has no cap of its own, so
    // the row and its scan of cliffs need one.
    let max_vgprs = arch
        .get_u32("max_vgprs_per_wave")
        .map_err(|e| model_err(&e))?;
    let waves_at = |n: u32| {
        if n > max_vgprs {
            0
        } else {
            Occupancy::for_usage(arch, &usage(n), None).map_or(0, |o| o.waves_per_simd)
        }
    };
    let simds = arch.get_u32("simds").map_err(|e| model_err(&e))?;
    let slots = arch
        .get_u32("wave_slots_per_simd")
        .map_err(|e| model_err(&e))?;
    // The granule in registers of this wave's width: rows per granule over
    // rows per register (the engine's own parameters).
    let row_lanes = arch
        .param("vgpr_row_lanes")
        .map_or(wave, |v| v as u32)
        .max(1);
    let rows_per_reg = wave.div_ceil(row_lanes).max(1);
    let granule_rows = arch.get_u32("vgpr_granule").map_err(|e| model_err(&e))?;
    let granule = (granule_rows / rows_per_reg).max(1);
    let mut why = None;
    let (waves, limiter, allocated) = if regs > max_vgprs {
        (0, "max registers".to_string(), 0)
    } else {
        match Occupancy::for_usage(arch, &usage(regs), None) {
            Ok(o) => (
                o.waves_per_simd,
                o.limiter.name().to_string(),
                o.vgprs_allocated,
            ),
            // The rule refuses usages where no wave fits (an LDS or
            // workgroup demand beyond the CU): report 0 and say why.
            Err(e) => {
                why = Some(format!("{}: {e}", arch.name));
                (0, "nothing fits".to_string(), 0)
            }
        }
    };
    let row = OccupancyRow {
        arch: arch.name.clone(),
        vendor: "AMD".into(),
        unit: format!("SIMD (wave{wave})"),
        core: "CU".into(),
        waves,
        waves_per_core: waves * simds,
        slots,
        limiter,
        granule,
        fixed_modes: false,
        allocated,
        wasted: allocated.saturating_sub(regs),
        cliffs: cliffs(regs, max_vgprs, waves_at),
        simulated: true,
        curve: shadersim_occupancy::curve(max_vgprs, waves_at),
    };
    Ok((row, why))
}

/// The row of one vendor unit at `regs` registers.
pub fn vendor_row(
    model: &VendorModel,
    unit: &VendorUnit,
    regs: u32,
    workgroup: Option<u32>,
) -> OccupancyRow {
    // Only NVIDIA limits whole workgroups (blocks); their threads are warps.
    let group = match (&unit.max_groups_per_core, workgroup) {
        (Some(_), Some(t)) => Some(t.div_ceil(unit.lanes_per_thread.value.max(1))),
        _ => None,
    };
    let o = unit.occupancy(regs, group);
    let max = unit.max_registers.value;
    let waves_at = |n: u32| unit.occupancy(n, group).waves_per_unit;
    let name = if model.units.len() > 1 {
        unit.name.clone()
    } else {
        format!("{} ({})", unit.name, unit.threads)
    };
    OccupancyRow {
        arch: model.name.clone(),
        vendor: model.vendor.clone(),
        unit: name,
        core: unit.core.clone(),
        waves: o.waves_per_unit,
        waves_per_core: o.waves_per_core,
        slots: unit.slots.value,
        limiter: o.limiter.name().to_string(),
        granule: match o.allocation {
            Allocation::Granule(g) | Allocation::Mode(g) => g,
        },
        fixed_modes: matches!(o.allocation, Allocation::Mode(_)),
        allocated: o.allocated,
        wasted: o.wasted(regs),
        cliffs: cliffs(regs, max, waves_at),
        simulated: false,
        curve: shadersim_occupancy::curve(max, waves_at),
    }
}

/// The dynamic VGPR mode at `regs`, for models that have one (their data
/// gives `dynamic_vgpr_max_blocks`: RDNA 4): what the seed's arithmetic
/// says instead of a derived occupancy.
fn dynamic_note(arch: &ArchSpec, regs: u32) -> Option<String> {
    let max_blocks = arch.param("dynamic_vgpr_max_blocks")? as u32;
    let reserve_blocks = arch.param("dynamic_vgpr_reserve_blocks")? as u32;
    let total = arch.get_u32("vgprs_per_simd").ok()?;
    // Dynamic mode enables as many slots as the driver sets; show all of them.
    let slots = arch.get_u32("wave_slots_per_simd").ok()?;
    let mut parts = Vec::new();
    for block in [16, 32] {
        // The model's own dynamic-mode numbers (one source with the engine).
        let cfg = DynamicVgprConfig {
            total_vgprs: total,
            slots,
            block,
            deadlock_avoidance: true,
            max_blocks,
            reserve_blocks,
        };
        match (cfg.pool(), cfg.waves_reaching(regs), cfg.llvm_estimate(regs)) {
            (Ok(pool), Ok(r), Ok(est)) => parts.push(format!(
                "block {block}: pool {pool} + reserve {}, {} can hold {regs} VGPRs at once ({} with the reserve), LLVM estimates {est}",
                cfg.reserve(),
                shadersim_report::numbers::count(u64::from(r.from_pool), "wave"),
                r.with_reserve
            )),
            (_, Err(e), _) => parts.push(format!("block {block}: {e}")),
            _ => {}
        }
    }
    Some(format!(
        "{} dynamic VGPR mode (wave32 compute only, {slots} slots enabled, deadlock avoidance on): {}",
        arch.name,
        parts.join("; ")
    ))
}

/// Every row the arguments ask for, and the notes to print under them.
pub fn rows(args: &Args) -> Result<(Vec<OccupancyRow>, Vec<String>), CliError> {
    let wave = args
        .wave_size
        .as_deref()
        .map(|w| w.parse::<u32>().unwrap_or(64));
    let lds = args.lds.unwrap_or(0);
    let names: Vec<String> = if args.arch.is_empty() {
        ArchSpec::builtin_list()
            .into_iter()
            .map(|(n, _)| n)
            .chain(VendorModel::builtin_names().into_iter().map(String::from))
            .collect()
    } else {
        args.arch.iter().map(|a| a.trim().to_string()).collect()
    };
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut model_notes: Vec<(String, Vec<String>)> = Vec::new();
    for name in &names {
        if let Ok(model) = VendorModel::builtin(name) {
            for unit in &model.units {
                rows.push(vendor_row(&model, unit, args.regs, args.workgroup));
            }
            for n in &model.notes {
                // Models sharing a note (NVIDIA's setmaxnreg) get one line.
                match model_notes.iter_mut().find(|(text, _)| text == n) {
                    Some((_, models)) => models.push(model.name.clone()),
                    None => model_notes.push((n.clone(), vec![model.name.clone()])),
                }
            }
            continue;
        }
        // The same names as `analyze --arch`: a model, a model file, or a
        // GPU (gfx1100, vega10) standing for its chip's or family's model.
        let arch = crate::commands::prepare::load_arch(name).map_err(|e| match e {
            CliError::Usage(m) => CliError::Usage(format!(
                "{m}; occupancy-only models: {}",
                VendorModel::builtin_names().join(", ")
            )),
            other => other,
        })?;
        // A workgroup's LDS must fit in the LDS one CU holds (RDNA's WGP
        // mode pools two CUs' LDS for several workgroups, never for one).
        if let Ok(limit) = arch.get_u32("lds_bytes_per_cu") {
            if lds > limit {
                return Err(CliError::Usage(format!(
                    "--lds {lds}: a workgroup may use at most {limit} bytes of LDS on `{}` (lds_bytes_per_cu)",
                    arch.name
                )));
            }
        }
        if wave == Some(32) && arch.param("supports_wave32").unwrap_or(0.0) == 0.0 {
            notes.push(format!("{}: runs wave64 only; shown for wave64", arch.name));
        }
        let (row, why) = amd_row(&arch, args.regs, wave, lds, args.workgroup)?;
        rows.push(row);
        notes.extend(why);
        notes.extend(dynamic_note(&arch, args.regs));
    }
    notes.extend(
        model_notes
            .into_iter()
            .map(|(text, models)| format!("{}: {text}", models.join(", "))),
    );
    if args.lds.is_some() && rows.iter().any(|r| r.vendor != "AMD") {
        notes.push("--lds applies to the AMD models only".into());
    }
    if rows.iter().any(|r| r.vendor == "AMD") && args.wave_size.is_none() {
        notes.insert(
            0,
            "AMD rows use each model's default wave size; VGPRs are registers of that width (--wave-size to choose)".into(),
        );
    }
    Ok((rows, notes))
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let text = render(&args)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// The table `args` asks for, rendered in its format (the plot, when asked, is written to its
/// file): what `run` prints, and what the library API (`api::occupancy`) parses.
pub fn render(args: &Args) -> Result<String, CliError> {
    let (rows, notes) = rows(args)?;
    let text = match args.format {
        OccupancyFormat::Text => to_text(args.regs, &rows, &notes),
        OccupancyFormat::Json => {
            serde_json::to_string_pretty(&to_json(&rows)).map_err(CliError::input)? + "\n"
        }
    };
    if let Some(path) = &args.plot {
        std::fs::write(path, to_svg(&rows, args.regs))
            .map_err(|e| CliError::input(format!("{path}: error: cannot write: {e}")))?;
    }
    Ok(text)
}

/// The other vendors' models at `regs` registers per thread, for
/// `analyze --occupancy-compare`.
pub fn compare_rows(regs: u32) -> Vec<OccupancyRow> {
    VendorModel::builtins()
        .iter()
        .flat_map(|m| m.units.iter().map(move |u| vendor_row(m, u, regs, None)))
        .collect()
}

/// `analyze --occupancy-compare`: add the comparison to a rendered report
/// (text: a section at the end; JSON: an `occupancy_compare` array).
pub fn append_comparison(report: String, json_output: bool, regs: u32) -> String {
    let rows = compare_rows(regs);
    if json_output {
        let body = report.trim_end();
        let Some(open) = body.strip_suffix('}') else {
            return report;
        };
        let array = serde_json::to_string(&to_json(&rows)).unwrap_or_else(|_| "[]".into());
        format!(
            "{},\n  \"occupancy_compare\": {{\"registers\": {regs}, \"models\": {array}}}\n}}\n",
            open.trim_end()
        )
    } else {
        let mut out = report;
        out += &format!(
            "\noccupancy of the same {regs} VGPRs as registers per thread on other vendors' models (occupancy only, not simulated):\n"
        );
        for r in &rows {
            out += &format!(
                "  {:<10} {:<24} {:>4} of {:>3} {} ({} per {}), limited by {}\n",
                r.arch,
                r.unit,
                r.waves,
                r.slots,
                if r.unit.contains("warps") {
                    "warps"
                } else {
                    "threads"
                },
                r.waves_per_core,
                r.core,
                r.limiter
            );
        }
        out
    }
}
