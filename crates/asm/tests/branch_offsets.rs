//! Issue 47 item 17: numeric branch offsets (`s_branch 0x1234`, the form llvm-mc takes and
//! llvm-objdump-like printers show) in a text listing. llvm-mc-22 encodes the number as the
//! SOPP's simm16, a count of words from the next instruction (`s_branch 3` is
//! `[0x03,0x00,0x82,0xbf]`): target = address + 4 + 4 x offset. A listing with no addresses
//! gives its instructions' sizes by llvm-mc's `-show-encoding` comments; the offset then
//! resolves to the instruction at that address, and a target outside the listing is an error
//! at the branch's line and column.

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
    // Without encodings the sizes are unknown: the error says what would give them.
    let e = read("gfx900", "s_branch 0x3\ns_endpgm\n").unwrap_err();
    assert!(e.message.contains("-show-encoding"), "{e}");
    assert_eq!(e.pos.unwrap().line, 1);
}
