//! Re-use across the chip's compute units at the shared cache levels.
//!
//! A launch simulates one compute unit, the busiest, and its shared levels (the L2, an
//! Infinity Cache) see only that CU's requests. On the GPU the other CUs run the grid's other
//! workgroups at the same time through the same shared levels, so a line another CU's
//! workgroup read a little earlier is still there when this CU asks: a tiled matrix product's
//! column panel, read by every workgroup of a grid column, comes from memory once, not once
//! per CU; a stencil's plane below was read by the workgroups of the plane before.
//!
//! The rule, for a request of an address stream that misses the simulated CU's instance of a
//! shared level:
//! * The busiest CU's `i`-th workgroup is the grid's workgroup at dispatch position
//!   `i x active CUs` (workgroups are dealt to the CUs in turn, x fastest, then y, then z).
//! * Another workgroup reads the same lines at the same point of its program when the op's
//!   own address, or that of another op on the same buffer with the same requests and
//!   strides (a stencil's taps), moved by that workgroup's offset in the grid, lands on them:
//!   the streams' group strides give the offset exactly (a stride of 0 shares the whole
//!   dimension).
//! * The nearest such workgroup dispatched earlier, `d` positions before, left the line in
//!   the level if the `d` workgroups dispatched since touch fewer lines than the level
//!   holds: a line stays in an LRU level while fewer lines than it holds are touched after
//!   it, and the other CUs run workgroups like this one, so `d` workgroups touch `d` times
//!   the lines the simulated CU's workgroups have asked the level for, per workgroup, so far.
//!   Running side by side does not change this: the two reads come at the same point of
//!   the two workgroups' lives, `d` workgroups' worth of the chip's work apart.
//!
//! Reads at other points of the two programs (another iteration, an op of another shape) are
//! not found. Streams whose addresses come from a tile walk, a random order, a wrapping
//! region, scratch or an override keep the CU's own view.

/// What the rule reads of an address stream it applies to (`MemorySystem` gives one per
/// stream whose requests are simulated where its strides put them).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReuseShape {
    /// The op's first address (its buffer's base plus its offset).
    pub base: u64,
    /// Its buffer's base: ops on one buffer may share lines.
    pub buffer: u64,
    /// Bytes between workgroups one apart in x, y and z (two's complement).
    pub group_stride: [u64; 3],
    /// What must be equal for two ops' reads to be each other's moved: the path, the
    /// requests' offsets and size, and the wave, iteration and outer-loop strides.
    pub lanes: (u8, Box<[u64]>, u32, u64, u64, u64, u64),
}

/// The chip's shape as the re-use rule needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChipLayout {
    /// Workgroups per dimension.
    pub grid: [u64; 3],
    /// Workgroups with work (dispatch positions below this).
    pub working: u64,
    /// CUs with work (the busiest CU's workgroups are this many positions apart).
    pub active_cus: u32,
}

/// A stream's group strides and the base differences of the streams it shares lines with
/// (`ChipReuse::peers`), and its dimensions whose stride is not 0, the largest stride first
/// (it leaves the fewest values to the others), found once for every workgroup's search.
#[derive(Debug, Clone)]
struct Peers {
    strides: [i64; 3],
    deltas: Vec<i64>,
    dims: Vec<usize>,
}

/// Enumerating a base difference's solutions stops past this many (each a few operations).
const MAX_SOLUTIONS: usize = 64;

/// Workgroups whose distances each stream keeps (by workgroup modulo this): more than a CU
/// holds at once, so the workgroups in flight, whose waves take turns, do not evict each
/// other's and each distance is found once.
const REMEMBERED_GROUPS: usize = 64;

/// The re-use rule's state for one run.
#[derive(Debug, Clone)]
pub(crate) struct ChipReuse {
    grid: [i64; 3],
    working: u64,
    active_cus: u64,
    /// Per stream: `None` when the rule does not apply to it, else its group strides and the
    /// base differences (its base less the other's) of the streams whose reads are its own
    /// moved, itself first (difference 0).
    peers: Vec<Option<Peers>>,
    /// Per model level: lines it holds (0: memory, never asked).
    capacity_lines: Vec<u64>,
    /// Per stream and workgroup modulo `REMEMBERED_GROUPS`: the workgroup last asked about
    /// there and its nearest earlier reader's distance.
    last: Vec<(u64, Option<u64>)>,
    /// Per model level: requests served because another CU had read the line.
    pub(crate) served: Vec<u64>,
}

