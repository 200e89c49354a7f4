//! Live registers: for every instruction, how many VGPRs and SGPRs hold a
//! value that is still needed (Radeon GPU Analyzer's "live registers" view).
//!
//! Classic backward liveness over the control-flow graph of
//! `shadersim_cfg::Cfg`: a register is live before an instruction when a
//! later instruction on some path reads it before any writes it. Register
//! ranges (`v[4:7]`, `s[0:3]`) count every register they name.
//!
//! The pressure at an instruction is |live before it ∪ registers it
//! writes|: a register read for the last time is still occupied while the
//! instruction issues, and a destination takes a register even when its
//! value is never read. That count can never exceed the highest register
//! the program names plus one, which is what compilers declare; the
//! difference measures how tight the register allocation is.
//!
//! Simplifications (each errs towards fewer live registers than the
//! hardware holds, never more): a write kills the whole register even
//! under a partial EXEC mask; implicit registers (VCC, EXEC, SCC, M0) are
//! not counted, only `v`/`s` registers.

use shadersim_asm::Program;
use shadersim_cfg::{Cfg, CfgError};
use shadersim_isa::{Instruction, RegFile, RegRange};

/// Registers of one file, as a bit set (512 covers every VGPR/SGPR index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct RegSet([u64; 8]);

impl RegSet {
    fn insert_range(&mut self, first: u32, count: u32) {
        for r in first..(first + count).min(512) {
            self.0[(r / 64) as usize] |= 1 << (r % 64);
        }
    }

    fn remove_range(&mut self, first: u32, count: u32) {
        for r in first..(first + count).min(512) {
            self.0[(r / 64) as usize] &= !(1 << (r % 64));
        }
    }

    fn union(&self, other: &RegSet) -> RegSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// Live VGPRs and SGPRs together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Live {
    v: RegSet,
    s: RegSet,
}

impl Live {
    fn apply(&mut self, ranges: &[RegRange], insert: bool) {
        for r in ranges {
            let set = match r.file {
                RegFile::Vgpr => &mut self.v,
                RegFile::Sgpr => &mut self.s,
                _ => continue,
            };
            if insert {
                set.insert_range(u32::from(r.first), u32::from(r.count));
            } else {
                set.remove_range(u32::from(r.first), u32::from(r.count));
            }
        }
    }

    fn union(&self, other: &Live) -> Live {
        Live {
            v: self.v.union(&other.v),
            s: self.s.union(&other.s),
        }
    }
}

/// Registers an instruction reads and writes, as liveness sees them.
struct Effects {
    reads: Vec<RegRange>,
    writes: Vec<RegRange>,
    /// Writes that do not replace the whole register (so they do not end
    /// the old value's life): 16-bit halves, lane writes, accumulators.
    partial: bool,
}

/// Mnemonics that read their destination as well as writing it.
const READS_DESTINATION: &[&str] = &[
    "v_mac_",
    "v_fmac_",
    "v_dot2c_",
    "v_dot4c_",
    "v_dot8c_",
    "v_writelane_",
    // GCN interpolation: P2 adds onto the P1 result in its destination.
    "v_interp_p2_",
];

fn effects(inst: &Instruction) -> Effects {
    let name = inst.base_mnemonic();
    let half_def = inst.operands[..inst.defs.min(inst.operands.len())]
        .iter()
        .any(|o| matches!(o, shadersim_isa::Operand::Reg { half: Some(_), .. }));
    let partial = half_def
        || READS_DESTINATION.iter().any(|p| name.starts_with(p))
        || name.contains("_d16")
        || inst.has_modifier("tfe")
        || inst.has_modifier("lwe");
    let writes = inst.writes();
    let mut reads = inst.reads();
    if partial {
        // The old value's other halves or lanes survive: the write reads it.
        reads.extend(writes.iter().copied());
    }
    Effects {
        reads,
        writes,
        partial,
    }
}

