//! The GCN rules of gcn-model.md, each checked on a small program written
//! for it. Every expected number is derived in a comment from the model's
//! rules and parameters (crates/arch/data/gcn.toml), not copied from a run.

use shadersim_arch::ArchSpec;
use shadersim_engine::{Limiter, Occupancy, SimError, Simulation};
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::{flat_model, prepare};

/// GCN with `sets` applied, in flat-latency mode: gcn-model.md's rules are
/// the seed's model (every VMEM op `vmem_latency`, every scalar load
/// `smem_latency`), so each run here switches the cache hierarchy off by
/// setting `vmem_latency` (to the model's own 320 unless `sets` gives
/// another). The hierarchy's rules are checked in cache_rules.rs.
/// `text` (gfx900) on GCN with flat 320-clock vector memory and `sets`.
fn sim(text: &str, hints: &str, sets: &[(&str, &str)]) -> Simulation {
    prepare(&program(text), flat_model("gcn", 320, sets), hints)
}

fn repeat(line: &str, n: usize) -> String {
    format!("{line}\n").repeat(n)
}

const ONE_WAVE: &str = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\n";

#[test]
fn independent_valu_ops_cost_four_clocks_each() {
    // One wave on SIMD 0: its turns come every 4 clocks (issue_interval) and
    // a VALU op holds the SIMD for valu_clocks = 4, so op i issues at 4i and
    // the last one finishes at 4N; s_endpgm (free, counters at 0) ends the
    // wave at its next turn, clock 4N. Wave clocks = 4N.
    for n in [1usize, 7, 50] {
        let text = repeat("v_add_f32 v0, v1, v2", n) + "s_endpgm\n";
        let s = sim(&text, ONE_WAVE, &[]).run().unwrap();
        assert_eq!(s.wave_clocks(), 4.0 * n as f64, "N = {n}");
        assert_eq!(s.clocks, 4 * n as u64);
    }
}

#[test]
fn quarter_rate_and_transcendental_ops_cost_sixteen() {
    // valu_quarter_clocks = valu_trans_clocks = 16: N ops take 16N.
    let n = 10;
    for op in [
        "v_mul_lo_u32 v0, v1, v2",
        "v_rcp_f32 v0, v1",
        "v_sqrt_f32 v0, v1",
        // A 32x32->64 multiply-add is the 32-bit multiply's class (LLVM's SISchedule.td
        // WriteIntMul: llvm-mca-22 -mcpu=gfx900 gives v_mad_u64_u32 latency 4, v_mul_lo_u32's,
        // not Write64Bit's 2): 16 clocks a wave64 op, not valu_b64_clocks = 8.
        "v_mad_u64_u32 v[0:1], s[0:1], v2, v3, v[4:5]",
    ] {
        let text = repeat(op, n) + "s_endpgm\n";
        let s = sim(&text, ONE_WAVE, &[]).run().unwrap();
        assert_eq!(s.wave_clocks(), 16.0 * n as f64, "{op}");
    }
    // f64 FMA on consumer GCN: 1/16 rate, valu_f64_clocks = 64; Hawaii
    // (gfx701) 1/8 rate = 32.
    let text = repeat("v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", 4) + "s_endpgm\n";
    assert_eq!(
        sim(&text, ONE_WAVE, &[]).run().unwrap().wave_clocks(),
        4.0 * 64.0
    );
    let hawaii = ArchSpec::builtin("gfx701").unwrap();
    let s = Simulation::prepare(&program(&text), hawaii, &Hints::parse(ONE_WAVE).unwrap()).unwrap();
    assert_eq!(s.run().unwrap().wave_clocks(), 4.0 * 32.0);
}

