//! What follows from a parsed instruction beyond its definitions: the
//! registers it writes and reads, the wait it expresses, its branch target,
//! its memory width, its export target, and its scheduling hints
//! (`s_waitcnt_depctr`, `s_delay_alu`).

use crate::class::{Encoding, InstrClass, MemDirection};
use crate::operand::{parse_int, Modifier, Operand, RegFile, RegRange, SpecialReg};
use crate::table::InstrFlags;
use crate::target::GfxGen;
use crate::waitcnt::{decode_combined_imm, decode_waitcnt_imm, Counter, WaitSpec};

use super::{AluDep, DelayAlu, DepCtr, ExportTarget, Instruction, SCC_KEEPERS, SCC_READERS};

impl Instruction {
    /// Registers this instruction writes (explicit destinations and the
    /// implicit ones: SCC, VCC of e32 compares, EXEC of v_cmpx/saveexec).
    pub fn writes(&self) -> Vec<RegRange> {
        let mut out: Vec<RegRange> = self.operands[..self.defs]
            .iter()
            .flat_map(Operand::regs)
            .collect();
        let name = self.base_mnemonic();
        let class = self.info.class;
        if class.is_valu() && self.info.encoding == Encoding::Vopc && self.defs == 0 {
            if name.starts_with("v_cmpx") {
                out.push(RegRange::special(SpecialReg::ExecLo, 2));
            } else {
                out.push(RegRange::special(SpecialReg::VccLo, 2));
            }
        } else if name.starts_with("v_cmpx") {
            out.push(RegRange::special(SpecialReg::ExecLo, 2));
        }
        if matches!(class, InstrClass::Salu | InstrClass::SaluAllocVgpr) {
            if matches!(self.info.encoding, Encoding::Sopc)
                || name.starts_with("s_cmpk_")
                || name.starts_with("s_bitcmp")
                || (matches!(self.info.encoding, Encoding::Sop1 | Encoding::Sop2)
                    && !SCC_KEEPERS.iter().any(|p| name.starts_with(p)))
            {
                out.push(RegRange::special(SpecialReg::Scc, 1));
            }
            if name.contains("saveexec") || self.info.flags.contains(InstrFlags::WRITES_EXEC) {
                out.push(RegRange::special(SpecialReg::ExecLo, 2));
            }
        }
        if let Some(y) = &self.dual {
            out.extend(y.writes());
        }
        out
    }

    /// For a branch on EXEC (`s_cbranch_execz`, `s_cbranch_execnz`): whether it is taken when
    /// no lane is active (`Some(true)`) or when some lane is (`Some(false)`); `None` for any
    /// other instruction. (The ISA's condition codes, kept here beside `reads`, which names the
    /// same branches' implicit EXEC read.)
    pub fn branch_on_exec_zero(&self) -> Option<bool> {
        match self.base_mnemonic() {
            "s_cbranch_execz" => Some(true),
            "s_cbranch_execnz" => Some(false),
            _ => None,
        }
    }

    /// Registers this instruction reads (explicit sources and implicit
    /// ones: EXEC for vector ops, SCC/VCC/EXEC for conditional branches).
    pub fn reads(&self) -> Vec<RegRange> {
        let mut out: Vec<RegRange> = self.operands[self.defs..]
            .iter()
            .flat_map(Operand::regs)
            .collect();
        let name = self.base_mnemonic();
        let class = self.info.class;
        if class.is_valu()
            || class.is_vmem()
            || matches!(class, InstrClass::Lds | InstrClass::Export)
        {
            out.push(RegRange::special(SpecialReg::ExecLo, 2));
        }
        if class == InstrClass::ValuInterp {
            out.push(RegRange::special(SpecialReg::M0, 1));
        }
        if SCC_READERS.iter().any(|p| name.starts_with(p)) {
            out.push(RegRange::special(SpecialReg::Scc, 1));
        }
        if name.starts_with("s_cbranch_vcc") {
            out.push(RegRange::special(SpecialReg::VccLo, 2));
        }
        if name.starts_with("s_cbranch_exec") || name.contains("saveexec") {
            out.push(RegRange::special(SpecialReg::ExecLo, 2));
        }
        if let Some(y) = &self.dual {
            out.extend(y.reads());
        }
        out
    }

