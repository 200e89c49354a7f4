//! Bad input gets a clear error with its position, or is skipped by a
//! documented rule (see the reader's module documentation); never a panic.

use proptest::prelude::*;
use shadersim_asm::{read_program_bytes, read_program_text, AsmError, ReadOptions, SourcePos};

fn gfx900() -> ReadOptions {
    ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    }
}

fn err(text: &str) -> AsmError {
    read_program_text("f.s", text, &gfx900()).unwrap_err()
}

fn at(e: &AsmError) -> (u32, u32) {
    let p = e.pos.expect("error has a position");
    (p.line, p.column)
}

#[test]
fn empty_and_comment_only_files() {
    for text in ["", "\n\n", "; just a comment\n", "\t.text\n\t.p2align 8\n"] {
        let e = err(text);
        assert!(e.message.contains("no instructions found"), "{e}");
        assert!(e.to_string().starts_with("f.s: error:"));
    }
}

#[test]
fn truncated_lines_and_bad_ranges_point_at_the_operand() {
    let e = err("s_mov_b32 s0, 0\n  v_add_f32 v0, v[1:\n");
    // The column of the `[` that is never closed.
    assert_eq!(at(&e), (2, 18));
    assert!(e.message.contains("unbalanced"), "{e}");
    let e = err("v_add_f32 v0, v[7:4], v1\n");
    assert_eq!(at(&e), (1, 15));
    assert!(e.message.contains("bad register range `v[7:4]`"), "{e}");
    let e = err("v_mov_b32 v0, v300\n");
    assert!(e.message.contains("out of range"), "{e}");
    let e = err("buffer_load_dword v0, v1, s[0:3], 0 offen,\n");
    assert_eq!(
        e.to_string(),
        "f.s:1:37: error: unexpected `offen` before a comma"
    );
    let e = err("v_add_f32 v0, , v1\n");
    assert!(e.message.contains("empty operand"), "{e}");
    assert_eq!(
        err("s_waitcnt vmcnt(0)\nfrobnicate v0\n").to_string(),
        "f.s:2:1: error: unknown instruction `frobnicate`"
    );
}

#[test]
fn unknown_directives_are_skipped_with_a_warning() {
    let f = read_program_text(
        "f.s",
        ".frobnicate 3\nv_add_f32 v0, v1, v2\ns_endpgm\n",
        &gfx900(),
    )
    .unwrap();
    assert_eq!(f.programs[0].instructions.len(), 2);
    assert_eq!(f.warnings.len(), 1);
    assert_eq!(
        f.formatted_warnings()[0],
        "f.s:1:1: warning: skipped unknown directive `.frobnicate`"
    );
}

#[test]
fn branches_to_missing_labels_and_duplicate_labels() {
    let e = err("s_branch .Lnowhere\ns_endpgm\n");
    // At the operand: `s_branch ` is 9 characters.
    assert_eq!(at(&e), (1, 10));
    assert!(
        e.message.contains("`.Lnowhere`, which is not a label"),
        "{e}"
    );
    let e = err(".La:\ns_nop 0\n.La:\ns_endpgm\n");
    assert_eq!(at(&e), (3, 1));
    assert!(e.message.contains("defined twice"), "{e}");
}

