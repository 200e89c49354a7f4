//! The assembly checks never refuse real compiler output: every fixture
//! listing (tests/fixtures, made by clang/llc/llvm-objdump and RADV) reads
//! without an error, both as it is and with its manifest's processor
//! named, and then without a warning from the table-driven checks
//! (processor gaps, operand kinds). Read as it is too: a listing that does
//! not name its GPU is guessed as a processor that has every mnemonic it
//! uses (a navi10 dump as gfx1010, not gfx1030).

use shadersim_asm::{read_program_text, ReadOptions};

use shadersim_testkit::fixtures::labelled;

/// Warnings of the checks this test guards.
const CHECK_WARNINGS: [&str; 2] = ["does not exist on", "never takes"];

#[test]
fn every_fixture_reads_without_errors_from_the_table_checks() {
    let fixtures = labelled();
    assert!(fixtures.len() > 100, "{} fixtures", fixtures.len());
    let mut problems = Vec::new();
    for (path, target) in &fixtures {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        let named = ReadOptions {
            target: Some(target.parse().unwrap()),
            ..Default::default()
        };
        for opts in [ReadOptions::default(), named] {
            match read_program_text(&name, &text, &opts) {
                Err(e) => problems.push(format!("{e}")),
                Ok(f) => problems.extend(
                    f.warnings
                        .iter()
                        .filter(|w| CHECK_WARNINGS.iter().any(|c| w.message.contains(c)))
                        .map(|w| format!("{name}: {}", w.message)),
                ),
            }
        }
    }
    println!("{} fixture listings read", fixtures.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
