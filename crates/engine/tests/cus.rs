//! Several CUs side by side (issue 18, part 3): `[dispatch] cus = N`
//! simulates N compute units that share the rasterizer (waves dealt in
//! turn) and the export path (one server, arbitrated). Expected numbers
//! follow from the GCN model's rules (seed 004), derived in comments.

use shadersim_arch::ArchSpec;
use shadersim_engine::{SimStats, Simulation};
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::on_gcn as sim;

fn run(text: &str, hints: &str) -> SimStats {
    sim(text, hints).run().unwrap()
}

fn within(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() / want < tol
}

/// 64-pixel triangles: the rasterizer makes a 16-quad wave in 4 clocks; a
/// CU gets one every cu_count x 4 = 40 clocks (seed 004).
const PIXEL: &str = "[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 64.0\ncu_count = 10\n";

#[test]
fn an_export_bound_shader_reaches_the_worst_case_with_every_cu_simulated() {
    // Two 64-bit exports per wave. Seed 004's worst case: the shared path
    // exports a wave's 64 pixels in export_clocks_64bit = 4 clocks, and with
    // cu_count = 10 CUs using it each CU gets it every 40 clocks: 80 clocks
    // per wave per CU, 64 / 80 = 0.8 pixels per clock per CU (arrivals, one
    // every 40 clocks, are faster). One CU simulated assumes that; ten
    // simulated reach it by arbitration: the path is busy all the time and
    // each CU's exports come 40 clocks apart.
    let text = "v_mov_b32 v0, 1.0\nexp mrt0 v0, v0, v0, v0 compr vm\nexp mrt1 v0, v0, v0, v0 done compr vm\ns_endpgm\n";
    let one = run(text, &format!("{PIXEL}waves = 400\n"));
    let ten = run(text, &format!("{PIXEL}waves = 4000\ncus = 10\n"));
    let t1 = one.throughput_per_clock();
    let t10 = ten.throughput_per_clock();
    assert!(within(t1, 0.8, 0.03), "one CU (worst case assumed): {t1}");
    assert!(within(t10, 0.8, 0.03), "ten CUs (simulated): {t10}");
    assert!(
        ten.utilization("export") > 0.97,
        "{}",
        ten.utilization("export")
    );
    // Every CU did its share: 400 waves each, dealt in turn.
    assert_eq!(ten.cus, 10);
    assert!(ten.cu_waves.iter().all(|&w| w == 400), "{:?}", ten.cu_waves);
    // The bottleneck line names the shared path.
    let s = sim(text, &format!("{PIXEL}waves = 4000\ncus = 10\n"));
    let b = s.bottleneck(&ten, None);
    assert_eq!(b.kind, "export");
    assert!(
        b.statement.contains("shared by all 10 CUs"),
        "{}",
        b.statement
    );
}

#[test]
fn a_valu_heavy_shader_with_one_export_beats_the_worst_case() {
    // 100 VALU ops and one 64-bit export per wave, one wave per SIMD. A
    // wave issues its VALU ops 4 clocks apart (400 clocks), then the export;
    // s_endpgm waits for it. Worst case (one CU, the path assumed
    // saturated by 9 others): the export takes 4 x 10 = 40 clocks, a wave
    // lives 440 clocks plus 0 to 8 (up to two issue rotations of 4 clocks
    // to notice the end and start the next wave): 4 SIMDs x 64 / 448 =
    // 0.571 to 4 x 64 / 440 = 0.582 pixels per clock per CU, checked as
    // that window (3 % around its middle 444 would admit 0.56 to 0.59). Ten CUs simulated: their exports rarely meet
    // on the path (40 SIMDs x 4 clocks every ~410 clocks: 39% busy), an
    // export takes about 4 clocks, a wave about 404 + 4: 256 / 408 = 0.63.
    let text = format!(
        "{}exp mrt0 v0, v0, v0, v0 done compr vm\ns_endpgm\n",
        "v_add_f32 v0, v1, v0\n".repeat(100)
    );
    let hints = format!("{PIXEL}waves_per_simd = 1\n");
    let one = run(&text, &format!("{hints}waves = 200\n"));
    let ten = run(&text, &format!("{hints}waves = 2000\ncus = 10\n"));
    let (t1, t10) = (one.throughput_per_clock(), ten.throughput_per_clock());
    println!("worst case {t1:.4}, ten CUs {t10:.4}");
    assert!(
        (256.0 / 448.0..=256.0 / 440.0).contains(&t1),
        "worst case: {t1}"
    );
    assert!(within(t10, 256.0 / 408.0, 0.03), "ten CUs: {t10}");
    assert!(t10 > 1.05 * t1, "{t10} vs {t1}");
}

#[test]
fn cus_is_checked_against_the_cus_that_share_the_path() {
    let e = Simulation::prepare(
        &program("s_endpgm\n"),
        ArchSpec::builtin("gcn").unwrap(),
        &Hints::parse(&format!("{PIXEL}cus = 11\n")).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("between 1 and cu_count (10)"), "{e}");
}

#[test]
fn compute_groups_spread_over_the_cus() {
    // VALU-bound compute: 50 VALU ops per wave, 4 SIMDs per CU each
    // finishing a wave every 200 clocks at full occupancy. Two CUs do twice
    // the work in the same time: the throughput per CU stays 64 x 4 / 200 =
    // 1.28 threads per clock.
    let text = "v_add_f32 v0, v1, v0\n".repeat(50) + "s_endpgm\n";
    let h = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\n";
    let one = run(&text, &format!("{h}waves = 400\n"));
    let two = run(&text, &format!("{h}waves = 800\ncus = 2\n"));
    assert!(within(one.throughput_per_clock(), 1.28, 0.03));
    assert!(within(two.throughput_per_clock(), 1.28, 0.03));
    assert_eq!(two.cu_waves, vec![400, 400]);
    for cu in 0..2 {
        let u = two.cu_utilization(cu, "valu").unwrap();
        assert!(u > 0.95, "CU {cu}: {u}");
    }
}

#[test]
fn every_model_shares_its_export_path_among_cu_count_cus() {
    // Seed 004's export path serves cu_count CUs; every model with an
    // export unit says so, so `cus` shares it on each of them.
    for (name, _) in shadersim_arch::BUILTIN {
        let arch = ArchSpec::builtin(name).unwrap();
        if let Some(u) = arch.units.get("export") {
            assert_eq!(u.shared.as_deref(), Some("cu_count"), "{name}");
        }
    }
}
