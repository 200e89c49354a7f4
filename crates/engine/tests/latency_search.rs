//! The latency-tolerance search (latency.rs): its answer meets the
//! precision it promises, its early-stopped probes give the verdicts full
//! runs give, and its answer does not depend on the thread count.

use shadersim_arch::ArchSpec;
use shadersim_engine::analysis::latency::{
    search, Probe, SearchBudget, SearchEnd, SearchPlan, Threshold, DEFAULT_PRECISION, SEARCH_LIMIT,
};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

use shadersim_testkit::program;
use shadersim_testkit::sim::{flat_model, prepare};

/// GCN in flat-latency mode (every VMEM op `vmem_latency`, as in
/// rules.rs) with `vmem_latency` = `latency`.
/// `text` (gfx900) on GCN with flat `latency`-clock vector memory.
fn sim(text: &str, hints: &str, latency: u32) -> Simulation {
    prepare(&program(text), flat_model("gcn", latency, &[]), hints)
}

/// One compute wave; its sample (line 1) trilinear, as the derivations below take it (a
/// compute kernel's sample would default to bilinear).
const ONE_WAVE: &str = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 1\n[[memory]]\nline = 1\nfilter = \"trilinear\"\n";

/// A sample, `n` independent VALU ops, a wait for the sample, one more
/// VALU op.
fn sample_then_valu(n: usize) -> String {
    "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\n".to_string()
        + &"v_add_f32 v10, v11, v12\n".repeat(n)
        + "s_waitcnt vmcnt(0)\nv_add_f32 v0, v1, v2\ns_endpgm\n"
}

/// Precision promise on a curve whose throughput falls monotonically: the
/// answer passes and lies at most `max(1, answer / 64)` below the truth,
/// or it already loses at least 4% (it took `clocks`, within the line band
/// of `th`).
fn within_promise(th: &Threshold, answer: u64, clocks: u64, truth: u64) -> bool {
    answer <= truth
        && th.passes_clocks(clocks)
        && (truth - answer < (answer / 64).max(1) || th.near_line(clocks))
}

// The program of the two tests below (rules.rs, waitcnt_after_a_sample...):
// one wave; the sample issues at clock 0, costs 32 clocks of service
// (rgba8 trilinear), then the latency L: vmcnt falls at 32 + L. The 100
// VALU ops issue at turns 4, 8, ..., 400; the wait's turn is 404 and it
// passes at the first turn (a multiple of 4) at or after both 404 and
// 32 + L; the last VALU op issues at the next turn and the wave ends 4
// clocks later:
//   clocks(L) = max(404, 4 * ceil((32 + L) / 4)) + 8.
// Base (L = 0): 412 clocks. 95% of its throughput (64 threads / 412)
// allows at most 433 clocks (64/433 >= 0.95 * 64/412 > 64/434), so
// max(404, 4 * ceil((32 + L) / 4)) <= 425, i.e. 32 + L <= 424: the
// tolerance is L = 392 (L = 393 takes 436 clocks). Up to L = 372 the
// VALU work hides the latency (412 clocks), then every clock of latency
// adds one: the 100 VALU ops of independent work between the load and
// its wait (400 clocks of issue) hide it, less the sample's service.
const KNOWN_TOLERANCE: u64 = 392;

/// The clocks of the program above at latency `l`, by the formula.
fn known_clocks(l: u64) -> u64 {
    (4 * (32 + l).div_ceil(4)).max(404) + 8
}