#[test]
fn branches_to_plain_names_resolve_or_are_errors_at_the_target() {
    // Reduced from the mutation harness of issue 32: these were dropped
    // from the CFG (`s_cbranch_execz nowhere`), became a jump to the exit
    // (`s_branch nowhere`) or were accepted (`s_cbranch_scc1 '`).
    let body = |branch: &str| format!("k:\n\ts_mov_b32 s0, 0\n\t{branch}\n\ts_nop 0\n\ts_endpgm\n");
    for (branch, message) in [
        (
            "s_cbranch_execz nowhere",
            "branch to `nowhere`, which is not a label of `f`",
        ),
        (
            "s_branch nowhere",
            "branch to `nowhere`, which is not a label of `f`",
        ),
        (
            "s_cbranch_scc1 '",
            "`'` is not an operand: `'` belongs in no operand",
        ),
    ] {
        let e = err(&body(branch));
        // Column: the tab, then the mnemonic and one space.
        let col = 2 + branch.find(' ').unwrap() as u32 + 1;
        assert_eq!(e.to_string(), format!("f.s:3:{col}: error: {message}"));
    }
    // A plain label the file defines (LLVM dialect, not `.L`-prefixed)
    // resolves to an edge: the branch on line 3 targets `foo` (line 5),
    // i.e. instruction 3 (s_mov_b32, s_cbranch_scc1, s_nop, s_endpgm). `k:`
    // is a label too (no `.type k,@function`): the program is named `f`
    // after the file.
    let f = read_program_text(
        "f.s",
        "k:\n\ts_mov_b32 s0, 0\n\ts_cbranch_scc1 foo\n\ts_nop 0\nfoo:\n\ts_endpgm\n",
        &gfx900(),
    )
    .unwrap();
    assert_eq!(
        f.programs[0].branch_targets,
        vec![None, Some(3), None, None]
    );
}

#[test]
fn garbage_operands_and_too_many_operands_are_errors_at_the_operand() {
    // Reduced from the mutation harness of issue 32: each line read with
    // exit 0 and its operand ignored. Columns count from 1 on the
    // unindented line.
    let cases: &[(&str, &str)] = &[
        ("v_mov_b32_e32 [], 0", "1:15: error: `[]` is not an operand: an empty register list"),
        (
            "v_mov_b32_e32 vmcnt(-1), s3",
            "1:15: error: `v_mov_b32_e32` never takes `vmcnt(-1)` as operand 1 (it takes a VGPR)",
        ),
        ("v_and_b32_e32 -, 2, v0", "1:15: error: `-` is not an operand: nothing follows the sign"),
        ("s_mov_b32 ', 0", "1:11: error: `'` is not an operand: `'` belongs in no operand"),
        (
            "ds_read_b32 -0x8000000000000000, v3",
            "1:13: error: `-0x8000000000000000` is not an operand: not a number (an integer must fit in 64 bits, a float must be finite)",
        ),
        (
            "v_mov_b32 0x1234567890123456789012345678901234567890, v1",
            "1:11: error: `0x1234567890123456789012345678901234567890` is not an operand: not a number (an integer must fit in 64 bits, a float must be finite)",
        ),
        ("v_mov_b32 v0, @@#", "1:15: error: `@@#` is not an operand: `#` belongs in no operand"),
        ("v_mov_b32 v0, 1e999", "1:15: error: `1e999` is not an operand: not a number (an integer must fit in 64 bits, a float must be finite)"),
        ("v_mov_b32 v0, 0.0.0", "1:15: error: `0.0.0` is not an operand: not a number (an integer must fit in 64 bits, a float must be finite)"),
        ("v_mov_b32 v0, \"", "1:15: error: `\"` is not an operand: `\"` belongs in no operand"),
        (
            "v_mov_b32 v-1, v0",
            "1:11: error: `v_mov_b32` never takes `v-1` as operand 1 (it takes a VGPR)",
        ),
        // SOP1 takes at most two operands, SOPP one: the first extra one.
        (
            "s_mov_b32 s9, 8, v1",
            "1:18: error: too many operands: `s_mov_b32` takes at most 2 (SOP1 encoding), this line gives 3",
        ),
        (
            "s_endpgm m0, s2",
            "1:14: error: too many operands: `s_endpgm` takes at most 1 (SOPP encoding), this line gives 2",
        ),
        // A byte-order mark or zero-width space inside a register name is
        // refused, not stripped (see `malformed_operand`).
        (
            "s_mov_b32 s0, s\u{FEFF}1",
            "1:15: error: `s\u{FEFF}1` is not an operand: it holds U+FEFF, a character outside ASCII (an invisible one if you see none)",
        ),
        (
            "v_mov_b32 v0, v\u{200B}1",
            "1:15: error: `v\u{200B}1` is not an operand: it holds U+200B, a character outside ASCII (an invisible one if you see none)",
        ),
    ];
    for (line, expected) in cases {
        let e = err(&format!("{line}\ns_endpgm\n"));
        assert_eq!(e.to_string(), format!("f.s:{expected}"), "{line}");
    }
}

