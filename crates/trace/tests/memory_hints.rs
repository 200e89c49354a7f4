//! `[[memory]]`'s cache and stream keys: which instructions take which key,
//! and the errors (with their positions) for the rest.

use shadersim_testkit::program;
use shadersim_trace::{memory_facts, Hints};

const TEXT: &str = "buffer_load_dword v1, v0, s[0:3], 0 offen\nds_read_b32 v2, v0\ns_load_dword s4, s[0:1], 0x0\ns_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm\n";

/// The facts, or the rendered error.
fn facts(hints: &str) -> Result<Vec<String>, String> {
    let h = Hints::parse(hints).map_err(|e| e.render("h.toml", hints))?;
    let f = memory_facts(&program(TEXT), &h).map_err(|e| e.render("h.toml", hints))?;
    let mut keys: Vec<_> = f.into_iter().collect();
    keys.sort_by_key(|(i, _)| *i);
    Ok(keys
        .into_iter()
        .map(|(i, f)| format!("{i}: {f:?}"))
        .collect())
}

#[test]
fn each_kind_of_memory_op_takes_its_keys() {
    let ok = facts(
        "[[memory]]\nline = 1\nwave_stride = 0\niteration_stride = 64\nregion = 4096\nhit_rate = 0.7\n\
         [[memory]]\nline = 2\npattern = \"stride:128\"\n\
         [[memory]]\nline = 3\nwave_stride = 16\nlevel = \"l2\"\n",
    )
    .unwrap();
    assert!(ok[0].contains("wave_stride: Some(0)") && ok[0].contains("hit_rate: Some(0.7)"));
    assert!(ok[1].contains("Stride { bytes: 128 }"), "{}", ok[1]);
    assert!(ok[2].contains("level: Some((\"l2\""), "{}", ok[2]);
}

#[test]
fn keys_that_do_not_apply_are_errors_at_their_position() {
    // A stride on an LDS op: LDS ops take only `pattern`.
    let e = facts("[[memory]]\nline = 2\nwave_stride = 4\n").unwrap_err();
    assert!(
        e.starts_with("h.toml:3:15: error: `wave_stride` does not apply to an LDS"),
        "{e}"
    );
    // A pattern on a scalar load: it has no lanes.
    let e = facts("[[memory]]\nline = 3\npattern = \"linear\"\n").unwrap_err();
    assert!(
        e.starts_with("h.toml:3:11: error: `pattern` does not apply to a scalar"),
        "{e}"
    );
    // Out of range, both overrides at once, an empty region.
    let e = facts("[[memory]]\nline = 1\nhit_rate = 1.5\n").unwrap_err();
    assert!(e.contains("hit_rate must be between 0 and 1"), "{e}");
    let e = facts("[[memory]]\nline = 1\nhit_rate = 0.5\nlevel = \"l2\"\n").unwrap_err();
    assert!(e.contains("not both"), "{e}");
    let e = facts("[[memory]]\nline = 1\nregion = 0\n").unwrap_err();
    assert!(e.contains("region must be at least 1 byte"), "{e}");
    // A non-memory line.
    let e = facts("[[memory]]\nline = 4\nhit_rate = 0.5\n").unwrap_err();
    assert!(
        e.contains("not a vector memory, LDS or scalar memory"),
        "{e}"
    );
}
