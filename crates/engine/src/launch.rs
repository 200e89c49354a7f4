//! The host's launch (`[launch]`, `--grid`/`--global`/`--block`): which workgroups the whole
//! GPU runs, and the part of them one simulated compute unit stands for.
//!
//! Every CU of the GPU runs the same kernel, so one CU that takes the busiest CU's share of the
//! grid (`ceil(workgroups / CUs)` workgroups, dealt as the dispatcher deals them: in turn, each
//! to a CU with room) is simulated, and its clocks are the dispatch's body. The levels the
//! whole chip shares (L2, Infinity Cache, memory) serve the CUs that have work: with fewer
//! workgroups than CUs, each busy CU gets `CUs / workgroups` shares of their bandwidth.

use crate::config::{DispatchConfig, LaunchPlan};
use shadersim_trace::{HintsError, LaunchHints};

/// Most workgroups the simulated CU runs; a CU's share past it is extrapolated from the
/// simulated ones (the report says so). An assumption that keeps a run short: by then a run
/// is many rounds of resident workgroups deep and in its steady state.
pub const MAX_SIMULATED_GROUPS: u64 = 2048;

/// The dispatch keys a launch must agree with.
#[derive(Debug, Clone, Copy)]
pub struct LaunchKeys<'a> {
    /// `[dispatch] waves`.
    pub waves: Option<&'a toml::Spanned<u32>>,
    /// `[dispatch] workgroup_size`.
    pub workgroup_size: Option<&'a toml::Spanned<u32>>,
    /// The kernel's required workgroup size (`reqd_work_group_size`).
    pub declared: Option<[u32; 3]>,
}

/// Apply `[launch]` (the CLI's `--grid`, `--global`, `--block` arrive as the same keys) to the
/// dispatch: the workgroup size from the block, the workgroups the simulated CU runs from the
/// grid, on a GPU of `gpu_cus` CUs. `waves` in the same hints would say the same thing twice
/// and is refused.
pub fn apply_launch(
    launch: &LaunchHints,
    keys: LaunchKeys<'_>,
    gpu_cus: u32,
    dispatch: &mut DispatchConfig,
    notes: &mut Vec<String>,
) -> Result<(), HintsError> {
    let LaunchKeys {
        waves: waves_hint,
        workgroup_size: workgroup_hint,
        declared,
    } = keys;
    let Some(shape) = launch.shape(declared, dispatch.workgroup_size)? else {
        // No launch: say what ran instead (the same words whether a hint or the default gave
        // the numbers, so a hints file spelling out the defaults changes nothing).
        notes.push(format!(
            "no launch grid: {} workgroups of {} work-items ({}) on one CU, as [dispatch] `waves` and `workgroup_size` say (500 and 64 unless given); give --grid (or --global) and --block for the kernel's time on the whole GPU",
            dispatch.count,
            dispatch.workgroup_size,
            if declared.is_some_and(|d| d[1] > 1 || d[2] > 1) {
                "the kernel's required shape"
            } else {
                "one-dimensional"
            }
        ));
        return Ok(());
    };
    let threads = shape.block.iter().product::<u64>();
    if let (Some(b), true) = (&launch.block, shape.block_given) {
        if let Some(w) = workgroup_hint.filter(|w| u64::from(*w.get_ref()) != threads) {
            return Err(HintsError::at(
                w.span(),
                format!(
                    "workgroup_size = {} disagrees with the launch's block of {threads} work-items",
                    w.get_ref()
                ),
            ));
        }
        if let Some(r) = declared.filter(|r| r.map(u64::from) != shape.block) {
            let d = shape.block;
            return Err(HintsError::at(
                b.span(),
                format!("[launch] block {}x{}x{} differs from the {}x{}x{} the kernel requires (reqd_work_group_size)", d[0], d[1], d[2], r[0], r[1], r[2]),
            ));
        }
    } else {
        let b = shape.block;
        notes.push(format!(
            "launch: no block given; workgroups of {}x{}x{} work-items ({})",
            b[0],
            b[1],
            b[2],
            if declared.is_some() {
                "the kernel's required size"
            } else {
                "the default workgroup size; give --block"
            }
        ));
    }
    // At most 1024 work-items a dimension (checked by `shape`): they fit.
    let block = shape.block.map(|d| d as u32);
    dispatch.workgroup_size = block.iter().product();
    let Some(grid) = shape.grid else {
        notes.push("launch: a block but no grid; the kernel time needs --grid or --global".into());
        return Ok(());
    };
    let global = shape.global;
    if let Some(d) = global.filter(|d| (0..3).any(|i| d[i] % u64::from(block[i]) != 0)) {
        notes.push(format!(
            "launch: the global size {}x{}x{} is no multiple of the block; the last workgroups of a dimension are partial and are simulated whole",
            d[0], d[1], d[2]
        ));
    }
    if let Some(w) = waves_hint {
        return Err(HintsError::at(
            w.span(),
            "`waves` and the launch's grid both say how many workgroups run; give one",
        ));
    }
    let gpu_cus = gpu_cus.max(1);
    let span = launch
        .grid
        .as_ref()
        .or(launch.global.as_ref())
        .map(|g| g.span());
    let workgroups = grid
        .iter()
        .try_fold(1u64, |a, &d| a.checked_mul(d))
        .ok_or_else(|| HintsError {
            span: span.clone(),
            message: "[launch] the grid has more workgroups than fit in 64 bits".into(),
        })?;
    let groups_per_cu = workgroups.div_ceil(u64::from(gpu_cus));
    let active_cus = workgroups.min(u64::from(gpu_cus)) as u32;
    let simulated_groups = groups_per_cu.min(MAX_SIMULATED_GROUPS);
    dispatch.count = simulated_groups as u32;
    let plan = LaunchPlan {
        grid,
        block,
        global,
        gpu_cus,
        active_cus,
        groups_per_cu,
        simulated_groups,
        working_groups: workgroups,
        guard: None,
    };
    dispatch.chip_shares = plan.chip_shares();
    dispatch.launch = Some(plan);
    Ok(())
}

