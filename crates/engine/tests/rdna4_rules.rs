//! RDNA 4 rules (rdna-model.md sections 3, 5, 6, 7): split wait counters,
//! in-order returns per wave and counter but not across waves, and seed
//! 000's experiment on the return order. Expected numbers are derived in
//! comments from the models' parameters.

use shadersim_arch::ArchSpec;
use shadersim_engine::{SimStats, Simulation};
use shadersim_testkit::program_for as program;
use shadersim_trace::Hints;

/// The model with its cache hierarchy switched off: these rules (return
/// order, wait counters, seed 000's experiment) are stated with the flat
/// `vmem_latency` of 320 clocks that every derivation below uses; setting it
/// (to its own value) is the documented flat-latency mode.
fn flat(model: &str) -> ArchSpec {
    let mut arch = ArchSpec::builtin(model).unwrap();
    arch.set("memory", "flat").unwrap();
    arch
}

fn run(model: &str, target: &str, text: &str, hints: &str) -> SimStats {
    let hints = Hints::parse(hints).unwrap_or_else(|e| panic!("{e}"));
    Simulation::prepare(&program(target, text), flat(model), &hints)
        .unwrap_or_else(|e| panic!("{e}"))
        .run()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Line number (1-based) of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

const ONE_WAVE: &str =
    "[dispatch]\nstage = \"compute\"\nworkgroup_size = 32\nwaves = 1\nwave_size = 32\n";

#[test]
fn gfx1200_code_runs_on_rdna4_and_waits_per_counter() {
    // A load waited on with its own counter (loadcnt). The load issues at
    // 0, is served in 2 clocks (a wave32 coalesced b32 load: 4 clocks per
    // 64 lanes / 2) and returns at 2 + vmem_latency 320 = 322; s_wait_loadcnt
    // 0 passes there and issues (1 clock); the VALU op reading v1 issues at
    // 323 and its result is ready valu_latency 5 later, 328, when the wave
    // ends.
    let text =
        "global_load_b32 v1, v0, s[0:1]\ns_wait_loadcnt 0x0\nv_add_f32 v2, v1, v1\ns_endpgm\n";
    // The load's address is `s[0:1] + v0`, 1 byte per lane by its code (issue 33): the
    // hint makes it the coalesced b32 load the rule is about.
    let linear = format!("{ONE_WAVE}[[memory]]\nline = 1\npattern = \"linear\"\n");
    let s = run("rdna4", "gfx1200", text, &linear);
    assert_eq!(s.wave_clocks(), 328.0);
    let target: shadersim_isa::Target = "gfx1200".parse().unwrap();
    assert_eq!(ArchSpec::for_target(&target).unwrap().name, "rdna4");
    // s_wait_storecnt does not wait for the load: the wait passes at 1, the
    // end waits for the load (322).
    let text = "global_load_b32 v1, v0, s[0:1]\ns_wait_storecnt 0x0\ns_endpgm\n";
    assert_eq!(run("rdna4", "gfx1200", text, &linear).wave_clocks(), 322.0);
}

#[test]
fn a_memory_latency_hint_overrides_the_units() {
    // `[[memory]] latency = 2000` on the load: served by 2, back at 2002;
    // the wait passes there and s_endpgm ends the wave at 2003.
    let text = "global_load_b32 v1, v0, s[0:1]\ns_wait_loadcnt 0x0\ns_endpgm\n";
    let hints = format!("{ONE_WAVE}[[memory]]\nline = 1\nlatency = 2000\npattern = \"linear\"\n");
    assert_eq!(run("rdna4", "gfx1200", text, &hints).wave_clocks(), 2003.0);
}

/// Seed 000's experiment (rdna-model.md 3.3): wave 0 (X) loads `unroll`
/// independent values per iteration, which hit (the model's 320-clock
/// latency), then waits; wave 1 (Y), in the same workgroup, chases
/// pointers through a large buffer: every load a miss (a 2000-clock latency
/// hint), each waiting for the last. The role branch sends only wave 1 to
/// Y's loop (`waves = "1"`).
fn chase_kernel(gfx12: bool, unroll: usize) -> String {
    let wait = if gfx12 {
        "s_wait_loadcnt 0x0"
    } else {
        "s_waitcnt vmcnt(0)"
    };
    let mut t = String::from("s_cmp_eq_u32 s8, 1\ns_cbranch_scc1 .LYPRE\ns_mov_b32 s2, 50\n.LX:\n");
    for i in 0..unroll {
        t += &format!("global_load_b32 v{}, v0, s[0:1] offset:{}\n", i + 1, 4 * i);
    }
    t += wait;
    t += "\n";
    for i in 0..unroll {
        t += &format!("v_add_f32 v20, v20, v{}\n", i + 1);
    }
    t += "s_add_i32 s2, s2, -1\ns_cmp_lg_u32 s2, 0\ns_cbranch_scc1 .LX\ns_endpgm\n";
    t += ".LYPRE:\ns_mov_b32 s3, 400\n.LY:\nglobal_load_b32 v0, v0, s[4:5] ; chase\n";
    t += wait;
    t += "\ns_add_i32 s3, s3, -1\ns_cmp_lg_u32 s3, 0\ns_cbranch_scc1 .LY\ns_endpgm\n";
    t
}

/// X's accesses per Y access while both run: (unroll x X iterations / X's
/// lifetime) / (Y's iterations / Y's lifetime).
fn seed_ratio(model: &str, target: &str, unroll: usize) -> f64 {
    let text = chase_kernel(target == "gfx1200", unroll);
    let (x_iters, y_iters) = (50u32, 400u32);
    let hints = format!(
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\nwave_size = 32\n\
         [[branch]]\nline = 2\nwaves = \"1\"\n\
         [[loop]]\nlabel = \".LX\"\niterations = {x_iters}\n\
         [[loop]]\nlabel = \".LY\"\niterations = {y_iters}\n\
         [[memory]]\nline = {}\nlatency = 2000\n",
        line_of(&text, "; chase")
    );
    // X's loads address `s[0:1] + v0`, v0 the work-item id: 1 byte per lane by their code
    // (issue 33); the experiment means one coalesced b32 per lane, as the hint says.
    let mut hints = hints;
    for (i, l) in text.lines().enumerate() {
        if l.starts_with("global_load_b32") && !l.contains("; chase") {
            hints += &format!("[[memory]]\nline = {}\npattern = \"linear\"\n", i + 1);
        }
    }
    let s = run(model, target, &text, &hints);
    let life = |w: usize| (s.wave_life[w].1 - s.wave_life[w].0) as f64;
    // Y outlives X, so X runs entirely beside Y's misses.
    assert!(life(1) > life(0), "{:?}", s.wave_life);
    (unroll as f64 * f64::from(x_iters) / life(0)) / (f64::from(y_iters) / life(1))
}

#[test]
fn seed_000_experiment_in_order_returns_across_waves_on_rdna3() {
    // RDNA 3 (return_order = "cu"): every X load queues behind Y's
    // outstanding miss, so each X wait ends when that miss returns: X
    // completes exactly `unroll` accesses per Y access, 4 and 8 (the
    // seed's figures).
    let r4 = seed_ratio("rdna3", "gfx1100", 4);
    let r8 = seed_ratio("rdna3", "gfx1100", 8);
    println!("seed ratio rdna3: unroll 4 {r4:.3}, unroll 8 {r8:.3}");
    assert!((r4 - 4.0).abs() < 0.1, "unroll 4: {r4}");
    assert!((r8 - 8.0).abs() < 0.2, "unroll 8: {r8}");
}

#[test]
fn seed_000_experiment_independent_waves_on_rdna4() {
    // RDNA 4 (return_order = "wave"): X's loads return after their own
    // 320-clock latency. One X iteration, from its first load's issue at t:
    //   4 loads issue at t..t+3; the CU queue serves each wave32 coalesced
    //     b32 load in 2 clocks (4 per 64 lanes / 2), the last done at t+8;
    //   it returns 320 later, t+328: s_wait_loadcnt passes, issues (1);
    //   the 4 v_add_f32 chain on v20: issues at t+329, +334, +339, +344
    //     (each waits valu_latency 5 for the last), the last ends at t+345;
    //   s_add_i32 at t+345; s_cmp_lg_u32 reads its s2 salu_latency 2 later,
    //     t+347; s_cbranch_scc1 reads SCC 2 later, t+349; the next
    //     iteration's first load at t+350.
    // So X takes 8 + 320 + 1 + 3 x 5 + 1 + 2 + 2 + 1 = 350 clocks per
    // iteration. A Y access: served 2, back 2000 later, s_wait 1, s_add 1,
    // s_cmp 2, s_cbranch 2: 2 + 2000 + 1 + 1 + 2 + 2 = 2008 clocks. X
    // completes 4 x 2008 / 350 = 22.95 accesses per Y access; the ends of
    // the lifetimes (X's first iteration waits 2 more clocks behind Y's
    // first load, the prologues of 3 and 5 clocks, the last branch) move it
    // by under 0.1 %, and a Y load in front of X's batch (2 clocks in 2008)
    // by about as much: 22.9 to 23.0. At least 3 times RDNA 3's 4 (the
    // issue's criterion).
    let r4 = seed_ratio("rdna4", "gfx1200", 4);
    let rdna3 = seed_ratio("rdna3", "gfx1100", 4);
    assert!(r4 >= 3.0 * rdna3, "rdna4 {r4} vs rdna3 {rdna3}");
    println!("seed ratio: rdna4 {r4:.3}, rdna3 {rdna3:.2}");
    let derived = 4.0 * 2008.0 / 350.0;
    assert!((r4 - derived).abs() < 0.05, "{r4} vs {derived}");
    // The same gfx1200 kernel forced onto an in-order CU queue behaves as
    // RDNA 3 does: the switch is the model's data, nothing else.
    let mut arch = flat("rdna4");
    arch.units.get_mut("vmem").unwrap().return_order = Some(shadersim_arch::ReturnOrder::Cu);
    let text = chase_kernel(true, 4);
    let hints = format!(
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\nwave_size = 32\n\
         [[branch]]\nline = 2\nwaves = \"1\"\n[[loop]]\nlabel = \".LX\"\niterations = 50\n\
         [[loop]]\nlabel = \".LY\"\niterations = 400\n[[memory]]\nline = {}\nlatency = 2000\n",
        line_of(&text, "; chase")
    );
    let s = Simulation::prepare(
        &program("gfx1200", &text),
        arch,
        &Hints::parse(&hints).unwrap(),
    )
    .unwrap()
    .run()
    .unwrap();
    let life = |w: usize| (s.wave_life[w].1 - s.wave_life[w].0) as f64;
    let r = (4.0 * 50.0 / life(0)) / (400.0 / life(1));
    assert!((r - 4.0).abs() < 0.1, "{r}");
}

#[test]
fn waves_hint_gives_waves_their_own_paths() {
    // Wave 1 takes the branch to Y, wave 0 falls through to X: two traces;
    // a bad set of waves is an error at its position.
    let text = chase_kernel(false, 4);
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\nwave_size = 32\n[[branch]]\nline = 2\nwaves = \"1\"\n";
    let sim = Simulation::prepare(
        &program("gfx1100", &text),
        flat("rdna3"),
        &Hints::parse(hints).unwrap(),
    )
    .unwrap();
    assert_eq!(sim.wave_traces().len(), 2);
    assert_eq!(sim.trace_of_wave(), vec![0, 1]);
    let bad = hints.replace("\"1\"", "\"3..1\"");
    let e = Simulation::prepare(
        &program("gfx1100", &text),
        flat("rdna3"),
        &Hints::parse(&bad).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("low to high"), "{e}");
}

/// A wave32 compute kernel that grows to `vgprs` VGPRs (retrying until
/// the allocation succeeds, as LLVM's code does), works, and frees them.
fn alloc_kernel(vgprs: u32) -> String {
    format!(
        ".LALLOC:\ns_alloc_vgpr {vgprs}\ns_cbranch_scc0 .LALLOC\n{}s_alloc_vgpr 0\ns_endpgm\n",
        "v_add_f32 v0, v1, v2\n".repeat(200)
    )
}

fn dynamic_hints(block: u32, slots: u32, avoid: bool, groups: u32, group_size: u32) -> String {
    format!(
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = {group_size}\nwaves = {groups}\nwave_size = 32\n\
         dynamic_vgpr = {{ block = {block}, slots = {slots}, deadlock_avoidance = {avoid} }}\n"
    )
}

#[test]
fn scenario_19_dynamic_vgprs_pool_and_reserve() {
    // Block 16, 16 slots, deadlock avoidance: the 1536-VGPR file is 96
    // blocks; 16 are the slots' reserved blocks and 7 the reserve, so the
    // pool has 96 - 16 - 7 = 73. A wave at 128 VGPRs holds 8 blocks, 7 more
    // than its reserved one: 73 / 7 = 10 waves from the pool (3 blocks
    // left); the reserve lets one more wave grow (3 + 4 of the 7), so 11
    // waves per SIMD hold 128 VGPRs at once and the other 5 wait with their
    // one block: 11 x 8 + 5 = 93 blocks at the peak (rdna-model.md 9.19).
    let text = alloc_kernel(128);
    let sim = Simulation::prepare(
        &program("gfx1200", &text),
        flat("rdna4"),
        &Hints::parse(&dynamic_hints(16, 16, true, 64, 32)).unwrap(),
    )
    .unwrap();
    assert_eq!(sim.occupancy().waves_per_simd, 16);
    assert_eq!(sim.occupancy().limiter.name(), "dynamic-vgpr-slots");
    let s = sim.run().unwrap();
    assert_eq!(s.peak_vgpr_blocks, 93);
    assert_eq!(s.waves, 64);
    // Waves sat on the allocation (the retry loop spinning).
    assert!(s.alloc_denied[sim.op_of_instruction(0)] > 0);
    // Block 32, 16 slots, avoidance: 48 blocks - 16 - 7 = 25 in the pool;
    // 256 VGPRs = 8 blocks, 7 extra: 3 waves from the pool (4 left), a 4th
    // with the reserve: 4 x 8 + 12 = 44 blocks at the peak.
    let s = run(
        "rdna4",
        "gfx1200",
        &alloc_kernel(256),
        &dynamic_hints(32, 16, true, 64, 32),
    );
    assert_eq!(s.peak_vgpr_blocks, 44);
}

#[test]
fn dynamic_vgprs_deadlock_between_waves_is_reported() {
    // Block 32, 16 slots, no avoidance: a pool of 48 - 16 = 32 blocks per
    // SIMD. A 512-thread workgroup (16 waves, 8 per SIMD) grows to 128
    // VGPRs (4 blocks, 3 extra: 8 x 3 = 24 fit), meets at a barrier, then
    // grows to 256 (4 more each): only 2 waves per SIMD fit (8 blocks);
    // they wait at the next barrier for the others, which wait for VGPRs
    // nobody frees: the run ends with a deadlock naming the allocation.
    let text = "s_alloc_vgpr 128\ns_barrier_signal -1\ns_barrier_wait -1\n\
                .LGROW:\ns_alloc_vgpr 256\ns_cbranch_scc0 .LGROW\n\
                s_barrier_signal -1\ns_barrier_wait -1\ns_alloc_vgpr 0\ns_endpgm\n";
    let hints = Hints::parse(&dynamic_hints(32, 16, false, 1, 512)).unwrap();
    let e = Simulation::prepare(&program("gfx1200", text), flat("rdna4"), &hints)
        .unwrap()
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("s_alloc_vgpr 256") && e.contains("more VGPR blocks"),
        "{e}"
    );
    // Deadlock avoidance lets one more wave per SIMD reach 256, but the
    // barrier still needs all 16: a deadlock still (seed 000: avoidance does
    // not help waves that depend on each other).
    let hints = Hints::parse(&dynamic_hints(32, 16, true, 1, 512)).unwrap();
    let e = Simulation::prepare(&program("gfx1200", text), flat("rdna4"), &hints)
        .unwrap()
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("deadlock") || e.contains("Deadlock") || e.contains("can never"),
        "{e}"
    );
    // Dynamic VGPRs are RDNA 4, wave32, compute only.
    let bad = Simulation::prepare(
        &program("gfx1100", "s_endpgm\n"),
        flat("rdna3"),
        &Hints::parse(&dynamic_hints(16, 16, false, 1, 32)).unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert!(bad.contains("no dynamic VGPR mode"), "{bad}");
}

