//! Building and analysing the control-flow graph.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use shadersim_asm::Program;
use shadersim_isa::InstrClass;
use std::collections::BTreeSet;
use std::fmt;

/// How control reaches a successor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Falls through to the next block (no branch, or a conditional branch not taken).
    FallThrough,
    /// A conditional branch taken.
    Taken,
    /// An unconditional branch.
    Jump,
}

impl EdgeKind {
    /// Name for output.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::FallThrough => "fallthrough",
            EdgeKind::Taken => "taken",
            EdgeKind::Jump => "jump",
        }
    }
}

/// An edge to a successor block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Successor block.
    pub to: usize,
    /// How control gets there.
    pub kind: EdgeKind,
}

/// A maximal straight-line run of instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicBlock {
    /// Block number (index in [`Cfg::blocks`]).
    pub id: usize,
    /// First instruction index.
    pub start: usize,
    /// One past the last instruction index.
    pub end: usize,
    /// Label of the first instruction, if it has one.
    pub label: Option<String>,
    /// Successors, the taken edge first for conditional branches.
    pub succs: Vec<Edge>,
    /// Predecessor blocks.
    pub preds: Vec<usize>,
    /// Reachable from the entry.
    pub reachable: bool,
}

impl BasicBlock {
    /// Index of the last instruction.
    pub fn last(&self) -> usize {
        self.end - 1
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Blocks are never empty; provided for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A natural loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    /// Loop number (index in [`Cfg::loops`]); outer loops come before inner ones.
    pub id: usize,
    /// Header block (dominates every block of the loop).
    pub header: usize,
    /// Blocks of the loop, including nested loops' blocks, sorted.
    pub blocks: Vec<usize>,
    /// Back edges `(latch, header)`.
    pub back_edges: Vec<(usize, usize)>,
    /// Exit edges `(inside, outside)`.
    pub exits: Vec<(usize, usize)>,
    /// Enclosing loop.
    pub parent: Option<usize>,
    /// Directly nested loops.
    pub children: Vec<usize>,
    /// Nesting depth (1 for an outermost loop).
    pub depth: u32,
}

impl Loop {
    /// Does the loop contain block `b`?
    pub fn contains(&self, b: usize) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }
}

/// What a conditional branch means for the tracer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchKind {
    /// One side goes back to the header of the loop (continue / latch).
    LoopBackEdge {
        /// The loop.
        loop_id: usize,
    },
    /// One side leaves the loop (break).
    LoopExit {
        /// The innermost loop left.
        loop_id: usize,
    },
    /// One side enters a loop, the other skips past it (guard of a loop
    /// that may run zero times).
    LoopSkip {
        /// The guarded loop.
        loop_id: usize,
    },
    /// Both sides do work and meet again later (if/else).
    IfElse,
    /// One side skips straight to where both sides meet (if without else,
    /// `s_cbranch_execz` around a block).
    Skip,
}

impl BranchKind {
    /// Name for output.
    pub fn name(&self) -> &'static str {
        match self {
            BranchKind::LoopBackEdge { .. } => "loop-back-edge",
            BranchKind::LoopExit { .. } => "loop-exit",
            BranchKind::LoopSkip { .. } => "loop-skip",
            BranchKind::IfElse => "if-else",
            BranchKind::Skip => "skip",
        }
    }

    /// The loop the branch is about, if any.
    pub fn loop_id(&self) -> Option<usize> {
        match *self {
            BranchKind::LoopBackEdge { loop_id }
            | BranchKind::LoopExit { loop_id }
            | BranchKind::LoopSkip { loop_id } => Some(loop_id),
            _ => None,
        }
    }
}

/// A conditional branch and its classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// The block it ends.
    pub block: usize,
    /// The branch instruction's index.
    pub instr: usize,
    /// Block reached when taken.
    pub taken: usize,
    /// Block reached when not taken.
    pub not_taken: usize,
    /// What the branch means.
    pub kind: BranchKind,
}