#[test]
fn valu_bound_pixel_shader_saturates_the_valu() {
    // N = 200 VALU ops per wave: each SIMD needs 4N = 800 clocks per wave
    // and the 4 SIMDs work in parallel, so the CU finishes a 64-pixel wave
    // every N = 200 clocks: throughput 4 x 64 / (4N) = 0.32 pixels per
    // clock. Waves arrive every cu_count x 16 / 4 = 40 clocks (16-pixel
    // triangles), far faster, and the compressed export (4 x 10 = 40
    // clocks per wave on the shared path) is not a limit either.
    let n = 200;
    let text =
        repeat("v_mac_f32 v0, v1, v2", n) + "exp mrt0 v0, v0, v1, v1 done compr vm\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 16.0\nwaves = 400\n";
    let s = sim(&text, hints, &[]).run().unwrap();
    assert!(
        s.utilization("valu") > 0.97,
        "VALU utilization {}",
        s.utilization("valu")
    );
    let expected = 4.0 * 64.0 / (4.0 * n as f64);
    let got = s.throughput_per_clock();
    assert!(
        (got - expected).abs() / expected < 0.02,
        "throughput {got} vs {expected}"
    );
}

#[test]
fn sample_bound_shader_costs_the_texel_rate() {
    // Four bilinear samples per wave. Seed 001: 32-bit texels 16 clocks per
    // wave, 64-bit 32, 128-bit 64. With enough waves in flight the texture
    // path is busy all the time: clocks per wave = 4 x rate, utilization ~1.
    for (format, rate) in [("r32f", 16.0), ("rgba16f", 32.0), ("rgba32f", 64.0)] {
        let mut text = String::new();
        let mut hints = String::from(
            "[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 64.0\nwaves = 300\n",
        );
        for i in 0..4 {
            text += &format!(
                "image_sample v[{}:{}], v[0:1], s[0:7], s[8:11] dmask:0xf\n",
                4 + 4 * i,
                7 + 4 * i
            );
            hints += &format!(
                "[[memory]]\nline = {}\nformat = \"{format}\"\nfilter = \"bilinear\"\n",
                i + 1
            );
        }
        text += "s_waitcnt vmcnt(0)\nexp mrt0 v4, v4, v5, v5 done compr vm\ns_endpgm\n";
        let s = sim(&text, &hints, &[]).run().unwrap();
        let per_wave = s.clocks as f64 / f64::from(s.waves);
        assert!(
            (per_wave - 4.0 * rate).abs() / (4.0 * rate) < 0.05,
            "{format}: {per_wave} clocks per wave, want {}",
            4.0 * rate
        );
        assert!(
            s.utilization("vmem") > 0.95,
            "{format}: VMEM utilization {}",
            s.utilization("vmem")
        );
    }
}

#[test]
fn one_pixel_triangles_starve_a_tiny_shader() {
    // 1-pixel triangles: the rasterizer makes 1 quad per clock, a 16-quad
    // wave takes 16 clocks, and this CU gets every cu_count-th one: a wave
    // every 16 x 10 = 160 clocks. Two VALU ops finish in 8 clocks, so the
    // CU is empty about (160 - 8) / 160 = 95% of the time.
    let text = "v_add_f32 v0, v1, v2\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 1.0\nwaves = 200\n";
    let s = sim(text, hints, &[]).run().unwrap();
    // 200 waves arrive at 0, 160, ..., 199 x 160. Wave k goes to SIMD k mod
    // 4, whose turns fall on clocks = k mod 4 (mod 4): the last wave (SIMD 3)
    // first issues 3 clocks after it arrives and ends 8 clocks later.
    assert_eq!(s.clocks, 199 * 160 + 3 + 8);
    assert!(
        (s.starve_rate() - 152.0 / 160.0).abs() < 0.01,
        "starve rate {}",
        s.starve_rate()
    );
    assert!((s.throughput_per_clock() - 64.0 / 160.0).abs() < 0.01);
    // The same with cu_count = 4: a wave every 64 clocks.
    let s = sim(text, &format!("{hints}cu_count = 4\n"), &[]);
    assert_eq!(s.run().unwrap().clocks, 199 * 64 + 3 + 8);
}

