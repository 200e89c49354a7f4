//! DPP forms against what llvm-mc-22 -disassemble prints for the same dwords (each expected
//! text below is LLVM's); the clang-compiled DPP kernels are compared in objdump_agreement.rs.

use shadersim_codeobj::decode::decode;

fn text(processor: &str, words: &[u32]) -> Result<String, String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    match decode(processor, &bytes, 0) {
        Ok(d) if d.len() == 1 && d[0].words == words => Ok(d[0].text.clone()),
        Ok(d) => Err(format!("{} instructions: {d:?}", d.len())),
        Err(e) => Err(e.message),
    }
}

#[test]
fn vop3_dpp16_and_dpp8_on_gfx11_and_gfx12() {
    // VOP3 with source 0 = 250 (DPP16) or 233 (DPP8): a third dword of controls whose low
    // byte is source 0; VOP3's own neg/abs apply (bit 61 neg src0, bit 9 abs src1).
    for cpu in ["gfx1100", "gfx1200"] {
        assert_eq!(
            text(cpu, &[0xD6550000, 0x040E04FA, 0xFF001B01]).as_deref(),
            Ok("v_add3_u32_e64_dpp v0, v1, v2, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf")
        );
        assert_eq!(
            text(cpu, &[0xD5030200, 0x200204FA, 0xFF011101]).as_deref(),
            Ok("v_add_f32_e64_dpp v0, -v1, |v2| row_shr:1 row_mask:0xf bank_mask:0xf")
        );
        assert_eq!(
            text(cpu, &[0xD6550000, 0x040E04E9, 0x05397701]).as_deref(),
            Ok("v_add3_u32_e64_dpp v0, v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0]")
        );
    }
}

#[test]
fn gfx11_vopc_dpp_prints_without_the_dpp_suffix() {
    // v_cmp_f_f32 in its 32-bit DPP16 form: vcc_lo implicit, |src0| from bit 21.
    assert_eq!(
        text("gfx1100", &[0x7C200CFA, 0x64215367]).as_deref(),
        Ok("v_cmp_f_f32 vcc_lo, |v103|, v6 row_share:3 row_mask:0x6 bank_mask:0x4")
    );
}

#[test]
fn cdna_row_newbcast_and_its_64_bit_rule() {
    // DPP_CTRL 0x151 is ROW_NEWBCAST:1 on gfx90a/gfx942 (row_share on gfx10+, invalid on
    // gfx900); a 64-bit operand takes no other control, which LLVM marks invalid: an error.
    for cpu in ["gfx90a", "gfx942"] {
        assert_eq!(
            text(cpu, &[0x020A0CFA, 0xFF015100]).as_deref(),
            Ok("v_add_f32_dpp v5, v0, v6 row_newbcast:1 row_mask:0xf bank_mask:0xf")
        );
        assert_eq!(
            text(cpu, &[0x7E0A1EFA, 0xFF01517A]).as_deref(),
            Ok("v_cvt_f32_f64_dpp v5, v[122:123] row_newbcast:1 row_mask:0xf bank_mask:0xf")
        );
    }
    let e = text("gfx90a", &[0x7E0A1EFA, 0xE609417A]).expect_err("invalid control");
    assert!(e.contains("only row_newbcast is valid"), "{e}");
    let e = text("gfx900", &[0x020A0CFA, 0xFF015100]).expect_err("no row_newbcast on gfx900");
    assert!(e.contains("DPP control 0x151 is not decoded"), "{e}");
}
