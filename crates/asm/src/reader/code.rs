//! One instruction line: parsing it and checking it against the table (generation,
//! processor, operand count and kinds, names), and ACO's repeat lines.

use super::*;
use shadersim_isa::{Encoding, InstrClass};

/// The most copies one `(then repeated N times)` line may stand for: more
/// than any shader holds (ACO's code size limit is far below), low enough
/// that a corrupt count cannot exhaust memory.
const MAX_REPEAT: u32 = 1 << 16;

/// The most copies all the repeat lines of a file may add together, for
/// the same reason.
const MAX_REPEATED_TOTAL: u64 = 1 << 22;

/// Parse the count of ACO's `(then repeated N times)`; `rest` follows
/// `(then repeated`.
fn parse_repeat_count(rest: &str) -> Option<u32> {
    let inner = rest.trim().strip_suffix(')')?;
    let mut words = inner.split_whitespace();
    let count = words.next()?.parse().ok()?;
    matches!(words.next(), Some("times" | "time"))
        .then_some(count)
        .filter(|_| words.next().is_none())
}

/// Named constant sources a VALU op may read (LLVM's spelling).
const NAMED_SOURCES: &[&str] = &[
    "lds_direct",
    "vccz",
    "execz",
    "scc",
    "shared_base",
    "shared_limit",
    "private_base",
    "private_limit",
    "pops_exiting_wave_id",
];

/// Whether an operand's text is a plain name that names nothing: no
/// relocation (`@`), expression or attribute syntax, not a named constant
/// and not a symbol the file defines.
fn is_bare_unknown_name(text: &str, symbols: &HashMap<String, String>) -> bool {
    let t = text.trim_start_matches('-');
    !t.is_empty()
        && t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !t.starts_with("src_")
        && !NAMED_SOURCES.contains(&t)
        && !symbols.contains_key(t)
}

/// The most operands (register-list entries counted one by one) one
/// instruction may name. The widest real forms take six (gfx950's scaled
/// MFMA) and an image address list thirteen at most.
const MAX_OPERANDS: usize = 64;

/// Whether `t` is one of the named constant sources (`lds_direct`,
/// `src_shared_base`, ...), which the parser keeps as text.
fn is_named_source(t: &str) -> bool {
    let t = t.trim_start_matches('-');
    NAMED_SOURCES.contains(&t) || t.starts_with("src_")
}

/// Whether `t` is a plain symbol name (`foo`, `.Ltmp0`, `__unnamed_1`).
fn is_plain_name(t: &str) -> bool {
    let t = t.trim_start_matches('-');
    t.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '_' | '.' | '$'))
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
}

/// Why an operand the parser kept as text (or as a symbol) cannot be one:
/// a character no operand holds (quotes, `#`, anything outside ASCII such
/// as a byte-order mark or zero-width space, which would silently stop
/// `s1` being a register: refused rather than stripped, because the
/// listing does not say what it meant and llvm-mc refuses it too), nothing
/// after a sign, an empty register list, or a number that does not parse
/// (`1e999`, `0.0.0`, a 40-digit hex, `-0x8000000000000000`).
fn malformed_operand(t: &str) -> Option<String> {
    if let Some(c) = t.chars().find(|c| !c.is_ascii()) {
        return Some(format!(
            "it holds U+{:04X}, a character outside ASCII (an invisible one if you see none)",
            u32::from(c)
        ));
    }
    if let Some(c) = t.chars().find(|c| {
        c.is_ascii_control() || matches!(c, '\'' | '"' | '#' | '`' | '\\' | '{' | '}' | '?')
    }) {
        return Some(format!("`{c}` belongs in no operand"));
    }
    let core = t.trim_start_matches(['-', '|']);
    if core.is_empty() {
        return Some("nothing follows the sign".to_string());
    }
    if core
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim()
        .is_empty()
    {
        return Some("an empty register list".to_string());
    }
    let numeric = core.starts_with(|c: char| c.is_ascii_digit())
        || (core.starts_with('.') && core[1..].starts_with(|c: char| c.is_ascii_digit()));
    if numeric {
        return Some(
            "not a number (an integer must fit in 64 bits, a float must be finite)".to_string(),
        );
    }
    bad_symbol_variant(core)
}

