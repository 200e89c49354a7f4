//! Operands as compilers print them: registers and ranges (`v[4:7]`,
//! `s5`, `ttmp[0:1]`, `vcc_lo`, `exec`, `m0`), immediates, floats, labels,
//! and the instruction modifiers that follow them (`offen`, `offset:16`,
//! `dmask:0xf`, `glc`, ...).

use std::fmt;

/// A register file (or the named special registers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// Vector general purpose registers `v0..v255`.
    Vgpr,
    /// Scalar general purpose registers `s0..s105`.
    Sgpr,
    /// Accumulation registers `a0..a255` (CDNA; accepted for completeness).
    Agpr,
    /// Trap handler temporaries `ttmp0..ttmp15`.
    Ttmp,
    /// Named special registers, indexed by [`SpecialReg`].
    Special,
}

/// Named special scalar registers, each one 32-bit half. Ranges over them
/// (`vcc` = `vcc_lo` + `vcc_hi`) use consecutive indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u16)]
pub enum SpecialReg {
    /// `vcc_lo`.
    VccLo = 0,
    /// `vcc_hi`.
    VccHi = 1,
    /// `exec_lo`.
    ExecLo = 2,
    /// `exec_hi`.
    ExecHi = 3,
    /// `m0`.
    M0 = 4,
    /// The scalar condition code.
    Scc = 5,
    /// `flat_scratch_lo`.
    FlatScratchLo = 6,
    /// `flat_scratch_hi`.
    FlatScratchHi = 7,
    /// `xnack_mask_lo`.
    XnackLo = 8,
    /// `xnack_mask_hi`.
    XnackHi = 9,
    /// `tba_lo`.
    TbaLo = 10,
    /// `tba_hi`.
    TbaHi = 11,
    /// `tma_lo`.
    TmaLo = 12,
    /// `tma_hi`.
    TmaHi = 13,
    /// `vccz` (read-only status bit).
    Vccz = 14,
    /// `execz` (read-only status bit).
    Execz = 15,
    /// `null` (gfx10+ SGPR sink / zero source).
    Null = 16,
}

impl SpecialReg {
    /// Every special register in index order.
    pub const ALL: [SpecialReg; 17] = [
        SpecialReg::VccLo,
        SpecialReg::VccHi,
        SpecialReg::ExecLo,
        SpecialReg::ExecHi,
        SpecialReg::M0,
        SpecialReg::Scc,
        SpecialReg::FlatScratchLo,
        SpecialReg::FlatScratchHi,
        SpecialReg::XnackLo,
        SpecialReg::XnackHi,
        SpecialReg::TbaLo,
        SpecialReg::TbaHi,
        SpecialReg::TmaLo,
        SpecialReg::TmaHi,
        SpecialReg::Vccz,
        SpecialReg::Execz,
        SpecialReg::Null,
    ];

    /// The register with index `i`.
    pub fn from_index(i: u16) -> Option<SpecialReg> {
        SpecialReg::ALL.get(usize::from(i)).copied()
    }

    fn name(self) -> &'static str {
        match self {
            SpecialReg::VccLo => "vcc_lo",
            SpecialReg::VccHi => "vcc_hi",
            SpecialReg::ExecLo => "exec_lo",
            SpecialReg::ExecHi => "exec_hi",
            SpecialReg::M0 => "m0",
            SpecialReg::Scc => "scc",
            SpecialReg::FlatScratchLo => "flat_scratch_lo",
            SpecialReg::FlatScratchHi => "flat_scratch_hi",
            SpecialReg::XnackLo => "xnack_mask_lo",
            SpecialReg::XnackHi => "xnack_mask_hi",
            SpecialReg::TbaLo => "tba_lo",
            SpecialReg::TbaHi => "tba_hi",
            SpecialReg::TmaLo => "tma_lo",
            SpecialReg::TmaHi => "tma_hi",
            SpecialReg::Vccz => "vccz",
            SpecialReg::Execz => "execz",
            SpecialReg::Null => "null",
        }
    }
}

/// A contiguous range of 32-bit registers of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegRange {
    /// The register file.
    pub file: RegFile,
    /// Index of the first register.
    pub first: u16,
    /// Number of 32-bit registers (at least 1).
    pub count: u16,
}

impl RegRange {
    /// A single register.
    pub fn single(file: RegFile, index: u16) -> RegRange {
        RegRange {
            file,
            first: index,
            count: 1,
        }
    }

