//! `shadersim archs`: the built-in architecture models.

use crate::error::{CliError, CliResult};
use shadersim_arch::ArchSpec;
use shadersim_occupancy::VendorModel;
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
            for m in VendorModel::builtins() {
                out += &format!(
                    "{:<10} {} [occupancy only, not simulated]\n",
                    m.name, m.description
                );
            }
        }
        Some(name) if VendorModel::builtin(name).is_ok() => {
            let m = VendorModel::builtin(name).map_err(|e| CliError::Usage(e.to_string()))?;
            out += &format!(
                "{}: {} [occupancy only, not simulated]\n",
                m.name, m.description
            );
            out += &format!(
                "{:<30} {:>10}  {}\n",
                "register_bits", m.register_bits.value, m.register_bits.source
            );
            for u in &m.units {
                let mut numbers = vec![
                    ("lanes_per_thread", &u.lanes_per_thread),
                    ("units_per_core", &u.units_per_core),
                    ("slots", &u.slots),
                    ("max_registers", &u.max_registers),
                ];
                numbers.extend(
                    u.max_groups_per_core
                        .iter()
                        .map(|g| ("max_groups_per_core", g)),
                );
                if let Some(g) = &u.granule {
                    numbers.extend([("granule.file", &g.file), ("granule.block", &g.block)]);
                }
                for mode in &u.modes {
                    numbers.extend([
                        ("mode.registers", &mode.registers),
                        ("mode.threads", &mode.threads),
                    ]);
                }
                for (k, n) in numbers {
                    out += &format!(
                        "{:<30} {:>10}  {}\n",
                        format!("{}.{k}", u.name),
                        n.value,
                        n.source
                    );
                }
            }
        }
        Some(name) => {
            let spec = crate::commands::prepare::load_arch(name)?;
            out += &format!("{}: {}\n", spec.name, spec.description);
            for (k, p) in &spec.params {
                out += &format!("{k:<30} {:>10}  {}\n", p.value, p.source);
            }
            // The cache hierarchy: level names (for `[[memory]] level`) and
            // the parameters behind each.
            if let Some(c) = &spec.cache {
                out += &format!(
                    // Setting the flat latency no longer switches the
                    // hierarchy off; `memory=flat` does.
                    "cache: vector {}; scalar {}; atomic {}; off with --set memory=flat (every request then takes {})\n",
                    c.vector.join(" -> "),
                    c.scalar.join(" -> "),
                    c.atomic.as_ref().unwrap_or(&c.vector).join(" -> "),
                    c.flat_latency
                );
                for l in &c.level {
                    out += &format!(
                        "  {:<8} capacity {}, line {}, ways {}, latency {}, bytes per clock {}\n",
                        l.name,
                        l.capacity.as_deref().unwrap_or("(memory)"),
                        l.line,
                        l.ways.as_deref().unwrap_or("(full)"),
                        l.latency,
                        l.bytes_per_clock.as_deref().unwrap_or("(not modelled)")
                    );
                }
                for p in &spec.no_allocate {
                    out += &format!(
                        "  accesses with `{}` do not allocate in {}: {}\n",
                        p.flag, p.level, p.source
                    );
                }
            }
        }
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
