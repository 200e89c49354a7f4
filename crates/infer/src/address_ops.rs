//! Which instructions the address evaluator follows and which operands are an op's address:
//! the VALU arithmetic table, the scalar forms the scalar facts do not cover, and the address
//! terms of global, flat and buffer ops (the table's memory facts decide the family).

use shadersim_isa::{Instruction, Operand, RegFile, VmemPath};

/// VALU arithmetic the evaluation follows, by the table's mnemonic (`InstrInfo::mnemonic`;
/// VOPD halves without their `v_dual_` prefix). The sources are counted after the
/// destinations (a carry-out destination, `vcc`, is a destination).
pub const VECTOR_ARITHMETIC: &[(&str, VectorOp)] = &[
    ("v_mov_b32", VectorOp::Mov),
    ("v_mov_b64", VectorOp::Mov),
    ("v_readfirstlane_b32", VectorOp::Mov),
    ("v_add_u32", VectorOp::Add),
    ("v_add_i32", VectorOp::Add),
    ("v_add_nc_u32", VectorOp::Add),
    ("v_add_co_u32", VectorOp::Add),
    ("v_add3_u32", VectorOp::Add3),
    ("v_sub_u32", VectorOp::Sub),
    ("v_sub_i32", VectorOp::Sub),
    ("v_sub_nc_u32", VectorOp::Sub),
    ("v_sub_co_u32", VectorOp::Sub),
    ("v_subrev_u32", VectorOp::SubRev),
    ("v_subrev_nc_u32", VectorOp::SubRev),
    ("v_subrev_co_u32", VectorOp::SubRev),
    ("v_subrev_i32", VectorOp::SubRev),
    ("v_lshlrev_b32", VectorOp::ShlRev),
    ("v_lshlrev_b64", VectorOp::ShlRev),
    ("v_lshl_b32", VectorOp::Shl),
    ("v_lshl_b64", VectorOp::Shl),
    ("v_lshl_add_u32", VectorOp::ShlAdd),
    ("v_lshl_add_u64", VectorOp::ShlAdd),
    // Compilers emit `or` for an add whose operands share no set bit (LLVM's `or disjoint`):
    // `x | (y << 4)` is `x + (y << 4)` where it feeds an address.
    ("v_or_b32", VectorOp::Add),
    ("v_lshl_or_b32", VectorOp::ShlAdd),
    ("v_add_lshl_u32", VectorOp::AddShl),
    ("v_mul_lo_u32", VectorOp::Mul),
    ("v_mul_lo_i32", VectorOp::Mul),
    ("v_mul_u32_u24", VectorOp::Mul),
    ("v_mul_i32_i24", VectorOp::Mul),
    ("v_mad_u32_u24", VectorOp::Mad),
    ("v_mad_i32_i24", VectorOp::Mad),
    ("v_mad_u64_u32", VectorOp::Mad),
    ("v_mad_co_u64_u32", VectorOp::Mad),
    ("v_mad_co_i64_i32", VectorOp::Mad),
    ("v_mad_i64_i32", VectorOp::Mad),
    ("v_and_b32", VectorOp::And),
    ("v_bfe_u32", VectorOp::Bfe),
    // Clamps of one lane-varying value between uniform bounds (`clamp(x + d, 0, w - 1)`), read
    // as that value where the address evaluation follows them (`Eval::follow_clamps`).
    ("v_max_i32", VectorOp::Clamp),
    ("v_max_u32", VectorOp::Clamp),
    ("v_min_i32", VectorOp::Clamp),
    ("v_min_u32", VectorOp::Clamp),
    ("v_med3_i32", VectorOp::Clamp),
    ("v_med3_u32", VectorOp::Clamp),
    ("v_maxmin_i32", VectorOp::Clamp),
    ("v_maxmin_u32", VectorOp::Clamp),
    ("v_minmax_i32", VectorOp::Clamp),
    ("v_minmax_u32", VectorOp::Clamp),
];

/// What a VALU mnemonic of [`VECTOR_ARITHMETIC`] computes (64-bit forms: of the low DWORD, the
/// 64-bit value read as the same affine value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorOp {
    /// `a` (a copy; `readfirstlane` of a uniform value).
    Mov,
    /// `a + b`.
    Add,
    /// `a + b + c`.
    Add3,
    /// `a - b`.
    Sub,
    /// `b - a`.
    SubRev,
    /// `b << a`.
    ShlRev,
    /// `a << b` (gfx6/gfx7 spelling).
    Shl,
    /// `(a << b) + c`.
    ShlAdd,
    /// `(a + b) << c`.
    AddShl,
    /// `a x b`.
    Mul,
    /// `a x b + c`.
    Mad,
    /// `a & b`: only the work-item id x mask (`0x3ff`) of VGPR 0 at entry.
    And,
    /// `bfe(a, offset, width)`: only the y and z fields of VGPR 0 at entry.
    Bfe,
    /// A min, max, med3 or max-min of integers: with one lane-varying source and uniform
    /// bounds, that source inside the bounds (where most lanes of an image or array are).
    Clamp,
}