    /// A named special register range (`vcc` is `special(VccLo, 2)`).
    pub fn special(reg: SpecialReg, count: u16) -> RegRange {
        RegRange {
            file: RegFile::Special,
            first: reg as u16,
            count,
        }
    }

    /// One past the last register index.
    pub fn end(&self) -> u32 {
        u32::from(self.first) + u32::from(self.count)
    }

    /// Do the two ranges share a register?
    pub fn overlaps(&self, other: &RegRange) -> bool {
        self.file == other.file
            && u32::from(self.first) < other.end()
            && u32::from(other.first) < self.end()
    }

    /// Is this (part of) the named special register?
    pub fn touches(&self, reg: SpecialReg) -> bool {
        self.overlaps(&RegRange::special(reg, 1))
    }
}

impl fmt::Display for RegRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.file {
            RegFile::Vgpr => "v",
            RegFile::Sgpr => "s",
            RegFile::Agpr => "a",
            RegFile::Ttmp => "ttmp",
            RegFile::Special => {
                let lo = SpecialReg::from_index(self.first);
                return match (lo, self.count) {
                    (Some(SpecialReg::VccLo), 2) => f.write_str("vcc"),
                    (Some(SpecialReg::ExecLo), 2) => f.write_str("exec"),
                    (Some(SpecialReg::FlatScratchLo), 2) => f.write_str("flat_scratch"),
                    (Some(SpecialReg::XnackLo), 2) => f.write_str("xnack_mask"),
                    (Some(SpecialReg::TbaLo), 2) => f.write_str("tba"),
                    (Some(SpecialReg::TmaLo), 2) => f.write_str("tma"),
                    (Some(r), _) => f.write_str(r.name()),
                    (None, _) => f.write_str("?"),
                };
            }
        };
        if self.count == 1 {
            write!(f, "{prefix}{}", self.first)
        } else {
            write!(f, "{prefix}[{}:{}]", self.first, self.end() - 1)
        }
    }
}

/// Which 16-bit half of a register a true16 operand names (`v0.l`, `v0.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Half {
    /// Bits 15:0.
    Lo,
    /// Bits 31:16.
    Hi,
}

/// One operand of an instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register or register range, with its source modifiers.
    Reg {
        /// The registers.
        range: RegRange,
        /// Negated (`-v0`, `neg(v0)`).
        neg: bool,
        /// Absolute value (`|v0|`, `abs(v0)`).
        abs: bool,
        /// 16-bit half selector (`v0.h`).
        half: Option<Half>,
    },
    /// An integer constant (inline or literal).
    Imm(i64),
    /// A floating-point constant.
    Float(f64),
    /// `off`: an unused address operand of global/scratch ops.
    Off,
    /// A list of registers (non-sequential address operands of image ops: `[v4, v7, v2]`).
    RegList(Vec<RegRange>),
    /// A label or symbol expression (`.LBB0_2`, `BB3`, `kernel@rel32@lo+4`).
    Symbol(String),
    /// Anything else kept as text: `attr0.x`, `mrt0`, `hwreg(...)`, `sendmsg(...)`,
    /// named constant sources like `src_shared_base`.
    Text(String),
}

impl Operand {
    /// The registers this operand names, if any.
    pub fn regs(&self) -> Vec<RegRange> {
        match self {
            Operand::Reg { range, .. } => vec![*range],
            Operand::RegList(list) => list.clone(),
            _ => Vec::new(),
        }
    }

    /// The register range, if this is a single register operand.
    pub fn reg(&self) -> Option<RegRange> {
        match self {
            Operand::Reg { range, .. } => Some(*range),
            _ => None,
        }
    }
}

/// A modifier after the operands: a bare flag (`offen`, `glc`, `done`) or a
/// key with a value (`offset:16`, `dmask:0xf`, `dim:SQ_RSRC_IMG_2D`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    /// The key (`offset`, `dmask`, `glc`).
    pub key: String,
    /// The value text after the colon, if any.
    pub value: Option<String>,
}

impl Modifier {
    /// The value as an integer (decimal, hex `0x..`, or negative).
    pub fn int_value(&self) -> Option<i64> {
        self.value.as_deref().and_then(parse_int)
    }
}

/// Why an operand could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OperandError {
    /// `v[7:4]`, `s[0:` and the like.
    #[error("bad register range `{0}`")]
    BadRange(String),
    /// A register index beyond what any generation has.
    #[error("register `{0}` is out of range")]
    OutOfRange(String),
    /// Unbalanced brackets or parentheses.
    #[error("unbalanced brackets in `{0}`")]
    Unbalanced(String),
    /// An empty operand between two commas.
    #[error("empty operand")]
    Empty,
}

