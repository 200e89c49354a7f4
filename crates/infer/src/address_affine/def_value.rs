//! The value one instruction gives the register it defines: the scalar ALU by the table's
//! scalar facts, the named 64-bit and bitwise forms, and the VALU by
//! [`VECTOR_ARITHMETIC`](super::VECTOR_ARITHMETIC). Anything else is opaque
//! ([`Eval::opaque`]).

use super::{reg_name, Eval};
use crate::address_ops::{
    copied_dword, CopiedDword, VectorOp, SCALAR_SHIFT_ADD, VECTOR_ARITHMETIC,
};
use crate::affine_terms::{Atom, Bad, Lin, Val, Var};
use shadersim_isa::{InstrClass, Instruction, Operand, RegFile, RegRange, ScalarOp};

/// The definition being evaluated: the instruction (or VOPD half) that writes the register,
/// its sources, and the DWORD of its result the register is.
struct Def<'p> {
    d: usize,
    line: u32,
    part: &'p Instruction,
    k: u16,
    file: RegFile,
    r: u16,
    srcs: Vec<Operand>,
}

impl Def<'_> {
    fn src(&self, i: usize, me: &mut Eval) -> Result<Lin, Bad> {
        match self.srcs.get(i) {
            Some(o) => {
                let v = me.operand(o, self.d);
                match sdwa_select(self.part, i) {
                    Some(sel) => me.selected(self, v, (i, sel)),
                    None => v.lin(),
                }
            }
            None => Err(Bad::Other(format!(
                "a missing source at line {}",
                self.line
            ))),
        }
    }

    fn nonlinear(&self) -> Bad {
        Bad::Other(format!(
            "`{}` at line {} multiplies two lane-varying values",
            self.part.base_mnemonic(),
            self.line
        ))
    }

    fn shift(&self, l: Lin, n: Lin) -> Result<Lin, Bad> {
        match n.as_const() {
            Some(n) if (0..63).contains(&n) => Ok(l.scale(1i64 << n)),
            _ => Err(Bad::Other(format!(
                "`{}` at line {} shifts by a variable amount",
                self.part.base_mnemonic(),
                self.line
            ))),
        }
    }

    fn opaque(&self, me: &mut Eval) -> Result<Lin, Bad> {
        me.opaque(self.d, self.k, self.part, &self.srcs)
    }
}