/// Live registers at one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveAt {
    /// Instruction index in the program.
    pub index: usize,
    /// Source line.
    pub line: u32,
    /// VGPRs occupied while it issues (live before it, plus what it writes).
    pub vgprs: u32,
    /// SGPRs occupied likewise.
    pub sgprs: u32,
}

/// The result of the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Liveness {
    /// One entry per instruction, in program order.
    pub per_instruction: Vec<LiveAt>,
    /// Lanes per wave the analysis is for (VGPRs are registers of this width).
    pub wave_size: u32,
    /// Registers live on entry: values the program reads before writing
    /// (preloaded arguments, system values).
    pub live_in_vgprs: u32,
    /// SGPRs live on entry.
    pub live_in_sgprs: u32,
}

impl Liveness {
    /// Analyse `program` for waves of `wave_size` lanes.
    pub fn analyse(program: &Program, wave_size: u32) -> Result<Liveness, CfgError> {
        let cfg = Cfg::build(program)?;
        let n = program.instructions.len();
        let effects: Vec<Effects> = program
            .instructions
            .iter()
            .map(|i| effects(&i.inst))
            .collect();
        let blocks = &cfg.blocks;
        let mut live_in = vec![Live::default(); blocks.len()];
        // Iterate to the fixed point; blocks in reverse order converge fast
        // on forward-laid-out code.
        let mut changed = true;
        while changed {
            changed = false;
            for b in blocks.iter().rev() {
                let mut live = b
                    .succs
                    .iter()
                    .fold(Live::default(), |acc, e| acc.union(&live_in[e.to]));
                for i in (b.start..b.end).rev() {
                    step(&mut live, &effects[i]);
                }
                if live != live_in[b.id] {
                    live_in[b.id] = live;
                    changed = true;
                }
            }
        }
        let mut per_instruction = vec![
            LiveAt {
                index: 0,
                line: 0,
                vgprs: 0,
                sgprs: 0
            };
            n
        ];
        for b in blocks {
            let mut live = b
                .succs
                .iter()
                .fold(Live::default(), |acc, e| acc.union(&live_in[e.to]));
            for i in (b.start..b.end).rev() {
                let mut occupied = live;
                occupied.apply(&effects[i].writes, true);
                step(&mut live, &effects[i]);
                let occupied = occupied.union(&live);
                per_instruction[i] = LiveAt {
                    index: i,
                    line: program.instructions[i].pos.line,
                    vgprs: occupied.v.len(),
                    sgprs: occupied.s.len(),
                };
            }
        }
        Ok(Liveness {
            per_instruction,
            wave_size,
            live_in_vgprs: live_in[0].v.len(),
            live_in_sgprs: live_in[0].s.len(),
        })
    }

    /// The largest VGPR count and the first instruction that has it.
    pub fn peak_vgprs(&self) -> Option<LiveAt> {
        self.per_instruction
            .iter()
            .copied()
            .max_by(|a, b| a.vgprs.cmp(&b.vgprs).then(b.index.cmp(&a.index)))
    }

    /// The largest SGPR count and the first instruction that has it.
    pub fn peak_sgprs(&self) -> Option<LiveAt> {
        self.per_instruction
            .iter()
            .copied()
            .max_by(|a, b| a.sgprs.cmp(&b.sgprs).then(b.index.cmp(&a.index)))
    }

    /// Runs of consecutive instructions with more than `limit` live VGPRs,
    /// as (first line, last line): where the code must change to fit
    /// `limit` VGPRs.
    pub fn vgpr_regions_above(&self, limit: u32) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        let mut open = false;
        for at in &self.per_instruction {
            if at.vgprs > limit {
                match (open, out.last_mut()) {
                    (true, Some(last)) => last.1 = at.line,
                    _ => out.push((at.line, at.line)),
                }
                open = true;
            } else {
                open = false;
            }
        }
        out
    }
}

/// Live before an instruction from live after it.
fn step(live: &mut Live, e: &Effects) {
    if !e.partial {
        live.apply(&e.writes, false);
    }
    live.apply(&e.reads, true);
}
