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

use crate::table::{alu_op, ChipClass, SlotClass};
use shadersim_asm::{AsmError, SourcePos, Warning};

/// A register channel (x, y, z, w: 0..3).
pub type Chan = u8;

/// A source operand of an ALU operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Src {
    /// `T<n>.<c>`: a GPR channel.
    Gpr(u16, Chan),
    /// `T(<n> + AR.x).<c>`: a GPR indexed by the address register.
    Indirect(u16, Chan),
    /// `PV.<c>`: the previous group's vector result.
    Pv(Chan),
    /// `PS`: the previous group's t result.
    Ps,
    /// `KC<bank>[<index>].<c>`: a kcache constant.
    Constant(u8, u16, Chan),
    /// `literal.<c>`: one of the group's literals.
    Literal(Chan),
    /// An inline constant (`0.0`, `1.0`, `0.5`, `1`, `-1`).
    Inline,
    /// `OQAP`: the LDS return queue.
    Oqap,
    /// `PredicateBit` and other special sources.
    Special,
}

/// The destination of an ALU operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Dst {
    /// A GPR channel; `masked` = the result goes only to PV/PS.
    Gpr {
        /// Register index.
        index: u16,
        /// Channel.
        chan: Chan,
        /// Write masked (`(MASKED)`).
        masked: bool,
    },
    /// The predicate bit (`PRED_SET*`).
    Predicate,
    /// The LDS return queue (`OQAP`).
    Oqap,
    /// No destination (LDS writes, `GROUP_BARRIER`).
    None,
}

impl Dst {
    /// The channel that picks the slot (the predicate counts as x).
    pub fn chan(&self) -> Chan {
        match self {
            Dst::Gpr { chan, .. } => *chan,
            _ => 0,
        }
    }
}

/// A slot of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// Vector slot x.
    X,
    /// Vector slot y.
    Y,
    /// Vector slot z.
    Z,
    /// Vector slot w.
    W,
    /// The transcendental slot.
    T,
}

impl Slot {
    /// Every slot, in order.
    pub const ALL: [Slot; 5] = [Slot::X, Slot::Y, Slot::Z, Slot::W, Slot::T];

    /// The vector slot of a channel.
    pub fn of_chan(c: Chan) -> Slot {
        Slot::ALL[usize::from(c.min(3))]
    }

    /// Its bit in a slot mask.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Lower-case name (`x` .. `t`).
    pub fn name(self) -> &'static str {
        ["x", "y", "z", "w", "t"][self as usize]
    }
}

/// One ALU operation of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct AluOp {
    /// Operation name as printed (`MUL NON-IEEE` as `MUL_NON-IEEE`).
    pub name: String,
    /// Where its name starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// Destination.
    pub dst: Dst,
    /// Sources in order.
    pub srcs: Vec<Src>,
    /// The slot it occupies.
    pub slot: Slot,
}

/// One instruction group (bundle): 1..5 operations issued together.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The operations in printed order.
    pub ops: Vec<AluOp>,
    /// Literal lines (two 32-bit literals each) after the group.
    pub literal_lines: u32,
}

impl Bundle {
    /// The slots it fills, one bit per [`Slot`].
    pub fn slot_mask(&self) -> u8 {
        self.ops.iter().fold(0, |m, o| m | o.slot.bit())
    }

    /// Where its first operation is.
    pub fn pos(&self) -> SourcePos {
        self.ops.first().map(|o| o.pos).unwrap_or_default()
    }

    /// Distinct literal channels it reads.
    pub fn literals(&self) -> u32 {
        let mut m = 0u8;
        for s in self.ops.iter().flat_map(|o| &o.srcs) {
            if let Src::Literal(c) = s {
                m |= 1 << c;
            }
        }
        m.count_ones()
    }

    /// Kcache constant reads (operands naming `KC0`/`KC1`).
    pub fn constant_reads(&self) -> u32 {
        self.ops
            .iter()
            .flat_map(|o| &o.srcs)
            .filter(|s| matches!(s, Src::Constant(..)))
            .count() as u32
    }
}

