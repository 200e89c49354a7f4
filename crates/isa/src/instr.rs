//! One parsed instruction: mnemonic, table facts, operands, modifiers, and
//! what follows from them (registers read and written, the wait it
//! expresses, its branch target, its memory width).

use crate::class::{Encoding, InstrClass, MemDirection};
use crate::operand::{
    parse_int, parse_modifier, parse_operand, split_operands, Modifier, Operand, RegFile, RegRange,
    SpecialReg,
};
use crate::table::{classify_by_family, strip_encoding_suffix, InstrFlags, InstrInfo, InstrTable};
use crate::target::GfxGen;
use crate::waitcnt::{decode_combined_imm, decode_waitcnt_imm, Counter, WaitSpec};

/// A problem with one instruction's text. `column` is the 0-based byte
/// offset inside the text given to [`Instruction::parse`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InstrError {
    /// 0-based byte offset in the instruction text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// How an instruction's mnemonic was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recognition {
    /// Listed in the instruction table.
    Table,
    /// Not listed; classified by the family rule with this prefix.
    FamilyRule(&'static str),
}

/// One instruction as printed by a compiler or disassembler.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// The mnemonic as printed, lower case (may carry `_e32`/`_e64`).
    pub mnemonic: String,
    /// Table facts (or the family rule's guess).
    pub info: InstrInfo,
    /// How the mnemonic was recognised.
    pub recognition: Recognition,
    /// Operands in printed order.
    pub operands: Vec<Operand>,
    /// Modifiers after the operands (`offen`, `offset:16`, `glc`, ...).
    pub modifiers: Vec<Modifier>,
    /// How many leading operands are destinations.
    pub defs: usize,
    /// The operand text exactly as printed (for waits and messages).
    pub operand_text: String,
    /// The second half of a VOPD dual instruction (`v_dual_a ... :: v_dual_b ...`).
    pub dual: Option<Box<Instruction>>,
    /// Whether the table lists the mnemonic for the generation it was
    /// parsed for (readers warn when it does not).
    pub valid_for_gen: bool,
}

/// Exported data destinations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportTarget {
    /// Colour render target `mrtN`.
    Mrt(u8),
    /// Depth/stencil/mask (`mrtz`).
    MrtZ,
    /// Vertex position `posN`.
    Pos(u8),
    /// Vertex parameter `paramN`.
    Param(u8),
    /// Primitive data (`prim`).
    Prim,
    /// Nothing (`null`), used to end a pixel shader without output.
    Null,
    /// Dual-source blend targets (gfx11+).
    DualSrcBlend(u8),
}

/// Which instruction an `s_delay_alu` field waits on (gfx11+).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AluDep {
    /// No dependency.
    None,
    /// The VALU instruction issued N VALU instructions ago (1..=4).
    Valu(u8),
    /// The transcendental issued N transcendentals ago (1..=3).
    Trans(u8),
    /// FMA accumulation cycle.
    FmaAccumCycle1,
    /// N cycles after a SALU instruction (1..=3).
    SaluCycle(u8),
}

/// The fields of an `s_delay_alu` hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DelayAlu {
    /// Dependency of this instruction's successor.
    pub id0: AluDep,
    /// How many instructions after the first the second dependency applies (0 = none).
    pub skip: u8,
    /// Dependency of the later instruction.
    pub id1: AluDep,
}

/// The fields of an `s_waitcnt_depctr` (gfx10/11) or `s_wait_alu` (gfx12):
/// the largest number of each kind of outstanding operation the wave may
/// still have (rdna-model.md 2.7; all-ones = no wait).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepCtr {
    /// VALU writes of VGPRs in flight (0..15), bits 15:12.
    pub va_vdst: u8,
    /// VALU writes of SGPRs in flight (0..7), bits 11:9.
    pub va_sdst: u8,
    /// VALU reads of SGPRs in flight (0..1), bit 8.
    pub va_ssrc: u8,
    /// Hold count (0..1), bit 7.
    pub hold_cnt: u8,
    /// VMEM reads of VGPR sources not yet done (0..7), bits 4:2.
    pub vm_vsrc: u8,
    /// VALU writes of VCC in flight (0..1), bit 1.
    pub va_vcc: u8,
    /// SALU writes of SGPRs in flight (0..1), bit 0.
    pub sa_sdst: u8,
}

