//! From hints to the dynamic instruction sequence one wave executes.

use crate::hints::{Hints, HintsError};
use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::HashMap;
use std::ops::Range;

/// Default bound on a trace: 10 million dynamic instructions per wave.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 10_000_000;

/// Hints resolved against one program: per loop and per branch decisions.
#[derive(Debug, Clone, PartialEq)]
pub struct TracePlan {
    /// Iterations of each loop (indexed like [`Cfg::loops`]); default 1.
    pub iterations: Vec<u32>,
    /// Direction of fork/skip branches by instruction index; default not taken.
    pub taken: HashMap<usize, bool>,
    /// Lane fraction taking a branch, by instruction index (recorded, not
    /// yet simulated).
    pub probability: HashMap<usize, f64>,
    /// Branches that only some waves take, by instruction index.
    pub wave_branches: HashMap<usize, WaveSet>,
    /// Loops whose iterations differ per wave (launch order, cycling).
    pub wave_iterations: HashMap<usize, Vec<u32>>,
    /// Bound on the trace length.
    pub max_instructions: u64,
}

impl TracePlan {
    /// Defaults: loops run once, branches are not taken.
    pub fn defaults(cfg: &Cfg) -> TracePlan {
        TracePlan {
            iterations: vec![1; cfg.loops.len()],
            taken: HashMap::new(),
            probability: HashMap::new(),
            wave_branches: HashMap::new(),
            wave_iterations: HashMap::new(),
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
        }
    }

    /// Resolve `hints` against `program`: every `line` must name a loop
    /// header, a conditional branch, or a memory instruction of it. A line
    /// with several copies (a device function followed from several calls)
    /// gives its hint to every copy.
    pub fn from_hints(
        program: &Program,
        cfg: &Cfg,
        hints: &Hints,
    ) -> Result<TracePlan, HintsError> {
        let mut plan = TracePlan::defaults(cfg);
        if let Some(m) = &hints.trace.max_instructions {
            if *m.get_ref() == 0 {
                return Err(HintsError::at(
                    m.span(),
                    "max_instructions must be at least 1",
                ));
            }
            plan.max_instructions = *m.get_ref();
        }
        let mut seen_loops: HashMap<usize, Range<usize>> = HashMap::new();
        for h in &hints.loops {
            let (loop_ids, span) = match (&h.line, &h.label) {
                (Some(line), None) => (
                    find_loops_by_line(program, cfg, *line.get_ref(), line.span())?,
                    line.span(),
                ),
                (None, Some(label)) => (
                    vec![find_loop_by_label(
                        program,
                        cfg,
                        label.get_ref(),
                        label.span(),
                    )?],
                    label.span(),
                ),
                (Some(line), Some(_)) => {
                    return Err(HintsError::at(
                        line.span(),
                        "give a loop either `line` or `label`, not both",
                    ))
                }
                (None, None) => {
                    return Err(HintsError::at(
                        h.iterations.span(),
                        "a [[loop]] needs `line` or `label`",
                    ))
                }
            };
            for loop_id in loop_ids {
                if seen_loops.insert(loop_id, span.clone()).is_some() {
                    return Err(HintsError::at(span, "this loop already has hints"));
                }
                match h.iterations.get_ref() {
                    crate::hints::Iterations::Fixed(n) => plan.iterations[loop_id] = *n,
                    crate::hints::Iterations::PerWave(list) => {
                        if list.is_empty() {
                            return Err(HintsError::at(
                                h.iterations.span(),
                                "a per-wave iterations list needs at least one number",
                            ));
                        }
                        plan.iterations[loop_id] = list[0];
                        plan.wave_iterations.insert(loop_id, list.clone());
                    }
                }
            }
        }
        for h in &hints.branches {
            let line = *h.line.get_ref();
            let copies = program.indices_at_line(line);
            if copies.is_empty() {
                return Err(HintsError::at(
                    h.line.span(),
                    no_instruction_at(program, line),
                ));
            }
            for idx in copies {
                plan.branch_hint(program, cfg, h, idx)?;
            }
        }
        Ok(plan)
    }