#[test]
fn an_instruction_with_thousands_of_operands_is_an_error_at_the_line() {
    // Issue 35: 65,534 register operands on one line (a 1 MB line) made
    // the engine panic ("few slots per op"). The reader states a limit of
    // 64 operands per instruction; the 65th operand's column is reported.
    let many = |head: &str| {
        let mut line = head.to_string();
        for _ in 0..65_534 {
            line.push_str(", v1");
        }
        format!("{line}\ns_endpgm\n")
    };
    // A family-rule mnemonic (no table entry, so no encoding maximum) and
    // a VOPD line's second half. `v_foo_f32 v0` is 12 characters and each
    // `, v1` 4: operand k >= 1 starts at offset 12 + 4 (k - 1) + 2, so the
    // 65th (k = 64) at 266, column 267.
    let e = err(&many("v_foo_f32 v0"));
    assert_eq!(
        e.to_string(),
        "f.s:1:267: error: `v_foo_f32` names 65535 operands; an instruction may name at most 64 (no real one comes near)"
    );
    let dual = read_program_text(
        "f.s",
        &many("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4"),
        &ReadOptions {
            target: Some("gfx1100".parse().unwrap()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        dual.to_string().starts_with("f.s:1:")
            && dual.message
                == "`v_dual_add_f32` names 65536 operands; an instruction may name at most 64 (no real one comes near)",
        "{dual}"
    );
}

#[test]
fn bad_repeat_lines_point_at_the_repeat() {
    let aco = |body: &str| format!("BB0:\n\ts_nop 0 ; bf800000\n{body}\ts_endpgm ; bf810000\n");
    let e = err(&aco("\t(then repeated many times)\n"));
    assert_eq!(at(&e), (3, 2));
    assert!(e.message.contains("decimal count"), "{e}");
    let e = err(&aco("\t(then repeated 99999999 times)\n"));
    assert!(e.message.contains("larger than any shader"), "{e}");
    // Nothing to repeat: first line, or right after a block label.
    let e = err("\t(then repeated 2 times)\n\ts_endpgm ; bf810000\n");
    assert_eq!(at(&e), (1, 2));
    assert!(e.message.contains("must follow an instruction"), "{e}");
    let e = err(&aco("BB1:\n\t(then repeated 2 times)\n"));
    assert_eq!(at(&e), (4, 2));
}

#[test]
fn binary_garbage_and_bad_utf8() {
    let e = read_program_bytes("f.bin", b"\x7fELF\x02\x01\x01\0\0\0", &gfx900()).unwrap_err();
    assert_eq!(e.pos, Some(SourcePos { line: 1, column: 8 }));
    assert!(e.message.contains("binary data"), "{e}");
    let e = read_program_bytes("f.s", b"s_nop 0\ns_endpgm \xff\xfe\n", &gfx900()).unwrap_err();
    assert_eq!(
        e.pos,
        Some(SourcePos {
            line: 2,
            column: 10
        })
    );
    assert!(e.message.contains("invalid UTF-8"), "{e}");
}

#[test]
fn a_fifty_megabyte_file_is_read() {
    // ~1.6 million instructions: read in one pass, no quadratic work.
    let line = "\tv_fma_f32 v0, v1, v2, v3\n";
    let n = 50 * 1024 * 1024 / line.len();
    let mut text = String::with_capacity(n * line.len() + 16);
    for _ in 0..n {
        text.push_str(line);
    }
    text.push_str("\ts_endpgm\n");
    let f = read_program_text("big.s", &text, &gfx900()).unwrap();
    assert_eq!(f.programs[0].instructions.len(), n + 1);
    // A single 50 MB line of garbage is an error, not a hang.
    let garbage = "x".repeat(50 * 1024 * 1024);
    let e = read_program_text("big.s", &garbage, &gfx900()).unwrap_err();
    assert_eq!(at(&e), (1, 1));
}

const VOCAB: &[&str] = &[
    "v_add_f32",
    "s_mov_b32",
    "s_cbranch_scc1",
    "s_branch",
    "s_waitcnt",
    "buffer_load_dword",
    "image_sample",
    "exp",
    "s_endpgm",
    "v0",
    "v[0:3]",
    "v[3:0]",
    "s[0:1]",
    "vcc",
    "exec",
    "m0",
    ",",
    " ",
    "\t",
    "\n",
    ":",
    ".L1",
    ".L1:",
    "BB0:",
    "BB0",
    ";",
    "//",
    "0x1f",
    "-1.0",
    "vmcnt(0)",
    "lgkmcnt(",
    "offset:16",
    "dmask:0xf",
    "[",
    "]",
    "(",
    ")",
    "|",
    "::",
    "v_dual_mul_f32",
    ".amdhsa_kernel k",
    ".end_amdhsa_kernel",
    ".type k,@function",
    "k:",
    "disasm:",
    "; bf810000",
    "// 000000001000: BF810000",
    "0000000000001000 <k>:",
    "\"",
    ".section .rodata",
    ".text",
    "(then repeated 3 times)",
    "(then repeated 99999999 times)",
    "(then repeated",
    "\ts_nop 0                ; bf800000",
    "asic(GFX10.3)",
    "shader main",
    "end",
    "type(CS)",
    "label_0001:",
    "label_0001",
    "<L0>:",
    "L0",
    "0000000000000140:  R_AMDGPU_REL32_LO\thelper+0x4",
    "; ./x.cl:3",
    ".loc 0 3 5",
    ".file 0 \"a\" \"b.cl\"",
    ".set a, max(b, 1)",
    ".set b, a",
    ".amdhsa_next_free_vgpr max(a, 1)",
    "s_swappc_b64 s[30:31], s[8:9]",
    "s_getpc_b64 s[8:9]",
    "s_setpc_b64 s[30:31]",
    "helper@rel32@lo+4",
    "helper:",
    ".type helper,@function",
    "workgroup-size: 256, 1, 1",
    ".amdgpu_metadata",
    "amdhsa.kernels:",
    "  - .name: k",
    "    .reqd_workgroup_size: [ 64, 1, 1 ]",
    ".end_amdgpu_metadata",
    // Garbage operands (issue 32): refused at their column, never a panic.
    "'",
    "@@#",
    "1e999",
    "0.0.0",
    "[]",
    "-",
    "s\u{FEFF}1",
    "-0x8000000000000000",
    "vmcnt(-1)",
    "nowhere",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reading_never_panics_on_token_soup(tokens in proptest::collection::vec(0..VOCAB.len(), 0..60)) {
        let text: String = tokens.iter().map(|&i| VOCAB[i]).collect();
        if let Err(e) = read_program_text("p.s", &text, &ReadOptions::default()) {
            if let Some(p) = e.pos {
                let lines = text.lines().count().max(1) as u32;
                prop_assert!(p.line >= 1 && p.line <= lines + 1, "{e}");
            }
        }
    }

    #[test]
    fn reading_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_program_bytes("p.s", &bytes, &ReadOptions::default());
    }
}

#[test]
fn files_without_a_target_are_read_as_the_gpu_their_mnemonics_say() {
    // Real RADV dumps name no GPU; the guess (with a warning) follows the
    // generations whose compilers print every mnemonic of the disasm block.
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    for (path, expected) in [
        ("radv/polaris10/lighting.txt", "gfx803"),
        ("radv/vega10/reduce.txt", "gfx900"),
        ("radv/navi21/blur.txt", "gfx1030"),
        ("radv/gfx1100/reduce_wave32.txt", "gfx1100"),
        ("objdump/gfx1200/lds_reduce.dis", "gfx1200"),
        ("objdump/gfx803/if_else.dis", "gfx803"),
    ] {
        let bytes = std::fs::read(root.join(path)).unwrap();
        let f = read_program_bytes(path, &bytes, &ReadOptions::default()).unwrap();
        assert_eq!(
            f.programs[0].target.as_ref().unwrap().name,
            expected,
            "{path}"
        );
        assert!(
            f.warnings
                .iter()
                .any(|w| w.message.contains("does not name its GPU")),
            "{path}"
        );
    }
}
