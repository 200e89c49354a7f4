//! `shadersim rt --hints-for KERNEL --hints-out H.toml`: a hints file that
//! makes `analyze KERNEL --hints H.toml` simulate a traversal kernel with
//! the per-ray step counts a real mesh produced.
//!
//! The rays, in the order `rt` generates them (primary rays row by row),
//! are dealt to waves of `wave_size` consecutive rays. A wave's traversal
//! loop runs until its last ray is done, so its iteration count is the most
//! steps (intersect instructions) of its rays; the lanes whose rays finished
//! earlier are masked off, which `[[memory]] active_lanes` on the BVH
//! instruction tells the ray accelerator (the mean fraction of lane-steps
//! that do work). `box_fraction` is the share of fetched nodes that are box
//! nodes. The loop is the innermost one holding the kernel's first BVH
//! instruction; how often that instruction runs per loop iteration comes
//! from expanding the kernel's own control flow, so kernels whose loop test
//! is at the top or the bottom both come out right.

use crate::error::CliError;
use crate::input::{read_input, select_program};
use shadersim_cfg::Cfg;
use shadersim_isa::InstrClass;
use shadersim_rt::traverse::RayCounters;
use shadersim_trace::{TracePlan, TraceWalk};
use std::fmt::Write as _;

/// What the written hints say, for the command's own report.
pub struct TraversalHints {
    /// The hints file text.
    pub text: String,
    /// Waves the hints dispatch.
    pub waves: usize,
    /// Mean iterations of the loop per wave.
    pub mean_iterations: f64,
    /// Mean fraction of active lanes.
    pub active_lanes: f64,
    /// Fraction of nodes that are box nodes.
    pub box_fraction: f64,
}

/// What the hints need of one layout's rays, gathered ray by ray so the
/// rays never have to be held at once: the most steps of each wave of
/// `wave_size` consecutive rays, and sums.
pub struct WaveSteps {
    wave_size: u32,
    /// Most steps of each complete wave, in wave order.
    wave_max: Vec<u64>,
    /// Steps summed over every lane (ray).
    lane_steps: u64,
    /// Nodes fetched and box nodes among them, over every ray.
    nodes: u64,
    boxes: u64,
    rays: usize,
    /// The wave being filled: rays so far and their most steps.
    open: (u32, u64),
}

impl WaveSteps {
    /// Nothing gathered yet, for waves of `wave_size` (32 or 64) lanes.
    pub fn new(wave_size: u32) -> Result<WaveSteps, CliError> {
        if wave_size != 32 && wave_size != 64 {
            return Err(CliError::Usage(format!(
                "--hints-wave-size takes 32 or 64, not {wave_size}"
            )));
        }
        Ok(WaveSteps {
            wave_size,
            wave_max: Vec::new(),
            lane_steps: 0,
            nodes: 0,
            boxes: 0,
            rays: 0,
            open: (0, 0),
        })
    }

    /// Add the next ray's counters.
    pub fn push(&mut self, c: &RayCounters) {
        self.lane_steps += c.steps;
        self.nodes += c.nodes_fetched;
        self.boxes += c.box_nodes;
        self.rays += 1;
        self.open = (self.open.0 + 1, self.open.1.max(c.steps));
        if self.open.0 == self.wave_size {
            self.wave_max.push(self.open.1);
            self.open = (0, 0);
        }
    }

    /// Most steps of every wave, the last (partial) one included.
    fn wave_max(&self) -> Vec<u64> {
        let mut w = self.wave_max.clone();
        if self.open.0 > 0 {
            w.push(self.open.1);
        }
        w
    }
}

