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

use crate::calls::follow_calls;
use crate::expr::{eval, Env};
use crate::program::*;
use shadersim_isa::{GfxGen, InstrTable, Instruction, Operand, Recognition, Target};
use std::collections::HashMap;

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
        return Err(bad(nul, "binary data (NUL byte)"));
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

/// The target the file names: `.amdgcn_target "...--gfx900..."` (or
/// `.amd_amdgpu_isa`, which llc prints for the Mesa triple).
fn declared_target(text: &str) -> Option<Target> {
    for line in text.lines() {
        let t = line.trim();
        if let Some(target) = asic_target(t) {
            return Some(target);
        }
        if let Some(rest) = t
            .strip_prefix(".amdgcn_target")
            .or_else(|| t.strip_prefix(".amd_amdgpu_isa"))
        {
            let name = rest.trim().trim_matches('"');
            let gfx = name.rsplit("--").next().unwrap_or(name);
            if let Ok(target) = gfx.parse() {
                return Some(target);
            }
        }
    }
    None
}

/// Mnemonics that exist only from a given generation on, used to guess
/// the target of files that do not name it (objdump and RADV output).
const TARGET_EVIDENCE: &[(&str, &str)] = &[
    ("s_wait_loadcnt", "gfx1200"),
    ("s_wait_kmcnt", "gfx1200"),
    ("s_wait_dscnt", "gfx1200"),
    ("s_wait_samplecnt", "gfx1200"),
    ("s_wait_alu", "gfx1200"),
    ("s_wait_storecnt", "gfx1200"),
    ("s_wait_bvhcnt", "gfx1200"),
    ("s_delay_alu", "gfx1100"),
    ("v_dual_", "gfx1100"),
    ("s_sendmsg_rtn", "gfx1100"),
    ("global_load_b", "gfx1100"),
    ("s_load_b", "gfx1100"),
    ("buffer_load_b", "gfx1100"),
    ("ds_load_b", "gfx1100"),
    ("s_waitcnt_vscnt", "gfx1030"),
    ("v_add_nc_u32", "gfx1030"),
    ("s_clause", "gfx1030"),
    ("v_add_co_ci_u32", "gfx1030"),
    ("buffer_gl0_inv", "gfx1030"),
    ("v_add_co_u32", "gfx900"),
    ("global_load_", "gfx900"),
    ("v_add_u32", "gfx900"),
    ("v_add_i32", "gfx600"),
];

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

/// Column (0-based) of operand `name` in an instruction's text: its first
/// occurrence after the mnemonic.
fn operand_column(text: &str, name: &str) -> usize {
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

/// The processor a generation is guessed as.
const GEN_TARGETS: [&str; 7] = [
    "gfx600", "gfx701", "gfx803", "gfx900", "gfx1030", "gfx1100", "gfx1200",
];

/// The processor a header line names: RGA/SP3's `asic(GFX10.3)`, or a
/// `gfxNNN` word in a comment a tool printed (`; gfx1030`).
fn header_target(line: &str, code_end: usize) -> Option<(Target, String)> {
    let t = line.trim();
    if let Some(target) = asic_target(t) {
        return Some((target, t.to_string()));
    }
    let comment = &line[code_end.min(line.len())..];
    comment
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 6 && w.to_ascii_lowercase().starts_with("gfx"))
        .find_map(|w| w.to_ascii_lowercase().parse().ok())
        .map(|target| (target, comment.trim().to_string()))
}

/// The processor of RGA's (SP3's) `asic(GFX10.3)` header line.
fn asic_target(t: &str) -> Option<Target> {
    let inner = t.strip_prefix("asic(")?.strip_suffix(')')?;
    let lower = inner.to_ascii_lowercase();
    let name = match lower.as_str() {
        "gfx6" => "gfx600".to_string(),
        "gfx7" => "gfx701".to_string(),
        "gfx8" => "gfx803".to_string(),
        "gfx9" => "gfx900".to_string(),
        "gfx10" | "gfx10.1" => "gfx1010".to_string(),
        "gfx10.3" => "gfx1030".to_string(),
        "gfx11" => "gfx1100".to_string(),
        "gfx12" => "gfx1200".to_string(),
        other => other.replace('.', ""),
    };
    name.parse().ok()
}

