//! One source of instruction facts (issue 11 item 4): every vector memory mnemonic of the
//! instruction table yields, from the table's memory facts, the access the old mnemonic grammar
//! of `MemAccess::from_mnemonic` gave it (`data/from_mnemonic_before.tsv`, frozen before the
//! grammar moved to `scripts/isa/gen_memory_facts.py`).

use shadersim_isa::InstrTable;
use shadersim_mem::MemAccess;
use std::collections::BTreeMap;

/// Mnemonics the old grammar refused with a message about its own words; they are still
/// refused, with a message from the table's facts instead.
const NEW_MESSAGES: &[(&str, &str)] = &[
    ("global_wbinv", "cache control"),
    ("image_bvh8_intersect_ray", "no texels"),
    ("global_load_block", "block of VGPRs"),
    ("global_store_block", "block of VGPRs"),
    ("scratch_load_block", "block of VGPRs"),
    ("scratch_store_block", "block of VGPRs"),
];

fn expected() -> BTreeMap<&'static str, &'static str> {
    include_str!("data/from_mnemonic_before.tsv")
        .lines()
        .chain(include_str!("data/from_mnemonic_cdna.tsv").lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_once('\t').expect("mnemonic<TAB>result"))
        .collect()
}

#[test]
fn the_table_facts_give_the_accesses_the_old_grammar_gave() {
    let expected = expected();
    let table = InstrTable::builtin();
    let vmem: Vec<_> = table.iter().filter(|i| i.class.is_vmem()).collect();
    assert_eq!(vmem.len(), expected.len(), "vmem mnemonics in the table");
    for info in vmem {
        let before = expected
            .get(info.mnemonic)
            .unwrap_or_else(|| panic!("{} has no expectation", info.mnemonic));
        // Both entry points are checked against the old grammar's recorded
        // result (data/from_mnemonic_before.tsv, written before the table
        // existed), not against each other: `from_mnemonic` looks the
        // mnemonic up and calls `from_info`, so comparing the two would
        // pass whatever `from_info` returned.
        for (entry, now) in [
            ("from_info", MemAccess::from_info(info)),
            ("from_mnemonic", MemAccess::from_mnemonic(info.mnemonic)),
        ] {
            let m = info.mnemonic;
            match (before.strip_prefix("error: "), now) {
                (None, Ok(access)) => assert_eq!(access.to_string(), *before, "{entry} {m}"),
                (Some(old), Err(e)) => match NEW_MESSAGES.iter().find(|(n, _)| *n == m) {
                    Some((_, says)) => assert!(e.message.contains(says), "{entry} {m}: {e}"),
                    None => assert_eq!(e.message, old, "{entry} {m}"),
                },
                (_, now) => panic!("{entry} {m}: was `{before}`, now {now:?}"),
            }
        }
    }
}

#[test]
fn facts_of_an_alias_spelling_match_its_printed_name() {
    // gfx11+ prints buffer_load_dword as buffer_load_b32: same facts, same access.
    assert_eq!(
        MemAccess::from_mnemonic("buffer_load_dword"),
        MemAccess::from_mnemonic("buffer_load_b32")
    );
    assert_eq!(
        MemAccess::from_mnemonic("global_atomic_smax_x2"),
        MemAccess::from_mnemonic("global_atomic_max_i64")
    );
}
