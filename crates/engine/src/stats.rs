//! What one simulation measured.

use crate::cache_report::{LevelReport, OpCacheStats};
use crate::ops::SimProgram;
use shadersim_isa::Counter;

/// Why a wave sat on an op unable to issue or pass it: each clock a wave
/// sits is charged to one cause, the one the issue check (or the free op)
/// found when it last looked at the wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StallCause {
    /// A register (or an outstanding ALU write an `s_waitcnt_depctr` or an
    /// implicit wait counts) not yet written by an earlier op of the wave.
    Dependency,
    /// A wait instruction whose counter had not yet fallen to its limit.
    Wait(Counter),
    /// The op would increment a counter already at its maximum.
    CounterFull(Counter),
    /// The op's unit (or its second unit), by index in
    /// [`SimStats::unit_names`], was busy with an earlier op.
    UnitBusy(usize),
    /// The op's queue unit had its per-wave or per-CU in-flight limit of ops
    /// outstanding.
    InFlight(usize),
    /// The wave waited at a barrier for the rest of its workgroup.
    Barrier,
    /// The wave could issue, but an older wave of its SIMD took the issue
    /// category this turn (or, after its cause cleared, before its turn
    /// came round again: another wave's issue).
    Arbitration,
    /// Dynamic VGPR mode: an `s_alloc_vgpr` the pool could not grant.
    Alloc,
    /// The end of the program, waiting for the wave's outstanding memory
    /// ops, exports and ALU writes before it may leave.
    Drain,
}

/// Causes that name no counter or unit, in their row order.
const PLAIN_CAUSES: [StallCause; 5] = [
    StallCause::Dependency,
    StallCause::Barrier,
    StallCause::Arbitration,
    StallCause::Alloc,
    StallCause::Drain,
];
/// Row positions: the plain causes, a wait per counter, a full counter per
/// counter, then a busy unit and an in-flight limit per unit.
const WAIT_AT: usize = PLAIN_CAUSES.len();
const FULL_AT: usize = WAIT_AT + Counter::ALL.len();
const BUSY_AT: usize = FULL_AT + Counter::ALL.len();

impl StallCause {
    /// Its position in a row of per-cause counts for a model of `units` units
    /// (the cycle loop counts by position: no strings in the hot loop).
    pub(crate) fn index(self, units: usize) -> usize {
        match self {
            StallCause::Dependency => 0,
            StallCause::Barrier => 1,
            StallCause::Arbitration => 2,
            StallCause::Alloc => 3,
            StallCause::Drain => 4,
            StallCause::Wait(c) => WAIT_AT + c.index(),
            StallCause::CounterFull(c) => FULL_AT + c.index(),
            StallCause::UnitBusy(u) => BUSY_AT + u,
            StallCause::InFlight(u) => BUSY_AT + units + u,
        }
    }

    /// The cause at row position `i` (the inverse of [`StallCause::index`]).
    fn at(i: usize, units: usize) -> StallCause {
        if i < WAIT_AT {
            PLAIN_CAUSES[i]
        } else if i < FULL_AT {
            StallCause::Wait(Counter::ALL[i - WAIT_AT])
        } else if i < BUSY_AT {
            StallCause::CounterFull(Counter::ALL[i - FULL_AT])
        } else if i < BUSY_AT + units {
            StallCause::UnitBusy(i - BUSY_AT)
        } else {
            StallCause::InFlight(i - BUSY_AT - units)
        }
    }

    /// Positions in a row for a model of `units` units.
    pub(crate) fn row_len(units: usize) -> usize {
        BUSY_AT + 2 * units
    }

    /// Its name in reports (JSON `instructions[].stall_reasons` keys):
    /// `dependency`, `vmcnt` (a wait on that counter, as the ISA's wait
    /// layout names it), `vmcnt full`, `valu busy`, `vmem in-flight limit`,
    /// `barrier`, `arbitration`, `vgpr alloc`, `end drain`.
    pub fn name(self, unit_names: &[String]) -> String {
        let unit = |u: usize| unit_names.get(u).map_or("unit", String::as_str);
        match self {
            StallCause::Dependency => "dependency".into(),
            StallCause::Wait(c) => c.to_string(),
            StallCause::CounterFull(c) => format!("{c} full"),
            StallCause::UnitBusy(u) => format!("{} busy", unit(u)),
            StallCause::InFlight(u) => format!("{} in-flight limit", unit(u)),
            StallCause::Barrier => "barrier".into(),
            StallCause::Arbitration => "arbitration".into(),
            StallCause::Alloc => "vgpr alloc".into(),
            StallCause::Drain => "end drain".into(),
        }
    }
}