    /// Apply a `[[branch]]` hint to the instruction `idx` at its line.
    fn branch_hint(
        &mut self,
        program: &Program,
        cfg: &Cfg,
        h: &crate::BranchHint,
        idx: usize,
    ) -> Result<(), HintsError> {
        let plan = self;
        let line = *h.line.get_ref();
        {
            let branch = cfg
                .branches
                .iter()
                .find(|b| b.instr == idx)
                .ok_or_else(|| {
                    HintsError::at(
                        h.line.span(),
                        format!(
                            "line {line} (`{}`) is not a conditional branch",
                            program.instructions[idx].text
                        ),
                    )
                })?;
            // A loop's guard may still send only some waves around the loop.
            let wave_guard = matches!(branch.kind, BranchKind::LoopSkip { .. })
                && h.waves.is_some()
                && h.taken.is_none()
                && h.probability.is_none();
            if let (Some(loop_id), false) = (branch.kind.loop_id(), wave_guard) {
                let header = cfg.loops[loop_id].header;
                let hline = program.instructions[cfg.blocks[header].start].pos.line;
                return Err(HintsError::at(
                    h.line.span(),
                    format!(
                        "line {line} is the {} branch of the loop at line {hline}; its direction follows that loop's `iterations`",
                        branch.kind.name()
                    ),
                ));
            }
            if let Some(t) = &h.taken {
                plan.taken.insert(idx, *t.get_ref());
            }
            if let Some(p) = &h.probability {
                let p_val = *p.get_ref();
                if !(0.0..=1.0).contains(&p_val) {
                    return Err(HintsError::at(
                        p.span(),
                        "probability must be between 0 and 1",
                    ));
                }
                plan.probability.insert(idx, p_val);
            }
            if let Some(w) = &h.waves {
                if h.taken.is_some() || h.probability.is_some() {
                    return Err(HintsError::at(
                        w.span(),
                        "`waves` names the waves that take the branch; give it without `taken` or `probability`",
                    ));
                }
                let set = w
                    .get_ref()
                    .parse::<WaveSet>()
                    .map_err(|e| HintsError::at(w.span(), e))?;
                plan.wave_branches.insert(idx, set);
            }
            if h.taken.is_none() && h.probability.is_none() && h.waves.is_none() {
                return Err(HintsError::at(
                    h.line.span(),
                    "a [[branch]] needs `taken` (or `probability`, or `waves`)",
                ));
            }
        }
        Ok(())
    }
}

impl TracePlan {
    /// Whether waves differ in their paths (some branch names waves).
    pub fn varies_by_wave(&self) -> bool {
        !self.wave_branches.is_empty() || !self.wave_iterations.is_empty()
    }

    /// What wave `wave` (launch order) decides differently from others, as
    /// a key: the directions of wave-selected branches (as 0/1) and the
    /// iterations of per-wave loops. Waves with equal keys run the same
    /// trace.
    pub fn wave_key(&self, wave: u32) -> Vec<(usize, u32)> {
        let mut key: Vec<(usize, u32)> = self
            .wave_branches
            .iter()
            .map(|(&i, set)| (i, u32::from(set.contains(wave))))
            .collect();
        // Loops after branches: instruction and loop indices are separate
        // spaces, so offset the loops.
        key.extend(
            self.wave_iterations
                .iter()
                .map(|(&l, list)| (usize::MAX - l, list[wave as usize % list.len()])),
        );
        key.sort_unstable();
        key
    }

    /// The plan of one wave: the wave-selected branches and per-wave loop
    /// counts decided for it.
    pub fn for_wave(&self, wave: u32) -> TracePlan {
        let mut plan = self.clone();
        for (&i, set) in &self.wave_branches {
            plan.taken.insert(i, set.contains(wave));
        }
        for (&l, list) in &self.wave_iterations {
            plan.iterations[l] = list[wave as usize % list.len()];
        }
        plan.wave_branches.clear();
        plan.wave_iterations.clear();
        plan
    }
}

/// A set of waves by launch order: `"0"`, `"1..63"` (inclusive), or a
/// comma-separated list of both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveSet {
    /// Inclusive ranges.
    pub ranges: Vec<(u32, u32)>,
}

impl WaveSet {
    /// Does the set hold wave `w`?
    pub fn contains(&self, w: u32) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= w && w <= b)
    }
}

impl std::str::FromStr for WaveSet {
    type Err = String;