#[test]
fn the_default_bracket_holds_a_known_tolerance_and_both_ends_are_simulated() {
    let text = sample_then_valu(100);
    let probe = |l: u64| sim(&text, ONE_WAVE, l as u32).run().unwrap().clocks;
    for l in [0, 372, 373, 392, 393, 401] {
        assert_eq!(probe(l), known_clocks(l), "latency {l}");
    }
    let th = Threshold::from_counts(64, 1, 412);
    assert_eq!(th.max_passing_clocks(), 433);
    for model_latency in [0u64, 320, 1000] {
        let s = sim(&text, ONE_WAVE, model_latency as u32);
        let l = s.latency_tolerance(&s.run().unwrap()).unwrap().unwrap();
        // The estimate (latency_estimate): one exposure per wave (the wait
        // after the sample; nothing is outstanding at the end), its 32
        // clocks of service, one wave per slot (g = 1), so the slope is 1:
        // the upper estimate (433 / 1 - 32) / 1 = 401 (the wave's 8 clocks
        // after the wait add to the chain: the truth is 392), and the
        // no-slack one (433 - 412) / 1 = 21, the smaller (this wave's 100
        // VALU ops give the sample 372 clocks of slack, which it ignores).
        assert_eq!(l.estimate, Some(21), "model {model_latency}");
        // Both ends are simulation results: the passing end passes and
        // the failing end fails, and they hold the known tolerance.
        let lo = l.clocks.unwrap();
        assert!(th.passes_clocks(probe(lo)), "{lo} (model {model_latency})");
        assert!(lo <= KNOWN_TOLERANCE, "{lo} (model {model_latency})");
        let hi = l.fails_at.unwrap();
        assert!(!th.passes_clocks(probe(hi)), "{hi} (model {model_latency})");
        assert!(hi > KNOWN_TOLERANCE, "{hi} (model {model_latency})");
        // Within the budget: three runs of work (a run: the program's
        // ops, all of them for a probe that finished).
        assert_eq!(l.budget_runs, Some(3.0));
        assert!(
            l.work_runs <= 3.0,
            "{} (model {model_latency})",
            l.work_runs
        );
        assert_eq!(l.parameter, "vmem_latency");
        assert_eq!(l.zero_latency_throughput, 64.0 / 412.0);
    }
    // The bracket derived from the rule (search.rs, `budgeted`), with the
    // model at 1000: the main run (1040 clocks) fails, a free probe on the
    // rising part. In flat-latency mode the search runs the base (412
    // clocks) itself, one run of the three. The pass limit is 433, so the
    // margin one exposure adds is 21 clocks; the model's slope is 1 (one
    // exposure of one wave).
    // Round 1, bracket [0, 1000], two runs left: one point above the
    // limit. The chord from the base through it crosses the limit at
    // 1000 x 21 / 628 = 33.44, the model's slope back from it at
    // 1000 - (1040 - 433) = 393; their geometric mean predicts 114.6.
    // With a run left for a pass after it (2 - 0.8 >= 1), the round bets
    // on a fail 1.2 times above: 137.6, rounded 138. It passes (412
    // clocks, no rise): one run.
    // Round 2, [138, 1000], one run left: the chord is now below the
    // passing end, so the prediction is the geometric mean of 139 (the
    // passing end + 1) and 393: 233.7. The last probe takes the bet whose
    // win leaves the narrower bracket: a fail at 1.2 x 233.7 = 280.5 (ends
    // 280.5 / 138 = 2.03 apart) against a pass at 233.7 / 1.3 = 179.8,
    // raised to 1000 / 4 = 250 (ends 4 apart): the fail, at 280. It
    // passes (4 x ceil(312 / 4) = 312, below 404: 412 clocks). The budget
    // is spent: [280, 1000] (the truth, 392, inside).
    let s = sim(&text, ONE_WAVE, 1000);
    let l = s.latency_tolerance(&s.run().unwrap()).unwrap().unwrap();
    assert_eq!((l.clocks, l.fails_at), (Some(280), Some(1000)));
    assert_eq!(l.end, SearchEnd::Budget);
    assert_eq!((l.runs, l.work_runs), (3, 3.0));
    assert_eq!(
        l.curve.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0, 138, 280, 1000]
    );
    // With the model at 0 the main run is the base (412 clocks) and all
    // three runs go to probes. Round 1: no point yet, so the probe goes to
    // the geometric middle of the no-slack estimate (21 / 1 = 21) and the
    // one-exposure bound (21): 21. It passes (412 clocks), one run.
    // Round 2, [21, none], nothing rising and the bound passed: the upper
    // estimate, 401 (kept below it: 400), with a run left for a pass after
    // a fail (2 - 0.8 >= 1): a fail bet at 1.2 x 400 = 480. It fails (520
    // clocks): stopped at the pass limit, 433, when the wave had issued
    // the sample and the 100 VALU ops (its wait passes at 512) of the 103
    // ops a run issues or passes: 101 / 103 = 0.9806 of a run, which puts
    // its clocks at 433 / 0.9806 = 441.6. Round 3, [21, 480], 1.019 runs
    // left: one point above the limit; the chord from the base crosses it
    // at 480 x 21 / 29.6 = 340.9, the model's slope back from the point
    // at 480 - 8.6 = 471.4, their geometric mean 400.9. A fail 1.2 times
    // above (481) lies past the failing end, so the round bets on a pass
    // 1.3 times below: 308.4 (above 480 / 4), 308, which passes (412
    // clocks). The budget is spent: [308, 480], 1.56 times apart.
    let s = sim(&text, ONE_WAVE, 0);
    let l = s.latency_tolerance(&s.run().unwrap()).unwrap().unwrap();
    assert_eq!((l.clocks, l.fails_at), (Some(308), Some(480)));
    assert_eq!(l.end, SearchEnd::Budget);
    assert_eq!(l.runs, 3);
    assert!(
        (l.work_runs - (2.0 + 101.0 / 103.0)).abs() < 1e-6,
        "{}",
        l.work_runs
    );
    assert_eq!(
        l.curve.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0, 21, 308]
    );
}