impl ChipReuse {
    /// The rule for `streams` on a chip of `layout`, whose model levels hold
    /// `capacity_lines` lines each.
    pub(crate) fn new(
        layout: ChipLayout,
        streams: &[Option<ReuseShape>],
        capacity_lines: Vec<u64>,
    ) -> Self {
        let peers = streams
            .iter()
            .map(|s| {
                let s = s.as_ref()?;
                let mut deltas = vec![0i64];
                for o in streams.iter().flatten() {
                    if o.lanes == s.lanes
                        && o.group_stride == s.group_stride
                        && o.buffer == s.buffer
                    {
                        let d = s.base.wrapping_sub(o.base) as i64;
                        if !deltas.contains(&d) {
                            deltas.push(d);
                        }
                    }
                }
                let strides = s.group_stride.map(|g| g as i64);
                let mut dims: Vec<usize> = (0..3).filter(|&d| strides[d] != 0).collect();
                dims.sort_by_key(|&d| std::cmp::Reverse(strides[d].unsigned_abs()));
                Some(Peers {
                    strides,
                    deltas,
                    dims,
                })
            })
            .collect();
        let grid = layout.grid.map(|d| d.max(1) as i64);
        let active_cus = u64::from(layout.active_cus.max(1));
        ChipReuse {
            grid,
            working: layout.working.max(1),
            active_cus,
            peers,
            served: vec![0; capacity_lines.len()],
            capacity_lines,
            last: vec![(u64::MAX, None); streams.len() * REMEMBERED_GROUPS],
        }
    }

    /// Dispatch positions from the nearest workgroup dispatched before the simulated CU's
    /// workgroup `group` that reads stream `si`'s bytes (through `si` or a peer), if any
    /// (`None` too for a stream the rule does not apply to).
    pub(crate) fn distance(&mut self, si: usize, group: u64) -> Option<u64> {
        let at = si * REMEMBERED_GROUPS + (group % REMEMBERED_GROUPS as u64) as usize;
        if self.last[at].0 == group {
            return self.last[at].1;
        }
        let d = self.nearest(si, group);
        self.last[at] = (group, d);
        d
    }

    fn nearest(&self, si: usize, group: u64) -> Option<u64> {
        let peers = self.peers.get(si)?.as_ref()?;
        let p = group.saturating_mul(self.active_cus);
        if p >= self.working {
            return None;
        }
        let [gx, gy, _] = self.grid;
        let c = [
            (p % gx as u64) as i64,
            (p / gx as u64 % gy as u64) as i64,
            (p / (gx * gy) as u64) as i64,
        ];
        let mut best: Option<u64> = None;
        for &delta in &peers.deltas {
            let mut found = |fixed: [Option<i64>; 3]| {
                if let Some(q) = self.latest_before(c, fixed) {
                    let d = p - q;
                    best = Some(best.map_or(d, |b| b.min(d)));
                }
            };
            solve(peers, delta, (c, self.grid), &mut found);
        }
        best
    }

    /// The latest dispatch position before `c`'s of a workgroup inside the grid and among
    /// the working ones whose coordinates are `fixed` where given (any where `None`).
    fn latest_before(&self, c: [i64; 3], fixed: [Option<i64>; 3]) -> Option<u64> {
        let pos = |v: [i64; 3]| (v[0] + self.grid[0] * (v[1] + self.grid[1] * v[2])) as u64;
        let p = pos(c);
        let mut best = None;
        // Keep `c`'s coordinates above dimension `k` (z most significant), go below `c` at
        // `k`, and take the largest the rest allows.
        for k in (0..3).rev() {
            if (k + 1..3).any(|d| fixed[d].is_some_and(|v| v != c[d])) {
                break;
            }
            let at_k = match fixed[k] {
                Some(v) if v < c[k] => v,
                Some(_) => continue,
                None if c[k] > 0 => c[k] - 1,
                None => continue,
            };
            let mut v = c;
            v[k] = at_k;
            for d in 0..k {
                v[d] = fixed[d].unwrap_or(self.grid[d] - 1);
            }
            let q = pos(v);
            if q < p && q < self.working {
                best = best.max(Some(q));
            }
        }
        best
    }

