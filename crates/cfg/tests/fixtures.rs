//! Every real compiler output in `tests/fixtures` parses with zero unknown
//! mnemonics, and what we read agrees with what the compiler reported
//! (`tests/fixtures/manifest.toml`, written by `scripts/regen-fixtures.sh`).

use shadersim_asm::{read_program_bytes, Dialect, ReadOptions, Stage};
use shadersim_cfg::Cfg;
use shadersim_testkit::fixtures::{fixtures_dir, Manifest};

#[test]
fn corpus_is_big_enough() {
    let m = Manifest::load();
    assert!(m.fixture.len() >= 30, "{} fixtures", m.fixture.len());
    for gen in [
        "gfx600", "gfx700", "gfx803", "gfx900", "gfx1030", "gfx1100", "gfx1200",
    ] {
        assert!(
            m.fixture.iter().any(|f| f.target == gen),
            "no fixture for {gen}"
        );
    }
}

#[test]
fn every_fixture_matches_the_compiler() {
    let dir = fixtures_dir();
    let mut checked = 0;
    for f in Manifest::load().fixture {
        let bytes = std::fs::read(dir.join(&f.path)).unwrap();
        let target = f.target.parse().unwrap();
        let file = read_program_bytes(
            &f.path,
            &bytes,
            &ReadOptions {
                target: Some(target),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let unknown: Vec<String> = file
            .warnings
            .iter()
            .filter(|w| {
                w.message.contains("not in the instruction table")
                    || w.message.contains("is not a gfx")
            })
            .map(|w| format!("{}:{:?}: {}", f.path, w.pos, w.message))
            .collect();
        assert!(
            unknown.is_empty(),
            "unknown or misplaced mnemonics:\n{}",
            unknown.join("\n")
        );
        let expected_dialect = match f.dialect.as_str() {
            "llvm" => Dialect::Llvm,
            "objdump" => Dialect::Objdump,
            _ => Dialect::Aco,
        };
        assert_eq!(file.dialect, expected_dialect, "{}", f.path);
        if f.dialect == "radv" {
            assert_eq!(
                file.programs.len(),
                f.shaders.len(),
                "{}: disasm blocks",
                f.path
            );
            for (p, s) in file.programs.iter().zip(&f.shaders) {
                assert_eq!(
                    p.instructions.len() as u32,
                    s.instructions,
                    "{} {}: ACO instruction count",
                    f.path,
                    p.name
                );
                let hex = p
                    .instructions
                    .iter()
                    .filter(|i| !i.encoding.is_empty())
                    .count() as u32;
                assert_eq!(hex, s.hex_words, "{} {}: hex encodings", f.path, p.name);
                assert_eq!(
                    p.stage.map(Stage::name),
                    Some(s.stage.as_str()),
                    "{} {}: stage",
                    f.path,
                    p.name
                );
                let cfg = Cfg::build(p).unwrap_or_else(|e| panic!("{}: {e}", f.path));
                assert_eq!(cfg.loops.len(), s.loops, "{} {}: loops", f.path, p.name);
                // ACO reports registers allocated (rounded up to the granule).
                let usage = p.register_usage();
                assert!(
                    usage.computed_vgprs <= s.vgprs,
                    "{} {}: {} > {}",
                    f.path,
                    p.name,
                    usage.computed_vgprs,
                    s.vgprs
                );
                checked += 1;
            }
            continue;
        }
        let p = file
            .program(f.function.as_deref())
            .unwrap_or_else(|| panic!("{}: no {:?}", f.path, f.function));
        let expected = match f.dialect.as_str() {
            "llvm" => f.asm_instructions.unwrap_or(f.instructions),
            _ => f.instructions,
        };
        assert_eq!(
            p.instructions.len() as u32,
            expected,
            "{}: instruction count",
            f.path
        );
        // objdump output of a compute kernel does not say its stage.
        if f.dialect == "llvm" || p.stage.is_some() {
            assert_eq!(
                p.stage.map(Stage::name),
                Some(f.stage.as_str()),
                "{}: stage",
                f.path
            );
        }
        let cfg = Cfg::build(p).unwrap_or_else(|e| panic!("{}: {e}", f.path));
        // Backward-branch targets overcount when the structurizer's flow blocks jump back
        // to a block that heads no loop (step_relax); the compiler's count is the truth.
        let loops = f.loop_headers_reported.unwrap_or(f.loops);
        assert_eq!(cfg.loops.len(), loops, "{}: loops", f.path);
        let usage = p.register_usage();
        if let Some(v) = f.next_free_vgpr {
            assert_eq!(p.declared.vgprs, Some(v), "{}: declared VGPRs", f.path);
            assert!(
                usage.computed_vgprs <= v,
                "{}: VGPRs named {} > {v}",
                f.path,
                usage.computed_vgprs
            );
        } else if let Some(v) = f.vgprs {
            assert!(
                usage.computed_vgprs <= v.max(1),
                "{}: VGPRs named {} > {v}",
                f.path,
                usage.computed_vgprs
            );
        }
        if let Some(s) = f.next_free_sgpr {
            assert_eq!(p.declared.sgprs, Some(s), "{}: declared SGPRs", f.path);
        }
        checked += 1;
    }
    assert!(checked >= 98, "checked {checked} programs");
}