#[test]
fn vertex_dispatch_follows_max_64_64_over_a() {
    // A vertices per triangle: a 64-vertex wave needs 64 new vertices (1 per
    // clock) and 64/A triangles (3 indices, one triangle, per clock):
    // max(64, 64/A) clocks, times cu_count = 10.
    let text = "v_add_f32 v0, v1, v2\nexp pos0 v0, v0, v0, v0 done\ns_endpgm\n";
    for (a, interval) in [(0.5, 1280u64), (1.0, 640), (2.0, 640), (3.0, 640)] {
        let hints = format!("[dispatch]\nstage = \"vertex\"\nvertices_per_triangle = {a}\nvertex_inputs = 0\nwaves = 20\n");
        let s = sim(text, &hints, &[]).run().unwrap();
        // Wave k arrives at k x interval; the last (k = 19, on SIMD 3) waits
        // 3 clocks for its turn, runs 4 clocks of VALU, then its 128-bit
        // position export holds the shared path 8 x 10 = 80 clocks: it ends
        // at 19 x interval + 3 + 4 + 80.
        assert_eq!(s.clocks, 19 * interval + 87, "A = {a}");
    }
}

#[test]
fn exports_cost_cu_count_times_four_or_eight() {
    // One wave: the export issues at clock 0 and occupies the shared path
    // export_clocks x cu_count; s_endpgm waits for expcnt = 0.
    for (exp, cus, clocks) in [
        ("exp mrt0 v0, v0, v1, v1 done compr vm", 10, 40),
        ("exp mrt0 v0, v1, v2, v3 done vm", 10, 80),
        ("exp mrt0 v0, v1, v2, v3 done vm", 4, 32),
        ("exp mrt0 v0, v1, off, off done vm", 16, 64),
    ] {
        let hints = format!("[dispatch]\nstage = \"pixel\"\nwaves = 1\ncu_count = {cus}\n");
        let s = sim(&format!("{exp}\ns_endpgm\n"), &hints, &[])
            .run()
            .unwrap();
        assert_eq!(s.wave_clocks(), f64::from(clocks), "{exp} with {cus} CUs");
    }
}

#[test]
fn waitcnt_after_a_sample_stalls_the_fraction_the_model_implies() {
    // One wave. Clock 0: the sample issues; rgba8 trilinear costs 32 clocks
    // of service, then vmem_latency = 320: vmcnt falls at 352. The wave
    // first fails the wait s_waitcnt vmcnt(0) at its turn at clock 4 and
    // sits on it until turn 352 passes it: 348 clocks. Turn 356 issues the
    // VALU op, 360 ends the wave. Stall rate of the wait (seed 004: the
    // clocks a wave sat on it) = 348 / 360; all of it exposed (no other wave
    // issued): its 87 stall turns of 4 clocks each.
    // (A compute kernel's sample defaults to bilinear: the hint asks for trilinear.)
    let text = "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\ns_waitcnt vmcnt(0)\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let one_wave = format!("{ONE_WAVE}[[memory]]\nline = 1\nfilter = \"trilinear\"\n");
    let s = sim(text, &one_wave, &[]);
    let st = s.run().unwrap();
    assert_eq!(st.clocks, 360);
    let wait_op = s.op_of_instruction(1);
    assert_eq!(st.op_stalls[wait_op], 87);
    assert_eq!(st.op_sat[wait_op], 348);
    assert!((st.op_stall_rate(wait_op) - 348.0 / 360.0).abs() < 1e-12);
    assert!((st.op_exposed_rate(wait_op) - 348.0 / 360.0).abs() < 1e-12);
    // Stall rate overall: 87 stall turns of the 91 turns the wave was
    // resident for (clocks 0, 4, ..., 360; it leaves during the last).
    assert_eq!((st.stall_turns, st.turns_with_waves), (87, 91));
    // With the seed's pure-throughput model (no latency) the wait lasts 32
    // clocks: turns 4..28 stall (7 turns), and the wave ends at 40.
    let s = sim(text, &one_wave, &[("vmem_latency", "0")]);
    let st = s.run().unwrap();
    assert_eq!((st.clocks, st.op_stalls[s.op_of_instruction(1)]), (40, 7));
}

