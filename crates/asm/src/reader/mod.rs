//! Turning text into [`ProgramFile`]s: dialect detection, line
//! classification (labels, directives, instructions, comments), program
//! boundaries, compiler-declared resources and branch resolution.
//!
//! Documented skipping rules (everything else that is not understood is an
//! error with its position):
//! * comments (`;` and `//` outside quotes) are ignored, except the compiler
//!   statistics comments (`; NumVgprs: 12`) which are read;
//! * directives (`.text`, `.p2align`, ...) that are not understood are
//!   skipped with a warning; lines inside `.amdgpu_metadata` and data
//!   sections are skipped;
//! * in RADV dumps, only the `disasm:` blocks are read (NIR and ACO IR are
//!   skipped), each block ending at the first empty line; an ACO listing
//!   without any `disasm:` line (the "Assembly" representation of
//!   `VK_KHR_pipeline_executable_properties`, as RenderDoc shows it) is one
//!   program read whole, empty lines included;
//! * ACO's `(then repeated N times)` stands for N more copies of the
//!   instruction before it, each positioned at the `(then` text;
//! * in objdump output, the `s_code_end` padding after the end of a
//!   function is dropped; `;` lines (`-l` file:line lines, `-S` source) are
//!   skipped, the `; FILE:LINE` ones giving source lines; relocation lines
//!   (`-r`) are read into the instruction they patch; `<L0>:` lines
//!   (`--symbolize-operands`) are labels; function headers may come without
//!   an address (`--no-leading-addr`);
//! * in RGA ISA text, `;` lines are comments (the `; SGPRs: N ...`
//!   statistics are read) and the header properties (`asic`, `type`,
//!   `sgpr_count`, `vgpr_count`, `wave_size`, `lds_size`) are read, others
//!   skipped.

mod branches;
mod code;
mod dialects;
mod directives;
mod target;

use crate::calls::follow_calls;
use crate::expr::{eval, Env};
use crate::program::*;
use shadersim_isa::{GfxGen, InstrTable, Instruction, Operand, Recognition, Target};
use std::collections::HashMap;

use branches::{
    check_kernel_end, mark_undefined_export_sources, resolve_branches, stage_from_exports,
};
use directives::{merge_declared, valid_workgroup, MetadataReader};
use target::{declared_target, guess_target};

/// Options for reading.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Interpret the file for this target, whatever it says.
    pub target: Option<Target>,
    /// The target for files that do not name theirs (instead of guessing
    /// from the mnemonics).
    pub default_target: Option<Target>,
}

