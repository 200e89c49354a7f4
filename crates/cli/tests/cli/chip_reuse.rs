//! Re-use across the chip's CUs at the shared levels (docs/cli.md, kernel time): a request the
//! simulated CU's own view of a shared level misses is served there when a workgroup dispatched
//! before it read the same bytes and the workgroups between touch fewer lines than the level
//! holds. Numbers derived from the rule on `chip_reuse.cl` (clang-22, gfx1100: 96 CUs, wave32,
//! 128-byte lines; blocks of 256 work-items are 8 waves, each reading one line of `in` and
//! writing one of `out`).

use crate::json_of as json;
use crate::stdout_of as stdout;
use shadersim_testkit::tools::have_clang_22;

const FILE: &str = "tests/fixtures/src/opencl/chip_reuse.cl";

/// Per cache level of `function`'s run on gfx1100 with `grid`: requests, hits, chip hits.
fn levels(function: &str, grid: &str) -> Vec<(String, [u64; 3])> {
    levels_with(function, grid, "256")
}

/// [`levels`] with workgroups of `block` work-items.
fn levels_with(function: &str, grid: &str, block: &str) -> Vec<(String, [u64; 3])> {
    levels_on("gfx1100", function, &["--grid", grid, "--block", block])
}

/// [`levels`] on `arch` with the launch and any other options `rest`.
fn levels_on(arch: &str, function: &str, rest: &[&str]) -> Vec<(String, [u64; 3])> {
    let mut args = vec![
        "analyze",
        FILE,
        "--function",
        function,
        "--arch",
        arch,
        "--no-latency-search",
        "--format",
        "json",
    ];
    args.extend_from_slice(rest);
    let j = json(&args);
    j["cache"]
        .as_object()
        .expect("a cache hierarchy")
        .iter()
        .map(|(name, l)| {
            let n = |k: &str| l[k].as_u64().expect("a count");
            (name.clone(), [n("requests"), n("hits"), n("chip_hits")])
        })
        .collect()
}

fn level(all: &[(String, [u64; 3])], name: &str) -> [u64; 3] {
    all.iter().find(|(n, _)| n == name).expect("the level").1
}

/// `column_panel` on a 64 x 8 grid: 512 workgroups, 6 on the busiest CU, at dispatch positions
/// 0, 96, 192, 288, 384, 480 = (0, 0), (32, 1), (0, 3), (32, 4), (0, 6), (32, 7). `in` moves with
/// x only, so every workgroup but the first has a reader of its `in` line 64 positions before
/// (same x, the row above); 64 workgroups of 16 lines each are far below the L2's 49152 lines.
/// The simulated CU's own workgroups read different columns, so each of their 8 `in` lines misses
/// its own L2: 5 x 8 = 40 are served there for the chip, and memory serves the rest of the L2's
/// misses. On a grid of one row nobody reads first.
#[test]
fn a_column_panel_read_by_the_row_above_is_served_by_the_l2() {
    if !have_clang_22() {
        return;
    }
    let all = levels("column_panel", "64x8");
    let [requests, hits, chip] = level(&all, "l2");
    assert_eq!(chip, 40, "{all:?}");
    assert_eq!(hits, 40, "{all:?}");
    assert_eq!(level(&all, "dram")[0], requests - 40, "{all:?}");
    let one_row = levels("column_panel", "64x1");
    assert!(one_row.iter().all(|(_, l)| l[2] == 0), "{one_row:?}");
}

/// `column_panel` on a 4096 x 2 grid: 86 workgroups on the busiest CU; position 96 i is in the
/// second row from i = 43 (96 x 43 = 4128), so workgroups 43 to 85 have a reader 4096 positions
/// before. 4096 workgroups of about 16 lines (8 `in`, 8 `out`, a few scalar) touch about 65536
/// lines, more than the L2's 49152, so the L2 has lost them and the Infinity Cache serves them:
/// 43 x 8 = 344.
#[test]
fn a_reader_too_far_back_for_the_l2_leaves_the_line_in_the_infinity_cache() {
    if !have_clang_22() {
        return;
    }
    let all = levels("column_panel", "4096x2");
    assert_eq!(level(&all, "l2")[2], 0, "{all:?}");
    assert_eq!(level(&all, "mall")[2], 344, "{all:?}");
}