#[test]
fn a_wait_two_cus_sit_on_in_the_same_turns_counts_each_turn_once() {
    // (`cus = 2`: two compute units side by side.) One wave per CU, each alone on its CU (compute groups are dealt in
    // turn: group 0 to CU 0, group 1 to CU 1, both at clock 0) and on the
    // first SIMD of it: SIMDs 0 and 4, which share turn phase 0. As in
    // rules.rs's single wave: the sample issues at clock 0, is served 32
    // clocks and returns after vmem_latency = 320, at 352; each wave sits on
    // s_waitcnt vmcnt(0) from its turn at 4 until the turn at 352 passes it
    // (87 stall turns), issues the VALU op at 356 and ends at 360. Each CU
    // has its own vector memory unit, so the two waves run the same clocks.
    // A stall turn and a turn with waves are per SIMD (2 x 87 = 174 and
    // 2 x 91 = 182), but an op's stall count counts a clock once however
    // many SIMDs stall on it in that turn: 87, not 174. (Both SIMDs sleep
    // through the wait, so the once-per-clock rule holds across their bulk
    // accounting too; stepping every clock and turn gives the same.)
    let text = "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\ns_waitcnt vmcnt(0)\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 2\ncus = 2\n[[memory]]\nline = 1\nfilter = \"trilinear\"\n";
    let s = sim(text, hints, &[]);
    let st = s.run().unwrap();
    assert_eq!(st.cu_waves, [1, 1]);
    assert_eq!(st.clocks, 360);
    assert_eq!(st.op_stalls[s.op_of_instruction(1)], 87);
    assert_eq!((st.stall_turns, st.turns_with_waves), (174, 182));
    let mut stepped = s.clone();
    stepped.step_every_clock();
    assert_eq!(stepped.run().unwrap(), st);
}

#[test]
fn vmcnt_limit_throttles_vmem_issue() {
    // 20 coalesced buffer loads (4 clocks each, latency 320): load k issues
    // at 4k and returns at 4k + 324. A wave may have 15 in flight (seed 004),
    // so load 15 waits for load 0 (clock 324), load 16 for load 1 (328), ...
    // load 19 issues at 340 and returns at 664; the wait passes at 664 and
    // s_endpgm ends the wave at 668.
    let text =
        repeat("buffer_load_dword v0, v1, s[0:3], 0 offen", 20) + "s_waitcnt vmcnt(0)\ns_endpgm\n";
    assert_eq!(
        sim(&text, ONE_WAVE, &[]).run().unwrap().wave_clocks(),
        668.0
    );
    // Without the throttle the last load issues at 76 and returns at 400:
    // the wave ends at 404.
    let free = sim(&text, ONE_WAVE, &[("vmem_wave_in_flight", "64")])
        .run()
        .unwrap();
    assert_eq!(free.wave_clocks(), 404.0);
}

#[test]
fn lgkmcnt_limit_throttles_smem_issue() {
    // 20 scalar loads of 1 DWORD (1 clock each at 4 DWORDs per clock) with
    // smem_latency = 200: load k issues at 4k and returns at 4k + 201.
    // lgkmcnt is 4 bits on gfx9 (at most 15), so load 15 waits for load 0
    // (201) and issues at the next turn, 204; load 19 issues at 220 and
    // returns at 421; the wait passes at turn 424 and the wave ends at 428.
    let text = repeat("s_load_dword s0, s[2:3], 0x0", 20) + "s_waitcnt lgkmcnt(0)\ns_endpgm\n";
    assert_eq!(
        sim(&text, ONE_WAVE, &[("smem_latency", "200")])
            .run()
            .unwrap()
            .wave_clocks(),
        428.0
    );
}

