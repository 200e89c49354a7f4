//! CFG and loop analysis on small hand-written graphs.

use shadersim_cfg::{BranchKind, Cfg, CfgError, EdgeKind};
use shadersim_testkit::program;

/// B0 -> outer header B1 -> inner header B2 (self loop) -> B3 latch of
/// outer -> B4 exit.
const NESTED: &str = include_str!("../../../tests/programs/nested_loops.s");

#[test]
fn nested_loops_have_nesting_and_dominators() {
    let p = program(NESTED);
    let cfg = Cfg::build(&p).unwrap();
    assert_eq!(cfg.blocks.len(), 5);
    assert_eq!(cfg.loops.len(), 2);
    let outer = &cfg.loops[0];
    let inner = &cfg.loops[1];
    assert_eq!(outer.header, 1);
    assert_eq!(inner.header, 2);
    assert_eq!(outer.blocks, vec![1, 2, 3]);
    assert_eq!(inner.blocks, vec![2]);
    assert_eq!(inner.parent, Some(0));
    assert_eq!(outer.children, vec![1]);
    assert_eq!((outer.depth, inner.depth), (1, 2));
    assert_eq!(cfg.idom, vec![None, Some(0), Some(1), Some(2), Some(3)]);
    // B3 post-dominates B1 and B2; B4 post-dominates B3.
    assert_eq!(cfg.ipdom[2], Some(3));
    assert_eq!(cfg.ipdom[3], Some(4));
    assert_eq!(cfg.ipdom[4], None);
    assert_eq!(
        cfg.innermost_loop,
        vec![None, Some(0), Some(1), Some(0), None]
    );
    let kinds: Vec<BranchKind> = cfg.branches.iter().map(|b| b.kind).collect();
    assert_eq!(
        kinds,
        vec![
            BranchKind::LoopBackEdge { loop_id: 1 },
            BranchKind::LoopBackEdge { loop_id: 0 }
        ]
    );
    assert_eq!(cfg.blocks[2].succs[0].kind, EdgeKind::Taken);
    assert_eq!(cfg.blocks[2].succs[1].kind, EdgeKind::FallThrough);
}

/// A loop with a break (exit from the middle) and a continue (a second
/// path back to the header).
const BREAK_CONTINUE: &str = include_str!("../../../tests/programs/break_continue.s");

#[test]
fn break_and_continue_are_classified() {
    let p = program(BREAK_CONTINUE);
    let cfg = Cfg::build(&p).unwrap();
    assert_eq!(cfg.loops.len(), 1);
    let l = &cfg.loops[0];
    assert_eq!(l.header, 1);
    assert_eq!(l.exits, vec![(1, 5)]);
    let kinds: Vec<&str> = cfg.branches.iter().map(|b| b.kind.name()).collect();
    // The break leaves the loop; the continue skips the rest of the body.
    assert_eq!(kinds, vec!["loop-exit", "skip"]);
}

/// If/else inside a loop.
const IF_ELSE_IN_LOOP: &str = include_str!("../../../tests/programs/if_else_in_loop.s");

#[test]
fn if_else_inside_a_loop() {
    let p = program(IF_ELSE_IN_LOOP);
    let cfg = Cfg::build(&p).unwrap();
    assert_eq!(cfg.loops.len(), 1);
    assert_eq!(cfg.loops[0].blocks, vec![0, 1, 2, 3]);
    assert_eq!(cfg.branches[0].kind, BranchKind::IfElse);
    assert_eq!(
        cfg.branches[1].kind,
        BranchKind::LoopBackEdge { loop_id: 0 }
    );
    // The join post-dominates both arms.
    assert_eq!(cfg.ipdom[1], Some(3));
    assert_eq!(cfg.ipdom[2], Some(3));
    assert_eq!(cfg.ipdom[0], Some(3));
}

/// A guarded (possibly zero-trip) loop: the guard skips to the exit.
const GUARDED: &str = include_str!("../../../tests/programs/guarded_loop.s");

#[test]
fn loop_guard_is_a_loop_skip() {
    let p = program(GUARDED);
    let cfg = Cfg::build(&p).unwrap();
    assert_eq!(cfg.branches[0].kind, BranchKind::LoopSkip { loop_id: 0 });
}

#[test]
fn irreducible_graph_is_a_clear_error() {
    // Two entries into the cycle B1 <-> B2.
    let p = program(
        "
    s_cbranch_scc1 .Lb
.La:
    v_add_f32 v0, v0, v1
    s_cbranch_vccz .Lend
.Lb:
    v_mul_f32 v0, v0, v1
    s_branch .La
.Lend:
    s_endpgm
",
    );
    match Cfg::build(&p) {
        Err(CfgError::Irreducible {
            from_line, to_line, ..
        }) => {
            assert!(from_line > 0 && to_line > 0);
            let msg = Cfg::build(&p).unwrap_err().to_string();
            assert!(msg.contains("irreducible"), "{msg}");
        }
        other => panic!("expected irreducible, got {other:?}"),
    }
}

#[test]
fn code_after_endpgm_is_unreachable_not_an_error() {
    let p = program("v_add_f32 v0, v0, v1\ns_endpgm\ns_nop 0\ns_endpgm\n");
    let cfg = Cfg::build(&p).unwrap();
    assert_eq!(cfg.blocks.len(), 2);
    assert!(!cfg.blocks[1].reachable);
}

#[test]
fn a_listing_of_ten_thousand_blocks_builds_in_linear_work() {
    // Issue 32: long listings took ~0.5 ms a line. The CFG asked "does a
    // dominate b" by walking b's dominator chain (10,000 deep here) and
    // found each block's label and branch by scanning all of them: work
    // quadratic in the blocks. Dominance is now an interval test, labels
    // are gathered once and branches found by search; this test checks the
    // answers on such a listing (no wall time asserted: it would be slow,
    // not wrong, if the quadratic work came back).
    // 5,000 units `s_cbranch_scc1 .Lj<i>` / `v_add_f32` / `.Lj<i>:` give
    // two blocks each (the branch, the skipped add), then the final
    // s_endpgm's block: 10,001 blocks, 5,000 skip branches.
    let mut text = String::new();
    for i in 0..5_000 {
        text.push_str(&format!(
            "\ts_cbranch_scc1 .Lj{i}\n\tv_add_f32 v0, v0, v0\n.Lj{i}:\n"
        ));
    }
    text.push_str("\ts_endpgm\n");
    let cfg = Cfg::build(&program(&text)).unwrap();
    assert_eq!(cfg.blocks.len(), 10_001);
    assert_eq!(cfg.branches.len(), 5_000);
    for i in 0..5_000 {
        let b = 2 * i;
        assert_eq!(
            cfg.branch_of_block(b).map(|br| br.kind),
            Some(BranchKind::Skip)
        );
        assert_eq!(cfg.branch_of_block(b + 1), None);
        assert_eq!(
            cfg.blocks[b + 2].label.as_deref(),
            Some(format!(".Lj{i}").as_str())
        );
    }
    assert!(cfg.loops.is_empty());
}
