//! Static operations: each instruction of the program (and of the
//! synthesized fetch shader) compiled once against an architecture model
//! into what the cycle loop needs: issue category, unit, cost in clocks,
//! counters touched, wait condition.

use crate::error::SimError;
use shadersim_arch::ArchSpec;
use shadersim_asm::{Program, SourceInstr, Stage};
use shadersim_isa::{
    Counter, DepCtr, GfxGen, InstrClass, InstrTable, Instruction, RegFile, RegRange, VmemKind,
};
use shadersim_mem::{
    coalesce_pattern, ImageAccess, ImageFootprint, ImageOp, LaneOrder, MemAccess, TextureFilter,
    TileWalk, VmemRates,
};
use shadersim_trace::{MemoryFacts, TraceCursor, TraceStep, TraceWalk};
use std::collections::HashMap;

mod compile;
mod cost;

/// Marks "no category" (free ops) and "no unit".
pub const NONE: u8 = u8::MAX;

/// A set of counters (bit `Counter::index()`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CounterSet(pub u16);

impl CounterSet {
    /// Add a counter.
    pub fn insert(&mut self, c: Counter) {
        self.0 |= 1 << c.index();
    }

    /// Does the set hold `c`?
    pub fn contains(self, c: Counter) -> bool {
        self.0 & (1 << c.index()) != 0
    }

    /// Is the set empty?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Counter indices in the set.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        (0..Counter::ALL.len()).filter(move |i| self.0 & (1 << i) != 0)
    }
}

/// What kind of step an op is for the cycle loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// Issues on a unit.
    Unit,
    /// Free; waits until every counter is at or below its limit.
    Wait,
    /// Free; workgroup barrier.
    Barrier,
    /// Free; the wave sleeps for `cost` clocks.
    Sleep,
    /// Free; does nothing (`s_nop`, hints, satisfied markers).
    Nop,
    /// End of the program: waits for all counters, then the wave ends.
    End,
    /// Free; waits until the wave's outstanding ALU writes and VMEM source
    /// reads are few enough (`s_waitcnt_depctr`, `s_wait_alu`).
    DepWait,
    /// The model has no unit for this class: a wave reaching it cannot go on.
    NoPath,
}

/// Where a static op comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpSource {
    /// Instruction `i` of the program.
    Program(usize),
    /// Instruction `i` of the synthesized fetch shader.
    Fetch(usize),
    /// The implicit end after a program that does not end in `s_endpgm`.
    ImplicitEnd,
}

/// Scoreboard slots: every register a wave can name, in one index space
/// (VGPRs, AGPRs, SGPRs, trap temporaries, special registers).
pub const SCOREBOARD_SLOTS: usize = 256 + 256 + 128 + 16 + 17;

/// A run of scoreboard slots: `(first, count)`.
pub type SlotRange = (u16, u16);

fn slot_range(r: &RegRange) -> Option<SlotRange> {
    let (base, size) = match r.file {
        RegFile::Vgpr => (0, 256),
        RegFile::Agpr => (256, 256),
        RegFile::Sgpr => (512, 128),
        RegFile::Ttmp => (640, 16),
        RegFile::Special => (656, 17),
    };
    let first = u32::from(r.first);
    if first >= size {
        return None;
    }
    let count = u32::from(r.count.max(1)).min(size - first);
    Some(((base + first) as u16, count as u16))
}

