//! Issue 17 item 2: assembly that is wrong is an error at its column, as
//! llvm-mc-22 refuses it (its messages are quoted in each test).

use shadersim_asm::{read_program_text, AsmError, ReadOptions};

fn read(target: Option<&str>, text: &str) -> Result<shadersim_asm::ProgramFile, AsmError> {
    let opts = ReadOptions {
        target: target.map(|t| t.parse().unwrap()),
        ..Default::default()
    };
    read_program_text("f.s", text, &opts)
}

fn at(e: &AsmError) -> (u32, u32) {
    let p = e.pos.expect("error has a position");
    (p.line, p.column)
}

#[test]
fn a_wait_field_beyond_its_counter_is_an_error_at_the_field() {
    // gfx9's vmcnt is 6 bits (at most 63); llvm-mc-22 -mcpu=gfx900:
    // "error: too large value for vmcnt".
    let e = read(
        Some("gfx900"),
        "v_mov_b32 v0, 0\ns_waitcnt vmcnt(99)\ns_endpgm\n",
    )
    .unwrap_err();
    assert_eq!(at(&e), (2, 11), "{e}");
    assert!(e.message.contains("6 bits wide, at most 63"), "{e}");
    // On gfx8 the field is 4 bits: 15 is the most.
    let e = read(Some("gfx803"), "s_waitcnt vmcnt(16) lgkmcnt(0)\ns_endpgm\n").unwrap_err();
    assert_eq!(at(&e), (1, 11), "{e}");
    // In range, or saturating on purpose, it reads.
    read(
        Some("gfx900"),
        "s_waitcnt vmcnt(63) lgkmcnt(15)\ns_endpgm\n",
    )
    .unwrap();
    read(Some("gfx900"), "s_waitcnt vmcnt_sat(99)\ns_endpgm\n").unwrap();
}

#[test]
fn a_wait_field_too_wide_for_a_guessed_target_is_a_warning() {
    // Without a named GPU the generation is a guess; the field may fit the
    // real one, so the reader warns at the field and reads on.
    let f = read(None, "s_waitcnt vmcnt(99)\ns_endpgm\n").unwrap();
    assert!(
        f.warnings.iter().any(|w| w.message.contains("vmcnt")),
        "{:?}",
        f.warnings
    );
}

#[test]
fn an_instruction_the_named_generation_lacks_is_an_error() {
    // The table lists v_dot2_f32_f16 for gfx9-12, so gfx8 has none;
    // llvm-mc-22 -mcpu=gfx803: "error: instruction not supported on this GPU".
    let e = read(
        Some("gfx803"),
        "v_mov_b32 v0, 0\n  v_dot2_f32_f16 v0, v1, v2, v3\ns_endpgm\n",
    )
    .unwrap_err();
    assert_eq!(at(&e), (2, 3), "{e}");
    assert!(e.message.contains("is not a gfx8 instruction"), "{e}");
}

#[test]
fn too_few_operands_are_an_error_at_the_instruction() {
    // The operand counts come from data/operand_counts.tsv (llvm-mc's
    // shortest form): v_add_f32 takes dst, src0, src1; a global load takes
    // its saddr or `off`. llvm-mc-22: "too few operands for instruction".
    for (line, text) in [
        (
            "v_add_f32 v0, v1",
            "`v_add_f32` takes at least 3, this line gives 2",
        ),
        ("v_add_f32_e32 v0, v1", "`v_add_f32_e32` takes at least 3"),
        (
            "global_load_dword v1, v[2:3]",
            "`global_load_dword` takes at least 3",
        ),
    ] {
        let e = read(Some("gfx900"), &format!("s_nop 0\n    {line}\ns_endpgm\n")).unwrap_err();
        assert_eq!(at(&e), (2, 5), "{e}");
        assert!(e.message.contains(text), "{e}");
    }
    // The whole forms read.
    read(
        Some("gfx900"),
        "v_add_f32 v0, v1, v2\nglobal_load_dword v1, v[2:3], off\ns_endpgm\n",
    )
    .unwrap();
}

