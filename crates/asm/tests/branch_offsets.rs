//! Issue 47 item 17: numeric branch offsets (`s_branch 0x1234`, the form llvm-mc takes and
//! llvm-objdump-like printers show) in a text listing. llvm-mc-22 encodes the number as the
//! SOPP's simm16, a count of words from the next instruction (`s_branch 3` is
//! `[0x03,0x00,0x82,0xbf]`): target = address + 4 + 4 x offset. A listing with no addresses
//! gives its instructions' sizes by llvm-mc's `-show-encoding` comments, or, without them, by
//! the size model (shadersim_isa::size: encoding width and literal); the offset then resolves
//! to the instruction at that address, and a target outside the listing or inside an
//! instruction is an error at the branch's line and column.

use shadersim_asm::{read_program_text, ReadOptions};

fn read(cpu: &str, text: &str) -> Result<shadersim_asm::ProgramFile, shadersim_asm::AsmError> {
    let opts = ReadOptions {
        target: Some(cpu.parse().unwrap()),
        ..Default::default()
    };
    read_program_text("f.s", text, &opts)
}

/// `printf '...' | llvm-mc-22 -triple=amdgcn -mcpu=gfx900 -show-encoding` of a counted loop
/// and a forward skip, written with numeric offsets. Addresses from the sizes: s_add 0,
/// v_add_f32_e32 with a literal 4 (8 bytes), s_cmp 12, s_cbranch_scc1 16, s_cbranch_scc0 20,
/// s_nop 24, s_endpgm 28.
const LOOP: &str = "\
\ts_add_i32 s0, s0, 1                     ; encoding: [0x00,0x81,0x00,0x81]
\tv_add_f32_e32 v0, 0x3fc00000, v1        ; encoding: [0xff,0x02,0x00,0x02,0x00,0x00,0xc0,0x3f]
\ts_cmp_lt_u32 s0, 4                      ; encoding: [0x00,0x84,0x0a,0xbf]
\ts_cbranch_scc1 -5                       ; encoding: [0xfb,0xff,0x85,0xbf]
\ts_cbranch_scc0 1                        ; encoding: [0x01,0x00,0x84,0xbf]
\ts_nop 0                                 ; encoding: [0x00,0x00,0x80,0xbf]
\ts_endpgm                                ; encoding: [0x00,0x00,0x81,0xbf]
";

#[test]
fn a_numeric_offset_resolves_to_the_instruction_at_its_address() {
    let file = read("gfx900", LOOP).unwrap();
    let p = &file.programs[0];
    // s_cbranch_scc1 -5 at 16: 16 + 4 - 20 = 0, the s_add (index 0), a loop back edge;
    // s_cbranch_scc0 1 at 20: 20 + 4 + 4 = 28, the s_endpgm (index 6), over the s_nop.
    assert_eq!(p.branch_targets[3], Some(0));
    assert_eq!(p.branch_targets[4], Some(6));
    // Each target gets a label named by its address, as for objdump listings.
    let named: Vec<&str> = p.labels.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(named, [".L_0x0", ".L_0x1c"]);
}

#[test]
fn a_target_outside_the_listing_is_an_error_at_the_branch() {
    // `s_branch 0x1234` (llvm-mc-22 -mcpu=gfx1100: `s_branch 4660 ; encoding:
    // [0x34,0x12,0xa0,0xbf]`): 0 + 4 + 4 x 4660 = 0x48d4, past the 8 bytes of code.
    let text = "\ts_branch 4660                           ; encoding: [0x34,0x12,0xa0,0xbf]
\ts_endpgm                                ; encoding: [0x00,0x00,0xb0,0xbf]
";
    let e = read("gfx1100", text).unwrap_err();
    let pos = e.pos.unwrap();
    assert_eq!((pos.line, pos.column), (1, 2), "{e}");
    assert!(e.message.contains("0x48d4"), "{e}");
    assert!(e.message.contains("spans 0x0 to 0x8"), "{e}");
    // A target inside an instruction (the literal's word of the v_add) is no instruction.
    let inside = LOOP.replace(
        "s_cbranch_scc0 1                        ; encoding: [0x01,0x00,0x84,0xbf]",
        "s_cbranch_scc0 -4                       ; encoding: [0xfc,0xff,0x84,0xbf]",
    );
    let e = read("gfx900", &inside).unwrap_err();
    assert!(e.message.contains("branch target 0x8 "), "{e}");
    // Without encodings the sizes come from the model: s_branch 3 at 0 targets 0 + 4 + 12 =
    // 0x10, past the 8 bytes of `s_branch; s_endpgm` (4 each).
    let e = read("gfx900", "s_branch 0x3\ns_endpgm\n").unwrap_err();
    assert!(e.message.contains("branch target 0x10 "), "{e}");
    assert!(e.message.contains("spans 0x0 to 0x8"), "{e}");
    assert_eq!(e.pos.unwrap().line, 1);
}