#[test]
fn a_precision_buys_a_tighter_bracket_on_the_known_program() {
    let text = sample_then_valu(100);
    let th = Threshold::from_counts(64, 1, 412);
    for model_latency in [0u64, 320, 1000] {
        let mut s = sim(&text, ONE_WAVE, model_latency as u32);
        s.set_latency_budget(SearchBudget::precise(DEFAULT_PRECISION));
        let l = s.latency_tolerance(&s.run().unwrap()).unwrap().unwrap();
        let answer = l.clocks.unwrap();
        let fails_at = l.fails_at.unwrap();
        assert!(fails_at > answer && !th.passes_clocks(known_clocks(fails_at)));
        assert!(
            within_promise(&th, answer, known_clocks(answer), KNOWN_TOLERANCE),
            "{answer} (model {model_latency})"
        );
        assert!(l.end.precise() && l.budget_runs.is_none());
        // Without a budget this is the search before budgets, started
        // from the estimate (401 and a stopping width below) instead of a
        // probe at 192: from a main run at 1000 the chord through it still
        // takes it there in small steps, as before (at most 12 runs).
        assert!(
            l.runs <= 12,
            "{} runs (model {model_latency}): {:?}",
            l.runs,
            l.curve
        );
    }
}

/// A program with several waves competing (40 waves of loads, VALU work
/// and waits): its curve has a flat part, a knee and a steep part.
fn busy() -> (String, &'static str) {
    let mut text = String::new();
    for i in 0..4 {
        text += &format!("buffer_load_dword v{i}, v10, s[0:3], 0 offen\n");
        text += &"v_mul_f32 v20, v21, v22\n".repeat(6);
        text += "s_waitcnt vmcnt(0)\n";
        text += &"v_add_f32 v23, v24, v25\n".repeat(4);
    }
    text += "s_endpgm\n";
    (
        text,
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 40\n",
    )
}

#[test]
fn early_stopped_probes_give_the_verdicts_of_full_runs() {
    let (text, hints) = busy();
    let s = sim(&text, hints, 0);
    let base = s.run().unwrap();
    let th = Threshold::new(&base);
    let max_pass = th.max_passing_clocks();
    // The limit itself is the pass rule in clocks.
    assert!(th.passes_clocks(base.clocks) && th.passes_clocks(max_pass));
    assert!(!th.passes_clocks(max_pass + 1));
    let mut seen = [false; 2];
    for lat in [0u64, 16, 40, 64, 100, 128, 200, 256, 400, 1000, 4096, 65536] {
        let full = s
            .with_param("vmem_latency", lat as f64)
            .unwrap()
            .run()
            .unwrap();
        let want = th.passes(full.throughput_per_clock());
        // The search's own limit, and the tightest one (the pass limit).
        for limit in [th.probe_limit(), max_pass] {
            let (p, _) = s.latency_probe("vmem_latency", lat, limit).unwrap();
            assert_eq!(
                th.verdict(p),
                Some(want),
                "latency {lat}, limit {limit}: {p:?}"
            );
            if let Probe::Finished(c) = p {
                assert_eq!(c, full.clocks);
            }
        }
        seen[usize::from(want)] = true;
    }
    assert_eq!(seen, [true, true], "both verdicts occur");
}

#[test]
fn the_answer_does_not_depend_on_the_thread_count() {
    let (text, hints) = busy();
    for model_latency in [0, 320] {
        let s = sim(&text, hints, model_latency);
        let stats = s.run().unwrap();
        let answers: Vec<_> = [1, 2, 4]
            .into_iter()
            .map(|threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| s.latency_tolerance(&stats).unwrap().unwrap())
            })
            .collect();
        assert!(answers[0].clocks.is_some());
        assert_eq!(answers[0], answers[1]);
        assert_eq!(answers[0], answers[2]);
    }
}

