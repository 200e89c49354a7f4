//! The report's `kernel_time` object: the dispatch's duration on the whole GPU and how it was
//! composed (`shadersim_engine::analysis::kernel_time`).

use super::numbers::round;
use serde::Serialize;
use shadersim_engine::analysis::kernel_time::KernelTime;

/// How the kernel time was composed (docs/cli.md, JSON report, `kernel_time`).
#[derive(Debug, Clone, Serialize)]
pub struct KernelTimeView {
    /// Predicted duration, microseconds (the top-level `kernel_time_us`).
    pub us: f64,
    /// The fixed launch cost, microseconds.
    pub launch_us: f64,
    /// The busiest CU's time for its workgroups, microseconds.
    pub cu_us: f64,
    /// Starting every workgroup at the GPU's dispatch rate, microseconds.
    pub dispatch_us: f64,
    /// What bound the body: `compute units` or `dispatch`.
    pub bound: String,
    /// Workgroups of the dispatch.
    pub workgroups: u64,
    /// Workgroups with work (past the kernel's entry guard; all of them without one).
    pub workgroups_with_work: u64,
    /// CUs of the GPU.
    pub gpu_cus: u32,
    /// CUs with at least one workgroup.
    pub active_cus: u32,
    /// Workgroups of the busiest CU.
    pub workgroups_per_cu: u64,
    /// Workgroups one CU holds at once.
    pub resident_workgroups_per_cu: u64,
    /// Rounds of resident workgroups on the busiest CU (the last may be partial).
    pub rounds: u64,
    /// CUs that take the busiest CU's count of workgroups (the others one fewer).
    pub tail_cus: u32,
    /// Workgroups the simulated CU ran (fewer than `workgroups_per_cu`: extrapolated).
    pub simulated_workgroups: u64,
    /// Clocks the simulated CU took.
    pub simulated_clocks: u64,
    /// The busiest CU's clocks.
    pub cu_clocks: f64,
    /// The model's clock, MHz.
    pub clock_mhz: f64,
    /// Shares of the chip-wide levels' bandwidth each busy CU had.
    pub chip_shares: f64,
    /// The loop simulated for fewer trips than it makes (a wave's whole trace would pass the
    /// trace bound), or null.
    pub sampled_loop: Option<SampledLoopView>,
    /// One line: how the time was composed.
    pub statement: String,
}

/// A loop the run simulated for fewer trips (docs/cli.md, `kernel_time.sampled_loop`).
#[derive(Debug, Clone, Serialize)]
pub struct SampledLoopView {
    /// The loop header's line in the listing.
    pub line: u32,
    /// Trips the loop makes.
    pub trips: u32,
    /// Trips the run simulated.
    pub simulated_trips: u32,
    /// Trips of the shorter run.
    pub shorter_trips: u32,
    /// Clocks of the shorter run.
    pub shorter_clocks: u64,
    /// Clocks per trip the other trips were added at.
    pub clocks_per_trip: f64,
}

impl From<&KernelTime> for KernelTimeView {
    fn from(k: &KernelTime) -> KernelTimeView {
        KernelTimeView {
            us: round(k.us),
            launch_us: round(k.launch_us),
            cu_us: round(k.cu_us),
            dispatch_us: round(k.dispatch_us),
            bound: k.bound.to_string(),
            workgroups: k.workgroups,
            workgroups_with_work: k.working_groups,
            gpu_cus: k.gpu_cus,
            active_cus: k.active_cus,
            workgroups_per_cu: k.workgroups_per_cu,
            resident_workgroups_per_cu: k.resident_workgroups_per_cu,
            rounds: k.rounds,
            tail_cus: k.tail_cus,
            simulated_workgroups: k.simulated_workgroups,
            simulated_clocks: k.simulated_clocks,
            cu_clocks: round(k.cu_clocks),
            clock_mhz: k.clock_mhz,
            chip_shares: round(k.chip_shares),
            sampled_loop: k.sampled_loop.as_ref().map(|l| SampledLoopView {
                line: l.line,
                trips: l.trips,
                simulated_trips: l.simulated_trips,
                shorter_trips: l.shorter_trips,
                shorter_clocks: l.shorter_clocks,
                clocks_per_trip: round(l.clocks_per_trip),
            }),
            statement: k.statement.clone(),
        }
    }
}
