//! Trip counts a loop's own code fixes: a scalar counter set to a constant
//! before the loop, stepped by a constant once per iteration, and compared
//! against a constant by the loop's only exit test (at its bottom, its top,
//! or in its middle when the test runs on every pass). Such a loop runs its
//! real count when no hint gives `iterations` (instead of once), and the
//! report says it was inferred.
//!
//! Conservative on purpose: anything that does not match exactly is not
//! inferred. The arithmetic of every instruction comes from the ISA table's
//! scalar facts ([`shadersim_isa::ScalarFacts`]), never from a spelling.

use crate::flag_exit::dominates;
use shadersim_asm::{Program, SourceInstr};
use shadersim_cfg::Cfg;
use shadersim_isa::{Instruction, Operand, RegFile, RegRange, ScalarOp};
use std::collections::HashSet;

/// More header executions than this are not inferred by simulating a counter step by step (a
/// vector loop's lanes, a 64-bit counter, a shifted or multiplied counter).
pub const MAX_INFERRED_ITERATIONS: u64 = 1_000_000;

/// More header executions than this are not inferred for a 32-bit counter stepped by adding,
/// which is counted in closed form: the largest count an `int` bound gives. A walk longer than
/// that goes round the 32-bit range (a counter from 0 stepped by -1 until it is 0 again: a loop
/// whose guard skips it when its count is 0, misread). A count past the trace bound runs
/// sampled with a launch grid, and is an error naming the loop without one.
pub const MAX_COUNTED_ITERATIONS: u64 = i32::MAX as u64;

/// A trip count inferred from a loop's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InferredTrip {
    /// The loop (index in [`Cfg::loops`]).
    pub loop_id: usize,
    /// Executions of the header block per entry (the meaning of a hint's
    /// `iterations`).
    pub iterations: u64,
    /// The exit compare as written (`s_cmp_lt_u32 s4, 16`).
    pub compare: String,
    /// The counter's register index (`s4` is 4).
    pub sgpr: u16,
    /// The counter's value on entry.
    pub start: i64,
    /// What one iteration does to the counter.
    pub step: CounterStep,
    /// How the count was found when the 32-bit counter rule did not find it (a vector loop,
    /// whose lanes leave one by one; a 64-bit counter): `sgpr`, `start` and `step` then say
    /// nothing.
    pub found: Option<String>,
}

/// What one iteration does to a loop counter: `counter = counter OP operand`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterStep {
    /// The operation (add, sub, shifts, mul).
    pub op: ScalarOp,
    /// Its constant operand.
    pub operand: u32,
}

impl CounterStep {
    /// The counter after one step (32-bit wrapping, as the hardware computes it).
    pub fn apply(self, value: u32) -> u32 {
        self.op.apply(value, self.operand).unwrap_or(value)
    }
}

impl std::fmt::Display for CounterStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let k = self.operand;
        match self.op {
            ScalarOp::Add => write!(f, "{:+}", k as i32),
            ScalarOp::Sub => write!(f, "{:+}", (k as i32).wrapping_neg()),
            ScalarOp::Lshl => write!(f, "<< {}", k & 31),
            ScalarOp::Lshr | ScalarOp::Ashr => write!(f, ">> {}", k & 31),
            ScalarOp::Mul => write!(f, "x {}", k as i32),
            ScalarOp::And => write!(f, "& 0x{k:x}"),
            ScalarOp::Mov | ScalarOp::Cmp(_) | ScalarOp::BranchScc(_) | ScalarOp::BranchVcc(_) => {
                write!(f, "?")
            }
        }
    }
}

impl InferredTrip {
    /// How the count was found, for reports:
    /// `` `s_cmp_lt_u32 s4, 16` (s4 from 0, +1 per iteration) ``.
    pub fn reason(&self) -> String {
        if let Some(found) = &self.found {
            return found.clone();
        }
        format!(
            "`{}` (s{} from {}, {} per iteration)",
            self.compare, self.sgpr, self.start, self.step
        )
    }
}

