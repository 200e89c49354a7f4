//! Lane divergence in a run: which traces waves can share, and the lane
//! figures of the report (mean active lanes per instruction, SIMD lane
//! utilization).
//!
//! The cycle loop never sees a mask: what a mask changes is compiled into
//! the ops a trace names (a VMEM op with lanes masked off is its own
//! static op with the coalescer's cost for that EXEC mask, see
//! `ops::SimProgram::compile`), so one-CU runs without lane hints cost
//! nothing extra. Lanes do not change a VALU op's clocks: a masked lane
//! idles in its pass, which is what the utilization measures.

use crate::ops::{full_mask, OpKind, SimProgram};
use shadersim_asm::Program;
use shadersim_trace::WaveTrace;

/// What decides whether two waves may share a compiled trace: the path,
/// and the EXEC masks of its vector memory ops (the only ops whose cost
/// depends on the mask). Waves whose VALU ops alone are masked share.
pub fn trace_key(program: &Program, t: &WaveTrace, wave_size: u32) -> (Vec<u32>, Vec<u64>) {
    let full = full_mask(wave_size);
    let masks = if t.lanes.is_empty() {
        Vec::new()
    } else {
        t.ops
            .iter()
            .zip(&t.lanes)
            .filter(|(&i, _)| program.instructions[i as usize].inst.class().is_vmem())
            .map(|(_, &m)| m & full)
            .collect()
    };
    (t.ops.clone(), masks)
}

/// Active lanes summed over every execution of each static instruction,
/// over all waves of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LaneTally {
    /// Sum of active lanes per static instruction.
    pub active: Vec<u64>,
    /// Executions per static instruction.
    pub executions: Vec<u64>,
}

impl LaneTally {
    /// An empty tally for a program of `n` instructions.
    pub fn new(n: usize) -> LaneTally {
        LaneTally {
            active: vec![0; n],
            executions: vec![0; n],
        }
    }

    /// Add one wave's trace.
    pub fn add(&mut self, t: &WaveTrace, wave_size: u32) {
        let full = full_mask(wave_size);
        for (k, &i) in t.ops.iter().enumerate() {
            let m = t.lanes.get(k).map_or(full, |m| m & full);
            self.active[i as usize] += u64::from(m.count_ones());
            self.executions[i as usize] += 1;
        }
    }
}

/// The lane figures of a run with lane hints.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneFigures {
    /// Mean active lanes per execution of each static instruction (the
    /// wave size for one never executed).
    pub mean_active: Vec<f64>,
    /// Active lanes x VALU clocks over lanes x VALU clocks, over all
    /// waves: 1 when no lane is ever masked (what profilers call thread
    /// divergence, as a utilization).
    pub utilization: f64,
}

impl LaneFigures {
    /// The figures of `tally` with the VALU clocks of the compiled ops.
    pub fn new(tally: &LaneTally, sim: &SimProgram, wave_size: u32) -> LaneFigures {
        let lanes = f64::from(wave_size.max(1));
        let mean_active = tally
            .active
            .iter()
            .zip(&tally.executions)
            .map(|(&a, &e)| if e == 0 { lanes } else { a as f64 / e as f64 })
            .collect();
        let (mut used, mut offered) = (0f64, 0f64);
        for (i, &op) in sim.op_of_instr.iter().enumerate() {
            let op = &sim.ops[op as usize];
            if op.kind != OpKind::Unit || !op.class.is_valu() {
                continue;
            }
            let clocks = f64::from(op.cost);
            used += clocks * tally.active[i] as f64;
            offered += clocks * lanes * tally.executions[i] as f64;
        }
        LaneFigures {
            mean_active,
            utilization: if offered > 0.0 { used / offered } else { 1.0 },
        }
    }
}