#[test]
fn image_and_atomic_shapes_are_checked() {
    // Image ops and flat/global atomics have shapes since the generator's
    // second (breadth-first) search. llvm-mc-22 -mcpu=gfx900 refuses each
    // line below: the image load without its resource "too few operands
    // for instruction", the others "invalid operand for instruction" at
    // the same column.
    let e = read(
        Some("gfx900"),
        "s_nop 0
    image_load v[0:3], v0
s_endpgm
",
    )
    .unwrap_err();
    assert_eq!(at(&e), (2, 5), "{e}");
    assert!(e.message.contains("`image_load` takes at least 3"), "{e}");
    for (line, column, text) in [
        (
            "global_atomic_add s[0:1], v2, off",
            19,
            "`global_atomic_add` never takes an SGPR as operand 1",
        ),
        (
            "flat_atomic_add s[0:1], v2",
            17,
            "`flat_atomic_add` never takes an SGPR as operand 1",
        ),
        (
            "image_sample v0, s0, s[0:7], s[0:3] dmask:0x1",
            18,
            "`image_sample` never takes an SGPR as operand 2",
        ),
    ] {
        let e = read(Some("gfx900"), &format!("{line}\ns_endpgm\n")).unwrap_err();
        assert_eq!(at(&e), (1, column), "{line}: {e}");
        assert!(e.message.contains(text), "{line}: {e}");
    }
    // The whole forms read, the returning atomic too (its data VGPR sits
    // where the non-returning form's `off` goes); llvm-mc-22 accepts them.
    read(
        Some("gfx900"),
        "image_load v[0:3], v0, s[0:7] dmask:0xf\nimage_sample v0, v1, s[0:7], s[0:3] dmask:0x1\n\
         global_atomic_add v1, v[2:3], v4, off glc\nflat_atomic_add v[0:1], v2\ns_endpgm\n",
    )
    .unwrap();
}

#[test]
fn an_unknown_valu_operand_is_an_error_at_the_operand() {
    // llvm-mc-22 accepts `banana` silently as an external symbol (a 32-bit
    // literal the linker fills); no compiler prints a VALU source so, and
    // simulating it as a literal would hide a typo: an error at its column.
    let e = read(Some("gfx900"), "v_add_f32_e32 v2, banana, v1\ns_endpgm\n").unwrap_err();
    assert_eq!(at(&e), (1, 19), "{e}");
    assert!(e.message.contains("unknown operand `banana`"), "{e}");
    // Relocations, named constants and symbols the file defines read.
    read(
        Some("gfx900"),
        ".set k, 4\nv_mov_b32 v0, src_shared_base\nv_add_f32 v0, k, v1\ns_endpgm\n",
    )
    .unwrap();
}

#[test]
fn an_instruction_the_named_processor_lacks_is_an_error() {
    // gfx900 and gfx906 are both gfx9, but only gfx906 has the dot ops
    // (data/processor_gaps.tsv); llvm-mc-22 -mcpu=gfx900: "error:
    // instruction not supported on this GPU", -mcpu=gfx906 accepts it.
    let text = "v_mov_b32 v0, 0\n  v_dot2_f32_f16 v0, v1, v2, v3\ns_endpgm\n";
    let e = read(Some("gfx900"), text).unwrap_err();
    assert_eq!(at(&e), (2, 3), "{e}");
    assert!(
        e.message
            .contains("`v_dot2_f32_f16` does not exist on gfx900 (gfx906 has it)"),
        "{e}"
    );
    read(Some("gfx906"), text).unwrap();
    // vega10 is gfx900.
    read(Some("vega10"), text).unwrap_err();
}

