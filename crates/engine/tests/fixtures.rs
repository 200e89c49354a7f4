//! Every program of the real-compiler corpus (tests/fixtures) runs to
//! completion on the `gcn` model and on its own GPU's model (RDNA files on
//! `rdna1`/`rdna2`/`rdna3`) with default hints: loops once, branches not
//! taken, rgba8 trilinear samples, the stage the file says.

use shadersim_arch::ArchSpec;
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

#[test]
fn every_fixture_program_runs_on_gcn_and_its_own_model_with_default_hints() {
    let mut runs = 0;
    for (path, program, model) in shadersim_testkit::sim::corpus_runs() {
        let (p, model) = (&program, model.as_str());
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
                panic!("{}: a wave fit in {file_vgprs} registers", path)
            };
            let e = e.to_string();
            assert!(e.contains("no wave fits"), "{e}");
            continue;
        }
        let sim = prepared.unwrap_or_else(|e| panic!("{} {} on {model}: {e}", path, p.name));
        let stats = sim
            .run()
            .unwrap_or_else(|e| panic!("{} {} on {model}: {e}", path, p.name));
        let expected = if sim.dispatch().stage == shadersim_asm::Stage::Compute {
            stats.groups
        } else {
            stats.waves
        };
        assert_eq!(expected, 50, "{} {} on {model}", path, p.name);
        assert!(
            stats.clocks > 0 && stats.throughput_per_clock() > 0.0,
            "{} {}",
            path,
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
            path,
            p.name
        );
        // Each clock a wave sits goes to one cause: the causes' clocks,
        // summed over ops and waves, fit in the waves' lifetimes, and an
        // op's cover the clocks at least one wave sat on it.
        let sat: u64 = stats.op_cause_clocks.iter().sum();
        assert!(sat <= stats.wave_clocks_sum, "{} {}", path, p.name);
        for (op, &union) in stats.op_sat.iter().enumerate() {
            assert!(
                stats.op_wave_stall_clocks(op) >= union,
                "{} {}",
                path,
                p.name
            );
        }
        runs += 1;
    }
    assert!(runs >= 160, "{runs} program runs simulated");
}
