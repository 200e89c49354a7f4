//! The whole dispatch's duration on the whole GPU, from one simulated compute unit.
//!
//! The launch (`LaunchPlan`) deals `W` workgroups to the GPU's `C` CUs; the busiest CU runs
//! `ceil(W / C)` of them (of the workgroups with work, when an entry guard empties the others), which is what the run simulated (with the chip-wide levels' bandwidth
//! shared by the CUs that have work). The kernel time is
//!
//! `launch + max(busiest CU's clocks, W / GPU dispatch rate) / clock`
//!
//! * the busiest CU's clocks include its rounds of resident workgroups and its last, partial
//!   round (the CUs with one workgroup fewer sit idle then); past
//!   `launch::MAX_SIMULATED_GROUPS` workgroups they are the simulated clocks scaled by the
//!   workgroups (a steady state, said in the report);
//! * the dispatch rate is the model's `dispatch_workgroups_per_clock` for the whole GPU: a
//!   kernel of many tiny workgroups is bound by starting them;
//! * `kernel_launch_us` is the fixed cost a profiler's duration of an empty kernel shows.

use crate::run::Simulation;
use crate::stats::SimStats;
use shadersim_arch::ArchError;

/// The kernel time and how it was composed.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelTime {
    /// Predicted duration of the dispatch, microseconds.
    pub us: f64,
    /// The fixed launch cost (`kernel_launch_us`).
    pub launch_us: f64,
    /// The busiest CU's time for its workgroups, microseconds.
    pub cu_us: f64,
    /// The time to start every workgroup at the GPU's dispatch rate, microseconds.
    pub dispatch_us: f64,
    /// What bound the body: `"compute units"` or `"dispatch"`.
    pub bound: &'static str,
    /// Workgroups of the dispatch.
    pub workgroups: u64,
    /// Workgroups with work (past the kernel's entry guard; all of them without one).
    pub working_groups: u64,
    /// CUs of the GPU, and those with work.
    pub gpu_cus: u32,
    /// CUs with at least one workgroup.
    pub active_cus: u32,
    /// Workgroups of the busiest CU.
    pub workgroups_per_cu: u64,
    /// Workgroups one CU holds at once (occupancy).
    pub resident_workgroups_per_cu: u64,
    /// Rounds of resident workgroups the busiest CU runs (the last may be partial).
    pub rounds: u64,
    /// CUs that take the busiest CU's count of workgroups (the others take one fewer and sit
    /// idle at the end).
    pub tail_cus: u32,
    /// Workgroups the simulated CU ran; fewer than `workgroups_per_cu` when extrapolated.
    pub simulated_workgroups: u64,
    /// Clocks the simulated CU took for them.
    pub simulated_clocks: u64,
    /// The busiest CU's clocks (the simulated ones, scaled when extrapolated).
    pub cu_clocks: f64,
    /// The model's clock, MHz.
    pub clock_mhz: f64,
    /// Shares of the chip-wide levels' bandwidth each busy CU had.
    pub chip_shares: f64,
    /// The loop simulated for fewer trips than it makes, when a wave's whole trace would
    /// pass the bound ([`crate::loop_sample`]).
    pub sampled_loop: Option<SampledLoop>,
    /// One line: how the time was composed.
    pub statement: String,
}

/// A loop the run simulated for fewer trips, and the rate its other trips were added at.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledLoop {
    /// The loop header's line in the listing.
    pub line: u32,
    /// Trips the loop makes.
    pub trips: u32,
    /// Trips the run simulated.
    pub simulated_trips: u32,
    /// Trips of the shorter run the rate comes from.
    pub shorter_trips: u32,
    /// Clocks of the shorter run.
    pub shorter_clocks: u64,
    /// Clocks per trip: the two runs' difference over their trips' difference.
    pub clocks_per_trip: f64,
}

