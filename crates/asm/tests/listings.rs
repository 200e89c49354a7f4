//! Listing shapes beyond the compilers' own files: bare ACO listings (the
//! Vulkan "Assembly" representation) and ACO's folded repeats.

use shadersim_asm::{read_program_text, Dialect, ReadOptions};

fn gfx1030() -> ReadOptions {
    ReadOptions {
        target: Some("gfx1030".parse().unwrap()),
        ..Default::default()
    }
}

/// A listing in the shape ACO prints (written for this test).
const BARE: &str = "BB0:
\tv_mov_b32_e32 v1, 0                                         ; 7e020280
\tbuffer_store_dword v1, off, s[8:11], 0                      ; e0700000 80020180
\t(then repeated 3 times)
\ts_cbranch_scc1 BB2                                          ; bf850001

BB1:
\ts_nop 0                                                     ; bf800000
BB2:
\ts_endpgm                                                    ; bf810000
";

#[test]
fn a_bare_aco_listing_is_one_program_empty_lines_included() {
    let f = read_program_text("dir/pass.cs.s", BARE, &gfx1030()).unwrap();
    assert_eq!(f.dialect, Dialect::Aco);
    assert_eq!(f.programs.len(), 1);
    let p = &f.programs[0];
    assert_eq!(p.name, "pass");
    // 5 printed instructions + 3 repeats.
    assert_eq!(p.instructions.len(), 8);
    let repeats: Vec<_> = p.instructions[2..5].iter().collect();
    for r in &repeats {
        assert_eq!(r.pos.line, 4);
        assert_eq!(r.pos.column, 2);
        assert_eq!(r.text, "buffer_store_dword v1, off, s[8:11], 0");
        assert_eq!(r.encoding, vec![0xe070_0000, 0x8002_0180]);
    }
    assert_eq!(p.instructions[1].pos.line, 3);
    // The branch over the empty line resolves to BB2 (after the repeats).
    assert_eq!(p.branch_targets[5], Some(7));
}

#[test]
fn repeats_inside_a_radv_dump_disasm_block() {
    let text = format!("Compute Shader\ndisasm:\n{}", BARE.replace("\n\n", "\n"));
    let f = read_program_text("d.txt", &text, &gfx1030()).unwrap();
    assert_eq!(f.programs.len(), 1);
    assert_eq!(f.programs[0].name, "Compute Shader");
    assert_eq!(f.programs[0].instructions.len(), 8);
}

#[test]
fn the_guess_names_its_evidence() {
    // No encodings, mnemonics that every generation prints, but a wave32
    // operand: gfx10 or later.
    let text =
        "\tv_cmp_gt_f32_e32 vcc_lo, 0, v1\n\tv_cndmask_b32_e32 v0, 0, v1, vcc_lo\n\ts_endpgm\n";
    let f = read_program_text("w.s", text, &ReadOptions::default()).unwrap();
    assert_eq!(f.programs[0].target.as_ref().unwrap().name, "gfx1030");
    let w = &f.formatted_warnings()[0];
    assert!(w.contains("wave32 operand `vcc_lo` (line 1)"), "{w}");
    // A tool's header naming the processor wins over everything else.
    let text = "; compiled for gfx1100\n\tv_mov_b32 v0, 0\n\ts_endpgm\n";
    let f = read_program_text("h.s", text, &ReadOptions::default()).unwrap();
    assert_eq!(f.programs[0].target.as_ref().unwrap().name, "gfx1100");
    assert!(f.formatted_warnings()[0].contains("the listing says `; compiled for gfx1100`"));
}