/// The inferred trip count of every loop that has one, by loop id.
pub fn infer_trip_counts(program: &Program, cfg: &Cfg) -> Vec<Option<InferredTrip>> {
    (0..cfg.loops.len())
        .map(|l| {
            infer_loop(program, cfg, l)
                .or_else(|| wide_loop(program, cfg, l))
                .or_else(|| vector_loop(program, cfg, l))
        })
        .collect()
}

/// A vector loop's count ([`crate::vector_trip`]) as an inferred trip, for the program's wave
/// size (its declared one, else 64).
fn vector_loop(program: &Program, cfg: &Cfg, loop_id: usize) -> Option<InferredTrip> {
    let wave = program.declared.wave_size.unwrap_or(64);
    let v = crate::vector_trip::infer_vector_loop(
        program,
        cfg,
        loop_id,
        wave,
        MAX_INFERRED_ITERATIONS,
    )?;
    Some(InferredTrip {
        loop_id,
        iterations: v.iterations,
        compare: v.compare,
        sgpr: 0,
        start: 0,
        step: CounterStep {
            op: ScalarOp::Add,
            operand: 0,
        },
        found: Some(v.reason),
    })
}

/// A 64-bit counter's count ([`crate::wide_trip`]) as an inferred trip.
fn wide_loop(program: &Program, cfg: &Cfg, loop_id: usize) -> Option<InferredTrip> {
    let w = crate::wide_trip::infer_wide_loop(program, cfg, loop_id, MAX_INFERRED_ITERATIONS)?;
    Some(InferredTrip {
        loop_id,
        iterations: w.iterations,
        compare: w.compare,
        sgpr: 0,
        start: 0,
        step: CounterStep {
            op: ScalarOp::Add,
            operand: 0,
        },
        found: Some(w.reason),
    })
}

fn single_sgpr(op: &Operand) -> Option<u16> {
    match op {
        Operand::Reg {
            range:
                RegRange {
                    file: RegFile::Sgpr,
                    first,
                    count: 1,
                },
            neg: false,
            abs: false,
            half: None,
        } => Some(*first),
        _ => None,
    }
}

fn writes_sgpr(instr: &Instruction, r: u16) -> bool {
    instr
        .writes()
        .iter()
        .any(|w| w.file == RegFile::Sgpr && w.first <= r && r < w.first + w.count)
}

/// The one instruction of loop `loop_id` (its inner loops' blocks included) that writes SGPR
/// `r`; `None` when none or several do.
fn sole_writer(cfg: &Cfg, instrs: &[SourceInstr], loop_id: usize, r: u16) -> Option<usize> {
    let mut writers = cfg.loops[loop_id]
        .blocks
        .iter()
        .flat_map(|&b| cfg.blocks[b].start..cfg.blocks[b].end)
        .filter(|&i| writes_sgpr(&instrs[i].inst, r));
    let only = writers.next()?;
    writers.next().is_none().then_some(only)
}

fn writes_scc(instr: &Instruction) -> bool {
    instr
        .writes()
        .iter()
        .any(|w| *w == RegRange::special(shadersim_isa::SpecialReg::Scc, 1))
}

/// The constant value of an immediate operand as `instr` reads it.
fn constant(instr: &Instruction, op: &Operand) -> Option<u32> {
    let facts = instr.info.scalar?;
    match op {
        Operand::Imm(v) if facts.imm16 => Some(facts.extend_imm16(*v)),
        // A 32-bit literal or inline constant: its low 32 bits (a negative
        // number is its two's complement).
        Operand::Imm(v) if i32::try_from(*v).is_ok() || u32::try_from(*v).is_ok() => {
            Some(*v as u32)
        }
        _ => None,
    }
}