/// Bits of [`StaticOp::flags`].
pub mod op_flags {
    /// Waits until the wave's VALU VGPR writes have completed.
    pub const WAIT_VALU_VGPR: u16 = 1 << 0;
    /// Waits until the wave's VALU SGPR writes have completed.
    pub const WAIT_VALU_SGPR: u16 = 1 << 1;
    /// A VALU op writing a VGPR (counted by `va_vdst`).
    pub const VALU_VGPR_WRITE: u16 = 1 << 2;
    /// A VALU op writing an SGPR (counted by `va_sdst`).
    pub const VALU_SGPR_WRITE: u16 = 1 << 3;
    /// A VALU op writing VCC (counted by `va_vcc`).
    pub const VALU_VCC_WRITE: u16 = 1 << 4;
    /// A SALU op writing an SGPR (counted by `sa_sdst`).
    pub const SALU_SGPR_WRITE: u16 = 1 << 5;
    /// A VMEM op reading VGPR sources (counted by `vm_vsrc` until served).
    pub const VMEM_VGPR_READ: u16 = 1 << 6;
    /// `s_delay_alu`: the compiler announced the next dependency.
    pub const DELAY_ALU: u16 = 1 << 7;
    /// `s_alloc_vgpr` (dynamic VGPR mode).
    pub const ALLOC_VGPR: u16 = 1 << 8;
}

/// One compiled instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticOp {
    /// Where it comes from.
    pub source: OpSource,
    /// Execution class.
    pub class: InstrClass,
    /// Step kind.
    pub kind: OpKind,
    /// Issue category index ([`NONE`] for free ops).
    pub category: u8,
    /// Unit index ([`NONE`] for free ops).
    pub unit: u8,
    /// Clocks the unit is busy (pipes) or serves it (queues); sleep clocks.
    pub cost: u32,
    /// Counters incremented at issue.
    pub inc: CounterSet,
    /// The subset decremented when the unit has served the op (data read),
    /// the others fall after the unit's latency.
    pub dec_at_service: CounterSet,
    /// For waits: the largest allowed value per counter (`u8::MAX` = no wait).
    pub wait: [u8; 10],
    /// L2 requests of one execution (vector memory ops), from the coalescing model.
    pub l2_requests: u32,
    /// How its cost was derived, in words (for the report).
    pub cost_basis: String,
    /// The lane pattern used, for buffer-like ops.
    pub pattern: Option<String>,
    /// Clocks from issue until a dependent op may read the results (the
    /// scoreboard; 0 = the results are not tracked).
    pub result_delay: u32,
    /// Scoreboard slots read (models with a scoreboard).
    pub reads: Vec<SlotRange>,
    /// Scoreboard slots written with `result_delay`.
    pub writes: Vec<SlotRange>,
    /// A second unit the op occupies ([`NONE`] for none).
    pub also_unit: u8,
    /// Clocks the second unit is busy.
    pub also_cost: u32,
    /// [`op_flags`] bits.
    pub flags: u16,
    /// For `DepWait` ops: the fields to wait for.
    pub depctr: DepCtr,
    /// Latency after service overriding the unit's (`[[memory]] latency`).
    pub latency_override: Option<u32>,
    /// `s_alloc_vgpr`: the VGPRs asked for (`u32::MAX`: not known from the
    /// text, an SGPR operand: taken as the most a wave may hold).
    pub alloc_vgprs: Option<u32>,
    /// A vector memory op compiled for a partial EXEC mask (lane
    /// divergence): the op of the same instruction with every lane active.
    pub masked_from: Option<u32>,
    /// The address stream the caches see (vector memory ops the coalescer
    /// describes, scalar loads).
    pub stream: Option<crate::memstream::StreamSpec>,
    /// LDS ops: the mean bank-conflict degree of the lane pattern (1 =
    /// conflict-free), already in `cost`.
    pub lds_conflict: Option<f64>,
    /// Memory ops: the cache levels an access policy of the model keeps its lines out of, each
    /// with the instruction modifier that selects it (`("mall", "dlc")`).
    pub not_allocated_in: Vec<(String, String)>,
    /// Image ops: the texels (tile walk) and filter taken by default (its `line` is 0 here;
    /// the run fills it in when it lists the defaults).
    pub image_default: Option<shadersim_trace::ImageDefault>,
    /// Matrix instructions charged by the `matrix_cycles` rule: the operations of one wave's
    /// instruction (2 x M x N x K x blocks, the matrix table); 0 for every other op.
    pub matrix_flops: u64,
    /// Matrix instructions: the clocks the op holds the unit its `matrix_cycles` rule charges
    /// (the matrix core's `also_cost` on CDNA, the VALU's `cost` for RDNA's WMMA); 0 for others.
    pub matrix_busy: u32,
}