/// Build the hints for `kernel` (a file path) from the rays of one layout
/// gathered in `steps`. `mesh_label` and `layout` go into the file's header
/// comment.
pub fn traversal_hints(
    kernel: &str,
    steps: &WaveSteps,
    mesh_label: &str,
    layout: &str,
) -> Result<TraversalHints, CliError> {
    let wave_size = steps.wave_size;
    let file = read_input(kernel, None)?;
    let program = select_program(&file, None)?;
    let cfg = Cfg::build(program).map_err(|e| CliError::input(format!("{kernel}: error: {e}")))?;
    let bvh = program
        .instructions
        .iter()
        .position(|s| s.inst.class() == InstrClass::VmemImageBvh)
        .ok_or_else(|| {
            CliError::input(format!(
                "{kernel}: error: no image_bvh*_intersect_ray instruction: not a traversal kernel"
            ))
        })?;
    let block = cfg
        .blocks
        .iter()
        .position(|b| b.start <= bvh && bvh < b.end)
        .ok_or_else(|| {
            CliError::input(format!(
                "{kernel}: error: the BVH instruction is in no block"
            ))
        })?;
    let lp = cfg
        .loops
        .iter()
        .filter(|l| l.contains(block))
        .max_by_key(|l| l.depth)
        .ok_or_else(|| {
            CliError::input(format!(
                "{kernel}: error: the BVH instruction at line {} is in no loop",
                program.instructions[bvh].pos.line
            ))
        })?;
    // Executions of the BVH instruction as a function of the loop's count:
    // a x iterations + b.
    let runs = |k: u32| -> Result<i64, CliError> {
        let mut plan = TracePlan::defaults(program, &cfg);
        plan.iterations[lp.id] = k;
        let t = TraceWalk::new(program, &cfg, &plan)
            .summary(None)
            .map_err(|e| CliError::input(format!("{kernel}: error: {e}")))?;
        Ok(t.executions[bvh] as i64)
    };
    let (f2, f3) = (runs(2)?, runs(3)?);
    let a = f3 - f2;
    let b = f2 - 2 * a;
    if a <= 0 {
        return Err(CliError::input(format!(
            "{kernel}: error: the BVH instruction does not run once per iteration of its loop"
        )));
    }
    let iterations_for = |steps: u64| -> u32 {
        let k = (steps as i64 - b).max(0);
        u32::try_from((k + a - 1) / a).unwrap_or(u32::MAX).max(1)
    };
    let mut iterations = Vec::new();
    let mut wave_steps = 0u64;
    for max in steps.wave_max() {
        let max = max.max(1);
        wave_steps += max * u64::from(wave_size);
        iterations.push(iterations_for(max));
    }
    let lane_steps = steps.lane_steps;
    let active = (lane_steps as f64 / wave_steps.max(1) as f64).clamp(0.001, 1.0);
    let (nodes, boxes) = (steps.nodes, steps.boxes);
    let box_fraction = if nodes == 0 {
        0.5
    } else {
        (boxes as f64 / nodes as f64).clamp(0.0, 1.0)
    };
    let header_line = program.instructions[cfg.blocks[lp.header].start].pos.line;
    let bvh_line = program.instructions[bvh].pos.line;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# Hints for {kernel}, written by `shadersim rt {mesh_label}` ({layout})."
    );
    let _ = writeln!(
        t,
        "# {} rays in waves of {wave_size} consecutive rays; each wave's traversal loop runs as many",
        steps.rays
    );
    let _ = writeln!(
        t,
        "# iterations as its longest ray has steps; finished lanes are masked off."
    );
    let _ = writeln!(
        t,
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = {wave_size}"
    );
    let _ = writeln!(t, "waves = {}\nwave_size = {wave_size}\n", iterations.len());
    let _ = writeln!(t, "[[loop]]\nline = {header_line}");
    let list: Vec<String> = iterations.iter().map(u32::to_string).collect();
    let _ = writeln!(t, "iterations = [{}]\n", list.join(", "));
    let _ = writeln!(t, "[[memory]]\nline = {bvh_line}");
    let _ = writeln!(
        t,
        "box_fraction = {box_fraction:.4}\nactive_lanes = {active:.4}"
    );
    let mean_iterations =
        iterations.iter().map(|&i| f64::from(i)).sum::<f64>() / iterations.len().max(1) as f64;
    Ok(TraversalHints {
        text: t,
        waves: iterations.len(),
        mean_iterations,
        active_lanes: active,
        box_fraction,
    })
}
