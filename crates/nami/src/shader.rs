//! The pixel-shader assembly language of the seed-003 GPU, and its functional
//! execution on one Nami.
//!
//! The hardware rules it respects (seed, SKE section):
//! * 16 registers in two banks of eight, `a0`..`a7` and `b0`..`b7`; each is 8
//!   lanes (one per Nami pixel) of 16 bits.
//! * An instruction with two register inputs takes one from bank A and the
//!   other from bank B ("to make it easier to achieve two register reads per
//!   clock"); anything else is an error with line and column.
//! * A destination names bank A (`a3`), bank B (`b3`) or both (`ab3`).
//! * `export` is the end of the shader: it must be the last instruction.
//! * Writes are lane-masked: lanes of a partial Nami that hold no pixel are
//!   never written (the byte write enables the seed discusses).
//!
//! ```text
//! ; comment (also //)
//! add   d, x, y    ; d = x + y (wrapping)       x, y: one from bank A, one from bank B
//! sub   d, x, y    ; d = x - y (wrapping)
//! mul   d, x, y    ; d = (x * y) >> 8           8.8 fixed point: a 0..255 channel times w/256
//! and | or | xor   ; bitwise
//! min | max        ; unsigned
//! avg   d, x, y    ; d = (x + y) >> 1           a 50% blend
//! mov   d, x       ; d = x
//! not   d, x       ; d = !x
//! shl   d, x, n    ; d = x << n, n in 0..=15
//! shr   d, x, n    ; d = x >> n (logical)
//! li    d, imm     ; d = imm, 0..=65535 (decimal or 0x hex)
//! export x         ; send x (an RGB565 colour per lane) to the ELT; ends the shader
//! ```
//!
//! Launch registers (assumption: the seed lists the constant data, the model
//! chooses where it lands): `a0`, `a1`, `a2` hold the interpolated red, green
//! and blue (0..=255); `b0`, `b1`, `b2` the previous colour read from the
//! render cache when the pixel was rasterized (0..=255, expanded from RGB565);
//! `a3` the pixel's x and `b3` its y. All other registers start at 0.

use std::fmt;

/// Lanes of a Nami and of a register (seed: "vector of 8 pixels/lanes. This is also the ALU width").
pub const LANES: usize = 8;

/// Registers in each bank (seed: "two banks of eight registers each").
pub const REGISTERS_PER_BANK: usize = 8;

/// One of the two register-file banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bank {
    /// Bank A (`a0`..`a7`).
    A,
    /// Bank B (`b0`..`b7`).
    B,
}

/// A source register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// Its bank.
    pub bank: Bank,
    /// Its index in the bank, 0..8.
    pub index: u8,
}

/// Where an instruction writes: bank A, bank B or both (seed: "Instruction
/// output operand encoding can specify bank A, bank B, or both").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// `aN`.
    A(u8),
    /// `bN`.
    B(u8),
    /// `abN`: the same index in both banks.
    Both(u8),
}

/// Two-input operations (one operand per bank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// Wrapping add.
    Add,
    /// Wrapping subtract.
    Sub,
    /// 8.8 fixed-point product: (x * y) >> 8.
    Mul,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Unsigned minimum.
    Min,
    /// Unsigned maximum.
    Max,
    /// Average, (x + y) >> 1.
    Avg,
}

impl BinaryOp {
    fn apply(self, x: u16, y: u16) -> u16 {
        match self {
            BinaryOp::Add => x.wrapping_add(y),
            BinaryOp::Sub => x.wrapping_sub(y),
            BinaryOp::Mul => ((u32::from(x) * u32::from(y)) >> 8) as u16,
            BinaryOp::And => x & y,
            BinaryOp::Or => x | y,
            BinaryOp::Xor => x ^ y,
            BinaryOp::Min => x.min(y),
            BinaryOp::Max => x.max(y),
            BinaryOp::Avg => ((u32::from(x) + u32::from(y)) >> 1) as u16,
        }
    }
}