/// Register names only wave32 code uses (the 32-bit halves of VCC and
/// EXEC as whole operands): gfx10 and later.
fn wave32_operand(code: &str) -> Option<&'static str> {
    ["vcc_lo", "exec_lo", "vcc_hi", "exec_hi"]
        .into_iter()
        .find(|r| {
            code.match_indices(r).any(|(i, _)| {
                let before = code[..i].chars().last();
                let after = code[i + r.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
}

/// The generations of a set, as `gfx8-9` / `gfx10` / `gfx6-7, gfx10`.
fn gens_text(bits: u8) -> String {
    let nums: Vec<u8> = GfxGen::ALL
        .iter()
        .filter(|g| bits & g.bit() != 0)
        .map(|g| g.number())
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let mut j = i;
        while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("gfx{}", nums[i])
        } else {
            format!("gfx{}-{}", nums[i], nums[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Guess the GPU of a file that does not name it, from what the listing
/// carries, strongest first:
/// 1. a header naming the processor (RGA's `asic(...)`, a `gfxNNN` comment);
/// 2. the machine words of each instruction: the generations whose
///    encoding of that mnemonic can be those words
///    ([`shadersim_isa::gen_encoding`]); the generations that encode the
///    most lines so win;
/// 3. wave32-only operands (`vcc_lo`, `exec_lo`): gfx10 or later;
/// 4. the mnemonics: generations whose compilers print every mnemonic of
///    the file (the table's `gens`), gfx8's carry syntax, and the first
///    mnemonic of [`TARGET_EVIDENCE`] that fits;
/// 5. else the oldest remaining generation.
///
/// Returns the target, the line of the deciding evidence and the evidence
/// in words for the warning.
fn guess_target(text: &str, dialect: Dialect, aco_bare: bool) -> Option<(Target, u32, String)> {
    let table = InstrTable::builtin();
    let mut gens = shadersim_isa::target::GenSet::ALL.0;
    // The first line of each TARGET_EVIDENCE mnemonic: (rank, line, word).
    let mut hits: Vec<(usize, u32, String)> = Vec::new();
    let mut first_word: Option<(u32, String)> = None;
    let mut saw_gfx8_carry = false;
    let mut encoded = 0u32;
    let mut encoded_by = [0u32; 7];
    let mut first_encoded: Option<u32> = None;
    let mut wave32: Option<(u32, &'static str)> = None;
    // Only the lines the reader will take as code count: RADV dumps also
    // hold ACO's own IR, printed with ACO's (gfx9-style) names.
    let mut in_disasm = false;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let code_end = comment_start(line).unwrap_or(line.len());
        if let Some((target, what)) = header_target(line, code_end) {
            return Some((target.clone(), n, format!("the listing says `{what}`")));
        }
        if dialect == Dialect::Aco && !aco_bare {
            let t = line.trim();
            if t == "disasm:" {
                in_disasm = true;
                continue;
            }
            if t.is_empty() {
                in_disasm = false;
            }
            if !in_disasm {
                continue;
            }
        }
        let Some(word) = line.split_whitespace().next() else {
            continue;
        };
        let Some(info) = table.lookup(word) else {
            continue;
        };
        let code = &line[..code_end];
        if wave32.is_none() {
            wave32 = wave32_operand(code).map(|r| (n, r));
        }
        let words = match dialect {
            Dialect::Aco => line.get(code_end + 1..).and_then(parse_hex_words),
            Dialect::Objdump | Dialect::Rga => line
                .find("//")
                .and_then(|c| parse_objdump_comment(&line[c + 2..]))
                .map(|(_, w)| w),
            Dialect::Llvm => None,
        };
        if let Some(words) = words {
            let fits =
                shadersim_isa::gen_encoding::gens_encoding(info.mnemonic, info.encoding, &words);
            encoded += 1;
            first_encoded.get_or_insert(n);
            for (k, g) in GfxGen::ALL.iter().enumerate() {
                if fits.contains(*g) {
                    encoded_by[k] += 1;
                }
            }
        }
        let printed = info.printed_gens().0;
        if gens & printed != 0 {
            gens &= printed;
        }
        if first_word.is_none() {
            first_word = Some((n, word.to_string()));
        }
        // gfx8 prints the carry-out add with its VCC operand:
        // `v_add_u32_e32 v0, vcc, s2, v0`; gfx9 has no carry there.
        let gfx8_carry = word.starts_with("v_add_u32") && line.contains(", vcc,");
        if gfx8_carry && gens & GfxGen::Gfx8.bit() != 0 {
            gens = GfxGen::Gfx8.bit();
            saw_gfx8_carry = true;
        }
        if let Some(rank) = TARGET_EVIDENCE
            .iter()
            .position(|(p, _)| word.starts_with(p))
        {
            if !hits.iter().any(|(r, _, _)| *r == rank) {
                hits.push((rank, n, word.to_string()));
            }
        }
    }
    let mut evidence = Vec::new();
    let mut decided_at = None;
    if encoded > 0 {
        let most = encoded_by.iter().copied().max().unwrap_or(0);
        let by_encoding: u8 = GfxGen::ALL
            .iter()
            .enumerate()
            .filter(|(k, _)| most > 0 && encoded_by[*k] == most)
            .fold(0, |bits, (_, g)| bits | g.bit());
        if by_encoding != 0 {
            evidence.push(format!(
                "{most} of its {encoded} encodings are {} encodings",
                gens_text(by_encoding)
            ));
            decided_at = first_encoded;
            gens = if gens & by_encoding != 0 {
                gens & by_encoding
            } else {
                by_encoding
            };
        }
    }
    if let Some((line, reg)) = wave32 {
        let rdna = GfxGen::Gfx10.bit() | GfxGen::Gfx11.bit() | GfxGen::Gfx12.bit();
        if gens & rdna != 0 {
            if gens & !rdna != 0 {
                evidence.push(format!("wave32 operand `{reg}` (line {line})"));
                decided_at.get_or_insert(line);
            }
            gens &= rdna;
        }
    }
    // The most telling mnemonic that fits the final candidates (evidence
    // seen before later lines narrowed them may no longer fit).
    let fitting = hits
        .iter()
        .filter_map(|(rank, line, word)| {
            let target: Target = TARGET_EVIDENCE[*rank].1.parse().ok()?;
            (gens & target.gen.bit() != 0).then_some((*rank, *line, word, target))
        })
        .min_by_key(|(rank, _, _, _)| *rank);
    if let Some((_, line, word, target)) = fitting {
        if gens != target.gen.bit() || evidence.is_empty() {
            evidence.push(format!(
                "`{word}` (line {line}) first appears in {}",
                target.gen
            ));
        }
        return Some((target, decided_at.unwrap_or(line), evidence.join("; ")));
    }
    // Nothing tells the remaining candidates apart. Code that is valid on
    // gfx9 and on an older GCN generation is read as gfx9: gfx6-8 code
    // shows itself by its carry syntax (`v_add_i32`, `v_add_u32 ..., vcc`)
    // and gfx6-7 by their own mnemonics, and gfx8 and gfx9 encode the
    // instructions both have alike (checked with llvm-mc-19 on every
    // instruction of the ACO fixtures). Among RDNA generations the oldest
    // wins (code valid on gfx10 and gfx11 alike was more likely written
    // for the first).
    let chosen = if gens & GfxGen::Gfx9.bit() != 0
        && gens & !(GfxGen::Gfx10.bit() | GfxGen::Gfx11.bit() | GfxGen::Gfx12.bit())
            != GfxGen::Gfx9.bit()
    {
        GfxGen::Gfx9
    } else {
        *GfxGen::ALL.iter().find(|g| gens & g.bit() != 0)?
    };
    let target: Target = GEN_TARGETS[usize::from(chosen.number() - 6)].parse().ok()?;
    let (line, _) = first_word?;
    if saw_gfx8_carry {
        evidence.push("its `v_add_u32 ..., vcc, ...` carry-out adds are gfx8 syntax".to_string());
    } else if evidence.is_empty() || gens.count_ones() > 1 {
        evidence.push(format!(
            "every mnemonic in it is printed for {} alike; {chosen} chosen",
            gens_text(gens)
        ));
    }
    Some((target, decided_at.unwrap_or(line), evidence.join("; ")))
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

/// SPI register offsets (in `.AMDGPU.config` `.long` pairs, as llc prints
/// them for Mesa) whose presence says which hardware stage a function runs
/// as. Values are the PGM_RSRC1 registers of each stage (Mesa `sid.h`).
const CONFIG_STAGE_REGISTERS: &[(u32, Stage)] = &[
    (0xB028, Stage::Pixel),   // SPI_SHADER_PGM_RSRC1_PS
    (0xB128, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_VS
    (0xB228, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_GS (gfx10+: NGG vertex)
    (0xB328, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_ES
    (0xB428, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_HS
    (0xB528, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_LS
    (0xB848, Stage::Compute), // COMPUTE_PGM_RSRC1
];

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

/// A workgroup size a GPU can run (1 to 1024 threads), or `None` for
/// anything else a file might say (a graphics stage's `0, 0, 0`, garbage).
fn valid_workgroup(x: u32, y: u32, z: u32) -> Option<[u32; 3]> {
    let threads = x.checked_mul(y)?.checked_mul(z)?;
    (1..=1024).contains(&threads).then_some([x, y, z])
}

/// Reads the kernel entries of LLVM's HSA metadata (YAML inside
/// `.amdgpu_metadata`): only the kernel-level keys the simulator needs.
#[derive(Default)]
struct MetadataReader {
    /// Inside the top-level `amdhsa.kernels:` list.
    in_kernels: bool,
    /// Column of the `- ` that starts each kernel entry.
    kernel_indent: Option<usize>,
    /// Kernels read so far: name and what they declare.
    kernels: Vec<(Option<String>, DeclaredResources)>,
    /// A block list being read (`.reqd_workgroup_size:` then `- 256` lines).
    list: Option<Vec<u32>>,
}

impl MetadataReader {
    fn line(&mut self, raw: &str) {
        let indent = raw.len() - raw.trim_start().len();
        let t = raw.trim();
        if let Some(list) = self.list.as_mut() {
            if let Some(v) = t.strip_prefix("- ").and_then(|v| v.trim().parse().ok()) {
                list.push(v);
                return;
            }
            let list = self.list.take().unwrap_or_default();
            self.set_workgroup(&list);
        }
        if indent == 0 && !t.is_empty() {
            self.in_kernels = t == "amdhsa.kernels:";
            self.kernel_indent = None;
            return;
        }
        if !self.in_kernels {
            return;
        }
        if t.starts_with("- ") && self.kernel_indent.is_none_or(|k| k == indent) {
            self.kernel_indent = Some(indent);
            self.kernels.push((None, DeclaredResources::default()));
            return self.key(&t[2..]);
        }
        if self.kernel_indent.is_some_and(|k| indent == k + 2) {
            self.key(t);
        }
    }

    fn key(&mut self, t: &str) {
        let Some((key, value)) = t.split_once(':') else {
            return;
        };
        let value = value.trim();
        let Some((name, d)) = self.kernels.last_mut() else {
            return;
        };
        let int = || value.parse::<u32>().ok();
        match key.trim() {
            ".name" => *name = Some(value.trim_matches(['\'', '"']).to_string()),
            ".group_segment_fixed_size" => d.lds_bytes = int(),
            ".private_segment_fixed_size" => d.scratch_bytes = int(),
            ".vgpr_count" => d.vgprs = int(),
            ".sgpr_count" => d.sgprs = int(),
            ".wavefront_size" => d.wave_size = int(),
            ".reqd_workgroup_size" if value.is_empty() => self.list = Some(Vec::new()),
            ".reqd_workgroup_size" => {
                let list: Vec<u32> = value
                    .trim_matches(['[', ']'])
                    .split(',')
                    .filter_map(|v| v.trim().parse().ok())
                    .collect();
                self.set_workgroup(&list);
            }
            _ => {}
        }
    }

    fn set_workgroup(&mut self, list: &[u32]) {
        if let (Some((_, d)), [x, y, z]) = (self.kernels.last_mut(), list) {
            d.workgroup_size = valid_workgroup(*x, *y, *z);
        }
    }

    fn end(&mut self) {
        if let Some(list) = self.list.take() {
            self.set_workgroup(&list);
        }
        self.kernel_indent = None;
        self.in_kernels = false;
    }
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

    fn aco_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if !self.aco_in_disasm {
            if t == "disasm:" {
                let (name, stage) = self
                    .aco_header
                    .take()
                    .unwrap_or_else(|| ("shader".to_string(), None));
                let count = self.programs.len() + usize::from(self.current.is_some());
                let name = if self.programs.iter().any(|p| p.name == name) {
                    format!("{name} #{count}")
                } else {
                    name
                };
                self.start_program(&name, n, stage);
                if stage == Some(Stage::Compute) {
                    // NIR's header of the (only) compute shader of the dump.
                    let declared = self.radv_declared.clone();
                    if let Some(p) = self.current.as_mut() {
                        merge_declared(&mut p.declared, declared);
                    }
                }
                self.aco_in_disasm = true;
            } else if let Some(size) = t.strip_prefix("workgroup-size:") {
                let dims: Vec<u32> = size
                    .split(',')
                    .filter_map(|d| d.trim().parse().ok())
                    .collect();
                if let [x, y, z] = dims[..] {
                    if let Some(size) = valid_workgroup(x, y, z) {
                        self.radv_declared.workgroup_size = Some(size);
                    }
                }
            } else if let Some(size) = t.strip_prefix("shared-size:") {
                self.radv_declared.lds_bytes = size.trim().parse().ok();
            } else if !t.is_empty() && !raw.starts_with(char::is_whitespace) {
                // The line before `disasm:` names the shader: "Pixel Shader",
                // "Vertex Shader as VS", "Compute Shader", ...
                let lower = t.to_ascii_lowercase();
                let stage =
                    if lower.starts_with("pixel shader") || lower.starts_with("fragment shader") {
                        Some(Stage::Pixel)
                    } else if lower.starts_with("vertex shader") {
                        Some(Stage::Vertex)
                    } else if lower.starts_with("compute shader") {
                        Some(Stage::Compute)
                    } else {
                        None
                    };
                if stage.is_some() || lower.ends_with("shader") {
                    self.aco_header = Some((t.to_string(), stage));
                }
            }
            return Ok(());
        }
        if t.is_empty() {
            if !self.aco_bare {
                self.aco_in_disasm = false;
                self.close_program();
            }
            return Ok(());
        }
        let (code, comment) = match comment_start(raw) {
            Some(c) => (&raw[..c], Some(&raw[c + 1..])),
            None => (raw, None),
        };
        let encoding = comment.and_then(parse_hex_words).unwrap_or_default();
        self.code(n, code, None, encoding)
    }

    fn objdump_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if t.is_empty() || t.starts_with("Disassembly of section") || t.contains("file format") {
            return Ok(());
        }
        if let Some(comment) = t.strip_prefix(';') {
            self.objdump_line_info(comment);
            return Ok(());
        }
        // Function header: `0000000000001100 <name>:`, or `<name>:`
        // (--no-leading-addr); `<L0>:` inside a function is a label
        // (--symbolize-operands).
        let header = match t.split_once(' ') {
            Some((addr, rest)) if addr.bytes().all(|b| b.is_ascii_hexdigit()) => Some(rest),
            None => Some(t),
            _ => None,
        };
        if let Some(name) = header
            .and_then(|h| h.strip_prefix('<'))
            .and_then(|h| h.strip_suffix(">:"))
        {
            let is_label = name.len() > 1
                && name.starts_with('L')
                && name[1..].bytes().all(|b| b.is_ascii_digit());
            if is_label && self.current.is_some() {
                self.add_label(name, n);
            } else {
                self.start_program(name, n, None);
            }
            return Ok(());
        }
        // Relocation (-r): `0000000000000140:  R_AMDGPU_REL32_LO  helper+0x4`.
        if let Some((addr, rest)) = t.split_once(':') {
            if addr.bytes().all(|b| b.is_ascii_hexdigit())
                && rest.trim_start().starts_with("R_AMDGPU_")
            {
                self.relocation(rest.trim());
                return Ok(());
            }
        }
        let (code, address, encoding) = match raw.find("//") {
            Some(c) => match parse_objdump_comment(&raw[c + 2..]) {
                Some((a, w)) => (&raw[..c], Some(a), w),
                None => (&raw[..c], None, Vec::new()),
            },
            None => (raw, None, Vec::new()),
        };
        let code_trim = code.trim();
        if code_trim.is_empty() {
            return Ok(());
        }
        if code_trim == "s_code_end" {
            // Padding after the end of the code (documented skip rule).
            return Ok(());
        }
        if let Some((label, _)) = split_label(code_trim) {
            self.ensure_program(n);
            self.add_label(label, n);
            return Ok(());
        }
        self.code(n, code, address, encoding)
    }

    /// `; /path/file.cl:28` (llvm-objdump -l): the source line of what
    /// follows. Other `;` lines (function names, -S source text) say nothing
    /// the simulator needs.
    fn objdump_line_info(&mut self, comment: &str) {
        let c = comment.trim();
        let Some((path, line)) = c.rsplit_once(':') else {
            return;
        };
        let Ok(line) = line.parse::<u32>() else {
            return;
        };
        if path.is_empty() || path.contains(char::is_whitespace) {
            return;
        }
        let file = match self.source_files.iter().find(|(_, p)| p == path) {
            Some((number, _)) => *number,
            None => {
                let number = self.source_files.len() as u32;
                self.source_files.push((number, path.to_string()));
                number
            }
        };
        self.loc = (line > 0).then_some(SourceLoc {
            file,
            line,
            column: 0,
        });
    }

    /// An objdump relocation patches the literal of the instruction just
    /// read: give that operand its symbol, as LLVM's assembly prints it
    /// (`helper@rel32@lo+4`), so calls through it resolve.
    fn relocation(&mut self, rest: &str) {
        let mut words = rest.split_whitespace();
        let (Some(kind), Some(target)) = (words.next(), words.next()) else {
            return;
        };
        let suffix = match kind {
            "R_AMDGPU_REL32_LO" => "@rel32@lo",
            "R_AMDGPU_REL32_HI" => "@rel32@hi",
            "R_AMDGPU_GOTPCREL32_LO" => "@gotpcrel32@lo",
            "R_AMDGPU_GOTPCREL32_HI" => "@gotpcrel32@hi",
            "R_AMDGPU_ABS32_LO" => "@abs32@lo",
            "R_AMDGPU_ABS32_HI" => "@abs32@hi",
            _ => return,
        };
        let (sym, addend) = target.split_once('+').unwrap_or((target, "0"));
        let Some(last) = self
            .current
            .as_mut()
            .and_then(|p| p.instructions.last_mut())
        else {
            return;
        };
        if let Some(op) = last
            .inst
            .operands
            .iter_mut()
            .rev()
            .find(|o| matches!(o, Operand::Imm(_)))
        {
            *op = Operand::Symbol(format!("{sym}{suffix}+{addend}"));
        }
    }

    fn rga_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let t = raw.trim();
        if t.is_empty() {
            return Ok(());
        }
        if let Some(comment) = t.strip_prefix(';') {
            self.rga_statistic(comment);
            return Ok(());
        }
        if let Some(name) = t.strip_prefix("shader ") {
            self.start_program(name.trim(), n, None);
            return Ok(());
        }
        if t == "end" {
            self.close_program();
            return Ok(());
        }
        // Header properties: `asic(GFX10)`, `type(CS)`, `vgpr_count(8)`.
        if let Some((key, value)) = t.strip_suffix(')').and_then(|h| h.split_once('(')) {
            if key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') && !key.is_empty() {
                self.rga_property(key, value.trim());
                return Ok(());
            }
        }
        let code_end = raw.find("//").unwrap_or(raw.len());
        let code = &raw[..code_end];
        if code.trim().is_empty() {
            return Ok(());
        }
        let (address, encoding) = raw
            .get(code_end + 2..)
            .and_then(parse_objdump_comment)
            .map_or((None, Vec::new()), |(a, w)| (Some(a), w));
        // SP3 accepts upper-case mnemonics (`S_BARRIER`).
        let lowered;
        let code =
            if code.bytes().any(|b| b.is_ascii_uppercase()) && split_label(code.trim()).is_none() {
                let start = code.len() - code.trim_start().len();
                let end = code[start..]
                    .find(char::is_whitespace)
                    .map_or(code.len(), |e| start + e);
                lowered = format!(
                    "{}{}{}",
                    &code[..start],
                    code[start..end].to_ascii_lowercase(),
                    &code[end..]
                );
                lowered.as_str()
            } else {
                code
            };
        self.code(n, code, address, encoding)
    }

    fn rga_property(&mut self, key: &str, value: &str) {
        let int = value.parse::<u32>().ok();
        let Some(p) = self.current.as_mut() else {
            return;
        };
        match key {
            "type" => {
                p.stage = match value.to_ascii_uppercase().as_str() {
                    "PS" => Some(Stage::Pixel),
                    "VS" | "GS" | "ES" | "LS" | "HS" => Some(Stage::Vertex),
                    "CS" => Some(Stage::Compute),
                    _ => p.stage,
                }
            }
            "vgpr_count" => p.declared.vgprs = int,
            "sgpr_count" => p.declared.sgprs = int,
            "wave_size" => p.declared.wave_size = int,
            "lds_size" => p.declared.lds_bytes = int,
            _ => {}
        }
    }

    /// RGA's statistics after the code: `; SGPRs: 14 out of 104 used`,
    /// `; VGPRs: 8 out of 256 used`, `; LDS: 1024 out of 65536 bytes used`.
    fn rga_statistic(&mut self, comment: &str) {
        let Some((key, value)) = comment.trim().split_once(':') else {
            return;
        };
        let value: Option<u32> = value.split_whitespace().next().and_then(|v| v.parse().ok());
        let Some(p) = self.stats_program() else {
            return;
        };
        let d = &mut p.declared;
        match key.trim() {
            "SGPRs" => d.sgprs = d.sgprs.or(value),
            "VGPRs" => d.vgprs = d.vgprs.or(value),
            "LDS" => d.lds_bytes = d.lds_bytes.or(value),
            _ => {}
        }
    }

    fn llvm_line(&mut self, n: u32, raw: &str) -> Result<(), AsmError> {
        let (code, comment) = match comment_start(raw) {
            Some(c) => (&raw[..c], Some(&raw[c..])),
            None => (raw, None),
        };
        if let Some(comment) = comment {
            self.stats_comment(comment);
        }
        let t = code.trim();
        if self.in_metadata {
            if t.starts_with(".end_amdgpu_metadata") || t.starts_with(".end_amdgpu_pal_metadata") {
                self.in_metadata = false;
                self.metadata.end();
            } else {
                self.metadata.line(code);
            }
            return Ok(());
        }
        if t.is_empty() {
            return Ok(());
        }
        if t.starts_with('.') && split_label(t).is_none() {
            return self.directive(n, raw, t);
        }
        if let Some((label, rest)) = split_label(t) {
            if self.in_data_section {
                return Ok(());
            }
            if self.function_symbols.iter().any(|f| f == label) {
                let stage = self.pending_stage.take();
                self.start_program(label, n, stage);
                if let Some(d) = self.descriptors.remove(label) {
                    merge_declared(&mut self.current.as_mut().unwrap().declared, d);
                }
            } else if label.starts_with(".Lfunc_end") {
                self.close_program();
                return Ok(());
            } else {
                self.ensure_program(n);
                self.add_label(label, n);
            }
            if !rest.trim().is_empty() {
                let offset = raw.len() - raw.trim_start().len() + (t.len() - rest.len());
                let rest_code = &raw[..offset + rest.len()];
                let padded: String = rest_code
                    .char_indices()
                    .map(|(i, c)| if i < offset { ' ' } else { c })
                    .collect();
                return self.code(n, &padded, None, Vec::new());
            }
            return Ok(());
        }
        if self.in_data_section {
            return Ok(());
        }
        self.code(n, code, None, Vec::new())
    }

    fn directive(&mut self, n: u32, raw: &str, t: &str) -> Result<(), AsmError> {
        let mut words = t.split_whitespace();
        let name = words.next().unwrap_or("");
        let arg = t[name.len()..].trim();
        let col = raw.len() - raw.trim_start().len();
        match name {
            ".amdgpu_metadata" | ".amdgpu_pal_metadata" => self.in_metadata = true,
            ".set" | ".equ" => {
                if let Some((sym, value)) = arg.split_once(',') {
                    self.symbols
                        .insert(sym.trim().to_string(), value.trim().to_string());
                }
            }
            ".file" => {
                // `.file 0 "/dir" "name.cl" md5 0x...` or `.file 1 "path"`;
                // a `.file "name"` without number names the assembler input.
                let (number, rest) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
                if let Ok(number) = number.parse::<u32>() {
                    let strings: Vec<&str> = rest.split('"').skip(1).step_by(2).collect();
                    let path = match strings.as_slice() {
                        [dir, name, ..] if !name.starts_with('/') && !dir.is_empty() => {
                            format!("{dir}/{name}")
                        }
                        [_, name, ..] | [name] => name.to_string(),
                        [] => String::new(),
                    };
                    self.source_files.retain(|(n, _)| *n != number);
                    self.source_files.push((number, path));
                }
            }
            ".loc" => {
                let mut nums = arg.split_whitespace().map(|w| w.parse::<u32>().ok());
                self.loc = match (nums.next().flatten(), nums.next().flatten()) {
                    // Line 0: code with no source line (compiler-made).
                    (Some(_), Some(0)) => None,
                    (Some(file), Some(line)) => Some(SourceLoc {
                        file,
                        line,
                        column: nums.next().flatten().unwrap_or(0),
                    }),
                    _ => self.loc,
                };
            }
            ".text" => self.in_data_section = false,
            ".data" | ".rodata" | ".bss" => self.in_data_section = true,
            ".section" => {
                let sec = arg.split(',').next().unwrap_or("").trim().trim_matches('"');
                self.in_data_section = !(sec.starts_with(".text") || sec == ".AMDGPU.config");
                if sec == ".AMDGPU.config" {
                    self.in_config = true;
                    self.in_data_section = true;
                } else {
                    self.in_config = false;
                }
            }
            ".long" if self.in_config => {
                if let Some(v) = shadersim_isa::operand::parse_int(arg) {
                    if let Some((_, stage)) = CONFIG_STAGE_REGISTERS
                        .iter()
                        .find(|(r, _)| i64::from(*r) == v)
                    {
                        self.pending_stage = Some(*stage);
                    }
                }
            }
            ".type" => {
                if let Some((sym, kind)) = arg.split_once(',') {
                    if kind.trim() == "@function" {
                        self.function_symbols.push(sym.trim().to_string());
                    }
                }
            }
            ".amdhsa_kernel" => {
                self.descriptor = Some((
                    arg.to_string(),
                    DeclaredResources {
                        wave_size: Some(64),
                        ..Default::default()
                    },
                ))
            }
            ".end_amdhsa_kernel" => {
                if let Some((kname, d)) = self.descriptor.take() {
                    // The descriptor may come before or after the code.
                    let target = self
                        .current
                        .as_mut()
                        .filter(|p| p.name == kname)
                        .or_else(|| self.programs.iter_mut().rev().find(|p| p.name == kname));
                    match target {
                        Some(p) => {
                            if p.stage.is_none() {
                                p.stage = Some(Stage::Compute);
                            }
                            merge_declared(&mut p.declared, d)
                        }
                        None => {
                            self.descriptors.insert(kname, d);
                        }
                    }
                }
            }
            _ if name.starts_with(".amdhsa_") => {
                if let Some((kernel, d)) = self.descriptor.as_mut() {
                    let literal = shadersim_isa::operand::parse_int(arg);
                    // clang 20+ writes register counts of kernels with calls
                    // as expressions over `.set` symbols defined later.
                    if literal.is_none()
                        && matches!(name, ".amdhsa_next_free_vgpr" | ".amdhsa_next_free_sgpr")
                    {
                        self.deferred.push(Deferred {
                            kernel: kernel.clone(),
                            directive: name.to_string(),
                            expr: arg.to_string(),
                            line: n,
                            column: col,
                        });
                    }
                    let v = literal.and_then(|v| u32::try_from(v).ok());
                    match name {
                        ".amdhsa_next_free_vgpr" => d.vgprs = v,
                        ".amdhsa_next_free_sgpr" => d.sgprs = v,
                        ".amdhsa_group_segment_fixed_size" => d.lds_bytes = v,
                        ".amdhsa_private_segment_fixed_size" => d.scratch_bytes = v,
                        ".amdhsa_wavefront_size32" => {
                            d.wave_size = Some(if v == Some(1) { 32 } else { 64 })
                        }
                        _ => {}
                    }
                }
            }
            _ if KNOWN_DIRECTIVES.contains(&name) => {}
            _ => self.warn(n, col, format!("skipped unknown directive `{name}`")),
        }
        Ok(())
    }

    /// Statistics comments LLVM prints per function.
    fn stats_comment(&mut self, comment: &str) {
        let c = comment.trim_start_matches([';', '/']).trim();
        let Some((key, value)) = c.split_once(':') else {
            return;
        };
        let value: Option<u32> = value.split_whitespace().next().and_then(|v| v.parse().ok());
        let key = key.trim();
        if !matches!(
            key,
            "NumVgprs" | "NumSgprs" | "ScratchSize" | "LDSByteSize" | "Occupancy"
        ) {
            return;
        }
        let Some(p) = self.stats_program() else {
            return;
        };
        let d = &mut p.declared;
        match key {
            // The descriptor's next_free counts win; comments fill gaps.
            // A count printed as an expression (clang 20+, kernels with
            // calls) says nothing here; the descriptor's is evaluated.
            "NumVgprs" => d.vgprs = d.vgprs.or(value),
            "NumSgprs" => d.sgprs = d.sgprs.or(value),
            "ScratchSize" => d.scratch_bytes = d.scratch_bytes.or(value),
            "LDSByteSize" => d.lds_bytes = d.lds_bytes.or(value),
            "Occupancy" => d.occupancy = value,
            _ => {}
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

    fn code(
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
        // The generation has the mnemonic but this processor of it may not
        // (gfx900 lacks the dot ops gfx906 has): llvm-mc refuses such a
        // line ("instruction not supported on this GPU"), so a named
        // processor makes it an error and a guessed one a warning, as for
        // the generation above.
        let processor = self.target.as_ref().map(|t| t.name.clone());
        if let (true, Some(processor)) = (inst.valid_for_gen, processor) {
            for half in std::iter::once(&inst).chain(inst.dual.as_deref()) {
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
        // Too few operands for the mnemonic's shortest form (the table's
        // operand counts): llvm-mc refuses the line, so does the reader.
        // A `::` dual line is checked by halves.
        for half in std::iter::once(&inst).chain(inst.dual.as_deref()) {
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

    /// Evaluate the descriptor values written as expressions.
    fn evaluate_deferred(&mut self) {
        let target = self.target.as_ref();
        let env = Env {
            symbols: &self.symbols,
            unified_agprs: target.is_some_and(|t| {
                t.name.starts_with("gfx90a")
                    || t.name.starts_with("gfx94")
                    || t.name.starts_with("gfx95")
            }),
            gen: self.gen.number(),
        };
        for d in std::mem::take(&mut self.deferred) {
            let value = eval(&d.expr, &env).and_then(|v| u32::try_from(v).ok());
            let Some(value) = value else {
                self.warnings.push(Warning {
                    pos: Some(SourcePos {
                        line: d.line,
                        column: d.column as u32 + 1,
                    }),
                    message: format!(
                        "cannot evaluate `{} {}`; the register count comes from the instructions",
                        d.directive, d.expr
                    ),
                });
                continue;
            };
            let Some(p) = self.programs.iter_mut().find(|p| p.name == d.kernel) else {
                continue;
            };
            if d.directive == ".amdhsa_next_free_vgpr" {
                p.declared.vgprs = Some(value);
            } else {
                p.declared.sgprs = Some(value);
            }
        }
    }

    fn finish(mut self) -> Result<ProgramFile, AsmError> {
        self.close_program();
        self.evaluate_deferred();
        self.metadata.end();
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
        for p in &mut programs {
            if p.stage.is_none() {
                p.stage = stage_from_exports(p);
            }
            resolve_branches(self.file, self.dialect, p)?;
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

/// Directives read silently (they carry nothing the simulator needs).
const KNOWN_DIRECTIVES: &[&str] = &[
    ".amdgcn_target",
    ".p2alignl",
    ".amdhsa_code_object_version",
    ".globl",
    ".global",
    ".protected",
    ".hidden",
    ".weak",
    ".p2align",
    ".align",
    ".size",
    ".ident",
    ".addrsig",
    ".addrsig_sym",
    ".set",
    ".file",
    ".loc",
    ".cfi_startproc",
    ".cfi_endproc",
    ".cfi_sections",
    ".local",
    ".comm",
    ".end_amdgpu_metadata",
    ".byte",
    ".short",
    ".long",
    ".quad",
    ".zero",
    ".space",
    ".asciz",
    ".ascii",
    ".string",
    ".word",
    ".hsa_code_object_version",
    ".hsa_code_object_isa",
    ".amd_kernel_code_t",
    ".end_amd_kernel_code_t",
    ".amd_amdgpu_isa",
    ".amd_amdgpu_hsa_metadata",
    ".end_amd_amdgpu_hsa_metadata",
    ".amdgpu_hsa_kernel",
    ".end_amdgpu_pal_metadata",
    ".previous",
    ".popsection",
    ".pushsection",
    ".option",
    ".macro",
    ".endm",
    ".equ",
    ".reloc",
    ".uleb128",
    ".sleb128",
    ".balign",
    ".fill",
    ".type",
    ".loc_file",
];

fn merge_declared(into: &mut DeclaredResources, from: DeclaredResources) {
    into.vgprs = from.vgprs.or(into.vgprs);
    into.sgprs = from.sgprs.or(into.sgprs);
    into.lds_bytes = from.lds_bytes.or(into.lds_bytes);
    into.scratch_bytes = from.scratch_bytes.or(into.scratch_bytes);
    into.wave_size = from.wave_size.or(into.wave_size);
    into.occupancy = into.occupancy.or(from.occupancy);
    into.workgroup_size = from.workgroup_size.or(into.workgroup_size);
}

/// A program that exports to render targets is a pixel shader; one that
/// exports positions is a vertex shader.
fn stage_from_exports(p: &Program) -> Option<Stage> {
    use shadersim_isa::ExportTarget::*;
    for i in &p.instructions {
        match i.inst.export_target() {
            Some(Mrt(_) | MrtZ | DualSrcBlend(_)) => return Some(Stage::Pixel),
            Some(Pos(_) | Param(_) | Prim) => return Some(Stage::Vertex),
            _ => {}
        }
    }
    None
}

fn resolve_branches(file: &str, dialect: Dialect, p: &mut Program) -> Result<(), AsmError> {
    let mut label_index: HashMap<String, usize> = HashMap::new();
    let mut label_line: HashMap<&str, u32> = HashMap::new();
    for l in &p.labels {
        if let Some(first) = label_line.insert(&l.name, l.line) {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(SourcePos {
                    line: l.line,
                    column: 1,
                }),
                message: format!("label `{}` defined twice (first at line {first})", l.name),
            });
        }
        label_index.insert(l.name.clone(), l.index);
    }
    let addr_index: HashMap<u64, usize> = p
        .instructions
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.address.map(|a| (a, i)))
        .collect();
    let end_address = p
        .instructions
        .last()
        .and_then(|s| s.address.map(|a| a + 4 * s.encoding.len() as u64));
    let mut targets = Vec::with_capacity(p.instructions.len());
    let mut new_labels = Vec::new();
    for s in &p.instructions {
        let target = match s.inst.branch_target() {
            None => None,
            Some(Operand::Symbol(name)) => match label_index.get(name) {
                Some(&i) => Some(i),
                None => {
                    return Err(AsmError {
                        file: file.to_string(),
                        pos: Some(s.pos),
                        message: format!(
                            "branch to `{name}`, which is not a label of `{}`",
                            p.name
                        ),
                    })
                }
            },
            Some(Operand::Imm(offset)) => {
                let Some(addr) = s.address else {
                    return Err(AsmError {
                        file: file.to_string(),
                        pos: Some(s.pos),
                        message: format!(
                            "numeric branch offset `{offset}` needs instruction addresses ({} output has none); use a label",
                            dialect.name()
                        ),
                    });
                };
                // SOPP branch: target = PC + 4 + simm16 * 4.
                let simm = i64::from(*offset as u16 as i16);
                let t = addr as i64 + 4 + simm * 4;
                let idx = if Some(t as u64) == end_address {
                    Some(p.instructions.len())
                } else {
                    addr_index.get(&(t as u64)).copied()
                };
                match idx {
                    Some(i) => {
                        let name = format!(".L_0x{t:x}");
                        if label_index.insert(name.clone(), i).is_none() {
                            new_labels.push(Label {
                                name,
                                index: i,
                                line: 0,
                            });
                        }
                        Some(i)
                    }
                    None => {
                        return Err(AsmError {
                            file: file.to_string(),
                            pos: Some(s.pos),
                            message: format!(
                            "branch target 0x{t:x} is not the address of an instruction of `{}`",
                            p.name
                        ),
                        })
                    }
                }
            }
            Some(_) => None,
        };
        targets.push(target);
    }
    p.labels.extend(new_labels);
    p.labels.sort_by_key(|l| (l.index, l.line == 0, l.line));
    p.branch_targets = targets;
    Ok(())
}