impl LaunchPlan {
    /// Only `working` workgroups pass the entry guard `compare` at `line`: the busiest CU's
    /// workgroups with work are `ceil(working / gpu_cus)` (at least one is simulated).
    pub fn guarded(&mut self, working: u64, line: u32, compare: String) {
        self.working_groups = working;
        self.guard = Some((line, compare));
        self.groups_per_cu = working.div_ceil(u64::from(self.gpu_cus.max(1))).max(1);
        self.active_cus = working.clamp(1, u64::from(self.gpu_cus)) as u32;
        self.simulated_groups = self.groups_per_cu.min(MAX_SIMULATED_GROUPS);
    }
}

/// Workgroups whose lanes all fail the kernel's entry guard
/// ([`shadersim_trace::entry_guard`]) have no work: the busiest CU's share, the CUs with work and
/// the simulated workgroups become those of the workgroups with work.
pub fn apply_entry_guard(
    program: &shadersim_asm::Program,
    cfg: &shadersim_cfg::Cfg,
    dispatch: &mut DispatchConfig,
) {
    let Some(plan) = dispatch.launch.as_mut() else {
        return;
    };
    let Some(g) = shadersim_trace::entry_guard(program, cfg, plan.grid, plan.block) else {
        return;
    };
    if g.working_groups < plan.workgroups() {
        plan.guarded(g.working_groups, g.line, g.compare);
        dispatch.count = plan.simulated_groups as u32;
        dispatch.chip_shares = plan.chip_shares();
    }
}

/// The workgroup's shape: the launch's block, else the kernel's required size, else one row of
/// the dispatch's work-items (what the run simulates).
pub fn block_shape(
    launch: &LaunchHints,
    program: &shadersim_asm::Program,
    dispatch: &DispatchConfig,
) -> Result<[u32; 3], HintsError> {
    Ok(launch
        .shape(program.declared.workgroup_size, dispatch.workgroup_size)?
        .map(|s| s.block.map(|d| d as u32))
        .or(program.declared.workgroup_size)
        .unwrap_or([dispatch.workgroup_size.max(1), 1, 1]))
}
