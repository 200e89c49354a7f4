//! Resolving hints against a program: the [`TracePlan`] (loop iterations,
//! branch directions, per-wave draws).

use crate::hints::{Hints, HintsError};
use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Default bound on a trace: 10 million dynamic instructions per wave.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 10_000_000;

/// Default seed of the per-wave draws.
pub const DEFAULT_SEED: u64 = 0x5EED;

/// How a loop's iteration count is drawn for each wave and entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IterationDraw {
    /// Uniform integers, both ends included.
    Uniform(u32, u32),
    /// Geometric with this mean (at least 1), capped.
    Geometric {
        /// Mean.
        mean: f64,
        /// Cap.
        max: u32,
    },
}

impl IterationDraw {
    /// One draw.
    pub(crate) fn draw(self, rng: &mut impl rand::Rng) -> u32 {
        match self {
            IterationDraw::Uniform(a, b) => rng.gen_range(a..=b),
            IterationDraw::Geometric { mean, max } => {
                if mean <= 1.0 {
                    return 1.min(max);
                }
                // Trials until the first success at p = 1 / mean: mean trials.
                // ln(1 - p) through ln_1p: for a mean from about 1e16, 1 - p
                // rounds to 1 and its plain logarithm to 0, which would make
                // every draw 1.
                let p = 1.0 / mean;
                let u: f64 = rng.gen::<f64>().max(f64::MIN_POSITIVE);
                let k = 1.0 + (u.ln() / (-p).ln_1p()).floor();
                k.min(f64::from(max)) as u32
            }
        }
    }
}

/// Hints resolved against one program: per loop and per branch decisions.
#[derive(Debug, Clone, PartialEq)]
pub struct TracePlan {
    /// Iterations of each loop (indexed like [`Cfg::loops`]); default 1.
    pub iterations: Vec<u32>,
    /// Direction of fork/skip branches by instruction index; default not taken.
    pub taken: HashMap<usize, bool>,
    /// Probability that a wave takes a branch, by instruction index, drawn
    /// each time a wave reaches it.
    pub probability: HashMap<usize, f64>,
    /// Loops whose iterations are drawn per wave and entry.
    pub drawn_iterations: HashMap<usize, IterationDraw>,
    /// Seed of the draws.
    pub seed: u64,
    /// Branches that only some waves take, by instruction index.
    pub wave_branches: HashMap<usize, WaveSet>,
    /// Loops whose iterations differ per wave (launch order, cycling).
    pub wave_iterations: HashMap<usize, Vec<u32>>,
    /// Bound on the trace length.
    pub max_instructions: u64,
    /// Branches whose lanes decide one by one (`lane_probability`), by
    /// instruction index.
    pub lane_branches: HashMap<usize, crate::lanes::LaneBranch>,
    /// Lanes per wave, for lane draws (the run sets it; default 64).
    pub wave_lanes: u32,
    /// What the hints left to defaults (filled by [`TracePlan::from_hints`]).
    pub defaults: crate::PlanDefaults,
    /// Branches that decide a loop's exit through a flag register
    /// ([`shadersim_infer::flag_exit`], Rodinia hotspot's `break`), by instruction index: the
    /// loop and whether taking the branch leaves it. Unhinted, such a branch stays while the
    /// loop has iterations left and leaves on its last.
    pub flag_exits: HashMap<usize, (usize, bool)>,
}

