//! Scalar facts: the 32-bit arithmetic of the scalar ALU mnemonics the trace reasons about
//! (loop trip counts), per mnemonic.
//!
//! The facts are data (`data/scalar_facts.tsv`, generated from `data/instructions.tsv` by
//! `scripts/isa/gen_scalar_facts.py`, where the mnemonic grammar lives, and embedded); the
//! instruction table attaches them to its entries ([`crate::InstrInfo::scalar`]), so consumers
//! ask the table, never the spelling.

use crate::tsv::{tsv_rows, TableError};

/// A compare's condition: first operand against second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpCond {
    /// Equal.
    Eq,
    /// Not equal ("less or greater").
    Lg,
    /// Greater than.
    Gt,
    /// Greater or equal.
    Ge,
    /// Less than.
    Lt,
    /// Less or equal.
    Le,
}

impl CmpCond {
    /// Every condition, in the table's order.
    pub const ALL: [CmpCond; 6] = [
        CmpCond::Eq,
        CmpCond::Lg,
        CmpCond::Gt,
        CmpCond::Ge,
        CmpCond::Lt,
        CmpCond::Le,
    ];

    /// The table's spelling (also the mnemonic's word).
    pub fn name(self) -> &'static str {
        match self {
            CmpCond::Eq => "eq",
            CmpCond::Lg => "lg",
            CmpCond::Gt => "gt",
            CmpCond::Ge => "ge",
            CmpCond::Lt => "lt",
            CmpCond::Le => "le",
        }
    }

    /// Whether `a COND b` holds, comparing as signed or unsigned 32-bit values.
    pub fn holds(self, a: u32, b: u32, signed: bool) -> bool {
        self.holds_wide(u64::from(a), u64::from(b), signed, 32)
    }

    /// Whether `a COND b` holds for values of `bits` bits (32 or 64; the low bits of `a` and
    /// `b`), compared signed or unsigned.
    pub fn holds_wide(self, a: u64, b: u64, signed: bool, bits: u8) -> bool {
        let ord = match (bits, signed) {
            (64, true) => (a as i64).cmp(&(b as i64)),
            (64, false) => a.cmp(&b),
            (_, true) => (a as u32 as i32).cmp(&(b as u32 as i32)),
            (_, false) => (a as u32).cmp(&(b as u32)),
        };
        use std::cmp::Ordering::*;
        match self {
            CmpCond::Eq => ord == Equal,
            CmpCond::Lg => ord != Equal,
            CmpCond::Gt => ord == Greater,
            CmpCond::Ge => ord != Less,
            CmpCond::Lt => ord == Less,
            CmpCond::Le => ord != Greater,
        }
    }
}

/// What a scalar instruction computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarOp {
    /// `dst = a + b` (wrapping).
    Add,
    /// `dst = a - b` (wrapping).
    Sub,
    /// `dst = a`.
    Mov,
    /// `dst = a << (b & 31)`.
    Lshl,
    /// `dst = a >> (b & 31)`, logical.
    Lshr,
    /// `dst = a >> (b & 31)`, arithmetic (the sign bit repeats).
    Ashr,
    /// `dst = a * b`, the low 32 bits.
    Mul,
    /// `dst = a & b` (64 bits for a lane mask: `s_and_b64 vcc, exec, s[0:1]`).
    And,
    /// `SCC = a COND b`.
    Cmp(CmpCond),
    /// A conditional branch taken when SCC equals this value.
    BranchScc(bool),
    /// A conditional branch taken when "VCC is not zero" equals this value
    /// (`s_cbranch_vccnz` true, `s_cbranch_vccz` false).
    BranchVcc(bool),
}

/// The scalar facts of one mnemonic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScalarFacts {
    /// The operation.
    pub op: ScalarOp,
    /// Signed compare, and sign-extension of a 16-bit immediate (`i32` forms).
    pub signed: bool,
    /// The last source operand is the instruction's 16-bit immediate (SOPK:
    /// `s_addk_i32 s4, 1` adds to its destination, `s_cmpk_lt_u32 s4, 16`).
    pub imm16: bool,
    /// Width of the destination: 32, or 64 for a move of a register pair.
    pub bits: u8,
}

