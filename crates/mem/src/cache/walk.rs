//! The rarer steps of a request's walk down a path (`walk_path` in the parent module takes the
//! usual one): a level with smaller lines than the block asked of it looks each of its lines up
//! on its own, an access that does not allocate in a level passes a miss by, and a shared
//! level asks the chip about a miss.

use super::{align_down, unreachable_served, Level, Served};

/// Whether `level` (the path's last when `last`) serves the block at `start`: it holds the
/// line, it is memory, or (`CHIP`, a shared level) another CU left the line there. A miss fills
/// the line unless `passes` (1: the access does not allocate here; looked at only with `PASS`).
#[inline(always)]
pub(super) fn finds<const CHIP: bool, const PASS: bool>(
    level: &mut Level,
    start: u64,
    last: bool,
    passes: u32,
    held: &mut impl FnMut(usize, u64) -> bool,
) -> bool {
    if PASS && passes != 0 {
        return finds_passing::<CHIP>(level, start, last, held);
    }
    level.lookup_fill(start) || last || CHIP && chip_holds(level, held)
}

/// [`finds`] for an access that does not allocate in `level`: a miss passes it by and is
/// counted as such.
#[inline(never)]
pub(super) fn finds_passing<const CHIP: bool>(
    level: &mut Level,
    start: u64,
    last: bool,
    held: &mut impl FnMut(usize, u64) -> bool,
) -> bool {
    let found = level.lookup_only(start) || last || CHIP && chip_holds(level, held);
    if !found {
        level.passed += 1;
    }
    found
}

/// The block `[start, start + bytes)` asked of the level at `depth`, whose lines are smaller:
/// each of its lines looked up on its own, a miss filled from the levels below (with that
/// level's line). The slowest line's service; its level and depth are the deepest that served.
#[inline(never)]
pub(super) fn split_block<const CHIP: bool, const PASS: bool>(
    levels: &mut [Level],
    path_levels: &[usize],
    (depth, no_allocate): (usize, u32),
    start: u64,
    bytes: u32,
    t: f64,
    held: &mut impl FnMut(usize, u64) -> bool,
) -> Served {
    let line = levels[path_levels[depth]].config.line_bytes.max(1);
    let mut worst = Served {
        level: path_levels[depth],
        depth,
        latency: 0,
    };
    let mut offset = 0;
    while offset < bytes {
        let address = start.wrapping_add(u64::from(offset));
        let block = (address, line);
        let served =
            walk_from::<CHIP, PASS>(levels, path_levels, (depth, no_allocate), block, t, held);
        worst.latency = worst.latency.max(served.latency);
        if served.depth > worst.depth {
            worst.level = served.level;
            worst.depth = served.depth;
        }
        offset = offset.saturating_add(line);
    }
    worst
}

/// One line of `line` bytes at `address` asked of the level at `depth` and, on a miss, of the
/// levels after it (the tail of [`walk_path`], simulated).
pub(super) fn walk_from<const CHIP: bool, const PASS: bool>(
    levels: &mut [Level],
    path_levels: &[usize],
    (depth, no_allocate): (usize, u32),
    (address, line): (u64, u32),
    t: f64,
    held: &mut impl FnMut(usize, u64) -> bool,
) -> Served {
    let last = path_levels.len() - 1;
    let mut block_bytes = line;
    let mut block_start = address;
    for (d, &li) in path_levels.iter().enumerate().skip(depth) {
        let level = &mut levels[li];
        let own = level.config.line_bytes;
        if d > depth && own < block_bytes && d < last {
            return split_block::<CHIP, PASS>(
                levels,
                path_levels,
                (d, no_allocate),
                block_start,
                block_bytes,
                t,
                held,
            );
        }
        level.requests += 1;
        if finds::<CHIP, PASS>(level, block_start, d == last, no_allocate >> d & 1, held) {
            return level.serve_bytes(li, d, block_bytes, t);
        }
        if own >= block_bytes {
            block_start = align_down(block_start, own);
            block_bytes = own;
        }
    }
    unreachable_served(path_levels[last])
}

/// Whether the chip's other CUs left the line `level` just missed in it (a shared level
/// only): `held` is asked with the model level and the requests the instance had before this
/// one.
#[inline(never)]
pub(super) fn chip_holds(level: &Level, held: &mut impl FnMut(usize, u64) -> bool) -> bool {
    match level.chip_level {
        // The requests before this one that brought lines in.
        Some(m) => held(m, level.requests - 1 - level.passed),
        None => false,
    }
}