/// Read a file's bytes: rejects binary data and invalid UTF-8 with the
/// position of the first bad byte, then reads the text.
pub fn read_program_bytes(
    file_name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<ProgramFile, AsmError> {
    let bad = |offset: usize, what: &str| {
        let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let col_start = bytes[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        AsmError {
            file: file_name.to_string(),
            pos: Some(SourcePos {
                line,
                column: (offset - col_start) as u32 + 1,
            }),
            message: format!("{what}: this does not look like assembly text"),
        }
    };
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        // Binary data that reached the text reader did not start with a
        // code object's magic: show what it starts with, so a damaged code
        // object reads as one.
        let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        let mut e = bad(nul, "binary data (NUL byte)");
        e.message = format!(
            "{}, nor a code object: it starts with bytes {}, not an ELF's 7f 45 4c 46 (\\x7fELF) or a clang offload bundle's `__CLANG_OFFLOAD_BUNDLE__`",
            e.message,
            head.join(" ")
        );
        return Err(e);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| bad(e.valid_up_to(), "invalid UTF-8"))?;
    read_program_text(file_name, text, options)
}

/// Read assembly text printed by LLVM, llvm-objdump or Mesa ACO/RADV.
pub fn read_program_text(
    file_name: &str,
    text: &str,
    options: &ReadOptions,
) -> Result<ProgramFile, AsmError> {
    let dialect = detect_dialect(text);
    let aco_bare = dialect == Dialect::Aco && !has_disasm_header(text);
    let named = options
        .target
        .clone()
        .or_else(|| declared_target(text))
        .or_else(|| options.default_target.clone());
    if let Some(t) = named {
        return read_as(
            file_name,
            text,
            dialect,
            aco_bare,
            Some(t),
            true,
            Vec::new(),
        )
        .map(|(f, _)| f);
    }
    let Some((guessed, line, why)) = guess_target(text, dialect, aco_bare) else {
        return read_as(file_name, text, dialect, aco_bare, None, false, Vec::new())
            .map(|(f, _)| f);
    };
    let guess_warning = |t: &Target, why: &str| Warning {
        pos: Some(SourcePos { line, column: 1 }),
        message: format!(
            "the file does not name its GPU; reading it as {t}: {why} (choose with --arch)"
        ),
    };
    let (file, gap_mnemonics) = read_as(
        file_name,
        text,
        dialect,
        aco_bare,
        Some(guessed.clone()),
        false,
        vec![guess_warning(&guessed, &why)],
    )?;
    // A guessed processor that lacks some of the file's mnemonics stands
    // for the wrong member of its generation (a navi10 dump read as
    // gfx1030): read it again as the first one that has them all, which
    // also picks that processor's model.
    let better = gap_mnemonics.first().and_then(|first| {
        let p = shadersim_isa::shape::processor_having_all(&gap_mnemonics, &guessed.name)?;
        Some((p.parse::<Target>().ok()?, first))
    });
    match better {
        Some((better, first)) => {
            let why = format!("{why}, and it uses `{first}`, which {guessed} lacks");
            let warning = guess_warning(&better, &why);
            read_as(
                file_name,
                text,
                dialect,
                aco_bare,
                Some(better),
                false,
                vec![warning],
            )
            .map(|(f, _)| f)
        }
        None => Ok(file),
    }
}

/// Read `text` as `target` (`target_named`: the file or the user named it,
/// so a processor gap is an error, not a warning). Also returns the table
/// mnemonics a guessed processor lacks.
fn read_as(
    file_name: &str,
    text: &str,
    dialect: Dialect,
    aco_bare: bool,
    target: Option<Target>,
    target_named: bool,
    warnings: Vec<Warning>,
) -> Result<(ProgramFile, Vec<String>), AsmError> {
    let gen = target.as_ref().map(|t| t.gen).unwrap_or(GfxGen::Gfx9);
    let mut reader = LineReader {
        file: file_name,
        dialect,
        gen,
        target,
        target_named,
        processor_gap_warned: false,
        gap_mnemonics: Vec::new(),
        table: InstrTable::builtin(),
        programs: Vec::new(),
        current: None,
        warnings,
        pending_stage: None,
        function_symbols: Vec::new(),
        in_metadata: false,
        in_data_section: false,
        in_config: false,
        descriptor: None,
        descriptors: HashMap::new(),
        aco_in_disasm: aco_bare,
        aco_bare,
        aco_header: None,
        last_closed: None,
        symbols: HashMap::new(),
        deferred: Vec::new(),
        metadata: MetadataReader::default(),
        radv_declared: DeclaredResources::default(),
        source_files: Vec::new(),
        compile_dir: None,
        loc: None,
        repeated_total: 0,
    };
    for (i, line) in text.lines().enumerate() {
        reader.line(i as u32 + 1, line)?;
    }
    let gaps = std::mem::take(&mut reader.gap_mnemonics);
    Ok((reader.finish()?, gaps))
}

/// Guess the dialect from the text's shape.
pub fn detect_dialect(text: &str) -> Dialect {
    let mut aco_hex = 0;
    for line in text.lines().take(20_000) {
        let t = line.trim_start();
        if t.starts_with("asic(") && t.trim_end().ends_with(')') {
            return Dialect::Rga;
        }
        if t.starts_with("Disassembly of section") || t.contains("file format elf64-amdgpu") {
            return Dialect::Objdump;
        }
        if let Some((_, comment)) = line.split_once("//") {
            if parse_objdump_comment(comment).is_some() {
                return Dialect::Objdump;
            }
        }
        if t == "disasm:" {
            return Dialect::Aco;
        }
        if let Some((_, comment)) = line.split_once(';') {
            if !comment.trim().is_empty()
                && parse_hex_words(comment).is_some()
                && line.starts_with(char::is_whitespace)
            {
                aco_hex += 1;
                if aco_hex >= 3 {
                    return Dialect::Aco;
                }
            }
        }
    }
    Dialect::Llvm
}

/// Whether an ACO listing has RADV_DEBUG's `disasm:` block headers (else it
/// is a bare listing, one program).
fn has_disasm_header(text: &str) -> bool {
    text.lines().any(|l| l.trim() == "disasm:")
}

/// Parse an objdump encoding comment: ` 000000001000: BF8C0070 00000000 <f+0x20>`.
fn parse_objdump_comment(comment: &str) -> Option<(u64, Vec<u32>)> {
    let comment = comment.trim();
    let (addr, rest) = comment.split_once(':')?;
    if addr.len() < 8 || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let address = u64::from_str_radix(addr, 16).ok()?;
    let mut words = Vec::new();
    for w in rest.split_whitespace() {
        if w.starts_with('<') {
            break;
        }
        if w.len() != 8 {
            return None;
        }
        words.push(u32::from_str_radix(w, 16).ok()?);
    }
    (!words.is_empty()).then_some((address, words))
}

/// Parse ACO's trailing encoding comment: `be800003 00000000`.
fn parse_hex_words(comment: &str) -> Option<Vec<u32>> {
    let mut words = Vec::new();
    for w in comment.split_whitespace() {
        if w.len() != 8 || !w.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        words.push(u32::from_str_radix(w, 16).ok()?);
    }
    (!words.is_empty()).then_some(words)
}

/// Find the start of a comment (`;` or `//`) outside double quotes.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut in_quotes = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_quotes = !in_quotes,
            b';' if !in_quotes => return Some(i),
            b'/' if !in_quotes && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// A label at the start of `code`: `name:` followed by nothing or spaces.
fn split_label(code: &str) -> Option<(&str, &str)> {
    let end = code.find(|c: char| c.is_whitespace()).unwrap_or(code.len());
    let first = &code[..end];
    let name = first.strip_suffix(':')?;
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'@'))
        && !name.as_bytes()[0].is_ascii_digit();
    ok.then(|| (name, &code[end..]))
}

