//! The cache hierarchy's unit tests (kept beside `cache.rs` so the module stays readable).

use super::*;

fn level(name: &str, cap: Option<u64>, line: u32, ways: u32, lat: u32) -> LevelConfig {
    LevelConfig {
        name: name.into(),
        capacity_bytes: cap,
        line_bytes: line,
        ways,
        latency: lat,
        bytes_per_clock: None,
        hashed_sets: false,
    }
}

/// [`gcn_like`] for one CU of a chip: the L2 and memory shared, the L1 its own.
fn one_cu_shared_l2() -> Hierarchy {
    Hierarchy::per_cu(
        vec![
            level("l1", Some(16 * 1024), 64, 4, 100),
            level("l2", Some(256 * 1024), 64, 16, 200),
            level("dram", None, 64, 1, 500),
        ],
        &[vec!["l1".into(), "l2".into(), "dram".into()]],
        &[false, true, true],
        1,
    )
    .unwrap()
}

fn gcn_like() -> Hierarchy {
    Hierarchy::new(
        vec![
            level("l1", Some(16 * 1024), 64, 4, 100),
            level("l2", Some(256 * 1024), 64, 16, 200),
            level("dram", None, 64, 1, 500),
        ],
        &[vec!["l1".into(), "l2".into(), "dram".into()]],
    )
    .unwrap()
}

#[test]
fn first_touch_misses_to_memory_then_hits_l1() {
    let mut h = gcn_like();
    // Cold: every level misses, memory serves it at its latency.
    let a = h.access(0, 0x1000, 64, 0, Serve::Simulate);
    assert_eq!((a.level, a.latency), (2, 500));
    // The walk filled L1 and L2: the same line now hits L1.
    let b = h.access(0, 0x1010, 64, 10, Serve::Simulate);
    assert_eq!((b.level, b.latency), (0, 100));
    let s = h.stats();
    assert_eq!((s[0].requests, s[0].hits), (2, 1));
    assert_eq!((s[1].requests, s[1].hits), (1, 0));
}

/// A path of an L1, an L2 and memory with the given line sizes.
fn lines(l1: u32, l2: u32) -> Hierarchy {
    Hierarchy::new(
        vec![
            level("l1", Some(16 * 1024), l1, 4, 100),
            level("l2", Some(256 * 1024), l2, 16, 200),
            level("dram", None, l2, 1, 500),
        ],
        &[vec!["l1".into(), "l2".into(), "dram".into()]],
    )
    .unwrap()
}

#[test]
fn a_miss_fills_the_whole_line_of_the_level_that_missed() {
    // 128-byte lines at both levels, 64-byte requests (gfx942: the coalescer's 64-byte
    // requests, CDNA3-WP's 128-byte L1 and L2 lines). The first request misses both:
    // the L1 takes a whole 128-byte line from the L2, the L2 a whole line from memory,
    // so memory delivers 128 bytes, not the request's 64. The second half then hits L1.
    let mut h = lines(128, 128);
    h.access(0, 0x1000, 64, 0, Serve::Simulate);
    h.access(0, 0x1040, 64, 0, Serve::Simulate);
    let s = h.stats();
    assert_eq!((s[0].requests, s[0].hits, s[0].bytes), (2, 1, 64));
    assert_eq!((s[1].requests, s[1].bytes), (1, 0));
    assert_eq!((s[2].requests, s[2].bytes), (1, 128));
}

#[test]
fn a_level_with_smaller_lines_serves_a_fill_line_by_line() {
    // 128-byte L1 lines over 64-byte L2 lines: the L1's fill is two L2 lines, each
    // looked up and, cold, each filled from memory with its own 64 bytes (128 in all).
    let mut h = lines(128, 64);
    let a = h.access(0, 0x1000, 64, 0, Serve::Simulate);
    assert_eq!((a.level, a.depth, a.latency), (2, 2, 500));
    let s = h.stats();
    assert_eq!((s[1].requests, s[1].hits), (2, 0));
    assert_eq!((s[2].requests, s[2].bytes), (2, 128));
    // The other half of the 128-byte L1 line came with it.
    let b = h.access(0, 0x1040, 64, 0, Serve::Simulate);
    assert_eq!(b.level, 0);
    // A cold L1 line elsewhere: two more L2 lookups, two more 64-byte memory fills.
    h.access(0, 0x2000, 64, 0, Serve::Simulate);
    let s = h.stats();
    assert_eq!((s[1].requests, s[2].requests, s[2].bytes), (4, 4, 256));
}

