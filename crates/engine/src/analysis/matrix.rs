//! Matrix cores: how busy the run kept them, and the operations per clock it achieved against
//! what the same instruction mix would reach with every matrix pipe busy every clock.
//!
//! Only ops charged by the `matrix_cycles` rule count (CDNA's MFMA/SMFMAC on the matrix core,
//! RDNA 3/4's WMMA/SWMMAC on the VALU); their clocks and operations come from the ISA crate's
//! matrix table (AMD's matrix instruction calculator).

use crate::ops::OpKind;
use crate::run::Simulation;
use crate::stats::SimStats;

/// The matrix-core figures of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixCores {
    /// Matrix instructions a wave executes, on average.
    pub ops_per_wave: f64,
    /// Clocks a wave's matrix instructions hold their pipe, on average (each instruction's
    /// cycles from the matrix table).
    pub busy_clocks_per_wave: f64,
    /// Busy clocks of all matrix pipes over the clocks they were available (run clocks x CUs x
    /// SIMDs, one matrix pipe per SIMD).
    pub utilization: f64,
    /// Operations (2 x M x N x K x blocks per instruction) a wave executes, on average.
    pub flops_per_wave: f64,
    /// Operations per clock per CU the run achieved.
    pub flops_per_clock_per_cu: f64,
    /// Operations per clock per CU with every matrix pipe busy every clock on this program's
    /// mix of matrix instructions (SIMDs x operations / busy clocks).
    pub peak_flops_per_clock_per_cu: f64,
    /// The model's clock in MHz (`clock_mhz`), for the per-second figures.
    pub clock_mhz: f64,
}

impl MatrixCores {
    /// Achieved operations per second per CU (FLOP/s, or OP/s for integer types).
    pub fn flops_per_second_per_cu(&self) -> f64 {
        self.flops_per_clock_per_cu * self.clock_mhz * 1e6
    }

    /// Peak operations per second per CU on this mix.
    pub fn peak_flops_per_second_per_cu(&self) -> f64 {
        self.peak_flops_per_clock_per_cu * self.clock_mhz * 1e6
    }
}

impl Simulation {
    /// The matrix-core figures of a run, or `None` when the program has no matrix instruction
    /// the model charges by the matrix table.
    pub fn matrix_cores(&self, stats: &SimStats) -> Option<MatrixCores> {
        let walk = self.walk();
        let (mut ops, mut busy, mut flops) = (0f64, 0f64, 0f64);
        for (trace, weight) in self.weighted_traces() {
            for i in self.compiled.trace_ops(&walk, trace) {
                let op = &self.compiled.ops[i as usize];
                if op.kind != OpKind::Unit || op.matrix_flops == 0 {
                    continue;
                }
                ops += weight;
                busy += weight * f64::from(op.matrix_busy);
                flops += weight * op.matrix_flops as f64;
            }
        }
        if ops == 0.0 {
            return None;
        }
        let simds = f64::from(self.arch.get_u32("simds").unwrap_or(1).max(1));
        let waves = f64::from(self.total_waves());
        let cu_clocks = stats.clocks as f64 * f64::from(stats.cus.max(1));
        let per_cu_clock = |v: f64| if cu_clocks > 0.0 { v / cu_clocks } else { 0.0 };
        Some(MatrixCores {
            ops_per_wave: ops,
            busy_clocks_per_wave: busy,
            utilization: per_cu_clock(busy * waves) / simds,
            flops_per_wave: flops,
            flops_per_clock_per_cu: per_cu_clock(flops * waves),
            peak_flops_per_clock_per_cu: if busy > 0.0 {
                simds * flops / busy
            } else {
                0.0
            },
            clock_mhz: self.arch.param("clock_mhz").unwrap_or(0.0),
        })
    }
}