/// Relocation variants a symbol operand takes in LLVM's AMDGPU assembler
/// (`foo@rel32@lo`, `foo@abs64`), each optionally with `@lo` or `@hi`.
const SYMBOL_VARIANTS: &[&str] = &["rel32", "abs32", "rel64", "abs64", "gotpcrel", "gotpcrel32"];

/// Why a symbol's `@` variant is none LLVM knows (`foo@@`, `foo@lo`,
/// `foo@bar`: llvm-mc-22 says "invalid variant"), or `None`. A trailing
/// lone `@` (`foo@`) is part of the name to llvm-mc, and a variant
/// starting with a digit is not a relocation (left to the other checks).
fn bad_symbol_variant(core: &str) -> Option<String> {
    let (_, variants) = core.trim_end_matches('|').split_once('@')?;
    let variants = variants.split(['+', '-']).next().unwrap_or("");
    if variants.is_empty() || variants.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let parts: Vec<&str> = variants.split('@').collect();
    let known = match parts[..] {
        [r] => SYMBOL_VARIANTS.contains(&r),
        [r, half] => SYMBOL_VARIANTS.contains(&r) && matches!(half, "lo" | "hi"),
        _ => false,
    };
    (!known).then(|| {
        format!(
            "`@{variants}` is no relocation variant (llvm-mc-22: invalid variant); write `@{}`, optionally with `@lo` or `@hi`",
            SYMBOL_VARIANTS.join("`, `@")
        )
    })
}

/// Column (0-based) of operand `name` in an instruction's text: its first
/// occurrence after the mnemonic.
pub(super) fn operand_column(text: &str, name: &str) -> usize {
    let after = text.find(char::is_whitespace).unwrap_or(0);
    text[after..].find(name).map_or(0, |i| after + i)
}

/// The column (0-based, in `text`: mnemonic first, no label) of each of
/// the `count` operands the parser found: the first word of each
/// comma-separated group, and both words of a first group that holds two
/// operands (`exp mrt0 v0, ...`).
fn operand_columns(text: &str, count: usize) -> Vec<usize> {
    let rest = &text[text.find(char::is_whitespace).unwrap_or(text.len())..];
    let Ok(groups) = shadersim_isa::operand::split_operands(rest) else {
        return Vec::new();
    };
    let base = text.as_ptr() as usize;
    let at = |w: &&str| w.as_ptr() as usize - base;
    let mut columns = Vec::new();
    for (gi, words) in groups.iter().enumerate() {
        let take = if gi == 0 && count > groups.len() {
            2
        } else {
            1
        };
        columns.extend(words.iter().take(take).map(at));
    }
    columns
}