#[test]
fn bvh_nodes_cost_the_ray_accelerator_what_section_7_says() {
    // rdna-model.md 7 / 9.20: one lane's node per engine clock. RDNA 3: a
    // BVH4 box node is 4 box tests at 4 per clock = 1 clock per lane, 32
    // per wave32; a triangle node 1 test at 1 per clock: 32 too. RDNA 4: a
    // BVH8 box node is 8 tests at 8 per clock: 32; a BVH4 box node 4 at 8:
    // 16; a dual pair of BVH4 box nodes 8 at 8: 32.
    let cost = |model: &str, target: &str, text: &str, box_fraction: f64| {
        let hints = format!("{ONE_WAVE}[[memory]]\nline = 1\nbox_fraction = {box_fraction}\n");
        let sim = Simulation::prepare(
            &program(target, text),
            flat(model),
            &Hints::parse(&hints).unwrap(),
        )
        .unwrap();
        let op = sim.op(sim.op_of_instruction(0));
        assert_eq!(op.unit(), Some("ray"));
        op.cost()
    };
    let bvh4 =
        "image_bvh_intersect_ray v[0:3], [v4, v5, v[6:8], v[9:11], v[12:14]], s[0:3]\ns_endpgm\n";
    let bvh8 = "image_bvh8_intersect_ray v[0:9], [v[0:1], v[2:3], v[4:6], v[7:9], v10], s[0:3]\ns_endpgm\n";
    let dual = "image_bvh_dual_intersect_ray v[0:9], [v[0:1], v[2:3], v[4:6], v[7:9], v[10:11]], s[0:3]\ns_endpgm\n";
    assert_eq!(cost("rdna3", "gfx1100", bvh4, 1.0), 32);
    assert_eq!(cost("rdna3", "gfx1100", bvh4, 0.0), 32);
    assert_eq!(cost("rdna4", "gfx1200", bvh8, 1.0), 32);
    assert_eq!(cost("rdna4", "gfx1200", bvh8, 0.0), 32);
    assert_eq!(cost("rdna4", "gfx1200", bvh4, 1.0), 16);
    assert_eq!(cost("rdna4", "gfx1200", dual, 1.0), 32);
    // Per lane the BVH8 node does twice the box tests of a BVH4 node for
    // the same 32 clocks: the seed's doubled throughput per step.
}

