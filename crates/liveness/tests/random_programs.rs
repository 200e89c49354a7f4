//! Random programs (straight-line code, forward and backward branches,
//! register ranges): the analysis never panics and never counts more
//! registers than the program names.

use proptest::prelude::*;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_liveness::Liveness;

fn line(kind: u8, a: u8, b: u8, c: u8, labels: u8) -> String {
    let (a, b, c) = (a % 60, b % 60, c % 60);
    match kind % 9 {
        0 => format!("v_add_f32_e32 v{a}, v{b}, v{c}"),
        1 => format!("v_mov_b32_e32 v{a}, s{b}"),
        2 => format!("s_add_u32 s{a}, s{b}, s{c}"),
        3 => format!(
            "global_load_dwordx4 v[{a}:{}], v[{b}:{}], off",
            a + 3,
            b + 1
        ),
        4 => format!("global_store_dword v[{a}:{}], v{b}, off", a + 1),
        5 => format!("v_mac_f32_e32 v{a}, v{b}, v{c}"),
        6 => format!("s_cmp_lg_u32 s{a}, 0"),
        7 => format!("s_cbranch_scc1 L{}", c % labels.max(1)),
        _ => format!("L{}:", a % labels.max(1)),
    }
}

/// Some `s_cbranch_scc1 Lk` comes at or after its label `Lk:`.
fn has_backward_branch(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        l.strip_prefix("s_cbranch_scc1 ")
            .is_some_and(|target| lines[..i].contains(&format!("{target}:").as_str()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn never_more_than_the_registers_named(
        body in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>()), 1..40),
        labels in 1u8..4,
        wave in prop_oneof![Just(32u32), Just(64u32)],
    ) {
        let mut text = String::new();
        // Every label exists once so branches resolve.
        for l in 0..labels {
            text += &format!("L{l}:\n");
            for &(k, a, b, c) in body.iter().skip(usize::from(l) * 3).take(12) {
                let s = line(k, a, b, c, labels);
                if !s.ends_with(':') {
                    text += &s;
                    text += "\n";
                }
            }
        }
        text += "s_endpgm\n";
        // The generator only writes valid gfx900 code: a parse error is a bug here.
        let file = read_program_text("r.s", &text, &ReadOptions {
            target: Some("gfx900".parse().unwrap()),
            ..Default::default()
        }).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let Some(p) = file.programs.first() else { return Ok(()); };
        match Liveness::analyse(p, wave) {
            Ok(l) => {
                let usage = p.register_usage();
                for at in &l.per_instruction {
                    prop_assert!(at.vgprs <= usage.computed_vgprs, "{text}");
                    prop_assert!(at.sgprs <= usage.computed_sgprs, "{text}");
                }
                let peak = l.peak_vgprs().map_or(0, |a| a.vgprs);
                prop_assert!(l.vgpr_regions_above(peak).is_empty());
            }
            // The one error random branches can rightly cause: a cycle
            // entered at two blocks. A cycle needs a backward branch, so a
            // program without one must never get it; and the program is
            // never empty (it ends in s_endpgm).
            Err(e) => {
                let e = e.to_string();
                prop_assert!(e.starts_with("irreducible control flow"), "{e}\n{text}");
                prop_assert!(has_backward_branch(&text), "{e}\n{text}");
            }
        }
    }
}