impl LineReader<'_> {
    pub(super) fn code(
        &mut self,
        n: u32,
        code: &str,
        address: Option<u64>,
        encoding: Vec<u32>,
    ) -> Result<(), AsmError> {
        let trimmed = code.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if let Some(rest) = trimmed.strip_prefix("(then repeated") {
            let col = code.len() - code.trim_start().len();
            return self.repeat_previous(n, col, rest);
        }
        if let Some((label, rest)) = split_label(trimmed) {
            // ACO labels `BB3:` (also accepted in the other dialects).
            self.ensure_program(n);
            self.add_label(label, n);
            if rest.trim().is_empty() {
                return Ok(());
            }
        }
        let col = code.len() - code.trim_start().len();
        let inst = Instruction::parse(trimmed, self.gen, self.table)
            .map_err(|e| self.error(n, col + e.column, e.message))?;
        self.refuse_illegal(n, col, &inst)?;
        self.check_generation(n, col, &inst)?;
        self.check_processor(n, col, &inst)?;
        self.check_operand_count_and_text(n, col, trimmed, &inst)?;
        self.check_operand_kinds(n, col, trimmed, &inst)?;
        self.check_operand_limits(n, col, trimmed, &inst)?;
        self.check_names_and_waits(n, col, trimmed, &inst)?;
        // Forms LLVM-22 refuses (a reserved source, `abs` on an integer op, ...): the same rules
        // the code-object decoder applies (issue 47 item 14).
        let processor = self.target.as_ref().map(|t| t.name.clone());
        if let Some(r) = shadersim_isa::refused::refused_form(processor.as_deref(), trimmed) {
            return Err(self.error(n, col + operand_column(trimmed, &r.operand), r.message));
        }
        self.ensure_program(n);
        let p = self.current.as_mut().expect("program open");
        p.instructions.push(SourceInstr {
            inst,
            pos: SourcePos {
                line: n,
                column: col as u32 + 1,
            },
            text: trimmed.to_string(),
            address,
            encoding,
            source: self.loc,
        });
        Ok(())
    }

    /// A mnemonic the table does not list for the generation, or only by a family rule: an error
    /// when the file names its GPU, else a warning.
    fn check_generation(&mut self, n: u32, col: usize, inst: &Instruction) -> Result<(), AsmError> {
        if let Recognition::FamilyRule(prefix) = inst.recognition {
            self.warn(
                n,
                col,
                format!(
                    "`{}` is not in the instruction table; treated as `{}` by the `{prefix}*` family rule",
                    inst.mnemonic,
                    inst.info.class
                ),
            );
        } else if !inst.valid_for_gen
            && self.target_named
            && !inst
                .info
                .flags
                .contains(shadersim_isa::table::InstrFlags::LLVM21)
        {
            // The file names its GPU and this generation has no such
            // instruction: llvm-mc refuses it ("instruction not supported
            // on this GPU"), so this is an error too.
            return Err(self.error(
                n,
                col,
                format!(
                    "`{}` is not a {} instruction (the table lists it for gfx{})",
                    inst.mnemonic, self.gen, inst.info.gens
                ),
            ));
        } else if !inst.valid_for_gen
            && self.target.is_some()
            && !inst
                .info
                .flags
                .contains(shadersim_isa::table::InstrFlags::LLVM21)
        {
            // A guessed generation may be the wrong one: a warning.
            self.warn(
                n,
                col,
                format!(
                    "`{}` is not a {} instruction (the table lists it for gfx{})",
                    inst.mnemonic, self.gen, inst.info.gens
                ),
            );
        }
        Ok(())
    }

    /// A mnemonic this processor of the generation lacks: an error for a named processor, one
    /// warning for a guessed one.
    fn check_processor(&mut self, n: u32, col: usize, inst: &Instruction) -> Result<(), AsmError> {
        // The generation has the mnemonic but this processor of it may not
        // (gfx900 lacks the dot ops gfx906 has): llvm-mc refuses such a
        // line ("instruction not supported on this GPU"), so a named
        // processor makes it an error and a guessed one a warning, as for
        // the generation above.
        let processor = self.target.as_ref().map(|t| t.name.clone());
        if let (true, Some(processor)) = (inst.valid_for_gen, processor) {
            for half in std::iter::once(inst).chain(inst.dual.as_deref()) {
                if half.recognition != Recognition::Table {
                    continue;
                }
                let Some(other) =
                    shadersim_isa::shape::processor_lacks(half.base_mnemonic(), &processor)
                else {
                    continue;
                };
                let message = format!(
                    "`{}` does not exist on {} ({other} has it)",
                    half.mnemonic, processor
                );
                if self.target_named {
                    return Err(self.error(n, col, message));
                }
                let base = half.base_mnemonic().to_string();
                if !self.gap_mnemonics.contains(&base) {
                    self.gap_mnemonics.push(base);
                }
                // A guessed processor stands for its whole generation: one
                // warning says the guess may be the wrong one of it, more
                // would repeat that on every such line.
                if !self.processor_gap_warned {
                    self.processor_gap_warned = true;
                    self.warn(
                        n,
                        col,
                        format!("{message}; the file may be for another {} processor (choose with --arch)", self.gen),
                    );
                }
            }
        }
        Ok(())
    }

    /// Too few operands for the shortest form, and operands that are no operand at all.
    fn check_operand_count_and_text(
        &mut self,
        n: u32,
        col: usize,
        trimmed: &str,
        inst: &Instruction,
    ) -> Result<(), AsmError> {
        // Too few operands for the mnemonic's shortest form (the table's
        // operand counts): llvm-mc refuses the line, so does the reader.
        // A `::` dual line is checked by halves.
        for half in std::iter::once(inst).chain(inst.dual.as_deref()) {
            if half.recognition == Recognition::Table {
                // An instruction whose operand text the parser keeps whole
                // (`s_waitcnt vmcnt(0)`, `s_clause 0x1`) has no operand
                // list to count.
                let kept_whole = half.operands.is_empty() && !half.operand_text.trim().is_empty();
                let min = shadersim_isa::shape::min_operands(half.base_mnemonic());
                if let (Some(min), false) = (min, kept_whole) {
                    if half.operands.len() < min {
                        return Err(self.error(
                            n,
                            col,
                            format!(
                                "too few operands: `{}` takes at least {min}, this line gives {}",
                                half.mnemonic,
                                half.operands.len()
                            ),
                        ));
                    }
                }
            }
        }
        if let Some((at, why)) = malformed_operands(inst, trimmed) {
            return Err(self.error(n, col + at, why));
        }
        Ok(())
    }

    /// Registers and names in positions that never take them.
    fn check_operand_kinds(
        &mut self,
        n: u32,
        col: usize,
        trimmed: &str,
        inst: &Instruction,
    ) -> Result<(), AsmError> {
        // A register of a file its position never takes on any generation
        // (`s_mov_b32 v0, s1`: the table's kinds, probed with llvm-mc-22,
        // which refuses it "invalid operand for instruction"). Only the
        // positions of the shortest form are judged, only VGPR/SGPR
        // confusions (see `OperandKinds::refuses`), and dual (VOPD) lines
        // not at all: the table has no shapes for their halves.
        if inst.recognition == Recognition::Table && inst.dual.is_none() {
            if let Some(shape) = shadersim_isa::shape::shape(inst.base_mnemonic()) {
                let columns = operand_columns(trimmed, inst.operands.len());
                for (i, (op, kinds)) in inst.operands.iter().zip(&shape.kinds).enumerate() {
                    // Text as a destination that takes no special operand
                    // (`v_mov_b32_e32 vmcnt(-1), s3`): a name may stand for a
                    // number (a symbol) where numbers go, nothing else. Only
                    // destinations are judged: the table's `.` is missing
                    // at some source positions that take one
                    // (`v_interp_p2_f32 v0, v1, attr0.x` is `v v v`), and
                    // an export's target is no destination.
                    let destination =
                        i < inst.defs && inst.info.encoding != shadersim_isa::Encoding::Exp;
                    let refused_text = destination
                        && match op {
                            Operand::Text(t) => {
                                let number = kinds.takes(shadersim_isa::shape::OperandKind::Number);
                                let allowed = kinds.takes_special()
                                    || is_named_source(t)
                                    || (number && is_plain_name(t));
                                !allowed
                            }
                            Operand::Symbol(_) => {
                                !kinds.takes_special()
                                    && !kinds.takes(shadersim_isa::shape::OperandKind::Number)
                            }
                            _ => false,
                        };
                    if refused_text {
                        let (Operand::Text(t) | Operand::Symbol(t)) = op else {
                            continue;
                        };
                        let at = columns.get(i).copied().unwrap_or(0);
                        return Err(self.error(
                            n,
                            col + at,
                            format!(
                                "`{}` never takes `{t}` as operand {} (it takes {})",
                                inst.mnemonic,
                                i + 1,
                                kinds.describe()
                            ),
                        ));
                    }
                    let Some(kind) = shadersim_isa::shape::OperandKind::of(op) else {
                        continue;
                    };
                    if kinds.refuses(kind) {
                        let at = columns.get(i).copied().unwrap_or(0);
                        return Err(self.error(
                            n,
                            col + at,
                            format!(
                                "`{}` never takes {} as operand {} (it takes {})",
                                inst.mnemonic,
                                kind.describe(),
                                i + 1,
                                kinds.describe()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// More operands than any instruction or than the encoding's forms take.
    fn check_operand_limits(
        &mut self,
        n: u32,
        col: usize,
        trimmed: &str,
        inst: &Instruction,
    ) -> Result<(), AsmError> {
        // A stated limit for every instruction, whatever the table knows of
        // it (family-rule mnemonics, VOPD halves): no real instruction comes
        // near it, and the engine counts an instruction's registers in 16
        // bits (64 operands of at most 256 registers stay far below).
        for half in std::iter::once(inst).chain(inst.dual.as_deref()) {
            let named: usize = half
                .operands
                .iter()
                .map(|o| match o {
                    Operand::RegList(list) => list.len(),
                    _ => 1,
                })
                .sum();
            if named > MAX_OPERANDS {
                let at = operand_columns(trimmed, inst.operands.len())
                    .get(MAX_OPERANDS)
                    .copied()
                    .unwrap_or(0);
                return Err(self.error(
                    n,
                    col + at,
                    format!(
                        "`{}` names {named} operands; an instruction may name at most {MAX_OPERANDS} (no real one comes near)",
                        half.mnemonic
                    ),
                ));
            }
        }
        // More operands than any form of the encoding takes (`s_mov_b32 s9,
        // 8, v1`, `s_endpgm m0, s2`): the extra ones would be ignored.
        if inst.recognition == Recognition::Table {
            if let Some(max) = shadersim_isa::shape::max_operands(inst.info.encoding) {
                // A form that takes more than its encoding's usual count
                // (the SOP2 `s_fmaak_f32 s0, s1, s2, K` with its literal K)
                // takes at least what llvm-mc's shortest form takes.
                let base = shadersim_isa::shape::min_operands(inst.base_mnemonic()).unwrap_or(0);
                let max = max.max(base);
                if inst.operands.len() > max {
                    let columns = operand_columns(trimmed, inst.operands.len());
                    let at = columns.get(max).copied().unwrap_or(0);
                    return Err(self.error(
                        n,
                        col + at,
                        format!(
                            "too many operands: `{}` takes at most {max} ({} encoding), this line gives {}",
                            inst.mnemonic,
                            inst.info.encoding,
                            inst.operands.len()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// VALU sources that name nothing of this file, and wait fields wider than their counters.
    fn check_names_and_waits(
        &mut self,
        n: u32,
        col: usize,
        trimmed: &str,
        inst: &Instruction,
    ) -> Result<(), AsmError> {
        // A VALU source that is a bare name (`banana`): no register,
        // constant or symbol of this file. llvm-mc-22 would accept it as an
        // external symbol (a literal the linker fills), but no compiler
        // prints a VALU operand so and no link could resolve it here: an
        // error at the operand rather than a silent literal.
        if inst.class().is_valu() {
            // VINTRP's interpolation parameter (`v_interp_mov_f32 v2, p0,
            // attr2.x`: the P0, P10 or P20 vertex's value, as RADV emits
            // for flat varyings) is a name of the encoding, not a symbol.
            let interp_param = |t: &str| {
                inst.info.encoding == shadersim_isa::Encoding::Vintrp
                    && matches!(t, "p0" | "p10" | "p20")
            };
            let unknown = inst.operands.iter().find_map(|o| match o {
                Operand::Symbol(t) | Operand::Text(t)
                    if is_bare_unknown_name(t, &self.symbols) && !interp_param(t) =>
                {
                    Some(t.clone())
                }
                _ => None,
            });
            if let Some(name) = unknown {
                let at = operand_column(trimmed, &name);
                return Err(self.error(
                    n,
                    col + at,
                    format!(
                        "unknown operand `{name}`: not a register, a constant or a symbol of this file"
                    ),
                ));
            }
        }
        if inst.class().is_wait() {
            // A wait field wider than its counter is refused as llvm-mc
            // refuses it; the column is the field's.
            if let Err(message) = inst.wait(self.gen) {
                let field_col = message
                    .split('`')
                    .nth(1)
                    .and_then(|field| trimmed.find(field))
                    .unwrap_or(0);
                if self.target_named {
                    return Err(self.error(n, col + field_col, message));
                }
                self.warn(n, col + field_col, message);
            }
        }
        Ok(())
    }

    /// The trap that is not `s_trap`, `v_illegal` (what zeroed or damaged code decodes as on
    /// gfx10+), is an error at its line: the GPU raises an exception there and nothing after
    /// it runs.
    fn refuse_illegal(&self, n: u32, col: usize, inst: &Instruction) -> Result<(), AsmError> {
        if inst.class() == InstrClass::Trap && inst.info.encoding != Encoding::Sopp {
            return Err(self.error(
                n,
                col,
                format!(
                    "`{}` is an illegal instruction (the GPU traps on it): zeroed or damaged code, not a program to simulate",
                    inst.mnemonic
                ),
            ));
        }
        Ok(())
    }

    /// ACO's `(then repeated N times)`: N more copies of the instruction
    /// just read, positioned at this line.
    fn repeat_previous(&mut self, n: u32, col: usize, rest: &str) -> Result<(), AsmError> {
        let count = parse_repeat_count(rest).ok_or_else(|| {
            self.error(
                n,
                col,
                "expected `(then repeated N times)` with a decimal count N",
            )
        })?;
        if count > MAX_REPEAT {
            return Err(self.error(
                n,
                col,
                format!("repeat count {count} is larger than any shader (at most {MAX_REPEAT})"),
            ));
        }
        self.repeated_total += u64::from(count);
        if self.repeated_total > MAX_REPEATED_TOTAL {
            return Err(self.error(
                n,
                col,
                format!("the repeat lines add up to more than {MAX_REPEATED_TOTAL} instructions, more than any listing holds"),
            ));
        }
        let previous = self.current.as_ref().and_then(|p| {
            let last = p.instructions.last()?;
            // ACO never folds across a block boundary: a label between
            // the instruction and the repeat would be misplaced.
            let label_after = p
                .labels
                .last()
                .is_some_and(|l| l.index == p.instructions.len());
            (!label_after).then(|| last.clone())
        });
        let Some(previous) = previous else {
            return Err(self.error(
                n,
                col,
                "`(then repeated` must follow an instruction of the same block",
            ));
        };
        let p = self.current.as_mut().expect("program open");
        let pos = SourcePos {
            line: n,
            column: col as u32 + 1,
        };
        p.instructions.extend((0..count).map(|_| SourceInstr {
            pos,
            ..previous.clone()
        }));
        Ok(())
    }
}

/// Why the operands of an `s_delay_alu` are none the hint can mean
/// (`s_delay_alu ,,`, a trailing `|`), as llvm-mc-22 refuses them ("unknown
/// token in expression", "expected a field name"); `None` for fields it
/// reads, a number (the raw field) or any other instruction.
fn bad_delay_alu(inst: &Instruction) -> Option<String> {
    if inst.class() != InstrClass::WaitDelayAlu {
        return None;
    }
    let text = inst.operand_text.trim();
    let number = text.parse::<u32>().is_ok()
        || text
            .strip_prefix("0x")
            .is_some_and(|h| u32::from_str_radix(h, 16).is_ok());
    (!text.is_empty() && !number && inst.delay_alu().is_none()).then(|| {
        format!(
            "`{text}` is not an s_delay_alu operand: write fields `instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)`, or a number"
        )
    })
}

/// The first operand of `inst` (its text `trimmed`) that is no operand at
/// all (`[]`, `'`, `1e999`, `0.0.0`, `-0x8000000000000000`, an invisible
/// character inside `s1`, `foo@@`), or `s_delay_alu` fields that are none:
/// its column and why. The parser keeps what it cannot read as text, which
/// liveness and the engine then ignore; llvm-mc refuses each of them.
fn malformed_operands(inst: &Instruction, trimmed: &str) -> Option<(usize, String)> {
    for half in std::iter::once(inst).chain(inst.dual.as_deref()) {
        for op in &half.operands {
            let (Operand::Text(t) | Operand::Symbol(t)) = op else {
                continue;
            };
            if let Some(why) = malformed_operand(t) {
                let at = operand_column(trimmed, t);
                return Some((at, format!("`{t}` is not an operand: {why}")));
            }
        }
    }
    bad_delay_alu(inst).map(|why| (0, why))
}