/// One instruction of the shader ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// `op d, x, y` with x and y in different banks.
    Binary {
        /// The operation.
        op: BinaryOp,
        /// Destination.
        dst: Dest,
        /// First operand.
        x: Reg,
        /// Second operand (the other bank).
        y: Reg,
    },
    /// `mov d, x`.
    Mov {
        /// Destination.
        dst: Dest,
        /// Source.
        src: Reg,
    },
    /// `not d, x`.
    Not {
        /// Destination.
        dst: Dest,
        /// Source.
        src: Reg,
    },
    /// `shl d, x, n` (left) or `shr d, x, n` (right).
    Shift {
        /// Shift left when true, right (logical) when false.
        left: bool,
        /// Destination.
        dst: Dest,
        /// Source.
        src: Reg,
        /// Shift amount, 0..=15.
        amount: u8,
    },
    /// `li d, imm`.
    LoadImmediate {
        /// Destination.
        dst: Dest,
        /// The value.
        value: u16,
    },
    /// `export x`: the colour (RGB565) of every valid lane goes to the ELT; ends the shader.
    Export {
        /// The register holding the colours.
        src: Reg,
    },
}

/// A syntax or hardware-rule error, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct AsmError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// An assembled shader: straight-line code ending in `export`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The instructions, the last one an `export`.
    pub instructions: Vec<Instruction>,
}

/// The shader used when none is given: pack the interpolated colour into
/// RGB565 and export it (8 instructions; the seed's first shader "was only
/// around 7 instructions").
pub const DEFAULT_SHADER: &str = include_str!("../data/default.s");

/// A token with its 1-based column.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    col: usize,
}

fn err(line: usize, col: usize, message: impl Into<String>) -> AsmError {
    AsmError {
        line,
        col,
        message: message.into(),
    }
}

/// Strip a comment (`;` or `//`) from a line.
fn code_part(line: &str) -> &str {
    let mut end = line.len();
    if let Some(i) = line.find(';') {
        end = end.min(i);
    }
    if let Some(i) = line.find("//") {
        end = end.min(i);
    }
    &line[..end]
}

