//! A loop's exit test in the middle of its body, where LLVM's structurizer leaves it
//! (issue 47 item 1, Rodinia pathfinder): `s_cmp_eq_u32; s_cbranch_scc1` jumps to a flow
//! block that goes back to the header only on `s_cbranch_execz` (when no lane took the
//! break). The exit test is a loop exit, so with no hints the loop ends, and an
//! `iterations` hint alone runs the body that many times. `step_relax.cl` (written here,
//! pathfinder's shape) compiled by clang-22 for three GPUs, as `scripts/regen-fixtures.sh`
//! makes it.

use shadersim_asm::{read_program_text, Program, ReadOptions};
use shadersim_cfg::{BranchKind, Cfg};
use shadersim_trace::{Hints, TracePlan, WaveTrace};

const LISTINGS: [(&str, &str); 3] = [
    (
        "gfx900",
        include_str!("../../../tests/fixtures/llvm/gfx900/step_relax.s"),
    ),
    (
        "gfx1100",
        include_str!("../../../tests/fixtures/llvm/gfx1100/step_relax.s"),
    ),
    (
        "gfx942",
        include_str!("../../../tests/fixtures/llvm/gfx942/step_relax.s"),
    ),
];

fn kernel(gpu: &str, text: &str) -> Program {
    function(gpu, text, "step_relax")
}

fn function(gpu: &str, text: &str, name: &str) -> Program {
    let opts = ReadOptions {
        target: Some(gpu.parse().unwrap()),
        ..Default::default()
    };
    read_program_text("step_relax.s", text, &opts)
        .unwrap()
        .programs
        .into_iter()
        .find(|p| p.name == name)
        .unwrap()
}

/// The places the counts are read at, as instruction indices.
struct Places {
    /// The exit test's branch (`s_cbranch_scc1` after `s_cmp_eq_u32`).
    exit_test: usize,
    /// The barrier before the loop, and the loop's two (after the relaxation, after the copy).
    barriers: [usize; 3],
    /// The relaxation's `v_min3_i32`.
    relax: usize,
    /// The first instruction of the guarded copy: the block after the exit test's stay side.
    copy: usize,
}

fn places(p: &Program, cfg: &Cfg) -> Places {
    let find = |from: usize, what: &str| {
        (from..p.instructions.len())
            .find(|&i| p.instructions[i].inst.mnemonic == what)
            .unwrap_or_else(|| panic!("no {what} after {from}"))
    };
    let cmp = find(0, "s_cmp_eq_u32");
    let exit_test = find(cmp, "s_cbranch_scc1");
    let branch = cfg.branches.iter().find(|b| b.instr == exit_test).unwrap();
    // The stay side ends in the copy's `s_cbranch_execz` guard; the copy falls through.
    let stay = cfg.blocks[branch.not_taken].last() + 1;
    let barriers: Vec<usize> = (0..p.instructions.len())
        .filter(|&i| p.instructions[i].inst.mnemonic == "s_barrier")
        .collect();
    let (before, in_loop): (Vec<usize>, Vec<usize>) = barriers
        .iter()
        .partition(|&&i| cfg.loops[0].blocks.binary_search(&cfg.block_of[i]).is_err());
    assert_eq!((before.len(), in_loop.len()), (1, 2), "{barriers:?}");
    // The first barrier of an iteration is the one in the exit test's block.
    let after_relax = *in_loop
        .iter()
        .find(|&&i| cfg.block_of[i] == cfg.block_of[exit_test])
        .unwrap();
    let after_copy = *in_loop.iter().find(|&&i| i != after_relax).unwrap();
    Places {
        exit_test,
        barriers: [before[0], after_relax, after_copy],
        relax: find(0, "v_min3_i32"),
        copy: stay,
    }
}

fn trace(p: &Program, cfg: &Cfg, hints: &str) -> Vec<u64> {
    let plan = TracePlan::from_hints(p, cfg, &Hints::parse(hints).unwrap())
        .unwrap_or_else(|e| panic!("{}", e.render("h.toml", hints)));
    WaveTrace::expand_wave(p, cfg, &plan, 0)
        .unwrap_or_else(|e| panic!("{e}"))
        .executions
}

#[test]
fn the_mid_loop_exit_test_is_a_loop_exit_on_every_gpu() {
    for (gpu, text) in LISTINGS {
        let p = kernel(gpu, text);
        let cfg = Cfg::build(&p).unwrap();
        assert_eq!(cfg.loops.len(), 1, "{gpu}");
        let at = places(&p, &cfg);
        let branch = cfg.branches.iter().find(|b| b.instr == at.exit_test);
        assert_eq!(
            branch.map(|b| b.kind),
            Some(BranchKind::LoopExit { loop_id: 0 }),
            "{gpu}: line {}",
            p.instructions[at.exit_test].pos.line
        );
    }
}