impl Eval<'_> {
    pub(super) fn def_value(&mut self, d: usize, file: RegFile, r: u16) -> Val {
        let program = self.program;
        let s = &program.instructions[d];
        let line = s.pos.line;
        let inst = &s.inst;
        let target = RegRange::single(file, r);
        let part = std::iter::once(inst)
            .chain(inst.dual.as_deref())
            .find_map(|p| {
                p.operands[..p.defs]
                    .iter()
                    .filter_map(Operand::reg)
                    .find(|range| range.overlaps(&target))
                    .map(|range| (p, range))
            });
        let Some((part, range)) = part else {
            return Val::Bad(Bad::Other(format!(
                "`{}` at line {line} writes {} implicitly",
                inst.base_mnemonic(),
                reg_name(file, r)
            )));
        };
        let k = r - range.first;
        let class = part.class();
        if class == InstrClass::Smem {
            // A load of the kernel-argument segment at a DWORD the launch gives is that number.
            if let Some(v) = self.kernarg_dword(d, part, k) {
                return Val::Lin(Lin::constant(i64::from(v)));
            }
            return Val::Lin(Lin::atom(Atom::Def { instr: d, dword: k }));
        }
        if class.is_vmem()
            || matches!(
                class,
                InstrClass::Lds | InstrClass::LdsBvhStack | InstrClass::LdsParam
            )
        {
            return Val::Bad(Bad::Data(line, part.base_mnemonic().to_string()));
        }
        let srcs: Vec<Operand> = part.operands[part.defs..].to_vec();
        let mnemonic = part.info.mnemonic;
        let mnemonic = mnemonic
            .strip_prefix("v_dual_")
            .map_or(mnemonic.to_string(), |m| format!("v_{m}"));
        // The high DWORD of a 64-bit result: only a copy passes it on (`copied_dword`).
        match copied_dword(part, &mnemonic, k) {
            Some(CopiedDword::Reg(file, r)) => return self.reg(file, r, d),
            Some(CopiedDword::Constant(o)) => return self.operand(o, d),
            None if k > 0 => {
                let what = part.base_mnemonic();
                return Val::Bad(Bad::Other(format!(
                    "the high half of `{what}` at line {line}"
                )));
            }
            None => {}
        }
        let def = Def {
            d,
            line,
            part,
            k,
            file,
            r,
            srcs,
        };
        match self.computed(&def, &mnemonic) {
            Ok(l) => Val::Lin(l),
            Err(b) => Val::Bad(b),
        }
    }

    /// The arithmetic of `def` (mnemonic `mnemonic`, VOPD halves renamed as plain VALU).
    fn computed(&mut self, def: &Def, mnemonic: &str) -> Result<Lin, Bad> {
        if let Some(f) = def.part.info.scalar {
            return self.scalar_value(def, f);
        }
        if let Some(v) = self.named_value(def, mnemonic) {
            return v;
        }
        if let Some((_, n)) = SCALAR_SHIFT_ADD.iter().find(|(m, _)| *m == mnemonic) {
            return Ok(def.src(0, self)?.scale(1 << n).add(&def.src(1, self)?));
        }
        let Some(&(_, op)) = VECTOR_ARITHMETIC.iter().find(|(m, _)| *m == mnemonic) else {
            return def.opaque(self);
        };
        self.vector_value(def, op, mnemonic)
    }

    /// A scalar ALU op by the table's scalar facts.
    fn scalar_value(&mut self, def: &Def, f: shadersim_isa::ScalarFacts) -> Result<Lin, Bad> {
        let (part, srcs, line) = (def.part, &def.srcs, def.line);
        if f.imm16 {
            // SOPK: `s_movk_i32 sD, imm`, `s_addk_i32 sD, imm` (sD = sD + imm).
            let imm = match srcs.last() {
                Some(Operand::Imm(v)) => Lin::constant(i64::from(f.extend_imm16(*v) as i32)),
                _ => {
                    return Err(Bad::Other(format!(
                        "`{}` at line {line}",
                        part.base_mnemonic()
                    )))
                }
            };
            return match f.op {
                ScalarOp::Mov => Ok(imm),
                ScalarOp::Add => Ok(self.reg(def.file, def.r, def.d).lin()?.add(&imm)),
                ScalarOp::Mul => self
                    .reg(def.file, def.r, def.d)
                    .lin()?
                    .mul(&imm)
                    .ok_or_else(|| def.nonlinear()),
                _ => def.opaque(self),
            };
        }
        let a = def.src(0, self);
        // Two numbers (a launch's arguments, constants): the hardware's 32-bit result.
        if let (Ok(Some(x)), Some(Ok(Some(y)))) = (
            a.as_ref().map(Lin::as_const),
            (srcs.len() > 1).then(|| def.src(1, self).map(|l| l.as_const())),
        ) {
            if let Some(v) = f.op.apply(x as u32, y as u32) {
                return Ok(Lin::constant(i64::from(v)));
            }
        }
        match f.op {
            ScalarOp::Mov => a,
            ScalarOp::Add => Ok(a?.add(&def.src(1, self)?)),
            ScalarOp::Sub => Ok(a?.sub(&def.src(1, self)?)),
            ScalarOp::Lshl => def.shift(a?, def.src(1, self)?),
            ScalarOp::Mul => a?.mul(&def.src(1, self)?).ok_or_else(|| def.nonlinear()),
            _ => def.opaque(self),
        }
    }

    /// The forms known by name: 64-bit adds and shifts, moves, bitwise ops of numbers.
    /// `None`: not one of them.
    fn named_value(&mut self, def: &Def, mnemonic: &str) -> Option<Result<Lin, Bad>> {
        let known = |me: &mut Self| -> Result<Option<Lin>, Bad> {
            Ok(Some(match mnemonic {
                // The carry-in halves of 64-bit adds compute the low half's add.
                "s_addc_u32" | "s_add_co_ci_u32" | "s_add_u64" | "s_add_nc_u64"
                | "s_add_co_u32" | "s_add_co_i32" => def.src(0, me)?.add(&def.src(1, me)?),
                "s_lshl_b64" => def.shift(def.src(0, me)?, def.src(1, me)?)?,
                // `(hi:lo) >> n` of a pair whose low DWORD is 0: the low DWORD of the
                // result is `hi << (32 - n)`. gfx11+ sign-extends a scaled 32-bit index
                // this way (`v_mov_b32 v1, 0` then `v_ashrrev_i64 v[0:1], 30, v[1:2]`:
                // 4 x i as 64 bits).
                "v_ashrrev_i64" | "v_lshrrev_b64" => {
                    let n = def.src(0, me)?.as_const();
                    if let (Some(n @ 1..=32), Some(Operand::Reg { range, .. })) =
                        (n, def.srcs.get(1))
                    {
                        if range.count == 2
                            && me.reg(range.file, range.first, def.d).lin()?.as_const() == Some(0)
                        {
                            let mut hi = me.reg(range.file, range.first + 1, def.d).lin()?;
                            if mnemonic == "v_ashrrev_i64" {
                                // The shift sign-extends the high DWORD: a 32-bit constant
                                // added to it (`v_add_nc_u32 v4, 0xfffffe00, v2`: `i - 512`)
                                // is its two's complement value.
                                hi = hi.signed_constant_32();
                            }
                            return Ok(Some(hi.scale(1i64 << (32 - n))));
                        }
                    }
                    def.opaque(me)?
                }
                "s_mov_b64" => def.src(0, me)?,
                // Bitwise ops of two numbers (a workgroup size masked out of its packed DWORD).
                "s_and_b32" | "s_or_b32" | "s_xor_b32" => {
                    if let (Some(x), Some(y)) =
                        (def.src(0, me)?.as_const(), def.src(1, me)?.as_const())
                    {
                        let (x, y) = (x as u32, y as u32);
                        let v = match mnemonic {
                            "s_and_b32" => x & y,
                            "s_or_b32" => x | y,
                            _ => x ^ y,
                        };
                        return Ok(Some(Lin::constant(i64::from(v))));
                    }
                    def.opaque(me)?
                }
                _ => return Ok(None),
            }))
        };
        known(self).transpose()
    }

    /// Source `i`'s value `v` of `def` read through an SDWA select (`src1_sel:BYTE_0`): the byte
    /// or word it picks. The low byte or word is the value masked ([`Eval::masked`]'s
    /// [`Var::Wrap`], where the address forms follow masks); a higher one is a bounded unknown;
    /// a sign-extended one is not followed.
    fn selected(&mut self, def: &Def, v: Val, (i, sel): (usize, &str)) -> Result<Lin, Bad> {
        let (mask, shift) = match sel {
            "BYTE_0" => (0xff, 0),
            "BYTE_1" => (0xff, 8),
            "BYTE_2" => (0xff, 16),
            "BYTE_3" => (0xff, 24),
            "WORD_0" => (0xffff, 0),
            "WORD_1" => (0xffff, 16),
            _ => return v.lin(),
        };
        let not_followed = || {
            Bad::Other(format!(
                "the SDWA select `{sel}` of `{}` at line {} is not followed",
                def.part.base_mnemonic(),
                def.line
            ))
        };
        if !self.follow_wraps || def.part.has_modifier("sext") {
            return Err(not_followed());
        }
        let inner = match v.lin() {
            Ok(l) if l.uniform() => return def.opaque(self),
            Ok(l) if l.has(|v| matches!(v, Var::Wrap(_) | Var::Phi(_))) => {
                return Err(not_followed())
            }
            Ok(_) if shift != 0 => Err(not_followed()),
            other => other,
        };
        self.wraps.push(crate::address_affine::Wrap {
            inner,
            mask,
            line: def.line,
            mnemonic: format!("{} src{i}_sel:{sel}", def.part.base_mnemonic()),
        });
        Ok(Lin::var(Var::Wrap(self.wraps.len() as u32 - 1)))
    }

    /// A VALU op of [`VECTOR_ARITHMETIC`].
    fn vector_value(&mut self, def: &Def, op: VectorOp, mnemonic: &str) -> Result<Lin, Bad> {
        // An SDWA result written to part of the register (`dst_sel:WORD_1`) merges with what
        // was there.
        if def
            .part
            .modifier("dst_sel")
            .is_some_and(|m| m.value.as_deref() != Some("DWORD"))
        {
            return def.opaque(self);
        }
        let src = |i: usize, me: &mut Self| def.src(i, me);
        match op {
            VectorOp::Mov => {
                let v = src(0, self)?;
                if mnemonic == "v_readfirstlane_b32" && !v.uniform() {
                    return def.opaque(self);
                }
                Ok(v)
            }
            VectorOp::Add => Ok(src(0, self)?.add(&src(1, self)?)),
            VectorOp::Add3 => Ok(src(0, self)?.add(&src(1, self)?).add(&src(2, self)?)),
            VectorOp::Sub => Ok(src(0, self)?.sub(&src(1, self)?)),
            VectorOp::SubRev => Ok(src(1, self)?.sub(&src(0, self)?)),
            VectorOp::ShlRev => {
                let n = src(0, self)?;
                def.shift(src(1, self)?, n)
            }
            VectorOp::Shl => {
                let a = src(0, self)?;
                def.shift(a, src(1, self)?)
            }
            VectorOp::ShlAdd => {
                let a = src(0, self)?;
                Ok(def.shift(a, src(1, self)?)?.add(&src(2, self)?))
            }
            VectorOp::AddShl => {
                let a = src(0, self)?.add(&src(1, self)?);
                def.shift(a, src(2, self)?)
            }
            VectorOp::Mul => src(0, self)?
                .mul(&src(1, self)?)
                .ok_or_else(|| def.nonlinear()),
            VectorOp::Mad => Ok(src(0, self)?
                .mul(&src(1, self)?)
                .ok_or_else(|| def.nonlinear())?
                .add(&src(2, self)?)),
            VectorOp::And | VectorOp::Bfe => self.lane_field(def, op),
            VectorOp::Clamp => self.clamp(def),
        }
    }

    /// A min/max/med3 of integers: one lane-varying source between uniform bounds is that
    /// source, inside the bounds, and the clamp is noted for the address's words
    /// (`Eval::clamps`); all sources uniform, a uniform unknown; else not followed.
    fn clamp(&mut self, def: &Def) -> Result<Lin, Bad> {
        if !self.follow_clamps {
            // (As any op the evaluation does not model.)
            return def.opaque(self);
        }
        let mut varying = Vec::new();
        for i in 0..def.srcs.len() {
            let v = def.src(i, self)?;
            if !v.uniform() {
                varying.push(v);
            }
        }
        match varying.len() {
            0 => def.opaque(self),
            1 => {
                self.note_clamp(def.line, def.part.base_mnemonic());
                Ok(varying.remove(0))
            }
            _ => Err(Bad::Other(format!(
                "`{}` at line {} is not followed",
                def.part.base_mnemonic(),
                def.line
            ))),
        }
    }

    /// `v_and_b32` / `v_bfe_u32` of VGPR 0: the work-item id packed in it (x in bits 0-9,
    /// y 10-19, z 20-29); any other `v_and_b32` with a constant where the address forms follow
    /// masks (`masked`).
    fn lane_field(&mut self, def: &Def, op: VectorOp) -> Result<Lin, Bad> {
        let regs: Vec<Val> = def.srcs.iter().map(|o| self.operand(o, def.d)).collect();
        let consts: Vec<Option<i64>> = regs
            .iter()
            .map(|v| match v {
                Val::Lin(l) => l.as_const(),
                _ => None,
            })
            .collect();
        let tid = regs.iter().position(|v| *v == Val::Tid0);
        let field = match (op, tid) {
            (VectorOp::And, Some(t)) => {
                let mask = consts.get(1 - t.min(1)).copied().flatten();
                (mask == Some(0x3ff)).then_some(0)
            }
            (VectorOp::Bfe, Some(0)) => match (consts.get(1), consts.get(2)) {
                (Some(Some(10)), Some(Some(10))) => Some(1),
                (Some(Some(20)), Some(Some(10))) => Some(2),
                (Some(Some(0)), Some(Some(10))) => Some(0),
                _ => None,
            },
            _ => None,
        };
        match field {
            Some(f) => Ok(Lin::var(Var::Lane(f))),
            None if op == VectorOp::And && self.follow_wraps => self.masked(def, &regs, &consts),
            None => def.opaque(self),
        }
    }

    /// `v_and_b32` of a lane-varying value (loaded data, or a value the evaluation does not
    /// follow) and a constant mask: a [`Var::Wrap`], the value below the mask's next power of
    /// two. A uniform value masked is a uniform unknown, as any op the evaluation does not
    /// model.
    fn masked(&mut self, def: &Def, regs: &[Val], consts: &[Option<i64>]) -> Result<Lin, Bad> {
        let (Some(m), [a, b]) = (consts.iter().position(Option::is_some), regs) else {
            return def.opaque(self);
        };
        let mask = consts[m].unwrap_or(0);
        let masked = if m == 0 { b } else { a };
        if !(1..1 << 31).contains(&mask) {
            return def.opaque(self);
        }
        let inner = match masked.clone() {
            Val::Lin(l) if l.uniform() => return def.opaque(self),
            Val::Lin(l) if l.has(|v| matches!(v, Var::Wrap(_) | Var::Phi(_))) => {
                return def.opaque(self)
            }
            // VGPR 0 packs the y and z ids above bit 10: only a mask below it reads x alone.
            Val::Tid0 if mask > 0x3ff => return def.opaque(self),
            v => v.lin(),
        };
        self.wraps.push(crate::address_affine::Wrap {
            inner,
            mask,
            line: def.line,
            mnemonic: def.part.base_mnemonic().to_string(),
        });
        Ok(Lin::var(Var::Wrap(self.wraps.len() as u32 - 1)))
    }
}

/// The SDWA select (`BYTE_0`, `WORD_1`, ...) instruction `inst` reads its source `i` through,
/// when it has one other than the whole DWORD.
fn sdwa_select(inst: &Instruction, i: usize) -> Option<&str> {
    let key = match i {
        0 => "src0_sel",
        1 => "src1_sel",
        _ => return None,
    };
    inst.modifier(key)
        .and_then(|m| m.value.as_deref())
        .filter(|v| *v != "DWORD")
}
