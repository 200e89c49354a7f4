//! Lane divergence (issue 18, part 2): `[[branch]] lane_probability`. A
//! wave whose lanes disagree runs both sides of the compiler's masked
//! if/else; its VMEM ops cost what the coalescing rules give for the
//! active lanes. Expected numbers follow from the GCN model's rules,
//! derived in comments.

use shadersim_arch::ArchSpec;
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::on_gcn as sim;

/// LLVM's divergent if/else: the compare (line 1), the mask and the skip
/// over the then-side (line 4), 100 VALU ops (lines 5..104), the else flip
/// and its skip (lines 105..108), 100 VALU ops (109..208), the join.
fn if_else_kernel() -> String {
    format!(
        "v_cmp_gt_f32 vcc, v0, v1\ns_and_saveexec_b64 s[0:1], vcc\ns_xor_b64 s[0:1], exec, s[0:1]\ns_cbranch_execz .LELSE\n{}.LELSE:\ns_or_saveexec_b64 s[0:1], s[0:1]\ns_xor_b64 exec, exec, s[0:1]\ns_cbranch_execz .LEND\n{}.LEND:\ns_or_b64 exec, exec, s[0:1]\ns_endpgm\n",
        "v_add_f32 v2, v1, v3\n".repeat(100),
        "v_mul_f32 v2, v1, v3\n".repeat(100)
    )
}

const COMPUTE: &str = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 400\n";

fn within(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() / want < tol
}

#[test]
fn divergent_lanes_run_both_sides_and_coherent_waves_one() {
    // GCN wave64, VALU-bound at full occupancy: a wave of N VALU ops holds
    // its SIMD 4N clocks, the 4 SIMDs work in parallel: 64 x 4 / (4N)
    // threads per clock per CU. N counts the compare too.
    // lane_probability = 0.5: a side is skipped only when none of the 64
    // lanes is on it (2^-64): both sides run, N = 201 -> 0.3184.
    // probability = 0.5 (whole wave): half the waves skip the then-side,
    // the else flip's skip is not hinted (not taken): N = 151 on average
    // -> 0.4238. probability = 1: N = 101 -> 0.6337.
    let text = if_else_kernel();
    let run = |key: &str| {
        let s = sim(&text, &format!("{COMPUTE}[[branch]]\nline = 4\n{key}\n"));
        let t = s.run().unwrap().throughput_per_clock();
        (t, s)
    };
    let (lane, s) = run("lane_probability = 0.5");
    assert!(within(lane, 256.0 / (4.0 * 201.0), 0.03), "{lane}");
    let ex = s.mean_executions();
    assert!((ex[4] - 1.0).abs() < 1e-9 && (ex[108] - 1.0).abs() < 1e-9);
    let (half, _) = run("probability = 0.5");
    assert!(within(half, 256.0 / (4.0 * 151.0), 0.03), "{half}");
    let (one, _) = run("probability = 1.0");
    assert!(within(one, 256.0 / (4.0 * 101.0), 0.03), "{one}");

    // Lanes: each lane draws, so a then-side op runs on 32 lanes on average
    // (400 waves x 64 draws: the mean scatters by 4 / 20 = 0.2), the
    // else-side op on the rest; the compare on all 64.
    let f = s.lanes().expect("lane figures");
    assert!(
        (f.mean_active[4] - 32.0).abs() < 1.0,
        "{}",
        f.mean_active[4]
    );
    let sum = f.mean_active[4] + f.mean_active[108];
    assert!((sum - 64.0).abs() < 1e-9, "{sum}");
    assert_eq!(f.mean_active[0], 64.0);
    // Utilization: every VALU op costs 4 clocks; the compare uses 64 lanes,
    // each then/else pair 64 between them: (1 + 100) x 64 over 201 x 64.
    assert!(
        (f.utilization - 101.0 / 201.0).abs() < 1e-9,
        "{}",
        f.utilization
    );
}

#[test]
fn lane_draws_repeat_with_the_seed() {
    let text = if_else_kernel();
    let h = |seed: u64| {
        format!("{COMPUTE}waves = 40\n[trace]\nseed = {seed}\n[[branch]]\nline = 4\nlane_probability = 0.3\n")
            .replace("waves = 400\n", "")
    };
    let a = sim(&text, &h(3));
    let b = sim(&text, &h(3));
    assert_eq!(a.run().unwrap(), b.run().unwrap());
    assert_eq!(a.lanes(), b.lanes());
    let c = sim(&text, &h(4));
    assert_ne!(a.lanes(), c.lanes(), "another seed, other lanes");
}

