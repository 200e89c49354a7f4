//! Lane divergence: `[[branch]] lane_probability`, drawn lane by lane, and
//! the EXEC mask a wave carries through the compiler's masked if/else.
//!
//! A divergent `if` compiles to a mask and a skip: `s_and_saveexec` keeps
//! the lanes whose condition holds, `s_cbranch_execz` jumps over the
//! then-side only when none is left. An `if/else` adds an else flip at the
//! skip's target (`s_or_saveexec` / `s_xor exec` / `s_andn2 exec`, then a
//! second `s_cbranch_execz` over the else-side), and the join restores
//! EXEC. So the CFG alone says which blocks are the two sides: the
//! fall-through of the hinted branch up to its target is the then-side;
//! when the target block writes EXEC and ends in another branch on EXEC,
//! its fall-through up to that branch's target is the else-side. A lane
//! that "takes" the hinted branch is one that skips the then-side (the
//! same direction as a wave taking it under `probability`), so it runs
//! the else-side.

use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use shadersim_isa::{InstrClass, SpecialReg};

/// A branch whose lanes decide independently, resolved against the CFG.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneBranch {
    /// Probability that one lane takes the branch (skips the then-side).
    pub probability: f64,
    /// The else flip that follows, if the branch is the first half of an
    /// if/else: that branch's instruction and the block where both sides
    /// meet.
    pub else_side: Option<(usize, usize)>,
}

/// Does instruction `idx` read EXEC (a branch on EXEC, `s_cbranch_execz`)?
fn branches_on_exec(program: &Program, idx: usize) -> bool {
    let inst = &program.instructions[idx].inst;
    inst.class() == InstrClass::BranchCond
        && inst.reads().iter().any(|r| r.touches(SpecialReg::ExecLo))
}

/// Resolve a lane-divergent branch: it must branch on EXEC (the compiler
/// masks both sides only there); the else flip is found at its target.
pub fn lane_branch(
    program: &Program,
    cfg: &Cfg,
    branch: &shadersim_cfg::Branch,
    probability: f64,
) -> Result<LaneBranch, String> {
    if !branches_on_exec(program, branch.instr)
        || !matches!(branch.kind, BranchKind::Skip | BranchKind::IfElse)
    {
        return Err(format!(
            "`lane_probability` needs a branch on EXEC around a masked side (`s_cbranch_execz` after `s_and_saveexec`); `{}` is a uniform branch: give it `probability`",
            program.instructions[branch.instr].text
        ));
    }
    let target = &cfg.blocks[branch.taken];
    let flips_exec = program.instructions[target.start..target.end]
        .iter()
        .any(|s| {
            s.inst
                .writes()
                .iter()
                .any(|r| r.touches(SpecialReg::ExecLo))
        });
    let else_side = cfg
        .branches
        .iter()
        .find(|b| b.block == target.id)
        .filter(|b| {
            flips_exec
                && branches_on_exec(program, b.instr)
                && matches!(b.kind, BranchKind::Skip | BranchKind::IfElse)
        })
        .map(|b| (b.instr, b.taken));
    Ok(LaneBranch {
        probability,
        else_side,
    })
}

/// One open divergent region.
#[derive(Debug, Clone)]
struct Frame {
    /// The block that ends the current side.
    join: usize,
    /// EXEC before the branch, restored where the sides meet.
    outer: u64,
    /// Lanes that run the else-side.
    else_mask: u64,
    /// The else flip (branch instruction, meeting block), if any.
    else_side: Option<(usize, usize)>,
    /// Walking the else-side now.
    in_else: bool,
}

/// The EXEC mask of one wave as its trace is walked.
#[derive(Debug, Clone)]
pub(crate) struct LaneState {
    /// Active lanes now (bit per lane).
    pub mask: u64,
    frames: Vec<Frame>,
}

impl LaneState {
    /// Every lane of a wave of `lanes` lanes active.
    pub fn new(lanes: u32) -> LaneState {
        LaneState {
            mask: LaneState::new_mask(lanes),
            frames: Vec::new(),
        }
    }

    /// The mask of a wave of `lanes` lanes, all active.
    fn new_mask(lanes: u32) -> u64 {
        if lanes >= 64 {
            u64::MAX
        } else {
            (1u64 << lanes.max(1)) - 1
        }
    }

    /// Back to every lane of a wave of `lanes` lanes active, as
    /// [`LaneState::new`] makes it, keeping the frames' buffer.
    pub fn reset(&mut self, lanes: u32) {
        self.mask = LaneState::new_mask(lanes);
        self.frames.clear();
    }

    /// The walk enters block `b`: reaching the end of a side switches to
    /// the else-side's lanes or restores the lanes before the branch.
    pub fn enter(&mut self, b: usize) {
        while let Some(f) = self.frames.last_mut() {
            if f.join != b {
                break;
            }
            match (f.in_else, f.else_side) {
                (false, Some((_, meet))) => {
                    // The else flip runs with the else-side's lanes.
                    f.in_else = true;
                    f.join = meet;
                    self.mask = f.else_mask;
                    break;
                }
                _ => {
                    self.mask = f.outer;
                    self.frames.pop();
                }
            }
        }
    }

    /// At a lane-divergent branch: each active lane draws; returns whether
    /// the wave takes the branch (no lane left for the then-side).
    pub fn diverge(&mut self, lb: &LaneBranch, target: usize, rng: &mut impl rand::Rng) -> bool {
        let outer = self.mask;
        let mut taking = 0u64;
        for lane in 0..64 {
            if outer >> lane & 1 == 1 && rng.gen::<f64>() < lb.probability {
                taking |= 1 << lane;
            }
        }
        let then_mask = outer & !taking;
        self.frames.push(Frame {
            join: target,
            outer,
            else_mask: outer & taking,
            else_side: lb.else_side,
            in_else: false,
        });
        if then_mask == 0 {
            true
        } else {
            self.mask = then_mask;
            false
        }
    }

    /// At the else flip's branch of the innermost region: taken (the
    /// else-side skipped) only when no lane runs it.
    pub fn else_decision(&self, instr: usize) -> Option<bool> {
        let f = self.frames.last()?;
        match f.else_side {
            Some((i, _)) if f.in_else && i == instr => Some(self.mask == 0),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_split_the_lanes_and_the_join_restores_them() {
        // Blocks: 0 branch, 1 then, 2 else flip (branch to 4), 3 else, 4 join.
        let lb = LaneBranch {
            probability: 0.5,
            else_side: Some((99, 4)),
        };
        let mut s = LaneState::new(64);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let taken = s.diverge(&lb, 2, &mut rng);
        assert!(!taken, "half the lanes stay: 2^-64 to skip");
        let then_mask = s.mask;
        s.enter(1);
        assert_eq!(s.mask, then_mask);
        s.enter(2);
        assert_eq!(s.mask, !then_mask, "the else flip runs the other lanes");
        assert_eq!(s.else_decision(99), Some(false));
        s.enter(3);
        s.enter(4);
        assert_eq!(s.mask, u64::MAX);
        // A wave32 draws its 32 lanes only.
        let mut s = LaneState::new(32);
        s.diverge(
            &LaneBranch {
                probability: 1.0,
                else_side: None,
            },
            2,
            &mut rng,
        );
        s.enter(2);
        assert_eq!(s.mask, 0xFFFF_FFFF);
    }
}