    fn from_str(s: &str) -> Result<WaveSet, String> {
        let bad =
            || format!("`{s}` is not a set of waves (examples: \"0\", \"1..63\", \"0,4,8..11\")");
        let mut ranges = Vec::new();
        for part in s.split(',').map(str::trim) {
            let (a, b) = match part.split_once("..") {
                Some((a, b)) => (a.trim(), b.trim()),
                None => (part, part),
            };
            let a: u32 = a.parse().map_err(|_| bad())?;
            let b: u32 = b.parse().map_err(|_| bad())?;
            if a > b {
                return Err(format!("`{part}`: a range of waves goes from low to high"));
            }
            ranges.push((a, b));
        }
        Ok(WaveSet { ranges })
    }
}

fn no_instruction_at(program: &Program, line: u32) -> String {
    let first = program.instructions.first().map_or(0, |i| i.pos.line);
    let last = program.instructions.last().map_or(0, |i| i.pos.line);
    format!(
        "no instruction of `{}` is on line {line} (its instructions are on lines {first}-{last})",
        program.name
    )
}

fn loop_headers_list(program: &Program, cfg: &Cfg) -> String {
    let list: Vec<String> = cfg
        .loops
        .iter()
        .map(|l| {
            let b = &cfg.blocks[l.header];
            let line = program.instructions[b.start].pos.line;
            match &b.label {
                Some(lbl) => format!("{line} ({lbl})"),
                None => line.to_string(),
            }
        })
        .collect();
    if list.is_empty() {
        format!("`{}` has no loops", program.name)
    } else {
        format!("loop headers start at lines {}", list.join(", "))
    }
}

/// The loops whose header starts at `line` (several when a device
/// function with a loop is followed from several calls).
fn find_loops_by_line(
    program: &Program,
    cfg: &Cfg,
    line: u32,
    span: Range<usize>,
) -> Result<Vec<usize>, HintsError> {
    // The header's first instruction, or the line of its label.
    let mut starts = program.indices_at_line(line);
    starts.extend(
        program
            .labels
            .iter()
            .filter(|l| l.line == line)
            .map(|l| l.index),
    );
    starts.retain(|&i| i < program.instructions.len());
    if starts.is_empty() {
        return Err(HintsError::at(span, no_instruction_at(program, line)));
    }
    let mut ids: Vec<usize> = starts
        .iter()
        .filter_map(|&idx| {
            let block = cfg.block_of[idx];
            cfg.loop_with_header(block)
                .filter(|_| cfg.blocks[block].start == idx)
                .map(|l| l.id)
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    match ids.is_empty() {
        false => Ok(ids),
        true => Err(HintsError::at(
            span,
            format!(
                "line {line} is not the first instruction of a loop header; {}",
                loop_headers_list(program, cfg)
            ),
        )),
    }
}

fn find_loop_by_label(
    program: &Program,
    cfg: &Cfg,
    label: &str,
    span: Range<usize>,
) -> Result<usize, HintsError> {
    cfg.loops
        .iter()
        .find(|l| cfg.blocks[l.header].label.as_deref() == Some(label))
        .map(|l| l.id)
        .ok_or_else(|| {
            HintsError::at(
                span,
                format!(
                    "`{label}` is not the label of a loop header; {}",
                    loop_headers_list(program, cfg)
                ),
            )
        })
}

/// The dynamic instruction sequence of one wave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveTrace {
    /// Static instruction index of each dynamic instruction, in order.
    pub ops: Vec<u32>,
    /// Executions per wave of each static instruction.
    pub executions: Vec<u64>,
}

/// Why a trace could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// The trace would exceed the bound.
    #[error("the trace of one wave would exceed {limit} instructions{}; lower the loop iterations or raise [trace] max_instructions", match (.loop_line, .loop_label) { (Some(l), Some(lbl)) => format!(" in the loop at line {l} ({lbl})"), (Some(l), None) => format!(" in the loop at line {l}"), _ => String::new() })]
    TooLong {
        /// The bound.
        limit: u64,
        /// Header line of the innermost loop being expanded, if any.
        loop_line: Option<u32>,
        /// Its label.
        loop_label: Option<String>,
    },
}

