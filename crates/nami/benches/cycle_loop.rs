//! Speed of the cycle loop: simulated graphics clocks per second of host time.
//!
//! Each benchmark simulates one tile row of a built-in scene; criterion's
//! throughput is set to the row's clock count, so "elem/s" reads as simulated
//! clocks per second (all twenty rasterizers and ten SDN/AKB/SKE/ELT groups
//! advance one clock per element). Each row is measured on one core (the
//! groups one after the other) and with the groups on all cores.

// criterion_group! generates a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shadersim_nami::params::NamiParams;
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;
use shadersim_nami::sim::{simulate_rows, simulate_rows_with, SimOptions};
use std::time::Duration;

fn cycle_loop(c: &mut Criterion) {
    let params = NamiParams::seed().expect("embedded parameters load");
    let program = Program::default_shader();
    let mut group = c.benchmark_group("cycle_loop");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for name in ["builtin:fullscreen", "builtin:small", "builtin:rows"] {
        let scene = Scene::builtin(name, &params).expect("built-in scene exists");
        let clocks = simulate_rows(&params, &scene, &program, 0..1)
            .expect("row simulates")
            .total_clocks();
        group.throughput(Throughput::Elements(clocks));
        let one_core = SimOptions {
            parallel_groups: false,
            skip_idle: true,
            replay_repeated_rows: false,
        };
        group.bench_function(
            format!("{name} tile row 0 ({clocks} clocks), one core"),
            |b| {
                b.iter(|| {
                    simulate_rows_with(&params, &scene, &program, 0..1, &one_core)
                        .map(|r| r.total_clocks())
                })
            },
        );
        group.bench_function(
            format!("{name} tile row 0 ({clocks} clocks), all cores"),
            |b| b.iter(|| simulate_rows(&params, &scene, &program, 0..1).map(|r| r.total_clocks())),
        );
    }
    group.finish();
}

criterion_group!(benches, cycle_loop);
criterion_main!(benches);
