//! Trip counts inferred from a loop's code (issue 17 item 3).

use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_testkit::program;
use shadersim_trace::{infer_trip_counts, Hints, TracePlan};

/// The inferred header executions of every loop, in loop order.
fn inferred(text: &str) -> Vec<Option<u64>> {
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    infer_trip_counts(&p, &cfg)
        .into_iter()
        .map(|t| t.map(|t| t.iterations))
        .collect()
}

#[test]
fn bottom_tested_count_up() {
    // s4 = 1, 2, ..., 10 at the compare; 1..9 < 10 loop back, 10 exits:
    // the header runs 10 times.
    let text = "s_mov_b32 s4, 0\n.L:\ns_nop 0\ns_add_i32 s4, s4, 1\ns_cmp_lt_i32 s4, 10\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(text), vec![Some(10)]);
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &Hints::default()).unwrap();
    assert_eq!(plan.iterations, vec![10]);
    assert!(plan.defaults.loops_once.is_empty());
    assert_eq!(
        plan.defaults.sentences()[0],
        "loop at line 3: 10 iterations inferred from `s_cmp_lt_i32 s4, 10` (s4 from 0, +1 per iteration)"
    );
    // A hint wins over the inference.
    let hints = Hints::parse("[[loop]]\nline = 3\niterations = 3\n").unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &hints).unwrap();
    assert_eq!(plan.iterations, vec![3]);
    assert!(plan.defaults.loops_inferred.is_empty());
}

#[test]
fn count_down_and_step_of_four() {
    // s5 = 7, 6, ..., 0 after the step; the branch loops while s5 != 0
    // (SCC = s5 == 0 is 0): 8 header executions.
    let down = "s_movk_i32 s5, 0x8\n.L:\ns_sub_u32 s5, s5, 1\ns_cmp_eq_u32 s5, 0\ns_cbranch_scc0 .L\ns_endpgm\n";
    assert_eq!(inferred(down), vec![Some(8)]);
    // s2 = 4, 8, ..., 64 after the step; loops while s2 < 64, so it exits
    // at 64 = 16 steps of 4: 16 header executions.
    let four = "s_mov_b32 s2, 0\n.L:\ns_addk_i32 s2, 0x4\ns_cmpk_lt_u32 s2, 0x40\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(four), vec![Some(16)]);
}

#[test]
fn top_tested() {
    // The header tests s4 before the body's step: s4 = 0..5 seen; 0..4
    // stay (scc0 not taken when 4 < 5... SCC = s4 >= 5 is 0) and 5 exits:
    // 6 header executions (the body runs 5 times).
    let text = "s_mov_b32 s4, 0\n.LBB0_1:\ns_cmp_ge_i32 s4, 5\ns_cbranch_scc1 .LBB0_2\ns_add_i32 s4, s4, 1\ns_branch .LBB0_1\n.LBB0_2:\ns_endpgm\n";
    assert_eq!(inferred(text), vec![Some(6)]);
}

#[test]
fn no_inference_when_not_exact() {
    // The bound is a register.
    let reg = "s_mov_b32 s4, 0\n.L:\ns_add_i32 s4, s4, 1\ns_cmp_lt_i32 s4, s6\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(reg), vec![None]);
    // Two writes to the counter in the loop.
    let two = "s_mov_b32 s4, 0\n.L:\ns_add_i32 s4, s4, 1\ns_add_i32 s4, s4, 1\ns_cmp_lt_i32 s4, 10\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(two), vec![None]);
    // The start is not a constant.
    let start = "s_mov_b32 s4, s7\n.L:\ns_add_i32 s4, s4, 1\ns_cmp_lt_i32 s4, 10\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(start), vec![None]);
    // More than the cap (2^31 - 1, the largest count an `int` bound gives): s4 counts up by 1
    // to 2^31, 2^31 header executions. Up to 2^31 - 1 exactly is counted (in closed form).
    let huge = "s_mov_b32 s4, 0\n.L:\ns_add_i32 s4, s4, 1\ns_cmp_lt_u32 s4, 0x80000000\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(huge), vec![None]);
    let most = huge.replace("0x80000000", "0x7fffffff");
    assert_eq!(inferred(&most), vec![Some(0x7fff_ffff)]);
}