/// Why a CFG could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CfgError {
    /// Control enters a cycle at more than one block.
    #[error("irreducible control flow: the edge from the block at line {from_line} to the block at line {to_line} enters a cycle that its target does not dominate, so loops cannot be identified (loop hints need a single entry per loop)")]
    Irreducible {
        /// Source block.
        from: usize,
        /// Target block.
        to: usize,
        /// Source line of the source block's last instruction.
        from_line: u32,
        /// Source line of the target block's first instruction.
        to_line: u32,
    },
    /// The program has no instructions.
    #[error("the program has no instructions")]
    Empty,
}

/// The analysed control-flow graph of a program.
#[derive(Debug, Clone)]
pub struct Cfg {
    /// Blocks in program order; block 0 is the entry.
    pub blocks: Vec<BasicBlock>,
    /// Block of each instruction.
    pub block_of: Vec<usize>,
    /// Immediate dominator of each block (`None` for the entry and unreachable blocks).
    pub idom: Vec<Option<usize>>,
    /// Immediate post-dominator of each block (`None` when it is the exit's
    /// immediate predecessor in the post-dominator tree or cannot reach an exit).
    pub ipdom: Vec<Option<usize>>,
    /// Loops, outer before inner.
    pub loops: Vec<Loop>,
    /// Innermost loop of each block.
    pub innermost_loop: Vec<Option<usize>>,
    /// Conditional branches in program order.
    pub branches: Vec<Branch>,
}

/// The basic blocks of `program` (successors not yet known) and the block of each
/// instruction.
fn split_blocks(program: &Program) -> (Vec<BasicBlock>, Vec<usize>) {
    let n = program.instructions.len();
    // Leaders: first instruction, branch targets, and the instruction
    // after any branch or program end.
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (i, s) in program.instructions.iter().enumerate() {
        if let Some(Some(t)) = program.branch_targets.get(i) {
            leader[*t] = true;
        }
        if ends_block(s.inst.class()) {
            leader[i + 1] = true;
        }
    }
    // The first label of each instruction, as `Program::label_at` finds
    // it, gathered once (asking per block scanned every label: a
    // quadratic read of listings with thousands of blocks).
    let mut label_of: Vec<Option<&str>> = vec![None; n + 1];
    for l in &program.labels {
        if let Some(slot @ None) = label_of.get_mut(l.index) {
            *slot = Some(l.name.as_str());
        }
    }
    let mut blocks = Vec::new();
    let mut block_of = vec![0; n];
    let mut start = 0;
    for i in 1..=n {
        if leader[i] || i == n {
            let id = blocks.len();
            for b in &mut block_of[start..i] {
                *b = id;
            }
            blocks.push(BasicBlock {
                id,
                start,
                end: i,
                label: label_of[start].map(str::to_string),
                succs: Vec::new(),
                preds: Vec::new(),
                reachable: false,
            });
            start = i;
        }
    }
    (blocks, block_of)
}

/// Every block's successors by its last instruction, and its predecessors.
fn link_blocks(program: &Program, blocks: &mut [BasicBlock], block_of: &[usize]) {
    let (n, nb) = (program.instructions.len(), blocks.len());
    // A branch to the end of the program (label after the last
    // instruction) leaves the program: no successor block.
    let block_at = |instr: usize| (instr < n).then(|| block_of[instr]);
    for (b, block) in blocks.iter_mut().enumerate() {
        let last = block.last();
        let class = program.instructions[last].inst.class();
        let next = (b + 1 < nb).then_some(b + 1);
        let target = program
            .branch_targets
            .get(last)
            .copied()
            .flatten()
            .and_then(block_at);
        let mut succs = Vec::new();
        match class {
            // An indirect branch leaves the program, unless the reader
            // resolved it: the return of a device function whose code
            // was followed from a call jumps back after the call.
            InstrClass::Branch | InstrClass::BranchIndirect => {
                if let Some(t) = target {
                    succs.push(Edge {
                        to: t,
                        kind: EdgeKind::Jump,
                    });
                }
            }
            InstrClass::BranchCond => {
                if let Some(t) = target {
                    succs.push(Edge {
                        to: t,
                        kind: EdgeKind::Taken,
                    });
                }
                if let Some(f) = next {
                    succs.push(Edge {
                        to: f,
                        kind: EdgeKind::FallThrough,
                    });
                }
            }
            InstrClass::Endpgm => {}
            _ => {
                if let Some(f) = next {
                    succs.push(Edge {
                        to: f,
                        kind: EdgeKind::FallThrough,
                    });
                }
            }
        }
        block.succs = succs;
    }
    for b in 0..nb {
        for e in blocks[b].succs.clone() {
            if !blocks[e.to].preds.contains(&b) {
                blocks[e.to].preds.push(b);
            }
        }
    }
}