impl WaveTrace {
    /// Walk the CFG from the entry, following `plan`.
    pub fn expand(program: &Program, cfg: &Cfg, plan: &TracePlan) -> Result<WaveTrace, TraceError> {
        let n = program.instructions.len();
        let mut ops: Vec<u32> = Vec::new();
        let mut executions = vec![0u64; n];
        let mut counter = vec![0u32; cfg.loops.len()];
        let branch_of: HashMap<usize, usize> = cfg
            .branches
            .iter()
            .enumerate()
            .map(|(i, b)| (b.block, i))
            .collect();
        let mut cur = 0usize;
        let mut prev: Option<usize> = None;
        loop {
            // Entering loop headers: a back edge counts one more trip,
            // entering from outside starts counting again.
            for l in cfg.loops.iter().filter(|l| l.header == cur) {
                counter[l.id] = match prev {
                    Some(p) if l.contains(p) => counter[l.id].saturating_add(1),
                    _ => 1,
                };
            }
            let block = &cfg.blocks[cur];
            if ops.len() as u64 + block.len() as u64 > plan.max_instructions {
                let inner = cfg.innermost_loop[cur].map(|l| &cfg.loops[l]);
                return Err(TraceError::TooLong {
                    limit: plan.max_instructions,
                    loop_line: inner
                        .map(|l| program.instructions[cfg.blocks[l.header].start].pos.line),
                    loop_label: inner.and_then(|l| cfg.blocks[l.header].label.clone()),
                });
            }
            ops.extend(block.start as u32..block.end as u32);
            for e in &mut executions[block.start..block.end] {
                *e += 1;
            }
            let next = match block.succs.len() {
                0 => break,
                1 => block.succs[0].to,
                _ => {
                    let br = &cfg.branches[branch_of[&cur]];
                    decide(cfg, br, plan, &counter)
                }
            };
            prev = Some(cur);
            cur = next;
        }
        Ok(WaveTrace { ops, executions })
    }
}

fn decide(cfg: &Cfg, br: &shadersim_cfg::Branch, plan: &TracePlan, counter: &[u32]) -> usize {
    let (t, f) = (br.taken, br.not_taken);
    match br.kind {
        BranchKind::LoopBackEdge { loop_id } => {
            let l = &cfg.loops[loop_id];
            let (back, other) = if t == l.header { (t, f) } else { (f, t) };
            if counter[loop_id] < plan.iterations[loop_id] {
                back
            } else {
                other
            }
        }
        BranchKind::LoopExit { loop_id } => {
            let l = &cfg.loops[loop_id];
            let (exit, stay) = if !l.contains(t) { (t, f) } else { (f, t) };
            if l.contains(stay) && counter[loop_id] < plan.iterations[loop_id] {
                stay
            } else if l.contains(stay) {
                exit
            } else {
                // Both sides leave the loop: an ordinary fork outside it.
                if plan.taken.get(&br.instr).copied().unwrap_or(false) {
                    t
                } else {
                    f
                }
            }
        }
        BranchKind::LoopSkip { loop_id } => {
            let header = cfg.loops[loop_id].header;
            // The side that leads into the loop is the one that reaches its
            // header without leaving the straight preheader chain.
            let enters = |mut b: usize| {
                for _ in 0..cfg.blocks.len() {
                    if b == header {
                        return true;
                    }
                    match cfg.blocks[b].succs.as_slice() {
                        [only] => b = only.to,
                        _ => return false,
                    }
                }
                false
            };
            let (enter, skip) = if enters(t) { (t, f) } else { (f, t) };
            // A guard decided per wave (`waves` on a loop's guard).
            if let Some(&taken) = plan.taken.get(&br.instr) {
                return if taken { t } else { f };
            }
            if plan.iterations[loop_id] > 0 {
                enter
            } else {
                skip
            }
        }
        BranchKind::IfElse | BranchKind::Skip => {
            if plan.taken.get(&br.instr).copied().unwrap_or(false) {
                t
            } else {
                f
            }
        }
    }
}

/// What the hints say about one memory instruction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryFacts {
    /// Texel format of an image op.
    pub format: Option<shadersim_mem::TexelFormat>,
    /// Filter of a sample.
    pub filter: Option<shadersim_mem::TextureFilter>,
    /// Lane address pattern of a buffer/global/flat/scratch op.
    pub pattern: Option<shadersim_mem::LanePattern>,
    /// Latency after service, overriding the unit's.
    pub latency: Option<u32>,
    /// BVH intersections: fraction of nodes that are box nodes.
    pub box_fraction: Option<f64>,
    /// BVH intersections: mean fraction of the wave's lanes active.
    pub active_lanes: Option<f64>,
}