    /// The wait this instruction expresses, if it is a wait on counters
    /// (`s_waitcnt` and relatives, or `s_endpgm`, which waits for all).
    /// Returns an error message when the wait text cannot be read.
    pub fn wait(&self, gen: GfxGen) -> Result<Option<WaitSpec>, String> {
        use InstrClass::*;
        let single = |counter: Counter| -> Result<Option<WaitSpec>, String> {
            let mut spec = WaitSpec::default();
            spec.set(counter, self.last_int()?);
            Ok(Some(spec))
        };
        match self.info.class {
            WaitCnt => self.parse_waitcnt(gen).map(Some),
            WaitVmcnt => single(Counter::Vm),
            WaitExpcnt => single(Counter::Exp),
            WaitLgkmcnt => single(Counter::Lgkm),
            WaitVscnt => single(Counter::Vs),
            WaitLoadcnt => single(Counter::Load),
            WaitStorecnt => single(Counter::Store),
            WaitSamplecnt => single(Counter::Sample),
            WaitBvhcnt => single(Counter::Bvh),
            WaitKmcnt => single(Counter::Km),
            WaitDscnt => single(Counter::Ds),
            WaitLoadcntDscnt => Ok(Some(decode_combined_imm(Counter::Load, self.last_int()?))),
            WaitStorecntDscnt => Ok(Some(decode_combined_imm(Counter::Store, self.last_int()?))),
            Endpgm => Ok(Some(WaitSpec::all_zero(gen))),
            _ => Ok(None),
        }
    }

