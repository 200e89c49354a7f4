//! Lowering a kernel's CF program and clauses into the `Program` every other
//! shadersim crate works on, in CF order: an ALU CF word becomes a
//! `vliw.clause` op followed by one `vliw.alu` op per group; a fetch CF word
//! a `vliw.clause` op, one `vliw.fetch` op per fetch and a wait for the
//! clause (`vmcnt(0)`: LLVM sets the BARRIER bit on every CF word, so the
//! next word starts when the fetches have returned); jumps and loop words
//! conditional branches to the first op of their target word; `MEM_RAT`
//! stores global stores; `CF_END` the end of the program.
//!
//! Registers: GPR channel `T<n>.<c>` is scoreboard register 4n+c (VGPRs
//! 0..255, then AGPRs for 256..511, so every channel is tracked). Every
//! group also writes and reads one pseudo-register standing for PV/PS, and
//! an LDS read writes another standing for the OQAP queue: with the model's
//! group result latency that spaces one wavefront's groups (the
//! two-wavefront interleave, vliw5-model.md 4.2).

use crate::reader::{Bundle, CfKind, CfWord, Dst, Kernel, LoopRole, R600File, Slot, Src};
use shadersim_asm::{
    DeclaredResources, Dialect, Label, Program, ProgramFile, SourceInstr, SourcePos, Stage,
};
use shadersim_isa::{
    target::GenSet, Encoding, InstrClass, InstrInfo, InstrTable, Instruction, Operand, Recognition,
    RegFile, RegRange, Target,
};

/// The pseudo-register (an SGPR index) for the previous group's results.
const PV_PSEUDO: u16 = 100;
/// The pseudo-register (an SGPR index) for the LDS return queue.
const OQAP_PSEUDO: u16 = 101;

/// What the VLIW report needs about one lowered instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GroupFacts {
    /// Slots filled (bit per [`Slot`]); 0 for non-ALU ops.
    pub slot_mask: u8,
    /// Operations in the group.
    pub operations: u8,
    /// Distinct literals it reads.
    pub literals: u8,
    /// Kcache constant operands.
    pub constants: u8,
    /// The op starts an ALU clause.
    pub alu_clause: bool,
    /// The op starts a fetch clause.
    pub fetch_clause: bool,
}

/// A kernel lowered: the program and, per instruction, its VLIW facts.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The program.
    pub program: Program,
    /// Facts per program instruction.
    pub facts: Vec<GroupFacts>,
}

fn info(mnemonic: &'static str, class: InstrClass, data_dwords: Option<u8>) -> InstrInfo {
    let table = InstrTable::builtin();
    let mut i = table
        .lookup("s_nop")
        .cloned()
        .expect("the GCN table lists s_nop");
    i.mnemonic = mnemonic;
    i.class = class;
    i.encoding = Encoding::Sopp;
    i.data_dwords = data_dwords;
    i.gens = GenSet::ALL;
    i
}

fn reg_of(index: u16, chan: u8) -> RegRange {
    let k = index.min(127) * 4 + u16::from(chan.min(3));
    if k < 256 {
        RegRange::single(RegFile::Vgpr, k)
    } else {
        RegRange::single(RegFile::Agpr, k - 256)
    }
}

fn reg_op(r: RegRange) -> Operand {
    Operand::Reg {
        range: r,
        neg: false,
        abs: false,
        half: None,
    }
}

fn instr(
    mnemonic: &'static str,
    class: InstrClass,
    dwords: Option<u8>,
    defs: Vec<Operand>,
    uses: Vec<Operand>,
    text: &str,
) -> Instruction {
    let ndefs = defs.len();
    let mut operands = defs;
    operands.extend(uses);
    Instruction {
        mnemonic: mnemonic.to_string(),
        info: info(mnemonic, class, dwords),
        recognition: Recognition::Table,
        operands,
        modifiers: Vec::new(),
        defs: ndefs,
        operand_text: text.to_string(),
        dual: None,
        valid_for_gen: true,
    }
}

/// The listing text of a group: its operations with their slots.
pub fn group_text(b: &Bundle) -> String {
    b.ops
        .iter()
        .map(|o| {
            format!(
                "[{}] {}",
                o.slot.name(),
                o.text
                    .replace(" * ", " ")
                    .replace("  ", " ")
                    .trim_end_matches([',', ' '])
            )
        })
        .collect::<Vec<_>>()
        .join("  ")
}

