//! `shadersim occupancy --regs N [--arch A,B,...] [--wave-size 32|64] [--lds BYTES --workgroup THREADS] [--format text|json] [--plot OUT.svg]`.
//!
//! One register count on every model with occupancy rules: the AMD
//! built-ins through the engine's own rule (`Occupancy::for_usage`, never
//! re-implemented here) and the other vendors' models of
//! `shadersim-occupancy`.

use crate::error::{CliError, CliResult};
use serde_json::json;
use shadersim_arch::ArchSpec;
use shadersim_engine::{Occupancy, ResourceUsage};
use shadersim_occupancy::{
    cliffs, dynamic_vgpr::DynamicVgprConfig, Allocation, Cliff, VendorModel, VendorUnit,
};
use std::io::Write;

/// Most VGPRs one AMD wave can address: 256 on GCN and RDNA
/// (rdna-model.md 5.1, "Max 256 addressable VGPRs per wave"; gcn-model.md).
/// The engine's rule has no cap of its own, so the scan of cliffs needs one.
pub const AMD_MAX_VGPRS: u32 = 256;

/// How many cliffs the text table shows per row.
const CLIFFS_SHOWN: usize = 3;

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

/// One unit of one model at one register count.
#[derive(Debug, Clone)]
pub struct OccupancyRow {
    /// Model name.
    pub arch: String,
    /// Vendor.
    pub vendor: String,
    /// Unit ("SIMD", "XVE", "SM sub-partition").
    pub unit: String,
    /// What groups units ("CU", "Xe core", "SM").
    pub core: String,
    /// Waves (threads, warps) per unit.
    pub waves: u32,
    /// Waves per core.
    pub waves_per_core: u32,
    /// Thread slots per unit.
    pub slots: u32,
    /// What limits it.
    pub limiter: String,
    /// Allocation granule in registers per thread (for fixed modes: the
    /// mode the thread got).
    pub granule: u32,
    /// Whether registers come in fixed modes (Intel Xe2) instead of granules.
    pub fixed_modes: bool,
    /// Registers allocated per thread.
    pub allocated: u32,
    /// Registers lost to rounding.
    pub wasted: u32,
    /// The next register counts where occupancy changes.
    pub cliffs: Vec<Cliff>,
    /// Whether shadersim simulates this model.
    pub simulated: bool,
    /// The curve from 1 register to the model's maximum, for the plot.
    pub curve: Vec<(u32, u32)>,
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
    let waves_at = |n: u32| {
        if n > AMD_MAX_VGPRS {
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
    let (waves, limiter, allocated) = if regs > AMD_MAX_VGPRS {
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
        cliffs: cliffs(regs, AMD_MAX_VGPRS, waves_at),
        simulated: true,
        curve: shadersim_occupancy::curve(AMD_MAX_VGPRS, waves_at),
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
                "block {block}: pool {pool} + reserve {}, {} waves can hold {regs} VGPRs at once ({} with the reserve), LLVM estimates {est}",
                cfg.reserve(),
                r.from_pool,
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

fn cliff_text(c: &[Cliff]) -> String {
    if c.is_empty() {
        return "-".into();
    }
    let mut parts: Vec<String> = c
        .iter()
        .take(CLIFFS_SHOWN)
        .map(|c| format!("{}->{}", c.registers, c.waves))
        .collect();
    if c.len() > CLIFFS_SHOWN {
        parts.push("...".into());
    }
    parts.join(" ")
}

/// The table of `rows` at `regs` registers.
pub fn to_text(regs: u32, rows: &[OccupancyRow], notes: &[String]) -> String {
    let mut out = format!("occupancy at {regs} registers per thread\n\n");
    out += &format!(
        "{:<10} {:<7} {:<24} {:>5} {:>5} {:>15}  {:<13} {:>9} {:>6} {:>6}  {}\n",
        "arch",
        "vendor",
        "unit",
        "waves",
        "slots",
        "per core",
        "limiter",
        "granule",
        "alloc",
        "wasted",
        "next cliffs (registers->waves)"
    );
    for r in rows {
        out += &format!(
            "{:<10} {:<7} {:<24} {:>5} {:>5} {:>15}  {:<13} {:>9} {:>6} {:>6}  {}\n",
            r.arch,
            r.vendor,
            r.unit,
            r.waves,
            r.slots,
            format!("{} per {}", r.waves_per_core, r.core),
            r.limiter,
            if r.fixed_modes {
                format!("mode {}", r.granule)
            } else {
                r.granule.to_string()
            },
            r.allocated,
            r.wasted,
            cliff_text(&r.cliffs)
        );
    }
    if !notes.is_empty() {
        out += "\n";
        for n in notes {
            out += &format!("note: {n}\n");
        }
    }
    out
}

/// The JSON array of `rows`.
pub fn to_json(rows: &[OccupancyRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                json!({
                    "arch": r.arch,
                    "vendor": r.vendor,
                    "unit": r.unit,
                    "core": r.core,
                    "waves": r.waves,
                    "waves_per_core": r.waves_per_core,
                    "slots": r.slots,
                    "limiter": r.limiter,
                    "granule": r.granule,
                    "allocation": if r.fixed_modes { "fixed modes" } else { "granules" },
                    "allocated": r.allocated,
                    "wasted": r.wasted,
                    "cliffs": r.cliffs.iter().map(|c| json!({"registers": c.registers, "waves": c.waves})).collect::<Vec<_>>(),
                    "simulated": r.simulated,
                })
            })
            .collect(),
    )
}

/// Colors of the plot's lines, cycled.
const PALETTE: &[&str] = &[
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#843c39", "#5254a3", "#e7ba52",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Occupancy (as a share of each unit's slots, so units of 3 and 256 slots
/// share an axis) against register count, every row one step line.
pub fn to_svg(rows: &[OccupancyRow], marker: u32) -> String {
    const W: f64 = 980.0;
    const H: f64 = 520.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 700.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 470.0;
    let max_x = rows
        .iter()
        .filter_map(|r| r.curve.last().map(|p| p.0))
        .max()
        .unwrap_or(256)
        .max(1) as f64;
    let x = |r: f64| LEFT + (r / max_x) * (RIGHT - LEFT);
    let y = |share: f64| BOTTOM - share * (BOTTOM - TOP);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += &format!(
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\">Occupancy against registers per thread (share of each unit's thread slots)</text>\n"
    );
    for tick in 0..=10 {
        let share = tick as f64 / 10.0;
        s += &format!(
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{RIGHT}\" y2=\"{yy:.1}\" stroke=\"#e0e0e0\"/>\n<text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{p}%</text>\n",
            yy = y(share),
            tx = LEFT - 6.0,
            ty = y(share) + 4.0,
            p = tick * 10
        );
    }
    let mut r = 0u32;
    while f64::from(r) <= max_x {
        s += &format!(
            "<line x1=\"{xx:.1}\" y1=\"{TOP}\" x2=\"{xx:.1}\" y2=\"{BOTTOM}\" stroke=\"#f0f0f0\"/>\n<text x=\"{xx:.1}\" y=\"{ty}\" text-anchor=\"middle\">{r}</text>\n",
            xx = x(f64::from(r)),
            ty = BOTTOM + 16.0
        );
        r += 32;
    }
    s += &format!(
        "<line x1=\"{m:.1}\" y1=\"{TOP}\" x2=\"{m:.1}\" y2=\"{BOTTOM}\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n<text x=\"{m:.1}\" y=\"{t}\" text-anchor=\"middle\">{marker}</text>\n",
        m = x(f64::from(marker)),
        t = TOP - 4.0
    );
    s += &format!(
        "<text x=\"{cx:.1}\" y=\"{ty}\" text-anchor=\"middle\">registers per thread (AMD: VGPRs per wave)</text>\n<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{RIGHT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n",
        cx = (LEFT + RIGHT) / 2.0,
        ty = BOTTOM + 36.0
    );
    for (i, row) in rows.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let slots = f64::from(row.slots.max(1));
        let mut points = Vec::new();
        let mut prev: Option<f64> = None;
        for &(regs, waves) in &row.curve {
            let share = f64::from(waves) / slots;
            let px = x(f64::from(regs) - 1.0);
            // Only the corners of the steps.
            match prev {
                Some(p) if p == share => continue,
                Some(p) => points.push(format!("{px:.1},{:.1}", y(p))),
                None => {}
            }
            points.push(format!("{px:.1},{:.1}", y(share)));
            prev = Some(share);
        }
        if let (Some(&(regs, _)), Some(p)) = (row.curve.last(), prev) {
            points.push(format!("{:.1},{:.1}", x(f64::from(regs)), y(p)));
        }
        // Lines of equal curves would hide each other: dash every other one.
        let dash = if i % 2 == 1 {
            " stroke-dasharray=\"6 3\""
        } else {
            ""
        };
        s += &format!(
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.8\"{dash} points=\"{}\"/>\n",
            points.join(" ")
        );
        let ly = TOP + 10.0 + i as f64 * 17.0;
        s += &format!(
            "<line x1=\"{lx}\" y1=\"{ly:.1}\" x2=\"{lx2}\" y2=\"{ly:.1}\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>\n<text x=\"{tx}\" y=\"{ty:.1}\">{label}</text>\n",
            lx = RIGHT + 20.0,
            lx2 = RIGHT + 44.0,
            tx = RIGHT + 50.0,
            ty = ly + 4.0,
            label = escape(&format!("{} {} ({} slots)", row.arch, row.unit, row.slots))
        );
    }
    s += "</svg>\n";
    s
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let (rows, notes) = rows(&args)?;
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
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
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