/// LOOP without its encoding comments: the sizes come from shadersim_isa::size (checked against
/// llvm-mc-22 by instruction_sizes.rs), so the offsets resolve as above.
#[test]
fn a_bare_listing_sizes_its_instructions_itself() {
    let bare: String = LOOP
        .lines()
        .map(|l| l.split(';').next().unwrap().trim_end().to_string() + "\n")
        .collect();
    let p = &read("gfx900", &bare).unwrap().programs[0];
    assert_eq!(p.branch_targets[3], Some(0));
    assert_eq!(p.branch_targets[4], Some(6));
}

/// A gfx1100 loop written with labels, assembled by llvm-mc-22 (-filetype=obj, then
/// llvm-objdump-22 -d) to find the offsets it encodes: the sizes are v_add_nc_u32 with a
/// literal 8 (VOP2 + literal), v_cmp_gt_u32 into s4 8 (VOP3: the destination is not VCC),
/// v_fma_f32 with a literal 12, v_mul_f32 by 1/(2 pi) 4 (inline), s_add_u32 4, s_cmp_lg_u32
/// with 0x100 8 (a literal), so s_cbranch_scc1 sits at 0x2c and llvm-objdump-22 shows
/// `s_cbranch_scc1 65524` (-12: 0x2c + 4 - 48 = 0); v_cndmask_b32 on s4 8 (VOP3), so
/// s_cbranch_vccz sits at 0x38 and encodes 1 (0x38 + 4 + 4 = 0x40, the s_endpgm after the
/// 4-byte v_add_f16 whose 0x3c00 is the inline 1.0).
const RDNA3_LOOP: &str = "\
\tv_add_nc_u32 v0, 0x1234, v0
\tv_cmp_gt_u32 s4, 64, v0
\tv_fma_f32 v1, v2, 0x40490fdb, v3
\tv_mul_f32 v1, 0.15915494, v1
\ts_add_u32 s0, s0, 1
\ts_cmp_lg_u32 s0, 0x100
\ts_cbranch_scc1 -12
\tv_cndmask_b32 v0, v1, v2, s4
\ts_cbranch_vccz 1
\tv_add_f16 v1.l, 0x3c00, v1.l
\ts_endpgm
";

#[test]
fn a_bare_rdna3_listing_resolves_as_llvm_mc_encodes_it() {
    let p = &read("gfx1100", RDNA3_LOOP).unwrap().programs[0];
    assert_eq!(p.branch_targets[6], Some(0));
    assert_eq!(p.branch_targets[8], Some(10));
    // One word less lands inside s_cmp_lg_u32's literal (0x2c + 4 - 4 x 3 = 0x24 is the
    // s_cmp; 0x28 is its literal): an error at the branch's line and column.
    let off = RDNA3_LOOP.replace("s_cbranch_scc1 -12", "s_cbranch_scc1 -2");
    let e = read("gfx1100", &off).unwrap_err();
    let pos = e.pos.unwrap();
    assert_eq!((pos.line, pos.column), (7, 2), "{e}");
    assert!(e.message.contains("branch target 0x28 "), "{e}");
    assert!(e.message.contains("spans 0x0 to 0x44"), "{e}");
}

#[test]
fn a_size_the_model_cannot_tell_is_named_at_the_branch() {
    // v_cvt_f32_f16 with 0x3c00: inline (1.0) if the source is read as f16, a literal if not;
    // the mnemonic's types do not settle which operand the constant is, so the model declines
    // and the branch after it names that line.
    let text = "\tv_cvt_f32_f16 v0, 0x3c00\n\ts_branch 0\n\ts_endpgm\n";
    let e = read("gfx1100", text).unwrap_err();
    assert_eq!(e.pos.unwrap().line, 2, "{e}");
    assert!(e.message.contains("from line 1 on are not known"), "{e}");
    // A branch before it still resolves when its target lies before it too.
    let text = "\ts_nop 0\n\ts_branch -2\n\tv_cvt_f32_f16 v0, 0x3c00\n\ts_endpgm\n";
    let p = &read("gfx1100", text).unwrap().programs[0];
    assert_eq!(p.branch_targets[1], Some(0));
}