/// 1-based character column of byte offset `byte` in `line`.
fn column(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// Split `mnemonic op, op, op` into the mnemonic and operand tokens.
fn tokenize(line: &str) -> Option<(Token<'_>, Vec<Token<'_>>, usize)> {
    let code = code_part(line);
    let start = code.len() - code.trim_start().len();
    let rest = &code[start..];
    if rest.trim().is_empty() {
        return None;
    }
    let mn_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let mnemonic = Token {
        text: &rest[..mn_len],
        col: column(line, start),
    };
    let ops_start = start + mn_len;
    let ops_text = &code[ops_start..];
    let mut operands = Vec::new();
    if !ops_text.trim().is_empty() {
        let mut offset = ops_start;
        for piece in ops_text.split(',') {
            let lead = piece.len() - piece.trim_start().len();
            operands.push(Token {
                text: piece.trim(),
                col: column(line, offset + lead),
            });
            offset += piece.len() + 1;
        }
    }
    let end_col = column(line, code.trim_end().len());
    Some((mnemonic, operands, end_col))
}

fn parse_reg(tok: Token<'_>, line: usize) -> Result<Reg, AsmError> {
    let t = tok.text.to_ascii_lowercase();
    let (bank, digits) = if let Some(d) = t.strip_prefix('a') {
        (Bank::A, d)
    } else if let Some(d) = t.strip_prefix('b') {
        (Bank::B, d)
    } else {
        return Err(err(
            line,
            tok.col,
            format!("expected a register a0..a7 or b0..b7, found `{}`", tok.text),
        ));
    };
    match digits.parse::<u8>() {
        Ok(i) if (i as usize) < REGISTERS_PER_BANK && digits.len() == 1 => {
            Ok(Reg { bank, index: i })
        }
        _ => Err(err(
            line,
            tok.col,
            format!(
                "expected a register a0..a7 or b0..b7 (two banks of eight), found `{}`",
                tok.text
            ),
        )),
    }
}

fn parse_dest(tok: Token<'_>, line: usize) -> Result<Dest, AsmError> {
    let t = tok.text.to_ascii_lowercase();
    if let Some(d) = t.strip_prefix("ab") {
        return match d.parse::<u8>() {
            Ok(i) if (i as usize) < REGISTERS_PER_BANK && d.len() == 1 => Ok(Dest::Both(i)),
            _ => Err(err(
                line,
                tok.col,
                format!(
                    "expected a destination aN, bN or abN (N in 0..7), found `{}`",
                    tok.text
                ),
            )),
        };
    }
    let reg = parse_reg(tok, line).map_err(|_| {
        err(
            line,
            tok.col,
            format!(
                "expected a destination aN, bN or abN (N in 0..7), found `{}`",
                tok.text
            ),
        )
    })?;
    Ok(match reg.bank {
        Bank::A => Dest::A(reg.index),
        Bank::B => Dest::B(reg.index),
    })
}

fn parse_number(tok: Token<'_>, line: usize, max: u32, what: &str) -> Result<u32, AsmError> {
    let t = tok.text.to_ascii_lowercase();
    let parsed = if let Some(hex) = t.strip_prefix("0x") {
        u32::from_str_radix(hex, 16)
    } else {
        t.parse::<u32>()
    };
    match parsed {
        Ok(v) if v <= max => Ok(v),
        _ => Err(err(
            line,
            tok.col,
            format!("expected {what} (0..={max}), found `{}`", tok.text),
        )),
    }
}

fn expect_operands(
    mnemonic: Token<'_>,
    operands: &[Token<'_>],
    n: usize,
    line: usize,
    end_col: usize,
    shape: &str,
) -> Result<(), AsmError> {
    if let Some(empty) = operands.iter().find(|t| t.text.is_empty()) {
        return Err(err(line, empty.col, "empty operand"));
    }
    if operands.len() < n {
        return Err(err(
            line,
            end_col,
            format!(
                "`{}` takes {n} operands ({shape}), found {}",
                mnemonic.text,
                operands.len()
            ),
        ));
    }
    if operands.len() > n {
        return Err(err(
            line,
            operands[n].col,
            format!(
                "`{}` takes {n} operands ({shape}), found {}",
                mnemonic.text,
                operands.len()
            ),
        ));
    }
    Ok(())
}

fn parse_line(
    mnemonic: Token<'_>,
    operands: &[Token<'_>],
    line: usize,
    end_col: usize,
) -> Result<Instruction, AsmError> {
    let name = mnemonic.text.to_ascii_lowercase();
    let binary = match name.as_str() {
        "add" => Some(BinaryOp::Add),
        "sub" => Some(BinaryOp::Sub),
        "mul" => Some(BinaryOp::Mul),
        "and" => Some(BinaryOp::And),
        "or" => Some(BinaryOp::Or),
        "xor" => Some(BinaryOp::Xor),
        "min" => Some(BinaryOp::Min),
        "max" => Some(BinaryOp::Max),
        "avg" => Some(BinaryOp::Avg),
        _ => None,
    };
    if let Some(op) = binary {
        expect_operands(mnemonic, operands, 3, line, end_col, "d, x, y")?;
        let dst = parse_dest(operands[0], line)?;
        let x = parse_reg(operands[1], line)?;
        let y = parse_reg(operands[2], line)?;
        if x.bank == y.bank {
            let bank = if x.bank == Bank::A { "A" } else { "B" };
            return Err(err(
                line,
                operands[2].col,
                format!(
                    "`{}` reads `{}` and `{}`, both from bank {bank}: a two-input instruction must take one operand from bank A and the other from bank B",
                    mnemonic.text, operands[1].text, operands[2].text
                ),
            ));
        }
        return Ok(Instruction::Binary { op, dst, x, y });
    }
    match name.as_str() {
        "mov" | "not" => {
            expect_operands(mnemonic, operands, 2, line, end_col, "d, x")?;
            let dst = parse_dest(operands[0], line)?;
            let src = parse_reg(operands[1], line)?;
            Ok(if name == "mov" {
                Instruction::Mov { dst, src }
            } else {
                Instruction::Not { dst, src }
            })
        }
        "shl" | "shr" => {
            expect_operands(mnemonic, operands, 3, line, end_col, "d, x, n")?;
            let dst = parse_dest(operands[0], line)?;
            let src = parse_reg(operands[1], line)?;
            let amount = parse_number(operands[2], line, 15, "a shift amount")? as u8;
            Ok(Instruction::Shift {
                left: name == "shl",
                dst,
                src,
                amount,
            })
        }
        "li" => {
            expect_operands(mnemonic, operands, 2, line, end_col, "d, imm")?;
            let dst = parse_dest(operands[0], line)?;
            let value = parse_number(operands[1], line, 0xffff, "a 16-bit immediate")? as u16;
            Ok(Instruction::LoadImmediate { dst, value })
        }
        "export" => {
            expect_operands(mnemonic, operands, 1, line, end_col, "x")?;
            let src = parse_reg(operands[0], line)?;
            Ok(Instruction::Export { src })
        }
        _ => Err(err(
            line,
            mnemonic.col,
            format!(
                "unknown instruction `{}` (known: add sub mul and or xor min max avg mov not shl shr li export)",
                mnemonic.text
            ),
        )),
    }
}

impl Program {
    /// Assemble source text. Errors carry line and column; no input panics.
    pub fn parse(source: &str) -> Result<Program, AsmError> {
        let mut instructions = Vec::new();
        let mut export_at: Option<(usize, usize)> = None;
        let mut last_line = 1;
        for (i, line) in source.lines().enumerate() {
            let line_no = i + 1;
            last_line = line_no;
            let Some((mnemonic, operands, end_col)) = tokenize(line) else {
                continue;
            };
            if let Some((l, c)) = export_at {
                return Err(err(
                    line_no,
                    mnemonic.col,
                    format!(
                        "instruction after `export` (line {l}, column {c}): export ends the shader"
                    ),
                ));
            }
            let instruction = parse_line(mnemonic, &operands, line_no, end_col)?;
            if matches!(instruction, Instruction::Export { .. }) {
                export_at = Some((line_no, mnemonic.col));
            }
            instructions.push(instruction);
        }
        if export_at.is_none() {
            return Err(err(
                last_line.max(1),
                1,
                "the shader has no `export`: every shader ends with one",
            ));
        }
        Ok(Program { instructions })
    }

    /// The built-in default shader.
    pub fn default_shader() -> Program {
        // The embedded default is checked by a unit test; fall back to the
        // shortest valid shader rather than panic if it were ever broken.
        Program::parse(DEFAULT_SHADER).unwrap_or(Program {
            instructions: vec![Instruction::Export {
                src: Reg {
                    bank: Bank::A,
                    index: 0,
                },
            }],
        })
    }

    /// Run the shader on the lanes in `lane_mask` of `registers` (launch
    /// registers loaded, every other register 0): each instruction once, in
    /// order, up to the export, whose values it returns. This is what the
    /// SKE does to one Nami over its issues (whenever it sees the Nami's
    /// latest program counter, which the AKB's round robin guarantees
    /// when there are at least as many NMBs as pipeline clocks); past the
    /// end, as there, `export a0`.
    pub fn run(&self, registers: &mut RegisterFile, lane_mask: u8) -> [u16; LANES] {
        for instruction in &self.instructions {
            if let Some(values) = registers.execute(instruction, lane_mask) {
                return values;
            }
        }
        registers.a[0]
    }

    /// Whether the shader may read a register among `regs` before
    /// writing it (conservatively: whether it reads one at all, up to its
    /// export). A shader that never reads b0..b2 ignores the previous colour.
    pub fn reads_any(&self, regs: &[Reg]) -> bool {
        let mut sources = Vec::new();
        for instruction in &self.instructions {
            match *instruction {
                Instruction::Binary { x, y, .. } => sources.extend([x, y]),
                Instruction::Mov { src, .. }
                | Instruction::Not { src, .. }
                | Instruction::Shift { src, .. } => sources.push(src),
                Instruction::LoadImmediate { .. } => {}
                Instruction::Export { src } => {
                    sources.push(src);
                    break;
                }
            }
        }
        if !self
            .instructions
            .iter()
            .any(|i| matches!(i, Instruction::Export { .. }))
        {
            // Past the end the SKE exports a0.
            sources.push(Reg {
                bank: Bank::A,
                index: 0,
            });
        }
        sources.iter().any(|s| regs.contains(s))
    }

    /// Number of instructions (SKE slots one Nami needs without retries).
    pub fn len(&self) -> usize {
        self.instructions.len()
    }

    /// Whether the program is empty (never true for a parsed program).
    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty()
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = if self.bank == Bank::A { 'a' } else { 'b' };
        write!(f, "{b}{}", self.index)
    }
}

/// One Nami's 16 registers of 8 lanes x 16 bits (the seed's register file
/// holds one such set per Nami slot: 16 x 4 x 4 x 8 x 16 = 32,768 bits per AKB).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegisterFile {
    /// Bank A.
    pub a: [[u16; LANES]; REGISTERS_PER_BANK],
    /// Bank B.
    pub b: [[u16; LANES]; REGISTERS_PER_BANK],
}

impl RegisterFile {
    /// Bits of one Nami's registers.
    pub const BITS: u64 = (2 * REGISTERS_PER_BANK * LANES * 16) as u64;

    #[inline(always)]
    fn read(&self, r: Reg) -> [u16; LANES] {
        match r.bank {
            Bank::A => self.a[r.index as usize],
            Bank::B => self.b[r.index as usize],
        }
    }

    #[inline(always)]
    fn write(&mut self, d: Dest, value: [u16; LANES], lane_mask: u8) {
        let put = |reg: &mut [u16; LANES]| {
            if lane_mask == 0xff {
                // Every lane (the common case): one store, no per-lane test.
                *reg = value;
                return;
            }
            for (lane, (r, v)) in reg.iter_mut().zip(value).enumerate() {
                if lane_mask & (1 << lane) != 0 {
                    *r = v;
                }
            }
        };
        match d {
            Dest::A(i) => put(&mut self.a[i as usize]),
            Dest::B(i) => put(&mut self.b[i as usize]),
            Dest::Both(i) => {
                put(&mut self.a[i as usize]);
                put(&mut self.b[i as usize]);
            }
        }
    }

    /// Load lane `lane`'s launch registers (see the module documentation):
    /// interpolated colour in a0..a2, previous colour in b0..b2, x in a3,
    /// y in b3.
    #[inline]
    pub fn launch(&mut self, lane: usize, colour: [u8; 3], previous: [u8; 3], x: u16, y: u16) {
        for ch in 0..3 {
            self.a[ch][lane] = u16::from(colour[ch]);
            self.b[ch][lane] = u16::from(previous[ch]);
        }
        self.a[3][lane] = x;
        self.b[3][lane] = y;
    }

    /// Execute one instruction on the lanes in `lane_mask`. Returns the
    /// exported values for `export` (the caller decides whether the export
    /// is granted; a refused export changes nothing and is executed again).
    #[inline]
    pub fn execute(&mut self, instruction: &Instruction, lane_mask: u8) -> Option<[u16; LANES]> {
        match *instruction {
            Instruction::Binary { op, dst, x, y } => {
                let (xv, yv) = (self.read(x), self.read(y));
                // The operation chosen once, outside the lane loop, so each
                // arm is one straight (vectorisable) pass over the lanes:
                // this runs for nearly every SKE slot.
                let out = match op {
                    BinaryOp::Add => lanes(xv, yv, u16::wrapping_add),
                    BinaryOp::Sub => lanes(xv, yv, u16::wrapping_sub),
                    BinaryOp::Mul => lanes(xv, yv, |x, y| BinaryOp::Mul.apply(x, y)),
                    BinaryOp::And => lanes(xv, yv, |x, y| x & y),
                    BinaryOp::Or => lanes(xv, yv, |x, y| x | y),
                    BinaryOp::Xor => lanes(xv, yv, |x, y| x ^ y),
                    BinaryOp::Min => lanes(xv, yv, u16::min),
                    BinaryOp::Max => lanes(xv, yv, u16::max),
                    BinaryOp::Avg => lanes(xv, yv, |x, y| BinaryOp::Avg.apply(x, y)),
                };
                self.write(dst, out, lane_mask);
                None
            }
            Instruction::Mov { dst, src } => {
                let v = self.read(src);
                self.write(dst, v, lane_mask);
                None
            }
            Instruction::Not { dst, src } => {
                let v = self.read(src).map(|x| !x);
                self.write(dst, v, lane_mask);
                None
            }
            Instruction::Shift {
                left,
                dst,
                src,
                amount,
            } => {
                let v = if left {
                    self.read(src).map(|x| x << amount)
                } else {
                    self.read(src).map(|x| x >> amount)
                };
                self.write(dst, v, lane_mask);
                None
            }
            Instruction::LoadImmediate { dst, value } => {
                self.write(dst, [value; LANES], lane_mask);
                None
            }
            Instruction::Export { src } => Some(self.read(src)),
        }
    }
}

/// `f` applied lane by lane.
#[inline(always)]
fn lanes(x: [u16; LANES], y: [u16; LANES], f: impl Fn(u16, u16) -> u16) -> [u16; LANES] {
    std::array::from_fn(|lane| f(x[lane], y[lane]))
}

/// Pack 8-bit channels into RGB565 (truncating, as the default shader does).
pub fn pack_rgb565(rgb: [u8; 3]) -> u16 {
    (u16::from(rgb[0] >> 3) << 11) | (u16::from(rgb[1] >> 2) << 5) | u16::from(rgb[2] >> 3)
}

/// Expand RGB565 to 8-bit channels (bit replication).
pub fn unpack_rgb565(c: u16) -> [u8; 3] {
    let r = ((c >> 11) & 0x1f) as u8;
    let g = ((c >> 5) & 0x3f) as u8;
    let b = (c & 0x1f) as u8;
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_shader_assembles_and_packs_rgb565() {
        let p = Program::parse(DEFAULT_SHADER).unwrap();
        assert!(matches!(
            p.instructions.last(),
            Some(Instruction::Export { .. })
        ));
        let mut rf = RegisterFile::default();
        rf.a[0] = [200; LANES];
        rf.a[1] = [100; LANES];
        rf.a[2] = [50; LANES];
        let mut exported = None;
        for i in &p.instructions {
            exported = rf.execute(i, 0xff);
        }
        assert_eq!(exported, Some([pack_rgb565([200, 100, 50]); LANES]));
    }

    #[test]
    fn same_bank_operands_are_an_error_at_the_second_operand() {
        let e = Program::parse("li a1, 3\n  add a0, a1, a2\nexport a0\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 15));
        assert!(e
            .message
            .contains("one operand from bank A and the other from bank B"));
        assert!(Program::parse("add ab0, b1, a2\nexport a0").is_ok());
    }

    #[test]
    fn errors_have_positions() {
        let e = Program::parse("frob a0\nexport a0").unwrap_err();
        assert_eq!(
            (e.line, e.col, e.message.starts_with("unknown instruction")),
            (1, 1, true)
        );
        let e = Program::parse("mov a0, c1\nexport a0").unwrap_err();
        assert_eq!((e.line, e.col), (1, 9));
        let e = Program::parse("shl a0, b1, 16\nexport a0").unwrap_err();
        assert_eq!((e.line, e.col), (1, 13));
        let e = Program::parse("export a0\nmov a1, a0").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Program::parse("mov a1, a0 ; no export").unwrap_err();
        assert!(e.message.contains("no `export`"));
        let e = Program::parse("li a0\nexport a0").unwrap_err();
        assert_eq!((e.line, e.col), (1, 6));
        let e = Program::parse("mov a0, , b1\nexport a0").unwrap_err();
        assert_eq!((e.line, e.col), (1, 9));
    }

    #[test]
    fn lane_mask_limits_writes() {
        let mut rf = RegisterFile::default();
        let p = Program::parse("li ab1, 0x1234\nexport a1").unwrap();
        rf.execute(&p.instructions[0], 0b0000_0101);
        assert_eq!(rf.a[1], [0x1234, 0, 0x1234, 0, 0, 0, 0, 0]);
        assert_eq!(rf.b[1], rf.a[1]);
    }

    #[test]
    fn operations() {
        assert_eq!(BinaryOp::Mul.apply(200, 128), 100);
        assert_eq!(BinaryOp::Avg.apply(0xffff, 0xffff), 0xffff);
        assert_eq!(BinaryOp::Sub.apply(0, 1), 0xffff);
        assert_eq!(unpack_rgb565(pack_rgb565([255, 255, 255])), [255, 255, 255]);
    }
}