/// Raw counters of one run, and the figures derived from them.
#[derive(Debug, Clone, PartialEq)]
pub struct SimStats {
    /// Total clocks (until the last wave ended).
    pub clocks: u64,
    /// Waves that ran to the end.
    pub waves: u32,
    /// Workgroups that ran to the end.
    pub groups: u32,
    /// Threads (pixels, vertices or compute invocations) processed.
    pub threads: u64,
    /// Lanes per wave.
    pub wave_size: u32,
    /// Sum over waves of clocks from launch to end.
    pub wave_clocks_sum: u64,
    /// Clocks with no wave resident on the CU.
    pub starve_clocks: u64,
    /// SIMD issue turns with at least one resident wave.
    pub turns_with_waves: u64,
    /// Such turns where nothing issued, nothing advanced and the SIMD's
    /// own pipes were idle.
    pub stall_turns: u64,
    /// Busy clocks per unit, summed over its instances.
    pub unit_busy: Vec<u64>,
    /// Instances per unit.
    pub unit_instances: Vec<u32>,
    /// Unit names.
    pub unit_names: Vec<String>,
    /// Issued ops per category.
    pub category_issues: Vec<u64>,
    /// Category names.
    pub category_names: Vec<String>,
    /// Ops that took an issue slot.
    pub issues: u64,
    /// Free ops executed (waits, nops, barriers).
    pub free_ops: u64,
    /// Exposed stalls per static op: issue turns in which the SIMD issued
    /// nothing, its pipes were idle, and a wave sat on the op.
    pub op_stalls: Vec<u64>,
    /// Clocks in which at least one wave sat on each static op unable to
    /// issue it, whether or not other waves issued meanwhile (seed 004's
    /// per-instruction stall).
    pub op_sat: Vec<u64>,
    /// Wave-clocks spent sitting on each static op, by cause: row `op` of
    /// [`StallCause`] positions (read with [`SimStats::op_stall_causes`]).
    /// Summed over the waves, so a row's total can exceed `op_sat`, the
    /// clocks in which at least one wave sat.
    pub op_cause_clocks: Vec<u64>,
    /// Clocks between a SIMD's issue turns (a stall turn stands for that
    /// many clocks of that SIMD).
    pub issue_interval: u64,
    /// Most waves resident at once.
    pub peak_waves: u32,
    /// Wave slots the simulator held (the most waves resident at once,
    /// counting retired waves whose counter-less unit ops were still in
    /// flight): its per-wave memory follows this, not the dispatch.
    pub wave_slots: u32,
    /// Launch and end clock of every wave, by launch order.
    pub wave_life: Vec<(u64, u64)>,
    /// Dynamic VGPR mode: issue turns in which a wave was denied its
    /// `s_alloc_vgpr`, per static op.
    pub alloc_denied: Vec<u64>,
    /// Dynamic VGPR mode: most VGPR blocks in use on one SIMD at once.
    pub peak_vgpr_blocks: u32,
    /// Compute units simulated side by side (`[dispatch] cus`).
    pub cus: u32,
    /// Waves that ran to the end on each CU.
    pub cu_waves: Vec<u32>,
    /// Busy clocks per CU and unit (0 for the units the CUs share).
    pub cu_unit_busy: Vec<Vec<u64>>,
    /// Per unit: one instance shared by every CU (the export path).
    pub shared_units: Vec<bool>,
    /// Cache levels in the model's order (empty when the hierarchy is off).
    pub cache: Vec<LevelReport>,
    /// Cache counts per static op (empty when the hierarchy is off).
    pub op_cache: Vec<OpCacheStats>,
}

impl SimStats {
    /// Empty counters for a program with these units (and their instance counts).
    pub fn new(sim: &SimProgram, units: &[String], instances: &[u32]) -> SimStats {
        SimStats {
            clocks: 0,
            waves: 0,
            groups: 0,
            threads: 0,
            wave_size: 0,
            wave_clocks_sum: 0,
            starve_clocks: 0,
            turns_with_waves: 0,
            stall_turns: 0,
            unit_busy: vec![0; units.len()],
            unit_instances: instances.to_vec(),
            unit_names: units.to_vec(),
            category_issues: vec![0; sim.categories.len()],
            category_names: sim.categories.clone(),
            issues: 0,
            free_ops: 0,
            op_stalls: vec![0; sim.ops.len()],
            op_sat: vec![0; sim.ops.len()],
            op_cause_clocks: vec![0; sim.ops.len() * StallCause::row_len(units.len())],
            issue_interval: 1,
            peak_waves: 0,
            wave_slots: 0,
            wave_life: Vec::new(),
            alloc_denied: vec![0; sim.ops.len()],
            peak_vgpr_blocks: 0,
            cus: 1,
            cu_waves: Vec::new(),
            cu_unit_busy: Vec::new(),
            shared_units: vec![false; units.len()],
            cache: Vec::new(),
            op_cache: Vec::new(),
        }
    }

