//! The GPU of a listing that does not name it: every fixture is read with
//! what names its GPU removed, and the guess is compared with the
//! generation it was compiled for.

use shadersim_asm::{read_program_text, ReadOptions};

use shadersim_testkit::fixtures::labelled;

/// The text without what names its GPU: every line that mentions a gfx
/// name (`.amdgcn_target`, `.amd_amdgpu_isa`, metadata's `amdhsa.target`).
fn unlabelled(text: &str) -> String {
    text.lines()
        .filter(|l| !l.to_ascii_lowercase().contains("gfx"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn every_fixture_is_identified_with_its_labels_removed() {
    let fixtures = labelled();
    // [kind] -> (right, total, misses)
    let mut tally: std::collections::BTreeMap<&str, (u32, u32, Vec<String>)> = Default::default();
    for (path, target) in &fixtures {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        let file = read_program_text(&name, &unlabelled(&text), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let expected: shadersim_isa::Target = target.parse().unwrap();
        let got = file.programs[0].target.clone().expect("a guess");
        let kind = if file.programs[0]
            .instructions
            .iter()
            .any(|i| !i.encoding.is_empty())
        {
            "with encodings"
        } else {
            "without encodings"
        };
        let entry = tally.entry(kind).or_default();
        entry.1 += 1;
        if got.gen == expected.gen {
            entry.0 += 1;
        } else {
            let why = file
                .warnings
                .iter()
                .find(|w| w.message.contains("does not name its GPU"))
                .map_or(String::new(), |w| w.message.clone());
            entry.2.push(format!(
                "{name}: {} read as {} ({why})",
                expected.gen, got.gen
            ));
        }
    }
    for (kind, (right, total, misses)) in &tally {
        println!(
            "guessed generation {kind}: {right} of {total} right ({:.1}%)",
            100.0 * f64::from(*right) / f64::from(*total)
        );
        for m in misses {
            println!("  miss: {m}");
        }
    }
    let (right, total, misses) = &tally["with encodings"];
    assert_eq!(right, total, "listings with encodings: {misses:#?}");
    assert!(*total >= 60, "{total} listings with encodings");
}

#[test]
fn a_tie_between_generations_goes_to_the_newest_and_names_the_others() {
    // Issue 35: three ACO lines whose words are s_mov_b32's SOP1 encoding
    // with opcode 3 (gfx6-7 and gfx10 number it 3, gfx8-9 0, gfx11-12
    // renumbered) and SOPP words s_nop/s_endpgm share from gfx6 to gfx10:
    // 3 of 3 encodings fit gfx6, gfx7 and gfx10 alike. The newest wins.
    let text = "\ts_mov_b32 s0, 0 ; be800380\n\ts_nop 0 ; bf800000\n\ts_endpgm ; bf810000\n";
    let file = read_program_text("tie.s", text, &ReadOptions::default()).unwrap();
    assert_eq!(file.programs[0].target.as_ref().unwrap().name, "gfx1030");
    assert_eq!(
        file.warnings[0].pos.map(|p| (p.line, p.column)),
        Some((1, 1))
    );
    assert_eq!(
        file.warnings[0].message,
        "the file does not name its GPU; reading it as gfx1030: 3 of its 3 encodings are gfx6-7, gfx10 encodings; it reads alike as gfx6-7, gfx10; gfx10 chosen, the newest (choose with --arch)"
    );
}

#[test]
fn the_header_shadersim_compile_writes_names_the_gpu() {
    // Issue 35: the tool's own compiled listing (compile_vulkan.rs's
    // header) was read with "the file does not name its GPU". Reduced: the
    // header and one ACO line of gfx11 code.
    let text = "; main.frag compiled by Mesa RADV 25.0.7 for gfx1100 (AMD Radeon RX 7900 XTX (RADV NAVI31))\n\ts_endpgm ; bfb00000\n";
    let file = read_program_text("main.frag.s", text, &ReadOptions::default()).unwrap();
    assert_eq!(file.programs[0].target.as_ref().unwrap().name, "gfx1100");
    assert!(file.warnings.is_empty(), "{:?}", file.warnings);
}