impl ScalarFacts {
    /// The 32-bit value of a 16-bit immediate as this instruction extends it.
    pub fn extend_imm16(&self, v: i64) -> u32 {
        if self.signed {
            (v as u16) as i16 as i32 as u32
        } else {
            (v as u16) as u32
        }
    }
}

impl ScalarOp {
    /// `a OP b` in the hardware's 32-bit arithmetic, for the two-source
    /// arithmetic ops (add, sub, shifts, mul); `None` for the others.
    pub fn apply(self, a: u32, b: u32) -> Option<u32> {
        Some(match self {
            ScalarOp::Add => a.wrapping_add(b),
            ScalarOp::Sub => a.wrapping_sub(b),
            ScalarOp::Lshl => a << (b & 31),
            ScalarOp::Lshr => a >> (b & 31),
            ScalarOp::Ashr => ((a as i32) >> (b & 31)) as u32,
            ScalarOp::Mul => a.wrapping_mul(b),
            ScalarOp::And => a & b,
            ScalarOp::Mov | ScalarOp::Cmp(_) | ScalarOp::BranchScc(_) | ScalarOp::BranchVcc(_) => {
                return None
            }
        })
    }

    /// Whether `a OP b` equals `b OP a` (the counter may be either source).
    pub fn commutes(self) -> bool {
        matches!(self, ScalarOp::Add | ScalarOp::Mul | ScalarOp::And)
    }
}

impl CmpCond {
    /// The condition with its operands swapped: `a COND b` is `b COND.mirrored() a`.
    pub fn mirrored(self) -> CmpCond {
        match self {
            CmpCond::Gt => CmpCond::Lt,
            CmpCond::Ge => CmpCond::Le,
            CmpCond::Lt => CmpCond::Gt,
            CmpCond::Le => CmpCond::Ge,
            c => c,
        }
    }
}

pub(crate) const BUILTIN_SCALAR_FACTS: &str = include_str!("../data/scalar_facts.tsv");

