//! The bare ACO listings of `tests/fixtures/aco` (the "Assembly"
//! representation of `VK_KHR_pipeline_executable_properties`, written by
//! `scripts/regen-aco-listings.sh`) read with the driver's own instruction
//! count, `(then repeated N times)` lines expanded, and build a CFG.

use serde::Deserialize;
use shadersim_asm::{read_program_bytes, Dialect, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_testkit::fixtures::{aco_dir, AcoListing as Listing, AcoManifest};

/// A statistics file as `shadersim radv-capture` writes it.
#[derive(Deserialize)]
struct Statistics {
    executable: Vec<Executable>,
}

#[derive(Deserialize)]
struct Executable {
    statistics: toml::Table,
}

/// The driver's statistic `key` for the listing's executable, read from
/// the statistics file (not the manifest): the number the driver printed.
fn driver_statistic(l: &Listing, key: &str) -> u32 {
    let text = std::fs::read_to_string(aco_dir().join(&l.statistics)).expect("statistics");
    let stats: Statistics = toml::from_str(&text).expect("statistics parse");
    let value = stats.executable[l.executable].statistics[key]
        .as_integer()
        .unwrap_or_else(|| panic!("{}: no {key}", l.statistics));
    u32::try_from(value).expect("a small count")
}

#[test]
fn every_listing_has_the_drivers_instruction_count() {
    let m = AcoManifest::load();
    let mut repeated_listings = 0;
    for family in ["vega10", "navi21", "gfx1100"] {
        assert!(
            m.listing.iter().any(|l| l.path.starts_with(family)),
            "no listing for {family}"
        );
    }
    for l in &m.listing {
        let bytes = std::fs::read(aco_dir().join(&l.path)).unwrap();
        let file = read_program_bytes(
            &l.path,
            &bytes,
            &ReadOptions {
                target: Some(l.target.parse().unwrap()),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.dialect, Dialect::Aco, "{}", l.path);
        assert_eq!(file.programs.len(), 1, "{}: one program", l.path);
        let unknown: Vec<String> = file
            .formatted_warnings()
            .into_iter()
            .filter(|w| w.contains("not in the instruction table") || w.contains("is not a gfx"))
            .collect();
        assert!(unknown.is_empty(), "{}", unknown.join("\n"));
        let p = &file.programs[0];
        assert_eq!(
            p.instructions.len() as u32,
            driver_statistic(l, "Instructions"),
            "{}: the driver's Instructions statistic",
            l.path
        );
        // Every instruction carries its encoding (the repeated copies too).
        assert!(
            p.instructions.iter().all(|i| !i.encoding.is_empty()),
            "{}",
            l.path
        );
        let bytes: usize = p.instructions.iter().map(|i| 4 * i.encoding.len()).sum();
        assert!(
            bytes as u32 <= driver_statistic(l, "Code size"),
            "{}: {bytes} bytes of encodings",
            l.path
        );
        if l.stage != "compute" {
            assert_eq!(
                p.stage.map(|s| s.name()),
                Some(l.stage.as_str()),
                "{}",
                l.path
            );
        }
        Cfg::build(p).unwrap_or_else(|e| panic!("{}: {e}", l.path));
        if l.repeated > 0 {
            repeated_listings += 1;
            let text = String::from_utf8(bytes_of(&l.path)).unwrap();
            let (line, _) = text
                .lines()
                .enumerate()
                .find(|(_, t)| t.contains("(then repeated"))
                .expect("a repeat line");
            // The copies sit at the line of the `(then repeated` text.
            let copies = p
                .instructions
                .iter()
                .filter(|i| i.pos.line == line as u32 + 1)
                .count() as u32;
            assert_eq!(copies, l.repeated, "{}", l.path);
        }
    }
    assert!(
        repeated_listings >= 3,
        "{repeated_listings} listings with repeats"
    );
}

fn bytes_of(path: &str) -> Vec<u8> {
    std::fs::read(aco_dir().join(path)).unwrap()
}