/// An ALU clause: its start word and groups.
#[derive(Debug, Clone, PartialEq)]
pub struct AluClause {
    /// Start word (the `@N` of the CF word that runs it).
    pub start: u32,
    /// Line of its `ALU clause starting at` header.
    pub line: u32,
    /// The groups.
    pub bundles: Vec<Bundle>,
}

/// One fetch (`VTX_READ_*`, `TEX_*`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fetch {
    /// Name as printed.
    pub name: String,
    /// Where its name starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// Destination register and channel mask.
    pub dst: Option<(u16, u8)>,
    /// Address register and channel.
    pub addr: Option<(u16, Chan)>,
}

impl Fetch {
    /// DWORDs per lane it returns: the destination's channels.
    pub fn dwords(&self) -> u32 {
        self.dst.map_or(1, |(_, m)| m.count_ones().max(1))
    }
}

/// A fetch clause.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchClause {
    /// Start word.
    pub start: u32,
    /// Line of its header.
    pub line: u32,
    /// The fetches.
    pub fetches: Vec<Fetch>,
}

/// What a CF word does.
#[derive(Debug, Clone, PartialEq)]
pub enum CfKind {
    /// Runs an ALU clause of `count` 64-bit slots at word `addr`.
    Alu {
        /// Slots (operations + literal lines).
        count: u32,
        /// Start word of the clause.
        addr: u32,
    },
    /// Runs a fetch clause of `count` fetches at word `addr`.
    Fetch {
        /// Fetches.
        count: u32,
        /// Start word.
        addr: u32,
    },
    /// A jump, else or loop word with a target CF address.
    Branch {
        /// Target word.
        target: u32,
        /// `LOOP_START*`, `END_LOOP`, `LOOP_BREAK`, `JUMP`, `ELSE`, ...
        loop_role: LoopRole,
    },
    /// A stack operation (`POP`, `PUSH`) without a branch.
    Stack,
    /// A store or atomic through a RAT (`MEM_RAT*`), `dwords` per lane.
    Store {
        /// DWORDs per lane.
        dwords: u32,
        /// An atomic.
        atomic: bool,
    },
    /// `CF_END`.
    End,
    /// `PAD` filler.
    Pad,
}

/// The role of a branching CF word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopRole {
    /// `JUMP` / `ELSE`: skip when no lane is active.
    Jump,
    /// `LOOP_START*`: skip the loop when its count is zero.
    Start,
    /// `END_LOOP`: back to the body.
    End,
    /// `LOOP_BREAK`: leave the loop when every lane has broken.
    Break,
    /// `LOOP_CONTINUE`: go to the loop's end word.
    Continue,
}

/// One CF word.
#[derive(Debug, Clone, PartialEq)]
pub struct CfWord {
    /// Its word address (from 0).
    pub addr: u32,
    /// Its mnemonic.
    pub name: String,
    /// Where its mnemonic starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// What it does.
    pub kind: CfKind,
}

/// One kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Line of its label.
    pub line: u32,
    /// 128-bit GPRs per work-item (`NUM_GPRS` of the config word).
    pub num_gprs: Option<u32>,
    /// CF stack entries (`STACK_SIZE`).
    pub stack_size: Option<u32>,
    /// LDS bytes (`SQ_LDS_ALLOC` x 4).
    pub lds_bytes: Option<u32>,
    /// The CF program.
    pub cf: Vec<CfWord>,
    /// ALU clauses in file order.
    pub alu_clauses: Vec<AluClause>,
    /// Fetch clauses in file order.
    pub fetch_clauses: Vec<FetchClause>,
}

impl Kernel {
    /// The ALU clause starting at word `addr`.
    pub fn alu_clause(&self, addr: u32) -> Option<&AluClause> {
        self.alu_clauses.iter().find(|c| c.start == addr)
    }

    /// The fetch clause starting at word `addr`.
    pub fn fetch_clause(&self, addr: u32) -> Option<&FetchClause> {
        self.fetch_clauses.iter().find(|c| c.start == addr)
    }