impl TracePlan {
    /// Defaults: every loop's body runs once ([`default_iterations`]),
    /// branches are not taken.
    pub fn defaults(program: &Program, cfg: &Cfg) -> TracePlan {
        TracePlan {
            iterations: cfg
                .loops
                .iter()
                .map(|l| default_iterations(program, cfg, l))
                .collect(),
            taken: HashMap::new(),
            probability: HashMap::new(),
            wave_branches: HashMap::new(),
            wave_iterations: HashMap::new(),
            drawn_iterations: HashMap::new(),
            seed: DEFAULT_SEED,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            lane_branches: HashMap::new(),
            wave_lanes: 64,
            defaults: crate::PlanDefaults::default(),
            flag_exits: flag_exits(program, cfg),
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
        let mut plan = TracePlan::defaults(program, cfg);
        if let Some(m) = &hints.trace.max_instructions {
            if *m.get_ref() == 0 {
                return Err(HintsError::at(
                    m.span(),
                    "max_instructions must be at least 1",
                ));
            }
            plan.max_instructions = *m.get_ref();
        }
        if let Some(seed) = &hints.trace.seed {
            plan.seed = *seed.get_ref();
        }
        let mut seen_loops: HashMap<usize, Range<usize>> = HashMap::new();
        for h in &hints.loops {
            if let Some(s) = &h.source {
                return Err(unresolved_source(s, h.line.is_some() || h.label.is_some()));
            }
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
                        "give a loop one of `line`, `label` or `source`",
                    ))
                }
                (None, None) => {
                    return Err(HintsError::at(
                        h.iterations.span(),
                        "a [[loop]] needs `line`, `label` or `source`",
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
                    crate::hints::Iterations::Range(text) => {
                        let bad = || {
                            HintsError::at(
                                h.iterations.span(),
                                format!("`{text}` is not a range of iterations (write \"4..16\": both ends included, low to high)"),
                            )
                        };
                        let (a, b) = text.split_once("..").ok_or_else(bad)?;
                        let a: u32 = a.trim().parse().map_err(|_| bad())?;
                        let b: u32 = b.trim().parse().map_err(|_| bad())?;
                        if a > b {
                            return Err(bad());
                        }
                        plan.iterations[loop_id] = a;
                        plan.drawn_iterations
                            .insert(loop_id, IterationDraw::Uniform(a, b));
                    }
                    crate::hints::Iterations::Geometric { mean, max } => {
                        if !(mean.is_finite() && *mean >= 1.0) || *max == 0 {
                            return Err(HintsError::at(
                                h.iterations.span(),
                                "a geometric iteration count needs mean >= 1 and max >= 1",
                            ));
                        }
                        plan.iterations[loop_id] = 1;
                        plan.drawn_iterations.insert(
                            loop_id,
                            IterationDraw::Geometric {
                                mean: *mean,
                                max: *max,
                            },
                        );
                    }
                }
            }
        }
        let mut hinted_branches = std::collections::HashSet::new();
        let mut seen_branches: HashSet<usize> = HashSet::new();
        for h in &hints.branches {
            let line_hint = hint_line(&h.line, &h.source, "[[branch]]", branch_spans(h))?;
            let line = *line_hint.get_ref();
            let copies = program.indices_at_line(line);
            if copies.is_empty() {
                return Err(HintsError::at(
                    line_hint.span(),
                    no_instruction_at(program, line),
                ));
            }
            for idx in copies {
                // As for loops: a second hint would silently replace the first.
                if !seen_branches.insert(idx) {
                    return Err(HintsError::at(
                        line_hint.span(),
                        "this branch already has hints",
                    ));
                }
                plan.branch_hint(program, cfg, h, &line_hint, idx)?;
                hinted_branches.insert(idx);
            }
        }
        let hinted_loops: HashSet<usize> = seen_loops.keys().copied().collect();
        // A loop no hint names runs its inferred count (a hint always wins).
        let inferred = crate::infer_trip_counts(program, cfg);
        for t in inferred.iter().flatten() {
            if !hinted_loops.contains(&t.loop_id) {
                plan.iterations[t.loop_id] = t.iterations as u32;
            }
        }
        plan.defaults =
            crate::PlanDefaults::find(program, cfg, &hinted_loops, &hinted_branches, &inferred);
        Ok(plan)
    }

    /// Apply a `[[branch]]` hint to the instruction `idx` at its line.
    fn branch_hint(
        &mut self,
        program: &Program,
        cfg: &Cfg,
        h: &crate::BranchHint,
        line_hint: &toml::Spanned<u32>,
        idx: usize,
    ) -> Result<(), HintsError> {
        let plan = self;
        let line = *line_hint.get_ref();
        {
            let branch = cfg
                .branches
                .iter()
                .find(|b| b.instr == idx)
                .ok_or_else(|| {
                    HintsError::at(
                        line_hint.span(),
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
                    line_hint.span(),
                    format!(
                        "line {line} is the {} branch of the loop at line {hline}; its direction follows that loop's `iterations`",
                        branch.kind.name()
                    ),
                ));
            }
            if let (Some(_), Some(p)) = (&h.taken, &h.probability) {
                // A drawn probability decides every execution, so `taken`
                // would be silently ignored.
                return Err(HintsError::at(
                    p.span(),
                    "give a branch either `taken` or `probability`, not both",
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
            if let Some(q) = &h.lane_probability {
                if h.taken.is_some() || h.probability.is_some() || h.waves.is_some() {
                    return Err(HintsError::at(
                        q.span(),
                        "`lane_probability` decides the branch lane by lane; give it without `taken`, `probability` or `waves`",
                    ));
                }
                let q_val = *q.get_ref();
                if !(0.0..=1.0).contains(&q_val) {
                    return Err(HintsError::at(
                        q.span(),
                        "lane_probability must be between 0 and 1",
                    ));
                }
                let lb = crate::lanes::lane_branch(program, cfg, branch, q_val)
                    .map_err(|m| HintsError::at(q.span(), m))?;
                plan.lane_branches.insert(idx, lb);
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
            if h.taken.is_none()
                && h.probability.is_none()
                && h.waves.is_none()
                && h.lane_probability.is_none()
            {
                return Err(HintsError::at(
                    line_hint.span(),
                    "a [[branch]] needs `taken` (or `probability`, `lane_probability`, or `waves`)",
                ));
            }
        }
        Ok(())
    }
}

impl TracePlan {
    /// Whether waves differ in their paths (some branch names waves).
    pub fn varies_by_wave(&self) -> bool {
        !self.wave_branches.is_empty() || !self.wave_iterations.is_empty() || self.draws()
    }

    /// Whether waves draw their paths (branch probabilities, iteration
    /// distributions): each wave's trace must then be expanded on its own.
    pub fn draws(&self) -> bool {
        !self.probability.is_empty()
            || !self.drawn_iterations.is_empty()
            || !self.lane_branches.is_empty()
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

/// The error for a `source =` still in the hints when they meet the
/// program: the caller resolves it first ([`crate::resolve_source_hints`]),
/// which needs the listing's `.file` names.
pub(super) fn unresolved_source(s: &toml::Spanned<String>, with_line: bool) -> HintsError {
    HintsError::at(
        s.span(),
        match with_line {
            true => "give one of `line`, `label` or `source`, not several",
            false => "`source =` is resolved through the listing's `.file` and `.loc` lines, which this run was not given",
        },
    )
}

/// The listing line a `[[branch]]` or `[[memory]]` hint names (`line =`;
/// a `source =` is resolved to lines before), or the error at the first of
/// the hint's `spans` when it names none.
pub(super) fn hint_line(
    line: &Option<toml::Spanned<u32>>,
    source: &Option<toml::Spanned<String>>,
    table: &str,
    spans: Vec<Option<Range<usize>>>,
) -> Result<toml::Spanned<u32>, HintsError> {
    if let Some(s) = source {
        return Err(unresolved_source(s, line.is_some()));
    }
    line.clone().ok_or_else(|| HintsError {
        span: spans.into_iter().flatten().next(),
        message: format!("a {table} needs `line` or `source`"),
    })
}

/// The spans of a branch hint's keys, for an error about the hint as a whole.
fn branch_spans(h: &crate::BranchHint) -> Vec<Option<Range<usize>>> {
    vec![
        h.taken.as_ref().map(|v| v.span()),
        h.probability.as_ref().map(|v| v.span()),
        h.waves.as_ref().map(|v| v.span()),
        h.lane_probability.as_ref().map(|v| v.span()),
    ]
}

pub(super) fn no_instruction_at(program: &Program, line: u32) -> String {
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

/// Header executions that run a loop's body once when nothing says how
/// often it runs: 1 when the first trip reaches every block that does work
/// before it meets an exit test (a test at the bottom, or a break after the
/// work), else 2 (a test at the top, or before some of the work, would leave
/// on the first header execution and skip that work: a loop that runs zero
/// times is the rare case in real code). "Work" is any instruction but
/// branches, waits, no-ops and TeraScale's clause words.
pub fn default_iterations(program: &Program, cfg: &Cfg, lp: &shadersim_cfg::Loop) -> u32 {
    let exiting: HashSet<usize> = lp.exits.iter().map(|(b, _)| *b).collect();
    // Blocks the first trip runs: from the header along the loop's edges,
    // stopping at each exit test (its block runs, then the trip leaves).
    let mut seen: HashSet<usize> = HashSet::from([lp.header]);
    let mut work = vec![lp.header];
    while let Some(b) = work.pop() {
        if exiting.contains(&b) {
            continue;
        }
        for e in &cfg.blocks[b].succs {
            if e.to != lp.header && lp.contains(e.to) && seen.insert(e.to) {
                work.push(e.to);
            }
        }
    }
    let does_work = |b: usize| {
        let blk = &cfg.blocks[b];
        program.instructions[blk.start..blk.end].iter().any(|i| {
            let c = i.inst.class().name();
            !(c.starts_with("branch") || c.starts_with("wait") || c == "nop" || c == "vliw.clause")
        })
    };
    let skipped = lp
        .blocks
        .iter()
        .any(|&b| !seen.contains(&b) && does_work(b));
    if skipped {
        2
    } else {
        1
    }
}

/// The flag-register exit tests of `program`'s loops, by branch instruction: the loop and
/// whether taking the branch leaves it.
fn flag_exits(program: &Program, cfg: &Cfg) -> HashMap<usize, (usize, bool)> {
    (0..cfg.loops.len())
        .filter_map(|l| shadersim_infer::flag_exit(program, cfg, l))
        .map(|f| (f.branch, (f.loop_id, f.exit_when_taken)))
        .collect()
}
