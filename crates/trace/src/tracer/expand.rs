//! The reference expansion: [`WaveTrace::expand`] walks the CFG into the
//! whole instruction sequence of one wave in memory. Runs stream traces
//! with `TraceCursor`; this stays as the reference it is tested against.

use super::plan::TracePlan;
use super::rule::decide;
use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::HashMap;

/// The dynamic instruction sequence of one wave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveTrace {
    /// Static instruction index of each dynamic instruction, in order.
    pub ops: Vec<u32>,
    /// Executions per wave of each static instruction.
    pub executions: Vec<u64>,
    /// The EXEC mask (bit per lane) of each dynamic instruction; empty
    /// when every lane runs every instruction (no `lane_probability`).
    pub lanes: Vec<u64>,
}

/// Why a trace could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// The trace would exceed the bound.
    #[error("the trace of one wave would exceed {limit} instructions{}; lower the loop iterations or raise [trace] max_instructions", match (.loop_line, .loop_label) { (Some(l), Some(lbl)) => format!(" in the loop at line {l} ({lbl})"), (Some(l), None) => format!(" in the loop at line {l}"), _ => String::new() })]
    TooLong {
        /// The bound.
        limit: u64,
        /// Header line of the innermost loop being expanded, if any.
        loop_line: Option<u32>,
        /// Its label.
        loop_label: Option<String>,
    },
}

impl WaveTrace {
    /// Walk the CFG from the entry, following `plan`.
    pub fn expand(program: &Program, cfg: &Cfg, plan: &TracePlan) -> Result<WaveTrace, TraceError> {
        WaveTrace::expand_drawn(program, cfg, plan, None)
    }

    /// The trace of wave `wave` (launch order): its per-wave decisions, and
    /// its draws from a generator seeded by the plan's seed and the wave, so
    /// every run with the same seed gives every wave the same path.
    pub fn expand_wave(
        program: &Program,
        cfg: &Cfg,
        plan: &TracePlan,
        wave: u32,
    ) -> Result<WaveTrace, TraceError> {
        use rand::SeedableRng;
        let plan = plan.for_wave(wave);
        if !plan.draws() {
            return WaveTrace::expand(program, cfg, &plan);
        }
        let seed = plan.seed ^ u64::from(wave).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        WaveTrace::expand_drawn(program, cfg, &plan, Some(&mut rng))
    }

    fn expand_drawn(
        program: &Program,
        cfg: &Cfg,
        plan: &TracePlan,
        mut rng: Option<&mut rand_chacha::ChaCha8Rng>,
    ) -> Result<WaveTrace, TraceError> {
        use rand::Rng;
        // Iterations of each loop for its current entry.
        let mut limit = plan.iterations.clone();
        let n = program.instructions.len();
        let mut ops: Vec<u32> = Vec::new();
        let mut executions = vec![0u64; n];
        let mut counter = vec![0u32; cfg.loops.len()];
        // Loops whose count for the coming entry was drawn at their guard
        // (a range from 0 may skip the loop: the guard must see the draw).
        let mut drawn_at_guard = vec![false; cfg.loops.len()];
        let branch_of: HashMap<usize, usize> = cfg
            .branches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.block, i))
            .collect();
        let mut cur = 0usize;
        let mut prev: Option<usize> = None;
        // The wave's EXEC mask, tracked only when lanes diverge.
        let mut lane_state =
            (!plan.lane_branches.is_empty()).then(|| crate::lanes::LaneState::new(plan.wave_lanes));
        let mut lanes: Vec<u64> = Vec::new();
        loop {
            // Entering loop headers: a back edge counts one more trip,
            // entering from outside starts counting again.
            for l in cfg.loops.iter().filter(|l| l.header == cur) {
                counter[l.id] = match prev {
                    Some(p) if l.contains(p) => counter[l.id].saturating_add(1),
                    _ => {
                        // A new entry: a drawn loop draws its count.
                        if std::mem::take(&mut drawn_at_guard[l.id]) {
                            // Drawn already, by the guard that let it in.
                        } else if let (Some(d), Some(r)) =
                            (plan.drawn_iterations.get(&l.id), rng.as_deref_mut())
                        {
                            limit[l.id] = d.draw(r);
                        }
                        1
                    }
                };
            }
            if let Some(ls) = &mut lane_state {
                ls.enter(cur);
            }
            let block = &cfg.blocks[cur];
            if ops.len() as u64 + block.len() as u64 > plan.max_instructions {
                return Err(too_long(program, cfg, plan.max_instructions, cur));
            }
            ops.extend(block.start as u32..block.end as u32);
            if let Some(ls) = &lane_state {
                lanes.extend(std::iter::repeat_n(ls.mask, block.len()));
            }
            for e in &mut executions[block.start..block.end] {
                *e += 1;
            }
            let next = match block.succs.len() {
                0 => break,
                1 => block.succs[0].to,
                _ => {
                    let br = &cfg.branches[branch_of[&cur]];
                    if let (BranchKind::LoopSkip { loop_id }, Some(r)) =
                        (br.kind, rng.as_deref_mut())
                    {
                        if let Some(d) = plan.drawn_iterations.get(&loop_id) {
                            limit[loop_id] = d.draw(r);
                            drawn_at_guard[loop_id] = true;
                        }
                    }
                    let lane_taken = match (
                        lane_state.as_mut(),
                        plan.lane_branches.get(&br.instr),
                        rng.as_deref_mut(),
                    ) {
                        (Some(ls), Some(lb), Some(r)) => Some(ls.diverge(lb, br.taken, r)),
                        (Some(ls), _, _) => ls.else_decision(br.instr),
                        _ => None,
                    };
                    let drawn = match (plan.probability.get(&br.instr), rng.as_deref_mut()) {
                        (Some(&p), Some(r)) => Some(r.gen::<f64>() < p),
                        _ => None,
                    };
                    match lane_taken {
                        Some(true) => br.taken,
                        Some(false) => br.not_taken,
                        None => decide(
                            cfg,
                            br,
                            plan.taken.get(&br.instr).copied(),
                            &counter,
                            &limit,
                            drawn,
                            plan.flag_exits.get(&br.instr).copied(),
                        ),
                    }
                }
            };
            prev = Some(cur);
            cur = next;
        }
        Ok(WaveTrace {
            ops,
            executions,
            lanes,
        })
    }
}

/// The error of a trace that would pass `limit` instructions on entering
/// block `block`, naming the innermost loop around it.
pub(crate) fn too_long(program: &Program, cfg: &Cfg, limit: u64, block: usize) -> TraceError {
    let inner = cfg.innermost_loop[block].map(|l| &cfg.loops[l]);
    TraceError::TooLong {
        limit,
        loop_line: inner.map(|l| program.instructions[cfg.blocks[l.header].start].pos.line),
        loop_label: inner.and_then(|l| cfg.blocks[l.header].label.clone()),
    }
}
