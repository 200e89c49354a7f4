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
use shadersim_trace::TraceStep;

/// What decides whether two waves may share a compiled trace: the path,
/// and the EXEC masks of its vector memory ops (the only ops whose cost
/// depends on the mask). Waves whose VALU ops alone are masked share. The
/// sequence is streamed, so it is known by its length and two independent
/// 64-bit hashes of it (a false match needs both to collide at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceKey {
    /// Dynamic instructions.
    pub len: u64,
    /// Hashes of the instructions and the VMEM ops' masks.
    pub hashes: [u64; 2],
}

/// Builds a [`TraceKey`] from a walk, step by step.
#[derive(Debug, Clone)]
pub struct TraceKeyHasher {
    full: u64,
    len: u64,
    hashers: [std::collections::hash_map::DefaultHasher; 2],
}

impl TraceKeyHasher {
    /// A key for waves of `wave_size` lanes.
    pub fn new(wave_size: u32) -> TraceKeyHasher {
        use std::hash::Hasher;
        let mut second = std::collections::hash_map::DefaultHasher::new();
        // A different start makes the second hash independent of the first.
        second.write_u64(0x9E37_79B9_7F4A_7C15);
        TraceKeyHasher {
            full: full_mask(wave_size),
            len: 0,
            hashers: [std::collections::hash_map::DefaultHasher::new(), second],
        }
    }

    /// Add one step; `masks`: the walk tracks EXEC (lane hints).
    pub fn add(&mut self, program: &Program, step: TraceStep, masks: bool) {
        use std::hash::Hasher;
        self.len += 1;
        let vmem = masks
            && program.instructions[step.instr as usize]
                .inst
                .class()
                .is_vmem();
        for h in &mut self.hashers {
            h.write_u32(step.instr);
            if vmem {
                h.write_u64(step.exec & self.full);
            }
        }
    }

    /// The key of the steps added.
    pub fn finish(&self) -> TraceKey {
        use std::hash::Hasher;
        TraceKey {
            len: self.len,
            hashes: [self.hashers[0].finish(), self.hashers[1].finish()],
        }
    }
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

    /// Add one step of a wave's walk.
    pub fn add_step(&mut self, step: TraceStep, wave_size: u32) {
        let m = step.exec & full_mask(wave_size);
        self.active[step.instr as usize] += u64::from(m.count_ones());
        self.executions[step.instr as usize] += 1;
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
