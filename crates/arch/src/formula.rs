//! Derived parameters: a number a model computes from its other numbers.
//!
//! A parameter written `{ formula = "dram_gb_per_s * 1000 / gpu_cus / clock_mhz", source =
//! "derived: ..." }` has no value of its own: the model computes it from the parameters the
//! formula names, after inheritance and after every `--set`. So a variant that changes
//! `clock_mhz` or `gpu_cus` gets its own bandwidth instead of its base's, and the arithmetic
//! is written once, in the data, where a test can read it.
//!
//! The grammar is arithmetic only: numbers, parameter names, `+ - * /`, unary minus and
//! parentheses, with the usual precedence.

use std::collections::BTreeMap;

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
pub enum Formula {
    /// A number.
    Number(f64),
    /// A parameter's value.
    Param(String),
    /// `-x`.
    Neg(Box<Formula>),
    /// `a OP b`.
    Binary(Box<Formula>, char, Box<Formula>),
}

impl Formula {
    /// Parse `text`; the error says what is wrong and where (0-based byte offset).
    pub fn parse(text: &str) -> Result<Formula, String> {
        let mut p = Parser {
            text: text.as_bytes(),
            pos: 0,
        };
        let f = p.sum()?;
        p.skip_space();
        if p.pos != p.text.len() {
            return Err(format!(
                "unexpected `{}` at offset {} of `{text}`",
                &text[p.pos..],
                p.pos
            ));
        }
        Ok(f)
    }

    /// The parameter names the formula reads, in order of appearance.
    pub fn inputs(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Formula::Number(_) => {}
            Formula::Param(p) => out.push(p),
            Formula::Neg(a) => a.collect(out),
            Formula::Binary(a, _, b) => {
                a.collect(out);
                b.collect(out);
            }
        }
    }

    /// The value with the parameters' values from `value_of`; an error names a missing
    /// parameter or a division by zero.
    pub fn eval(&self, value_of: &dyn Fn(&str) -> Option<f64>) -> Result<f64, String> {
        Ok(match self {
            Formula::Number(v) => *v,
            Formula::Param(p) => value_of(p).ok_or_else(|| format!("unknown parameter `{p}`"))?,
            Formula::Neg(a) => -a.eval(value_of)?,
            Formula::Binary(a, op, b) => {
                let (a, b) = (a.eval(value_of)?, b.eval(value_of)?);
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ if b == 0.0 => return Err("division by zero".into()),
                    _ => a / b,
                }
            }
        })
    }
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.pos).copied()
    }

    fn sum(&mut self) -> Result<Formula, String> {
        let mut left = self.product()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let right = self.product()?;
            left = Formula::Binary(Box::new(left), op as char, Box::new(right));
        }
        Ok(left)
    }

    fn product(&mut self) -> Result<Formula, String> {
        let mut left = self.unary()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.pos += 1;
            let right = self.unary()?;
            left = Formula::Binary(Box::new(left), op as char, Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Formula, String> {
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                Ok(Formula::Neg(Box::new(self.unary()?)))
            }
            Some(b'(') => {
                self.pos += 1;
                let inner = self.sum()?;
                if self.peek() != Some(b')') {
                    return Err(format!("expected `)` at offset {}", self.pos));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.pos;
                while self
                    .text
                    .get(self.pos)
                    .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
                {
                    self.pos += 1;
                }
                let s = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or("");
                s.parse()
                    .map(Formula::Number)
                    .map_err(|_| format!("`{s}` is not a number"))
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.pos;
                while self
                    .text
                    .get(self.pos)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    self.pos += 1;
                }
                let s = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or("");
                Ok(Formula::Param(s.to_string()))
            }
            Some(c) => Err(format!("unexpected `{}` at offset {}", c as char, self.pos)),
            None => Err("the formula ends too early".into()),
        }
    }
}

/// Evaluate every formula of `formulas` (parameter name to formula text) against `values`,
/// in dependency order, writing each result into `values`. An error names the parameter
/// (a bad formula, a missing input, a cycle).
pub fn evaluate_all(
    formulas: &BTreeMap<String, String>,
    values: &mut BTreeMap<String, f64>,
) -> Result<(), String> {
    let parsed: BTreeMap<&str, Formula> = formulas
        .iter()
        .map(|(name, text)| {
            Formula::parse(text)
                .map(|f| (name.as_str(), f))
                .map_err(|e| format!("the formula of `{name}`: {e}"))
        })
        .collect::<Result<_, _>>()?;
    // Each round evaluates the formulas whose inputs are all plain or already
    // computed; a round that computes nothing leaves a cycle.
    let mut done: BTreeMap<&str, bool> = parsed.keys().map(|k| (*k, false)).collect();
    loop {
        let mut progress = false;
        for (name, f) in &parsed {
            if done[name] {
                continue;
            }
            let ready = f.inputs().iter().all(|i| done.get(i).is_none_or(|d| *d));
            if !ready {
                continue;
            }
            let v = f
                .eval(&|p| values.get(p).copied())
                .map_err(|e| format!("the formula of `{name}`: {e}"))?;
            values.insert((*name).to_string(), v);
            done.insert(name, true);
            progress = true;
        }
        if done.values().all(|d| *d) {
            return Ok(());
        }
        if !progress {
            let left: Vec<&str> = done.iter().filter(|(_, d)| !**d).map(|(k, _)| *k).collect();
            return Err(format!(
                "the formulas of {} depend on each other in a circle",
                left.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_parameters() {
        let f = Formula::parse("dram_gb_per_s * 1000 / gpu_cus / clock_mhz").unwrap();
        assert_eq!(f.inputs(), vec!["dram_gb_per_s", "gpu_cus", "clock_mhz"]);
        let v = |p: &str| match p {
            "dram_gb_per_s" => Some(484.0),
            "gpu_cus" => Some(64.0),
            "clock_mhz" => Some(1546.0),
            _ => None,
        };
        // 484 GB/s = 484000 MB/s; / 64 CUs / 1546 M clocks = 4.8916 bytes per clock.
        assert!((f.eval(&v).unwrap() - 484_000.0 / 64.0 / 1546.0).abs() < 1e-12);
        assert_eq!(
            Formula::parse("2 + 3 * -(4 - 1)").unwrap().eval(&|_| None),
            Ok(-7.0)
        );
        assert!(Formula::parse("2 +").is_err());
        assert!(Formula::parse("2 ) 3").is_err());
        assert!(Formula::parse("a $ b").is_err());
        assert!(Formula::parse("1 / x")
            .unwrap()
            .eval(&|_| Some(0.0))
            .is_err());
    }

    #[test]
    fn chains_resolve_and_circles_are_errors() {
        let formulas: BTreeMap<String, String> = [
            ("b".to_string(), "a * 2".to_string()),
            ("c".to_string(), "b + 1".to_string()),
        ]
        .into();
        let mut values: BTreeMap<String, f64> = [("a".to_string(), 3.0)].into();
        evaluate_all(&formulas, &mut values).unwrap();
        assert_eq!(values["c"], 7.0);
        let circle: BTreeMap<String, String> = [
            ("x".to_string(), "y".to_string()),
            ("y".to_string(), "x".to_string()),
        ]
        .into();
        let e = evaluate_all(&circle, &mut BTreeMap::new()).unwrap_err();
        assert!(e.contains("circle"), "{e}");
    }
}