/// X's accesses per Y access on a compiled kernel with its example hints.
fn compiled_ratio(model: &str, fixture: &str, hints: &str, unroll: f64) -> f64 {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/tests/fixtures/llvm/{fixture}")).unwrap();
    let hints = std::fs::read_to_string(format!("{root}/examples/ooo_chase/{hints}")).unwrap();
    let target = fixture.split('/').next().unwrap();
    let s = run(model, target, &text, &hints);
    let life = |w: usize| (s.wave_life[w].1 - s.wave_life[w].0) as f64;
    // The example hints: X runs 50 iterations, Y 400 dependent misses.
    (unroll * 50.0 / life(0)) / (400.0 / life(1))
}

#[test]
fn seed_000_experiment_on_the_kernels_clang_22_compiled() {
    // The same experiment on clang-22's code for ooo_chase.cl (4 loads per
    // X iteration) and ooo_chase_u8.cl (8), with the shipped example hints:
    // exactly 4 and 8 X accesses per Y access on rdna3; on rdna4 X is free
    // of Y's misses (at least 3 x the rdna3 figure, the criterion).
    let r3 = compiled_ratio("rdna3", "gfx1100/ooo_chase.s", "gfx1100.toml", 4.0);
    let r3u8 = compiled_ratio("rdna3", "gfx1100/ooo_chase_u8.s", "gfx1100_u8.toml", 8.0);
    let r4 = compiled_ratio("rdna4", "gfx1200/ooo_chase.s", "gfx1200.toml", 4.0);
    let r4u8 = compiled_ratio("rdna4", "gfx1200/ooo_chase_u8.s", "gfx1200_u8.toml", 8.0);
    println!("compiled kernels: rdna3 {r3:.3} / {r3u8:.3}, rdna4 {r4:.2} / {r4u8:.2}");
    assert!((r3 - 4.0).abs() < 0.05, "{r3}");
    assert!((r3u8 - 8.0).abs() < 0.1, "{r3u8}");
    assert!(r4 >= 3.0 * r3 && r4u8 >= 3.0 * r3u8, "{r4} {r4u8}");
}

