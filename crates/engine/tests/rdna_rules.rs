//! The RDNA 1-3 rules of rdna-model.md, section 9's scenarios each on a
//! small program written for it. Every expected number is derived in a
//! comment from the model's parameters (crates/arch/data/rdna*.toml), not
//! copied from a run.
//!
//! Timeline conventions the derivations use: the wave launches at clock 0
//! and issues its first op at clock 0; a SIMD32 issues every clock
//! (issue_interval = 1) and a wave at most one instruction per clock, a
//! wait included (a wait that is satisfied at clock t lets the next
//! instruction issue at t + 1); an op's results can be read `latency`
//! clocks after it issued (after its last pass for wave64); the wave ends
//! when its last ALU result is written and its counters are zero.

use shadersim_arch::ArchSpec;
use shadersim_engine::{Limiter, Occupancy, ResourceUsage, Simulation};
use shadersim_testkit::program_for as program;
use shadersim_testkit::sim::prepare;
use shadersim_trace::Hints;

/// `text` read for `target`, on `model` with `sets`.
fn sim_on(model: &str, target: &str, text: &str, hints: &str, sets: &[(&str, &str)]) -> Simulation {
    prepare(
        &program(target, text),
        shadersim_testkit::sim::model(model, sets),
        hints,
    )
}

fn one_wave(wave_size: u32) -> String {
    format!("[dispatch]\nstage = \"compute\"\nworkgroup_size = {wave_size}\nwaves = 1\nwave_size = {wave_size}\n")
}

/// The flat-latency mode (`--set memory=flat`, `vmem_latency` the model's own 320):
/// the cache hierarchy is off and every VMEM op takes `vmem_latency`, every
/// scalar load `smem_latency`, as the rules below are derived.
const FLAT: &[(&str, &str)] = &[("memory", "flat"), ("vmem_latency", "320")];

/// Clocks one wave takes from launch to end, flat latencies.
fn flat_wave_clocks(model: &str, target: &str, text: &str, wave_size: u32) -> f64 {
    sim_on(model, target, text, &one_wave(wave_size), FLAT)
        .run()
        .unwrap()
        .wave_clocks()
}

/// Clocks one wave takes from launch to end.
fn wave_clocks(model: &str, target: &str, text: &str, wave_size: u32) -> f64 {
    sim_on(model, target, text, &one_wave(wave_size), &[])
        .run()
        .unwrap_or_else(|e| panic!("{e}"))
        .wave_clocks()
}

fn repeat(line: &str, n: usize) -> String {
    format!("{line}\n").repeat(n)
}

const RDNA: [(&str, &str); 3] = [
    ("rdna1", "gfx1010"),
    ("rdna2", "gfx1030"),
    ("rdna3", "gfx1100"),
];

#[test]
fn scenario_1_independent_adds_issue_one_per_clock() {
    // 100 independent v_add_f32 in wave32: valu_clocks = 1, so op i issues
    // at clock i (0..99); the last result is written at 99 + valu_latency
    // (5) = 104, when the wave ends (rdna-model.md 9.1: about 100, +4 tail).
    let text = repeat("v_add_f32 v0, v1, v2", 100) + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &text, 32), 104.0, "{model}");
    }
}

#[test]
fn scenario_2_dependent_chain_waits_five_clocks_per_link() {
    // Each add reads the previous one's result: link k issues at 5k, so
    // the 100th issues at 495 and its result is written at 500 (9.2).
    let text = repeat("v_add_f32 v0, v0, v1", 100) + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &text, 32), 500.0, "{model}");
    }
}

#[test]
fn scenarios_3_and_4_wave64_takes_two_passes_before_gfx11() {
    // Wave64 on gfx10: wave64_valu_passes = 2, so each independent add
    // holds the VALU 2 clocks: op i issues at 2i, the last at 198; its
    // second pass starts at 199 and its result is written 5 later, at 204
    // (9.3: about 200).
    let text = repeat("v_add_f32 v0, v1, v2", 100) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna1", "gfx1010", &text, 64), 204.0);
    assert_eq!(wave_clocks("rdna2", "gfx1030", &text, 64), 204.0);
    // gfx11 runs v_add_f32 for a wave64 in one pass (w64_single): as in
    // wave32, 104 (9.4: about 100).
    assert_eq!(wave_clocks("rdna3", "gfx1100", &text, 64), 104.0);
    // Packed math is not single-pass on gfx11: 2 passes, 204 again.
    let packed = repeat("v_pk_fma_f16 v0, v1, v2, v3", 100) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna3", "gfx1100", &packed, 64), 204.0);
}