fn infer_loop(program: &Program, cfg: &Cfg, loop_id: usize) -> Option<InferredTrip> {
    let lp = &cfg.loops[loop_id];
    let instrs = &program.instructions;
    // One exit and one back edge: the exit test decides every trip.
    let [(exiting, _)] = lp.exits[..] else {
        return None;
    };
    let [(latch, _)] = lp.back_edges[..] else {
        return None;
    };
    // An exit through a flag register (Rodinia hotspot): the SCC branch that sets the flag is
    // the exit test, in the middle of the body.
    let flag = crate::flag_exit::flag_exit(program, cfg, loop_id);
    let exiting = flag.map_or(exiting, |f| f.test_block);
    // The exit test at the bottom (the latch), at the top (the header), or in the middle of
    // the body: then it must run on every pass (its block in this loop, not an inner one,
    // and on every path to the latch), as LLVM places `if (s == steps - 1) break;` between a
    // loop's barriers (issue 47 item 1, Rodinia pathfinder).
    let top_tested = exiting == lp.header && exiting != latch;
    let mid_tested = exiting != latch
        && !top_tested
        && cfg.innermost_loop[exiting] == Some(loop_id)
        && dominates(cfg, exiting, latch);
    if exiting != latch && !top_tested && !mid_tested {
        return None;
    }
    let block = &cfg.blocks[exiting];
    let branch = cfg.branch_of_block(exiting)?;
    let ScalarOp::BranchScc(taken_when) = instrs[branch.instr].inst.info.scalar?.op else {
        return None;
    };
    // Exactly one side leaves the loop (through the flag, the side that sets it).
    let exit_when_taken = match flag {
        Some(f) => f.exit_when_taken,
        None => !lp.contains(branch.taken),
    };
    if flag.is_none() && exit_when_taken != lp.contains(branch.not_taken) {
        return None;
    }
    // The compare that sets the SCC the branch reads: the last SCC writer
    // of the block.
    let cmp_idx = (block.start..branch.instr)
        .rev()
        .find(|&i| writes_scc(&instrs[i].inst))?;
    let cmp = &instrs[cmp_idx].inst;
    let cmp_facts = cmp.info.scalar?;
    let ScalarOp::Cmp(cond) = cmp_facts.op else {
        return None;
    };
    let [lhs, rhs] = &cmp.operands[..] else {
        return None;
    };
    // The counter against a constant, written either way round
    // (`s_cmp_lt_u32 s4, 16` or ACO's `s_cmp_ge_u32 0, s0`).
    // Or against a register the loop does not write whose number the code and the launch
    // fix (a kernel argument the launch gives: `for (k = 0; k < K; k++)`).
    let written_in_loop = |r: u16| {
        lp.blocks
            .iter()
            .flat_map(|&b| cfg.blocks[b].start..cfg.blocks[b].end)
            .any(|i| writes_sgpr(&instrs[i].inst, r))
    };
    let fixed =
        |r: u16| crate::affine_query::uniform_number(program, cfg, r, cmp_idx).map(|v| v as u32);
    let (r, bound, cond) = match (single_sgpr(lhs), single_sgpr(rhs)) {
        (Some(r), None) => (r, constant(cmp, rhs)?, cond),
        (None, Some(r)) if !cmp_facts.imm16 => (r, constant(cmp, lhs)?, cond.mirrored()),
        (Some(a), Some(b)) => match (written_in_loop(a), written_in_loop(b)) {
            (true, false) => (a, fixed(b)?, cond),
            (false, true) => (b, fixed(a)?, cond.mirrored()),
            _ => return None,
        },
        _ => return None,
    };
    // The step: the only write to R in the loop, in a block of this loop
    // (not an inner one) that dominates the latch, so it runs once on
    // every path through an iteration.
    let step_idx = sole_writer(cfg, instrs, loop_id, r)?;
    let step_block = cfg.block_of[step_idx];
    let stay = flag.map(|f| {
        if f.exit_when_taken {
            branch.not_taken
        } else {
            branch.taken
        }
    });
    let on_every_pass = step_on_every_pass(cfg, loop_id, latch, step_block, stay);
    if cfg.innermost_loop[step_block] != Some(loop_id) || !on_every_pass {
        return None;
    }
    // A step by a register the code and the launch fix (a grid-stride loop over workgroups
    // adds the workgroup count, a hidden kernel argument).
    let step_fixed =
        |k: u16| crate::affine_query::uniform_number(program, cfg, k, step_idx).map(|v| v as u32);
    let step = counter_step(&instrs[step_idx].inst, r, step_fixed)
        .or_else(|| copied_step(program, cfg, loop_id, step_idx, r, step_fixed))?;
    // The test reads R stepped when the step comes before it on every path: earlier in the
    // test's block (a copy after the compare, or a step in a later block of a top or mid test,
    // is read next pass), or in another block of a bottom test, or one that dominates the test.
    let stepped_before_test = if step_block == exiting {
        step_idx < cmp_idx
    } else {
        exiting == latch || dominates(cfg, step_block, exiting)
    };
    // A counter may start at the workgroup id (see `counter_start`).
    let (start, group_start) = counter_start(program, cfg, loop_id, r)?;
    let exits =
        |seen: u32| (cond.holds(seen, bound, cmp_facts.signed) == taken_when) == exit_when_taken;
    let n = header_executions(start, step, stepped_before_test, bound, exits)?;
    let signed_value = |v: u32| {
        if cmp_facts.signed {
            v as i32 as i64
        } else {
            v as i64
        }
    };
    let compare = format!("{} {}", cmp.mnemonic, cmp.operand_text);
    let found = group_start.map(|dim| group_reason(&compare, r, dim, step, n));
    Some(InferredTrip {
        loop_id,
        iterations: n,
        compare,
        sgpr: r,
        start: signed_value(start),
        step,
        found,
    })
}

