//! `shadersim coalesce` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `shadersim coalesce`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run the command.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::Usage("`coalesce` is not built yet".into()))
}
