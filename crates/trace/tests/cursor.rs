//! The streaming cursor yields exactly the stored trace: on every real
//! compiler listing of `tests/fixtures` with loops or branches, under plans
//! drawn at random (fixed, per-wave, uniform and geometric loop counts;
//! `taken`, `probability`, `waves` and `lane_probability` branches; a bound
//! that some plans pass), the instructions, EXEC masks, executions and the
//! error of [`TraceCursor`] equal [`WaveTrace::expand`] /
//! [`WaveTrace::expand_wave`]'s (also when a used cursor is restarted), and
//! its state does not grow with the trace.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use shadersim_asm::{read_program_bytes, Program, ReadOptions};
use shadersim_cfg::{BranchKind, Cfg};
use shadersim_trace::{
    lane_branch, IterationDraw, TraceCursor, TraceError, TracePlan, TraceWalk, WaveSet, WaveTrace,
};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Every fixture program with a loop or a conditional branch, with its CFG.
fn programs() -> &'static [(String, Program, Cfg)] {
    static ALL: OnceLock<Vec<(String, Program, Cfg)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut files: Vec<PathBuf> = Vec::new();
        for family in ["llvm", "aco", "radv"] {
            let mut stack = vec![root.join(family)];
            while let Some(d) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&d) else {
                    continue;
                };
                for e in entries.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if matches!(
                        p.extension().and_then(|x| x.to_str()),
                        Some("s") | Some("txt")
                    ) {
                        files.push(p);
                    }
                }
            }
        }
        files.sort();
        let mut out = Vec::new();
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            let name = f.display().to_string();
            let Ok(file) = read_program_bytes(&name, &bytes, &ReadOptions::default()) else {
                continue;
            };
            for p in file.programs {
                let Ok(cfg) = Cfg::build(&p) else { continue };
                if !cfg.branches.is_empty() {
                    out.push((format!("{name}:{}", p.name), p, cfg));
                }
            }
        }
        assert!(
            out.len() >= 40,
            "only {} fixture programs branch",
            out.len()
        );
        out
    })
}

/// A plan for `program` drawn from `seed`: every loop and branch gets a
/// random kind of hint (or none).
fn random_plan(program: &Program, cfg: &Cfg, seed: u64) -> TracePlan {
    let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut plan = TracePlan::defaults(program, cfg);
    plan.seed = r.gen();
    plan.wave_lanes = if r.gen_bool(0.5) { 64 } else { 32 };
    // Mostly roomy, sometimes tight enough that the bound is met.
    plan.max_instructions = if r.gen_bool(0.8) {
        200_000
    } else {
        r.gen_range(1..400)
    };
    for l in 0..cfg.loops.len() {
        match r.gen_range(0..6) {
            0 => {}
            1 => plan.iterations[l] = r.gen_range(0..6),
            2 => {
                let list: Vec<u32> = (0..r.gen_range(1..4)).map(|_| r.gen_range(0..5)).collect();
                plan.iterations[l] = list[0];
                plan.wave_iterations.insert(l, list);
            }
            3 => {
                let a = r.gen_range(0..4);
                plan.drawn_iterations
                    .insert(l, IterationDraw::Uniform(a, a + r.gen_range(0..4)));
            }
            4 => {
                plan.drawn_iterations.insert(
                    l,
                    IterationDraw::Geometric {
                        mean: r.gen_range(1.0..4.0),
                        max: r.gen_range(1..8),
                    },
                );
            }
            _ => plan.iterations[l] = r.gen_range(10..40),
        }
    }
    for br in &cfg.branches {
        let loop_branch = !matches!(br.kind, BranchKind::IfElse | BranchKind::Skip);
        match r.gen_range(0..6) {
            0 => {}
            1 => {
                plan.taken.insert(br.instr, r.gen_bool(0.5));
            }
            2 if !loop_branch => {
                plan.probability.insert(br.instr, r.gen_range(0.0..=1.0));
            }
            3 if !loop_branch || matches!(br.kind, BranchKind::LoopSkip { .. }) => {
                let a = r.gen_range(0..4);
                plan.wave_branches.insert(
                    br.instr,
                    WaveSet {
                        ranges: vec![(a, a + r.gen_range(0..3))],
                    },
                );
            }
            _ => {
                if let Ok(lb) = lane_branch(program, cfg, br, r.gen_range(0.0..=1.0)) {
                    plan.lane_branches.insert(br.instr, lb);
                }
            }
        }
    }
    plan
}

/// A cursor's steps to its end: the instructions, their EXEC masks (when
/// `tracked`) and the last error.
fn walk_steps(
    cursor: &mut TraceCursor<'_>,
    tracked: bool,
) -> (Vec<u32>, Vec<u64>, Option<TraceError>) {
    let (mut ops, mut lanes, mut error) = (Vec::new(), Vec::new(), None);
    for step in cursor.by_ref() {
        match step {
            Ok(s) => {
                ops.push(s.instr);
                if tracked {
                    lanes.push(s.exec);
                }
            }
            Err(e) => error = Some(e),
        }
    }
    (ops, lanes, error)
}