/// Real compiler output (`tests/data/const_trip.cl`, clang-19 -O2): the
/// counts the source's bounds imply.
#[test]
fn clang_output() {
    for text in [
        include_str!("data/const_trip_gfx900.s"),
        include_str!("data/const_trip_gfx1100.s"),
    ] {
        let p = read_program_text("c.s", text, &ReadOptions::default())
            .unwrap()
            .programs
            .remove(0);
        let cfg = Cfg::build(&p).unwrap();
        let got: Vec<(u64, String)> = infer_trip_counts(&p, &cfg)
            .into_iter()
            .map(|t| {
                let t = t.unwrap();
                (t.iterations, t.reason())
            })
            .collect();
        // `for (i = 0; i < 16; ++i)` becomes a byte offset in s[4:5] from 0
        // by 4 up to 16 x 4 = 64 (s_cmp_eq_u32 s4, 64 leaves): 16.
        // `for (j = 40; j > 0; j -= 4)`: s0 starts at 44 and steps by -4
        // before `s_cmp_lt_u32 s0, 5`, so it reads 40, 36, ..., 4 and
        // leaves at 4: j = 40..4 by 4 is 10 iterations.
        assert_eq!(
            got,
            vec![
                (
                    16,
                    "`s_cmp_eq_u32 s4, 64` (s4 from 0, +4 per iteration)".into()
                ),
                (
                    10,
                    "`s_cmp_lt_u32 s0, 5` (s0 from 44, -4 per iteration)".into()
                ),
            ]
        );
    }
}

/// The hints template writes an inferred count with where it came from.
#[test]
fn template_writes_the_inferred_count() {
    // As in `bottom_tested_count_up`: 10 header executions.
    let text = "s_mov_b32 s4, 0\n.L:\ns_nop 0\ns_add_i32 s4, s4, 1\ns_cmp_lt_i32 s4, 10\ns_cbranch_scc1 .L\ns_endpgm\n";
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let t =
        shadersim_trace::hints_template("t.s", &p, &cfg, shadersim_trace::ModelFigures::default());
    assert!(
        t.contains("# Inferred from `s_cmp_lt_i32 s4, 10` (s4 from 0, +1 per iteration); the run uses it without this hint.\niterations = 10\n"),
        "{t}"
    );
    // The template parses and gives the same count.
    let hints = Hints::parse(&t).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &hints).unwrap();
    assert_eq!(plan.iterations, vec![10]);
}

#[test]
fn halving_counter_tested_at_the_top_with_the_constant_first() {
    // ACO's LDS reduction loop (tests/fixtures/radv/vega10/reduce.txt,
    // `for (s = 128u; s > 0u; s >>= 1)`): the header tests `0 >= s0`, the
    // body halves s0. s0 seen by the test: 128, 64, 32, 16, 8, 4, 2, 1, 0;
    // the ninth test (s0 = 0) exits: 9 header executions, the body 8 times.
    let text = "s_movk_i32 s0, 0x80\n.L:\ns_cmp_ge_u32 0, s0\ns_cbranch_scc1 .Lend\ns_nop 0\ns_lshr_b32 s0, s0, 1\ns_branch .L\n.Lend:\ns_endpgm\n";
    assert_eq!(inferred(text), vec![Some(9)]);
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &Hints::default()).unwrap();
    assert_eq!(
        plan.defaults.sentences()[0],
        "loop at line 3: 9 iterations inferred from `s_cmp_ge_u32 0, s0` (s0 from 128, >> 1 per iteration)"
    );
    // A doubling counter tested at the bottom: s1 = 2, 4, ..., 256 after
    // the step; loops while s1 < 256 (unsigned): 8 header executions.
    let up = "s_mov_b32 s1, 1\n.L:\ns_lshl_b32 s1, s1, 1\ns_cmpk_lt_u32 s1, 0x100\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(up), vec![Some(8)]);
}

#[test]
fn an_unknown_count_runs_the_body_once_even_when_the_test_is_at_the_top() {
    // Bound in s7 (a runtime value): nothing is inferred. The exit test is
    // the header's, so one header execution would skip the body (line 5):
    // the default runs the header twice, the body once.
    let top = "s_mov_b32 s4, 0\n.L:\ns_cmp_ge_u32 s4, s7\ns_cbranch_scc1 .Lend\ns_add_u32 s4, s4, 1\ns_branch .L\n.Lend:\ns_endpgm\n";
    let p = program(top);
    let cfg = Cfg::build(&p).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &Hints::default()).unwrap();
    assert_eq!(plan.iterations, vec![2]);
    assert_eq!(plan.defaults.loops_once, vec![3]);
    let trace = shadersim_trace::WaveTrace::expand(&p, &cfg, &plan).unwrap();
    // Instruction 3 (`s_add_u32`, the body) runs once; the header's compare twice.
    assert_eq!(trace.executions[3], 1);
    assert_eq!(trace.executions[1], 2);
    // Tested at the bottom, one header execution already runs the body.
    let bottom = "s_mov_b32 s4, 0\n.L:\ns_add_u32 s4, s4, 1\ns_cmp_lt_u32 s4, s7\ns_cbranch_scc1 .L\ns_endpgm\n";
    let p = program(bottom);
    let cfg = Cfg::build(&p).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &Hints::default()).unwrap();
    assert_eq!(plan.iterations, vec![1]);
}

