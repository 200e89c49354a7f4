//! Reading the text LLVM's R600 backend prints (`clang -target r600 -S`):
//! the `.AMDGPU.config` words, then per kernel the control-flow (CF)
//! program, one line per 64-bit CF word, followed by its fetch and ALU
//! clauses (vliw5-model.md 5 describes the layout; docs/models/terascale.md
//! restates it).
//!
//! Skipping rules: comments (`;` to the end of the line), directives
//! (`.text`, `.globl`, `.p2align`, `.type`, `.size`, `.section`), local
//! labels (`.L...`, `...$local`), data objects outside a kernel (clang-19's
//! `__oclc_ABI_version`), and clang-22's duplicate `__clang_ocl_kern_imp_`
//! copy of every kernel. Everything else must parse, or the reader reports
//! FILE:LINE:COL and what it expected; it never panics.

mod kernel;
mod parse;

pub use kernel::*;
use parse::{assign_slots, is_literal_line, parse_alu, parse_cf, parse_fetch, parse_start};

use crate::table::{alu_op, ChipClass, SlotClass};
use shadersim_asm::{AsmError, SourcePos, Warning};

/// Whether a text looks like R600 backend output: it has CF program or
/// clause lines that no GCN listing contains.
pub fn looks_like_r600(text: &str) -> bool {
    let mut alu_clause = false;
    let mut cf_end = false;
    for l in text.lines().take(5000) {
        let t = l.trim();
        if t.starts_with("ALU clause starting at") || t.starts_with("Fetch clause starting at") {
            alu_clause = true;
        }
        if t == "CF_END" {
            cf_end = true;
        }
        if t.starts_with(".amdgcn_target") || t.starts_with("s_endpgm") {
            return false;
        }
    }
    alu_clause || cf_end
}

struct LineCx<'a> {
    file: &'a str,
    line: u32,
    raw: &'a str,
}

impl LineCx<'_> {
    fn pos_of(&self, sub: &str) -> SourcePos {
        let col = self.raw.find(sub).map_or(1, |c| c + 1) as u32;
        SourcePos {
            line: self.line,
            column: col,
        }
    }

    /// An error at the first `sub` after byte `from` of the line (a source
    /// field whose text may also occur inside an earlier field).
    fn err_after(&self, from: usize, sub: &str, message: impl Into<String>) -> AsmError {
        let col = self
            .raw
            .get(from..)
            .and_then(|r| r.find(sub))
            .map_or(1, |c| from + c + 1) as u32;
        AsmError {
            file: self.file.to_string(),
            pos: Some(SourcePos {
                line: self.line,
                column: col,
            }),
            message: message.into(),
        }
    }

    fn err(&self, at: &str, message: impl Into<String>) -> AsmError {
        AsmError {
            file: self.file.to_string(),
            pos: Some(self.pos_of(at)),
            message: message.into(),
        }
    }
}

