//! gfx11's 16-bit VGPR operands (true16: `vN.l` / `vN.h`) against llvm-mc-22's text for the
//! same dwords (the expected strings are LLVM's; the table marks which operands are 16-bit
//! from LLVM's own disassembly, scripts/isa/gen_encodings.py).

use shadersim_codeobj::decode::decode;

fn text(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let d = decode("gfx1100", &bytes, 0).expect("decodes");
    assert_eq!(d.len(), 1);
    d[0].text.clone()
}

#[test]
fn the_32_bit_encodings_take_the_half_from_bit_7() {
    // v_fmac_f16_e32: vdst 128 is v0.h (bit 7 set, VGPR 0); src0 s0; vsrc1 0 is v0.l.
    assert_eq!(text(&[0x6D000000]), "v_fmac_f16_e32 v0.h, s0, v0.l");
    // vsrc1 128 + src0 inline constant 0.5 (240).
    assert_eq!(text(&[0x6C0300F0]), "v_fmac_f16_e32 v1.l, 0.5, v0.h");
}

#[test]
fn vop3_takes_the_half_from_op_sel() {
    // v_fma_f16 v0.h, v1.h, v2.l, v3.l: OP_SEL [14:11] = 0b1001 (src0 and the destination).
    assert_eq!(
        text(&[0xD6484800, 0x040E0501]),
        "v_fma_f16 v0.h, v1.h, v2.l, v3.l op_sel:[1,0,0,1]"
    );
    // v_cvt_f32_f16_e64 v0, v1.h: a 32-bit destination, a 16-bit source.
    assert_eq!(
        text(&[0xD58B0800, 0x00000101]),
        "v_cvt_f32_f16_e64 v0, v1.h op_sel:[1,0]"
    );
}
