//! `shadersim hints FILE`: print a complete hints template.

use crate::error::{CliError, CliResult};
use crate::input::{read_input, select_program, ProgramArgs};
use shadersim_cfg::Cfg;
use shadersim_trace::hints_template;
use std::io::Write;

/// Arguments of `shadersim hints`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program to read.
    #[command(flatten)]
    pub program: ProgramArgs,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let file = read_input(&args.program.file, args.program.arch.as_deref())?;
    let program = select_program(&file, args.program.function.as_deref())?;
    let cfg = Cfg::build(program)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
    let text = hints_template(&file.file_name, program, &cfg);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
