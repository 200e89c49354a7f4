//! The occupancy statements of seed 000 and NVIDIA's published formula,
//! checked against the data files. Each expected number is derived in a
//! comment from the rule, not read off the code.

use proptest::prelude::*;
use shadersim_occupancy::{
    cliffs, DynamicVgprConfig, DynamicVgprError, VendorLimiter, VendorModel, VendorUnit,
};

fn unit(model: &str, index: usize) -> VendorUnit {
    VendorModel::builtin(model).unwrap().units[index].clone()
}

#[test]
fn xe3_keeps_10_threads_up_to_96_registers() {
    // Seed 000: 10 threads as long as a thread uses 96 or fewer registers.
    // Rule: min(10, 1024 / alignTo(n, 32)); 96 -> 1024/96 = 10.67 -> 10;
    // 97 -> 1024/128 = 8; 256 -> 1024/256 = 4.
    let xve = unit("xe3", 0);
    for n in 1..=96 {
        assert_eq!(xve.occupancy(n, None).waves_per_unit, 10, "{n} registers");
    }
    assert_eq!(xve.occupancy(97, None).waves_per_unit, 8);
    assert_eq!(xve.occupancy(97, None).limiter, VendorLimiter::Registers);
    assert_eq!(xve.occupancy(256, None).waves_per_unit, 4);
    // Cliffs above 96: 97 -> 8, 129 -> 1024/160 = 6, 161 -> 1024/192 = 5,
    // 193 -> 1024/224 = 4 (and 4 stays to 256).
    let c: Vec<(u32, u32)> = cliffs(96, 256, |n| xve.occupancy(n, None).waves_per_unit)
        .into_iter()
        .map(|c| (c.registers, c.waves))
        .collect();
    assert_eq!(c, vec![(97, 8), (129, 6), (161, 5), (193, 4)]);
}

#[test]
fn xe2_drops_to_4_threads_in_large_grf_mode() {
    // Seed 000: 128 registers per thread and 8 threads, or "large GRF" 256
    // registers and 4 threads, nothing in between.
    let xve = unit("xe2", 0);
    let small = xve.occupancy(32, None);
    assert_eq!((small.waves_per_unit, small.allocated), (8, 128));
    assert_eq!(small.wasted(32), 96);
    let edge = xve.occupancy(128, None);
    assert_eq!((edge.waves_per_unit, edge.allocated), (8, 128));
    let large = xve.occupancy(129, None);
    assert_eq!((large.waves_per_unit, large.allocated), (4, 256));
    assert_eq!(large.limiter, VendorLimiter::Registers);
    assert_eq!(xve.occupancy(257, None).waves_per_unit, 0);
    assert_eq!(
        xve.occupancy(257, None).limiter,
        VendorLimiter::TooManyRegisters
    );
}

/// NVIDIA's formula (cuda_occupancy.h, cudaOccMaxBlocksPerSMRegsLimit),
/// written out independently: warps per sub-partition =
/// floor((65536 / 4) / roundUp(regs x 32, 256)), capped by 64 / 4 warps.
fn nvidia_formula(regs: u32) -> u32 {
    let per_warp = (regs * 32).div_ceil(256) * 256;
    (65536 / 4 / per_warp).min(64 / 4)
}

#[test]
fn nvidia_matches_the_published_formula_at_three_register_counts() {
    for model in ["ampere", "hopper", "blackwell"] {
        let sp = unit(model, 0);
        // 32 registers: 1024 per warp, 16384 / 1024 = 16 = all 16 slots.
        // 96 registers: 3072 per warp, 16384 / 3072 = 5.33 -> 5 (seed 000:
        //   "96 registers on Blackwell ... 5 concurrent threads in each SM
        //   sub-partition").
        // 255 registers: 8160 -> 8192 per warp, 16384 / 8192 = 2.
        for (regs, expected) in [(32, 16), (96, 5), (255, 2)] {
            assert_eq!(nvidia_formula(regs), expected);
            let o = sp.occupancy(regs, None);
            assert_eq!(o.waves_per_unit, expected, "{model} at {regs}");
            assert_eq!(o.waves_per_core, expected * 4);
        }
        // The per-thread limit is 255 registers.
        assert_eq!(sp.occupancy(256, None).waves_per_unit, 0);
        // Allocation granule: 256 per warp = 8 per thread; 33 -> 40.
        assert_eq!(sp.occupancy(33, None).allocated, 40);
    }
}

#[test]
fn nvidia_blocks_are_whole() {
    // 96 registers and 256-thread blocks (8 warps): 5 warps per
    // sub-partition x 4 = 20 per SM, floor(20 / 8) = 2 blocks = 16 warps.
    let sp = unit("hopper", 0);
    let o = sp.occupancy(96, Some(8));
    assert_eq!((o.waves_per_core, o.waves_per_unit), (16, 4));
    // 16 registers, 1-warp blocks: 64 warps by slots but 32 blocks per SM.
    let o = sp.occupancy(16, Some(1));
    assert_eq!(o.waves_per_core, 32);
    assert_eq!(o.limiter, VendorLimiter::Workgroups);
}

