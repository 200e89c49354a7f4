//! The memory hierarchy's rules (issue 11): LDS bank conflicts, address
//! streams through the cache levels, hit-rate and level overrides, and the
//! flat-latency switch. Every expected number is derived in a comment from
//! the model's parameters (crates/arch/data/gcn.toml: 16 KB 4-way L1 of
//! 64-byte lines at 120 clocks, 4 MB 16-way L2 at 320, DRAM at 600; LDS 32
//! banks of 4 bytes checked per 32 lanes, 4 clocks per conflict-free op).

use shadersim_arch::ArchSpec;
use shadersim_engine::{SimStats, Simulation};
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::{model, prepare};

/// `text` (gfx900) on GCN, its cache hierarchy on, with `sets`.
fn sim(text: &str, hints: &str, sets: &[(&str, &str)]) -> Simulation {
    prepare(&program(text), model("gcn", sets), hints)
}

fn compute(waves: u32) -> String {
    format!("[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = {waves}\n")
}

/// `[[memory]]` entries giving lines `1..=n` the same keys.
fn memory_hints(n: usize, keys: &str) -> String {
    (1..=n)
        .map(|l| format!("[[memory]]\nline = {l}\n{keys}\n"))
        .collect()
}

fn gcn(name: &str) -> f64 {
    ArchSpec::builtin("gcn").unwrap().param(name).unwrap()
}

fn level<'a>(s: &'a SimStats, name: &str) -> &'a shadersim_engine::LevelReport {
    s.cache.iter().find(|l| l.name == name).unwrap()
}

/// 100 `ds_read_b32` with the lane pattern `pattern`, then a wait.
fn lds_kernel() -> String {
    "ds_read_b32 v1, v0\n".repeat(100) + "s_waitcnt lgkmcnt(0)\ns_endpgm\n"
}

#[test]
fn lds_bank_conflicts_multiply_the_cost() {
    let text = lds_kernel();
    let cost = |pattern: &str| {
        let s = sim(
            &text,
            &(compute(1) + &memory_hints(100, &format!("pattern = \"{pattern}\""))),
            &[],
        );
        let op = s.op(s.op_of_instruction(0));
        (op.cost(), op.lds_conflict().unwrap())
    };
    // Lane stride 4 bytes: lane i on bank i % 32, each half-wave covers the
    // 32 banks once: conflict-free, lds_clocks = 4.
    assert_eq!(cost("stride:4"), (4, 1.0));
    // The default pattern is linear (4-byte elements): the same.
    let s = sim(&text, &compute(1), &[]);
    assert_eq!(s.op(s.op_of_instruction(0)).cost(), 4);
    // Lane stride 128 bytes = 32 banks x 4: every lane of a half-wave on
    // bank 0 with a different DWORD: 32-way, 32 x 4 = 128 clocks.
    assert_eq!(cost("stride:128"), (128, 32.0));
    // One shared address: one DWORD broadcast to every lane, 4 clocks.
    assert_eq!(cost("uniform"), (4, 1.0));
    // Stride 8 bytes: lanes i and i + 16 share a bank: 2-way, 8 clocks.
    assert_eq!(cost("stride:8"), (8, 2.0));
}

#[test]
fn an_lds_bound_kernel_slows_by_the_conflict_degree() {
    // 40 waves of 100 LDS reads: the 2 LDS queues (one per SIMD pair) serve
    // 100 x 4 clocks per wave conflict-free, 100 x 128 with 32-way
    // conflicts, while the issue side offers an LDS op per SIMD turn (2 per
    // 4 clocks per queue): the queues are the limit, so the total clocks
    // scale by 128 / 4 = 32, up to the fill and drain at the ends (the
    // last op's lds_latency of 20 clocks and the first issue turns).
    let text = lds_kernel();
    let clocks = |pattern: &str| {
        let hints = compute(40) + &memory_hints(100, &format!("pattern = \"{pattern}\""));
        sim(&text, &hints, &[]).run().unwrap().clocks as f64
    };
    let free = clocks("linear");
    let conflicted = clocks("stride:128");
    // Conflict-free: 40 x 100 x 4 / 2 = 8000 clocks of queue work.
    assert!((8000.0..8100.0).contains(&free), "{free}");
    let ratio = conflicted / free;
    assert!((31.5..32.1).contains(&ratio), "{ratio}");
}