    /// Groups over the ALU clauses as written.
    pub fn static_bundles(&self) -> usize {
        self.alu_clauses.iter().map(|c| c.bundles.len()).sum()
    }

    /// Operations over the ALU clauses as written.
    pub fn static_operations(&self) -> usize {
        self.alu_clauses
            .iter()
            .flat_map(|c| &c.bundles)
            .map(|b| b.ops.len())
            .sum()
    }
}

/// A file read: its kernels, the chip class they were read for, warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct R600File {
    /// File name used in messages.
    pub file_name: String,
    /// The chip (`-mcpu`) name the file was read for.
    pub chip: String,
    /// The kernels in file order.
    pub kernels: Vec<Kernel>,
    /// Warnings (guessed chip, unknown operations, count mismatches).
    pub warnings: Vec<Warning>,
}

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

    fn err(&self, at: &str, message: impl Into<String>) -> AsmError {
        AsmError {
            file: self.file.to_string(),
            pos: Some(self.pos_of(at)),
            message: message.into(),
        }
    }
}

fn chan_of(c: &str) -> Option<Chan> {
    match c {
        "X" | "x" => Some(0),
        "Y" | "y" => Some(1),
        "Z" | "z" => Some(2),
        "W" | "w" => Some(3),
        _ => None,
    }
}

fn mask_of(cs: &str) -> Option<u8> {
    let mut m = 0u8;
    for ch in cs.chars() {
        m |= 1 << chan_of(&ch.to_string())?;
    }
    (m != 0).then_some(m)
}

/// `T12.XYZW` -> (12, mask).
fn parse_gpr(s: &str) -> Option<(u16, u8)> {
    let rest = s.strip_prefix('T')?;
    let (n, c) = rest.split_once('.')?;
    let n: u16 = n.parse().ok().filter(|n| *n < 128)?;
    Some((n, mask_of(c)?))
}

fn parse_src(tok: &str) -> Option<Src> {
    let mut t = tok.trim();
    t = t.strip_prefix('-').unwrap_or(t);
    if let Some(inner) = t.strip_prefix('|').and_then(|x| x.strip_suffix('|')) {
        t = inner;
    }
    t = t.strip_suffix('+').unwrap_or(t);
    if let Some((n, m)) = parse_gpr(t) {
        return (m.count_ones() == 1).then(|| Src::Gpr(n, m.trailing_zeros() as Chan));
    }
    if let Some(rest) = t.strip_prefix("T(") {
        let (inside, c) = rest.split_once(").")?;
        let n: u16 = inside.split('+').next()?.trim().parse().ok()?;
        return Some(Src::Indirect(n.min(127), chan_of(c)?));
    }
    if let Some(c) = t.strip_prefix("PV.") {
        return Some(Src::Pv(chan_of(c)?));
    }
    if t == "PS" {
        return Some(Src::Ps);
    }
    if let Some(c) = t.strip_prefix("literal.") {
        return Some(Src::Literal(chan_of(c)?));
    }
    for (bank, p) in [(0u8, "KC0["), (1, "KC1[")] {
        if let Some(rest) = t.strip_prefix(p) {
            let (i, c) = rest.split_once("].")?;
            return Some(Src::Constant(bank, i.parse().ok()?, chan_of(c)?));
        }
    }
    match t {
        "0.0" | "1.0" | "0.5" | "1" | "-1" | "0" => Some(Src::Inline),
        "OQAP" => Some(Src::Oqap),
        "PredicateBit" | "AR.x" => Some(Src::Special),
        _ => None,
    }
}

fn int_token(s: &str) -> Option<i64> {
    let head = s.trim().split('(').next()?.trim();
    head.parse().ok()
}