    /// Whether model level `level`, whose simulated instance had `requests` requests before
    /// this one, still holds a line read `distance` dispatch positions earlier, by workgroup
    /// `group` of the simulated CU (counting from 0). Counts it when it does.
    pub(crate) fn held(&mut self, level: usize, requests: u64, distance: u64, group: u64) -> bool {
        let lines = self.capacity_lines.get(level).copied().unwrap_or(0);
        // Workgroups whose lines fill the level, at the lines this CU's workgroups have asked
        // it for so far (each workgroup's requests are lines it touches; LRU keeps a line
        // while fewer others are touched after it).
        let filling = lines.saturating_mul(group + 1) / requests.max(1);
        let held = distance <= filling;
        if held {
            self.served[level] += 1;
        }
        held
    }
}

/// The requests `(path, base, offsets, (bytes, no_allocate), now)` of stream `si` by the simulated CU's
/// workgroup `group`, on a chip whose other CUs may have read them first (this module's rule). Out
/// of line: only a launch's streams ask.
#[inline(never)]
pub(crate) fn chip_lines(
    hierarchy: &mut shadersim_mem::Hierarchy,
    chip: &mut ChipReuse,
    si: usize,
    group: u64,
    (path, at, offsets, bytes, now): (usize, u64, &[u64], (u32, u32), u64),
) -> shadersim_mem::LinesServed {
    match chip.distance(si, group) {
        // Another CU's workgroup read these bytes `d` positions before: the shared levels may
        // still hold them.
        Some(d) => hierarchy.access_lines_chip(path, at, offsets, bytes, now, &mut |level, r| {
            chip.held(level, r, d, group)
        }),
        None if bytes.1 == 0 => hierarchy.access_lines(path, at, offsets, bytes.0, now),
        None => hierarchy.access_lines_passing(path, at, offsets, bytes, now),
    }
}

/// The workgroups whose address lies `delta` bytes below `c`'s: moves of `c` inside `grid`
/// whose strides sum to that.
struct Offsets {
    strides: [i64; 3],
    c: [i64; 3],
    grid: [i64; 3],
    /// Solutions still to give before the search stops.
    budget: usize,
}

/// Call `found` with every assignment of the dimensions whose stride is not 0 (the others
/// `None`) that moves `c` inside `grid` by an offset whose strides (`peers`') sum to `delta`:
/// the workgroups whose address is `delta` bytes below `c`'s. (Exactly: reads a few bytes
/// apart share a line or not as the line boundaries fall, which the rule does not know.)
fn solve(
    peers: &Peers,
    delta: i64,
    (c, grid): ([i64; 3], [i64; 3]),
    found: &mut impl FnMut([Option<i64>; 3]),
) {
    let mut o = Offsets {
        strides: peers.strides,
        c,
        grid,
        budget: MAX_SOLUTIONS,
    };
    o.assign(&peers.dims, delta, &mut [None; 3], found);
}

