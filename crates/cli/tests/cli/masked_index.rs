//! Indices masked to their low bits (`masked_index.cl`, clang-22 for gfx1100: 96 CUs, wave32,
//! 128-byte lines, a 32 KB L0 of 8 sets x 32 ways): `x & (2^k - 1)` keeps the address within 2^k
//! elements of the buffer's base, so the op's addresses wrap in that region, whatever `x` was.
//! Launch: 1048576 work-items in workgroups of 256, 4096 workgroups, 43 on the busiest CU, which
//! simulates them as the grid's first 43 (8 waves each, 344 waves; each wave's 32 lanes read or
//! write 128 bytes, one line).

use crate::json_of as json;
use shadersim_testkit::tools::have_clang_22;

const FILE: &str = "tests/fixtures/src/opencl/masked_index.cl";

/// The JSON report of `function` on gfx1100 with the launch above and any other options `rest`.
fn run(function: &str, rest: &[&str]) -> serde_json::Value {
    run_on("gfx1100", function, rest)
}

/// [`run`] on `arch`.
fn run_on(arch: &str, function: &str, rest: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "analyze",
        FILE,
        "--function",
        function,
        "--arch",
        arch,
        "--global",
        "1048576",
        "--block",
        "256",
        "--no-latency-search",
        "--format",
        "json",
    ];
    args.extend_from_slice(rest);
    json(&args)
}

/// Requests and hits of cache level `name`.
fn level(j: &serde_json::Value, name: &str) -> [u64; 2] {
    let l = &j["cache"][name];
    [
        l["requests"].as_u64().expect("requests"),
        l["hits"].as_u64().expect("hits"),
    ]
}

/// Each address default's region and where it came from (`code`, `hint`; empty: none), in
/// program order.
fn regions(j: &serde_json::Value) -> Vec<(Option<u64>, String)> {
    j["defaults"]["addresses"]
        .as_array()
        .expect("addresses")
        .iter()
        .map(|a| {
            let from = a["region_from"].as_str().unwrap_or("").to_string();
            (a["region"].as_u64(), from)
        })
        .collect()
}

/// `table[i & 1023]`: 4 bytes x 1024 = a 4096-byte region from the code. The 344 waves read
/// table lines 0-31 in turn (8 a workgroup, again every 4 workgroups): 32 misses to DRAM, the
/// other 312 table reads hit the L0, whose sets hold the 64 lines of 4 workgroups (8 a set).
/// `out[i]` streams: 344 misses. DRAM: 344 + 32 + the one kernel-argument line = 377.
#[test]
fn a_masked_global_id_wraps_in_its_table() {
    if !have_clang_22() {
        return;
    }
    let j = run("table_lookup", &[]);
    assert_eq!(
        regions(&j),
        vec![(Some(4096), "code".into()), (None, String::new())]
    );
    assert_eq!(level(&j, "l0"), [688, 312]);
    assert_eq!(level(&j, "dram"), [377, 377]);
}

/// `bins[data[i] & 255]`: the loaded index is unknown, the mask bounds it: a 1024-byte region
/// (8 lines). With the default pattern (linear, each wave 128 bytes on from the last) the 344
/// atomics cycle through those 8 lines. Atomics bypass the L0 and GL1 (rdna3's `[cache] atomic`
/// path starts at the L2), so the L0 sees only the 344 streaming `data` loads (no hits) and the L2
/// those, the 344 atomics (8 misses, 336 hits) and one kernel-argument line: 689 requests, 336
/// hits. DRAM: 344 `data` lines + 8 + 1.
#[test]
fn a_masked_loaded_index_wraps_in_its_bins() {
    if !have_clang_22() {
        return;
    }
    let j = run("bin_count", &[]);
    assert_eq!(
        regions(&j),
        vec![(None, String::new()), (Some(1024), "code".into())]
    );
    assert_eq!(level(&j, "l0"), [344, 0]);
    assert_eq!(level(&j, "l2"), [689, 336]);
    assert_eq!(level(&j, "dram"), [353, 353]);
}

/// `table[(i & 1023) + lid]`: the address also moves with the lane outside the mask, which a
/// region would wrap too: not derived, the default stays and says why.
#[test]
fn a_masked_index_plus_more_is_not_followed() {
    if !have_clang_22() {
        return;
    }
    let j = run("masked_plus_lane", &[]);
    let first = &j["defaults"]["addresses"][0];
    assert_eq!(first["region"], serde_json::Value::Null);
    let why = first["pattern_reason"].as_str().expect("a reason");
    assert!(why.contains("a masked index"), "{why}");
}

/// `table[(phase >> 20) & 4095]`: the shift is not followed, but the mask clang emits (0x3ffc, the
/// x 4 folded in) keeps the byte offset below 0x4000: a 16384-byte region from the code, with the
/// default pattern inside it. The table's 128 lines then come from DRAM once each at most: DRAM
/// serves no more than the 344 `out` lines + 128 + the kernel-argument lines.
#[test]
fn a_mask_bounds_an_index_the_reader_does_not_follow() {
    if !have_clang_22() {
        return;
    }
    let j = run("phase_lookup", &["--arg", "step=1234567"]);
    assert_eq!(
        regions(&j),
        vec![(Some(16384), "code".into()), (None, String::new())]
    );
    let first = &j["defaults"]["addresses"][0];
    assert_eq!(first["pattern_from"], "default");
    let dram = level(&j, "dram")[0];
    assert!(dram <= 344 + 128 + 2, "{dram}");
}

/// `table[i & 255]` on gfx942: clang folds the mask into the shift's SDWA byte select
/// (`v_lshlrev_b32_sdwa ... src1_sel:BYTE_0`). The select is the mask: a 1024-byte region from the
/// code, the id's own strides inside (the low byte of the id is the id modulo 256). Read as a plain
/// shift, the table would stream like `out` (every workgroup its own kilobyte).
#[test]
fn an_sdwa_byte_select_is_a_mask() {
    if !have_clang_22() {
        return;
    }
    let j = run_on("gfx942", "byte_table", &[]);
    assert_eq!(
        regions(&j),
        vec![(Some(1024), "code".into()), (None, String::new())]
    );
    let table = &j["defaults"]["addresses"][0];
    assert_eq!(table["pattern_from"], "code");
    let why = table["region_reason"].as_str().expect("a reason");
    assert!(why.contains("src1_sel:BYTE_0"), "{why}");
}