    /// Mean clocks from a wave's launch to its end.
    pub fn wave_clocks(&self) -> f64 {
        if self.waves == 0 {
            0.0
        } else {
            self.wave_clocks_sum as f64 / f64::from(self.waves)
        }
    }

    /// Threads per clock per CU (the CUs simulated share the work).
    pub fn throughput_per_clock(&self) -> f64 {
        if self.clocks == 0 {
            0.0
        } else {
            self.threads as f64 / self.clocks as f64 / f64::from(self.cus.max(1))
        }
    }

    /// Fraction of clocks unit `unit` was busy on CU `cu` (averaged over
    /// its instances there; `None` for a shared unit or no such CU).
    pub fn cu_utilization(&self, cu: usize, unit: &str) -> Option<f64> {
        let i = self.unit_names.iter().position(|u| u == unit)?;
        if self.shared_units[i] || self.clocks == 0 {
            return None;
        }
        let busy = *self.cu_unit_busy.get(cu)?.get(i)?;
        let per_cu = f64::from(self.unit_instances[i].max(1)) / f64::from(self.cus.max(1));
        Some((busy as f64 / (self.clocks as f64 * per_cu.max(1.0))).min(1.0))
    }

    /// Fraction of clocks a unit was busy (averaged over its instances).
    pub fn utilization(&self, unit: &str) -> f64 {
        match self.unit_names.iter().position(|u| u == unit) {
            Some(i) if self.clocks > 0 => {
                let cap = self.clocks as f64 * f64::from(self.unit_instances[i].max(1));
                (self.unit_busy[i] as f64 / cap).min(1.0)
            }
            _ => 0.0,
        }
    }

    /// The wave-clocks waves sat on static op `op`, by cause (causes with
    /// none left out), largest first (ties in row order).
    pub fn op_stall_causes(&self, op: usize) -> Vec<(StallCause, u64)> {
        let units = self.unit_names.len();
        let n = StallCause::row_len(units);
        let Some(row) = self.op_cause_clocks.get(op * n..(op + 1) * n) else {
            return Vec::new();
        };
        let mut out: Vec<(StallCause, u64)> = row
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (StallCause::at(i, units), c))
            .collect();
        out.sort_by_key(|e| std::cmp::Reverse(e.1));
        out
    }

    /// Wave-clocks waves sat on static op `op` (all causes).
    pub fn op_wave_stall_clocks(&self, op: usize) -> u64 {
        let n = StallCause::row_len(self.unit_names.len());
        self.op_cause_clocks
            .get(op * n..(op + 1) * n)
            .map_or(0, |r| r.iter().sum())
    }

    /// Fraction of clocks with no wave on the CU.
    pub fn starve_rate(&self) -> f64 {
        if self.clocks == 0 {
            0.0
        } else {
            self.starve_clocks as f64 / self.clocks as f64
        }
    }

    /// Fraction of issue turns with waves where nothing could issue.
    pub fn stall_rate(&self) -> f64 {
        if self.turns_with_waves == 0 {
            0.0
        } else {
            self.stall_turns as f64 / self.turns_with_waves as f64
        }
    }

    /// Stall rate of one static op (seed 004): the fraction of the clocks
    /// the CU was not starved in which at least one wave sat on it unable to
    /// issue, whether or not other waves issued meanwhile. Rates of several
    /// ops can add up to more than 1.
    pub fn op_stall_rate(&self, op: usize) -> f64 {
        let denom = self.clocks.saturating_sub(self.starve_clocks);
        if denom == 0 {
            0.0
        } else {
            (self.op_sat[op] as f64 / denom as f64).min(1.0)
        }
    }

    /// [`SimStats::op_stall_rate`] and [`SimStats::op_exposed_rate`] of an
    /// instruction compiled into several ops (lane divergence: its masked
    /// VMEM variants), summed and capped at 1.
    pub fn ops_stall_rates(&self, ops: &[usize]) -> (f64, f64) {
        ops.iter().fold((0.0, 0.0), |(s, e), &o| {
            (
                (s + self.op_stall_rate(o)).min(1.0),
                (e + self.op_exposed_rate(o)).min(1.0),
            )
        })
    }

    /// The exposed part of an op's stall: clocks in which a wave sat on it
    /// and its SIMD could issue nothing at all (the rest of the stall was
    /// hidden by other waves' work).
    pub fn op_exposed_rate(&self, op: usize) -> f64 {
        let denom = self.clocks.saturating_sub(self.starve_clocks);
        if denom == 0 {
            0.0
        } else {
            let exposed = self.op_stalls[op].saturating_mul(self.issue_interval);
            (exposed.min(self.op_sat[op]) as f64 / denom as f64).min(1.0)
        }
    }
}
