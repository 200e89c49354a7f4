//! A loop exit decided through a flag register: Rodinia hotspot's `if (i == iteration - 1)
//! break;` between two barriers, which LLVM compiles (gfx900, gfx942 and gfx1100 alike) as a
//! compare whose branch sets a flag register pair and goes on to the latch, where the flag is
//! tested:
//!
//! ```text
//! .LBB0_8:  s_cmp_eq_u32 s12, s2        ; the real exit test (s2 = iteration - 1)
//!           s_mov_b64 s[0:1], -1        ; flag: leave
//!           s_barrier
//!           s_cbranch_scc1 .LBB0_3      ; taken: to the latch with the flag set
//!           ...                         ; the guarded copy, the second barrier,
//! .LBB0_2:  s_add_i32 s12, s12, 1       ; the step,
//!           s_mov_b64 s[0:1], 0         ; flag: stay
//! .LBB0_3:  s_and_b64 vcc, exec, s[0:1] ; the latch: the loop's only exit in the CFG
//!           s_cbranch_vccnz .LBB0_11
//! ```
//!
//! The CFG's exit branch tests VCC; the SCC branch that decides it sits earlier in the body, and
//! each of its sides reaches the latch with a known flag (a constant moved into it on the way).
//! [`flag_exit`] finds that branch, so the trip count follows its compare and the trace takes
//! its leaving side on the last iteration only. The arithmetic comes from the ISA table's scalar
//! facts (`and`, `mov`, `branch_vccnz`), never from a spelling.

use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{Instruction, Operand, RegFile, RegRange, ScalarOp, SpecialReg};
use std::collections::HashMap;

/// The branch that decides a loop's exit through a flag register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagExit {
    /// The loop (index in [`Cfg::loops`]).
    pub loop_id: usize,
    /// The block whose SCC branch decides the exit.
    pub test_block: usize,
    /// That branch's instruction index.
    pub branch: usize,
    /// Whether taking that branch leads out of the loop (its side sets the flag the loop's
    /// exit branch leaves on).
    pub exit_when_taken: bool,
}

/// What a path leaves in the flag register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flag {
    Zero,
    NonZero,
    Unknown,
}

impl Flag {
    fn join(self, other: Flag) -> Flag {
        if self == other {
            self
        } else {
            Flag::Unknown
        }
    }
}

/// The flag-register exit of loop `loop_id`, if its only exit is a VCC branch in its latch that
/// reads `flag & exec` and an SCC branch of the loop's body, run on every pass, sends one side
/// to the latch with the flag non-zero and the other with it zero.
pub fn flag_exit(program: &Program, cfg: &Cfg, loop_id: usize) -> Option<FlagExit> {
    let lp = &cfg.loops[loop_id];
    let instrs = &program.instructions;
    let [(latch, _)] = lp.back_edges[..] else {
        return None;
    };
    let [(exiting, _)] = lp.exits[..] else {
        return None;
    };
    if exiting != latch {
        return None;
    }
    let exit_branch = cfg.branch_of_block(latch)?;
    let ScalarOp::BranchVcc(taken_when_set) = instrs[exit_branch.instr].inst.info.scalar?.op else {
        return None;
    };
    // The flag leaves the loop when it is set iff the set side is the one leaving.
    let leaves_when_set = if taken_when_set {
        !lp.contains(exit_branch.taken)
    } else {
        !lp.contains(exit_branch.not_taken)
    };
    let (and_idx, flag) = vcc_from_flag(instrs, cfg.blocks[latch].start, exit_branch.instr)?;
    for &e in &lp.blocks {
        if e == latch || cfg.innermost_loop[e] != Some(loop_id) || !dominates(cfg, e, latch) {
            continue;
        }
        let Some(br) = cfg.branch_of_block(e) else {
            continue;
        };
        if !matches!(
            instrs[br.instr].inst.info.scalar.map(|f| f.op),
            Some(ScalarOp::BranchScc(_))
        ) || !lp.contains(br.taken)
            || !lp.contains(br.not_taken)
        {
            continue;
        }
        let blk = &cfg.blocks[e];
        let at_branch = transfer(instrs, blk.start..br.instr, flag, Flag::Unknown);
        let arrive = |side: usize| {
            let at_latch = flag_into(program, cfg, loop_id, side, latch, flag, at_branch)?;
            match transfer(instrs, cfg.blocks[latch].start..and_idx, flag, at_latch) {
                Flag::Unknown => None,
                f => Some(f == Flag::NonZero),
            }
        };
        let (Some(taken_set), Some(not_taken_set)) = (arrive(br.taken), arrive(br.not_taken))
        else {
            continue;
        };
        if taken_set == not_taken_set {
            continue;
        }
        return Some(FlagExit {
            loop_id,
            test_block: e,
            branch: br.instr,
            exit_when_taken: taken_set == leaves_when_set,
        });
    }
    None
}