#[test]
fn a_level_with_larger_lines_sends_its_whole_line_down() {
    // 64-byte L1 lines over 128-byte L2 lines: the L2 is asked for the L1's 64 bytes
    // (and charges 64 on a hit), and on a miss memory fills its 128-byte line.
    let mut h = lines(64, 128);
    h.access(0, 0x1000, 64, 0, Serve::Simulate);
    // The neighbouring 64 bytes miss L1 and hit the L2 line the first miss brought in.
    let b = h.access(0, 0x1040, 64, 0, Serve::Simulate);
    assert_eq!((b.level, b.latency), (1, 200));
    let s = h.stats();
    assert_eq!((s[1].requests, s[1].hits, s[1].bytes), (2, 1, 64));
    assert_eq!((s[2].requests, s[2].bytes), (1, 128));
}

#[test]
fn lru_evicts_the_oldest_way() {
    // 16 KB, 64 B lines, 4 ways: 64 sets; lines 64 apart share a set.
    let mut h = gcn_like();
    let stride = 64 * 64;
    for i in 0..5u64 {
        h.access(0, i * stride, 64, 0, Serve::Simulate);
    }
    // Five lines in a 4-way set: the first was evicted (to L2), the fifth stays.
    assert_eq!(h.access(0, 0, 64, 0, Serve::Simulate).level, 1);
    assert_eq!(h.access(0, 4 * stride, 64, 0, Serve::Simulate).level, 0);
}

#[test]
fn a_region_larger_than_l1_streams_from_l2() {
    let mut h = gcn_like();
    // 32 KB twice: the second pass misses L1 (twice its size, LRU) and hits L2.
    for pass in 0..2 {
        for line in 0..512u64 {
            let s = h.access(0, line * 64, 64, 0, Serve::Simulate);
            assert_eq!(s.level, if pass == 0 { 2 } else { 1 });
        }
    }
}

#[test]
fn forced_depth_leaves_contents_alone() {
    let mut h = gcn_like();
    let s = h.access(0, 0, 64, 0, Serve::AtDepth(1));
    assert_eq!((s.level, s.latency), (1, 200));
    // Nothing was filled: a simulated access still misses to memory.
    assert_eq!(h.access(0, 0, 64, 0, Serve::Simulate).level, 2);
}

#[test]
fn bandwidth_queues_requests() {
    let mut cfg = level("l1", Some(16 * 1024), 64, 4, 10);
    cfg.bytes_per_clock = Some(64.0);
    let mut h = Hierarchy::new(
        vec![cfg, level("dram", None, 64, 1, 100)],
        &[vec!["l1".into(), "dram".into()]],
    )
    .unwrap();
    h.access(0, 0, 64, 0, Serve::Simulate);
    // Four requests for the cached line at clock 1: 64 B per clock
    // serves one per clock, so the fourth waits 3 clocks (the first,
    // cold access was served by memory, which has no bandwidth limit).
    let lat: Vec<u32> = (0..4)
        .map(|_| h.access(0, 0, 64, 1, Serve::Simulate).latency)
        .collect();
    assert_eq!(lat, vec![10, 11, 12, 13]);
}

#[test]
fn large_levels_behave_like_small_ones() {
    // A 128 MB level (sparse storage) evicts by LRU like a dense one: a
    // 4-way set overflows on its fifth line.
    let mut h = Hierarchy::new(
        vec![
            level("big", Some(128 << 20), 128, 4, 10),
            level("dram", None, 128, 1, 100),
        ],
        &[vec!["big".into(), "dram".into()]],
    )
    .unwrap();
    let sets = (128u64 << 20) / 128 / 4;
    for i in 0..5 {
        assert_eq!(
            h.access(0, i * sets * 128, 128, 0, Serve::Simulate).level,
            1
        );
    }
    assert_eq!(h.access(0, 0, 128, 0, Serve::Simulate).level, 1);
    assert_eq!(
        h.access(0, 4 * sets * 128, 128, 0, Serve::Simulate).level,
        0
    );
}

