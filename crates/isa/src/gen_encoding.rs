//! Which generations encode an instruction the way a listing shows it.
//!
//! Listings from llvm-objdump, ACO and RGA print each instruction's
//! machine words. The encoding formats are told apart by the high bits of
//! the first word, and those bits moved between generation groups (gfx6-7,
//! gfx8-9, gfx10, gfx11, gfx12); a few common scalar opcodes were
//! renumbered too. So the words of a listing say which generation group
//! produced it, whatever its mnemonics have in common with others.
//!
//! Source of every number here: the encodings LLVM's AMDGPU backend emits
//! (`llvm-mc-19 -show-encoding` for tahiti, bonaire, gfx803, gfx900,
//! gfx1030, gfx1100 and gfx1200; LLVM's `SIInstrFormats.td`,
//! `SOPInstructions.td` encoding definitions), which agree with AMD's
//! "Instruction Set Architecture" reference guides (chapter "Microcode
//! Formats") for GCN3, Vega, RDNA 2, RDNA 3 and RDNA 4. Facts only.

use crate::class::Encoding;
use crate::target::{GenSet, GfxGen};

/// An encoding format as the first word's high bits identify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// SOP1.
    Sop1,
    /// SOP2.
    Sop2,
    /// SOPK.
    Sopk,
    /// SOPC.
    Sopc,
    /// SOPP.
    Sopp,
    /// SMRD (gfx6-7) / SMEM.
    Smem,
    /// VOP1.
    Vop1,
    /// VOP2.
    Vop2,
    /// VOPC.
    Vopc,
    /// VOP3 (and VOP3B, VOP3 forms of VOP1/VOP2/VOPC).
    Vop3,
    /// VOP3P.
    Vop3p,
    /// VOPD (gfx11+).
    Vopd,
    /// VINTRP (gfx6-10).
    Vintrp,
    /// VINTERP (gfx11+).
    Vinterp,
    /// LDSDIR / VDSDIR (gfx11+).
    Ldsdir,
    /// DS.
    Ds,
    /// FLAT, GLOBAL, SCRATCH (gfx12: VFLAT, VGLOBAL, VSCRATCH).
    Flat,
    /// MUBUF (gfx12: VBUFFER).
    Mubuf,
    /// MTBUF (gfx12: VBUFFER).
    Mtbuf,
    /// MIMG (gfx12: VIMAGE, VSAMPLE).
    Mimg,
    /// EXP.
    Exp,
}

/// The format of an instruction whose first word is `word` on `gen`, or
/// `None` when no format of that generation starts so.
pub fn decode_format(word: u32, gen: GfxGen) -> Option<Format> {
    use Format::*;
    if word >> 31 == 0 {
        return Some(match word >> 25 {
            0x3F => Vop1,
            0x3E => Vopc,
            _ => Vop2,
        });
    }
    if word >> 30 == 0b10 {
        return Some(match word >> 23 {
            0x17D => Sop1,
            0x17E => Sopc,
            0x17F => Sopp,
            _ if word >> 28 == 0xB => Sopk,
            _ => Sop2,
        });
    }
    let top6 = word >> 26;
    let top8 = word >> 24;
    let n = gen.number();
    let format = match n {
        6 | 7 => match top6 {
            0x30 | 0x31 => Smem, // SMRD: [31:27] = 0b11000
            0x32 => Vintrp,
            0x34 => Vop3,
            0x36 => Ds,
            0x37 if n == 7 => Flat,
            0x38 => Mubuf,
            0x3A => Mtbuf,
            0x3C => Mimg,
            0x3E => Exp,
            _ => return None,
        },
        8 | 9 => match top6 {
            0x30 => Smem,
            0x31 => Exp,
            0x34 if n == 9 && word >> 23 == 0x1A7 => Vop3p,
            0x34 => Vop3,
            0x35 => Vintrp,
            0x36 => Ds,
            0x37 => Flat,
            0x38 => Mubuf,
            0x3A => Mtbuf,
            0x3C => Mimg,
            _ => return None,
        },
        10 => match top6 {
            0x3D => Smem,
            0x35 => Vop3,
            0x33 if top8 == 0xCC => Vop3p,
            0x32 => Vintrp,
            0x36 => Ds,
            0x37 => Flat,
            0x38 => Mubuf,
            0x3A => Mtbuf,
            0x3C => Mimg,
            0x3E => Exp,
            _ => return None,
        },
        11 => match top6 {
            0x3D => Smem,
            0x35 => Vop3,
            0x33 => match top8 {
                0xCC => Vop3p,
                0xCD => Vinterp,
                0xCE => Ldsdir,
                _ => return None,
            },
            0x32 => Vopd,
            0x36 => Ds,
            0x37 => Flat,
            0x38 => Mubuf,
            0x3A => Mtbuf,
            0x3C => Mimg,
            0x3E => Exp,
            _ => return None,
        },
        _ => match top6 {
            0x3D => Smem,
            0x35 => Vop3,
            0x33 => match top8 {
                0xCC => Vop3p,
                0xCD => Vinterp,
                0xCE => Ldsdir,
                _ => return None,
            },
            0x32 => Vopd,
            0x36 => Ds,
            0x3B => Flat,
            0x31 => Mubuf, // VBUFFER holds both buffer formats
            0x34 | 0x39 => Mimg,
            0x3E => Exp,
            _ => return None,
        },
    };
    Some(format)
}