/// The cursor's walk of `wave` (`None`: the plan as is) equals the stored
/// trace, step by step, and its summary equals the executions.
fn check(
    program: &Program,
    cfg: &Cfg,
    plan: &TracePlan,
    wave: Option<u32>,
) -> Result<(), TestCaseError> {
    let old = match wave {
        Some(w) => WaveTrace::expand_wave(program, cfg, plan, w),
        None => WaveTrace::expand(program, cfg, plan),
    };
    let walk = TraceWalk::new(program, cfg, plan);
    let mut cursor = match wave {
        Some(w) => walk.wave_cursor(w),
        None => walk.cursor(),
    };
    let tracked = cursor.tracks_lanes();
    let (ops, lanes, error) = walk_steps(&mut cursor, tracked);
    prop_assert!(cursor.next().is_none(), "a finished cursor stays finished");
    // Walked a block's rest at a time (`next_run`, alternating with
    // `next_step` so that runs also start mid-block), the same
    // instructions, masks, error and count.
    let mut runs = match wave {
        Some(w) => walk.wave_cursor(w),
        None => walk.cursor(),
    };
    let (mut run_ops, mut run_lanes, mut run_error) = (Vec::new(), Vec::new(), None);
    let mut by_step = false;
    loop {
        let item = if by_step {
            runs.next_step().map(|s| {
                s.map(|s| shadersim_trace::TraceRun {
                    start: s.instr,
                    end: s.instr + 1,
                    exec: s.exec,
                })
            })
        } else {
            runs.next_run()
        };
        by_step = !by_step;
        match item {
            None => break,
            Some(Ok(r)) => {
                for i in r.start..r.end {
                    run_ops.push(i);
                    if tracked {
                        run_lanes.push(r.exec);
                    }
                }
            }
            Some(Err(e)) => run_error = Some(e),
        }
    }
    prop_assert!(
        runs.next_run().is_none(),
        "a finished cursor stays finished"
    );
    prop_assert_eq!(&run_ops, &ops);
    prop_assert_eq!(&run_lanes, &lanes);
    prop_assert_eq!(&run_error, &error);
    prop_assert_eq!(runs.position(), cursor.position());
    // A cursor that walked part of another wave's trace (its draws, loop
    // counters and lane frames dirty), restarted for this walk, walks it
    // exactly as a fresh one (simulators reuse retired waves' cursors).
    let mut reused = walk.wave_cursor(wave.map_or(3, |w| w + 1));
    for _ in reused.by_ref().take(7) {}
    reused.restart(wave);
    prop_assert_eq!(reused.position(), 0);
    let (re_ops, re_lanes, re_error) = walk_steps(&mut reused, tracked);
    prop_assert_eq!(&re_ops, &ops);
    prop_assert_eq!(&re_lanes, &lanes);
    prop_assert_eq!(&re_error, &error);
    match old {
        Ok(t) => {
            prop_assert!(error.is_none(), "cursor failed: {error:?}");
            prop_assert_eq!(&ops, &t.ops);
            prop_assert_eq!(&lanes, &t.lanes);
            let summary = walk.summary(wave).unwrap();
            prop_assert_eq!(summary.len, t.ops.len() as u64);
            prop_assert_eq!(&summary.executions, &t.executions);
        }
        Err(e) => {
            prop_assert_eq!(error, Some(e.clone()));
            prop_assert_eq!(walk.summary(wave).unwrap_err(), e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_cursor_yields_the_stored_trace(pick in any::<prop::sample::Index>(), seed in any::<u64>(), wave in 0u32..8) {
        let all = programs();
        let (_, program, cfg) = &all[pick.index(all.len())];
        let plan = random_plan(program, cfg, seed);
        check(program, cfg, &plan, None)?;
        check(program, cfg, &plan, Some(wave))?;
    }
}

#[test]
fn every_fixture_with_its_default_plan() {
    for (name, program, cfg) in programs() {
        let plan = TracePlan::defaults(program, cfg);
        for wave in [None, Some(0), Some(5)] {
            if let Err(e) = check(program, cfg, &plan, wave) {
                panic!("{name}: {e}");
            }
        }
    }
}

#[test]
fn a_ten_million_instruction_loop_walks_in_constant_state() {
    // nested_loops.s: 1 + outer x (1 + inner x 4 + 3) + 1 instructions
    // (tests/tracer.rs). outer = 1, inner = 2,499,998 gives
    // 1 + 1 + 4 x 2,499,998 + 3 + 1 = 9,999,998, under the default bound of
    // 10,000,000; one more inner trip (10,000,002) passes it.
    let text = include_str!("../../../tests/programs/nested_loops.s");
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    let program = read_program_bytes("n.s", text.as_bytes(), &opts)
        .unwrap()
        .programs
        .remove(0);
    let cfg = Cfg::build(&program).unwrap();
    let mut plan = TracePlan::defaults(&program, &cfg);
    let inner = cfg.loops.iter().position(|l| l.depth == 2).unwrap();
    plan.iterations[1 - inner] = 1;
    plan.iterations[inner] = 2_499_998;
    let walk = TraceWalk::new(&program, &cfg, &plan);
    let mut c = walk.cursor();
    let mut n = 0u64;
    for s in c.by_ref() {
        s.unwrap();
        n += 1;
    }
    assert_eq!(n, 9_999_998);
    assert_eq!(c.position(), 9_999_998);
    // One more instruction is past the default bound: an error, not a trace.
    plan.iterations[inner] = 2_499_999;
    let walk = TraceWalk::new(&program, &cfg, &plan);
    let err = walk.summary(None).unwrap_err();
    assert!(err.to_string().contains("exceed 10000000"), "{err}");
}
