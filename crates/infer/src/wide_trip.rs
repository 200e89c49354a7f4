//! Trip counts of scalar loops counted in 64 bits: a counter held in a register pair, stepped
//! by `s_add_u32`/`s_addc_u32` (or one 64-bit add) and compared by `s_cmp_eq_u64` or
//! `s_cmp_lg_u64`, which clang emits for `for (ulong j = 0; j < m; j++)` (often counting `m`
//! down to 0). The 32-bit rule of [`crate::tripcount`] does not read pairs; this one asks
//! address_affine's evaluator for the counter's value at the compare as a value affine in the
//! loop's completed iterations (`m - 1 - k` in iteration `k`), with the launch's numbers, and
//! steps it until the branch leaves. Anything else (an unknown factor, a per-lane value, a
//! second exit) is not inferred.

use crate::affine_query::{affine_value, AffineValue};
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::ScalarOp;

/// A 64-bit counter loop's inferred count and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WideTrip {
    /// Header executions per entry.
    pub iterations: u64,
    /// The exit compare as written.
    pub compare: String,
    /// How the count was found, for reports.
    pub reason: String,
}

/// The count of loop `loop_id` when its only exit tests a 64-bit scalar compare of values the
/// code and the launch fix; at most `max` header executions.
pub(crate) fn infer_wide_loop(
    program: &Program,
    cfg: &Cfg,
    loop_id: usize,
    max: u64,
) -> Option<WideTrip> {
    let lp = &cfg.loops[loop_id];
    let instrs = &program.instructions;
    let [(exiting, _)] = lp.exits[..] else {
        return None;
    };
    let [(latch, _)] = lp.back_edges[..] else {
        return None;
    };
    // Bottom-tested (the evaluator's value at the compare already holds this iteration's step).
    if exiting != latch {
        return None;
    }
    let branch = cfg.branch_of_block(exiting)?;
    let ScalarOp::BranchScc(taken_when) = instrs[branch.instr].inst.info.scalar?.op else {
        return None;
    };
    let exit_when_taken = !lp.contains(branch.taken);
    if exit_when_taken != lp.contains(branch.not_taken) {
        return None;
    }
    // The compare that sets the SCC the branch reads: the block's last SCC writer.
    let block = &cfg.blocks[exiting];
    let scc = shadersim_isa::RegRange::special(shadersim_isa::SpecialReg::Scc, 1);
    let cmp_idx = (block.start..branch.instr)
        .rev()
        .find(|&i| instrs[i].inst.writes().contains(&scc))?;
    let cmp = &instrs[cmp_idx].inst;
    let facts = cmp.info.scalar?;
    let (ScalarOp::Cmp(cond), 64) = (facts.op, facts.bits) else {
        return None;
    };
    let [a, b] = &cmp.operands[..] else {
        return None;
    };
    let a = affine_value(program, cfg, a, cmp_idx)?;
    let b = affine_value(program, cfg, b, cmp_idx)?;
    // Scalar values: no per-lane term; the first workgroup's (ids 0) count.
    if a.lane != [0; 3] || b.lane != [0; 3] {
        return None;
    }
    let (step_a, step_b) = (a.per_iteration(loop_id)?, b.per_iteration(loop_id)?);
    if step_a == 0 && step_b == 0 {
        return None;
    }
    let at = |v: &AffineValue, s: i64, k: u64| v.constant.wrapping_add(s.wrapping_mul(k as i64));
    let mut k: u64 = 0;
    loop {
        let holds = cond.holds_wide(
            at(&a, step_a, k) as u64,
            at(&b, step_b, k) as u64,
            facts.signed,
            64,
        );
        if (holds == taken_when) == exit_when_taken {
            break;
        }
        k += 1;
        if k >= max {
            return None;
        }
    }
    let (counter, per) = if step_a != 0 {
        (a.constant.wrapping_sub(step_a), step_a)
    } else {
        (b.constant.wrapping_sub(step_b), step_b)
    };
    Some(WideTrip {
        iterations: k + 1,
        compare: format!("{} {}", cmp.mnemonic, cmp.operand_text),
        reason: format!(
            "`{} {}` (a 64-bit counter from {counter}, {per:+} per iteration)",
            cmp.mnemonic, cmp.operand_text
        ),
    })
}
