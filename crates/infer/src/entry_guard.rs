//! Workgroups that reach a kernel's body. A kernel that opens with a guard on its work-item id
//! (`if (i < n)`, or a grid-stride loop's first test: LLVM compiles both to a `v_cmp` of the
//! lane's id against a bound, `s_and_saveexec` of that mask, and `s_cbranch_execz` past the
//! body) does nothing in a workgroup whose lanes all fail the test: a launch of more workgroups
//! than the data needs (AMD's yAx exercises launch 2048 one-wave workgroups over 512 waves of
//! rows) keeps most CUs' workgroups empty. The compare's two sides are evaluated as values
//! affine in the work-item and workgroup ids (address_affine's evaluator, with the launch's
//! numbers), and each workgroup of the grid is tested by its lanes' extreme values (the
//! ordered compares hold for some lane exactly when they hold at one of the extremes).
//! A test of uniform values (`if (group x size >= n) return;`, a grid-stride loop whose first
//! index is the workgroup's) is a scalar `s_cmp` and an SCC branch past a loop instead, read
//! the same way with no lanes to range over.
//! The guard may follow a prologue every workgroup runs (AMD's yAx exercise 2 fills 64 KiB of
//! LDS and waits at a barrier before its grid-stride loop): the blocks every run passes
//! through are searched in order for the first guard that skips the body (the skipped blocks
//! hold a loop nest deeper than any outside them, or no loop is outside them), and an empty
//! workgroup's prologue is not charged.
//! What an empty workgroup still runs past the guard's target (a reduction's epilogue) is not
//! charged: it is small beside a body. Anything else (equality tests, an unknown factor, more
//! than [`MAX_GUARDED_GROUPS`] workgroups) is not inferred.

use crate::affine_query::affine_value;
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{CmpCond, InstrClass, ScalarOp, SpecialReg};

/// Grids of more workgroups than this are not tested one by one.
pub const MAX_GUARDED_GROUPS: u64 = 1 << 22;

/// The workgroups of a launch whose lanes pass a kernel's entry guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryGuard {
    /// Workgroups with at least one lane past the guard.
    pub working_groups: u64,
    /// Line of the guard's compare.
    pub line: u32,
    /// The compare as written (`v_cmp_gt_i32_e32 vcc, s8, v0`).
    pub compare: String,
}

