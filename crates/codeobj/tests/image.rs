//! Image instructions: the BVH ops decode with their address lists; the other image ops are
//! refused with a clear error (their address count depends on the dimension, A16 and the
//! opcode's arguments). Encodings are llvm-mc-22 -show-encoding's.

use shadersim_codeobj::decode::decode;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn gfx11_nsa_bvh_with_a16_lists_four_addresses_in_one_extra_dword() {
    // `image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[1:3]], s[8:11] a16`: NSA bit 0
    // set; four address operands, vaddr0 in bits 39:32 and the other three one byte each in
    // one more dword (0x00010B0A), so the instruction is 3 dwords.
    let code = bytes(&[0xF0658F81, 0x00020409, 0x00010B0A]);
    let d = decode("gfx1100", &code, 0).expect("decodes");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].words.len(), 3);
    assert_eq!(
        d[0].text,
        "image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[1:3]], s[8:11] a16"
    );
}

#[test]
fn image_ops_other_than_bvh_are_a_clear_error() {
    // `image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D` (gfx1100).
    let code = bytes(&[0xF0000100, 0x00000000]);
    let e = decode("gfx1100", &code, 0).expect_err("not decoded yet");
    assert_eq!(e.offset, 0);
    assert!(
        e.message.contains("image_load (MIMG) is not decoded yet"),
        "{}",
        e.message
    );
}

#[test]
fn exports_and_interpolation_are_a_clear_error() {
    // `exp mrt0 v0, v0, v0, v0` (gfx1100: EXP, bits 31:26 = 0b111110, 64 bits) and
    // `v_interp_p1_f32_e32 v0, v0, attr0.x` (gfx1030: VINTRP, bits 31:26 = 0b110010).
    let e = decode("gfx1100", &bytes(&[0xF800000F, 0]), 0).expect_err("graphics-only");
    assert!(e.message.contains("exp (EXP"), "{}", e.message);
    assert!(e.message.contains("graphics-only"), "{}", e.message);
    let e = decode("gfx1030", &bytes(&[0xC8000000]), 0).expect_err("graphics-only");
    assert!(
        e.message.contains("v_interp_p1_f32_e32 (VINTRP"),
        "{}",
        e.message
    );
}
