//! Assembler expressions as LLVM prints them in resource directives.
//!
//! Since LLVM 20, register counts of kernels that call functions are
//! symbolic: `.set k.num_vgpr, max(32, helper.num_vgpr)` and
//! `.amdhsa_next_free_vgpr max(totalnumvgprs(k.num_agpr, k.num_vgpr), 1, 0)`.
//! This evaluator knows integers, `.set` symbols, the arithmetic, bitwise
//! and comparison operators of the GNU/LLVM assembler, and the AMDGPU
//! functions `max`, `or`, `alignto`, `totalnumvgprs`, `extrasgprs` and
//! `occupancy` (LLVM's AMDGPUMCExpr variants; the semantics below are the
//! documented ones). Anything else is "not known" (`None`), never a panic.

use std::collections::HashMap;

/// How deep `.set` symbols may refer to each other (and parentheses nest)
/// before evaluation gives up: real files nest a few levels, a cycle
/// (`.set a, b` / `.set b, a`) must end.
const MAX_DEPTH: u32 = 64;

/// What an expression may refer to.
pub(crate) struct Env<'a> {
    /// `.set` symbols and their (unevaluated) expressions.
    pub symbols: &'a HashMap<String, String>,
    /// Whether the target has unified VGPR/AGPR files (gfx90a, gfx94x,
    /// gfx950), where `totalnumvgprs` aligns the VGPRs to 4 and adds the
    /// AGPRs.
    pub unified_agprs: bool,
    /// The generation number (6..12), for `extrasgprs`.
    pub gen: u8,
}

/// Evaluate `text`; `None` when it uses something unknown or is malformed.
pub(crate) fn eval(text: &str, env: &Env) -> Option<i64> {
    eval_depth(text, env, 0)
}

fn eval_depth(text: &str, env: &Env, depth: u32) -> Option<i64> {
    if depth > MAX_DEPTH {
        return None;
    }
    let tokens = tokenize(text)?;
    let mut p = Parser {
        tokens: &tokens,
        pos: 0,
        env,
        depth,
    };
    let v = p.binary(0)?;
    (p.pos == tokens.len()).then_some(v)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Ident(String),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
}