/// The stamp-per-way LRU the move-to-front sets replaced: a lookup finds the line, else
/// fills the first least recently used way (empty ways, stamp 0, first).
struct StampLevel {
    sets: u64,
    ways: usize,
    line_bytes: u64,
    tags: Vec<u64>,
    used: Vec<u64>,
    tick: u64,
}

impl StampLevel {
    fn lookup_fill(&mut self, address: u64) -> bool {
        self.tick += 1;
        let line = address / self.line_bytes;
        let start = (line % self.sets) as usize * self.ways;
        let mut victim = start;
        for w in start..start + self.ways {
            if self.tags[w] == line {
                self.used[w] = self.tick;
                return true;
            }
            if self.used[w] < self.used[victim] {
                victim = w;
            }
        }
        self.tags[victim] = line;
        self.used[victim] = self.tick;
        false
    }
}

#[test]
fn move_to_front_sets_are_the_stamped_lru() {
    // Power-of-two and other shapes (the shift and mask, and the divisions), on a stream
    // that mixes reuse, new lines and sets overflowing.
    // The last two are sparse (more than DENSE_SLOTS lines): a 96 MB Infinity Cache's
    // shape, and one whose set count is no power of two.
    for (cap, line, ways) in [
        (16 * 1024, 64, 4),
        (3 * 64 * 5, 64, 5),
        (96 * 7 * 3, 96, 7),
        (96 << 20, 128, 16),
        (96 * 7 * 100_003, 96, 7),
    ] {
        let mut l = Level::new(level("x", Some(cap), line, ways, 1)).unwrap();
        let mut r = StampLevel {
            sets: l.sets,
            ways: l.ways as usize,
            line_bytes: u64::from(line),
            tags: vec![u64::MAX; (l.sets * l.ways) as usize],
            used: vec![0; (l.sets * l.ways) as usize],
            tick: 0,
        };
        let mut x = 12345u64;
        for i in 0..20_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let address = match x >> 62 {
                0 => i * 64,
                1 => (x >> 20) % (4 * cap),
                2 => (x >> 24) % (cap / 2),
                // 40 lines on each of 3 sets: evictions in every shape.
                _ => ((x >> 24) % 40 * l.sets + (x >> 50) % 3) * u64::from(line),
            };
            assert_eq!(l.lookup_fill(address), r.lookup_fill(address), "{i}");
        }
    }
}

/// The move-to-front of a set as first written: scan every way for the tag, else drop
/// the last way.
fn move_to_front_plain(set: &mut [u64], tag: u64) -> bool {
    let (hit, w) = match set.iter().position(|&t| t == tag) {
        Some(w) => (true, w),
        None => (false, set.len() - 1),
    };
    set.copy_within(0..w, 1);
    set[0] = tag;
    hit
}

#[test]
fn move_to_front_stopping_at_the_first_empty_way_is_the_plain_scan() {
    // Sets of 1 to 16 ways from empty (all 0) to full and evicting, tags from a domain
    // a little larger than the set (hits, misses, refills); tags are `!line`, never 0
    // for a line below u64::MAX.
    let mut x = 99u64;
    for ways in 1..=16usize {
        let (mut fast, mut plain) = (vec![0u64; ways], vec![0u64; ways]);
        for i in 0..4000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let tag = !((x >> 33) % (ways as u64 + 3));
            assert_eq!(
                move_to_front(&mut fast, tag),
                move_to_front_plain(&mut plain, tag),
                "{ways} ways, request {i}"
            );
            assert_eq!(fast, plain, "{ways} ways, request {i}");
        }
    }
}