#[test]
fn an_lds_load_returns_lds_latency_after_its_service() {
    // One wave64 ds_read_b32 of consecutive DWORDs: conflict-free, so the
    // LDS serves it in lds_clocks = 4 (clocks 0..4); its data return
    // lds_latency = 20 clocks after the service (gcn.toml: LLVM's WriteLDS,
    // 5 issue cycles x 4 clocks): at 24, an issue turn of SIMD 0 (clock mod
    // 4), where s_waitcnt lgkmcnt(0) passes; s_endpgm ends the wave at the
    // next turn, 28. Every clock of it is the LDS: 4 + 20 + 4.
    let text = "ds_read_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    assert_eq!(
        sim(text, ONE_WAVE, &[]).run().unwrap().wave_clocks(),
        4.0 + 20.0 + 4.0
    );
}

#[test]
fn occupancy_follows_registers_and_lds() {
    let arch = ArchSpec::builtin("gcn").unwrap();
    // 65 VGPRs allocate 68 (granule 4): 256 / 68 = 3 waves per SIMD.
    let p = program(".type k,@function\nk:\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 65\n.amdhsa_next_free_sgpr 10\n.end_amdhsa_kernel\nv_add_f32 v0, v1, v2\ns_endpgm\n");
    let o = Occupancy::compute(&p, &arch, 64, 1, None).unwrap();
    assert_eq!(
        (o.waves_per_simd, o.limiter, o.vgprs_allocated),
        (3, Limiter::Vgpr, 68)
    );
    // 24 VGPRs: 256 / 24 = 10, the slot limit (10) wins.
    let p = program(".type k,@function\nk:\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 24\n.amdhsa_next_free_sgpr 10\n.end_amdhsa_kernel\ns_endpgm\n");
    assert_eq!(
        Occupancy::compute(&p, &arch, 64, 1, None).unwrap().limiter,
        Limiter::Slots
    );
    // 100 SGPRs + 6 reserved = 106, allocated 112: 800 / 112 = 7.
    let p = program(".type k,@function\nk:\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 8\n.amdhsa_next_free_sgpr 100\n.end_amdhsa_kernel\ns_endpgm\n");
    let o = Occupancy::compute(&p, &arch, 64, 1, None).unwrap();
    assert_eq!((o.waves_per_simd, o.limiter), (7, Limiter::Sgpr));
    // 20 KB of LDS per 256-thread group: 65536 / 20480 = 3 groups x 4 waves
    // = 12 waves over 4 SIMDs = 3 per SIMD.
    let p = program(".type k,@function\nk:\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 8\n.amdhsa_next_free_sgpr 10\n.amdhsa_group_segment_fixed_size 20480\n.end_amdhsa_kernel\ns_endpgm\n");
    let o = Occupancy::compute(&p, &arch, 64, 4, None).unwrap();
    assert_eq!((o.waves_per_simd, o.limiter), (3, Limiter::Lds));
    // A hint below every resource limit names the hints.
    let o = Occupancy::compute(&p, &arch, 64, 4, Some(2)).unwrap();
    assert_eq!((o.waves_per_simd, o.limiter), (2, Limiter::Hints));
}

#[test]
fn barriers_hold_a_workgroup_together() {
    // A 256-thread group = 4 waves, launched one per clock (0..3) on SIMDs
    // 0..3, each arriving at the barrier at its first turn. The last one
    // (wave 3, clock 3) releases the group and passes at once; waves 0, 1, 2
    // pass at their next turns (4, 5, 6), issue the VALU op 4 clocks later
    // and end 4 clocks after that: at 12, 13, 14 (12 clocks each); wave 3
    // issues at 7 and ends at 11 (8 clocks). Mean 11, last end 14.
    let text = "s_barrier\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 256\nwaves = 1\n";
    let s = sim(text, hints, &[]).run().unwrap();
    assert_eq!(s.wave_clocks(), 11.0);
    assert_eq!(s.clocks, 14);
    // A single-wave group passes its barrier at once: 0 + 4 (VALU) + 4 = 8.
    assert_eq!(sim(text, ONE_WAVE, &[]).run().unwrap().wave_clocks(), 8.0);
}