/// Reachability (marked in `blocks`, from block 0), then each block's immediate dominator
/// and immediate post-dominator.
fn dominators(blocks: &mut [BasicBlock]) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
    let nb = blocks.len();
    // Reachability and the petgraph view.
    let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(nb + 1, nb * 2);
    let nodes: Vec<NodeIndex> = (0..nb).map(|_| graph.add_node(())).collect();
    for b in blocks.iter() {
        for e in &b.succs {
            graph.update_edge(nodes[b.id], nodes[e.to], ());
        }
    }
    let mut stack = vec![0usize];
    blocks[0].reachable = true;
    while let Some(b) = stack.pop() {
        for e in blocks[b].succs.clone() {
            if !blocks[e.to].reachable {
                blocks[e.to].reachable = true;
                stack.push(e.to);
            }
        }
    }
    let doms = simple_fast(&graph, nodes[0]);
    let idom: Vec<Option<usize>> = (0..nb)
        .map(|b| {
            if !blocks[b].reachable {
                return None;
            }
            doms.immediate_dominator(nodes[b]).map(|d| d.index())
        })
        .collect();
    // Post-dominators: reverse graph from a virtual exit that every
    // block without successors (s_endpgm, end of code) leads to.
    let mut rev: DiGraph<(), ()> = DiGraph::with_capacity(nb + 1, nb * 2);
    let rnodes: Vec<NodeIndex> = (0..=nb).map(|_| rev.add_node(())).collect();
    let exit = rnodes[nb];
    for b in blocks.iter() {
        if !b.reachable {
            continue;
        }
        if b.succs.is_empty() {
            rev.update_edge(exit, rnodes[b.id], ());
        }
        for e in &b.succs {
            rev.update_edge(rnodes[e.to], rnodes[b.id], ());
        }
    }
    let pdoms = simple_fast(&rev, exit);
    let ipdom: Vec<Option<usize>> = (0..nb)
        .map(|b| {
            pdoms
                .immediate_dominator(rnodes[b])
                .map(|d| d.index())
                .filter(|&d| d != nb)
        })
        .collect();
    (idom, ipdom)
}

impl Cfg {
    /// Analyse `program`.
    pub fn build(program: &Program) -> Result<Cfg, CfgError> {
        let n = program.instructions.len();
        if n == 0 {
            return Err(CfgError::Empty);
        }
        let (mut blocks, block_of) = split_blocks(program);
        let nb = blocks.len();
        link_blocks(program, &mut blocks, &block_of);
        let (idom, ipdom) = dominators(&mut blocks);
        let intervals = dominator_intervals(&idom);
        let dominates = |a: usize, b: usize| -> bool { dominates_via(&intervals, a, b) };
        check_reducible(&blocks, program, &dominates)?;
        let exec_zero_jump: Vec<bool> = blocks
            .iter()
            .map(|b| program.instructions[b.last()].inst.mnemonic == "s_cbranch_execz")
            .collect();
        let loops = find_loops(&blocks, &dominates, &exec_zero_jump);
        let mut innermost_loop = vec![None; nb];
        for l in &loops {
            // Loops are outer-first, so later (inner) loops overwrite.
            for &b in &l.blocks {
                innermost_loop[b] = Some(l.id);
            }
        }
        let mut cfg = Cfg {
            blocks,
            block_of,
            idom,
            ipdom,
            loops,
            innermost_loop,
            branches: Vec::new(),
        };
        cfg.branches = cfg.classify_branches(&dominates, &exec_zero_jump);
        Ok(cfg)
    }