impl StaticOp {
    /// An op of `class` from `source` with no unit, cost, counters or wait
    /// yet (the compiler fills them in).
    fn blank(source: OpSource, class: InstrClass) -> StaticOp {
        StaticOp {
            source,
            class,
            kind: OpKind::Unit,
            category: NONE,
            unit: NONE,
            cost: 0,
            inc: CounterSet::default(),
            dec_at_service: CounterSet::default(),
            wait: [u8::MAX; 10],
            l2_requests: 0,
            cost_basis: String::new(),
            pattern: None,
            result_delay: 0,
            reads: Vec::new(),
            writes: Vec::new(),
            also_unit: NONE,
            also_cost: 0,
            flags: 0,
            depctr: DepCtr::NONE,
            latency_override: None,
            alloc_vgprs: None,
            masked_from: None,
            stream: None,
            lds_conflict: None,
            not_allocated_in: Vec::new(),
            image_default: None,
            matrix_flops: 0,
            matrix_busy: 0,
        }
    }
}

/// Index of each counter's limit parameter in the model.
fn counter_param(c: Counter) -> String {
    format!("{}cnt_max", c.name())
}

/// A compiled program: the static ops and how a wave's trace maps onto
/// them. The dynamic sequences are not stored: a wave's ops stream from a
/// [`TraceCursor`] through [`OpCursor`] (the fetch shader's ops, the
/// program's with masked VMEM copies, the implicit end).
#[derive(Debug, Clone, PartialEq)]
pub struct SimProgram {
    /// Static ops: fetch shader ops first, then the program's, then the implicit end.
    pub ops: Vec<StaticOp>,
    /// The synthesized fetch shader's ops, which every trace starts with.
    pub fetch_prefix: Vec<u32>,
    /// The launch-order wave whose walk ([`TraceWalk::wave_cursor`]) is each
    /// distinct trace: every wave of a trace runs its first wave's sequence.
    pub trace_waves: Vec<u32>,
    /// Ops of each distinct trace (the fetch prefix and an implicit end
    /// included).
    pub trace_len: Vec<u64>,
    /// Whether some trace runs each op.
    pub in_trace: Vec<bool>,
    /// The op after the program's: the implicit end of a trace that does
    /// not end in an end-of-program instruction.
    pub implicit_end: u32,
    /// The op of a vector memory instruction under a partial EXEC mask, by
    /// instruction and mask (only masks some trace gives it).
    pub masked_of: HashMap<(u32, u64), u32>,
    /// The trace each wave runs, by launch order (empty: every wave runs
    /// trace 0; past the end: the last entry's trace).
    pub wave_trace: Vec<u32>,
    /// The synthesized fetch shader's instructions (text), if any.
    pub fetch_shader: Vec<String>,
    /// Index into `ops` of program instruction `i`.
    pub op_of_instr: Vec<u32>,
    /// Largest value each counter can hold on the model.
    pub counter_max: [u8; 10],
    /// Issue category names.
    pub categories: Vec<String>,
    /// Unit names.
    pub units: Vec<String>,
    /// Lanes per wave the ops were compiled for.
    pub wave_size: u32,
    /// Whether the model tracks register dependencies.
    pub scoreboard: bool,
}

