//! The documented view of a prepared run that reports read: the static
//! ops each program instruction was compiled into (in the engine's
//! numbering, which per-op statistics and timeline events use), the units
//! and issue categories by name, and the distinct paths waves run. The
//! compiled tables behind it stay private to the engine, so the cycle
//! loop's layout can change without touching a report.

pub use crate::ops::{OpKind, OpSource};
use crate::ops::{StaticOp, NONE};
use crate::run::Simulation;
use shadersim_isa::InstrClass;

/// One static op as a report sees it.
#[derive(Debug, Clone, Copy)]
pub struct OpView<'a> {
    op: &'a StaticOp,
    sim: &'a Simulation,
}

impl<'a> OpView<'a> {
    /// The instruction (or synthesized step) the op comes from.
    pub fn source(&self) -> OpSource {
        self.op.source
    }

    /// What kind of step it is for the cycle loop.
    pub fn kind(&self) -> OpKind {
        self.op.kind
    }

    /// The execution class it is charged by.
    pub fn class(&self) -> InstrClass {
        self.op.class
    }

    /// Clocks it occupies its unit (meaningful for [`OpKind::Unit`]; the
    /// sleep length for [`OpKind::Sleep`]).
    pub fn cost(&self) -> u32 {
        self.op.cost
    }

    /// Why it costs what it costs (the rule or parameter).
    pub fn cost_basis(&self) -> &'a str {
        &self.op.cost_basis
    }

    /// The cache levels an access policy keeps its lines out of, each with the instruction
    /// modifier that selects it (`("mall", "dlc")`).
    pub fn not_allocated_in(&self) -> &'a [(String, String)] {
        &self.op.not_allocated_in
    }

    /// Requests it sends to the L2 (vector memory ops).
    pub fn l2_requests(&self) -> u32 {
        self.op.l2_requests
    }

    /// The lane address pattern it was costed with, as the report prints it.
    pub fn pattern(&self) -> Option<&'a str> {
        self.op.pattern.as_deref()
    }

    /// For an op compiled under a partial EXEC mask: the op (id) of the
    /// same instruction with every lane on.
    pub fn masked_from(&self) -> Option<usize> {
        self.op.masked_from.map(|p| p as usize)
    }

    /// The LDS bank-conflict degree its addresses give (LDS ops).
    pub fn lds_conflict(&self) -> Option<f64> {
        self.op.lds_conflict
    }

    /// Whether its addresses walk the cache hierarchy.
    pub fn has_address_stream(&self) -> bool {
        self.op.stream.is_some()
    }

    /// Whether it allocates VGPRs in dynamic VGPR mode (`s_alloc_vgpr`).
    pub fn allocates_vgprs(&self) -> bool {
        self.op.alloc_vgprs.is_some()
    }

    /// The unit it issues on, by name ([`OpKind::Unit`] ops).
    pub fn unit(&self) -> Option<&'a str> {
        (self.op.kind == OpKind::Unit)
            .then(|| self.sim.compiled.units.get(usize::from(self.op.unit)))
            .flatten()
            .map(String::as_str)
    }

    /// The second unit it also occupies, and for how many clocks.
    pub fn also_unit(&self) -> Option<(&'a str, u32)> {
        (self.op.also_unit != NONE).then(|| {
            (
                self.sim.compiled.units[usize::from(self.op.also_unit)].as_str(),
                self.op.also_cost,
            )
        })
    }

    /// Its issue category (an index into [`Simulation::category_names`]);
    /// `None` for free ops.
    pub fn category(&self) -> Option<usize> {
        (self.op.category != NONE).then_some(usize::from(self.op.category))
    }

    /// Clocks from its issue until a dependent op may read its result, as
    /// the model's scoreboard charges it (0 when the model charges the
    /// unit's latency instead).
    pub fn result_delay(&self) -> u32 {
        self.op.result_delay
    }
}

impl Simulation {
    /// How many static ops the program was compiled into.
    pub fn op_count(&self) -> usize {
        self.compiled.ops.len()
    }

    /// Static op `id`.
    pub fn op(&self, id: usize) -> OpView<'_> {
        OpView {
            op: &self.compiled.ops[id],
            sim: self,
        }
    }

    /// Every static op, by id.
    pub fn ops(&self) -> impl ExactSizeIterator<Item = OpView<'_>> {
        self.compiled
            .ops
            .iter()
            .map(move |op| OpView { op, sim: self })
    }

    /// The op program instruction `i` was compiled into (with every lane on).
    pub fn op_of_instruction(&self, i: usize) -> usize {
        self.compiled.op_of_instr[i] as usize
    }

    /// Instructions of the synthesized fetch shader (0 without one).
    pub fn fetch_shader_len(&self) -> usize {
        self.compiled.fetch_shader.len()
    }

    /// Text of instruction `i` of the synthesized fetch shader.
    pub fn fetch_shader_text(&self, i: usize) -> &str {
        &self.compiled.fetch_shader[i]
    }

    /// The model's units, in the order of the statistics' per-unit vectors.
    pub fn unit_names(&self) -> &[String] {
        &self.compiled.units
    }

    /// The model's issue categories, in the order of the statistics'
    /// per-category vectors.
    pub fn category_names(&self) -> &[String] {
        &self.compiled.categories
    }

    /// Distinct paths (traces) the waves run.
    pub fn path_count(&self) -> usize {
        self.compiled.trace_waves.len()
    }

    /// Dynamic instructions of path `t`.
    pub fn path_length(&self, t: usize) -> usize {
        self.compiled.trace_len[t] as usize
    }

    /// The path the wave launched `w`-th runs.
    pub fn path_of_wave(&self, w: u32) -> usize {
        self.compiled.trace_of_wave(w)
    }

    /// Whether some wave's path reaches op `id`.
    pub fn path_reaches(&self, id: usize) -> bool {
        self.compiled.in_trace.get(id).copied().unwrap_or(false)
    }
}
