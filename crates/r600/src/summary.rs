//! The `vliw` report: how well the groups a wavefront executed were packed,
//! which slots they filled, literal and constant use, clause counts and the
//! fraction of the SIMD's peak; and the greedy re-pack (`--repack`) that
//! shows how many groups a scheduler could reach under the model's rules.

use crate::lower::GroupFacts;
use crate::reader::{Bundle, Dst, Kernel, Slot, Src};
use crate::table::{alu_op, ChipClass, LatencyClass, SlotClass};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Fraction of executed groups that filled each slot.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SlotUtilization {
    /// Slot x.
    pub x: f64,
    /// Slot y.
    pub y: f64,
    /// Slot z.
    pub z: f64,
    /// Slot w.
    pub w: f64,
    /// Slot t (0 on VLIW4).
    pub t: f64,
}

/// What the greedy re-pack found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repack {
    /// Groups over the ALU clauses after re-packing.
    pub static_bundles: usize,
    /// Operations per group after re-packing.
    pub operations_per_bundle: f64,
    /// Groups as written / groups re-packed (1.0 = nothing to gain).
    pub bundle_reduction: f64,
    /// The rules the re-pack applied.
    pub rules: String,
}

/// The `vliw` object of the JSON report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VliwSummary {
    /// Chip the file was read for.
    pub chip: String,
    /// Slots per group on the model (5 VLIW5, 4 VLIW4).
    pub slots: u32,
    /// Groups over the program's ALU clauses as written.
    pub static_bundles: usize,
    /// Operations over the ALU clauses as written.
    pub static_operations: usize,
    /// static_operations / static_bundles.
    pub static_operations_per_bundle: f64,
    /// Groups one wavefront executed (mean over the wavefronts).
    pub bundles_executed: u64,
    /// Operations one wavefront executed.
    pub operations_executed: u64,
    /// Packing efficiency: operations per executed group.
    pub operations_per_bundle: f64,
    /// operations_per_bundle / slots.
    pub packing_efficiency: f64,
    /// Fraction of executed groups filling each slot.
    pub slot_utilization: SlotUtilization,
    /// Distinct literals per executed group.
    pub literals_per_bundle: f64,
    /// Kcache constant operands per executed group.
    pub constants_per_bundle: f64,
    /// ALU clauses one wavefront executed.
    pub alu_clauses: u64,
    /// Fetch clauses one wavefront executed.
    pub fetch_clauses: u64,
    /// ALU clauses per fetch clause (null without fetches).
    pub alu_to_fetch_clause_ratio: Option<f64>,
    /// Clause switches per wavefront (every ALU or fetch clause it ran).
    pub clause_switches: u64,
    /// Lane-operations per clock one SIMD can do (16 lanes x slots).
    pub peak_ops_per_clock: f64,
    /// Lane-operations per clock the simulation reached on its SIMD.
    pub ops_per_clock: f64,
    /// ops_per_clock / peak_ops_per_clock.
    pub fraction_of_peak: f64,
    /// The chip's single-precision peak, GFLOP/s: SIMDs x lanes x slots x 2
    /// (multiply-add) x clock, computed from the model.
    pub peak_gflops: f64,
    /// Busy fraction of each of the model's engines (`alu`, `fetch`, `cf`,
    /// `rat` on the TeraScale models), filled in by the caller.
    pub engine_utilization: BTreeMap<String, f64>,
    /// The greedy re-pack (`--repack`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repack: Option<Repack>,
}

