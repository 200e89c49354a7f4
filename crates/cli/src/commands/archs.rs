//! `shadersim archs`: the built-in architecture models.

use crate::error::CliResult;
use shadersim_arch::ArchSpec;
use std::io::Write;

/// Arguments of `shadersim archs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Also print every parameter of this model with its value and source.
    #[arg(long)]
    pub params: Option<String>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let mut out = String::new();
    match &args.params {
        None => {
            for (name, description) in ArchSpec::builtin_list() {
                out += &format!("{name:<10} {description}\n");
            }
        }
        Some(name) => {
            let spec = ArchSpec::load(name, &[])
                .map_err(|e| crate::error::CliError::Usage(e.to_string()))?;
            out += &format!("{}: {}\n", spec.name, spec.description);
            for (k, p) in &spec.params {
                out += &format!("{k:<30} {:>10}  {}\n", p.value, p.source);
            }
        }
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