/// Inputs for compiling.
pub struct CompileInput<'a> {
    /// The program.
    pub program: &'a Program,
    /// The walks of its traces (instructions and EXEC masks).
    pub walk: &'a TraceWalk<'a>,
    /// The wave whose walk is each distinct trace (launch order).
    pub trace_waves: &'a [u32],
    /// The trace each wave runs, by launch order (empty: all trace 0).
    pub wave_trace: &'a [u32],
    /// Memory hints by instruction index.
    pub memory: &'a HashMap<usize, MemoryFacts>,
    /// The stage (decides the lane order of patterns and the fetch shader).
    pub stage: Stage,
    /// Vertex input elements for the synthesized fetch shader (0 = none).
    pub vertex_inputs: u32,
    /// Lanes per wave.
    pub wave_size: u32,
    /// Compute: the declared workgroup size `[x, y, z]` when it is the one the run uses (the
    /// 2D tile of image ops follows it).
    pub workgroup: Option<[u32; 3]>,
    /// The model.
    pub arch: &'a ArchSpec,
}

impl SimProgram {
    /// Compile against the model.
    pub fn compile(input: &CompileInput<'_>) -> Result<SimProgram, SimError> {
        let arch = input.arch;
        let gen = input.program.gen();
        let categories = arch.issue.categories.clone();
        let units: Vec<String> = arch.units.keys().cloned().collect();
        let rates = vmem_rates(arch)?;
        let counter_max = counter_maxima(arch, gen);
        let cat_set = |names: &[String]| -> u16 {
            names
                .iter()
                .filter_map(|n| categories.iter().position(|c| c == n))
                .fold(0u16, |m, i| m | (1 << i))
        };
        let ctx = OpContext {
            arch,
            gen,
            categories: &categories,
            units: &units,
            rates: &rates,
            stage: input.stage,
            wave_size: input.wave_size.clamp(1, 64),
            walk: if input.stage == Stage::Pixel {
                TileWalk::pixel(input.wave_size)
            } else {
                TileWalk::compute(input.wave_size, input.workgroup)
            },
            scoreboard: arch.issue.scoreboard,
            wait_vgpr_cats: cat_set(&arch.issue.wait_valu_vgpr_writes),
            wait_sgpr_cats: cat_set(&arch.issue.wait_valu_sgpr_writes),
        };
        let mut ops = Vec::new();
        let (fetch_shader, trace) = fetch_shader(&ctx, input.vertex_inputs, &mut ops)?;
        let (wave_size, scoreboard) = (ctx.wave_size, ctx.scoreboard);
        let mut op_of_instr = Vec::with_capacity(input.program.instructions.len());
        for (i, s) in input.program.instructions.iter().enumerate() {
            op_of_instr.push(ops.len() as u32);
            let op = ctx.compile_source(s, i, input.memory.get(&i))?;
            ops.push(op);
        }
        let fetch_prefix: Vec<u32> = trace;
        let implicit_end = ops.len() as u32;
        let mut needs_end = false;
        let mut trace_len = Vec::with_capacity(input.trace_waves.len());
        // VMEM ops under a partial EXEC mask: one op per distinct cost,
        // appended after the implicit end.
        let full = full_mask(wave_size);
        let mut masked = MaskedOps::default();
        let mut in_trace = vec![false; ops.len()];
        for &o in &fetch_prefix {
            in_trace[o as usize] = true;
        }
        // Each distinct trace is walked once, in order (the masked ops are
        // numbered by first appearance); nothing of it is kept but its length.
        for &wave in input.trace_waves {
            let mut len = fetch_prefix.len() as u64;
            let mut last_end = false;
            for step in input.walk.wave_cursor(wave) {
                // Prepare walked every trace: a bound error cannot come now.
                let step = step.map_err(|e| SimError::Dispatch(e.to_string()))?;
                let i = step.instr;
                let mut op = op_of_instr[i as usize];
                let exec = step.exec & full;
                if exec != full
                    && ops[op as usize].kind == OpKind::Unit
                    && ops[op as usize].class.is_vmem()
                {
                    op = masked.op_under(&ctx, input, &ops, implicit_end, (i, exec), op)?;
                }
                if let Some(seen) = in_trace.get_mut(op as usize) {
                    *seen = true;
                }
                last_end = ops.get(op as usize).is_some_and(|o| o.kind == OpKind::End);
                len += 1;
            }
            if !last_end {
                // LLVM graphics functions end in a return to the epilog,
                // not s_endpgm; the wave still waits for its memory ops.
                len += 1;
                needs_end = true;
            }
            trace_len.push(len);
        }
        let MaskedOps {
            ops: masked,
            of: masked_of,
            ..
        } = masked;
        if needs_end || !masked.is_empty() {
            ops.push(StaticOp {
                kind: OpKind::End,
                wait: [0; 10],
                cost_basis: "implicit end of program: waits for all counters".into(),
                ..StaticOp::blank(OpSource::ImplicitEnd, InstrClass::Endpgm)
            });
        }
        ops.extend(masked);
        in_trace.resize(ops.len(), true);
        if needs_end {
            in_trace[implicit_end as usize] = true;
        } else if let Some(e) = in_trace.get_mut(implicit_end as usize) {
            *e = false;
        }
        Ok(SimProgram {
            ops,
            fetch_prefix,
            trace_waves: input.trace_waves.to_vec(),
            trace_len,
            in_trace,
            implicit_end,
            masked_of,
            wave_trace: input.wave_trace.to_vec(),
            fetch_shader,
            op_of_instr,
            counter_max,
            categories,
            units,
            wave_size,
            scoreboard,
        })
    }
}