/// A literal line: `4(5.605194e-45), 0(0.000000e+00)` or `@symbol`.
fn is_literal_line(t: &str) -> bool {
    t.starts_with('@') || t.split(',').all(|f| int_token(f).is_some())
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
    enum Body {
        Cf,
        Fetch,
        Alu,
    }
    let mut body = Body::Cf;
    let mut open_ops: Vec<AluOp> = Vec::new();
    let mut open_line = 0u32;
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
            let words = std::mem::take(&mut pending_config);
            let get = |reg: i64| {
                words
                    .chunks(2)
                    .find(|p| p.len() == 2 && p[0] == reg)
                    .map(|p| p[1])
            };
            // SQ_PGM_RESOURCES of the compute (LS) or vertex stage:
            // NUM_GPRS in bits 7:0, STACK_SIZE in 15:8; SQ_LDS_ALLOC in DWORDs.
            let res = get(166100).or_else(|| get(165992)).or_else(|| get(165968));
            cur = Some(Kernel {
                name: label.to_string(),
                line,
                num_gprs: res.map(|v| (v & 0xff) as u32),
                stack_size: res.map(|v| ((v >> 8) & 0xff) as u32),
                lds_bytes: get(166120).map(|v| (v.max(0) as u32).saturating_mul(4)),
                cf: Vec::new(),
                alu_clauses: Vec::new(),
                fetch_clauses: Vec::new(),
            });
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
        if let Some(rest) = t.strip_prefix("Fetch clause starting at ") {
            let start = parse_start(&cx, rest)?;
            close_open(k, &mut open_ops, &cx)?;
            k.fetch_clauses.push(FetchClause {
                start,
                line,
                fetches: Vec::new(),
            });
            body = Body::Fetch;
            continue;
        }
        if let Some(rest) = t.strip_prefix("ALU clause starting at ") {
            let start = parse_start(&cx, rest)?;
            close_open(k, &mut open_ops, &cx)?;
            k.alu_clauses.push(AluClause {
                start,
                line,
                bundles: Vec::new(),
            });
            body = Body::Alu;
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
            Body::Alu => {
                if is_literal_line(t) {
                    let Some(c) = k.alu_clauses.last_mut() else {
                        continue;
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
                    continue;
                }
                if open_ops.is_empty() {
                    open_line = line;
                }
                let (op, last) = parse_alu(&cx, t)?;
                let alone = matches!(op.name.as_str(), "GROUP_BARRIER")
                    || alu_op(&op.name).is_some_and(|i| i.slots[1] == SlotClass::Lds);
                open_ops.push(op);
                if last || alone {
                    let c = k.alu_clauses.last_mut().expect("in an ALU clause");
                    c.bundles.push(Bundle {
                        ops: std::mem::take(&mut open_ops),
                        literal_lines: 0,
                    });
                }
                let _ = open_line;
            }
        }
    }
    finish_kernel(cur.take(), &mut kernels, &mut open_ops)?;
    // The chip: given, else guessed from the groups.
    let chip = match chip {
        Some(c) => c.to_string(),
        None => {
            let vliw4 = kernels
                .iter()
                .flat_map(|k| &k.alu_clauses)
                .flat_map(|c| &c.bundles)
                .find(|b| {
                    let trans = b
                        .ops
                        .iter()
                        .filter(|o| {
                            alu_op(&o.name).is_some_and(|i| {
                                i.slot_class(ChipClass::Evergreen) == SlotClass::Trans
                            })
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
                        message: "no -mcpu in the file: read as cypress (Evergreen VLIW5); use --arch to say".into(),
                    });
                    "cypress".to_string()
                }
            }
        }
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

fn parse_start(cx: &LineCx<'_>, rest: &str) -> Result<u32, AsmError> {
    rest.trim_end_matches(':')
        .trim()
        .parse()
        .map_err(|_| cx.err(rest, "expected a word address after `starting at`"))
}

fn parse_at(cx: &LineCx<'_>, s: &str) -> Result<u32, AsmError> {
    let a = s
        .split_whitespace()
        .find_map(|w| w.trim_end_matches(',').strip_prefix('@'))
        .ok_or_else(|| cx.err(s, "expected a word address `@N`"))?;
    a.parse()
        .map_err(|_| cx.err(a, format!("`@{a}` is not a word address")))
}

fn parse_cf(cx: &LineCx<'_>, t: &str, addr: u32) -> Result<CfWord, AsmError> {
    let name = t.split_whitespace().next().unwrap_or("");
    let rest = t[name.len()..].trim();
    let count_of = |s: &str| -> Result<u32, AsmError> {
        let n = s
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("");
        n.parse::<u32>()
            .map(|n| n + 1)
            .map_err(|_| cx.err(s, format!("`{name}` expects a count, found `{n}`")))
    };
    let kind = match name {
        n if n.starts_with("ALU") => CfKind::Alu {
            count: count_of(rest)?,
            addr: parse_at(cx, rest)?,
        },
        "TEX" | "VTX" | "VTX_TC" | "GDS" => CfKind::Fetch {
            count: count_of(rest)?,
            addr: parse_at(cx, rest)?,
        },
        "JUMP" | "ELSE" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Jump,
        },
        n if n.starts_with("LOOP_START") => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Start,
        },
        "END_LOOP" | "LOOP_END" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::End,
        },
        "LOOP_BREAK" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Break,
        },
        "LOOP_CONTINUE" | "CONTINUE" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Continue,
        },
        "POP" | "PUSH" | "CALL_FS" | "NOP" => CfKind::Stack,
        n if n.starts_with("MEM_") || n.starts_with("EXPORT") => {
            let atomic = rest.starts_with("ATOMIC") || rest.starts_with("MSKOR");
            let data = rest
                .split_whitespace()
                .nth(1)
                .map(|d| d.trim_end_matches(','))
                .unwrap_or("");
            let dwords = parse_gpr(data).map_or(1, |(_, m)| m.count_ones());
            CfKind::Store { dwords, atomic }
        }
        "CF_END" => CfKind::End,
        "PAD" => CfKind::Pad,
        _ => {
            return Err(cx.err(
                name,
                format!("unknown control-flow word `{name}` (expected ALU*, TEX, VTX, JUMP, ELSE, POP, PUSH, LOOP_*, END_LOOP, MEM_RAT*, CF_END or PAD)"),
            ))
        }
    };
    Ok(CfWord {
        addr,
        name: name.to_string(),
        pos: cx.pos_of(name),
        text: t.to_string(),
        kind,
    })
}