/// Scalar mnemonics the table's scalar facts do not cover but the evaluation follows: the
/// carry-in halves of 64-bit adds (their low half is the add), the 64-bit shift, and the
/// shift-and-add forms. `(mnemonic, shift)`: `s_lshlN_add_u32` is `(a << N) + b`.
pub(crate) const SCALAR_SHIFT_ADD: &[(&str, u32)] = &[
    ("s_lshl1_add_u32", 1),
    ("s_lshl2_add_u32", 2),
    ("s_lshl3_add_u32", 3),
    ("s_lshl4_add_u32", 4),
];

/// The address registers of a global, flat or buffer op, with the immediate offset: the terms
/// to add (`None`: the op is not one whose address is read from the code: scratch, image, LDS,
/// cache control, or a buffer index scaled by a descriptor stride).
pub(crate) fn address_terms(inst: &Instruction) -> Option<Result<(Vec<Operand>, i64), String>> {
    let facts = inst.info.memory?;
    facts.op?;
    let uses = inst.operands.get(inst.defs..).unwrap_or(&[]);
    let offset = inst
        .modifier("offset")
        .and_then(|m| m.int_value())
        .unwrap_or(0);
    let is_sgpr = |o: &Operand| o.reg().is_some_and(|r| r.file == RegFile::Sgpr);
    match facts.path {
        VmemPath::Global | VmemPath::Flat => {
            let mut terms = vec![uses.first()?.clone()];
            if facts.path == VmemPath::Global {
                // `saddr` (then `vaddr` is a 32-bit offset).
                if let Some(s) = uses.iter().skip(1).rev().find(|o| is_sgpr(o)) {
                    terms.push(s.clone());
                }
            }
            Some(Ok((terms, offset)))
        }
        VmemPath::Buffer | VmemPath::TypedBuffer => {
            let rsrc = uses.iter().position(is_sgpr)?;
            let mut terms = vec![uses[rsrc].clone()];
            if let Some(so) = uses.get(rsrc + 1) {
                terms.push(so.clone());
            }
            let idxen = inst.modifier("idxen").is_some();
            // `offen` adds a byte offset, gfx6/gfx7's `addr64` a 64-bit address.
            let offen = inst.modifier("offen").is_some() || inst.modifier("addr64").is_some();
            if idxen {
                return Some(Err(
                    "buffer index x the descriptor's stride: the stride is not read from the code"
                        .into(),
                ));
            }
            if offen {
                let vaddr = rsrc.checked_sub(1).and_then(|i| uses.get(i))?;
                terms.push(vaddr.clone());
            }
            Some(Ok((terms, offset)))
        }
        _ => None,
    }
}

/// Where one DWORD of a copy's result comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CopiedDword<'a> {
    /// A register's value.
    Reg(RegFile, u16),
    /// An inline constant or literal (each half of `v_pk_mov_b32 v[2:3], 0, 0`).
    Constant(&'a Operand),
}

/// The source of DWORD `k` of `inst`'s result when `inst` copies it unchanged, by the
/// table's `mnemonic`: the high DWORD of `s_mov_b64`/`v_mov_b64` is its source's high DWORD;
/// `v_pk_mov_b32` (gfx90a+) moves each DWORD on its own, DWORD k from source k's DWORD
/// `op_sel[k]` (`v_pk_mov_b32 v[6:7], v[4:5], v[4:5] op_sel:[0,1]` copies v[4:5]). `None`
/// for anything else, and for the low DWORD of a 64-bit move (the arithmetic table's `Mov`).
pub fn copied_dword<'a>(inst: &'a Instruction, mnemonic: &str, k: u16) -> Option<CopiedDword<'a>> {
    let srcs = &inst.operands[inst.defs..];
    let (src, sel) = match mnemonic {
        "s_mov_b64" | "v_mov_b64" if k > 0 => (srcs.first()?, k),
        "v_pk_mov_b32" if k < 2 => (srcs.get(usize::from(k))?, op_sel(inst, usize::from(k))),
        _ => return None,
    };
    match src {
        Operand::Reg { range, .. } => Some(CopiedDword::Reg(range.file, range.first + sel)),
        o if mnemonic == "v_pk_mov_b32" => Some(CopiedDword::Constant(o)),
        _ => None,
    }
}

/// Bit `i` of an instruction's `op_sel:[a,b,...]` modifier (0 when it has none).
fn op_sel(inst: &Instruction, i: usize) -> u16 {
    inst.modifiers
        .iter()
        .find(|m| m.key == "op_sel")
        .and_then(|m| m.value.as_deref())
        .and_then(|v| v.trim_matches(['[', ']']).split(',').nth(i))
        .map_or(0, |b| u16::from(b.trim() == "1"))
}