impl Offsets {
    /// `solve`'s recursion over `dims`: the first takes each value the rest can make up for.
    fn assign(
        &mut self,
        dims: &[usize],
        delta: i64,
        fixed: &mut [Option<i64>; 3],
        found: &mut impl FnMut([Option<i64>; 3]),
    ) {
        let Some((&d, rest)) = dims.split_first() else {
            if delta == 0 && self.budget > 0 {
                self.budget -= 1;
                found(*fixed);
            }
            return;
        };
        let (c, grid) = (self.c, self.grid);
        // What the other dimensions' offsets can add, at least and at most.
        let (mut lo, mut hi) = (0i128, 0i128);
        for &o in rest {
            let s = i128::from(self.strides[o]);
            let (a, b) = (s * i128::from(-c[o]), s * i128::from(grid[o] - 1 - c[o]));
            lo += a.min(b);
            hi += a.max(b);
        }
        let s = i128::from(self.strides[d]);
        let want = i128::from(delta);
        // Offsets `x` of dimension `d` with `want - hi <= s * x <= want - lo` (integer
        // division rounded towards the bounds: `s` is not 0).
        let (low, high) = if s > 0 {
            (want - hi, want - lo)
        } else {
            (lo - want, hi - want)
        };
        let s_abs = s.abs();
        let (from, to) = (-(-low).div_euclid(s_abs), high.div_euclid(s_abs));
        let from = from.max(i128::from(-c[d]));
        let to = to.min(i128::from(grid[d] - 1 - c[d]));
        if to - from > MAX_SOLUTIONS as i128 {
            return;
        }
        let mut x = from;
        while x <= to && self.budget > 0 {
            fixed[d] = Some(c[d] + x as i64);
            self.assign(rest, (want - s * x) as i64, fixed, found);
            x += 1;
        }
        fixed[d] = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(grid: [u64; 3], active_cus: u32) -> ChipReuse {
        ChipReuse {
            grid: grid.map(|d| d as i64),
            working: grid.iter().product(),
            active_cus: u64::from(active_cus),
            peers: Vec::new(),
            capacity_lines: vec![0],
            last: Vec::new(),
            served: vec![0],
        }
    }

    #[test]
    fn a_shared_dimension_takes_the_latest_workgroup_before() {
        // A 64 x 8 grid; a stream whose address moves with x only (stride 64 B, 0 in y).
        let mut r = layout([64, 8, 1], 96);
        r.peers = vec![Some(Peers {
            strides: [64, 0, 0],
            deltas: vec![0],
            dims: vec![0],
        })];
        r.last = vec![(u64::MAX, None); REMEMBERED_GROUPS];
        // Workgroup 0 is position 0, (0, 0): nobody before it reads its bytes.
        assert_eq!(r.distance(0, 0), None);
        // Workgroup 1 is position 96 = (32, 1): (32, 0) read them, 64 positions before.
        assert_eq!(r.distance(0, 1), Some(64));
        // Workgroup 5 is position 480 = (32, 7): (32, 6) at 416.
        assert_eq!(r.distance(0, 5), Some(64));
    }

    #[test]
    fn a_peer_one_plane_up_is_found_a_plane_of_workgroups_before() {
        // A 4 x 16 x 8 grid, z stride 1 MiB; the tap one plane up has its base 1 MiB higher
        // (base difference -1 MiB), the tap one plane down 1 MiB lower.
        let mut r = layout([4, 16, 8], 10);
        let mib = 1 << 20;
        r.peers = vec![Some(Peers {
            strides: [1024, 65536, mib],
            deltas: vec![0, -mib, mib],
            dims: vec![2, 1, 0],
        })];
        r.last = vec![(u64::MAX, None); REMEMBERED_GROUPS];
        // Workgroup 13 is position 130 = (2, 0, 2): the up tap of workgroup (2, 0, 1), one
        // plane (64 positions) before, read these bytes.
        assert_eq!(r.distance(0, 13), Some(64));
        // Workgroup 0 reads plane 0: only a workgroup of plane -1 would have read it first.
        assert_eq!(r.distance(0, 0), None);
    }

    #[test]
    fn lines_are_held_while_the_workgroups_since_touch_fewer_than_the_capacity() {
        let mut r = layout([64, 8, 1], 96);
        r.capacity_lines = vec![1000];
        r.served = vec![0];
        // 10 workgroups run, 100 requests: 10 lines each, so 1000 lines hold the lines of
        // 100 workgroups.
        assert!(r.held(0, 100, 100, 9));
        assert!(!r.held(0, 100, 101, 9));
        // Before any request, a line is held.
        assert!(r.held(0, 0, 5, 0));
        assert_eq!(r.served[0], 2);
    }
}
