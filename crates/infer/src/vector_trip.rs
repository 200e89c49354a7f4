//! Trip counts of vector loops: loops whose lanes leave one by one (a grid-stride loop
//! `for (i = id; i < n; i += stride)`), which LLVM builds as a lane mask of the lanes that
//! are done (`v_cmp` of the lane's counter against the bound, or-ed into a break mask, `exec`
//! less that mask) and a branch out once no lane is left (`s_cbranch_execz`).
//!
//! The loop runs until its last lane leaves, so its header runs as often as the first wave's
//! slowest lane needs: the compare's two sides are evaluated as values affine in the work-item
//! id, the workgroup id and the loop's iteration (address_affine's evaluator, with the launch's
//! numbers), and each lane of the first workgroup's first wave is stepped until its exit test
//! holds. Anything else (an unknown factor, a second exit, 2D lanes) is not inferred.

use crate::affine_query::{affine_value, AffineValue};
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{Operand, ScalarOp};

/// A vector loop's inferred count and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VectorTrip {
    /// Header executions per entry.
    pub iterations: u64,
    /// The exit compare as written.
    pub compare: String,
    /// How the count was found, for reports.
    pub reason: String,
}

/// The count of loop `loop_id` when it is a vector loop whose exit test the code and the
/// launch fix, for waves of `wave_size` lanes; at most `max` header executions.
pub(crate) fn infer_vector_loop(
    program: &Program,
    cfg: &Cfg,
    loop_id: usize,
    wave_size: u32,
    max: u64,
) -> Option<VectorTrip> {
    let lp = &cfg.loops[loop_id];
    let instrs = &program.instructions;
    let [(exiting, _)] = lp.exits[..] else {
        return None;
    };
    let [(latch, _)] = lp.back_edges[..] else {
        return None;
    };
    // Bottom-tested: the test is in the latch, after the body's step.
    if exiting != latch {
        return None;
    }
    let branch = cfg.branch_of_block(exiting)?;
    let exit_when_taken = !lp.contains(branch.taken);
    // The loop is left when no lane is: a branch out taken on EXEC zero, or a branch back
    // taken while some lane is active (`s_cbranch_execnz` to the header).
    let on_zero = instrs[branch.instr].inst.branch_on_exec_zero()?;
    if on_zero != exit_when_taken {
        return None;
    }
    // The lanes' exit test: the block's last vector compare into a lane mask.
    let block = &cfg.blocks[exiting];
    let cmp_idx = (block.start..branch.instr).rev().find(|&i| {
        let inst = &instrs[i].inst;
        inst.class().is_valu() && matches!(inst.info.scalar.map(|f| f.op), Some(ScalarOp::Cmp(_)))
    })?;
    let cmp = &instrs[cmp_idx].inst;
    let facts = cmp.info.scalar?;
    let ScalarOp::Cmp(cond) = facts.op else {
        return None;
    };
    let srcs: Vec<&Operand> = cmp.operands[cmp.defs..].iter().collect();
    let [a, b] = srcs[..] else {
        return None;
    };
    let a = affine_value(program, cfg, a, cmp_idx)?;
    let b = affine_value(program, cfg, b, cmp_idx)?;
    let (step_a, step_b) = (a.per_iteration(loop_id)?, b.per_iteration(loop_id)?);
    if step_a == 0 && step_b == 0 {
        return None;
    }
    // 1D lanes only: the lane's local id is its lane index (a block at least a wave wide).
    if a.lane[1..] != [0, 0] || b.lane[1..] != [0, 0] {
        return None;
    }
    // The first workgroup's first wave (workgroup ids 0): its slowest lane sets the count.
    let mut slowest: u64 = 0;
    for lane in 0..i64::from(wave_size) {
        let mut t: u64 = 0;
        loop {
            let at = |v: &AffineValue, step: i64| {
                v.constant
                    .wrapping_add(v.lane[0].wrapping_mul(lane))
                    .wrapping_add(step.wrapping_mul(t as i64)) as u64
            };
            // A 64-bit compare reads the pair as the same affine value (the evaluator follows
            // the low DWORD's arithmetic and its carry into the high one).
            if cond.holds_wide(at(&a, step_a), at(&b, step_b), facts.signed, facts.bits) {
                break;
            }
            t += 1;
            if t >= max {
                return None;
            }
        }
        slowest = slowest.max(t + 1);
    }
    Some(VectorTrip {
        iterations: slowest,
        compare: format!("{} {}", cmp.mnemonic, cmp.operand_text),
        reason: format!(
            "`{} {}`: a vector loop, run until its first wave's last lane leaves ({} lanes)",
            cmp.mnemonic, cmp.operand_text, wave_size
        ),
    })
}