/// The last VCC write before the branch at `branch` (from `start`), when it is
/// `s_and vcc, exec, F` (either order, 64 bits for a wave64 VCC, 32 for `vcc_lo`): its index
/// and F. VCC is then non-zero exactly when F is (every lane of the uniform loop is active).
fn vcc_from_flag(
    instrs: &[shadersim_asm::SourceInstr],
    start: usize,
    branch: usize,
) -> Option<(usize, RegRange)> {
    let vcc_lo = |r: &RegRange| r.file == RegFile::Special && r.first == SpecialReg::VccLo as u16;
    let idx = (start..branch)
        .rev()
        .find(|&i| instrs[i].inst.writes().iter().any(vcc_lo))?;
    let inst = &instrs[idx].inst;
    let facts = inst.info.scalar?;
    if facts.op != ScalarOp::And {
        return None;
    }
    let reg = |o: &Operand| match o {
        Operand::Reg {
            range,
            neg: false,
            abs: false,
            half: None,
        } => Some(*range),
        _ => None,
    };
    let [d, a, b] = &inst.operands[..] else {
        return None;
    };
    let (d, a, b) = (reg(d)?, reg(a)?, reg(b)?);
    let count = if facts.bits == 64 { 2 } else { 1 };
    let exec = RegRange::special(SpecialReg::ExecLo, count);
    if d != RegRange::special(SpecialReg::VccLo, count) {
        return None;
    }
    let flag = if a == exec {
        b
    } else if b == exec {
        a
    } else {
        return None;
    };
    (flag.file == RegFile::Sgpr && flag.count == count).then_some((idx, flag))
}

/// The flag after instructions `range` of one block, entering with `flag_in`: a move of a
/// constant sets it, any other write to any of its registers makes it unknown.
fn transfer(
    instrs: &[shadersim_asm::SourceInstr],
    range: std::ops::Range<usize>,
    flag: RegRange,
    flag_in: Flag,
) -> Flag {
    let mut f = flag_in;
    for s in &instrs[range] {
        let inst = &s.inst;
        if !inst.writes().iter().any(|w| overlaps(w, &flag)) {
            continue;
        }
        f = moved_constant(inst, flag).unwrap_or(Flag::Unknown);
    }
    f
}

/// `s_mov F, k` with F exactly the flag and k a constant: whether k is zero.
fn moved_constant(inst: &Instruction, flag: RegRange) -> Option<Flag> {
    let facts = inst.info.scalar?;
    let bits = if flag.count == 2 { 64 } else { 32 };
    if facts.op != ScalarOp::Mov || facts.bits != bits {
        return None;
    }
    match &inst.operands[..] {
        [Operand::Reg { range, .. }, Operand::Imm(k)] if *range == flag => {
            Some(if *k == 0 { Flag::Zero } else { Flag::NonZero })
        }
        _ => None,
    }
}

fn overlaps(a: &RegRange, b: &RegRange) -> bool {
    a.file == b.file && a.first < b.first + b.count && b.first < a.first + a.count
}

/// The flag on entering the latch from block `from` (entered with `flag_in`), joined over every
/// path inside the loop that does not pass the header; `None` when some path from `from`
/// leaves the loop or reaches the header without passing the latch.
fn flag_into(
    program: &Program,
    cfg: &Cfg,
    loop_id: usize,
    from: usize,
    latch: usize,
    flag: RegRange,
    flag_in: Flag,
) -> Option<Flag> {
    let lp = &cfg.loops[loop_id];
    let mut entry: HashMap<usize, Flag> = HashMap::from([(from, flag_in)]);
    let mut work = vec![from];
    let mut steps = 0usize;
    while let Some(b) = work.pop() {
        if b == latch {
            continue;
        }
        steps += 1;
        // Each block's entry value can only move towards Unknown: twice per block at most.
        if steps > 4 * cfg.blocks.len() + 4 {
            return None;
        }
        let blk = &cfg.blocks[b];
        let out = transfer(&program.instructions, blk.start..blk.end, flag, entry[&b]);
        for e in &blk.succs {
            if e.to == lp.header || !lp.contains(e.to) {
                return None;
            }
            let new = entry.get(&e.to).map_or(out, |&old| old.join(out));
            if entry.insert(e.to, new) != Some(new) {
                work.push(e.to);
            }
        }
    }
    entry.get(&latch).copied()
}

pub(crate) fn dominates(cfg: &Cfg, a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match cfg.idom[b] {
            Some(d) if d != b => b = d,
            _ => return false,
        }
    }
}
