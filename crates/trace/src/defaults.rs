//! The decisions a run took by default because the hints said nothing:
//! loops that ran once and conditional branches that went their default
//! way. A report lists them, so a number that rests on a guess says so.

use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::HashSet;

/// What the trace took by default, by source line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanDefaults {
    /// Header lines of loops whose body ran once per entry because no
    /// `[[loop]]` gave their iterations and none could be inferred (header
    /// executions: [`crate::default_iterations`]), in program order, without
    /// repeats.
    pub loops_once: Vec<u32>,
    /// Loops without a `[[loop]]` hint whose trip count was inferred from
    /// their code ([`crate::infer_trip_counts`]): header line, header
    /// executions, and how it was found (`` `s_cmp_lt_u32 s4, 16` (s4 from
    /// 0, +1 per iteration) ``), in program order.
    pub loops_inferred: Vec<(u32, u64, String)>,
    /// Lines of if/else and skip branches that went their default way
    /// (not taken) because no `[[branch]]` named them.
    pub branches_not_taken: Vec<u32>,
}

impl PlanDefaults {
    /// The defaults of a plan: `hinted_loops` are the loops a `[[loop]]`
    /// named, `hinted_branches` the branch instructions a `[[branch]]`
    /// named (by instruction index). Loop branches (back edges, exits,
    /// guards) follow their loop's count and are not listed on their own.
    pub fn find(
        program: &Program,
        cfg: &Cfg,
        hinted_loops: &HashSet<usize>,
        hinted_branches: &HashSet<usize>,
        inferred: &[Option<crate::InferredTrip>],
    ) -> PlanDefaults {
        let line_of = |instr: usize| program.instructions[instr].pos.line;
        let is_inferred = |l: usize| inferred.get(l).is_some_and(Option::is_some);
        let mut loops_once: Vec<u32> = (0..cfg.loops.len())
            .filter(|&l| !hinted_loops.contains(&l) && !is_inferred(l))
            .map(|l| line_of(cfg.blocks[cfg.loops[l].header].start))
            .collect();
        loops_once.sort_unstable();
        loops_once.dedup();
        let mut loops_inferred: Vec<(u32, u64, String)> = inferred
            .iter()
            .flatten()
            .filter(|t| !hinted_loops.contains(&t.loop_id))
            .map(|t| {
                (
                    line_of(cfg.blocks[cfg.loops[t.loop_id].header].start),
                    t.iterations,
                    t.reason(),
                )
            })
            .collect();
        loops_inferred.sort();
        loops_inferred.dedup();
        let mut branches_not_taken: Vec<u32> = cfg
            .branches
            .iter()
            .filter(|b| matches!(b.kind, BranchKind::IfElse | BranchKind::Skip))
            .filter(|b| !hinted_branches.contains(&b.instr))
            .map(|b| line_of(b.instr))
            .collect();
        branches_not_taken.sort_unstable();
        branches_not_taken.dedup();
        PlanDefaults {
            loops_once,
            loops_inferred,
            branches_not_taken,
        }
    }

    /// Whether nothing was taken by default or inferred.
    pub fn is_empty(&self) -> bool {
        self.loops_once.is_empty()
            && self.loops_inferred.is_empty()
            && self.branches_not_taken.is_empty()
    }

    /// One sentence per kind of default, for notes and reports:
    /// `3 loops ran their body once by default: lines 40, 77, 130; give
    /// iterations in a hints file`.
    pub fn sentences(&self) -> Vec<String> {
        let lines = |v: &[u32]| {
            let list: Vec<String> = v.iter().map(u32::to_string).collect();
            format!(
                "line{} {}",
                if v.len() == 1 { "" } else { "s" },
                list.join(", ")
            )
        };
        let mut out = Vec::new();
        // Inferred counts first: they are what the run used, and a user
        // who disagrees overrides them with a hint.
        for (line, n, reason) in &self.loops_inferred {
            out.push(format!(
                "loop at line {line}: {n} iteration{} inferred from {reason}",
                if *n == 1 { "" } else { "s" }
            ));
        }
        match self.loops_once.len() {
            0 => {}
            1 => out.push(format!(
                "1 loop ran its body once by default: {}; give iterations in a hints file",
                lines(&self.loops_once)
            )),
            n => out.push(format!(
                "{n} loops ran their body once by default: {}; give iterations in a hints file",
                lines(&self.loops_once)
            )),
        }
        match self.branches_not_taken.len() {
            0 => {}
            1 => out.push(format!(
                "1 branch took its default direction (not taken): {}; give taken or probability in a hints file",
                lines(&self.branches_not_taken)
            )),
            n => out.push(format!(
                "{n} branches took their default direction (not taken): {}; give taken or probability in a hints file",
                lines(&self.branches_not_taken)
            )),
        }
        out
    }
}
