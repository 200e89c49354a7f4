//! One module per subcommand: its clap `Args` and a `run` function.

pub mod coalesce;
pub mod nami;
pub mod rt;
