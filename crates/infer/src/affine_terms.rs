//! The symbolic values the address evaluator computes with ([`crate::address_affine`]):
//! sums of integer multiples of terms, each term a variable (a work-item or workgroup id, a
//! loop's iteration) times unknown uniform factors (kernel arguments, entry SGPRs).

use std::collections::BTreeMap;

/// A value the whole wave shares whose number the program does not show.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Atom {
    /// An SGPR's value at program entry (a user or system SGPR).
    Entry(u16),
    /// A trap temporary the program reads (system values such as gfx12's workgroup ids).
    Ttmp(u16),
    /// DWORD `dword` written by instruction `instr` (a scalar load, or uniform arithmetic the
    /// evaluation keeps opaque).
    Def { instr: usize, dword: u16 },
}

/// What a term varies with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Var {
    /// Nothing: a uniform value (a constant, or the product of its atoms).
    One,
    /// The lane's work-item id in dimension 0 (x), 1 (y) or 2 (z).
    Lane(u8),
    /// The workgroup id in dimension 0 (x), 1 (y) or 2 (z): the same for the whole wave.
    Group(u8),
    /// The loop iteration (completed iterations of the current entry) of loop `id`.
    Iter(usize),
    /// Placeholder for a register's value at a loop header while its update is evaluated.
    Phi(u32),
    /// A lane-varying value masked by a constant (`v_and_b32`, an SDWA select): the evaluator's
    /// wrap number `n` (`Eval::wraps`) holds what was masked and the mask. Only the address
    /// forms make one (`Eval::follow_wraps`).
    Wrap(u32),
}

/// One term's key: what it varies with and the product of the unknown uniform factors.
pub(crate) type Mono = (Var, Vec<Atom>);

/// A sum of integer multiples of terms (no zero coefficients).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Lin(pub(crate) BTreeMap<Mono, i64>);

/// Most atoms multiplied in one term: beyond this the value is called non-affine.
pub(crate) const MAX_ATOMS: usize = 3;

impl Lin {
    pub(crate) fn constant(c: i64) -> Lin {
        Lin::term((Var::One, Vec::new()), c)
    }

    pub(crate) fn term(m: Mono, c: i64) -> Lin {
        let mut l = Lin::default();
        if c != 0 {
            l.0.insert(m, c);
        }
        l
    }

    pub(crate) fn var(v: Var) -> Lin {
        Lin::term((v, Vec::new()), 1)
    }

    pub(crate) fn atom(a: Atom) -> Lin {
        Lin::term((Var::One, vec![a]), 1)
    }

    pub(crate) fn add(&self, o: &Lin) -> Lin {
        let mut out = self.clone();
        for (m, c) in &o.0 {
            let e = out.0.entry(m.clone()).or_insert(0);
            *e = e.wrapping_add(*c);
            if *e == 0 {
                out.0.remove(m);
            }
        }
        out
    }

    pub(crate) fn scale(&self, k: i64) -> Lin {
        Lin(self
            .0
            .iter()
            .map(|(m, c)| (m.clone(), c.wrapping_mul(k)))
            .filter(|(_, c)| *c != 0)
            .collect())
    }

    pub(crate) fn sub(&self, o: &Lin) -> Lin {
        self.add(&o.scale(-1))
    }

    /// The same sum with its constant term read as a signed 32-bit number when it is one
    /// as an unsigned one (`0xfffffe00` is -512): the value a 32-bit register holds once
    /// sign-extended.
    pub(crate) fn signed_constant_32(&self) -> Lin {
        let one = (Var::One, Vec::new());
        let mut out = self.clone();
        if let Some(c) = out.0.get_mut(&one) {
            if (1i64 << 31..1i64 << 32).contains(c) {
                *c -= 1i64 << 32;
            }
        }
        out
    }

    pub(crate) fn as_const(&self) -> Option<i64> {
        match self.0.len() {
            0 => Some(0),
            1 => {
                let ((v, atoms), c) = self.0.iter().next()?;
                (*v == Var::One && atoms.is_empty()).then_some(*c)
            }
            _ => None,
        }
    }

    /// The product, or `None` when two varying terms meet (or too many unknown factors).
    pub(crate) fn mul(&self, o: &Lin) -> Option<Lin> {
        let mut out = Lin::default();
        for ((va, aa), ca) in &self.0 {
            for ((vb, ab), cb) in &o.0 {
                let v = match (va, vb) {
                    (Var::One, v) | (v, Var::One) => *v,
                    _ => return None,
                };
                let mut atoms: Vec<Atom> = aa.iter().chain(ab).cloned().collect();
                if atoms.len() > MAX_ATOMS {
                    return None;
                }
                atoms.sort();
                out = out.add(&Lin::term((v, atoms), ca.wrapping_mul(*cb)));
            }
        }
        Some(out)
    }

    pub(crate) fn has(&self, f: impl Fn(Var) -> bool) -> bool {
        self.0.keys().any(|(v, _)| f(*v))
    }

    /// Lane-invariant and loop-invariant: only uniform terms (workgroup ids included).
    pub(crate) fn uniform(&self) -> bool {
        !self.has(|v| !matches!(v, Var::One | Var::Group(_)))
    }
}

/// Why an address has no affine form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Bad {
    /// It comes from data a vector or LDS load returned (line, mnemonic).
    Data(u32, String),
    /// Something else the evaluation cannot follow, in words.
    Other(String),
}

/// The value of a register as the evaluation sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Val {
    Lin(Lin),
    /// VGPR 0 at entry: work-item id x, or x, y and z packed 10 bits apart (read through a
    /// mask or bit-field extract); used as it is, it is x.
    Tid0,
    Bad(Bad),
}

impl Val {
    pub(crate) fn lin(self) -> Result<Lin, Bad> {
        match self {
            Val::Lin(l) => Ok(l),
            Val::Tid0 => Ok(Lin::var(Var::Lane(0))),
            Val::Bad(b) => Err(b),
        }
    }
}