/// Header executions: the first pass whose test `exits`, with the hardware's wrapping 32-bit
/// arithmetic, the test comparing the counter (stepped first or not) with `bound`. A counter
/// stepped by adding is counted in closed form (a loop bounded by a launch argument may run
/// millions of trips); any other step is simulated.
fn header_executions(
    start: u32,
    step: CounterStep,
    stepped_before_test: bool,
    bound: u32,
    exits: impl Fn(u32) -> bool,
) -> Option<u64> {
    let Some(k) = additive_step(step) else {
        return simulated_trips(start, step, stepped_before_test, exits);
    };
    let first_seen = if stepped_before_test {
        step.apply(start)
    } else {
        start
    };
    crate::counter_walk::first_exit(first_seen, k, bound, exits, MAX_COUNTED_ITERATIONS)
}

/// The constant a step adds (modulo 2^32), for an additive step.
fn additive_step(step: CounterStep) -> Option<u32> {
    match step.op {
        ScalarOp::Add => Some(step.operand),
        ScalarOp::Sub => Some(step.operand.wrapping_neg()),
        _ => None,
    }
}

/// Header executions of a counter stepped other than by adding, simulated pass by pass (such a
/// counter settles or cycles within a few dozen steps, or is not counted).
fn simulated_trips(
    start: u32,
    step: CounterStep,
    stepped_before_test: bool,
    exits: impl Fn(u32) -> bool,
) -> Option<u64> {
    let mut value = start;
    let mut n: u64 = 0;
    loop {
        n += 1;
        if n > MAX_INFERRED_ITERATIONS {
            return None;
        }
        let seen = if stepped_before_test {
            step.apply(value)
        } else {
            value
        };
        if exits(seen) {
            return Some(n);
        }
        value = step.apply(value);
    }
}

/// Whether the counter's step in `step_block` runs once on every pass that goes on: its block
/// dominates the latch, or, behind a flag exit test whose staying side is `stay`, it lies on
/// every path from that side to the latch (hotspot's `i++` after the copy).
fn step_on_every_pass(
    cfg: &Cfg,
    loop_id: usize,
    latch: usize,
    step_block: usize,
    stay: Option<usize>,
) -> bool {
    let lp = &cfg.loops[loop_id];
    dominates(cfg, step_block, latch)
        || stay.is_some_and(|stay| {
            stay == step_block
                || !reach(cfg, stay, step_block, |b| {
                    cfg.blocks[b]
                        .succs
                        .iter()
                        .map(|e| e.to)
                        .filter(|&t| t != lp.header && lp.contains(t))
                        .collect()
                })
                .contains(&latch)
        })
}

