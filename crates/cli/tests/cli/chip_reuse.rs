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
    let j = json(&[
        "analyze",
        FILE,
        "--function",
        function,
        "--arch",
        "gfx1100",
        "--grid",
        grid,
        "--block",
        block,
        "--no-latency-search",
        "--format",
        "json",
    ]);
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
