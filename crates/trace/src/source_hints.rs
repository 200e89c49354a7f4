//! Hints keyed by source location: `source = "matmul.cl:14"` in `[[loop]]`,
//! `[[branch]]` and `[[memory]]`, mapped through the listing's `.loc` lines
//! to the listing lines the rest of the tracer resolves (`line =`). Every
//! GPU's listing has its own line numbers; the source line is the same, so
//! one hints file written this way fits every model's listing.
//!
//! The mapping rules (docs/cli.md, "Hints by source location"):
//! * memory: every vector memory instruction whose `.loc` is that source
//!   line, or its scalar memory instructions when it has none;
//! * branch: the conditional branch from that line that is no loop's own
//!   (guard, exit test, back edge), exactly one listing line;
//! * loop: the loop whose branches (guard, exit tests, back edges) come
//!   from that line, exactly one; when no loop's do, the loop whose own
//!   blocks (not those of loops nested in it) hold the line's code, if that
//!   loop's branches have no other source line.

use crate::hints::{BranchHint, Hints, HintsError, LoopHint, MemoryHint};
use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::BTreeSet;
use std::ops::Range;
use toml::Spanned;

/// What a listing without `.loc` lines says to a `source =` hint.
pub const NO_SOURCE_LINES: &str = "this listing has no source lines (.loc); `source =` needs a \
     listing compiled with line information (clang -g or -gline-tables-only, which `shadersim \
     compile` and `analyze FILE.cl` use); RADV/ACO listings (GLSL, SPIR-V) carry none, since \
     Mesa's ACO drops SPIR-V line information: give `line =` or `label =` instead";

/// A parsed `source = "FILE:LINE[:COLUMN]"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRef {
    /// The file as written: matched against the listing's `.file` paths by
    /// whole path components from the end (`matmul.cl`, `src/matmul.cl`;
    /// either may be the longer).
    pub file: String,
    /// 1-based source line.
    pub line: u32,
    /// 1-based column, when given.
    pub column: Option<u32>,
}

impl std::fmt::Display for SourceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if let Some(c) = self.column {
            write!(f, ":{c}")?;
        }
        Ok(())
    }
}

/// Parse `FILE:LINE` or `FILE:LINE:COLUMN` (the file may itself hold `:`).
pub fn parse_source_ref(text: &str) -> Result<SourceRef, String> {
    let bad = || {
        format!(
            "`{text}` is not a source location; write \"FILE:LINE\" or \"FILE:LINE:COLUMN\" (\"matmul.cl:14\")"
        )
    };
    let number = |s: &str| s.trim().parse::<u32>().ok().filter(|&n| n > 0);
    let parts: Vec<&str> = text.split(':').collect();
    let n = parts.len();
    if n < 2 {
        return Err(bad());
    }
    // `FILE:LINE:COLUMN` when the part before the last is a number.
    let (file, line, column) = match n >= 3 && number(parts[n - 2]).is_some() {
        true => (
            parts[..n - 2].join(":"),
            number(parts[n - 2]),
            Some(number(parts[n - 1]).ok_or_else(bad)?),
        ),
        false => (parts[..n - 1].join(":"), number(parts[n - 1]), None),
    };
    let file = file.trim().to_string();
    match line {
        Some(line) if !file.is_empty() => Ok(SourceRef { file, line, column }),
        _ => Err(bad()),
    }
}

/// Does the `.file` path `path` name the file written `file`: equal, or
/// one ending in the other at a `/` (`matmul.cl` names
/// `/home/u/src/matmul.cl`; `src/matmul.cl` names a listing's relative
/// `./matmul.cl`)?
fn names_file(path: &str, file: &str) -> bool {
    let path = path.trim_start_matches("./");
    let file = file.trim_start_matches("./");
    path == file || path.ends_with(&format!("/{file}")) || file.ends_with(&format!("/{path}"))
}