#[test]
fn the_loop_ends_without_hints_and_runs_an_iterations_hint() {
    for (gpu, text) in LISTINGS {
        let p = kernel(gpu, text);
        let cfg = Cfg::build(&p).unwrap();
        let at = places(&p, &cfg);
        let header = cfg.blocks[cfg.loops[0].header].label.clone().unwrap();
        // No hints: the loop's body runs once by default (docs/cli.md: two header executions
        // when the exit test is mid-body), and the wave reaches s_endpgm.
        let runs = trace(&p, &cfg, "");
        assert!(runs[at.relax] >= 1, "{gpu}: {runs:?}");
        assert_eq!(runs[p.instructions.len() - 1], 1, "{gpu}: s_endpgm");
        // `iterations = 5`: the header runs 5 times. Each pass relaxes and waits at the first
        // barrier (5 each); the exit test then stays 4 times and leaves on the 5th (s == steps -
        // 1 breaks before the copy), so the copy and the second barrier run 4 times, as the
        // source's loop does for steps = 5. The barrier before the loop runs once.
        let runs = trace(
            &p,
            &cfg,
            &format!("[[loop]]\nlabel = \"{header}\"\niterations = 5\n"),
        );
        let [before, after_relax, after_copy] = at.barriers;
        assert_eq!(
            [
                runs[before],
                runs[at.relax],
                runs[after_relax],
                runs[at.exit_test],
                runs[at.copy],
                runs[after_copy]
            ],
            [1, 5, 5, 5, 4, 4],
            "{gpu}"
        );
    }
}

#[test]
fn a_traps_halt_loop_guards_nothing() {
    // clang-22's callable copy of the kernel on gfx1100 traps on its LDS use: `s_cbranch_execnz`
    // to `s_trap 2; ...; s_sethalt 5; s_branch` to itself, a loop with no exit. It was a
    // loop-skip guard, entered by default, and the trace never ended; it is a plain fork now,
    // not taken by default.
    let p = function("gfx1100", LISTINGS[1].1, "__clang_ocl_kern_imp_step_relax");
    let cfg = Cfg::build(&p).unwrap();
    let halts: Vec<usize> = cfg
        .loops
        .iter()
        .filter(|l| l.exits.is_empty())
        .map(|l| l.id)
        .collect();
    assert_eq!(halts.len(), 2, "{:?}", cfg.loops);
    assert!(cfg
        .branches
        .iter()
        .all(|b| !matches!(b.kind, BranchKind::LoopSkip { loop_id } if halts.contains(&loop_id))));
    let runs = trace(&p, &cfg, "");
    let halt = p
        .instructions
        .iter()
        .position(|i| i.inst.mnemonic == "s_sethalt")
        .unwrap();
    assert_eq!(runs[halt], 0);
}

#[test]
fn the_step_count_from_the_launch_runs_in_full_without_hints() {
    // step_relax(cost, src, dst, steps, cols): three 8-byte pointers, so `steps` is the
    // DWORD at 0x18 of the kernel-argument segment on every GPU (`--arg steps=N` puts N
    // there). The exit test is `s_cmp_eq_u32` of `steps - 1` against the counter `s`, set to
    // 0 before the loop and stepped +1 in the latch, after the test: pass k (k = 1, 2, ...)
    // tests s = k - 1, so the loop leaves on pass k = steps and its header runs `steps`
    // times. Each pass relaxes and waits at the first barrier; all but the last then copy and
    // wait at the second: [barrier before, relax, first barrier, exit test, copy, second
    // barrier] = [1, N, N, N, N - 1, N - 1] with no hints at all.
    for (gpu, text) in LISTINGS {
        for steps in [1u32, 5, 17] {
            let mut p = kernel(gpu, text);
            p.declared.kernarg_values.insert(0x18, steps);
            let cfg = Cfg::build(&p).unwrap();
            let inferred = shadersim_trace::infer_trip_counts(&p, &cfg);
            let trip = inferred[0].as_ref().unwrap_or_else(|| panic!("{gpu}"));
            assert_eq!(
                trip.iterations,
                u64::from(steps),
                "{gpu}: {}",
                trip.reason()
            );
            assert_eq!((trip.start, trip.step.to_string()), (0, "+1".to_string()));
            let at = places(&p, &cfg);
            let runs = trace(&p, &cfg, "");
            let [before, after_relax, after_copy] = at.barriers;
            let n = u64::from(steps);
            assert_eq!(
                [
                    runs[before],
                    runs[at.relax],
                    runs[after_relax],
                    runs[at.exit_test],
                    runs[at.copy],
                    runs[after_copy]
                ],
                [1, n, n, n, n - 1, n - 1],
                "{gpu} steps = {steps}"
            );
        }
        // Without the launch's number the bound is unknown: nothing is inferred.
        let p = kernel(gpu, text);
        let cfg = Cfg::build(&p).unwrap();
        assert!(
            shadersim_trace::infer_trip_counts(&p, &cfg)[0].is_none(),
            "{gpu}"
        );
    }
}