/// Operators longest first, so `<<` wins over `<`.
const OPS: &[&str] = &[
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "<>", "+", "-", "*", "/", "%", "&", "|", "^",
    "<", ">", "!", "~",
];

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Num(shadersim_isa::operand::parse_int(
                &text[start..i],
            )?));
        } else if c.is_ascii_alphabetic() || matches!(c, b'_' | b'.' | b'$') {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'$' | b'@'))
            {
                i += 1;
            }
            out.push(Tok::Ident(text[start..i].to_string()));
        } else if c == b'(' {
            out.push(Tok::LParen);
            i += 1;
        } else if c == b')' {
            out.push(Tok::RParen);
            i += 1;
        } else if c == b',' {
            out.push(Tok::Comma);
            i += 1;
        } else {
            let op = OPS.iter().find(|op| text[i..].starts_with(**op))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

struct Parser<'t, 'e> {
    tokens: &'t [Tok],
    pos: usize,
    env: &'e Env<'e>,
    depth: u32,
}

/// Binary operator precedence (higher binds tighter), as in LLVM's
/// assembler (GNU precedence is the same for these).
fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" | "^" | "&" => 3,
        "==" | "!=" | "<>" | "<" | "<=" | ">" | ">=" => 4,
        "+" | "-" => 5,
        "*" | "/" | "%" | "<<" | ">>" => 6,
        _ => return None,
    })
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos)
    }

    fn binary(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Op(op)) = self.peek() {
            let op = *op;
            let Some(prec) = precedence(op) else { break };
            if prec < min {
                break;
            }
            self.pos += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = match op {
                "+" => lhs.checked_add(rhs)?,
                "-" => lhs.checked_sub(rhs)?,
                "*" => lhs.checked_mul(rhs)?,
                "/" => lhs.checked_div(rhs)?,
                "%" => lhs.checked_rem(rhs)?,
                "<<" => lhs.checked_shl(u32::try_from(rhs).ok()?)?,
                ">>" => lhs.checked_shr(u32::try_from(rhs).ok()?)?,
                "&" => lhs & rhs,
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&&" => i64::from(lhs != 0 && rhs != 0),
                "||" => i64::from(lhs != 0 || rhs != 0),
                // LLVM's comparisons give -1 for true, 0 for false.
                "==" => -i64::from(lhs == rhs),
                "!=" | "<>" => -i64::from(lhs != rhs),
                "<" => -i64::from(lhs < rhs),
                "<=" => -i64::from(lhs <= rhs),
                ">" => -i64::from(lhs > rhs),
                ">=" => -i64::from(lhs >= rhs),
                _ => return None,
            };
        }
        Some(lhs)
    }

    fn unary(&mut self) -> Option<i64> {
        match self.peek()?.clone() {
            Tok::Op("-") => {
                self.pos += 1;
                self.unary()?.checked_neg()
            }
            Tok::Op("+") => {
                self.pos += 1;
                self.unary()
            }
            Tok::Op("~") => {
                self.pos += 1;
                Some(!self.unary()?)
            }
            Tok::Op("!") => {
                self.pos += 1;
                Some(i64::from(self.unary()? == 0))
            }
            Tok::Num(n) => {
                self.pos += 1;
                Some(n)
            }
            Tok::LParen => {
                self.pos += 1;
                let v = self.binary(0)?;
                (self.peek() == Some(&Tok::RParen)).then(|| self.pos += 1)?;
                Some(v)
            }
            Tok::Ident(name) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::LParen) {
                    self.pos += 1;
                    let args = self.arguments()?;
                    return self.call(&name, &args);
                }
                let text = self.env.symbols.get(&name)?;
                eval_depth(text, self.env, self.depth + 1)
            }
            _ => None,
        }
    }

    fn arguments(&mut self) -> Option<Vec<i64>> {
        let mut args = Vec::new();
        if self.peek() == Some(&Tok::RParen) {
            self.pos += 1;
            return Some(args);
        }
        loop {
            args.push(self.binary(0)?);
            match self.peek()? {
                Tok::Comma => self.pos += 1,
                Tok::RParen => {
                    self.pos += 1;
                    return Some(args);
                }
                _ => return None,
            }
        }
    }

    fn call(&self, name: &str, args: &[i64]) -> Option<i64> {
        match (name, args) {
            ("max", [_, ..]) => args.iter().copied().max(),
            ("or", [_, ..]) => Some(args.iter().fold(0, |a, b| a | b)),
            ("alignto", [x, a]) if *a > 0 => x.checked_add(a - 1)?.checked_div(*a)?.checked_mul(*a),
            // Unified register files allocate AGPRs after the VGPRs
            // rounded up to 4; split ones allocate the larger of the two.
            ("totalnumvgprs", [agpr, vgpr]) => {
                if self.env.unified_agprs && *agpr > 0 {
                    vgpr.checked_add(3)?
                        .checked_div(4)?
                        .checked_mul(4)?
                        .checked_add(*agpr)
                } else {
                    Some((*agpr).max(*vgpr))
                }
            }
            // SGPRs reserved beyond the numbered ones: VCC (2), and before
            // gfx10 FLAT_SCRATCH (2) and XNACK_MASK (2, gfx8-9).
            ("extrasgprs", [vcc, flat_scratch, xnack, ..]) => {
                let mut extra = 0;
                if *vcc != 0 {
                    extra = 2;
                }
                if self.env.gen < 10 {
                    if *flat_scratch != 0 {
                        extra = if self.env.gen >= 8 { 6 } else { 4 };
                    }
                    if *xnack != 0 && self.env.gen >= 8 {
                        extra = extra.max(4);
                    }
                }
                Some(extra)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(symbols: &HashMap<String, String>) -> Env<'_> {
        Env {
            symbols,
            unified_agprs: false,
            gen: 11,
        }
    }

    #[test]
    fn arithmetic_symbols_and_functions() {
        let mut s = HashMap::new();
        s.insert("helper.num_vgpr".to_string(), "12".to_string());
        s.insert(
            "k.num_vgpr".to_string(),
            "max(32, helper.num_vgpr)".to_string(),
        );
        s.insert("k.num_agpr".to_string(), "0".to_string());
        let e = env(&s);
        assert_eq!(eval("1 + 2 * 3", &e), Some(7));
        assert_eq!(eval("(1 + 2) * 3 - 0x10", &e), Some(-7));
        assert_eq!(
            eval("max(totalnumvgprs(k.num_agpr, k.num_vgpr), 1, 0)", &e),
            Some(32)
        );
        assert_eq!(eval("alignto(13, 8)", &e), Some(16));
        assert_eq!(eval("1 << 4 | 1", &e), Some(17));
        assert_eq!(eval("unknown.sym + 1", &e), None);
        assert_eq!(eval("max(", &e), None);
        assert_eq!(eval("5 / 0", &e), None);
        let unified = Env {
            unified_agprs: true,
            ..env(&s)
        };
        assert_eq!(eval("totalnumvgprs(32, 9)", &unified), Some(44));
    }

    #[test]
    fn cycles_end() {
        let mut s = HashMap::new();
        s.insert("a".to_string(), "b + 1".to_string());
        s.insert("b".to_string(), "a + 1".to_string());
        assert_eq!(eval("a", &env(&s)), None);
    }
}