/// The step of a counter the loop writes by a copy, `s_mov_b32 r, t`, of `t = r OP k` computed
/// earlier in the copy's block (t written nowhere else in the loop): LLVM's shape when the exit
/// test reads the counter before the step (`for (i = n; i > 0; i -= 3)` tests `i > 3`).
fn copied_step(
    program: &Program,
    cfg: &Cfg,
    loop_id: usize,
    copy_idx: usize,
    r: u16,
    fixed: impl Fn(u16) -> Option<u32>,
) -> Option<CounterStep> {
    let instrs = &program.instructions;
    let copy = &instrs[copy_idx].inst;
    if copy.info.scalar?.op != ScalarOp::Mov || copy.info.scalar?.bits != 32 {
        return None;
    }
    let [dst, src] = &copy.operands[..] else {
        return None;
    };
    let t = single_sgpr(src).filter(|&t| t != r && single_sgpr(dst) == Some(r))?;
    let def_idx = sole_writer(cfg, instrs, loop_id, t)?;
    if cfg.block_of[def_idx] != cfg.block_of[copy_idx] || def_idx > copy_idx {
        return None;
    }
    // `t = r OP k`: the counter step with `t` for its destination; R is not written between
    // the two (the copy is R's only write in the loop).
    step_into(&instrs[def_idx].inst, t, r, fixed)
}

/// What `step_instr`, the loop's one write to the counter SGPR `r`, does to it each
/// iteration: `r = r OP k` (or `r = k OP r` for an operation that commutes), `s_addk_i32 r, k`.
fn counter_step(
    step_instr: &Instruction,
    r: u16,
    fixed: impl Fn(u16) -> Option<u32>,
) -> Option<CounterStep> {
    step_into(step_instr, r, r, fixed)
}

/// `dst = src OP k` (or `k OP src` for an operation that commutes; `s_addk_i32` when `dst` is
/// `src`) as a counter step of `src`.
fn step_into(
    step_instr: &Instruction,
    dst_reg: u16,
    r: u16,
    fixed: impl Fn(u16) -> Option<u32>,
) -> Option<CounterStep> {
    let step_facts = step_instr.info.scalar?;
    let op = step_facts.op;
    // The other operand: a constant, or an SGPR whose number the code and the launch fix.
    let operand = |o: &Operand| {
        constant(step_instr, o).or_else(|| single_sgpr(o).filter(|&k| k != r).and_then(&fixed))
    };
    match &step_instr.operands[..] {
        // SOPK: `s_addk_i32 s4, 1` adds its immediate to its destination.
        [d, k]
            if op == ScalarOp::Add
                && step_facts.imm16
                && dst_reg == r
                && single_sgpr(d) == Some(r) =>
        {
            Some(CounterStep {
                op,
                operand: constant(step_instr, k)?,
            })
        }
        [d, a, b]
            if !step_facts.imm16 && single_sgpr(d) == Some(dst_reg) && op.apply(0, 0).is_some() =>
        {
            if single_sgpr(a) == Some(r) {
                Some(CounterStep {
                    op,
                    operand: operand(b)?,
                })
            } else if single_sgpr(b) == Some(r) && op.commutes() {
                Some(CounterStep {
                    op,
                    operand: operand(a)?,
                })
            } else {
                None
            }
        }
        _ => None,
    }
}

/// R's value on entry to the loop: the last write to R before the loop on
/// the header's dominator chain must be a move of a constant, and no block
/// on a path from that move to the header may write R again.
fn entry_value(program: &Program, cfg: &Cfg, loop_id: usize, r: u16) -> Option<u32> {
    let lp = &cfg.loops[loop_id];
    let instrs = &program.instructions;
    let mut d = cfg.idom[lp.header]?;
    let mov_idx = loop {
        let b = &cfg.blocks[d];
        if let Some(i) = (b.start..b.end)
            .rev()
            .find(|&i| writes_sgpr(&instrs[i].inst, r))
        {
            break i;
        }
        d = match cfg.idom[d] {
            Some(p) if p != d => p,
            _ => return None,
        };
    };
    let mov = &instrs[mov_idx].inst;
    // Any write whose number the code and the launch fix (a copy of a kernel argument,
    // `K - 1`, the argument's load itself).
    let fixed = || crate::affine_query::uniform_def(program, cfg, mov_idx, r).map(|v| v as u32);
    let Some(facts) = mov.info.scalar else {
        return fixed()
            .and_then(|v| writes_only_before(cfg, instrs, loop_id, mov_idx, r).then_some(v));
    };
    let value = match (facts.op, &mov.operands[..]) {
        (ScalarOp::Mov, [dst, k]) if facts.bits == 32 && single_sgpr(dst) == Some(r) => {
            constant(mov, k).or_else(fixed)?
        }
        // A register pair set to an inline constant (-16..64, sign-extended
        // to 64 bits): a 64-bit offset counter whose low half the loop
        // compares. Literals are left alone (their 64-bit extension differs
        // between generations).
        (
            ScalarOp::Mov,
            [Operand::Reg {
                range:
                    RegRange {
                        file: RegFile::Sgpr,
                        first,
                        count: 2,
                    },
                neg: false,
                abs: false,
                half: None,
            }, Operand::Imm(v)],
        ) if facts.bits == 64 && (-16..=64).contains(v) => {
            let wide = *v as u64;
            if *first == r {
                wide as u32
            } else if *first + 1 == r {
                (wide >> 32) as u32
            } else {
                return None;
            }
        }
        _ => fixed()?,
    };
    writes_only_before(cfg, instrs, loop_id, mov_idx, r).then_some(value)
}