impl DepCtr {
    /// No wait: every field at its maximum.
    pub const NONE: DepCtr = DepCtr {
        va_vdst: 15,
        va_sdst: 7,
        va_ssrc: 1,
        hold_cnt: 1,
        vm_vsrc: 7,
        va_vcc: 1,
        sa_sdst: 1,
    };

    /// Decode the 16-bit immediate.
    pub fn from_imm(imm: u32) -> DepCtr {
        DepCtr {
            va_vdst: ((imm >> 12) & 0xf) as u8,
            va_sdst: ((imm >> 9) & 0x7) as u8,
            va_ssrc: ((imm >> 8) & 0x1) as u8,
            hold_cnt: ((imm >> 7) & 0x1) as u8,
            vm_vsrc: ((imm >> 2) & 0x7) as u8,
            va_vcc: ((imm >> 1) & 0x1) as u8,
            sa_sdst: (imm & 0x1) as u8,
        }
    }

    /// Does it wait for anything?
    pub fn is_wait(&self) -> bool {
        *self != DepCtr::NONE
    }
}

/// Mnemonic prefixes of VALU ops whose second operand is a carry/extra
/// scalar destination (`v_add_co_u32 v0, vcc, v1, v2`). LLVM prints it
/// explicitly; we only need to know it is written, not read.
const CARRY_OUT_PREFIXES: &[&str] = &[
    "v_add_co_",
    "v_sub_co_",
    "v_subrev_co_",
    "v_addc_",
    "v_subb_",
    "v_subbrev_",
    "v_add_i32",
    "v_sub_i32",
    "v_subrev_i32",
    "v_add_u32",
    "v_sub_u32",
    "v_subrev_u32",
    "v_div_scale_",
    "v_mad_u64_u32",
    "v_mad_i64_i32",
    "v_mad_co_u64_u32",
    "v_mad_co_i64_i32",
];

/// Scalar ops that read SCC.
const SCC_READERS: &[&str] = &[
    "s_cselect_",
    "s_cmov_",
    "s_addc_",
    "s_subb_",
    "s_cbranch_scc",
];

/// Scalar ALU ops that do not write SCC (every other SOP1/SOP2 op does, or
/// may; the simulator does not depend on this, reports do).
const SCC_KEEPERS: &[&str] = &[
    "s_mov",
    "s_movk",
    "s_cmov",
    "s_cselect",
    "s_mul_i32",
    "s_mul_hi",
    "s_pack_",
    "s_getpc",
    "s_setpc",
    "s_swappc",
    "s_getreg",
    "s_setreg",
    "s_movrel",
    "s_brev",
    "s_sext",
    "s_bitset",
    "s_bitreplicate",
    "s_alloc_vgpr",
    "s_sendmsg",
    "s_version",
    "s_cvt_",
    "s_ceil",
    "s_floor",
    "s_trunc",
    "s_rndne",
    "s_fmac",
    "s_fmaak",
    "s_fmamk",
    "s_add_f",
    "s_sub_f",
    "s_mul_f",
    "s_min_f",
    "s_max_f",
];

/// DS ops that return data by their name.
const DS_RETURNING_WORDS: &[&str] = &[
    "read", "load", "rtn", "swizzle", "permute", "bpermute", "append", "consume", "ordered",
    "param", "direct",
];