/// The model numbers the summary needs.
#[derive(Debug, Clone, Copy)]
pub struct PeakInputs {
    /// Slots per group (`vliw_slots`).
    pub slots: u32,
    /// Lanes per SIMD (`simd_lanes`).
    pub lanes: u32,
    /// SIMDs on the chip (`gpu_cus`).
    pub simds: f64,
    /// Clock in MHz.
    pub clock_mhz: f64,
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

impl VliwSummary {
    /// Build from the kernel, the lowered facts, the executions per wave of
    /// each program instruction, and the run (wavefronts, clocks).
    pub fn new(
        chip: &str,
        kernel: &Kernel,
        facts: &[GroupFacts],
        executions: &[u64],
        waves: u64,
        clocks: u64,
        peak: PeakInputs,
    ) -> VliwSummary {
        let (mut bundles, mut ops, mut lits, mut consts, mut alu, mut fetch) =
            (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        let mut slot_counts = [0u64; 5];
        for (f, &n) in facts.iter().zip(executions) {
            if f.operations > 0 {
                bundles += n;
                ops += n * u64::from(f.operations);
                lits += n * u64::from(f.literals);
                consts += n * u64::from(f.constants);
                for (i, s) in Slot::ALL.iter().enumerate() {
                    if f.slot_mask & s.bit() != 0 {
                        slot_counts[i] += n;
                    }
                }
            }
            if f.alu_clause {
                alu += n;
            }
            if f.fetch_clause {
                fetch += n;
            }
        }
        let b = bundles as f64;
        let util = |i: usize| ratio(slot_counts[i] as f64, b);
        let static_bundles = kernel.static_bundles();
        let static_operations = kernel.static_operations();
        let opb = ratio(ops as f64, b);
        let peak_clock = f64::from(peak.lanes * peak.slots);
        // One wavefront's operation runs on all 64 lanes.
        let ops_per_clock = ratio(ops as f64 * 64.0 * waves as f64, clocks as f64);
        VliwSummary {
            chip: chip.to_string(),
            slots: peak.slots,
            static_bundles,
            static_operations,
            static_operations_per_bundle: ratio(static_operations as f64, static_bundles as f64),
            bundles_executed: bundles,
            operations_executed: ops,
            operations_per_bundle: opb,
            packing_efficiency: ratio(opb, f64::from(peak.slots)),
            slot_utilization: SlotUtilization {
                x: util(0),
                y: util(1),
                z: util(2),
                w: util(3),
                t: util(4),
            },
            literals_per_bundle: ratio(lits as f64, b),
            constants_per_bundle: ratio(consts as f64, b),
            alu_clauses: alu,
            fetch_clauses: fetch,
            alu_to_fetch_clause_ratio: (fetch > 0).then(|| alu as f64 / fetch as f64),
            clause_switches: alu + fetch,
            peak_ops_per_clock: peak_clock,
            ops_per_clock,
            fraction_of_peak: ratio(ops_per_clock, peak_clock),
            peak_gflops: peak.simds * peak_clock * 2.0 * peak.clock_mhz / 1000.0,
            engine_utilization: BTreeMap::new(),
            repack: None,
        }
    }

    /// The summary as text lines for the report.
    pub fn to_text(&self) -> String {
        let u = &self.slot_utilization;
        let mut s = format!(
            "VLIW ({}, {} slots): {} groups / {} operations as written ({:.2} per group)\n  executed per wavefront: {} groups, {} operations = {:.2} per group (packing {:.0}%)\n  slot utilization: x {:.0}%  y {:.0}%  z {:.0}%  w {:.0}%  t {:.0}%\n  literals {:.2} and constants {:.2} per group; {} ALU and {} fetch clauses ({} clause switches)\n  {:.1} of {:.0} lane-operations per clock per SIMD = {:.1}% of peak (chip peak {:.0} GFLOP/s)\n",
            self.chip, self.slots, self.static_bundles, self.static_operations, self.static_operations_per_bundle,
            self.bundles_executed, self.operations_executed, self.operations_per_bundle, 100.0 * self.packing_efficiency,
            100.0 * u.x, 100.0 * u.y, 100.0 * u.z, 100.0 * u.w, 100.0 * u.t,
            self.literals_per_bundle, self.constants_per_bundle, self.alu_clauses, self.fetch_clauses, self.clause_switches,
            self.ops_per_clock, self.peak_ops_per_clock, 100.0 * self.fraction_of_peak, self.peak_gflops,
        );
        if let Some(r) = &self.repack {
            s.push_str(&format!(
                "  re-pack: {} groups ({:.2} operations per group, {:.2}x fewer) under {}\n",
                r.static_bundles, r.operations_per_bundle, r.bundle_reduction, r.rules
            ));
        }
        s
    }
}

/// A register channel or pseudo-location an operation touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Loc {
    Gpr(u16, u8),
    /// A masked result, reachable only as PV/PS of its group: (group, slot).
    Masked(usize, u8),
    Oqap,
    Pred,
}

/// Greedily re-pack every ALU clause of `kernel` under the model's rules:
/// an operation goes into the earliest group after the groups of the
/// operations it depends on (a GPR, PV/PS or OQAP value; writes stay after
/// reads and writes of the same register), into the vector slot of its
/// destination channel or, if taken and allowed, into t; at most 4 distinct
/// literals and 2 kcache channel pairs per group; LDS operations, barriers
/// and predicate writes keep their order and their own groups; at most
/// three distinct GPR addresses per channel (three read cycles). The bank
/// swizzle itself is not searched, so the bound stays optimistic.
pub fn repack(kernel: &Kernel, chip: ChipClass) -> Repack {
    let mut groups_total = 0usize;
    let mut ops_total = 0usize;
    for clause in &kernel.alu_clauses {
        let (g, o) = repack_clause(&clause.bundles, chip);
        groups_total += g;
        ops_total += o;
    }
    let before = kernel.static_bundles();
    Repack {
        static_bundles: groups_total,
        operations_per_bundle: ratio(ops_total as f64, groups_total as f64),
        bundle_reduction: ratio(before as f64, groups_total as f64),
        rules: "slots by destination channel, t-only ops in t (VLIW4: vector), 4 literals, 2 kcache pairs, at most 3 GPR addresses per channel (bank swizzles not searched)".into(),
    }
}

#[derive(Default)]
struct Group {
    slots: u8,
    literals: HashSet<(usize, u8)>,
    kc_pairs: HashSet<(u8, u16, u8)>,
    /// GPR addresses read per channel: at most 3 (three read cycles, one
    /// read per channel each, vliw5-model.md 3).
    ports: [HashSet<u16>; 4],
    fence: bool,
}

fn repack_clause(bundles: &[Bundle], chip: ChipClass) -> (usize, usize) {
    let mut groups: Vec<Group> = Vec::new();
    // Group where each location was last written, and last read.
    let mut written: HashMap<Loc, usize> = HashMap::new();
    let mut read: HashMap<Loc, usize> = HashMap::new();
    // The original previous group's slot results, for PV/PS.
    let mut prev_vector: [Option<Loc>; 4] = [None; 4];
    let mut prev_t: Option<Loc> = None;
    let mut fence_floor = 0usize;
    let mut ops = 0usize;
    for (bi, b) in bundles.iter().enumerate() {
        let mut this_vector: [Option<Loc>; 4] = [None; 4];
        let mut this_t: Option<Loc> = None;
        for op in &b.ops {
            ops += 1;
            let info = alu_op(&op.name);
            let class = info.map_or(SlotClass::Any, |i| i.slot_class(chip));
            let fence = info
                .is_some_and(|i| matches!(i.latency, LatencyClass::Lds | LatencyClass::Barrier))
                || matches!(op.dst, Dst::Predicate);
            let mut earliest = fence_floor;
            let mut reads: Vec<Loc> = Vec::new();
            for s in &op.srcs {
                let l = match *s {
                    Src::Gpr(n, c) | Src::Indirect(n, c) => Some(Loc::Gpr(n, c)),
                    Src::Pv(c) => prev_vector[usize::from(c.min(3))],
                    Src::Ps => prev_t,
                    Src::Oqap => Some(Loc::Oqap),
                    _ => None,
                };
                if let Some(l) = l {
                    reads.push(l);
                    if let Some(&g) = written.get(&l) {
                        earliest = earliest.max(g + 1);
                    }
                }
            }
            let dst = match op.dst {
                Dst::Gpr { masked: true, .. } => Some(Loc::Masked(bi, op.slot as u8)),
                Dst::Gpr { index, chan, .. } => Some(Loc::Gpr(index, chan)),
                Dst::Oqap => Some(Loc::Oqap),
                Dst::Predicate => Some(Loc::Pred),
                Dst::None => None,
            };
            if let Some(d) = dst {
                if let Some(&g) = written.get(&d) {
                    earliest = earliest.max(g + 1);
                }
                if let Some(&g) = read.get(&d) {
                    earliest = earliest.max(g);
                }
            }
            if fence {
                earliest = earliest.max(groups.len());
            }
            let lits: Vec<(usize, u8)> = op
                .srcs
                .iter()
                .filter_map(|s| match s {
                    Src::Literal(c) => Some((bi, *c)),
                    _ => None,
                })
                .collect();
            let pairs: Vec<(u8, u16, u8)> = op
                .srcs
                .iter()
                .filter_map(|s| match s {
                    Src::Constant(bank, i, c) => Some((*bank, *i, c / 2)),
                    _ => None,
                })
                .collect();
            let gprs: Vec<(u16, u8)> = op
                .srcs
                .iter()
                .filter_map(|s| match s {
                    Src::Gpr(n, c) | Src::Indirect(n, c) => Some((*n, (*c).min(3))),
                    _ => None,
                })
                .collect();
            let chan = op.dst.chan();
            let want: Vec<u8> = match class {
                SlotClass::Trans if chip.has_t_slot() => vec![Slot::T.bit()],
                SlotClass::Vector4 => vec![0x0f],
                SlotClass::Vector | SlotClass::Lds | SlotClass::None => {
                    vec![Slot::of_chan(chan).bit()]
                }
                _ if chip.has_t_slot() => vec![Slot::of_chan(chan).bit(), Slot::T.bit()],
                _ => vec![Slot::of_chan(chan).bit()],
            };
            let mut g = earliest;
            let placed_slot = loop {
                if g >= groups.len() {
                    groups.push(Group::default());
                }
                let grp = &groups[g];
                let lit_ok = grp.literals.union(&lits.iter().copied().collect()).count() <= 4;
                let kc_ok = grp.kc_pairs.union(&pairs.iter().copied().collect()).count() <= 2;
                let ports_ok = (0..4u8).all(|c| {
                    let mut set = grp.ports[usize::from(c)].clone();
                    set.extend(gprs.iter().filter(|g| g.1 == c).map(|g| g.0));
                    set.len() <= 3
                });
                let free = want
                    .iter()
                    .copied()
                    .find(|m| grp.slots & m == 0)
                    .filter(|_| ports_ok);
                if let (Some(m), true, true, false) = (free, lit_ok, kc_ok, grp.fence) {
                    if !fence || grp.slots == 0 {
                        break m;
                    }
                }
                g += 1;
            };
            let grp = &mut groups[g];
            grp.slots |= placed_slot;
            grp.literals.extend(lits);
            grp.kc_pairs.extend(pairs);
            for (n, c) in &gprs {
                grp.ports[usize::from(*c)].insert(*n);
            }
            if fence {
                grp.fence = true;
                fence_floor = g + 1;
            }
            for l in reads {
                let e = read.entry(l).or_insert(g);
                *e = (*e).max(g);
            }
            if let Some(d) = dst {
                written.insert(d, g);
                if op.slot == Slot::T {
                    this_t = Some(d);
                } else {
                    this_vector[usize::from((op.slot as u8).min(3))] = Some(d);
                }
            }
        }
        prev_vector = this_vector;
        prev_t = this_t;
    }
    (groups.len(), ops)
}