/// Largest register index accepted per file (one past the last valid).
fn file_limit(file: RegFile) -> u32 {
    match file {
        RegFile::Vgpr | RegFile::Agpr => 256,
        RegFile::Sgpr => 106,
        RegFile::Ttmp => 16,
        RegFile::Special => SpecialReg::ALL.len() as u32,
    }
}

/// Parse an integer as printed by LLVM: `12`, `-4`, `0x1f`, `0x3f800000`.
pub fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let value = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()?
    } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        body.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -value } else { value })
}

/// Named special registers and ranges (lower case).
fn special_by_name(name: &str) -> Option<RegRange> {
    use SpecialReg::*;
    let (reg, count) = match name {
        "vcc" => (VccLo, 2),
        "vcc_lo" => (VccLo, 1),
        "vcc_hi" => (VccHi, 1),
        "exec" => (ExecLo, 2),
        "exec_lo" => (ExecLo, 1),
        "exec_hi" => (ExecHi, 1),
        "m0" => (M0, 1),
        "scc" | "src_scc" => (Scc, 1),
        "flat_scratch" => (FlatScratchLo, 2),
        "flat_scratch_lo" => (FlatScratchLo, 1),
        "flat_scratch_hi" => (FlatScratchHi, 1),
        "xnack_mask" => (XnackLo, 2),
        "xnack_mask_lo" => (XnackLo, 1),
        "xnack_mask_hi" => (XnackHi, 1),
        "tba" => (TbaLo, 2),
        "tba_lo" => (TbaLo, 1),
        "tba_hi" => (TbaHi, 1),
        "tma" => (TmaLo, 2),
        "tma_lo" => (TmaLo, 1),
        "tma_hi" => (TmaHi, 1),
        "vccz" | "src_vccz" => (Vccz, 1),
        "execz" | "src_execz" => (Execz, 1),
        "null" => (Null, 1),
        _ => return None,
    };
    Some(RegRange::special(reg, count))
}

/// Parse a register or register range: `v5`, `v[4:7]`, `v[4]`, `s[0:1]`,
/// `ttmp[4:5]`, `vcc`, `exec_lo`, `m0`. Returns `Ok(None)` when `text` is
/// not a register at all, and an error when it looks like one but is broken.
pub fn parse_reg(text: &str) -> Result<Option<RegRange>, OperandError> {
    let lower = text.to_ascii_lowercase();
    if let Some(r) = special_by_name(&lower) {
        return Ok(Some(r));
    }
    let (file, rest) = if let Some(rest) = lower.strip_prefix("ttmp") {
        (RegFile::Ttmp, rest)
    } else if let Some(rest) = lower.strip_prefix('v') {
        (RegFile::Vgpr, rest)
    } else if let Some(rest) = lower.strip_prefix('s') {
        (RegFile::Sgpr, rest)
    } else if let Some(rest) = lower.strip_prefix('a') {
        (RegFile::Agpr, rest)
    } else {
        return Ok(None);
    };
    let limit = file_limit(file);
    if let Some(inner) = rest.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| OperandError::BadRange(text.to_string()))?;
        let (lo, hi) = match inner.split_once(':') {
            Some((lo, hi)) => (lo.trim(), hi.trim()),
            None => (inner.trim(), inner.trim()),
        };
        let lo: u32 = lo
            .parse()
            .map_err(|_| OperandError::BadRange(text.to_string()))?;
        let hi: u32 = hi
            .parse()
            .map_err(|_| OperandError::BadRange(text.to_string()))?;
        if hi < lo {
            return Err(OperandError::BadRange(text.to_string()));
        }
        if hi >= limit {
            return Err(OperandError::OutOfRange(text.to_string()));
        }
        return Ok(Some(RegRange {
            file,
            first: lo as u16,
            count: (hi - lo + 1) as u16,
        }));
    }
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
        // `sendmsg(...)`, `scope:...`, `attr0.x`: not registers.
        return Ok(None);
    }
    let index: u32 = rest
        .parse()
        .map_err(|_| OperandError::OutOfRange(text.to_string()))?;
    if index >= limit {
        return Err(OperandError::OutOfRange(text.to_string()));
    }
    Ok(Some(RegRange::single(file, index as u16)))
}

