//! Every program of the real-compiler corpus (tests/fixtures) runs to
//! completion on the `gcn` model with default hints: loops once, branches
//! not taken, rgba8 trilinear samples, the stage the file says.

use serde::Deserialize;
use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_bytes, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Manifest {
    fixture: Vec<Fixture>,
}

#[derive(Deserialize)]
struct Fixture {
    path: String,
    target: String,
}

#[test]
fn every_fixture_program_runs_on_gcn_with_default_hints() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let manifest: Manifest =
        toml::from_str(&std::fs::read_to_string(dir.join("manifest.toml")).unwrap()).unwrap();
    let mut runs = 0;
    for f in manifest.fixture {
        let bytes = std::fs::read(dir.join(&f.path)).unwrap();
        let opts = ReadOptions {
            target: Some(f.target.parse().unwrap()),
            ..Default::default()
        };
        let file = read_program_bytes(&f.path, &bytes, &opts).unwrap();
        for p in &file.programs {
            let mut hints = Hints::default();
            // Keep the corpus run quick: 50 waves (or workgroups) each.
            hints.dispatch.waves = Some(toml::Spanned::new(0..0, 50));
            let sim = Simulation::prepare(p, ArchSpec::builtin("gcn").unwrap(), &hints)
                .unwrap_or_else(|e| panic!("{} {}: {e}", f.path, p.name));
            let stats = sim
                .run()
                .unwrap_or_else(|e| panic!("{} {}: {e}", f.path, p.name));
            let expected = if sim.dispatch.stage == shadersim_asm::Stage::Compute {
                stats.groups
            } else {
                stats.waves
            };
            assert_eq!(expected, 50, "{} {}", f.path, p.name);
            assert!(
                stats.clocks > 0 && stats.throughput_per_clock() > 0.0,
                "{} {}",
                f.path,
                p.name
            );
            // Skipping idle clocks is exact: stepping every clock gives the
            // same statistics, stall counts included.
            let mut stepped = sim.clone();
            stepped.skip_idle = false;
            assert_eq!(
                stepped.run().unwrap(),
                stats,
                "{} {}: skipping idle clocks changed the result",
                f.path,
                p.name
            );
            runs += 1;
        }
    }
    assert!(runs >= 98, "{runs} programs simulated");
}