    /// The branch ending block `b`, if it ends with a conditional branch.
    pub fn branch_of_block(&self, b: usize) -> Option<&Branch> {
        // Branches are in block order (classify_branches): a search, not
        // a scan per block.
        self.branches
            .binary_search_by_key(&b, |br| br.block)
            .ok()
            .map(|i| &self.branches[i])
    }

    /// The loop whose header is block `b`.
    pub fn loop_with_header(&self, b: usize) -> Option<&Loop> {
        self.loops.iter().find(|l| l.header == b)
    }

    fn classify_branches(
        &self,
        dominates: &dyn Fn(usize, usize) -> bool,
        exec_zero_jump: &[bool],
    ) -> Vec<Branch> {
        let mut out = Vec::new();
        for b in &self.blocks {
            if !b.reachable || b.succs.len() != 2 {
                continue;
            }
            let (taken, not_taken) = (b.succs[0].to, b.succs[1].to);
            let inner = self.innermost_loop[b.id].map(|l| &self.loops[l]);
            // The structurizer's jump back to a header it is not a latch of (`find_loops`):
            // taken only when no lane took the loop's break, so by default the wave goes on.
            let flow_jump = exec_zero_jump[b.id]
                && dominates(taken, b.id)
                && self
                    .loop_with_header(taken)
                    .is_some_and(|l| !l.contains(b.id));
            let kind = if flow_jump {
                BranchKind::Skip
            } else {
                self.classify(b.id, taken, not_taken, inner, dominates)
            };
            out.push(Branch {
                block: b.id,
                instr: b.last(),
                taken,
                not_taken,
                kind,
            });
        }
        out
    }

    fn classify(
        &self,
        b: usize,
        taken: usize,
        not_taken: usize,
        inner: Option<&Loop>,
        dominates: &dyn Fn(usize, usize) -> bool,
    ) -> BranchKind {
        if let Some(l) = inner {
            if l.back_edges
                .iter()
                .any(|&(latch, h)| latch == b && (h == taken || h == not_taken))
            {
                return BranchKind::LoopBackEdge { loop_id: l.id };
            }
            if !l.contains(taken) || !l.contains(not_taken) {
                return BranchKind::LoopExit { loop_id: l.id };
            }
        }
        // A side that leads into a loop this block is not part of, while
        // the other side goes to where both meet: a guard of that loop. When
        // the other side enters a loop of its own, the two sides are two
        // paths (two roles of one kernel), not a guard. A loop with no exit
        // guards nothing: it is where a trap halts the wave (LLVM's `s_trap 2;
        // ...; s_sethalt 5; s_branch` to itself), and entering it by default
        // never ended the trace.
        let merge = self.ipdom[b];
        for (enter, other) in [(taken, not_taken), (not_taken, taken)] {
            let guarded = self
                .loop_entered_from(b, enter, dominates)
                .filter(|&m| !self.loops[m].exits.is_empty());
            if let Some(m) = guarded {
                if Some(other) == merge
                    || !self.loops[m].contains(other)
                        && dominates(enter, self.loops[m].header)
                        && self.loop_entered_from(b, other, dominates).is_none()
                {
                    return BranchKind::LoopSkip { loop_id: m };
                }
            }
        }
        if taken == not_taken || Some(taken) == merge || Some(not_taken) == merge {
            BranchKind::Skip
        } else {
            BranchKind::IfElse
        }
    }