/// Parse a scalar facts table: tab-separated `mnemonic op cond sign imm16`,
/// `#` comments. Errors name the line.
pub fn parse_scalar_facts(
    source_name: &str,
    text: &'static str,
) -> Result<Vec<(&'static str, ScalarFacts)>, TableError> {
    let mut rows = Vec::new();
    for (line, cols) in tsv_rows(text) {
        let err = |message: String| TableError {
            source_name: source_name.to_string(),
            line,
            message,
        };
        let [mnemonic, op, cond, sign, imm16, bits] = cols[..] else {
            return Err(err(format!(
                "expected 6 tab-separated columns, found {}",
                cols.len()
            )));
        };
        let cond = match cond {
            "-" => None,
            c => Some(
                CmpCond::ALL
                    .into_iter()
                    .find(|k| k.name() == c)
                    .ok_or_else(|| err(format!("bad cond `{c}`")))?,
            ),
        };
        let op = match (op, cond) {
            ("add", None) => ScalarOp::Add,
            ("sub", None) => ScalarOp::Sub,
            ("mov", None) => ScalarOp::Mov,
            ("lshl", None) => ScalarOp::Lshl,
            ("lshr", None) => ScalarOp::Lshr,
            ("ashr", None) => ScalarOp::Ashr,
            ("mul", None) => ScalarOp::Mul,
            ("and", None) => ScalarOp::And,
            ("cmp", Some(c)) => ScalarOp::Cmp(c),
            ("branch_scc0", None) => ScalarOp::BranchScc(false),
            ("branch_scc1", None) => ScalarOp::BranchScc(true),
            ("branch_vccz", None) => ScalarOp::BranchVcc(false),
            ("branch_vccnz", None) => ScalarOp::BranchVcc(true),
            (o, _) => return Err(err(format!("bad op `{o}` (with cond `{cond:?}`)"))),
        };
        let signed = match sign {
            "i" => true,
            "u" | "-" => false,
            other => return Err(err(format!("bad sign `{other}`"))),
        };
        let imm16 = match imm16 {
            "k" => true,
            "-" => false,
            other => return Err(err(format!("bad imm16 `{other}`"))),
        };
        let bits = match bits {
            "32" => 32,
            "64" => 64,
            other => return Err(err(format!("bad bits `{other}`"))),
        };
        rows.push((
            mnemonic,
            ScalarFacts {
                op,
                signed,
                imm16,
                bits,
            },
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_parses_and_covers_the_loop_counters() {
        let rows = parse_scalar_facts("scalar_facts.tsv", BUILTIN_SCALAR_FACTS).unwrap();
        let get = |m: &str| rows.iter().find(|r| r.0 == m).map(|r| r.1);
        assert_eq!(get("s_add_i32").unwrap().op, ScalarOp::Add);
        assert_eq!(get("s_sub_u32").unwrap().op, ScalarOp::Sub);
        assert!(get("s_addk_i32").unwrap().imm16);
        assert_eq!(
            get("s_cmpk_lt_u32").unwrap(),
            ScalarFacts {
                op: ScalarOp::Cmp(CmpCond::Lt),
                signed: false,
                imm16: true,
                bits: 32
            }
        );
        assert!(get("s_cmp_ge_i32").unwrap().signed);
        assert!(get("s_cmp_lt_f32").is_none());
        assert_eq!(get("s_cbranch_scc1").unwrap().op, ScalarOp::BranchScc(true));
        assert_eq!(
            get("s_cbranch_vccnz").unwrap().op,
            ScalarOp::BranchVcc(true)
        );
        assert_eq!(
            get("s_cbranch_vccz").unwrap().op,
            ScalarOp::BranchVcc(false)
        );
        assert_eq!(get("s_and_b64").unwrap().bits, 64);
        assert_eq!(ScalarOp::And.apply(0xff, 0x0f), Some(0x0f));
        assert!(get("s_add_u64").is_none());
        assert_eq!(get("s_mov_b64").unwrap().bits, 64);
        assert_eq!(get("s_lshr_b32").unwrap().op, ScalarOp::Lshr);
        assert_eq!(get("s_ashr_i32").unwrap().op, ScalarOp::Ashr);
    }

    #[test]
    fn arithmetic_and_mirrors() {
        assert_eq!(ScalarOp::Lshr.apply(128, 1), Some(64));
        assert_eq!(
            ScalarOp::Lshl.apply(1, 33),
            Some(2),
            "only the low 5 bits shift"
        );
        assert_eq!(ScalarOp::Ashr.apply(0x8000_0000, 31), Some(u32::MAX));
        assert_eq!(ScalarOp::Sub.apply(0, 1), Some(u32::MAX));
        assert_eq!(ScalarOp::Mov.apply(1, 2), None);
        for c in CmpCond::ALL {
            for (a, b) in [(0u32, 1u32), (1, 0), (5, 5)] {
                assert_eq!(
                    c.holds(a, b, false),
                    c.mirrored().holds(b, a, false),
                    "{c:?}"
                );
            }
        }
    }

    #[test]
    fn compares_and_immediates() {
        assert!(CmpCond::Lt.holds(u32::MAX, 0, true));
        assert!(!CmpCond::Lt.holds(u32::MAX, 0, false));
        let k = ScalarFacts {
            op: ScalarOp::Add,
            signed: true,
            imm16: true,
            bits: 32,
        };
        assert_eq!(k.extend_imm16(0xffff), u32::MAX);
        assert_eq!(k.extend_imm16(-1), u32::MAX);
    }

    #[test]
    fn bad_rows_name_their_line() {
        for text in [
            "x\tadd\t-\ti\t-\n",
            "x\tcmp\t-\ti\t-\t32\n",
            "x\tadd\t-\tq\t-\t32\n",
            "x\tadd\t-\ti\t-\t16\n",
        ] {
            assert_eq!(parse_scalar_facts("t", text).unwrap_err().line, 1, "{text}");
        }
    }

    /// The committed table is what the generator writes today. Without
    /// python3 the check is skipped, except on CI (`CI` set), where it fails:
    /// `.ci/run` installs python3.
    #[test]
    fn generated_table_is_up_to_date() {
        if !shadersim_testkit::tools::have_python3() {
            return;
        }
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/isa/gen_scalar_facts.py"
        );
        let out = std::process::Command::new("python3")
            .arg(script)
            .arg("--check")
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
