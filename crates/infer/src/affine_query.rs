//! Questions other readers ask the address evaluator ([`crate::address_affine`]): the number a
//! scalar register holds (a loop's bound, a counter's start), and a lane-affine value with
//! numeric factors (a vector loop's exit test).

use crate::address_affine::{Eval, Val};
use crate::affine_terms::{Lin, Var};
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{Operand, RegFile};

/// The number SGPR `r` holds as instruction `at` reads it, when the code and the launch fix it
/// (constants, the scalar arithmetic the evaluation follows, and loads of kernel arguments the
/// launch gives); `None` for anything that varies or is unknown.
pub(crate) fn uniform_number(program: &Program, cfg: &Cfg, r: u16, at: usize) -> Option<i64> {
    let mut eval = Eval::new(program, cfg);
    match eval.reg(RegFile::Sgpr, r, at) {
        Val::Lin(l) => l.as_const(),
        _ => None,
    }
}

/// A value affine in the work-item and workgroup ids and the loop iterations, every factor a
/// number (`v_i = 64 x group + lane + 256 x iteration`): what a vector loop's exit test
/// compares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct AffineValue {
    /// The constant term.
    pub constant: i64,
    /// Per work-item id x, y, z.
    pub lane: [i64; 3],
    /// Per workgroup id x, y, z.
    pub group: [i64; 3],
    /// Per completed iteration of each loop (loop id, factor).
    pub iterations: Vec<(usize, i64)>,
}

impl AffineValue {
    /// The factor of loop `loop_id`'s completed iterations (0 when the value moves with no
    /// loop); `None` when another loop moves it.
    pub(crate) fn per_iteration(&self, loop_id: usize) -> Option<i64> {
        match self.iterations[..] {
            [] => Some(0),
            [(id, c)] if id == loop_id => Some(c),
            _ => None,
        }
    }
}

/// Operand `o` as instruction `at` reads it, when it is an [`AffineValue`] (no unknown factor).
pub(crate) fn affine_value(
    program: &Program,
    cfg: &Cfg,
    o: &Operand,
    at: usize,
) -> Option<AffineValue> {
    let mut eval = Eval::new(program, cfg);
    let l = eval.operand(o, at).lin().ok()?;
    let mut out = AffineValue::default();
    for ((v, atoms), c) in &l.0 {
        if !atoms.is_empty() {
            return None;
        }
        match v {
            Var::One => out.constant = *c,
            Var::Lane(d) => out.lane[usize::from(*d).min(2)] = *c,
            Var::Group(d) => out.group[usize::from(*d).min(2)] = *c,
            Var::Iter(id) => out.iterations.push((*id, *c)),
            Var::Phi(_) | Var::Wrap(_) => return None,
        }
    }
    Some(out)
}

/// The number instruction `d` writes to SGPR `r`, when the code and the launch fix it
/// ([`uniform_number`]'s rules).
pub(crate) fn uniform_def(program: &Program, cfg: &Cfg, d: usize, r: u16) -> Option<i64> {
    let mut eval = Eval::new(program, cfg);
    match eval.def(d, RegFile::Sgpr, r) {
        Val::Lin(l) => l.as_const(),
        _ => None,
    }
}

/// The dimension when SGPR `r`, as instruction `at` reads it, is the workgroup id in that
/// dimension plus multiples of loop iterations (a loop counter that starts at the workgroup
/// id, read at its loop's header: `i = get_group_id(0)`, stepped by the workgroup count).
pub(crate) fn group_start(program: &Program, cfg: &Cfg, r: u16, at: usize) -> Option<u8> {
    let mut eval = Eval::new(program, cfg);
    let Val::Lin(l) = eval.reg(RegFile::Sgpr, r, at) else {
        return None;
    };
    let start = Lin(l
        .0
        .into_iter()
        .filter(|((v, _), _)| !matches!(v, Var::Iter(_)))
        .collect());
    (0..3u8).find(|&d| start == Lin::var(Var::Group(d)))
}