/// The counter's value as the loop starts, and the workgroup id's dimension when that value is
/// the workgroup id (`for (i = get_group_id(0); i < n; i += get_num_groups(0))`): counted for
/// the first workgroup, 0, which makes the most trips any workgroup makes.
fn counter_start(
    program: &Program,
    cfg: &Cfg,
    loop_id: usize,
    r: u16,
) -> Option<(u32, Option<u8>)> {
    match entry_value(program, cfg, loop_id, r) {
        Some(v) => Some((v, None)),
        None => Some((0, Some(group_id_entry(program, cfg, loop_id, r)?))),
    }
}

/// How a count from a workgroup-id start was found, for reports.
fn group_reason(compare: &str, r: u16, dim: u8, step: CounterStep, n: u64) -> String {
    format!(
        "`{compare}` (s{r} from the workgroup id ({}), {step} per iteration: {n} in the first workgroup, the most any makes)",
        ["x", "y", "z"][usize::from(dim)]
    )
}

/// The dimension when R holds a workgroup id as loop `loop_id` starts (a system SGPR, or
/// gfx12's `ttmp9` copied), the loop's steps aside.
fn group_id_entry(program: &Program, cfg: &Cfg, loop_id: usize, r: u16) -> Option<u8> {
    let header = cfg.blocks[cfg.loops[loop_id].header].start;
    crate::affine_query::group_start(program, cfg, r, header)
}

/// Whether no block on a path from instruction `mov_idx` (the last write to R before loop
/// `loop_id`) to the loop's header writes R again.
fn writes_only_before(
    cfg: &Cfg,
    instrs: &[SourceInstr],
    loop_id: usize,
    mov_idx: usize,
    r: u16,
) -> bool {
    let lp = &cfg.loops[loop_id];
    // Blocks between the move and the header: reachable from the move's
    // block without passing through the header, and reaching the header
    // without passing through the move's block. None but the move's own
    // block (after the move) may write R.
    let mov_block = cfg.block_of[mov_idx];
    let forward = reach(cfg, mov_block, lp.header, |b| {
        cfg.blocks[b].succs.iter().map(|e| e.to).collect()
    });
    let backward = reach(cfg, lp.header, mov_block, |b| cfg.blocks[b].preds.clone());
    for &b in forward.intersection(&backward) {
        if b == mov_block || b == lp.header {
            continue;
        }
        let blk = &cfg.blocks[b];
        if (blk.start..blk.end).any(|i| writes_sgpr(&instrs[i].inst, r)) {
            return false;
        }
    }
    // The move's own block after the move: nothing else there writes R, by
    // the search above (it found the last write of the block).
    true
}

/// Blocks reachable from `from` by `next`, not expanding past `stop`.
fn reach(
    cfg: &Cfg,
    from: usize,
    stop: usize,
    next: impl Fn(usize) -> Vec<usize>,
) -> HashSet<usize> {
    let mut seen = HashSet::from([from]);
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if b == stop && b != from {
            continue;
        }
        for s in next(b) {
            if s < cfg.blocks.len() && seen.insert(s) {
                work.push(s);
            }
        }
    }
    seen
}