struct LineReader<'a> {
    file: &'a str,
    dialect: Dialect,
    gen: GfxGen,
    target: Option<Target>,
    /// The target was named (option, file or default), not guessed: what
    /// it lacks is an error, not a doubt about the guess.
    target_named: bool,
    /// A guessed processor's gap was warned about (once per file).
    processor_gap_warned: bool,
    /// The table mnemonics the guessed processor lacks (first use order).
    gap_mnemonics: Vec<String>,
    table: &'static InstrTable,
    programs: Vec<Program>,
    current: Option<Program>,
    warnings: Vec<Warning>,
    pending_stage: Option<Stage>,
    function_symbols: Vec<String>,
    in_metadata: bool,
    in_data_section: bool,
    in_config: bool,
    descriptor: Option<(String, DeclaredResources)>,
    descriptors: HashMap<String, DeclaredResources>,
    aco_in_disasm: bool,
    /// A bare ACO listing: one program, no `disasm:` blocks.
    aco_bare: bool,
    aco_header: Option<(String, Option<Stage>)>,
    last_closed: Option<usize>,
    /// `.set` symbols (unevaluated: they may refer to later ones).
    symbols: HashMap<String, String>,
    /// Kernel descriptor values written as expressions, evaluated at the end.
    deferred: Vec<Deferred>,
    metadata: MetadataReader,
    /// RADV's `workgroup-size:` / `shared-size:` of the shader being dumped.
    radv_declared: DeclaredResources,
    source_files: Vec<(u32, String)>,
    /// The compilation directory (`.file 0 "DIR" "NAME"`), against which a later
    /// `.file N "NAME"` without a directory is read, as DWARF 5 reads it.
    compile_dir: Option<String>,
    /// The source position of the last `.loc`.
    loc: Option<SourceLoc>,
    /// Copies added by `(then repeated N times)` lines so far.
    repeated_total: u64,
}

/// A kernel descriptor directive whose value is an expression.
struct Deferred {
    kernel: String,
    directive: String,
    expr: String,
    line: u32,
    column: usize,
}

