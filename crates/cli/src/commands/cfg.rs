//! `shadersim cfg FILE [--format text|dot|json]`.

use crate::error::{CliError, CliResult};
use crate::input::{read_input, select_program, ProgramArgs};
use shadersim_cfg::Cfg;
use shadersim_report::cfg_view::CfgView;
use std::io::Write;

/// Output formats of `cfg`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CfgFormat {
    /// Blocks, loops and branches as text.
    Text,
    /// Graphviz dot.
    Dot,
    /// JSON.
    Json,
}

/// Arguments of `shadersim cfg`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program to read.
    #[command(flatten)]
    pub program: ProgramArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CfgFormat,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let file = read_input(&args.program.file, args.program.arch.as_deref())?;
    let program = select_program(&file, args.program.function.as_deref())?;
    let cfg = Cfg::build(program)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
    let view = CfgView::new(&file, program, &cfg);
    let text = match args.format {
        CfgFormat::Text => view.to_text(),
        CfgFormat::Dot => view.to_dot(),
        CfgFormat::Json => view.to_json() + "\n",
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