#[test]
fn access_lines_is_access_of_each_line() {
    // Two paths sharing L2 and memory, bandwidth on L1 and memory so waits build up;
    // batches of lines at moving bases (hits, misses to L2 and to memory, evictions).
    let with_bw = |mut c: LevelConfig, b: f64| {
        c.bytes_per_clock = Some(b);
        c
    };
    let make = || {
        Hierarchy::new(
            vec![
                with_bw(level("l1", Some(4 * 1024), 64, 4, 100), 64.0),
                level("k", Some(1024), 64, 2, 20),
                level("l2", Some(64 * 1024), 64, 16, 200),
                with_bw(level("dram", None, 64, 1, 500), 16.0),
            ],
            &[
                vec!["l1".into(), "l2".into(), "dram".into()],
                vec!["k".into(), "l2".into(), "dram".into()],
            ],
        )
        .unwrap()
    };
    let (mut batched, mut single) = (make(), make());
    let mut x = 7u64;
    for round in 0..3000u64 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let path = (x >> 63) as usize;
        let base = (x >> 40) % (256 * 1024) / 64 * 64;
        let offsets: Vec<u64> = (0..(x >> 20) % 20)
            .map(|i| i * 64 * ((x >> 8) % 3 + 1))
            .collect();
        let now = round * 3;
        let got = batched.access_lines(path, base, &offsets, 64, now);
        let mut want = LinesServed::default();
        for &o in &offsets {
            let s = single.access(path, base + o, 64, now, Serve::Simulate);
            if s.depth == 0 {
                want.first_level += 1;
                want.worst_first = want.worst_first.max(s.latency);
            } else {
                want.worst_rest = Some(want.worst_rest.unwrap_or(0).max(s.latency));
            }
        }
        assert_eq!(got, want, "round {round}");
    }
    assert_eq!(batched.stats(), single.stats());
}

#[test]
fn ceil_clocks_is_ceil() {
    for x in [
        0.0,
        -0.0,
        0.25,
        1.0,
        1.5,
        2.0 - f64::EPSILON,
        7.5 * 3.0,
        4503599627370495.5,
        9007199254740993.0,
        1e19,
        1e30,
        f64::INFINITY,
        -0.5,
        f64::NAN,
    ] {
        assert_eq!(ceil_clocks(x), x.ceil() as u64, "{x}");
    }
}

#[test]
fn bad_levels_are_errors() {
    assert!(Level::new(level("x", Some(32), 64, 1, 1)).is_err());
    assert!(Level::new(level("x", Some(64), 0, 1, 1)).is_err());
    assert!(Hierarchy::new(vec![level("a", None, 64, 1, 1)], &[vec!["b".into()]]).is_err());
}

#[test]
fn the_plain_lookup_is_the_general_one() {
    // Power-of-two lines and sets take the short way of `lookup_fill` (`Level::plain`); the
    // same level sent down the general way (shift and mask tested one by one) must answer
    // and order its sets the same, with hashed sets and without.
    for hashed in [false, true] {
        for (cap, line, ways) in [(16 * 1024, 64, 4), (4 << 20, 64, 16), (32 * 1024, 128, 32)] {
            let mut config = level("x", Some(cap), line, ways, 1);
            config.hashed_sets = hashed;
            let mut plain = Level::new(config.clone()).unwrap();
            let mut general = Level::new(config).unwrap();
            assert!(plain.plain);
            general.plain = false;
            let mut x = 7u64;
            for i in 0..20_000u64 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let address = match x >> 62 {
                    0 => i * 64,
                    1 => (x >> 20) % (4 * cap),
                    _ => (x >> 24) % (cap / 2),
                };
                assert_eq!(
                    plain.lookup_fill(address),
                    general.lookup_fill(address),
                    "{hashed} {cap} {i}"
                );
            }
            assert_eq!(plain.tags, general.tags);
        }
    }
}

/// `access_lines_chip` asks only shared levels about their misses, with the model level and
/// the instance's requests before the one asked about; what `held` says serves the request
/// there, and the line is filled either way.
#[test]
fn the_chip_is_asked_only_about_a_shared_levels_misses() {
    let mut h = one_cu_shared_l2();
    let mut asked = Vec::new();
    // Two lines: the chip holds the first (the L2 serves it), not the second (memory does).
    let served = h.access_lines_chip(0, 0, &[0, 64], (64, 0), 0, &mut |level, requests| {
        asked.push((level, requests));
        asked.len() == 1
    });
    // The L1 (private) and memory (last) are never asked; the L2 once per line.
    assert_eq!(asked, vec![(1, 0), (1, 1)]);
    assert_eq!((served.first_level, served.worst_rest), (0, Some(500)));
    let s = h.stats();
    assert_eq!((s[1].requests, s[1].hits), (2, 1));
    assert_eq!((s[2].requests, s[2].hits), (1, 1));
    // Both lines were filled: they hit the L1 now, and nothing asks the chip.
    let again = h.access_lines_chip(0, 0, &[0, 64], (64, 0), 1, &mut |_, _| unreachable!());
    assert_eq!(again.first_level, 2);
}

