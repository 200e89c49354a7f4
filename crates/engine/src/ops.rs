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
    /// Image ops: the texels (tile walk) and filter taken by default (its `line` is 0 here;
    /// the run fills it in when it lists the defaults).
    pub image_default: Option<shadersim_trace::ImageDefault>,
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
            image_default: None,
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
#[derive(Debug, Clone)]
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
        let mut counter_max = [0u8; 10];
        for c in Counter::of_gen(gen) {
            let width_max = c.max_value(gen);
            let v = arch
                .param(&counter_param(*c))
                .map_or(width_max, |v| v as u32);
            counter_max[c.index()] = v.min(width_max).min(255) as u8;
        }
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
        let mut fetch_shader = Vec::new();
        let mut trace = Vec::new();
        // Synthesized fetch shader (seed 004 assumption 4): one
        // buffer_load_format_xyzw per input element, then a wait.
        if input.vertex_inputs > 0 {
            let table = InstrTable::builtin();
            for i in 0..input.vertex_inputs {
                fetch_shader.push(format!(
                    "buffer_load_format_xyzw v[{0}:{1}], v0, s[8:11], 0 idxen",
                    4 * i + 4,
                    4 * i + 7
                ));
            }
            fetch_shader.push("s_waitcnt vmcnt(0)".to_string());
            for (i, text) in fetch_shader.iter().enumerate() {
                let inst = Instruction::parse(text, gen, table)
                    .map_err(|e| SimError::Model(format!("fetch shader: {e}")))?;
                let op = ctx.compile(&inst, OpSource::Fetch(i), None)?;
                trace.push(ops.len() as u32);
                ops.push(op);
            }
        }
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
        let mut masked: Vec<StaticOp> = Vec::new();
        let mut masked_of: HashMap<(u32, u64), u32> = HashMap::new();
        let mut masked_by_cost: HashMap<(usize, u32, u32), u32> = HashMap::new();
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
                    let key = (i, exec);
                    op = match masked_of.get(&key) {
                        Some(&o) => o,
                        None => {
                            let s = &input.program.instructions[i as usize];
                            let mut m = ctx.compile_masked(
                                s,
                                i as usize,
                                input.memory.get(&(i as usize)),
                                exec,
                            )?;
                            m.masked_from = Some(op);
                            let cost_key = (i as usize, m.cost, m.l2_requests);
                            let same = ops[op as usize].cost == m.cost
                                && ops[op as usize].l2_requests == m.l2_requests;
                            let o = match masked_by_cost.get(&cost_key) {
                                // Every group still active: the full op.
                                _ if same => op,
                                Some(&o) => o,
                                None => {
                                    // After the implicit end's slot.
                                    let o = (implicit_end + 1) as usize + masked.len();
                                    masked.push(m);
                                    masked_by_cost.insert(cost_key, o as u32);
                                    o as u32
                                }
                            };
                            masked_of.insert(key, o);
                            o
                        }
                    };
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