/// The most each wait counter of the generation counts to on the model (its width, or less
/// where the model says).
fn counter_maxima(arch: &ArchSpec, gen: GfxGen) -> [u8; 10] {
    let mut counter_max = [0u8; 10];
    for c in Counter::of_gen(gen) {
        let width_max = c.max_value(gen);
        let v = arch
            .param(&counter_param(*c))
            .map_or(width_max, |v| v as u32);
        counter_max[c.index()] = v.min(width_max).min(255) as u8;
    }
    counter_max
}

/// The synthesized fetch shader's text and its ops (pushed to `ops`), the trace prefix they
/// make.
fn fetch_shader(
    ctx: &OpContext<'_>,
    vertex_inputs: u32,
    ops: &mut Vec<StaticOp>,
) -> Result<(Vec<String>, Vec<u32>), SimError> {
    let mut fetch_shader = Vec::new();
    let mut trace = Vec::new();
    // Synthesized fetch shader (seed 004 assumption 4): one
    // buffer_load_format_xyzw per input element, then a wait.
    if vertex_inputs > 0 {
        let table = InstrTable::builtin();
        for i in 0..vertex_inputs {
            fetch_shader.push(format!(
                "buffer_load_format_xyzw v[{0}:{1}], v0, s[8:11], 0 idxen",
                4 * i + 4,
                4 * i + 7
            ));
        }
        fetch_shader.push("s_waitcnt vmcnt(0)".to_string());
        for (i, text) in fetch_shader.iter().enumerate() {
            let inst = Instruction::parse(text, ctx.gen, table)
                .map_err(|e| SimError::Model(format!("fetch shader: {e}")))?;
            let op = ctx.compile(&inst, OpSource::Fetch(i), None)?;
            trace.push(ops.len() as u32);
            ops.push(op);
        }
    }
    Ok((fetch_shader, trace))
}

/// VMEM ops under a partial EXEC mask: one op per distinct cost, appended after the
/// implicit end.
#[derive(Default)]
struct MaskedOps {
    /// The ops, in order of first appearance.
    ops: Vec<StaticOp>,
    /// The op of each (instruction, mask) met.
    of: HashMap<(u32, u64), u32>,
    /// The op of each (instruction, cost, L2 requests).
    by_cost: HashMap<(usize, u32, u32), u32>,
}

