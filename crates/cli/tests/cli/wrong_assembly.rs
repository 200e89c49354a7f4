//! Wrong assembly the instruction table catches is exit 1 with
//! `FILE:LINE:COL: error:` (issue 17 item 2), as llvm-mc-22 refuses it.

use crate::shadersim;

/// Run `shadersim analyze` on `text` for `arch`: exit code and stderr.
fn analyze(name: &str, text: &str, arch: &str) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("shadersim-wrong-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.s"));
    std::fs::write(&file, text).unwrap();
    let o = shadersim(&["analyze", file.to_str().unwrap(), "--arch", arch]);
    let err = String::from_utf8(o.stderr).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (o.status.code(), err.replace(dir.to_str().unwrap(), "DIR"))
}

#[test]
fn an_instruction_the_processor_lacks_is_exit_1_at_its_place() {
    // llvm-mc-22 -mcpu=gfx900: "instruction not supported on this GPU";
    // gfx906 (the same generation) has the dot ops.
    let text = "v_mov_b32 v0, 0\n    v_dot2_f32_f16 v0, v1, v2, v3\ns_endpgm\n";
    let (code, err) = analyze("dot", text, "gfx900");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "DIR/dot.s:2:5: error: `v_dot2_f32_f16` does not exist on gfx900 (gfx906 has it)"
        ),
        "{err}"
    );
    let (code, err) = analyze("dot906", text, "gfx906");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_register_of_the_wrong_file_is_exit_1_at_the_operand() {
    // llvm-mc-22 -mcpu=gfx900: "2:15: error: invalid operand for instruction".
    let text = "s_nop 0\n    s_mov_b32 v0, s1\ns_endpgm\n";
    let (code, err) = analyze("kind", text, "gfx900");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("DIR/kind.s:2:15: error: `s_mov_b32` never takes a VGPR as operand 1 (it takes an SGPR)"),
        "{err}"
    );
}
