//! The tracer: iteration products, taken/not-taken paths, the bound.

use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_testkit::program;
use shadersim_trace::{Hints, TraceError, TracePlan, WaveTrace};

fn trace(text: &str, hints_text: &str) -> Result<WaveTrace, String> {
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let hints = Hints::parse(hints_text).map_err(|e| e.render("h.toml", hints_text))?;
    let plan =
        TracePlan::from_hints(&p, &cfg, &hints).map_err(|e| e.render("h.toml", hints_text))?;
    WaveTrace::expand(&p, &cfg, &plan).map_err(|e| e.to_string())
}

fn count(t: &WaveTrace, p: &Program, needle: &str) -> u64 {
    p.instructions
        .iter()
        .enumerate()
        .filter(|(_, s)| s.text.starts_with(needle))
        .map(|(i, _)| t.executions[i])
        .sum()
}

const NESTED: &str = include_str!("../../../tests/programs/nested_loops.s");

#[test]
fn nested_loop_iterations_multiply() {
    let t = trace(
        NESTED,
        "[[loop]]\nlabel = \".Louter\"\niterations = 3\n[[loop]]\nline = 5\niterations = 4\n",
    )
    .unwrap();
    let p = program(NESTED);
    // Inner body: 3 x 4 = 12; outer-only instructions: 3; the rest once.
    assert_eq!(count(&t, &p, "v_add_f32"), 12);
    assert_eq!(count(&t, &p, "s_mov_b32 s1"), 3);
    assert_eq!(count(&t, &p, "s_endpgm"), 1);
    // Total: 1 + 3 x (1 + 4 x 4 + 3) + 1 = 62.
    assert_eq!(t.ops.len(), 62);
    assert_eq!(t.ops.first(), Some(&0));
    assert_eq!(*t.ops.last().unwrap() as usize, p.instructions.len() - 1);
}

#[test]
fn constant_trip_counts_are_inferred_without_hints() {
    // Both counters start at 0 and step by 1: the inner loop exits when
    // s1 reaches 4 (4 header executions), the outer when s0 reaches 3
    // (3): the same 62 instructions as the hints above give.
    let t = trace(NESTED, "").unwrap();
    assert_eq!(t.ops.len(), 62);
    // With both loops hinted to 1 the trace is the program once through.
    let once = "[[loop]]\nline = 4\niterations = 1\n[[loop]]\nline = 6\niterations = 1\n";
    let t = trace(NESTED, once).unwrap();
    assert_eq!(t.ops.len(), p_len(NESTED));
}

fn p_len(text: &str) -> usize {
    program(text).instructions.len()
}

const BREAK_CONTINUE: &str = include_str!("../../../tests/programs/break_continue.s");

#[test]
fn break_leaves_after_the_iterations_and_continue_follows_its_hint() {
    let p = program(BREAK_CONTINUE);
    // 5 trips through the header; the 5th takes the break.
    let t = trace(BREAK_CONTINUE, "[[loop]]\nline = 3\niterations = 5\n").unwrap();
    assert_eq!(count(&t, &p, "v_add_f32"), 5);
    assert_eq!(count(&t, &p, "v_mul_f32"), 4);
    assert_eq!(count(&t, &p, "v_sub_f32"), 4);
    // The continue taken skips v_sub on every trip.
    let t = trace(
        BREAK_CONTINUE,
        "[[loop]]\nline = 3\niterations = 5\n[[branch]]\nline = 9\ntaken = true\n",
    )
    .unwrap();
    assert_eq!(count(&t, &p, "v_mul_f32"), 4);
    assert_eq!(count(&t, &p, "v_sub_f32"), 0);
}

const IF_ELSE_IN_LOOP: &str = include_str!("../../../tests/programs/if_else_in_loop.s");

#[test]
fn taken_and_not_taken_paths() {
    let p = program(IF_ELSE_IN_LOOP);
    let t = trace(IF_ELSE_IN_LOOP, "[[loop]]\nline = 3\niterations = 8\n").unwrap();
    assert_eq!(
        (count(&t, &p, "v_add_f32"), count(&t, &p, "v_mul_f32")),
        (8, 0)
    );
    let t = trace(
        IF_ELSE_IN_LOOP,
        "[[loop]]\nline = 3\niterations = 8\n[[branch]]\nline = 4\ntaken = true\n",
    )
    .unwrap();
    assert_eq!(
        (count(&t, &p, "v_add_f32"), count(&t, &p, "v_mul_f32")),
        (0, 16)
    );
}

const GUARDED: &str = include_str!("../../../tests/programs/guarded_loop.s");

#[test]
fn zero_iterations_skip_a_guarded_loop() {
    let p = program(GUARDED);
    let t = trace(GUARDED, "[[loop]]\nline = 6\niterations = 0\n").unwrap();
    assert_eq!(count(&t, &p, "v_add_f32"), 0);
    assert_eq!(t.ops.len(), 3);
    let t = trace(GUARDED, "[[loop]]\nline = 6\niterations = 7\n").unwrap();
    assert_eq!(count(&t, &p, "v_add_f32"), 7);
}

#[test]
fn the_bound_names_the_loop() {
    let err = trace(
        NESTED,
        "[trace]\nmax_instructions = 1000\n[[loop]]\nline = 3\niterations = 100\n[[loop]]\nline = 5\niterations = 100\n",
    )
    .unwrap_err();
    assert!(err.contains("exceed 1000 instructions"), "{err}");
    assert!(err.contains("line 6 (.Linner)"), "{err}");
    // The default bound is 10 million.
    let p = program(NESTED);
    let cfg = Cfg::build(&p).unwrap();
    let mut plan = TracePlan::defaults(&p, &cfg);
    plan.iterations = vec![10_000, 10_000];
    assert!(matches!(
        WaveTrace::expand(&p, &cfg, &plan),
        Err(TraceError::TooLong {
            limit: 10_000_000,
            ..
        })
    ));
}

#[test]
fn hints_that_name_nothing_are_errors_with_positions() {
    let cases = [
        ("[[loop]]\nline = 7\niterations = 2\n", "h.toml:2:8: error: line 7 is not the first instruction of a loop header; loop headers start at lines 4 (.Louter), 6 (.Linner)"),
        ("[[loop]]\nlabel = \".Lnope\"\niterations = 2\n", "h.toml:2:9: error: `.Lnope` is not the label of a loop header"),
        ("[[branch]]\nline = 9\ntaken = true\n", "h.toml:2:8: error: line 9 is the loop-back-edge branch of the loop at line 6"),
        ("[[branch]]\nline = 8\ntaken = true\n", "h.toml:2:8: error: line 8 (`s_cmp_lt_u32 s1, 4`) is not a conditional branch"),
        ("[[branch]]\nline = 99\ntaken = true\n", "h.toml:2:8: error: no instruction of `t` is on line 99"),
        ("[dispatch]\nfrobs = 3\n", "h.toml:2:1: error: unknown field `frobs`"),
        ("[[loop]]\nline = 3\n", "h.toml:1:1: error: missing field `iterations`"),
    ];
    for (hints, expected) in cases {
        let p = program(NESTED);
        let cfg = Cfg::build(&p).unwrap();
        let msg = match Hints::parse(hints) {
            Err(e) => e.render("h.toml", hints),
            Ok(h) => TracePlan::from_hints(&p, &cfg, &h)
                .unwrap_err()
                .render("h.toml", hints),
        };
        assert!(
            msg.starts_with(expected),
            "{hints:?}\n got: {msg}\nwant: {expected}"
        );
    }
}