#[test]
fn scenario_5_wave64_dependent_chain_is_six_per_link() {
    // A dependent wave64 link on gfx10: issue at t, second pass at t + 1,
    // result at t + 1 + 5 = t + 6; 100 links end at 600 (9.5).
    let text = repeat("v_add_f32 v0, v0, v1", 100) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna2", "gfx1030", &text, 64), 600.0);
}

#[test]
fn scenario_6_vopd_issues_two_ops_per_clock() {
    // 100 VOPD pairs (200 adds and muls) issue one per clock on gfx11:
    // last at 99, results at 104 (9.6).
    let text = repeat(
        "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5",
        100,
    ) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna3", "gfx1100", &text, 32), 104.0);
}

#[test]
fn scenarios_7_and_8_transcendentals_use_their_own_unit() {
    // 100 independent v_rcp_f32: the trans unit is busy trans_clocks = 4
    // per op, so op i issues at 4i; the last at 396 has its result at
    // 396 + valu_trans_latency (10) = 406 (9.7: about 400).
    let rcp = repeat("v_rcp_f32 v0, v1", 100) + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &rcp, 32), 406.0, "{model}");
    }
    // 25 rcp interleaved 1:3 with 75 adds: the VALU issues one op per
    // clock and the trans unit is free again exactly when the next rcp
    // comes (every 4 clocks): the last rcp issues at 96 (result 106), the
    // last add at 99 (result 104): 106 (9.8: about 100).
    let mixed =
        "v_rcp_f32 v0, v1\nv_add_f32 v2, v3, v4\nv_add_f32 v5, v3, v4\nv_add_f32 v6, v3, v4\n"
            .repeat(25)
            + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &mixed, 32), 106.0, "{model}");
    }
}

#[test]
fn scenario_9_integer_multiply_is_quarter_rate() {
    // valu_quarter_clocks = 4: op i issues at 4i, the last at 396, result
    // 396 + valu_quarter_latency (8) = 404 (9.9: about 400).
    let text = repeat("v_mul_lo_u32 v0, v1, v2", 100) + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &text, 32), 404.0, "{model}");
    }
}

#[test]
fn scenario_9_a_32x32_to_64_multiply_add_is_quarter_rate_too() {
    // The source of the cost: LLVM's scheduling models charge v_mad_u64_u32 as the 32-bit integer
    // multiply (SISchedule.td WriteIntMul): llvm-mca-22 -mcpu=gfx1030 and -mcpu=gfx1100 give it
    // latency 8, v_mul_lo_u32's (v_lshlrev_b64, the 64-bit ALU class: 6). So the class is
    // valu.quarter: valu_quarter_clocks = 4 a wave32 op, not valu_b64_clocks = 2; op i issues at
    // 4i, the last at 396, its result 396 + valu_quarter_latency (8) = 404, as v_mul_lo_u32's.
    let text = repeat("v_mad_u64_u32 v[0:1], s0, v2, v3, v[4:5]", 100) + "s_endpgm\n";
    for (model, target) in RDNA {
        assert_eq!(wave_clocks(model, target, &text, 32), 404.0, "{model}");
    }
}

#[test]
fn scenario_10_f64_rate_per_generation() {
    // RDNA 2: valu_f64_clocks = 16, the last of 100 issues at 1584, result
    // + 22 = 1606; RDNA 3: 32 per op, last at 3168, result + 38 = 3206
    // (9.10: about 1600 and 3200).
    let text = repeat("v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", 100) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna2", "gfx1030", &text, 32), 1606.0);
    assert_eq!(wave_clocks("rdna3", "gfx1100", &text, 32), 3206.0);
}

#[test]
fn scenario_11_wmma_holds_the_simd() {
    // 10 independent v_wmma_f32_16x16x16_f16 (wave32): RDNA 3 holds the
    // VALU valu_wmma_clocks = 32 per op, so op i issues at 32i, the last at
    // 288, its result 32 later: 320. RDNA 4 (16 clocks, derived): the last
    // at 144, result at 160 (9.11).
    let gfx11 = repeat(
        "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[24:31]",
        10,
    ) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna3", "gfx1100", &gfx11, 32), 320.0);
    let gfx12 = repeat(
        "v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[16:23]",
        10,
    ) + "s_endpgm\n";
    assert_eq!(wave_clocks("rdna4", "gfx1200", &gfx12, 32), 160.0);
}

