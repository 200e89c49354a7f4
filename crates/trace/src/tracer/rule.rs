//! The branch decision rule both the reference expansion and the streaming
//! cursor follow: which side of a conditional branch a wave takes, from the
//! loop counters, the plan's hints and this execution's draw.

use shadersim_cfg::{BranchKind, Cfg};

/// The block a wave goes to after conditional branch `br`: `taken_hint` is
/// the plan's direction for it (a `taken` hint, or the wave's side of a
/// `waves` hint), `drawn` a probability drawn for this execution, `flag_exit`
/// the loop whose exit it decides through a flag register and whether taking it leaves.
pub(crate) fn decide(
    cfg: &Cfg,
    br: &shadersim_cfg::Branch,
    taken_hint: Option<bool>,
    counter: &[u32],
    limit: &[u32],
    drawn: Option<bool>,
    flag_exit: Option<(usize, bool)>,
) -> usize {
    BranchRule::new(cfg, br, flag_exit).decide(taken_hint, counter, limit, drawn)
}

/// A conditional branch's decision rule with what the CFG fixes about it
/// resolved once (which side stays in a loop, which side of a guard enters
/// it): [`decide`] builds one per execution, the streaming cursor one per
/// branch when its walk is made, so both follow the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BranchRule {
    /// The taken side's block.
    pub taken: usize,
    /// The fall-through side's block.
    pub not_taken: usize,
    /// The loop whose exit the branch tests through a flag register, and
    /// whether taking it leaves.
    flag_exit: Option<(usize, bool)>,
    by: RuleKind,
}

/// What decides a branch no flag exit, lane or hint decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RuleKind {
    /// A back edge, or a loop exit with one side in the loop: `stay` while
    /// the loop has iterations left, then `leave`.
    Count {
        loop_id: usize,
        stay: usize,
        leave: usize,
    },
    /// A loop's guard: `enter` when the loop has iterations, else `skip`
    /// (a hint, if any, picks the side instead).
    Guard {
        loop_id: usize,
        enter: usize,
        skip: usize,
    },
    /// An ordinary fork: a drawn probability, else the hint, else not taken.
    Fork,
}

impl BranchRule {
    /// Resolve `br`'s sides against `cfg` (O(blocks) for a loop guard).
    pub(crate) fn new(
        cfg: &Cfg,
        br: &shadersim_cfg::Branch,
        flag_exit: Option<(usize, bool)>,
    ) -> BranchRule {
        let (t, f) = (br.taken, br.not_taken);
        let by = match br.kind {
            BranchKind::LoopBackEdge { loop_id } => {
                let l = &cfg.loops[loop_id];
                let (stay, leave) = if t == l.header { (t, f) } else { (f, t) };
                RuleKind::Count {
                    loop_id,
                    stay,
                    leave,
                }
            }
            BranchKind::LoopExit { loop_id } => {
                let l = &cfg.loops[loop_id];
                let (exit, stay) = if !l.contains(t) { (t, f) } else { (f, t) };
                if l.contains(stay) {
                    RuleKind::Count {
                        loop_id,
                        stay,
                        leave: exit,
                    }
                } else {
                    // Both sides leave the loop: an ordinary fork outside it.
                    RuleKind::Fork
                }
            }
            BranchKind::LoopSkip { loop_id } => {
                let header = cfg.loops[loop_id].header;
                // The side that leads into the loop is the one that reaches its
                // header without leaving the straight preheader chain.
                let enters = |mut b: usize| {
                    for _ in 0..cfg.blocks.len() {
                        if b == header {
                            return true;
                        }
                        match cfg.blocks[b].succs.as_slice() {
                            [only] => b = only.to,
                            _ => return false,
                        }
                    }
                    false
                };
                let (enter, skip) = if enters(t) { (t, f) } else { (f, t) };
                RuleKind::Guard {
                    loop_id,
                    enter,
                    skip,
                }
            }
            BranchKind::IfElse | BranchKind::Skip => RuleKind::Fork,
        };
        BranchRule {
            taken: t,
            not_taken: f,
            flag_exit,
            by,
        }
    }

    /// The block a wave goes to: `taken_hint` is the plan's direction (a
    /// `taken` hint, or the wave's side of a `waves` hint), `drawn` a
    /// probability drawn for this execution, `counter` and `limit` each
    /// loop's header executions and iterations for its current entry.
    #[inline(always)]
    pub(crate) fn decide(
        &self,
        taken_hint: Option<bool>,
        counter: &[u32],
        limit: &[u32],
        drawn: Option<bool>,
    ) -> usize {
        let (t, f) = (self.taken, self.not_taken);
        // A flag exit test nothing else decides: the leaving side on the loop's last iteration.
        if let (Some((loop_id, exit_when_taken)), None, None) = (self.flag_exit, taken_hint, drawn)
        {
            let leave = counter[loop_id] >= limit[loop_id];
            return if leave == exit_when_taken { t } else { f };
        }
        match self.by {
            RuleKind::Count {
                loop_id,
                stay,
                leave,
            } => {
                if counter[loop_id] < limit[loop_id] {
                    stay
                } else {
                    leave
                }
            }
            RuleKind::Guard {
                loop_id,
                enter,
                skip,
            } => {
                // A guard decided per wave (`waves` on a loop's guard).
                if let Some(taken) = taken_hint {
                    return if taken { t } else { f };
                }
                if limit[loop_id] > 0 {
                    enter
                } else {
                    skip
                }
            }
            // A probability drawn for this execution decides an ordinary fork.
            RuleKind::Fork => {
                if drawn.unwrap_or_else(|| taken_hint.unwrap_or(false)) {
                    t
                } else {
                    f
                }
            }
        }
    }
}
