//! llvm-objdump output in the shapes its options give, for every
//! generation it disassembles, and RGA's ISA text: the same program
//! whatever the shape.

use shadersim_asm::{read_program_bytes, read_program_text, Dialect, ProgramFile, ReadOptions};
use shadersim_cfg::Cfg;
use std::path::PathBuf;

fn data(path: &str) -> (String, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../asm/tests/data")
        .join(path);
    (path.to_string(), std::fs::read_to_string(p).unwrap())
}

fn read(path: &str) -> ProgramFile {
    let (name, text) = data(path);
    read_program_bytes(&name, text.as_bytes(), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// What llvm-objdump itself printed: its instruction lines (an address and
/// encoding comment) without the `s_code_end` padding after the code.
fn objdump_instructions(text: &str) -> usize {
    text.lines()
        .filter(|l| l.contains("// 0000") && !l.trim_start().starts_with("s_code_end"))
        .count()
}

#[test]
fn every_objdump_shape_reads_as_the_same_program() {
    for (gfx, gen) in [
        ("gfx803", 8),
        ("gfx900", 9),
        ("gfx1030", 10),
        ("gfx1100", 11),
        ("gfx1200", 12),
    ] {
        let (_, default_text) = data(&format!("objdump/{gfx}/default.dis"));
        let expected = objdump_instructions(&default_text);
        let reference = read(&format!("objdump/{gfx}/default.dis"));
        let loops = Cfg::build(&reference.programs[0]).unwrap().loops.len();
        assert_eq!(loops, 1, "{gfx}: loop_sum has one loop");
        for variant in [
            "default",
            "line_numbers",
            "symbolize_operands",
            "no_leading_addr",
            "relocatable",
        ] {
            let path = format!("objdump/{gfx}/{variant}.dis");
            let f = read(&path);
            assert_eq!(f.dialect, Dialect::Objdump, "{path}");
            let p = &f.programs[0];
            assert_eq!(p.name, "loop_sum", "{path}");
            assert_eq!(p.instructions.len(), expected, "{path}");
            assert_eq!(p.gen().number(), gen, "{path}: guessed generation");
            let cfg = Cfg::build(p).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(cfg.loops.len(), loops, "{path}: loops");
            if variant == "line_numbers" {
                assert!(p.instructions.iter().all(|i| i.source.is_some()), "{path}");
                assert!(f
                    .source_files
                    .iter()
                    .any(|(_, s)| s.ends_with("ocl_shim.h")));
            }
        }
    }
}

#[test]
fn calls_in_objdump_output_are_followed() {
    // Unlinked object: the call addresses are relocations naming the callee.
    let f = read("objdump/calls_reloc.dis");
    let helper = f.program(Some("helper")).unwrap().instructions.len();
    let caller = f.program(None).unwrap();
    assert_eq!(caller.name, "caller");
    let own = caller
        .instructions
        .iter()
        .filter(|i| {
            i.pos.line
                > f.program(Some("helper"))
                    .unwrap()
                    .instructions
                    .last()
                    .unwrap()
                    .pos
                    .line
        })
        .count();
    assert_eq!(caller.instructions.len(), own + 2 * helper);
    assert!(f
        .formatted_warnings()
        .iter()
        .any(|w| w.contains("`_Z13get_global_idj`, which is not a function of this file")));
    // Linked: the calls are PC-relative arithmetic on s_getpc_b64.
    let f = read("objdump/calls_linked.dis");
    let helper = f.program(Some("helper")).unwrap();
    assert!(helper.device_function);
    let caller = f.program(None).unwrap();
    let copies = caller
        .instructions
        .iter()
        .filter(|i| {
            i.address
                .is_some_and(|a| helper.instructions.iter().any(|h| h.address == Some(a)))
        })
        .count();
    assert_eq!(copies, 2 * helper.instructions.len());
    assert!(
        !f.formatted_warnings()
            .iter()
            .any(|w| w.contains("warning: call")),
        "{:?}",
        f.formatted_warnings()
    );
}

/// RGA's ISA text (AMD's SP3 syntax), in the shape RGA prints it; written
/// for this test from the gfx1030 loop_sum listing above.
const RGA: &str = "; -------- Disassembly --------------------
shader main
  asic(GFX10.3)
  type(CS)
  sgpr_count(16)
  vgpr_count(8)
  wave_size(64)

  s_load_dword  s7, s[4:5], 0x24                          // 000000000000: F40001C2 FA000024
  v_mov_b32     v1, 0                                     // 000000000008: 7E020280
  s_waitcnt     lgkmcnt(0)                                // 00000000000C: BF8CC07F
  s_cmp_lt_i32  s7, 1                                     // 000000000010: BF048107
  s_cbranch_scc1  label_0008                              // 000000000014: BF850002
label_0006:
  s_sub_i32     s7, s7, 1                                 // 000000000018: 81878107
  s_cbranch_scc1  label_0006                              // 00000000001C: BF85FFFE
label_0008:
  s_endpgm                                                // 000000000020: BF810000
end

; -------- Statistics ---------------------
; SGPRs: 16 out of 104 used
; VGPRs: 8 out of 256 used
; LDS: 1024 out of 65536 bytes used
";

#[test]
fn rga_isa_text() {
    let f = read_program_text("main.isa", RGA, &ReadOptions::default()).unwrap();
    assert_eq!(f.dialect, Dialect::Rga);
    assert!(f.warnings.is_empty(), "{:?}", f.formatted_warnings());
    let p = &f.programs[0];
    assert_eq!(p.name, "main");
    assert_eq!(p.target.as_ref().unwrap().name, "gfx1030");
    assert_eq!(p.stage.map(|s| s.name()), Some("compute"));
    assert_eq!(p.instructions.len(), 8);
    assert_eq!(p.declared.vgprs, Some(8));
    assert_eq!(p.declared.sgprs, Some(16));
    assert_eq!(p.declared.wave_size, Some(64));
    assert_eq!(p.declared.lds_bytes, Some(1024));
    assert_eq!(p.instructions[1].address, Some(8));
    let cfg = Cfg::build(p).unwrap();
    assert_eq!(cfg.loops.len(), 1);
    // Errors keep their positions.
    let bad = RGA.replace("s_sub_i32     s7, s7, 1", "s_sub_i32     s7, s7, s[1:");
    let e = read_program_text("main.isa", &bad, &ReadOptions::default()).unwrap_err();
    assert_eq!(e.pos.map(|p| p.line), Some(15));
    assert!(e.to_string().starts_with("main.isa:15:"), "{e}");
}