    /// The outermost loop not containing `from` whose header `enter`
    /// reaches through blocks it dominates along a straight path
    /// (`enter` is the header or a preheader chain leading to it).
    fn loop_entered_from(
        &self,
        from: usize,
        enter: usize,
        dominates: &dyn Fn(usize, usize) -> bool,
    ) -> Option<usize> {
        let mut cur = enter;
        for _ in 0..self.blocks.len() {
            if let Some(l) = self
                .loops
                .iter()
                .find(|l| l.header == cur && !l.contains(from))
            {
                return dominates(enter, l.header).then_some(l.id);
            }
            // Follow a preheader: a block with a single successor.
            let blk = &self.blocks[cur];
            if blk.succs.len() == 1 {
                cur = blk.succs[0].to;
            } else {
                return None;
            }
        }
        None
    }
}

fn ends_block(class: InstrClass) -> bool {
    matches!(
        class,
        InstrClass::Branch
            | InstrClass::BranchCond
            | InstrClass::BranchIndirect
            | InstrClass::Endpgm
    )
}

/// Each reachable block's (entry, exit) numbers in a depth-first walk of
/// the dominator tree, so that a dominates b exactly when b's interval lies
/// inside a's: one comparison per question. (Walking b's dominator chain
/// made a listing of many blocks in a row quadratic: 10,000 blocks asked
/// about each of their edges walked 10,000 dominators each.)
fn dominator_intervals(idom: &[Option<usize>]) -> Vec<Option<(u32, u32)>> {
    let n = idom.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, d) in idom.iter().enumerate() {
        if let Some(d) = *d {
            if d != b {
                children[d].push(b);
            }
        }
    }
    let mut out = vec![None; n];
    if n == 0 {
        return out;
    }
    let mut clock = 0u32;
    let mut enter = vec![0u32; n];
    // (block, next child) cursors of an iterative walk from the entry.
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    enter[0] = clock;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&c) = children[b].get(*next) {
            *next += 1;
            clock += 1;
            enter[c] = clock;
            stack.push((c, 0));
        } else {
            clock += 1;
            out[b] = Some((enter[b], clock));
            stack.pop();
        }
    }
    out
}

/// Whether block `a` dominates block `b` (every block dominates itself;
/// an unreachable block dominates nothing and is dominated by nothing).
fn dominates_via(intervals: &[Option<(u32, u32)>], a: usize, b: usize) -> bool {
    match (intervals[a], intervals[b]) {
        (Some((a_in, a_out)), Some((b_in, b_out))) => a_in <= b_in && b_out <= a_out,
        _ => false,
    }
}

/// Any retreating edge of a depth-first search whose target does not
/// dominate its source makes the graph irreducible.
fn check_reducible(
    blocks: &[BasicBlock],
    program: &Program,
    dominates: &dyn Fn(usize, usize) -> bool,
) -> Result<(), CfgError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; blocks.len()];
    // Iterative DFS with explicit successor cursors.
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    mark[0] = Mark::OnStack;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if *next < blocks[b].succs.len() {
            let s = blocks[b].succs[*next].to;
            *next += 1;
            match mark[s] {
                Mark::New => {
                    mark[s] = Mark::OnStack;
                    stack.push((s, 0));
                }
                Mark::OnStack => {
                    if !dominates(s, b) {
                        return Err(CfgError::Irreducible {
                            from: b,
                            to: s,
                            from_line: program.instructions[blocks[b].last()].pos.line,
                            to_line: program.instructions[blocks[s].start].pos.line,
                        });
                    }
                }
                Mark::Done => {}
            }
        } else {
            mark[b] = Mark::Done;
            stack.pop();
        }
    }
    Ok(())
}