#[test]
fn the_first_simulation_beside_the_run_gives_the_same_search() {
    // `analyse` runs the search's first simulation beside the main run;
    // the search must not depend on where it ran.
    let (text, hints) = busy();
    for model_latency in [0, 320] {
        let s = sim(&text, hints, model_latency);
        let stats = s.run().unwrap();
        let after = s.latency_tolerance(&stats).unwrap().unwrap();
        let head = s.latency_head().unwrap();
        assert!(head.is_some());
        let beside = s.latency_tolerance_with(&stats, head).unwrap().unwrap();
        assert_eq!(after, beside);
        assert_eq!(s.analyse().unwrap().latency, Some(after));
    }
}

#[test]
fn a_straight_curve_is_found_in_one_round_after_the_first_probe() {
    // clocks(L) = 10000 + floor(5L / 2). The pass limit is 10526 clocks
    // (6400 threads: 6400/c >= 0.95 * 6400/10000 means c <= 10526.3), so
    // the truth is L = 210 (10525 clocks; 211 takes 10527). A probe
    // known at 192 takes 10480: the line through it and
    // the base reaches 10526.5 at 210.6, so the round probes 211 (believed
    // to fail) and a stopping width below it, 211 - max(1, 208 / 64) =
    // 208 (10520 clocks): 208 passes, 211 fails, 211 - 208 <= 208 / 64.
    let base = 10_000u64;
    let curve = |l: u64| base + 5 * l / 2;
    let th = base_threshold(base);
    assert_eq!(th.max_passing_clocks(), 10_526);
    let head = 192;
    let known = [
        (0, Probe::Finished(base)),
        (head, Probe::Finished(curve(head))),
    ];
    assert_eq!(search_from(base, &known, &curve), (Some(208), 2));
    assert!(within_promise(&th, 208, curve(208), 210));
}

#[test]
fn a_bracket_three_widths_wide_closes_in_one_round_on_any_curve() {
    // Known: 6400 passes, 6700 fails (3 stopping widths of 100). Between
    // them every latency passes or fails at random. The round's probes
    // are a width above 6400 (6500) and a width below 6700 (6700 -
    // (6700 - 6700 / 64) / 64 = 6700 - 103 = 6597); 6597 - 6500 <= 6500 /
    // 64, so whatever their verdicts a passing and a failing probe end
    // within a width of each other.
    let base = 10_000u64;
    let th = base_threshold(base);
    for seed in 0..64u64 {
        let curve = |l: u64| match l {
            0..=6400 => base,
            6700.. => 2 * base,
            _ if ((l * 2_654_435_761) ^ (seed * 40_503)) % 7 < 3 => 2 * base,
            _ => base,
        };
        let known = [
            (0, Probe::Finished(base)),
            (6400, Probe::Finished(curve(6400))),
            (6700, Probe::Finished(curve(6700))),
        ];
        let (answer, runs) = search_from(base, &known, &curve);
        assert_eq!(runs, 2, "seed {seed}");
        let a = answer.unwrap();
        assert!(th.passes_clocks(curve(a)), "seed {seed}: {a}");
        assert!((a + 1..=a + a / 64).any(|l| !th.passes_clocks(curve(l))));
    }
}

/// A base with `clocks` clocks for 6400 threads on one CU.
fn base_threshold(clocks: u64) -> Threshold {
    Threshold::from_counts(6400, 1, clocks)
}

/// The search on a made-up curve `clocks(latency)`; returns the answer and
/// the probes run.
fn search_curve(base: u64, curve: &(dyn Fn(u64) -> u64 + Sync)) -> (Option<u64>, usize) {
    search_from(base, &[(0, Probe::Finished(base))], curve)
}

/// [`search_curve`] knowing the probes `known` (the base among them).
fn search_from(
    base: u64,
    known: &[(u64, Probe)],
    curve: &(dyn Fn(u64) -> u64 + Sync),
) -> (Option<u64>, usize) {
    let th = base_threshold(base);
    let runs = std::sync::atomic::AtomicUsize::new(0);
    let plan = SearchPlan::new(SearchBudget::precise(DEFAULT_PRECISION));
    let r = search(&th, known, &plan, |lat, limit| {
        runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(curve_probe(curve(lat), limit))
    })
    .unwrap();
    (r.answer, runs.into_inner())
}

/// A probe of a made-up curve that takes `clocks` at its latency, with
/// the clock limit `limit`, and its work: all of it when it finished,
/// else the share of the clocks it ran (the work goes at an even pace).
fn curve_probe(clocks: u64, limit: u64) -> (Probe, f64) {
    if clocks > limit {
        (Probe::Stopped(limit), limit as f64 / clocks as f64)
    } else {
        (Probe::Finished(clocks), 1.0)
    }
}

