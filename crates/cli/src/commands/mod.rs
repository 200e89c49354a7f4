//! One module per subcommand: its clap `Args` and a `run` function.

pub mod analyze;
pub mod archs;
pub mod batch;
pub mod cfg;
pub mod coalesce;
pub mod hints;
pub mod nami;
pub mod rt;
