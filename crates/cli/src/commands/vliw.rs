//! TeraScale (R600 backend) files: reading them into programs, and the
//! `vliw` part of `analyze`'s report (packing, slots, clauses, `--repack`).

use crate::error::CliError;
use shadersim_arch::ArchSpec;
use shadersim_asm::ProgramFile;
use shadersim_r600::reader::read_r600;
use shadersim_r600::summary::{repack, PeakInputs};
use shadersim_r600::table::ChipClass;
use shadersim_r600::R600File;
use shadersim_r600::VliwSummary;
use shadersim_report::analyze_view::AnalyzeReport;

/// The chip to read an R600 file for: the `--arch` target when it is a
/// TeraScale chip, else `None` (the reader guesses from the text).
fn chip_of(arch: Option<&str>) -> Option<&str> {
    arch.filter(|a| ChipClass::of_target(a).is_some())
}

/// Read an R600 file's text: the file as read, and the programs every
/// command works on (its warnings are in them, for the caller to print).
pub fn read_program_file(
    name: &str,
    text: &str,
    arch: Option<&str>,
) -> Result<(R600File, ProgramFile), CliError> {
    let file = read_r600(name, text, chip_of(arch)).map_err(|e| CliError::Input(e.to_string()))?;
    let (programs, _) = shadersim_r600::lower_file(&file);
    Ok((file, programs))
}

/// The `vliw` summary of the report's program, when the file is an R600
/// file (`file`, as read when the program was loaded: the summary needs
/// the groups' slots).
pub fn summary(
    file: Option<&R600File>,
    arch: &ArchSpec,
    report: &AnalyzeReport,
    stats: &shadersim_engine::SimStats,
    with_repack: bool,
) -> Result<Option<VliwSummary>, CliError> {
    let Some(file) = file else {
        return Ok(None);
    };
    let Some(kernel) = file.kernels.iter().find(|k| k.name == report.program) else {
        return Ok(None);
    };
    let lowered = shadersim_r600::lower(file, kernel);
    let mut executions = vec![0u64; lowered.facts.len()];
    for i in &report.instructions {
        if let Some(e) = executions.get_mut(i.index) {
            *e = i.executions;
        }
    }
    let p = |n: &str, d: f64| arch.param(n).unwrap_or(d);
    let peak = PeakInputs {
        slots: p("vliw_slots", 5.0) as u32,
        lanes: p("simd_lanes", 16.0) as u32,
        simds: p("gpu_cus", 1.0),
        clock_mhz: p("clock_mhz", 1000.0),
    };
    let mut s = VliwSummary::new(
        &file.chip,
        kernel,
        &lowered.facts,
        &executions,
        u64::from(report.waves),
        report.clocks,
        peak,
    );
    for name in &stats.unit_names {
        s.engine_utilization
            .insert(name.clone(), stats.utilization(name));
    }
    if with_repack {
        let chip = ChipClass::of_target(&arch.isa.name)
            .or_else(|| ChipClass::of_target(&file.chip))
            .unwrap_or(ChipClass::Evergreen);
        s.repack = Some(repack(kernel, chip));
    }
    Ok(Some(s))
}
