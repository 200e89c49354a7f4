//! Streaming traces: a wave's dynamic instruction sequence produced one
//! instruction at a time, never stored.
//!
//! [`TraceWalk`] holds what every wave's walk shares (the program, its CFG,
//! the plan, and which branch and loop headers each block has); a
//! [`TraceCursor`] is one wave's position in its walk: the current block and
//! the next instruction in it, the previous block, each loop's trip counter
//! and count for its current entry, the draw generator and the open
//! divergent regions of its EXEC mask. Its state is O(loops + lane-region
//! nesting), whatever the loops' iteration counts, so memory depends on the
//! program and on how many waves walk at once, never on the trace's length.
//! The sequence (instructions, EXEC masks, the error past
//! [`TracePlan::max_instructions`]) is exactly [`WaveTrace::expand`]'s and
//! [`WaveTrace::expand_wave`]'s: `tests/cursor.rs` compares them on real
//! programs with loops, branches and lane draws.

use crate::lanes::{LaneBranch, LaneState};
use crate::tracer::{BranchRule, IterationDraw, TraceError, TracePlan, WaveSet, WaveTrace};
use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};

/// How a walk leaves a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leave {
    /// The program ends.
    End,
    /// To its only successor.
    To(u32),
    /// By the conditional branch at this index of [`TraceWalk`]'s branches.
    Branch(u32),
}

/// What the walk needs of one conditional branch, looked up once when the
/// walk is made (the plan's maps are keyed by instruction; a walk reaches a
/// branch far more often than it is made).
#[derive(Debug, Clone, Copy)]
struct BranchFacts<'a> {
    /// Its instruction (for the lane state's else flip).
    instr: usize,
    /// Its decision rule, the sides resolved.
    rule: BranchRule,
    /// A drawn loop it guards: the loop and its draw.
    guard_draw: Option<(usize, IterationDraw)>,
    /// Its `lane_probability`.
    lane: Option<&'a LaneBranch>,
    /// Its `probability`.
    probability: Option<f64>,
    /// Its `taken` hint.
    taken: Option<bool>,
    /// The waves that take it (`waves`).
    waves: Option<&'a WaveSet>,
}

/// What every wave's walk of one program under one plan shares.
#[derive(Debug, Clone)]
pub struct TraceWalk<'a> {
    /// The program (for the error's loop line).
    pub program: &'a Program,
    /// Its control flow.
    pub cfg: &'a Cfg,
    /// The resolved hints.
    pub plan: &'a TracePlan,
    /// How each block is left.
    leave: Vec<Leave>,
    /// Each conditional branch's facts, in `cfg.branches` order.
    branches: Vec<BranchFacts<'a>>,
    /// Each loop's per-entry draw (`plan.drawn_iterations`), by loop.
    drawn: Vec<Option<IterationDraw>>,
    /// The loops each block heads, in `cfg.loops` order (outer first).
    headed: Vec<Vec<u32>>,
}

impl<'a> TraceWalk<'a> {
    /// Prepare the walks of `program` under `plan` (O(blocks + loops +
    /// branches), a loop guard's rule O(blocks)).
    pub fn new(program: &'a Program, cfg: &'a Cfg, plan: &'a TracePlan) -> TraceWalk<'a> {
        let mut leave: Vec<Leave> = cfg
            .blocks
            .iter()
            .map(|b| match b.succs.first() {
                None => Leave::End,
                Some(s) => Leave::To(s.to as u32),
            })
            .collect();
        let drawn: Vec<Option<IterationDraw>> = (0..cfg.loops.len())
            .map(|l| plan.drawn_iterations.get(&l).copied())
            .collect();
        let branches = cfg
            .branches
            .iter()
            .enumerate()
            .map(|(i, br)| {
                if cfg.blocks[br.block].succs.len() > 1 {
                    leave[br.block] = Leave::Branch(i as u32);
                }
                let guard_draw = match br.kind {
                    BranchKind::LoopSkip { loop_id } => drawn[loop_id].map(|d| (loop_id, d)),
                    _ => None,
                };
                let flag_exit = plan.flag_exits.get(&br.instr).copied();
                BranchFacts {
                    instr: br.instr,
                    rule: BranchRule::new(cfg, br, flag_exit),
                    guard_draw,
                    lane: plan.lane_branches.get(&br.instr),
                    probability: plan.probability.get(&br.instr).copied(),
                    taken: plan.taken.get(&br.instr).copied(),
                    waves: plan.wave_branches.get(&br.instr),
                }
            })
            .collect();
        let mut headed = vec![Vec::new(); cfg.blocks.len()];
        for l in &cfg.loops {
            headed[l.header].push(l.id as u32);
        }
        TraceWalk {
            program,
            cfg,
            plan,
            leave,
            branches,
            drawn,
            headed,
        }
    }

    /// The walk [`WaveTrace::expand`] makes: the plan as it is (no per-wave
    /// decisions, no draws).
    pub fn cursor(&self) -> TraceCursor<'_> {
        TraceCursor::start(self, None)
    }

