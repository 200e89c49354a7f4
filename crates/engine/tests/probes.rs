//! The latency search's probes run the machine without its statistics:
//! on every program of the real-compiler corpus (tests/fixtures), on its
//! own GPU's model and on `gcn`, a probe gives exactly what a full run
//! gives at the same latency: its clock count when it finishes, the stop at
//! its clock limit otherwise, and the ops the waves issued or passed by
//! then (which the search charges a stopped probe).

use shadersim_arch::ArchSpec;
use shadersim_engine::analysis::latency::Probe;
use shadersim_engine::{IssueEvent, Observer, Simulation};
use shadersim_trace::Hints;

/// The clock of every op a run issued or passed.
#[derive(Default)]
struct WorkClocks(Vec<u64>);

impl Observer for WorkClocks {
    fn issue(&mut self, event: &IssueEvent) {
        self.0.push(event.clock);
    }

    fn pass(&mut self, clock: u64, _wave: u32, _op: u32) {
        self.0.push(clock);
    }
}

/// The parameter the search varies on `sim`'s model (as the search picks
/// it: the extra miss latency with the cache hierarchy on, else the flat
/// latency).
fn searched(sim: &Simulation) -> String {
    match &sim.arch().cache {
        Some(c) if c.enabled => c.miss_extra_latency.clone(),
        _ => "vmem_latency".into(),
    }
}

#[test]
fn a_probe_gives_a_full_runs_clocks_stop_and_work_on_every_fixture() {
    let mut checked = 0;
    for (path, program, model) in shadersim_testkit::sim::corpus_runs() {
        let (p, model) = (&program, model.as_str());
        let mut hints = Hints::default();
        // Quick, and several waves per SIMD: 40 waves (or workgroups).
        hints.dispatch.waves = Some(toml::Spanned::new(0..0, 40));
        let Ok(sim) = Simulation::prepare(p, ArchSpec::builtin(model).unwrap(), &hints) else {
            // (A program no wave of the model fits: fixtures.rs checks the error.)
            continue;
        };
        let param = searched(&sim);
        // The base, a latency near a typical answer, a high one.
        for lat in [0u64, 300, 5000] {
            let at = sim.with_param(&param, lat as f64).unwrap();
            let mut work = WorkClocks::default();
            let full = at.run_observed(&mut work).unwrap();
            let what = format!("{} {} on {model} at {lat}", path, p.name);
            assert_eq!(work.0.len() as u64, full.issues + full.free_ops, "{what}");
            let (probe, done) = sim.latency_probe(&param, lat, u64::MAX).unwrap();
            assert_eq!(probe, Probe::Finished(full.clocks), "{what}");
            assert_eq!(done, full.issues + full.free_ops, "{what}");
            // Stopped before the end: at the limit, having done the
            // ops of the clocks up to it.
            for limit in [full.clocks / 3, full.clocks - 1] {
                let (probe, done) = sim.latency_probe(&param, lat, limit).unwrap();
                assert_eq!(probe, Probe::Stopped(limit), "{what}, limit {limit}");
                let by_limit = work.0.iter().filter(|&&c| c <= limit).count() as u64;
                assert_eq!(done, by_limit, "{what}, limit {limit}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 3 * 300, "{checked} runs compared");
}