/// A loop of `iterations` loads of one DWORD per lane.
fn load_loop() -> String {
    ".Lloop:\nbuffer_load_dword v1, v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_sub_u32 s4, s4, 1\ns_cbranch_scc1 .Lloop\ns_endpgm\n".into()
}

fn loop_hints(waves: u32, iterations: u32, memory: &str) -> String {
    format!(
        "{}[[loop]]\nlabel = \".Lloop\"\niterations = {iterations}\n[[memory]]\nline = 2\n{memory}\n",
        compute(waves)
    )
}

#[test]
fn a_streaming_load_misses_the_first_level() {
    // Default strides: wave w reads bytes 256w .. 256w + 255 (64 lanes x 4
    // bytes = 4 lines of 64 bytes), no two waves share a line: every L1
    // request is a first touch. 64 waves x 4 lines = 256 requests, 0 hits.
    let s = sim(&load_loop(), &loop_hints(64, 1, ""), &[])
        .run()
        .unwrap();
    let l1 = level(&s, "l1");
    assert_eq!(l1.requests, 256);
    assert!(l1.hit_rate() < 0.05, "{}", l1.hit_rate());
    // ... and no L2 hit either: they are served by DRAM.
    assert_eq!(level(&s, "dram").hits, 256);
}

#[test]
fn every_wave_on_the_same_addresses_hits_the_first_level() {
    // wave_stride = 0: all 64 waves read the same 4 lines; the first wave
    // misses them, the other 63 hit: 252 / 256 = 0.98.
    let s = sim(&load_loop(), &loop_hints(64, 1, "wave_stride = 0"), &[])
        .run()
        .unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (256, 252));
    assert!(l1.hit_rate() > 0.9);
    // The per-instruction figure says the same.
    let op = s.op_cache.iter().find(|o| o.requests > 0).unwrap();
    assert_eq!(op.first_level_hits, 252);
}

#[test]
fn workgroups_in_other_rows_of_the_grid_read_their_own_data_by_default() {
    // A launch of 1 x 128 one-wave workgroups on gcn's 64 CUs: the busiest CU runs 2, the
    // grid's first two in x-fastest order, workgroups (0, 0) and (0, 1): two rows. With the
    // default strides each wave reads its own 4 lines (a workgroup continues the stream where
    // the one before it in dispatch order ended, in every row): 2 x 4 = 8 requests, no hit.
    // (Before, only x moved a workgroup's data, so row 1 read row 0's lines: 4 hits.)
    let hints =
        "[launch]\ngrid = \"1x128\"\nblock = 64\n[[loop]]\nlabel = \".Lloop\"\niterations = 1\n";
    let s = sim(&load_loop(), hints, &[]).run().unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (8, 0));
}

#[test]
fn scratch_is_the_wave_slots_and_the_next_wave_reuses_it() {
    // 64 one-wave workgroups of a scratch store and load, one wave slot at a time
    // (`waves_per_simd = 1` on one SIMD's worth: `simds = 1`): each wave's 4 lines are its
    // slot's, so the first wave misses them and every later wave in the slot hits: 63 x 4 of
    // the loads' and stores' 64 x 4 x 2 = 512 requests hit besides the first wave's own load
    // (its 4 stored lines), 63 x 8 + 4 = 508.
    let text = "scratch_store_dword v0, v1, off\ns_waitcnt vmcnt(0)\nscratch_load_dword v1, v0, off\ns_waitcnt vmcnt(0)\ns_endpgm\n";
    let s = sim(
        text,
        &(compute(64) + "waves_per_simd = 1\n"),
        &[("simds", "1")],
    )
    .run()
    .unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (512, 508));
}

#[test]
fn a_4kb_lookup_table_stays_in_l1_after_warm_up() {
    // region = 4096: every address wraps into 64 lines, which take 64
    // different sets of the 64-set L1 (16 KB / 64 B / 4 ways): after each
    // line's first touch nothing evicts it. 64 waves x 4 iterations x 4
    // lines = 1024 requests, 64 misses (the warm-up), 960 hits.
    let s = sim(&load_loop(), &loop_hints(64, 4, "region = 4096"), &[])
        .run()
        .unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (1024, 960));
    assert_eq!(level(&s, "l2").requests, 64);
}

