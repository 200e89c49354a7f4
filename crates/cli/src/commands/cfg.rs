//! `shadersim cfg FILE [--format text|dot|json]`.

use crate::error::{CliError, CliResult};
use crate::input::{read_input, select_program};
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
    /// Assembly file (`-` for standard input).
    pub file: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CfgFormat,
    /// Program to show when the file holds several (kernel or function name).
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
    let view = CfgView::new(&file, program, &cfg);
    let text = match args.format {
        CfgFormat::Text => view.to_text(),
        CfgFormat::Dot => view.to_dot(),
        CfgFormat::Json => view.to_json() + "\n",
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