/// The instructions of `program` that come from `src`, or the error (at
/// `span`) saying why there are none.
fn instructions_from(
    program: &Program,
    source_files: &[(u32, String)],
    src: &SourceRef,
    span: &Range<usize>,
) -> Result<Vec<usize>, HintsError> {
    if program.instructions.iter().all(|i| i.source.is_none()) {
        return Err(HintsError::at(span.clone(), NO_SOURCE_LINES));
    }
    let numbers: BTreeSet<u32> = source_files
        .iter()
        .filter(|(_, path)| names_file(path, &src.file))
        .map(|(n, _)| *n)
        .collect();
    // Files the program's instructions come from, for the messages.
    let used: BTreeSet<u32> = program
        .instructions
        .iter()
        .filter_map(|i| i.source.map(|l| l.file))
        .collect();
    let file_name = |n: u32| {
        source_files
            .iter()
            .find(|(m, _)| *m == n)
            .map_or_else(|| format!("file {n}"), |(_, p)| p.clone())
    };
    let paths: BTreeSet<String> = numbers.iter().map(|&n| file_name(n)).collect();
    if paths.len() > 1 {
        return Err(HintsError::at(
            span.clone(),
            format!(
                "`{}` names several source files of the listing: {}; write more of its path",
                src.file,
                paths.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let from_file: Vec<usize> = (0..program.instructions.len())
        .filter(|&i| {
            program.instructions[i]
                .source
                .is_some_and(|l| numbers.contains(&l.file))
        })
        .collect();
    if from_file.is_empty() {
        let names: BTreeSet<String> = used.iter().map(|&n| file_name(n)).collect();
        return Err(HintsError::at(
            span.clone(),
            format!(
                "no instruction of `{}` comes from a file named `{}`; its instructions come from {}",
                program.name,
                src.file,
                names.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let found: Vec<usize> = from_file
        .iter()
        .copied()
        .filter(|&i| {
            let l = program.instructions[i].source.expect("filtered");
            l.line == src.line && src.column.is_none_or(|c| c == l.column)
        })
        .collect();
    if found.is_empty() {
        let lines: BTreeSet<u32> = from_file
            .iter()
            .map(|&i| program.instructions[i].source.expect("filtered").line)
            .collect();
        return Err(HintsError::at(
            span.clone(),
            format!(
                "no instruction of `{}` comes from {src}; source lines with code: {}",
                program.name,
                compact_lines(&lines)
            ),
        ));
    }
    Ok(found)
}

/// `3, 5-9, 12`: a set of line numbers, runs joined.
fn compact_lines(lines: &BTreeSet<u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &l in lines {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == l => *end = l,
            _ => runs.push((l, l)),
        }
    }
    runs.iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a}-{b}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The listing lines of `indices`, sorted and without repeats (copies of a
/// device function share one line).
fn listing_lines(program: &Program, indices: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let set: BTreeSet<u32> = indices
        .into_iter()
        .map(|i| program.instructions[i].pos.line)
        .collect();
    set.into_iter().collect()
}

/// The source location written in `s`, parsed, or the error at its span.
fn parse_at(s: &Spanned<String>) -> Result<SourceRef, HintsError> {
    parse_source_ref(s.get_ref()).map_err(|m| HintsError::at(s.span(), m))
}

/// `hints` with every `source =` replaced by the listing line(s) it maps to
/// in `program` (whose file names its sources `source_files`), each new
/// `line` carrying the span of the `source` value, so the checks that
/// follow point at it. Hints giving `source` together with `line` or
/// `label` are errors.
pub fn resolve_source_hints(
    hints: &Hints,
    program: &Program,
    cfg: &Cfg,
    source_files: &[(u32, String)],
) -> Result<Hints, HintsError> {
    let mut out = hints.clone();
    out.loops = resolve_each(&hints.loops, program, source_files, |src, found, span| {
        Ok(vec![loop_header_line(program, cfg, src, found, span)?])
    })?;
    out.branches = resolve_each(
        &hints.branches,
        program,
        source_files,
        |src, found, span| Ok(vec![branch_line(program, cfg, src, found, span)?]),
    )?;
    out.memory = resolve_each(&hints.memory, program, source_files, |src, found, span| {
        memory_lines(program, src, found, span)
    })?;
    Ok(out)
}

/// A hint that may name its instructions by `source =` instead of `line =`.
trait SourceKeyed: Clone {
    /// Its `source =`, if given.
    fn source(&self) -> Option<&Spanned<String>>;
    /// The error when it names its place another way too (`line`, `label`).
    fn both_given(&self) -> Option<&'static str>;
    /// The hint at listing line `line` instead of its `source`.
    fn at_line(&self, line: Spanned<u32>) -> Self;
}

impl SourceKeyed for LoopHint {
    fn source(&self) -> Option<&Spanned<String>> {
        self.source.as_ref()
    }
    fn both_given(&self) -> Option<&'static str> {
        (self.line.is_some() || self.label.is_some())
            .then_some("give a loop one of `line`, `label` or `source`")
    }
    fn at_line(&self, line: Spanned<u32>) -> Self {
        LoopHint {
            source: None,
            line: Some(line),
            ..self.clone()
        }
    }
}

impl SourceKeyed for BranchHint {
    fn source(&self) -> Option<&Spanned<String>> {
        self.source.as_ref()
    }
    fn both_given(&self) -> Option<&'static str> {
        self.line
            .is_some()
            .then_some("give a branch either `line` or `source`, not both")
    }
    fn at_line(&self, line: Spanned<u32>) -> Self {
        BranchHint {
            source: None,
            line: Some(line),
            ..self.clone()
        }
    }
}

impl SourceKeyed for MemoryHint {
    fn source(&self) -> Option<&Spanned<String>> {
        self.source.as_ref()
    }
    fn both_given(&self) -> Option<&'static str> {
        self.line
            .is_some()
            .then_some("give a memory hint either `line` or `source`, not both")
    }
    fn at_line(&self, line: Spanned<u32>) -> Self {
        MemoryHint {
            source: None,
            line: Some(line),
            ..self.clone()
        }
    }
}

/// `hints` in order, each `source =` replaced by the listing lines `lines_of` maps the
/// source's instructions to (one hint per line, each carrying the span of the `source` value).
fn resolve_each<H: SourceKeyed>(
    hints: &[H],
    program: &Program,
    source_files: &[(u32, String)],
    lines_of: impl Fn(&SourceRef, &[usize], &Range<usize>) -> Result<Vec<u32>, HintsError>,
) -> Result<Vec<H>, HintsError> {
    let mut out = Vec::new();
    for h in hints {
        let Some(s) = h.source() else {
            out.push(h.clone());
            continue;
        };
        if let Some(message) = h.both_given() {
            return Err(HintsError::at(s.span(), message));
        }
        let src = parse_at(s)?;
        let found = instructions_from(program, source_files, &src, &s.span())?;
        for line in lines_of(&src, &found, &s.span())? {
            out.push(h.at_line(Spanned::new(s.span(), line)));
        }
    }
    Ok(out)
}

/// The listing lines of the memory instructions from `src` (`found`): the line's vector
/// memory ops; its scalar loads only when it has none (a kernel argument's `s_load` often
/// carries the line that first uses it, and a `pattern`, vector only, would refuse it).
fn memory_lines(
    program: &Program,
    src: &SourceRef,
    found: &[usize],
    span: &Range<usize>,
) -> Result<Vec<u32>, HintsError> {
    let memory_op = |i: usize| {
        let class = program.instructions[i].inst.class();
        (class.is_vmem() && class != shadersim_isa::InstrClass::VmemCache)
            || class == shadersim_isa::InstrClass::Smem
    };
    let vector: Vec<usize> = found
        .iter()
        .copied()
        .filter(|&i| memory_op(i) && program.instructions[i].inst.class().is_vmem())
        .collect();
    let lines = match vector.is_empty() {
        false => listing_lines(program, vector),
        true => listing_lines(program, found.iter().copied().filter(|&i| memory_op(i))),
    };
    if !lines.is_empty() {
        return Ok(lines);
    }
    // Lines of the same source file (`found` is not empty).
    let file = program.instructions[found[0]].source.map(|l| l.file);
    let with_memory: BTreeSet<u32> = (0..program.instructions.len())
        .filter(|&i| memory_op(i))
        .filter_map(|i| program.instructions[i].source)
        .filter(|l| Some(l.file) == file)
        .map(|l| l.line)
        .collect();
    Err(HintsError::at(
        span.clone(),
        format!(
            "no vector or scalar memory instruction of `{}` comes from {src}; source lines with memory instructions: {}",
            program.name,
            match with_memory.is_empty() {
                true => "none".to_string(),
                false => compact_lines(&with_memory),
            }
        ),
    ))
}

/// The listing line of the one conditional branch from `src` (`found`):
/// ordinary forks first, a loop's own branches only when the line has no
/// other.
fn branch_line(
    program: &Program,
    cfg: &Cfg,
    src: &SourceRef,
    found: &[usize],
    span: &Range<usize>,
) -> Result<u32, HintsError> {
    let branches: Vec<&shadersim_cfg::Branch> = cfg
        .branches
        .iter()
        .filter(|b| found.contains(&b.instr))
        .collect();
    // A loop's own branches follow its `iterations`: a `for` line's
    // guard and exit test are not what a [[branch]] on it means.
    let forks: Vec<usize> = branches
        .iter()
        .filter(|b| matches!(b.kind, BranchKind::IfElse | BranchKind::Skip))
        .map(|b| b.instr)
        .collect();
    if forks.is_empty() && !branches.is_empty() {
        let list: Vec<String> = branches
            .iter()
            .map(|b| {
                let header =
                    cfg.blocks[cfg.loops[b.kind.loop_id().expect("a loop branch")].header].start;
                format!(
                    "{} ({} of the loop at listing line {})",
                    program.instructions[b.instr].pos.line,
                    b.kind.name(),
                    program.instructions[header].pos.line
                )
            })
            .collect();
        return Err(HintsError::at(
            span.clone(),
            format!(
                "the conditional branches from {src} are a loop's own, on listing lines {}: their direction follows the loop's `iterations` (give it a [[loop]] with this `source`)",
                list.join(", ")
            ),
        ));
    }
    let chosen = listing_lines(program, forks);
    match chosen.as_slice() {
        [line] => Ok(*line),
        [] => {
            Err(HintsError::at(
                span.clone(),
                format!(
                    "no conditional branch of `{}` comes from {src}; its instructions from there are on listing lines {}",
                    program.name,
                    join(&listing_lines(program, found.iter().copied()))
                ),
            ))
        }
        many => {
            Err(HintsError::at(
                span.clone(),
                format!(
                    "{src} gives several conditional branches, on listing lines {}: give one of them as `line =` (or add the column to `source`)",
                    describe(program, many)
                ),
            ))
        }
    }
}

/// `38, 52`.
fn join(lines: &[u32]) -> String {
    lines
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `38 (s_cbranch_execz .LBB0_3), 52 (...)`: candidate listing lines with
/// their instructions.
fn describe(program: &Program, lines: &[u32]) -> String {
    lines
        .iter()
        .map(|&l| match program.index_at_line(l) {
            Some(i) => format!("{l} (`{}`)", program.instructions[i].text),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The listing line of the header of the one loop whose own blocks hold
/// instructions from `src` (`found`).
fn loop_header_line(
    program: &Program,
    cfg: &Cfg,
    src: &SourceRef,
    found: &[usize],
    span: &Range<usize>,
) -> Result<u32, HintsError> {
    // The loops whose own branches (guard, exit tests, back edges) come
    // from the line: what a `for`/`while` line compiles to.
    let controlled: BTreeSet<usize> = cfg
        .branches
        .iter()
        .filter(|b| found.contains(&b.instr))
        .filter_map(|b| b.kind.loop_id())
        .collect();
    // Else the loop whose own blocks hold the line's code, when none of
    // that loop's branches comes from another source line: a line inside a
    // loop controlled elsewhere (the body of an unrolled inner loop) does
    // not name the enclosing loop.
    let ids: BTreeSet<usize> = match controlled.is_empty() {
        false => controlled,
        true => {
            let inside: BTreeSet<usize> = found
                .iter()
                .filter_map(|&i| cfg.innermost_loop[cfg.block_of[i]])
                .collect();
            let file = program.instructions[found[0]].source.map(|l| l.file);
            for &id in &inside {
                let elsewhere: BTreeSet<u32> = cfg
                    .branches
                    .iter()
                    .filter(|b| b.kind.loop_id() == Some(id))
                    .filter_map(|b| program.instructions[b.instr].source)
                    .map(|l| l.line)
                    .collect();
                // A line before every line the loop's branches come from
                // (in the same file) is the loop's own `for`/`while` line
                // whose test the compiler moved (pathfinder's `for` on line
                // 60, its branches from the `if (...) break` on line 97);
                // the body of an unrolled inner loop comes after them.
                let same_file_branches = cfg
                    .branches
                    .iter()
                    .filter(|b| b.kind.loop_id() == Some(id))
                    .filter_map(|b| program.instructions[b.instr].source)
                    .filter(|l| Some(l.file) == file)
                    .map(|l| l.line)
                    .min();
                if same_file_branches.is_some_and(|first| src.line < first) {
                    continue;
                }
                if !elsewhere.is_empty() {
                    let b = &cfg.blocks[cfg.loops[id].header];
                    return Err(HintsError::at(
                        span.clone(),
                        format!(
                            "no loop's branches come from {src}; its code is inside the loop at listing line {}, whose branches come from source line {}: name that loop by its own line (a source loop the compiler unrolled fully is no loop in the listing)",
                            program.instructions[b.start].pos.line,
                            compact_lines(&elsewhere)
                        ),
                    ));
                }
            }
            inside
        }
    };
    let header_line = |id: usize| {
        let b = &cfg.blocks[cfg.loops[id].header];
        (program.instructions[b.start].pos.line, b.label.clone())
    };
    // Copies of a device function's loop share their header line: one
    // candidate (the line hint gives every copy the count).
    let headers: BTreeSet<(u32, Option<String>)> = ids.iter().map(|&id| header_line(id)).collect();
    let lines: BTreeSet<u32> = headers.iter().map(|(l, _)| *l).collect();
    match lines.len() {
        1 => Ok(*lines.first().expect("one")),
        0 => Err(HintsError::at(
            span.clone(),
            format!(
                "no loop of `{}` holds instructions from {src} (they are on listing lines {}, outside every loop{})",
                program.name,
                join(&listing_lines(program, found.iter().copied())),
                match cfg.loops.is_empty() {
                    true => format!("; `{}` has no loops", program.name),
                    false => String::new(),
                }
            ),
        )),
        _ => Err(HintsError::at(
            span.clone(),
            format!(
                "{src} names several loops, whose headers start at listing lines {}: give one of them as `line =` (a source loop the compiler unrolled or split becomes several)",
                headers
                    .iter()
                    .map(|(l, label)| match label {
                        Some(label) => format!("{l} ({label})"),
                        None => l.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// How `shadersim hints --by-source` names instructions: the `source =`
/// value that maps back to them, when there is one.
pub(crate) struct SourceKeys<'a> {
    program: &'a Program,
    cfg: &'a Cfg,
    source_files: &'a [(u32, String)],
}

impl<'a> SourceKeys<'a> {
    /// Keys for `program` of a file naming its sources `source_files`.
    pub(crate) fn new(
        program: &'a Program,
        cfg: &'a Cfg,
        source_files: &'a [(u32, String)],
    ) -> Self {
        SourceKeys {
            program,
            cfg,
            source_files,
        }
    }

    /// The source keys of instruction `idx`, each with what it parses to:
    /// `FILE:LINE` (the file by its last path component), then
    /// `FILE:LINE:COLUMN`, which tells apart the branches one source line
    /// compiles to (`if (a && b)`: one branch per `&&`, at its column).
    fn keys_of(&self, idx: usize) -> Vec<(String, SourceRef)> {
        let Some(loc) = self.program.instructions[idx].source else {
            return Vec::new();
        };
        let Some((_, path)) = self.source_files.iter().find(|(n, _)| *n == loc.file) else {
            return Vec::new();
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        let line = format!("{name}:{}", loc.line);
        let mut texts = vec![line.clone()];
        if loc.column > 0 {
            texts.push(format!("{line}:{}", loc.column));
        }
        texts
            .into_iter()
            .filter_map(|text| parse_source_ref(&text).ok().map(|src| (text, src)))
            .collect()
    }

    /// The source key of memory instruction `idx`.
    pub(crate) fn memory(&self, idx: usize) -> Option<String> {
        self.keys_of(idx).into_iter().find_map(|(text, src)| {
            instructions_from(self.program, self.source_files, &src, &(0..0)).ok()?;
            Some(text)
        })
    }

    /// The source key that names the branch at `idx` alone.
    pub(crate) fn branch(&self, idx: usize) -> Option<String> {
        self.keys_of(idx).into_iter().find_map(|(text, src)| {
            let found = instructions_from(self.program, self.source_files, &src, &(0..0)).ok()?;
            let line = branch_line(self.program, self.cfg, &src, &found, &(0..0)).ok()?;
            (line == self.program.instructions[idx].pos.line).then_some(text)
        })
    }

    /// A source key that names loop `id` alone: of the lines of its own
    /// branches (guard, exit tests, back edges) and of the instructions of
    /// its blocks that name it, the first in the source, a `FILE:LINE` key
    /// before a `FILE:LINE:COLUMN` one. A loop's `for`/`while` line comes
    /// before its body's lines, so that is the line picked, wherever the
    /// compiler put its test (pathfinder: the `for` on line 60, not the
    /// `if (...) break` on line 97 its back edge comes from).
    pub(crate) fn loop_key(&self, id: usize) -> Option<String> {
        let (cfg, program) = (self.cfg, self.program);
        let lp = &cfg.loops[id];
        let header_line = program.instructions[cfg.blocks[lp.header].start].pos.line;
        let branches = cfg
            .branches
            .iter()
            .filter(|b| b.kind.loop_id() == Some(id))
            .map(|b| b.instr);
        let own = lp
            .blocks
            .iter()
            .flat_map(|&b| cfg.blocks[b].start..cfg.blocks[b].end);
        let mut tried = BTreeSet::new();
        branches
            .chain(own)
            .flat_map(|i| self.keys_of(i))
            .filter(|(text, _)| tried.insert(text.clone()))
            .filter_map(|(text, src)| {
                let found = instructions_from(program, self.source_files, &src, &(0..0)).ok()?;
                let line = loop_header_line(program, cfg, &src, &found, &(0..0)).ok()?;
                (line == header_line).then_some((src.line, src.column.is_some(), text))
            })
            .min()
            .map(|(_, _, text)| text)
    }
}