#[test]
fn a_1mb_region_misses_l1_and_hits_l2() {
    // 64 waves x 128 iterations; default strides: wave_stride 256, iteration
    // stride 64 x 256 = 16 KB, so the loop covers 128 x 16 KB = 2 MB, wrapped
    // into region = 1 MB: every line is read twice, 64 iterations apart.
    // L1: one wave's lines all fall in the same 4 of the 64 sets (line
    // 4w + j + 256k), so 64 iterations put 64 lines through each 4-way set
    // between two reads: every read misses L1. L2 (4 MB, 16 ways, 4096 sets)
    // holds the whole megabyte (4 of its lines per set): the first pass
    // misses, the second hits: L2 hit rate 1/2.
    let s = sim(&load_loop(), &loop_hints(64, 128, "region = 1048576"), &[])
        .run()
        .unwrap();
    let (l1, l2) = (level(&s, "l1"), level(&s, "l2"));
    assert_eq!(l1.requests, 64 * 128 * 4);
    assert!(l1.hit_rate() < 0.05, "{}", l1.hit_rate());
    assert_eq!(l2.requests, l1.requests - l1.hits);
    assert!((l2.hit_rate() - 0.5).abs() < 0.01, "{}", l2.hit_rate());
}

#[test]
fn throughput_follows_the_hit_rate_and_the_levels_latencies() {
    // One wave, 20 iterations of a uniform load (one 64-byte request) and a
    // wait: each iteration waits for its load's latency. A hit costs
    // l1_latency (120), a miss at the given rate goes to the second level,
    // l2_latency (320). Both are multiples of the 4-clock issue turn, so
    // the iterations differ by exactly the latency: hit rate 0.0 takes 20 x
    // (320 - 120) clocks longer than 1.0, and 0.5 (every other request a
    // hit) half of that.
    let run = |rate: &str| {
        let hints = loop_hints(1, 20, &format!("pattern = \"uniform\"\nhit_rate = {rate}"));
        sim(&load_loop(), &hints, &[]).run().unwrap()
    };
    let (all, half, none) = (run("1.0"), run("0.5"), run("0.0"));
    let step = gcn("l2_latency") - gcn("l1_latency");
    assert_eq!(step, 200.0);
    assert_eq!(none.clocks - all.clocks, (20.0 * step) as u64);
    assert_eq!(half.clocks - all.clocks, (10.0 * step) as u64);
    // Throughput (threads per clock) falls accordingly.
    assert!(all.throughput_per_clock() > half.throughput_per_clock());
    assert!(half.throughput_per_clock() > none.throughput_per_clock());
    // The per-op mean latency is the levels' mix: 120, 220, 320.
    let mean = |s: &SimStats| {
        s.op_cache
            .iter()
            .find(|o| o.requests > 0)
            .unwrap()
            .mean_latency()
    };
    assert_eq!(
        (mean(&all), mean(&half), mean(&none)),
        (120.0, 220.0, 320.0)
    );
}

#[test]
fn a_level_hint_serves_every_request_there() {
    // level = "dram": every request costs dram_latency (600); the caches
    // are left alone (no fill): L1 sees the requests, serves none.
    let hints = loop_hints(1, 3, "pattern = \"uniform\"\nlevel = \"dram\"");
    let s = sim(&load_loop(), &hints, &[]).run().unwrap();
    assert_eq!(level(&s, "dram").hits, 3);
    assert_eq!(level(&s, "l1").hits, 0);
    let op = s.op_cache.iter().find(|o| o.requests > 0).unwrap();
    assert_eq!(op.mean_latency(), gcn("dram_latency"));
    // An unknown level is an error at the hint's position.
    let bad = Hints::parse(&loop_hints(1, 3, "level = \"l9\"")).unwrap();
    let e = Simulation::prepare(
        &program(&load_loop()),
        ArchSpec::builtin("gcn").unwrap(),
        &bad,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("no cache level `l9`") && e.contains("l1, l2, dram"),
        "{e}"
    );
}

