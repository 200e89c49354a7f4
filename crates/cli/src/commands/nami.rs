//! `shadersim nami` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `shadersim nami`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Run the command.
pub fn run(_args: Args) -> CliResult {
    Err(CliError::Usage("`nami` is not built yet".into()))
}