fn parse_fetch(cx: &LineCx<'_>, t: &str) -> Result<Fetch, AsmError> {
    let name = t.split_whitespace().next().unwrap_or("");
    if !(name.starts_with("VTX_") || name.starts_with("TEX_") || name.starts_with("SAMPLE")) {
        return Err(cx.err(
            name,
            format!("expected a fetch (`VTX_READ_*`, `TEX_*`), found `{name}`"),
        ));
    }
    let fields: Vec<&str> = t[name.len()..].split(',').map(str::trim).collect();
    let dst = fields.first().and_then(|f| parse_gpr(f));
    let addr = fields
        .get(1)
        .and_then(|f| parse_gpr(f))
        .map(|(n, m)| (n, m.trailing_zeros() as Chan));
    if dst.is_none() {
        return Err(cx.err(
            t,
            format!("`{name}` needs a destination register `T<n>.<channels>`"),
        ));
    }
    Ok(Fetch {
        name: name.to_string(),
        pos: cx.pos_of(name),
        text: t.to_string(),
        dst,
        addr,
    })
}

fn parse_alu(cx: &LineCx<'_>, t: &str) -> Result<(AluOp, bool), AsmError> {
    let mut words = t.split_whitespace();
    let mut name = words.next().unwrap_or("").to_string();
    let mut rest = t[name.len()..].trim_start();
    if name == "MUL" && rest.starts_with("NON-IEEE") {
        name = "MUL_NON-IEEE".to_string();
        rest = rest["NON-IEEE".len()..].trim_start();
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-')
        || name.is_empty()
    {
        return Err(cx.err(
            &name,
            format!("expected an ALU operation name, found `{name}`"),
        ));
    }
    let last = rest.starts_with('*');
    if last {
        rest = rest[1..].trim_start();
    }
    let mut fields: Vec<&str> = rest
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty() && !f.starts_with("BS:") && !f.starts_with("Pred_sel"))
        .collect();
    while matches!(fields.first(), Some(&"ExecMask") | Some(&"Pred")) {
        fields.remove(0);
    }
    let info = alu_op(&name);
    let lds_no_ret = info.is_some_and(|i| i.slots[1] == SlotClass::Lds) && !name.ends_with("_RET");
    let mut dst = Dst::None;
    let mut src_fields: &[&str] = &fields;
    if name != "GROUP_BARRIER" && !lds_no_ret && !fields.is_empty() {
        let d = fields[0];
        let masked = d.contains("(MASKED)");
        let reg = d.split_whitespace().next().unwrap_or("");
        dst = if reg == "PredicateBit" {
            Dst::Predicate
        } else if reg == "OQAP" {
            Dst::Oqap
        } else if let Some((index, m)) = parse_gpr(reg) {
            if m.count_ones() != 1 {
                return Err(cx.err(
                    reg,
                    format!("`{reg}`: an ALU destination names one channel"),
                ));
            }
            Dst::Gpr {
                index,
                chan: m.trailing_zeros() as Chan,
                masked,
            }
        } else {
            return Err(cx.err(
                reg,
                format!(
                    "expected a destination (`T<n>.<c>`, `PredicateBit`, `OQAP`), found `{reg}`"
                ),
            ));
        };
        src_fields = &fields[1..];
    }
    let mut srcs = Vec::new();
    for f in src_fields {
        let tok = f.split_whitespace().next().unwrap_or("");
        if tok.is_empty() {
            continue;
        }
        let s = parse_src(tok).ok_or_else(|| {
            cx.err(
                tok,
                format!("unknown operand `{tok}` (expected T<n>.<c>, PV.<c>, PS, KC0[i].<c>, literal.<c>, an inline constant or OQAP)"),
            )
        })?;
        srcs.push(s);
    }
    Ok((
        AluOp {
            pos: cx.pos_of(&name.replace("_NON-IEEE", "")),
            name,
            text: t.to_string(),
            dst,
            srcs,
            slot: Slot::X,
        },
        last,
    ))
}

