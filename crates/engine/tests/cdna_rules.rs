//! The CDNA 2/3 models (crates/arch/data/cdna2.toml, cdna3.toml) and the matrix table
//! (crates/isa/data/matrix_shapes.tsv, from AMD's matrix instruction calculator): occupancy of
//! the unified VGPR+AGPR file against the compiler's own figure, the matrix core per SIMD with
//! its per-shape cycles and dependency rule, the matrix-core verdict, and RDNA 3/4's WMMA per
//! shape. Every expected number is derived in a comment from the models' data.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_bytes, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_testkit::fixtures::Manifest;
use shadersim_testkit::program_for as program;
use shadersim_testkit::sim::prepare;
use shadersim_trace::Hints;
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn fixture_program(path: &str, target: &str) -> shadersim_asm::Program {
    let bytes = std::fs::read(fixtures_dir().join(path)).unwrap();
    let opts = ReadOptions {
        target: Some(target.parse().unwrap()),
        ..Default::default()
    };
    read_program_bytes(path, &bytes, &opts)
        .unwrap_or_else(|e| panic!("{e}"))
        .programs
        .remove(0)
}

/// `text` read for `target`, on `model`.
fn sim_on(model: &str, target: &str, text: &str, hints: &str) -> Simulation {
    prepare(
        &program(target, text),
        shadersim_testkit::sim::model(model, &[]),
        hints,
    )
}

fn one_wave(wave_size: u32) -> String {
    format!("[dispatch]\nstage = \"compute\"\nworkgroup_size = {wave_size}\nwaves = 1\nwave_size = {wave_size}\n")
}

fn repeat(line: &str, n: usize) -> String {
    format!("{line}\n").repeat(n)
}

#[test]
fn occupancy_equals_the_compilers_for_every_cdna_fixture() {
    // The unified file (L-BI getTotalNumVGPRs / getVGPRAllocGranule): a wave takes its
    // architectural VGPRs rounded up to 4, then its AGPRs (.amdhsa_next_free_vgpr holds that
    // total), rounded up to the granule of 8, out of 512 per SIMD; at most 8 waves per SIMD.
    // mfma_gemm (82) -> 88 -> 512 / 88 = 5; mfma_gemm_agpr on gfx90a (accum_offset 256 + 50
    // AGPRs = 306) -> 312 -> 1; 30 or fewer registers -> 8 (the slots). The compiler's
    // `; Occupancy:` says the same for each.
    let manifest = Manifest::load();
    let mut checked = 0;
    for f in manifest
        .fixture
        .iter()
        .filter(|f| f.target == "gfx90a" || f.target == "gfx942")
    {
        let p = fixture_program(&f.path, &f.target);
        let target: shadersim_isa::Target = f.target.parse().unwrap();
        let arch = ArchSpec::for_target(&target).unwrap();
        assert_eq!(
            arch.name,
            if f.target == "gfx90a" {
                "cdna2"
            } else {
                "cdna3"
            }
        );
        let sim = Simulation::prepare(&p, arch, &Hints::default()).unwrap();
        let compiler = f.occupancy.expect("llvm fixtures record the occupancy");
        assert_eq!(p.declared.occupancy, Some(compiler), "{}", f.path);
        assert_eq!(
            sim.occupancy().waves_per_simd,
            compiler,
            "{}: {} registers allocated",
            f.path,
            sim.occupancy().vgprs_allocated
        );
        checked += 1;
    }
    // 5 kernels on gfx90a, 7 on gfx942 (mfma_fp8 and step_relax too).
    assert_eq!(checked, 12);
}