/// Rodinia hotspot's loop (issue 47), reduced from clang-22's gfx900 code for
/// tests/fixtures/src/opencl/heat_steps.cl with the bound a constant (`s_mov_b32 s2, 4`:
/// iteration - 1 for iteration = 5): the break `if (i == iteration - 1)` is kept in s[0:1]
/// (-1 on the side that leaves, 0 on the side that stays and steps the counter s12), and the
/// latch leaves on `s_and_b64 vcc, exec, s[0:1]; s_cbranch_vccnz`.
const FLAG_EXIT: &str = "\
s_mov_b32 s2, 4
s_mov_b32 s12, 0
s_branch .LBB0_4
.LBB0_2:
s_or_b64 exec, exec, s[0:1]
s_add_i32 s12, s12, 1
s_mov_b64 s[0:1], 0
s_barrier
.LBB0_3:
s_and_b64 vcc, exec, s[0:1]
s_cbranch_vccnz .LBB0_11
.LBB0_4:
v_cmp_lt_u32_e32 vcc, s12, v0
s_and_saveexec_b64 s[8:9], vcc
s_cbranch_execz .LBB0_8
v_mov_b32_e32 v9, 1
.LBB0_8:
s_or_b64 exec, exec, s[8:9]
s_cmp_eq_u32 s12, s2
s_mov_b64 s[0:1], -1
s_barrier
s_cbranch_scc1 .LBB0_3
s_and_saveexec_b64 s[0:1], s[6:7]
s_cbranch_execz .LBB0_2
ds_write_b32 v5, v9
s_branch .LBB0_2
.LBB0_11:
s_endpgm
";

#[test]
fn a_break_kept_in_a_flag_register_is_the_exit_test() {
    // s12 = 0, 1, 2, 3, 4 at the compare with s2 = 4: the header runs 5 times, the fifth
    // pass takes `s_cbranch_scc1` with the flag set and leaves at the latch.
    assert_eq!(inferred(FLAG_EXIT), vec![Some(5)]);
    let p = program(FLAG_EXIT);
    let cfg = Cfg::build(&p).unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &Hints::default()).unwrap();
    assert_eq!(plan.iterations, vec![5]);
    // The exit test is no default branch: it follows the loop's count.
    let exit_line = 22;
    assert!(
        !plan.defaults.branches_not_taken.contains(&exit_line),
        "{:?}",
        plan.defaults.branches_not_taken
    );
    // Both barriers: the one before the break every pass (5), the one after the copy on the
    // passes that stay (4); the header's compare 5 times.
    let trace = shadersim_trace::WaveTrace::expand(&p, &cfg, &plan).unwrap();
    let runs = |m: &str| -> Vec<u64> {
        (0..p.instructions.len())
            .filter(|&i| p.instructions[i].inst.mnemonic == m)
            .map(|i| trace.executions[i])
            .collect()
    };
    assert_eq!(runs("s_barrier"), vec![4, 5]);
    assert_eq!(runs("v_cmp_lt_u32_e32"), vec![5]);
    // An `iterations` hint drives the same branch: 3 passes, the copy's barrier twice.
    let hints = Hints::parse("[[loop]]\nline = 13\niterations = 3\n").unwrap();
    let plan = TracePlan::from_hints(&p, &cfg, &hints).unwrap();
    let trace = shadersim_trace::WaveTrace::expand(&p, &cfg, &plan).unwrap();
    let barriers: Vec<u64> = (0..p.instructions.len())
        .filter(|&i| p.instructions[i].inst.mnemonic == "s_barrier")
        .map(|i| trace.executions[i])
        .collect();
    assert_eq!(barriers, vec![2, 3]);
}

#[test]
fn copied_step_after_the_compare() {
    // LLVM's `for (i = 10; i > 0; i -= 3)`: the step goes to s3, the compare reads the old s2
    // (`s2 > 3` is the new value above 0), and a copy then steps s2. s2 at the compare: 10, 7,
    // 4, 1; 10, 7 and 4 are above 3 and loop back, 1 exits: 4 header executions.
    let text = "s_mov_b32 s2, 10\n.L:\ns_add_i32 s3, s2, -3\ns_cmp_gt_u32 s2, 3\ns_mov_b32 s2, s3\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(text), vec![Some(4)]);
    // The same with 3000000: the closed-form count, 1000000 header executions (s2 = 3000000 -
    // 3 j at the compare for j = 0..999999; the last, 3, is not above 3).
    let big = text.replace("s2, 10", "s2, 3000000");
    assert_eq!(inferred(&big), vec![Some(1_000_000)]);
    // A copy of a register the loop writes twice is not a step.
    let twice = "s_mov_b32 s2, 10\n.L:\ns_add_i32 s3, s2, -3\ns_add_i32 s3, s3, 1\ns_cmp_gt_u32 s2, 3\ns_mov_b32 s2, s3\ns_cbranch_scc1 .L\ns_endpgm\n";
    assert_eq!(inferred(twice), vec![None]);
}