#[test]
fn an_instruction_a_guessed_processor_lacks_moves_the_guess() {
    // Unnamed gfx9 code is guessed as gfx900; gfx900 lacks the dot op
    // (gfx906 has it), so the file is read as gfx906 instead, and the
    // guess's warning says why.
    let f = read(None, "v_dot2_f32_f16 v0, v1, v2, v3\ns_endpgm\n").unwrap();
    assert_eq!(f.programs[0].target.as_ref().unwrap().name, "gfx906");
    assert!(
        f.warnings.iter().any(|w| w.message.contains(
            "reading it as gfx906: every mnemonic in it is printed for gfx9-12 alike; gfx9 chosen, and it uses `v_dot2_f32_f16`, which gfx900 lacks"
        )),
        "{:?}",
        f.warnings
    );
    assert!(
        !f.warnings
            .iter()
            .any(|w| w.message.contains("does not exist")),
        "{:?}",
        f.warnings
    );
}

#[test]
fn a_register_of_a_file_its_position_never_takes_is_an_error_at_the_operand() {
    // The kinds come from data/operand_counts.tsv (probed with llvm-mc-22).
    // llvm-mc-22 -mcpu=gfx900 refuses every line below with "invalid
    // operand for instruction" at the same column.
    for (line, column, text) in [
        (
            "s_mov_b32 v0, s1",
            11,
            "`s_mov_b32` never takes a VGPR as operand 1 (it takes an SGPR)",
        ),
        (
            "v_add_f32 s0, v1, v2",
            11,
            "`v_add_f32` never takes an SGPR as operand 1",
        ),
        (
            "s_load_dword v0, s[0:1], 0x0",
            14,
            "never takes a VGPR as operand 1",
        ),
        (
            "v_readlane_b32 s0, s1, s2",
            20,
            "never takes an SGPR as operand 2",
        ),
        (
            "s_add_u32 s0, v1, s2",
            15,
            "never takes a VGPR as operand 2",
        ),
        ("ds_read_b32 v0, s1", 17, "never takes an SGPR as operand 2"),
    ] {
        let e = read(Some("gfx900"), &format!("{line}\ns_endpgm\n")).unwrap_err();
        assert_eq!(at(&e), (1, column), "{line}: {e}");
        assert!(e.message.contains(text), "{line}: {e}");
    }
    // The right files read (llvm-mc-22 accepts these).
    read(
        Some("gfx900"),
        "s_mov_b32 s0, s1\nv_add_f32_e64 v0, s1, v2\nv_readlane_b32 s0, v1, s2\ns_endpgm\n",
    )
    .unwrap();
}

/// Issue 47 item 14: `s_delay_alu ,,` was read as a delay of nothing by analyze, cfg, hints
/// and liveness. llvm-mc-22 -mcpu=gfx1100 refuses it ("unknown token in expression") and a
/// trailing `|` ("expected a field name"); it takes the fields and a raw number (`0x91`).
#[test]
fn s_delay_alu_operands_that_are_no_fields_are_an_error() {
    for bad in ["s_delay_alu ,,", "s_delay_alu instid0(VALU_DEP_1)|"] {
        let e = read(
            Some("gfx1100"),
            &format!("v_mov_b32 v0, v1\n  {bad}\ns_endpgm\n"),
        )
        .unwrap_err();
        assert_eq!(at(&e).0, 2, "{e}");
        assert!(e.message.contains("is not an s_delay_alu operand"), "{e}");
    }
    for good in [
        "s_delay_alu 0x91",
        "s_delay_alu 0",
        "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)",
    ] {
        read(
            Some("gfx1100"),
            &format!("v_mov_b32 v0, v1\n{good}\ns_endpgm\n"),
        )
        .unwrap();
    }
}