/// Parse one operand (already separated from its neighbours).
pub fn parse_operand(text: &str) -> Result<Operand, OperandError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(OperandError::Empty);
    }
    check_balanced(text)?;
    let mut neg = false;
    let mut abs = false;
    let mut body = text;
    // Source modifiers: -x, |x|, -|x|, abs(x), neg(x), sext(x), and nesting.
    loop {
        if let Some(rest) = body.strip_prefix('-') {
            // `-4` and `-1.0` are constants, `-v1` is a negated register.
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                break;
            }
            neg = !neg;
            body = rest;
        } else if body.len() >= 2 && body.starts_with('|') && body.ends_with('|') {
            abs = true;
            body = &body[1..body.len() - 1];
        } else if let Some(inner) = strip_call(body, "abs") {
            abs = true;
            body = inner;
        } else if let Some(inner) = strip_call(body, "neg") {
            neg = !neg;
            body = inner;
        } else if let Some(inner) = strip_call(body, "sext") {
            body = inner;
        } else if let Some(inner) = strip_call(body, "lit") {
            body = inner;
        } else if let Some(inner) = strip_call(body, "lit64") {
            body = inner;
        } else {
            break;
        }
    }
    let lower = body.to_ascii_lowercase();
    if lower == "off" {
        return Ok(Operand::Off);
    }
    if let Some(inner) = body.strip_prefix('[').and_then(|b| b.strip_suffix(']')) {
        let mut list = Vec::new();
        for item in inner.split(',') {
            match parse_reg(item.trim())? {
                Some(r) => list.push(r),
                None => return Ok(Operand::Text(text.to_string())),
            }
        }
        return Ok(Operand::RegList(list));
    }
    let (reg_text, half) = if let Some(r) = lower.strip_suffix(".l") {
        (r, Some(Half::Lo))
    } else if let Some(r) = lower.strip_suffix(".h") {
        (r, Some(Half::Hi))
    } else {
        (lower.as_str(), None)
    };
    if let Some(range) = parse_reg(reg_text)? {
        return Ok(Operand::Reg {
            range,
            neg,
            abs,
            half,
        });
    }
    if let Some(v) = parse_int(body) {
        return Ok(Operand::Imm(if neg { -v } else { v }));
    }
    if let Some(v) = parse_float(body) {
        return Ok(Operand::Float(if neg { -v } else { v }));
    }
    if looks_like_symbol(body) {
        return Ok(Operand::Symbol(text.to_string()));
    }
    Ok(Operand::Text(text.to_string()))
}

fn strip_call<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    s.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(')')
}

fn parse_float(s: &str) -> Option<f64> {
    let s = s.trim();
    let first = s.chars().next()?;
    if !(first.is_ascii_digit() || first == '-' || first == '.') {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

fn looks_like_symbol(s: &str) -> bool {
    let first = match s.chars().next() {
        Some(c) => c,
        None => return false,
    };
    (first == '.' || first == '_' || first.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '@' | '+' | '-' | '$'))
        && (s.starts_with(".L")
            || s.starts_with("BB")
            || s.contains('@')
            || s.starts_with('_')
            // llvm-objdump --symbolize-operands (`L0`) and RGA (`label_0004`).
            || s.starts_with("label_")
            || (s.len() > 1 && s.starts_with('L') && s[1..].bytes().all(|b| b.is_ascii_digit())))
}

fn check_balanced(s: &str) -> Result<(), OperandError> {
    let mut depth: i32 = 0;
    for c in s.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return Err(OperandError::Unbalanced(s.to_string()));
        }
    }
    if depth != 0 {
        return Err(OperandError::Unbalanced(s.to_string()));
    }
    Ok(())
}