/// The entry guard of `program` and the workgroups of a `grid` of `block`-shaped workgroups
/// it lets through, or `None` when the kernel opens with no guard this reader follows.
pub fn entry_guard(
    program: &Program,
    cfg: &Cfg,
    grid: [u64; 3],
    block: [u32; 3],
) -> Option<EntryGuard> {
    let (cmp_idx, works_when) = main_path(cfg).chain(body_path(cfg)).find_map(|b| {
        let g = vector_guard(program, cfg, b).or_else(|| scalar_guard(program, cfg, b))?;
        // The guard must skip the body: the skipped blocks hold a loop nest deeper than any
        // outside them, or there is no loop outside them (a prologue's own `if` around a loop,
        // an LDS fill's `lid < size`, leaves the main loop after it; an epilogue's reduction
        // loop is shallower than the body's nest).
        let branch = cfg.branch_of_block(b)?;
        let skipped = branch.not_taken..branch.taken;
        let deepest = |inside: bool| {
            (0..cfg.loops.len())
                .filter(|&l| skipped.contains(&cfg.loops[l].header) == inside)
                .map(|l| loop_depth(cfg, l))
                .max()
                .unwrap_or(0)
        };
        let outside = deepest(false);
        (outside == 0 || deepest(true) > outside).then_some(g)
    })?;
    let instrs = &program.instructions;
    let cmp = &instrs[cmp_idx].inst;
    let facts = cmp.info.scalar?;
    let ScalarOp::Cmp(cond) = facts.op else {
        return None;
    };
    if matches!(cond, CmpCond::Eq | CmpCond::Lg) {
        return None;
    }
    let [a, b] = &cmp.operands[cmp.defs..] else {
        return None;
    };
    let a = affine_value(program, cfg, a, cmp_idx)?;
    let b = affine_value(program, cfg, b, cmp_idx)?;
    if !a.iterations.is_empty() || !b.iterations.is_empty() {
        return None;
    }
    let workgroups = grid
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|&w| w <= MAX_GUARDED_GROUPS)?;
    // Every lane's part of each side, over the block's work-items: its extremes.
    let lane_range = |lane: [i64; 3]| {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for z in 0..i64::from(block[2].max(1)) {
            for y in 0..i64::from(block[1].max(1)) {
                for x in [0, i64::from(block[0].max(1)) - 1] {
                    let v = lane[0]
                        .wrapping_mul(x)
                        .wrapping_add(lane[1].wrapping_mul(y))
                        .wrapping_add(lane[2].wrapping_mul(z));
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        (lo, hi)
    };
    let (a_lo, a_hi) = lane_range(a.lane);
    let (b_lo, b_hi) = lane_range(b.lane);
    // One side uniform: the ordered compare holds for some lane iff it holds at an extreme.
    if (a_lo != a_hi) && (b_lo != b_hi) {
        return None;
    }
    let holds = |x: i64, y: i64| cond.holds_wide(x as u64, y as u64, facts.signed, facts.bits);
    let mut working = 0u64;
    for g in 0..workgroups {
        let id = [g % grid[0], g / grid[0] % grid[1], g / (grid[0] * grid[1])];
        let at = |v: &crate::affine_query::AffineValue| {
            (0..3).fold(v.constant, |acc, d| {
                acc.wrapping_add(v.group[d].wrapping_mul(id[d] as i64))
            })
        };
        let (ua, ub) = (at(&a), at(&b));
        let any = [(a_lo, b_lo), (a_hi, b_hi), (a_lo, b_hi), (a_hi, b_lo)]
            .iter()
            .any(|&(x, y)| holds(ua.wrapping_add(x), ub.wrapping_add(y)) == works_when);
        working += u64::from(any);
    }
    Some(EntryGuard {
        working_groups: working,
        line: program.instructions[cmp_idx].pos.line,
        compare: format!("{} {}", cmp.mnemonic, cmp.operand_text),
    })
}

/// The vector form: `v_cmp`, `s_and_saveexec` of its mask (or one `v_cmpx` writing EXEC),
/// `s_cbranch_execz` past the body.
/// The compare's index, and that a lane works when the compare holds.
fn vector_guard(program: &Program, cfg: &Cfg, block: usize) -> Option<(usize, bool)> {
    let instrs = &program.instructions;
    let branch = cfg.branch_of_block(block)?;
    if instrs[branch.instr].inst.branch_on_exec_zero() != Some(true) {
        return None;
    }
    let entry = &cfg.blocks[block];
    // The mask EXEC is set from: the last EXEC write before the branch, `s_and_saveexec`.
    let exec_write = (entry.start..branch.instr).rev().find(|&i| {
        instrs[i]
            .inst
            .writes()
            .iter()
            .any(|w| w.touches(SpecialReg::ExecLo))
    })?;
    let saveexec = &instrs[exec_write].inst;
    // gfx10+ writes EXEC with the compare itself (`v_cmpx_gt_i32_e64 s2, v0`).
    if saveexec.class().is_valu() {
        return Some((exec_write, true));
    }
    let mask = saveexec.operands.get(saveexec.defs)?.reg()?;
    let cmp_idx = (entry.start..exec_write).rev().find(|&i| {
        let inst = &instrs[i].inst;
        inst.class().is_valu() && inst.writes().contains(&mask)
    })?;
    Some((cmp_idx, true))
}

/// The scalar form, a test of uniform values (`if (group x size >= n) return;`, or a
/// grid-stride loop whose first index is the workgroup's): `s_cmp` and `s_cbranch_scc0/1`
/// to a block past a loop, so the skipped blocks hold the body's work. The compare's index,
/// and whether the workgroup works when the compare holds (the branch skips when it does
/// not, for `s_cbranch_scc0`).
fn scalar_guard(program: &Program, cfg: &Cfg, block: usize) -> Option<(usize, bool)> {
    let instrs = &program.instructions;
    let branch = cfg.branch_of_block(block)?;
    let skips_when = match instrs[branch.instr].inst.base_mnemonic() {
        "s_cbranch_scc1" => true,
        "s_cbranch_scc0" => false,
        _ => return None,
    };
    // The skipped blocks, between the fall-through and the target, hold a loop.
    let body = branch.not_taken..branch.taken;
    if !cfg.loops.iter().any(|l| body.contains(&l.header)) {
        return None;
    }
    let entry = &cfg.blocks[block];
    let cmp_idx = (entry.start..branch.instr).rev().find(|&i| {
        instrs[i]
            .inst
            .writes()
            .iter()
            .any(|w| w.touches(SpecialReg::Scc))
    })?;
    let inst = &instrs[cmp_idx].inst;
    // An ordered compare of integers: an equality test (gfx12's `s_cmp_eq_f32` of an
    // assert's value) is not a bound on the work, and the search goes on past it.
    let ordered = matches!(
        inst.info.scalar.map(|f| f.op),
        Some(ScalarOp::Cmp(c)) if !matches!(c, CmpCond::Eq | CmpCond::Lg)
    );
    (inst.class() == InstrClass::Salu && ordered).then_some((cmp_idx, !skips_when))
}

/// The blocks every run of the kernel passes through outside loops, in order: the entry and
/// its chain of immediate post-dominators (a loop's blocks are stepped over to its exit).
fn main_path(cfg: &Cfg) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(Some(0), |&b| cfg.ipdom.get(b).copied().flatten())
        .take(cfg.blocks.len())
        .filter(|&b| cfg.innermost_loop[b].is_none())
}

/// The blocks outside loops that dominate the outermost loop around the deepest loop nest,
/// entry first: every run that reaches the body passes through them. Searched after
/// [`main_path`] for a guard it does not hold: where a branch leaves for a path that never
/// joins the exit (an `assert`'s trap, HIP's `assert(result[0] == 0.0)` in AMD's yAx exercise
/// 3), the entry's post-dominators skip the rest of the kernel, guard included.
fn body_path(cfg: &Cfg) -> impl Iterator<Item = usize> + '_ {
    let deepest = (0..cfg.loops.len()).max_by_key(|&l| (loop_depth(cfg, l), std::cmp::Reverse(l)));
    let header = deepest.map(|l| {
        let outermost = std::iter::successors(Some(l), |&l| cfg.loops[l].parent)
            .last()
            .unwrap_or(l);
        cfg.loops[outermost].header
    });
    let mut chain: Vec<usize> = header
        .map(|h| {
            std::iter::successors(cfg.idom.get(h).copied().flatten(), |&b| {
                cfg.idom.get(b).copied().flatten().filter(|&d| d != b)
            })
            .take(cfg.blocks.len())
            .collect()
        })
        .unwrap_or_default();
    chain.reverse();
    chain
        .into_iter()
        .filter(|&b| cfg.innermost_loop[b].is_none())
}

/// How many loops enclose loop `l`, itself included.
fn loop_depth(cfg: &Cfg, l: usize) -> usize {
    std::iter::successors(Some(l), |&l| cfg.loops[l].parent).count()
}
