//! Time per basic block and per loop: what llvm-mca and uiCA users read
//! first. Built from a [`Timeline`]'s per-op dwell (clocks waves spent on
//! each op), the program's control flow and the compiled ops.
//!
//! * clocks per execution (per iteration for loops): the clocks waves
//!   spent on the block's ops divided by its executions;
//! * share: those clocks over every wave's clocks from launch to end;
//! * pressure: the clocks of work each unit does per execution (the
//!   static costs the simulator charges), busiest first;
//! * dependency chain: the longest chain of register dependencies through
//!   one execution, each op adding its result latency (the model's
//!   `latency` for the class when it has a scoreboard, else its cost plus
//!   its unit's latency). Dependencies carried from one iteration to the
//!   next are not followed.

use crate::timeline::Timeline;
use serde::Serialize;
use shadersim_engine::{OpKind, OpView};
use shadersim_engine::{SimStats, Simulation};
use shadersim_isa::RegFile;
use std::collections::HashMap;

/// Work one unit does per execution.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UnitWork {
    /// Unit name (the model's).
    pub unit: String,
    /// Clocks of the unit per execution.
    pub clocks: f64,
}

/// The longest register dependency chain of one execution.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChainView {
    /// Clocks from the first op's issue to the last result.
    pub clocks: u64,
    /// Instructions on the chain.
    pub instructions: u32,
}

/// One basic block.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BlockView {
    /// Block id (shadersim-cfg's, program order).
    pub id: usize,
    /// Its label, if it starts at one.
    pub label: Option<String>,
    /// Source lines of its first and last instruction.
    pub lines: [u32; 2],
    /// Executions per wave (mean over waves).
    pub executions: f64,
    /// Clocks a wave spends in one execution.
    pub clocks_per_execution: f64,
    /// Fraction of the waves' time spent in it.
    pub share: f64,
    /// Unit work per execution, busiest first.
    pub pressure: Vec<UnitWork>,
    /// Longest dependency chain of one execution.
    pub dependency_chain: ChainView,
    /// Innermost loop it belongs to.
    pub loop_id: Option<usize>,
    /// Loop nesting depth (0: not in a loop).
    pub depth: u32,
}

/// One natural loop.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LoopView {
    /// Loop id (shadersim-cfg's).
    pub id: usize,
    /// Source line of its header's first instruction.
    pub header_line: u32,
    /// First and last source line of its blocks.
    pub lines: [u32; 2],
    /// Nesting depth (1: outermost).
    pub depth: u32,
    /// The enclosing loop.
    pub parent: Option<usize>,
    /// Its blocks.
    pub blocks: Vec<usize>,
    /// Iterations per wave (executions of the header).
    pub iterations: f64,
    /// Clocks a wave spends in one iteration (nested loops included).
    pub clocks_per_iteration: f64,
    /// Fraction of the waves' time spent in it.
    pub share: f64,
    /// Unit work per iteration, busiest first.
    pub pressure: Vec<UnitWork>,
    /// Longest dependency chain through one iteration's blocks in program
    /// order (the header's path; inner loops once).
    pub dependency_chain: ChainView,
}

/// Blocks and loops of a run.
pub fn block_views(
    sim: &Simulation,
    stats: &SimStats,
    timeline: &Timeline<'_>,
) -> (Vec<BlockView>, Vec<LoopView>) {
    let cfg = &sim.cfg();
    let execs = sim.mean_executions();
    let waves = f64::from(stats.waves.max(1));
    let total = stats.wave_clocks_sum.max(1) as f64;
    let dwell_of = |b: usize| -> u64 {
        let blk = &cfg.blocks[b];
        (blk.start..blk.start + blk.len())
            .map(|i| timeline.dwell[sim.op_of_instruction(i)])
            .sum()
    };
    let line = |i: usize| sim.program().instructions[i].pos.line;
    let mut blocks = Vec::new();
    for (b, blk) in cfg.blocks.iter().enumerate() {
        if blk.is_empty() || !blk.reachable {
            continue;
        }
        let e = execs[blk.start];
        let dwell = dwell_of(b) as f64 / waves;
        let ops: Vec<usize> = (blk.start..blk.start + blk.len()).collect();
        blocks.push(BlockView {
            id: b,
            label: blk.label.clone(),
            lines: [line(blk.start), line(blk.last())],
            executions: round(e),
            clocks_per_execution: round(if e > 0.0 { dwell / e } else { 0.0 }),
            share: round(dwell * waves / total),
            pressure: pressure(sim, &ops, 1.0),
            dependency_chain: chain(sim, &ops),
            loop_id: cfg.innermost_loop[b],
            depth: cfg.innermost_loop[b].map_or(0, |l| cfg.loops[l].depth),
        });
    }
    let mut loops = Vec::new();
    for l in &cfg.loops {
        let mut body: Vec<usize> = l.blocks.clone();
        body.sort_unstable();
        let header = &cfg.blocks[l.header];
        let iterations = execs[header.start];
        let dwell: f64 = body.iter().map(|&b| dwell_of(b)).sum::<u64>() as f64 / waves;
        // Work per iteration: each block's work times its executions per
        // header execution.
        let mut work: HashMap<String, f64> = HashMap::new();
        let mut ops = Vec::new();
        for &b in &body {
            let blk = &cfg.blocks[b];
            let per_iter = if iterations > 0.0 {
                execs[blk.start] / iterations
            } else {
                0.0
            };
            let ins: Vec<usize> = (blk.start..blk.start + blk.len()).collect();
            for w in pressure(sim, &ins, per_iter) {
                *work.entry(w.unit).or_default() += w.clocks;
            }
            ops.extend(ins);
        }
        let (first, last) = body.iter().filter(|&&b| !cfg.blocks[b].is_empty()).fold(
            (u32::MAX, 0),
            |(a, z), &b| {
                let blk = &cfg.blocks[b];
                (a.min(line(blk.start)), z.max(line(blk.last())))
            },
        );
        loops.push(LoopView {
            id: l.id,
            header_line: if header.is_empty() {
                0
            } else {
                line(header.start)
            },
            lines: [if first == u32::MAX { 0 } else { first }, last],
            depth: l.depth,
            parent: l.parent,
            blocks: body,
            iterations: round(iterations),
            clocks_per_iteration: round(if iterations > 0.0 {
                dwell / iterations
            } else {
                0.0
            }),
            share: round(dwell * waves / total),
            pressure: sorted_work(work),
            dependency_chain: chain(sim, &ops),
        });
    }
    (blocks, loops)
}

