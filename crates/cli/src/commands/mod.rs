//! One module per subcommand: its clap `Args` and a `run` function.

pub mod analyze;
pub mod archs;
pub mod batch;
mod batch_files;
pub mod cfg;
pub mod coalesce;
pub mod compare;
pub mod compile;
pub mod compile_vulkan;
pub mod compiler;
mod glsl_port;
pub mod hints;
pub mod liveness;
pub mod nami;
pub mod occupancy;
pub mod prepare;
pub mod radv_capture;
pub mod rt;
pub mod rt_hints;
pub mod sweep;
pub mod validate;
pub mod validate_time;
pub mod vliw;

/// The worker threads of a command that runs many simulations (`batch`, `sweep`): `jobs` of
/// them (`--jobs`), else one per core.
fn worker_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, crate::error::CliError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        pool = pool.num_threads(n);
    }
    pool.build().map_err(|e| {
        crate::error::CliError::Input(format!("error: cannot start worker threads: {e}"))
    })
}