#[test]
fn scenario_12_lds_b128_costs_four_clocks_of_lds() {
    // ds_load_b128, wave32: 32 lanes x 16 bytes = 512 bytes at
    // lds_bytes_per_clock = 128: 4 clocks of the CU's LDS (9.12). 10 of
    // them from one wave keep the LDS busy 40 clocks.
    let text = repeat("ds_load_b128 v[0:3], v4", 10) + "s_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let s = sim_on("rdna3", "gfx1100", &text, &one_wave(32), &[]);
    let op = s.op(s.op_of_instruction(0));
    assert_eq!(op.cost(), 4);
    let stats = s.run().unwrap();
    let lds = stats.unit_names.iter().position(|u| u == "lds").unwrap();
    assert_eq!(stats.unit_busy[lds], 40);
    // The last load is served from 36 to 40 and returns lds_latency (42)
    // later: the wait passes at 82 and s_endpgm ends the wave at 83.
    assert_eq!(stats.wave_clocks(), 83.0);
}

#[test]
fn an_lds_load_returns_after_each_models_lds_latency() {
    // One wave32 ds_read_b32: it issues at 0 and holds the LDS 1 clock
    // (128 bytes at lds_bytes_per_clock 128), returns lds_latency later,
    // s_waitcnt lgkmcnt(0) passes then and s_endpgm ends the wave one clock
    // on: 1 + lds_latency + 1. lds_latency is load-to-use: a published LDS
    // chase step less the chase's 8 clocks of address arithmetic
    // (docs/models/rdna.md 4.2): RDNA 1 51 - 8 = 43, RDNA 2 50 - 8 = 42
    // (19.5 ns at 2.57 GHz), RDNA 3 takes RDNA 2's 42.
    for ((model, target), lds_latency) in RDNA.iter().zip([43.0, 42.0, 42.0]) {
        // gfx11 spells the load ds_load_b32.
        let load = if target.starts_with("gfx11") {
            "ds_load_b32"
        } else {
            "ds_read_b32"
        };
        let text = format!("{load} v1, v0\ns_waitcnt lgkmcnt(0)\ns_endpgm\n");
        assert_eq!(
            wave_clocks(model, target, &text, 32),
            1.0 + lds_latency + 1.0,
            "{model}"
        );
    }
}

fn occupancy(model: &str, vgprs: u32, wave_size: u32, lds: u32, group_waves: u32) -> Occupancy {
    Occupancy::for_usage(
        &ArchSpec::builtin(model).unwrap(),
        &ResourceUsage {
            vgprs,
            sgprs: 10,
            sgprs_declared: false,
            lds_bytes: lds,
            wave_size,
            waves_per_group: group_waves,
        },
        None,
    )
    .unwrap()
}

#[test]
fn scenarios_13_to_16_occupancy() {
    // 13: wave32, 96 VGPRs: gfx1030 1024 rows / align(96, 16) = 10;
    // gfx1100 1536 / align(96, 24) = 16 (= the slots); gfx1102 1024/96 = 10.
    assert_eq!(occupancy("rdna2", 96, 32, 0, 1).waves_per_simd, 10);
    let o = occupancy("rdna3", 96, 32, 0, 1);
    assert_eq!((o.waves_per_simd, o.limiter), (16, Limiter::Slots));
    assert_eq!(occupancy("gfx1102", 96, 32, 0, 1).waves_per_simd, 10);
    // 14: 128 VGPRs: gfx1030 1024/128 = 8; gfx1100 1536/align(128, 24) =
    // 1536/144 = 10.
    assert_eq!(occupancy("rdna2", 128, 32, 0, 1).waves_per_simd, 8);
    let o = occupancy("rdna3", 128, 32, 0, 1);
    assert_eq!((o.waves_per_simd, o.vgprs_allocated), (10, 144));
    // 15: wave64, 96 VGPRs on gfx1030: 2 rows per register, 192 rows
    // (granule 16 rows) -> 1024/192 = 5 (LLVM's figure; RADV prints 10).
    let o = occupancy("rdna2", 96, 64, 0, 1);
    assert_eq!((o.waves_per_simd, o.limiter), (5, Limiter::Vgpr));
    // 16: 256-thread wave32 workgroups (8 waves) with 32 KB LDS: WGP mode
    // 128 KB / 32 KB = 4 groups x 8 waves / 4 SIMDs = 8; CU mode 64 KB /
    // 32 KB = 2 x 8 / 2 = 8.
    for model in ["rdna2", "rdna3"] {
        let o = occupancy(model, 24, 32, 32768, 8);
        assert_eq!((o.waves_per_simd, o.limiter), (8, Limiter::Lds), "{model}");
        let mut cu_mode = ArchSpec::builtin(model).unwrap();
        cu_mode.set("wgp_mode", "0").unwrap();
        let o = Occupancy::for_usage(
            &cu_mode,
            &ResourceUsage {
                vgprs: 24,
                sgprs: 10,
                sgprs_declared: false,
                lds_bytes: 32768,
                wave_size: 32,
                waves_per_group: 8,
            },
            None,
        )
        .unwrap();
        assert_eq!(o.waves_per_simd, 8, "{model} CU mode");
    }
    // RDNA 1 has 20 slots and an 8-register granule: 24 VGPRs ->
    // 1024/24 = 42, capped at 20.
    assert_eq!(occupancy("rdna1", 24, 32, 0, 1).waves_per_simd, 20);
}