#[test]
fn waves_that_can_never_progress_are_reported() {
    // A model whose VMEM unit accepts nothing from a wave (`--set` refuses
    // 0, outside the parameter's range, so the value is written directly:
    // the deadlock detector must still catch what a library caller builds).
    let text = "buffer_load_dword v0, v1, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm\n";
    let mut arch = ArchSpec::builtin("gcn").unwrap();
    arch.params.get_mut("vmem_wave_in_flight").unwrap().value = 0.0;
    let err = Simulation::prepare(&program(text), arch, &Hints::parse(ONE_WAVE).unwrap())
        .unwrap()
        .run()
        .unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SimError::Deadlock { .. }), "{msg}");
    assert!(
        msg.contains("wave 0 (SIMD 0)")
            && msg.contains("line 1")
            && msg.contains("buffer_load_dword"),
        "{msg}"
    );
    // A GDS op on a model with no path for it.
    let mut arch = ArchSpec::builtin("gcn").unwrap();
    arch.classes.remove("gds");
    let p = program("ds_gws_barrier v0 offset:0 gds\ns_endpgm\n");
    let s = Simulation::prepare(&p, arch, &Hints::parse(ONE_WAVE).unwrap()).unwrap();
    let msg = s.run().unwrap_err().to_string();
    assert!(
        msg.contains("wave 0")
            && msg.contains("ds_gws_barrier")
            && msg.contains("class `gds` has no unit"),
        "{msg}"
    );
}

#[test]
fn runs_are_deterministic() {
    let text = repeat("image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\nv_mac_f32 v0, v1, v2\nv_mac_f32 v0, v1, v2", 5) + "s_waitcnt vmcnt(0)\nexp mrt0 v0, v1, v2, v3 done vm\ns_endpgm\n";
    let s = sim(&text, "[dispatch]\nstage = \"pixel\"\n", &[]);
    assert_eq!(s.run().unwrap(), s.run().unwrap());
}

#[test]
fn lane_patterns_set_the_cost_of_buffer_loads() {
    // Eight 32-bit single-channel buffer loads per pixel wave. With the
    // `linear` pattern every aligned group of 4 lanes reads 4 consecutive
    // DWORDs: seed 001's 16-lane case, 4 clocks per load, 32 clocks of VMEM
    // per wave, below the dispatch interval of 10 x 16 / 4 = 40 clocks: the
    // CU takes 40 clocks per wave and the texture path is busy 32 / 40.
    // With `random` addresses no case holds: groups of 4 lanes, 16 clocks
    // per load, 128 clocks per wave, and the texture path is always busy.
    let mut text = String::new();
    for i in 0..8 {
        text += &format!("buffer_load_dword v{i}, v10, s[0:3], 0 offen\n");
    }
    text += "s_waitcnt vmcnt(0)\nexp mrt0 v0, v0, v1, v1 done compr vm\ns_endpgm\n";
    let run = |pattern: &str| {
        let mut hints = String::from(
            "[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 16.0\nwaves = 400\n",
        );
        for line in 1..=8 {
            hints += &format!("[[memory]]\nline = {line}\npattern = \"{pattern}\"\n");
        }
        let s = sim(&text, &hints, &[]);
        let st = s.run().unwrap();
        let l2: u32 = (0..8)
            .map(|i| s.op(s.op_of_instruction(i)).l2_requests())
            .sum();
        (
            st.clocks as f64 / f64::from(st.waves),
            st.utilization("vmem"),
            l2,
        )
    };
    let (linear_clocks, linear_util, linear_l2) = run("linear");
    let (random_clocks, random_util, random_l2) = run("random:7:1048576");
    assert!(
        (linear_clocks - 40.0).abs() < 1.0,
        "linear: {linear_clocks} clocks per wave"
    );
    assert!(
        (linear_util - 0.8).abs() < 0.03,
        "linear: VMEM utilization {linear_util}"
    );
    assert!(
        (random_clocks - 128.0).abs() / 128.0 < 0.02,
        "random: {random_clocks} clocks per wave"
    );
    assert!(random_util > 0.97, "random: VMEM utilization {random_util}");
    // L2: 64 lanes x 4 bytes = 4 lines per linear load; scattered lanes
    // touch (nearly) a line each.
    assert_eq!(linear_l2, 8 * 4);
    assert!(random_l2 > 8 * 60, "random: {random_l2} L2 requests");
}

