//! `shadersim cfg`: the control-flow graph as text, Graphviz dot or JSON.

use crate::numbers::{count, count_as, noun};
use serde::Serialize;
use shadersim_asm::{Program, ProgramFile};
use shadersim_cfg::{Cfg, EdgeKind};
use std::fmt::Write;

/// JSON view of a CFG (also the data the text and dot views print).
#[derive(Debug, Serialize)]
pub struct CfgView {
    /// Program name.
    pub program: String,
    /// Target GPU, when known.
    pub target: Option<String>,
    /// Dialect of the file.
    pub dialect: String,
    /// Stage, when known.
    pub stage: Option<String>,
    /// Number of instructions.
    pub instructions: usize,
    /// Blocks.
    pub blocks: Vec<BlockView>,
    /// Loops (outer before inner).
    pub loops: Vec<LoopView>,
    /// Conditional branches.
    pub branches: Vec<BranchView>,
}

/// One block.
#[derive(Debug, Serialize)]
pub struct BlockView {
    /// Block number.
    pub id: usize,
    /// Label of its first instruction.
    pub label: Option<String>,
    /// First and last source line.
    pub lines: [u32; 2],
    /// First and one-past-last instruction index.
    pub instructions: [usize; 2],
    /// Successors.
    pub succs: Vec<EdgeView>,
    /// Predecessors.
    pub preds: Vec<usize>,
    /// Immediate dominator.
    pub idom: Option<usize>,
    /// Immediate post-dominator.
    pub ipdom: Option<usize>,
    /// Innermost loop.
    #[serde(rename = "loop")]
    pub loop_id: Option<usize>,
    /// Reachable from the entry.
    pub reachable: bool,
}

/// One edge.
#[derive(Debug, Serialize)]
pub struct EdgeView {
    /// Target block.
    pub to: usize,
    /// `fallthrough`, `taken` or `jump`.
    pub kind: &'static str,
}

/// One loop.
#[derive(Debug, Serialize)]
pub struct LoopView {
    /// Loop number.
    pub id: usize,
    /// Header block.
    pub header: usize,
    /// Line of the header's first instruction.
    pub header_line: u32,
    /// Header label.
    pub label: Option<String>,
    /// Nesting depth (1 = outermost).
    pub depth: u32,
    /// Enclosing loop.
    pub parent: Option<usize>,
    /// Blocks.
    pub blocks: Vec<usize>,
    /// Back edges `[latch, header]`.
    pub back_edges: Vec<[usize; 2]>,
    /// Exit edges `[inside, outside]`.
    pub exits: Vec<[usize; 2]>,
}

/// One conditional branch.
#[derive(Debug, Serialize)]
pub struct BranchView {
    /// Source line.
    pub line: u32,
    /// Instruction text.
    pub text: String,
    /// Kind: loop-back-edge, loop-exit, loop-skip, if-else, skip.
    pub kind: &'static str,
    /// Loop the branch belongs to or guards.
    #[serde(rename = "loop")]
    pub loop_id: Option<usize>,
    /// Block when taken.
    pub taken: usize,
    /// Block when not taken.
    pub not_taken: usize,
}

