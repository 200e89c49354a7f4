//! Every program of the real-compiler corpus (tests/fixtures) runs to
//! completion on the `gcn` model and on its own GPU's model (RDNA files on
//! `rdna1`/`rdna2`/`rdna3`) with default hints: loops once, branches not
//! taken, rgba8 trilinear samples, the stage the file says.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_bytes, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_testkit::fixtures::Manifest;
use shadersim_trace::Hints;
use std::path::PathBuf;

#[test]
fn every_fixture_program_runs_on_gcn_and_its_own_model_with_default_hints() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let manifest = Manifest::load();
    let mut runs = 0;
    for f in manifest.fixture {
        let bytes = std::fs::read(dir.join(&f.path)).unwrap();
        let opts = ReadOptions {
            target: Some(f.target.parse().unwrap()),
            ..Default::default()
        };
        let file = read_program_bytes(&f.path, &bytes, &opts).unwrap();
        let target: shadersim_isa::Target = f.target.parse().unwrap();
        let own = ArchSpec::for_target(&target)
            .map(|a| a.name)
            .unwrap_or_else(|| "rdna3".into());
        let mut models = vec!["gcn".to_string()];
        if own != "gcn" {
            models.push(own);
        }
        for (p, model) in file
            .programs
            .iter()
            .flat_map(|p| models.iter().map(move |m| (p, m)))
        {
            let mut hints = Hints::default();
            // Keep the corpus run quick: 50 waves (or workgroups) each.
            hints.dispatch.waves = Some(toml::Spanned::new(0..0, 50));
            let arch = ArchSpec::builtin(model).unwrap();
            let file_vgprs = arch.get_u32("vgprs_per_simd").unwrap();
            let prepared = Simulation::prepare(p, arch, &hints);
            // A CDNA kernel holding more than 256 registers in the unified VGPR+AGPR file
            // (mfma_gemm_agpr: 306) fits no GCN SIMD: a clear error, not a run.
            if p.register_usage().vgprs > file_vgprs {
                let Err(e) = prepared else {
                    panic!("{}: a wave fit in {file_vgprs} registers", f.path)
                };
                let e = e.to_string();
                assert!(e.contains("no wave fits"), "{e}");
                continue;
            }
            let sim = prepared.unwrap_or_else(|e| panic!("{} {} on {model}: {e}", f.path, p.name));
            let stats = sim
                .run()
                .unwrap_or_else(|e| panic!("{} {} on {model}: {e}", f.path, p.name));
            let expected = if sim.dispatch().stage == shadersim_asm::Stage::Compute {
                stats.groups
            } else {
                stats.waves
            };
            assert_eq!(expected, 50, "{} {} on {model}", f.path, p.name);
            assert!(
                stats.clocks > 0 && stats.throughput_per_clock() > 0.0,
                "{} {}",
                f.path,
                p.name
            );
            // Skipping idle clocks is exact: stepping every clock gives the
            // same statistics, stall counts included.
            let mut stepped = sim.clone();
            stepped.step_every_clock();
            assert_eq!(
                stepped.run().unwrap(),
                stats,
                "{} {} on {model}: skipping idle clocks changed the result",
                f.path,
                p.name
            );
            // Each clock a wave sits goes to one cause: the causes' clocks,
            // summed over ops and waves, fit in the waves' lifetimes, and an
            // op's cover the clocks at least one wave sat on it.
            let sat: u64 = stats.op_cause_clocks.iter().sum();
            assert!(sat <= stats.wave_clocks_sum, "{} {}", f.path, p.name);
            for (op, &union) in stats.op_sat.iter().enumerate() {
                assert!(
                    stats.op_wave_stall_clocks(op) >= union,
                    "{} {}",
                    f.path,
                    p.name
                );
            }
            runs += 1;
        }
    }
    assert!(runs >= 160, "{runs} program runs simulated");
}