#[test]
fn an_mfma_takes_the_valu_issue_and_its_simds_matrix_core_for_its_cycles() {
    // cdna2: v_mfma_f32_32x32x8f16 is 64 cycles (16 passes, MIC cdna2): the VALU for its
    // co-execution delay of 4 (MIC coexec_delay), the matrix core 64, result ready 64 after issue. cdna3 runs the
    // same multiply (gfx942 spelling) in 32 cycles; gfx90a's spelling on cdna3 is found by its
    // shape. 2 x 32 x 32 x 8 = 16384 operations either way.
    let line = "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]\ns_endpgm\n";
    for (model, target, line, cycles) in [
        ("cdna2", "gfx90a", line, 64),
        ("cdna3", "gfx90a", line, 32),
        (
            "cdna3",
            "gfx942",
            "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]\ns_endpgm\n",
            32,
        ),
    ] {
        let s = sim_on(model, target, line, &one_wave(64));
        let op = s.op(s.op_of_instruction(0));
        assert_eq!(op.cost(), 4, "{model}");
        assert_eq!(op.also_unit(), Some(("matrix", cycles)), "{model}");
        assert_eq!(op.result_delay(), cycles, "{model}");
        assert!(
            op.cost_basis().contains("16384 operations"),
            "{}",
            op.cost_basis()
        );
    }
}

#[test]
fn dependent_and_back_to_back_mfmas_wait_for_the_producers_cycles() {
    // One wave64 on cdna2 (issue_interval 4: its SIMD's turn every 4 clocks, from clock 0).
    // Ten MFMAs accumulating into v[0:15]: each waits for the previous one's 64 cycles (the
    // matrix core is busy that long, and its result is ready then): issues at 0, 64, ..., 576;
    // the last result at 640. The wave ends when its last result is written (s_endpgm issues
    // free): 640 clocks. Ten independent ones (distinct accumulators) end at the same
    // clock: one matrix core per SIMD serializes them as much.
    let chain = repeat(
        "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]",
        10,
    ) + "s_endpgm\n";
    let mut independent = String::new();
    for i in 0..10 {
        let d = 20 + 16 * i;
        independent += &format!(
            "v_mfma_f32_32x32x8f16 v[{d}:{}], v[16:17], v[18:19], v[{d}:{}]\n",
            d + 15,
            d + 15
        );
    }
    independent += "s_endpgm\n";
    let clocks = |text: &str| {
        sim_on("cdna2", "gfx90a", text, &one_wave(64))
            .run()
            .unwrap()
            .wave_clocks()
    };
    let dependent = clocks(&chain);
    assert_eq!(dependent, 640.0);
    assert_eq!(clocks(&independent), dependent);
    // A VALU op reading the accumulator waits for it (64 clocks after the MFMA issued); one
    // that does not issues on the SIMD's next turn (4 clocks later) while the matrix core works.
    let reads = "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]\nv_add_f32 v20, v0, v1\ns_endpgm\n";
    let free = "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]\nv_add_f32 v20, v21, v22\ns_endpgm\n";
    // The reader ends 4 clocks (its own VALU op) after the result at 64; the other at 64.
    assert_eq!(clocks(reads) - clocks(free), 4.0);
}

#[test]
fn the_gemm_tile_is_matrix_core_bound_on_cdna2() {
    // mfma_gemm on gfx90a, 40 workgroups of 4 waves, its K loop (line 99) run 64 times, flat
    // memory latencies (the seed's model: with the cache hierarchy this kernel, which streams
    // its operands with no reuse, is DRAM-bound, and the report says so). Per loop iteration a
    // wave issues 4 x v_mfma_f32_32x32x8f16 (64 cycles each, MIC cdna2) and 1 x
    // v_mfma_f32_16x16x16f16 (32): 288 matrix-core clocks, 4 x 16384 + 8192 = 73728
    // operations; 64 iterations: 18432 clocks and 4718592 operations per wave. One matrix
    // core per SIMD, 4 SIMDs: the matrix bound is 18432 / 4 = 4608 CU clocks per wave.
    let path = "llvm/gfx90a/mfma_gemm.s";
    let p = fixture_program(path, "gfx90a");
    let hints =
        Hints::parse("[dispatch]\nwaves = 40\n[[loop]]\nline = 99\niterations = 64\n").unwrap();
    let mut arch = ArchSpec::builtin("cdna2").unwrap();
    arch.set("memory", "flat").unwrap();
    let sim = Simulation::prepare(&p, arch, &hints).unwrap();
    let stats = sim.run().unwrap();
    let m = sim.matrix_cores(&stats).unwrap();
    assert_eq!(m.ops_per_wave, 5.0 * 64.0);
    assert_eq!(m.busy_clocks_per_wave, 18432.0);
    assert_eq!(m.flops_per_wave, 4718592.0);
    // Utilization: 160 waves x 18432 busy clocks over the run's clocks x 4 matrix cores.
    let waves = 40.0 * 4.0;
    let expected = waves * 18432.0 / (stats.clocks as f64 * 4.0);
    assert!(
        (m.utilization - expected).abs() < 1e-9,
        "{} vs {expected}",
        m.utilization
    );
    // The mix's peak: 4 SIMDs x 73728 operations / 288 clocks = 1024 per clock per CU (MI250X's
    // 383 TFLOPS FP16 / 220 CUs / 1.7 GHz); achieved = utilization x peak.
    assert_eq!(m.peak_flops_per_clock_per_cu, 1024.0);
    assert!((m.flops_per_clock_per_cu - 1024.0 * expected).abs() < 1e-6);
    // The verdict: the matrix bound (4608 clocks per wave) explains at least 90% of the
    // simulated clocks per wave, so utilization >= 0.9.
    let b = sim.bottleneck(&stats, None);
    assert_eq!(b.kind, "matrix-core", "{}", b.statement);
    assert!(
        b.statement
            .starts_with("matrix-core-bound: 18432 clocks of matrix work per wave over 4"),
        "{}",
        b.statement
    );
    let matrix = b.bounds.iter().find(|r| r.resource == "matrix").unwrap();
    assert_eq!(matrix.clocks_per_wave, 4608.0);
    assert!(m.utilization >= 0.9, "{}", m.utilization);
}

