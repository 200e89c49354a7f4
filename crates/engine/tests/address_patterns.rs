//! Address patterns read from the code (issue 33 item 3) reach the caches: the 1D convolution
//! `acc += in[gid + t] * w[t]` (tests/fixtures/src/opencl/conv1d.cl, clang-22 for gfx900)
//! reuses its input lines from one tap to the next, which the default grid-stride iteration
//! stride hid. Cache facts of the gfx900 model (crates/arch/data/gcn.toml's [cache]): a 16 KB
//! 4-way vector L1 of 64-byte lines, a 4 MB L2, then DRAM; each request is one line.

use shadersim_asm::{read_program_text, Program, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_testkit::sim::model;

const CONV: &str = include_str!("../../../tests/fixtures/llvm/gfx900/conv1d.s");

fn conv1d() -> Program {
    read_program_text("conv1d.s", CONV, &ReadOptions::default())
        .unwrap()
        .programs
        .into_iter()
        .find(|p| p.name == "conv1d")
        .unwrap()
}

/// The conv1d kernel on the gfx900 model with `hints`.
fn prepare(hints: &str) -> Simulation {
    shadersim_testkit::sim::prepare(&conv1d(), model("gfx900", &[]), hints)
}

/// 100 waves of 64 work-items; the tap loop (header line 28) runs 64 times.
const HINTS: &str = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 100\n\
                     [[loop]]\nline = 28\niterations = 64\n";

#[test]
fn the_convolution_hits_its_own_input_lines() {
    // Line 29 is `global_load_dword v0, v[4:5], off`, `in[gid + t]`: by its code lanes 4 B
    // apart (4 lines of 64 B per execution), waves 256 B apart, taps 4 B apart. Wave w's
    // execution k asks for the lines 4w + j + floor(k / 16), j = 0..3: over its 64 taps 7
    // distinct lines (4w .. 4w + 6), so at most 100 x 7 = 700 of its 100 x 64 x 4 = 25,600
    // requests miss the L1 (a wave's few lines are never evicted from a 256-line L1 between
    // its neighbouring taps): at least 24,900 hits, 97.3%.
    let sim = prepare(HINTS);
    let s = sim.run().unwrap();
    let load = &s.op_cache[sim.op_of_instruction(sim.program().indices_at_line(29)[0])];
    assert_eq!(load.requests, 25_600);
    assert!(load.first_level_hits >= 24_900, "{load:?}");
    // The old default, footprint x waves (256 x 100 = 25,600 bytes per tap: a grid-stride
    // loop never revisiting), given as a hint (hints win per key): every request a fresh
    // line, 0 hits.
    let old = prepare(&format!(
        "{HINTS}[[memory]]\nline = 29\niteration_stride = 25600\n"
    ));
    let so = old.run().unwrap();
    let load = &so.op_cache[old.op_of_instruction(old.program().indices_at_line(29)[0])];
    assert_eq!((load.requests, load.first_level_hits), (25_600, 0));
}

#[test]
fn the_verdict_follows_the_reuse() {
    // With the old default every tap's 4 lines come from DRAM: 64 x 4 + 4 (the store) = 260
    // lines = 16,640 bytes per wave, at the gfx900 model's 4.89 bytes per clock per CU 3,400
    // clocks per wave, more than any unit needs: DRAM bandwidth-bound. With the derived
    // stride at most 7 + 4 = 11 lines (704 bytes, 144 clocks) per wave reach DRAM, less
    // than the issue work of the 64 taps: no longer DRAM-bound. (Plus the scalar loads' lines,
    // read once for all waves: the 64 taps of `w`, 256 bytes = 4 lines, and the kernel
    // arguments' line.)
    let old = prepare(&format!(
        "{HINTS}[[memory]]\nline = 29\niteration_stride = 25600\n"
    ));
    let a = old.analyse().unwrap();
    assert_eq!(
        a.bottleneck.kind, "DRAM bandwidth",
        "{}",
        a.bottleneck.statement
    );
    let new = prepare(HINTS);
    let a = new.analyse().unwrap();
    assert_ne!(
        a.bottleneck.kind, "DRAM bandwidth",
        "{}",
        a.bottleneck.statement
    );
    let dram = a.stats.cache.iter().find(|l| l.name == "dram").unwrap();
    assert!(dram.bytes <= 100 * 11 * 64 + 5 * 64, "{dram:?}");
}