/// The formats an instruction of the table's `encoding` may be printed in
/// (VOP1/VOP2/VOPC also in their 64-bit VOP3 form).
fn formats_of(encoding: Encoding) -> &'static [Format] {
    use Format::*;
    match encoding {
        Encoding::Sop1 => &[Sop1],
        Encoding::Sop2 => &[Sop2],
        Encoding::Sopk => &[Sopk],
        Encoding::Sopp => &[Sopp],
        Encoding::Sopc => &[Sopc],
        Encoding::Smem => &[Smem],
        Encoding::Vop1 => &[Vop1, Vop3],
        Encoding::Vop2 => &[Vop2, Vop3],
        Encoding::Vopc => &[Vopc, Vop3],
        Encoding::Vop3 => &[Vop3],
        Encoding::Vop3p => &[Vop3p],
        Encoding::Vopd => &[Vopd],
        Encoding::Vintrp => &[Vintrp, Vop3],
        Encoding::Vinterp => &[Vinterp],
        Encoding::Ds => &[Ds],
        Encoding::Ldsdir => &[Ldsdir],
        Encoding::Mubuf => &[Mubuf],
        Encoding::Mtbuf => &[Mtbuf, Mubuf],
        Encoding::Mimg => &[Mimg],
        Encoding::Exp => &[Exp],
        Encoding::Flat | Encoding::Global | Encoding::Scratch => &[Flat],
    }
}

/// A mnemonic, its format, and its opcode per group of generations.
type OpcodeRow = (&'static str, Format, &'static [(&'static [u8], u32)]);

/// Opcodes of common scalar instructions that were renumbered between
/// generation groups: (mnemonic, format, [(generations, opcode)]). SOPP
/// opcodes are bits [22:16], SOP1 opcodes bits [15:8].
const OPCODES: &[OpcodeRow] = &[
    (
        "s_endpgm",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 1), (&[11, 12], 48)],
    ),
    (
        "s_branch",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 2), (&[11, 12], 32)],
    ),
    (
        "s_cbranch_scc0",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 4), (&[11, 12], 33)],
    ),
    (
        "s_cbranch_scc1",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 5), (&[11, 12], 34)],
    ),
    (
        "s_cbranch_vccz",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 6), (&[11, 12], 35)],
    ),
    (
        "s_cbranch_vccnz",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 7), (&[11, 12], 36)],
    ),
    (
        "s_cbranch_execz",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 8), (&[11, 12], 37)],
    ),
    (
        "s_cbranch_execnz",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 9), (&[11, 12], 38)],
    ),
    (
        "s_barrier",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 10), (&[11], 61)],
    ),
    (
        "s_waitcnt",
        Format::Sopp,
        &[(&[6, 7, 8, 9, 10], 12), (&[11, 12], 9)],
    ),
    (
        "s_mov_b32",
        Format::Sop1,
        &[(&[6, 7, 10], 3), (&[8, 9, 11, 12], 0)],
    ),
    (
        "s_mov_b64",
        Format::Sop1,
        &[(&[6, 7, 10], 4), (&[8, 9, 11, 12], 1)],
    ),
];