impl Instruction {
    /// Parse one instruction (mnemonic and operands, no label or comment).
    /// Unknown mnemonics are classified by the family rules; one that no
    /// rule claims is an error.
    pub fn parse(text: &str, gen: GfxGen, table: &InstrTable) -> Result<Instruction, InstrError> {
        if let Some(pos) = text.find("::") {
            let mut x = Instruction::parse(&text[..pos], gen, table)?;
            let y_text = &text[pos + 2..];
            let y_offset = pos + 2 + (y_text.len() - y_text.trim_start().len());
            let y =
                Instruction::parse(y_text.trim_start(), gen, table).map_err(|e| InstrError {
                    column: e.column + y_offset,
                    message: e.message,
                })?;
            x.dual = Some(Box::new(y));
            return Ok(x);
        }
        let lead = text.len() - text.trim_start().len();
        let body = text.trim();
        if body.is_empty() {
            return Err(InstrError {
                column: 0,
                message: "empty instruction".into(),
            });
        }
        let (mnemonic_raw, rest) = match body.find(char::is_whitespace) {
            Some(i) => (&body[..i], &body[i..]),
            None => (body, ""),
        };
        let mnemonic = mnemonic_raw.to_ascii_lowercase();
        if !mnemonic
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || !mnemonic.as_bytes()[0].is_ascii_alphabetic()
        {
            return Err(InstrError {
                column: lead,
                message: format!("`{mnemonic_raw}` is not an instruction mnemonic"),
            });
        }
        let (info, recognition) = match table.lookup(&mnemonic) {
            Some(info) => (*info, Recognition::Table),
            None => match classify_by_family(&mnemonic) {
                Some((rule, info)) => (info, Recognition::FamilyRule(rule.prefix)),
                None => {
                    return Err(InstrError {
                        column: lead,
                        message: format!("unknown instruction `{mnemonic_raw}`"),
                    })
                }
            },
        };
        let rest_offset = lead + mnemonic_raw.len();
        let operand_text = rest.trim().to_string();
        let mut inst = Instruction {
            mnemonic,
            info,
            recognition,
            operands: Vec::new(),
            modifiers: Vec::new(),
            defs: 0,
            operand_text,
            dual: None,
            valid_for_gen: info.gens.contains(gen),
        };
        inst.parse_operands(rest, rest_offset)?;
        inst.defs = inst.count_defs();
        Ok(inst)
    }

    fn parse_operands(&mut self, rest: &str, rest_col: usize) -> Result<(), InstrError> {
        let base = rest.as_ptr() as usize;
        // Column of a word (a slice of `rest`) in the instruction text.
        let col_of = |w: &str| rest_col + (w.as_ptr() as usize).saturating_sub(base);
        let col = rest_col + (rest.len() - rest.trim_start().len());
        // Waits, messages and the delay hint keep their own syntax; their
        // text is interpreted on demand, not as a register list.
        if self.info.class.is_wait() && self.info.class != InstrClass::WaitVscnt
            || matches!(
                self.info.class,
                InstrClass::Sendmsg
                    | InstrClass::Hint
                    | InstrClass::Nop
                    | InstrClass::Sleep
                    | InstrClass::Setprio
            ) && !self.mnemonic.starts_with("s_sendmsg_rtn")
        {
            return Ok(());
        }
        let groups = split_operands(rest).map_err(|e| InstrError {
            column: rest_col + unbalanced_at(rest),
            message: e.to_string(),
        })?;
        let n = groups.len();
        for (gi, words) in groups.iter().enumerate() {
            if words.is_empty() {
                return Err(InstrError {
                    column: col,
                    message: "empty operand between commas".into(),
                });
            }
            let mut words = words.as_slice();
            // `exp mrt0 v0, ...`: the target comes before the first register.
            if gi == 0 && self.info.class == InstrClass::Export && words.len() >= 2 {
                self.operands.push(Operand::Text(words[0].to_string()));
                words = &words[1..];
            }
            let word = words[0];
            self.operands
                .push(parse_operand(word).map_err(|e| InstrError {
                    column: col_of(word),
                    message: e.to_string(),
                })?);
            if words.len() > 1 {
                if gi + 1 != n {
                    return Err(InstrError {
                        column: col_of(words[1]),
                        message: format!("unexpected `{}` before a comma", words[1]),
                    });
                }
                for w in &words[1..] {
                    self.modifiers.push(parse_modifier(w));
                }
            }
        }
        Ok(())
    }

    /// The execution class, with DS instructions that carry the `gds`
    /// modifier counted as GDS.
    pub fn class(&self) -> InstrClass {
        if self.info.class == InstrClass::Lds && self.has_modifier("gds") {
            InstrClass::Gds
        } else {
            self.info.class
        }
    }

