//! `shadersim hints FILE`: print a complete hints template.

use crate::error::{CliError, CliResult};
use crate::input::{read_input, select_program};
use shadersim_cfg::Cfg;
use shadersim_trace::hints_template;
use std::io::Write;

/// Arguments of `shadersim hints`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Assembly file (`-` for standard input).
    pub file: String,
    /// Program to describe when the file holds several.
    #[arg(long)]
    pub function: Option<String>,
    /// GPU to read the file as when it does not say (gfx900, rdna3, ...).
    #[arg(long)]
    pub arch: Option<String>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let file = read_input(&args.file, args.arch.as_deref())?;
    let program = select_program(&file, args.function.as_deref())?;
    let cfg = Cfg::build(program)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
    let text = hints_template(&file.file_name, program, &cfg);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
