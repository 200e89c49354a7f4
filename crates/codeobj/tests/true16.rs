//! gfx11's and gfx12's 16-bit VGPR operands (true16: `vN.l` / `vN.h`) against llvm-mc-22's text
//! for the same dwords (the expected strings are LLVM's, gfx12 with `--mattr=+real-true16`; the
//! table marks which operands are 16-bit from LLVM's own disassembly,
//! scripts/isa/gen_encodings.py). The gfx12 cases are words of the Triton gfx1200 GEMM and
//! flash-attention fixtures (issue 48), with what llvm-objdump-22 printed for them.

use shadersim_codeobj::decode::decode;

fn text(words: &[u32]) -> String {
    text_on("gfx1100", words)
}

fn text_on(processor: &str, words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let d = decode(processor, &bytes, 0).expect("decodes");
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

#[test]
fn gfx12_reads_true16_as_triton_s_llvm_wrote_it() {
    // (dwords, llvm-objdump-22 --mattr=+real-true16), from tests/fixtures/triton/gfx1200.
    let cases: [(&[u32], &str); 8] = [
        // VOP1 opcode 28, vdst 1 (bit 7 clear: low half), src0 inline constant 0 (128).
        (&[0x7E023880], "v_mov_b16_e32 v1.l, 0"),
        // vdst 0x81: bit 7 set, VGPR 1's high half; src0 257: v1.l.
        (&[0x7F023901], "v_mov_b16_e32 v1.h, v1.l"),
        (&[0x7F023880], "v_mov_b16_e32 v1.h, 0"),
        // A 16-bit destination from a 32-bit source: only the destination has halves.
        (&[0x7EC8157B], "v_cvt_f16_f32_e32 v100.l, v123"),
        // VOP3: OP_SEL bit 3 (0x4000 in the first dword) picks the destination's high half.
        (
            &[0xD58A4064, 0x020101AC],
            "v_cvt_f16_f32_e64 v100.h, v172 op_sel:[0,1]",
        ),
        (
            &[0xD59C40A9, 0x02010080],
            "v_mov_b16_e64 v169.h, 0 op_sel:[0,1]",
        ),
        // OP_SEL bit 0 (0x0800): source 0's high half.
        (
            &[0xD59C08A9, 0x020101A9],
            "v_mov_b16_e64 v169.l, v169.h op_sel:[1,0]",
        ),
        (
            &[0xD59C40B0, 0x020101BE],
            "v_mov_b16_e64 v176.h, v190.l op_sel:[0,1]",
        ),
    ];
    for (words, llvm) in cases {
        assert_eq!(text_on("gfx1200", words), llvm, "{words:08X?}");
    }
}

#[test]
fn the_rest_of_the_triton_fixtures_prints_as_llvm_does() {
    // (processor, dwords, llvm-objdump-22's text): words of tests/fixtures/triton that printed
    // differently before (issue 48).
    let cases: [(&str, &[u32], &str); 6] = [
        // v_permlane*'s OP_SEL is FI and BOUND_CTRL: two entries, whatever the sources.
        (
            "gfx1200",
            &[0xD65C0882, 0x03FC015D, 0xFEDCBA98],
            "v_permlanex16_b32 v130, v93, s0, 0xfedcba98 op_sel:[1,0]",
        ),
        (
            "gfx1100",
            &[0xD65C083D, 0x03FCD13C, 0xFEDCBA98],
            "v_permlanex16_b32 v61, v60, s104, 0xfedcba98 op_sel:[1,0]",
        ),
        // v_wmma's source C is as wide as its destination.
        (
            "gfx1200",
            &[0xCC404028, 0x1CA3D1F0],
            "v_wmma_f32_16x16x16_f16 v[40:47], v[240:243], v[232:235], v[40:47]",
        ),
        (
            "gfx1100",
            &[0xCC404000, 0x1C034188],
            "v_wmma_f32_16x16x16_f16 v[0:7], v[136:143], v[160:167], v[0:7]",
        ),
        // gfx12's scalar transcendentals read an SGPR.
        ("gfx1200", &[0xD6840005, 0x02010005], "v_s_rcp_f32 s5, s5"),
        // gfx11+'s message 3.
        (
            "gfx1100",
            &[0xBFB60003],
            "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)",
        ),
    ];
    for (processor, words, llvm) in cases {
        assert_eq!(text_on(processor, words), llvm, "{processor} {words:08X?}");
    }
}