impl OpContext<'_> {
    fn compile_source(
        &self,
        s: &SourceInstr,
        index: usize,
        facts: Option<&MemoryFacts>,
    ) -> Result<StaticOp, SimError> {
        self.compile(&s.inst, OpSource::Program(index), facts)
            .map_err(|e| match e {
                SimError::Model(m) => {
                    SimError::Model(format!("line {} (`{}`): {m}", s.pos.line, s.text))
                }
                other => other,
            })
    }

    /// A vector memory instruction under a partial EXEC mask: its cost by
    /// the coalescing rules for the active lanes only.
    fn compile_masked(
        &self,
        s: &SourceInstr,
        index: usize,
        facts: Option<&MemoryFacts>,
        exec: u64,
    ) -> Result<StaticOp, SimError> {
        let mut op = self.compile_source(s, index, facts)?;
        let rule = self.arch.class(op.class).and_then(|c| c.cost.as_deref());
        if rule == Some("vmem_rate") {
            op.cost = self.vmem_cost(&s.inst, facts, &mut op, exec)?;
            op.cost_basis = format!(
                "{}; {} of {} lanes active",
                op.cost_basis,
                exec.count_ones(),
                self.wave_size
            );
        }
        Ok(op)
    }

    fn compile(
        &self,
        inst: &Instruction,
        source: OpSource,
        facts: Option<&MemoryFacts>,
    ) -> Result<StaticOp, SimError> {
        let class = inst.class();
        let mut op = StaticOp {
            latency_override: facts.and_then(|f| f.latency),
            alloc_vgprs: (class == InstrClass::SaluAllocVgpr).then(|| {
                inst.operands
                    .first()
                    .and_then(|o| match o {
                        shadersim_isa::Operand::Imm(v) => u32::try_from(*v).ok(),
                        _ => None,
                    })
                    .unwrap_or(u32::MAX)
            }),
            ..StaticOp::blank(source, class)
        };
        if class == InstrClass::WaitDelayAlu {
            op.flags |= op_flags::DELAY_ALU;
        }
        if op.alloc_vgprs.is_some() {
            op.flags |= op_flags::ALLOC_VGPR;
        }
        let Some(spec) = self.arch.class(class) else {
            op.kind = OpKind::NoPath;
            op.cost_basis = format!(
                "class `{class}` has no unit in architecture `{}`",
                self.arch.name
            );
            return Ok(op);
        };
        if spec.issue == "free" {
            op.kind = match class {
                InstrClass::Endpgm => OpKind::End,
                InstrClass::Barrier => OpKind::Barrier,
                InstrClass::Sleep => OpKind::Sleep,
                c if c.is_wait() => OpKind::Wait,
                _ => OpKind::Nop,
            };
            if op.kind == OpKind::Wait {
                let spec = if class == InstrClass::WaitIdle {
                    Some(shadersim_isa::WaitSpec::all_zero(self.gen))
                } else {
                    inst.wait(self.gen).map_err(SimError::Model)?
                };
                match spec {
                    Some(w) => {
                        for (c, v) in w.waits {
                            op.wait[c.index()] = v.min(254) as u8;
                        }
                    }
                    // s_waitcnt_depctr / s_wait_alu wait on the wave's own
                    // outstanding ALU writes; s_delay_alu is a scheduling
                    // hint (the scoreboard already interlocks).
                    None => match inst.depctr() {
                        Some(d) if d.is_wait() => {
                            op.kind = OpKind::DepWait;
                            op.depctr = d;
                        }
                        _ => op.kind = OpKind::Nop,
                    },
                }
            }
            if op.kind == OpKind::Sleep {
                let n = inst.operand_text.trim().parse::<u32>().unwrap_or(0);
                op.cost =
                    n.saturating_mul(self.arch.get_u32("sleep_clocks_per_unit").map_err(model)?);
                op.cost_basis = format!("s_sleep {n}: {} clocks", op.cost);
            }
            if op.kind == OpKind::End {
                op.wait = [0; 10];
            }
            return Ok(op);
        }
        op.category = self
            .categories
            .iter()
            .position(|c| *c == spec.issue)
            .ok_or_else(|| SimError::Model(format!("unknown issue category `{}`", spec.issue)))?
            as u8;
        let unit = spec.unit.as_deref().unwrap_or("");
        op.unit = self
            .units
            .iter()
            .position(|u| u == unit)
            .ok_or_else(|| SimError::Model(format!("unknown unit `{unit}`")))?
            as u8;
        for c in shadersim_isa::waitcnt::counters_incremented(class, self.gen, inst.returns_data())
        {
            op.inc.insert(*c);
        }
        // Counters that fall when the op's data has been read from the
        // VGPRs, not when it completes (the ISA's per-generation rule).
        for c in shadersim_isa::waitcnt::counters_falling_at_data_read(class, self.gen) {
            if op.inc.contains(*c) {
                op.dec_at_service.insert(*c);
            }
        }
        let cost_name = spec.cost.as_deref().unwrap_or("");
        op.cost = match cost_name {
            "vmem_rate" => self.vmem_cost(inst, facts, &mut op, full_mask(self.wave_size))?,
            "smem_dwords" => {
                let per = self
                    .arch
                    .get_u32("smem_dwords_per_clock")
                    .map_err(model)?
                    .max(1);
                let d = inst.data_dwords().unwrap_or(0);
                let c = d.div_ceil(per).max(1);
                op.cost_basis = format!("{d} DWORDs at {per} per clock");
                op.stream = Some(self.scalar_stream(d, facts)?);
                c
            }
            "export_bits" => {
                let bits = inst.export_bits().unwrap_or(0);
                let (param, what) = if bits > 64 {
                    ("export_clocks_128bit", "128-bit")
                } else {
                    ("export_clocks_64bit", "64-bit or smaller")
                };
                // The rates are per 64 pixels; a wave32 export takes half.
                let base = (self.arch.get_u32(param).map_err(model)? * self.wave_size)
                    .div_ceil(64)
                    .max(1);
                let cus = self.arch.get_u32("cu_count").map_err(model)?.max(1);
                op.cost_basis =
                    format!("{what} export: {base} clocks x {cus} CUs sharing the export path");
                base * cus
            }
            "ray_node" => self.ray_node_cost(inst, facts, &mut op)?,
            "lds_bytes" => {
                let per = self
                    .arch
                    .get_u32("lds_bytes_per_clock")
                    .map_err(model)?
                    .max(1);
                let bytes = self.wave_size * 4 * inst.data_dwords().unwrap_or(1).max(1);
                op.cost_basis = format!(
                    "{} lanes x {} bytes at {per} bytes per clock",
                    self.wave_size,
                    bytes / self.wave_size
                );
                bytes.div_ceil(per).max(1)
            }
            "fetch_dwords" => {
                // TeraScale fetch: the clocks a wavefront's fetch holds its
                // SIMD's texture path grow with the DWORDs each lane reads
                // (vliw5-model.md 4.4, terascale.md Fetch).
                let per = self.arch.get_u32("fetch_clocks_per_dword").map_err(model)?;
                let d = inst.data_dwords().unwrap_or(1).max(1);
                op.cost_basis = format!("{d} DWORDs per lane at {per} clocks each");
                (d * per).max(1)
            }
            "" => 0,
            p => {
                let c = self.arch.get_u32(p).map_err(model)?;
                op.cost_basis = format!("{p} = {c}");
                c
            }
        };
        if matches!(
            class,
            InstrClass::Lds | InstrClass::LdsBvhStack | InstrClass::LdsParam
        ) {
            self.lds_conflicts(inst, facts, &mut op)?;
        }
        // A wave64 VALU op runs as several passes of the SIMD's lanes,
        // except the ops a model runs in one pass.
        let mut passes = 1;
        if class.is_valu() && self.wave_size > 32 {
            if let Some(p) = self.arch.param("wave64_valu_passes") {
                let single = self.arch.param("wave64_single_pass").unwrap_or(0.0) != 0.0
                    && inst.wave64_single_pass();
                if !single {
                    passes = (p.round() as u32).max(1);
                }
            }
        }
        if passes > 1 {
            op.cost_basis = format!("{}; wave64 in {passes} passes", op.cost_basis);
        }
        let per_pass = op.cost;
        op.cost = per_pass * passes;
        if let Some(also) = &spec.also {
            op.also_unit = self
                .units
                .iter()
                .position(|u| u == also)
                .ok_or_else(|| SimError::Model(format!("unknown unit `{also}`")))?
                as u8;
            let name = spec.also_cost.as_deref().unwrap_or("");
            op.also_cost = self.arch.get_u32(name).map_err(model)? * passes;
            op.cost_basis = format!("{}; {also} unit {} clocks", op.cost_basis, op.also_cost);
        }
        // The registers the op reads and writes, once for every use below.
        let (reads, writes) = (inst.reads(), inst.writes());
        if self.scoreboard {
            op.reads = reads.iter().filter_map(slot_range).collect();
            if let Some(lat) = &spec.latency {
                let latency = self.arch.get_u32(lat).map_err(model)?;
                // Results of the last pass: it starts (passes - 1) passes in.
                op.result_delay = per_pass * (passes - 1) + latency;
                op.writes = writes.iter().filter_map(slot_range).collect();
            }
        }
        let vcc = |r: &RegRange| {
            r.file == RegFile::Special && r.first <= shadersim_isa::SpecialReg::VccHi as u16
        };
        if class.is_valu() {
            if writes.iter().any(|r| r.file == RegFile::Vgpr) {
                op.flags |= op_flags::VALU_VGPR_WRITE;
            }
            if writes.iter().any(|r| r.file == RegFile::Sgpr || vcc(r)) {
                op.flags |= op_flags::VALU_SGPR_WRITE;
            }
            if writes.iter().any(vcc) {
                op.flags |= op_flags::VALU_VCC_WRITE;
            }
        }
        if matches!(class, InstrClass::Salu | InstrClass::SaluAllocVgpr)
            && writes.iter().any(|r| r.file == RegFile::Sgpr || vcc(r))
        {
            op.flags |= op_flags::SALU_SGPR_WRITE;
        }
        if class.is_vmem() && reads.iter().any(|r| r.file == RegFile::Vgpr) {
            op.flags |= op_flags::VMEM_VGPR_READ;
        }
        let cat_bit = 1u16 << op.category;
        if self.wait_vgpr_cats & cat_bit != 0 {
            op.flags |= op_flags::WAIT_VALU_VGPR;
        }
        if self.wait_sgpr_cats & cat_bit != 0
            && reads
                .iter()
                .chain(&writes)
                .any(|r| r.file == RegFile::Sgpr || vcc(r))
        {
            op.flags |= op_flags::WAIT_VALU_SGPR;
        }
        Ok(op)
    }

    /// Ray Accelerator clocks of one BVH intersection per wave: each lane
    /// tests one node (rdna-model.md 7): a 4-wide node is 4 box tests or 1
    /// triangle test, a BVH8 node (and a dual-BVH pair of 4-wide nodes) 8
    /// box tests or 2 triangle tests; the rates come from the model's Ray
    /// Accelerator (crates/rt/data/ray_accelerator.toml).
    fn ray_node_cost(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
    ) -> Result<u32, SimError> {
        let key = self.arch.ray_accelerator.as_deref().ok_or_else(|| {
            SimError::Model(format!(
                "`{}` has no ray accelerator for `{}`",
                self.arch.name,
                inst.base_mnemonic()
            ))
        })?;
        let rates = shadersim_rt::cost::ra_table()
            .arch
            .get(key)
            .ok_or_else(|| {
                SimError::Model(format!("no ray accelerator `{key}` in the rates table"))
            })?;
        // The nodes the op tests are the ISA table's fact (memory_facts.tsv):
        // a node of width w is w box tests or w / 4 triangle tests.
        let shape = match inst.info.memory.map(|m| m.kind) {
            Some(VmemKind::Bvh(shape)) => shape,
            _ => {
                return Err(SimError::Model(format!(
                    "`{}` is charged as a ray intersection but the ISA table gives it no BVH node",
                    inst.base_mnemonic()
                )))
            }
        };
        let nodes = u32::from(shape.count);
        let box_tests = f64::from(shape.count) * f64::from(shape.width);
        let tri_tests = box_tests / 4.0;
        let what = match shape.count {
            1 => format!("BVH{} node", shape.width),
            2 => format!("two BVH{} nodes", shape.width),
            n => format!("{n} BVH{} nodes", shape.width),
        };
        let f = match facts.and_then(|f| f.box_fraction) {
            Some(f) => f,
            None => self.arch.get_f64("bvh_box_fraction").map_err(model)?,
        };
        let per_lane = f * box_tests / rates.box_tests_per_clock.max(f64::MIN_POSITIVE)
            + (1.0 - f) * tri_tests / rates.triangle_tests_per_clock.max(f64::MIN_POSITIVE);
        // Lanes whose rays are done are masked off and cost nothing.
        let active = facts.and_then(|f| f.active_lanes).unwrap_or(1.0);
        let lanes = f64::from(self.wave_size) * active;
        let clocks = (per_lane * lanes).ceil().max(1.0) as u32;
        let node_bytes = self.arch.get_u32("bvh_node_bytes").map_err(model)?;
        let line = self.rates.get(shadersim_mem::Rate::L2LineBytes).max(1);
        op.l2_requests = (self.wave_size * nodes * node_bytes).div_ceil(line);
        op.cost_basis = format!(
            "{what} per lane, {:.0}% box nodes: {per_lane:.2} ray accelerator clocks per lane ({} box / {} triangle tests per clock) x {lanes:.1} active lanes",
            100.0 * f,
            rates.box_tests_per_clock,
            rates.triangle_tests_per_clock,
        );
        Ok(clocks)
    }

    fn vmem_cost(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
        exec: u64,
    ) -> Result<u32, SimError> {
        let base = inst.base_mnemonic();
        // The table's memory facts, never the spelling (a mnemonic the
        // table does not list has none).
        let access = MemAccess::from_info(&inst.info);
        let mut access = match access {
            Ok(a) => a,
            Err(_) => {
                // Ops the coalescing model does not describe (BVH
                // intersections, resource queries, block moves, mnemonics
                // the table does not list): an unfiltered image op.
                let c = (self.rates.get(shadersim_mem::Rate::ImageLoadStoreClocks)
                    * self.wave_size)
                    .div_ceil(64)
                    .max(1);
                op.cost_basis = format!("`{base}`: not in the coalescing model; charged as an unfiltered image op ({c} clocks)");
                return Ok(c);
            }
        };
        // Image ops: the format from the hint (default rgba8), the filter from the hint or by
        // stage and instruction (`default_filter`).
        let mut chosen_filter = None;
        if let MemAccess::Image(img) = &mut access {
            let default = ImageAccess::new(img.op);
            img.format = facts.and_then(|f| f.format).unwrap_or(default.format);
            let (filter, reason) = self.default_filter(inst, img.op);
            img.filter = match facts.and_then(|f| f.filter) {
                Some(f) if matches!(img.op, ImageOp::Sample { .. }) => f,
                _ => {
                    chosen_filter = Some(reason);
                    filter
                }
            };
        }
        let pattern = facts.and_then(|f| f.pattern.clone()).unwrap_or_default();
        let order = if self.stage == Stage::Pixel {
            LaneOrder::PixelQuads
        } else {
            LaneOrder::Compute
        };
        // `exec`: every lane of the wave unless lanes diverge (seed
        // assumption 2 lifted); a wave32 op is the first 32 lanes of the
        // wave64 rules.
        let result = coalesce_pattern(&access, &pattern, 0, order, exec, self.rates)
            .map_err(|e| SimError::Model(format!("lane pattern: {e}")))?;
        op.l2_requests = result.l2_requests;
        op.stream = Some(self.vector_stream(&result, facts));
        if !matches!(access, MemAccess::Image(_)) {
            op.pattern = Some(pattern.to_string());
        }
        let what = match &access {
            MemAccess::Image(img) => match img.op {
                ImageOp::Sample { .. } | ImageOp::Gather4 => {
                    format!("{} {}", img.format, img.filter)
                }
                _ => img.format.to_string(),
            },
            MemAccess::Buffer(_) => format!("pattern {pattern}"),
        };
        op.cost_basis = format!("{what}: {}", result.rule);
        if let MemAccess::Image(img) = &access {
            let lod = explicit_lod(inst);
            self.image_footprint(img, lod, facts, chosen_filter, exec, &result, op);
        }
        Ok(result.clocks.max(1))
    }
}