    /// The mnemonic without `_e32`/`_e64`/`_sdwa`/`_dpp`.
    pub fn base_mnemonic(&self) -> &str {
        strip_encoding_suffix(&self.mnemonic)
    }

    /// The modifier with key `key`, if present.
    pub fn modifier(&self, key: &str) -> Option<&Modifier> {
        self.modifiers.iter().find(|m| m.key == key)
    }

    /// Is the flag modifier `key` present (`glc`, `offen`, `done`, ...)?
    pub fn has_modifier(&self, key: &str) -> bool {
        self.modifier(key).is_some()
    }

    /// Does this memory atomic return the old value?
    pub fn returns_data(&self) -> bool {
        if self.info.flags.contains(InstrFlags::RTN) {
            return true;
        }
        if !self.info.flags.contains(InstrFlags::ATOMIC)
            && self.info.class.mem_direction() != Some(MemDirection::Atomic)
        {
            return matches!(self.info.class.mem_direction(), Some(MemDirection::Load));
        }
        self.has_modifier("glc")
            || self.has_modifier("sc0")
            || self
                .modifier("th")
                .and_then(|m| m.value.as_deref())
                .is_some_and(|v| v.to_ascii_uppercase().contains("RETURN"))
    }

    fn count_defs(&self) -> usize {
        use InstrClass::*;
        let n = self.operands.len();
        if n == 0 {
            return 0;
        }
        let name = self.base_mnemonic();
        let class = self.info.class;
        let d = match class {
            Valu | ValuQuarter | ValuTrans | ValuB64 | ValuF64 | ValuF64Add | ValuF64Conv
            | ValuF64Trans | ValuDual | ValuWmma | ValuInterp => {
                if self.info.encoding == Encoding::Vopc {
                    // e32 on gfx6-9 prints `vcc` explicitly; gfx10+ v_cmpx has no sdst.
                    usize::from(n >= 3)
                } else if CARRY_OUT_PREFIXES.iter().any(|p| name.starts_with(p))
                    && n >= 2
                    && self.operands[1].reg().is_some_and(is_scalar)
                {
                    2
                } else {
                    1
                }
            }
            Salu => {
                let no_dst = matches!(self.info.encoding, Encoding::Sopc | Encoding::Sopp)
                    || name.starts_with("s_cmpk_")
                    || name.starts_with("s_setreg")
                    || name.starts_with("s_set_gpr_idx")
                    || name.starts_with("s_alloc_vgpr")
                    || name.starts_with("s_bitcmp")
                    || name.starts_with("s_setvskip")
                    || name.starts_with("s_movreld")
                    || name.starts_with("s_sleep_var")
                    || name.starts_with("s_barrier");
                usize::from(!no_dst)
            }
            Smem => {
                let no_dst = name.contains("store")
                    || name.contains("dcache")
                    || name.contains("icache")
                    || name.contains("gl1_inv")
                    || name.contains("atc_probe")
                    || name.contains("prefetch")
                    || (name.contains("atomic") && !self.returns_data());
                usize::from(!no_dst)
            }
            Lds | LdsBvhStack | Gds | LdsParam => {
                let returning = name
                    .split('_')
                    .any(|w| DS_RETURNING_WORDS.iter().any(|r| w.starts_with(r)));
                usize::from(returning || class == LdsParam)
            }
            VmemBufferLoad | VmemGlobalLoad | VmemFlatLoad | VmemScratchLoad | VmemImageLoad
            | VmemImageSample | VmemImageGather4 | VmemImageBvh => {
                usize::from(!self.info.flags.contains(InstrFlags::LDS))
            }
            VmemBufferAtomic | VmemGlobalAtomic | VmemFlatAtomic | VmemImageAtomic => {
                usize::from(self.returns_data())
            }
            Sendmsg => usize::from(name.starts_with("s_sendmsg_rtn")),
            _ => 0,
        };
        d.min(n)
    }

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

/// Offset of the first bracket or parenthesis without a partner.
fn unbalanced_at(s: &str) -> usize {
    let mut open: Vec<usize> = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => open.push(i),
            ']' | ')' if open.pop().is_none() => return i,
            _ => {}
        }
    }
    open.first().copied().unwrap_or(0)
}