/// A request that does not allocate in the L2 (`no_allocate` bit 1: depth 1) and misses there
/// is served by memory and leaves the L2 as it was; the L1 above still fills. A line the L2
/// already holds is a hit for it, as for any request.
#[test]
fn a_level_that_does_not_allocate_passes_a_miss_by() {
    let mut h = gcn_like();
    let l2_only = 1 << 1;
    // Line 0 misses both levels: memory serves it, the L1 fills, the L2 does not.
    let a = h.access_lines_passing(0, 0, &[0], (64, l2_only), 0);
    assert_eq!(a.worst_rest, Some(500));
    // Four lines of the L1's set 0 (16 KB / 64 B / 4 ways = 64 sets: 4 KB apart), allocating:
    // the L1's set now holds them and has lost line 0; the L2 holds them in four sets.
    let evict: Vec<u64> = (1..=4).map(|i| i * 4096).collect();
    h.access_lines(0, 0, &evict, 64, 1);
    // Line 0 again, allocating: the L2 never took it, so memory serves it again. The L1 takes
    // it back and loses its oldest line, 4096.
    let b = h.access_lines(0, 0, &[0], 64, 2);
    assert_eq!(b.worst_rest, Some(500));
    // Line 4096 not allocating: the L1 lost it, the L2 holds it and serves it.
    let c = h.access_lines_passing(0, 4096, &[0], (64, l2_only), 3);
    assert_eq!(c.worst_rest, Some(200));
    let s = h.stats();
    // L2: 1 + 4 + 1 + 1 requests, 1 hit (line 4096).
    assert_eq!((s[1].requests, s[1].hits), (7, 1));
}

/// The chip rule is told the requests before this one that brought lines into the level:
/// one that passed the level by (does not allocate there) is not counted.
#[test]
fn the_chip_counts_only_requests_that_allocate() {
    let mut h = one_cu_shared_l2();
    let mut asked = Vec::new();
    // Two lines that do not allocate in the L2, then one that does.
    h.access_lines_chip(0, 0, &[0, 64], (64, 1 << 1), 0, &mut |l, r| {
        asked.push((l, r));
        false
    });
    h.access_lines_chip(0, 0, &[128], (64, 0), 1, &mut |l, r| {
        asked.push((l, r));
        false
    });
    // The first had no request before it; the second one that passed by (not counted); the
    // third two that passed by: none counted.
    assert_eq!(asked, vec![(1, 0), (1, 0), (1, 0)]);
    assert_eq!(h.stats()[1].requests, 3);
}

/// The same on a level large enough to keep only the sets a run touches (an Infinity Cache):
/// a request that does not allocate there touches no set; after one that does, it hits.
#[test]
fn a_large_level_that_does_not_allocate_passes_a_miss_by() {
    let mut h = Hierarchy::new(
        vec![
            level("mall", Some(64 << 20), 64, 16, 300),
            level("dram", None, 64, 1, 500),
        ],
        &[vec!["mall".into(), "dram".into()]],
    )
    .unwrap();
    let first_only = 1;
    assert_eq!(
        h.access_lines_passing(0, 0, &[0], (64, first_only), 0)
            .worst_rest,
        Some(500)
    );
    assert_eq!(
        h.access_lines_passing(0, 0, &[0], (64, first_only), 1)
            .worst_rest,
        Some(500)
    );
    let touched = |h: &Hierarchy| h.levels[0].sparse.as_ref().map(|s| s.start_of.len());
    assert_eq!(touched(&h), Some(0));
    assert_eq!(h.access_lines(0, 0, &[0], 64, 2).worst_rest, Some(500));
    assert_eq!(touched(&h), Some(1));
    let hit = h.access_lines_passing(0, 0, &[0], (64, first_only), 3);
    assert_eq!((hit.first_level, hit.worst_first), (1, 300));
}