impl LineReader<'_> {
    fn error(&self, line: u32, column: usize, message: impl Into<String>) -> AsmError {
        AsmError {
            file: self.file.to_string(),
            pos: Some(SourcePos {
                line,
                column: column as u32 + 1,
            }),
            message: message.into(),
        }
    }

    fn warn(&mut self, line: u32, column: usize, message: impl Into<String>) {
        self.warnings.push(Warning {
            pos: Some(SourcePos {
                line,
                column: column as u32 + 1,
            }),
            message: message.into(),
        });
    }

    fn start_program(&mut self, name: &str, line: u32, stage: Option<Stage>) {
        self.close_program();
        self.current = Some(Program {
            name: name.to_string(),
            target: self.target.clone(),
            stage,
            instructions: Vec::new(),
            labels: Vec::new(),
            branch_targets: Vec::new(),
            declared: DeclaredResources::default(),
            line,
            device_function: false,
        });
        self.loc = None;
    }

    fn close_program(&mut self) {
        if let Some(p) = self.current.take() {
            self.programs.push(p);
            self.last_closed = Some(self.programs.len() - 1);
        }
    }

    /// The program statistics comments apply to: the open one, or the one
    /// just closed (llc prints "Kernel info" after the function).
    fn stats_program(&mut self) -> Option<&mut Program> {
        if self.current.is_some() {
            return self.current.as_mut();
        }
        self.last_closed.and_then(|i| self.programs.get_mut(i))
    }

    fn line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        match self.dialect {
            Dialect::Aco => self.aco_line(n, raw),
            Dialect::Objdump => self.objdump_line(n, raw),
            Dialect::Rga => self.rga_line(n, raw),
            Dialect::Llvm => self.llvm_line(n, raw),
        }
    }

    fn ensure_program(&mut self, line: u32) {
        if self.current.is_none() {
            let name = self.file.rsplit('/').next().unwrap_or(self.file);
            let name = name.split('.').next().unwrap_or(name).to_string();
            let stage = self.pending_stage.take();
            self.start_program(&name, line, stage);
        }
    }

    fn add_label(&mut self, name: &str, line: u32) {
        let p = self.current.as_mut().expect("program open");
        let index = p.instructions.len();
        p.labels.push(Label {
            name: name.to_string(),
            index,
            line,
        });
    }

    fn finish(mut self) -> Result<ProgramFile, AsmError> {
        self.close_program();
        self.evaluate_deferred();
        self.metadata.end();
        let kernels: Vec<String> = self
            .metadata
            .kernels
            .iter()
            .filter_map(|(name, _)| name.clone())
            .collect();
        for (name, d) in std::mem::take(&mut self.metadata.kernels) {
            let Some(p) = self
                .programs
                .iter_mut()
                .find(|p| Some(&p.name) == name.as_ref())
            else {
                continue;
            };
            // The descriptor and comments come first; metadata fills gaps
            // (and is the only place the required workgroup size is).
            let mut merged = d;
            merge_declared(&mut merged, p.declared.clone());
            p.declared = merged;
        }
        let mut programs = std::mem::take(&mut self.programs);
        programs.retain(|p| !p.instructions.is_empty());
        // Where each function's code lies (files with addresses): a branch into another
        // function is named as such.
        let spans: Vec<(String, u64, u64)> = programs
            .iter()
            .filter_map(|p| {
                let first = p.instructions.first()?.address?;
                let last = p.instructions.last()?;
                Some((
                    p.name.clone(),
                    first,
                    last.address? + 4 * last.encoding.len() as u64,
                ))
            })
            .collect();
        for p in &mut programs {
            if p.stage.is_none() {
                p.stage = stage_from_exports(p);
            }
            mark_undefined_export_sources(p);
            resolve_branches(self.file, self.dialect, p, &spans)?;
            if kernels.contains(&p.name) {
                check_kernel_end(self.file, p)?;
            }
        }
        if let Some((name, d)) = self.descriptors.into_iter().next() {
            if let Some(p) = programs.iter_mut().find(|p| p.name == name) {
                merge_declared(&mut p.declared, d);
            }
        }
        follow_calls(&mut programs, &mut self.warnings);
        if programs.is_empty() {
            return Err(AsmError {
                file: self.file.to_string(),
                pos: None,
                message: "no instructions found (expected AMD GPU assembly from clang -S, llc, llvm-objdump -d, RADV_DEBUG=shaders or an ACO listing)".into(),
            });
        }
        Ok(ProgramFile {
            file_name: self.file.to_string(),
            dialect: self.dialect,
            programs,
            warnings: self.warnings,
            source_files: self.source_files,
        })
    }
}