#[test]
fn wmma_costs_follow_the_shape_on_rdna3_and_rdna4() {
    // Ten accumulating WMMAs of one wave32: the VALU holds the SIMD each op's cycles (matrix
    // table, MIC rdna3/rdna4) and the next reads the result, so the last ends at 10 x cycles.
    // RDNA 3: f16 and iu8 32, iu4 16. RDNA 4: f16 16, iu8 8.
    let cases = [
        (
            "rdna3",
            "gfx1100",
            "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
            320.0,
        ),
        (
            "rdna3",
            "gfx1100",
            "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7]",
            320.0,
        ),
        (
            "rdna3",
            "gfx1100",
            "v_wmma_i32_16x16x16_iu4 v[0:7], v[8:9], v[10:11], v[0:7]",
            160.0,
        ),
        (
            "rdna4",
            "gfx1200",
            "v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]",
            160.0,
        ),
        (
            "rdna4",
            "gfx1200",
            "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:9], v[10:11], v[0:7]",
            80.0,
        ),
    ];
    for (model, target, line, end) in cases {
        let s = sim_on(
            model,
            target,
            &(repeat(line, 10) + "s_endpgm\n"),
            &one_wave(32),
        );
        let clocks = s.run().unwrap().wave_clocks();
        assert_eq!(clocks, end, "{model} {line}");
    }
}

/// A workgroup of one wave holding all 64 KiB of a CU's LDS (AMD's yAx exercise 2 stages 8192
/// doubles of x) runs: one workgroup per CU, which is fewer waves than the CU has SIMDs.
/// cdna2: lds_bytes_per_cu 65536 / 65536 per group = 1 group x 1 wave = 1 wave over 4 SIMDs,
/// 0.25 per SIMD; the rule clamps to 1 (LLVM never reports fewer than one wave per EU for a
/// group that fits), and dispatch admits a second group only when its LDS fits (never here).
#[test]
fn a_workgroup_that_fills_the_lds_runs_one_per_cu() {
    use shadersim_engine::{Limiter, Occupancy, ResourceUsage};
    let usage = |lds_bytes| ResourceUsage {
        vgprs: 104,
        sgprs: 10,
        sgprs_declared: false,
        lds_bytes,
        wave_size: 64,
        waves_per_group: 1,
    };
    let arch = ArchSpec::builtin("cdna2").unwrap();
    let full = Occupancy::for_usage(&arch, &usage(65536), None).unwrap();
    assert_eq!((full.waves_per_simd, full.limiter), (1, Limiter::Lds));
    // One byte more fits no workgroup at all: still refused.
    assert!(Occupancy::for_usage(&arch, &usage(65537), None).is_err());
}
