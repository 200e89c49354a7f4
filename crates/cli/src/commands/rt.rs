//! `shadersim rt` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `shadersim rt`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run the command.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::Usage("`rt` is not built yet".into()))
}