fn bundle_instr(b: &Bundle) -> Instruction {
    let pv = reg_op(RegRange::single(RegFile::Sgpr, PV_PSEUDO));
    let oqap = reg_op(RegRange::single(RegFile::Sgpr, OQAP_PSEUDO));
    let mut defs = vec![pv.clone()];
    let mut uses = vec![pv];
    for op in &b.ops {
        match op.dst {
            Dst::Gpr {
                index,
                chan,
                masked: false,
            } => defs.push(reg_op(reg_of(index, chan))),
            Dst::Oqap => defs.push(oqap.clone()),
            _ => {}
        }
        for s in &op.srcs {
            match *s {
                Src::Gpr(n, c) | Src::Indirect(n, c) => uses.push(reg_op(reg_of(n, c))),
                Src::Oqap => uses.push(oqap.clone()),
                _ => {}
            }
        }
    }
    instr(
        "vliw_group",
        InstrClass::VliwAlu,
        None,
        defs,
        uses,
        &group_text(b),
    )
}

fn pos_of(p: SourcePos) -> SourcePos {
    p
}

/// The instructions lowered so far and the facts of each.
#[derive(Default)]
struct Lowering {
    instructions: Vec<SourceInstr>,
    facts: Vec<GroupFacts>,
}

impl Lowering {
    fn push(&mut self, inst: Instruction, pos: SourcePos, text: String, f: GroupFacts) {
        self.instructions.push(SourceInstr {
            inst,
            pos: pos_of(pos),
            text,
            address: None,
            encoding: Vec::new(),
            source: None,
        });
        self.facts.push(f);
    }

    /// A CF word that is one instruction of its own, with no registers.
    fn plain(
        &mut self,
        w: &CfWord,
        name: &'static str,
        class: InstrClass,
        dwords: Option<u8>,
        f: GroupFacts,
    ) {
        let inst = instr(name, class, dwords, vec![], vec![], &w.text);
        self.push(inst, w.pos, w.text.clone(), f);
    }

    /// An ALU clause: its clause op, then one instruction per bundle.
    fn alu_clause(&mut self, kernel: &Kernel, w: &CfWord, addr: u32) {
        self.plain(
            w,
            "vliw_clause",
            InstrClass::VliwClause,
            None,
            GroupFacts {
                alu_clause: true,
                ..Default::default()
            },
        );
        if let Some(c) = kernel.alu_clause(addr) {
            for b in &c.bundles {
                let f = GroupFacts {
                    slot_mask: b.slot_mask(),
                    operations: b.ops.len() as u8,
                    literals: b.literals() as u8,
                    constants: b.constant_reads().min(255) as u8,
                    ..Default::default()
                };
                self.push(bundle_instr(b), b.pos(), group_text(b), f);
            }
        }
    }

    /// A fetch clause: its clause op, one instruction per fetch, then the wait for them.
    fn fetch_clause(&mut self, kernel: &Kernel, w: &CfWord, addr: u32) {
        self.plain(
            w,
            "vliw_clause",
            InstrClass::VliwClause,
            None,
            GroupFacts {
                fetch_clause: true,
                ..Default::default()
            },
        );
        if let Some(c) = kernel.fetch_clause(addr) {
            for f in &c.fetches {
                let mut defs = Vec::new();
                if let Some((n, m)) = f.dst {
                    for ch in 0..4u8 {
                        if m & (1 << ch) != 0 {
                            defs.push(reg_op(reg_of(n, ch)));
                        }
                    }
                }
                let uses = f
                    .addr
                    .map(|(n, c)| vec![reg_op(reg_of(n, c))])
                    .unwrap_or_default();
                let inst = instr(
                    "vliw_fetch",
                    InstrClass::VliwFetch,
                    Some(f.dwords() as u8),
                    defs,
                    uses,
                    &f.text,
                );
                self.push(inst, f.pos, f.text.clone(), GroupFacts::default());
            }
        }
        let table = InstrTable::builtin();
        if let Ok(wait) = Instruction::parse(
            "s_waitcnt vmcnt(0)",
            shadersim_isa::GfxGen::TeraScale.wait_layout(),
            table,
        ) {
            self.push(
                wait,
                w.pos,
                format!("(end of fetch clause: {})", w.text),
                GroupFacts::default(),
            );
        }
    }

    /// The instructions of one CF word; a branch is noted in `branches` as (instruction
    /// index, target word).
    fn word(&mut self, kernel: &Kernel, w: &CfWord, branches: &mut Vec<(usize, u32)>) {
        match &w.kind {
            CfKind::Alu { addr, .. } => self.alu_clause(kernel, w, *addr),
            CfKind::Fetch { addr, .. } => self.fetch_clause(kernel, w, *addr),
            CfKind::Branch { target, loop_role } => {
                let t = match loop_role {
                    // Every lane has broken: the wavefront leaves the loop
                    // through its END_LOOP word.
                    LoopRole::Break => target + 1,
                    _ => *target,
                };
                branches.push((self.instructions.len(), t));
                let f = GroupFacts::default();
                self.plain(w, "vliw_branch", InstrClass::BranchCond, None, f);
            }
            CfKind::Stack => {
                let f = GroupFacts::default();
                self.plain(w, "vliw_stack", InstrClass::VliwClause, None, f);
            }
            CfKind::Store { dwords, atomic } => {
                let class = if *atomic {
                    InstrClass::VmemGlobalAtomic
                } else {
                    InstrClass::VmemGlobalStore
                };
                let dwords = Some((*dwords).min(4) as u8);
                self.plain(w, "vliw_rat", class, dwords, GroupFacts::default());
            }
            CfKind::End => {
                let f = GroupFacts::default();
                self.plain(w, "vliw_end", InstrClass::Endpgm, None, f);
            }
            CfKind::Pad => {}
        }
    }
}