#[test]
fn memory_flat_switches_the_hierarchy_off_and_a_latency_alone_does_not() {
    // Issue 27 item 6: raising the flat latency alone keeps the hierarchy
    // (its levels still serve every load, and report it) ...
    let s = sim(
        &load_loop(),
        &loop_hints(4, 2, ""),
        &[("vmem_latency", "900")],
    )
    .run()
    .unwrap();
    assert!(!s.cache.is_empty());
    // ... flat mode is its own switch: no cache statistics, every load vmem_latency.
    let s = sim(
        &load_loop(),
        &loop_hints(4, 2, ""),
        &[("memory", "flat"), ("vmem_latency", "320")],
    )
    .run()
    .unwrap();
    assert!(s.cache.is_empty() && s.op_cache.is_empty());
    // The hierarchy reports its levels in the model's order.
    let s = sim(&load_loop(), &loop_hints(4, 2, ""), &[]).run().unwrap();
    let names: Vec<&str> = s.cache.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["l1", "scalar", "l2", "dram"]);
}

#[test]
fn scalar_loads_share_their_constants_across_waves() {
    // Default scalar stream: every wave reads the same 16 bytes (one
    // 64-byte scalar-cache line): 8 waves, 1 miss, 7 hits.
    let text = "s_load_dwordx4 s[4:7], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let s = sim(text, &compute(8), &[]).run().unwrap();
    let sc = level(&s, "scalar");
    assert_eq!((sc.requests, sc.hits), (8, 7));
}

#[test]
fn a_streaming_kernel_is_bound_by_its_share_of_dram_bandwidth() {
    // 200 waves each stream 4 iterations x 256 bytes from DRAM, which
    // delivers dram_bytes_per_clock = 484 GB/s x 0.848 (what a stream achieves) / 64 CUs /
    // 1000 MHz = 6.413 bytes per clock to this CU: at least 200 x 1024 / 6.413 = 31935
    // clocks, while the texture path needs
    // only 200 x 4 x 4 = 3200: the bottleneck is DRAM bandwidth.
    let s = sim(&load_loop(), &loop_hints(200, 4, ""), &[]);
    let a = s.analyse().unwrap();
    assert_eq!(
        a.bottleneck.kind, "DRAM bandwidth",
        "{}",
        a.bottleneck.statement
    );
    // The share from the card's figures, not from the model's formula (a
    // wrong formula would move both): 484 GB/s = 484,000 MB/s, 0.848 of it achieved by a
    // stream (gcn's dram_stream_fraction), over 64 CUs at 1000 MHz is
    // 484,000 x 0.848 / 64 / 1000 = 6.413 bytes per clock.
    assert!((gcn("dram_bytes_per_clock") - 6.413).abs() < 1e-9);
    let min = 200.0 * 1024.0 / 6.413;
    // At most the bandwidth bound plus one trip of the last miss through
    // the hierarchy (l1 + l2 + dram latencies) and a 2 % margin for the
    // first misses' ramp-up: a DRAM delivering twice as fast (15968
    // clocks) or half as fast (63870) fails.
    let trip = gcn("l1_latency") + gcn("l2_latency") + gcn("dram_latency");
    let max = 1.02 * min + trip;
    println!("clocks {} in {min:.0}..{max:.0}", a.stats.clocks);
    assert!(
        (min..=max).contains(&(a.stats.clocks as f64)),
        "{} not in {min}..{max}",
        a.stats.clocks
    );
    // The latency tolerance now asks for extra miss latency on top of the
    // levels' own.
    let l = a.latency.unwrap();
    assert_eq!(l.parameter, "cache_miss_extra_latency");
}

#[test]
fn every_model_has_a_hierarchy_that_flat_mode_switches_off() {
    for (name, _) in shadersim_arch::BUILTIN {
        let mut arch = ArchSpec::builtin(name).unwrap();
        // TeraScale models have no hierarchy yet: their fetches take the
        // flat `vmem_latency` (docs/models/terascale.md).
        if arch.param("vliw_slots").is_some() {
            assert!(arch.cache.is_none(), "{name}");
            continue;
        }
        let c = arch.cache.clone().unwrap_or_else(|| panic!("{name}"));
        assert!(c.enabled, "{name}");
        // The vector and scalar paths end in memory, and the hierarchy
        // builds from the model's parameters.
        assert!(shadersim_engine::hierarchy_of(&arch).unwrap().is_some());
        arch.set("memory", "flat").unwrap();
        assert!(!arch.cache.unwrap().enabled, "{name}");
    }
}

