//! Code no wave can run is an error at its line (issue 47 item 12): `v_illegal` (what zeroed
//! or damaged code decodes as on gfx10+; the GPU traps on it) and a kernel its metadata
//! declares whose last instruction is not `s_endpgm`, a jump or a return (its `s_endpgm` cut
//! off, or none). The code-object side is in crates/codeobj/tests/damaged.rs.

use shadersim_asm::{read_program_text, AsmError, ReadOptions};

const LOOP_SUM: &str = include_str!("../../../tests/fixtures/llvm/gfx1100/loop_sum.s");

fn read_gfx1100(text: &str) -> Result<shadersim_asm::ProgramFile, AsmError> {
    let opts = ReadOptions {
        target: Some("gfx1100".parse().unwrap()),
        ..Default::default()
    };
    read_program_text("f.s", text, &opts)
}

#[test]
fn v_illegal_is_an_error_at_its_line() {
    // What a zeroed .text reads as in llvm-objdump-22's listing of it.
    let text = "k:\n\ts_nop 0\n\tv_illegal                 // 000000001900: 00000000\n\ts_endpgm\n";
    let e = read_gfx1100(text).unwrap_err();
    assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((3, 2)), "{e}");
    assert!(
        e.to_string().starts_with(
            "f.s:3:2: error: `v_illegal` is an illegal instruction (the GPU traps on it)"
        ),
        "{e}"
    );
}

#[test]
fn a_kernel_that_runs_past_its_end_is_an_error_at_its_last_instruction() {
    // clang-22's loop_sum for gfx1100 ends `s_nop 0; s_sendmsg ...; s_endpgm` (lines 45-47);
    // without the s_endpgm the kernel its metadata declares ends at the s_sendmsg.
    read_gfx1100(LOOP_SUM).expect("the fixture reads");
    let cut = LOOP_SUM.replacen("\ts_endpgm\n", "", 1);
    let e = read_gfx1100(&cut).unwrap_err();
    assert_eq!(e.pos.map(|p| p.line), Some(46), "{e}");
    assert!(
        e.message.starts_with(
            "kernel `loop_sum` ends at `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` with no `s_endpgm` after it"
        ),
        "{e}"
    );
}