/// Each branch's target instruction (the first of its word) and a label `@word` there.
fn branch_labels(
    kernel: &Kernel,
    instructions: &[SourceInstr],
    first_of_word: &[usize],
    branches: Vec<(usize, u32)>,
) -> (Vec<Option<usize>>, Vec<Label>) {
    let mut branch_targets = vec![None; instructions.len()];
    let mut labels: Vec<Label> = Vec::new();
    for (i, word) in branches {
        let idx = first_of_word
            .get(word as usize)
            .copied()
            .unwrap_or(instructions.len());
        branch_targets[i] = Some(idx);
        if !labels.iter().any(|l| l.index == idx) {
            let line = kernel.cf.get(word as usize).map_or(0, |w| w.pos.line);
            labels.push(Label {
                name: format!("@{word}"),
                index: idx,
                line,
            });
        }
    }
    labels.sort_by_key(|l| l.index);
    (branch_targets, labels)
}

/// Lower one kernel of a file.
pub fn lower(file: &R600File, kernel: &Kernel) -> Lowered {
    let mut out = Lowering::default();
    let mut first_of_word: Vec<usize> = Vec::with_capacity(kernel.cf.len() + 1);
    // Branches to patch once every word's first instruction is known:
    // (instruction index, target word).
    let mut branches: Vec<(usize, u32)> = Vec::new();
    for w in &kernel.cf {
        first_of_word.push(out.instructions.len());
        out.word(kernel, w, &mut branches);
    }
    let Lowering {
        instructions,
        facts,
    } = out;
    first_of_word.push(instructions.len());
    let (branch_targets, labels) = branch_labels(kernel, &instructions, &first_of_word, branches);
    let target: Target = file.chip.parse().unwrap_or(Target {
        name: file.chip.clone(),
        gen: shadersim_isa::GfxGen::TeraScale,
    });
    let program = Program {
        name: kernel.name.clone(),
        target: Some(target),
        stage: Some(Stage::Compute),
        instructions,
        labels,
        branch_targets,
        declared: DeclaredResources {
            // The config word's NUM_GPRS; without one, the highest GPR
            // named + 1 (128-bit registers, not the channels above).
            vgprs: Some(
                kernel
                    .num_gprs
                    .unwrap_or_else(|| max_gpr(kernel) + 1)
                    .max(1),
            ),
            sgprs: Some(0),
            lds_bytes: kernel.lds_bytes,
            wave_size: Some(64),
            ..Default::default()
        },
        line: kernel.line,
        device_function: false,
    };
    Lowered { program, facts }
}

/// The highest GPR index a kernel names (0 when none).
fn max_gpr(kernel: &Kernel) -> u32 {
    let mut m = 0u16;
    for b in kernel.alu_clauses.iter().flat_map(|c| &c.bundles) {
        for op in &b.ops {
            if let Dst::Gpr { index, .. } = op.dst {
                m = m.max(index);
            }
            for s in &op.srcs {
                if let Src::Gpr(n, _) | Src::Indirect(n, _) = s {
                    m = m.max(*n);
                }
            }
        }
    }
    for f in kernel.fetch_clauses.iter().flat_map(|c| &c.fetches) {
        m = m
            .max(f.dst.map_or(0, |d| d.0))
            .max(f.addr.map_or(0, |a| a.0));
    }
    u32::from(m)
}

/// Lower every kernel into a `ProgramFile` (facts by program, same order).
pub fn lower_file(file: &R600File) -> (ProgramFile, Vec<Vec<GroupFacts>>) {
    let mut programs = Vec::new();
    let mut facts = Vec::new();
    for k in &file.kernels {
        let l = lower(file, k);
        programs.push(l.program);
        facts.push(l.facts);
    }
    (
        ProgramFile {
            file_name: file.file_name.clone(),
            dialect: Dialect::Llvm,
            programs,
            warnings: file.warnings.clone(),
            source_files: Vec::new(),
        },
        facts,
    )
}

/// The slots a mask names, for reports (`xyzt`).
pub fn mask_name(mask: u8) -> String {
    Slot::ALL
        .iter()
        .filter(|s| mask & s.bit() != 0)
        .map(|s| s.name())
        .collect()
}