impl MaskedOps {
    /// The op instruction `key.0` (full op `op`) runs as under mask `key.1`.
    fn op_under(
        &mut self,
        ctx: &OpContext<'_>,
        input: &CompileInput<'_>,
        full_ops: &[StaticOp],
        implicit_end: u32,
        key: (u32, u64),
        op: u32,
    ) -> Result<u32, SimError> {
        Ok(match self.of.get(&key) {
            Some(&o) => o,
            None => {
                let i = key.0;
                let s = &input.program.instructions[i as usize];
                let mut m =
                    ctx.compile_masked(s, i as usize, input.memory.get(&(i as usize)), key.1)?;
                m.masked_from = Some(op);
                let cost_key = (i as usize, m.cost, m.l2_requests);
                let same = full_ops[op as usize].cost == m.cost
                    && full_ops[op as usize].l2_requests == m.l2_requests;
                let o = match self.by_cost.get(&cost_key) {
                    // Every group still active: the full op.
                    _ if same => op,
                    Some(&o) => o,
                    None => {
                        // After the implicit end's slot.
                        let o = (implicit_end + 1) as usize + self.ops.len();
                        self.ops.push(m);
                        self.by_cost.insert(cost_key, o as u32);
                        o as u32
                    }
                };
                self.of.insert(key, o);
                o
            }
        })
    }
}

impl SimProgram {
    /// Give every op of a program memory instruction the first address of its buffer
    /// (`shadersim_trace::BufferMap::base_of`); ops compiled for a partial EXEC mask too.
    pub fn set_stream_bases(&mut self, buffers: &shadersim_trace::BufferMap) {
        for op in &mut self.ops {
            if let (OpSource::Program(i), Some(stream)) = (op.source, op.stream.as_mut()) {
                stream.base = buffers.base_of(i).unwrap_or(0);
            }
        }
    }

    /// The trace wave `launch` (launch order) runs.
    pub fn trace_of_wave(&self, launch: u32) -> usize {
        match self.wave_trace.get(launch as usize) {
            Some(&t) => t as usize,
            None => self.wave_trace.last().map_or(0, |&t| t as usize),
        }
    }

    /// The ops of trace `t`, streamed from `walk` (the walk the program
    /// was compiled with).
    pub fn trace_ops<'s>(
        &'s self,
        walk: &'s TraceWalk<'s>,
        t: usize,
    ) -> impl Iterator<Item = u32> + 's {
        let mut c = OpCursor::new(walk, self.trace_waves[t]);
        std::iter::from_fn(move || c.next_op(self))
    }

    /// The op a trace step runs: the instruction's, or its masked copy.
    #[inline]
    pub fn op_of_step(&self, step: TraceStep) -> u32 {
        let op = self.op_of_instr[step.instr as usize];
        if self.masked_of.is_empty() {
            return op;
        }
        let full = full_mask(self.wave_size);
        let exec = step.exec & full;
        if exec == full {
            return op;
        }
        self.masked_of
            .get(&(step.instr, exec))
            .copied()
            .unwrap_or(op)
    }

    /// How many of the first `waves` waves run each trace.
    pub fn trace_weights(&self, waves: u32) -> Vec<u64> {
        let mut w = vec![0u64; self.trace_waves.len()];
        if self.wave_trace.is_empty() {
            w[0] = u64::from(waves.max(1));
        } else {
            for launch in 0..waves.max(1) {
                w[self.trace_of_wave(launch)] += 1;
            }
        }
        w
    }
}

/// The VMEM rates of the model (the seed 001 table keys in `[params]`).
pub fn vmem_rates(arch: &ArchSpec) -> Result<VmemRates, SimError> {
    let mut rates = VmemRates::GCN;
    for entry in shadersim_mem::GCN_RATE_TABLE.iter() {
        if let Some(v) = arch.param(entry.key) {
            rates
                .set_key(entry.key, v.round() as u32)
                .map_err(|e| SimError::Model(format!("{}: {e}", arch.name)))?;
        }
    }
    Ok(rates)
}

struct OpContext<'a> {
    arch: &'a ArchSpec,
    gen: GfxGen,
    categories: &'a [String],
    units: &'a [String],
    rates: &'a VmemRates,
    stage: Stage,
    wave_size: u32,
    /// Where waves' lanes sit for image ops without address hints.
    walk: TileWalk,
    scoreboard: bool,
    wait_vgpr_cats: u16,
    wait_sgpr_cats: u16,
}