/// Read R600 backend text. `chip` is the `-mcpu` name the file was compiled
/// for when known (the text does not say); otherwise the reader guesses
/// Cayman from VLIW4 groups, else Evergreen (`cypress`), with a warning.
pub fn read_r600(file: &str, text: &str, chip: Option<&str>) -> Result<R600File, AsmError> {
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut warnings = Vec::new();
    let mut cur: Option<Kernel> = None;
    let mut skipping = false;
    let mut in_config = false;
    // Kernels live in `.text`; labels elsewhere are data objects.
    let mut in_text = true;
    // Symbols declared `.type NAME,@object` (clang-19's `__oclc_ABI_version`).
    let mut objects: Vec<String> = Vec::new();
    let mut config: Vec<i64> = Vec::new();
    let mut pending_config: Vec<i64> = Vec::new();
    let mut body = Body::Cf;
    let mut open_ops: Vec<AluOp> = Vec::new();
    let finish_kernel = |k: Option<Kernel>,
                         kernels: &mut Vec<Kernel>,
                         open: &mut Vec<AluOp>|
     -> Result<(), AsmError> {
        if let Some(mut k) = k {
            if !open.is_empty() {
                if let Some(c) = k.alu_clauses.last_mut() {
                    c.bundles.push(Bundle {
                        ops: std::mem::take(open),
                        literal_lines: 0,
                    });
                }
            }
            check_cf_targets(file, &k)?;
            kernels.push(k);
        }
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let line = (i + 1) as u32;
        let cx = LineCx { file, line, raw };
        let code = match raw.find(';') {
            Some(p) => &raw[..p],
            None => raw,
        };
        let t = code.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with(".section") || t.starts_with(".data") || t.starts_with(".bss") {
            in_text = false;
            in_config = t.contains(".AMDGPU.config");
            if in_config {
                config.clear();
            }
            continue;
        }
        if let Some(v) = t.strip_prefix(".long") {
            if in_config {
                config.push(v.trim().parse::<i64>().unwrap_or(-1));
                pending_config = config.clone();
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix(".type") {
            if let Some((sym, kind)) = rest.split_once(',') {
                if kind.trim() == "@object" {
                    objects.push(sym.trim().to_string());
                }
            }
            continue;
        }
        if t.starts_with('.') && !t.ends_with(':') {
            if t == ".text" {
                in_config = false;
                in_text = true;
            }
            continue;
        }
        if let Some(label) = t.strip_suffix(':').filter(|l| !l.contains(' ')) {
            if label.starts_with(".L") && label.starts_with(".Lfunc_end") {
                finish_kernel(cur.take(), &mut kernels, &mut open_ops)?;
                skipping = false;
                continue;
            }
            if label.starts_with('.')
                || label.contains("$local")
                || !in_text
                || objects.iter().any(|o| o == label)
            {
                continue;
            }
            finish_kernel(cur.take(), &mut kernels, &mut open_ops)?;
            body = Body::Cf;
            skipping = label.starts_with("__clang_ocl_kern_imp_");
            if skipping {
                pending_config.clear();
                continue;
            }
            cur = Some(kernel_at(label, line, std::mem::take(&mut pending_config)));
            continue;
        }
        if skipping {
            continue;
        }
        let Some(k) = cur.as_mut() else {
            return Err(cx.err(
                t,
                format!("`{t}` outside a kernel (expected a kernel label first)"),
            ));
        };
        if let Some(b) = clause_start(&cx, t, k, &mut open_ops)? {
            body = b;
            continue;
        }
        match body {
            Body::Cf => {
                let addr = k.cf.len() as u32;
                let w = parse_cf(&cx, t, addr)?;
                k.cf.push(w);
            }
            Body::Fetch => {
                let f = parse_fetch(&cx, t)?;
                if let Some(c) = k.fetch_clauses.last_mut() {
                    c.fetches.push(f);
                }
            }
            Body::Alu => alu_line(&cx, t, k, &mut open_ops)?,
        }
    }
    finish_kernel(cur.take(), &mut kernels, &mut open_ops)?;
    // The chip: given, else guessed from the groups.
    let chip = match chip {
        Some(c) => c.to_string(),
        None => guess_chip(&kernels, &mut warnings),
    };
    let class = ChipClass::of_target(&chip).unwrap_or(ChipClass::Evergreen);
    for k in &mut kernels {
        for c in &mut k.alu_clauses {
            for b in &mut c.bundles {
                assign_slots(file, b, class, &mut warnings)?;
            }
        }
        check_counts(file, k, &mut warnings);
    }
    Ok(R600File {
        file_name: file.to_string(),
        chip,
        kernels,
        warnings,
    })
}

/// What the lines of a kernel are: CF words, or the lines of a fetch or ALU clause.
enum Body {
    Cf,
    Fetch,
    Alu,
}

/// A kernel at its label, with the resources its `.AMDGPU.config` words (register, value
/// pairs) give.
fn kernel_at(label: &str, line: u32, words: Vec<i64>) -> Kernel {
    let get = |reg: i64| {
        words
            .chunks(2)
            .find(|p| p.len() == 2 && p[0] == reg)
            .map(|p| p[1])
    };
    // SQ_PGM_RESOURCES of the compute (LS) or vertex stage:
    // NUM_GPRS in bits 7:0, STACK_SIZE in 15:8; SQ_LDS_ALLOC in DWORDs.
    let res = get(166100).or_else(|| get(165992)).or_else(|| get(165968));
    Kernel {
        name: label.to_string(),
        line,
        num_gprs: res.map(|v| (v & 0xff) as u32),
        stack_size: res.map(|v| ((v >> 8) & 0xff) as u32),
        lds_bytes: get(166120).map(|v| (v.max(0) as u32).saturating_mul(4)),
        cf: Vec::new(),
        alu_clauses: Vec::new(),
        fetch_clauses: Vec::new(),
    }
}

/// A line that opens a fetch or ALU clause (closing an open group first): the clause's body.
fn clause_start(
    cx: &LineCx<'_>,
    t: &str,
    k: &mut Kernel,
    open_ops: &mut Vec<AluOp>,
) -> Result<Option<Body>, AsmError> {
    let line = cx.line;
    if let Some(rest) = t.strip_prefix("Fetch clause starting at ") {
        let start = parse_start(cx, rest)?;
        close_open(k, open_ops, cx)?;
        k.fetch_clauses.push(FetchClause {
            start,
            line,
            fetches: Vec::new(),
        });
        return Ok(Some(Body::Fetch));
    }
    if let Some(rest) = t.strip_prefix("ALU clause starting at ") {
        let start = parse_start(cx, rest)?;
        close_open(k, open_ops, cx)?;
        k.alu_clauses.push(AluClause {
            start,
            line,
            bundles: Vec::new(),
        });
        return Ok(Some(Body::Alu));
    }
    Ok(None)
}

/// A line of an ALU clause: a literal line of the last group, or an operation (a group
/// ends at its `*` op, or with an op that issues alone).
fn alu_line(
    cx: &LineCx<'_>,
    t: &str,
    k: &mut Kernel,
    open_ops: &mut Vec<AluOp>,
) -> Result<(), AsmError> {
    if is_literal_line(t) {
        let Some(c) = k.alu_clauses.last_mut() else {
            return Ok(());
        };
        if !open_ops.is_empty() {
            return Err(cx.err(
                t,
                "literal line inside an open group (the group's last operation has no `*`)",
            ));
        }
        match c.bundles.last_mut() {
            Some(b) => b.literal_lines += 1,
            None => return Err(cx.err(t, "literal line before any group")),
        }
        return Ok(());
    }
    let (op, last) = parse_alu(cx, t)?;
    let alone = matches!(op.name.as_str(), "GROUP_BARRIER")
        || alu_op(&op.name).is_some_and(|i| i.slots[1] == SlotClass::Lds);
    open_ops.push(op);
    if last || alone {
        let c = k.alu_clauses.last_mut().expect("in an ALU clause");
        c.bundles.push(Bundle {
            ops: std::mem::take(open_ops),
            literal_lines: 0,
        });
    }
    Ok(())
}

/// The chip of a file without `-mcpu`: Cayman when a group holds several t-only operations
/// (VLIW4), else Evergreen, with a warning either way.
fn guess_chip(kernels: &[Kernel], warnings: &mut Vec<Warning>) -> String {
    let vliw4 = kernels
        .iter()
        .flat_map(|k| &k.alu_clauses)
        .flat_map(|c| &c.bundles)
        .find(|b| {
            let trans = b
                .ops
                .iter()
                .filter(|o| {
                    alu_op(&o.name)
                        .is_some_and(|i| i.slot_class(ChipClass::Evergreen) == SlotClass::Trans)
                })
                .count();
            trans > 1
        });
    match vliw4 {
        Some(b) => {
            warnings.push(Warning {
                pos: Some(b.pos()),
                message: "no -mcpu in the file: read as cayman (VLIW4), this group holds several t-only operations".into(),
            });
            "cayman".to_string()
        }
        None => {
            warnings.push(Warning {
                pos: None,
                message:
                    "no -mcpu in the file: read as cypress (Evergreen VLIW5); use --arch to say"
                        .into(),
            });
            "cypress".to_string()
        }
    }
}

/// Every CF word's `@N` word address (jumps, loop words, `POP`) must name a
/// word of the kernel's CF program, or the word just past its end: a target
/// beyond would silently become the end of the program (a vanished loop).
/// ALU and fetch words' `@N` are clause addresses, another space.
fn check_cf_targets(file: &str, k: &Kernel) -> Result<(), AsmError> {
    let words = k.cf.len() as u64;
    for w in &k.cf {
        let target = match &w.kind {
            CfKind::Branch { target, .. } => Some(u64::from(*target)),
            CfKind::Stack if w.name == "POP" => {
                // `POP @9 POP:1`: the word after the pop.
                w.text
                    .split_whitespace()
                    .find_map(|t| t.trim_end_matches(',').strip_prefix('@'))
                    .map(|a| a.parse::<u64>().unwrap_or(u64::MAX))
            }
            _ => None,
        };
        if target.is_none_or(|t| t <= words) {
            continue;
        }
        let at = w.text.find('@').unwrap_or(0) as u32;
        return Err(AsmError {
            file: file.to_string(),
            pos: Some(SourcePos {
                line: w.pos.line,
                column: w.pos.column + at,
            }),
            message: format!(
                "`{}` targets CF word {}, but the kernel's CF program has {words} words (0 to {})",
                w.name,
                w.text[at as usize..]
                    .split_whitespace()
                    .next()
                    .unwrap_or(""),
                words.saturating_sub(1)
            ),
        });
    }
    Ok(())
}

fn close_open(k: &mut Kernel, open: &mut Vec<AluOp>, cx: &LineCx<'_>) -> Result<(), AsmError> {
    if open.is_empty() {
        return Ok(());
    }
    match k.alu_clauses.last_mut() {
        Some(c) => {
            c.bundles.push(Bundle {
                ops: std::mem::take(open),
                literal_lines: 0,
            });
            Ok(())
        }
        None => Err(cx.err("", "ALU operations outside an ALU clause")),
    }
}

fn check_counts(file: &str, k: &Kernel, warnings: &mut Vec<Warning>) {
    for w in &k.cf {
        match w.kind {
            CfKind::Alu { count, addr } => match k.alu_clause(addr) {
                Some(c) => {
                    let slots: u32 = c
                        .bundles
                        .iter()
                        .map(|b| b.ops.len() as u32 + b.literal_lines)
                        .sum();
                    if slots != count {
                        warnings.push(Warning {
                            pos: Some(w.pos),
                            message: format!("{file}: `{}` announces {count} slots, the clause at {addr} holds {slots}", w.name),
                        });
                    }
                }
                None => warnings.push(Warning {
                    pos: Some(w.pos),
                    message: format!("no ALU clause starts at word {addr}"),
                }),
            },
            CfKind::Fetch { addr, .. } if k.fetch_clause(addr).is_none() => {
                warnings.push(Warning {
                    pos: Some(w.pos),
                    message: format!("no fetch clause starts at word {addr}"),
                })
            }
            _ => {}
        }
    }
}
