//! One parsed instruction: mnemonic, table facts, operands, modifiers, and
//! what follows from them (registers read and written, the wait it
//! expresses, its branch target, its memory width).
//!
//! This file parses an instruction line; `instr/facts.rs` holds what is derived
//! from the parsed instruction (registers written and read, waits, branch
//! target, memory width, export target, scheduling hints).

use crate::class::{Encoding, InstrClass, MemDirection};
use crate::operand::{
    parse_modifier, parse_operand, split_operands, Modifier, Operand, RegFile, RegRange,
};
use crate::table::{classify_by_family, strip_encoding_suffix, InstrFlags, InstrInfo, InstrTable};
use crate::target::GfxGen;

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
        // The SOPK waits (`s_waitcnt_vmcnt s0, 0`) and `s_sleep_var s0`
        // read an SGPR: their operands are registers too (the count is
        // still read from the text).
        let reads_sgpr = matches!(
            self.info.class,
            InstrClass::WaitVscnt
                | InstrClass::WaitVmcnt
                | InstrClass::WaitExpcnt
                | InstrClass::WaitLgkmcnt
        ) || self.mnemonic.starts_with("s_sleep_var");
        if self.info.class.is_wait() && !reads_sgpr
            || matches!(
                self.info.class,
                InstrClass::Sendmsg
                    | InstrClass::Hint
                    | InstrClass::Nop
                    | InstrClass::Sleep
                    | InstrClass::Setprio
            ) && !self.mnemonic.starts_with("s_sendmsg_rtn")
                && !reads_sgpr
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
            | ValuF64Trans | ValuDual | ValuWmma | ValuMfma | ValuInterp => {
                if self.info.encoding == Encoding::Vopc {
                    // e32 on gfx6-9 prints `vcc` explicitly; gfx10+ v_cmpx has no sdst.
                    usize::from(n >= 3)
                } else if CARRY_OUT_PREFIXES.iter().any(|p| name.starts_with(p))
                    // A carry-out form names a destination, the carry SGPR(s) and at
                    // least two sources; gfx9's carry-less `v_add_u32 v1, s8, v0` has
                    // three operands, and its `s8` is a source.
                    && n >= 4
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

mod facts;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod rdna4_tests;
