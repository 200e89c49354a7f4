//! `shadersim hints FILE`: print a complete hints template.

use crate::error::{CliError, CliResult};
use crate::input::{read_listing_with, select_program, ProgramArgs, SourceOptions};
use shadersim_cfg::Cfg;
use shadersim_trace::hints_template;
use std::io::Write;

/// Arguments of `shadersim hints`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program to read.
    #[command(flatten)]
    pub program: ProgramArgs,
    /// Key loops, branches and memory ops by source location (`source =
    /// "FILE:LINE"`, from the listing's `.loc` lines) instead of listing
    /// lines: one file then fits the program compiled for every GPU.
    #[arg(long)]
    pub by_source: bool,
    /// A preprocessor definition for OpenCL C compiled in place, `-D BLOCK_SIZE=16`
    /// (repeatable), as `analyze` and `compare` take it: the template is of the program they run.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let source = SourceOptions {
        defines: &args.define,
        port_es: false,
    };
    let file = read_listing_with(&args.program.file, args.program.arch.as_deref(), source)?.file;
    let program = select_program(&file, args.program.function.as_deref())?;
    let cfg = Cfg::build(program)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
    // The model the program would run on (`--arch`, else its GPU's), for
    // the wave-slot figure the occupancy cap's example shows.
    let model = match args.program.arch.as_deref() {
        Some(a) => crate::commands::prepare::load_arch(a).ok(),
        None => crate::commands::prepare::model_of(program).ok(),
    };
    // The SGPRs the model's occupancy allocates (wave size does not enter
    // the SGPR rule: 64 stands for either), which the report shows.
    let figures = shadersim_trace::ModelFigures {
        wave_slots: model
            .as_ref()
            .and_then(|m| m.get_u32("wave_slots_per_simd").ok()),
        sgprs_allocated: model.as_ref().and_then(|m| {
            shadersim_engine::Occupancy::compute(program, m, 64, 1, None)
                .ok()
                .map(|o| o.sgprs_allocated)
        }),
    };
    let text = match args.by_source {
        true => shadersim_trace::hints_template_by_source(
            &file.file_name,
            program,
            &cfg,
            &file.source_files,
            figures,
        )
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?,
        false => hints_template(&file.file_name, program, &cfg, figures),
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