/// `column_panel_nt` (the store non-temporal) on the 4096 x 2 grid of the test above, with an L2
/// of 1 MB (8192 lines) and an Infinity Cache of 6 MB (49152 lines). Each workgroup sends the
/// Infinity Cache 16 lines (8 `in`, 8 `out`; 1377 requests for 86 workgroups). On gfx11 the
/// store carries `dlc` and does not allocate there (rdna3's `[[no_allocate]]`), so a workgroup
/// fills 8 lines: 49152 / 8 = 6144 workgroups fit, more than the 4096 back to the reader, and the
/// 43 x 8 = 344 lines are served. The plain store fills 16: 49152 / 16 = 3072 fit, fewer than
/// 4096, and none are. The same kernel on gfx1030, whose `dlc` is no such policy (it has 80 CUs:
/// a reader 4096 positions back for its workgroups 52 to 102), gets none either.
#[test]
fn a_non_temporal_store_leaves_the_infinity_cache_to_the_reads() {
    if !have_clang_22() {
        return;
    }
    let small = [
        "--grid",
        "4096x2",
        "--block",
        "256",
        "--set",
        "l2_bytes=1048576",
        "--set",
        "mall_bytes=6291456",
    ];
    let nt = levels_on("gfx1100", "column_panel_nt", &small);
    assert_eq!(level(&nt, "mall"), [1377, 344, 344], "{nt:?}");
    // The store's 8 lines a workgroup missed the Infinity Cache (their first touch) and were
    // not kept: memory served them and the in lines without a reader.
    assert_eq!(level(&nt, "dram")[0], 1377 - 344, "{nt:?}");
    let plain = levels_on("gfx1100", "column_panel", &small);
    assert_eq!(level(&plain, "mall")[2], 0, "{plain:?}");
    let rdna2 = levels_on("gfx1030", "column_panel_nt", &small);
    assert_eq!(level(&rdna2, "mall")[2], 0, "{rdna2:?}");
    // The report says which op the policy took and why, on gfx11 only.
    let note = "not allocated in mall (`dlc`)";
    let text = |arch: &str| {
        stdout(&[
            "analyze",
            FILE,
            "--function",
            "column_panel_nt",
            "--arch",
            arch,
            "--grid",
            "64x2",
            "--block",
            "256",
            "--no-latency-search",
        ])
    };
    let gfx11 = text("gfx1100");
    let store = gfx11
        .lines()
        .find(|l| l.contains("global_store_b32"))
        .expect("the store");
    assert!(store.contains(note), "{store}");
    assert_eq!(gfx11.matches(note).count(), 1, "{gfx11}");
    assert!(!text("gfx1030").contains(note));
}

/// `two_planes` on a 1 x 192 grid: 2 workgroups on the busiest CU, at y = 0 and 96. Workgroup
/// 96's first tap reads plane 96, the second tap of workgroup 94 two positions before; its second
/// tap (plane 98) and both of workgroup 0's taps have no earlier reader. So 8 lines (one a wave)
/// come from the L2 for the chip.
#[test]
fn a_tap_read_by_an_earlier_workgroups_other_tap_is_served_by_the_l2() {
    if !have_clang_22() {
        return;
    }
    let all = levels("two_planes", "1x192");
    assert_eq!(level(&all, "l2")[2], 8, "{all:?}");
    assert_eq!(level(&all, "mall")[2], 0, "{all:?}");
}

/// `plane_below` on a 1 x 192 grid: as `two_planes` with the earlier tap below the buffer's
/// base. Workgroup 96's first tap (plane 94) is workgroup 94's second, two positions before;
/// workgroup 0's first tap (plane -2) has no reader. 8 lines from the L2 for the chip: an op's
/// negative offset keeps it on its buffer.
#[test]
fn a_tap_below_the_buffers_base_is_on_the_same_buffer() {
    if !have_clang_22() {
        return;
    }
    let all = levels("plane_below", "1x192");
    assert_eq!(level(&all, "l2")[2], 8, "{all:?}");
    // gfx11 sign-extends the 32-bit index `p - 512` by a 64-bit arithmetic shift of (p - 512):0;
    // the constant it added, 0xfffffe00, is -512 there: 4 x -512 bytes, not 4 x (2^32 - 512).
    let text = stdout(&[
        "analyze",
        FILE,
        "--function",
        "plane_below",
        "--arch",
        "gfx1100",
        "--grid",
        "1x192",
        "--block",
        "256",
        "--no-latency-search",
    ]);
    assert!(text.contains("1024 x workgroup id (y) - 2048)"), "{text}");
}

/// `half_lines` on a 256 x 4 grid: each workgroup reads and writes 64 bytes, half of a line
/// whose other half its x neighbour reads. Whether two reads 64 bytes apart share a line depends
/// on where the line boundaries fall, which the rule does not know, so it finds nothing: the
/// simulated CU's own workgroups (consecutive in x) share their lines in its own view only.
#[test]
fn reads_a_few_bytes_apart_are_not_taken_for_the_same_lines() {
    if !have_clang_22() {
        return;
    }
    let all = levels_with("half_lines", "256x4", "16");
    assert!(all.iter().all(|(_, l)| l[2] == 0), "{all:?}");
}
