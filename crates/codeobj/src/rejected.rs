//! Encodings llvm-objdump-22 refuses whose fields the decoder would still print as an
//! instruction (issue 47 item 14): the rules are shadersim-isa's ([`shadersim_isa::refused`]),
//! the ones the listing reader applies too, judged on the decoded text, which keeps the
//! decoder's tables (decode/) as they are. Each is refused at its instruction, so a damaged
//! code object is an error and not a simulation of code no compiler wrote.

use crate::decode::Decoded;

/// Why llvm-objdump-22 would not decode `d` on `processor`, or `None`.
pub(crate) fn rejected(processor: &str, d: &Decoded) -> Option<String> {
    shadersim_isa::refused::refused_form(Some(processor), &d.text).map(|r| r.message)
}

#[cfg(test)]
mod tests {
    use super::rejected;
    use crate::decode::decode;

    /// Decode one instruction's dwords on `processor`; the verdict on it.
    fn verdict(processor: &str, words: &[u32]) -> (String, Option<String>) {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let d = decode(processor, &bytes, 0).unwrap();
        (d[0].text.clone(), rejected(processor, &d[0]))
    }

    #[test]
    fn a_reserved_scalar_source_is_refused() {
        // VOP2 v_add_f32_e32 (gfx9 opcode 1 at bits 30:25), src0 = 209: no operand has that
        // code; llvm-mc-22 -disassemble -mcpu=gfx900 says "invalid instruction encoding".
        let (text, why) = verdict("gfx900", &[(1 << 25) | 209]);
        assert!(text.contains("src_209"), "{text}");
        assert!(why
            .unwrap()
            .contains("scalar source encoding 209 is reserved"));
        // The same with src0 = 128 (inline constant 0) decodes and stands.
        assert_eq!(verdict("gfx900", &[(1 << 25) | 128]).1, None);
    }

    #[test]
    fn lds_direct_is_a_valu_source_only() {
        // Source code 254 (llvm-mc-22 -disassemble of BE8000FE / 7E0002FE on gfx1100:
        // `s_mov_b32 s0, src_lds_direct/*Invalid register, operand has 'SReg_32' register
        // class*/`, `v_mov_b32_e32 v0, src_lds_direct`; the same on the others, gfx10's
        // s_mov_b32 being SOP1 opcode 3).
        for gfx in ["gfx900", "gfx1030", "gfx1100", "gfx1200"] {
            let salu = if gfx == "gfx1030" {
                0xBE8003FE
            } else {
                0xBE8000FE
            };
            let (text, why) = verdict(gfx, &[salu]);
            assert_eq!(text, "s_mov_b32 s0, src_lds_direct", "{gfx}");
            assert!(why.unwrap().contains("scalar ALU operand"), "{gfx}");
            let (text, why) = verdict(gfx, &[0x7E0002FE]);
            assert_eq!(text, "v_mov_b32_e32 v0, src_lds_direct", "{gfx}");
            assert_eq!(why, None, "{gfx}");
        }
    }

    #[test]
    fn abs_on_an_integer_op_and_odd_tuples_on_gfx942_are_refused() {
        let d = |text: &str| crate::decode::Decoded {
            address: 0,
            words: vec![0],
            text: text.to_string(),
            target: None,
        };
        // Each of these llvm-mc-22 refuses (gfx900 and gfx942 alike for abs).
        assert!(rejected("gfx942", &d("v_add3_u32 v0, |v46|, v2, v3")).is_some());
        assert!(rejected("gfx900", &d("v_and_b32_e64 v0, |v1|, v2")).is_some());
        assert!(rejected("gfx942", &d("global_load_dwordx2 v[1:2], v[4:5], off")).is_some());
        assert!(rejected("gfx90a", &d("v_mfma_f32_4x4x1f32 a[1:4], v0, v1, a[0:3]")).is_some());
        // ... and these it takes.
        assert_eq!(
            rejected("gfx900", &d("v_cndmask_b32_e64 v0, |v1|, v2, vcc")),
            None
        );
        assert_eq!(rejected("gfx900", &d("v_add_f32_e64 v0, |v1|, v2")), None);
        assert_eq!(
            rejected("gfx900", &d("global_load_dwordx2 v[1:2], v[4:5], off")),
            None
        );
        assert_eq!(
            rejected("gfx942", &d("global_load_dwordx2 v[2:3], v[4:5], off")),
            None
        );
        assert_eq!(
            rejected("gfx942", &d("s_load_dwordx2 s[0:1], s[4:5], 0x0")),
            None
        );
    }

    #[test]
    fn an_s_delay_alu_field_past_its_names_is_refused() {
        // instid0 = 12 (0xBF87000C), instskip = 6 (0xBF870060): llvm-mc-22 -disassemble
        // -mcpu=gfx1100 prints `/* invalid instid value */` / `/* invalid instskip value */`;
        // bits 15:11 are not read (0xBF870800 prints `s_delay_alu 0`).
        for (word, bad) in [(0xBF87000C, true), (0xBF870060, true), (0xBF870091, false)] {
            for gfx in ["gfx1100", "gfx1200"] {
                let (text, why) = verdict(gfx, &[word]);
                assert_eq!(why.is_some(), bad, "{gfx} {text}");
                if bad {
                    assert!(why.unwrap().contains("s_delay_alu field"), "{gfx}");
                }
            }
        }
        assert_eq!(
            verdict("gfx1100", &[0xBF870800]),
            ("s_delay_alu 0".into(), None)
        );
    }

    #[test]
    fn a_field_the_instruction_lacks_is_refused_at_its_offset() {
        // s_barrier with immediate 5 and ds_read_b32 with data0 = v1: llvm-mc-22 -disassemble
        // -mcpu=gfx900 says "invalid instruction encoding" for both (data/fixed_fields.tsv).
        let code: Vec<u8> = [0xBF8A0000u32, 0xBF8A0005]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let e = decode("gfx900", &code, 0).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(
            e.message
                .contains("s_barrier (SOPP, 0xBF8A0005): simm16 must be 0x0 (holds 0x5)"),
            "{}",
            e.message
        );
        let e = decode("gfx900", &[0, 0, 0x6c, 0xd8, 0, 1, 0, 0], 0).unwrap_err();
        assert!(
            e.message
                .contains("ds_read_b32 (DS, 0xD86C0000): data0 must be 0x0 (holds 0x1)"),
            "{}",
            e.message
        );
        // A gfx11 FLAT op's SADDR must be `off` (0x7C), not zero: 0x78 is refused.
        let flat = |saddr: u32| -> Vec<u8> {
            [0xDC400000u32, saddr << 16]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect()
        };
        assert!(decode("gfx1100", &flat(0x7C), 0).is_ok());
        let e = decode("gfx1100", &flat(0x78), 0).unwrap_err();
        assert!(
            e.message.contains("saddr must be 0x7c (holds 0x78)"),
            "{}",
            e.message
        );
    }
}
