//! The compile of one instruction into a `StaticOp`: issue category, unit,
//! cost rule dispatch, counters, register slots and wait flags (the cost
//! rules themselves are in `cost`).

use super::*;

impl OpContext<'_> {
    /// The `matrix_cycles` rule: the clocks one wave's matrix instruction takes on the model's
    /// processor (the ISA crate's matrix table, from AMD's matrix instruction calculator). Also
    /// records the instruction's operations and, once, says where the clocks come from.
    fn matrix_cycles(&self, inst: &Instruction, op: &mut StaticOp) -> Result<u32, SimError> {
        let mnemonic = inst.base_mnemonic();
        let processor = &self.arch.isa.name;
        let shape = shadersim_isa::matrix_shape(processor, mnemonic).ok_or_else(|| {
            SimError::Model(format!(
                "no matrix data for `{mnemonic}` on {processor} (the matrix table, crates/isa/data/matrix_shapes.tsv, has no row of this processor for it or its shape)"
            ))
        })?;
        if op.matrix_flops == 0 {
            op.matrix_flops = shape.flops;
            let basis = format!(
                "{} {}x{}x{}{} {}: {} cycles, {} operations (matrix table, {})",
                shape.arch,
                shape.m,
                shape.n,
                shape.k,
                if shape.blocks > 1 {
                    format!(" x {} blocks", shape.blocks)
                } else {
                    String::new()
                },
                shape.in_type,
                shape.cycles,
                shape.flops,
                shape.mnemonic
            );
            op.cost_basis = if op.cost_basis.is_empty() {
                basis
            } else {
                format!("{}; {basis}", op.cost_basis)
            };
        }
        Ok(shape.cycles)
    }

    /// The `matrix_issue` rule (after `matrix_cycles` found the row): the clocks the matrix
    /// instruction holds its SIMD's VALU issue.
    fn matrix_issue_clocks(&self, inst: &Instruction) -> u32 {
        shadersim_isa::matrix_shape(&self.arch.isa.name, inst.base_mnemonic())
            .map_or(0, |s| s.issue_clocks())
    }

    pub(super) fn compile_source(
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
    pub(super) fn compile_masked(
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

    pub(super) fn compile(
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
            self.free_op(inst, class, &mut op)?;
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
        op.cost = self.unit_cost(inst, facts, spec, unit, &mut op)?;
        if let Some(stream) = op.stream.as_mut() {
            let carries = |f: &str| inst.has_modifier(f);
            let policies =
                crate::cache_paths::no_allocate_policies(self.arch, stream.path, carries);
            stream.no_allocate = policies.iter().fold(0, |bits, (d, _)| bits | 1 << d);
            op.not_allocated_in = (policies.iter())
                .map(|(_, p)| (p.level.clone(), p.flag.clone()))
                .collect();
        }
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
            op.also_cost = if name == shadersim_arch::MATRIX_CYCLES_RULE {
                self.matrix_cycles(inst, &mut op)?
            } else {
                self.arch.get_u32(name).map_err(model)?
            } * passes;
            op.cost_basis = format!("{}; {also} unit {} clocks", op.cost_basis, op.also_cost);
        }
        if spec.also_cost.as_deref() == Some(shadersim_arch::MATRIX_CYCLES_RULE) {
            op.matrix_busy = op.also_cost;
        } else if spec.cost.as_deref() == Some(shadersim_arch::MATRIX_CYCLES_RULE) {
            op.matrix_busy = op.cost;
        }
        // The registers the op reads and writes, once for every use below.
        let (reads, writes) = (inst.reads(), inst.writes());
        if self.scoreboard {
            op.reads = reads.iter().filter_map(slot_range).collect();
            if let Some(lat) = &spec.latency {
                let latency = if lat == shadersim_arch::MATRIX_CYCLES_RULE {
                    self.matrix_cycles(inst, &mut op)?
                } else {
                    self.arch.get_u32(lat).map_err(model)?
                };
                // Results of the last pass: it starts (passes - 1) passes in.
                op.result_delay = per_pass * (passes - 1) + latency;
                op.writes = writes.iter().filter_map(slot_range).collect();
            }
        }
        self.set_hazard_flags(class, &reads, &writes, &mut op);
        Ok(op)
    }

    /// An op that takes no issue slot (end, barrier, sleep, waits, no-ops): its kind, the
    /// counts it waits for, a sleep's clocks.
    fn free_op(
        &self,
        inst: &Instruction,
        class: InstrClass,
        op: &mut StaticOp,
    ) -> Result<(), SimError> {
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
            op.cost = n.saturating_mul(self.arch.get_u32("sleep_clocks_per_unit").map_err(model)?);
            op.cost_basis = format!("s_sleep {n}: {} clocks", op.cost);
        }
        if op.kind == OpKind::End {
            op.wait = [0; 10];
        }
        Ok(())
    }

    /// The clocks the op holds its unit, by the class's cost rule.
    fn unit_cost(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        spec: &shadersim_arch::ClassSpec,
        unit: &str,
        op: &mut StaticOp,
    ) -> Result<u32, SimError> {
        let cost_name = spec.cost.as_deref().unwrap_or("");
        Ok(match cost_name {
            "vmem_rate" => self.vmem_cost(inst, facts, op, full_mask(self.wave_size))?,
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
            "ray_node" => self.ray_node_cost(inst, facts, op)?,
            shadersim_arch::MATRIX_CYCLES_RULE => {
                let c = self.matrix_cycles(inst, op)?;
                op.cost_basis = format!("{} on the {}", op.cost_basis, unit);
                c
            }
            shadersim_arch::MATRIX_ISSUE_RULE => {
                self.matrix_cycles(inst, op)?;
                let issue = self.matrix_issue_clocks(inst);
                op.cost_basis = format!("{}; the {unit} issue {issue} clocks", op.cost_basis);
                issue
            }
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
        })
    }

    /// The flags the hazard rules read: which registers a VALU or SALU op writes, whether a
    /// VMEM op reads VGPRs, and the waits its issue category implies.
    fn set_hazard_flags(
        &self,
        class: InstrClass,
        reads: &[RegRange],
        writes: &[RegRange],
        op: &mut StaticOp,
    ) {
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
                .chain(writes)
                .any(|r| r.file == RegFile::Sgpr || vcc(r))
        {
            op.flags |= op_flags::WAIT_VALU_SGPR;
        }
    }
}