/// The generations whose encoding of `encoding`-format instruction
/// `mnemonic` (base name, lower case) can be the machine words `words`.
pub fn gens_encoding(mnemonic: &str, encoding: Encoding, words: &[u32]) -> GenSet {
    let Some(&first) = words.first() else {
        return GenSet::ALL;
    };
    let allowed = formats_of(encoding);
    let mut set = 0u8;
    for gen in GfxGen::ALL {
        let Some(format) = decode_format(first, gen) else {
            continue;
        };
        if !allowed.contains(&format) {
            continue;
        }
        // SMRD is one word (two with a literal offset, [7:0] = 0xFF, on
        // gfx7); SMEM is always two.
        if format == Format::Smem {
            let smrd_ok = words.len() == 1 || (gen == GfxGen::Gfx7 && first & 0xFF == 0xFF);
            let ok = if gen.number() <= 7 {
                smrd_ok
            } else {
                words.len() == 2
            };
            if !ok {
                continue;
            }
        }
        if let Some((_, f, table)) = OPCODES.iter().find(|(m, _, _)| *m == mnemonic) {
            if *f == format {
                let opcode = match format {
                    Format::Sopp => (first >> 16) & 0x7F,
                    _ => (first >> 8) & 0xFF,
                };
                let expected = table
                    .iter()
                    .find(|(gens, _)| gens.contains(&gen.number()))
                    .map(|(_, op)| *op);
                if expected.is_some_and(|op| op != opcode) {
                    continue;
                }
            }
        }
        set |= gen.bit();
    }
    GenSet(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gens(m: &str, e: Encoding, words: &[u32]) -> Vec<u8> {
        let s = gens_encoding(m, e, words);
        GfxGen::ALL
            .iter()
            .filter(|g| s.contains(**g))
            .map(|g| g.number())
            .collect()
    }

    #[test]
    fn encodings_llvm_mc_prints_identify_their_generations() {
        // s_endpgm: bf810000 on gfx6-10, bfb00000 on gfx11-12.
        assert_eq!(
            gens("s_endpgm", Encoding::Sopp, &[0xbf81_0000]),
            [6, 7, 8, 9, 10]
        );
        assert_eq!(gens("s_endpgm", Encoding::Sopp, &[0xbfb0_0000]), [11, 12]);
        // v_add_f32_e64: d2060000 (gfx6-7), d1010000 (gfx8-9), d5030000 (gfx10+).
        assert_eq!(
            gens("v_add_f32", Encoding::Vop2, &[0xd206_0000, 0]),
            [6, 7, 8, 9]
        );
        assert_eq!(
            gens("v_add_f32", Encoding::Vop2, &[0xd503_0000, 0]),
            [10, 11, 12]
        );
        // s_load_dword: c0000100 (SMRD, one word), c0020000 00000000 (gfx8-9),
        // f4000000 f8000000 (gfx10+).
        assert_eq!(gens("s_load_dword", Encoding::Smem, &[0xc000_0100]), [6, 7]);
        assert_eq!(
            gens("s_load_dword", Encoding::Smem, &[0xc002_0000, 0]),
            [8, 9]
        );
        assert_eq!(
            gens("s_load_dword", Encoding::Smem, &[0xf400_0000, 0xf800_0000]),
            [10, 11, 12]
        );
        // exp: f800000f (gfx6-7, gfx10+), c400000f (gfx8-9).
        assert_eq!(gens("exp", Encoding::Exp, &[0xc400_000f, 0]), [8, 9]);
        // global_load_b32: dc520000 (gfx11), ee05007c (gfx12).
        assert_eq!(
            gens("global_load_b32", Encoding::Global, &[0xee05_007c, 0, 0]),
            [12]
        );
        // s_mov_b32 s0, s1: be800301 (gfx6-7, gfx10), be800001 (gfx8-9, gfx11+).
        assert_eq!(
            gens("s_mov_b32", Encoding::Sop1, &[0xbe80_0301]),
            [6, 7, 10]
        );
        // s_waitcnt: bf8c.... (gfx6-10), bf89.... (gfx11+).
        assert_eq!(gens("s_waitcnt", Encoding::Sopp, &[0xbf89_fc07]), [11, 12]);
    }
}