fn is_scalar(r: RegRange) -> bool {
    matches!(r.file, RegFile::Sgpr | RegFile::Ttmp | RegFile::Special)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, gen: GfxGen) -> Instruction {
        Instruction::parse(text, gen, InstrTable::builtin())
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn v(i: u16) -> RegRange {
        RegRange::single(RegFile::Vgpr, i)
    }

    #[test]
    fn valu_defs_and_uses() {
        let i = parse("v_add_f32_e32 v1, v2, v3", GfxGen::Gfx9);
        assert_eq!(i.info.class, InstrClass::Valu);
        assert_eq!(i.writes(), vec![v(1)]);
        assert!(i.reads().contains(&v(2)) && i.reads().contains(&v(3)));
        assert!(i.reads().iter().any(|r| r.touches(SpecialReg::ExecLo)));
        let i = parse("v_add_co_u32_e32 v0, vcc, s0, v1", GfxGen::Gfx9);
        assert_eq!(i.defs, 2);
        assert!(i.writes().iter().any(|r| r.touches(SpecialReg::VccLo)));
        let i = parse("v_cmp_gt_f32_e32 vcc, 0, v0", GfxGen::Gfx9);
        assert_eq!(i.defs, 1);
        let i = parse("v_cmpx_gt_f32_e32 0, v0", GfxGen::Gfx10);
        assert!(i.writes().iter().any(|r| r.touches(SpecialReg::ExecLo)));
    }

    #[test]
    fn memory_ops() {
        let i = parse(
            "buffer_load_dwordx4 v[0:3], v4, s[8:11], 0 offen offset:16",
            GfxGen::Gfx9,
        );
        assert_eq!(
            i.writes(),
            vec![RegRange {
                file: RegFile::Vgpr,
                first: 0,
                count: 4
            }]
        );
        assert_eq!(i.data_dwords(), Some(4));
        assert_eq!(i.modifier("offset").unwrap().int_value(), Some(16));
        assert!(i.has_modifier("offen"));
        let i = parse("buffer_store_dword v1, v0, s[0:3], 0 offen", GfxGen::Gfx9);
        assert_eq!(i.defs, 0);
        assert_eq!(i.data_dwords(), Some(1));
        let i = parse(
            "image_sample v[0:2], v[4:5], s[8:15], s[0:3] dmask:0x7 dim:SQ_RSRC_IMG_2D",
            GfxGen::Gfx10,
        );
        assert_eq!(i.data_dwords(), Some(3));
        assert_eq!(i.defs, 1);
        let i = parse(
            "image_sample v[0:1], v[4:5], s[8:15], s[0:3] dmask:0xf d16",
            GfxGen::Gfx9,
        );
        assert_eq!(i.data_dwords(), Some(2));
        let i = parse("global_atomic_add v0, v[1:2], v3, off glc", GfxGen::Gfx9);
        assert!(i.returns_data());
        assert_eq!(i.defs, 1);
        let i = parse("global_atomic_add v[1:2], v3, off", GfxGen::Gfx9);
        assert_eq!(i.defs, 0);
        let i = parse("ds_read_b32 v0, v1 offset:64", GfxGen::Gfx9);
        assert_eq!((i.defs, i.class()), (1, InstrClass::Lds));
        let i = parse("ds_write_b32 v1, v2 gds", GfxGen::Gfx9);
        assert_eq!((i.defs, i.class()), (0, InstrClass::Gds));
    }

    #[test]
    fn waits_per_generation() {
        let w = parse("s_waitcnt vmcnt(0) lgkmcnt(0)", GfxGen::Gfx9)
            .wait(GfxGen::Gfx9)
            .unwrap()
            .unwrap();
        assert_eq!(w.get(Counter::Vm), Some(0));
        assert_eq!(w.get(Counter::Lgkm), Some(0));
        assert_eq!(w.get(Counter::Exp), None);
        let w = parse("s_waitcnt vmcnt(1) & expcnt(2)", GfxGen::Gfx8)
            .wait(GfxGen::Gfx8)
            .unwrap()
            .unwrap();
        assert_eq!(
            (w.get(Counter::Vm), w.get(Counter::Exp)),
            (Some(1), Some(2))
        );
        let w = parse("s_waitcnt 0x3f70", GfxGen::Gfx9)
            .wait(GfxGen::Gfx9)
            .unwrap()
            .unwrap();
        assert_eq!(w.waits, vec![(Counter::Vm, 0)]);
        let w = parse("s_waitcnt_vscnt null, 0x0", GfxGen::Gfx10)
            .wait(GfxGen::Gfx10)
            .unwrap()
            .unwrap();
        assert_eq!(w.waits, vec![(Counter::Vs, 0)]);
        let w = parse("s_wait_loadcnt 0x2", GfxGen::Gfx12)
            .wait(GfxGen::Gfx12)
            .unwrap()
            .unwrap();
        assert_eq!(w.waits, vec![(Counter::Load, 2)]);
        let w = parse("s_wait_loadcnt_dscnt 0x0", GfxGen::Gfx12)
            .wait(GfxGen::Gfx12)
            .unwrap()
            .unwrap();
        assert_eq!(w.get(Counter::Ds), Some(0));
        let w = parse("s_endpgm", GfxGen::Gfx9)
            .wait(GfxGen::Gfx9)
            .unwrap()
            .unwrap();
        assert_eq!(w.waits.len(), 3);
        assert!(parse("s_waitcnt frob(1)", GfxGen::Gfx9)
            .wait(GfxGen::Gfx9)
            .is_err());
        assert!(parse("s_wait_loadcnt", GfxGen::Gfx12)
            .wait(GfxGen::Gfx12)
            .is_err());
        assert_eq!(
            parse("v_add_f32 v0, v1, v2", GfxGen::Gfx9).wait(GfxGen::Gfx9),
            Ok(None)
        );
    }

    #[test]
    fn branches_exports_and_hints() {
        let i = parse("s_cbranch_scc1 .LBB0_2", GfxGen::Gfx9);
        assert_eq!(i.branch_target(), Some(&Operand::Symbol(".LBB0_2".into())));
        let i = parse("s_branch 5", GfxGen::Gfx9);
        assert_eq!(i.branch_target(), Some(&Operand::Imm(5)));
        let i = parse("exp mrt0 v0, v1, v2, v3 done vm", GfxGen::Gfx9);
        assert_eq!(i.export_target(), Some(ExportTarget::Mrt(0)));
        assert_eq!(i.export_bits(), Some(128));
        assert!(i.has_modifier("done"));
        let i = parse("exp mrt0 v0, v0, v1, v1 done compr vm", GfxGen::Gfx9);
        assert_eq!(i.export_bits(), Some(64));
        let i = parse("exp pos0 v1, v2, off, off done", GfxGen::Gfx9);
        assert_eq!(
            (i.export_target(), i.export_bits()),
            (Some(ExportTarget::Pos(0)), Some(64))
        );
        let d = parse(
            "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)",
            GfxGen::Gfx11,
        )
        .delay_alu()
        .unwrap();
        assert_eq!(
            d,
            DelayAlu {
                id0: AluDep::Valu(1),
                skip: 1,
                id1: AluDep::SaluCycle(1)
            }
        );
    }

    #[test]
    fn vopd_parses_both_halves() {
        let i = parse(
            "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
            GfxGen::Gfx11,
        );
        assert_eq!(i.info.class, InstrClass::ValuDual);
        let w = i.writes();
        assert!(w.contains(&v(0)) && w.contains(&v(3)));
        assert_eq!(i.max_reg(RegFile::Vgpr), Some(6));
    }

    #[test]
    fn errors_point_at_columns() {
        let t = InstrTable::builtin();
        let e = Instruction::parse("  frobnicate v0", GfxGen::Gfx9, t).unwrap_err();
        assert_eq!(e.column, 2);
        let e = Instruction::parse("v_add_f32 v0, v[4:1], v2", GfxGen::Gfx9, t).unwrap_err();
        assert!(e.message.contains("v[4:1]"), "{}", e.message);
        assert!(Instruction::parse("v_add_f32 v0,, v2", GfxGen::Gfx9, t).is_err());
        assert!(Instruction::parse("v_mov_b32 v0 v1, v2", GfxGen::Gfx9, t).is_err());
        assert!(Instruction::parse("", GfxGen::Gfx9, t).is_err());
        let i = Instruction::parse("v_frob_f32 v0, v1", GfxGen::Gfx9, t).unwrap();
        assert_eq!(i.recognition, Recognition::FamilyRule("v_"));
    }
}

