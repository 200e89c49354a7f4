//! Where several definitions of a register meet at a loop header: an induction variable when
//! the ones inside the loop step it by an add and the others agree on its value before the
//! loop (`itself + step`, or a copy of another induction variable after its step).

use super::{reg_name, Eval};
use crate::affine_terms::{Bad, Lin, Val, Var};
use std::collections::BTreeSet;

impl Eval<'_> {
    /// The value of register `r` as instruction `at` reads it, where definitions `defs` (and
    /// the entry value, when `entry`) reach it.
    pub(super) fn merge(
        &mut self,
        file: shadersim_isa::RegFile,
        r: u16,
        at: usize,
        defs: BTreeSet<usize>,
        entry: bool,
    ) -> Val {
        let key = (file, r, defs.clone(), entry);
        if let Some(p) = self.merges.iter().position(|m| *m == key) {
            return Val::Lin(Lin::var(Var::Phi(p as u32)));
        }
        let phi = self.merges.len() as u32;
        self.merges.push(key);
        let mut values: Vec<(Option<usize>, Val)> = defs
            .iter()
            .map(|&d| (Some(d), self.def(d, file, r)))
            .collect();
        if entry {
            values.push((None, self.entry(file, r)));
        }
        self.merges.pop();
        let is_phi = |v: Var| v == Var::Phi(phi);
        let lins: Vec<(Option<usize>, Lin)> = match values
            .into_iter()
            .map(|(d, v)| v.lin().map(|l| (d, l)))
            .collect()
        {
            Ok(l) => l,
            Err(b) => return Val::Bad(b),
        };
        let shadow = shadow_step(&lins, is_phi);
        let mut init: Option<Lin> = None;
        let mut init_defs = Vec::new();
        let mut step: Option<Lin> = None;
        let mut update_defs = Vec::new();
        for (d, l) in lins {
            if let Some((_, c, _)) = shadow.as_ref().filter(|(u, _, _)| *u == l) {
                // A copy of another induction variable, stepped: `itself + step` in effect.
                step = Some(c.clone());
                update_defs.extend(d);
            } else if l.has(is_phi) {
                let s = l.sub(&Lin::var(Var::Phi(phi)));
                if s.has(is_phi) {
                    return Val::Bad(Bad::Other(format!(
                        "{} is not stepped by an add in its loop",
                        reg_name(file, r)
                    )));
                }
                match &step {
                    Some(x) if *x != s => {
                        return Val::Bad(Bad::Other(format!(
                            "{} steps by different amounts on different paths",
                            reg_name(file, r)
                        )))
                    }
                    _ => step = Some(s),
                }
                update_defs.extend(d);
            } else {
                match &init {
                    Some(x) if *x != l => {
                        return Val::Bad(Bad::Other(format!(
                            "{} differs by path where line {} reads it",
                            reg_name(file, r),
                            self.line(at)
                        )))
                    }
                    _ => init = Some(l),
                }
                init_defs.extend(d);
            }
        }
        let Some(init) = init else {
            return Val::Bad(Bad::Other(format!(
                "{} has no value before its loop",
                reg_name(file, r)
            )));
        };
        let Some(step) = step else {
            return Val::Lin(init);
        };
        // The loop: the innermost one holding the reader and every update but no initial
        // definition.
        let block = |i: usize| self.cfg.block_of.get(i).copied();
        let mut l = block(at).and_then(|b| self.cfg.innermost_loop.get(b).copied().flatten());
        while let Some(id) = l {
            let lp = &self.cfg.loops[id];
            let holds = |i: &usize| block(*i).is_some_and(|b| lp.contains(b));
            if update_defs.iter().all(holds) && !init_defs.iter().any(holds) {
                break;
            }
            l = lp.parent;
        }
        let Some(id) = l else {
            return Val::Bad(Bad::Other(format!(
                "{} is updated outside a loop the CFG knows",
                reg_name(file, r)
            )));
        };
        if shadow
            .as_ref()
            .is_some_and(|(_, _, loop_id)| *loop_id != id)
        {
            return Val::Bad(Bad::Other(format!(
                "{} copies a value another loop steps",
                reg_name(file, r)
            )));
        }
        match step.mul(&Lin::var(Var::Iter(id))) {
            Some(s) => Val::Lin(init.add(&s)),
            None if step.has(|v| matches!(v, Var::Lane(_))) => Val::Bad(Bad::Other(format!(
                "{} steps by a lane-varying amount",
                reg_name(file, r)
            ))),
            None => Val::Bad(Bad::Other(format!(
                "{} steps by an amount an inner loop decides",
                reg_name(file, r)
            ))),
        }
    }
}

/// Where two values meet at a loop header and neither names the merge itself, the one a
/// definition inside the loop writes may still be the merge stepped: compilers keep an
/// induction variable in two registers (`j` and a copy made after `j += step`), so the
/// register read at the header is `init` on entry and `init + step x (iteration + 1)` from
/// the latch, which is `init + step x iteration` at the header. Returns that latch value and
/// the step (and the loop) when exactly two distinct values meet and they differ by `step x (iteration + 1)`
/// of one loop, with `step` free of that loop's iteration.
fn shadow_step(
    lins: &[(Option<usize>, Lin)],
    is_phi: impl Fn(Var) -> bool,
) -> Option<(Lin, Lin, usize)> {
    let mut distinct: Vec<&Lin> = Vec::new();
    for (_, l) in lins {
        if l.has(&is_phi) {
            return None;
        }
        if !distinct.contains(&l) {
            distinct.push(l);
        }
    }
    let [a, b] = distinct[..] else {
        return None;
    };
    for (init, latch) in [(a, b), (b, a)] {
        let d = latch.sub(init);
        let loops: BTreeSet<usize> =
            d.0.keys()
                .filter_map(|(v, _)| match v {
                    Var::Iter(id) => Some(*id),
                    _ => None,
                })
                .collect();
        for id in loops {
            let per_iter = Lin(d
                .0
                .iter()
                .filter(|((v, _), _)| *v == Var::Iter(id))
                .map(|((_, atoms), c)| ((Var::One, atoms.clone()), *c))
                .collect());
            let rest = Lin(d
                .0
                .iter()
                .filter(|((v, _), _)| *v != Var::Iter(id))
                .map(|(m, c)| (m.clone(), *c))
                .collect());
            if !per_iter.0.is_empty() && rest == per_iter {
                return Some((latch.clone(), per_iter, id));
            }
        }
    }
    None
}
