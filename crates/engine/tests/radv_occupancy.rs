//! shadersim's occupancy against the driver's own figure ("Subgroups per
//! SIMD", VK_KHR_pipeline_executable_properties) for every shader of every
//! RADV fixture, fed the driver's own inputs (ACO's allocated VGPRs, the
//! LDS size, the subgroup size and the workgroup size the dump states).
//!
//! RADV 22.3 states occupancy on its own convention (rdna-model.md 5.3):
//! on gfx10+ it counts wave32-sized waves: a wave64 figure is doubled, and
//! wave32 is capped at twice the hardware slots (RADV starts from the
//! wave64 slots x 64 / wave size). It ignores SGPRs and barrier limits on
//! gfx10+, and for pixel shaders charges LDS only for interpolants (not
//! known from the dump, and never limiting for these shaders). The test
//! converts shadersim's hardware figure to that convention.

use serde::Deserialize;
use shadersim_arch::ArchSpec;
use shadersim_engine::{Occupancy, ResourceUsage};
use shadersim_testkit::fixtures::Manifest;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Stats {
    executable: Vec<Executable>,
}

#[derive(Deserialize)]
struct Executable {
    subgroup_size: u32,
    statistics: BTreeMap<String, toml::Value>,
}

fn stat(e: &Executable, key: &str) -> u32 {
    e.statistics[key].as_integer().unwrap() as u32
}

/// Threads per workgroup from a RADV dump's `workgroup-size: X, Y, Z` line.
fn workgroup_threads(dump: &Path) -> u32 {
    std::fs::read_to_string(dump)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("workgroup-size:"))
        .map_or(1, |v| {
            v.split(',')
                .map(|n| n.trim().parse::<u32>().unwrap())
                .product()
        })
}

#[test]
fn occupancy_matches_the_drivers_on_its_convention() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let manifest = Manifest::load();
    let (mut rdna_total, mut rdna_equal) = (0, 0);
    let mut mismatches = Vec::new();
    for f in manifest.fixture.iter().filter(|f| f.dialect == "radv") {
        let stats: Stats =
            toml::from_str(&std::fs::read_to_string(dir.join(&f.statistics)).unwrap()).unwrap();
        let target: shadersim_isa::Target = f.target.parse().unwrap();
        let arch = ArchSpec::for_target(&target).unwrap();
        for s in &f.shaders {
            let e = &stats.executable[s.executable_index];
            let compute = s.stage == "compute";
            let threads = if compute {
                workgroup_threads(&dir.join(&f.path))
            } else {
                1
            };
            let usage = ResourceUsage {
                vgprs: stat(e, "VGPRs"),
                sgprs: stat(e, "SGPRs"),
                sgprs_declared: false,
                lds_bytes: if compute { stat(e, "LDS size") } else { 0 },
                wave_size: e.subgroup_size,
                waves_per_group: threads.div_ceil(e.subgroup_size),
            };
            let o = Occupancy::for_usage(&arch, &usage, None).unwrap();
            let ours = o.as_radv_states(target.gen);
            let driver = stat(e, "Subgroups per SIMD");
            let rdna = !target.gen.is_gcn();
            if rdna {
                rdna_total += 1;
            }
            if ours == driver {
                rdna_equal += usize::from(rdna);
            } else {
                mismatches.push(format!(
                    "{} {} ({}, wave{}, {} VGPRs): shadersim {ours} ({} hardware), driver {driver}",
                    f.path, s.stage, f.family, e.subgroup_size, usage.vgprs, o.waves_per_simd
                ));
            }
        }
    }
    println!(
        "RDNA shaders: {rdna_equal} of {rdna_total} equal the driver's figure; mismatches:\n{}",
        mismatches.join("\n")
    );
    assert!(rdna_total >= 70, "{rdna_total} RDNA shaders compared");
    assert!(
        rdna_equal * 100 >= rdna_total * 98,
        "{rdna_equal} of {rdna_total}: {mismatches:#?}"
    );
    // Known GCN exception: RADV gives Polaris 8 wave slots per SIMD
    // (Mesa's ac_gpu_info), the gfx803 model Fiji's 10. Every other
    // mismatch is a failure.
    for m in &mismatches {
        assert!(m.contains("polaris10"), "{m}");
    }
}

/// The gfx900 shaders through the path a listing with its driver statistics takes
/// (`apply_driver_statistics`, then `Occupancy::compute`): RADV's "SGPRs" is ACO's allocation
/// (Mesa `aco_ir.cpp` `get_sgpr_alloc`: the used SGPRs plus the reserved VCC/FLAT_SCRATCH/XNACK
/// ones, rounded to the granule of 16), so no reserved SGPRs are added to it again.
#[test]
fn gfx900_occupancy_from_the_drivers_statistics_equals_the_drivers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let arch = ArchSpec::builtin("gfx900").unwrap();
    let mut compared = 0;
    for f in Manifest::load()
        .fixture
        .iter()
        .filter(|f| f.family == "vega10")
    {
        let bytes = std::fs::read(dir.join(&f.path)).unwrap();
        let opts = shadersim_asm::ReadOptions {
            target: Some(f.target.parse().unwrap()),
            ..Default::default()
        };
        let mut file = shadersim_asm::read_program_bytes(&f.path, &bytes, &opts).unwrap();
        let text = std::fs::read_to_string(dir.join(&f.statistics)).unwrap();
        let stats = shadersim_asm::parse_driver_statistics(&text);
        shadersim_asm::apply_driver_statistics(&mut file, &stats);
        for p in &file.programs {
            let e = stats.iter().find(|e| e.stage == p.stage).unwrap();
            let waves = if p.stage == Some(shadersim_asm::Stage::Compute) {
                workgroup_threads(&dir.join(&f.path)).div_ceil(64)
            } else {
                1
            };
            let o = Occupancy::compute(p, &arch, 64, waves, None).unwrap();
            assert_eq!(
                Some(o.waves_per_simd),
                e.waves_per_simd,
                "{} {:?}",
                f.path,
                p.stage
            );
            compared += 1;
        }
    }
    assert!(compared >= 8, "{compared} gfx900 shaders compared");

    // The case: a vertex shader the driver gives 80 SGPRs (and few VGPRs). gfx900:
    // sgprs_per_simd = 800, wave_slots_per_simd = 10. The allocation as the driver states it:
    // 800 / 80 = 10 waves, the driver's figure. Adding sgpr_reserved (6) again would give
    // 86 -> 96 (granule 16) and 800 / 96 = 8.
    let text = "[[executable]]\nstages = \"vertex\"\nsubgroup_size = 64\n[executable.statistics]\n\"VGPRs\" = 12\n\"SGPRs\" = 80\n\"Subgroups per SIMD\" = 10\n";
    let bytes = std::fs::read(dir.join("radv/vega10/alpha_test.txt")).unwrap();
    let opts = shadersim_asm::ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    let mut file = shadersim_asm::read_program_bytes("alpha_test.txt", &bytes, &opts).unwrap();
    file.programs
        .retain(|p| p.stage == Some(shadersim_asm::Stage::Vertex));
    let stats = shadersim_asm::parse_driver_statistics(text);
    assert_eq!(shadersim_asm::apply_driver_statistics(&mut file, &stats), 1);
    let o = Occupancy::compute(&file.programs[0], &arch, 64, 1, None).unwrap();
    assert_eq!((o.sgprs_allocated, o.waves_per_simd), (80, 10));
}