fn model(e: shadersim_arch::ArchError) -> SimError {
    SimError::Model(e.to_string())
}

/// The mask of a wave of `wave_size` lanes with every lane on.
pub fn full_mask(wave_size: u32) -> u64 {
    if wave_size >= 64 {
        u64::MAX
    } else {
        (1u64 << wave_size.max(1)) - 1
    }
}

/// A wave's ops in order, streamed: the fetch shader's, then its trace's
/// instructions as ops (masked VMEM copies where its EXEC mask says), then
/// the implicit end when the trace does not end in one. State O(loops).
///
/// The trace is taken a block's rest at a time ([`TraceCursor::next_run`]):
/// most ops are the next instruction of the current run, a few
/// instructions here, and only the end of a run asks the walk.
#[derive(Debug, Clone)]
pub struct OpCursor<'w> {
    steps: TraceCursor<'w>,
    /// The current run's next instruction and its end.
    next: u32,
    end: u32,
    /// The current run's EXEC mask.
    exec: u64,
    /// Its instructions run as their own ops (no masked copies apply):
    /// `op_of_instr` alone gives them.
    plain: bool,
    /// Fetch-shader ops given so far.
    prefix: u32,
    /// The last op given (`u32::MAX`: none yet): the walk's end asks
    /// whether it was an end of program, so steps need not look.
    last_op: u32,
    /// Nothing more to give.
    finished: bool,
}

impl<'w> OpCursor<'w> {
    /// The ops of the trace wave `wave` (launch order) walks.
    pub fn new(walk: &'w TraceWalk<'w>, wave: u32) -> OpCursor<'w> {
        OpCursor {
            steps: walk.wave_cursor(wave),
            next: 0,
            end: 0,
            exec: u64::MAX,
            plain: true,
            prefix: 0,
            last_op: u32::MAX,
            finished: false,
        }
    }

    /// Start over as `OpCursor::new(walk, wave)` of the same walk would,
    /// keeping the trace cursor's buffers (a retired wave's cursor serves
    /// the next wave launched in its slot without allocating).
    pub fn restart(&mut self, wave: u32) {
        self.steps.restart(Some(wave));
        self.next = 0;
        self.end = 0;
        self.exec = u64::MAX;
        self.plain = true;
        self.prefix = 0;
        self.last_op = u32::MAX;
        self.finished = false;
    }

    /// The next op; `None` after the end of program.
    #[inline(always)]
    pub fn next_op(&mut self, sim: &SimProgram) -> Option<u32> {
        if self.next < self.end {
            let instr = self.next;
            self.next += 1;
            self.last_op = if self.plain {
                sim.op_of_instr[instr as usize]
            } else {
                sim.op_of_step(TraceStep {
                    instr,
                    exec: self.exec,
                })
            };
            return Some(self.last_op);
        }
        self.next_op_slow(sim)
    }

    /// `next_op` past the current run: the fetch prefix, the next run or
    /// the end.
    #[inline(never)]
    fn next_op_slow(&mut self, sim: &SimProgram) -> Option<u32> {
        if let Some(&o) = sim.fetch_prefix.get(self.prefix as usize) {
            self.prefix += 1;
            return Some(o);
        }
        if self.finished {
            return None;
        }
        match self.steps.next_run() {
            Some(Ok(run)) => {
                self.next = run.start;
                self.end = run.end;
                self.exec = run.exec;
                let full = full_mask(sim.wave_size);
                self.plain = sim.masked_of.is_empty() || run.exec & full == full;
                // (A run is never empty: a block holds an instruction.)
                self.next_op(sim)
            }
            // A bound error cannot come (prepare walked every trace); like
            // the end of the walk, it ends the wave.
            _ => {
                self.finished = true;
                let ended = sim
                    .ops
                    .get(self.last_op as usize)
                    .is_some_and(|o| o.kind == OpKind::End);
                (!ended).then_some(sim.implicit_end)
            }
        }
    }
}