/// Clocks at a latency for a steepness `k`.
type Shape<'a> = dyn Fn(u64, f64) -> u64 + Sync + 'a;

#[test]
fn the_search_meets_its_precision_on_made_up_curves() {
    // Flat at `base`, then rising with a knee (smooth or sharp, convex or
    // not): the truth is found by walking the curve.
    let base = 10_000u64;
    let shapes: Vec<(&str, Box<Shape<'_>>)> = vec![
        (
            "linear",
            Box::new(|l, k| base.max((base as f64 * 0.8 + k * l as f64) as u64)),
        ),
        (
            "smooth",
            Box::new(|l, k| (base as f64 + k * k * (l * l) as f64 / 20_000.0) as u64),
        ),
        (
            "hyperbola",
            Box::new(|l, k| {
                let x = k * l as f64 - base as f64 * 0.3;
                (base as f64 + 0.5 * (x + (x * x + 1e6).sqrt())) as u64
            }),
        ),
        (
            "concave",
            Box::new(|l, k| (base as f64 + 30.0 * (k * l as f64).sqrt()) as u64),
        ),
        (
            "steps",
            Box::new(|l, k| base + 64 * ((k * l as f64) as u64 / 256)),
        ),
    ];
    let mut worst = 0;
    for (name, shape) in &shapes {
        for k in [0.01, 0.1, 0.37, 1.0, 3.0, 11.0, 40.0, 200.0] {
            let curve = |l: u64| shape(l, k).max(base);
            let th = base_threshold(base);
            let truth = (0..=SEARCH_LIMIT)
                .take_while(|&l| th.passes_clocks(curve(l)))
                .last();
            let (answer, runs) = search_curve(base, &curve);
            worst = worst.max(runs);
            match truth {
                Some(t) if t == SEARCH_LIMIT => assert_eq!(answer, None, "{name} {k}"),
                Some(t) => {
                    let a = answer.unwrap_or_else(|| panic!("{name} {k}: none, truth {t}"));
                    assert!(
                        within_promise(&th, a, curve(a), t),
                        "{name} k={k}: {a}, truth {t}"
                    );
                }
                None => unreachable!("the base passes"),
            }
        }
    }
    // Interpolation assumes a convex curve; on the steps and the concave
    // curve the stall rule falls back to thirds. (The fixed schedule of
    // the search before ran 14 to 16 probes on any curve.)
    assert!(worst <= 24, "{worst} probes");
}

#[test]
fn the_search_keeps_a_valid_bracket_on_a_noisy_curve() {
    // Not monotone: the answer passes and a latency at most 1/64 above it
    // fails (which one depends on where the probes fall).
    let base = 5000u64;
    let curve = |l: u64| base.max(4000 + l + (l * 7919 % 97) * 3);
    let th = base_threshold(base);
    let (answer, _) = search_curve(base, &curve);
    let a = answer.unwrap();
    assert!(th.passes_clocks(curve(a)));
    assert!((a + 1..=a + (a / 64).max(1)).any(|l| !th.passes_clocks(curve(l))));
}

#[test]
fn a_latency_that_loses_four_to_five_percent_is_near_the_line() {
    // 6400 threads on one CU, base 10000 clocks: throughput 0.64 a clock.
    // The line band is 0.95 + 0.01 of it, 0.6144: near the line means
    // 6400 / c <= 0.6144, c >= 10416.67, and passing, c <= 10526.
    let th = base_threshold(10_000);
    let near: Vec<bool> = [10_416, 10_417, 10_526, 10_527]
        .into_iter()
        .map(|c| th.near_line(c))
        .collect();
    assert_eq!(near, [false, true, true, false]);
}

#[test]
fn a_curve_running_along_the_line_stops_at_a_latency_that_loses_four_percent() {
    // Flat to 1000, then 1 clock per 2 clocks of latency (rounded down):
    // 10417 clocks (4% lost, the band) from 1834, 10526 (the pass limit)
    // up to 2053; from 2100 a cliff of 100 clocks per clock. The truth is
    // 2053; every passing latency from 1834 on is an answer the
    // throughput rule accepts, where the latency rule alone would need a
    // bracket 32 wide.
    let base = 10_000u64;
    let curve = |l: u64| match l {
        0..=1000 => base,
        1001..=2100 => base + (l - 1000) / 2,
        _ => base + 550 + (l - 2100) * 100,
    };
    let th = base_threshold(base);
    assert_eq!(
        (curve(1833), curve(1834), curve(2053), curve(2054)),
        (10_416, 10_417, 10_526, 10_527)
    );
    let (answer, _) = search_curve(base, &curve);
    let a = answer.unwrap();
    assert!((1834..=2053).contains(&a), "{a}");
    assert!(th.near_line(curve(a)), "{a}");
}

