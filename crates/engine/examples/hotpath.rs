//! The `simulate` bench's lighting shader, prepared once and run N times,
//! for instruction-count profiling (`valgrind --tool=callgrind`), where
//! criterion's own work would blur the picture.
//!
//! `cargo run --release -p shadersim-engine --example hotpath -- [gcn|gcn-flat|rdna3|rdna3-w64|rdna4-bvh8] [N]`
//! prints the simulated wave-instructions per run (`... gcn 1 dump` also the statistics;
//! `... gcn 1 probe` runs without the statistics, as a latency-search probe).
//!
//! `... hotpath -- file N PATH MODEL [LATENCY]` runs any program file's
//! first program with default hints instead; with LATENCY, as the
//! latency-tolerance search probes it (the cache hierarchy's extra miss
//! latency set to LATENCY), to profile what one probe costs.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

const LIGHTING: &str = include_str!("../../../tests/fixtures/radv/vega10/lighting.txt");
const LIGHTING_WAVE32: &str =
    include_str!("../../../tests/fixtures/radv/gfx1100/lighting_wave32.txt");
const LIGHTING_RDNA_WAVE64: &str =
    include_str!("../../../tests/fixtures/radv/gfx1100/lighting.txt");
const TRAVERSE_BVH8: &str = include_str!("../../../examples/rt/traverse_bvh8_gfx1200.s");
const BUNNY_BVH8: &str = include_str!("../../../examples/rt/bunny_bvh8.toml");

/// The bench's preparation: the pixel shader, 500 waves, its light loop run 4 times.
fn prepare(text: &str, target: &str, model: &str) -> Simulation {
    let opts = ReadOptions {
        target: Some(target.parse().expect("target")),
        ..Default::default()
    };
    let file = read_program_text("lighting.txt", text, &opts).expect("readable");
    let program = file
        .programs
        .iter()
        .find(|p| p.name.starts_with("Pixel"))
        .expect("a pixel shader");
    let cfg = shadersim_cfg::Cfg::build(program).expect("cfg");
    let header = cfg.loops[0].header;
    let line = program.instructions[cfg.blocks[header].start].pos.line;
    let hints = Hints::parse(&format!(
        "[dispatch]\nstage = \"pixel\"\nwaves = 500\n[[loop]]\nline = {line}\niterations = 4\n"
    ))
    .expect("hints");
    Simulation::prepare(program, ArchSpec::builtin(model).expect("model"), &hints)
        .expect("prepared")
}

/// The bench's RDNA 4 traversal: the BVH8 kernel with the bunny's per-wave
/// step counts.
fn prepare_traversal() -> Simulation {
    let opts = ReadOptions {
        target: Some("gfx1200".parse().expect("target")),
        ..Default::default()
    };
    let file =
        read_program_text("traverse_bvh8_gfx1200.s", TRAVERSE_BVH8, &opts).expect("readable");
    let hints = Hints::parse(BUNNY_BVH8).expect("hints");
    Simulation::prepare(
        &file.programs[0],
        ArchSpec::builtin("rdna4").expect("model"),
        &hints,
    )
    .expect("prepared")
}

/// A program file's first program on `model` with default hints, and
/// optionally the cache hierarchy's extra miss latency (a latency-search
/// probe's simulation).
fn prepare_file(path: &str, model: &str, latency: Option<f64>) -> Simulation {
    let text = std::fs::read_to_string(path).expect("readable file");
    let file = read_program_text(path, &text, &ReadOptions::default()).expect("a program");
    let sim = Simulation::prepare(
        &file.programs[0],
        ArchSpec::builtin(model).expect("model"),
        &Hints::default(),
    )
    .expect("prepared");
    match latency {
        Some(l) => sim
            .with_param("cache_miss_extra_latency", l)
            .expect("a cache model"),
        None => sim,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "gcn".into());
    let n: u32 = args.next().map_or(10, |s| s.parse().expect("a count"));
    let mut args = args.collect::<Vec<_>>().into_iter();
    let sim = match which.as_str() {
        "gcn" => prepare(LIGHTING, "gfx900", "gfx900"),
        "gcn-flat" => prepare(LIGHTING, "gfx900", "gfx900")
            .with_param("vmem_latency", 320.0)
            .expect("flat"),
        "rdna3" => prepare(LIGHTING_WAVE32, "gfx1100", "rdna3"),
        "rdna3-w64" => prepare(LIGHTING_RDNA_WAVE64, "gfx1100", "rdna3"),
        "rdna4-bvh8" => prepare_traversal(),
        "file" => prepare_file(
            &args.next().expect("a path"),
            &args.next().expect("a model"),
            args.next().map(|l| l.parse().expect("a latency")),
        ),
        other => {
            panic!("unknown variant {other} (gcn, gcn-flat, rdna3, rdna3-w64, rdna4-bvh8, file)")
        }
    };
    // `dump`: print the last run's statistics in full (to compare builds); `probe`: run without
    // the statistics, as the latency search's probes do (the ops issued or passed are the
    // wave-instructions).
    let mode = args.next();
    let dump = mode.as_deref() == Some("dump");
    let mut total = 0;
    let mut clocks = 0;
    if mode.as_deref() == Some("probe") {
        for _ in 0..n {
            let (c, work) = sim.probe_clocks_and_work().expect("runs");
            total += work;
            clocks = c;
        }
        println!("{which}: {n} runs, {total} wave-instructions, {clocks} clocks per run");
        return;
    }
    for _ in 0..n {
        let stats = sim.run().expect("runs");
        total += sim.wave_instructions(&stats);
        clocks = stats.clocks;
        if dump {
            println!("{stats:?}");
        }
    }
    println!("{which}: {n} runs, {total} wave-instructions, {clocks} clocks per run");
}