    /// The walk [`WaveTrace::expand_wave`] makes for wave `wave` (launch
    /// order): its per-wave branch sides and loop counts, and its draws from
    /// the generator seeded by the plan's seed and the wave.
    pub fn wave_cursor(&self, wave: u32) -> TraceCursor<'_> {
        TraceCursor::start(self, Some(wave))
    }

    /// The generator of wave `wave`'s draws (`None`: the plan draws nothing).
    fn wave_rng(&self, wave: Option<u32>) -> Option<rand_chacha::ChaCha8Rng> {
        use rand::SeedableRng;
        let wave = wave?;
        self.plan.draws().then(|| {
            let seed = self.plan.seed ^ u64::from(wave).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            rand_chacha::ChaCha8Rng::seed_from_u64(seed)
        })
    }

    /// Walk wave `wave`'s trace (`None`: [`TraceWalk::cursor`]'s) without
    /// storing it: its length and the executions of each static instruction.
    pub fn summary(&self, wave: Option<u32>) -> Result<TraceSummary, TraceError> {
        let mut c = match wave {
            Some(w) => self.wave_cursor(w),
            None => self.cursor(),
        };
        let mut executions = vec![0u64; self.program.instructions.len()];
        let mut len = 0u64;
        while let Some(step) = c.next_step() {
            executions[step?.instr as usize] += 1;
            len += 1;
        }
        Ok(TraceSummary { len, executions })
    }

    /// The whole trace, stored ([`WaveTrace`]): for tests and short traces.
    pub fn collect(&self, wave: Option<u32>) -> Result<WaveTrace, TraceError> {
        let mut c = match wave {
            Some(w) => self.wave_cursor(w),
            None => self.cursor(),
        };
        let tracked = c.tracks_lanes();
        let mut t = WaveTrace {
            ops: Vec::new(),
            executions: vec![0; self.program.instructions.len()],
            lanes: Vec::new(),
        };
        while let Some(step) = c.next_step() {
            let step = step?;
            t.ops.push(step.instr);
            t.executions[step.instr as usize] += 1;
            if tracked {
                t.lanes.push(step.exec);
            }
        }
        Ok(t)
    }
}

/// A trace's length and per-instruction executions, from a walk that did not
/// store it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceSummary {
    /// Dynamic instructions.
    pub len: u64,
    /// Executions of each static instruction.
    pub executions: Vec<u64>,
}

/// One dynamic instruction of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceStep {
    /// Static instruction index.
    pub instr: u32,
    /// The wave's EXEC mask (bit per lane) when it runs; every bit set when
    /// the walk does not track lanes ([`TraceCursor::tracks_lanes`]).
    pub exec: u64,
}

/// Consecutive dynamic instructions of one block: static instructions
/// `start..end`, all run under the EXEC mask `exec` (every bit set when
/// the walk does not track lanes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceRun {
    /// The first static instruction.
    pub start: u32,
    /// One past the last.
    pub end: u32,
    /// The wave's EXEC mask while they run.
    pub exec: u64,
}

/// Where a cursor is between instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// About to enter block `cur` (loop counters, EXEC, the bound).
    Enter,
    /// Inside block `cur`, `next` is the next instruction.
    Inside,
    /// The program ended, or the walk failed (the error was yielded).
    Done,
}