    /// The last integer in the operand text (`s_waitcnt_vscnt null, 0x0`,
    /// `s_wait_loadcnt 0x3`).
    fn last_int(&self) -> Result<u32, String> {
        let text = self.operand_text.trim();
        let last = text.rsplit([',', ' ']).next().unwrap_or("").trim();
        parse_int(last)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("expected a count after `{}`, found `{text}`", self.mnemonic))
    }

    fn parse_waitcnt(&self, gen: GfxGen) -> Result<WaitSpec, String> {
        let text = self.operand_text.trim();
        if text.is_empty() {
            return Err("`s_waitcnt` needs counter fields or an immediate".into());
        }
        if let Some(imm) = parse_int(text) {
            let imm =
                u32::try_from(imm).map_err(|_| format!("bad s_waitcnt immediate `{text}`"))?;
            return Ok(decode_waitcnt_imm(gen, imm));
        }
        if gen == GfxGen::Gfx12 {
            return Ok(WaitSpec::all_zero(gen));
        }
        let mut spec = WaitSpec::default();
        for word in text.split(|c: char| c == '&' || c == ',' || c.is_whitespace()) {
            let word = word.trim();
            if word.is_empty() {
                continue;
            }
            let (name, value) = word
                .strip_suffix(')')
                .and_then(|w| w.split_once('('))
                .ok_or_else(|| format!("bad s_waitcnt field `{word}`"))?;
            let counter = match name.trim_end_matches("_sat") {
                "vmcnt" => Counter::Vm,
                "expcnt" => Counter::Exp,
                "lgkmcnt" => Counter::Lgkm,
                other => return Err(format!("unknown s_waitcnt counter `{other}`")),
            };
            let v = parse_int(value)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("bad count in `{word}`"))?;
            let max = counter.max_value(gen);
            // `vmcnt_sat(99)` asks for the largest count; a plain field
            // beyond its width is an error (llvm-mc: "too large value").
            if v > max && !name.ends_with("_sat") {
                return Err(format!(
                    "`{word}`: the {gen} {} field is {} bits wide, at most {max}",
                    counter.name(),
                    counter.bits(gen)
                ));
            }
            spec.set(counter, v.min(max));
        }
        Ok(spec)
    }

    /// The branch target operand of a branch (`.LBB0_2`, `BB3`, or an
    /// objdump offset in DWORDs). A SOPP branch's operand is its target
    /// whatever it looks like: a plain name (`foo`, which the operand
    /// parser keeps as text) is a label to resolve, and anything else
    /// (`'`) a target the reader must refuse, not a branch to drop.
    pub fn branch_target(&self) -> Option<&Operand> {
        match self.info.class {
            InstrClass::Branch | InstrClass::BranchCond | InstrClass::Call
                if self.info.encoding == Encoding::Sopp =>
            {
                self.operands
                    .iter()
                    .rev()
                    .find(|o| matches!(o, Operand::Symbol(_) | Operand::Imm(_) | Operand::Text(_)))
            }
            InstrClass::Call if self.mnemonic == "s_call_b64" => self
                .operands
                .iter()
                .rev()
                .find(|o| matches!(o, Operand::Symbol(_) | Operand::Imm(_))),
            _ => None,
        }
    }

    /// DWORDs of data per lane a memory operation moves: from the table for
    /// fixed-width ops, from `dmask` for images (halved for `d16`, 4 for
    /// gathers), otherwise from the data register operand.
    pub fn data_dwords(&self) -> Option<u32> {
        let class = self.info.class;
        if class.mem_direction().is_none()
            && !matches!(class, InstrClass::Smem | InstrClass::Lds | InstrClass::Gds)
        {
            return None;
        }
        if let Some(d) = self.info.data_dwords {
            return Some(u32::from(d));
        }
        if class.is_image() {
            if class == InstrClass::VmemImageGather4 {
                return Some(4);
            }
            if class == InstrClass::VmemImageBvh {
                // Hit data: 4 DWORDs (BVH4) or more; take the destination width.
                return self
                    .operands
                    .first()
                    .and_then(Operand::reg)
                    .map(|r| u32::from(r.count));
            }
            let channels = self
                .modifier("dmask")
                .and_then(Modifier::int_value)
                .map(|m| (m as u32 & 0xf).count_ones())
                .unwrap_or(1)
                .max(1);
            let d16 = self.has_modifier("d16") || self.info.flags.contains(InstrFlags::D16);
            return Some(if d16 { channels.div_ceil(2) } else { channels });
        }
        // Data operand: the destination of loads, the first source of stores.
        let data = match class.mem_direction() {
            Some(MemDirection::Load) => self.operands.first(),
            _ => self.operands.get(self.defs + 1).or(self.operands.first()),
        };
        data.and_then(Operand::reg).map(|r| u32::from(r.count))
    }

    /// Export destination, for exports.
    pub fn export_target(&self) -> Option<ExportTarget> {
        if self.info.class != InstrClass::Export {
            return None;
        }
        let Some(Operand::Text(t)) = self.operands.first() else {
            return None;
        };
        let t = t.to_ascii_lowercase();
        let num = |p: &str| t.strip_prefix(p).and_then(|n| n.parse::<u8>().ok());
        Some(if t == "mrtz" {
            ExportTarget::MrtZ
        } else if t == "null" {
            ExportTarget::Null
        } else if t == "prim" {
            ExportTarget::Prim
        } else if let Some(n) = num("mrt") {
            ExportTarget::Mrt(n)
        } else if let Some(n) = num("pos") {
            ExportTarget::Pos(n)
        } else if let Some(n) = num("param") {
            ExportTarget::Param(n)
        } else if let Some(n) = num("dual_src_blend") {
            ExportTarget::DualSrcBlend(n)
        } else {
            return None;
        })
    }

    /// Bits per lane an export writes: 64 when compressed (`compr`, two
    /// registers of packed halves), else 32 per enabled register.
    pub fn export_bits(&self) -> Option<u32> {
        if self.info.class != InstrClass::Export {
            return None;
        }
        if self.has_modifier("compr") {
            return Some(64);
        }
        // Every source after the target that is not `off` is an exported
        // channel, registers and sources the reader marked undefined
        // (ACO's `v128`, kept as text) alike.
        let channels = self
            .operands
            .iter()
            .skip(1)
            .filter(|o| !matches!(o, Operand::Off))
            .count() as u32;
        Some(32 * channels)
    }

    /// The fields of an `s_waitcnt_depctr` / `s_wait_alu`, if this is one:
    /// an immediate (`0xfff`) or named fields (`depctr_va_vdst(0)
    /// depctr_sa_sdst(0)`, also joined by `&` or `|`). `None` when the text
    /// cannot be read.
    pub fn depctr(&self) -> Option<DepCtr> {
        if self.info.class != InstrClass::WaitDepctr {
            return None;
        }
        let text = self.operand_text.trim();
        if let Some(v) = parse_int(text) {
            return u32::try_from(v).ok().map(|v| DepCtr::from_imm(v & 0xffff));
        }
        let mut d = DepCtr::NONE;
        for field in text
            .split(|c: char| c.is_whitespace() || c == '&' || c == '|' || c == ',')
            .filter(|f| !f.is_empty())
        {
            let (key, value) = field.strip_suffix(')')?.split_once('(')?;
            let v = u8::try_from(parse_int(value.trim())?).ok()?;
            let key = key.trim().strip_prefix("depctr_").unwrap_or(key.trim());
            let (slot, max) = match key {
                "va_vdst" => (&mut d.va_vdst, 15),
                "va_sdst" => (&mut d.va_sdst, 7),
                "va_ssrc" => (&mut d.va_ssrc, 1),
                "hold_cnt" => (&mut d.hold_cnt, 1),
                "vm_vsrc" => (&mut d.vm_vsrc, 7),
                "va_vcc" => (&mut d.va_vcc, 1),
                "sa_sdst" => (&mut d.sa_sdst, 1),
                _ => return None,
            };
            if v > max {
                return None;
            }
            *slot = v;
        }
        Some(d)
    }

    /// Whether a gfx11+ SIMD runs this VALU op for a wave64 in one pass
    /// (the table's `w64_single` flag; DPP forms never are).
    pub fn wave64_single_pass(&self) -> bool {
        let dpp = self.mnemonic.ends_with("_dpp")
            || self.mnemonic.ends_with("_dpp8")
            || self.modifiers.iter().any(|m| {
                matches!(
                    m.key.as_str(),
                    "dpp8"
                        | "quad_perm"
                        | "row_shl"
                        | "row_shr"
                        | "row_ror"
                        | "row_mirror"
                        | "row_half_mirror"
                        | "row_bcast"
                        | "row_share"
                        | "row_xmask"
                        | "wave_shl"
                        | "wave_shr"
                        | "wave_rol"
                        | "wave_ror"
                )
            });
        self.info.flags.contains(InstrFlags::W64_SINGLE) && !dpp
    }

    /// The fields of an `s_delay_alu` (gfx11+), if this is one.
    pub fn delay_alu(&self) -> Option<DelayAlu> {
        if self.info.class != InstrClass::WaitDelayAlu {
            return None;
        }
        let mut d = DelayAlu {
            id0: AluDep::None,
            skip: 0,
            id1: AluDep::None,
        };
        for field in self.operand_text.split('|') {
            let field = field.trim();
            let (key, value) = field.strip_suffix(')')?.split_once('(')?;
            match key.trim() {
                "instid0" => d.id0 = parse_alu_dep(value)?,
                "instid1" => d.id1 = parse_alu_dep(value)?,
                "instskip" => {
                    d.skip = match value {
                        "SAME" => 0,
                        "NEXT" => 1,
                        v => v.strip_prefix("SKIP_")?.parse::<u8>().ok()? + 1,
                    }
                }
                _ => return None,
            }
        }
        Some(d)
    }

    /// Registers of a file this instruction names, for register-usage counts.
    pub fn max_reg(&self, file: RegFile) -> Option<u32> {
        let own = self
            .operands
            .iter()
            .flat_map(Operand::regs)
            .filter(|r| r.file == file)
            .map(|r| r.end())
            .max();
        let dual = self.dual.as_ref().and_then(|y| y.max_reg(file));
        own.max(dual)
    }
}

fn parse_alu_dep(v: &str) -> Option<AluDep> {
    let num = |p: &str| v.strip_prefix(p).and_then(|n| n.parse::<u8>().ok());
    Some(match v {
        "NO_DEP" => AluDep::None,
        "FMA_ACCUM_CYCLE_1" => AluDep::FmaAccumCycle1,
        _ => {
            if let Some(n) = num("VALU_DEP_") {
                AluDep::Valu(n)
            } else if let Some(n) = num("TRANS32_DEP_") {
                AluDep::Trans(n)
            } else if let Some(n) = num("SALU_CYCLE_") {
                AluDep::SaluCycle(n)
            } else {
                return None;
            }
        }
    })
}
