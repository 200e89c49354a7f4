//! The simulator's hot path: 500 waves of a real ~180-instruction pixel
//! shader (Mesa RADV's textured lighting shader, with its light loop run 4
//! times) on GCN (Vega, wave64) and on RDNA 3 (the gfx1100 wave32 and wave64
//! builds of the same shader, with the register scoreboard on), with the cache
//! hierarchy on and (GCN) off. Reports simulated wave-instructions per
//! second.

// criterion_group! generates a public function without documentation.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

const LIGHTING: &str = include_str!("../../../tests/fixtures/radv/vega10/lighting.txt");
const LIGHTING_WAVE32: &str =
    include_str!("../../../tests/fixtures/radv/gfx1100/lighting_wave32.txt");
const LIGHTING_RDNA_WAVE64: &str =
    include_str!("../../../tests/fixtures/radv/gfx1100/lighting.txt");

fn prepare(text: &str, target: &str, model: &str, loop_iterations: u32) -> Simulation {
    let opts = ReadOptions {
        target: Some(target.parse().unwrap()),
        ..Default::default()
    };
    let file = read_program_text("lighting.txt", text, &opts).unwrap();
    let program = file
        .programs
        .iter()
        .find(|p| p.name.starts_with("Pixel"))
        .unwrap();
    let cfg = shadersim_cfg::Cfg::build(program).unwrap();
    let header = cfg.loops[0].header;
    let line = program.instructions[cfg.blocks[header].start].pos.line;
    let hints = Hints::parse(&format!(
        "[dispatch]\nstage = \"pixel\"\nwaves = 500\n[[loop]]\nline = {line}\niterations = {loop_iterations}\n"
    ))
    .unwrap();
    Simulation::prepare(program, ArchSpec::builtin(model).unwrap(), &hints).unwrap()
}

fn bench(c: &mut Criterion) {
    let sim = prepare(LIGHTING, "gfx900", "gfx900", 4);
    let stats = sim.run().unwrap();
    let wave_instructions = sim.wave_instructions(&stats);
    let mut g = c.benchmark_group("simulate");
    g.throughput(Throughput::Elements(wave_instructions));
    g.bench_function("lighting_ps_500_waves", |b| b.iter(|| sim.run().unwrap()));
    // The same with the cache hierarchy off (flat latency, the seed's
    // model): the hierarchy's cost is the difference.
    let flat = sim.with_param("vmem_latency", 320.0).unwrap();
    g.bench_function("lighting_ps_500_waves_flat", |b| {
        b.iter(|| flat.run().unwrap())
    });
    g.finish();
    let rdna = prepare(LIGHTING_WAVE32, "gfx1100", "rdna3", 4);
    let rdna_stats = rdna.run().unwrap();
    let mut g = c.benchmark_group("simulate_rdna3");
    g.throughput(Throughput::Elements(rdna.wave_instructions(&rdna_stats)));
    g.bench_function("lighting_ps_wave32_500_waves", |b| {
        b.iter(|| rdna.run().unwrap())
    });
    let rdna_flat = rdna.with_param("vmem_latency", 320.0).unwrap();
    g.bench_function("lighting_ps_wave32_500_waves_flat", |b| {
        b.iter(|| rdna_flat.run().unwrap())
    });
    // RADV's default (wave64) build of the same shader for gfx1100.
    let rdna64 = prepare(LIGHTING_RDNA_WAVE64, "gfx1100", "rdna3", 4);
    let rdna64_stats = rdna64.run().unwrap();
    g.throughput(Throughput::Elements(
        rdna64.wave_instructions(&rdna64_stats),
    ));
    g.bench_function("lighting_ps_wave64_500_waves", |b| {
        b.iter(|| rdna64.run().unwrap())
    });
    g.finish();
    // The RDNA 4 BVH8 traversal example with the bunny's per-wave step
    // counts (examples/rt/bunny_bvh8.toml, written by `shadersim rt`).
    let opts = ReadOptions {
        target: Some("gfx1200".parse().unwrap()),
        ..Default::default()
    };
    let file = read_program_text(
        "traverse_bvh8_gfx1200.s",
        include_str!("../../../examples/rt/traverse_bvh8_gfx1200.s"),
        &opts,
    )
    .unwrap();
    let hints = Hints::parse(include_str!("../../../examples/rt/bunny_bvh8.toml")).unwrap();
    let rt = Simulation::prepare(
        &file.programs[0],
        ArchSpec::builtin("rdna4").unwrap(),
        &hints,
    )
    .unwrap();
    let rt_stats = rt.run().unwrap();
    let mut g = c.benchmark_group("simulate_rdna4_traversal");
    g.throughput(Throughput::Elements(rt.wave_instructions(&rt_stats)));
    g.bench_function("bunny_bvh8_512_waves", |b| b.iter(|| rt.run().unwrap()));
    g.finish();
    let mut g = c.benchmark_group("latency_tolerance");
    g.sample_size(10);
    g.bench_function("lighting_ps_search", |b| {
        b.iter(|| sim.latency_tolerance(&stats).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