#[test]
fn nv40_cores_as_seed_000_describes_them() {
    // Vertex cores track 3 threads; with a shared 32-entry file, 10
    // registers still give 3 threads (32 / 10 = 3), 11 give 2.
    let vertex = unit("nv40", 0);
    assert_eq!(vertex.occupancy(10, None).waves_per_unit, 3);
    assert_eq!(vertex.occupancy(11, None).waves_per_unit, 2);
    // Pixel cores: most threads up to 4 registers (1024 / 4 = 256), fewer
    // past it (1024 / 5 = 204).
    let pixel = unit("nv40", 1);
    assert_eq!(pixel.occupancy(4, None).waves_per_unit, 256);
    assert_eq!(pixel.occupancy(5, None).waves_per_unit, 204);
}

#[test]
fn rdna4_dynamic_scenario_19() {
    // rdna-model.md section 9, scenario 19: 16 slots, block 16, deadlock
    // avoidance on, 1536 VGPRs. pool = 1536 - 16x16 - 7x16 = 1168; a wave
    // at the 128-VGPR maximum draws 7 extra blocks = 112 VGPRs, so
    // floor(1168 / 112) = 10 waves from the pool, 11 with the reserve.
    let cfg = DynamicVgprConfig::rdna4(16, 16, true);
    assert_eq!(cfg.pool().unwrap(), 1168);
    assert_eq!(cfg.reserve(), 112);
    let r = cfg.waves_reaching(128).unwrap();
    assert_eq!((r.from_pool, r.with_reserve, r.extra_blocks), (10, 11, 7));
}

#[test]
fn rdna4_dynamic_seed_example() {
    // Seed 000: up to eight blocks per wave, so more than 128 VGPRs needs
    // the 32-VGPR block; deadlock avoidance reserves 7 blocks.
    let b16 = DynamicVgprConfig::rdna4(16, 16, true);
    assert!(matches!(
        b16.waves_reaching(129),
        Err(DynamicVgprError::TooMany { max: 128, .. })
    ));
    let b32 = DynamicVgprConfig::rdna4(16, 32, true);
    assert_eq!(b32.max_vgprs(), 256);
    assert_eq!(b32.reserve(), 224);
    // pool = 1536 - 16x32 - 224 = 800; 256 VGPRs = 7 extra blocks of 32 =
    // 224 each: floor(800 / 224) = 3 waves, 4 with the reserve.
    let r = b32.waves_reaching(256).unwrap();
    assert_eq!((r.from_pool, r.with_reserve), (3, 4));
    // Without avoidance: pool = 1536 - 512 = 1024, 1024 / 224 = 4.
    let r = DynamicVgprConfig::rdna4(16, 32, false)
        .waves_reaching(256)
        .unwrap();
    assert_eq!((r.from_pool, r.with_reserve), (4, 4));
    // A wave that stays in its reserved block needs nothing from the pool:
    // every enabled slot runs.
    assert_eq!(b16.waves_reaching(16).unwrap().from_pool, 16);
    // LLVM's estimate: min(16, 1536 / alignTo(n, block)): 128 -> 12, 256 -> 6.
    assert_eq!(b16.llvm_estimate(128).unwrap(), 12);
    assert_eq!(b32.llvm_estimate(256).unwrap(), 6);
    assert!(DynamicVgprConfig::rdna4(16, 24, true).pool().is_err());
    assert!(DynamicVgprConfig::rdna4(100, 16, true).pool().is_err());
}

proptest! {
    #[test]
    fn the_loader_never_panics(text in ".{0,400}") {
        let _ = VendorModel::from_toml("p.toml", &text);
    }

    #[test]
    fn mutated_builtins_never_panic(cut in 0usize..2000, insert in "[0-9a-z=\\[\\]\" \n{},.]{0,12}") {
        let text = include_str!("../data/xe3.toml");
        let at = cut.min(text.len());
        let at = (0..=at).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        let mutated = format!("{}{}{}", &text[..at], insert, &text[at..]);
        if let Ok(m) = VendorModel::from_toml("p.toml", &mutated) {
            for u in &m.units {
                let _ = u.occupancy(96, Some(4));
            }
        }
    }

    #[test]
    fn occupancy_never_grows_with_registers(n in 1u32..300) {
        for m in VendorModel::builtins() {
            for u in &m.units {
                prop_assert!(u.occupancy(n + 1, None).waves_per_unit <= u.occupancy(n, None).waves_per_unit);
            }
        }
    }

    #[test]
    fn dynamic_waves_never_exceed_slots(slots in 0u32..40, n in 1u32..300, big in any::<bool>(), avoid in any::<bool>()) {
        let cfg = DynamicVgprConfig::rdna4(slots, if big { 32 } else { 16 }, avoid);
        if let Ok(r) = cfg.waves_reaching(n) {
            prop_assert!(r.from_pool <= r.with_reserve && r.with_reserve <= slots);
        }
    }
}