/// Unit work of instructions `ins` (program indices), each executed
/// `times` times.
fn pressure(sim: &Simulation, ins: &[usize], times: f64) -> Vec<UnitWork> {
    let mut work: HashMap<String, f64> = HashMap::new();
    for &i in ins {
        let op = sim.op(sim.op_of_instruction(i));
        let Some(unit) = op.unit() else {
            continue;
        };
        *work.entry(unit.to_string()).or_default() += f64::from(op.cost()) * times;
        if let Some((also, cost)) = op.also_unit() {
            *work.entry(also.to_string()).or_default() += f64::from(cost) * times;
        }
    }
    sorted_work(work)
}

fn sorted_work(work: HashMap<String, f64>) -> Vec<UnitWork> {
    let mut v: Vec<UnitWork> = work
        .into_iter()
        .filter(|(_, c)| *c > 0.0)
        .map(|(unit, clocks)| UnitWork {
            unit,
            clocks: round(clocks),
        })
        .collect();
    v.sort_by(|a, b| b.clocks.total_cmp(&a.clocks).then(a.unit.cmp(&b.unit)));
    v
}

/// The longest register dependency chain through `ins` in order.
fn chain(sim: &Simulation, ins: &[usize]) -> ChainView {
    // Per register: (clock its value is ready, instructions on its chain).
    let mut ready: HashMap<(u8, u16), (u64, u32)> = HashMap::new();
    let mut best = (0u64, 0u32);
    for &i in ins {
        let op = sim.op(sim.op_of_instruction(i));
        if op.kind() != OpKind::Unit {
            continue;
        }
        let inst = &sim.program().instructions[i].inst;
        let file = |f: RegFile| f as u8;
        let (start, depth) = inst
            .reads()
            .iter()
            .flat_map(|r| (r.first..r.first + r.count).map(move |x| (file(r.file), x)))
            .filter_map(|k| ready.get(&k).copied())
            .max()
            .unwrap_or((0, 0));
        let done = start + result_latency(sim, &op);
        let link = (done, depth + 1);
        for r in inst.writes() {
            for x in r.first..r.first + r.count {
                ready.insert((file(r.file), x), link);
            }
        }
        best = best.max(link);
    }
    ChainView {
        clocks: best.0,
        instructions: best.1,
    }
}

/// Clocks from an op's issue until a dependent op may use its result.
fn result_latency(sim: &Simulation, op: &OpView<'_>) -> u64 {
    if op.result_delay() > 0 {
        return u64::from(op.result_delay());
    }
    let unit_latency = op
        .unit()
        .and_then(|name| sim.arch().units.get(name))
        .and_then(|u| u.latency.as_deref())
        .and_then(|p| sim.arch().get_u32(p).ok())
        .map_or(0, u64::from);
    u64::from(op.cost().max(1)) + unit_latency
}

fn round(v: f64) -> f64 {
    if v.is_finite() {
        (v * 1000.0).round() / 1000.0
    } else {
        0.0
    }
}

/// The blocks and loops as text tables (empty without them).
pub fn blocks_text(blocks: &[BlockView], loops: &[LoopView]) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    if blocks.is_empty() {
        return o;
    }
    let work = |p: &[UnitWork]| {
        p.iter()
            .take(2)
            .map(|w| format!("{} {}", w.unit, clocks(w.clocks)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    use crate::numbers::{amount, clocks, count, pct};
    let _ = writeln!(
        o,
        "  {:<7} {:>11}  {:>8}  {:>12}  {:>6}  {:<22}  dependency chain",
        "block", "lines", "per wave", "clocks/exec", "share", "unit work per exec"
    );
    for b in blocks {
        let _ = writeln!(
            o,
            "  {:<7} {:>11}  {:>8}  {:>12}  {:>6}  {:<22}  {}, {}",
            format!("B{}", b.id),
            format!("{}-{}", b.lines[0], b.lines[1]),
            amount(b.executions),
            clocks(b.clocks_per_execution),
            pct(b.share),
            work(&b.pressure),
            count(b.dependency_chain.clocks, "clock"),
            count(u64::from(b.dependency_chain.instructions), "instruction")
        );
    }
    for l in loops {
        let _ = writeln!(
            o,
            "  loop {} (depth {}, lines {}-{}): {} per wave, {} clocks per iteration, {} of the time; per iteration {}; dependency chain {}",
            l.id,
            l.depth,
            l.lines[0],
            l.lines[1],
            if l.iterations == 1.0 { "1 iteration".to_string() } else { format!("{} iterations", amount(l.iterations)) },
            clocks(l.clocks_per_iteration),
            pct(l.share),
            work(&l.pressure),
            count(l.dependency_chain.clocks, "clock")
        );
    }
    let _ = writeln!(o);
    o
}
