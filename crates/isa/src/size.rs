//! How many bytes an instruction as written encodes to (issue 47 item 17): what a numeric branch
//! offset in a listing without addresses or encodings (`s_branch 5`, `s_cbranch_scc0 0x1234`:
//! words from the next instruction) needs to find its target.
//!
//! The size is the encoding's width (the table's [`Encoding`], or the one the written mnemonic
//! and operands select: `_e64`, a VOP1/VOP2/VOPC op whose operands or modifiers only VOP3 holds,
//! DPP or SDWA controls, an image op's separate address registers) plus a 32-bit literal constant
//! when a source is not an inline constant. These are LLVM-22's assembler's rules (AMD's ISA
//! guides, "Microcode Formats" and "Literal Constants"); `crates/asm/tests/instruction_sizes.rs`
//! checks them against llvm-mc-22 `-show-encoding` on every form of the table and on the
//! repository's listings. Where the rules leave the size open (a constant whose inline reading
//! depends on an operand type the mnemonic does not fix), the answer is an error saying so, never
//! a guess: a wrong size would put a branch target on the wrong instruction.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::class::Encoding;
use crate::instr::Instruction;
use crate::operand::{Operand, RegFile, SpecialReg};
use crate::target::{GfxGen, Target};

const VECTOR_FORMS_TSV: &str = include_str!("../data/vector_forms.tsv");

/// Whether a vector ALU mnemonic has a 32-bit form on a processor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// VOP1/VOP2/VOPC (`_e32`), besides its VOP3 spelling.
    Short,
    /// VOP3 or VOP3P only.
    Long,
}

/// `data/vector_forms.tsv` read: (family, mnemonic) -> each form with its processors.
type VectorForms = HashMap<(String, String), Vec<(Form, Vec<String>)>>;

/// `data/vector_forms.tsv`, read once.
fn vector_forms() -> &'static VectorForms {
    static FORMS: OnceLock<VectorForms> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut m = VectorForms::new();
        for line in VECTOR_FORMS_TSV.lines().filter(|l| !l.starts_with('#')) {
            let c: Vec<&str> = line.split('\t').collect();
            if c.len() < 4 {
                continue;
            }
            let form = if c[2] == "short" {
                Form::Short
            } else {
                Form::Long
            };
            m.entry((c[0].to_string(), c[1].to_string()))
                .or_default()
                .push((form, c[3].split(',').map(str::to_string).collect()));
        }
        m
    })
}

/// The family and the processor of the generated tables a processor reads (the closest one the
/// tables were made for, as the code-object decoder picks it); `None` before gfx9.
fn table_processor(target: &Target) -> Option<(&'static str, &'static str)> {
    let p = target.name.as_str();
    Some(match target.gen {
        GfxGen::Gfx9 if p == "gfx90a" => ("gfx9", "gfx90a"),
        GfxGen::Gfx9 if p == "gfx906" || p == "gfx908" => ("gfx9", "gfx906"),
        GfxGen::Gfx9 if p.starts_with("gfx94") || p.starts_with("gfx95") => ("gfx9", "gfx942"),
        GfxGen::Gfx9 => ("gfx9", "gfx900"),
        GfxGen::Gfx10 if p.starts_with("gfx101") => ("gfx10", "gfx1010"),
        GfxGen::Gfx10 => ("gfx10", "gfx1030"),
        GfxGen::Gfx11 => ("gfx11", "gfx1100"),
        GfxGen::Gfx12 => ("gfx12", "gfx1200"),
        _ => return None,
    })
}

/// The vector ALU form `mnemonic` (suffixes stripped) has on `target`, if the table lists it.
fn vector_form(target: &Target, mnemonic: &str) -> Option<Form> {
    let (family, cpu) = table_processor(target)?;
    let rows = vector_forms().get(&(family.to_string(), mnemonic.to_string()))?;
    let holds = |form: Form| {
        rows.iter()
            .any(|(f, cpus)| *f == form && cpus.iter().any(|c| c == cpu))
    };
    // A 32-bit form wins: the assembler takes it when the operands fit (gfx90a's
    // v_mul_legacy_f32 is VOP3 only, gfx900's has both).
    [Form::Short, Form::Long].into_iter().find(|&f| holds(f))
}