/// The pointer chase's stream: one wave, one DWORD shared by every lane (`uniform`: one request
/// of one line per execution), `order = "random"` over `region` in `stride`-byte elements.
fn chase_hints(iterations: u32, region: u64, stride: u64) -> String {
    loop_hints(
        1,
        iterations,
        &format!(
            "pattern = \"uniform\"\norder = \"random\"\nregion = {region}\niteration_stride = {stride}\nwave_stride = 0"
        ),
    )
}

#[test]
fn a_random_chase_inside_l1_hits_from_the_second_pass_on() {
    // region 8 KB in 64-byte elements = 128 elements, one per L1 line; the
    // permutation visits each once per pass. 128 lines over the L1's 64 sets
    // (16 KB / 64 B / 4 ways) are 2 per set, under its 4 ways: nothing is
    // evicted. 4 passes = 512 requests: the first pass misses its 128 lines,
    // the other three hit: 384 hits.
    let s = sim(&load_loop(), &chase_hints(512, 8192, 64), &[])
        .run()
        .unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (512, 384));
    // Every line was touched once before the hits: 128 L2 requests.
    assert_eq!(level(&s, "l2").requests, 128);
}

#[test]
fn a_random_chase_four_times_l1_misses_it_every_time() {
    // region 64 KB = 1024 lines of 64 bytes, 16 per L1 set (64 sets, 4
    // ways). Each pass visits every line once in the same order, so between
    // two visits of a line its set sees all its 15 other lines: more than
    // the 3 others LRU keeps, so it has been evicted. Every one of the 2048
    // requests (2 passes) misses L1, although a random (re-drawn) order
    // would hit capacity/region = 1/4 of the time: a fixed cyclic order is
    // LRU's worst case, as a latency test wants. The L2 (4 MB) holds the
    // whole region: the second pass hits it, 1024 of 2048.
    let s = sim(&load_loop(), &chase_hints(2048, 65536, 64), &[])
        .run()
        .unwrap();
    let (l1, l2) = (level(&s, "l1"), level(&s, "l2"));
    assert_eq!((l1.requests, l1.hits), (2048, 0));
    assert_eq!((l2.requests, l2.hits), (2048, 1024));
}

#[test]
fn a_random_chase_visits_every_element_and_stride_order_differs() {
    // Stride order over the same 8 KB (iteration_stride 64, region 8 KB)
    // visits the same 128 lines in address order: the same hit counts as the
    // random order (both touch each line once per pass); the random order is
    // a permutation, so it never touches a line twice in one pass (a repeat
    // would add a hit to the first pass and leave a line untouched).
    let stride = loop_hints(
        1,
        512,
        "pattern = \"uniform\"\nregion = 8192\niteration_stride = 64\nwave_stride = 0",
    );
    let s = sim(&load_loop(), &stride, &[]).run().unwrap();
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (512, 384));
    let r = sim(&load_loop(), &chase_hints(128, 8192, 64), &[])
        .run()
        .unwrap();
    // One pass of the random order: 128 distinct lines, no hit.
    assert_eq!(level(&r, "l1").hits, 0);
    assert_eq!(level(&r, "l2").requests, 128);
}

#[test]
fn a_random_order_needs_its_region_and_element_size() {
    let hints = loop_hints(1, 4, "order = \"random\"\nregion = 8192");
    let h = Hints::parse(&hints).unwrap();
    let err = Simulation::prepare(
        &program(&load_loop()),
        ArchSpec::builtin("gcn").unwrap(),
        &h,
    )
    .unwrap_err();
    assert!(err.to_string().contains("iteration_stride"), "{err}");
    let hints = loop_hints(1, 4, "order = \"shuffled\"");
    let h = Hints::parse(&hints).unwrap();
    let err = Simulation::prepare(
        &program(&load_loop()),
        ArchSpec::builtin("gcn").unwrap(),
        &h,
    )
    .unwrap_err();
    assert!(err.to_string().contains("unknown order"), "{err}");
}