/// The natural loops, one per header. `exec_zero_jump[b]`: block `b` ends in a branch taken
/// when EXEC is zero (`s_cbranch_execz`).
fn find_loops(
    blocks: &[BasicBlock],
    dominates: &dyn Fn(usize, usize) -> bool,
    exec_zero_jump: &[bool],
) -> Vec<Loop> {
    // Back edges grouped by header, with whether each is taken only when EXEC is zero.
    let mut headers: Vec<(usize, Vec<(usize, bool)>)> = Vec::new();
    for b in blocks.iter().filter(|b| b.reachable) {
        for e in &b.succs {
            if dominates(e.to, b.id) {
                let latch = (b.id, exec_zero_jump[b.id] && e.kind == EdgeKind::Taken);
                match headers.iter_mut().find(|(h, _)| *h == e.to) {
                    Some((_, latches)) => latches.push(latch),
                    None => headers.push((e.to, vec![latch])),
                }
            }
        }
    }
    // LLVM's structurizer ends a loop's break path in a "flow" block that jumps back to the
    // header on `s_cbranch_execz`, only when no lane took the break; the iterations go
    // through the loop's other latch. Counted as a back edge, that jump put the break path
    // inside the loop and made the real exit test (pathfinder's `s_cmp_eq_u32;
    // s_cbranch_scc1` out of the loop) a forward skip, so the loop never ended (issue 47
    // item 1). Such a jump is a back edge only when the header has no other latch.
    let headers: Vec<(usize, Vec<usize>)> = headers
        .into_iter()
        .map(|(h, latches)| {
            let ordinary: Vec<usize> = latches
                .iter()
                .filter(|(_, exec_zero)| !exec_zero)
                .map(|&(b, _)| b)
                .collect();
            if ordinary.is_empty() {
                (h, latches.into_iter().map(|(b, _)| b).collect())
            } else {
                (h, ordinary)
            }
        })
        .collect();
    let mut loops: Vec<Loop> = headers
        .into_iter()
        .map(|(h, latches)| {
            let mut body: BTreeSet<usize> = BTreeSet::new();
            body.insert(h);
            let mut work: Vec<usize> = latches.clone();
            while let Some(x) = work.pop() {
                if body.insert(x) {
                    for &p in &blocks[x].preds {
                        if blocks[p].reachable && !body.contains(&p) {
                            work.push(p);
                        }
                    }
                }
            }
            let blocks_vec: Vec<usize> = body.into_iter().collect();
            let exits = blocks_vec
                .iter()
                .flat_map(|&b| blocks[b].succs.iter().map(move |e| (b, e.to)))
                .filter(|(_, t)| blocks_vec.binary_search(t).is_err())
                .collect();
            Loop {
                id: 0,
                header: h,
                back_edges: latches.iter().map(|&l| (l, h)).collect(),
                blocks: blocks_vec,
                exits,
                parent: None,
                children: Vec::new(),
                depth: 0,
            }
        })
        .collect();
    // Outer loops first (bigger first), ties by header position.
    loops.sort_by(|a, b| {
        b.blocks
            .len()
            .cmp(&a.blocks.len())
            .then(a.header.cmp(&b.header))
    });
    for (i, l) in loops.iter_mut().enumerate() {
        l.id = i;
    }
    for i in 0..loops.len() {
        // Parent: the smallest other loop containing this header.
        let parent = (0..loops.len())
            .filter(|&j| {
                j != i
                    && loops[j].contains(loops[i].header)
                    && loops[j].blocks.len() > loops[i].blocks.len()
            })
            .min_by_key(|&j| loops[j].blocks.len());
        loops[i].parent = parent;
    }
    for i in 0..loops.len() {
        if let Some(p) = loops[i].parent {
            loops[p].children.push(i);
        }
        let mut depth = 1;
        let mut cur = loops[i].parent;
        while let Some(p) = cur {
            depth += 1;
            cur = loops[p].parent;
        }
        loops[i].depth = depth;
    }
    loops
}

impl fmt::Display for Cfg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} blocks, {} loops, {} branches",
            self.blocks.len(),
            self.loops.len(),
            self.branches.len()
        )
    }
}