/// The bytes `inst` encodes to on `target`, or why the reader cannot tell.
pub fn encoded_bytes(inst: &Instruction, target: &Target) -> Result<u32, String> {
    let mn = inst.mnemonic.as_str();
    let gen = target.gen;
    if table_processor(target).is_none() {
        return Err(format!(
            "`{mn}`: instruction sizes are modelled for gfx9 to gfx12, not {}",
            target.name
        ));
    }
    let dpp = inst.modifiers.iter().any(|m| {
        matches!(
            m.key.as_str(),
            "quad_perm" | "row_mask" | "bank_mask" | "bound_ctrl" | "dpp8" | "fi"
        ) || m.key.starts_with("row_")
            || m.key.starts_with("wave_")
    }) || mn.ends_with("_dpp");
    let sdwa = inst
        .modifiers
        .iter()
        .any(|m| m.key.ends_with("_sel") && m.key != "op_sel" || m.key == "dst_unused")
        || mn.ends_with("_sdwa");
    let base = match inst.info.encoding {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p
            if mn.starts_with("v_") =>
        {
            let base = ["_e32", "_e64_dpp", "_e64", "_dpp8", "_dpp", "_sdwa"]
                .iter()
                .find_map(|s| mn.strip_suffix(s))
                .unwrap_or(mn);
            let long = match vector_form(target, base) {
                Some(Form::Long) => true,
                // v_madmk/v_madak/v_fmamk/v_fmaak are VOP2 with their K as the literal.
                Some(Form::Short) if is_mk_ak(mn) => false,
                Some(Form::Short) => {
                    mn.ends_with("_e64") || mn.contains("_e64_") || needs_vop3(inst, gen)
                }
                None => {
                    return Err(format!(
                        "`{mn}`: not in the vector-form table for {} (data/vector_forms.tsv)",
                        target.name
                    ))
                }
            };
            match (long, dpp, sdwa) {
                (true, true, _) => 12,
                (true, false, _) => 8,
                (false, true, _) | (false, _, true) => 8,
                (false, false, false) => 4,
            }
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p => {
            return Err(format!(
                "`{mn}`: a vector ALU encoding without a v_ mnemonic"
            ))
        }
        Encoding::Sop1
        | Encoding::Sop2
        | Encoding::Sopk
        | Encoding::Sopp
        | Encoding::Sopc
        | Encoding::Ldsdir => 4,
        // gfx9's VOP3 spelling (`v_interp_p1_f32_e64`) and gfx11+'s VINTERP are 64-bit.
        Encoding::Vintrp if gen >= GfxGen::Gfx11 || mn.ends_with("_e64") => 8,
        Encoding::Vintrp => 4,
        Encoding::Smem | Encoding::Ds | Encoding::Exp | Encoding::Vinterp | Encoding::Vopd => 8,
        Encoding::Flat
        | Encoding::Global
        | Encoding::Scratch
        | Encoding::Mubuf
        | Encoding::Mtbuf => {
            if gen == GfxGen::Gfx12 {
                12
            } else {
                8
            }
        }
        Encoding::Mimg => image_bytes(inst, gen),
    };
    Ok(base + literal_bytes(inst, gen)?)
}

/// An image op: gfx12's VIMAGE/VSAMPLE are 96-bit; before, 64 bits plus, on gfx10/gfx11, a
/// dword per four address registers after the first when they are listed apart (NSA).
fn image_bytes(inst: &Instruction, gen: GfxGen) -> u32 {
    if gen == GfxGen::Gfx12 {
        return 12;
    }
    let listed = inst
        .operands
        .iter()
        .find_map(|o| match o {
            Operand::RegList(list) => Some(list.len() as u32),
            _ => None,
        })
        .unwrap_or(1);
    if matches!(gen, GfxGen::Gfx10 | GfxGen::Gfx11) && listed > 1 {
        8 + 4 * (listed - 1).div_ceil(4)
    } else {
        8
    }
}

/// Whether a VOP1/VOP2/VOPC op written without a suffix takes its VOP3 form: a modifier only
/// VOP3 has, a second source that is not a VGPR, a carry or condition operand other than VCC,
/// or (gfx11+) a 16-bit operand in a VGPR past v127.
fn needs_vop3(inst: &Instruction, gen: GfxGen) -> bool {
    let mn = inst.mnemonic.as_str();
    if mn.ends_with("_e32") {
        return false;
    }
    if inst.modifiers.iter().any(|m| {
        matches!(
            m.key.as_str(),
            "clamp" | "mul" | "div" | "op_sel" | "neg_lo" | "neg_hi" | "byte_sel"
        )
    }) {
        return true;
    }
    let ops = &inst.operands;
    if ops.iter().any(|o| {
        matches!(
            o,
            Operand::Reg { neg: true, .. } | Operand::Reg { abs: true, .. }
        )
    }) {
        return true;
    }
    let vcc = |o: &Operand| {
        o.reg()
            .is_some_and(|r| r.file == RegFile::Special && r.first == SpecialReg::VccLo as u16)
    };
    let vgpr = |o: &Operand| o.reg().is_some_and(|r| r.file == RegFile::Vgpr);
    // Scalar operands (carry out, carry in, condition, VOPC's destination) must be VCC.
    if ops.iter().any(|o| is_scalar_slot(inst, o) && !vcc(o)) {
        return true;
    }
    let sources: Vec<&Operand> = ops
        .iter()
        .skip(inst.defs)
        .filter(|o| !is_scalar_slot(inst, o))
        .collect();
    if inst.info.encoding != Encoding::Vop1 && sources.len() >= 2 && !vgpr(sources[1]) {
        return true;
    }
    let sixteen = matches!(gen, GfxGen::Gfx11 | GfxGen::Gfx12) && type_bits(mn) == Some(16);
    sixteen
        && ops.iter().any(|o| {
            o.reg()
                .is_some_and(|r| r.file == RegFile::Vgpr && r.first > 127)
        })
}

/// Whether operand `o` of `inst` is a carry, condition or compare-result SGPR operand (VCC in
/// the VOP1/VOP2/VOPC forms) rather than a source.
fn is_scalar_slot(inst: &Instruction, o: &Operand) -> bool {
    let Some(r) = o.reg() else {
        return false;
    };
    if r.file == RegFile::Vgpr || r.file == RegFile::Agpr {
        return false;
    }
    let idx = inst
        .operands
        .iter()
        .position(|x| std::ptr::eq(x, o))
        .unwrap_or(0);
    let mn = inst.mnemonic.as_str();
    let last = idx + 1 == inst.operands.len();
    let carry_in = last
        && (mn.starts_with("v_addc")
            || mn.starts_with("v_subb")
            || mn.starts_with("v_add_co_ci")
            || mn.starts_with("v_sub_co_ci")
            || mn.starts_with("v_subrev_co_ci")
            || mn.starts_with("v_cndmask"));
    let dest = idx < inst.defs && (idx > 0 || inst.info.encoding == Encoding::Vopc);
    carry_in || dest
}

/// The data width a mnemonic's last type names (`v_add_f16` 16, `v_add_f64` 64, `v_cvt_f32_f16`
/// 16: the source type comes last), if it names one.
fn type_bits(mn: &str) -> Option<u32> {
    let mn = mn
        .trim_end_matches("_e32")
        .trim_end_matches("_e64")
        .trim_end_matches("_dpp")
        .trim_end_matches("_sdwa");
    mn.rsplit('_').find_map(|t| {
        let t = t.strip_prefix("pk").unwrap_or(t);
        let digits = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let kind = &t[..t.len() - digits.len()];
        if !matches!(kind, "f" | "i" | "u" | "b" | "bf") {
            return None;
        }
        match digits {
            "16" => Some(16),
            "32" => Some(32),
            "64" => Some(64),
            _ => None,
        }
    })
}

/// v_madmk/v_madak/v_fmamk/v_fmaak (f32 and f16): a K operand always in the literal dword.
fn is_mk_ak(mn: &str) -> bool {
    ["_madmk_", "_madak_", "_fmamk_", "_fmaak_"]
        .iter()
        .any(|k| mn.contains(k))
}

/// 4 when a source is a literal constant (one per instruction; gfx9 VOP3 takes none, so a
/// constant there is inline or the line is not an instruction), else 0.
fn literal_bytes(inst: &Instruction, gen: GfxGen) -> Result<u32, String> {
    let mn = inst.mnemonic.as_str();
    // v_madmk/v_madak/v_fmamk/v_fmaak: the K operand is always a literal.
    if is_mk_ak(mn) || mn == "s_setreg_imm32_b32" {
        return Ok(4);
    }
    let halves: Vec<&Instruction> = std::iter::once(inst).chain(inst.dual.as_deref()).collect();
    let mut literal = false;
    for half in halves {
        for (i, o) in half.operands.iter().enumerate() {
            if i < half.defs {
                continue;
            }
            if let Some(lit) = is_literal(half, o, gen)? {
                literal |= lit;
            }
        }
    }
    Ok(if literal { 4 } else { 0 })
}

/// Whether source `o` is a literal constant: `Some(true)`/`Some(false)`, `None` when it is no
/// constant at all.
fn is_literal(inst: &Instruction, o: &Operand, gen: GfxGen) -> Result<Option<bool>, String> {
    let mn = inst.mnemonic.as_str();
    let scalar_mem_or_branch = matches!(
        inst.info.encoding,
        Encoding::Sopp
            | Encoding::Sopk
            | Encoding::Smem
            | Encoding::Ds
            | Encoding::Flat
            | Encoding::Global
            | Encoding::Scratch
            | Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Mimg
            | Encoding::Exp
            | Encoding::Vintrp
            | Encoding::Vinterp
            | Encoding::Ldsdir
    );
    match o {
        Operand::Imm(v) if !scalar_mem_or_branch => {
            let v = *v;
            if (-16..=64).contains(&v) {
                return Ok(Some(false));
            }
            let bits = type_bits(mn).unwrap_or(32);
            let ambiguous = mn.starts_with("v_cvt")
                || mn.starts_with("v_pk_")
                || mn.starts_with("v_dot")
                || mn.contains("mfma")
                || mn.contains("wmma")
                || mn.contains("lshl")
                || mn.contains("lshr")
                || mn.contains("ashr")
                || mn.contains("ldexp")
                || mn.contains("_mad_u64")
                || mn.contains("_mad_i64")
                || mn.starts_with("s_");
            let inline = inline_bits(v, bits, gen);
            let elsewhere = [16, 32, 64]
                .iter()
                .any(|&b| b != bits && inline_bits(v, b, gen));
            if ambiguous && (inline || elsewhere) {
                return Err(format!(
                    "`{}`: whether the constant {v:#x} is inline depends on an operand type `{mn}` does not name",
                    inst.operand_text.trim()
                ));
            }
            Ok(Some(!inline))
        }
        Operand::Float(f) if !scalar_mem_or_branch => {
            if [0.0, 0.5, 1.0, 2.0, 4.0].iter().any(|c| f.abs() == *c) {
                return Ok(Some(false));
            }
            // 1/(2 pi), gfx8+: LLVM prints it rounded (0.15915494); the assembler converts the
            // value to the operand's type and compares bits.
            const INV_2PI: f64 = 0.159_154_943_091_895_35;
            let inv_2pi = gen >= GfxGen::Gfx8
                && match type_bits(mn).unwrap_or(32) {
                    32 => (*f as f32).to_bits() == 0x3e22_f983,
                    64 => *f == INV_2PI,
                    _ if (*f - INV_2PI).abs() < 1e-3 => {
                        return Err(format!(
                    "`{}`: whether {f} is the inline constant 1/(2 pi) at 16 bits is not modelled",
                    inst.operand_text.trim()
                ))
                    }
                    _ => false,
                };
            Ok(Some(!inv_2pi))
        }
        Operand::Symbol(_) if !scalar_mem_or_branch => Ok(Some(true)),
        Operand::Text(t) if t.starts_with("lit(") || t.starts_with("lit64(") => Ok(Some(true)),
        _ => Ok(None),
    }
}

/// Whether the integer `v` is an inline constant for a `bits`-wide operand: -16..64 once read
/// at that width, or the bits of 0.5, 1.0, 2.0, 4.0 (either sign) or 1/(2 pi) (gfx8+).
fn inline_bits(v: i64, bits: u32, gen: GfxGen) -> bool {
    let wrapped = match bits {
        16 if (0..=0xffff).contains(&v) => i64::from(v as u16 as i16),
        32 if (0..=0xffff_ffff).contains(&v) => i64::from(v as u32 as i32),
        _ => v,
    };
    if (-16..=64).contains(&wrapped) {
        return true;
    }
    let patterns: &[u64] = match bits {
        16 => &[
            0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
        ],
        32 => &[
            0x3f00_0000,
            0xbf00_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x4000_0000,
            0xc000_0000,
            0x4080_0000,
            0xc080_0000,
            0x3e22_f983,
        ],
        _ => &[
            0x3fe0_0000_0000_0000,
            0xbfe0_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0xbff0_0000_0000_0000,
            0x4000_0000_0000_0000,
            0xc000_0000_0000_0000,
            0x4010_0000_0000_0000,
            0xc010_0000_0000_0000,
            0x3fc4_5f30_6dc9_c882,
        ],
    };
    let inv_2pi = [0x3118, 0x3e22_f983, 0x3fc4_5f30_6dc9_c882];
    patterns
        .iter()
        .any(|&p| p == v as u64 && (gen >= GfxGen::Gfx8 || !inv_2pi.contains(&p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::InstrTable;

    fn bytes(cpu: &str, text: &str) -> Result<u32, String> {
        let target: Target = cpu.parse().unwrap();
        let inst = Instruction::parse(text, target.gen, InstrTable::builtin()).unwrap();
        encoded_bytes(&inst, &target)
    }

    /// Sizes that follow from the rules, each checked with llvm-mc-22 -show-encoding.
    #[test]
    fn widths_and_literals_follow_the_rules() {
        // VOP2 with an inline 1.0 (4) and with 1.5's bits as a literal (4 + 4).
        assert_eq!(bytes("gfx900", "v_add_f32 v0, 1.0, v1"), Ok(4));
        assert_eq!(bytes("gfx900", "v_add_f32 v0, 0x3fc00000, v1"), Ok(8));
        // An SGPR second source or a modifier takes VOP3 (8).
        assert_eq!(bytes("gfx900", "v_add_f32 v0, v1, s2"), Ok(8));
        assert_eq!(bytes("gfx900", "v_add_f32 v0, -v1, v2"), Ok(8));
        // gfx9-gfx11 have v_add_f64 in VOP3 only; gfx12 in VOP2.
        assert_eq!(bytes("gfx1100", "v_add_f64 v[0:1], v[2:3], v[4:5]"), Ok(8));
        assert_eq!(bytes("gfx1200", "v_add_f64 v[0:1], v[2:3], v[4:5]"), Ok(4));
        // gfx10+ VOP3 takes a literal (8 + 4); 0xffffffff is -1 at 32 bits (inline).
        assert_eq!(bytes("gfx1030", "v_fma_f32 v0, v1, 0x40490fdb, v2"), Ok(12));
        assert_eq!(bytes("gfx1030", "v_add_nc_u32 v0, 0xffffffff, v1"), Ok(4));
        // gfx12 memory is 96-bit.
        assert_eq!(bytes("gfx1200", "global_load_b32 v0, v[0:1], off"), Ok(12));
        assert_eq!(bytes("gfx1100", "global_load_b32 v0, v[0:1], off"), Ok(8));
        // A scalar op with a literal.
        assert_eq!(bytes("gfx1100", "s_cmp_lg_u32 s0, 0x100"), Ok(8));
        // Before gfx9 the reader declines.
        assert!(bytes("gfx803", "s_nop 0").is_err());
    }

    /// The committed table is what the generator writes from the decoder's opcode table (python3
    /// only; skipped without it except on CI).
    #[test]
    fn vector_forms_table_is_up_to_date() {
        if !shadersim_testkit::tools::have_python3() {
            return;
        }
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/isa/gen_vector_forms.py"
        );
        let out = std::process::Command::new("python3")
            .arg(script)
            .arg("--check")
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
