//! Every compiled kernel under tests/fixtures/r600 (scripts/regen-r600-fixtures.sh)
//! reads for its cpu (named in the file name, the text does not say), has
//! as many groups as its ALU clauses have groups closed by `*` (plus
//! `GROUP_BARRIER`, LDS-free but alone in its group, printed without `*`),
//! and simulates on its own model.

use shadersim_arch::ArchSpec;
use shadersim_engine::Simulation;
use shadersim_r600::reader::read_r600;
use shadersim_trace::Hints;
use std::path::Path;

/// Groups counted from the text: lines inside ALU clauses whose operation
/// carries the `*` LAST marker, and GROUP_BARRIER lines.
fn groups_in_text(text: &str, kernel: &str) -> usize {
    let (mut n, mut in_kernel, mut in_alu) = (0, false, false);
    for l in text.lines() {
        let t = l.split(';').next().unwrap_or("").trim();
        if t.ends_with(':') && !t.starts_with('.') && !t.contains(' ') && !t.contains('$') {
            in_kernel = t.trim_end_matches(':') == kernel;
            in_alu = false;
        }
        if t.starts_with(".Lfunc_end") {
            in_kernel = false;
        }
        if t.starts_with("ALU clause") {
            in_alu = true;
        } else if t.starts_with("Fetch clause") {
            in_alu = false;
        }
        if in_kernel && in_alu && (t.contains(" * ") || t == "GROUP_BARRIER") {
            n += 1;
        }
    }
    n
}

#[test]
fn fixtures_read_count_and_simulate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/r600");
    let mut seen = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("s") {
            continue;
        }
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let cpu = name.split('.').nth(1).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        let file = read_r600(&name, &text, Some(cpu)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            file.kernels.len(),
            1,
            "{name}: one kernel (clang-22's copy skipped)"
        );
        let k = &file.kernels[0];
        assert!(k.num_gprs.is_some(), "{name}: NUM_GPRS read");
        // Each ALU CF word's COUNT equals its clause's operations plus
        // literal lines, and every clause it names exists: no warnings.
        assert!(file.warnings.is_empty(), "{name}: {:?}", file.warnings);
        assert_eq!(k.static_bundles(), groups_in_text(&text, &k.name), "{name}");
        let lowered = shadersim_r600::lower(&file, k);
        let sim = Simulation::prepare(
            &lowered.program,
            ArchSpec::builtin(cpu).unwrap(),
            &Hints::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let st = sim.run().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(st.clocks > 0, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 40);
}

#[test]
fn bad_input_is_an_error_with_a_position() {
    let e = read_r600("bad.s", "\t.text\nk:\n\tFROB 1 @2\n", Some("cypress")).unwrap_err();
    assert_eq!(e.to_string(), "bad.s:3:2: error: unknown control-flow word `FROB` (expected ALU*, TEX, VTX, JUMP, ELSE, POP, PUSH, LOOP_*, END_LOOP, MEM_RAT*, CF_END or PAD)");
    let e = read_r600("bad.s", "\t.text\nk:\n\tALU 0, @2, KC0[], KC1[]\n\tALU clause starting at 2:\n\t  ADD * T1.X, Q9, T0.X,\n", Some("cypress")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("bad.s:5:16: error: unknown operand `Q9`"),
        "{e}"
    );
    // Garbage never panics.
    for junk in [
        "",
        "ALU",
        "k:\n\tALU clause starting at x:",
        "k:\n\tALU 0, @",
        "\u{0}\u{1}:",
        "k:\nALU clause starting at 1:\n7(1), 2\n",
    ] {
        let _ = read_r600("j.s", junk, None);
    }
}

#[test]
fn damaged_fixtures_never_panic() {
    // Every prefix of a fixture, and the fixture with each line dropped in
    // turn, reads or fails with an error; what reads lowers and re-packs.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/r600");
    for name in ["dot_lds.cypress.clang-22.s", "matmul.cayman.clang-19.s"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for cut in 0..lines.len() {
            let prefix = lines[..cut].join("\n");
            let mut dropped = lines.clone();
            dropped.remove(cut);
            for t in [prefix, dropped.join("\n")] {
                if let Ok(f) = read_r600(name, &t, None) {
                    let _ = shadersim_r600::lower_file(&f);
                    for k in &f.kernels {
                        let _ = shadersim_r600::summary::repack(
                            k,
                            shadersim_r600::table::ChipClass::Cayman,
                        );
                    }
                }
            }
        }
    }
}

/// A reduced loop kernel (from blur_loop.cypress.clang-22.s): `tail` is the
/// CF program after the ALU word, `fetch` the fetch clause's one line.
fn loop_kernel(tail: &str, fetch: &str) -> String {
    format!(
        "\t.text\nk:\n\tALU 0, @8, KC0[], KC1[]\n{tail}\tCF_END\n\tFetch clause starting at 6:\n\t  {fetch}\n\tALU clause starting at 8:\n\t  MOV * T0.X, 0.0,\n.Lfunc_end0:\n"
    )
}

#[test]
fn cf_targets_past_the_program_are_errors() {
    // The reduced kernel reads: it has 4 CF words (ALU, LOOP_START, END_LOOP,
    // CF_END), so targets 0..4 are words or the end.
    let good = loop_kernel(
        "\tLOOP_START_DX10 @3\n\tEND_LOOP @1\n",
        "VTX_READ_32 T1.X, T0.X, 0, #1",
    );
    read_r600("loop.s", &good, Some("cypress")).unwrap();
    // `END_LOOP @99999` made the loop vanish (its target became the end).
    let e = read_r600(
        "loop.s",
        &loop_kernel(
            "\tLOOP_START_DX10 @3\n\tEND_LOOP @99999\n",
            "VTX_READ_32 T1.X, T0.X, 0, #1",
        ),
        Some("cypress"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "loop.s:5:11: error: `END_LOOP` targets CF word @99999, but the kernel's CF program has 4 words (0 to 3)"
    );
    // `POP @99999` was accepted.
    let e = read_r600(
        "loop.s",
        &loop_kernel("\tPOP @99999 POP:1\n", "VTX_READ_32 T1.X, T0.X, 0, #1"),
        Some("cypress"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "loop.s:4:6: error: `POP` targets CF word @99999, but the kernel's CF program has 3 words (0 to 2)"
    );
}

#[test]
fn fetch_address_registers_are_range_checked() {
    // ALU clauses refuse T9999.X; fetch clauses accepted it, and
    // T4294967298.X (2^32 + 2) wrapped. Column 22: a tab, two spaces,
    // `VTX_READ_32 T1.X, ` (19 characters) come before it.
    for (reg, col) in [("T9999.X", 22), ("T4294967298.X", 22)] {
        let text = loop_kernel("", &format!("VTX_READ_32 T1.X, {reg}, 0, #1"));
        let e = read_r600("f.s", &text, Some("cypress")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("f.s:6:{col}: error: `VTX_READ_32` reads its address from one register channel `T<n>.<c>` (n below 128), found `{reg}`")
        );
    }
}