#[cfg(test)]
mod rdna4_tests {
    use super::*;
    use crate::class::InstrClass;

    fn parse12(text: &str) -> Instruction {
        Instruction::parse(text, GfxGen::Gfx12, InstrTable::builtin())
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    /// RDNA 4 instructions LLVM 21 added (LLVM 19, which made the fixtures,
    /// cannot print them), in the syntax of LLVM's MC tests and RGA dumps.
    #[test]
    fn rdna4_ray_tracing_and_dynamic_vgpr_instructions() {
        let cases = [
            ("image_bvh8_intersect_ray v[0:9], [v[10:11], v12, v[13:15], v[16:18], v19], s[0:3]", InstrClass::VmemImageBvh),
            ("image_bvh_dual_intersect_ray v[0:9], [v[10:11], v[12:13], v[14:16], v[17:19], v[20:21]], s[0:3]", InstrClass::VmemImageBvh),
            ("ds_bvh_stack_push8_pop1_rtn_b32 v1, v0, v2, v[3:10]", InstrClass::LdsBvhStack),
            ("ds_bvh_stack_push8_pop2_rtn_b64 v[1:2], v0, v3, v[4:11]", InstrClass::LdsBvhStack),
            ("s_alloc_vgpr s35", InstrClass::SaluAllocVgpr),
            ("s_wait_bvhcnt 0x0", InstrClass::WaitBvhcnt),
            ("s_wait_samplecnt 0x1", InstrClass::WaitSamplecnt),
            ("s_wait_kmcnt 0x0", InstrClass::WaitKmcnt),
            ("s_wait_dscnt 0x2", InstrClass::WaitDscnt),
            ("s_wait_expcnt 0x0", InstrClass::WaitExpcnt),
            ("s_wait_storecnt_dscnt 0x0", InstrClass::WaitStorecntDscnt),
            ("export mrt0 v0, v1, v2, v3 done", InstrClass::Export),
            ("s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(TRANS32_DEP_1)", InstrClass::WaitDelayAlu),
            ("s_wait_alu 0xfffd", InstrClass::WaitDepctr),
        ];
        for (text, class) in cases {
            let i = parse12(text);
            assert_eq!(i.class(), class, "{text}");
            assert_eq!(i.recognition, Recognition::Table, "{text}");
            assert!(i.valid_for_gen, "{text}");
        }
        let i = parse12(
            "image_bvh8_intersect_ray v[0:9], [v[10:11], v12, v[13:15], v[16:18], v19], s[0:3]",
        );
        assert_eq!(i.writes().first().map(|r| r.count), Some(10));
        assert!(i
            .reads()
            .iter()
            .any(|r| r.file == RegFile::Vgpr && r.first == 16 && r.count == 3));
        let w = parse12("s_wait_bvhcnt 0x0")
            .wait(GfxGen::Gfx12)
            .unwrap()
            .unwrap();
        assert_eq!(w.waits, vec![(Counter::Bvh, 0)]);
        let d =
            parse12("s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(TRANS32_DEP_1)")
                .delay_alu()
                .unwrap();
        assert_eq!(
            d,
            DelayAlu {
                id0: AluDep::Valu(2),
                skip: 2,
                id1: AluDep::Trans(1)
            }
        );
        let x = parse12("export mrt0 v0, v1, v2, v3 done");
        assert_eq!(x.export_target(), Some(ExportTarget::Mrt(0)));
    }
}
