//! Waves that differ (issue 18, part 1): per-wave branch probabilities and
//! iteration distributions, drawn from a seeded generator. Expected numbers
//! follow from the GCN model's rules, derived in comments.

use shadersim_arch::ArchSpec;
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::on_gcn as sim;

/// A branch that skips 100 VALU ops, then 100 more: a wave that takes it
/// runs 100, one that does not runs 200.
fn skip_kernel() -> String {
    format!(
        "s_cmp_eq_u32 s0, 0\ns_cbranch_scc1 .LSKIP\n{}.LSKIP:\n{}s_endpgm\n",
        "v_add_f32 v0, v1, v2\n".repeat(100),
        "v_add_f32 v3, v1, v2\n".repeat(100)
    )
}

const COMPUTE: &str = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 400\n";

#[test]
fn branch_probability_is_drawn_per_wave() {
    // GCN, wave64, VALU-bound at full occupancy: a wave of N VALU ops holds
    // its SIMD 4N clocks and the 4 SIMDs work in parallel, so the CU runs
    // 64 x 4 / (4N) threads per clock. probability = 1: every wave skips,
    // N = 100 -> 0.64; 0: N = 200 -> 0.32; 0.5: on average N = 150 ->
    // 0.4267 (within 3%: 400 waves' draws scatter the mean by about 1%).
    let text = skip_kernel();
    let run = |p: &str| {
        let h = format!("{COMPUTE}[[branch]]\nline = 2\nprobability = {p}\n");
        let s = sim(&text, &h);
        let a = s.analyse().unwrap();
        (a.stats.throughput_per_clock(), s)
    };
    let (t1, _) = run("1.0");
    let (t0, _) = run("0.0");
    let (th, s) = run("0.5");
    let within = |got: f64, want: f64, tol: f64| (got - want).abs() / want < tol;
    assert!(within(t1, 0.64, 0.03), "{t1}");
    assert!(within(t0, 0.32, 0.03), "{t0}");
    assert!(within(th, 64.0 * 4.0 / (150.0 * 4.0), 0.03), "{th}");
    // Two paths, both taken by some waves; the mean executions of the
    // skipped block are about half a time per wave.
    assert_eq!(s.wave_traces().len(), 2);
    let skipped = s.mean_executions()[2];
    assert!((skipped - 0.5).abs() < 0.1, "{skipped}");
}

#[test]
fn loop_iterations_drawn_from_a_range_or_a_geometric_distribution() {
    // A loop of one VALU op whose count is "4..16": uniform, mean 10 (400
    // waves: the mean's scatter is about 3.7 / 20 = 0.2).
    let text = "s_mov_b32 s0, 0\n.LOOP:\nv_add_f32 v0, v1, v2\ns_add_u32 s0, s0, 1\ns_cmp_lt_u32 s0, 16\ns_cbranch_scc1 .LOOP\ns_endpgm\n";
    let h = format!("{COMPUTE}[[loop]]\nlabel = \".LOOP\"\niterations = \"4..16\"\n");
    let s = sim(text, &h);
    let mean = s.mean_executions()[1];
    assert!((mean - 10.0).abs() < 0.6, "{mean}");
    // Both ends are drawn and nothing beyond: each of the 13 counts has
    // probability 1/13 per wave, so a 400-wave run misses one with
    // probability 13 x (12/13)^400, about 1e-13. An off-by-one at either end
    // (3..16, 4..15, 5..16, 4..17) moves the minimum or the maximum.
    let counts = |s: &Simulation| -> (u64, u64) {
        let c = s.wave_traces().iter().map(|t| t.executions[1]);
        (c.clone().min().unwrap(), c.max().unwrap())
    };
    assert_eq!(counts(&s), (4, 16));
    // Geometric, mean 8 capped at 32: E[min(K, 32)] = 8 (1 - (7/8)^32) =
    // 7.89.
    let h =
        format!("{COMPUTE}[[loop]]\nlabel = \".LOOP\"\niterations = {{ mean = 8.0, max = 32 }}\n");
    let s = sim(text, &h);
    let mean = s.mean_executions()[1];
    assert!((mean - 7.89).abs() < 0.8, "{mean}");
    // The cap is reached and never passed: P(K >= 32) = (7/8)^31 = 1.6 %
    // per wave, so 400 waves reach it with probability 1 - 0.984^400 =
    // 99.8 % (the draws are seeded: the run is the same every time); the
    // smallest count is 1 (P(K = 1) = 1/8).
    assert_eq!(counts(&s), (1, 32));
    // A bad range is an error at its position.
    let bad = format!("{COMPUTE}[[loop]]\nlabel = \".LOOP\"\niterations = \"16..4\"\n");
    let e = Simulation::prepare(
        &program(text),
        ArchSpec::builtin("gcn").unwrap(),
        &Hints::parse(&bad).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("low to high"), "{e}");
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let text = skip_kernel();
    let h = |seed: u64| {
        format!("{COMPUTE}[trace]\nseed = {seed}\n[[branch]]\nline = 2\nprobability = 0.3\n")
    };
    let a = sim(&text, &h(7)).run().unwrap();
    let b = sim(&text, &h(7)).run().unwrap();
    assert_eq!(a, b);
    let s7 = sim(&text, &h(7));
    let s8 = sim(&text, &h(8));
    assert_ne!(
        s7.trace_of_wave(),
        s8.trace_of_wave(),
        "another seed, other draws"
    );
}