#[test]
fn lane_probability_needs_a_branch_on_exec() {
    // A uniform branch (SCC) cannot split lanes: an error at the key.
    let text = "s_cmp_eq_u32 s0, 0\ns_cbranch_scc1 .L\nv_add_f32 v0, v1, v2\n.L:\ns_endpgm\n";
    let hints = format!("{COMPUTE}[[branch]]\nline = 2\nlane_probability = 0.5\n");
    let e = Simulation::prepare(
        &program(text),
        ArchSpec::builtin("gcn").unwrap(),
        &Hints::parse(&hints).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("branch on EXEC"), "{e}");
    let bad = format!("{COMPUTE}[[branch]]\nline = 4\nlane_probability = 1.5\n");
    let e = Simulation::prepare(
        &program(&if_else_kernel()),
        ArchSpec::builtin("gcn").unwrap(),
        &Hints::parse(&bad).unwrap(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("between 0 and 1"), "{e}");
}

#[test]
fn a_sample_with_half_its_lanes_masked_costs_its_active_quads() {
    // Seed 001: an image op is served in groups of 4 lanes (a quad); a
    // group with no active lane is skipped, so a wave costs the full
    // rate x active quads / 16. rgba32f bilinear: 64 clocks per wave, 4 per
    // quad. lane_probability = 0.5 masks each lane with probability 1/2: a
    // quad is empty with probability 1/16, so a sample costs 64 x 15/16 =
    // 60 clocks on average. Four samples per wave on the one texture path,
    // sample-bound: 4 x 64 = 256 clocks per wave with every lane, 240 with
    // half of them masked.
    let mut body = String::new();
    let mut mem = String::new();
    for i in 0..4 {
        body += &format!(
            "image_sample v[{}:{}], v[0:1], s[0:7], s[8:11] dmask:0xf\n",
            4 + 4 * i,
            7 + 4 * i
        );
        mem += &format!(
            "[[memory]]\nline = {}\nformat = \"rgba32f\"\nfilter = \"bilinear\"\n",
            i + 4
        );
    }
    let text = format!(
        "v_cmp_gt_f32 vcc, v0, v1\ns_and_saveexec_b64 s[0:1], vcc\ns_cbranch_execz .LEND\n{body}s_waitcnt vmcnt(0)\n.LEND:\ns_or_b64 exec, exec, s[0:1]\nexp mrt0 v4, v4, v5, v5 done compr vm\ns_endpgm\n"
    );
    let base =
        format!("[dispatch]\nstage = \"pixel\"\npixels_per_triangle = 64.0\nwaves = 300\n{mem}");
    let full = sim(&text, &base).run().unwrap();
    let masked_sim = sim(
        &text,
        &format!("{base}[[branch]]\nline = 3\nlane_probability = 0.5\n"),
    );
    let masked = masked_sim.run().unwrap();
    let per_wave = |s: &shadersim_engine::SimStats| s.clocks as f64 / f64::from(s.waves);
    // The masked cost is random: a sample's active quads vary with sd
    // sqrt(16 x 1/16 x 15/16) = 0.97 quads = 3.9 clocks, 7.8 per wave of 4
    // samples, 0.45 clocks for the mean of 300 waves. Windows of 1 % (2.6
    // and 2.4 clocks, over 5 sd) cannot overlap, and the saving itself is
    // checked: 16 clocks per wave, within 4 (a 2 % effect, 5 clocks, fails).
    let (f, m) = (per_wave(&full), per_wave(&masked));
    println!("per wave: full {f:.2}, masked {m:.2}");
    assert!(within(f, 256.0, 0.01), "{f}");
    assert!(within(m, 240.0, 0.01), "{m}");
    assert!((f - m - 16.0).abs() < 4.0, "saving {}", f - m);
    // The compiled costs: each masked sample costs 4 clocks per active quad.
    // A mask leaving every quad active costs the full 64, and is an op of its
    // own only because its active lanes read fewer texel lines (the default
    // screen-space footprint follows the active lanes).
    let masked_ops: Vec<_> = masked_sim
        .ops()
        .filter(|o| o.masked_from().is_some())
        .collect();
    assert!(masked_ops.iter().any(|o| o.cost() < 64));
    for op in masked_ops {
        assert_eq!(op.cost() % 4, 0, "{}", op.cost_basis());
        assert!(op.cost() <= 64, "{}", op.cost_basis());
    }
}