#[test]
fn vertex_shaders_run_a_synthesized_fetch_shader() {
    // Seed 004 assumption 4: `vertex_inputs = 3` puts three
    // buffer_load_format_xyzw (multi-channel: 16 clocks each on the texture
    // path) and an s_waitcnt vmcnt(0) in front of the program. One wave:
    // the loads issue at 0, 4, 8 and are served 0-16, 16-32, 32-48; they
    // return 320 clocks later, the last at 368, where the wait passes. The
    // program (one VALU op) issues at 372 and s_endpgm ends the wave at 376.
    let text = "v_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"vertex\"\nvertex_inputs = 3\nwaves = 1\n";
    let s = sim(text, hints, &[]);
    assert_eq!(s.fetch_shader_len(), 4);
    assert_eq!(s.run().unwrap().wave_clocks(), 376.0);
    // A vertex shader that loads its own inputs gets no fetch shader, nor
    // one that fetches nothing (a full-screen triangle from the vertex
    // index); one that calls a subroutine at its entry does.
    let own = "buffer_load_format_xyzw v[0:3], v0, s[0:3], 0 idxen\ns_waitcnt vmcnt(0)\ns_endpgm\n";
    let vs = "[dispatch]\nstage = \"vertex\"\nwaves = 1\n";
    assert!(sim(own, vs, &[]).fetch_shader_len() == 0);
    assert!(sim(text, vs, &[]).fetch_shader_len() == 0);
    let calls = "s_swappc_b64 s[0:1], s[2:3]\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let s = sim(calls, vs, &[]);
    assert_eq!(s.fetch_shader_len(), 2);
    assert!(s.notes().iter().any(|n| n.contains("fetch subroutine")));
}

#[test]
fn a_wait_other_waves_hide_is_a_stall_but_not_an_exposed_one() {
    // One SIMD (simds = 1, turns every 4 clocks), two waves. Wave A's
    // sample issues at 0 (served 0-32, back at 352), wave B's at 4 (served
    // 32-64, back at 384). A sits on the wait from its turn at 4 until 352,
    // B from 8 until 384: some wave sat on the wait from 4 to 384, 380
    // clocks. At turn 4 B issued its sample, and from 352 on A's VALU ops
    // keep the SIMD busy: only the turns 8..348 (86 turns, 344 clocks) are
    // exposed; 36 clocks were hidden.
    let text = format!(
        "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\ns_waitcnt vmcnt(0)\n{}s_endpgm\n",
        "v_add_f32 v0, v1, v2\n".repeat(100)
    );
    // (The hint keeps the sample trilinear, 32 clocks; a compute default is bilinear.)
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 2\n[[memory]]\nline = 1\nfilter = \"trilinear\"\n";
    let s = sim(&text, hints, &[("simds", "1")]);
    let st = s.run().unwrap();
    let wait = s.op_of_instruction(1);
    assert_eq!(st.op_sat[wait], 380);
    assert_eq!(st.op_stalls[wait] * 4, 344);
    let clocks = (st.clocks - st.starve_clocks) as f64;
    assert!((st.op_stall_rate(wait) - 380.0 / clocks).abs() < 1e-12);
    assert!((st.op_exposed_rate(wait) - 344.0 / clocks).abs() < 1e-12);
}