#[test]
fn scenario_18_smem_returns_out_of_order_with_lds() {
    // An LDS load issues at 0 (1 clock of LDS, returns at 1 + lds_latency
    // 42 = 43) and a scalar load at 1 (1 DWORD at 4 per clock: served by
    // 2, returns at 2 + smem_latency 31 = 33): the scalar load comes back
    // first, so lgkmcnt(1) is satisfied at 33 by the wrong op: the
    // compiler must wait for lgkmcnt(0), which passes at 43 (9.18).
    let wait0 = "ds_load_b32 v1, v0\ns_load_b32 s4, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_add_u32 s5, s4, 1\ns_endpgm\n";
    // s_add issues at 44, its result is written at 44 + salu_latency 2.
    assert_eq!(flat_wave_clocks("rdna3", "gfx1100", wait0, 32), 46.0);
    let wait1 = wait0.replace("lgkmcnt(0)", "lgkmcnt(1)");
    // With lgkmcnt(1) the wait passes at 33, s_add issues at 34 (result
    // 36), but the end still waits for the LDS load: 43.
    assert_eq!(flat_wave_clocks("rdna3", "gfx1100", &wait1, 32), 43.0);
}

#[test]
fn depctr_waits_for_outstanding_valu_writes() {
    // gfx11 trans hazard: LLVM puts s_waitcnt_depctr va_vdst(0) (0x0fff)
    // after a v_rcp_f32 whose result a VALU op reads. The rcp issues at 0,
    // its result is written at 10; the depctr passes at 10; the s_mov
    // (free of dependencies) issues at 11, its result at 13.
    let text = "v_rcp_f32 v0, v1\ns_waitcnt_depctr 0xfff\ns_mov_b32 s0, 0\ns_endpgm\n";
    assert_eq!(wave_clocks("rdna3", "gfx1100", text, 32), 13.0);
    // Without the depctr the s_mov issues at 1 and the wave ends when the
    // rcp's result is written, at 10.
    let text = "v_rcp_f32 v0, v1\ns_mov_b32 s0, 0\ns_endpgm\n";
    assert_eq!(wave_clocks("rdna3", "gfx1100", text, 32), 10.0);
}

#[test]
fn memory_ops_wait_for_the_waves_valu_writes() {
    // rdna-model.md 1.2: a VMEM op does not issue until the wave's VALU
    // VGPR writes have completed, even ones it does not read: the add at
    // 0 writes v5 at 5, so the store issues at 5 and the wave ends when
    // vscnt falls: the store is served 5..13 (a wave32 store: 16 clocks
    // per 64 lanes / 2 = 8) and acknowledged vmem_latency 320 later, so the
    // end waits for vscnt until 5 + 8 + 320 = 333.
    let text = "v_add_f32 v5, v1, v2\nglobal_store_b32 v0, v1, s[0:1]\ns_endpgm\n";
    let s = sim_on("rdna3", "gfx1100", text, &one_wave(32), FLAT);
    let store = s.op(s.op_of_instruction(1));
    assert_eq!(store.cost(), 8);
    assert_eq!(s.run().unwrap().wave_clocks(), (5 + 8 + 320) as f64);
}