/// Issue 47 item 20: `v_add_f32 v1, foo@@, v2` was read. llvm-mc-22 -mcpu=gfx900 refuses an
/// empty or unknown relocation variant ("invalid variant '@'", "invalid variant 'lo'") and
/// takes `rel32@lo+4`, `abs64`, `gotpcrel32@hi` and a trailing lone `@` (part of the name).
#[test]
fn unknown_relocation_variants_are_an_error() {
    for bad in [
        "v_add_f32 v1, foo@@, v2",
        "s_mov_b32 s0, foo@lo",
        "s_mov_b32 s0, foo@bar",
    ] {
        let e = read(Some("gfx900"), &format!("{bad}\ns_endpgm\n")).unwrap_err();
        assert!(e.message.contains("is no relocation variant"), "{bad}: {e}");
    }
    for good in [
        "s_add_u32 s0, s0, foo@rel32@lo+4",
        "s_mov_b32 s0, foo@abs64",
        "s_mov_b32 s0, foo@gotpcrel32@hi",
    ] {
        read(Some("gfx900"), &format!("{good}\ns_endpgm\n")).unwrap();
    }
}

/// Issue 47 item 20: the returning forms of 64-bit global atomics were refused ("never takes
/// a VGPR as operand 3"): the operand table had probed their return with a one-register
/// destination only. llvm-mc-22 takes each line below (gfx90a: the f64 ops; gfx900: `_x2`).
#[test]
fn returning_64_bit_global_atomics_are_read() {
    for (gpu, line) in [
        (
            "gfx90a",
            "global_atomic_add_f64 v[0:1], v[0:1], v[2:3], off glc",
        ),
        (
            "gfx900",
            "global_atomic_add_x2 v[0:1], v[0:1], v[2:3], off glc",
        ),
        (
            "gfx900",
            "global_atomic_cmpswap_x2 v[0:1], v[0:1], v[2:5], off glc",
        ),
    ] {
        read(Some(gpu), &format!("{line}\ns_endpgm\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

#[test]
fn forms_llvm_refuses_are_errors_at_their_operand() {
    // Issue 47 item 14, the listing side of what the code-object decoder refuses (one rule set,
    // shadersim_isa::refused). llvm-mc-22 on each line:
    // `v_add3_u32 v0, |v46|, v2, v3` (gfx900, gfx942): "invalid operand for instruction";
    // `global_load_dwordx2 v[1:2], v[4:5], off` on gfx942: "invalid operand for instruction"
    // (gfx900 takes it); `s_mov_b32 s0, src_lds_direct` (gfx1100): "not a valid operand.";
    // `src_209` is what llvm-objdump-22 prints for the reserved source 209 of an encoding it
    // calls invalid (llvm-mc-22 would read the word as a symbol: no compiler prints it).
    let cases = [
        ("gfx900", "v_add3_u32 v0, |v46|, v2, v3", 16, "integer op"),
        ("gfx942", "v_add3_u32 v0, |v46|, v2, v3", 16, "integer op"),
        ("gfx900", "v_and_b32_e64 v0, |v1|, v2", 19, "integer op"),
        (
            "gfx942",
            "global_load_dwordx2 v[1:2], v[4:5], off",
            21,
            "odd register",
        ),
        (
            "gfx1100",
            "s_mov_b32 s0, src_lds_direct",
            15,
            "scalar ALU operand",
        ),
        (
            "gfx900",
            "v_add_f32_e32 v0, src_209, v1",
            19,
            "209 is reserved",
        ),
    ];
    for (gpu, line, column, why) in cases {
        let e = read(Some(gpu), &format!("{line}\ns_endpgm\n")).unwrap_err();
        assert_eq!(at(&e), (1, column), "{gpu} {line}: {e}");
        assert!(e.message.contains(why), "{gpu} {line}: {e}");
    }
    // The forms LLVM takes read: abs on a float op, v_cndmask's selected bits, an odd tuple
    // where the processor allows it, src_lds_direct as a VALU source.
    for (gpu, line) in [
        ("gfx900", "v_add_f32_e64 v0, |v1|, v2"),
        ("gfx900", "v_cndmask_b32_e64 v0, |v1|, v2, vcc"),
        ("gfx900", "global_load_dwordx2 v[1:2], v[4:5], off"),
        ("gfx942", "global_load_dwordx2 v[2:3], v[4:5], off"),
        ("gfx900", "v_mov_b32_e32 v0, src_lds_direct"),
    ] {
        read(Some(gpu), &format!("{line}\ns_endpgm\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}