/// Resolve the `[[memory]]` hints: each line must be a vector memory
/// instruction; `format` applies to image ops, `filter` to samples and
/// gathers, `pattern` to buffer/global/flat/scratch ops.
pub fn memory_facts(
    program: &Program,
    hints: &Hints,
) -> Result<HashMap<usize, MemoryFacts>, HintsError> {
    use shadersim_isa::InstrClass;
    let mut out: HashMap<usize, MemoryFacts> = HashMap::new();
    for h in &hints.memory {
        let line = *h.line.get_ref();
        let copies = program.indices_at_line(line);
        let Some(&idx) = copies.first() else {
            return Err(HintsError::at(
                h.line.span(),
                no_instruction_at(program, line),
            ));
        };
        let s = &program.instructions[idx];
        let class = s.inst.class();
        if !class.is_vmem() || class == InstrClass::VmemCache {
            return Err(HintsError::at(
                h.line.span(),
                format!(
                    "line {line} (`{}`) is not a vector memory instruction",
                    s.text
                ),
            ));
        }
        if out.contains_key(&idx) {
            return Err(HintsError::at(
                h.line.span(),
                format!("line {line} already has [[memory]] hints"),
            ));
        }
        let mut facts = MemoryFacts::default();
        if let Some(f) = &h.format {
            if !class.is_image() {
                return Err(HintsError::at(
                    f.span(),
                    format!("`format` applies to image ops; line {line} (`{}`) is a {class} op (give it a `pattern`)", s.text),
                ));
            }
            facts.format = Some(
                f.get_ref()
                    .parse()
                    .map_err(|e: shadersim_mem::UnknownName| {
                        HintsError::at(f.span(), e.to_string())
                    })?,
            );
        }
        if let Some(f) = &h.filter {
            if !matches!(
                class,
                InstrClass::VmemImageSample | InstrClass::VmemImageGather4
            ) {
                return Err(HintsError::at(
                    f.span(),
                    format!(
                        "`filter` applies to image samples; line {line} (`{}`) is a {class} op",
                        s.text
                    ),
                ));
            }
            facts.filter = Some(
                f.get_ref()
                    .parse()
                    .map_err(|e: shadersim_mem::UnknownName| {
                        HintsError::at(f.span(), e.to_string())
                    })?,
            );
        }
        if let Some(p) = &h.pattern {
            if class.is_image() {
                return Err(HintsError::at(
                    p.span(),
                    format!("`pattern` applies to buffer, global, flat and scratch ops; line {line} (`{}`) is an image op", s.text),
                ));
            }
            facts.pattern = Some(p.get_ref().parse().map_err(
                |e: shadersim_mem::PatternError| HintsError::at(p.span(), e.to_string()),
            )?);
        }
        if let Some(l) = &h.latency {
            facts.latency = Some(*l.get_ref());
        }
        if let Some(b) = &h.box_fraction {
            if class != InstrClass::VmemImageBvh {
                return Err(HintsError::at(
                    b.span(),
                    format!("`box_fraction` applies to BVH intersections; line {line} (`{}`) is a {class} op", s.text),
                ));
            }
            let v = *b.get_ref();
            if !(0.0..=1.0).contains(&v) {
                return Err(HintsError::at(
                    b.span(),
                    "box_fraction must be between 0 and 1",
                ));
            }
            facts.box_fraction = Some(v);
        }
        if let Some(a) = &h.active_lanes {
            if class != InstrClass::VmemImageBvh {
                return Err(HintsError::at(
                    a.span(),
                    format!("`active_lanes` applies to BVH intersections; line {line} (`{}`) is a {class} op", s.text),
                ));
            }
            let v = *a.get_ref();
            if !(v > 0.0 && v <= 1.0) {
                return Err(HintsError::at(
                    a.span(),
                    "active_lanes must be above 0 and at most 1",
                ));
            }
            facts.active_lanes = Some(v);
        }
        for idx in copies {
            out.insert(idx, facts.clone());
        }
    }
    Ok(out)
}