/// The kernel time of `sim`'s launch from the run's statistics, or `None` without a launch
/// that gives a grid.
pub fn kernel_time(sim: &Simulation, stats: &SimStats) -> Result<Option<KernelTime>, ArchError> {
    let Some(plan) = &sim.dispatch.launch else {
        return Ok(None);
    };
    let arch = &sim.arch;
    let clock_mhz = arch.get_f64("clock_mhz")?.max(f64::MIN_POSITIVE);
    let launch_us = arch.get_f64("kernel_launch_us")?;
    let rate = arch
        .get_f64("dispatch_workgroups_per_clock")?
        .max(f64::MIN_POSITIVE);
    let workgroups = plan.workgroups();
    let simulated = plan.simulated_groups.max(1);
    // A loop sampled for fewer trips: the run's clocks plus the trips left out.
    let run_clocks = sim
        .loop_sample
        .as_ref()
        .map_or(stats.clocks as f64, |s| s.whole_clocks(stats.clocks));
    let cu_clocks = run_clocks * plan.groups_per_cu as f64 / simulated as f64;
    let dispatch_clocks = workgroups as f64 / rate;
    let to_us = |clocks: f64| clocks / clock_mhz;
    let (cu_us, dispatch_us) = (to_us(cu_clocks), to_us(dispatch_clocks));
    let bound = if dispatch_us > cu_us {
        "dispatch"
    } else {
        "compute units"
    };
    let us = launch_us + cu_us.max(dispatch_us);
    let group_waves = u64::from(
        sim.dispatch
            .workgroup_size
            .div_ceil(sim.dispatch.wave_size.max(1)),
    );
    let simds = u64::from(arch.get_u32("simds")?.max(1));
    let by_waves = u64::from(sim.occupancy.waves_per_simd) * simds / group_waves.max(1);
    // LDS may hold fewer workgroups than the wave slots do (one 64 KiB
    // one-wave workgroup on a CU of four SIMDs): dispatch admits a workgroup
    // only while its LDS fits, so the rounds count what the LDS holds.
    let by_lds = sim
        .occupancy
        .lds_workgroups_per_cu
        .map_or(by_waves, u64::from);
    let resident = by_waves.min(by_lds).max(1);
    let rounds = plan.groups_per_cu.div_ceil(resident);
    let working = plan.working_groups;
    let last = working % u64::from(plan.gpu_cus);
    let tail_cus = if last == 0 {
        plan.active_cus
    } else {
        last as u32
    };
    let extrapolated = simulated < plan.groups_per_cu;
    let statement = format!(
        "{us:.2} us = {launch_us:.2} us launch + {body:.2} us bound by the {bound}: {workgroups} workgroups{guard} on {active} of {cus} CUs, {per_cu} on the busiest ({rounds} round{s} of up to {resident} resident{tail}), {cu_clocks:.0} clocks at {clock_mhz} MHz{extra}; starting every workgroup at {rate} per clock takes {dispatch_us:.2} us",
        body = cu_us.max(dispatch_us),
        active = plan.active_cus,
        cus = plan.gpu_cus,
        per_cu = plan.groups_per_cu,
        s = if rounds == 1 { "" } else { "s" },
        guard = match &plan.guard {
            Some((line, compare)) => format!(
                ", {working} with work (the others' lanes all fail the entry guard `{compare}` at line {line} and skip the body; only their dispatch is charged),"
            ),
            None => String::new(),
        },
        tail = if last != 0 && working > u64::from(plan.gpu_cus) {
            format!(
                "; {tail_cus} CUs take {} and the other {} one fewer, sitting idle at the end",
                plan.groups_per_cu,
                plan.gpu_cus - tail_cus
            )
        } else {
            String::new()
        },
        extra = if extrapolated {
            format!(
                " (the first {simulated} workgroups simulated, {} clocks, scaled to {})",
                stats.clocks, plan.groups_per_cu
            )
        } else {
            String::new()
        },
    );
    let statement = match &sim.loop_sample {
        Some(l) => format!(
            "{statement}; the loop at line {} ran {} of its {} trips, the other {} added at {:.0} clocks per trip (the difference from a run of {} trip{})",
            l.line,
            l.sampled,
            l.trips,
            l.trips - l.sampled,
            l.clocks_per_trip(stats.clocks),
            l.shorter,
            if l.shorter == 1 { "" } else { "s" }
        ),
        None => statement,
    };
    Ok(Some(KernelTime {
        us,
        launch_us,
        cu_us,
        dispatch_us,
        bound,
        workgroups,
        working_groups: working,
        gpu_cus: plan.gpu_cus,
        active_cus: plan.active_cus,
        workgroups_per_cu: plan.groups_per_cu,
        resident_workgroups_per_cu: resident,
        rounds,
        tail_cus,
        simulated_workgroups: simulated,
        simulated_clocks: stats.clocks,
        cu_clocks,
        clock_mhz,
        chip_shares: plan.chip_shares(),
        sampled_loop: sim.loop_sample.as_ref().map(|l| SampledLoop {
            line: l.line,
            trips: l.trips,
            simulated_trips: l.sampled,
            shorter_trips: l.shorter,
            shorter_clocks: l.shorter_clocks,
            clocks_per_trip: l.clocks_per_trip(stats.clocks),
        }),
        statement,
    }))
}