/// Split an operand string at top-level commas (not inside `[]` or `()`).
/// Each piece is further split at top-level whitespace into words, because
/// modifiers follow the last operand separated only by spaces.
pub fn split_operands(s: &str) -> Result<Vec<Vec<&str>>, OperandError> {
    let mut groups = Vec::new();
    let mut depth: i32 = 0;
    let mut start = 0;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' | b'(' => depth += 1,
            b']' | b')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(OperandError::Unbalanced(s.to_string()));
                }
            }
            b',' if depth == 0 => {
                groups.push(split_words(&s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(OperandError::Unbalanced(s.to_string()));
    }
    let last = &s[start..];
    if !last.trim().is_empty() || !groups.is_empty() {
        groups.push(split_words(last));
    }
    Ok(groups)
}

/// Split at whitespace outside brackets and parentheses; a `|` standing
/// alone (as in `s_delay_alu a | b`) is kept as its own word.
fn split_words(s: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut depth: i32 = 0;
    let mut start: Option<usize> = None;
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if let Some(st) = start.take() {
                words.push(&s[st..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        words.push(&s[st..]);
    }
    words
}

/// Parse a modifier word: `offen`, `offset:16`, `dmask:0xf`, `offset0:4`.
pub fn parse_modifier(word: &str) -> Modifier {
    match word.split_once(':') {
        Some((k, v)) => Modifier {
            key: k.to_ascii_lowercase(),
            value: Some(v.to_string()),
        },
        None => Modifier {
            key: word.to_ascii_lowercase(),
            value: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(s: &str) -> RegRange {
        parse_reg(s).unwrap().unwrap()
    }

    #[test]
    fn registers_and_ranges() {
        assert_eq!(reg("v5"), RegRange::single(RegFile::Vgpr, 5));
        assert_eq!(
            reg("v[4:7]"),
            RegRange {
                file: RegFile::Vgpr,
                first: 4,
                count: 4
            }
        );
        assert_eq!(reg("s[0:1]").count, 2);
        assert_eq!(reg("ttmp[4:5]").file, RegFile::Ttmp);
        assert_eq!(reg("v[3]").count, 1);
        assert_eq!(reg("vcc"), RegRange::special(SpecialReg::VccLo, 2));
        assert_eq!(reg("EXEC_LO"), RegRange::special(SpecialReg::ExecLo, 1));
        assert!(reg("vcc").touches(SpecialReg::VccHi));
        assert_eq!(reg("v[0:3]").to_string(), "v[0:3]");
        assert_eq!(reg("exec").to_string(), "exec");
        for bad in ["v[7:4]", "v[4:", "v[a:b]", "v256", "s[100:107]", "ttmp16"] {
            assert!(parse_reg(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_reg("sendmsg").unwrap(), None);
        assert_eq!(parse_reg("attr0.x").unwrap(), None);
    }

    #[test]
    fn operands_with_modifiers() {
        match parse_operand("-|v2|").unwrap() {
            Operand::Reg {
                neg, abs, range, ..
            } => {
                assert!(neg && abs);
                assert_eq!(range, RegRange::single(RegFile::Vgpr, 2));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_operand("-4").unwrap(), Operand::Imm(-4));
        assert_eq!(
            parse_operand("0x3f800000").unwrap(),
            Operand::Imm(0x3f80_0000)
        );
        assert_eq!(parse_operand("lit(0x1)").unwrap(), Operand::Imm(1));
        assert_eq!(parse_operand("-1.0").unwrap(), Operand::Float(-1.0));
        assert_eq!(
            parse_operand("0.15915494").unwrap(),
            Operand::Float(0.15915494)
        );
        assert_eq!(parse_operand("off").unwrap(), Operand::Off);
        assert_eq!(
            parse_operand(".LBB0_2").unwrap(),
            Operand::Symbol(".LBB0_2".into())
        );
        assert_eq!(parse_operand("BB3").unwrap(), Operand::Symbol("BB3".into()));
        assert!(matches!(
            parse_operand("v0.h").unwrap(),
            Operand::Reg {
                half: Some(Half::Hi),
                ..
            }
        ));
        assert!(
            matches!(parse_operand("[v4, v7, v2]").unwrap(), Operand::RegList(l) if l.len() == 3)
        );
        assert!(matches!(
            parse_operand("attr0.x").unwrap(),
            Operand::Text(_)
        ));
        assert!(parse_operand("v[0:3").is_err());
        assert!(parse_operand("").is_err());
    }

    #[test]
    fn splitting_respects_brackets() {
        let g = split_operands("v[0:3], [v4, v5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D")
            .unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(g[1], vec!["[v4, v5]"]);
        assert_eq!(g[3], vec!["s[8:11]", "dmask:0xf", "dim:SQ_RSRC_IMG_2D"]);
        let g = split_operands("s0, hwreg(HW_REG_MODE, 0, 4)").unwrap();
        assert_eq!(g.len(), 2);
        assert!(split_operands("v[0:3").is_err());
        assert!(split_operands("").unwrap().is_empty());
    }

    #[test]
    fn modifiers() {
        let m = parse_modifier("offset:16");
        assert_eq!(m.key, "offset");
        assert_eq!(m.int_value(), Some(16));
        assert_eq!(parse_modifier("dmask:0xf").int_value(), Some(15));
        assert_eq!(parse_modifier("glc").value, None);
    }
}
