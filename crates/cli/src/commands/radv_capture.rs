//! `shadersim radv-capture SPIRV...` (hidden): the child process that
//! compiles one pipeline with Mesa RADV and prints the driver's listings
//! and statistics as JSON on standard output.
//!
//! `shadersim compile`/`analyze` on GLSL or SPIR-V run this in a child
//! process with `RADV_FORCE_FAMILY` set and a time limit: the driver reads
//! the variable when it loads, and a driver crash or hang must be an error
//! message of the parent, not a crash of shadersim.
//!
//! The fixture scripts (`scripts/regen-fixtures.sh`,
//! `scripts/regen-aco-listings.sh`) run it directly with `-o STATS.toml`
//! (the statistics shadersim reads beside a listing) and `-a PREFIX` (each
//! executable's listing to `PREFIX.INDEX.s`); with `RADV_DEBUG=shaders` in
//! the environment the driver also dumps to standard error.

use crate::error::{CliError, CliResult};
use shadersim_radv::capture::{capture_pipeline, ShaderModule};
use shadersim_radv::reflect::{reflect, words_from_bytes};
use std::io::Write;

/// Arguments of `shadersim radv-capture`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// SPIR-V modules of one pipeline: a compute shader, a vertex shader,
    /// or a vertex shader then a fragment shader.
    #[arg(required = true)]
    pub spirv: Vec<String>,
    /// Write the statistics (TOML) to this file instead of printing JSON.
    #[arg(short = 'o', long = "stats-out")]
    pub stats_out: Option<String>,
    /// Write executable I's listing to PREFIX.I.s.
    #[arg(short = 'a', long = "asm-prefix")]
    pub asm_prefix: Option<String>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let mut shaders = Vec::new();
    for path in &args.spirv {
        let bytes = std::fs::read(path).map_err(|e| crate::error::cannot_read(path, &e))?;
        let words =
            words_from_bytes(&bytes).map_err(|e| CliError::input(format!("{path}: error: {e}")))?;
        let reflection =
            reflect(&words).map_err(|e| CliError::input(format!("{path}: error: {e}")))?;
        shaders.push(ShaderModule { words, reflection });
    }
    let capture =
        capture_pipeline(&shaders).map_err(|e| CliError::input(format!("error: RADV: {e}")))?;
    let write = |path: &str, text: &str| {
        std::fs::write(path, text)
            .map_err(|e| CliError::input(format!("{path}: error: cannot write: {e}")))
    };
    if let Some(prefix) = &args.asm_prefix {
        for (i, e) in capture.executables.iter().enumerate() {
            let text = e.assembly.as_deref().ok_or_else(|| {
                CliError::input(format!(
                    "error: RADV gave no \"Assembly\" representation of its {}",
                    e.name
                ))
            })?;
            write(&format!("{prefix}.{i}.s"), text)?;
        }
    }
    if let Some(path) = &args.stats_out {
        return write(path, &capture.statistics_toml("shadersim radv-capture"));
    }
    if args.asm_prefix.is_some() {
        return Ok(());
    }
    let json =
        serde_json::to_string(&capture).map_err(|e| CliError::input(format!("error: {e}")))?;
    std::io::stdout()
        .lock()
        .write_all(json.as_bytes())
        .map_err(CliError::Io)
}