#[test]
fn a_budgeted_search_brackets_with_simulated_ends_within_three_runs() {
    // The made-up curves of the precision test, searched with the default
    // budget and the model's slope unknown: whatever the curve and the
    // estimate, the passing end is a probe that passed (or the base), the
    // failing end (if any) one that failed, and the probes spend at most
    // three runs of work.
    let base = 10_000u64;
    let th = base_threshold(base);
    let shapes: Vec<Box<Shape<'_>>> = vec![
        Box::new(|l, k| base.max((base as f64 * 0.8 + k * l as f64) as u64)),
        Box::new(|l, k| (base as f64 + k * k * (l * l) as f64 / 20_000.0) as u64),
        Box::new(|l, k| base + 64 * ((k * l as f64) as u64 / 256)),
    ];
    for shape in &shapes {
        for k in [0.1, 1.0, 11.0, 200.0] {
            for estimate in [None, Some(50), Some(5000)] {
                let curve = |l: u64| shape(l, k).max(base);
                let spent = std::sync::Mutex::new(0.0);
                let plan = SearchPlan {
                    budget: SearchBudget::DEFAULT,
                    estimate,
                    ceiling: None,
                    slope: None,
                    spent: 0.0,
                };
                let r = search(&th, &[(0, Probe::Finished(base))], &plan, |lat, limit| {
                    let (p, work) = curve_probe(curve(lat), limit);
                    *spent.lock().unwrap() += work;
                    Ok((p, work))
                })
                .unwrap();
                // Within the budget: a probe starts only while a whole
                // run is left.
                let spent = spent.into_inner().unwrap();
                assert!(spent <= 3.0, "{k} {estimate:?}");
                assert!((r.work - spent).abs() < 1e-9);
                let lo = r.answer.unwrap();
                assert!(th.passes_clocks(curve(lo)));
                assert!(lo == 0 || r.probes.iter().any(|p| p.0 == lo));
                let failing = r.probes.iter().find(|p| th.verdict(p.1) == Some(false));
                if let Some(&(hi, _)) = failing {
                    assert!(hi > lo && !th.passes_clocks(curve(hi)));
                }
            }
        }
    }
}

#[test]
fn on_a_compiled_kernel_with_the_cache_hierarchy_both_ends_are_simulated_results() {
    // llc-22's global_atomics kernel on gfx900 with its cache hierarchy:
    // the searched parameter is the extra latency of every first-level
    // miss, the model's own is 0, so the main run is the zero-latency base
    // and the three runs of the budget all go to probes. Whatever the
    // curve, the passing end re-simulated passes and the failing end
    // re-simulated fails (the verdicts are on clock counts alone, and a
    // run is deterministic).
    let text = include_str!("../../../tests/fixtures/llvm/gfx900/global_atomics.s");
    let opts = shadersim_asm::ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    let program = shadersim_asm::read_program_text("global_atomics.s", text, &opts)
        .unwrap()
        .programs
        .into_iter()
        .find(|p| p.name == "global_atomics")
        .unwrap();
    let hints = Hints::parse("[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 100\n")
        .unwrap();
    let s = Simulation::prepare(&program, ArchSpec::builtin("gfx900").unwrap(), &hints)
        .unwrap_or_else(|e| panic!("{e}"));
    let main = s.run().unwrap();
    let l = s.latency_tolerance(&main).unwrap().unwrap();
    assert_ne!(l.parameter, "vmem_latency");
    assert_eq!(l.model_latency, 0);
    let th = Threshold::new(&main);
    let clocks_at = |lat: u64| {
        s.with_param(&l.parameter, lat as f64)
            .unwrap()
            .run()
            .unwrap()
            .clocks
    };
    let lo = l.clocks.unwrap();
    assert!(th.passes_clocks(clocks_at(lo)), "{lo}");
    let hi = l.fails_at.expect("a failing end within two probes");
    assert!(hi > lo && !th.passes_clocks(clocks_at(hi)), "{hi}");
    // Within the budget of three runs of work.
    assert!(l.work_runs <= 3.0, "{} {}", l.runs, l.work_runs);
}