impl CfgView {
    /// Gather the view.
    pub fn new(file: &ProgramFile, program: &Program, cfg: &Cfg) -> CfgView {
        let line = |i: usize| program.instructions[i].pos.line;
        CfgView {
            program: program.name.clone(),
            target: program.target.as_ref().map(|t| t.name.clone()),
            dialect: file.dialect.name().to_string(),
            stage: program.stage.map(|s| s.name().to_string()),
            instructions: program.instructions.len(),
            blocks: cfg
                .blocks
                .iter()
                .map(|b| BlockView {
                    id: b.id,
                    label: b.label.clone(),
                    lines: [line(b.start), line(b.last())],
                    instructions: [b.start, b.end],
                    succs: b
                        .succs
                        .iter()
                        .map(|e| EdgeView {
                            to: e.to,
                            kind: e.kind.name(),
                        })
                        .collect(),
                    preds: b.preds.clone(),
                    idom: cfg.idom[b.id],
                    ipdom: cfg.ipdom[b.id],
                    loop_id: cfg.innermost_loop[b.id],
                    reachable: b.reachable,
                })
                .collect(),
            loops: cfg
                .loops
                .iter()
                .map(|l| LoopView {
                    id: l.id,
                    header: l.header,
                    header_line: line(cfg.blocks[l.header].start),
                    label: cfg.blocks[l.header].label.clone(),
                    depth: l.depth,
                    parent: l.parent,
                    blocks: l.blocks.clone(),
                    back_edges: l.back_edges.iter().map(|&(a, b)| [a, b]).collect(),
                    exits: l.exits.iter().map(|&(a, b)| [a, b]).collect(),
                })
                .collect(),
            branches: cfg
                .branches
                .iter()
                .map(|br| BranchView {
                    line: line(br.instr),
                    text: program.instructions[br.instr].text.clone(),
                    kind: br.kind.name(),
                    loop_id: br.kind.loop_id(),
                    taken: br.taken,
                    not_taken: br.not_taken,
                })
                .collect(),
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Human-readable text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "program {} ({}, {}, {}): {}, {}, {}, {}",
            self.program,
            self.target.as_deref().unwrap_or("unknown GPU"),
            self.stage.as_deref().unwrap_or("stage unknown"),
            self.dialect,
            count(self.instructions as u64, "instruction"),
            count(self.blocks.len() as u64, "block"),
            count(self.loops.len() as u64, "loop"),
            count_as(
                self.branches.len() as u64,
                "conditional branch",
                "conditional branches"
            )
        );
        let _ = writeln!(out, "\nblocks:");
        for b in &self.blocks {
            let succs: Vec<String> = b
                .succs
                .iter()
                .map(|e| format!("B{} ({})", e.to, e.kind))
                .collect();
            let _ = writeln!(
                out,
                "  B{:<3} {:<14} lines {:>5}-{:<5} {:>4} {:<6}  -> {}{}{}",
                b.id,
                b.label.as_deref().unwrap_or(""),
                b.lines[0],
                b.lines[1],
                b.instructions[1] - b.instructions[0],
                noun((b.instructions[1] - b.instructions[0]) as u64, "instr"),
                if succs.is_empty() {
                    "exit".to_string()
                } else {
                    succs.join(", ")
                },
                b.loop_id
                    .map_or(String::new(), |l| format!("  [loop L{l}]")),
                if b.reachable { "" } else { "  (unreachable)" }
            );
        }
        if !self.loops.is_empty() {
            let _ = writeln!(out, "\nloops:");
            for l in &self.loops {
                let indent = "  ".repeat(l.depth as usize);
                let blocks: Vec<String> = l.blocks.iter().map(|b| format!("B{b}")).collect();
                let _ = writeln!(
                    out,
                    "{indent}L{} header B{} at line {}{} depth {}{}: blocks {}; back edges {}; exits {}",
                    l.id,
                    l.header,
                    l.header_line,
                    l.label.as_ref().map_or(String::new(), |s| format!(" ({s})")),
                    l.depth,
                    l.parent.map_or(String::new(), |p| format!(", inside L{p}")),
                    blocks.join(" "),
                    l.back_edges.iter().map(|[a, b]| format!("B{a}->B{b}")).collect::<Vec<_>>().join(" "),
                    l.exits.iter().map(|[a, b]| format!("B{a}->B{b}")).collect::<Vec<_>>().join(" "),
                );
            }
        }
        if !self.branches.is_empty() {
            let _ = writeln!(out, "\nbranches:");
            for br in &self.branches {
                let _ = writeln!(
                    out,
                    "  line {:>5}  {:<15}{}  taken -> B{}, not taken -> B{}   {}",
                    br.line,
                    br.kind,
                    br.loop_id
                        .map_or("    ".to_string(), |l| format!(" L{l:<2}")),
                    br.taken,
                    br.not_taken,
                    br.text
                );
            }
        }
        out
    }

    /// Graphviz dot: blocks as boxes, loops as nested clusters, taken
    /// edges green, jumps blue, back edges dashed.
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph \"{}\" {{", escape(&self.program));
        let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
        let mut in_loop = vec![false; self.blocks.len()];
        for l in self.loops.iter().filter(|l| l.parent.is_none()) {
            self.dot_cluster(&mut out, l.id, 1, &mut in_loop);
        }
        for b in &self.blocks {
            if !in_loop[b.id] {
                let _ = writeln!(out, "  {}", node(b));
            }
        }
        for b in &self.blocks {
            for e in &b.succs {
                let back = self
                    .loops
                    .iter()
                    .any(|l| l.back_edges.contains(&[b.id, e.to]));
                let color = match e.kind {
                    k if k == EdgeKind::Taken.name() => "darkgreen",
                    k if k == EdgeKind::Jump.name() => "blue",
                    _ => "black",
                };
                let _ = writeln!(
                    out,
                    "  B{} -> B{} [color={color}{}];",
                    b.id,
                    e.to,
                    if back { ", style=dashed" } else { "" }
                );
            }
        }
        let _ = writeln!(out, "}}");
        out
    }

    fn dot_cluster(&self, out: &mut String, loop_id: usize, depth: usize, in_loop: &mut [bool]) {
        let l = &self.loops[loop_id];
        let pad = "  ".repeat(depth);
        let _ = writeln!(out, "{pad}subgraph cluster_L{} {{", l.id);
        let _ = writeln!(
            out,
            "{pad}  label=\"L{} (line {})\"; style=rounded;",
            l.id, l.header_line
        );
        for &c in self
            .loops
            .iter()
            .filter(|c| c.parent == Some(loop_id))
            .map(|c| &c.id)
        {
            self.dot_cluster(out, c, depth + 1, in_loop);
        }
        for &b in &l.blocks {
            if !in_loop[b] {
                in_loop[b] = true;
                let _ = writeln!(out, "{pad}  {}", node(&self.blocks[b]));
            }
        }
        let _ = writeln!(out, "{pad}}}");
    }
}

fn node(b: &BlockView) -> String {
    format!(
        "B{} [label=\"B{}{}\\nlines {}-{}\\n{}\"];",
        b.id,
        b.id,
        b.label
            .as_ref()
            .map_or(String::new(), |l| format!(" {}", escape(l))),
        b.lines[0],
        b.lines[1],
        count((b.instructions[1] - b.instructions[0]) as u64, "instr")
    )
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