/// One wave's position in its dynamic instruction sequence.
#[derive(Debug, Clone)]
pub struct TraceCursor<'w> {
    walk: &'w TraceWalk<'w>,
    /// The wave whose per-wave decisions apply (`None`: the plan as is).
    wave: Option<u32>,
    /// Iterations of each loop for its current entry.
    limit: Vec<u32>,
    /// Header executions of each loop in its current entry.
    counter: Vec<u32>,
    /// Loops whose count for the coming entry was drawn at their guard (a
    /// range from 0 may skip the loop: the guard must see the draw).
    drawn_at_guard: Vec<bool>,
    /// The draws' generator, boxed: it is large (about 330 bytes) and most
    /// plans draw nothing, and a cursor lives in each resident wave.
    rng: Option<Box<rand_chacha::ChaCha8Rng>>,
    /// The EXEC mask, tracked only when lanes diverge.
    lanes: Option<LaneState>,
    at: At,
    cur: usize,
    prev: Option<usize>,
    next: usize,
    end: usize,
    /// Instructions yielded so far.
    emitted: u64,
}

impl<'w> TraceCursor<'w> {
    fn start(walk: &'w TraceWalk<'w>, wave: Option<u32>) -> TraceCursor<'w> {
        let mut c = TraceCursor {
            walk,
            wave,
            limit: Vec::new(),
            counter: Vec::new(),
            drawn_at_guard: Vec::new(),
            rng: None,
            lanes: None,
            at: At::Enter,
            cur: 0,
            prev: None,
            next: 0,
            end: 0,
            emitted: 0,
        };
        c.restart(wave);
        c
    }

    /// Start over as [`TraceWalk::wave_cursor`]`(wave)` (or
    /// [`TraceWalk::cursor`] for `None`) of the same walk would, keeping
    /// this cursor's buffers: a simulator reusing a retired wave's cursor
    /// for the next wave allocates nothing per wave.
    pub fn restart(&mut self, wave: Option<u32>) {
        let walk = self.walk;
        let plan = walk.plan;
        let loops = walk.cfg.loops.len();
        self.wave = wave;
        self.limit.clear();
        self.limit.extend_from_slice(&plan.iterations);
        if let Some(w) = wave {
            for (&l, list) in &plan.wave_iterations {
                self.limit[l] = list[w as usize % list.len()];
            }
        }
        self.counter.clear();
        self.counter.resize(loops, 0);
        self.drawn_at_guard.clear();
        self.drawn_at_guard.resize(loops, false);
        // (The box is reused: reseeding writes the generator in place.)
        match (walk.wave_rng(wave), &mut self.rng) {
            (Some(r), Some(b)) => **b = r,
            (r, slot) => *slot = r.map(Box::new),
        }
        if plan.lane_branches.is_empty() {
            self.lanes = None;
        } else {
            match &mut self.lanes {
                Some(ls) => ls.reset(plan.wave_lanes),
                None => self.lanes = Some(LaneState::new(plan.wave_lanes)),
            }
        }
        self.at = At::Enter;
        self.cur = 0;
        self.prev = None;
        self.next = 0;
        self.end = 0;
        self.emitted = 0;
    }

    /// Whether the walk tracks the EXEC mask (some branch has
    /// `lane_probability`); otherwise every step's `exec` is all ones.
    pub fn tracks_lanes(&self) -> bool {
        self.lanes.is_some()
    }

    /// Instructions yielded so far.
    pub fn position(&self) -> u64 {
        self.emitted
    }

    /// The next dynamic instruction; `None` after the last one (or after
    /// the error, which is yielded once).
    #[inline]
    pub fn next_step(&mut self) -> Option<Result<TraceStep, TraceError>> {
        if !(self.at == At::Inside && self.next < self.end) {
            if let Err(e) = self.enter_next_block()? {
                return Some(Err(e));
            }
        }
        let instr = self.next as u32;
        self.next += 1;
        self.emitted += 1;
        Some(Ok(TraceStep {
            instr,
            exec: self.exec(),
        }))
    }

    /// The rest of the current block at once: the instructions
    /// [`TraceCursor::next_step`] would yield one by one up to the block's
    /// end, with the EXEC mask they share (it changes only between blocks);
    /// `None` and the error as `next_step` gives them. A caller that walks
    /// instruction by instruction pays one call per block instead of one
    /// per instruction. The two may be mixed.
    #[inline]
    pub fn next_run(&mut self) -> Option<Result<TraceRun, TraceError>> {
        if !(self.at == At::Inside && self.next < self.end) {
            if let Err(e) = self.enter_next_block()? {
                return Some(Err(e));
            }
        }
        let run = TraceRun {
            start: self.next as u32,
            end: self.end as u32,
            exec: self.exec(),
        };
        self.emitted += (self.end - self.next) as u64;
        self.next = self.end;
        Some(Ok(run))
    }

    /// The EXEC mask of the current block's instructions.
    #[inline]
    fn exec(&self) -> u64 {
        self.lanes.as_ref().map_or(u64::MAX, |l| l.mask)
    }

    /// Move on until an instruction of a block is next (`Ok`), the walk
    /// ends (`None`) or fails (the error, once; `None` after it).
    /// (One successor and one entry, straight through: a block holds an
    /// instruction, so the loop turns again only for an empty one.)
    fn enter_next_block(&mut self) -> Option<Result<(), TraceError>> {
        loop {
            match self.at {
                At::Inside if self.next < self.end => return Some(Ok(())),
                At::Inside => match self.successor() {
                    Some(next) => {
                        self.prev = Some(self.cur);
                        self.cur = next;
                    }
                    None => {
                        self.at = At::Done;
                        return None;
                    }
                },
                At::Enter => {}
                At::Done => return None,
            }
            if let Err(e) = self.enter() {
                self.at = At::Done;
                return Some(Err(e));
            }
            if self.next < self.end {
                return Some(Ok(()));
            }
        }
    }

    /// Enter block `cur`: count loop trips (drawing a drawn loop's count on
    /// a new entry), move EXEC across region ends, check the bound.
    fn enter(&mut self) -> Result<(), TraceError> {
        let walk = self.walk;
        let cfg = walk.cfg;
        for &l in &walk.headed[self.cur] {
            let l = l as usize;
            let lp = &cfg.loops[l];
            self.counter[l] = match self.prev {
                Some(p) if lp.contains(p) => self.counter[l].saturating_add(1),
                _ => {
                    if std::mem::take(&mut self.drawn_at_guard[l]) {
                        // Drawn already, by the guard that let it in.
                    } else if let (Some(d), Some(r)) = (walk.drawn[l], self.rng.as_deref_mut()) {
                        self.limit[l] = d.draw(r);
                    }
                    1
                }
            };
        }
        if let Some(ls) = &mut self.lanes {
            ls.enter(self.cur);
        }
        let block = &cfg.blocks[self.cur];
        if self.emitted + block.len() as u64 > walk.plan.max_instructions {
            return Err(crate::tracer::too_long(
                walk.program,
                cfg,
                walk.plan.max_instructions,
                self.cur,
            ));
        }
        self.next = block.start;
        self.end = block.end;
        self.at = At::Inside;
        Ok(())
    }

    /// The block after `cur`, `None` at the program's end.
    fn successor(&mut self) -> Option<usize> {
        let walk = self.walk;
        match walk.leave[self.cur] {
            Leave::End => None,
            Leave::To(b) => Some(b as usize),
            Leave::Branch(i) => Some(self.branch_side(&walk.branches[i as usize])),
        }
    }

    /// The side of conditional branch `br` this wave takes. The draws are
    /// made in [`WaveTrace::expand_wave`]'s order: a drawn loop's count at
    /// its guard, lanes, then the wave's probability.
    fn branch_side(&mut self, br: &BranchFacts<'_>) -> usize {
        use rand::Rng;
        // A drawn loop's guard draws the count of the entry it decides (as
        // `WaveTrace::expand` does).
        if let (Some((loop_id, d)), Some(r)) = (br.guard_draw, self.rng.as_deref_mut()) {
            self.limit[loop_id] = d.draw(r);
            self.drawn_at_guard[loop_id] = true;
        }
        let lane_taken = match (self.lanes.as_mut(), br.lane, self.rng.as_deref_mut()) {
            (Some(ls), Some(lb), Some(r)) => Some(ls.diverge(lb, br.rule.taken, r)),
            (Some(ls), _, _) => ls.else_decision(br.instr),
            _ => None,
        };
        let drawn = match (br.probability, self.rng.as_deref_mut()) {
            (Some(p), Some(r)) => Some(r.gen::<f64>() < p),
            _ => None,
        };
        match lane_taken {
            Some(true) => br.rule.taken,
            Some(false) => br.rule.not_taken,
            None => {
                // The plan's direction: this wave's side of a `waves` hint,
                // else the `taken` hint.
                let hint = match (self.wave, br.waves) {
                    (Some(w), Some(set)) => Some(set.contains(w)),
                    _ => br.taken,
                };
                br.rule.decide(hint, &self.counter, &self.limit, drawn)
            }
        }
    }
}

impl Iterator for TraceCursor<'_> {
    type Item = Result<TraceStep, TraceError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_step()
    }
}