/// Give each operation of a group its slot (vliw5-model.md 5.3): vector
/// operations come in increasing destination channel; the last is the t
/// operation iff it is t-only or its channel does not increase. Cayman has
/// no t slot.
fn assign_slots(
    file: &str,
    b: &mut Bundle,
    chip: ChipClass,
    warnings: &mut Vec<Warning>,
) -> Result<(), AsmError> {
    let n = b.ops.len();
    let mut prev: Option<Chan> = None;
    let mut used = 0u8;
    for (i, op) in b.ops.iter_mut().enumerate() {
        let info = alu_op(&op.name);
        if info.is_none() {
            warnings.push(Warning {
                pos: Some(op.pos),
                message: format!(
                    "`{}` is not in the VLIW operation table; slot from its destination",
                    op.name
                ),
            });
        }
        let chan = op.dst.chan();
        let t_only = info.is_some_and(|i| i.slot_class(chip) == SlotClass::Trans);
        let increases = prev.is_none_or(|p| chan > p);
        let slot = if chip.has_t_slot() && i + 1 == n && (t_only || !increases) {
            Slot::T
        } else if increases || n == 1 {
            Slot::of_chan(chan)
        } else {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(op.pos),
                message: format!(
                    "`{}` writes channel {} after channel {} in the same group: no slot left (vector slots go in channel order, only the last operation may take t)",
                    op.name,
                    Slot::of_chan(chan).name(),
                    Slot::of_chan(prev.unwrap_or(0)).name()
                ),
            });
        };
        if used & slot.bit() != 0 {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(op.pos),
                message: format!("slot {} taken twice in one group", slot.name()),
            });
        }
        used |= slot.bit();
        op.slot = slot;
        prev = Some(chan);
    }
    Ok(())
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