#[test]
fn neighbouring_wave32s_share_a_256_byte_l2_line_by_default() {
    // docs/cli.md: a vector op's default wave stride is the bytes its lanes
    // address: 32 lanes x 4 bytes = 128 for a wave32 `buffer_load_b32`, not
    // its lines rounded out to RDNA 4's 256-byte L2 line (rdna4.toml
    // l2_line_bytes, rdna-model.md 4.1). So wave w reads bytes 128w ..
    // 128w + 127: waves 2k and 2k + 1 share L2 line k. 64 waves touch 32
    // lines: DRAM serves 32 requests of 256 bytes = 8,192 bytes, exactly the
    // 64 x 128 bytes the waves address (with a 256-byte stride it served 64
    // requests, each line fetched for half its bytes).
    //
    // The load indexes its buffer by `idxen`, whose stride is in the
    // descriptor, so the address is not read from the code and the defaults
    // (linear lanes, the footprint as wave stride) are what is tested.
    let text = "buffer_load_b32 v1, v0, s[0:3], null idxen\ns_wait_loadcnt 0x0\ns_endpgm\n";
    let hints =
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 32\nwaves = 64\nwave_size = 32\n";
    let hints = Hints::parse(hints).unwrap();
    let s = Simulation::prepare(
        &program("gfx1200", text),
        ArchSpec::builtin("rdna4").unwrap(),
        &hints,
    )
    .unwrap()
    .run()
    .unwrap();
    let dram = s.cache.iter().find(|l| l.name == "dram").unwrap();
    assert_eq!(dram.hits, 32);
    assert_eq!(dram.bytes, 32 * 256);
}