impl OpContext<'_> {
    /// The filter an image op reads with when no hint names one, and why, chosen by stage and
    /// instruction from the table's memory facts (never the spelling): loads, stores and
    /// atomics read one texel per lane; gather4 the 2x2 texels of a bilinear footprint; a
    /// sample naming its LOD (`_l`, `_lz`) one mip level (bilinear); a sample with gradients
    /// blends two mips (trilinear), as does a pixel shader's sample with implicit derivatives;
    /// a sample without LOD or gradients outside pixel shaders has no quad derivatives to
    /// choose a blend by (APIs define implicit LOD in fragment shaders only): bilinear.
    fn default_filter(&self, inst: &Instruction, op: ImageOp) -> (TextureFilter, String) {
        let explicit_lod = explicit_lod(inst);
        let (filter, reason) = match op {
            ImageOp::Load | ImageOp::Store | ImageOp::Atomic => (
                TextureFilter::Point,
                "image loads, stores and atomics have no sampler: one texel per lane",
            ),
            ImageOp::Gather4 => (
                TextureFilter::Bilinear,
                "gather4 reads the 2x2 texels of a bilinear footprint from one mip",
            ),
            ImageOp::Sample { gradients: true } => (
                TextureFilter::Trilinear,
                "a sample with user gradients: they pick a blend of two mips",
            ),
            ImageOp::Sample { .. } if explicit_lod => (
                TextureFilter::Bilinear,
                "a sample at an explicit LOD (_l/_lz) reads one mip level",
            ),
            ImageOp::Sample { .. } if self.stage == Stage::Pixel => (
                TextureFilter::Trilinear,
                "a pixel-shader sample with implicit derivatives blends two mips",
            ),
            ImageOp::Sample { .. } => (
                TextureFilter::Bilinear,
                "a sample outside pixel shaders has no quad derivatives to blend mips by",
            ),
        };
        (filter, reason.to_string())
    }

    /// Image ops (whose lanes' addresses no hint can give): the stream reads the texels of a
    /// tile per wave ([`ImageFootprint`]), walked over the screen unless a stride hint moves
    /// the first wave's tile instead; the op's L2 requests are those lines. Records what was
    /// taken by default.
    #[allow(clippy::too_many_arguments)]
    fn image_footprint(
        &self,
        img: &ImageAccess,
        explicit_lod: bool,
        facts: Option<&MemoryFacts>,
        filter_reason: Option<String>,
        exec: u64,
        result: &shadersim_mem::CoalesceResult,
        op: &mut StaticOp,
    ) {
        // A stride hint moves the first wave's tile by the strides instead of walking.
        let walked =
            !facts.is_some_and(|f| f.wave_stride.is_some() || f.iteration_stride.is_some());
        let footprint = ImageFootprint {
            walk: self.walk,
            filter: match img.op {
                ImageOp::Sample { .. } => img.filter,
                ImageOp::Gather4 => TextureFilter::Bilinear,
                _ => TextureFilter::Point,
            },
            format: img.format,
            line_bytes: result.l2_line_bytes,
            exec,
        };
        let (w, h) = self.walk.wave_tile();
        // Tiles differ in how they fall on lines (a BC1 line is 16x8 texels, two tiles wide):
        // the mean over the first 64 waves' tiles, an 8x8 square of the walk.
        const SAMPLE_WAVES: u64 = 64;
        let mean_lines = |f: &ImageFootprint| {
            let sum: usize = (0..SAMPLE_WAVES)
                .map(|w| f.lines(w, 0, SAMPLE_WAVES).len())
                .sum();
            (sum as f64 / SAMPLE_WAVES as f64).round() as u32
        };
        let full = mean_lines(&ImageFootprint {
            exec: u64::MAX,
            ..footprint
        });
        let op_words = match img.op {
            ImageOp::Sample { gradients: false } if explicit_lod => {
                "sample at an explicit LOD".to_string()
            }
            other => other.to_string(),
        };
        op.image_default = Some(shadersim_trace::ImageDefault {
            line: 0,
            op: op_words,
            layout: Some(if self.stage == Stage::Pixel {
                "screen-space".to_string()
            } else {
                "2d".to_string()
            }),
            walked,
            tile: Some([w, h]),
            tile_basis: match (self.walk.order, self.walk.declared) {
                (LaneOrder::PixelQuads, _) => format!("2x2 quads in an {w}x{h} tile"),
                (_, true) => format!(
                    "rows of the declared {}x{} workgroup",
                    self.walk.group_width, self.walk.group_height
                ),
                (_, false) => format!("no declared workgroup size: an {w}x{h} tile"),
            },
            texels_per_pixel: footprint.probes() as u32,
            requests: full,
            format: img.format.to_string(),
            filter: footprint.filter.to_string(),
            filter_reason,
        });
        let lines = footprint.lines(0, 0, 1);
        let line = u64::from(result.l2_line_bytes.max(1));
        op.l2_requests = mean_lines(&footprint);
        if let Some(stream) = op.stream.as_mut() {
            // With a stride hint the first wave's lines move by the strides; the volume of
            // data, not the span of its addresses, is the footprint then.
            stream.footprint = lines.len() as u64 * line;
            stream.requests = lines;
            stream.walk = Some(footprint);
        }
        op.cost_basis = format!(
            "{}; reads {} lines of its {} tile (mean over 64 tiles)",
            op.cost_basis,
            op.l2_requests,
            if self.stage == Stage::Pixel {
                "screen-space"
            } else {
                "2D"
            }
        );
    }

    /// How a `[[memory]]` hint's cache keys serve an op.
    fn stream_serve(facts: Option<&MemoryFacts>) -> crate::memstream::StreamServe {
        use crate::memstream::StreamServe;
        match facts {
            Some(f) if f.hit_rate.is_some() => StreamServe::HitRate(f.hit_rate.unwrap_or(0.0)),
            Some(f) if f.level.is_some() => {
                StreamServe::Level(f.level.as_ref().map(|l| l.0.clone()).unwrap_or_default())
            }
            _ => StreamServe::Simulate,
        }
    }

    /// The stream of a vector memory op: the coalescer's lines of one execution.
    fn vector_stream(
        &self,
        result: &shadersim_mem::CoalesceResult,
        facts: Option<&MemoryFacts>,
    ) -> crate::memstream::StreamSpec {
        let first = result.lines.first().copied().unwrap_or(0);
        let last = result.lines.last().copied().unwrap_or(0);
        let line = u64::from(result.l2_line_bytes.max(1));
        crate::memstream::StreamSpec {
            path: crate::memstream::CachePath::Vector,
            base: 0,
            requests: result.lines.clone(),
            request_bytes: result.l2_line_bytes,
            footprint: if result.lines.is_empty() {
                0
            } else {
                last - first + line
            },
            wave_stride: facts.and_then(|f| f.wave_stride),
            iteration_stride: facts.and_then(|f| f.iteration_stride),
            region: facts.and_then(|f| f.region),
            random_order_seed: facts.and_then(|f| f.random_order_seed),
            serve: Self::stream_serve(facts),
            walk: None,
        }
    }

    /// The stream of a scalar load of `dwords` DWORDs: its lines from the base (default: every
    /// wave and iteration reads the same constants).
    fn scalar_stream(
        &self,
        dwords: u32,
        facts: Option<&MemoryFacts>,
    ) -> Result<crate::memstream::StreamSpec, SimError> {
        let line = self
            .arch
            .cache
            .as_ref()
            .and_then(|c| {
                let first = c.scalar.first()?;
                let level = c.level.iter().find(|l| &l.name == first)?;
                self.arch.param(&level.line)
            })
            .map_or(64, |v| (v.round() as u64).max(1));
        let bytes = u64::from(dwords.max(1)) * 4;
        let requests: Vec<u64> = (0..bytes.div_ceil(line)).map(|i| i * line).collect();
        Ok(crate::memstream::StreamSpec {
            path: crate::memstream::CachePath::Scalar,
            base: 0,
            footprint: bytes,
            requests,
            request_bytes: line as u32,
            wave_stride: facts.and_then(|f| f.wave_stride),
            iteration_stride: facts.and_then(|f| f.iteration_stride),
            region: facts.and_then(|f| f.region),
            random_order_seed: facts.and_then(|f| f.random_order_seed),
            serve: Self::stream_serve(facts),
            walk: None,
        })
    }

    /// Multiply an LDS op's conflict-free cost by the bank-conflict degree of its lane
    /// addresses (`[[memory]] pattern`, default linear), on models with an LDS bank layout.
    fn lds_conflicts(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
    ) -> Result<(), SimError> {
        let (Some(banks), Some(bank_bytes), Some(group)) = (
            self.arch.param("lds_banks"),
            self.arch.param("lds_bank_bytes"),
            self.arch.param("lds_conflict_lanes"),
        ) else {
            return Ok(());
        };
        let layout = shadersim_mem::BankLayout {
            banks: banks.round() as u32,
            bank_bytes: bank_bytes.round() as u32,
            group_lanes: group.round() as u32,
        };
        let bytes = 4 * inst.data_dwords().unwrap_or(1).max(1);
        let pattern = facts.and_then(|f| f.pattern.clone()).unwrap_or_default();
        let order = if self.stage == Stage::Pixel {
            LaneOrder::PixelQuads
        } else {
            LaneOrder::Compute
        };
        let addresses = pattern
            .addresses(0, bytes, order)
            .map_err(|e| SimError::Model(format!("lane pattern: {e}")))?;
        let lanes = &addresses[..self.wave_size as usize];
        let c = layout.conflicts(lanes, bytes);
        let base = op.cost;
        op.cost = ((f64::from(base) * c.mean_degree).ceil() as u32).max(1);
        op.lds_conflict = Some(c.mean_degree);
        if facts.and_then(|f| f.pattern.as_ref()).is_some() || c.max_degree > 1 {
            op.pattern = Some(pattern.to_string());
        }
        op.cost_basis = format!(
            "{}; pattern {pattern}: {}-way bank conflicts ({} banks of {} bytes, {} lanes checked together) = {} clocks",
            op.cost_basis,
            fmt_degree(c.mean_degree),
            layout.banks,
            layout.bank_bytes,
            c.group_lanes,
            op.cost
        );
        Ok(())
    }
}

/// Whether an image sample names its level of detail (`_l`, `_lz`), from the table's memory
/// facts.
fn explicit_lod(inst: &Instruction) -> bool {
    matches!(
        inst.info.memory.map(|m| m.kind),
        Some(shadersim_isa::VmemKind::Sample {
            explicit_lod: true,
            ..
        })
    )
}

fn fmt_degree(d: f64) -> String {
    if (d - d.round()).abs() < 1e-9 {
        format!("{}", d.round() as u64)
    } else {
        format!("{d:.2}")
    }
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
#[derive(Debug, Clone)]
pub struct OpCursor<'w> {
    steps: TraceCursor<'w>,
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
            prefix: 0,
            last_op: u32::MAX,
            finished: false,
        }
    }

    /// The next op; `None` after the end of program.
    #[inline]
    pub fn next_op(&mut self, sim: &SimProgram) -> Option<u32> {
        if let Some(&o) = sim.fetch_prefix.get(self.prefix as usize) {
            self.prefix += 1;
            return Some(o);
        }
        if self.finished {
            return None;
        }
        match self.steps.next_step() {
            Some(Ok(step)) => {
                self.last_op = sim.op_of_step(step);
                Some(self.last_op)
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