#[test]
fn an_unannounced_dependency_may_cost_extra() {
    // dependency_stall_extra_clocks (assumption, default 0): a dependent op
    // the compiler announced with s_delay_alu costs only the latency (the
    // second add at 5, result 10); without the announcement, and with the
    // parameter at 3, it issues at 5 + 3 = 8 (result 13).
    let announced =
        "v_add_f32 v0, v1, v2\ns_delay_alu instid0(VALU_DEP_1)\nv_add_f32 v3, v0, v2\ns_endpgm\n";
    let bare = "v_add_f32 v0, v1, v2\nv_add_f32 v3, v0, v2\ns_endpgm\n";
    let run = |text: &str, extra: &str| {
        sim_on(
            "rdna3",
            "gfx1100",
            text,
            &one_wave(32),
            &[("dependency_stall_extra_clocks", extra)],
        )
        .run()
        .unwrap()
        .wave_clocks()
    };
    assert_eq!(run(announced, "0"), 10.0);
    assert_eq!(run(bare, "0"), 10.0);
    assert_eq!(run(announced, "3"), 10.0);
    assert_eq!(run(bare, "3"), 13.0);
}

#[test]
fn throughput_counts_the_lanes_of_the_wave_size() {
    // A VALU-bound compute kernel: 100 independent adds per wave, 64
    // wave32 workgroups of one wave, 16 per SIMD. Each SIMD's VALU needs
    // 100 clocks per wave and 2 SIMDs work in parallel: 64 waves x 32
    // threads over about 64 x 100 / 2 = 3200 clocks = 0.64 threads per
    // clock (plus the launch ramp and the latency tail).
    let text = repeat("v_add_f32 v0, v1, v2", 100) + "s_endpgm\n";
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 32\nwaves = 64\n";
    let s = sim_on("rdna2", "gfx1030", &text, hints, &[]);
    let a = s.analyse().unwrap();
    let t = a.stats.throughput_per_clock();
    assert!((t - 0.64).abs() / 0.64 < 0.03, "{t}");
    assert_eq!(a.stats.threads, 64 * 32);
    assert_eq!(a.bottleneck.kind, "VALU");
    // The same kernel as one dependent chain per wave: 500 clocks per wave
    // of dependency, 16 waves per SIMD overlap it: 500 / 32 = 15.6 clocks
    // per wave of latency but 100 / 2 = 50 of VALU: still VALU-bound. With
    // only 2 waves per SIMD the chain (500 / 4 = 125) dominates.
    let chain = repeat("v_add_f32 v0, v0, v1", 100) + "s_endpgm\n";
    let capped = format!("{hints}waves_per_simd = 2\n");
    let a = sim_on("rdna2", "gfx1030", &chain, &capped, &[])
        .analyse()
        .unwrap();
    assert_eq!(
        a.bottleneck.kind, "dependency latency",
        "{}",
        a.bottleneck.statement
    );
}

#[test]
fn wave_size_comes_from_the_file() {
    // LLVM's descriptor says wave32 or wave64; RADV listings name exec_lo
    // (wave32) or exec (wave64).
    let w32 = "s_and_saveexec_b32 s0, vcc_lo\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let w64 = "s_and_saveexec_b64 s[0:1], vcc\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\n";
    assert_eq!(
        sim_on("rdna2", "gfx1030", w32, hints, &[])
            .dispatch()
            .wave_size,
        32
    );
    assert_eq!(
        sim_on("rdna2", "gfx1030", w64, hints, &[])
            .dispatch()
            .wave_size,
        64
    );
    // A 64-thread workgroup is 2 wave32 waves or 1 wave64.
    let s = sim_on("rdna2", "gfx1030", w32, hints, &[]).run().unwrap();
    assert_eq!((s.waves, s.threads), (2, 64));
    // The hint wins; GCN refuses wave32.
    let s = sim_on(
        "rdna2",
        "gfx1030",
        w32,
        &format!("{hints}wave_size = 64\n"),
        &[],
    );
    assert_eq!(s.dispatch().wave_size, 64);
    let bad = Simulation::prepare(
        &program("gfx900", "v_add_f32 v0, v1, v2\ns_endpgm\n"),
        ArchSpec::builtin("gcn").unwrap(),
        &Hints::parse(&format!("{hints}wave_size = 32\n")).unwrap(),
    );
    assert!(bad.unwrap_err().to_string().contains("wave64 only"));
}
