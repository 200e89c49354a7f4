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
